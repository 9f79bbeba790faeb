"""Step 8 of :func:`~budgetlab.analyses.recalibration.recalibrate`: which targets the candidates
table lists per group, and their status changes and pages per day under each."""

from __future__ import annotations

from dataclasses import fields, replace

import numpy as np

from ..._util.progress import progress
from ..._util.ratios import ratio
from ..._util.units import DAY_NS, MINUTE_NS
from ...alerts.firing import series_firing_runs
from ...alerts.policy import AlertPolicy
from ...alerts.tier import PAGE_SEVERITIES
from ...windows import event_cells
from ...windows.bingrid import BinGrid, ranges
from ..sorted_events import Sorted
from .candidates import USUAL_TARGETS
from .clock import ClockCounts, counted_changes
from .page_bins import KeptBins, kept_bins
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
                        show_progress: bool | None = None,
                        shown: np.ndarray | None = None) -> np.ndarray:
    """``(groups, len(sidx))``: status changes per evaluated day under the candidates at positions
    ``sidx``, on the window's clock: a change between two clock segments of one traffic stretch
    (the first segment of a stretch against HEALTHY, as at the start of the log; a status held
    for one instant is none: :func:`~.clock.counted_changes`), counted when the later segment
    starts in the evaluated span. Entering and leaving *no traffic* is not counted. With
    ``shown`` (``(groups, len(sidx))``, :func:`display_targets`), only the pairs the candidates
    table lists are counted (the others are 0): each target's pass reads only the segments of
    the groups that list it."""
    c = rolling.clock
    g_n, seg = len(rolling.w_group), c.seg
    tr_day = np.zeros((g_n, len(sidx)))
    days_g = rolling.w_group / DAY_NS
    n_seg = np.diff(c.bounds)
    for j, cand in enumerate(progress(sidx.tolist(), desc="transitions per target",
                                      enabled=show_progress)):
        part, rows = c, np.arange(len(seg))
        if shown is not None and not shown[:, j].all():
            rows = ranges(c.bounds[:-1][shown[:, j]], n_seg[shown[:, j]])
            part = _segments_of(c, rows)
        code = (
            (levels[0][rows] <= cand).view(np.int8)
            + (levels[1][rows] <= cand).view(np.int8)
            + (levels[2][rows] <= cand).view(np.int8)
        )
        changed = rows[counted_changes(part, code)[0]]
        n_tr = np.bincount(seg[changed[rolling.seg_counted[changed]]], minlength=g_n)
        tr_day[:, j] = ratio(n_tr, days_g, 0.0)
    return tr_day


def _segments_of(c: ClockCounts, rows: np.ndarray) -> ClockCounts:
    """The clock's segments at ``rows`` only (those of whole groups: each keeps its stretches,
    its first segment a stretch's first), every field cut alike."""
    cut = {f.name: getattr(c, f.name)[rows] for f in fields(c) if f.name != "bounds"}
    return replace(c, **cut, bounds=np.searchsorted(cut["seg"], np.arange(len(c.bounds))))


#: Values per kept bin that the pass of one target holds at once (its series, the tiers'
#: conditions and firing counts), for the size of the chunks of groups :func:`page_counts` works
#: through within :data:`_CHUNK_BYTES` (at least one group a chunk). The name is that of the dense
#: ``(groups, bins)`` arrays it once sized.
_DENSE_PER_BIN = 24
_CHUNK_BYTES = 256 * 2**20


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
    # its first bin are those of the full grid. A long silence costs nothing, nor a thin group.
    pad = max(k_for + k_cool for k_for, k_cool in steps) + 2
    kept = kept_bins(grid, sub, rolling, 1 - float(np.max(cand_values)), pad)
    lengths = np.diff(kept.offsets)
    for c, target in enumerate(progress(cand_values.tolist(), desc="pages per target",
                                        enabled=show)):
        groups = np.flatnonzero(shown[:, c] & (lengths > 0))  # the groups that list this target
        for part in _chunks(lengths[groups]):
            g = groups[part]
            out[g, c] = _group_pages(kept, g, lengths[g], sub, steps, 1 - target)
    return out


def _chunks(lengths: np.ndarray) -> list[slice]:
    """Consecutive slices of groups (``lengths`` kept bins each) whose bins hold at most
    :data:`_CHUNK_BYTES` in the pass of one target, one group at least."""
    cap = _CHUNK_BYTES // (8 * _DENSE_PER_BIN)
    cum = np.cumsum(lengths)
    out, a = [], 0
    while a < len(lengths):
        before = int(cum[a - 1]) if a else 0
        b = max(a + 1, int(np.searchsorted(cum, before + cap, side="right")))
        out.append(slice(a, b))
        a = b
    return out


def _group_pages(kept: KeptBins, groups: np.ndarray, lengths: np.ndarray, sub: AlertPolicy,
                 steps: list[tuple[int, int]], budget: float) -> np.ndarray:
    """Page notifications of each of ``groups`` (``lengths`` kept bins each) under ``budget``:
    the rises of the OR of the tiers' firing runs on its kept bins, in its evaluated span (every
    group's series laid end to end; runs and episodes stay inside their group's)."""
    pos = ranges(kept.offsets[groups], lengths)
    offs = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int64)
    m = len(pos)
    delta = np.zeros(m + 1, dtype=np.int64)
    for tier, err, (k_for, k_cool) in zip(sub.tiers, kept.ratios, steps, strict=True):
        _, first, stop, _ = series_firing_runs(err[pos] > tier.burn * budget, offs, k_for,
                                               k_cool)
        delta += np.bincount(first, minlength=m + 1) - np.bincount(stop, minlength=m + 1)
    # every episode stops by its group's end: the running sum is back at 0 at each group's start
    firing = np.cumsum(delta[:-1]) > 0
    rise = firing.copy()
    rise[1:] &= ~firing[:-1]
    rise[offs[:-1]] = firing[offs[:-1]]  # a group's first bin has no bin before it
    member = np.repeat(np.arange(len(groups)), lengths)
    return np.bincount(member[rise & kept.in_span[pos]], minlength=len(groups))


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
