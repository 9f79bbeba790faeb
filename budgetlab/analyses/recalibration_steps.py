"""The steps of :func:`budgetlab.analyses.recalibration.recalibrate`, one plain function each.

Per-event arrays are in the order of :func:`budgetlab.analyses.sorted_events.sort_events`
(each group's rows together, time order kept); per-group arrays hold one value per group;
``cands`` is the sorted array of every candidate target, ``fine`` its ``step`` grid
(``cands[fine_idx] == fine``). In the order :func:`recalibrate` runs them:

1. :func:`history_counts`: events and overall success rate in the history;
2. :func:`rolling_rates`: one kernel pass: window counts, time weights, quantiles of the rolling rate;
3. :func:`candidate_targets` and :func:`candidate_levels`: the targets, and the status of every
   event under every target at once;
4. :func:`time_at_levels`: time at each status or worse, per group, day and candidate;
5. :func:`recommend`: the rule;
6. :func:`bootstrap_targets` and :func:`bootstrap_interval`: the block bootstrap over days;
7. :func:`judge_current`: the verdict on the current target;
8. :func:`display_targets`, :func:`transitions_per_day` and :func:`page_counts`: the candidates table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .._util.progress import progress
from ..alerts.episodes import firing_runs, tier_conditions
from ..alerts.policy import AlertPolicy
from ..budget.figures import hold_low_traffic, remaining_fraction, status_codes
from ..slo import SLO
from ..windows._cell_kernels import event_cells
from ..windows.bins import BinGrid
from ..windows.groups import first_in_group
from ..windows.trailing import trailing_counts
from .sorted_events import Sorted, change_flags, time_weights

__all__ = [
    "history_counts", "Rolling", "rolling_rates", "weighted_quantiles", "USUAL_TARGETS", "fine_step", "target_grid",
    "target_range", "candidate_targets", "candidate_levels", "explain_no_recommendation",
    "status_thresholds", "hold_thresholds", "TimeAtLevels", "time_at_levels", "recommend", "block_weights",
    "bootstrap_targets", "bootstrap_interval", "judge_current", "verdict", "display_targets",
    "transitions_per_day", "page_counts", "DAY_NS", "HOUR_NS",
]

DAY_NS = 86_400 * 10**9
HOUR_NS = 3_600 * 10**9
_MIN_NS = 60 * 10**9
_PAGE_SEVERITIES = ("page", "critical")


# ----------------------------------------------------------------------------------------------
# 1-2. the history and the rolling rate


def history_counts(srt: Sorted, hist_lo: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(events, successes, success_rate)`` per group of the events at or after ``hist_lo``
    (rate NaN for a group without events there)."""
    seg, g_n = srt.seg, srt.n_groups
    in_hist = srt.t >= hist_lo
    n_ev = np.bincount(seg[in_hist], minlength=g_n)
    n_ok = np.bincount(seg[in_hist & ~srt.bad], minlength=g_n)
    rate = np.full(g_n, np.nan)
    np.divide(n_ok, n_ev, out=rate, where=n_ev > 0)
    return n_ev, n_ok, rate


@dataclass(frozen=True)
class Rolling:
    """:func:`rolling_rates`: the window of every event and the time its status holds."""

    total: np.ndarray  # events in each event's trailing window
    failures: np.ndarray  # failures among them
    dt: np.ndarray  # ns the event's status holds inside the evaluated span
    w_group: np.ndarray  # evaluated ns per group
    quantiles: np.ndarray  # (groups, probabilities): time-weighted quantiles of the rolling rate

    @property
    def has_time(self) -> np.ndarray:
        """Groups with evaluated time."""
        return np.asarray(self.w_group > 0)


def rolling_rates(srt: Sorted, window_ns: int, span_lo: int, probs: np.ndarray,
                  skip: np.ndarray | None = None) -> Rolling:
    """One kernel pass: trailing-window counts, time weights from ``span_lo`` on (none for the
    rows where ``skip`` is true), and the time-weighted ``probs`` quantiles of the rolling success
    rate per group."""
    total, failures = trailing_counts(srt.t, srt.bad, window_ns, srt.bounds)
    dt = time_weights(srt.t, srt.bounds, span_lo)
    if skip is not None:
        dt = np.where(skip, 0, dt)
    w_group = np.bincount(srt.seg, weights=dt, minlength=srt.n_groups)
    roll = (total - failures) / total.astype(np.float64)
    quant = np.full((srt.n_groups, len(probs)), np.nan)
    for g in range(srt.n_groups):
        s, e = int(srt.bounds[g]), int(srt.bounds[g + 1])
        quant[g] = weighted_quantiles(roll[s:e], dt[s:e], probs)
    return Rolling(total=total, failures=failures, dt=dt, w_group=w_group, quantiles=quant)


def weighted_quantiles(values: np.ndarray, weights: np.ndarray, probs: np.ndarray) -> np.ndarray:
    """Inverted-CDF quantiles: the smallest value whose cumulative weight reaches ``p`` x total.

    >>> weighted_quantiles(np.array([0.9, 0.8, 1.0]), np.array([1.0, 1.0, 2.0]), np.array([0.25, 0.5, 1.0]))
    array([0.8, 0.9, 1. ])
    """
    keep = weights > 0
    v, w = values[keep], weights[keep]
    if len(v) == 0:
        return np.full(len(probs), np.nan)
    order = np.argsort(v, kind="stable")
    cum = np.cumsum(w[order])
    pos = np.searchsorted(cum, probs * cum[-1], side="left")
    return np.asarray(v[order][np.minimum(pos, len(v) - 1)])


# ----------------------------------------------------------------------------------------------
# 3. candidate targets: the status of every event under every target in one pass


#: The usual SLO targets, on the scale of nines; below 90 % the scale continues 85, 80, 75 and
#: 50 % for groups whose history sits there.
USUAL_TARGETS: tuple[float, ...] = (0.5, 0.75, 0.8, 0.85, 0.9, 0.95, 0.975, 0.99, 0.995, 0.999, 0.9995, 0.9999)
_NICE = (5, 2, 1)


def fine_step(step: float, gap: float) -> float:
    """The fine step between two neighbouring usual targets ``gap`` apart: ``step`` when at least
    four fit, else the largest 5, 2 or 1 x 10^-k that does (so 0.99-0.995 is split in 0.001).

    >>> fine_step(0.005, 0.05), fine_step(0.005, 0.005), fine_step(0.005, 0.0005), fine_step(0.005, 0.015)
    (0.005, 0.001, 0.0001, 0.002)
    """
    if step <= gap / 4 + 1e-15:
        return step
    k = int(np.floor(np.log10(gap / 4)))
    for exp in (k, k - 1):
        for m in _NICE:
            f = float(round(m * 10.0**exp, 12))
            if f <= gap / 4 + 1e-15:
                return f
    return float(10.0 ** (k - 1))


def target_grid(step: float, lo: float, hi: float) -> np.ndarray:
    """The usual targets in ``[lo, hi]`` and, between each two neighbours, the multiples of their
    :func:`fine_step` (each the double nearest to its decimal value), sorted.

    >>> target_grid(0.005, 0.95, 0.99).tolist()  # doctest: +NORMALIZE_WHITESPACE
    [0.95, 0.955, 0.96, 0.965, 0.97, 0.975, 0.976, 0.978, 0.98, 0.982, 0.984, 0.986, 0.988, 0.99]
    """
    usual = np.array([u for u in USUAL_TARGETS if lo - 1e-12 <= u <= hi + 1e-12])
    parts = [usual]
    for a, b in zip(usual[:-1], usual[1:], strict=True):
        f = fine_step(step, float(b - a))
        k = np.arange(int(np.ceil(a / f - 1e-9)), int(np.floor(b / f + 1e-9)) + 1)
        parts.append(np.round(k * f, 12))
    grid = np.unique(np.concatenate(parts))
    return grid[(grid >= usual[0] - 1e-12) & (grid <= usual[-1] + 1e-12)] if len(usual) else grid


def target_range(p1: np.ndarray, rate: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per group, the range of candidate targets: from the 1 % quantile of the rolling success
    rate rounded down to a usual target to the first usual target above the observed rate (the
    highest usual target when none is above); NaN where ``p1`` is below every usual target or
    missing.

    >>> lo, hi = target_range(np.array([0.9312, 0.2, 1.0]), np.array([0.94, 0.5, 1.0]))
    >>> lo.tolist(), hi.tolist()
    ([0.9, nan, 0.9999], [0.95, nan, 0.9999])
    """
    usual = np.asarray(USUAL_TARGETS)
    p1 = np.asarray(p1, dtype=np.float64)
    rate = np.asarray(rate, dtype=np.float64)
    lo = np.full(len(p1), np.nan)
    hi = np.full(len(p1), np.nan)
    for g in range(len(p1)):
        if not (np.isfinite(p1[g]) and np.isfinite(rate[g])):
            continue
        below = usual[usual <= p1[g] + 1e-12]
        if not len(below):
            continue
        above = usual[usual > rate[g]]
        lo[g] = below[-1]
        hi[g] = max(above[0] if len(above) else usual[-1], lo[g])
    return lo, hi


def candidate_targets(step: float, lo: np.ndarray, hi: np.ndarray, current: np.ndarray,
                      requested: np.ndarray | None) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(grid, cands, grid_idx, in_range)``: the targets the rule chooses from
    (:func:`target_grid` over the union of the groups' ranges ``[lo, hi]``), every candidate
    (that grid, the finite current targets and the requested ones, sorted, unique), the grid's
    positions among them, and ``(groups, grid)``: which grid targets lie in each group's range.

    >>> grid, cands, idx, rng = candidate_targets(0.005, np.array([0.95]), np.array([0.975]),
    ...                                           np.array([0.93]), None)
    >>> grid.tolist(), cands.tolist()[:2], rng.tolist()
    ([0.95, 0.955, 0.96, 0.965, 0.97, 0.975], [0.93, 0.95], [[True, True, True, True, True, True]])
    """
    ok = np.isfinite(lo)
    grid = target_grid(step, float(np.min(lo[ok])), float(np.max(hi[ok]))) if ok.any() else np.zeros(0)
    extra = [current[np.isfinite(current)]]
    if requested is not None:
        extra.append(requested)
    cands = np.unique(np.concatenate([grid, *extra]))
    in_range = (grid[None, :] >= lo[:, None] - 1e-12) & (grid[None, :] <= hi[:, None] + 1e-12)
    return grid, cands, np.searchsorted(cands, grid), in_range


def candidate_levels(rolling: Rolling, cands: np.ndarray, slo: SLO, bounds: np.ndarray) -> list[np.ndarray]:
    """:func:`status_thresholds` of every event, with the ``min_events`` hold of ``slo``."""
    levels = status_thresholds(rolling.total, rolling.failures, cands, slo)
    if slo.min_events > 0:
        levels = hold_thresholds(levels, rolling.total < slo.min_events, bounds, len(cands))
    return levels


def status_thresholds(total: np.ndarray, failures: np.ndarray, cands: np.ndarray, slo: SLO) -> list[np.ndarray]:
    """For status levels 1, 2, 3 (warning, critical, exhausted): the index of the first
    candidate target (``cands`` sorted ascending) at which each event's status is at least that
    level; ``len(cands)`` when none. Exact: the seed's float arithmetic decides every case
    within 1e-9 of a boundary (status only worsens as the target rises)."""
    n_c = len(cands)
    f = failures.astype(np.float64)
    n = total.astype(np.float64)
    levels = []
    for level, frac, strict in ((1, slo.warning, True), (2, slo.critical, True), (3, 0.0, False)):
        if level == 2 and slo.critical <= 0:
            frac, strict = 0.0, False  # status_codes: without a critical band, critical == exhausted
        allowed = 1.0 - frac
        thr = np.ones(len(n))
        if allowed > 0:
            np.subtract(1.0, f / (n * allowed), out=thr, where=failures > 0)
        else:  # warning == 1: any failure is a warning
            thr = np.where(failures > 0, -np.inf, 1.0)
        idx = np.searchsorted(cands, thr, side="right" if strict else "left").astype(np.int64)
        near = np.zeros(len(n), dtype=bool)
        for j in (idx - 1, idx):
            jj = np.clip(j, 0, n_c - 1)
            near |= (j >= 0) & (j < n_c) & (np.abs(cands[jj] - thr) < 1e-9)
        sus = np.flatnonzero(near)
        if len(sus):
            ti, fi, ii = total[sus], failures[sus], idx[sus]
            for _ in range(n_c + 1):
                down = (ii > 0) & (status_codes(remaining_fraction(ti, fi, cands[np.maximum(ii - 1, 0)]), slo) >= level)
                up = (ii < n_c) & (status_codes(remaining_fraction(ti, fi, cands[np.minimum(ii, n_c - 1)]), slo) < level)
                if not (down.any() or up.any()):
                    break
                ii = ii - down + (up & ~down)
            idx[sus] = ii
        levels.append(idx)
    return levels


def hold_thresholds(levels: list[np.ndarray], low: np.ndarray, bounds: np.ndarray, n_c: int) -> list[np.ndarray]:
    """``min_events``: a low-traffic row keeps the status of its group's last valid row (healthy
    at a group's start), under every candidate target at once: the seed's hold
    (:func:`budgetlab.budget.figures.hold_low_traffic`) on ``n_c - index``, which is 0 where
    healthy under every candidate, as a status code is."""
    first = first_in_group(bounds)
    return [n_c - hold_low_traffic(n_c - idx, low, first) for idx in levels]


# ----------------------------------------------------------------------------------------------
# 4-5. time at each status, and the rule


@dataclass(frozen=True)
class TimeAtLevels:
    """:func:`time_at_levels`: evaluated time per group and day, and at each status or worse."""

    w_day: np.ndarray  # (groups, days) evaluated ns
    at_least: list[np.ndarray]  # per level 1..3: (groups, days, candidates) ns at that level or worse
    share_ge: list[np.ndarray]  # per level 1..3: (groups, candidates) share of the evaluated time

    @property
    def n_days(self) -> int:
        return int(self.w_day.shape[1])


def time_at_levels(srt: Sorted, rolling: Rolling, levels: list[np.ndarray], n_c: int, span_lo: int,
                   span_hi: int) -> TimeAtLevels:
    """Time at each status level or worse, per group, day of ``[span_lo, span_hi]`` and each of
    the ``n_c`` candidates (cumulative over candidates: the status only worsens as the target rises)."""
    g_n, dt, seg = srt.n_groups, rolling.dt, srt.seg
    n_days = max(1, -(-(span_hi - span_lo) // DAY_NS))
    day = np.minimum((np.maximum(srt.t, span_lo) - span_lo) // DAY_NS, n_days - 1)
    cell = (seg * n_days + day) * (n_c + 1)
    timed = dt > 0
    w_day = np.bincount((seg * n_days + day)[timed], weights=dt[timed], minlength=g_n * n_days).reshape(g_n, n_days)
    at_least = []
    for idx in levels:
        h = np.bincount((cell + idx)[timed], weights=dt[timed], minlength=g_n * n_days * (n_c + 1))
        at_least.append(np.cumsum(h.reshape(g_n, n_days, n_c + 1), axis=2)[:, :, :n_c])
    tot_time = w_day.sum(axis=1)
    share_ge = [np.full((g_n, n_c), np.nan) for _ in range(3)]
    for lv in range(3):
        np.divide(at_least[lv].sum(axis=1), tot_time[:, None], out=share_ge[lv], where=rolling.has_time[:, None])
    return TimeAtLevels(w_day=w_day, at_least=at_least, share_ge=share_ge)


def recommend(lim_share: np.ndarray, grid: np.ndarray, grid_idx: np.ndarray, max_share: float,
              has_time: np.ndarray, in_range: np.ndarray | None = None) -> np.ndarray:
    """The rule: per group, the highest ``grid`` target in the group's range (``in_range``,
    groups x grid; default all) whose share of time at the limit status or worse (``lim_share``,
    groups x candidates) is at most ``max_share``; NaN when none is or the group has no evaluated
    time.

    >>> recommend(np.array([[0.0, 0.004, 0.02]]), np.array([0.9, 0.95]), np.array([0, 1]), 0.01,
    ...           np.array([True])).tolist()
    [0.95]
    """
    ok = lim_share[:, grid_idx] <= max_share
    if in_range is not None:
        ok &= in_range
    pos = np.where(ok, np.arange(len(grid))[None, :], -1).max(axis=1) if len(grid) else np.full(len(ok), -1)
    return np.where((pos >= 0) & has_time, grid[np.maximum(pos, 0)] if len(grid) else np.nan, np.nan)


def _window_label(days: float) -> str:
    """A window long enough for ``days``: whole days from one day on, else whole hours."""
    if days >= 1:
        return f"{int(np.ceil(days - 1e-9))}D"
    return f"{max(1, int(np.ceil(days * 24 - 1e-9)))}h"


def explain_no_recommendation(*, has_time: bool, p1: float, lo: float, share_lo: float, events_per_day: float,
                              window_events: float, window_ns: int, history_days: float, max_share: float,
                              limit_status: str, min_days: float = 14.0) -> str:
    """Why no target meets the rule for one group, with figures, and what would make one possible
    (a longer window, ``min_events``, more history, a looser ``max_share``).

    >>> print(explain_no_recommendation(has_time=True, p1=0.75, lo=0.75, share_lo=0.3, events_per_day=8,
    ...       window_events=8, window_ns=86_400 * 10**9, history_days=28, max_share=0.01,
    ...       limit_status="exhausted"))  # doctest: +NORMALIZE_WHITESPACE
    no target meets the rule: even 75 %, the lowest usual target at or below the rolling rate's 1 % quantile
    (75 %), is exhausted or worse 30 % of the time (limit 1 %); ~8 events a day: a 24 h window holds ~8 events,
    so one failure moves the rate 12.5 points; to allow 10 failures a window at 90 % it must hold 100 events:
    use a longer window (window=13D, CLI --window 13D) or min_events=100 (the status holds while the window has
    fewer events)
    """
    if not has_time:
        return "no evaluated time in the history for this group"
    win = pd.Timedelta(window_ns, unit="ns")
    win_txt = f"{win / pd.Timedelta(hours=1):g} h" if win < pd.Timedelta(days=2) else f"{win / pd.Timedelta(days=1):g} d"
    if np.isfinite(lo):
        head = (f"no target meets the rule: even {_pct(lo)}, the lowest usual target at or below the rolling rate's "
                f"1 % quantile ({_pct(p1)}), is {limit_status} or worse {_pct(share_lo)} of the time "
                f"(limit {_pct(max_share)})")
    else:
        head = (f"no target meets the rule: the rolling rate's 1 % quantile ({_pct(p1)}) is below every usual target "
                f"(lowest {_pct(USUAL_TARGETS[0])})")
    parts = [head]
    if np.isfinite(window_events) and window_events > 0:
        parts.append(f"~{events_per_day:.3g} events a day: a {win_txt} window holds ~{window_events:.3g} events, "
                     f"so one failure moves the rate {100 / window_events:.3g} points")
    ref = lo if np.isfinite(lo) and lo >= 0.9 else 0.9
    need = int(np.ceil(10 / (1 - ref) - 1e-9))
    fixes = []
    if np.isfinite(window_events) and window_events < need and events_per_day > 0:
        w = _window_label(need / events_per_day)
        fixes.append(f"to allow 10 failures a window at {_pct(ref)} it must hold {need} events: use a longer window "
                     f"(window={w}, CLI --window {w}) or min_events={need} (the status holds while the window has "
                     "fewer events)")
    if history_days < min_days:
        fixes.append(f"give more history ({history_days:.1f} days; at least {min_days:g})")
    if not fixes:
        fixes.append(f"the rate itself dips this low: allow more time at the limit (max_share={max(0.05, 2 * max_share):g}) "
                     "or leave labelled incidents out (exclude_incidents=)")
    return "; ".join(parts + fixes)


# ----------------------------------------------------------------------------------------------
# 6. block bootstrap over days


def block_weights(rng: np.random.Generator, n_boot: int, n_days: int, block: int) -> np.ndarray:
    """``(n_boot, n_days)`` multiplicities of a moving-block bootstrap with blocks of ``block``
    days (``block == 1``: whole days drawn with replacement)."""
    block = min(block, n_days)
    n_blocks = -(-n_days // block)
    starts = rng.integers(0, n_days - block + 1, size=(n_boot, n_blocks))
    days = (starts[:, :, None] + np.arange(block)).reshape(n_boot, -1)
    flat = (np.arange(n_boot)[:, None] * n_days + days).ravel()
    return np.bincount(flat, minlength=n_boot * n_days).reshape(n_boot, n_days).astype(np.float64)


def bootstrap_targets(time: TimeAtLevels, limit: int, fine: np.ndarray, fine_idx: np.ndarray, *, max_share: float,
                      n_boot: int, block_days: int, seed: int, has_time: np.ndarray,
                      show_progress: bool | None = None, in_range: np.ndarray | None = None) -> np.ndarray:
    """``(n_boot, groups)``: the rule (:func:`recommend`) on each block-bootstrap sample of the
    days (the time at status level ``limit`` or worse and the evaluated time, both summed over the
    sampled days). A sample where no ``fine`` target in the group's range (``in_range``) meets the
    rule gives NaN (no recommendation in that sample), as do groups without evaluated time."""
    w_day = time.w_day
    g_n, n_days = w_day.shape
    rng = np.random.default_rng(seed)
    boot = np.full((n_boot, g_n), np.nan)
    if n_boot == 0:
        return boot
    lim_time = time.at_least[limit - 1][:, :, fine_idx]  # (groups, days, fine)
    chunk = 25
    for b0 in progress(range(0, n_boot, chunk), total=-(-n_boot // chunk), desc="bootstrap", enabled=show_progress):
        m = block_weights(rng, min(chunk, n_boot - b0), n_days, block_days)
        num = np.einsum("bd,gdc->bgc", m, lim_time)
        den = m @ w_day.T  # (b, groups)
        share_b = np.full(num.shape, np.inf)
        np.divide(num, den[:, :, None], out=share_b, where=den[:, :, None] > 0)
        ok = share_b <= max_share
        if in_range is not None:
            ok &= in_range[None, :, :]
        pos = np.where(ok, np.arange(len(fine))[None, None, :], -1).max(axis=2) if len(fine) \
            else np.full(ok.shape[:2], -1)
        boot[b0:b0 + len(m)] = np.where(pos >= 0, fine[np.maximum(pos, 0)] if len(fine) else np.nan, np.nan)
    boot[:, ~has_time] = np.nan
    return boot


def bootstrap_interval(boot: np.ndarray, has_time: np.ndarray, confidence: float) -> tuple[np.ndarray, np.ndarray]:
    """Percentile interval of the bootstrap recommendations per group (NaN without samples or time).

    A sample without a recommendation (NaN: no candidate in the group's range met the rule) ranks
    below every candidate; a bound that falls on one is NaN ("below the candidates' range").

    >>> boot = np.array([[0.9], [np.nan], [0.95], [0.95]])
    >>> [x.tolist() for x in bootstrap_interval(boot, np.array([True]), 0.5)]
    [[nan], [0.95]]
    """
    g_n = boot.shape[1]
    alpha = 1 - confidence
    lo = np.full(g_n, np.nan)
    hi = np.full(g_n, np.nan)
    if len(boot):
        for g in np.flatnonzero(has_time).tolist():
            ranked = np.where(np.isnan(boot[:, g]), -np.inf, boot[:, g])
            lo[g] = np.quantile(ranked, alpha / 2, method="lower")
            hi[g] = np.quantile(ranked, 1 - alpha / 2, method="higher")
    lo[np.isinf(lo)] = np.nan
    hi[np.isinf(hi)] = np.nan
    return lo, hi


# ----------------------------------------------------------------------------------------------
# 7. verdict on the current target


def judge_current(current: np.ndarray, cands: np.ndarray, lim_share: np.ndarray, p10: np.ndarray,
                  recommended: np.ndarray, rec_low: np.ndarray, rec_high: np.ndarray, has_time: np.ndarray, *,
                  max_share: float, limit_status: str, loose_burn: float) -> tuple[np.ndarray, list[Any], list[str]]:
    """``(current_share_limit, verdicts, reasons)`` per group: the share of time the current target
    spent at the limit status or worse, and :func:`verdict` on it."""
    g_n, n_c = len(current), len(cands)
    cur_idx = np.searchsorted(cands, np.where(np.isfinite(current), current, 0.5))
    cur_share = np.where(np.isfinite(current) & has_time, lim_share[np.arange(g_n), np.minimum(cur_idx, n_c - 1)],
                         np.nan)
    verdicts: list[Any] = []
    reasons: list[str] = []
    for g in range(g_n):
        v, why = verdict(current[g], cur_share[g], p10[g], recommended[g], rec_low[g], rec_high[g], has_time[g],
                         max_share=max_share, limit_status=limit_status, loose_burn=loose_burn)
        verdicts.append(v)
        reasons.append(why)
    return cur_share, verdicts, reasons


def _pct(x: float) -> str:
    return f"{100 * x:.3g} %"


def verdict(current: float, share: float, p10: float, rec: float, lo: float, hi: float, has_time: bool, *,
            max_share: float, limit_status: str, loose_burn: float) -> tuple[Any, str]:
    """``(verdict, reason)`` of one group: ``too_strict`` when ``share`` (time at ``limit_status``
    or worse under ``current``) exceeds ``max_share``, else ``too_loose`` when the window burn at
    the 10th percentile of the rolling rate, ``(1 - p10) / (1 - current)``, is below ``loose_burn``,
    else ``ok``; ``None`` without time or a current target.

    >>> verdict(0.95, 0.2, 0.93, 0.93, 0.92, 0.935, True, max_share=0.01, limit_status="exhausted",
    ...         loose_burn=0.25)[0]
    'too_strict'
    """
    if not has_time:
        return None, "no evaluated time in the history for this group"
    rec_txt = "no usual target meets the rule (see recommendation_note)" if not np.isfinite(rec) \
        else f"recommended {rec:.4g}"
    if np.isfinite(lo):
        rec_txt += f" ({lo:.4g}-{hi:.4g})"
    elif np.isfinite(rec) and np.isfinite(hi):
        rec_txt += f" (below the candidates' range in some resampled histories - {hi:.4g})"
    if not np.isfinite(current):
        return None, f"no current target given (target= or slo=); {rec_txt}"
    if share > max_share:
        return "too_strict", (f"burns too fast: {limit_status} or worse {_pct(share)} of the time under "
                              f"{current:.4g} (limit {_pct(max_share)}); {rec_txt}")
    burn90 = (1 - p10) / (1 - current)
    if burn90 < loose_burn:
        return "too_loose", (f"budget barely moves: 9 hours in 10 the window burns under {burn90:.2f} of its "
                             f"budget (limit {loose_burn:g}) under {current:.4g}; {rec_txt}")
    return "ok", (f"{limit_status} or worse {_pct(share)} of the time (limit {_pct(max_share)}), window burn "
                  f"at p10 {burn90:.2f}; {rec_txt}")


# ----------------------------------------------------------------------------------------------
# 8. the candidates table: which targets, their flapping and their pages


def display_targets(grid: np.ndarray, in_range: np.ndarray, requested: np.ndarray | None, current: np.ndarray,
                    recommended: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(targets, shown)``: the targets of the candidates table (sorted) and, per group, which of
    them it lists (``(groups, targets)``): the usual targets in the group's range, the fine steps
    between the usual targets around its recommendation, its current and recommended targets; with
    ``requested``, those instead of the grid. Nothing below the group's range but its current target."""
    usual = np.asarray(USUAL_TARGETS)
    g_n = len(current)
    keep = np.zeros((g_n, len(grid)), dtype=bool)
    if requested is None:
        is_usual = np.isin(np.round(grid, 12), np.round(usual, 12))
        keep = in_range & is_usual[None, :]
        for g in np.flatnonzero(np.isfinite(recommended)).tolist():
            rg = grid[in_range[g]]
            below = rg[is_usual[in_range[g]] & (rg <= recommended[g] + 1e-12)]
            above = rg[is_usual[in_range[g]] & (rg > recommended[g] + 1e-12)]
            a = below[-1] if len(below) else recommended[g]
            b = above[0] if len(above) else recommended[g]
            keep[g] |= in_range[g] & (grid >= a - 1e-12) & (grid <= b + 1e-12)
        base = grid
    else:
        base = requested
        keep = np.ones((g_n, len(requested)), dtype=bool)
    targets = np.unique(np.concatenate([base, current[np.isfinite(current)], recommended[np.isfinite(recommended)]]))
    shown = np.zeros((g_n, len(targets)), dtype=bool)
    pos = np.searchsorted(targets, base)
    shown[:, pos] = keep
    for g in range(g_n):
        for x in (current[g], recommended[g]):
            if np.isfinite(x):
                shown[g, np.searchsorted(targets, x)] = True
    return targets, shown


def transitions_per_day(srt: Sorted, levels: list[np.ndarray], sidx: np.ndarray, span_lo: int,
                        w_group: np.ndarray, show_progress: bool | None = None) -> np.ndarray:
    """``(groups, len(sidx))``: status changes per evaluated day from ``span_lo`` on under the
    candidates at positions ``sidx``."""
    g_n, seg = srt.n_groups, srt.seg
    tr_day = np.zeros((g_n, len(sidx)))
    in_span = srt.t >= span_lo
    days_g = w_group / DAY_NS
    for j, c in enumerate(progress(sidx.tolist(), desc="transitions per target", enabled=show_progress)):
        code = (levels[0] <= c).view(np.int8) + (levels[1] <= c).view(np.int8) + (levels[2] <= c).view(np.int8)
        n_tr = np.bincount(seg[change_flags(code, srt.bounds) & in_span], minlength=g_n)
        np.divide(n_tr, days_g, out=tr_day[:, j], where=days_g > 0)
    return tr_day


def page_counts(srt: Sorted, policy: AlertPolicy, span_lo: int, span_hi: int, cand_values: np.ndarray,
                show: bool | None) -> np.ndarray:
    """Page notifications per group and candidate target whose first firing evaluation lies in
    ``[span_lo, span_hi]``: episodes of the page tiers, OR-ed per group (touching episodes are one
    notification, as :func:`budgetlab.score_alerts` merges them)."""
    grid = _bin_grid(srt, policy)
    g_n, n_bins, freq = grid.n_groups, grid.n_bins, grid.freq_ns
    tiers = [t for t in policy.tiers if t.severity in _PAGE_SEVERITIES] or list(policy.tiers)
    sub = AlertPolicy(tuple(tiers), period=policy.period)
    ends = grid.bin_end_ns
    in_span = (ends >= span_lo) & (ends <= span_hi)
    steps = [(-(-int(t.for_.value) // freq), -(-int(t.cooldown.value) // freq)) for t in sub.tiers]
    # The windows' error ratios do not depend on the target: with a budget of 1 the "burn rates"
    # tier_conditions returns are the error ratios themselves; a tier's condition under target T
    # is then ratio_long > burn * (1 - T) and ratio_short > burn * (1 - T), as tier_conditions
    # computes it (same float operations).
    ratios = [np.minimum(bl, bs) for _, bl, bs in tier_conditions(grid, np.ones(g_n), sub)]
    out = np.zeros((g_n, len(cand_values)), dtype=np.int64)
    for c, target in enumerate(progress(cand_values.tolist(), desc="pages per target", enabled=show)):
        budget = 1 - target
        for g in range(g_n):
            delta = np.zeros(n_bins + 1, dtype=np.int64)
            for tier, ratio, (k_for, k_cool) in zip(sub.tiers, ratios, steps, strict=True):
                first, stop, _ = firing_runs(ratio[g] > tier.burn * budget, k_for, k_cool)
                np.add.at(delta, first, 1)
                np.add.at(delta, stop, -1)
            firing = np.cumsum(delta[:-1]) > 0
            rise = firing.copy()
            rise[1:] &= ~firing[:-1]
            out[g, c] = int(np.count_nonzero(rise & in_span))
    return out


def _bin_grid(srt: Sorted, policy: AlertPolicy) -> BinGrid:
    """The sorted events binned at the gcd of the policy's windows and a minute."""
    wins = [int(w.value) for w in policy.windows]
    freq = int(np.gcd.reduce(np.array([*wins, _MIN_NS], dtype=np.int64)))
    start = (int(srt.t.min()) // freq) * freq
    n_bins = int((int(srt.t.max()) - start) // freq) + 1
    group, b, total, bad, _ = event_cells(srt.seg, srt.t, srt.bad, np.zeros(len(srt.t), dtype=np.int64), srt.n_groups, 1,
                                          first_bin=start, freq_ns=freq)
    keys = srt.keys if srt.by else pd.DataFrame(index=pd.RangeIndex(1))
    return BinGrid(keys, list(srt.by), start, freq, n_bins, group, b, total, bad)
