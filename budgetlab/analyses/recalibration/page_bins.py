"""The bins :func:`~.pages.page_counts` looks at, for every group at once and without a dense
``(groups, bins)`` array: each group's bins within ``pad`` of one where a page tier's condition
can hold at the highest candidate target, each tier's error ratio there and whether the bin's end
lies in the group's evaluated span, laid end to end in group order (a group's bins ascending).

The window sums are read from the grid's non-empty cells: the count over the ``k`` bins ending at
bin ``b`` is the group's cumulative count at ``b`` less that at ``b - k`` (the whole count from
the group's first bin where ``b < k``), the same integers as
:func:`budgetlab.budget.burn.rolling_sum` of the dense grid, so every ratio is the same float.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..._util.ratios import ratio
from ...alerts.policy import AlertPolicy
from ...windows.bingrid import BinGrid, ranges
from ...windows.bins import window_bins
from .rolling import Rolling

__all__ = ["KeptBins", "kept_bins"]


@dataclass(frozen=True)
class KeptBins:
    """:func:`kept_bins`: the entries laid end to end, group ``g``'s at
    ``offsets[g]:offsets[g + 1]``."""

    offsets: np.ndarray
    ratios: list[np.ndarray]  # per tier: the smaller of its windows' error ratios at each entry
    in_span: np.ndarray  # whether each entry's bin end lies in its group's evaluated time


def kept_bins(grid: BinGrid, sub: AlertPolicy, rolling: Rolling, low: float,
              pad: int) -> KeptBins:
    """Per group: its bins within ``pad`` of one where a tier of ``sub`` has its condition (both
    windows' error ratios above ``burn * low``) at the budget ``low`` (that of the highest
    candidate), the tiers' error ratios there and whether each lies in the evaluated span.

    A condition above a threshold of at least 0 needs a failure in the tier's shorter window,
    so only the bins that close such a window after a failure are tried."""
    n_bins = grid.n_bins
    key = grid.cell_group * n_bins + grid.cell_bin  # ascending: cells by group, then bin
    sums = _CellSums(key, grid.cell_total, grid.cell_bad, grid.offsets, n_bins)
    reach = max(min(window_bins(w, grid.freq_ns) for w in t.windows) for t in sub.tiers)
    fail = key[grid.cell_bad > 0]
    group_end = (fail // n_bins + 1) * n_bins
    tried = _union(fail, np.minimum(fail + reach, group_end))
    active = np.zeros(len(tried), dtype=bool)
    for tier, err in zip(sub.tiers, sums.tier_ratios(sub, grid.freq_ns, tried), strict=True):
        active |= err > tier.burn * low
    on = tried[active]
    g_start = (on // n_bins) * n_bins
    kept = _union(np.maximum(on - pad, g_start), np.minimum(on + pad + 1, g_start + n_bins))
    group = kept // n_bins
    offsets = np.searchsorted(group, np.arange(grid.n_groups + 1)).astype(np.int64)
    return KeptBins(offsets=offsets, ratios=sums.tier_ratios(sub, grid.freq_ns, kept),
                    in_span=_in_evaluated(rolling, grid, kept))


class _CellSums:
    """Window sums of a grid's cells at any ``(group, bin)`` key ``group * n_bins + bin``."""

    def __init__(self, key: np.ndarray, total: np.ndarray, bad: np.ndarray, offsets: np.ndarray,
                 n_bins: int) -> None:
        self.key, self.offsets, self.n_bins = key, offsets, n_bins
        self.cum_total = np.concatenate([[0], np.cumsum(total, dtype=np.int64)])
        self.cum_bad = np.concatenate([[0], np.cumsum(bad, dtype=np.int64)])

    def error_ratio(self, at: np.ndarray, k: int) -> np.ndarray:
        """The error ratio over the ``k`` bins ending at each key ``at`` (0 without events), as
        :func:`budgetlab.alerts.firing.tier_conditions` computes it from the dense grid."""
        hi = np.searchsorted(self.key, at, side="right")
        # the cells after bin b - k of the same group (all of them where b < k)
        lo = np.maximum(np.searchsorted(self.key, at - k, side="right"),
                        self.offsets[at // self.n_bins])
        return ratio(self.cum_bad[hi] - self.cum_bad[lo], self.cum_total[hi] - self.cum_total[lo],
                     0.0)

    def tier_ratios(self, sub: AlertPolicy, freq_ns: int, at: np.ndarray) -> list[np.ndarray]:
        """Per tier, the smaller of its windows' error ratios at the keys ``at`` (a tier's
        condition ``long > thr and short > thr`` is ``min(long, short) > thr``)."""
        done: dict[int, np.ndarray] = {}
        out = []
        for tier in sub.tiers:
            errs = []
            for w in tier.windows:
                k = window_bins(w, freq_ns)
                if k not in done:
                    done[k] = self.error_ratio(at, k)
                errs.append(done[k])
            out.append(errs[0] if len(errs) == 1 else np.minimum(errs[0], errs[1]))
        return out


def _union(starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """The keys of the union of the ranges ``[starts[i], ends[i])`` (``starts`` ascending),
    ascending, each once."""
    if not len(starts):
        return np.empty(0, dtype=np.int64)
    run_end = np.maximum.accumulate(ends)
    new = np.ones(len(starts), dtype=bool)
    new[1:] = starts[1:] > run_end[:-1]
    head = np.flatnonzero(new)
    last = np.append(head[1:] - 1, len(starts) - 1)
    lo, hi = starts[head], run_end[last]
    return ranges(lo, np.maximum(hi - lo, 0)).astype(np.int64)


def _in_evaluated(rolling: Rolling, grid: BinGrid, at: np.ndarray) -> np.ndarray:
    """Whether the end of each bin at the keys ``at`` lies in the evaluated time of its group:
    each clock segment's evaluated part ``[eval_from, eval_to)`` as the bins whose end it holds,
    a range of keys of its group (the parts of a group are disjoint and in time order)."""
    c, n_bins = rolling.clock, grid.n_bins
    ends = grid.bin_end_ns
    part = rolling.eval_to > rolling.eval_from
    g = c.seg[part] * n_bins
    lo = g + np.searchsorted(ends, rolling.eval_from[part], side="left")
    hi = g + np.searchsorted(ends, rolling.eval_to[part], side="left")
    has = hi > lo
    lo, hi = lo[has], hi[has]
    k = np.searchsorted(lo, at, side="right") - 1
    return np.asarray((k >= 0) & (at < hi[np.maximum(k, 0)])) if len(lo) else np.zeros(
        len(at), dtype=bool)
