"""Step 8 of :func:`~budgetlab.analyses.recalibration.recalibrate`: which targets the candidates
table lists per group, and their status changes and pages per day under each."""

from __future__ import annotations

import numpy as np

from ..._util.progress import progress
from ..._util.ratios import ratio
from ..._util.units import DAY_NS, MINUTE_NS
from ...alerts.firing import firing_runs, tier_conditions
from ...alerts.policy import AlertPolicy
from ...alerts.tier import PAGE_SEVERITIES
from ...windows import event_cells
from ...windows.bingrid import BinGrid
from ..sorted_events import Sorted
from .candidates import USUAL_TARGETS
from .clock import counted_changes
from .rolling import Rolling

__all__ = ["display_targets", "transitions_per_day", "page_counts"]


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


#: Dense values per group and bin that :func:`tier_conditions` holds at once (the grid's counts,
#: a rolling ratio per window, and each tier's condition and two burn rates), for the size of the
#: chunks of groups :func:`page_counts` works through.
_DENSE_PER_BIN = 24


def page_counts(srt: Sorted, policy: AlertPolicy, rolling: Rolling, cand_values: np.ndarray,
                shown: np.ndarray, show: bool | None, log_times: tuple[int, int]) -> np.ndarray:
    """Page notifications per group and candidate target whose first firing evaluation lies in
    the group's evaluated span (its time with traffic after warm-up, :class:`Rolling`): episodes
    of the page tiers, OR-ed per group (touching episodes are one notification, as
    :func:`budgetlab.score_alerts` merges them). Only the pairs the candidates table lists
    (``shown``, ``(groups, targets)``, :func:`display_targets`) are counted; the others are 0.
    The bins span ``log_times`` (the log's first and last event,
    :meth:`~.options.Plan.log_times`)."""
    grid = _bin_grid(srt, policy, log_times)
    g_n, freq = grid.n_groups, grid.freq_ns
    tiers = [t for t in policy.tiers if t.severity in PAGE_SEVERITIES] or list(policy.tiers)
    sub = AlertPolicy(tuple(tiers), period=policy.period)
    steps = [(-(-int(t.for_.value) // freq), -(-int(t.cooldown.value) // freq)) for t in sub.tiers]
    out = np.zeros((g_n, len(cand_values)), dtype=np.int64)
    if not len(cand_values):
        return out
    # Bins where no tier's condition holds under any candidate (the lowest threshold is that of
    # the highest target) can never start or extend an episode beyond its cooldown: each group's
    # bins are cut down to those within ``pad`` bins of one that can, which leaves at least ``pad``
    # bins that cannot between two such stretches (pad > for + cooldown), so every episode and
    # its first bin are those of the full grid. A long silence costs nothing.
    pad = max(k_for + k_cool for k_for, k_cool in steps) + 2
    kept = _kept_bins(grid, sub, rolling, 1 - float(np.max(cand_values)), pad)
    for c, target in enumerate(progress(cand_values.tolist(), desc="pages per target",
                                        enabled=show)):
        budget = 1 - target
        for g in np.flatnonzero(shown[:, c]).tolist():  # the groups that list this target
            idx, g_ratios, g_span = kept[g]
            if not len(idx):
                continue
            delta = np.zeros(len(idx) + 1, dtype=np.int64)
            for tier, err, (k_for, k_cool) in zip(sub.tiers, g_ratios, steps, strict=True):
                first, stop, _ = firing_runs(err > tier.burn * budget, k_for, k_cool)
                np.add.at(delta, first, 1)
                np.add.at(delta, stop, -1)
            firing = np.cumsum(delta[:-1]) > 0
            rise = firing.copy()
            rise[1:] &= ~firing[:-1]
            out[g, c] = int(np.count_nonzero(rise & g_span))
    return out


def _kept_bins(grid: BinGrid, sub: AlertPolicy, rolling: Rolling, low: float,
               pad: int) -> list[tuple[np.ndarray, list[np.ndarray], np.ndarray]]:
    """Per group: its bins within ``pad`` of one where a tier's condition holds at the budget
    ``low`` (that of the highest candidate), each tier's error ratio there and whether each lies
    in the evaluated span. The dense ``(groups, bins)`` arrays are made a chunk of groups at a
    time (:meth:`~budgetlab.windows.bingrid.BinGrid.chunks`): a run over thousands of groups at
    minute bins would otherwise hold gigabytes; every value is that of the whole grid (all of it
    is computed row by row)."""
    n_bins = grid.n_bins
    ends = grid.bin_end_ns
    lo_i = np.clip(np.arange(n_bins) - pad, 0, n_bins)
    hi_i = np.clip(np.arange(n_bins) + pad + 1, 0, n_bins)
    kept = []
    for g0, g1 in grid.chunks(_DENSE_PER_BIN):
        part = grid.select(np.arange(g0, g1))
        in_span = _in_evaluated(rolling, ends, g0, g1)
        # The windows' error ratios do not depend on the target: with a budget of 1 the "burn
        # rates" tier_conditions returns are the error ratios themselves; a tier's condition
        # under target T is then ratio_long > burn * (1 - T) and ratio_short > burn * (1 - T),
        # as tier_conditions computes it (same float operations).
        ratios = [np.minimum(bl, bs) for _, bl, bs in tier_conditions(part, np.ones(g1 - g0),
                                                                       sub)]
        for g in range(g1 - g0):
            active = np.zeros(n_bins, dtype=bool)
            for tier, err in zip(sub.tiers, ratios, strict=True):
                active |= err[g] > tier.burn * low
            near = np.cumsum(np.r_[0, active].astype(np.int64))
            idx = np.flatnonzero(near[hi_i] - near[lo_i] > 0)
            kept.append((idx, [err[g][idx] for err in ratios], in_span[g][idx]))
    return kept


def _in_evaluated(rolling: Rolling, times: np.ndarray, g0: int, g1: int) -> np.ndarray:
    """``(g1 - g0, len(times))``: whether each instant lies in the evaluated time of each group
    ``g0 <= g < g1``."""
    c = rolling.clock
    out = np.zeros((g1 - g0, len(times)), dtype=bool)
    for g in range(g0, g1):
        s, e = int(c.bounds[g]), int(c.bounds[g + 1])
        a, b = rolling.eval_from[s:e], rolling.eval_to[s:e]
        keep = b > a
        a, b = a[keep], b[keep]
        if len(a):
            k = np.searchsorted(a, times, side="right") - 1
            out[g - g0] = (k >= 0) & (times < b[np.maximum(k, 0)])
    return out


def _bin_grid(srt: Sorted, policy: AlertPolicy, log_times: tuple[int, int]) -> BinGrid:
    """The sorted events binned at the gcd of the policy's windows and a minute, from the bin of
    the log's first event to that of its last (``log_times``)."""
    wins = [int(w.value) for w in policy.windows]
    freq = int(np.gcd.reduce(np.array([*wins, MINUTE_NS], dtype=np.int64)))
    start = (log_times[0] // freq) * freq
    n_bins = int((log_times[1] - start) // freq) + 1
    group, b, total, bad, _ = event_cells(srt.seg, srt.t, srt.bad, np.zeros(len(srt.t),
                                                                            dtype=np.int64),
                                          srt.n_groups, 1,
                                          first_bin=start, freq_ns=freq)
    return BinGrid(srt.keys, list(srt.by), start, freq, n_bins, group, b, total, bad)
