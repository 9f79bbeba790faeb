"""Each convention of the tracker model, stated once and tested here with hand-computed cases.

Window closure, tie order, units, zero traffic, UTC, thresholds, the seed's float detail, and the
identity remaining_fraction == 1 - burn_rate (clipped) that makes status a function of burn alone.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab import SLO, Tracker, as_events, replay, transitions

T = pd.Timestamp("2026-11-29 00:00", tz="UTC")


def ev(offsets_s, ok, **kw):
    return as_events([T + pd.Timedelta(seconds=s) for s in offsets_s], ok, **kw)


def test_window_left_edge_is_closed():
    # window 60 s: at t=60 the event at t=0 sits exactly on the cut-off (60 - 60) and stays
    out = replay(ev([0, 60], [False, True]), SLO(window="60s"))
    assert out["total"].tolist() == [1, 2]
    assert out["failures"].tolist() == [1, 1]
    # one nanosecond later it is gone
    out = replay(as_events([T, T + pd.Timedelta(seconds=60, nanoseconds=1)], [False, True]),
                 SLO(window="60s"))
    assert out["total"].tolist() == [1, 1]
    assert out["failures"].tolist() == [1, 0]


def test_ties_keep_table_order_and_do_not_see_later_rows():
    # three events at the same instant: the k-th sees k events (record() order)
    out = replay(ev([5, 5, 5], [True, False, True]), SLO(window="60s"))
    assert out["total"].tolist() == [1, 2, 3]
    assert out["failures"].tolist() == [0, 1, 1]


def test_burn_rate_units_one_is_the_allowed_pace():
    # 100 events, 5 failures at target 0.95: exactly the allowed ratio -> burn 1 (up to the
    # float of 1 - 0.95 = 0.050000000000000044)
    ok = [True] * 95 + [False] * 5
    last = replay(ev(range(100), ok), SLO(target=0.95, window="1h")).iloc[-1]
    assert last["burn_rate"] == 5 / (100 * (1 - 0.95))
    assert last["burn_rate"] == pytest.approx(1.0, abs=1e-12)


def test_seed_float_detail_20_events_1_failure_is_critical_not_exhausted():
    # 20 x (1 - 0.95) = 1.0000000000000009 in IEEE doubles (hand: 0.050000000000000044 * 20),
    # so 1 failure leaves 9e-16 of budget: remaining_fraction > 0 -> critical, not exhausted.
    out = replay(ev(range(20), [True] * 19 + [False]), SLO(target=0.95, window="1h"))
    last = out.iloc[-1]
    assert last["budget_total"] == 1.0000000000000009
    assert 0 < last["remaining_fraction"] < 1e-15
    assert last["status"] == "critical"
    tr = transitions(out)
    assert tr["to_status"].tolist() == ["critical"]
    assert tr["budget_remaining_pct"].tolist() == [0.0]  # the seed's rounding hides the detail


def test_thresholds_are_strict_and_exhausted_is_at_or_below_zero():
    # warning when remaining < 0.5 (strict): 40 events at 0.95 -> budget 2.0000000000000018;
    # 1 failure leaves 1.0000000000000018 / 2.0000000000000018 = 0.5000000000000002 -> healthy
    out = replay(ev(range(40), [True] * 39 + [False]), SLO(target=0.95, window="1h"))
    assert out["remaining_fraction"].iloc[-1] > 0.5
    assert out["status"].iloc[-1] == "healthy"
    # target 0.5, 2 events, 1 failure: budget 1.0, remaining 0 -> exhausted (<= 0)
    out = replay(ev([0, 1], [True, False]), SLO(target=0.5, window="1h"))
    assert out["remaining_fraction"].iloc[-1] == 0.0
    assert out["status"].iloc[-1] == "exhausted"


def test_status_is_a_function_of_burn_rate_alone():
    rng = np.random.default_rng(7)
    n = 5000
    events = as_events(T + pd.to_timedelta(np.sort(rng.uniform(0, 86400, n)), unit="s"),
                       rng.random(n) < 0.96)
    out = replay(events, SLO(target=0.95, window="1h"))
    # identity (mathematically exact; floats agree to a few ulps)
    np.testing.assert_allclose(out["remaining_fraction"], np.clip(1 - out["burn_rate"], 0, None),
                               atol=1e-12)
    burn = out["burn_rate"].to_numpy()
    status = out["status"].astype(str).to_numpy()
    margin = 1e-9  # away from the thresholds the burn rate alone decides
    assert (status[burn < 0.5 - margin] == "healthy").all()
    assert (status[(burn > 0.5 + margin) & (burn < 0.9 - margin)] == "warning").all()
    assert (status[(burn > 0.9 + margin) & (burn < 1 - margin)] == "critical").all()
    assert (status[burn > 1 + margin] == "exhausted").all()


def test_zero_traffic_tracker_is_healthy_and_finite():
    trk = Tracker(SLO())
    s = trk.state()
    assert s["success_rate"] == 1.0 and s["burn_rate"] == 0.0 and s["remaining_fraction"] == 1.0
    assert trk.status == "healthy"
    # after everything leaves the window the tracker sees only the new event
    trk.record(False, ts=T)
    trk.record(True, ts=T + pd.Timedelta(days=2))
    assert trk.total == 1 and trk.failures == 0 and trk.status == "healthy"


def test_times_are_utc_inside():
    local = pd.Timestamp("2026-11-29 03:47", tz="Europe/Berlin")
    events = as_events([local], [True])
    assert str(events["ts"].dt.tz) == "UTC"
    assert events["ts"].iloc[0] == pd.Timestamp("2026-11-29 02:47", tz="UTC")


def test_min_events_holds_status_and_flags_low_traffic():
    # min_events=3: the first failure (1 event in window) would exhaust; it is held at healthy
    out = replay(ev([0, 1, 2], [False, True, True]), SLO(target=0.9, window="1h", min_events=3))
    assert out["low_traffic"].tolist() == [True, True, False]
    assert out["status"].astype(str).tolist() == ["healthy", "healthy", "exhausted"]
    # min_events=0 is the seed: exhausted at once
    out0 = replay(ev([0, 1, 2], [False, True, True]), SLO(target=0.9, window="1h"))
    assert out0["status"].astype(str).tolist() == ["exhausted", "exhausted", "exhausted"]
