"""Step 6 of :func:`~budgetlab.analyses.recalibration.recalibrate`: the block bootstrap over days
with traffic, vectorized across resamples and groups, and its percentile interval.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..._util.progress import progress
from ...slo import key_text
from .levels import TimeAtLevels

__all__ = ["block_weights", "group_seeds", "bootstrap_targets", "bootstrap_interval"]


def group_seeds(seed: int, keys: pd.DataFrame) -> list[list[int]]:
    """Per group (a row of ``keys``), the seed of its own generator,
    ``np.random.default_rng([seed, k])``: ``k`` spells the group's key values
    (:func:`~budgetlab.slo.key_text`) as one whole number. A group's samples then depend on
    ``seed`` and its own days alone, not on the other groups of the table, so a run per SLO over
    its groups' rows draws what a run over the whole table draws.

    >>> group_seeds(7, pd.DataFrame({"kind": ["a"]}))
    [[7, 45269615978280]]
    """
    return [[seed, int.from_bytes(repr(key_text(k)).encode(), "little")]
            for k in keys.itertuples(index=False, name=None)]


def block_weights(rng: np.random.Generator, n_boot: int, n_days: int, block: int) -> np.ndarray:
    """``(n_boot, n_days)`` multiplicities of a moving-block bootstrap with blocks of ``block``
    days (``block == 1``: whole days drawn with replacement)."""
    block = min(block, n_days)
    n_blocks = -(-n_days // block)
    starts = rng.integers(0, n_days - block + 1, size=(n_boot, n_blocks))
    days = (starts[:, :, None] + np.arange(block)).reshape(n_boot, -1)
    flat = (np.arange(n_boot)[:, None] * n_days + days).ravel()
    return np.bincount(flat, minlength=n_boot * n_days).reshape(n_boot, n_days).astype(np.float64)


def bootstrap_targets(time: TimeAtLevels, limit: int, fine: np.ndarray, fine_idx: np.ndarray, *,
                      max_share: float,
                      n_boot: int, block_days: int, seeds: list[Any], has_time: np.ndarray,
                      show_progress: bool | None = None,
                      in_range: np.ndarray | None = None) -> np.ndarray:
    """``(n_boot, groups)``: the rule (:func:`recommend`) on each block-bootstrap sample of the
    group's **days with traffic** (day blocks holding evaluated time, in time order; a silent day
    holds no evidence and is never drawn): the time at status level ``limit`` or worse and the
    evaluated time, both summed over the sampled days. A sample where no ``fine`` target in the
    group's range (``in_range``) meets the rule gives NaN (no recommendation in that sample), as do
    groups without evaluated time.

    Vectorized across samples and groups: each group draws from its own generator, seeded with
    its entry of ``seeds`` (:func:`group_seeds`), then all samples of a chunk of groups are one
    batched matrix product ``(groups, n_boot, days) @ (groups, days, fine)``. Sums of whole ns
    times whole multiplicities are exact in float64 (below 2**53), so the order of the sums
    changes nothing."""
    w_day = time.w_day
    g_n, n_days = w_day.shape
    boot = np.full((n_boot, g_n), np.nan)
    if n_boot == 0 or not len(fine):
        return boot
    lim_time = time.at_least[limit - 1][:, :, fine_idx]  # (groups, days, fine)
    live = np.flatnonzero(has_time)
    chunk = max(1, 4_000_000 // max(1, n_boot * max(n_days, len(fine))))
    for a in progress(range(0, len(live), chunk), desc="bootstrap", enabled=show_progress):
        gs = live[a:a + chunk]
        # multiplicities, placed on each group's traffic days
        m = np.zeros((len(gs), n_boot, n_days))
        for k, g in enumerate(gs.tolist()):
            days = np.flatnonzero(w_day[g] > 0)
            rng = np.random.default_rng(seeds[g])
            m[k][:, days] = block_weights(rng, n_boot, len(days), block_days)
        share_b = (m @ lim_time[gs]) / (m @ w_day[gs][:, :, None])  # (chunk, n_boot, fine)
        ok = share_b <= max_share
        if in_range is not None:
            ok &= in_range[gs][:, None, :]
        pos = np.where(ok, np.arange(len(fine)), -1).max(axis=2)  # (chunk, n_boot)
        boot[:, gs] = np.where(pos >= 0, fine[np.maximum(pos, 0)], np.nan).T
    return boot


def bootstrap_interval(boot: np.ndarray, has_time: np.ndarray,
                       confidence: float) -> tuple[np.ndarray, np.ndarray]:
    """Percentile interval of the bootstrap recommendations per group (NaN without samples or time).

    A sample without a recommendation (NaN: no candidate in the group's range met the rule) ranks
    below every candidate; a bound that falls on one is NaN ("below the candidates' range").

    >>> boot = np.array([[0.9], [np.nan], [0.95], [0.95]])
    >>> [x.tolist() for x in bootstrap_interval(boot, np.array([True]), 0.5)]
    [[nan], [0.95]]
    """
    if not len(boot):
        return np.full(boot.shape[1:], np.nan), np.full(boot.shape[1:], np.nan)
    alpha = 1 - confidence
    ranked = np.where(np.isnan(boot), -np.inf, boot)
    lo = np.quantile(ranked, alpha / 2, axis=0, method="lower")
    hi = np.quantile(ranked, 1 - alpha / 2, axis=0, method="higher")
    keep = np.asarray(has_time, dtype=bool)
    return (np.where(keep & np.isfinite(lo), lo, np.nan),
            np.where(keep & np.isfinite(hi), hi, np.nan))
