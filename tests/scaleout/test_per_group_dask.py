"""Per-group SLOs (issue 16) on Dask: budgetlab.dask.replay / transitions / bin_events + the SRE
model
equal the pandas path (itself tested equal to per-group runs in
tests/budget/test_per_group_replay.py).

Oracle: the pandas functions on the same rows; compared exactly.
"""

from __future__ import annotations

import pickle
import warnings

import dask.dataframe as dd
import numpy as np
import pandas as pd
import pytest
from distributed import Client, LocalCluster

import budgetlab.dask as bd
from budgetlab import SLO, PerGroup, as_events, replay, replay_summary, transitions
from budgetlab.alerts.episodes import alert_episodes
from budgetlab.budget.period import period_budget
from budgetlab.errors import BudgetlabWarning, ConfigError
from budgetlab.windows.binning import bin_events
from tests.same_frames import assert_same

# xdist_group: with -n, one worker runs the tests that start a Dask cluster
pytestmark = [pytest.mark.dask, pytest.mark.xdist_group("dask_cluster")]

T0 = pd.Timestamp("2026-03-01", tz="UTC")
SLOS = PerGroup({
    ("recaptcha_v2", "fra"): SLO(0.93, window="1h", min_events=3, period="6h"),
    ("turnstile", "fra"): SLO(0.97, window="30min", warning=0.6, critical=0.2),
}, default=SLO(0.9, window="2h", min_events=5, period="6h"))
BY = ["captcha_type", "region"]


@pytest.fixture(scope="module")
def client():
    """A LocalCluster and its Client for this module, closed at its end (no cluster outlives
    the module: tests/leaks.py)."""
    with (LocalCluster(n_workers=1, threads_per_worker=1, processes=True, memory_limit="1GiB",
                      dashboard_address=":0") as cluster,
          Client(cluster) as c):
        yield c


def events(n=4000, seed=5):
    rng = np.random.default_rng(seed)
    t = T0 + pd.to_timedelta(np.cumsum(rng.choice([0, 1, 5, 30, 120], size=n)), unit="s")
    kind = rng.choice(["recaptcha_v2", "turnstile", "image"], size=n)
    ok = rng.random(n) >= np.where(kind == "image", 0.12, 0.05)
    ok[1000:1040] = False
    return as_events(t, ok, groups={"captcha_type": kind, "region": rng.choice(["fra", "ams"],
                                                                               size=n)})


def test_per_group_slos_travel_to_the_workers():
    assert pickle.loads(pickle.dumps(SLOS)).table == SLOS.table


def test_dask_replay_and_transitions_with_per_group_slos_equal_pandas(client):
    ev = events()
    ddf = dd.from_pandas(ev, npartitions=4, sort=False)
    got = bd.replay(ddf, SLOS, by=BY).compute()
    want = replay(ev, SLOS, by=BY)
    assert got.attrs == want.attrs  # the PerGroup and keys: what replay_summary reads
    # sorting by event_id restores the event table's order (from_pandas keeps it, partition by
    # partition)
    pd.testing.assert_frame_equal(got.sort_index().reset_index(drop=True),
                                  want.reset_index(drop=True),
                                  check_exact=True)
    assert_same(bd.transitions(bd.replay(ddf, SLOS, by=BY)), transitions(replay(ev, SLOS, by=BY)))
    # the pandas summary is the oracle (the per-group replay is tested against per-group runs)
    assert_same(replay_summary(got.sort_index(), ddf.compute()), replay_summary(want, ev))


def test_dask_replay_refuses_per_group_slos_without_by_and_names_missing_groups(client):
    ddf = dd.from_pandas(events(n=200), npartitions=2, sort=False)
    with pytest.raises(ConfigError, match="by="):
        bd.replay(ddf, SLOS)
    with pytest.raises(ConfigError, match="image"):
        bd.replay(ddf, {("turnstile", "fra"): 0.97}, by=BY).compute()


def test_sre_model_with_per_group_slos_on_dask_bins_equals_pandas(client):
    ev = events()
    ddf = dd.from_pandas(ev, npartitions=4, sort=False)
    bins_dd = bd.bin_events(ddf, "1min", by=BY)
    bins_pd = bin_events(ev, "1min", by=BY)
    assert_same(bins_dd, bins_pd)
    assert_same(period_budget(bins_dd, SLOS), period_budget(bins_pd, SLOS))
    assert_same(alert_episodes(bins_dd, SLOS, "single_window"),
                alert_episodes(bins_pd, SLOS, "single_window"))


def test_dask_replay_names_every_group_without_an_slo_not_one_partitions(client):
    # Groups a..f, twice over, in three partitions. Only a has an SLO, so b, c, d, e and f have
    # none; before, only the groups of the partition that failed first were named (b, d, e, f).
    ev = as_events(pd.date_range(T0, periods=12, freq="min"), [True] * 12,
                   groups={"g": list("abcdef") * 2})
    ddf = dd.from_pandas(ev, npartitions=3, sort=False)
    with pytest.raises(ConfigError, match=r"no SLO for the groups b, c, d, e, f; "):
        bd.replay(ddf, {"a": 0.9}, by="g").compute()


def test_dask_replay_says_nothing_of_a_partitions_span_or_groups():
    """Each partition holds a part of the log, and the pandas kernel's warnings on it spoke of
    the partition as of the log: "slo= names a, zz, which the events do not have" (a is in the
    events) and "the window (28 d) is longer than the data (5 min)" (the log spans 11 min).
    Computed in this process (no cluster), where a worker's warning would reach the caller."""
    ev = as_events(pd.date_range(T0, periods=12, freq="min"), [True] * 12,
                   groups={"g": list("abcdef") * 2})
    ddf = dd.from_pandas(ev, npartitions=3, sort=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        # tasks: p2p, the default while another test's cluster runs, needs a worker
        got = bd.replay(ddf, PerGroup({"a": 0.9, "zz": 0.9}, default=0.9), by="g",
                        shuffle_method="tasks").compute(scheduler="synchronous")
    assert [str(w.message) for w in caught if issubclass(w.category, BudgetlabWarning)] == []
    assert len(got) == 12
