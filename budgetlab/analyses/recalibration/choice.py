"""Steps 2-5 of :func:`~budgetlab.analyses.recalibration.recalibrate` put together: from the
rolling rate to the recommended target of every group (:func:`choose_targets`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..sorted_events import Sorted
from .candidates import candidate_targets, target_range
from .levels import TimeAtLevels, candidate_levels, recommend, time_at_levels
from .options import Plan
from .rolling import Rolling, history_counts
from .rules import supported_targets, widen_to_support
from .wilson import wilson_interval

__all__ = ["Choice", "choose_targets"]


@dataclass(frozen=True)
class Choice:
    """:func:`choose_targets`: per group (``n_ev`` ... ``recommended``), and the candidates."""

    n_ev: np.ndarray  # events in the evaluated span
    n_ok: np.ndarray
    rate: np.ndarray
    ci_low: np.ndarray
    ci_high: np.ndarray
    p1: np.ndarray  # time-weighted quantiles of the rolling success rate
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
    lo_t, hi_t = target_range(p1, rate, held=plan.slo.min_events > 0)
    lo_t = widen_to_support(lo_t, n_ev)
    grid, cands, grid_idx, in_range = candidate_targets(plan.step, lo_t, hi_t, current,
                                                        plan.requested)
    levels = candidate_levels(rolling, cands, plan.slo)
    time = time_at_levels(rolling, levels, len(cands))
    lim_share = time.share_ge[plan.limit - 1]
    uncapped = recommend(lim_share, grid, grid_idx, plan.max_share, has_time, in_range)
    supported = supported_targets(n_ev, grid, in_range)
    recommended = recommend(lim_share, grid, grid_idx, plan.max_share, has_time, supported)
    return Choice(n_ev=n_ev, n_ok=n_ok, rate=rate, ci_low=ci_low, ci_high=ci_high, p1=p1, p5=p5,
                  p10=p10, p50=p50,
                  lo_t=lo_t, grid=grid, cands=cands, grid_idx=grid_idx, in_range=in_range,
                  supported=supported,
                  levels=levels, time=time, lim_share=lim_share, uncapped=uncapped,
                  recommended=recommended)
