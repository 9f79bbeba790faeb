"""The window's clock as counts: the piecewise-constant window contents of every group over time.

:func:`budgetlab.status_spans` gives the time-driven status under one SLO. The analyses that try
many targets at once (:func:`budgetlab.recalibrate`) need what that status is computed from: the
window's ``total`` and ``failures`` between two instants at which they change. They change when an
event arrives (at its ``ts``) and when it leaves the window (1 ns after ``ts + window``: the window
is ``[t - window, t]``). Between two such instants the seed's rule gives one status for any
target, so the time at each status under every candidate target is a weighted count over these
segments.

A segment whose window is empty is *no traffic*: it carries no status and no time in any status.
A **traffic stretch** is a maximal run of segments with traffic; its warm-up ends one window after
its first event (``warmup_end``), and the ``min_events`` hold restarts from HEALTHY at its start
(``first``), as at the start of the log.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["ClockCounts", "clock_counts", "counted_changes", "folded_codes", "evaluated_time",
           "evaluated_events", "split_days"]


@dataclass(frozen=True)
class ClockCounts:
    """:func:`clock_counts`: the segments with traffic, in group order then time.

    Attributes
    ----------
    seg : ndarray of int64
        Group index of each segment.
    start, end : ndarray of int64
        The segment ``[start, end)`` in ns (``end`` at most the observation end).
    total, failures : ndarray of int64
        The window's counts during the segment (``total > 0``).
    warmup_end : ndarray of int64
        The end of the first window of the segment's traffic stretch (its first event + window).
    first : ndarray of bool
        The first segment of a traffic stretch (the ``min_events`` hold restarts there).
    instant : ndarray of bool
        A segment that is one instant, not a stretch of time: it starts at an event and ends 1 ns
        later when an event exactly at that event's cut-off leaves (rolling windows). The seed saw
        it (its record at that event counts the cut-off event), but in real time the cut-off
        event leaves right after: the window holds these contents at no time, so it is no status
        change on the clock (:func:`counted_changes`).
    lag_start, lag_end : ndarray of int64
        How far the segment's first instant (its ``end``) lies after the instant at which the
        status changes there: 1 ns where only departures of a rolling window change the contents
        (an event is in the window through ``ts + window``, so the change is at that instant and
        the next contents hold from 1 ns later), else 0 (an arrival, a calendar reset, the
        observation end). ``start - lag_start`` is when the segment's status began, to the
        nanosecond of the log: the date of a detection or a recovery.
    bounds : ndarray of int64
        ``bounds[g]:bounds[g + 1]`` are group ``g``'s segments.
    """

    seg: np.ndarray
    start: np.ndarray
    end: np.ndarray
    total: np.ndarray
    failures: np.ndarray
    warmup_end: np.ndarray
    first: np.ndarray
    instant: np.ndarray
    bounds: np.ndarray
    lag_start: np.ndarray
    lag_end: np.ndarray


def clock_counts(t: np.ndarray, bad: np.ndarray, bounds: np.ndarray, window_ns: int, obs_end: int,
                 *,
                 leave: np.ndarray | None = None, warmup_ns: int | None = None) -> ClockCounts:
    """The window's counts between every two instants at which they change, per group.

    Parameters
    ----------
    t : ndarray of int64
        Event times in ns, each group's rows together and in time order (``bounds``).
    bad : ndarray of bool
        Failures.
    bounds : ndarray of int64
        Group boundaries: group ``g`` is ``t[bounds[g]:bounds[g + 1]]``.
    window_ns : int
        The window: an event is in it from ``ts`` through ``ts + window_ns`` inclusive.
    obs_end : int
        The observation end (segments are cut there).
    leave : ndarray of int64, optional
        When each event leaves the window (default ``t + window_ns + 1``; a calendar window:
        the next reset).
    warmup_ns : int, optional
        The warm-up of a traffic stretch (default ``window_ns``; 0 for a calendar window).

    Examples
    --------
    Two events 10 ns apart, a 5 ns window: the first leaves at 6, the second arrives at 10 and
    the observation ends there (its own segment has no length and is dropped):

    >>> c = clock_counts(np.array([0, 10]), np.array([True, False]), np.array([0, 2]), 5, 10)
    >>> c.start.tolist(), c.end.tolist(), c.total.tolist(), c.failures.tolist(), c.first.tolist()
    ([0], [6], [1], [1], [True])
    """
    t = np.asarray(t, dtype=np.int64)
    n = len(t)
    n_groups = len(bounds) - 1
    seg_ev = np.repeat(np.arange(n_groups, dtype=np.int64), np.diff(bounds))
    bad_i = np.asarray(bad, dtype=np.int64)
    out_t = t + (window_ns + 1) if leave is None else np.asarray(leave, dtype=np.int64)
    # merge each group's arrivals and departures (both in time order): a departure at the instant
    # of an arrival goes after it (every change of an instant is applied before it is read)
    pos_in, pos_out = _merge_positions(t, out_t, np.asarray(bounds, dtype=np.int64))
    times = np.empty(2 * n, dtype=np.int64)
    times[pos_in], times[pos_out] = t, out_t
    groups = np.repeat(seg_ev, 2) if n else np.zeros(0, dtype=np.int64)
    d_tot = np.empty(2 * n, dtype=np.int64)
    d_tot[pos_in], d_tot[pos_out] = 1, -1
    d_bad = np.empty(2 * n, dtype=np.int64)
    d_bad[pos_in], d_bad[pos_out] = bad_i, -bad_i
    # every arrival leaves in its own group, so the running sums are back at 0 at each group's end
    total = np.cumsum(d_tot)
    failures = np.cumsum(d_bad)
    last = np.ones(len(times), dtype=bool)  # the last change at each (group, instant)
    last[:-1] = (times[1:] != times[:-1]) | (groups[1:] != groups[:-1])
    runs = np.r_[0, np.flatnonzero(last)[:-1] + 1].astype(np.int64)  # each instant's changes
    arrives = np.logical_or.reduceat(d_tot > 0, runs) if n else np.zeros(0, dtype=bool)
    departs = np.logical_or.reduceat(d_tot < 0, runs) if n else np.zeros(0, dtype=bool)
    times, groups, total, failures = times[last], groups[last], total[last], failures[last]
    nxt = np.empty_like(times)
    nxt[:-1] = times[1:]
    nxt[-1:] = times[-1:]
    same = np.zeros(len(times), dtype=bool)
    same[:-1] = groups[1:] == groups[:-1]
    end = np.minimum(np.where(same, nxt, times), obs_end)
    prev_empty = np.ones(len(times), dtype=bool)
    prev_empty[1:] = ~same[:-1] | (total[:-1] == 0)
    first_all = prev_empty & (total > 0)
    head = np.where(first_all, np.arange(len(times)), 0)
    np.maximum.accumulate(head, out=head)
    stretch_start = times[head]
    keep = (total > 0) & (end > times)
    # an arrival, and 1 ns later (a rolling window) the departure of an event at its cut-off
    instant = np.zeros(len(times), dtype=bool)
    if leave is None:
        instant[:-1] = arrives[:-1] & departs[1:] & same[:-1] & (nxt[:-1] == times[:-1] + 1)
    # a rolling window's instant with departures only: its change is dated 1 ns earlier
    lag = (~arrives).astype(np.int64) if leave is None else np.zeros(len(times), dtype=np.int64)
    lag_next = np.zeros(len(times), dtype=np.int64)
    lag_next[:-1] = lag[1:]
    seg = groups[keep]
    return ClockCounts(
        seg=seg, start=times[keep], end=end[keep], total=total[keep], failures=failures[keep],
        warmup_end=stretch_start[keep] + (window_ns if warmup_ns is None else warmup_ns),
        first=first_all[keep], instant=instant[keep],
        bounds=np.searchsorted(seg, np.arange(n_groups + 1)).astype(np.int64),
        lag_start=lag[keep], lag_end=np.where(same & (end == nxt), lag_next, 0)[keep])


def folded_codes(c: ClockCounts, code: np.ndarray) -> np.ndarray:
    """``code`` with every status held for one instant only folded into the status before it.

    A blip is an :attr:`ClockCounts.instant` segment whose code differs from the next segment's
    in its traffic stretch: the window holds those contents at no stretch of time, so on the
    clock the status before it goes on through that instant (HEALTHY, 0, at a stretch's first
    segment, as at the start of the log). An instant whose status goes on after it is where that
    status begins and keeps its code.

    >>> c = clock_counts(np.array([0, 10]), np.array([True, True]), np.array([0, 2]), 10, 30)
    >>> c.start.tolist(), c.end.tolist(), c.total.tolist(), c.instant.tolist()
    ([0, 10, 11], [10, 11, 21], [1, 2, 1], [False, True, False])
    >>> folded_codes(c, np.array([3, 2, 3], dtype=np.int8)).tolist()
    [3, 3, 3]
    """
    n = len(code)
    nxt = np.full(n, -1, dtype=np.int64)
    inside = np.flatnonzero(~c.first[1:]) if n else np.zeros(0, dtype=np.int64)
    nxt[inside] = code[inside + 1]  # the next segment of the same stretch (none: -1)
    blip = c.instant & (nxt >= 0) & (nxt != code)
    if not bool(blip.any()):
        return code
    src = np.where(blip, -1, np.arange(n))
    np.maximum.accumulate(src, out=src)
    head = np.where(c.first, np.arange(n), 0)
    np.maximum.accumulate(head, out=head)
    return np.where(src >= head, code[np.maximum(src, 0)], 0).astype(code.dtype)


def counted_changes(c: ClockCounts, code: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(rows, previous code)`` of the status changes on the clock: a segment whose code differs
    from the one before it in its traffic stretch (a stretch's first segment against HEALTHY, 0,
    as at the start of the log), blips folded first (:func:`folded_codes`: a status held for one
    instant only is no change; the next segment is compared with the one before it).

    >>> c = clock_counts(np.array([0, 10]), np.array([True, True]), np.array([0, 2]), 10, 30)
    >>> rows, prev = counted_changes(c, np.array([3, 2, 3], dtype=np.int8))
    >>> rows.tolist(), prev.tolist()
    ([0], [0])
    """
    folded = folded_codes(c, code)
    prev = np.zeros(len(folded), dtype=folded.dtype)
    prev[1:] = folded[:-1]
    prev[c.first] = 0
    rows = np.flatnonzero(folded != prev)
    return rows, prev[rows]


def _merge_positions(t: np.ndarray, out_t: np.ndarray, bounds: np.ndarray) -> tuple[np.ndarray,
                                                                                    np.ndarray]:
    """Where each arrival and each departure goes in the merged ``(group, time)`` order: group
    ``g``'s ``2 n_g`` changes fill ``[2 bounds[g], 2 bounds[g + 1])`` (one search per group)."""
    n = len(t)
    pos_in = np.empty(n, dtype=np.int64)
    pos_out = np.empty(n, dtype=np.int64)
    for s, e in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True):
        if e <= s:
            continue
        a, d = t[s:e], out_t[s:e]
        k = np.arange(e - s, dtype=np.int64)
        pos_in[s:e] = 2 * s + k + np.searchsorted(d, a, side="left")
        pos_out[s:e] = 2 * s + k + np.searchsorted(a, d, side="right")
    return pos_in, pos_out


def evaluated_time(c: ClockCounts, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
    """``(from, to)`` of each segment's evaluated part: inside ``[lo, hi)`` and after its
    stretch's warm-up (``to <= from`` where nothing is left). The one measure of evaluated time
    on the clock: time at each status, observed, held over a silence, the thin-evidence rules.

    **One instant is no evaluated time.** A stretch whose events all arrive at its first
    instant ``f`` holds them through ``f + window`` (its window is ``[f, f + window]``), the
    instant its warm-up closes, and empties 1 ns later: its window was full at that one instant
    only, not for a stretch of time. Such an evaluated part, one instant right before the window
    empties with nothing evaluated before it in the stretch (the same at the span's start
    ``lo``), counts none. Anything else keeps the clock's nanoseconds (an event is in a rolling
    window through ``ts + window`` and leaves 1 ns later; a blip keeps its 1 ns).

    One event, a 10 ns window (it leaves at 11): no evaluated time. A second event at 4: 5 ns.

    >>> c = clock_counts(np.array([0]), np.array([False]), np.array([0, 1]), 10, 30)
    >>> a, b = evaluated_time(c, 0, 30)
    >>> (c.start.tolist(), c.end.tolist()), (b - a).tolist()
    (([0], [11]), [0])
    >>> a, b = evaluated_time(clock_counts(np.array([0, 4]), np.array([False, True]),
    ...                                    np.array([0, 2]), 10, 30), 0, 30)
    >>> (b - a).tolist()
    [0, 1, 4]
    """
    a = np.maximum(np.maximum(c.start, c.warmup_end), lo)
    b = np.maximum(np.minimum(c.end, hi), a)
    empties = np.ones(len(a), dtype=bool)  # the window is empty right after the segment
    empties[:-1] = (c.seg[1:] != c.seg[:-1]) | (c.start[1:] != c.end[:-1])
    instant = (empties & (c.lag_end == 1) & (b - a == 1)
               & (a == np.maximum(c.warmup_end, lo)))
    return a, np.where(instant, a, b)


def split_days(a: np.ndarray, b: np.ndarray, lo: int, day_ns: int) -> tuple[np.ndarray, np.ndarray,
                                                                            np.ndarray]:
    """Cut the intervals ``[a, b)`` at the day boundaries ``lo + k * day_ns``: ``(row, day, ns)``
    per piece with time (``row`` indexes the input).

    >>> [x.tolist() for x in split_days(np.array([5, 30]), np.array([25, 31]), 0, 10)]
    [[0, 0, 0, 1], [0, 1, 2, 3], [5, 10, 5, 1]]
    """
    rows = np.flatnonzero(b > a)
    a, b = a[rows], b[rows]
    d0 = (a - lo) // day_ns
    d1 = (b - 1 - lo) // day_ns
    reps = (d1 - d0 + 1).astype(np.int64)
    row = np.repeat(rows, reps)
    offs = np.arange(int(reps.sum()), dtype=np.int64) - np.repeat(np.cumsum(reps) - reps, reps)
    day = np.repeat(d0, reps) + offs
    lo_p = np.maximum(np.repeat(a, reps), lo + day * day_ns)
    hi_p = np.minimum(np.repeat(b, reps), lo + (day + 1) * day_ns)
    return row, day, hi_p - lo_p


def evaluated_events(t: np.ndarray, bounds: np.ndarray, window_ns: int, lo: int, hi: int, *,
                     warmup_ns: int | None = None) -> np.ndarray:
    """Events (``t`` in group order) whose instant lies in the evaluated span: in ``[lo, hi]`` and
    at least ``warmup_ns`` (default ``window_ns``) after the first event of their traffic stretch
    (a stretch starts at a group's first event and at every event after the window emptied, i.e.
    more than ``window_ns + 1`` ns after the previous event of its group, as in
    :func:`clock_counts`).

    >>> evaluated_events(np.array([0, 5, 20, 30]), np.array([0, 4]), 10, 0, 30).tolist()
    [False, False, False, True]
    """
    t = np.asarray(t, dtype=np.int64)
    n = len(t)
    head = np.zeros(n, dtype=bool)
    head[np.asarray(bounds[:-1])[np.asarray(bounds[:-1]) < n]] = True
    if n:
        head[1:] |= (t[1:] - t[:-1]) > window_ns + 1
    idx = np.where(head, np.arange(n), 0)
    np.maximum.accumulate(idx, out=idx)
    warm = window_ns if warmup_ns is None else warmup_ns
    return np.asarray((t >= np.maximum(t[idx] + warm, lo)) & (t <= hi))
