"""period_budget's pace columns by hand: ``burn_rate`` undefined (NaN, ``no_traffic``) over an
empty burn window; ``time_to_exhaustion`` withheld (NaT, ``exhaustion_past_period``) when the
estimate reaches the period's end; the partial-period words name the first bin's start."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab.budget.period import period_budget
from budgetlab.errors import PartialWindowWarning
from budgetlab.events.schema import as_events
from budgetlab.windows.binning import bin_events
from tests.budget.test_period import make_bins

T0 = pd.Timestamp("2026-03-27 00:00", tz="UTC")


def test_burn_rate_over_a_silence_is_missing_not_zero():
    """Target 0.5 (budget 1/2, exact in binary), hourly bins: 10 events and 1 failure, two
    silent hours, 10 events and 2 failures. Over 1 h: burn 0.1 / 0.5 = 0.2, none, none,
    0.2 / 0.5 = 0.4. Over 2 h the window at 02:00 still holds the first hour (0.2); only the
    window at 03:00 (hours 1-2) is empty."""
    bins = make_bins([10, 0, 0, 10], [1, 0, 0, 2])
    pb = period_budget(bins, 0.5, calendar="day")
    burn = pb["burn_rate"].tolist()
    assert burn[0] == pytest.approx(0.2) and burn[3] == pytest.approx(0.4)
    assert np.isnan(burn[1]) and np.isnan(burn[2])  # undefined: a silence is not a clean hour
    assert pb["no_traffic"].tolist() == [False, True, True, False]
    assert pb["time_to_exhaustion"].isna().all()  # nothing drains: not at this pace
    two = period_budget(bins, 0.5, calendar="day", burn_window="2h")
    assert two["no_traffic"].tolist() == [False, False, True, False]
    assert two["burn_rate"].iloc[1] == pytest.approx(0.2) and np.isnan(two["burn_rate"].iloc[2])
    assert two["burn_rate"].iloc[3] == pytest.approx(0.4)  # hours 2-3: 2 failures in 10 events


def test_time_to_exhaustion_past_the_calendar_reset_is_not_a_time():
    """Target 0.5, calendar day (UTC), hourly bins, 1 h burn window. 20 hours of 10 events, 4
    failures: budget 100, spent 80, R = 20, burn 0.8 (not draining: NaT). Hour ending 21:00, 10
    events, 6 failures: R = 105 - 86 = 19, drain 6 - 5 = 1 an hour: 19 h, but the day resets in
    3 h: NaT, past the period. 22:00, 20 events, 20 failures: R = 115 - 106 = 9, drain
    20 - 10 = 10: 0.9 h = 54 min, inside the 2 h left. 23:00, 10 events, 6 failures: R = 8,
    drain 1: 8 h against 1 h left: NaT, past. 00:00, clean: NaT, not draining."""
    tot = [10] * 20 + [10, 20, 10, 10]
    bad = [4] * 20 + [6, 20, 6, 0]
    pb = period_budget(make_bins(tot, bad), 0.5, calendar="day")
    assert pb["budget_remaining"].iloc[20:].tolist() == pytest.approx([19, 9, 8, 13])
    tte = pb["time_to_exhaustion"]
    assert tte.iloc[21] == pd.Timedelta(minutes=54)
    assert tte.drop(index=21).isna().all()
    assert pb["exhaustion_past_period"].tolist() == [False] * 20 + [True, False, True, False]


def test_time_to_exhaustion_in_a_week_that_resets_first():
    """The stranger's case in small, across a DST change: the Berlin week from Monday 2026-03-23
    00:00 CET (Sunday 22 23:00 UTC) ends Monday 30 00:00 CEST = Sunday 29 22:00 UTC, 6 days 23 h
    later. Target 0.5, hourly bins: 9 clean hours of 10 events (Saturday 28 15:00 .. Sunday
    00:00 UTC), then 10 events, 7 failures. At Sunday 01:00 UTC: R = 0.5 * 100 - 7 = 43, drain
    7 - 5 = 2 an hour: 21.5 h, with 21 h left in the week: NaT, past the period (a week of
    7 x 24 h would have left 22 h)."""
    bins = make_bins([10] * 10, [0] * 9 + [7], start=pd.Timestamp("2026-03-28 15:00", tz="UTC"))
    with pytest.warns(PartialWindowWarning):
        pb = period_budget(bins, 0.5, calendar="week", tz="Europe/Berlin")
    last = pb.iloc[-1]
    assert last["bin_end"] == pd.Timestamp("2026-03-29 01:00", tz="UTC")
    assert last["period_start"] == pd.Timestamp("2026-03-22 23:00", tz="UTC")
    assert last["budget_remaining"] == pytest.approx(43)
    assert pd.isna(last["time_to_exhaustion"]) and last["exhaustion_past_period"]
    assert not pb["exhaustion_past_period"].iloc[:-1].any()


def test_time_to_exhaustion_of_a_rolling_period_stops_at_one_period():
    """Rolling 1 d, hourly bins, target 0.5: 10 clean hours of 10 events (budget 50), then 10
    events, 6 failures: R = 55 - 6 = 49, drain 1 an hour: 49 h, longer than the period; by
    then every event now in it has left it (at this pace the budget runs out within a day: a
    window all at 6 of 10 failing spends 144 of a 120 budget): NaT, past the period. Then 10
    events, 10 failures: R = 60 - 16 = 44, drain 5: 8.8 h = 8 h 48 min."""
    bins = make_bins([10] * 12, [0] * 10 + [6, 10])
    with pytest.warns(PartialWindowWarning):  # 12 h of a 1 d period: every row partial
        pb = period_budget(bins, 0.5, period="1D")
    assert pb["budget_remaining"].iloc[10:].tolist() == pytest.approx([49, 44])
    assert pd.isna(pb["time_to_exhaustion"].iloc[10]) and pb["exhaustion_past_period"].iloc[10]
    assert pb["time_to_exhaustion"].iloc[11] == pd.Timedelta(hours=8, minutes=48)
    assert pb["exhaustion_past_period"].tolist() == [False] * 10 + [True, False]


def test_the_partial_period_is_counted_from_the_first_bins_start_and_says_so():
    """Events from 10:05 UTC in 1 h bins: the grid starts at 10:00; the bins do not say when in
    that bin the first event fell. The UTC day's row at 11:00 covers [10:00, 11:00) of
    [00:00, 11:00): 1 / 11, and the warning names the first bin's start, not the data's."""
    ts = pd.to_datetime(["2026-03-27 10:05", "2026-03-27 10:30", "2026-03-27 11:10"], utc=True)
    bins = bin_events(as_events(ts, [True, False, True]), "1h")
    with pytest.warns(PartialWindowWarning) as caught:
        pb = period_budget(bins, 0.9, calendar="day")
    assert pb["period_observed"].tolist() == pytest.approx([1 / 11, 2 / 12])
    assert [str(w.message) for w in caught] == [
        "the bins start at 2026-03-27 10:00 UTC (the first bin's start; the bins do not say when "
        "in it the first event fell), after their first calendar day (from 2026-03-27 00:00 "
        "UTC): every row is partial, its period at most 16.67 % observed; the budget of a "
        "partial row counts the events from the first bin's start only (period_observed below "
        "1: the share of the period so far after the first bin's start)."]
