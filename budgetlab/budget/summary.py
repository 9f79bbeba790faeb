"""replay_summary: per group, the per-event figures of a replay and the time on the window's clock.

What the per-event replay says (events, success rate, transitions, final status: what the seed's
callbacks and gate saw) sits beside what sums time, read from :func:`budgetlab.status_spans`:
hours and share in each status, ``no_traffic`` as its own column, the warm-up, the observed
time (the window holds at least one event) and the transitions per day over it, the events per
day over each group's sending time (:mod:`budgetlab.budget.sending`: no window in it), and the
silences. The rates keep their meaning under a day of their time; the ``note`` says they are too
thin to go by there (:func:`budgetlab._util.thin.too_thin`, the rule of
:func:`budgetlab.compare_windows`).
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np
import pandas as pd

from .._util.attrs import span_attrs
from .._util.progress import ProgressBar
from .._util.ratios import ratio
from .._util.thin import thin_words
from .._util.units import HOUR_NS
from ..errors import InputError
from ..events.schema import ts_ns
from ..slo import SLO, PerGroup, table_slo
from ..windows.clock import NO_TRAFFIC_CODE
from ..windows.groups import group_order
from .blips import closing_instants
from .figures import STATUS_DTYPE, STATUSES
from .quiet_gaps import gap_columns, summary_quiet_gaps
from .replay_status import PROGRESS_EVENTS, REPLAY_COLUMNS, VARIANT_ATTRS, check_states
from .sending import SENDING_GAP_HOURS, sending_time
from .spans import SPAN_STATUS_DTYPE, SPAN_STATUSES, silences, status_spans

__all__ = ["replay_summary", "SUMMARY_TIME_COLUMNS", "NO_OBSERVED_TIME", "NO_SENDING_TIME"]

#: The states and events of a Dask replay, row for row in time order (ties in the order of the
#: events), whatever the order of its files: what replay_summary's refusals say.
_OF_DASK = ("of a Dask replay: budgetlab.dask.replay(...).compute().sort_index()"
            ".sort_values('ts', kind='stable'), with events.compute()"
            ".sort_values('ts', kind='stable')")

#: The time columns of :func:`replay_summary` (after ``success_rate``), in order.
SUMMARY_TIME_COLUMNS = (*(f"hours_{s}" for s in SPAN_STATUSES),
                        *(f"share_{s}" for s in SPAN_STATUSES),
                        "observed_hours", "warmup_hours", "refill_hours", "before_first_hours",
                        "after_last_hours")

#: The ``note`` of :func:`replay_summary` on a group without observed time: its events all fall
#: at the observation's end, so its window never held one before the end.
NO_OBSERVED_TIME = ("no observed time: the group's events fall at the observation's last instant, "
                    "so it has no transitions per day")

#: The ``note`` of :func:`replay_summary` on a group without sending time (one event, or events a
#: day and more apart: :mod:`budgetlab.budget.sending`).
NO_SENDING_TIME = ("no sending time: the group's events are all at one instant or more than "
                   f"{SENDING_GAP_HOURS:g} h apart, so it has no events per day")


def replay_summary(states: pd.DataFrame, events: pd.DataFrame, *, spans: pd.DataFrame | None = None
                   ) -> pd.DataFrame:
    """Per group: events, success rate, time in each status on the window's clock, transitions.

    Time is read on the window's clock (:func:`budgetlab.status_spans`): between events the window
    keeps moving, and once it is empty the group has no traffic, counted apart (never as its last
    status). Every time figure counts the whole observation, the first to the last event of
    ``events`` (all groups), warm-up included: ``warmup_hours`` says how much of it was the first
    window of a traffic stretch (from the group's first event, or after a silence: the window
    refilling, ``refill_hours`` of it). The per-event figures
    (``transitions``, ``final_status``) are the replay's: what the seed's callbacks and its gate
    saw.

    Parameters
    ----------
    states : DataFrame
        Output of :func:`budgetlab.replay` (its ``attrs["slo"]``; only ``ts``, the group keys and
        ``status`` are read), row for row the events' (same times and groups, else refused; a
        Dask replay: ``budgetlab.dask.replay(...).compute().sort_index().sort_values("ts",
        kind="stable")``, with the events sorted alike).
    events : DataFrame
        The events that were replayed.
    spans : DataFrame, optional
        :func:`budgetlab.status_spans` of the same events and SLO, when the caller has them.

    Returns
    -------
    DataFrame
        One row per group (one row without groups): the group keys, ``target`` (and ``window`` when
        they differ) after a per-group replay, ``events``, ``success_rate`` (over all events),
        ``hours_<status>`` and ``share_<status>`` (of the observation; NaN, 0/0, for a log observed
        for no time: its first and last events at one instant) for ``healthy``, ``warning``,
        ``critical``, ``exhausted`` and ``no_traffic``, ``observed_hours`` (the window holds at
        least one event), ``warmup_hours`` (of the observed hours, those in the first window of a
        traffic stretch, and the instant it closes at for a stretch whose events all arrive at one
        instant: one instant is no evaluated time; the rest is what
        :func:`budgetlab.compare_windows` calls ``hours``, to the nanosecond), ``refill_hours`` (of
        the warm-up hours, those after a silence: the window refilling; the rest is the first window
        from the group's first event), ``before_first_hours`` (of the no-traffic hours, those before
        the group's first event: the observation starts at the first event of any group),
        ``after_last_hours`` (of the no-traffic hours, those after the group's last event: from its
        window emptying to the observation's end, the last event of any group; not a silence, which
        lies between two events), ``sending_hours`` (the group's first to last event less its gaps
        longer than a day: :mod:`budgetlab.budget.sending`, no window in it), ``events_per_day``
        (over the sending time; NaN without any), ``transitions_per_day`` (over the observed
        time; NaN for a group without observed time), ``transitions`` (status changes of the
        per-event replay), ``silences`` (gaps between events longer than the window),
        ``longest_silence_hours`` (the longest time the window stood empty after one of them: a gap
        of 1 h 4 min under a 1 h window counts 4 min less 1 ns: the window holds the event before it
        through ``ts + window``, docs/conventions.md), ``silent_hours`` (time the window was empty
        between two events), ``quiet_gaps``, ``quiet_gap_hours``, ``longest_quiet_gap_hours``,
        ``longest_quiet_gap_start`` (gaps of 1 h up to the window: :mod:`.quiet_gaps`),
        ``since_last_event_hours`` (from the group's last event to the
        observation's end, whatever the window: a group that stopped sending, named by ``replay``
        when over a day or when its window emptied), ``final_status`` (the replay's status after
        the group's last event: what a gate reading the tracker keeps) and ``status_at_end``
        (the window's clock at the observation's end: ``no_traffic`` when the group's window has
        emptied; the final status when the group has an event at that instant), and last
        ``note``: why the group's ``events_per_day`` (under 24 h of sending time) and
        ``transitions_per_day`` (under 24 h of observed time) are too thin to go by
        (:func:`budgetlab._util.thin.too_thin`, the rule and words of the ``note`` of
        :func:`budgetlab.compare_windows`: the figure keeps its meaning, the note says how little
        it stands on); empty otherwise. ``attrs``: ``slo`` (the states', else the spans'), ``by``,
        what a variant of the replay says (``calendar``, ``tz``, ``min_dwell``) and ``start`` ..
        ``end``, the observation the time figures count (the spans' own; the first and the last
        event of ``events`` unless ``spans`` were given another).

    Examples
    --------
    >>> from budgetlab import SLO, as_events, replay
    >>> ev = as_events(pd.date_range("2026-01-01", periods=4, freq="h"), [True, False, True, True])
    >>> s = replay_summary(replay(ev, SLO(target=0.9, window="1h")), ev)
    >>> s[["events", "hours_healthy", "hours_exhausted", "transitions",
    ...    "final_status"]].round(3).to_dict("records")
    [{'events': 4, 'hours_healthy': 2.0, 'hours_exhausted': 1.0, 'transitions': 2, 'final_status':
    'healthy'}]

    A silence of a day with a 1 h window: the status holds for one window, then no traffic.

    >>> ev = as_events(pd.to_datetime(["2026-01-01 00:00", "2026-01-02 00:00"], utc=True), [False,
    ...                                                                                     True])
    >>> s = replay_summary(replay(ev, SLO(target=0.9, window="1h")), ev)
    >>> s[["hours_exhausted", "hours_no_traffic", "silences", "final_status",
    ...    "status_at_end"]].round(3).to_dict("records")
    [{'hours_exhausted': 1.0, 'hours_no_traffic': 23.0, 'silences': 1, 'final_status': 'healthy',
    'status_at_end': 'healthy'}]

    Four events an hour apart are 4 events in 3 h of sending time (first to last event; the
    observed time too): 32 a day, which 3 hours cannot bear out. The figure stays, the ``note``
    says so.

    >>> ev = as_events(pd.date_range("2026-01-01", periods=4, freq="h"), [True] * 4)
    >>> s = replay_summary(replay(ev, SLO(target=0.9, window="1h")), ev)
    >>> float(s.loc[0, "events_per_day"])
    32.0
    >>> print(s.loc[0, "note"])  # doctest: +NORMALIZE_WHITESPACE
    only 3 h of sending time (4 events in it): too little for events per day, which need at least
    24 h (one day); only 3 h of observed time (4 events in it): too little for transitions per
    day, which need at least 24 h (one day)
    """
    check_states(states, "replay_summary", "; spans of budgetlab.status_spans() go in spans=")
    keys = [c for c in states.columns if c not in REPLAY_COLUMNS]
    _check_rows(states, events, keys)
    slo = table_slo(states)
    if spans is None and (not isinstance(slo, (SLO, PerGroup)) or "min_dwell" in states.attrs
                          or "calendar" in states.attrs):  # no clock of the seed tracker
        raise InputError("replay_summary() reads the window's clock of the seed tracker: give "
                         "the states of budgetlab.replay(events, slo) (hysteresis and calendar "
                         "variants: budgetlab.compare_windows).")
    # by stage (the spans, the per-event figures, the time figures), on a terminal from
    # PROGRESS_EVENTS events (5 M events and 3,061 groups: 3 to 10 s without a word)
    with ProgressBar(3, desc="replay summary", enabled=None if len(events) >= PROGRESS_EVENTS
                     else False) as bar:
        if spans is None:
            spans = status_spans(events, cast(SLO | PerGroup, slo), by=keys or None)
        bar.update(1)
        table = _per_event(states, events, keys)
        bar.update(1)
        time = _time_table(spans, _row_of_group(spans, table, keys), len(table))
        bar.update(1)
    cols: dict[str, Any] = {name: table[name] for name in [*keys, "events", "success_rate"]}
    if isinstance(slo, PerGroup) and keys:
        slos = slo.resolve(table[keys])
        cols = {**{k: table[k] for k in keys}, "target": np.array([s.target for s in slos],
                                                                  dtype=np.float64)}
        if len({s.window for s in slos}) > 1:
            cols["window"] = pd.to_timedelta([s.window.value for s in slos], unit="ns")
        cols.update({"events": table["events"], "success_rate": table["success_rate"]})
    cols.update({name: time[name] for name in SUMMARY_TIME_COLUMNS})
    days = np.asarray(time["observed_hours"], dtype=np.float64) / 24
    cols["sending_hours"] = table["sending_hours"].to_numpy(dtype=np.float64)
    cols["events_per_day"] = ratio(table["events"].to_numpy(dtype=np.float64),
                                   cols["sending_hours"] / 24)  # no window in it (sending.py)
    cols["transitions"] = table["transitions"]
    cols["transitions_per_day"] = ratio(table["transitions"].to_numpy(dtype=np.float64), days)
    quiet = silences(spans)  # longer than the window; shorter ones of an hour and more apart
    cols.update(gap_columns(quiet, _row_of_group(quiet, table, keys),
                            summary_quiet_gaps(events, keys, slo)))
    attrs = _summary_attrs(states, keys, spans, events)
    end_ns = pd.Timestamp(attrs["end"]).value if attrs.get("end") is not None else 0
    since = np.maximum(end_ns - table["last_event"].to_numpy(dtype=np.int64), 0)
    cols["since_last_event_hours"] = since / HOUR_NS
    cols["final_status"] = table["final_status"]
    end_code = np.asarray(time["status_at_end"], dtype=np.int8)
    # the window at that instant holds the event
    at_end = {tuple(k) for k in spans.attrs.get("events_at_end", [])}
    texts = table[keys].astype(str).itertuples(index=False,
                                               name=None) if keys else iter([()] * len(table))
    last_event = np.fromiter((tuple(k) in at_end for k in texts), dtype=bool,
                             count=len(table)) | (end_code < 0)
    end_code[last_event] = table["final_status"].cat.codes.to_numpy()[last_event]
    cols["status_at_end"] = pd.Categorical.from_codes(end_code, dtype=SPAN_STATUS_DTYPE)
    cols["note"] = _notes(time["observed_hours"], cols["sending_hours"], table["events"])
    out = pd.DataFrame(cols, index=table.index)
    out.attrs = attrs
    return out


def _notes(observed: Any, sending: Any, events: Any) -> list[str]:
    """Per group: why its events a day (over its sending time) and its transitions a day (over
    its observed time) are too thin to go by, in words; empty when neither is."""
    per_event = thin_words(sending, events, time="sending time", figures="events per day",
                           no_time=NO_SENDING_TIME)
    per_window = thin_words(observed, events, time="observed time", figures="transitions per day",
                            no_time=NO_OBSERVED_TIME)
    return ["; ".join(x for x in pair if x)
            for pair in zip(per_event, per_window, strict=True)]


def _summary_attrs(states: pd.DataFrame, keys: list[str], spans: pd.DataFrame,
                   events: pd.DataFrame) -> dict[Any, Any]:
    """``slo`` (the states', else the spans'; none when neither says it), ``by``, what a
    variant of the replay says (:data:`~budgetlab.budget.replay_status.VARIANT_ATTRS`) and the
    observation the time figures count: ``start``/``end`` of the spans
    (:func:`budgetlab.status_spans`' own: the first and last event unless given), else the
    first and last event of ``events``."""
    slo = table_slo(states)
    slo = table_slo(spans) if slo is None else slo
    span = ({k: spans.attrs[k] for k in ("start", "end")}
            if {"start", "end"} <= set(spans.attrs) else span_attrs(events["ts"]))
    return {**({} if slo is None else {"slo": slo.as_dict()}), "by": keys,
            **{k: states.attrs[k] for k in VARIANT_ATTRS if k in states.attrs}, **span}


def _check_rows(states: pd.DataFrame, events: pd.DataFrame, keys: list[str]) -> None:
    """Refuses ``states`` whose rows are not ``events``' one for one (time and group keys): the
    per-event figures pair each state with the event in its position; and, row for row, events
    not in time order (a Dask replay's of files not in time order): sorted alike, they are."""
    differ = None
    if len(states) != len(events):
        differ = f"states has {len(states):,} rows, events {len(events):,}"
    elif not np.array_equal(ts_ns(states), ts_ns(events)):
        differ = "the events' times are not the states'"
    for key in keys if differ is None else ():
        mine, theirs = states[key].reset_index(drop=True), events[key].reset_index(drop=True)
        if mine.dtype != theirs.dtype:  # e.g. read back from a file: compared as text
            mine, theirs = mine.astype(str), theirs.astype(str)
        if not mine.equals(theirs):
            differ = f"the events' {key!r} is not the states'"
    if differ is not None:
        raise InputError(f"states are not the replay of events row for row ({differ}); give the "
                         f"states of budgetlab.replay(events, slo) ({_OF_DASK}).")
    times = ts_ns(events)
    if len(times) > 1 and bool((times[1:] < times[:-1]).any()):
        raise InputError("events must be sorted by 'ts' (a Dask event table is sorted within each "
                         "partition only: files not in time order); sort the states and the "
                         f"events alike ({_OF_DASK}).")


def _per_event(states: pd.DataFrame, events: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Events, success rate, transitions and final status per group (group order) from the
    replay."""
    order, bounds = group_order(states, keys)
    idx = np.arange(len(states)) if order is None else order
    ngroups = len(bounds) - 1
    code = states["status"].cat.codes.to_numpy().astype(np.int64)[idx]
    ok = events["ok"].to_numpy(dtype=bool)[idx]
    seg = np.repeat(np.arange(ngroups), np.diff(bounds))
    n = np.diff(bounds)
    prev = np.r_[0, code[:-1]] if len(code) else code
    prev[bounds[:-1][bounds[:-1] < len(code)]] = 0
    changes = np.bincount(seg, weights=(code != prev).astype(np.float64), minlength=ngroups)
    ok_sum = np.bincount(seg, weights=ok.astype(np.float64), minlength=ngroups)
    out: dict[str, Any] = {k: [states[k].iloc[idx[s]] for s in bounds[:-1][n > 0]] for k in keys}
    out["events"] = n[n > 0]
    out["success_rate"] = ok_sum[n > 0] / n[n > 0]
    out["transitions"] = changes[n > 0].astype(np.int64)
    out["final_status"] = pd.Categorical.from_codes(code[bounds[1:][n > 0] - 1], dtype=STATUS_DTYPE)
    out["last_event"] = ts_ns(events)[idx][bounds[1:][n > 0] - 1]
    out["sending_hours"] = sending_time(ts_ns(events)[idx], seg,
                                        ngroups)["sending_hours"].to_numpy()[n > 0]
    return pd.DataFrame(out)


def _row_of_group(frame: pd.DataFrame, table: pd.DataFrame, keys: list[str]) -> np.ndarray:
    """Per row of ``frame``: the row of ``table`` with the same group keys."""
    if not keys or len(frame) == 0:
        return np.zeros(len(frame), dtype=np.int64)
    index = pd.MultiIndex.from_frame(table[keys].astype(str))
    row = np.asarray(index.get_indexer(pd.MultiIndex.from_frame(frame[keys].astype(str))),
                     dtype=np.int64)
    if (row < 0).any():
        raise InputError("spans hold groups that the replay does not; give the spans of the same "
                         "events.")
    return row


def _time_table(spans: pd.DataFrame, gid: np.ndarray, ngroups: int) -> dict[str, Any]:
    """Hours and shares per status, observed and warm-up hours (and of them, those after a
    silence: the window refilling), and the status code at the end (-1 for a group without
    spans) per group (``gid``: the group of each span)."""
    n = len(spans)
    s = spans["start"].array.asi8
    e = spans["end"].array.asi8
    code = spans["status"].cat.codes.to_numpy().astype(np.int64)
    ns = np.zeros((ngroups, len(SPAN_STATUSES)), dtype=np.int64)
    np.add.at(ns, (gid, code), e - s)
    stretch = spans["warmup_end"].array.asi8
    traffic = code != NO_TRAFFIC_CODE
    warm = np.where(traffic, np.maximum(np.minimum(stretch, e) - s, 0), 0)
    warm[closing_instants(s, e, stretch, traffic, gid)] += 1  # all warm-up: no evaluated time
    warm_ns = np.bincount(gid, weights=warm, minlength=ngroups)
    # a group's first traffic stretch ends its warm-up first; a later one follows a silence
    first = np.full(ngroups, np.iinfo(np.int64).max, dtype=np.int64)
    np.minimum.at(first, gid[traffic], stretch[traffic])
    refill_ns = np.bincount(gid, weights=np.where(stretch > first[gid], warm, 0),
                            minlength=ngroups)
    total = ns.sum(axis=1)
    out: dict[str, Any] = {}
    for j, st in enumerate(SPAN_STATUSES):
        out[f"hours_{st}"] = ns[:, j] / HOUR_NS
    for j, st in enumerate(SPAN_STATUSES):
        out[f"share_{st}"] = ratio(ns[:, j], total, np.nan)  # no time: no share of it
    out["observed_hours"] = ns[:, : len(STATUSES)].sum(axis=1) / HOUR_NS
    out["warmup_hours"] = warm_ns / HOUR_NS
    out["refill_hours"] = refill_ns / HOUR_NS
    # the no-traffic spans ending by the group's first traffic span: before its first event
    start = np.full(ngroups, np.iinfo(np.int64).max, dtype=np.int64)
    np.minimum.at(start, gid[traffic], s[traffic])
    lead = np.where(~traffic & (e <= start[gid]), e - s, 0)
    out["before_first_hours"] = np.bincount(gid, weights=lead, minlength=ngroups) / HOUR_NS
    # the no-traffic spans from the end of the group's last traffic span: after its last event
    stop = np.full(ngroups, np.iinfo(np.int64).min, dtype=np.int64)
    np.maximum.at(stop, gid[traffic], e[traffic])
    tail = np.where(~traffic & (stop[gid] > np.iinfo(np.int64).min) & (s >= stop[gid]), e - s, 0)
    out["after_last_hours"] = np.bincount(gid, weights=tail, minlength=ngroups) / HOUR_NS
    last = np.ones(n, dtype=bool)
    last[:-1] = gid[1:] != gid[:-1]
    end_code = np.full(ngroups, -1, dtype=np.int8)
    end_code[gid[last]] = code[last]
    out["status_at_end"] = end_code
    return out
