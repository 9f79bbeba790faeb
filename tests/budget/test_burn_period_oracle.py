"""burn_rates(fill=0.0) (the dense table; the sparse one is in tests/budget/test_burn_sparse.py) /
period_budget / rolling_sum equal the dense implementation they replaced
(tests/alerts/oracle_burn.py, oracle_period.py: verbatim copies) on random data: 2,000+ groups,
empty groups, gaps, per-group SLOs with differing periods, calendar periods across a DST change."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab.budget.burn import burn_rates, rolling_sum
from budgetlab.budget.period import period_budget
from budgetlab.windows.binning import bin_events
from tests.alerts import oracle_burn, oracle_period
from tests.alerts.oracle_compare import assert_oracle_attrs, oracle_alert_episodes
from tests.alerts.sre_oracle_data import make_events, per_group_slos


def _assert_same(got: pd.DataFrame, want: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(got, want, check_exact=True)
    assert_oracle_attrs(got, want)  # the oracle's, and what the tables record now beside them


def _observed_checked(pb: pd.DataFrame, bins: pd.DataFrame, target, **kw) -> pd.DataFrame:
    """``pb`` without ``period_observed`` (a column the verbatim oracle predates), after checking
    it by its definition: the share of ``[period_start, bin_end)`` after the grid's start; then
    the later fixes checked (:func:`_quiet_checked`, :func:`_nothing_spent_checked`)."""
    start = bins["bin_start"].min()
    since = pb["bin_end"] - pb["period_start"]
    want = (since - (start - pb["period_start"]).clip(lower=pd.Timedelta(0))) / since
    assert pb["period_observed"].to_numpy() == pytest.approx(want.to_numpy(), rel=1e-12)
    pb = _quiet_checked(pb, bins, target, kw.get("burn_window", "1h"))
    return _nothing_spent_checked(pb.drop(columns="period_observed"))


def _quiet_checked(pb: pd.DataFrame, bins: pd.DataFrame, target, burn_window) -> pd.DataFrame:
    """``pb`` as the oracle had it before two fixes, after checking them: ``burn_rate`` is NaN
    and ``no_traffic`` True exactly where the burn window holds no event (the oracle's dense
    burn_rates says where; the oracle read 0 there); and ``time_to_exhaustion`` is NaT with
    ``exhaustion_past_period`` where the oracle's estimate reaches the period's end (rolling:
    one period past ``bin_end``; calendar: the next local midnight of a day, week or month)."""
    empty = oracle_burn.burn_rates(bins, target, [burn_window])["total"].to_numpy() == 0
    assert pb["no_traffic"].tolist() == empty.tolist()
    assert pb.loc[empty, "burn_rate"].isna().all() and pb.loc[~empty, "burn_rate"].notna().all()
    out = pb.drop(columns=["no_traffic", "exhaustion_past_period"])
    out.loc[empty, "burn_rate"] = 0.0
    return out


def _nothing_spent_checked(pb: pd.DataFrame) -> pd.DataFrame:
    """``pb`` with the oracle's ``time_to_exhaustion`` of 0 where nothing is spent and nothing
    drains (no failure in the period, budget_remaining 0: a period without events so far; burn
    at most 1), after checking it is NaT there by its definition, *not at this pace* (the oracle
    predates the fix: it read such a row as exhausted now)."""
    idle = ((pb["bad"] == 0) & (pb["budget_remaining"] == 0) & ~(pb["burn_rate"] > 1)).to_numpy()
    assert pb.loc[idle, "time_to_exhaustion"].isna().all()
    out = pb.copy()
    out.loc[idle, "time_to_exhaustion"] = pd.Timedelta(0)
    return out


def _period_end(pb: pd.DataFrame, calendar, tz) -> pd.Series:
    """Where each row's period ends, by hand: rolling, one period past ``bin_end``; calendar,
    the next local midnight starting a day, week or month after ``period_start``."""
    if calendar is None:
        return pb["bin_end"] + (pb["bin_end"] - pb["period_start"])
    step = {"day": pd.DateOffset(days=1), "week": pd.DateOffset(weeks=1),
            "month": pd.DateOffset(months=1)}[calendar]
    local = pb["period_start"].dt.tz_convert(tz).dt.tz_localize(None) + step
    return local.dt.tz_localize(tz).dt.tz_convert("UTC")


def _past_end_checked(pb: pd.DataFrame, want: pd.DataFrame, calendar=None,
                      tz="UTC") -> pd.DataFrame:
    """The oracle's table with ``time_to_exhaustion`` NaT where its estimate reaches the
    period's end, after checking ``pb`` flags exactly those rows."""
    left = _period_end(pb, calendar, tz) - pb["bin_end"]
    tte = want["time_to_exhaustion"]
    past = (tte.notna() & (tte > pd.Timedelta(0)) & (tte >= left)).to_numpy()
    assert pb["exhaustion_past_period"].tolist() == past.tolist()
    out = want.copy()
    out.loc[past, "time_to_exhaustion"] = pd.NaT
    return out


@pytest.mark.parametrize("k", [1, 2, 5, 49, 50, 51, 400])
def test_rolling_sum_equals_the_gather_version_bit_for_bit(k):
    rng = np.random.default_rng(k)
    for x in (rng.integers(0, 9, (6, 50)), rng.normal(size=(6, 50)), np.full((2, 50), -0.0),
              np.zeros((3, 0), np.int64)):
        got, want = rolling_sum(x, k), oracle_burn.rolling_sum(x, k)
        assert got.dtype == want.dtype and got.shape == want.shape
        assert got.tobytes() == want.tobytes()


@pytest.fixture(scope="module")
def many():
    ev = make_events(2000, seed=31, hours=2, per_group=20)
    return ev, bin_events(ev, "5min", by="sitekey")


def test_burn_rates_equal_the_oracle_on_2000_groups(many):
    ev, bins = many
    wins = ("5min", "30min", "1h")
    _assert_same(burn_rates(bins, 0.95, wins, fill=0.0), oracle_burn.burn_rates(bins, 0.95, wins))
    slos = per_group_slos(sorted(ev["sitekey"].astype(str).unique()))
    _assert_same(burn_rates(bins, slos, wins, fill=0.0), oracle_burn.burn_rates(bins, slos, wins))


@pytest.mark.parametrize(
    "kw",
    [
        {},
        {"period": "1h", "slice_window": "15min"},
        {"calendar": "day", "tz": "Europe/Berlin"},
        {"calendar": "week", "slice_target": 0.9, "burn_window": "10min"},
    ],
)
def test_period_budget_equals_the_oracle_on_2000_groups(many, kw):
    ev, bins = many
    slos = per_group_slos(sorted(ev["sitekey"].astype(str).unique()))
    pb = period_budget(bins, slos, **kw)
    _assert_same(_observed_checked(pb, bins, slos, **kw),
                 _past_end_checked(pb, oracle_period.period_budget(bins, slos, **kw),
                                   kw.get("calendar"), kw.get("tz", "UTC")))


def test_period_budget_across_a_dst_change_equals_the_oracle():
    ev = make_events(40, seed=4, hours=80, per_group=200)
    bins = bin_events(ev, "15min", by="sitekey", exclude_buckets="timeout")
    for kw in ({"calendar": "day", "tz": "Europe/Berlin"}, {"period": "1D", "slice_window": "1h"}):
        pb = period_budget(bins, 0.97, **kw)
        _assert_same(_observed_checked(pb, bins, 0.97, **kw),
                     _past_end_checked(pb, oracle_period.period_budget(bins, 0.97, **kw),
                                       kw.get("calendar"), kw.get("tz", "UTC")))


def test_chunks_of_a_few_groups_give_the_oracle_tables(many, monkeypatch):
    """burn_rates / period_budget / low_traffic / the numpy episode path work a chunk of groups
    at a time; with chunks of a handful of groups the tables still equal the dense oracle."""
    from budgetlab.alerts.episodes import alert_episodes
    from budgetlab.alerts.lowtraffic import low_traffic
    from budgetlab.alerts.policy import AlertPolicy
    from budgetlab.windows.bingrid import BinGrid
    from budgetlab.windows.bins import read_bins
    from tests.alerts import oracle_lowtraffic

    whole = BinGrid.chunks
    monkeypatch.setattr(
        BinGrid,
        "chunks",
        lambda self, cells_per_bin=8, budget=0: whole(self, cells_per_bin, 40_000),
    )
    monkeypatch.setattr("budgetlab.alerts.lowtraffic._CHUNK_BYTES", 40_000)
    monkeypatch.setenv("BUDGETLAB_KERNEL", "numpy")
    ev, bins = many
    slos = per_group_slos(sorted(ev["sitekey"].astype(str).unique()))
    assert len(read_bins(bins).chunks(24)) > 50
    wins = ("5min", "30min")
    _assert_same(burn_rates(bins, 0.95, wins, fill=0.0), oracle_burn.burn_rates(bins, 0.95, wins))
    kw = {"period": "1h", "slice_window": "15min"}
    pb = period_budget(bins, 0.95, **kw)
    _assert_same(_observed_checked(pb, bins, 0.95, **kw),
                 _past_end_checked(pb, oracle_period.period_budget(bins, 0.95, **kw)))
    pol = AlertPolicy.single_window("10min", burn=2.0, for_="5min", cooldown="10min")
    _assert_same(low_traffic(bins, slos, pol), oracle_lowtraffic.low_traffic(bins, slos, pol))
    _assert_same(alert_episodes(bins, 0.95, pol), oracle_alert_episodes(bins, 0.95, pol))
