"""Test-only oracle: budgetlab/budget/period.py as of commit 1989377 (the dense SRE path),
docstrings removed, imports made absolute. Never edit: it is what the sparse path must equal."""
# ruff: noqa
# mypy: ignore-errors
from __future__ import annotations
from dataclasses import dataclass
from typing import Any, Unpack
import numpy as np
import pandas as pd
from budgetlab._util.validation import check_argument, to_timedelta, utc_from_ns
from budgetlab.errors import ConfigError
from budgetlab.slo import SLO
from tests.alerts.oracle_bins import BinGrid, BinsLike, ReadBinsOptions, read_bins, window_bins
from budgetlab.windows.calendar import CALENDARS, calendar_period_starts
from tests.alerts.oracle_burn import (
    error_budgets,
    group_slos,
    ratio,
    rolling_sum,
    split_groups,
    target_array,
)
__all__ = ['period_budget']
_NAT_NS = np.iinfo(np.int64).min

def _segment_cumsum(x: np.ndarray, seg_first: np.ndarray) -> np.ndarray:
    c = np.cumsum(x, axis=1)
    zero = np.zeros((x.shape[0], 1), dtype=c.dtype)
    before = np.concatenate([zero, c], axis=1)[:, seg_first]
    return np.asarray(c - before)

@dataclass(frozen=True)
class _Periods:
    start_ns: np.ndarray
    new: np.ndarray
    seg_first: np.ndarray | None
    k_period: int

    def accumulate(self, x: np.ndarray) -> np.ndarray:
        if self.seg_first is not None:
            return _segment_cumsum(x, self.seg_first)
        return rolling_sum(x, self.k_period)

def _periods(grid: BinGrid, period: Any, calendar: str | None, tz: str) -> _Periods:
    n = grid.n_bins
    if calendar is not None:
        check_argument('calendar', calendar, CALENDARS)
        pstart = calendar_period_starts(grid.bin_start_ns, calendar, tz)
        new = np.ones(n, dtype=bool)
        new[1:] = pstart[1:] != pstart[:-1]
        seg_first = np.maximum.accumulate(np.where(new, np.arange(n), 0))
        return _Periods(pstart, new, seg_first, 0)
    p_ns = int(to_timedelta(period, name='period').value)
    k_period = window_bins(period, grid.freq_ns, name='period')
    new = np.zeros(n, dtype=bool)
    new[0] = True
    return _Periods(grid.bin_end_ns - p_ns, new, None, k_period)

def _slice_targets(slice_target: Any, grid: BinGrid) -> np.ndarray:
    if (
        isinstance(slice_target, bool)
        or not isinstance(slice_target, (int, float, np.integer, np.floating))
        or (not 0 < float(slice_target) <= 1)
    ):
        raise ConfigError('slice_target must lie in (0, 1] (e.g. 0.99).')
    return np.full((grid.n_groups, 1), float(slice_target))

def _burn_and_exhaustion(grid: BinGrid, budget: np.ndarray, remaining: np.ndarray,
                         k_burn: int) -> tuple[np.ndarray, np.ndarray]:
    n_w = rolling_sum(grid.total, k_burn)
    b_w = rolling_sum(grid.bad, k_burn)
    burn = ratio(b_w, n_w) / budget
    drain = b_w - budget * n_w
    tte_ns = np.full(remaining.shape, _NAT_NS, dtype=np.int64)
    draining = (drain > 0) & (burn > 1)
    with np.errstate(divide='ignore', invalid='ignore'):
        est = np.where(draining, remaining / np.where(draining, drain,
                                                      1.0) * (k_burn * grid.freq_ns), 0.0)
    finite = draining & (remaining > 0) & (est < 2.0 ** 62)
    tte_ns = np.where(finite, np.round(np.where(finite, est, 0.0)).astype(np.int64), tte_ns)
    return (burn, np.where(remaining <= 0, 0, tte_ns))

def _time_slices(grid: BinGrid, periods: _Periods, slice_ns: int,
                 s_target: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    slice_no = grid.bin_start_ns // slice_ns
    new_slice = periods.new.copy()
    new_slice[1:] |= slice_no[1:] != slice_no[:-1]
    ss = np.flatnonzero(new_slice)
    se = np.append(ss[1:] - 1, grid.n_bins - 1)
    s_tot = np.add.reduceat(grid.total, ss, axis=1)
    s_bad = np.add.reduceat(grid.bad, ss, axis=1)
    s_ratio = 1.0 - ratio(s_bad, s_tot)
    has = s_tot > 0
    placed_has = np.zeros_like(grid.total)
    placed_bad = np.zeros_like(grid.total)
    placed_ratio = np.zeros(grid.total.shape)
    placed_has[:, se] = has
    placed_bad[:, se] = has & (s_ratio < s_target)
    placed_ratio[:, se] = np.where(has, s_ratio, 0.0)
    slices = periods.accumulate(placed_has)
    ratio_sum = periods.accumulate(placed_ratio)
    ratio_mean = np.where(slices > 0, ratio_sum / np.maximum(slices, 1), 1.0)
    return (slices, periods.accumulate(placed_bad), ratio_mean)

def period_budget(bins: BinsLike, target: Any, *, period: Any=None, calendar: str | None=None,
                  tz: str='UTC', burn_window: Any='1h', slice_window: Any=None,
                  slice_target: float | None=None,
                  **options: Unpack[ReadBinsOptions]) -> pd.DataFrame:
    grid = read_bins(bins, **options)
    slos = group_slos(target, grid)
    targets = target_array(target, grid) if slos is None else np.array([s.target for s in slos],
                                                                       dtype=float)
    if (
        period is None
        and calendar is None
        and (slos is not None)
        and (len({s.period for s in slos}) > 1)
    ):
        parts = [(p, idx, _period_budget(grid.select(idx), targets[idx], period=p, calendar=None,
                                         tz=tz, burn_window=burn_window, slice_window=slice_window,
                                         slice_target=slice_target)) for p,
                 idx in split_groups([s.period for s in slos])]
        return _in_group_order(parts, grid.n_groups, grid.n_bins)
    if period is None:
        period = target.period if isinstance(target, SLO) else slos[0].period if slos else '30D'
    return _period_budget(grid, targets, period=period, calendar=calendar, tz=tz,
                          burn_window=burn_window, slice_window=slice_window,
                          slice_target=slice_target)

def _in_group_order(parts: list[tuple[Any, np.ndarray, pd.DataFrame]], n_groups: int,
                    n_bins: int) -> pd.DataFrame:
    table = pd.concat([t for _, _, t in parts], ignore_index=True)
    groups = np.concatenate([idx for _, idx, _ in parts])
    where = np.empty(n_groups, dtype=np.int64)
    where[groups] = np.arange(n_groups)
    rows = (where[:, None] * n_bins + np.arange(n_bins)[None, :]).ravel()
    return table.iloc[rows].reset_index(drop=True)

def _period_budget(grid: BinGrid, targets: np.ndarray, *, period: Any, calendar: str | None,
                   tz: str, burn_window: Any, slice_window: Any,
                   slice_target: float | None) -> pd.DataFrame:
    budget = error_budgets(targets, grid)[:, None]
    s_target = targets[:, None] if slice_target is None else _slice_targets(slice_target, grid)
    f = grid.freq_ns
    k_burn = window_bins(burn_window, f, name='burn_window')
    slice_ns = f * window_bins(slice_window, f,
                               name='slice_window') if slice_window is not None else f
    periods = _periods(grid, period, calendar, tz)
    events = periods.accumulate(grid.total)
    bad = periods.accumulate(grid.bad)
    budget_total = budget * events
    remaining = budget_total - bad
    burn, tte_ns = _burn_and_exhaustion(grid, budget, remaining, k_burn)
    slices, bad_slices, ratio_mean = _time_slices(grid, periods, slice_ns, s_target)
    out = grid.long_keys(grid.n_bins)
    out['bin_end'] = utc_from_ns(np.tile(grid.bin_end_ns, grid.n_groups))
    out['period_start'] = utc_from_ns(np.tile(periods.start_ns, grid.n_groups))
    out['events'] = events.ravel()
    out['bad'] = bad.ravel()
    out['budget_total'] = budget_total.ravel()
    out['budget_remaining'] = remaining.ravel()
    out['consumed_fraction'] = ratio(bad, budget_total).ravel()
    out['sli'] = (1.0 - ratio(bad, events)).ravel()
    out['burn_rate'] = burn.ravel()
    out['time_to_exhaustion'] = pd.to_timedelta(tte_ns.ravel().view('timedelta64[ns]'))
    out['slices'] = slices.ravel()
    out['bad_slices'] = bad_slices.ravel()
    out['sli_timeslices'] = (1.0 - ratio(bad_slices, slices)).ravel()
    out['slice_budget_remaining'] = (budget * slices - bad_slices).ravel()
    out['sli_ratio_mean'] = np.clip(ratio_mean, 0.0, 1.0).ravel()
    return out
