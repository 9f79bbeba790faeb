"""The sparse bins table and grid (non-empty bins only) give what the dense path gave: episodes,
states and scores equal the dense oracle (tests/alerts/oracle_*.py, verbatim copies of the dense
implementation) on very sparse data over long spans, where the compiled walk jumps between change
points, with low and high thresholds, bins in any row order or with explicit zero rows, and
groups without any event in the span."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab.alerts.episodes import alert_episodes, alert_states
from budgetlab.alerts.policy import AlertPolicy
from budgetlab.alerts.scoring import score_alerts
from budgetlab.alerts.tier import AlertTier
from budgetlab.windows.binning import bin_events
from budgetlab.windows.bins import read_bins
from tests.alerts import oracle_bins, oracle_episodes
from tests.alerts.oracle_compare import (
    assert_same_as_oracle,
    oracle_alert_episodes,
    oracle_score_alerts,
)
from tests.alerts.sre_oracle_data import T0, fast_policy, incidents_for, make_events


def _assert_same(got: pd.DataFrame, want: pd.DataFrame) -> None:
    assert_same_as_oracle(got, want)


def _sparse_events(n_groups: int, seed: int, days: int = 3) -> pd.DataFrame:
    """A few events per group spread over days, failures in short bursts (most minutes empty)."""
    rng = np.random.default_rng(seed)
    ev = make_events(n_groups, seed=seed, hours=24 * days, per_group=60)
    # make some stretches fail entirely, so that long and short windows both fire
    t = ev["ts"].astype("int64").to_numpy()
    burst = (t // (3600 * 10**9)) % 7 == rng.integers(0, 7)
    ok = ev["ok"].to_numpy() & ~(burst & (rng.random(len(ev)) < 0.8))
    return ev.assign(ok=ok, bucket=pd.Categorical(np.where(ok, "success", "timeout"),
                                                  categories=["success", "timeout", "solve_error"]))


def _dense_oracle_table(bins: pd.DataFrame) -> pd.DataFrame:
    """Every (group, bin) of the sparse table, by a plain reindex (empty bins as zeros)."""
    by = bins.attrs["by"]
    starts = pd.date_range(bins["bin_start"].min(), bins["bin_start"].max(),
                           freq=bins.attrs["freq"].replace("m", "min"))
    keys = bins[by].drop_duplicates().sort_values(by).itertuples(index=False,
                                                                 name=None) if by else [()]
    full = pd.MultiIndex.from_tuples([(*k, s) for k in keys for s in starts], names=[*by,
                                                                                     "bin_start"])
    counts = [c for c in bins.columns if c not in (*by, "bin_start")]
    table = bins.set_index([*by, "bin_start"])[counts].reindex(full, fill_value=0).reset_index()
    for k in by:
        table[k] = table[k].astype(bins[k].dtype)
    table.attrs = dict(bins.attrs)
    return table


@pytest.fixture(scope="module")
def sparse():
    ev = _sparse_events(300, seed=5)
    return ev, bin_events(ev, "1min", by="sitekey")


def test_the_sparse_table_is_the_dense_table_without_its_empty_rows(sparse):
    ev, bins = sparse
    dense = oracle_bins.bin_events(ev, "1min", by="sitekey")
    assert len(bins) < len(dense) / 10
    _assert_same(_dense_oracle_table(bins), dense)
    _assert_same(bin_events(ev, "1min", by="sitekey", dense=True), dense)


@pytest.mark.parametrize("kernel", ["numpy", "compiled"])
@pytest.mark.parametrize("target", [0.5, 0.95, 0.9999])
def test_episodes_equal_the_oracle_on_sparse_days(sparse, monkeypatch, kernel, target):
    monkeypatch.setenv("BUDGETLAB_KERNEL", "numpy" if kernel == "numpy" else "")
    _, bins = sparse
    policies = [fast_policy(), fast_policy(for_="3min", cooldown="20min"),
                AlertPolicy([AlertTier("long", "ticket", "6h", "30min", burn=1.0),
                             AlertTier("single", "page", "3h", None, burn=3.0, for_="1min")],
                            period="1D")]
    for pol in policies:
        got = alert_episodes(bins, target, pol)
        _assert_same(got, oracle_alert_episodes(bins, target, pol))
    assert len(got) > 20


def test_states_and_scores_equal_the_oracle(sparse):
    ev, bins = sparse
    small = bins[bins["sitekey"].cat.codes < 12].reset_index(drop=True)
    small.attrs = dict(bins.attrs)
    pol = fast_policy(for_="2min", cooldown="5min")
    _assert_same(alert_states(small, 0.99, pol), oracle_episodes.alert_states(small, 0.99, pol))
    inc = incidents_for(ev, seed=3)
    ep = alert_episodes(bins, 0.99, pol)
    # the oracle predates filling='apart' (apart vs count: tests/alerts/test_filling.py)
    got = score_alerts(ep, inc, bins=bins, target=0.99, period="1D", filling="count")
    _assert_same(got, oracle_score_alerts(ep, inc, bins=bins, target=0.99, period="1D"))


def test_row_order_and_explicit_zero_rows_do_not_matter(sparse):
    ev, bins = sparse
    dense = oracle_bins.bin_events(ev, "1min", by="sitekey")
    shuffled = bins.sample(frac=1.0, random_state=1).reset_index(drop=True)
    pol = fast_policy(for_="1min")
    want = oracle_alert_episodes(dense, 0.95, pol)
    _assert_same(alert_episodes(shuffled, 0.95, pol, freq="1min"), want)
    _assert_same(alert_episodes(dense, 0.95, pol), want)
    grid, grid_d = read_bins(bins), read_bins(dense)
    for name in ("cell_group", "cell_bin", "cell_total", "cell_bad"):
        assert getattr(grid, name).tolist() == getattr(grid_d, name).tolist()


def test_groups_without_events_in_the_span_keep_their_rows():
    ev = make_events(30, seed=2, hours=3, per_group=30)
    late = ev["ts"] >= T0 + pd.Timedelta("2h")
    # these groups: events before 2h only ...
    quiet = ev["sitekey"].isin(ev.loc[late, "sitekey"].unique()[:3])
    ev = ev[~quiet | ~late].reset_index(drop=True)
    start = T0 + pd.Timedelta("2h")  # ... so they have none in the span
    bins = bin_events(ev, "1min", by="sitekey", start=start, end=T0 + pd.Timedelta("3h"))
    want = oracle_bins.bin_events(ev, "1min", by="sitekey", start=start,
                                  end=T0 + pd.Timedelta("3h"))
    _assert_same(_dense_oracle_table(bins), want)
    pol = fast_policy()
    _assert_same(alert_episodes(bins, 0.9, pol), oracle_alert_episodes(want, 0.9, pol))
