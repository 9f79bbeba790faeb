"""Step 1-2 of :func:`~budgetlab.analyses.recalibration.recalibrate`: the window's clock
(:mod:`.clock`), the evaluated time (with traffic, after warm-up, outside excluded incidents) per
segment and day block, the time-weighted quantiles of the rolling success rate, and the events in
that span.

Per-event arrays are in the order of :func:`budgetlab.analyses.sorted_events.sort_events` (each
group's rows together, time order kept); per-segment arrays in the clock's order (group, then
time); per-group arrays hold one value per group.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..._util.ratios import ratio
from ..._util.units import DAY_NS
from ..sorted_events import Sorted
from .clock import ClockCounts, clock_counts, evaluated_events, evaluated_time, split_days

__all__ = ["history_counts", "Rolling", "rolling_rates", "rate_quantiles", "Exclusions",
           "weighted_quantiles"]


def history_counts(srt: Sorted, rolling: Rolling) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(events, successes, success_rate)`` per group of the events in the evaluated span
    (:attr:`Rolling.counted`); rate NaN for a group without any."""
    seg, g_n = srt.seg, srt.n_groups
    n_ev = np.bincount(seg[rolling.counted], minlength=g_n)
    n_ok = np.bincount(seg[rolling.counted & ~srt.bad], minlength=g_n)
    return n_ev, n_ok, ratio(n_ok, n_ev)


@dataclass(frozen=True)
class Rolling:
    """:func:`rolling_rates`: the window's clock (its counts between every two instants they
    change, :func:`~budgetlab.analyses.recalibration.clock.clock_counts`) and the evaluated time.

    The evaluated span of a group is its time with traffic after warm-up inside
    ``[span_lo, span_hi)``, less the excluded incident time; ``pieces`` cut it at the day blocks."""

    clock: ClockCounts
    # evaluated part [eval_from, eval_to) of each clock segment (incidents not cut out)
    eval_from: np.ndarray
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
    quant = rate_quantiles(clock, dt, probs)
    return Rolling(clock=clock, eval_from=a, eval_to=b, dt=dt, w_group=w_group, piece_row=row,
                   piece_day=np.minimum(day, n_days - 1),
                   piece_ns=ns, n_days=n_days, seg_counted=seg_in, counted=counted, quantiles=quant)


def rate_quantiles(clock: ClockCounts, dt: np.ndarray, probs: np.ndarray) -> np.ndarray:
    """``(groups, probs)``: per group, the time-weighted ``probs`` quantiles
    (:func:`weighted_quantiles`) of the rolling success rate of its clock segments, each weighing
    its evaluated ns ``dt``; NaN for a group without evaluated time."""
    roll = (clock.total - clock.failures) / clock.total.astype(np.float64)
    n_groups = len(clock.bounds) - 1
    quant = np.full((n_groups, len(probs)), np.nan)
    for g in range(n_groups):
        s, e = int(clock.bounds[g]), int(clock.bounds[g + 1])
        quant[g] = weighted_quantiles(roll[s:e], dt[s:e], probs)
    return quant


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
        for g, a, b in zip(group[order].tolist(), start[order].tolist(), end[order].tolist(),
                           strict=True):
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
        for g, a, b in zip(self.group.tolist(), self.start.tolist(), self.end.tolist(),
                           strict=True):
            out += np.where(group == g, np.maximum(np.minimum(hi, b) - np.maximum(lo, a), 0), 0)
        return out

    def covers(self, group: np.ndarray, t: np.ndarray) -> np.ndarray:
        """Whether each instant ``t`` (in ``group``) lies in an excluded interval."""
        out = np.zeros(len(t), dtype=bool)
        for g, a, b in zip(self.group.tolist(), self.start.tolist(), self.end.tolist(),
                           strict=True):
            out |= (group == g) & (t >= a) & (t < b)
        return out


def weighted_quantiles(values: np.ndarray, weights: np.ndarray, probs: np.ndarray) -> np.ndarray:
    """Inverted-CDF quantiles: the smallest value whose cumulative weight reaches ``p`` x total.

    >>> weighted_quantiles(np.array([0.9, 0.8, 1.0]), np.array([1.0, 1.0, 2.0]), np.array([0.25,
    ...                                                                                    0.5,
    ...                                                                                    1.0]))
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
