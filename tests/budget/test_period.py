"""period_budget against loops: rolling and calendar periods (DST), time slices, exhaustion."""

from __future__ import annotations

import datetime as dt
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budgetlab.budget.period import period_budget
from budgetlab.errors import ConfigError, PartialWindowWarning

T0 = pd.Timestamp("2026-03-27 00:00", tz="UTC")


def make_bins(total, bad, freq="1h", start=T0, region=None):
    n = len(total)
    f = pd.DataFrame(
        {
            "bin_start": pd.date_range(start, periods=n, freq=freq).as_unit("ns"),
            "total": np.asarray(total, dtype=np.int64),
            "bad": np.asarray(bad, dtype=np.int64),
        }
    )
    f["good"] = f["total"] - f["bad"]
    if region is not None:
        f.insert(0, "region", pd.Categorical([region] * n))
    f.attrs["freq"] = freq
    return f


def local_period_start(ts: pd.Timestamp, calendar: str, tz: str) -> pd.Timestamp:
    """Scalar, obviously-correct calendar period start (local midnight) for one UTC time."""
    d = ts.tz_convert(tz).date()
    if calendar == "week":
        d = d - dt.timedelta(days=d.weekday())
    elif calendar == "month":
        d = d.replace(day=1)
    return pd.Timestamp(d).tz_localize(tz).tz_convert("UTC")


def oracle(bins, target, *, calendar=None, tz="UTC", period=None, freq, slice_bins=1,
           slice_target=None):
    step = pd.Timedelta(freq)
    starts = list(bins["bin_start"])
    tot = bins["total"].tolist()
    bad = bins["bad"].tolist()
    n = len(starts)
    if calendar:
        pstart = [local_period_start(s, calendar, tz) for s in starts]
    slice_key = []
    for j, s in enumerate(starts):
        no = (s.value // (step.value * slice_bins))
        slice_key.append((pstart[j], no) if calendar else no)
    st_target = target if slice_target is None else slice_target
    rows = []
    for i in range(n):
        end = starts[i] + step
        if calendar:
            members = [j for j in range(i + 1) if pstart[j] == pstart[i]]
        else:
            members = [j for j in range(n) if end - pd.Timedelta(period) <= starts[j] < end]
        ev = sum(tot[j] for j in members)
        bd = sum(bad[j] for j in members)
        # slices: complete at i (no later bin of the same slice), ending inside the period span
        slices = bad_slices = 0
        ratios = []
        for key in dict.fromkeys(slice_key[j] for j in members):
            idx = [j for j in range(n) if slice_key[j] == key]
            if max(idx) > i or max(idx) not in members:
                continue
            t_s = sum(tot[j] for j in idx)
            b_s = sum(bad[j] for j in idx)
            if t_s == 0:
                continue
            slices += 1
            r = 1 - b_s / t_s
            ratios.append(r)
            bad_slices += r < st_target
        rows.append((ev, bd, slices, bad_slices, float(np.mean(ratios)) if ratios else 1.0))
    return rows


def compare(pb, rows, target):
    assert len(pb) == len(rows)
    for got, (ev, bd, sl, bsl, rmean) in zip(pb.itertuples(index=False), rows, strict=True):
        assert (got.events, got.bad, got.slices, got.bad_slices) == (ev, bd, sl, bsl)
        assert got.budget_total == pytest.approx((1 - target) * ev)
        assert got.budget_remaining == pytest.approx((1 - target) * ev - bd)
        assert got.sli == pytest.approx(1 - bd / ev if ev else 1.0)
        assert got.sli_ratio_mean == pytest.approx(rmean)


counts = st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6)), min_size=1, max_size=80)


@settings(max_examples=40)
@given(counts, st.sampled_from(["day", "week", "month"]), st.sampled_from(["UTC", "Europe/Berlin",
                                                                           "America/New_York"]),
       st.sampled_from([1, 2, 3]))
def test_calendar_matches_loop(rows, calendar, tz, slice_bins):
    tot = [a for a, _ in rows]
    bad = [min(a, b) for a, b in rows]
    # 1 h bins end at local midnight in these zones (coarser ones would hold it: refused); months
    # start near the end of March so that up to 80 h cross April 1st
    freq = "1h"
    bins = make_bins(tot, bad, freq=freq,
                     start=pd.Timestamp("2026-03-30", tz="UTC") if calendar == "month" else T0)
    pb = period_budget(bins, 0.8, calendar=calendar, tz=tz,
                       slice_window=pd.Timedelta(freq) * slice_bins,
                       burn_window=freq)
    compare(pb, oracle(bins, 0.8, calendar=calendar, tz=tz, freq=freq, slice_bins=slice_bins), 0.8)
    want_start = [local_period_start(s, calendar, tz) for s in bins["bin_start"]]
    assert pb["period_start"].tolist() == want_start


@settings(max_examples=40)
@given(counts, st.sampled_from([1, 3, 7]), st.sampled_from([1, 2]))
def test_rolling_matches_loop(rows, k, slice_bins):
    tot = [a for a, _ in rows]
    bad = [min(a, b) for a, b in rows]
    bins = make_bins(tot, bad, freq="1h")
    period = pd.Timedelta(hours=k * slice_bins)
    pb = period_budget(bins, 0.9, period=period, slice_window=pd.Timedelta(hours=slice_bins),
                       slice_target=0.7)
    compare(pb, oracle(bins, 0.9, period=period, freq="1h", slice_bins=slice_bins,
                       slice_target=0.7), 0.9)
    assert (pb["period_start"] == pb["bin_end"] - period).all()


def test_dst_days_are_23_and_25_hours():
    # Europe/Berlin: 2026-03-29 has 23 hours (CET -> CEST), 2026-10-25 has 25 (CEST -> CET)
    for day, hours, utc_start in (("2026-03-29", 23, "2026-03-28 23:00"), ("2026-10-25", 25,
                                                                           "2026-10-24 22:00")):
        start = pd.Timestamp(day, tz="Europe/Berlin").tz_convert("UTC") - pd.Timedelta("2h")
        bins = make_bins([1] * 30, [0] * 30, freq="1h", start=start)
        pb = period_budget(bins, 0.99, calendar="day", tz="Europe/Berlin")
        in_day = pb[pb["period_start"] == pd.Timestamp(utc_start, tz="UTC")]
        assert len(in_day) == hours
        assert in_day["events"].tolist() == list(range(1, hours + 1))  # resets at local midnight


def test_week_starts_monday_and_month_on_the_first():
    bins = make_bins([1] * (24 * 12), [0] * (24 * 12), freq="1h", start=pd.Timestamp("2026-03-25",
                                                                                     tz="UTC"))
    wk = period_budget(bins, 0.99, calendar="week", tz="UTC")
    assert sorted(wk["period_start"].unique()) == [pd.Timestamp("2026-03-23", tz="UTC"),
                                                   pd.Timestamp("2026-03-30", tz="UTC")]
    mo = period_budget(bins, 0.99, calendar="month", tz="Asia/Tokyo")
    # April 1st, Tokyo midnight
    assert pd.Timestamp("2026-03-31 15:00", tz="UTC") in set(mo["period_start"])


def test_bins_holding_local_midnight_are_refused():
    # Asia/Kolkata is UTC+05:30: its midnight 2026-03-28 00:00 IST is 2026-03-27 18:30 UTC, inside
    # the 1 h bin 18:00..19:00 UTC, whose events cannot be split between the two days. Europe/Berlin
    # (UTC+01:00 on 2026-03-27) has its midnight 23:00 UTC inside the 1 d bin 2026-03-27 00:00 UTC.
    hourly = make_bins([1] * 24, [0] * 24, freq="1h")
    with pytest.raises(ConfigError, match=r"from 2026-03-27 18:00 UTC holds 2026-03-28 00:00 IST"):
        period_budget(hourly, 0.99, calendar="day", tz="Asia/Kolkata")
    daily = make_bins([10, 10], [0, 0], freq="1D")
    with pytest.raises(ConfigError, match=r"from 2026-03-27 00:00 UTC holds 2026-03-28 00:00 CET"):
        period_budget(daily, 0.99, calendar="day", tz="Europe/Berlin", burn_window="1D")
    # 30 min bins end at 18:30 UTC: the day of 2026-03-28 IST holds the 11 bins from 18:30 on
    half = period_budget(make_bins([1] * 48, [0] * 48, freq="30min"), 0.99, calendar="day",
                         tz="Asia/Kolkata")
    assert half["events"].tolist() == list(range(1, 38)) + list(range(1, 12))


def test_a_first_calendar_period_before_the_data_is_said_partial():
    # T0 = 2026-03-27 00:00 UTC is 01:00 CET in Berlin: the Berlin day began an hour before the
    # data, the UTC day with them. The 3 hourly rows end at 02:00, 03:00, 04:00 CET: of their
    # day so far (2, 3, 4 h) the data cover 1, 2, 3 h
    bins = make_bins([1] * 3, [0] * 3, freq="1h")
    with pytest.warns(PartialWindowWarning, match=r"bins start at 2026-03-27 01:00 CET \(the "
                      r"first bin's start; the bins do not say when in it the first event fell\), "
                      r"after their first calendar day \(from 2026-03-27 00:00 CET\): every row "
                      r"is partial, its period at most 75.00 % observed; the budget of a partial "
                      r"row counts the events from the first bin's start only"):
        pb = period_budget(bins, 0.99, calendar="day", tz="Europe/Berlin")
    assert pb["period_observed"].tolist() == pytest.approx([1 / 2, 2 / 3, 3 / 4])
    with pytest.warns(PartialWindowWarning, match=r"first calendar month \(from 2026-03-01 00:00"):
        period_budget(bins, 0.99, calendar="month", tz="UTC")
    with warnings.catch_warnings():
        warnings.simplefilter("error", PartialWindowWarning)
        pb = period_budget(bins, 0.99, calendar="day", tz="UTC")  # the data start at midnight UTC
    assert (pb["period_observed"] == 1).all()


def test_a_rolling_period_longer_than_the_data_is_said_partial():
    # a 10-day log of daily bins (100 events, 1 failure each) from 2026-03-01 under a 30 d
    # rolling period: the row at the end of day d (d = 1..10) counts d days of its 30, d / 30
    # observed (1/3 at the last row), 100 d events, a budget of 0.01 * 100 d = d failures
    bins = make_bins([100] * 10, [1] * 10, freq="1D", start=pd.Timestamp("2026-03-01", tz="UTC"))
    with pytest.warns(PartialWindowWarning) as caught:
        pb = period_budget(bins, 0.99, period="30D", burn_window="1D")
    assert [str(w.message) for w in caught] == [
        "the bins start at 2026-03-01 00:00 UTC (the first bin's start; the bins do not say when "
        "in it the first event fell), after their first rolling period of 30 d (from "
        "2026-01-31 00:00 UTC): every row is partial, its period at most 33.33 % observed; the "
        "budget of a partial row counts the events from the first bin's start only "
        "(period_observed below 1: the share of the period so far after the first bin's "
        "start)."]
    assert pb["period_observed"].tolist() == pytest.approx([d / 30 for d in range(1, 11)])
    assert pb["events"].tolist() == [100 * d for d in range(1, 11)]
    assert pb["budget_total"].tolist() == pytest.approx(list(range(1, 11)))
    # a 3 d period: the rows of the first two days are partial (1/3, 2/3), then whole; a
    # rolling period's warm-up is said in period_observed, not warned of (every rolling call has
    # one)
    with warnings.catch_warnings():
        warnings.simplefilter("error", PartialWindowWarning)
        pb = period_budget(bins, 0.99, period="3D", burn_window="1D")
    assert pb["period_observed"].tolist() == pytest.approx([1 / 3, 2 / 3] + [1.0] * 8)


def test_timeslices_vs_events_weighted_under_uneven_traffic():
    # 23 busy hours (1000 events, 1 failure each) and one quiet hour (10 events, 5 failures), 99 %:
    # events-weighted SLI = 1 - 28 / 23010 = 0.998783 (met); time slices: 23 / 24 good = 0.958333
    # (missed); mean of hourly ratios (Sloth-style) = (23 * 0.999 + 0.5) / 24 = 0.978208.
    tot = [1000] * 12 + [10] + [1000] * 11
    bad = [1] * 12 + [5] + [1] * 11
    pb = period_budget(make_bins(tot, bad, start=pd.Timestamp("2026-03-27", tz="UTC")), 0.99,
                       calendar="day",
                       slice_window="1h")
    last = pb.iloc[-1]
    assert last["sli"] == pytest.approx(1 - 28 / 23010)
    assert last["sli_timeslices"] == pytest.approx(23 / 24)
    assert last["sli_ratio_mean"] == pytest.approx((23 * 0.999 + 0.5) / 24)
    assert last["slices"] == 24 and last["bad_slices"] == 1
    assert last["slice_budget_remaining"] == pytest.approx(0.01 * 24 - 1)


def test_time_to_exhaustion_hand_case():
    # 1-minute bins, 100 events each; clean for 10 minutes, then 5 failures per minute; 99 %:
    # after m bad minutes: budget = 0.01 * 100 * (10 + m) = 10 + m, remaining R = 10 - 4 m.
    # At m = 2 the 5-minute window holds 500 events, 10 failures (burn 2): drain = 10 - 5 = 5 per
    # 5 min, so T = R / drain * 5 min = 2 / 5 * 5 min = 2 min. At m = 1 the burn is 1: NaT.
    tot = [100] * 14
    bad = [0] * 10 + [5] * 4
    pb = period_budget(make_bins(tot, bad, freq="1min"), 0.99, calendar="day", burn_window="5min")
    tte = pb["time_to_exhaustion"].tolist()
    assert all(pd.isna(x) for x in tte[:11])
    assert tte[11] == pd.Timedelta("2min")
    assert tte[12] == pd.Timedelta(0) and pb["budget_remaining"].iloc[12] == pytest.approx(-2)


def test_argument_errors():
    bins = make_bins([1, 2], [0, 1])
    with pytest.raises(ConfigError):
        period_budget(bins, 0.99, calendar="year")
    with pytest.raises(ConfigError):
        period_budget(bins, 0.99, calendar="day", tz="Mars/Olympus")
    with pytest.raises(ConfigError):
        period_budget(bins, 0.99, period="90min")
    with pytest.raises(ConfigError):
        period_budget(bins, 0.99, slice_target=1.5)


def test_time_to_exhaustion_without_events_is_not_now():
    """Hand case, target 0.5 (budget 1/2, exact in binary), calendar day, 2 h burn window.
    Group a, 4 events an hour, 3 and 4 failures in the last two hours: at the last bin the
    period holds 28 events, 7 failures, so R = 14 - 7 = 7; the window holds 8 events, 7
    failures: drain 7 - 4 = 3 per 2 h, T = 7 / 3 * 2 h = 4 h 40 min. Group b has no event for
    5 hours: budget 0, nothing spent, R = 0 but not exhausted: NaT (it read 0, "exhausted
    now"); at its last bin 8 events, 4 failures: R = 4 - 4 = 0 with burn 1 (drain 0): spent to
    the last event, 0."""
    a = make_bins([4] * 7, [0, 0, 0, 0, 0, 3, 4], region="a")
    b = make_bins([0, 0, 0, 0, 0, 4, 4], [0, 0, 0, 0, 0, 0, 4], region="b")
    bins = pd.concat([a, b], ignore_index=True)
    bins["region"] = pd.Categorical(bins["region"].astype(str))
    bins.attrs["freq"] = "1h"
    pb = period_budget(bins, 0.5, calendar="day", burn_window="2h")
    got = {r: part["time_to_exhaustion"].tolist() for r, part in pb.groupby("region",
                                                                            observed=True)}
    assert [pd.isna(x) for x in got["a"]] == [True] * 6 + [False]
    assert got["a"][6] == pd.Timedelta(hours=4, minutes=40)
    assert [pd.isna(x) for x in got["b"]] == [True] * 6 + [False]
    assert got["b"][6] == pd.Timedelta(0)
    empty = pb[pb["events"] == 0]
    assert len(empty) == 5 and empty["time_to_exhaustion"].isna().all()
