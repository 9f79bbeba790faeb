"""The window's clock: the seed tracker's status as a dashboard reading it would see it, over time.

The per-event replay (:func:`budgetlab.replay`) is what the seed's callbacks and its
``solve_with_budget`` gate saw: the status changes only when an event is recorded, so with no
new records it stays on its last value. Between events the window keeps moving: an event is in
it through ``ts + window`` inclusive and leaves it 1 ns later, and the seed's rule
(``budget/figures.py``, the ``min_events`` hold included) applies to what remains. An empty
window is **no traffic**: a fifth value (:data:`SPAN_STATUS_DTYPE`), never the last status and
never healthy. After it the hold restarts from healthy and one window is warm-up again, as at the
start of the log. :func:`status_spans` gives that view as spans; :func:`silences` counts the
no-traffic spans between events and the observed time (the time the window holds an event).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._util.attrs import time_text
from .._util.validation import utc_from_ns, utc_timestamp
from ..errors import ConfigError, InputError
from ..events.schema import check_events, ts_ns
from ..slo import SLO, PerGroup, as_per_group
from ..windows.clock import NO_TRAFFIC_CODE, StatusRuns, status_runs
from ..windows.groups import group_codes
from .blips import instant_spans
from .figures import STATUSES, seed_figures, seed_status_codes
from .replay_status import lacked_state_columns, slo_parts

__all__ = ["SPAN_STATUSES", "SPAN_STATUS_DTYPE", "SPAN_COLUMNS", "status_spans", "silences"]

#: The spans' statuses: the seed's four, then ``no_traffic`` (an empty window).
SPAN_STATUSES = (*STATUSES, "no_traffic")
#: Ordered categorical of :data:`SPAN_STATUSES`. ``no_traffic`` sorts last only to keep the
#: seed's four codes; it is no worse than ``exhausted``: compare with the four statuses by name.
SPAN_STATUS_DTYPE = pd.CategoricalDtype(list(SPAN_STATUSES), ordered=True)
#: The columns after the group keys, in order.
SPAN_COLUMNS = ("start", "end", "status", "total", "failures", "burn_rate", "remaining_fraction",
                "warmup_end", "instant")
_TOP = int(np.iinfo(np.int64).max)
_BOTTOM = int(np.iinfo(np.int64).min)


def status_spans(events: pd.DataFrame, slo: SLO | PerGroup | Mapping[Any, Any], *,
                 by: str | Sequence[str] | None = None, start: Any = None,
                 end: Any = None, steps: bool = False) -> pd.DataFrame:
    """The seed tracker's status on the window's own clock: one row per span of one status (or
    per step of the window, ``steps=True``).

    Parameters
    ----------
    events : DataFrame
        Canonical event table (:func:`budgetlab.read_events`).
    slo : SLO, PerGroup or mapping
        As in :func:`budgetlab.replay` (per-group SLOs need ``by``).
    by : str or list of str, optional
        Group keys; each group has its own window.
    start, end : time, optional
        The observation: spans tile ``[start, end)`` for every group. Default: the first and the
        last event time of the whole input (all groups).
    steps : bool, default False
        One row per instant where the window changes, whether or not the status does: each
        event instant and each expiry (``ts + window + 1 ns``). The window's exact step
        function (the timeline's lines draw it: :func:`budgetlab.plotting.plot_timeline`), at
        the cost of up to two rows per event (about 120 bytes per event in the table, as much
        again in temporaries while the numpy twin of the clock builds it).
        Consecutive rows may hold one status; ``instant`` flags a step held for 1 ns only, at an
        event while an event at its cut-off is still in the window.

    Returns
    -------
    DataFrame
        One row per maximal run of one status per group (``steps=True``: per step of the
        window), ordered by group (as :func:`budgetlab.replay_summary`) then ``start``; a
        group's spans tile the observation without a gap (zero-length spans dropped).
        Columns: the group keys (as in the events),
        ``start``, ``end`` (``datetime64[ns, UTC]``, half-open ``[start, end)``), ``status``
        (:data:`SPAN_STATUS_DTYPE`: ``healthy``, ``warning``, ``critical``, ``exhausted`` or
        ``no_traffic``), ``total``, ``failures`` (int64: the window at ``start``), ``burn_rate``,
        ``remaining_fraction`` (float64, the seed's figures at ``start``; 0.0 and 1.0 without
        traffic) and ``warmup_end`` (the end of the first window of the traffic stretch the span
        belongs to: that stretch's first event + window; ``start`` for ``no_traffic``) and
        ``instant`` (bool: a status held for one instant only, a *blip*: the span starts at an
        event while an event exactly at its cut-off, ``ts - window``, is still in the window and
        leaves 1 ns later; it keeps its nanosecond here, but is no status change and no episode
        of its own on the clock, see docs/conventions.md). The time of a span after warm-up is
        ``max(0, end - max(start, warmup_end))``.
        ``attrs`` holds ``slo`` (as in :func:`budgetlab.replay`), ``by``, ``start``, ``end``
        (ISO-8601 text, UTC; empty events: no rows, and ``None`` for a bound not given, as there
        is no event time to take it from) and ``steps``.

    Notes
    -----
    The status is read once per instant, after every event and expiry of that instant (ties:
    rows sharing a timestamp count together, in any order). With ``min_events = 0`` the status
    at an event instant equals :func:`budgetlab.replay` at the last row of that instant. With
    ``min_events > 0`` the hold keeps the status the window showed just before, which an expiry
    between events may have changed: the per-event replay keeps the one of the previous event.

    Examples
    --------
    A group silent for hours with a 1 h window: the status holds for one window after the last
    event, then there is no traffic.

    >>> from budgetlab import SLO, as_events
    >>> ts = pd.to_datetime(["2026-01-01 00:00", "2026-01-01 00:10", "2026-01-01 05:00"], utc=True)
    >>> sp = status_spans(as_events(ts, [True, False, True]), SLO(target=0.9, window="1h"))
    >>> for row in sp.itertuples():
    ...     print(row.start, row.status, row.total)
    2026-01-01 00:00:00+00:00 healthy 1
    2026-01-01 00:10:00+00:00 exhausted 2
    2026-01-01 01:10:00.000000001+00:00 no_traffic 0

    The observation ends at the last event (``end=`` moves it):

    >>> sp["end"].iloc[-1], len(status_spans(as_events(ts, [True, False, True]),
    ...                                      SLO(target=0.9, window="1h"), end="2026-01-01 06:00"))
    (Timestamp('2026-01-01 05:00:00+0000', tz='UTC'), 4)

    With ``steps=True``, the window at every change (here the 00:00 success leaves at
    01:00 + 1 ns: 1 failure of 1, exhausted again):

    >>> st = status_spans(as_events(ts, [True, False, True]), SLO(target=0.9, window="1h"),
    ...                   steps=True)
    >>> st["start"].dt.strftime("%H:%M:%S.%f").tolist(), st["total"].tolist()
    (['00:00:00.000000', '00:10:00.000000', '01:00:00.000000', '01:10:00.000000'], [1, 2, 1, 0])
    """
    keys = check_events(events, by, output=SPAN_COLUMNS)
    per_group = as_per_group(slo)
    t = ts_ns(events)
    # without events, a bound not given is None: there is no event time to take it from (and
    # no group, so the kernel's bounds below do not matter)
    lo = utc_timestamp(start, name="start").value if start is not None else (
        int(t[0]) if len(t) else None)
    hi = utc_timestamp(end, name="end").value if end is not None else (
        int(t[-1]) if len(t) else None)
    if lo is not None and hi is not None and hi < lo:
        raise ConfigError(f"end ({utc_from_ns(np.array([hi]))[0]}) is before start "
                          f"({utc_from_ns(np.array([lo]))[0]}); give end at or after start.")
    codes = group_codes(events, keys, dense=False) if keys else np.zeros(len(events), dtype=np.int8)
    ngroups = int(codes.max()) + 1 if len(codes) else 0
    parts = slo_parts(events, slo, keys, warn=False)
    pieces = [_part_spans(t if pos is None else t[pos],
                          events["ok"].to_numpy(dtype=bool) if pos is None
                          else events["ok"].to_numpy(dtype=bool)[pos],
                          codes if pos is None else codes[pos],
                          ngroups, s, lo or 0, hi or 0, steps) for s, pos in parts]
    cols = pieces[0] if len(pieces) == 1 else {
        name: np.concatenate([p[name] for p in pieces]) if pieces else np.zeros(0, dtype=np.int64)
        for name in ("group", "start", "end", "status", "total", "failures", "burn_rate",
                     "remaining_fraction", "warmup_end", "instant")}
    # each group's rows are in time order in its part (the parts hold distinct groups): a stable
    # sort by group is (group, start) order; none when the groups already are (one part)
    g = cols["group"]
    if len(g) > 1 and not bool((g[1:] >= g[:-1]).all()):
        order = np.argsort(g, kind="stable")
        cols = {k: v[order] for k, v in cols.items()}
    out = _frame(events, keys, codes, cols)
    out.attrs.update(slo=(per_group if per_group is not None else parts[0][0]).as_dict(),
                     by=keys, start=None if lo is None else time_text(pd.Timestamp(lo, tz="UTC")),
                     end=None if hi is None else time_text(pd.Timestamp(hi, tz="UTC")), steps=steps,
                     events_at_end=_groups_at(events, keys, codes, t == hi))
    return out


def _groups_at(events: pd.DataFrame, keys: list[str], codes: np.ndarray,
               rows: np.ndarray) -> list[list[str]]:
    """The groups (key values as text, a list each: JSON for ``attrs``) with an event among
    ``rows``: those whose last no-traffic span ends at an event at the observation's end (a
    silence, not the tail of the log)."""
    if not bool(rows.any()):
        return []
    if not keys:
        return [[]]
    at = np.flatnonzero(rows)
    _, first = np.unique(codes[at], return_index=True)
    sub = events[keys].iloc[at[first]].astype(str)
    return [list(r) for r in sub.itertuples(index=False, name=None)]


def _part_spans(t: np.ndarray, ok: np.ndarray, codes: np.ndarray, ngroups: int, slo: SLO, lo: int,
                hi: int, steps: bool) -> dict[str, np.ndarray]:
    """The spans (``steps``: the steps) of the rows under one SLO, clipped to ``[lo, hi)``
    (arrays, any row order)."""
    w = slo.window_ns
    bad = ~ok

    def rule(total: np.ndarray, failures: np.ndarray, stretch: np.ndarray) -> np.ndarray:
        return seed_status_codes(total, failures, slo.target, slo, first_in_group=stretch)

    runs = status_runs(t, bad, codes, ngroups, w, target=slo.target, warning=slo.warning,
                       critical=slo.critical, min_events=slo.min_events, rule=rule,
                       every_instant=steps)
    g, s, code, total, failures, first = _leading_rows(runs, ngroups)
    e = np.empty_like(s)
    e[:-1] = s[1:]
    last = np.ones(len(g), dtype=bool)
    last[:-1] = g[1:] != g[:-1]
    e[last] = _TOP
    cut = s < lo  # the window at the observation's start: counted there
    one = ~cut & (e - 1 == s) & (code != NO_TRAFFIC_CODE)  # before the observation cuts them
    np.maximum(s, lo, out=s)
    np.minimum(e, hi, out=e)
    keep = e > s
    if bool((cut & keep & (code != NO_TRAFFIC_CODE)).any()):
        at = (t <= lo) & (t >= lo - w)
        cnt = np.bincount(codes[at].astype(np.int64), minlength=ngroups)
        fl = np.bincount(codes[at & bad].astype(np.int64), minlength=ngroups)
        total = np.where(cut, cnt[g], total)
        failures = np.where(cut, fl[g], failures)
    instant = instant_spans(t, codes, g, s, w, one)
    if not bool(keep.all()):  # a group's rows kept are consecutive: one group's are a slice
        kept = np.flatnonzero(keep)
        rows: slice | np.ndarray = (slice(kept[0], kept[-1] + 1) if len(kept) and
                                    kept[-1] - kept[0] + 1 == len(kept) else kept)
        g, s, e, code, total, failures, first, instant = (
            a[rows] for a in (g, s, e, code, total, failures, first, instant))
    figs = seed_figures(total, failures, slo.target, columns=["burn_rate", "remaining_fraction"])
    traffic = code != NO_TRAFFIC_CODE
    warmup = np.where(traffic, np.minimum(first, _TOP - w) + w, s)
    return {"group": g.astype(np.int64, copy=False), "start": s, "end": e, "status": code,
            "total": total, "failures": failures, "burn_rate": figs["burn_rate"],
            "remaining_fraction": figs["remaining_fraction"],
            "warmup_end": warmup, "instant": instant}


def _leading_rows(runs: StatusRuns, ngroups: int) -> list[np.ndarray]:
    """The columns of ``runs`` in group then time order, each group's rows after a leading row
    without traffic from before any observation (start: the least int64, counts 0)."""
    cols = list(runs)
    g = runs.group
    if len(g) > 1 and not bool((g[1:] >= g[:-1]).all()):  # the compiled clock's time order
        # the group codes in 16 bits or less: a radix sort
        o = np.argsort(g.astype(np.min_scalar_type(ngroups)), kind="stable")
        cols = [c[o] for c in cols]
        g = cols[0]
    heads = np.flatnonzero(np.r_[True, g[1:] != g[:-1]]) if len(g) else np.zeros(0, np.int64)
    lead: tuple[Any, ...] = (g[heads], _BOTTOM, NO_TRAFFIC_CODE, 0, 0, 0)
    return [np.insert(c, heads, v) for c, v in zip(cols, lead, strict=True)]


def _frame(
    events: pd.DataFrame, keys: list[str], codes: np.ndarray, cols: dict[str, np.ndarray]
) -> pd.DataFrame:
    out: dict[str, Any] = {}
    if keys:
        g = cols["group"]  # sorted
        head = np.ones(len(g), dtype=bool)
        head[1:] = g[1:] != g[:-1]
        rows = _first_rows(codes, g[head])[g]
        for k in keys:
            out[k] = events[k].array.take(rows)
    # the columns are this call's own arrays: wrapped, not copied
    out["start"] = utc_from_ns(cols["start"], copy=False)
    out["end"] = utc_from_ns(cols["end"], copy=False)
    out["status"] = pd.Categorical.from_codes(cols["status"].astype(np.int8),
                                              dtype=SPAN_STATUS_DTYPE)
    out["total"] = cols["total"].astype(np.int64, copy=False)
    out["failures"] = cols["failures"].astype(np.int64, copy=False)
    out["burn_rate"] = cols["burn_rate"].astype(np.float64, copy=False)
    out["remaining_fraction"] = cols["remaining_fraction"].astype(np.float64, copy=False)
    out["warmup_end"] = utc_from_ns(cols["warmup_end"], copy=False)
    out["instant"] = cols["instant"].astype(bool, copy=False)
    return pd.DataFrame(out, index=pd.RangeIndex(len(cols["start"])), copy=False)


def _first_rows(codes: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """The first row of each group code in ``wanted`` (-1 for others), scanning a growing prefix
    (every group usually shows up within the first rows: no pass over all of them)."""
    found = np.full(int(wanted.max()) + 1 if len(wanted) else 0, -1, dtype=np.int64)
    lo, step = 0, 4096
    while lo < len(codes) and bool((found[wanted] < 0).any()):
        chunk = codes[lo:lo + step].astype(np.int64)
        # assigned last to first: the first one stays
        pos = np.flatnonzero(chunk < len(found))[::-1]
        here = np.full(len(found), -1, dtype=np.int64)
        here[chunk[pos]] = pos + lo
        found = np.where(found < 0, here, found)
        lo, step = lo + step, step * 2
    return found


def silences(spans: pd.DataFrame) -> pd.DataFrame:
    """Silences and observed time per group, from :func:`status_spans`.

    A silence is a ``no_traffic`` span between two events of a group (it starts when the group's
    window empties and ends at its next event, possibly the observation's last instant): a gap
    between two events longer than the window. Its duration is the time the window was empty: the
    gap minus the window and 1 ns, as the window holds the event through ``ts + window``
    (docs/conventions.md, *how time is counted*: a 5 h gap under a 1 h window, below, is silent
    4 h less 1 ns, and the traffic before it holds 1 h and 1 ns; the two add up to the gap).
    Leading and trailing no-traffic time (before a group's first event, after
    its last window) is not a silence, but it is not observed either.

    Parameters
    ----------
    spans : DataFrame
        Output of :func:`status_spans` (its ``attrs["by"]`` names the group keys).

    Returns
    -------
    DataFrame
        One row per group (group keys first): ``silences`` (int64: gaps between two events of
        the group longer than the window), ``longest_silence`` (the longest time the window stood
        empty after one of them: the gap minus the window), ``silent_time`` (Timedelta; 0
        without silences), ``observed_time`` (Timedelta: the time of
        the spans with traffic, i.e. the window holds at least one event; rates per day divide by
        it) and ``no_traffic_time`` (all no-traffic time in the observation, silences included).
        ``attrs``: the spans' ``slo``, ``by``, ``start`` and ``end`` (the observation counted).

    Examples
    --------
    >>> from budgetlab import SLO, as_events
    >>> ts = pd.to_datetime(["2026-01-01 00:00", "2026-01-01 05:00", "2026-01-01 05:30"], utc=True)
    >>> s = silences(status_spans(as_events(ts, [True] * 3), SLO(target=0.9, window="1h")))
    >>> s[["silences", "silent_time", "observed_time"]].astype(str).to_dict("records")
    [{'silences': '1', 'silent_time': '0 days 03:59:59.999999999', 'observed_time': '0 days
    01:30:00.000000001'}]
    """
    is_frame, needed = isinstance(spans, pd.DataFrame), ("start", "end", "status")
    if not is_frame or not set(needed) <= set(spans.columns) or spans["status"].dtype != \
            SPAN_STATUS_DTYPE:
        lacks = lacked_state_columns(spans.columns, needed) if is_frame else ""
        raise InputError(f"silences() takes the DataFrame returned by budgetlab.status_spans()"
                         f"{lacks}.")
    keys = list(spans.attrs.get("by", [c for c in spans.columns if c not in SPAN_COLUMNS]))
    n = len(spans)
    s = spans["start"].array.asi8
    e = spans["end"].array.asi8
    quiet = spans["status"].cat.codes.to_numpy() == NO_TRAFFIC_CODE
    if keys:
        gid = spans.groupby(keys, sort=False, observed=True, dropna=False).ngroup().to_numpy()
    else:
        gid = np.zeros(n, dtype=np.int64)
    new = np.ones(n, dtype=bool)
    new[1:] = gid[1:] != gid[:-1]
    end_of = np.ones(n, dtype=bool)
    end_of[:-1] = new[1:]
    at_end = {tuple(k) for k in spans.attrs.get("events_at_end", [])}
    # a last no-traffic span that ends at an event on the observation's last instant
    if at_end and n:
        texts = spans[keys].astype(str).itertuples(index=False,
                                                   name=None) if keys else iter([()] * n)
        ends_at_event = np.fromiter((tuple(k) in at_end for k in texts), dtype=bool, count=n)
        end_of &= ~ends_at_event
    inner = quiet & ~new & ~end_of  # after an event of the group and before its next one
    ngroups = int(gid.max()) + 1 if n else 0
    dur = (e - s).astype(np.int64)
    count = np.bincount(gid, weights=inner, minlength=ngroups).astype(np.int64)
    silent = np.zeros(ngroups, dtype=np.int64)
    np.add.at(silent, gid[inner], dur[inner])
    longest = np.zeros(ngroups, dtype=np.int64)
    np.maximum.at(longest, gid[inner], dur[inner])
    observed = np.zeros(ngroups, dtype=np.int64)
    np.add.at(observed, gid[~quiet], dur[~quiet])
    no_traffic = np.zeros(ngroups, dtype=np.int64)
    np.add.at(no_traffic, gid[quiet], dur[quiet])
    out: dict[str, Any] = {k: spans[k].array.take(np.flatnonzero(new)) for k in keys}
    out["silences"] = count
    out["longest_silence"] = pd.to_timedelta(longest, unit="ns")
    out["silent_time"] = pd.to_timedelta(silent, unit="ns")
    out["observed_time"] = pd.to_timedelta(observed, unit="ns")
    out["no_traffic_time"] = pd.to_timedelta(no_traffic, unit="ns")
    frame = pd.DataFrame(out)
    frame.attrs = {k: spans.attrs[k] for k in ("slo", "by", "start", "end") if k in spans.attrs}
    return frame
