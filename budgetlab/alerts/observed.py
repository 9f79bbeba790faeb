"""Observed time: the time over which an alert tier's rates per day are counted.

A tier can only page while its long window holds traffic, so its pages per day are over the
**observed time**: the bins at whose end the tier's long window holds at least one event
(:func:`budgetlab.budget.burn_rows.traffic_bins`), times the bin width. For merged tiers it is the
union of theirs (the longest long window); for all groups together (``"*"``) the bins where the
window holds traffic of any group. Silence longer than the window is not observed time: two pages
on the one busy day of a log that then stays silent for months are two pages a day, not 0.0074.

Without bins (or when a tier's long window is unknown: no policy and no ``tier_windows`` in the
episodes' attrs) traffic is unknown and the observed time is the evaluated span.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..budget.burn_rows import traffic_bins
from ..windows.bingrid import BinGrid

__all__ = ["ObservedTime"]


class ObservedTime:
    """Observed time per group and over all groups, for a selection of tiers.

    >>> import pandas as pd
    >>> g = BinGrid.from_dense(pd.DataFrame(index=pd.RangeIndex(2)), [], 0, 60,
    ...                        np.array([[1, 0, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0]]), np.zeros((2, 6)))
    >>> per_group, every = ObservedTime(g, [120, 60], span_ns=360).of([0])
    >>> per_group.tolist(), every
    ([120.0, 120.0], 240.0)
    >>> ObservedTime(None, [120], span_ns=360).of([0])[1]
    360.0
    """

    def __init__(self, grid: BinGrid | None, long_ns: Sequence[int | None], *, span_ns: int,
                 n_groups: int | None = None) -> None:
        self.grid = grid
        self.n_groups = grid.n_groups if grid is not None else int(n_groups or 1)
        self.long_ns = list(long_ns)
        self.span_ns = float(span_ns)
        self._cache: dict[int, tuple[np.ndarray, float]] = {}
        self._whole: BinGrid | None = None

    def known(self, tiers: Sequence[int]) -> bool:
        """Whether traffic is known for ``tiers`` (bins given, every long window known)."""
        return self.grid is not None and all(self.long_ns[t] is not None for t in tiers)

    def of(self, tiers: Sequence[int]) -> tuple[np.ndarray, float]:
        """``(per group, all groups)`` observed time in ns (float) of the tiers ``tiers`` merged."""
        grid = self.grid
        if grid is None or not self.known(tiers):
            return np.full(self.n_groups, self.span_ns), self.span_ns
        longest = max(int(self.long_ns[t] or 0) for t in tiers)
        k = max(1, -(-longest // grid.freq_ns))
        if k not in self._cache:
            if self._whole is None:
                self._whole = grid.regroup([])
            per_group = traffic_bins(grid, k).astype(np.float64) * grid.freq_ns
            every = float(traffic_bins(self._whole,
                                       k)[0]) * grid.freq_ns if self._whole.n_groups else 0.0
            self._cache[k] = (per_group, every)
        return self._cache[k]
