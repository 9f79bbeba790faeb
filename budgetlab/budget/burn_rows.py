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

import numpy as np
import pandas as pd

from .._util.validation import utc_from_ns
from ..windows.bingrid import BinGrid

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


def traffic_runs(grid: BinGrid, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(group, start, end)``: the maximal runs of bins ``start <= j < end`` (positions in the
    grid) at whose end a trailing window of ``k`` bins holds at least one event, sorted by group
    then start.

    >>> g = BinGrid.from_dense(pd.DataFrame(index=pd.RangeIndex(2)), [], 0, 60, np.array([[1, 0, 0, 0, 1, 0], [0, 0, 0, 0, 0, 2]]),
    ...                        np.zeros((2, 6)))
    >>> [a.tolist() for a in traffic_runs(g, 2)]
    [[0, 0, 1], [0, 4, 5], [2, 6, 6]]
    """
    group, b, _, _ = _cells(grid)
    k = int(k)
    if len(group) == 0:
        empty = np.empty(0, dtype=np.int64)
        return empty, empty, empty
    new = np.ones(len(group), dtype=bool)
    new[1:] = (group[1:] != group[:-1]) | (b[1:] >= b[:-1] + k)
    first = np.flatnonzero(new)
    last = np.append(first[1:] - 1, len(group) - 1)
    return (group[first].astype(np.int64), b[first].astype(np.int64),
            np.minimum(b[last].astype(np.int64) + k, grid.n_bins))


def traffic_bins(grid: BinGrid, k: int) -> np.ndarray:
    """Bins per group (int64, one per group of the grid) at whose end a trailing window of ``k``
    bins holds at least one event: the group's *observed time* in bins for that window.

    >>> g = BinGrid.from_dense(pd.DataFrame(index=pd.RangeIndex(2)), [], 0, 60, np.array([[1, 0, 0, 0, 1, 0], [0, 0, 0, 0, 0, 0]]),
    ...                        np.zeros((2, 6)))
    >>> traffic_bins(g, 2).tolist(), traffic_bins(g, 10).tolist()
    ([4, 0], [6, 0])
    """
    group, start, end = traffic_runs(grid, k)
    return np.bincount(group, weights=end - start, minlength=grid.n_groups).astype(np.int64)


@dataclass(frozen=True)
class RowPlan:
    """Where the rows of a sparse table come from: the base runs (longest window) and, per group,
    the output rows (``group_rows``, int64: the sum over windows of the bins where each holds traffic)."""

    ks: tuple[int, ...]
    run_group: np.ndarray
    run_start: np.ndarray
    run_end: np.ndarray
    group_rows: np.ndarray
    count_dtype: type

    @property
    def n_rows(self) -> int:
        return int(self.group_rows.sum())


def plan_rows(grid: BinGrid, ks: Sequence[int]) -> RowPlan:
    """The :class:`RowPlan` of a sparse table of windows of ``ks`` bins (counts int32 when every
    group's total fits, else int64)."""
    ks = tuple(int(k) for k in ks)
    group_rows = np.zeros(grid.n_groups, dtype=np.int64)
    for k in ks:
        group_rows += traffic_bins(grid, k)
    run_group, run_start, run_end = traffic_runs(grid, max(ks))
    totals = grid.group_totals()
    fits = len(totals) == 0 or int(totals.max()) < np.iinfo(np.int32).max
    return RowPlan(ks, run_group, run_start, run_end, group_rows, np.int32 if fits else np.int64)


def _base_steps(plan: RowPlan, r0: int, r1: int) -> Iterator[tuple[int, int]]:
    """``(run_a, run_b)`` ranges of the runs ``r0 <= run < r1`` of at most ~_BASE_ROWS_PER_STEP base rows."""
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


def _expand(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Concatenated ``arange(starts[i], starts[i] + lengths[i])``."""
    shift = np.repeat(starts - np.concatenate([[0], np.cumsum(lengths)[:-1]]), lengths)
    return np.asarray(np.arange(int(lengths.sum()), dtype=np.int64) + shift)


def sparse_table(grid: BinGrid, plan: RowPlan, labels: Sequence[str], budget: np.ndarray,
                 g0: int = 0, g1: int | None = None) -> pd.DataFrame:
    """The sparse burn-rate table of the groups ``g0 <= g < g1`` (see :func:`budgetlab.burn_rates`)."""
    g1 = grid.n_groups if g1 is None else g1
    n_out = int(plan.group_rows[g0:g1].sum())
    n, nw, ks = grid.n_bins, len(plan.ks), np.asarray(plan.ks, dtype=np.int64)
    group, b, total, bad = _cells(grid)
    key = group.astype(np.int64) * (n + 1) + b
    cum_t = np.zeros(len(key) + 1, dtype=np.int64)
    cum_b = np.zeros(len(key) + 1, dtype=np.int64)
    np.cumsum(total, out=cum_t[1:])
    np.cumsum(bad, out=cum_b[1:])
    cat_keys = [c for c in grid.by if isinstance(grid.keys[c].dtype, pd.CategoricalDtype)]
    codes = {c: grid.keys[c].cat.codes.to_numpy() for c in cat_keys}
    out_codes = {c: np.empty(n_out, dtype=codes[c].dtype) for c in cat_keys}
    out_group = np.empty(n_out, dtype=np.int32 if grid.n_groups < 2**31 else np.int64) \
        if len(cat_keys) < len(grid.by) else None
    bin_end = np.empty(n_out, dtype=np.int64)
    window: np.ndarray = np.empty(n_out, dtype=np.int8 if nw < 128 else np.int16)
    tot: np.ndarray = np.empty(n_out, dtype=plan.count_dtype)
    bd: np.ndarray = np.empty(n_out, dtype=plan.count_dtype)
    er = np.empty(n_out, dtype=np.float64)
    burn = np.empty(n_out, dtype=np.float64)
    complete = np.empty(n_out, dtype=bool)
    r0, r1 = (int(x) for x in np.searchsorted(plan.run_group, [g0, g1]))
    at = 0
    for a, z in _base_steps(plan, r0, r1):
        lengths = plan.run_end[a:z] - plan.run_start[a:z]
        j = _expand(plan.run_start[a:z], lengths)
        g = np.repeat(plan.run_group[a:z], lengths)
        gk = g * (n + 1)
        upto = np.searchsorted(key, gk + j, side="right")  # cells at or before j
        age = j - b[upto - 1]  # the run guarantees a cell of g at or before j
        present = age[:, None] < ks[None, :]
        count = present.sum(axis=1)
        row = np.empty(len(j), dtype=np.int64)
        row[0] = at
        np.cumsum(count[:-1], out=row[1:])
        row[1:] += at
        for w in range(nw):
            sel = np.flatnonzero(present[:, w])
            pos = row[sel]
            lo = np.searchsorted(key, gk[sel] + np.maximum(j[sel] - ks[w], -1), side="right")
            t_w = cum_t[upto[sel]] - cum_t[lo]
            b_w = cum_b[upto[sel]] - cum_b[lo]
            tot[pos], bd[pos] = t_w, b_w
            ratio = b_w / t_w  # t_w > 0 on every present row
            er[pos] = ratio
            burn[pos] = ratio / budget[g[sel]]
            bin_end[pos] = j[sel]
            window[pos] = w
            complete[pos] = j[sel] + 1 >= ks[w]
            for c in cat_keys:
                out_codes[c][pos] = codes[c][g[sel]]
            if out_group is not None:
                out_group[pos] = g[sel]
            row[sel] += 1
        at += int(count.sum())
    np.multiply(bin_end, grid.freq_ns, out=bin_end)
    bin_end += grid.start_ns + grid.freq_ns
    data: dict[str, object] = {}
    for c in grid.by:
        col = grid.keys[c]
        if c in out_codes:
            data[c] = pd.Categorical.from_codes(out_codes[c], dtype=col.dtype, validate=False)  # type: ignore[call-overload]
        elif out_group is not None:  # always, when a key is not categorical
            data[c] = col.array.take(out_group)
    data["bin_end"] = utc_from_ns(bin_end, copy=False).array
    data["window"] = pd.Categorical.from_codes(window, dtype=pd.CategoricalDtype(list(labels), ordered=True),
                                               validate=False)
    data["total"], data["bad"], data["error_ratio"], data["burn_rate"] = tot, bd, er, burn
    data["no_traffic"] = np.zeros(n_out, dtype=bool)
    data["complete"] = complete
    return pd.DataFrame(data, copy=False)
