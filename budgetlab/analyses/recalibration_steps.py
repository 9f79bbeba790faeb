"""The steps of :func:`budgetlab.analyses.recalibration.recalibrate`, one plain function each.

Everything that sums time reads the **window's clock**
(:mod:`budgetlab.analyses.clock_counts`): the window's counts between every two instants at
which they change (an event arriving, an event leaving one window plus 1 ns later), so a status
holds only while the window still holds the events it was computed from; an empty window is no
traffic and counts as no time. Per-event arrays are in the order of
:func:`budgetlab.analyses.sorted_events.sort_events` (each group's rows together, time order
kept); per-segment arrays in the clock's order (group, then time); per-group arrays hold one value
per group; ``cands`` is the sorted array of every candidate target, ``fine`` its ``step`` grid
(``cands[fine_idx] == fine``). In the order :func:`recalibrate` runs them:

1. :func:`rolling_rates`: the clock, the evaluated time (with traffic, after warm-up) per segment
   and day block, quantiles of the rolling rate;
2. :func:`history_counts`: events and overall success rate in that evaluated span;
3. :func:`candidate_targets` and :func:`candidate_levels`: the targets, and the status of every
   clock segment under every target at once;
4. :func:`time_at_levels`: time at each status or worse, per group, day and candidate;
5. :func:`recommend`: the rule;
6. :func:`bootstrap_targets` and :func:`bootstrap_interval`: the block bootstrap over days with traffic;
7. the verdict on the current target (:mod:`budgetlab.analyses.recalibration_rules`);
8. :func:`display_targets`, :func:`transitions_per_day` and
   :func:`~budgetlab.analyses.recalibration_pages.page_counts`: the candidates table.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._util.progress import progress
from ..budget.figures import hold_low_traffic, remaining_fraction, status_codes
from ..slo import SLO
from ..windows.groups import first_in_group
from .clock_counts import ClockCounts, clock_counts, evaluated_events, evaluated_time, split_days
from .sorted_events import Sorted

__all__ = [
    "history_counts", "Rolling", "rolling_rates", "weighted_quantiles", "USUAL_TARGETS", "fine_step", "target_grid",
    "target_range", "candidate_targets", "candidate_levels", "Exclusions",
    "status_thresholds", "hold_thresholds", "TimeAtLevels", "time_at_levels", "recommend", "block_weights",
    "bootstrap_targets", "bootstrap_interval", "display_targets",
    "transitions_per_day", "DAY_NS", "HOUR_NS",
]

DAY_NS = 86_400 * 10**9
HOUR_NS = 3_600 * 10**9


# ----------------------------------------------------------------------------------------------
# 1-2. the history and the rolling rate


def history_counts(srt: Sorted, rolling: Rolling) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(events, successes, success_rate)`` per group of the events in the evaluated span
    (:attr:`Rolling.counted`); rate NaN for a group without any."""
    seg, g_n = srt.seg, srt.n_groups
    n_ev = np.bincount(seg[rolling.counted], minlength=g_n)
    n_ok = np.bincount(seg[rolling.counted & ~srt.bad], minlength=g_n)
    rate = np.full(g_n, np.nan)
    np.divide(n_ok, n_ev, out=rate, where=n_ev > 0)
    return n_ev, n_ok, rate


@dataclass(frozen=True)
class Rolling:
    """:func:`rolling_rates`: the window's clock (its counts between every two instants they
    change, :func:`~budgetlab.analyses.clock_counts.clock_counts`) and the evaluated time.

    The evaluated span of a group is its time with traffic after warm-up inside
    ``[span_lo, span_hi)``, less the excluded incident time; ``pieces`` cut it at the day blocks."""

    clock: ClockCounts
    eval_from: np.ndarray  # evaluated part [eval_from, eval_to) of each clock segment (incidents not cut out)
    eval_to: np.ndarray
    dt: np.ndarray  # evaluated ns of each clock segment
    w_group: np.ndarray  # evaluated ns per group
    piece_row: np.ndarray  # clock segment of each piece
    piece_day: np.ndarray  # day block (from span_lo) of each piece
    piece_ns: np.ndarray  # evaluated ns of each piece
    n_days: int
    seg_counted: np.ndarray  # clock segments whose start lies in the evaluated span
    counted: np.ndarray  # events (sorted order) whose instant lies in the evaluated span
    quantiles: np.ndarray  # (groups, probabilities): time-weighted quantiles of the rolling rate

    @property
    def total(self) -> np.ndarray:
        return self.clock.total

    @property
    def failures(self) -> np.ndarray:
        return self.clock.failures

    @property
    def has_time(self) -> np.ndarray:
        """Groups with evaluated time."""
        return np.asarray(self.w_group > 0)


def rolling_rates(srt: Sorted, window_ns: int, span_lo: int, span_hi: int, probs: np.ndarray,
                  skip: Exclusions | None = None) -> Rolling:
    """The window's clock, the evaluated time per segment and day block from ``span_lo`` to
    ``span_hi`` (after each traffic stretch's warm-up, outside the ``skip`` intervals), and the
    time-weighted ``probs`` quantiles of the rolling success rate per group."""
    clock = clock_counts(srt.t, srt.bad, srt.bounds, window_ns, span_hi)
    a, b = evaluated_time(clock, span_lo, span_hi)
    n_days = max(1, -(-(span_hi - span_lo) // DAY_NS))
    row, day, _ = split_days(a, b, span_lo, DAY_NS)
    p_lo = np.maximum(a[row], span_lo + day * DAY_NS)
    p_hi = np.minimum(b[row], span_lo + (day + 1) * DAY_NS)
    ns = p_hi - p_lo
    seg_in = (clock.start >= np.maximum(clock.warmup_end, span_lo)) & (clock.start < span_hi)
    counted = evaluated_events(srt.t, srt.bounds, window_ns, span_lo, span_hi)
    if skip is not None:
        ns = ns - skip.overlap(clock.seg[row], p_lo, p_hi)
        seg_in &= ~skip.covers(clock.seg, clock.start)
        counted &= ~skip.covers(srt.seg, srt.t)
    dt = np.bincount(row, weights=ns, minlength=len(clock.start))
    w_group = np.bincount(clock.seg, weights=dt, minlength=srt.n_groups)
    roll = (clock.total - clock.failures) / clock.total.astype(np.float64)
    quant = np.full((srt.n_groups, len(probs)), np.nan)
    for g in range(srt.n_groups):
        s, e = int(clock.bounds[g]), int(clock.bounds[g + 1])
        quant[g] = weighted_quantiles(roll[s:e], dt[s:e], probs)
    return Rolling(clock=clock, eval_from=a, eval_to=b, dt=dt, w_group=w_group, piece_row=row, piece_day=np.minimum(day, n_days - 1),
                   piece_ns=ns, n_days=n_days, seg_counted=seg_in, counted=counted, quantiles=quant)


@dataclass(frozen=True)
class Exclusions:
    """Time left out of the evaluation per group: disjoint, sorted ``[start, end)`` intervals
    (``group``, ``start``, ``end``, sorted by group then start)."""

    group: np.ndarray
    start: np.ndarray
    end: np.ndarray

    @classmethod
    def merged(cls, group: np.ndarray, start: np.ndarray, end: np.ndarray) -> Exclusions:
        """The union of the intervals per group."""
        order = np.lexsort((start, group))
        out: list[list[int]] = []
        for g, a, b in zip(group[order].tolist(), start[order].tolist(), end[order].tolist(), strict=True):
            if b <= a:
                continue
            if out and out[-1][0] == g and a <= out[-1][2]:
                out[-1][2] = max(out[-1][2], b)
            else:
                out.append([g, a, b])
        arr = np.array(out, dtype=np.int64).reshape(-1, 3)
        return cls(group=arr[:, 0], start=arr[:, 1], end=arr[:, 2])

    def overlap(self, group: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
        """ns of each ``[lo, hi)`` (in ``group``) inside the excluded intervals."""
        out = np.zeros(len(lo), dtype=np.int64)
        for g, a, b in zip(self.group.tolist(), self.start.tolist(), self.end.tolist(), strict=True):
            out += np.where(group == g, np.maximum(np.minimum(hi, b) - np.maximum(lo, a), 0), 0)
        return out

    def covers(self, group: np.ndarray, t: np.ndarray) -> np.ndarray:
        """Whether each instant ``t`` (in ``group``) lies in an excluded interval."""
        out = np.zeros(len(t), dtype=bool)
        for g, a, b in zip(self.group.tolist(), self.start.tolist(), self.end.tolist(), strict=True):
            out |= (group == g) & (t >= a) & (t < b)
        return out


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


def candidate_levels(rolling: Rolling, cands: np.ndarray, slo: SLO) -> list[np.ndarray]:
    """:func:`status_thresholds` of every clock segment, with the ``min_events`` hold of ``slo``
    (restarting from HEALTHY at each traffic stretch)."""
    levels = status_thresholds(rolling.total, rolling.failures, cands, slo)
    if slo.min_events > 0:
        levels = hold_thresholds(levels, rolling.total < slo.min_events, rolling.clock.bounds, len(cands),
                                 first=rolling.clock.first)
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


def hold_thresholds(levels: list[np.ndarray], low: np.ndarray, bounds: np.ndarray, n_c: int, *,
                    first: np.ndarray | None = None) -> list[np.ndarray]:
    """``min_events``: a low-traffic row keeps the status of its group's last valid row (healthy
    at a group's start, or at the rows ``first`` marks), under every candidate target at once:
    the seed's hold (:func:`budgetlab.budget.figures.hold_low_traffic`) on ``n_c - index``, which
    is 0 where healthy under every candidate, as a status code is."""
    if first is None:
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


def time_at_levels(rolling: Rolling, levels: list[np.ndarray], n_c: int) -> TimeAtLevels:
    """Time at each status level or worse, per group, day block and each of the ``n_c``
    candidates (cumulative over candidates: the status only worsens as the target rises)."""
    g_n, n_days = len(rolling.w_group), rolling.n_days
    row, ns = rolling.piece_row, rolling.piece_ns.astype(np.float64)
    gd = rolling.clock.seg[row] * n_days + rolling.piece_day
    w_day = np.bincount(gd, weights=ns, minlength=g_n * n_days).reshape(g_n, n_days)
    at_least = []
    for idx in levels:
        h = np.bincount(gd * (n_c + 1) + idx[row], weights=ns, minlength=g_n * n_days * (n_c + 1))
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
    group's **days with traffic** (day blocks holding evaluated time, in time order; a silent day
    holds no evidence and is never drawn): the time at status level ``limit`` or worse and the
    evaluated time, both summed over the sampled days. A sample where no ``fine`` target in the
    group's range (``in_range``) meets the rule gives NaN (no recommendation in that sample), as do
    groups without evaluated time.

    Vectorized across samples and groups: the draws are made group by group from one generator
    (the same stream as one group at a time), then all samples of a chunk of groups are one batched
    matrix product ``(groups, n_boot, days) @ (groups, days, fine)``. Sums of whole ns times whole
    multiplicities are exact in float64 (below 2**53), so the order of the sums changes nothing."""
    w_day = time.w_day
    g_n, n_days = w_day.shape
    rng = np.random.default_rng(seed)
    boot = np.full((n_boot, g_n), np.nan)
    if n_boot == 0 or not len(fine):
        return boot
    lim_time = time.at_least[limit - 1][:, :, fine_idx]  # (groups, days, fine)
    live = np.flatnonzero(has_time)
    chunk = max(1, 4_000_000 // max(1, n_boot * max(n_days, len(fine))))
    for a in progress(range(0, len(live), chunk), desc="bootstrap", enabled=show_progress):
        gs = live[a:a + chunk]
        m = np.zeros((len(gs), n_boot, n_days))  # multiplicities, placed on each group's traffic days
        for k, g in enumerate(gs.tolist()):
            days = np.flatnonzero(w_day[g] > 0)
            m[k][:, days] = block_weights(rng, n_boot, len(days), block_days)
        share_b = (m @ lim_time[gs]) / (m @ w_day[gs][:, :, None])  # (chunk, n_boot, fine)
        ok = share_b <= max_share
        if in_range is not None:
            ok &= in_range[gs][:, None, :]
        pos = np.where(ok, np.arange(len(fine)), -1).max(axis=2)  # (chunk, n_boot)
        boot[:, gs] = np.where(pos >= 0, fine[np.maximum(pos, 0)], np.nan).T
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


def transitions_per_day(rolling: Rolling, levels: list[np.ndarray], sidx: np.ndarray,
                        show_progress: bool | None = None) -> np.ndarray:
    """``(groups, len(sidx))``: status changes per evaluated day under the candidates at positions
    ``sidx``, on the window's clock: a change between two clock segments of one traffic stretch
    (the first segment of a stretch against HEALTHY, as at the start of the log), counted when the
    later segment starts in the evaluated span. Entering and leaving *no traffic* is not counted."""
    g_n, seg = len(rolling.w_group), rolling.clock.seg
    tr_day = np.zeros((g_n, len(sidx)))
    days_g = rolling.w_group / DAY_NS
    first = rolling.clock.first
    for j, c in enumerate(progress(sidx.tolist(), desc="transitions per target", enabled=show_progress)):
        code = (levels[0] <= c).view(np.int8) + (levels[1] <= c).view(np.int8) + (levels[2] <= c).view(np.int8)
        prev = np.zeros(len(code), dtype=code.dtype)
        prev[1:] = code[:-1]
        prev[first] = 0
        n_tr = np.bincount(seg[(code != prev) & rolling.seg_counted], minlength=g_n)
        np.divide(n_tr, days_g, out=tr_day[:, j], where=days_g > 0)
    return tr_day
