"""alert_episodes / alert_states / low_traffic equal the dense implementation they replaced
(tests/alerts/oracle_episodes.py, oracle_lowtraffic.py: verbatim copies), on random data with
2,000+ groups, empty and single-event groups, gaps, per-group SLOs with two periods,
for/cooldown."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab.alerts.episodes import alert_episodes, alert_states
from budgetlab.alerts.firing import firing_runs, grid_firing_runs
from budgetlab.alerts.lowtraffic import low_traffic
from budgetlab.windows.binning import bin_events
from tests.alerts import oracle_episodes, oracle_lowtraffic, oracle_scoring
from tests.alerts.oracle_compare import assert_oracle_attrs, oracle_alert_episodes
from tests.alerts.sre_oracle_data import fast_policy, make_events, per_group_slos


def _assert_same(got: pd.DataFrame, want: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(got, want, check_exact=True)
    assert_oracle_attrs(got, want)  # the oracle's, and what the tables record now beside them


@pytest.fixture(scope="module")
def many():
    ev = make_events(2200, seed=21, hours=3, per_group=25)
    return ev, bin_events(ev, "1min", by="sitekey")


@pytest.mark.parametrize("tier_options", [{}, {"for_": "2min", "cooldown": "5min"}])
def test_episodes_equal_the_dense_oracle_on_2000_groups(many, tier_options):
    _, bins = many
    pol = fast_policy(**tier_options)
    got = alert_episodes(bins, 0.95, pol)
    assert len(got) > 100
    _assert_same(got, oracle_alert_episodes(bins, 0.95, pol))


def test_episodes_and_low_traffic_equal_the_oracle_with_per_group_slos(many):
    ev, bins = many
    slos = per_group_slos(sorted(ev["sitekey"].astype(str).unique()))
    for pol in (fast_policy(for_="1min"), "workbook", "single_window"):
        _assert_same(alert_episodes(bins, slos, pol), oracle_alert_episodes(bins, slos,
                                                                                     pol))
    _assert_same(low_traffic(bins, slos, "workbook"), oracle_lowtraffic.low_traffic(bins, slos,
                                                                                    "workbook"))
    _assert_same(
        low_traffic(bins, 0.99, fast_policy()),
        oracle_lowtraffic.low_traffic(bins, 0.99, fast_policy()),
    )


@pytest.mark.parametrize("seed", [0, 1])
def test_states_equal_the_dense_oracle(seed):
    ev = make_events(150, seed=seed, hours=4, per_group=40, two_keys=seed == 1)
    bins = bin_events(ev, "1min", by=["region", "sitekey"] if seed else "sitekey",
                      start=ev["ts"].min() - pd.Timedelta("7min"))
    pol = fast_policy(for_="3min", cooldown="2min")
    _assert_same(alert_states(bins, 0.9, pol), oracle_episodes.alert_states(bins, 0.9, pol))
    opts = {
        "exclude_buckets": "timeout",
        "exclude_windows": [
            (ev["ts"].min() + pd.Timedelta("1h"), ev["ts"].min() + pd.Timedelta("90min"))
        ],
    }
    _assert_same(alert_episodes(bins, 0.9, pol, **opts), oracle_alert_episodes(bins, 0.9,
                                                                                        pol,
                                                                                        **opts))


@pytest.mark.parametrize("seed", range(6))
def test_grid_firing_runs_equal_firing_runs_row_by_row(seed):
    """Oracle: the one-series firing_runs of the previous implementation, per row."""
    rng = np.random.default_rng(seed)
    cond = rng.random((40, 70)) < [0.05, 0.3, 0.7, 0.95][seed % 4]
    for k_for, k_cool in ((0, 0), (1, 0), (0, 3), (2, 2)):
        group, first, stop, ongoing = grid_firing_runs(cond, k_for, k_cool)
        rows = [oracle_episodes.firing_runs(cond[g], k_for, k_cool) for g in range(len(cond))]
        np.testing.assert_array_equal(group, np.repeat(np.arange(len(cond)),
                                                       [len(r[0]) for r in rows]))
        for got, i in ((first, 0), (stop, 1), (ongoing, 2)):
            np.testing.assert_array_equal(got, np.concatenate([r[i] for r in rows]))
        for g in range(len(cond)):
            for a, b in zip(firing_runs(cond[g], k_for, k_cool), rows[g], strict=True):
                np.testing.assert_array_equal(a, b)
                assert a.dtype == b.dtype


def test_episodes_in_small_group_chunks_equal_the_oracle(many, monkeypatch):
    """Chunks of a few groups (the chunk size is a memory bound, never a change of result)."""
    import budgetlab.alerts.firing as firing_module

    _, bins = many
    monkeypatch.setattr(firing_module, "_CHUNK_BYTES", 3 * 200 * 8 * 7)
    pol = fast_policy(cooldown="4min")
    _assert_same(alert_episodes(bins, 0.95, pol), oracle_alert_episodes(bins, 0.95, pol))


@pytest.mark.parametrize("seed", range(4))
def test_merge_intervals_equals_the_loop(seed):
    """Oracle: the previous loop (tests/alerts/oracle_scoring.py _merge_intervals)."""
    from budgetlab.alerts.group_scores import merge_intervals

    rng = np.random.default_rng(seed)
    n = 300
    gi = rng.integers(0, 7, n)
    st = rng.integers(0, 1000, n)
    en = st + rng.integers(0 if seed < 3 else -5, 60, n)
    for got, want in zip(merge_intervals(gi, st, en), oracle_scoring._merge_intervals(gi, st, en),
                         strict=True):
        np.testing.assert_array_equal(got, want)
        assert got.dtype == want.dtype


@pytest.mark.parametrize("kernel", ["numpy", "compiled"])
def test_both_kernels_equal_the_oracle(many, monkeypatch, kernel):
    """The numpy path (BUDGETLAB_KERNEL=numpy, or no numba) and the compiled one give the oracle's
    table."""
    from budgetlab.windows.kernels import compiled

    monkeypatch.setenv("BUDGETLAB_KERNEL", "numpy" if kernel == "numpy" else "")
    if kernel == "compiled" and compiled("tier_runs") is None:
        pytest.skip("numba is not installed")
    _, bins = many
    for pol in (fast_policy(), fast_policy(for_="3min", cooldown="2min")):
        _assert_same(alert_episodes(bins, 0.97, pol), oracle_alert_episodes(bins, 0.97,
                                                                                     pol))


def test_low_traffic_in_small_group_chunks_equals_the_oracle(many, monkeypatch):
    import budgetlab.alerts.lowtraffic as lowtraffic_module

    _, bins = many
    monkeypatch.setattr(lowtraffic_module, "_CHUNK_BYTES", 16 * 180 * 7)
    _assert_same(
        low_traffic(bins, 0.99, fast_policy()),
        oracle_lowtraffic.low_traffic(bins, 0.99, fast_policy()),
    )
