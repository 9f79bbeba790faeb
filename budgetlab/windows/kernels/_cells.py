"""The compiled cell counting (numba): see :func:`budgetlab.windows.kernels.cells.event_cells`."""

from __future__ import annotations

from typing import Any

import numpy as np

from ._jit import jit

__all__ = ["cells"]


@jit
def _alloc(n_cells: int, n_cat: int) -> Any:
    return (np.empty(n_cells, np.int64), np.empty(n_cells, np.int64), np.zeros(n_cells, np.int64),
            np.zeros(n_cells, np.int64), np.zeros((n_cells, n_cat), np.int64))


@jit
def in_order_cells(group: Any, t: Any, first_bin: int, freq_ns: int, keep: Any, fail: Any,
                   code: Any,
                   n_groups: int, n_cat: int) -> Any:
    """Cells of events in time order: two passes, no sort (each group's bins arrive in order)."""
    n = group.shape[0]
    last = np.full(n_groups, -1, np.int64)
    off = np.zeros(n_groups + 1, np.int64)
    for i in range(n):
        if keep[i]:
            g = group[i]
            b = (t[i] - first_bin) // freq_ns
            if b != last[g]:
                last[g] = b
                off[g + 1] += 1
    for g in range(n_groups):
        off[g + 1] += off[g]
    c_group, c_bin, c_total, c_bad, c_code = _alloc(off[n_groups], n_cat)
    cur = off[:-1] - 1
    last[:] = -1
    for i in range(n):
        if keep[i]:
            g = group[i]
            b = (t[i] - first_bin) // freq_ns
            if b != last[g]:
                last[g] = b
                cur[g] += 1
                c_group[cur[g]] = g
                c_bin[cur[g]] = b
            c = cur[g]
            c_total[c] += 1
            if fail[i]:
                c_bad[c] += 1
            c_code[c, code[i]] += 1
    return c_group, c_bin, c_total, c_bad, c_code


@jit
def sorted_cells(group: Any, t: Any, first_bin: int, freq_ns: int, keep: Any, fail: Any, code: Any,
                 n_groups: int, n_cat: int) -> Any:
    """Cells of events in any order: a counting sort by group, each group sorted by time if
    needed."""
    n = group.shape[0]
    start = np.zeros(n_groups + 1, np.int64)
    for i in range(n):
        if keep[i]:
            start[group[i] + 1] += 1
    for g in range(n_groups):
        start[g + 1] += start[g]
    pos = start[:-1].copy()
    order = np.empty(start[n_groups], np.int64)
    for i in range(n):
        if keep[i]:
            g = group[i]
            order[pos[g]] = i
            pos[g] += 1
    n_cells = 0
    for g in range(n_groups):
        lo, hi = start[g], start[g + 1]
        for p in range(lo + 1, hi):
            if t[order[p]] < t[order[p - 1]]:
                seg = order[lo:hi].copy()
                srt = np.argsort(t[seg], kind="mergesort")
                for q in range(hi - lo):
                    order[lo + q] = seg[srt[q]]
                break
        for p in range(lo, hi):
            if (
                p == lo
                or (t[order[p]] - first_bin) // freq_ns != (t[order[p - 1]] - first_bin) // freq_ns
            ):
                n_cells += 1
    c_group, c_bin, c_total, c_bad, c_code = _alloc(n_cells, n_cat)
    c = -1
    for g in range(n_groups):
        for p in range(start[g], start[g + 1]):
            i = order[p]
            b = (t[i] - first_bin) // freq_ns
            if p == start[g] or b != (t[order[p - 1]] - first_bin) // freq_ns:
                c += 1
                c_group[c] = g
                c_bin[c] = b
            c_total[c] += 1
            if fail[i]:
                c_bad[c] += 1
            c_code[c, code[i]] += 1
    return c_group, c_bin, c_total, c_bad, c_code


@jit
def cells(group: Any, t: Any, first_bin: int, freq_ns: int, keep: Any, fail: Any, code: Any,
          n_groups: int,
          n_cat: int) -> Any:
    """Non-empty ``(group, bin)`` cells of the kept events (see ``event_cells``)."""
    prev = np.int64(-(2**62))
    for i in range(group.shape[0]):
        if keep[i]:
            if t[i] < prev:
                return sorted_cells(group, t, first_bin, freq_ns, keep, fail, code, n_groups, n_cat)
            prev = t[i]
    return in_order_cells(group, t, first_bin, freq_ns, keep, fail, code, n_groups, n_cat)
