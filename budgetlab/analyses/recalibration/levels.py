"""Steps 2-5 of :func:`~budgetlab.analyses.recalibration.recalibrate`: the status of every clock
segment under every candidate target at once (as the index of the first candidate at which it
reaches each level), the time at each status or worse per group, day block and candidate (one
time-weighted pass), and the recommendation rule (its one home: :func:`recommend`); put
together, from the rolling rate to the recommended target of every group
(:func:`choose_targets`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..._util.ratios import ratio
from ...budget.figures import hold_low_traffic, remaining_fraction, status_codes
from ...slo import SLO
from ...windows.groups import first_in_group
from ..sorted_events import Sorted, WindowSpec
from ..window_silence import held_over_silence
from .candidates import candidate_targets, target_range
from .options import Plan
from .rolling import Rolling, history_counts, rate_quantiles, weighted_quantiles
from .rules import supported_targets, widen_to_support
from .wilson import wilson_interval

__all__ = ["candidate_levels", "status_thresholds", "level_threshold", "FLOOR_PROB",
           "floor_prob", "limit_floor", "limit_quantiles", "hold_thresholds", "TimeAtLevels",
           "time_at_levels", "recommend", "Choice", "choose_targets", "limit_share_silent"]


def candidate_levels(rolling: Rolling, cands: np.ndarray, slo: SLO) -> list[np.ndarray]:
    """:func:`status_thresholds` of every clock segment, with the ``min_events`` hold of ``slo``
    (restarting from HEALTHY at each traffic stretch)."""
    c = rolling.clock
    levels = status_thresholds(c.total, c.failures, cands, slo)
    if slo.min_events > 0:
        levels = hold_thresholds(levels, c.total < slo.min_events, c.bounds, len(cands),
                                 first=c.first)
    return levels


def status_thresholds(total: np.ndarray, failures: np.ndarray, cands: np.ndarray,
                      slo: SLO) -> list[np.ndarray]:
    """For status levels 1, 2, 3 (warning, critical, exhausted): the index of the first
    candidate target (``cands`` sorted ascending) at which each event's status is at least that
    level; ``len(cands)`` when none. Exact: the seed's float arithmetic decides every case
    within 1e-9 of a boundary (status only worsens as the target rises)."""
    n_c = len(cands)
    if n_c == 0:  # no candidate in range (e.g. a log far below every usual target)
        return [np.zeros(len(total), dtype=np.int64) for _ in range(3)]
    levels = []
    for level in (1, 2, 3):
        thr, strict = level_threshold(total, failures, slo, level)
        idx = np.searchsorted(cands, thr, side="right" if strict else "left").astype(np.int64)
        near = np.zeros(len(thr), dtype=bool)
        for j in (idx - 1, idx):
            jj = np.clip(j, 0, n_c - 1)
            near |= (j >= 0) & (j < n_c) & (np.abs(cands[jj] - thr) < 1e-9)
        sus = np.flatnonzero(near)
        if len(sus):
            idx[sus] = _seed_decides(total[sus], failures[sus], idx[sus], cands, slo, level)
        levels.append(idx)
    return levels


def _seed_decides(ti: np.ndarray, fi: np.ndarray, ii: np.ndarray, cands: np.ndarray, slo: SLO,
                  level: int) -> np.ndarray:
    """The first candidate index at ``level`` or worse of windows within 1e-9 of a boundary,
    moved from ``ii`` by the seed's own float arithmetic (:func:`status_codes`)."""
    n_c = len(cands)
    for _ in range(n_c + 1):
        below = cands[np.maximum(ii - 1, 0)]
        down = (ii > 0) & (status_codes(remaining_fraction(ti, fi, below), slo) >= level)
        at = cands[np.minimum(ii, n_c - 1)]
        up = (ii < n_c) & (status_codes(remaining_fraction(ti, fi, at), slo) < level)
        if not (down.any() or up.any()):
            break
        ii = ii - down + (up & ~down)
    return ii


def level_threshold(total: np.ndarray, failures: np.ndarray, slo: SLO,
                    level: int) -> tuple[np.ndarray, bool]:
    """``(threshold, strict)``: the target from which each window (``total`` events holding
    ``failures``) is at status ``level`` (1 warning, 2 critical, 3 exhausted) or worse: at every
    target above the threshold (``strict``: warning and critical, the remaining budget fraction
    strictly below ``slo.warning`` or ``slo.critical``) or at and above it (exhausted: none
    remaining). From the seed's definitions: ``1 - failures / (total * (1 - fraction))``, so
    CRITICAL is the rolling success rate below ``1 - (1 - critical)(1 - target)``, not below the
    target. Up to the float arithmetic that :func:`status_thresholds` settles.

    >>> thr, strict = level_threshold(np.array([60]), np.array([10]), SLO(), 2)
    >>> round(float(thr[0]), 6), strict  # 1 - (10 / 60) / 0.9 = 22 / 27
    (0.814815, True)
    """
    frac, strict = ((slo.warning, True) if level == 1 else (slo.critical, True) if level == 2
                    else (0.0, False))
    if level == 2 and slo.critical <= 0:
        # status_codes: without a critical band, critical == exhausted
        frac, strict = 0.0, False
    allowed = 1.0 - frac
    thr = np.ones(len(total))
    if allowed > 0:
        np.subtract(1.0, failures.astype(np.float64) / (total.astype(np.float64) * allowed),
                    out=thr, where=failures > 0)
    else:  # warning == 1: any failure is a warning
        thr = np.where(failures > 0, -np.inf, 1.0)
    return thr, strict


#: The quantile of the rolling rate the candidates' range starts from (``p1``), unless
#: ``max_share`` is smaller (:func:`floor_prob`).
FLOOR_PROB = 0.01


def floor_prob(max_share: float) -> float:
    """The probability of the rolling rate's quantile the candidates' range starts from: 1 %
    (``p1``), or ``max_share`` where it is smaller. Below the ``max_share`` quantile every target
    meets the rule (a window is exhausted at every target at or above its rate: less than
    ``max_share`` of the time has a rate below that quantile), so a range starting below it
    always holds a target that meets the rule; from ``p1`` alone, ``max_share=0.001`` could
    start every candidate above the targets that meet it.

    >>> floor_prob(0.05), floor_prob(0.001)
    (0.01, 0.001)
    """
    return min(FLOOR_PROB, float(max_share))


def limit_floor(p1: np.ndarray, slo: SLO, level: int) -> np.ndarray:
    """Per group, the target from which a window whose success rate is the rolling rate's
    quantile ``p1`` (at :func:`floor_prob`: 1 %, or ``max_share`` where it is smaller) is at
    status ``level`` or worse (:func:`level_threshold` of such a window, clipped to [0, 1]; NaN
    where ``p1`` is): the floor of the candidates' range. At exhausted ``p1`` itself; at warning
    and critical lower, ``1 - (1 - p1) / (1 - fraction)``. Below it a target is at ``level`` or
    worse less than that share of the time (the threshold rises with the rate: it is that level
    of :func:`limit_quantiles` without ``min_events``).

    >>> limit_floor(np.array([5 / 6]), SLO(), 1).round(6).tolist()  # 1 - (1 / 6) / 0.5
    [0.666667]
    """
    p1 = np.asarray(p1, dtype=np.float64)
    if level == 3:
        return p1
    ok = np.isfinite(p1)
    thr, _ = level_threshold(np.ones(len(p1)), np.where(ok, 1.0 - p1, 0.0), slo, level)
    return np.where(ok, np.clip(thr, 0.0, 1.0), np.nan)


def limit_quantiles(rolling: Rolling, slo: SLO, level: int, probs: np.ndarray) -> np.ndarray:
    """``(groups, probs)``: per group, the time-weighted ``probs`` quantiles of every clock
    segment's :func:`level_threshold` at ``level`` (the ``min_events`` hold applied: a held
    window keeps the threshold of its stretch's last window with enough events, none at a
    stretch's start), clipped to [0, 1] (a target in (0, 1) is above 0 and never reaches 1, so
    the clip keeps every status). The share of time at ``level`` or worse under a target ``t``
    is the weight of the thresholds below ``t`` (at or below ``t`` for exhausted): it is below
    ``p`` at every target under the ``p`` quantile and at least ``p`` above it, the curve of the
    candidates' shares as a function of the target."""
    c = rolling.clock
    thr, _ = level_threshold(c.total, c.failures, slo, level)
    if slo.min_events > 0:
        src = hold_low_traffic(np.arange(len(thr)), c.total < slo.min_events, c.first,
                               initial=-1)
        thr = np.where(src >= 0, thr[np.maximum(src, 0)], 1.0)
    thr = np.clip(thr, 0.0, 1.0)
    out = np.full((len(rolling.w_group), len(probs)), np.nan)
    for g in range(len(rolling.w_group)):
        s, e = int(c.bounds[g]), int(c.bounds[g + 1])
        out[g] = weighted_quantiles(thr[s:e], rolling.dt[s:e], probs)
    return out


def hold_thresholds(levels: list[np.ndarray], low: np.ndarray, bounds: np.ndarray, n_c: int, *,
                    first: np.ndarray | None = None) -> list[np.ndarray]:
    """``min_events``: a low-traffic row keeps the status of its group's last valid row (healthy
    at a group's start, or at the rows ``first`` marks), under every candidate target at once:
    the seed's hold (:func:`budgetlab.budget.figures.hold_low_traffic`) on ``n_c - index``, which
    is 0 where healthy under every candidate, as a status code is."""
    if first is None:
        first = first_in_group(bounds)
    return [n_c - hold_low_traffic(n_c - idx, low, first) for idx in levels]


@dataclass(frozen=True)
class TimeAtLevels:
    """:func:`time_at_levels`: evaluated time per group and day, and at each status or worse."""

    w_day: np.ndarray  # (groups, days) evaluated ns
    # per level 1..3: (groups, days, candidates) ns at that level or worse, for the levels kept
    # by day (the bootstrap's); (groups, days, 0) for the others
    at_least: list[np.ndarray]
    share_ge: list[np.ndarray]  # per level 1..3: (groups, candidates) share of the evaluated time
    # per level 1..3: (groups, candidates) ns at that level or worse, summed over the days
    ge_total: list[np.ndarray] = field(default_factory=list)


#: Bytes of the ``(groups, days, candidates + 1)`` counts :func:`time_at_levels` holds at once
#: (a chunk of groups): thousands of groups times their days and candidates would be gigabytes.
_DAY_CHUNK_BYTES = 64 * 2**20


def time_at_levels(rolling: Rolling, levels: list[np.ndarray], n_c: int,
                   by_day: tuple[int, ...] = (1, 2, 3)) -> TimeAtLevels:
    """Time at each status level or worse, per group and each of the ``n_c`` candidates
    (cumulative over candidates: the status only worsens as the target rises), summed over the
    day blocks; per day block for the levels ``by_day`` only (the bootstrap resamples the days
    of its limit level). The day blocks are counted a chunk of groups at a time."""
    g_n, n_days = len(rolling.w_group), rolling.n_days
    row, ns = rolling.piece_row, rolling.piece_ns.astype(np.float64)
    group = rolling.clock.seg[row]
    w_day = np.bincount(group * n_days + rolling.piece_day, weights=ns,
                        minlength=g_n * n_days).reshape(g_n, n_days)
    order = (np.argsort(group, kind="stable") if len(group) and np.any(np.diff(group) < 0)
             else np.arange(len(group)))  # each bin's pieces in their order: the same sums
    bounds = np.searchsorted(group[order], np.arange(g_n + 1))
    at_least = [np.zeros((g_n, n_days, n_c if lv + 1 in by_day else 0)) for lv in range(3)]
    ge_total = [np.zeros((g_n, n_c)) for _ in range(3)]
    step = max(1, _DAY_CHUNK_BYTES // max(1, n_days * (n_c + 1) * 8))
    for g0 in range(0, g_n, step):
        g1 = min(g0 + step, g_n)
        at = order[bounds[g0]:bounds[g1]]
        gd = (group[at] - g0) * n_days + rolling.piece_day[at]
        for lv, idx in enumerate(levels):
            h = np.bincount(gd * (n_c + 1) + idx[row[at]], weights=ns[at],
                            minlength=(g1 - g0) * n_days * (n_c + 1))
            cum = np.cumsum(h.reshape(g1 - g0, n_days, n_c + 1), axis=2)[:, :, :n_c]
            # sums of whole ns below 2**53 are exact whatever their order
            ge_total[lv][g0:g1] = cum.sum(axis=1)
            if at_least[lv].shape[2]:
                at_least[lv][g0:g1] = cum
    tot_time = w_day.sum(axis=1)
    share_ge = [ratio(ge_total[lv], tot_time[:, None]) for lv in range(3)]
    return TimeAtLevels(w_day=w_day, at_least=at_least, share_ge=share_ge, ge_total=ge_total)


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
    pos = np.where(ok, np.arange(len(grid))[None, :],
                   -1).max(axis=1) if len(grid) else np.full(len(ok), -1)
    return np.where((pos >= 0) & has_time, grid[np.maximum(pos, 0)] if len(grid) else np.nan,
                    np.nan)


@dataclass(frozen=True)
class Choice:
    """:func:`choose_targets`: per group (``n_ev`` ... ``recommended``), and the candidates."""

    n_ev: np.ndarray  # events in the evaluated span
    n_ok: np.ndarray
    rate: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    p1: np.ndarray  # time-weighted quantiles of the rolling success rate
    base: np.ndarray  # the quantile the range starts from: at floor_prob (p1 unless max_share <)
    base_prob: float  # floor_prob(max_share)
    floor: np.ndarray  # limit_floor: the target from which a window at base is at the limit
    p5: np.ndarray
    p10: np.ndarray
    p50: np.ndarray
    lo_t: np.ndarray  # lowest candidate of the group's range
    grid: np.ndarray  # the targets the rule chooses from
    cands: np.ndarray  # every candidate, sorted
    grid_idx: np.ndarray  # cands[grid_idx] == grid
    in_range: np.ndarray  # (groups, grid)
    supported: np.ndarray  # (groups, grid): in range and supported by the events
    levels: list[np.ndarray]  # status_thresholds of every clock segment
    time: TimeAtLevels
    lim_share: np.ndarray  # (groups, cands): share of time at the limit status or worse
    uncapped: np.ndarray  # the rule over the whole range
    recommended: np.ndarray  # the rule over the supported targets


def choose_targets(srt: Sorted, rolling: Rolling, current: np.ndarray, plan: Plan) -> Choice:
    """Events and success rate in the evaluated span, the candidate targets, the time at each
    status under each of them, and the rule's recommendation (before thin evidence is withheld)."""
    has_time = rolling.has_time
    n_ev, n_ok, rate = history_counts(srt, rolling)
    ci_low, ci_high = wilson_interval(n_ok, n_ev, plan.confidence)
    p1, p5, p10, p50 = (rolling.quantiles[:, k] for k in range(4))
    prob = floor_prob(plan.max_share)
    base = p1 if prob == FLOOR_PROB else rate_quantiles(rolling.clock, rolling.dt,
                                                        np.array([prob]))[:, 0]
    floor = limit_floor(base, plan.slo, plan.limit)
    lo_t, hi_t = target_range(floor, rate, held=plan.slo.min_events > 0)
    lo_t = widen_to_support(lo_t, n_ev)
    grid, cands, grid_idx, in_range = candidate_targets(plan.step, lo_t, hi_t, current,
                                                        plan.requested)
    levels = candidate_levels(rolling, cands, plan.slo)
    time = time_at_levels(rolling, levels, len(cands),
                          by_day=(plan.limit,) if plan.n_boot > 0 else ())
    lim_share = time.share_ge[plan.limit - 1]
    uncapped = recommend(lim_share, grid, grid_idx, plan.max_share, has_time, in_range)
    supported = supported_targets(n_ev, grid, in_range)
    recommended = recommend(lim_share, grid, grid_idx, plan.max_share, has_time, supported)
    return Choice(n_ev=n_ev, n_ok=n_ok, rate=rate, ci_low=ci_low, ci_high=ci_high, p1=p1,
                  base=base, base_prob=prob, floor=floor, p5=p5, p10=p10, p50=p50,
                  lo_t=lo_t, grid=grid, cands=cands, grid_idx=grid_idx, in_range=in_range,
                  supported=supported,
                  levels=levels, time=time, lim_share=lim_share, uncapped=uncapped,
                  recommended=recommended)


def limit_share_silent(srt: Sorted, rolling: Rolling, c: Choice, current: np.ndarray,
                       plan: Plan) -> np.ndarray:
    """Per group, the share of its evaluated time at the limit status or worse under its
    ``current`` target while the window was held over a silence (it holds only events from
    before a gap longer than the window, or before the log's end that far after the group's
    last event: :func:`~budgetlab.analyses.window_silence.held_over_silence`, the rule of
    ``compare_windows``): the part of ``current_share_limit`` that rests on no new event. NaN
    where the group has no current target or no evaluated time."""
    clock, n_c = rolling.clock, len(c.cands)
    spec = WindowSpec(label="", kind="rolling", window_ns=plan.slo.window_ns)
    over = held_over_silence(srt, spec, "UTC", clock, plan.log_times(srt.t)[1])
    given = np.isfinite(current)
    cur_idx = np.searchsorted(c.cands, np.where(given, current, 0.5))[clock.seg]
    at_limit = (c.levels[plan.limit - 1] <= cur_idx) if n_c else np.zeros(len(over), bool)
    held = np.bincount(clock.seg, weights=np.where(over & at_limit, rolling.dt, 0.0),
                       minlength=len(current))
    return np.where(given, ratio(held, rolling.w_group), np.nan)
