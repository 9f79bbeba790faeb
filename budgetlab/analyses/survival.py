"""Kaplan–Meier time to success with Greenwood variances, and censored quantiles with
Brookmeyer–Crowley intervals (numpy, vectorized; no loop over attempts).

**Estimand.** Each attempt ends at its duration as a success (the event), a timeout (the client gave
up: right-censored at the timeout in force, :mod:`budgetlab.analyses.latency_timeouts`; a timeout
row that ended before it, at its own duration) or another failure such as a solve error. Solve
errors are a competing event; here they are **censored at their duration** (the cause-specific
treatment): the curve estimates the latent time to success of an attempt that the solver does not
abandon, ``F(t) = 1 - S(t)``. The share of attempts that *did* succeed within a threshold is a plain
count (:mod:`budgetlab.analyses.latency_profile`), which needs no estimate.

**Quantiles.** ``q``-quantile = the smallest event time with ``F(t) >= q`` (a step function read
from the right, as ``quantile(survfit(...))`` in R's survival package without its midpoint rule on
flats). The interval is Brookmeyer and Crowley's (1982) inversion of the pointwise test ``|F(t) - q|
<= z * se(t)`` with Greenwood's ``se``: the lower end is the first time the upper pointwise bound
reaches ``q``, the upper end the first time the lower bound does. Where the curve reaches 0 (every
attempt still at risk succeeds: Greenwood's term ``d / (n (n - d))`` has ``n = d``) there is no
pointwise interval: the upper bound of ``F`` is 1, the lower one undefined, so the upper end is
never the largest success (a Wald interval of zero width there would bound p99 of one attempt by
that attempt). A quantile (or an end) that ``F``, or its lower bound, does not reach before the
last observation is *above* it: ``None`` here, and "> timeout" in words, or withheld
(:mod:`budgetlab.analyses.latency_profile`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

import numpy as np
import numpy.typing as npt

from .._util.ratios import ratio

__all__ = ["KaplanMeier", "kaplan_meier", "km_quantile", "attempts_to_bound"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class KaplanMeier:
    """A Kaplan–Meier curve at its distinct event times.

    ``times`` (sorted), ``at_risk`` and ``events`` at each, ``survival`` ``S(t)`` just after
    each, ``variance`` Greenwood's ``Var S(t)``; ``last`` the largest duration observed (event
    or censored): the curve says nothing beyond it.
    """

    times: FloatArray
    at_risk: IntArray
    events: IntArray
    survival: FloatArray
    variance: FloatArray
    last: float


def kaplan_meier(durations: Any, observed: Any) -> KaplanMeier:
    """The Kaplan–Meier estimate of ``S(t) = P(T > t)`` with Greenwood variances.

    Parameters
    ----------
    durations : array of float
        Durations (any unit; the result's ``times`` are in it).
    observed : array of bool
        ``True`` for an event (a success), ``False`` for a censored duration. At tied times,
        events come before censorings (the usual convention: a censored duration at ``t`` was
        at risk at ``t``).

    Examples
    --------
    >>> km = kaplan_meier([1, 2, 2, 3, 4], [True, True, False, True, False])
    >>> km.times.tolist(), km.at_risk.tolist(), km.survival.round(4).tolist()
    ([1.0, 2.0, 3.0], [5, 4, 2], [0.8, 0.6, 0.3])
    """
    d = np.asarray(durations, dtype=np.float64)
    e = np.asarray(observed, dtype=bool)
    if d.shape != e.shape or d.ndim != 1:
        raise ValueError("durations and observed must be 1-d arrays of the same length")
    last = float(d.max()) if len(d) else 0.0
    order = np.argsort(d, kind="stable")
    d, e = d[order], e[order]
    uniq, first = np.unique(d, return_index=True)
    at_risk = (len(d) - first).astype(np.int64)
    events = np.add.reduceat(e.astype(np.int64), first) if len(d) else np.zeros(0, dtype=np.int64)
    keep = events > 0
    times, at_risk, events = uniq[keep], at_risk[keep], events[keep].astype(np.int64)
    survival: FloatArray = np.cumprod(1.0 - events / at_risk, dtype=np.float64)
    # Greenwood's term, 0 where nobody stays at risk (at_risk == events)
    term = ratio(events, at_risk * (at_risk - events).astype(np.float64), 0.0)
    variance = np.where(survival > 0, survival**2 * np.cumsum(term), 0.0)
    return KaplanMeier(times, at_risk, events, survival, variance, last)


def km_quantile(km: KaplanMeier, q: float, *, confidence: float = 0.95) -> tuple[float | None,
                                                                                 float | None,
                                                                                 float | None]:
    """``(quantile, low, high)`` of the time to event: Brookmeyer–Crowley (see the module doc);
    ``None`` for a value above the last observation.

    >>> km = kaplan_meier([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], [True] * 10)
    >>> km_quantile(km, 0.5)
    (5.0, 3.0, 8.0)
    >>> km_quantile(kaplan_meier([1, 2, 5, 5], [True, True, False, False]), 0.9)
    (None, 2.0, None)
    >>> km_quantile(kaplan_meier([0.21], [True]), 0.99)  # one success bounds nothing above
    (0.21, 0.21, None)
    """
    z = NormalDist().inv_cdf(0.5 + confidence / 2.0)
    f = 1.0 - km.survival
    # no pointwise interval where the curve reaches 0 (Greenwood's d / (n (n - d)) has n = d):
    # the upper bound of F is 1 there, the lower one none, so the largest success never
    # bounds a quantile from above
    se = np.where(km.at_risk == km.events, np.inf, np.sqrt(km.variance))
    eps = 1e-12  # float noise of the cumulative product, far below 1 / n
    value = _first(km.times, f >= q - eps)
    low = _first(km.times, np.minimum(1.0, f + z * se) >= q - eps)
    high = _first(km.times, np.maximum(0.0, f - z * se) >= q - eps)
    return value, low, high


def _first(times: FloatArray, hit: npt.NDArray[np.bool_]) -> float | None:
    """The first time where ``hit`` holds, or ``None``."""
    idx = np.flatnonzero(hit)
    return float(times[idx[0]]) if len(idx) else None


def attempts_to_bound(q: float, confidence: float = 0.95) -> int:
    """The fewest attempts, all successes at distinct durations, whose Brookmeyer–Crowley
    interval of the ``q``-quantile has an upper end: the smallest ``n`` with
    ``1 - 1/n - z sqrt((n - 1) / n**3) >= q`` (the lower bound of ``F`` at the last step before
    the curve reaches 0, ``S = 1/n``, Greenwood's variance ``S (1 - S) / n``). Timeouts, errors
    and ties only raise it.

    >>> attempts_to_bound(0.5), attempts_to_bound(0.9), attempts_to_bound(0.99)
    (6, 30, 296)
    """
    z = NormalDist().inv_cdf(0.5 + confidence / 2.0)

    def bounds(n: int) -> bool:
        return 1.0 - 1.0 / n - z * math.sqrt((n - 1) / n**3) >= q - 1e-12

    hi = 2
    while not bounds(hi):
        hi *= 2
    lo = hi // 2  # bounds(lo) fails (or lo = 1, no step before the end)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if bounds(mid) else (mid, hi)
    return hi
