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
def kept_in_time_order(t: Any, keep: Any) -> bool:
    """Whether the kept events are in time order (most logs are: the two passes of
    :func:`in_order_cells` then, and no other kernel compiled)."""
    prev = np.int64(-(2**62))
    for i in range(t.shape[0]):
        if keep[i]:
            if t[i] < prev:
                return False
            prev = t[i]
    return True


@jit
def group_order(group: Any, t: Any, keep: Any, n_groups: int) -> Any:
    """The kept events grouped by a counting sort (table order inside a group): ``(order, start,
    in_time_order)``, group ``g`` at ``order[start[g]:start[g + 1]]``; ``in_time_order``: every
    group's events are in time order (no sort needed)."""
    n = group.shape[0]
    start = np.zeros(n_groups + 1, np.int64)
    for i in range(n):
        if keep[i]:
            start[group[i] + 1] += 1
    for g in range(n_groups):
        start[g + 1] += start[g]
    pos = start[:-1].copy()
    order = np.empty(start[n_groups], np.int64)
    last = np.full(n_groups, np.iinfo(np.int64).min, np.int64)
    in_time_order = True
    for i in range(n):
        if keep[i]:
            g = group[i]
            order[pos[g]] = i
            pos[g] += 1
            if t[i] < last[g]:
                in_time_order = False
            last[g] = t[i]
    return order, start, in_time_order


@jit
def ordered_cells(order: Any, start: Any, t: Any, first_bin: int, freq_ns: int, fail: Any,
                  code: Any, n_groups: int, n_cat: int) -> Any:
    """Cells of the events grouped by :func:`group_order`, each group in time order."""
    n_cells = 0
    for g in range(n_groups):
        for p in range(start[g], start[g + 1]):
            if (
                p == start[g]
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


def cells(group: Any, t: Any, first_bin: int, freq_ns: int, keep: Any, fail: Any, code: Any,
          n_groups: int, n_cat: int) -> Any:
    """Non-empty ``(group, bin)`` cells of the kept events (see ``event_cells``): events in time
    order take :func:`in_order_cells`; others are grouped (:func:`group_order`), each group sorted
    by time if needed, then counted (:func:`ordered_cells`).

    The choice is made here, outside the compiled code, so that a log in time order compiles
    neither the grouping nor a sort; the sort is numpy's stable one (numba's compiles for
    4-9 s), by group then time: the same order as each group's own stable sort by time."""
    if kept_in_time_order(t, keep):
        return in_order_cells(group, t, first_bin, freq_ns, keep, fail, code, n_groups, n_cat)
    order, start, in_time_order = group_order(group, t, keep, n_groups)
    if not in_time_order:
        of_group = np.repeat(np.arange(n_groups, dtype=np.int64), np.diff(start))
        order = order[np.lexsort((t[order], of_group))]
    return ordered_cells(order, start, t, first_bin, freq_ns, fail, code, n_groups, n_cat)
