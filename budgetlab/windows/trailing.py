"""The event-level window kernel: trailing-window counts for every event, in one vectorized pass.

Convention (the seed tracker's): at event ``i`` with time ``t_i`` the window holds every event
``j <= i`` (in table order) with ``t_j >= t_i - window``. The left edge is **closed** (an event at
exactly ``t_i - window`` stays) and ties keep table order: an event does not see later rows that
share its timestamp. One sorted array, one :func:`numpy.searchsorted` per group, one cumulative sum.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ..events.schema import ts_ns
from ._compiled import kernels
from .groups import group_codes, group_order

__all__ = ["trailing_counts", "event_window_counts"]

_I64_MIN = int(np.iinfo(np.int64).min)
_CHUNK = 1 << 20  # rows per chunk of the kernel's temporaries (8 MiB of int64)


def trailing_counts(
    t: np.ndarray, bad: np.ndarray, window_ns: int, bounds: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Events and failures in each event's trailing window.

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
    n = len(t)
    # Work in chunks so that the only full-size arrays are the two results (fresh 10 M-element
    # temporaries cost more in page faults than the arithmetic itself).
    total = np.empty(n, dtype=np.int64)  # first holds lo: the window's first index
    floor = _I64_MIN + window_ns
    for s, e in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True):
        seg = t[s:e]
        for c in range(s, e, _CHUNK):
            keys = t[c : min(c + _CHUNK, e)]
            keys = keys - window_ns if e == s or int(seg[0]) >= floor else np.maximum(keys, floor) - window_ns
            total[c : c + len(keys)] = np.searchsorted(seg, keys, side="left")
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


def event_window_counts(
    events: pd.DataFrame, window_ns: int, by: Sequence[str] = ()
) -> tuple[np.ndarray, np.ndarray]:
    """``(total, failures)`` per event of ``events`` (in table order) for one window."""
    t = ts_ns(events)
    bad = ~events["ok"].to_numpy(dtype=bool)
    compiled = kernels()
    if compiled is not None and len(t):  # one compiled pass, any number of groups
        codes = group_codes(events, by, dense=False) if by else np.zeros(len(t), dtype=np.int8)
        ngroups = int(codes.max()) + 1
        total, failures = compiled["window_counts"](t, bad.view(np.uint8), codes, ngroups, int(window_ns))
        return total, failures
    order, bounds = group_order(events, by)
    if order is None:
        return trailing_counts(t, bad, window_ns, bounds)
    t_sorted = t[order]
    total_s, fail_s = trailing_counts(t_sorted, bad[order], window_ns, bounds)
    total = t_sorted  # no longer needed: reuse its memory for one of the results
    total[order] = total_s
    del total_s
    failures = np.empty_like(fail_s)
    failures[order] = fail_s
    return total, failures
