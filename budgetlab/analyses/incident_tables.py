"""The incident report's tables: the tracker's (one row per group, the worst group first), the
alert episodes overlapping the window and what each tier of the policy did during the incident
(what the incident cost the error budget: :mod:`~budgetlab.analyses.incident_budget`).

The tracker table's per-event columns (the first status change, its burn, the number of changes,
the peak burn, the status at the incident's last event) are what the tracker's callbacks saw. Its
status when the incident began and ended, its worst status during it and the time its window was
empty are read on the window's clock (:func:`budgetlab.status_spans`): between events the window
keeps moving, and an empty window is *no traffic*, never the last status. The summary counts the
changes at events and says so; when the clock left the status of the last event before the
incident ended, it says that too (``status_at_last_event`` against ``status_at_end``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .._util.attrs import span_attrs
from .._util.validation import utc_from_ns, utc_ns_column
from ..alerts.episodes import alert_states
from ..alerts.policy import AlertPolicy
from ..budget.blips import blips_folded
from ..budget.figures import STATUS_DTYPE, seed_figures
from ..budget.spans import SPAN_STATUS_DTYPE, SPAN_STATUSES
from ..slo import SLO
from ..windows.bingrid import BinGrid
from ..windows.binning import bin_events
from ..windows.bins import read_bins
from .incident_coverage import covered_alerts, evaluated_from
from .incident_follow import LogRest, follow_ongoing
from .incident_tier_reach import tier_reach, without_empty_short
from .incident_tier_table import overlapping, tier_table
from .incident_window import Span, between

__all__ = ["NO_TRAFFIC", "TRACKER_COLUMNS", "alert_tables", "report_attrs",
           "tracker_table", "worst_first"]


#: The code of ``no_traffic`` in :data:`~budgetlab.budget.spans.SPAN_STATUS_DTYPE`.
NO_TRAFFIC = SPAN_STATUSES.index("no_traffic")

#: Columns of the tracker table after the group keys.
TRACKER_COLUMNS = ("status_at_start", "worst_status", "worst_at", "worst_status_at_events",
                   "status_at_end", "status_at_last_event", "last_event_at",
                   "first_change_at", "first_change_from", "first_change_to", "first_change_burn",
                   "first_change_rate", "peak_burn", "peak_burn_at", "peak_burn_events",
                   "min_success_rate",
                   "transitions", "transitions_caused_by_timeouts", "hours_no_traffic")


def tracker_table(states: pd.DataFrame, trans: pd.DataFrame, spans: pd.DataFrame,
                  keys: list[str], span: Span, target: float) -> pd.DataFrame:
    """Per group of ``states`` (the replay at the SLO's ``target``, history included) and its
    ``trans``itions (with ``caused_by_timeouts``): the :data:`TRACKER_COLUMNS` over the incident
    ``[span.start, span.end)`` (the time-driven ones from ``spans``,
    :func:`budgetlab.status_spans` covering the incident), the worst group (status on the clock,
    then peak burn) first."""
    per_event = _per_event(states, trans, keys, span.start, span.end, target)
    return _on_the_clock(per_event, spans, keys, span)[[*keys, *TRACKER_COLUMNS]]


def _per_event(states: pd.DataFrame, trans: pd.DataFrame, keys: list[str], start: pd.Timestamp,
               end: pd.Timestamp, target: float) -> pd.DataFrame:
    """Per group (in key order; a missing key has none): the first status change (its burn and
    success rate unrounded, as the tracker computes them at ``target``), the changes, the worst
    status and the peak burn (the first of equal ones) during the incident, as the tracker
    recorded them at events."""
    both = pd.concat([states[keys], trans[keys]], ignore_index=True)
    num = (both.groupby(keys, observed=True, sort=True).ngroup().fillna(-1).to_numpy(np.int64)
           if keys else np.zeros(len(both), dtype=np.int64))  # -1: a missing key
    sg, tg = num[:len(states)], num[len(states):]
    n = int(num.max(initial=-1)) + 1
    during = np.flatnonzero((sg >= 0) & between(states["ts"], start, end))
    changes = (np.flatnonzero((tg >= 0) & between(trans["ts"], start, end)) if len(trans)
               else np.zeros(0, dtype=np.int64))
    burn = states["burn_rate"].to_numpy(dtype=np.float64)
    peaks = during[np.lexsort((-burn[during], sg[during]))]  # stable: the first of equal burns

    def first(rows: np.ndarray, group: np.ndarray) -> np.ndarray:  # per group; -1 when none
        out = np.full(n, -1, dtype=np.int64)
        out[group[rows[::-1]]] = rows[::-1]  # the first one of a group is written last
        return out

    def pick(col: pd.Series, at: np.ndarray, none: Any) -> list[Any]:  # col[at], none at -1
        return list(np.append(col.to_numpy(dtype=object), none)[at])

    fc, pk = first(changes, tg), first(peaks, sg)
    last = np.full(n, -1, dtype=np.int64)
    last[sg[during]] = during  # the last one of a group is written last
    rows = states[keys].iloc[first(np.flatnonzero(sg >= 0), sg)]
    out = pd.DataFrame(list(rows.itertuples(index=False, name=None)), columns=keys)
    out["first_change_at"] = pd.Series(pick(trans["ts"], fc, pd.NaT), dtype="datetime64[ns, UTC]")
    for col in ("from_status", "to_status"):
        out[f"first_change_{col[:-7]}"] = pick(trans[col].astype(str), fc, None)
    # the tracker's own figures at the change, from its window's counts (the seed's report, the
    # transitions' burn_rate, rounds the burn to 2 decimals: 0.9047 read 0.9, a WARNING burn)
    figs = seed_figures(np.asarray(pick(trans["total_events"], fc, 1), dtype=np.int64),
                        np.asarray(pick(trans["failures"], fc, 0), dtype=np.int64),
                        target, columns=["success_rate", "burn_rate"])
    for col, fig in (("first_change_burn", "burn_rate"), ("first_change_rate", "success_rate")):
        out[col] = np.where(fc >= 0, figs[fig], np.nan)
    out["transitions"] = np.bincount(tg[changes], minlength=n)
    caused = trans["caused_by_timeouts"].to_numpy(dtype=np.int64)[changes]
    out["transitions_caused_by_timeouts"] = np.bincount(tg[changes], caused,
                                                        minlength=n).astype(np.int64)
    out["peak_burn"] = np.asarray(pick(states["burn_rate"], pk, np.nan), dtype=float)
    out["peak_burn_at"] = pd.Series(pick(states["ts"], pk, pd.NaT), dtype="datetime64[ns, UTC]")
    # the events in the window at the peak: the evidence the tracker's worst figure rests on
    out["peak_burn_events"] = np.asarray(pick(states["total"], pk, np.nan), dtype=float)
    # the worst status the tracker showed at the incident's events (none: no event in it); worse
    # on the clock, it was reached only between events, as older events left the window
    top = np.full(n, -1, dtype=np.int64)
    np.maximum.at(top, sg[during], states["status"].cat.codes.to_numpy()[during])
    out["worst_status_at_events"] = pd.Categorical.from_codes(top, dtype=STATUS_DTYPE)
    # the status at the incident's last event: the count of changes at events ends there
    codes = np.append(states["status"].cat.codes.to_numpy(), -1)
    out["status_at_last_event"] = pd.Categorical.from_codes(codes[last], dtype=STATUS_DTYPE)
    out["last_event_at"] = pd.Series(pick(states["ts"], last, pd.NaT),
                                     dtype="datetime64[ns, UTC]")
    rates = pd.Series(states["success_rate"].to_numpy()[during]).groupby(sg[during]).min()
    out["min_success_rate"] = rates.reindex(range(n)).to_numpy(dtype=float)
    return out


def _on_the_clock(tracker: pd.DataFrame, spans: pd.DataFrame, keys: list[str],
                  span: Span) -> pd.DataFrame:
    """The tracker table's time-driven columns from the window's clock: ``status_at_start`` (in
    the instant before ``start``: a change at ``start`` is the incident's first change; at
    ``start`` when the spans begin there), ``status_at_end`` (in the incident's last instant),
    ``worst_status`` and ``worst_at`` over ``[start, end)`` (``no_traffic`` when the window was
    empty throughout), ``hours_no_traffic`` during the incident; when the log ends first
    (``span.data_end``) all up to its last event, included (after it the window empties with the
    data, not the traffic; a log ending before the incident: in its first instant); a status held
    for one instant only counts as the one before it (docs/conventions.md). The worst group
    comes first."""
    lo, hi = span.start.value, span.end.value
    if span.data_end is not None and span.data_end < span.end:  # up to the log's last event
        hi = max(span.data_end.value + 1, lo + 1)
    s_ns, e_ns = spans["start"].array.asi8, spans["end"].array.asi8
    if keys:  # one numbering of the spans' groups and the tracker's rows, by the keys as text
        both = pd.concat([spans[keys], tracker[keys]], ignore_index=True).astype(str)
        num = both.groupby(keys, sort=False, dropna=False).ngroup().to_numpy()
    else:
        num = np.zeros(len(spans) + len(tracker), dtype=np.int64)
    gid, row_g = num[:len(spans)], num[len(spans):]  # a row's group may have no span
    code = blips_folded(spans, gid)  # a status held for one instant only is none
    n = int(num.max(initial=-1)) + 1

    def held(sel: np.ndarray, value: np.ndarray, none: int) -> np.ndarray:
        """Per group, ``value`` at its first span of ``sel``, else ``none``."""
        out, idx = np.full(n, none, dtype=np.int64), np.flatnonzero(sel)[::-1]
        out[gid[idx]] = value[idx]  # the first one of a group is written last
        return out

    def at(t: int) -> np.ndarray:  # the code of the span holding instant t; -1 when none
        return held((s_ns <= t) & (e_ns > t), code, -1)

    over = (s_ns < hi) & (e_ns > lo)
    busy = over & (code != NO_TRAFFIC)
    top = np.full(n, -1, dtype=np.int64)
    np.maximum.at(top, gid[busy], code[busy])
    before = at(lo - 1)  # before a change at start; at start when the spans begin there
    statuses = {"status_at_start": np.where(before >= 0, before, at(lo)),
                "status_at_end": at(hi - 1), "worst_status": top}
    out = tracker.copy()
    for col, c in statuses.items():  # no span, or none busy: no traffic
        out[col] = pd.Categorical.from_codes(np.where(c < 0, NO_TRAFFIC, c)[row_g],
                                             dtype=SPAN_STATUS_DTYPE)
    worst_at = held(busy & (code == top[gid]), np.maximum(s_ns, lo), lo)
    out["worst_at"] = pd.to_datetime(worst_at[row_g], utc=True)
    quiet = np.zeros(n, dtype=np.int64)
    q = over & (code == NO_TRAFFIC)
    np.add.at(quiet, gid[q], (np.minimum(e_ns, hi) - np.maximum(s_ns, lo))[q])
    out["hours_no_traffic"] = quiet[row_g] / 3.6e12
    return worst_first(out)


def worst_first(tracker: pd.DataFrame) -> pd.DataFrame:
    """The rows of a tracker table, the worst group first: by ``worst_status`` (``no_traffic``
    below ``healthy``), then by ``peak_burn``; ties keep their order."""
    level = tracker["worst_status"].cat.codes.to_numpy().astype(np.float64)
    level[level == NO_TRAFFIC] = -1.0
    rank = level * 1e6 + tracker["peak_burn"].fillna(0.0).to_numpy()
    return tracker.iloc[np.argsort(-rank, kind="stable")].reset_index(drop=True)


def alert_tables(ev: pd.DataFrame, slo: SLO, policy: AlertPolicy, keys: list[str], span: Span, *,
                 freq: Any, has_timeout: bool,
                 alerted: tuple[pd.DataFrame, pd.Timestamp, pd.Timestamp] | None = None,
                 rest: LogRest | None = None,
                 ) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The alert episodes overlapping the window (with ``caused_by_timeouts``), the tier
    table and the bins it is read on (from ``span.h_start`` to the window's end), read over the
    evaluations whose windows hold data: when the log ends (``span.data_end``, its last event)
    before the incident does, up to the end of the bin holding that event; the
    evaluations after it see windows emptying after the data, not production's traffic.

    The episodes are replayed over ``alerted`` (the events from the log's start, its first
    event and the end of their bins: :func:`~budgetlab.analyses.incident_window.alerted_events`;
    default ``ev`` from ``span.h_start`` to the window's end), each tier from its first
    evaluation whose long window lies after the log's first bin
    (:func:`~budgetlab.analyses.incident_coverage.covered_alerts`): an episode
    running at the window's start, ``for_`` and ``cooldown`` are read on full windows whatever
    the context, as :func:`~budgetlab.alert_episodes` over the whole log reads them. The peaks
    are read on the grid from ``span.h_start``: the incident's evaluations hold full windows.
    A tier's alert counts (``fired``, ``first_alert``, ``detection_delay``) when it matches the
    incident by the rule of :func:`budgetlab.score_alerts` (``budgetlab alerts``): it overlaps
    ``[span.start, span.end + span.grace)`` (:func:`~budgetlab.alerts.group_scores.episode_matches`)
    and began by the last evaluation whose windows hold data; ``unseen`` is judged on that span
    too, whose end is ``judged_to`` (``end + grace``, or the last evaluation whose windows hold
    data when the log ends first: the grace is cut there). An alert of the tier table still
    firing at the end of that replay is followed in the log ``rest`` (the whole log and the
    scope; not followed when ``None``) until it resets or the log ends
    (:func:`~budgetlab.analyses.incident_follow.follow_ongoing`): its ``alert_end`` is its
    reset, and ``ongoing`` says it was still firing at the log's end."""
    bins = bin_events(ev, freq, by=keys, start=span.h_start, end=span.w_end)
    grid = read_bins(bins, freq=freq)
    froms = evaluated_from(grid, span.data_start, policy)
    a_ev, log_start, a_stop = alerted if alerted is not None else (
        ev, span.h_start if span.data_start is None else span.data_start, span.w_end)

    def replayed(stop: pd.Timestamp, of: pd.DataFrame | None = None,
                 ) -> tuple[BinGrid, pd.DataFrame]:
        """The grid of the alerts' events (``of``: those events instead) up to ``stop`` and its
        episodes."""
        same = of is None and stop == span.w_end and log_start >= span.h_start
        a_bins = bins if same else bin_events(a_ev if of is None else of, freq, by=keys,
                                              start=min(log_start, span.h_start), end=stop)
        a_grid = grid if a_bins is bins else read_bins(a_bins, freq=freq)
        return a_grid, covered_alerts(a_bins, a_grid, slo.target, policy, evaluated_from(
            a_grid, log_start, policy), has_timeout=has_timeout)

    # the window's alerts; those of the incident's grace when it runs past the window; neither
    # evaluated after the end of the bin of the log's last event (alert_episodes' grid_end)
    cap = span.w_end if span.data_end is None else min(span.w_end, _bin_end(grid, span.data_end))
    a_grid, ep = replayed(cap)
    m_stop = a_stop if span.data_end is None else min(a_stop, _bin_end(grid, span.data_end))
    m_grid, matched = (a_grid, ep) if m_stop <= cap else replayed(m_stop)
    if rest is not None:  # an alert firing at the replay's end: followed to its reset
        whole = dict(matched.attrs)  # every group's stretches, from the log's first event
        matched = follow_ongoing(matched, int(m_grid.bin_end_ns[-1]), rest, keys,
                                 lambda of, stop: replayed(stop, of)[1], max(policy.windows))
        matched.attrs = whole  # which alerts are scored apart (incident_tier_apart.py)
    alerts = overlapping(ep, span.w_start, span.w_end).reset_index(drop=True)
    alerts.attrs.update(ep.attrs)  # the grid's own start and end: the history read included
    end = _read_until(grid, span.data_end, span.end)
    states, group_rows = _incident_states(grid, slo.target, policy, keys, span.start, end)
    t = utc_ns_column(states["bin_end"], "bin_end")
    covered = (t > span.start.value) & (t >= froms[states["tier"].cat.codes.to_numpy()])
    # the alerts that detect the incident: score_alerts' span, up to the data's end (the log's
    # last event, inside the window or after it: the replay of the grace stops there too)
    last = span.data_end if span.data_end is not None or a_stop >= span.end + span.grace else (
        a_stop - pd.Timedelta(1))
    until = _read_until(m_grid, last, span.end + span.grace)
    states = without_empty_short(grid, states[covered], policy, keys)
    tiers = tier_table(matched, states, group_rows, policy, keys, span.start,
                        span.end + span.grace, until)
    # the first evaluation after the incident's start (the grid starts a history before it)
    first = grid.start_ns + ((span.start.value - grid.start_ns) // grid.freq_ns + 1) * grid.freq_ns
    since = utc_from_ns(np.maximum(froms, first))[tiers["tier"].map(
        {tr.name: j for j, tr in enumerate(policy.tiers)}).to_numpy()]
    none = since > end  # no covered evaluation during the incident
    tiers["evaluated_from"] = pd.Series(since, dtype="datetime64[ns, UTC]").mask(none)
    tiers["evaluated_to"] = pd.Series(end, index=tiers.index).mask(none)
    # a tier whose long window held no event at its evaluations saw nothing: no peak to go by
    unseen, tiers["can_fire"] = tier_reach(
        m_grid, tiers, policy, keys, slo.target, np.maximum(froms, first), end,
        judged=(np.maximum(froms, span.start.value), min(span.end + span.grace,
                                                         until + pd.Timedelta(1)).value))
    tiers["unseen"] = unseen
    tiers["judged_to"] = pd.Series(until, index=tiers.index)  # end + grace, or the log's end
    tiers.loc[unseen, ["peak_burn_long", "peak_burn_short"]] = np.nan
    return alerts, tiers, bins


def _bin_end(grid: BinGrid, t: pd.Timestamp) -> pd.Timestamp:
    """The end of the bin of ``grid``'s alignment holding ``t`` (past the grid's end too)."""
    k = (t.value - grid.start_ns) // grid.freq_ns + 1
    return pd.Timestamp(int(grid.start_ns + k * grid.freq_ns), unit="ns", tz="UTC")


def _read_until(grid: BinGrid, data_end: pd.Timestamp | None, end: pd.Timestamp) -> pd.Timestamp:
    """The last evaluation up to ``end`` whose windows hold data: the end of the bin of the log's
    last event ``data_end`` (``end`` when the log runs on, or no bin ends after that event)."""
    ends = grid.bin_end_ns
    i = len(ends) if data_end is None else int(np.searchsorted(ends, data_end.value, "right"))
    return min(end, pd.Timestamp(int(ends[i]), unit="ns", tz="UTC")) if i < len(ends) else end


#: Bytes per group and bin of :func:`~budgetlab.alerts.episodes.alert_states` (its own estimate
#: for the workbook's 4 tiers and 7 windows), for the size of the chunks of groups it is run on.
_STATES_BYTES_PER_CELL = 372


def _incident_states(grid: BinGrid, target: Any, policy: AlertPolicy, keys: list[str],
                     start: pd.Timestamp, end: pd.Timestamp,
                     ) -> tuple[pd.DataFrame, list[tuple[Any, ...]]]:
    """The tiers' states (:func:`~budgetlab.alerts.episodes.alert_states`) at the evaluations in
    ``(start, end]``, and the keys of every group of the grid in order. The states of the whole
    history are made a chunk of groups at a time (:meth:`BinGrid.chunks`) and cut to the
    incident at once: over thousands of groups at minute bins they would hold gigabytes; each
    group's states are those of the whole grid (its rolling sums are its own)."""
    parts, group_rows = [], []
    for g0, g1 in grid.chunks(_STATES_BYTES_PER_CELL // 8):
        states = alert_states(grid.select(np.arange(g0, g1)), target, policy)
        ev_t = utc_ns_column(states["bin_end"], "bin_end")
        parts.append(states[(ev_t > start.value) & (ev_t <= end.value)])
        if keys:
            group_rows += list(states[keys].drop_duplicates().itertuples(index=False, name=None))
    return pd.concat(parts, ignore_index=True), group_rows or [()]


def report_attrs(tables: dict[str, Any], slo: SLO, keys: list[str], incident_ts: pd.Series) -> None:
    """Every table of a report says the report's SLO in ``attrs["slo"]`` (the alert tables too:
    they read its target and its period), ``by``, and the span it counts: ``states`` and
    ``transitions`` the window's events (the changes replayed before the window are cut off:
    ``replayed_start`` .. ``replayed_end`` say the events replayed, history included),
    ``tracker`` and ``budget`` the incident's events (``start`` .. ``end``), ``tiers`` the grid of
    ``alerts`` (``grid_start`` .. ``grid_end``); the bucket tables and ``over_time`` keep theirs."""
    said = {"slo": slo.as_dict()}
    window = span_attrs(tables["states"]["ts"])
    tables["states"].attrs.update(said, **window)
    tr = tables["transitions"]
    tr.attrs = {**tr.attrs, "replayed_start": tr.attrs.get("start"),
                "replayed_end": tr.attrs.get("end"), **window}
    for name in ("tracker", "budget"):
        tables[name].attrs.update(said, by=list(keys), **span_attrs(incident_ts))
    tables["alerts"].attrs.update(said)
    tables["tiers"].attrs = dict(tables["alerts"].attrs)
    for name in ("buckets", "window_buckets", "over_time"):
        tables[name].attrs.update(said)
