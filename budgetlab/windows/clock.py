"""The window's own clock: when each group's trailing window changes between events.

The per-event kernel (:mod:`budgetlab.windows.trailing`) counts the window at every event. Between
events the window keeps moving: an event is in it through ``ts + window`` inclusive (the window
is ``[t - window, t]``) and leaves it 1 ns later. :func:`status_runs` merges, per group, those
arrivals and expiries (expiries first at the same instant, every change of one instant applied
before the window is read), reads the window once per instant and keeps only the instants where
the status changes. Status code 4 is an empty window.

The compiled single pass (numba, ``kernels._events.status_runs``) walks the rows in time order
with one arrival and one expiry head over all groups; the numpy twin (:func:`_numpy_status_runs`)
sorts every group's instants and counts with one cumulative sum. :func:`~.kernels.compiled` chooses.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from .kernels import compiled

__all__ = ["NO_TRAFFIC_CODE", "StatusRuns", "status_runs"]

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
                rule: StatusRule) -> StatusRuns:
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
    """
    if len(t) == 0:
        e = np.zeros(0, dtype=np.int64)
        return StatusRuns(e, e, np.zeros(0, dtype=np.int8), e, e, e)
    kernel = compiled("status_runs")  # None: the numpy twin, which needs `rule`
    if kernel is None:
        return _numpy_status_runs(t, bad, codes, ngroups, window_ns, rule)
    return StatusRuns(*kernel(t, bad.view(np.uint8), codes, ngroups, int(window_ns), 1 - target,
                              float(warning), float(critical), int(min_events)))


def _numpy_status_runs(t: np.ndarray, bad: np.ndarray, codes: np.ndarray, ngroups: int,
                       window_ns: int,
                       rule: StatusRule) -> StatusRuns:
    """numpy twin of the compiled ``status_runs``: the same changes (in group then time order)."""
    n = len(t)
    leaves = t <= _TOP - window_ns - 1  # later events never leave a representable window
    times = np.concatenate([t, t[leaves] + (window_ns + 1)])
    grp = np.concatenate([codes, codes[leaves]]).astype(np.int64)
    d_total = np.concatenate([np.ones(n, dtype=np.int64), np.full(int(leaves.sum()), -1,
                                                                  dtype=np.int64)])
    b = bad.astype(np.int64)
    d_bad = np.concatenate([b, -b[leaves]])
    o = np.lexsort((times, grp))
    times, grp = times[o], grp[o]
    total, failures = np.cumsum(d_total[o]), np.cumsum(d_bad[o])
    first_row = np.ones(len(grp), dtype=bool)
    first_row[1:] = grp[1:] != grp[:-1]
    starts = np.flatnonzero(first_row)
    lengths = np.diff(np.r_[starts, len(grp)])
    for c in (total, failures):  # counts of the group alone: minus the sum before its first row
        before = np.where(starts > 0, c[starts - 1], 0)
        c -= np.repeat(before, lengths)
    last = np.ones(len(grp), dtype=bool)  # the state after every change of one instant
    last[:-1] = first_row[1:] | (times[1:] != times[:-1])
    times, grp, total, failures = times[last], grp[last], total[last], failures[last]
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
    rows = np.flatnonzero(code != prev)
    return StatusRuns(grp[rows], times[rows], code[rows], total[rows], failures[rows],
                      times[idx[rows]])
