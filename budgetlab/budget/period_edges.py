"""How bins fall into compliance periods (:func:`periods_of`: a rolling period of whole bins,
or calendar days, weeks and months from local midnight in ``tz``, bins that straddle such a
start refused), the share of each period the bins cover (:func:`observed_share`), and the
warning when periods began before the first bin (:func:`warn_partial`).

The bins do not say when in its bin the first event fell, so coverage counts from the first
bin's start (the grid's start: ``bin_events(start=)`` when given, else the first event's bin)."""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._util.percent import measured_percent
from .._util.validation import check_argument, to_timedelta, utc_from_ns, window_words
from ..errors import ConfigError, PartialWindowWarning
from ..windows.bingrid import BinGrid
from ..windows.bins import window_bins
from ..windows.calendar import CALENDARS, calendar_edges, calendar_period_starts
from .burn import rolling_sum

__all__ = ["Periods", "observed_share", "periods_of", "refuse_straddling_bins",
           "segment_cumsum", "warn_partial"]


def segment_cumsum(x: np.ndarray, seg_first: np.ndarray) -> np.ndarray:
    """Cumulative sum along axis 1 restarting at each segment; ``seg_first[i]`` is the index of
    the first bin of bin ``i``'s segment."""
    c = np.cumsum(x, axis=1)
    zero = np.zeros((x.shape[0], 1), dtype=c.dtype)
    before = np.concatenate([zero, c], axis=1)[:, seg_first]
    return np.asarray(c - before)


@dataclass(frozen=True)
class Periods:
    """How the bins fall into compliance periods: calendar periods (``seg_first`` set) or a
    rolling period of ``k_period`` bins."""

    start_ns: np.ndarray  # start of the current period at each bin end
    # at each bin end, where the period's figures stop holding: the calendar period's end (its
    # reset), or a rolling period's length later (every event now in it has left it by then)
    end_ns: np.ndarray
    new: np.ndarray  # bool per bin: a period starts with this bin
    seg_first: np.ndarray | None  # calendar periods: index of the first bin of each bin's period
    k_period: int  # rolling periods: bins per period

    def accumulate(self, x: np.ndarray) -> np.ndarray:
        """Sum of ``x`` (``(groups, bins)``) over the current period, at every bin."""
        if self.seg_first is not None:
            return segment_cumsum(x, self.seg_first)
        return rolling_sum(x, self.k_period)


def periods_of(grid: BinGrid, period: Any, calendar: str | None, tz: str) -> Periods:
    n = grid.n_bins
    if calendar is not None:
        check_argument("calendar", calendar, CALENDARS)
        pstart = calendar_period_starts(grid.bin_start_ns, calendar, tz)
        refuse_straddling_bins(grid, pstart, calendar, tz)
        new = np.ones(n, dtype=bool)
        new[1:] = pstart[1:] != pstart[:-1]
        seg_first = np.maximum.accumulate(np.where(new, np.arange(n), 0))
        # every period start from the first bin's period to past the last bin (a month is at
        # most 31 days); each bin's period ends at the next one
        edges = calendar_edges(int(pstart[0]), int(grid.bin_end_ns[-1]) + 32 * 86_400 * 10**9,
                               calendar, tz)
        pend = edges[np.searchsorted(edges, pstart, side="right")]
        return Periods(pstart, pend, new, seg_first, 0)
    p_ns = int(to_timedelta(period, name="period").value)
    k_period = window_bins(period, grid.freq_ns, name="period")
    new = np.zeros(n, dtype=bool)
    new[0] = True
    return Periods(grid.bin_end_ns - p_ns, grid.bin_end_ns + p_ns, new, None, k_period)


def refuse_straddling_bins(grid: BinGrid, pstart: np.ndarray, calendar: str, tz: str) -> None:
    """Refuse bins that hold a calendar period start (local midnight in ``tz`` inside a bin, e.g.
    1 h bins in Asia/Kolkata or 1 d bins in Europe/Berlin): their events would count whole in the
    period the bin starts in, so both periods' budgets would be wrong."""
    last = calendar_period_starts(grid.bin_end_ns - 1, calendar, tz)
    cut = np.flatnonzero(last != pstart)
    if len(cut):
        at, edge = utc_from_ns(grid.bin_start_ns[cut[:1]])[0], utc_from_ns(last[cut[:1]])[0]
        raise ConfigError(
            f"calendar={calendar!r} periods start at local midnight in tz={tz!r}, which falls "
            f"inside bins ({len(cut)} of them; the first from {at:%Y-%m-%d %H:%M} UTC holds "
            f"{edge.tz_convert(tz):%Y-%m-%d %H:%M %Z}); their events cannot be split between "
            "two periods. Bin the events with a freq that divides the zone's UTC offset (e.g. "
            "'1h' for a whole-hour offset, '30min' for +05:30).")


def observed_share(grid: BinGrid, periods: Periods) -> np.ndarray:
    """Per bin end, the share of its period so far (``[period_start, bin_end)``) after the first
    bin's start: below 1 where the period began before the first bin (a partial period), 1
    elsewhere."""
    since = grid.bin_end_ns - periods.start_ns
    return np.asarray((since - np.maximum(grid.start_ns - periods.start_ns, 0)) / since)


def warn_partial(grid: BinGrid, period: Any, calendar: str | None, tz: str) -> None:
    """A :class:`~budgetlab.errors.PartialWindowWarning` when periods began before the first bin
    (``period_observed`` below 1): which rows, and that their figures count the events from the
    first bin's start only (the bins do not say when in that bin the first event fell). A
    rolling period's first rows are always partial (its warm-up, shown in
    ``period_observed``): it warns only when every row is, the period longer than the data."""
    periods = periods_of(grid, period, calendar, tz)
    observed = observed_share(grid, periods)
    partial = np.flatnonzero(observed < 1)
    if not len(partial) or (calendar is None and len(partial) < grid.n_bins):
        return
    first, data, last = utc_from_ns(np.array([periods.start_ns[0], grid.start_ns,
                                              grid.bin_end_ns[partial[-1]]])).tz_convert(tz)
    kind = f"calendar {calendar}" if calendar else f"rolling period of {window_words(period)}"
    rows = (f"every row is partial, its period at most {measured_percent(observed.max())} "
            "observed" if len(partial) == grid.n_bins
            else f"the rows to {last:%Y-%m-%d %H:%M %Z} are partial")
    warnings.warn(PartialWindowWarning(
        f"the bins start at {data:%Y-%m-%d %H:%M %Z} (the first bin's start; the bins do not "
        f"say when in it the first event fell), after their first {kind} (from "
        f"{first:%Y-%m-%d %H:%M %Z}): {rows}; the budget of a partial row counts the events "
        "from the first bin's start only (period_observed below 1: the share of the period so "
        "far after the first bin's start)."), stacklevel=3)
