"""Observed time: the time over which an alert tier's rates per day are counted.

A tier can only page while its long window holds traffic, so its pages per day are over the
**observed time**: the bins at whose end the tier's long window holds at least one event
(:func:`budgetlab.budget.burn_rows.traffic_bins`), times the bin width. For merged tiers it is the
union of theirs (the longest long window); for all groups together (``"*"``) the bins where the
window holds traffic of any group. Silence longer than the window is not observed time: two pages
on the one busy day of a log that then stays silent for months are two pages a day, not 0.0074.

Without bins (or when a tier's long window is unknown: no policy and no ``tier_windows`` in the
episodes' attrs) traffic is unknown and the observed time is the evaluated span.

``of(tiers, from_ns=...)`` counts only the bins that start at or after ``from_ns``: the scoring's
observed time after a tier's long window first filled, ``grid start + long window`` (what begins
earlier is scored apart, see :mod:`budgetlab.alerts.scoring`); without bins, the evaluated span
from ``from_ns``. Both are the time from ``from_ns`` to the end (a 6 h grid with a 1 h window: 5 h).

**Too thin for a rate.** A rate per day (or per week) over less than a day of observed time is
not given: one page in the hour after a tier's long window filled is not 24 pages a day.
:func:`thin_rates` is the rule of the window comparison and the replay
(:func:`budgetlab._util.thin.too_thin`: under 24 h, none at all included) on observed time in
ns, and :func:`rate_notes` says why in words. The score tables' ``alerts_per_day`` and
``false_alerts_per_week`` are NaN there, and their ``rates_note`` holds the reason.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._util.thin import MIN_EVALUATED_HOURS, too_thin
from .._util.units import HOUR_NS
from .._util.words import hours_words
from ..budget.burn_rows import traffic_bins, traffic_runs
from ..windows.bingrid import BinGrid

__all__ = ["ObservedTime", "thin_rates", "rate_notes"]


def thin_rates(observed_ns: Any) -> np.ndarray:
    """Whether the rates per day (and per week) over each observed time ``observed_ns`` (ns) are
    withheld: under :data:`~budgetlab._util.thin.MIN_EVALUATED_HOURS` (24 h), none at all
    included.

    >>> thin_rates([5 * HOUR_NS, 0.0, 24 * HOUR_NS, 72 * HOUR_NS]).tolist()
    [True, True, False, False]
    """
    return too_thin(np.asarray(observed_ns, dtype=np.float64) / HOUR_NS)


def rate_notes(observed_ns: Any) -> np.ndarray:
    """Per observed time ``observed_ns`` (ns): why its rates per day and per week are withheld
    (:func:`thin_rates`), in words; empty when they are given. An object array (the score
    tables' ``rates_note``).

    >>> rate_notes([5 * HOUR_NS, 0.0, 72 * HOUR_NS]).tolist()  # doctest: +NORMALIZE_WHITESPACE
    ['withheld: only 5 h of observed time, too little for a rate per day or week (at least 24 h)',
     'withheld: no observed time, so no rate per day or week', '']
    """
    ns = np.asarray(observed_ns, dtype=np.float64)
    out = np.full(ns.shape, "", dtype=object)
    thin = thin_rates(ns)
    # observed times are whole bins: one text per distinct value, not per group
    values, inverse = np.unique(ns[thin], return_inverse=True)
    texts = np.array([
        "withheld: no observed time, so no rate per day or week" if not v > 0 else
        f"withheld: only {hours_words(v / HOUR_NS)} of observed time, too little for a rate per "
        f"day or week (at least {MIN_EVALUATED_HOURS:g} h)" for v in values.tolist()],
        dtype=object)
    out[thin] = texts[inverse.reshape(-1)]
    return out


class ObservedTime:
    """Observed time per group and over all groups, for a selection of tiers.

    >>> import pandas as pd
    >>> g = BinGrid.from_dense(pd.DataFrame(index=pd.RangeIndex(2)), [], 0, 60,
    ...                        np.array([[1, 0, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0]]), np.zeros((2, 6)))
    >>> per_group, every = ObservedTime(g, [120, 60], span_ns=360).of([0])
    >>> per_group.tolist(), every
    ([120.0, 120.0], 240.0)
    >>> ObservedTime(g, [120, 60], span_ns=360).of([0], from_ns=120)[0].tolist()  # from bin 2
    [0.0, 120.0]
    >>> ObservedTime(None, [120], span_ns=360).of([0])[1]
    360.0
    """

    def __init__(self, grid: BinGrid | None, long_ns: Sequence[int | None], *, span_ns: int,
                 n_groups: int | None = None, span_start_ns: int = 0) -> None:
        self.grid = grid
        self.n_groups = grid.n_groups if grid is not None else int(n_groups or 1)
        self.long_ns = list(long_ns)
        self.span_ns = float(span_ns)
        self.span_start_ns = int(span_start_ns)
        self._cache: dict[tuple[int, int], tuple[np.ndarray, float]] = {}
        self._whole: BinGrid | None = None

    def known(self, tiers: Sequence[int]) -> bool:
        """Whether traffic is known for ``tiers`` (bins given, every long window known)."""
        return self.grid is not None and all(self.long_ns[t] is not None for t in tiers)

    def of(self, tiers: Sequence[int], *, from_ns: int | None = None) -> tuple[np.ndarray, float]:
        """``(per group, all groups)`` observed time in ns (float) of the tiers ``tiers`` merged,
        counting only the bins that start at or after ``from_ns`` (``None``: every bin)."""
        grid = self.grid
        if grid is None or not self.known(tiers):
            span = self.span_ns
            if from_ns is not None:
                span = float(max(self.span_start_ns + self.span_ns - max(from_ns,
                                                                          self.span_start_ns), 0))
            return np.full(self.n_groups, span), span
        longest = max(int(self.long_ns[t] or 0) for t in tiers)
        k = max(1, -(-longest // grid.freq_ns))
        # the first bin that starts at or after from_ns
        first = 0 if from_ns is None else max(0, -(-(from_ns - grid.start_ns) // grid.freq_ns))
        if (k, first) not in self._cache:
            if self._whole is None:
                self._whole = grid.regroup([])
            per_group = _bins_from(grid, k, first).astype(np.float64) * grid.freq_ns
            every = (float(_bins_from(self._whole, k, first)[0]) * grid.freq_ns
                     if self._whole.n_groups else 0.0)
            self._cache[(k, first)] = (per_group, every)
        return self._cache[(k, first)]


def _bins_from(grid: BinGrid, k: int, first: int) -> np.ndarray:
    """:func:`~budgetlab.budget.burn_rows.traffic_bins` counting only the bins from index
    ``first`` on."""
    if first <= 0:
        return traffic_bins(grid, k)
    group, start, end = traffic_runs(grid, k)
    kept = np.clip(end - np.maximum(start, first), 0, None)
    return np.bincount(group, weights=kept, minlength=grid.n_groups).astype(np.int64)
