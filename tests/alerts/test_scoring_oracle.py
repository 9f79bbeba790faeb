"""score_alerts / incident_detections equal the dense implementation they replaced
(tests/alerts/oracle_scoring.py, a verbatim copy), on random data with 2,000+ groups."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab.alerts import scoring
from budgetlab.alerts.episodes import alert_episodes
from budgetlab.windows.binning import bin_events
from tests.alerts.oracle_compare import (
    assert_same_as_oracle,
    oracle_alert_episodes,
    oracle_incident_detections,
    oracle_score_alerts,
)
from tests.alerts.sre_oracle_data import fast_policy, incidents_for, make_events, per_group_slos


def score_alerts(*args, **kw):
    """The oracle predates ``filling='apart'``: it is compared with the rule it has, ``count``
    (apart vs count: tests/alerts/test_filling.py)."""
    return scoring.score_alerts(*args, filling="count", **kw)


def incident_detections(*args, **kw):
    return scoring.incident_detections(*args, filling="count", **kw)


def _assert_same(got: pd.DataFrame, want: pd.DataFrame) -> None:
    assert_same_as_oracle(got, want)


@pytest.fixture(scope="module")
def many():
    ev = make_events(2000, seed=11, hours=2, per_group=15)
    bins = bin_events(ev, "1min", by="sitekey")
    pol = fast_policy()
    episodes = oracle_alert_episodes(bins, 0.95, pol)
    return ev, bins, pol, episodes


def test_score_alerts_equals_the_dense_oracle_on_2000_groups(many):
    ev, bins, pol, episodes = many
    inc = incidents_for(ev, seed=1, n=8)
    assert len(episodes) > 100
    # a period within the 2 h span (a longer one withholds the budget figures: test_scoring.py)
    got = score_alerts(episodes, inc, bins=bins, target=0.95, grace="10min", period="1h")
    _assert_same(got, oracle_score_alerts(episodes, inc, bins=bins, target=0.95,
                                                  grace="10min", period="1h"))
    got = score_alerts(episodes, inc, grace="0s")
    _assert_same(got, oracle_score_alerts(episodes, inc, grace="0s"))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_score_and_detections_equal_the_oracle_with_per_group_slos(seed):
    ev = make_events(24, seed=seed, hours=4, per_group=60, two_keys=seed == 2)
    by = ["region", "sitekey"] if seed == 2 else "sitekey"
    bins = bin_events(ev, "1min", by=by)
    keys = sorted(ev["sitekey"].astype(str).unique()) if seed != 2 else None
    target = per_group_slos(keys) if keys else 0.97
    pol = fast_policy(for_="2min", cooldown="3min") if seed == 1 else "workbook"
    if pol == "workbook":
        pol = fast_policy()
    episodes = oracle_alert_episodes(bins, target, pol)
    inc = incidents_for(ev, seed=seed)
    for kw in ({"bins": bins, "target": target, "period": "2h"}, {}):  # within the 4 h span
        _assert_same(score_alerts(episodes, inc, **kw), oracle_score_alerts(episodes, inc,
                                                                                    **kw))
        _assert_same(incident_detections(episodes, inc, **kw),
                     oracle_incident_detections(episodes, inc, **kw))
    # and on the episodes of the current alert_episodes
    _assert_same(alert_episodes(bins, target, pol), episodes)


def test_score_without_episodes_or_incidents_equals_the_oracle():
    ev = make_events(30, seed=7, hours=3, per_group=40)
    bins = bin_events(ev, "1min", by="sitekey")
    pol = fast_policy()
    episodes = oracle_alert_episodes(bins, 0.95, pol)
    inc = incidents_for(ev, seed=5)
    none = episodes.iloc[:0]
    kw = {"bins": bins, "target": 0.95, "period": "1h"}  # within the 3 h span
    _assert_same(score_alerts(none, inc, policy=pol, **kw),
                 oracle_score_alerts(none, inc, policy=pol, **kw))
    _assert_same(score_alerts(episodes, inc.iloc[:0], **kw),
                 oracle_score_alerts(episodes, inc.iloc[:0], **kw))


def test_score_of_overlapping_hand_made_episodes_equals_the_oracle():
    """Episodes of one tier that overlap each other (a hand-made table): matched pair by pair."""
    ev = make_events(20, seed=8, hours=3, per_group=50)
    bins = bin_events(ev, "1min", by="sitekey")
    pol = fast_policy()
    episodes = oracle_alert_episodes(bins, 0.9, pol)
    shifted = episodes.assign(start=episodes["start"] + pd.Timedelta("3min"),
                              end=episodes["end"] + pd.Timedelta("7min"))
    both = pd.concat([episodes, shifted], ignore_index=True)
    both.attrs = dict(episodes.attrs)
    inc = incidents_for(ev, seed=8, n=12)
    _assert_same(
        score_alerts(both, inc, bins=bins, target=0.9, period="1h"),  # within the 3 h span
        oracle_score_alerts(both, inc, bins=bins, target=0.9, period="1h"),
    )


def test_score_alerts_equals_the_oracle_on_benchmark_shaped_data():
    """The benchmark's case (benchmarks/bench_groups.py) at a small scale: generator events over 3
    days, 800 groups drawn per event, workbook tiers, generated incidents, scored with bins."""
    from budgetlab import AlertPolicy, synth

    events, incidents = synth.generate("2026-01-05", 3, seed=3, rate=0.3, session_ids=False)
    codes = np.random.default_rng(20).integers(0, 800, len(events))
    ev = events[["ts", "ok", "bucket"]].copy()
    ev["group"] = pd.Categorical.from_codes(codes, categories=[f"g{i:05d}" for i in range(800)])
    bins = bin_events(ev, "1min", by="group")
    pol = AlertPolicy.workbook(period="3D")
    episodes = alert_episodes(bins, 0.95, pol)
    assert len(episodes) > 1000 and len(incidents) > 0
    # a period within the span (just under 3 d: first to last bin)
    got = score_alerts(episodes, incidents, bins=bins, target=0.95, period="2D")
    _assert_same(got, oracle_score_alerts(episodes, incidents, bins=bins, target=0.95,
                                                  period="2D"))
