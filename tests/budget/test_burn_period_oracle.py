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


def _observed_checked(pb: pd.DataFrame, bins: pd.DataFrame) -> pd.DataFrame:
    """``pb`` without ``period_observed`` (a column the verbatim oracle predates), after checking
    it by its definition: the share of ``[period_start, bin_end)`` after the grid's start."""
    start = bins["bin_start"].min()
    since = pb["bin_end"] - pb["period_start"]
    want = (since - (start - pb["period_start"]).clip(lower=pd.Timedelta(0))) / since
    assert pb["period_observed"].to_numpy() == pytest.approx(want.to_numpy(), rel=1e-12)
    return _nothing_spent_checked(pb.drop(columns="period_observed"))


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
    _assert_same(_observed_checked(period_budget(bins, slos, **kw), bins),
                 oracle_period.period_budget(bins, slos, **kw))


def test_period_budget_across_a_dst_change_equals_the_oracle():
    ev = make_events(40, seed=4, hours=80, per_group=200)
    bins = bin_events(ev, "15min", by="sitekey", exclude_buckets="timeout")
    for kw in ({"calendar": "day", "tz": "Europe/Berlin"}, {"period": "1D", "slice_window": "1h"}):
        _assert_same(_observed_checked(period_budget(bins, 0.97, **kw), bins),
                     oracle_period.period_budget(bins, 0.97, **kw))


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
    _assert_same(_observed_checked(period_budget(bins, 0.95, **kw), bins),
                 oracle_period.period_budget(bins, 0.95, **kw))
    pol = AlertPolicy.single_window("10min", burn=2.0, for_="5min", cooldown="10min")
    _assert_same(low_traffic(bins, slos, pol), oracle_lowtraffic.low_traffic(bins, slos, pol))
    _assert_same(alert_episodes(bins, 0.95, pol), oracle_alert_episodes(bins, 0.95, pol))
