"""Step 8 of :func:`~budgetlab.analyses.recalibration.recalibrate`: which targets the candidates
table lists per group, and their status changes per day (pages per day: :mod:`.pages`).
"""

from __future__ import annotations

import numpy as np

from ..._util.progress import progress
from ..._util.ratios import ratio
from ..._util.units import DAY_NS
from .candidates import USUAL_TARGETS
from .clock import counted_changes
from .rolling import Rolling

__all__ = ["display_targets", "transitions_per_day"]


def display_targets(grid: np.ndarray, in_range: np.ndarray, requested: np.ndarray | None,
                    current: np.ndarray,
                    recommended: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(targets, shown)``: the targets of the candidates table (sorted) and, per group, which of
    them it lists (``(groups, targets)``): the usual targets in the group's range, the fine steps
    between the usual targets around its recommendation, its current and recommended targets; with
    ``requested``, those instead of the grid. Nothing below the group's range but its current
    target."""
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
    targets = np.unique(np.concatenate([base, current[np.isfinite(current)],
                                        recommended[np.isfinite(recommended)]]))
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
    (the first segment of a stretch against HEALTHY, as at the start of the log; a status held
    for one instant is none: :func:`~.clock.counted_changes`), counted when the later segment
    starts in the evaluated span. Entering and leaving *no traffic* is not counted."""
    g_n, seg = len(rolling.w_group), rolling.clock.seg
    tr_day = np.zeros((g_n, len(sidx)))
    days_g = rolling.w_group / DAY_NS
    for j, c in enumerate(progress(sidx.tolist(), desc="transitions per target",
                                   enabled=show_progress)):
        code = (
            (levels[0] <= c).view(np.int8)
            + (levels[1] <= c).view(np.int8)
            + (levels[2] <= c).view(np.int8)
        )
        rows, _ = counted_changes(rolling.clock, code)
        n_tr = np.bincount(seg[rows[rolling.seg_counted[rows]]], minlength=g_n)
        tr_day[:, j] = ratio(n_tr, days_g, 0.0)
    return tr_day
