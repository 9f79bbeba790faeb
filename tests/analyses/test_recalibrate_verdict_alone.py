"""A current target too demanding for the evidence withholds the verdict alone: the recommendation
is judged at its own level, as without a current target (it was withheld with the verdict, so that
giving ``target=`` gave less answer than leaving it out). Figures worked out by hand."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from budgetlab import read_events
from budgetlab.analyses.recalibration import recalibrate

APACHE = Path(__file__).parents[1] / "fixtures" / "elastic_apache" / "apache_logs"
_RECOMMENDATION = ["recommended_target", "recommended_low", "recommended_high",
                   "recommended_capped", "recommendation_note", "events", "p1", "p50",
                   "events_per_day"]


@pytest.fixture(scope="module")
def all_success() -> pd.DataFrame:
    """2,061 successes: one at 00:00:00, then one every minute from 00:00:30. Under a 1 h window
    the first hour is warm-up (the window fills until 01:00:00): 00:00:00 and 00:00:30 ..
    00:59:30 are 61 events, which leaves 2,000 evaluated ones (01:00:30 .. 2026-11-02 10:19:30),
    on 2 days, over 33 h 19 min 30 s of evaluated time."""
    ts = pd.Timestamp("2026-11-01 00:00:30", tz="UTC") + pd.to_timedelta(np.arange(2060),
                                                                         unit="min")
    ts = ts.insert(0, pd.Timestamp("2026-11-01 00:00:00", tz="UTC"))
    ev = pd.DataFrame({"ts": ts.astype("datetime64[ns, UTC]"), "ok": True})
    ev["bucket"] = pd.Categorical(["success"] * len(ev))
    return ev


def test_a_thin_current_target_keeps_the_recommendation_of_a_run_without_it(all_success):
    # no failure: every candidate spends no time EXHAUSTED, so the rule takes the highest target
    # the 2,000 events support, 1 - 10 / 2000 = 0.995 (2,000 x 0.005 = 10 expected failures);
    # under the current 0.999 they hold 2,000 x 0.001 = 2 expected failures, fewer than 10 (a
    # verdict needs 10 / 0.001 = 10,000 events): the verdict alone is withheld
    # max_share=0.05: under 1 % the window's rule withholds 0.995 (g63recal): one failure in the
    # 60 events of a 1 h window puts it at 98.33 %, EXHAUSTED under 0.995 for up to 1 h of the
    # 33 h 19 min 30 s (3.0 % > 1 %); within 5 % it stays within the limit
    bare = recalibrate(all_success, window="1h", n_boot=20, max_share=0.05).summary.iloc[0]
    given = recalibrate(all_success, window="1h", n_boot=20, target=0.999,
                        max_share=0.05).summary.iloc[0]
    assert given["events"] == 2000 and given["failures"] == 0
    for r in (bare, given):
        assert r["recommended_target"] == pytest.approx(0.995, abs=1e-12)
        # every resampled history has no failure either: the same 0.995
        assert r["recommended_low"] == pytest.approx(0.995, abs=1e-12)
        assert r["recommended_high"] == pytest.approx(0.995, abs=1e-12)
    assert given["verdict"] == "withheld" and pd.isna(given["current_share_limit"])
    assert given["current_target"] == 0.999
    assert given["action"] == "use 0.995 (capped: as high as 2,000 events can judge)"
    assert given["action"] == bare["action"]
    assert given["verdict_reason"] == (
        "2,000 events in the evaluated span: too few for a verdict (under 99.9 % they hold 2 "
        "expected failures; one needs at least 10, i.e. 10,000 events); the verdict alone "
        "is withheld: the recommendation is judged at its own level, as without a current target "
        "(at 0.995 the 2,000 events hold 10 expected failures)")
    # the figures over the evaluated time stay: the rolling rate is 100 % throughout
    assert given["p1"] == 1.0 and given["p50"] == 1.0
    # 2,000 events over 33 h 19 min 30 s of evaluated time
    assert given["events_per_day"] == pytest.approx(2000 / ((33 * 3600 + 19 * 60 + 30) / 86400))


def test_a_current_target_the_evidence_carries_still_gets_its_verdict(all_success):
    # under 0.995 the 2,000 events hold 10 expected failures: enough, a verdict
    r = recalibrate(all_success, window="1h", n_boot=20, target=0.995).summary.iloc[0]
    assert r["verdict"] == "ok" and r["action"] == "keep 0.995"
    assert "verdict alone" not in r["verdict_reason"]


def test_the_apache_get_figures_do_not_depend_on_the_current_target():
    # GET: 9,878 evaluated events hold 9.878 expected failures under 99.9 % (fewer than 10): no
    # verdict. The rule's 0.991 (just below 118 / 119, the rate of a window holding one of its 2
    # failures) measures the window (g63recal): a 1 h window holds ~119 events, one failure puts
    # it at 99.16 %, below the group's Wilson low (9,876 of 9,878: 99.93 %), for up to 1 h of its
    # 82 h (1.22 % > 1 %): withheld in words, with and without a target alike
    ev = read_events(APACHE, preset="access", by=["method"])
    runs = [recalibrate(ev, by="method", window="1h", n_boot=30, **kw).summary.set_index("method")
            for kw in ({}, {"target": 0.999})]
    bare, given = (s.loc["GET"] for s in runs)
    assert (bare["events"], bare["failures"]) == (9878, 2)
    assert np.isnan(bare["recommended_target"])
    assert "so one failure moves the rate 0.84 points" in bare["recommendation_note"]
    pd.testing.assert_series_equal(bare[_RECOMMENDATION], given[_RECOMMENDATION])
    assert given["verdict"] == "withheld" and given["action"] == ""
    assert given["verdict_reason"].startswith("9,878 events in the evaluated span: too few for a "
                                              "verdict")
