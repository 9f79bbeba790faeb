"""When alert tiers fire: each tier's condition over the bins and its firing runs (Prometheus
``for`` / ``keep_firing_for``; the rules are in :mod:`budgetlab.alerts.episodes`), by the compiled
kernel (:func:`budgetlab.windows.kernels.compiled`) or in numpy."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from .._util.ratios import ratio
from .._util.validation import duration_label
from .._util.words import prose_duration
from ..budget.burn import error_budgets, rolling_sum
from ..errors import ConfigError
from ..windows.bingrid import BinGrid
from ..windows.bins import window_bins
from ..windows.kernels import compiled
from .policy import AlertPolicy
from .tier import AlertTier

__all__ = ["check_policy_bins", "firing_runs", "grid_firing_runs", "policy_runs", "run_ends",
           "series_firing_runs", "steps",
           "tier_conditions", "tier_steps"]


def steps(duration: pd.Timedelta, freq_ns: int) -> int:
    """Evaluations a duration spans: ``ceil(duration / freq)``."""
    return int(-(-int(duration.value) // freq_ns))


def tier_steps(tier: AlertTier, freq_ns: int) -> tuple[int, int]:
    """The evaluations of ``tier``'s ``for_`` and ``cooldown`` (:func:`steps`)."""
    return steps(tier.for_, freq_ns), steps(tier.cooldown, freq_ns)


def check_policy_bins(pol: AlertPolicy, freq_ns: int, *,
                      fix: str = "bin_events(events, {!r})") -> None:
    """Every window of ``pol`` must be a whole number of bins: refused naming the tier's window
    and a bin width that fits every window (their greatest common divisor), spelled by ``fix``
    (the keyword of the function that bins: ``"freq={!r}"``)."""
    wins = [(tier, w) for tier in pol.tiers for w in tier.windows]
    bad = next(((tier, w) for tier, w in wins if int(w.value) % freq_ns), None)
    if bad is None:
        return
    tier, w = bad
    fit = pd.Timedelta(math.gcd(*(int(v.value) for _, v in wins)), unit="ns")
    whose = f"the {pol.name} policy's" if pol.name else "the policy's"
    raise ConfigError(
        f"bins of {prose_duration(pd.Timedelta(freq_ns, unit='ns'))} do not divide the "
        f"{prose_duration(w)} window of {whose} {tier.name} tier (its windows are whole numbers "
        "of bins); bin the events with a freq that divides every window, e.g. "
        f"{fix.format(duration_label(fit))}.")


def _conditions(tot: np.ndarray, bad: np.ndarray, budget: np.ndarray, policy: AlertPolicy,
                freq_ns: int) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """For each tier: ``(condition, error ratio long, error ratio short)`` over the ``(groups,
    bins)`` counts ``tot`` and ``bad`` (a single-window tier's short ratio is its long one);
    ``budget`` is ``1 - target`` per group. Tiers of one window share its rolling sums."""
    ratios: dict[int, np.ndarray] = {}

    def of(window: pd.Timedelta) -> np.ndarray:
        k = window_bins(window, freq_ns)
        if k not in ratios:
            ratios[k] = ratio(rolling_sum(bad, k), rolling_sum(tot, k), 0.0)
        return ratios[k]

    out = []
    for tier in policy.tiers:
        thr = (tier.burn * budget)[:, None]
        er_long = of(tier.long_window)
        cond = er_long > thr
        er_short = er_long
        if tier.short_window is not None:
            er_short = of(tier.short_window)
            cond = cond & (er_short > thr)
        out.append((cond, er_long, er_short))
    return out


def tier_conditions(grid: BinGrid, budget: np.ndarray,
                    policy: AlertPolicy) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """For each tier: ``(condition, burn_long, burn_short)`` arrays of shape ``(groups, bins)``.

    ``budget`` is ``1 - target`` per group. Rolling sums are shared between tiers that use the
    same window.
    """
    check_policy_bins(policy, grid.freq_ns)
    out = []
    for cond, er_long, er_short in _conditions(grid.total, grid.bad, budget, policy, grid.freq_ns):
        burn_long = er_long / budget[:, None]
        out.append((cond, burn_long, burn_long if er_short is er_long
                    else er_short / budget[:, None]))
    return out


def firing_runs(cond: np.ndarray, for_steps: int = 0, cooldown_steps: int = 0) -> tuple[np.ndarray,
                                                                                        np.ndarray,
                                                                                        np.ndarray]:
    """Firing episodes of one condition series (Prometheus ``for`` / ``keep_firing_for``).

    Returns ``(first, stop, ongoing)``: episode ``i`` fires at evaluation indices
    ``first[i] <= j < stop[i]``; ``ongoing[i]`` when it still fires at the last index.
    Vectorized over runs: true runs closer than ``cooldown_steps + 1`` evaluations merge into one
    cluster; a cluster fires from its first run of at least ``for_steps + 1`` evaluations (at
    that run's start ``+ for_steps``) to its last true index ``+ cooldown_steps``.

    >>> c = np.array([0, 1, 1, 0, 1, 0, 0, 0, 1, 1, 1], dtype=bool)
    >>> firing_runs(c)
    (array([1, 4, 8]), array([ 3,  5, 11]), array([False, False,  True]))
    >>> firing_runs(c, for_steps=1, cooldown_steps=1)
    (array([2, 9]), array([ 6, 11]), array([False,  True]))
    """
    _, first, stop, ongoing = grid_firing_runs(np.asarray(cond, dtype=bool)[None, :], for_steps,
                                               cooldown_steps)
    return first, stop, ongoing


def run_ends(ends_ns: np.ndarray, stop: np.ndarray) -> np.ndarray:
    """The ``end`` (ns) of runs of evaluations ``first <= j < stop`` at the evaluation instants
    ``ends_ns`` (the bin ends): the first evaluation at which the run no longer holds, and for a
    run that still holds at the last evaluation (``stop == len(ends_ns)``, ``ongoing``) that
    last evaluation, where the evaluation stopped: nothing past the evaluated span.

    >>> run_ends(np.array([60, 120, 180]), np.array([1, 2, 3])).tolist()
    [120, 180, 180]
    """
    return np.asarray(ends_ns)[np.minimum(np.asarray(stop, dtype=np.int64), len(ends_ns) - 1)]


def grid_firing_runs(cond: np.ndarray, for_steps: int = 0,
                     cooldown_steps: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                       np.ndarray]:
    """:func:`firing_runs` of every row of a ``(groups, evaluations)`` condition at once:
    ``(group, first, stop, ongoing)``, sorted by group then ``first``.

    >>> c = np.array([[0, 1, 1, 0], [1, 0, 0, 1]], dtype=bool)
    >>> [a.tolist() for a in grid_firing_runs(c)]
    [[0, 1, 1], [1, 0, 3], [3, 1, 4], [False, False, True]]
    """
    g_n, n = cond.shape
    group, first, stop, ongoing = series_firing_runs(np.asarray(cond, dtype=bool).ravel(),
                                                     np.arange(g_n + 1, dtype=np.int64) * n,
                                                     for_steps, cooldown_steps)
    return group, first - group * n, stop - group * n, ongoing


def series_firing_runs(cond: np.ndarray, offsets: np.ndarray, for_steps: int = 0,
                       cooldown_steps: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                         np.ndarray]:
    """:func:`firing_runs` of series laid end to end: series ``s`` is
    ``cond[offsets[s]:offsets[s + 1]]`` (``offsets`` ascending, from 0 to ``len(cond)``); runs and
    clusters never cross a series' edge, and an episode stops at its series' end. Returns
    ``(series, first, stop, ongoing)`` with ``first`` and ``stop`` indices into ``cond``, sorted.

    >>> c = np.array([0, 1, 1, 1, 0, 0, 1], dtype=bool)
    >>> [a.tolist() for a in series_firing_runs(c, np.array([0, 3, 7]), cooldown_steps=1)]
    [[0, 1, 1], [1, 3, 6], [3, 5, 7], [True, False, True]]
    """
    cond = np.asarray(cond, dtype=bool)
    offsets = np.asarray(offsets, dtype=np.int64)
    n = len(cond)
    prev = np.zeros(n, dtype=bool)
    prev[1:] = cond[:-1]
    nxt = np.zeros(n, dtype=bool)
    nxt[:-1] = cond[1:]
    edge = offsets[(offsets > 0) & (offsets < n)]
    prev[edge] = False  # a series' first index has no predecessor
    nxt[edge - 1] = False  # nor its last a successor
    rs = np.flatnonzero(cond & ~prev)
    re = np.flatnonzero(cond & ~nxt)
    if len(rs) == 0:
        empty = np.empty(0, dtype=np.int64)
        return empty, empty, empty, np.empty(0, dtype=bool)
    group = np.searchsorted(offsets, rs, side="right") - 1
    end = offsets[group + 1] - 1  # the last index of each run's series
    qualifies = (re - rs + 1) >= for_steps + 1
    new_cluster = np.ones(len(rs), dtype=bool)
    new_cluster[1:] = (group[1:] != group[:-1]) | ((rs[1:] - re[:-1] - 1) > cooldown_steps)
    cstart = np.flatnonzero(new_cluster)
    cend = np.append(cstart[1:] - 1, len(rs) - 1)
    cand = np.where(qualifies, np.arange(len(rs)), len(rs))
    first_q = np.minimum.reduceat(cand, cstart)
    has = first_q < len(rs)
    first = rs[first_q[has]] + for_steps
    reach = re[cend[has]] + cooldown_steps
    last = end[cstart[has]]
    stop = np.minimum(reach, last) + 1
    return (
        group[cstart[has]].astype(np.int64),
        first.astype(np.int64),
        stop.astype(np.int64),
        reach >= last,
    )


#: Bytes of the per-window float arrays one chunk of groups may hold while
# :func:`~budgetlab.alert_episodes` runs.
_CHUNK_BYTES = 256 * 2**20


def policy_runs(grid: BinGrid, target: Any, pol: AlertPolicy) -> list[tuple[np.ndarray, ...]]:
    """Per tier: :func:`grid_firing_runs` of its condition over ``grid``, computed for chunks of
    groups at a time (conditions only, no burn-rate arrays), so memory stays bounded."""
    check_policy_bins(pol, grid.freq_ns)
    budget = error_budgets(target, grid)
    kernel = compiled("tier_runs")
    if kernel is not None:
        thr = np.stack([tier.burn * budget for tier in pol.tiers], axis=1)
        k_long = np.array([window_bins(t.long_window, grid.freq_ns) for t in pol.tiers],
                          dtype=np.int64)
        k_short = np.array([0 if t.short_window is None else window_bins(t.short_window,
                                                                         grid.freq_ns)
                            for t in pol.tiers], dtype=np.int64)
        k_for = np.array([steps(t.for_, grid.freq_ns) for t in pol.tiers], dtype=np.int64)
        k_cool = np.array([steps(t.cooldown, grid.freq_ns) for t in pol.tiers], dtype=np.int64)
        group, tier_of, first, stop, ongoing = kernel(
            grid.cell_bin,
            grid.cell_total,
            grid.cell_bad,
            grid.offsets,
            grid.n_bins,
            np.ascontiguousarray(thr, dtype=np.float64),
            k_long,
            k_short,
            k_for,
            k_cool,
        )
        return [(group[tier_of == j], first[tier_of == j], stop[tier_of == j],
                 ongoing[tier_of == j])
                for j in range(len(pol.tiers))]
    ks = {window_bins(w, grid.freq_ns) for t in pol.tiers for w in t.windows}
    parts: list[list[tuple[np.ndarray, ...]]] = [[] for _ in pol.tiers]
    for g0, g1 in grid.chunks(len(ks) + 3, _CHUNK_BYTES):
        tot, bad = grid.dense(g0, g1)
        conditions = _conditions(tot, bad, budget[g0:g1], pol, grid.freq_ns)
        for j, (tier, (cond, _, _)) in enumerate(zip(pol.tiers, conditions, strict=True)):
            group, first, stop, ongoing = grid_firing_runs(cond, *tier_steps(tier, grid.freq_ns))
            parts[j].append((group + g0, first, stop, ongoing))
    return [tuple(np.concatenate(col) for col in zip(*p, strict=True)) for p in parts]
