"""The Wilson score interval of :func:`~budgetlab.analyses.recalibration.recalibrate`'s overall
success rate (also used by the history, latency and verdict analyses)."""

from __future__ import annotations

from statistics import NormalDist
from typing import Any

import numpy as np

from ..._util.validation import check_fraction

__all__ = ["wilson_interval"]


def wilson_interval(successes: Any, n: Any, confidence: float = 0.95) -> tuple[np.ndarray,
                                                                               np.ndarray]:
    """Wilson score interval for a binomial proportion (Wilson 1927; Newcombe 1998, method 3).

    ``center = (p + z²/2n) / (1 + z²/n)``, ``half = z / (1 + z²/n) * sqrt(p(1-p)/n + z²/4n²)``
    with ``z`` the ``(1 + confidence) / 2`` normal quantile. NaN where ``n == 0``. Exact at the
    edges: the interval always contains the observed ``p = successes / n``, ``k == 0`` has a lower
    bound of exactly 0 and ``k == n`` an upper bound of exactly 1 (the closed form gives both
    analytically; floats alone would give 2.8e-17 and 0.9999999999999999).

    >>> lo, hi = wilson_interval(81, 263)
    >>> round(float(lo), 4), round(float(hi), 4)
    (0.2553, 0.3662)
    >>> [float(x) for x in wilson_interval(42, 42)], float(wilson_interval(0, 10)[0])
    ([0.9162..., 1.0], 0.0)
    """
    confidence = check_fraction("confidence", confidence)
    k = np.asarray(successes, dtype=np.float64)
    m = np.asarray(n, dtype=np.float64)
    z = NormalDist().inv_cdf((1 + confidence) / 2)
    lo = np.full(np.broadcast(k, m).shape, np.nan)
    hi = lo.copy()
    ok = np.broadcast_to(m > 0, lo.shape)
    mm = np.broadcast_to(m, lo.shape)[ok]
    kk = np.broadcast_to(k, lo.shape)[ok]
    p = kk / mm
    denom = 1 + z * z / mm
    center = (p + z * z / (2 * mm)) / denom
    half = z / denom * np.sqrt(np.maximum(p * (1 - p) / mm + z * z / (4 * mm * mm), 0.0))
    low = np.where(kk <= 0, 0.0, np.clip(center - half, 0.0, p))
    high = np.where(kk >= mm, 1.0, np.clip(center + half, p, 1.0))
    lo[ok] = low
    hi[ok] = high
    return lo, hi
