"""Step 3 of :func:`~budgetlab.analyses.recalibration.recalibrate`: the candidate targets, on the
scale of nines (:data:`USUAL_TARGETS`) with fine steps between them. ``cands`` is the sorted array
of every candidate target, ``grid`` the targets the rule chooses from (``cands[grid_idx] == grid``).
"""

from __future__ import annotations

import numpy as np

__all__ = ["USUAL_TARGETS", "fine_step", "target_grid", "target_range", "candidate_targets"]


#: The usual SLO targets, on the scale of nines; below 90 % the scale continues 85, 80, 75 and
#: 50 % for groups whose history sits there.
USUAL_TARGETS: tuple[float, ...] = (0.5, 0.75, 0.8, 0.85, 0.9, 0.95, 0.975, 0.99, 0.995, 0.999,
                                    0.9995, 0.9999)
_NICE = (5, 2, 1)


def fine_step(step: float, gap: float) -> float:
    """The fine step between two neighbouring usual targets ``gap`` apart: ``step`` when at least
    four fit, else the largest 5, 2 or 1 x 10^-k that does (so 0.99-0.995 is split in 0.001).

    >>> fine_step(0.005, 0.05), fine_step(0.005, 0.005), fine_step(0.005, 0.0005), fine_step(0.005,
    ...                                                                                      0.015)
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


def target_range(floor: np.ndarray, rate: np.ndarray, *,
                 held: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Per group, the range of candidate targets: from the usual target strictly below ``floor``
    (the lowest usual target when none is) to the first usual target above the observed rate
    (the highest usual target when none is above); NaN where ``floor`` or the rate is missing (no
    evaluated time). ``floor`` is the target from which a window at the rolling success rate's
    1 % quantile (``max_share``'s where that is smaller) is at the limit status or worse
    (:func:`~budgetlab.analyses.recalibration.levels.limit_floor`): the quantile itself at
    exhausted, lower at critical and warning. A usual target within 1e-9 of ``floor`` is not the
    range's start: a window at the quantile is at the limit status there or, at the boundary,
    the seed's float arithmetic decides (a 54 / 60 window is EXHAUSTED at 0.9, WARNING at 0.8:
    its remaining fraction 0.4999999999999998), so it may fail the rule while the fine steps
    below it pass (0.895 when the quantile is 0.9). A lower range only adds candidates, never
    changes whether one meets the rule.

    With the ``min_events`` hold (``held``) the status is no function of the rolling rate (a
    window with fewer events keeps its previous status), so the rate's quantile bounds nothing:
    the range starts at the lowest usual target.

    >>> lo, hi = target_range(np.array([0.9312, 0.2, 1.0]), np.array([0.94, 0.5, 1.0]))
    >>> lo.tolist(), hi.tolist()
    ([0.9, 0.5, 0.9999], [0.95, 0.75, 0.9999])
    >>> target_range(np.array([0.9312]), np.array([0.94]), held=True)[0].tolist()
    [0.5]
    >>> target_range(np.array([0.8, 0.9]), np.array([0.94, 0.94]))[0].tolist()
    [0.75, 0.85]
    """
    usual = np.asarray(USUAL_TARGETS)
    floor = np.asarray(floor, dtype=np.float64)
    rate = np.asarray(rate, dtype=np.float64)
    below = np.searchsorted(usual, floor - 1e-9, side="right") - 1  # the last usual < floor
    above = np.searchsorted(usual, rate, side="right")  # the first usual > rate
    lo = usual[0] if held else usual[np.maximum(below, 0)]
    hi = np.maximum(usual[np.minimum(above, len(usual) - 1)], lo)
    ok = np.isfinite(floor) & np.isfinite(rate)
    return np.where(ok, lo, np.nan), np.where(ok, hi, np.nan)


def candidate_targets(step: float, lo: np.ndarray, hi: np.ndarray, current: np.ndarray,
                      requested: np.ndarray | None) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                             np.ndarray]:
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
    grid = target_grid(step, float(np.min(lo[ok])),
                       float(np.max(hi[ok]))) if ok.any() else np.zeros(0)
    extra = [current[np.isfinite(current)]]
    if requested is not None:
        extra.append(requested)
    cands = np.unique(np.concatenate([grid, *extra]))
    in_range = (grid[None, :] >= lo[:, None] - 1e-12) & (grid[None, :] <= hi[:, None] + 1e-12)
    return grid, cands, np.searchsorted(cands, grid), in_range
