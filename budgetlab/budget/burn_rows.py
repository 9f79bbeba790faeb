"""The rows of a sparse burn-rate table: where a trailing window holds traffic, straight from the
grid's non-empty cells (never a groups x bins array).

A window of ``k`` bins evaluated at bin ``j`` (its end) holds the bins ``j - k < b <= j``; it holds
traffic exactly when some non-empty cell of the group lies there, so the bins where it does are the
union of the runs ``[b, b + k)`` of the group's cells (:func:`traffic_runs`). Windows are nested (a
longer window holds every event of a shorter one at the same bin end), so the rows of the longest
window are the *base rows*, and a window of ``k`` bins is present at a base row when the row's
*age* (bins since the group's last non-empty bin) is below ``k``. Window sums are differences of
one cumulative sum over the cells, found by binary search: memory grows with the output rows.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .._util.validation import utc_from_ns
from ..windows.bingrid import BinGrid, ranges

__all__ = ["traffic_runs", "traffic_bins", "RowPlan", "plan_rows", "sparse_table", "BYTES_PER_ROW"]

#: Bytes per output row of the sparse table with int32 counts and one categorical key: keys (the
#: categorical's codes), bin_end 8, window 1, total 4, bad 4, error_ratio 8, burn_rate 8,
#: no_traffic 1, complete 1 (int64 counts add 8).
BYTES_PER_ROW = 39
_BASE_ROWS_PER_STEP = 1 << 17  # base rows handled at a time (bounded temporaries, ~15 MiB)


def _cells(grid: BinGrid) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(group, bin, total, bad)`` of the cells that hold events, sorted by group then bin."""
    keep = grid.cell_total > 0
    if bool(keep.all()):
        return grid.cell_group, grid.cell_bin, grid.cell_total, grid.cell_bad
    return grid.cell_group[keep], grid.cell_bin[keep], grid.cell_total[keep], grid.cell_bad[keep]


def _runs(grid: BinGrid, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`traffic_runs` plus the index of each run's first cell (among :func:`_cells`)."""
    group, b, _, _ = _cells(grid)
    k = int(k)
    if len(group) == 0:
        empty = np.empty(0, dtype=np.int64)
        return empty, empty, empty, empty
    new = np.ones(len(group), dtype=bool)
    new[1:] = (group[1:] != group[:-1]) | (b[1:] >= b[:-1] + k)
    first = np.flatnonzero(new)
    last = np.append(first[1:] - 1, len(group) - 1)
    return (group[first].astype(np.int64), b[first].astype(np.int64),
            np.minimum(b[last].astype(np.int64) + k, grid.n_bins), first.astype(np.int64))


def traffic_runs(grid: BinGrid, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(group, start, end)``: the maximal runs of bins ``start <= j < end`` (positions in the
    grid) at whose end a trailing window of ``k`` bins holds at least one event, sorted by group
    then start.

    >>> g = BinGrid.from_dense(pd.DataFrame(index=pd.RangeIndex(2)), [], 0, 60,
    ...                        np.array([[1, 0, 0, 0, 1, 0], [0, 0, 0, 0, 0, 2]]), np.zeros((2, 6)))
    >>> [a.tolist() for a in traffic_runs(g, 2)]
    [[0, 0, 1], [0, 4, 5], [2, 6, 6]]
    """
    return _runs(grid, k)[:3]


def traffic_bins(grid: BinGrid, k: int) -> np.ndarray:
    """Bins per group (int64, one per group of the grid) at whose end a trailing window of ``k``
    bins holds at least one event: the group's *observed time* in bins for that window.

    >>> g = BinGrid.from_dense(pd.DataFrame(index=pd.RangeIndex(2)), [], 0, 60,
    ...                        np.array([[1, 0, 0, 0, 1, 0], [0, 0, 0, 0, 0, 0]]), np.zeros((2, 6)))
    >>> traffic_bins(g, 2).tolist(), traffic_bins(g, 10).tolist()
    ([4, 0], [6, 0])
    """
    group, start, end = traffic_runs(grid, k)
    return np.bincount(group, weights=end - start, minlength=grid.n_groups).astype(np.int64)


@dataclass(frozen=True)
class RowPlan:
    """Where the rows of a sparse table come from: the base runs (longest window) and, per group,
    the output rows (``group_rows``, int64: the sum over windows of the bins where each holds
    traffic)."""

    ks: tuple[int, ...]
    run_group: np.ndarray
    run_start: np.ndarray
    run_end: np.ndarray
    run_first: np.ndarray  # index of the run's first cell
    group_rows: np.ndarray
    count_dtype: type
    # rows only at bins that hold events (every window holds traffic there)
    events_only: bool = False

    @property
    def n_rows(self) -> int:
        return int(self.group_rows.sum())


def plan_rows(grid: BinGrid, ks: Sequence[int], *, events_only: bool = False) -> RowPlan:
    """The :class:`RowPlan` of a sparse table of windows of ``ks`` bins (counts int32 when every
    group's total fits, else int64); ``events_only``: rows only at the bins that hold events."""
    ks = tuple(int(k) for k in ks)
    if events_only:
        group_rows = np.bincount(_cells(grid)[0],
                                 minlength=grid.n_groups).astype(np.int64) * len(ks)
    else:
        group_rows = np.zeros(grid.n_groups, dtype=np.int64)
        for k in ks:
            group_rows += traffic_bins(grid, k)
    run_group, run_start, run_end, run_first = _runs(grid, max(ks))
    totals = grid.group_totals()
    fits = len(totals) == 0 or int(totals.max()) < np.iinfo(np.int32).max
    return RowPlan(ks, run_group, run_start, run_end, run_first, group_rows,
                   np.int32 if fits else np.int64,
                   events_only)


def _base_steps(plan: RowPlan, r0: int, r1: int) -> Iterator[tuple[int, int]]:
    """``(run_a, run_b)`` ranges of the runs ``r0 <= run < r1`` of at most ~_BASE_ROWS_PER_STEP base
    rows."""
    if r1 <= r0:
        return
    ends = np.cumsum(plan.run_end[r0:r1] - plan.run_start[r0:r1])
    a = 0
    while a < r1 - r0:
        before = int(ends[a - 1]) if a else 0
        b = int(np.searchsorted(ends, before + _BASE_ROWS_PER_STEP, side="right"))
        b = max(b, a + 1)
        yield r0 + a, r0 + b
        a = b


def _group_columns(grid: BinGrid) -> dict[str, np.ndarray]:
    """Per group key, the value written on every row: the categorical's code, else the group's
    position."""
    pos = np.arange(grid.n_groups, dtype=np.int32 if grid.n_groups < 2**31 else np.int64)
    return {c: (grid.keys[c].cat.codes.to_numpy() if isinstance(grid.keys[c].dtype,
                                                                pd.CategoricalDtype) else pos)
            for c in grid.by}


def _allocate(
    grid: BinGrid, plan: RowPlan, n_out: int, per_group: dict[str, np.ndarray]
) -> dict[str, np.ndarray]:
    cols = {c: np.empty(n_out, dtype=v.dtype) for c, v in per_group.items()}
    cols["bin_end"] = np.empty(n_out, dtype=np.int64)
    cols["window"] = np.empty(n_out, dtype=np.int8 if len(plan.ks) < 128 else np.int16)
    cols["total"] = np.empty(n_out, dtype=plan.count_dtype)
    cols["bad"] = np.empty(n_out, dtype=plan.count_dtype)
    cols["error_ratio"] = np.empty(n_out, dtype=np.float64)
    cols["burn_rate"] = np.empty(n_out, dtype=np.float64)
    cols["no_traffic"] = np.zeros(n_out, dtype=bool)
    cols["complete"] = np.empty(n_out, dtype=bool)
    return cols


def _fill_step(cols: dict[str, np.ndarray], per_group: dict[str, np.ndarray], cells: _Cumulative,
               plan: RowPlan,
               a: int, z: int, at: int, budget: np.ndarray) -> int:
    """Write the rows of the base rows of runs ``a <= run < z`` from output row ``at`` on; the rows
    written. Cells at or before a base row are counted by a cumulative sum over the run's bins (each
    cell lies in one run), so window sums are gathers, not searches."""
    ks = np.asarray(plan.ks, dtype=np.int64)
    starts, lengths = plan.run_start[a:z], plan.run_end[a:z] - plan.run_start[a:z]
    offset = np.zeros(z - a, dtype=np.int64)  # the run's first base row in this step
    np.cumsum(lengths[:-1], out=offset[1:])
    j = ranges(starts, lengths)
    g = np.repeat(plan.run_group[a:z], lengths)
    c0 = int(plan.run_first[a])
    c1 = int(plan.run_first[z]) if z < len(plan.run_first) else len(cells.bin)
    run_of_cell = np.repeat(np.arange(z - a), np.diff(np.append(plan.run_first[a:z], c1)))
    mark = np.zeros(len(j), dtype=np.int64)
    mark[offset[run_of_cell] + cells.bin[c0:c1] - starts[run_of_cell]] = 1
    upto = np.cumsum(mark)
    upto += c0  # cells at or before each base row (all cells before the step's first run, too)
    age = j - cells.bin[upto - 1]  # a base row has a cell of its group at or before it
    # bins since the run's start
    local = np.arange(len(j), dtype=np.int64) - np.repeat(offset, lengths)
    run_first = np.repeat(plan.run_first[a:z], lengths)
    present = age[:, None] < ks[None, :]
    if plan.events_only:
        present &= (age == 0)[:, None]
    count = present.sum(axis=1)
    row = np.empty(len(j), dtype=np.int64)
    row[0] = at
    np.cumsum(count[:-1], out=row[1:])
    row[1:] += at
    for w in range(len(ks)):
        k = int(ks[w])
        # one window: on every base row, in order (slices)
        if len(ks) == 1 and not plan.events_only:
            sel: Any = slice(None)
            pos: Any = slice(at, at + len(j))
        else:
            sel = np.flatnonzero(present[:, w])
            pos = row[sel]
        g_w, j_w = g[sel], j[sel]
        # the window's first bin lies in the run: cells before it by the run's count
        inside = local[sel] >= k
        back = np.arange(len(j), dtype=np.int64)[sel] - k
        lo = np.where(inside, upto[np.maximum(back, 0)], run_first[sel])
        hi = upto[sel]
        _write_rows(cols, per_group, pos, cells, lo, hi, g_w, j_w, w, k, budget)
        if not isinstance(sel, slice):
            row[sel] += 1
    return int(count.sum())


@dataclass(frozen=True)
class _Cumulative:
    """Cumulative totals and failures over the cells, keyed ``group * stride + bin``."""

    key: np.ndarray
    bin: np.ndarray
    total: np.ndarray
    bad: np.ndarray
    stride: int

    @classmethod
    def of(cls, grid: BinGrid) -> _Cumulative:
        group, b, total, bad = _cells(grid)
        cum_t = np.zeros(len(group) + 1, dtype=np.int64)
        cum_b = np.zeros(len(group) + 1, dtype=np.int64)
        np.cumsum(total, out=cum_t[1:])
        np.cumsum(bad, out=cum_b[1:])
        return cls(group.astype(np.int64) * (grid.n_bins + 1) + b, b, cum_t, cum_b, grid.n_bins + 1)


def _write_rows(cols: dict[str, np.ndarray], per_group: dict[str, np.ndarray], pos: Any,
                cells: _Cumulative,
                lo: np.ndarray, hi: np.ndarray, g: np.ndarray, j: np.ndarray, w: int, k: int,
                budget: np.ndarray) -> None:
    """Writes the rows ``pos`` of window ``w`` (``k`` bins) ending at bins ``j`` of groups ``g``:
    the window's counts are the cumulative counts at ``hi`` less those at ``lo``."""
    t_w = cells.total[hi] - cells.total[lo]
    b_w = cells.bad[hi] - cells.bad[lo]
    cols["total"][pos], cols["bad"][pos] = t_w, b_w
    ratio = b_w / t_w  # t_w > 0 on every row written
    cols["error_ratio"][pos] = ratio
    cols["burn_rate"][pos] = ratio / budget[g]
    cols["bin_end"][pos] = j
    cols["window"][pos] = w
    cols["complete"][pos] = j + 1 >= k
    for c, values in per_group.items():
        cols[c][pos] = values[g]


def _fill_events(cols: dict[str, np.ndarray], per_group: dict[str, np.ndarray], cells: _Cumulative,
                 plan: RowPlan,
                 g0: int, g1: int, budget: np.ndarray) -> None:
    """The rows at the bins that hold events (``at="events"``) of the groups ``g0 <= g < g1``: one
    row per cell and window, the cells' own cumulative counts less those before each window."""
    c0, c1 = (int(x) for x in np.searchsorted(cells.key // cells.stride, [g0, g1]))
    nw = len(plan.ks)
    for a in range(c0, c1, _BASE_ROWS_PER_STEP):
        z = min(a + _BASE_ROWS_PER_STEP, c1)
        j = cells.bin[a:z].astype(np.int64)
        g = cells.key[a:z] // cells.stride
        # cells at or before each cell: itself and those before
        hi = np.arange(a + 1, z + 1, dtype=np.int64)
        for w, k in enumerate(plan.ks):
            pos = slice((a - c0) * nw + w, (z - c0) * nw, nw)
            lo = np.searchsorted(cells.key, g * cells.stride + np.maximum(j - k, -1), side="right")
            _write_rows(cols, per_group, pos, cells, lo, hi, g, j, w, k, budget)


def sparse_table(grid: BinGrid, plan: RowPlan, labels: Sequence[str], budget: np.ndarray,
                 g0: int = 0, g1: int | None = None) -> pd.DataFrame:
    """The sparse burn-rate table of the groups ``g0 <= g < g1`` (see
    :func:`budgetlab.burn_rates`)."""
    g1 = grid.n_groups if g1 is None else g1
    per_group = _group_columns(grid)
    cols = _allocate(grid, plan, int(plan.group_rows[g0:g1].sum()), per_group)
    cells = _Cumulative.of(grid)
    if plan.events_only:
        _fill_events(cols, per_group, cells, plan, g0, g1, budget)
    else:
        r0, r1 = (int(x) for x in np.searchsorted(plan.run_group, [g0, g1]))
        at = 0
        for a, z in _base_steps(plan, r0, r1):
            at += _fill_step(cols, per_group, cells, plan, a, z, at, budget)
    bin_end = cols.pop("bin_end")
    np.multiply(bin_end, grid.freq_ns, out=bin_end)
    bin_end += grid.start_ns + grid.freq_ns
    data: dict[str, object] = {}
    for c in grid.by:
        col, values = grid.keys[c], cols.pop(c)
        data[c] = (pd.Categorical.from_codes(values, dtype=col.dtype,
                                             validate=False)  # type: ignore[call-overload]
                   if isinstance(col.dtype, pd.CategoricalDtype) else col.array.take(values))
    data["bin_end"] = utc_from_ns(bin_end, copy=False).array
    data["window"] = pd.Categorical.from_codes(cols.pop("window"),
                                               dtype=pd.CategoricalDtype(list(labels),
                                                                         ordered=True),
                                               validate=False)
    data.update(cols)
    return pd.DataFrame(data, copy=False)
