"""Period error budgets: events-weighted (the SRE Workbook's) and time-slice (OpenSLO
``Timeslices``).

**Events-weighted.** At every bin end ``t`` the budget is ``(1 - target) * events`` where
``events`` counts the events of the current period so far (a rolling ``period`` ending at ``t``:
bins with start in ``[t - period, t)``; or a calendar day / week (Monday) / month that starts at
local midnight in ``tz``, DST-aware). ``consumed`` is the number of failures in the same span.

**Time slices.** The period is cut into slices of ``slice_window`` (aligned on the Unix epoch
and cut at period starts); a slice with traffic is good when its success ratio is
``>= slice_target``. The time-slice SLI is good slices / slices with traffic; a slice counts from
its last bin on. Slices without traffic are neither good nor bad. ``sli_ratio_mean`` is the
plain mean of the per-slice success ratios, the "average of ratios" that tools such as Sloth's
30-day SLI use: under uneven traffic it differs from the events-weighted SLI (a quiet bad
hour weighs as much as a busy good one), which is why both are shown side by side.

**Burn rate.** ``burn_rate`` is the error ratio of the last ``burn_window`` over ``1 - target``;
a window without events has no error ratio: ``burn_rate`` is NaN there and ``no_traffic`` True
(the word :func:`~budgetlab.budget.burn.burn_rates` uses), never a clean hour's 0.

**Time to exhaustion.** With remaining budget ``R = budget_total - bad`` and the last
``burn_window`` holding ``n`` events and ``b`` failures, the remaining budget shrinks by
``b - (1 - target) * n`` per ``burn_window`` (new events add budget too). If that drain is
positive, ``time_to_exhaustion = R / drain * burn_window`` (``0`` when ``R`` is exactly 0: the
next failure overspends). ``0`` also when the budget is already spent: overspent (``R < 0``), or
spent to the last event (``R = 0`` after at least one failure in the period), whatever the pace.
``NaT`` (documented: *not within the period at this pace*) otherwise: when the drain is not
positive (the current burn rate is at most 1, or the window is empty) and the budget is not
spent, which includes a period with no events so far (budget 0, nothing spent: ``R = 0``, not
exhausted); and when the estimate reaches the period's end or beyond, which
``exhaustion_past_period`` marks. A calendar period resets at its end, so a budget that would
last past it is not exhausted in this period. A rolling period never resets, but the estimate
ignores events leaving the period; by one period's length from the bin end every event now in
the period has left it, so an estimate that long is not a time: NaT too (at a pace that holds
for a whole period with a burn rate above 1, a rolling budget runs out within that period, the
estimate cannot say when). Shorter estimates still ignore the events leaving a rolling period.
"""

from __future__ import annotations

from typing import Any, Unpack

import numpy as np
import pandas as pd

from .._util.durations import duration_label
from .._util.memory import check_cells
from .._util.ratios import ratio
from .._util.validation import check_tz, to_timedelta, utc_from_ns
from ..errors import ConfigError
from ..slo import SLO
from ..windows.bingrid import BinGrid
from ..windows.bins import BinsLike, ReadBinsOptions, read_bins, window_bins
from .burn import error_budgets, group_slos, rolling_sum, split_groups, target_array
from .grid_attrs import grid_attrs
from .period_edges import Periods, observed_share, periods_of, warn_partial

__all__ = ["period_budget"]

_NAT_NS = np.iinfo(np.int64).min


def _slice_targets(slice_target: Any, grid: BinGrid) -> np.ndarray:
    """The success ratio a slice needs (given apart from the target), as a ``(groups, 1)``
    column."""
    if isinstance(slice_target, bool) or not isinstance(slice_target, (int, float, np.integer,
                                                                       np.floating)) \
            or not (0 < float(slice_target) <= 1):
        raise ConfigError("slice_target must lie in (0, 1] (e.g. 0.99).")
    return np.full((grid.n_groups, 1), float(slice_target))


def _burn_and_exhaustion(grid: BinGrid, budget: np.ndarray, remaining: np.ndarray,
                         bad: np.ndarray, k_burn: int,
                         left_ns: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(burn, tte_ns, past_end)``: the burn rate over the last ``k_burn`` bins (NaN where they
    hold no event), the time to exhaustion in ns (NaT: not within the period at this pace; 0:
    spent, see the module doc) and where the pace's estimate reaches ``left_ns`` (the time left
    to the period's end, per bin) or beyond, withheld as NaT."""
    n_w = rolling_sum(grid.total, k_burn)
    b_w = rolling_sum(grid.bad, k_burn)
    burn = ratio(b_w, n_w, np.nan) / budget
    drain = b_w - budget * n_w
    tte_ns = np.full(remaining.shape, _NAT_NS, dtype=np.int64)
    draining = (drain > 0) & (burn > 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        est = np.where(draining, remaining / np.where(draining, drain,
                                                      1.0) * (k_burn * grid.freq_ns), 0.0)
    # spent: overspent, or spent to the last event by a failure; a period without events (budget
    # 0, nothing spent) is not, and reads NaT unless the window drains (the formula's 0)
    spent = (remaining < 0) | ((remaining == 0) & (bad > 0))
    # beyond ~146 years: not at this pace (a burn of 1 read as 1 + 2e-16 drains by float noise)
    draining &= est < 2.0**62
    past_end = draining & ~spent & (est >= left_ns[None, :])
    finite = draining & (remaining >= 0) & ~past_end
    tte_ns = np.where(finite, np.round(np.where(finite, est, 0.0)).astype(np.int64), tte_ns)
    return burn, np.where(spent, 0, tte_ns), past_end


def _time_slices(grid: BinGrid, periods: Periods, slice_ns: int,
                 s_target: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(slices, bad_slices, ratio_mean)`` so far in the period; slices are cut at slice
    boundaries (epoch-aligned) and at period starts, and count from their last bin on."""
    slice_no = grid.bin_start_ns // slice_ns
    new_slice = periods.new.copy()
    new_slice[1:] |= slice_no[1:] != slice_no[:-1]
    ss = np.flatnonzero(new_slice)
    se = np.append(ss[1:] - 1, grid.n_bins - 1)
    s_tot = np.add.reduceat(grid.total, ss, axis=1)
    s_bad = np.add.reduceat(grid.bad, ss, axis=1)
    s_ratio = 1.0 - ratio(s_bad, s_tot, 0.0)
    has = s_tot > 0
    placed_has = np.zeros_like(grid.total)
    placed_bad = np.zeros_like(grid.total)
    placed_ratio = np.zeros(grid.total.shape)
    placed_has[:, se] = has
    placed_bad[:, se] = has & (s_ratio < s_target)
    placed_ratio[:, se] = np.where(has, s_ratio, 0.0)
    slices = periods.accumulate(placed_has)
    ratio_sum = periods.accumulate(placed_ratio)
    ratio_mean = ratio(ratio_sum, slices, 1.0)
    return slices, periods.accumulate(placed_bad), ratio_mean


def period_budget(bins: BinsLike, target: Any, *, period: Any = None, calendar: str | None = None,
                  tz: str = "UTC", burn_window: Any = "1h", slice_window: Any = None,
                  slice_target: float | None = None, warn: bool = True,
                  **options: Unpack[ReadBinsOptions]) -> pd.DataFrame:
    """Error budget over a compliance period at every bin end, events-weighted and time-slice.

    Parameters
    ----------
    bins : DataFrame or BinGrid
        Bins table (:func:`budgetlab.bin_events`), or the grid
        :func:`~budgetlab.windows.bins.read_bins` made of it.
    target : float, SLO, DataFrame, PerGroup or mapping
        Success-rate target: per group with a table or per-group SLOs (a
        :class:`~budgetlab.PerGroup` or ``{group key: SLO or target}``; see
        :func:`budgetlab.budget.burn.target_array`). Per-group results equal each group's run
        with its own SLO exactly.
    period : duration, optional
        Rolling period (``"30D"``, ``"28D"``, ``"7D"``); ignored when ``calendar`` is given.
        Default: the SLO's ``period`` (with per-group SLOs each group's own, groups with
        different periods computed apart), 30 days for a bare target or a target table.
    calendar : {"day", "week", "month"}, optional
        Calendar periods that reset at local midnight in ``tz`` (weeks on Monday); bins that
        hold a local midnight (the bins of ``freq`` do not divide the zone's UTC offset) are
        refused. A period that began before the first bin (a rolling one in the bins' first
        ``period``, a calendar one when the first bin starts after its start) is partial: its rows
        have ``period_observed`` below 1 and a
        :class:`~budgetlab.errors.PartialWindowWarning` says which rows.
    tz : str
        IANA time zone for calendar periods (and the partial-period warning's clock); an unknown
        name is refused (:class:`~budgetlab.errors.ConfigError`).
    burn_window : duration
        Window of the current burn rate used for ``time_to_exhaustion`` (default 1 h).
    slice_window : duration, optional
        Time-slice length (default: the bin width); a whole number of bins.
    slice_target : float, optional
        Success ratio a slice needs to be good (default: ``target``).
    warn : bool
        ``False``: no :class:`~budgetlab.errors.PartialWindowWarning` of partial periods (for a
        caller that says them in its own words from ``period_observed``).
    **options
        ``freq``, ``exclude_buckets``, ``exclude_windows``, ``exclude_mode``: passed to
        :func:`budgetlab.windows.bins.read_bins`.

    Returns
    -------
    DataFrame
        One row per group and bin end: group keys, ``bin_end``, ``period_start``,
        ``period_observed`` (the share of ``[period_start, bin_end)`` after the first bin's
        start: 1, or less in a partial period, whose figures count the events from the first
        bin's start only; the bins do not say when in that bin the first event fell),
        ``events``,
        ``bad`` (so far in the period), ``budget_total`` (``(1 - target) * events``),
        ``budget_remaining`` (``budget_total - bad``, negative when overspent),
        ``consumed_fraction`` (``bad / budget_total``; 0 without events), ``sli`` (``1 - bad /
        events``; 1 without events), ``burn_rate`` (over ``burn_window``; NaN where that window
        holds no event: undefined, not 0), ``no_traffic`` (bool: the ``burn_window`` is empty),
        ``time_to_exhaustion`` (Timedelta; NaT = not within the period at this pace, a period
        without events so far too; 0 = spent; see the module doc), ``exhaustion_past_period``
        (bool: the pace's estimate reaches the period's end or beyond, a calendar period's reset
        or one rolling period from ``bin_end``; ``time_to_exhaustion`` is NaT), ``slices``
        (slices with traffic), ``bad_slices``,
        ``sli_timeslices`` (1 without slices), ``slice_budget_remaining`` (``(1 - target) * slices -
        bad_slices``), ``sli_ratio_mean`` (mean per-slice success ratio; 1 without slices).
        ``attrs``: ``slo`` (the SLO ``target`` stands for,
        :func:`~budgetlab.budget.grid_attrs.target_slo`; :func:`budgetlab.table_slo` rebuilds it),
        ``by``, ``freq``, the bin edges ``grid_start`` .. ``grid_end`` (the span counted, the end
        excluded), ``period`` (the rolling period used, duration text; ``None`` with ``calendar``
        or per-group periods), ``calendar``, ``tz``, ``burn_window``, ``slice_window`` (the bin
        width when not given) and ``slice_target`` (``None``: each group's target); when the
        counts leave something out (exclusions given to :func:`budgetlab.bin_events` or here),
        ``exclude_buckets``, ``exclude_windows`` and ``exclude_mode``
        (:func:`~budgetlab.windows.exclusions.exclusion_attrs`).

    Examples
    --------
    >>> from budgetlab.events.schema import as_events
    >>> from budgetlab.windows.binning import bin_events
    >>> ts = pd.to_datetime(["2026-01-01 00:00"] * 100 + ["2026-01-01 00:01"] * 2)
    >>> ok = [True] * 99 + [False] + [False, False]
    >>> pb = period_budget(bin_events(as_events(ts, ok), "1min"), 0.9, calendar="day")
    >>> pb[["events", "bad", "budget_total", "sli"]]
       events  bad  budget_total       sli
    0     100    1          10.0  0.990000
    1     102    3          10.2  0.970588
    >>> pb[["slices", "bad_slices", "sli_timeslices", "sli_ratio_mean"]]
       slices  bad_slices  sli_timeslices  sli_ratio_mean
    0       1           0             1.0           0.990
    1       2           1             0.5           0.495
    """
    tz = check_tz(tz)  # before any work: the partial-period warning reads it last
    grid = read_bins(bins, **options)
    # per group x bin: the table's columns and their temporaries (measured: 225 B at 50 groups x
    # 14 days of 1 min bins; no_traffic, exhaustion_past_period and their masks add 4 B)
    check_cells(grid.n_groups, grid.n_bins, 230.0, "the period-budget table",
                ["a coarser freq=", "fewer groups (by=)",
                 "a shorter span (start=/end= in bin_events)"])
    slos = group_slos(target, grid)
    targets = target_array(target, grid) if slos is None else np.array([s.target for s in slos],
                                                                       dtype=float)
    if (
        period is None
        and calendar is None
        and slos is not None
        and len({s.period for s in slos}) > 1
    ):
        parts = [(p, idx, _period_budget(grid.select(idx), targets[idx], period=p, calendar=None,
                                         tz=tz,
                                         burn_window=burn_window, slice_window=slice_window,
                                         slice_target=slice_target))
                 for p, idx in split_groups([s.period for s in slos])]
        if warn:
            warn_partial(grid, max(s.period for s in slos), None, tz)
        out = _in_group_order(parts, grid.n_groups, grid.n_bins)
    else:
        if period is None:
            period = target.period if isinstance(target, SLO) else slos[0].period if slos else "30D"
        chunks = grid.chunks(24)  # the dense temporaries of a chunk of groups at a time, same rows
        tables = [_period_budget(grid if len(chunks) == 1 else grid.select(np.arange(g0, g1)),
                                 targets[g0:g1],
                                 period=period, calendar=calendar, tz=tz, burn_window=burn_window,
                                 slice_window=slice_window, slice_target=slice_target) for g0,
                  g1 in chunks]
        if warn:
            warn_partial(grid, period, calendar, tz)
        out = tables[0] if len(tables) == 1 else pd.concat(tables, ignore_index=True)
    out.attrs = {**grid_attrs(grid, target), **_budget_options(
        grid, None if calendar is not None else period, calendar, tz, burn_window, slice_window,
        slice_target)}
    return out


def _budget_options(grid: BinGrid, period: Any, calendar: str | None, tz: str, burn_window: Any,
                    slice_window: Any, slice_target: float | None) -> dict[Any, Any]:
    """:func:`period_budget`'s options in ``attrs``: ``period`` (duration text; ``None`` under
    ``calendar`` or with per-group SLOs of several periods, each group's in ``attrs["slo"]``),
    ``calendar``, ``tz``, ``burn_window``, ``slice_window`` (the bin width when not given) and
    ``slice_target`` (``None``: each group's target)."""
    return {"period": None if period is None else duration_label(to_timedelta(period,
                                                                              name="period")),
            "calendar": calendar, "tz": tz,
            "burn_window": duration_label(to_timedelta(burn_window, name="burn_window")),
            "slice_window": duration_label(pd.Timedelta(grid.freq_ns, unit="ns")
                                           if slice_window is None
                                           else to_timedelta(slice_window, name="slice_window")),
            "slice_target": None if slice_target is None else float(slice_target)}


def _in_group_order(parts: list[tuple[Any, np.ndarray, pd.DataFrame]], n_groups: int,
                    n_bins: int) -> pd.DataFrame:
    """Put the group-major tables of group subsets (``n_bins`` rows per group) back in group
    order."""
    table = pd.concat([t for _, _, t in parts], ignore_index=True)
    groups = np.concatenate([idx for _, idx, _ in parts])
    where = np.empty(n_groups, dtype=np.int64)
    where[groups] = np.arange(n_groups)  # the block of group g in the concatenation
    rows = (where[:, None] * n_bins + np.arange(n_bins)[None, :]).ravel()
    return table.iloc[rows].reset_index(drop=True)


def _period_budget(grid: BinGrid, targets: np.ndarray, *, period: Any, calendar: str | None,
                   tz: str,
                   burn_window: Any, slice_window: Any, slice_target: float | None) -> pd.DataFrame:
    """:func:`period_budget` on a read grid with one target per group and one period."""
    budget = error_budgets(targets, grid)[:, None]
    s_target = targets[:, None] if slice_target is None else _slice_targets(slice_target, grid)
    f = grid.freq_ns
    k_burn = window_bins(burn_window, f, name="burn_window")
    slice_ns = f * window_bins(slice_window, f,
                               name="slice_window") if slice_window is not None else f
    periods = periods_of(grid, period, calendar, tz)

    events = periods.accumulate(grid.total)
    bad = periods.accumulate(grid.bad)
    budget_total = budget * events
    remaining = budget_total - bad
    burn, tte_ns, past_end = _burn_and_exhaustion(grid, budget, remaining, bad, k_burn,
                                                  periods.end_ns - grid.bin_end_ns)
    slices, bad_slices, ratio_mean = _time_slices(grid, periods, slice_ns, s_target)

    out = grid.long_keys(grid.n_bins)
    out["bin_end"] = utc_from_ns(np.tile(grid.bin_end_ns, grid.n_groups))
    out["period_start"] = utc_from_ns(np.tile(periods.start_ns, grid.n_groups))
    out["period_observed"] = np.tile(observed_share(grid, periods), grid.n_groups)
    out["events"] = events.ravel()
    out["bad"] = bad.ravel()
    out["budget_total"] = budget_total.ravel()
    out["budget_remaining"] = remaining.ravel()
    out["consumed_fraction"] = ratio(bad, budget_total, 0.0).ravel()
    out["sli"] = (1.0 - ratio(bad, events, 0.0)).ravel()
    out["burn_rate"] = burn.ravel()
    out["no_traffic"] = np.isnan(burn).ravel()
    out["time_to_exhaustion"] = pd.to_timedelta(tte_ns.ravel().view("timedelta64[ns]"))
    out["exhaustion_past_period"] = past_end.ravel()
    out["slices"] = slices.ravel()
    out["bad_slices"] = bad_slices.ravel()
    out["sli_timeslices"] = (1.0 - ratio(bad_slices, slices, 0.0)).ravel()
    out["slice_budget_remaining"] = (budget * slices - bad_slices).ravel()
    out["sli_ratio_mean"] = np.clip(ratio_mean, 0.0, 1.0).ravel()
    return out
