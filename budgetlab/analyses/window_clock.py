"""The figures of :func:`budgetlab.compare_windows` that sum time, on the window's clock.

Between events the window keeps moving (:mod:`budgetlab.analyses.recalibration.clock`): a rolling
window loses each event 1 ns after ``ts + window``, a calendar window all of them at its next
reset (local midnight in ``tz``). The seed's rule (with the ``min_events`` hold, restarting from
HEALTHY at each traffic stretch) gives the status of every clock segment; an empty window is no
traffic, which holds no status. Time shares are over the **observed** time (the window holds at
least one event) after warm-up (the first window of each traffic stretch of a rolling window, and
the ``warmup`` of :func:`compare_windows` from the first event); status changes and round trips
are counted when they happen in that time, per day of it.

**Too thin to extrapolate: the one rule.** A time share or rate per day read over less than
:data:`MIN_EVALUATED_HOURS` (one day) of time (none at all, or unknown, included) says little: a
bursty log can leave a short window a few minutes an hour after warm-up, and one event seen for an
hour is not 24 events a day. :func:`too_thin` is that rule (defined in :mod:`budgetlab._util.thin`,
below every subpackage, and re-exported here; the alert scoring's pages per day read it too), and
every reader of it goes through it: :func:`thin_rows` (the rows of
:func:`~budgetlab.compare_windows` whose figures are withheld: the CLI leaves them blank, the plot
draws none, :func:`~budgetlab.analyses.choices.window_summary` leaves them out of its sums),
:func:`thin_notes` (why, in words) and the replay's events per day over its observed time. The
figures keep their meaning (over ``hours``) in the API's tables.

**No event, no figure.** A row whose evaluated span holds no event of its group (``events`` 0:
for its evaluated time the window held only events of a warm-up) has every figure read off the
status withheld, NaN (``<NA>`` for a count) in the API's table too (:data:`EMPTY_COLUMNS`,
:func:`withhold_empty`): they would describe the warm-up's events, none of which is in the span
(``recalibrate`` gives such a group no verdict). :func:`thin_rows` counts these rows too, and
their ``note`` says why; :func:`~budgetlab.window_incidents` withholds their (incident, group)
pairs (``withheld``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from .._util.thin import MIN_EVALUATED_HOURS, thin_words, too_thin
from .._util.units import DAY_NS
from .._util.validation import window_words
from .._util.words import duration_words
from ..budget.figures import seed_status_codes
from ..slo import SLO
from ..windows.calendar import calendar_edges
from .recalibration.clock import (
    ClockCounts,
    clock_counts,
    counted_changes,
    evaluated_events,
    evaluated_time,
    folded_codes,
)
from .sorted_events import Sorted, WindowSpec
from .status_variants import dwell_records
from .window_thin import thin_reasons

__all__ = ["EMPTY_COLUMNS", "MIN_EVALUATED_HOURS", "THIN_COLUMNS", "ClockFigures", "clock_codes",
           "clock_figures", "clock_events", "shown_clock", "dwell_clock", "thin_notes", "thin_rows",
           "too_thin", "warmup_notes", "withhold_empty"]

_MONTH_NS = 32 * DAY_NS

#: The columns of :func:`~budgetlab.compare_windows` a thin row's ``note`` withholds: its time
#: shares and rates per day (the CLI leaves them blank, the plot draws no value for them).
THIN_COLUMNS = ("share_healthy", "share_warning", "share_critical", "share_exhausted",
                "transitions_per_day", "round_trips_per_day")
#: The columns of :func:`~budgetlab.compare_windows` withheld (NaN, ``<NA>``, NaT) on a row whose
#: evaluated span holds no event (:func:`withhold_empty`): every figure read off the status.
EMPTY_COLUMNS = (*THIN_COLUMNS, "hours_exhausted", "hours_exhausted_silent", "transitions",
                 "round_trips", "detected", "missed", "unseen", "already_at_alert", "unrecovered",
                 "detection_median",
                 "detection_max", "recovery_median", "recovery_max")
#: The counts among :data:`EMPTY_COLUMNS`: pandas nullable integers (``Int64``), ``<NA>`` where
#: withheld (an empty cell in a CSV), so a count prints and writes as ``1``, never ``1.0``.
_COUNTS = ("transitions", "round_trips", "detected", "missed", "unseen", "already_at_alert",
           "unrecovered")


def thin_notes(hours: np.ndarray, events: np.ndarray) -> list[str]:
    """Per row of :func:`~budgetlab.compare_windows`: why its time shares and rates per day are
    too thin to go by (less than :data:`MIN_EVALUATED_HOURS` of evaluated time), in words; empty
    when they are not.

    >>> thin_notes(np.array([1.35, 0.0, 82.0]), np.array([0, 0, 9710]))
    ... # doctest: +NORMALIZE_WHITESPACE
    ['only 1 h 21 min of evaluated time (0 events in it): too little for time shares and rates per
      day, which need at least 24 h (one day)',
     'no evaluated time: the window held no traffic after its warm-up', '']
    """
    return thin_words(hours, events, time="evaluated time",
                      figures="time shares and rates per day",
                      no_time="no evaluated time: the window held no traffic after its warm-up")


def warmup_notes(notes: list[str], srt: Sorted, spec: WindowSpec, end_ns: int) -> list[str]:
    """``notes`` (:func:`thin_notes`, one per group) where a rolling window's warm-up (its first
    window from the group's first event) reaches the end of the observation (``end_ns``, the
    last event): the row has no evaluated time because the log ends within the warm-up, not
    because the window was empty, and its note says so.

    >>> ts = np.array([0, 3 * DAY_NS])
    >>> srt = Sorted(by=[], order=None, bounds=np.array([0, 2]), t=ts, bad=np.zeros(2, bool),
    ...              keys=pd.DataFrame(index=[0]))
    >>> print(*warmup_notes(["no evaluated time: ..."], srt,
    ...                     WindowSpec("7d", "rolling", 7 * DAY_NS), 3 * DAY_NS))
    no evaluated time: the log ends 3 d after its first event, within the 7 d window's warm-up
    (its first 7 d)
    """
    if spec.kind != "rolling" or not len(srt.t):
        return notes
    starts = srt.bounds[:-1]
    has = srt.bounds[1:] > starts
    first = srt.t[np.minimum(starts, len(srt.t) - 1)]
    within = has & (first + spec.window_ns >= end_ns)
    out = list(notes)
    window = window_words(spec.label)
    whose = "the group's" if srt.by else "its"
    for g in np.flatnonzero(within).tolist():
        if out[g].startswith("no evaluated time"):
            ran = duration_words(pd.Timedelta(int(end_ns - first[g]), unit="ns"))
            out[g] = (f"no evaluated time: the log ends {ran} after {whose} first event, within "
                      f"the {window} window's warm-up (its first {window})")
    return out


def thin_rows(table: pd.DataFrame) -> np.ndarray:
    """The rows of a :func:`~budgetlab.compare_windows` table whose time shares and rates per
    day are withheld: less than :data:`MIN_EVALUATED_HOURS` of evaluated time (``hours``; none
    at all included), no event in it (``events`` 0, :func:`withhold_empty`), or fewer
    ``expected_failures`` than
    :data:`~.recalibration.rules.MIN_EXPECTED_FAILURES` (too few events for the group's
    target: :func:`~.window_silence.events_notes`), the rows :func:`thin_notes`,
    :func:`withhold_empty` and ``events_notes`` write a note for; which rule made each one:
    :func:`~.window_thin.thin_reasons`. A table without ``hours`` (made by hand) has none.

    >>> thin_rows(pd.DataFrame({"hours": [1.35, 0.0, 82.0, float("nan"), 38.0],
    ...                         "events": [3, 0, 9710, 5, 0]})).tolist()
    [True, True, False, True, True]
    """
    return np.asarray(thin_reasons(table) != "", dtype=bool)


def withhold_empty(row: dict[str, Any], spec: WindowSpec, warmup_ns: int) -> dict[str, Any]:
    """``row`` (:func:`~budgetlab.compare_windows`'s columns, one value per group) with the
    :data:`EMPTY_COLUMNS` withheld (NaN, NaT) for the groups with evaluated time but no event in
    it, and their ``note`` saying why: the window held only events of a warm-up (the first
    window of a stretch of traffic, for a rolling window; ``warmup_ns`` after the first event).
    The counts among them are nullable integers (``Int64``: ``<NA>`` where withheld). A group
    without evaluated time keeps its note (``no evaluated time``).

    >>> row = withhold_empty({"events": np.array([0, 4]), "hours": np.array([38.0, 30.0]),
    ...     "detected": np.array([2, 1]), "note": ["", ""]},
    ...     WindowSpec("7d", "rolling", 7 * DAY_NS), 0)
    >>> row["detected"].tolist(), row["note"][1]
    ([<NA>, 1], '')
    >>> print(row["note"][0])  # doctest: +NORMALIZE_WHITESPACE
    0 events in the evaluated span: for its 38 h of evaluated time the window held only events
    of a warm-up (the first 7 d of a stretch of traffic, which only fills the window); no time
    shares, status changes, rates per day or detections without an event in it
    """
    empty = np.asarray(row["events"]) == 0
    out = dict(row)
    for c in (c for c in EMPTY_COLUMNS if c in out):
        vals = out[c]
        if c in _COUNTS:
            out[c] = pd.array(np.asarray(vals, dtype=np.int64), dtype="Int64")
            out[c][empty] = pd.NA
        elif isinstance(vals, pd.TimedeltaIndex):
            out[c] = vals.where(~empty)
        else:
            out[c] = np.where(empty, np.nan, np.asarray(vals, dtype=np.float64))
    if not empty.any():
        return out
    hours = np.asarray(row["hours"], dtype=np.float64)
    out["note"] = [_empty_words(h, spec, warmup_ns) if e and h > 0 else n
                   for n, e, h in zip(row["note"], empty.tolist(), hours.tolist(), strict=True)]
    return out


def _empty_words(hours: float, spec: WindowSpec, warmup_ns: int) -> str:
    """Why a row of :func:`withhold_empty` is withheld, in words."""
    from .._util.words import UNDER_A_SECOND, prose_duration, some_hours_words

    kinds = []
    if spec.kind == "rolling":
        w = window_words(spec.label)
        kinds.append(f"the first {w} of a stretch of traffic, which only fills the window")
    if warmup_ns:
        kinds.append(f"the {prose_duration(pd.Timedelta(warmup_ns, unit='ns'))} of warmup= "
                     "after the first event")
    span = some_hours_words(hours)
    span = span if span == UNDER_A_SECOND else f"its {span}"
    return (f"0 events in the evaluated span: for {span} of evaluated time the window held "
            f"only events of a warm-up ({'; or '.join(kinds)}); no time shares, status changes, "
            "rates per day or detections without an event in it")


def clock_codes(srt: Sorted, spec: WindowSpec, slo: SLO | list[SLO], targets: np.ndarray, tz: str,
                obs_end: int) -> tuple[ClockCounts, np.ndarray]:
    """The clock segments with traffic of every group under one window, and their status codes
    (int8, 0..3) under each group's target and SLO."""
    if spec.kind == "rolling":
        c = clock_counts(srt.t, srt.bad, srt.bounds, spec.window_ns, obs_end)
    else:
        lo = int(srt.t.min()) if len(srt.t) else 0
        edges = calendar_edges(lo, max(obs_end, lo) + _MONTH_NS, str(spec.calendar), tz)
        leave = edges[np.minimum(np.searchsorted(edges, srt.t, side="right"), len(edges) - 1)]
        c = clock_counts(srt.t, srt.bad, srt.bounds, 0, obs_end, leave=leave, warmup_ns=0)
    tgt = np.asarray(targets, dtype=np.float64)[c.seg] if len(c.seg) else np.zeros(0)
    if isinstance(slo, SLO):
        return c, seed_status_codes(c.total, c.failures, tgt, slo, c.first).astype(np.int8)
    code = np.zeros(len(c.seg), dtype=np.int8)
    for one in dict.fromkeys(slo):
        mine = np.array([s == one for s in slo], dtype=bool)[c.seg]
        code[mine] = seed_status_codes(c.total, c.failures, tgt, one, c.first)[mine]
    return c, code


def clock_events(srt: Sorted, spec: WindowSpec, lo_ns: int, hi_ns: int, *,
                 failures: bool = False) -> np.ndarray:
    """Per group, the events in the evaluated span (after each stretch's warm-up, in ``[lo_ns,
    hi_ns]``); with ``failures``, the failures among them."""
    if spec.kind == "rolling":
        keep = evaluated_events(srt.t, srt.bounds, spec.window_ns, lo_ns, hi_ns)
    else:
        keep = (srt.t >= lo_ns) & (srt.t <= hi_ns)
    if failures:
        keep = keep & srt.bad
    return np.bincount(srt.seg[keep], minlength=srt.n_groups)


@dataclass(frozen=True)
class ClockFigures:
    """:func:`clock_figures`, per group."""

    hours: np.ndarray  # (groups, 4): ns at each status, evaluated time
    observed_ns: np.ndarray  # evaluated ns (traffic, after warm-up)
    no_traffic_ns: np.ndarray  # ns in [lo, hi) without traffic, from the group's first event
    transitions: np.ndarray
    round_trips: np.ndarray


def shown_clock(c: ClockCounts, code: np.ndarray,
                min_dwell_ns: int) -> tuple[ClockCounts, np.ndarray]:
    """The segments and the status shown on them under the hysteresis ``min_dwell_ns``: ``(c,
    code)`` unchanged without it, else :func:`dwell_clock` of the codes with blips folded
    (:func:`~budgetlab.analyses.recalibration.clock.folded_codes`: a status held for one
    instant never escalates the shown status)."""
    if min_dwell_ns <= 0 or not len(code):
        return c, code
    return dwell_clock(c, folded_codes(c, code), min_dwell_ns)


def dwell_clock(c: ClockCounts, code: np.ndarray,
                min_dwell_ns: int) -> tuple[ClockCounts, np.ndarray]:
    """The hysteresis of :func:`budgetlab.hysteresis` on the clock: ``(segments, shown codes)``.

    Escalation is immediate; a drop to a less severe status happens once the shown status has
    been held for ``min_dwell_ns`` since it was entered: at that instant (``entered + dwell``,
    the segment holding it is cut there), or when the window's status drops if that is later,
    straight to the window's status then. Each traffic stretch starts HEALTHY; no traffic holds
    no status. One pass over the status changes, not over segments.

    >>> from budgetlab.analyses.recalibration.clock import clock_counts
    >>> c = clock_counts(np.array([0, 10]), np.array([True, False]), np.array([0, 2]), 20, 40)
    >>> c.start.tolist(), c.end.tolist()
    ([0, 10, 21], [10, 21, 31])
    >>> c2, shown = dwell_clock(c, np.array([3, 1, 0], dtype=np.int8), 15)
    >>> c2.start.tolist(), shown.tolist()
    ([0, 10, 15, 21, 30], [3, 3, 1, 1, 0])
    """
    bounds = np.r_[np.flatnonzero(c.first), len(code)]
    rows, at = dwell_records(c.start, c.end, code, bounds, min_dwell_ns, exact=True)
    return _cut_segments(c, code, rows, at)


def _cut_segments(c: ClockCounts, code: np.ndarray, row: np.ndarray,
                  at: np.ndarray) -> tuple[ClockCounts, np.ndarray]:
    """The segments cut where a shown status begins inside one (``at > start[row]``), and the
    shown codes: each record's row (or the part cut from it) shows ``code[row]`` until the
    next record; a stretch is HEALTHY until its first."""
    n = len(code)
    cut = at > c.start[row]
    cr = row[cut]
    rows = np.arange(n)
    moved = rows + np.searchsorted(cr, rows, side="left")  # each old row's new position
    ins = moved[cr] + 1  # the part cut from row cr goes right after it
    src = np.empty(n + len(cr), dtype=np.int64)
    old = np.ones(len(src), dtype=bool)
    old[ins] = False
    src[old], src[ins] = rows, cr
    start = c.start[src]
    start[ins] = at[cut]
    end = c.end[src]
    end[moved[cr]] = at[cut]
    first, instant = c.first[src] & old, c.instant[src] & old
    shown = np.full(len(src), -1, dtype=np.int64)
    shown[first] = 0
    shown[np.where(cut, moved[row] + 1, moved[row])] = code[row]
    idx = np.where(shown >= 0, np.arange(len(src)), 0)
    np.maximum.accumulate(idx, out=idx)
    seg = c.seg[src]
    # a cut is dated as the change the dropped status began at (the record before it): its
    # entry + the dwell (a record's lag is its segment's, or the one before it for a cut)
    lag = np.where(cut, -1, c.lag_start[row])
    lag = lag[np.maximum.accumulate(np.where(lag >= 0, np.arange(len(lag)), 0))] if len(lag) \
        else lag
    lag_start, lag_end = c.lag_start[src], c.lag_end[src]
    lag_start[ins] = np.maximum(lag[cut], 0)
    lag_end[moved[cr]] = np.maximum(lag[cut], 0)
    out = replace(c, seg=seg, start=start, end=end, total=c.total[src],
                  failures=c.failures[src], warmup_end=c.warmup_end[src], first=first,
                  instant=instant,
                  bounds=np.searchsorted(seg, np.arange(len(c.bounds))).astype(np.int64),
                  lag_start=lag_start, lag_end=lag_end)
    return out, shown[idx].astype(code.dtype)


def clock_figures(c: ClockCounts, code: np.ndarray, n_groups: int, lo_ns: int, hi_ns: int, *,
                  round_trip_ns: int) -> ClockFigures:
    """Time at each status, observed and no-traffic time, status changes and ``healthy ->
    warning -> healthy`` round trips (within ``round_trip_ns``) of every group.

    A change is between two clock segments of one traffic stretch (the stretch's first segment
    against HEALTHY, as at the start of the log; a status held for one instant is none:
    :func:`~budgetlab.analyses.recalibration.clock.counted_changes`) and counts when the later
    segment starts in the evaluated time; entering or leaving no traffic is not a change.
    With hysteresis, ``(c, code)`` are those of :func:`shown_clock`.
    """
    a, b = evaluated_time(c, lo_ns, hi_ns)
    dt = (b - a).astype(np.float64)
    seg = c.seg
    hours = np.bincount(seg * 4 + code.astype(np.int64), weights=dt,
                        minlength=n_groups * 4).reshape(n_groups, 4)
    observed = np.bincount(seg, weights=dt, minlength=n_groups)
    traffic = np.maximum(np.minimum(c.end, hi_ns) - np.maximum(c.start, lo_ns),
                         0).astype(np.float64)
    first = np.full(n_groups, hi_ns, dtype=np.int64)  # from each group's first event: before
    np.minimum.at(first, seg, c.start.astype(np.int64))  # it, it had not begun (no empty window)
    no_traffic = (np.maximum(hi_ns - np.maximum(first, lo_ns), 0)
                  - np.bincount(seg, weights=traffic, minlength=n_groups))
    rows, was = counted_changes(c, code)
    counted = (c.start[rows] >= np.maximum(c.warmup_end[rows], lo_ns)) & (c.start[rows] < hi_ns)
    ci, was = rows[counted], was[counted]
    n_tr = np.bincount(seg[ci], minlength=n_groups)
    up = (was == 0) & (code[ci] == 1)
    down = (was == 1) & (code[ci] == 0)
    if len(ci) > 1:
        same = ((seg[ci[:-1]] == seg[ci[1:]])
                & (np.cumsum(c.first)[ci[:-1]] == np.cumsum(c.first)[ci[1:]]))
        pair = up[:-1] & down[1:] & same & ((c.start[ci[1:]] - c.start[ci[:-1]]) <= round_trip_ns)
        n_rt = np.bincount(seg[ci[:-1][pair]], minlength=n_groups)
    else:
        n_rt = np.zeros(n_groups, dtype=np.int64)
    return ClockFigures(hours=hours, observed_ns=observed, transitions=n_tr, round_trips=n_rt,
                        no_traffic_ns=np.maximum(no_traffic, 0.0))
