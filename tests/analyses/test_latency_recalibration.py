"""Latency recalibration: a threshold x target table computed by hand, the frontier, the notes."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab import SLO
from budgetlab.analyses.latency_recalibration import latency_recalibrate
from budgetlab.errors import ConfigError


def every_ten_minutes(slow_at_min=12 * 60, slow_seconds=13.0, days=2, timeout_row=False):
    """One success every 10 min for ``days`` days, 5 s each, one of them (at ``slow_at_min``) slower."""
    n = days * 144
    ts = pd.Timestamp("2026-01-01", tz="UTC") + pd.to_timedelta(np.arange(n) * 10, unit="min")
    sec = np.full(n, 5.0)
    sec[slow_at_min // 10] = slow_seconds
    bucket = np.array(["success"] * n, dtype=object)
    if timeout_row:
        bucket[-1], sec[-1] = "timeout", 30.0
    return pd.DataFrame({"ts": ts.as_unit("ns"), "ok": bucket == "success",
                         "bucket": pd.Categorical(bucket, categories=["success", "timeout"], ordered=True),
                         "duration": pd.to_timedelta(sec, unit="s").as_unit("ns")})


def test_table_and_frontier_by_hand():
    ev = every_ten_minutes()
    r = latency_recalibrate(ev, slo=SLO(target=0.9, window="1h"), thresholds=["10s", "20s"],
                            candidates=[0.5, 0.9], n_boot=50)
    t = r.table.set_index(["threshold", "target"])
    # observation [00:00, 47:50), warm-up to 01:00: 46 h 50 min observed after warm-up. At 10 s the 13 s success
    # at 12:00 fails; it is in the window through 13:00 inclusive (leaves 1 ns later). With 6 or 7 events in
    # the window, target 0.9 allows 0.6-0.7 failures: exhausted for that hour; target 0.5 allows 3-3.5: healthy.
    observed = (46 * 60 + 50) * 60e9
    assert t.loc[(pd.Timedelta("10s"), 0.9), "limit_share"] == pytest.approx((3600e9 + 1) / observed, rel=1e-12)
    assert t.loc[(pd.Timedelta("10s"), 0.5), "limit_share"] == 0.0
    assert t.loc[(pd.Timedelta("20s"), 0.9), "limit_share"] == 0.0
    assert t.loc[(pd.Timedelta("10s"), 0.9), "observed_time"] == pd.Timedelta(observed, unit="ns")
    s = r.summary.set_index("threshold")["supported_target"]
    assert s.to_dict() == {pd.Timedelta("10s"): 0.5, pd.Timedelta("20s"): 0.9}
    f = r.frontier.set_index("target")["smallest_threshold"]
    assert f.to_dict() == {0.5: pd.Timedelta("10s"), 0.9: pd.Timedelta("20s")}
    # the bootstrap interval holds the point value; a day without the slow hour supports 0.9
    row = r.summary.set_index("threshold").loc[pd.Timedelta("10s")]
    assert row["supported_low"] <= 0.5 <= row["supported_high"] == 0.9


def test_looser_limit_share_changes_the_answer():
    ev = every_ten_minutes()
    r = latency_recalibrate(ev, slo=SLO(target=0.9, window="1h"), thresholds=["10s"], candidates=[0.5, 0.9],
                            max_share=0.05, n_boot=20)
    assert r.summary["supported_target"].iloc[0] == 0.9  # 2.1 % of the time at or over the limit <= 5 %


def test_no_supported_target_and_the_frontier_gap_are_said():
    ev = every_ten_minutes()
    r = latency_recalibrate(ev, slo=SLO(target=0.9, window="1h"), thresholds=["10s"], candidates=[0.9, 0.95],
                            n_boot=20)
    assert np.isnan(r.summary["supported_target"].iloc[0])
    assert "no candidate target supported" in r.summary["note"].iloc[0]
    assert r.frontier["smallest_threshold"].isna().all()
    assert (r.frontier["note"] == "no threshold in the grid supports this target").all()


def test_threshold_at_the_timeout_equals_availability():
    ev = every_ten_minutes(timeout_row=True)
    r = latency_recalibrate(ev, slo=SLO(target=0.9, window="1h"), thresholds=["10s", "30s"], candidates=[0.5],
                            n_boot=10)
    s = r.summary.set_index("threshold")
    assert not s.loc[pd.Timedelta("10s"), "equals_availability"]
    assert s.loc[pd.Timedelta("30s"), "equals_availability"]
    assert "equals availability" in s.loc[pd.Timedelta("30s"), "note"]


def test_per_group_slos_are_refused_with_the_reason():
    with pytest.raises(ConfigError, match="per-group"):
        latency_recalibrate(every_ten_minutes(), slo={"a": SLO(target=0.9, window="1h")}, thresholds=["10s"])
