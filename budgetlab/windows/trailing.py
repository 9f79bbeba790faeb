"""The event-level window kernel: trailing-window counts for every event, in one pass.

Convention (the seed tracker's): at event ``i`` with time ``t_i`` the window holds every event
``j <= i`` (in table order) of its group with ``t_j >= t_i - window``. The left edge is
**closed** (an event at exactly ``t_i - window`` stays) and ties keep table order: an event does
not see later rows that share its timestamp. :func:`window_starts` writes that cut-off down once.

One kernel serves every caller (replay, grouped replay, the analyses): the compiled single pass
over the events in table order (numba, ``kernels._events.window_counts``) or its numpy twin (a
sort by group, one :func:`numpy.searchsorted` per group, one cumulative sum), as
:func:`budgetlab.windows.kernels.compiled` chooses (``BUDGETLAB_KERNEL=numpy``: the twin).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ..events.schema import ts_ns
from .groups import group_codes, order_by_codes, segment_codes, table_order
from .kernels import compiled_or, kernel_codes, read_only

__all__ = ["window_starts", "trailing_counts", "event_window_counts"]

_I64_MIN = int(np.iinfo(np.int64).min)
_CHUNK = 1 << 20  # rows per chunk of the numpy kernel's temporaries (8 MiB of int64)


def window_starts(sorted_t: np.ndarray, query_t: np.ndarray, window_ns: int) -> np.ndarray:
    """Index into ``sorted_t`` of the first event inside the trailing window of each query time.

    The window of a query at ``t`` is ``[t - window_ns, t]``: the left edge is closed (an event at
    exactly ``t - window_ns`` is inside), and ``t - window_ns`` is clamped at the int64 floor
    instead of wrapping around (times near 1677-09-21).

    >>> t = np.array([0, 10, 10, 20, 30], dtype=np.int64)
    >>> window_starts(t, t, 10)
    array([0, 0, 0, 1, 3])
    """
    floor = _I64_MIN + window_ns
    if len(query_t) and int(query_t.min()) < floor:
        cut = np.maximum(query_t, floor) - window_ns
    else:
        cut = query_t - window_ns
    return np.asarray(np.searchsorted(sorted_t, cut, side="left"))


def trailing_counts(
    t: np.ndarray, bad: np.ndarray, window_ns: int, bounds: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Events and failures in each event's trailing window, for events sorted by group.

    Parameters
    ----------
    t : int64 array
        Event times in ns, sorted ascending inside each ``bounds`` segment.
    bad : bool array
        Failure flags in the same order.
    window_ns : int
        Window length in ns.
    bounds : int64 array
        Segment (group) offsets: ``[0, ..., len(t)]``.

    Returns
    -------
    total, failures : int64 arrays

    Examples
    --------
    >>> t = np.array([0, 10, 10, 20, 30], dtype=np.int64)
    >>> bad = np.array([True, False, True, False, False])
    >>> trailing_counts(t, bad, 10, np.array([0, 5]))
    (array([1, 2, 3, 3, 2]), array([1, 1, 2, 1, 0]))
    """
    return _window_counts(t, bad, segment_codes(bounds), window_ns)


def event_window_counts(
    events: pd.DataFrame, window_ns: int, by: Sequence[str] = ()
) -> tuple[np.ndarray, np.ndarray]:
    """``(total, failures)`` per event of ``events`` (in table order) for one window, each group
    (``by``) with its own window."""
    bad = ~events["ok"].to_numpy(dtype=bool)
    # one group: codes of zeros, never written (calloc'd pages), never read by the kernel; int32,
    # the kernel's width (not copied)
    if not by:
        return _window_counts(ts_ns(events), bad, np.zeros(len(events), dtype=np.int32), window_ns,
                              ngroups=1)
    return _window_counts(ts_ns(events), bad, group_codes(events, by, dense=False), window_ns)


def _window_counts(
    t: np.ndarray, bad: np.ndarray, codes: np.ndarray, window_ns: int, ngroups: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Counts in table order, each row in the window of its group (``codes``; ``ngroups`` when
    known, else ``codes.max() + 1``), by the compiled kernel or its numpy twin."""
    if len(t) == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    kernel = compiled_or("window_counts", _numpy_window_counts)
    ngroups = int(codes.max()) + 1 if ngroups is None else ngroups
    # read-only views, int32 codes: one signature whatever the caller's arrays (one compile); the
    # twin keeps the smallest codes (numpy's radix sort)
    total, failures = kernel(read_only(t), read_only(bad.view(np.uint8)),
                             read_only(codes) if kernel is _numpy_window_counts
                             else kernel_codes(codes, ngroups), int(ngroups), int(window_ns))
    return total, failures


def _numpy_window_counts(
    t: np.ndarray, bad_u8: np.ndarray, codes: np.ndarray, ngroups: int, window_ns: int
) -> tuple[np.ndarray, np.ndarray]:
    """numpy twin of the compiled ``window_counts`` (same arguments, same integers): put each
    group's rows together (skipped when they already are), count per segment, put them back."""
    bad = bad_u8.view(bool)
    n = len(t)
    if ngroups == 1:
        return _segment_counts(t, bad, window_ns, np.array([0, n], dtype=np.int64))
    step = np.diff(codes)  # fits the codes' dtype: they lie in 0..ngroups-1
    if int(step.min(initial=0)) >= 0:  # rows already sorted by group (trailing_counts)
        return _segment_counts(t, bad, window_ns, np.r_[0, np.flatnonzero(step) + 1,
                                                        n].astype(np.int64))
    del step
    order, bounds = order_by_codes(codes)
    t_sorted = t[order]
    total_s, fail_s = _segment_counts(t_sorted, bad[order], window_ns, bounds)
    total = t_sorted  # no longer needed: reuse its memory for one of the results
    total[order] = total_s
    del total_s
    return total, table_order(fail_s, order)


def _segment_counts(
    t: np.ndarray, bad: np.ndarray, window_ns: int, bounds: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`trailing_counts` in numpy: :func:`window_starts` per segment, one cumulative sum.

    Works in chunks so that the only full-size arrays are the two results (fresh 10 M-element
    temporaries cost more in page faults than the arithmetic itself).
    """
    n = len(t)
    total = np.empty(n, dtype=np.int64)  # first holds lo: the window's first index
    for s, e in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True):
        seg = t[s:e]
        for c in range(s, e, _CHUNK):
            keys = t[c : min(c + _CHUNK, e)]
            total[c : c + len(keys)] = window_starts(seg, keys, window_ns)
        total[s:e] += s
    cum = np.empty(n + 1, dtype=np.int64)
    cum[0] = 0
    np.cumsum(bad, out=cum[1:])
    failures = cum[1:]  # failures[i] = cum[i + 1] - cum[lo[i]], in place, last chunk first
    for c in range(((n - 1) // _CHUNK) * _CHUNK if n else -1, -1, -_CHUNK):
        lo = total[c : c + _CHUNK]
        failures[c : c + len(lo)] -= cum[lo]
        lo -= np.arange(c + 1, c + 1 + len(lo), dtype=np.int64)
        np.negative(lo, out=lo)  # total = (i + 1) - lo
    return total, failures
