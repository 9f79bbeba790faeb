"""The window's own clock: when each group's trailing window changes between events.

The per-event kernel (:mod:`budgetlab.windows.trailing`) counts the window at every event. Between
events the window keeps moving: an event is in it through ``ts + window`` inclusive (the window
is ``[t - window, t]``) and leaves it 1 ns later. :func:`status_runs` merges, per group, those
arrivals and expiries (expiries first at the same instant, every change of one instant applied
before the window is read), reads the window once per instant and keeps only the instants where
the status changes (``every_instant=True``: every instant, the window's un-collapsed step
function, two rows per event at most). Status code 4 is an empty window.

The compiled single pass (numba, ``kernels._events.status_runs``) walks the rows in time order
with one arrival and one expiry head over all groups; the numpy twin (:func:`_numpy_status_runs`)
reads the status at every instant of :func:`window_changes` (one cumulative sum).
:func:`~.kernels.compiled` chooses.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from .kernels import compiled, kernel_codes, read_only

__all__ = ["NO_TRAFFIC_CODE", "StatusRuns", "WindowChanges", "status_runs", "window_changes"]

#: The status code of an empty window (after the seed's four, 0..3).
NO_TRAFFIC_CODE = 4
_TOP = int(np.iinfo(np.int64).max)

#: ``rule(total, failures, stretch_start) -> int8 status codes`` of non-empty windows, rows in
#: group then time order, ``stretch_start`` marking the first instant of each traffic stretch
#: (where the ``min_events`` hold starts from healthy).
StatusRule = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]


class StatusRuns(NamedTuple):
    """Every change of a group's status on the window's clock (one row per change)."""

    group: np.ndarray  #: group code (int64)
    start: np.ndarray  #: the instant of the change (int64 ns)
    status: np.ndarray  #: the new status code (int8; 4 = empty window)
    total: np.ndarray  #: events in the window at that instant (int64)
    failures: np.ndarray  #: failures in the window at that instant (int64)
    #: first event time of the traffic stretch (int64 ns; any value when empty)
    stretch_first: np.ndarray


def status_runs(t: np.ndarray, bad: np.ndarray, codes: np.ndarray, ngroups: int, window_ns: int, *,
                target: float, warning: float, critical: float, min_events: int,
                rule: StatusRule, every_instant: bool = False) -> StatusRuns:
    """The status changes of every group's window on the window's clock.

    Parameters
    ----------
    t : int64 array
        Event times (ns), ascending (a replay's table order; ties keep it).
    bad : bool array
        Failure flags.
    codes : integer array
        Group code of each row, ``0 <= code < ngroups``.
    window_ns : int
        Window length.
    target, warning, critical, min_events :
        The SLO (the compiled kernel restates the seed arithmetic of ``budget/figures.py`` for
        them, since numba cannot call it).
    rule : callable
        The seed's status of non-empty windows (the numpy twin calls it; see :data:`StatusRule`).
    every_instant : bool
        One row per instant where the group's window changes (each event instant and each
        expiry, ``ts + window + 1 ns``), whether or not the status changes there.

    Returns
    -------
    StatusRuns
        One row per change (a group's first event always is one), in time order or in group
        then time order (the caller sorts).

    Examples
    --------
    >>> t = np.array([0, 5, 20], dtype=np.int64)
    >>> runs = status_runs(t, np.array([False, True, False]), np.zeros(3, np.int8), 1, 10,
    ...                    target=0.5, warning=0.5, critical=0.1, min_events=0,
    ...                    rule=lambda tot, f, s: np.where(f * 2 >= tot, 3, 0).astype(np.int8))
    >>> runs.start.tolist(), runs.status.tolist()
    ([0, 5, 16, 20, 31], [0, 3, 4, 0, 4])
    >>> t = np.array([0, 5, 8], dtype=np.int64)
    >>> runs = status_runs(t, np.array([False, True, True]), np.zeros(3, np.int8), 1, 10,
    ...                    target=0.5, warning=0.5, critical=0.1, min_events=0,
    ...                    rule=lambda tot, f, s: np.where(f * 2 >= tot, 3, 0).astype(np.int8),
    ...                    every_instant=True)
    >>> runs.start.tolist(), runs.total.tolist(), runs.status.tolist()
    ([0, 5, 8, 11, 16, 19], [1, 2, 3, 2, 1, 0], [0, 3, 3, 3, 3, 4])
    """
    if len(t) == 0:
        e = np.zeros(0, dtype=np.int64)
        return StatusRuns(e, e, np.zeros(0, dtype=np.int8), e, e, e)
    kernel = compiled("status_runs")  # None: the numpy twin, which needs `rule`
    if kernel is None:
        return _numpy_status_runs(t, bad, codes, ngroups, window_ns, rule, every_instant)
    # read-only views, int32 codes: one signature whatever the caller's arrays (one compile)
    return StatusRuns(*kernel(read_only(t), read_only(bad.view(np.uint8)),
                              kernel_codes(codes, ngroups),
                              int(ngroups), int(window_ns), 1 - target,
                              float(warning), float(critical), int(min_events),
                              bool(every_instant)))


class WindowChanges(NamedTuple):
    """Every instant where a group's window changes (one row per group and instant)."""

    group: np.ndarray  #: group code (int64)
    start: np.ndarray  #: the instant (int64 ns): an arrival, or an expiry ``ts + window + 1 ns``
    total: np.ndarray  #: events in the window after every change of that instant (int64)
    failures: np.ndarray  #: failures in the window then (int64)


def window_changes(t: np.ndarray, bad: np.ndarray, codes: np.ndarray,
                   window_ns: int) -> WindowChanges:
    """The window of every group at each instant where it changes: each arrival ``t`` and each
    expiry ``t + window + 1 ns`` (an event is in the window through ``ts + window``), every change
    of one instant applied before the window is read. Rows in group then time order; at most two
    per event (vectorized numpy: four int64 arrays of up to ``2 n`` rows, and their sort).

    >>> t = np.array([0, 5, 20], dtype=np.int64)
    >>> ch = window_changes(t, np.array([False, True, False]), np.zeros(3, np.int8), 10)
    >>> ch.start.tolist(), ch.total.tolist(), ch.failures.tolist()
    ([0, 5, 11, 16, 20, 31], [1, 2, 1, 0, 1, 0], [0, 1, 1, 0, 0, 0])
    """
    n = len(t)
    leaves = t <= _TOP - window_ns - 1  # later events never leave a representable window
    ex = t[leaves] + (window_ns + 1)
    b = bad.astype(np.int64)
    d_total = np.concatenate([np.ones(n, dtype=np.int64), np.full(len(ex), -1, dtype=np.int64)])
    d_bad = np.concatenate([b, -b[leaves]])
    if n == 0 or bool((codes == codes[0]).all()):  # one group: merge the two sorted streams
        grp = np.full(n + len(ex), codes[0] if n else 0, dtype=np.int64)
        o = np.empty(n + len(ex), dtype=np.int64)  # expiries first at the same instant
        o[np.arange(len(ex)) + np.searchsorted(t, ex, side="left")] = np.arange(n, n + len(ex))
        o[np.arange(n) + np.searchsorted(ex, t, side="right")] = np.arange(n)
        times = np.concatenate([t, ex])[o]
    else:
        # group then time order: two stable sorts, each one pass here (times: two sorted runs
        # merged; group codes: a radix sort when small), where a lexsort sorts twice over
        times = np.concatenate([t, ex])
        grp = np.concatenate([codes, codes[leaves]])
        o = np.argsort(times, kind="stable")
        o = o[np.argsort(grp[o], kind="stable")]
        times, grp = times[o], grp[o].astype(np.int64)
    total, failures = np.cumsum(d_total[o]), np.cumsum(d_bad[o])
    first_row = np.ones(len(grp), dtype=bool)
    first_row[1:] = grp[1:] != grp[:-1]
    starts = np.flatnonzero(first_row)
    if len(starts) > 1:  # counts of the group alone: minus the sum before its first row
        lengths = np.diff(np.r_[starts, len(grp)])
        for c in (total, failures):
            c -= np.repeat(np.where(starts > 0, c[starts - 1], 0), lengths)
    last = np.ones(len(grp), dtype=bool)  # the state after every change of one instant
    last[:-1] = first_row[1:] | (times[1:] != times[:-1])
    return WindowChanges(grp[last], times[last], total[last], failures[last])


def _numpy_status_runs(t: np.ndarray, bad: np.ndarray, codes: np.ndarray, ngroups: int,
                       window_ns: int, rule: StatusRule,
                       every_instant: bool = False) -> StatusRuns:
    """numpy twin of the compiled ``status_runs``: the same changes (in group then time order);
    ``every_instant``: every instant of :func:`window_changes`, with its status."""
    grp, times, total, failures = window_changes(t, bad, codes, window_ns)
    first_row = np.ones(len(grp), dtype=bool)
    first_row[1:] = grp[1:] != grp[:-1]
    empty = total == 0
    prev_empty = np.ones(len(grp), dtype=bool)
    prev_empty[1:] = empty[:-1]
    prev_empty |= first_row
    stretch = ~empty & prev_empty
    code = np.full(len(grp), NO_TRAFFIC_CODE, dtype=np.int8)
    busy = ~empty
    code[busy] = rule(total[busy], failures[busy], stretch[busy])
    idx = np.where(stretch, np.arange(len(grp)), 0)
    np.maximum.accumulate(idx, out=idx)
    prev = np.empty_like(code)
    prev[1:] = code[:-1]
    prev[first_row] = NO_TRAFFIC_CODE
    if every_instant:  # every row: the arrays themselves, no copies (two rows per event)
        return StatusRuns(grp, times, code, total, failures, times[idx])
    rows = np.flatnonzero(code != prev)
    return StatusRuns(grp[rows], times[rows], code[rows], total[rows], failures[rows],
                      times[idx[rows]])
