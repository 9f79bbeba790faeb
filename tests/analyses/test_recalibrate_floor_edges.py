"""The floor of recalibrate's candidates at its edges: a rolling rate whose 1 % quantile is 50 %,
the lowest usual target, itself (the note says only a target below 50 % meets the rule, never
that 50 % is "below" the quantile), and a ``max_share`` under 1 % (the range starts below the
``max_share`` quantile, not below ``p1``, so a target that meets the rule is among the
candidates). Both logs are written out by hand below; every share is counted from them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import budgetlab as bl

MIN = 60 * 10**9  # ns


def _log(every_min: int, n: int, failing: list[int]) -> pd.DataFrame:
    ts = pd.Timestamp("2026-03-02", tz="UTC") + pd.to_timedelta(np.arange(n) * every_min,
                                                                unit="min")
    ok = np.ones(n, dtype=bool)
    ok[failing] = False
    return pd.DataFrame({"ts": ts, "ok": ok})


@pytest.mark.parametrize("max_share", [0.01, 0.001])
def test_a_quantile_of_exactly_50_percent_says_only_a_target_below_50_meets_the_rule(max_share):
    """An event every 30 min for 3 days (t_k = k x 30 min, k = 0..143), event 72 failing, a 1 h
    window. Evaluated: [t_0 + 1 h, t_143) = 71.5 h - 1 h = 4,230 min. The window [tau - 1 h, tau]
    holds two events between arrivals (k - 1, k) and three for the 1 ns at an arrival. Event 72
    is in it from t_72 to 1 ns after t_74: [t_72 + 1 ns, t_73) and [t_73 + 1 ns, t_74) hold it
    with one success, rate 1/2, 2 x (30 min - 1 ns) = 60 min - 2 ns; the three 1 ns instants at
    t_72, t_73, t_74 hold 2/3; every other window is at 1. Nothing is below 1/2, and 1/2 holds
    (60 min - 2 ns) / 4,230 min = 1.418 % of the time, at least 1 % (and 0.1 %): the 1 % (and
    0.1 %) quantile is 50 % exactly. 50 % is EXHAUSTED (rate <= target) those 1.418 % > the
    limit; every target below 50 % would be EXHAUSTED 0 % of the time: the rule's target lies
    below 50 %, where the usual targets stop. No recommendation, and the note says so."""
    r = bl.recalibrate(_log(30, 144, [72]), window="1h", max_share=max_share, n_boot=0)
    s = r.summary.iloc[0]
    assert s["hours"] == 70.5 and s["p1"] == 0.5
    at_50 = r.candidates.set_index("target").loc[0.5, "share_exhausted"]
    assert at_50 == pytest.approx((60 * MIN - 2) / (4230 * MIN), rel=1e-12)
    assert np.isnan(s["recommended_target"])
    quantile = "1 %" if max_share == 0.01 else "0.1 %"
    limit = "1 %" if max_share == 0.01 else "0.1 %"
    assert s["recommendation_note"].startswith(
        "no usual target meets the rule: even 50 %, the lowest usual target, is EXHAUSTED or "
        f"worse 1.42 % of the time (limit {limit}); the rolling rate's {quantile} quantile "
        "(50.00 %) is 50 % itself: only a target below 50 %, where the usual targets stop, "
        "would meet the rule; ")
    assert "below the rolling rate" not in s["recommendation_note"]  # 50 % is not below 50 %


def test_a_max_share_under_1_percent_starts_the_candidates_below_its_own_quantile():
    """An event every 10 min for 3 days (t_k = k x 10 min, k = 0..431), events 200 and 205
    failing, a 1 h window. Evaluated: [t_0 + 1 h, t_431) = 4,310 - 60 = 4,250 min. Between
    arrivals the window holds six events (k - 5..k), for 1 ns at an arrival seven; an event is in
    it from its arrival to 1 ns after arrival + 1 h.

    Both failures in it: [t_205, t_206 + 1 ns): rate 4/6 over [t_205 + 1 ns, t_206) = 10 min - 1 ns
    (0.235 % of the time), 5/7 at the two 1 ns instants. One of them: [t_200, t_205) and
    [t_206 + 1 ns, t_211 + 1 ns): 5/6 over 10 x (10 min - 1 ns) = 100 min - 10 ns (2.35 %), 6/7 at
    ten 1 ns instants. Else 1.

    The 1 % quantile (42.5 min of the time) is 5/6: p1 = 83.33 %. The 0.1 % quantile (4.25 min)
    is 4/6 = 66.67 %. A target t is EXHAUSTED while the rate is <= t: at 0.67 .. 0.8 for
    10 min + 1 ns (0.235 %), below 2/3 never. With max_share=0.001 the rule's target is the
    highest candidate below 2/3: 0.665 (fine steps of 0.005 between 50 % and 75 %). Before,
    the candidates started at 0.8, the usual target below p1, EXHAUSTED 0.235 % > 0.1 % of the
    time like every candidate above it: no recommendation. With max_share=0.01 the 1 %
    quantile is the floor as before: 0.83 (0.235 %), not 0.835 (>= 5/6: 110 min, 2.59 %)."""
    events = _log(10, 432, [200, 205])
    r = bl.recalibrate(events, window="1h", max_share=0.001, n_boot=0,
                       candidates=[0.665, 0.67, 0.8, 0.83, 0.835])
    s = r.summary.iloc[0]
    assert s["hours"] * 60 == pytest.approx(4250, rel=1e-12) and s["p1"] == 5 / 6
    shares = r.candidates.set_index("target")["share_exhausted"]
    assert shares.loc[0.665] == 0.0
    assert shares.loc[0.67] == pytest.approx((10 * MIN + 1) / (4250 * MIN), rel=1e-12)
    assert shares.loc[0.8] == pytest.approx((10 * MIN + 1) / (4250 * MIN), rel=1e-12)
    # the rule's target would be 0.665 (shares above) and 0.83 with max_share=0.01 (below); both
    # measure the window (g63recal): six events in it, one failure puts it at 5/6 = 83.33 %,
    # below the Wilson low of the group's 423 of 425 evaluated events (~98.3 %), for up to 1 h
    # of its 4,250 min (1.41 %, over either limit): the recommendation is withheld in words
    assert np.isnan(s["recommended_target"])
    assert "a 1 h window holds ~6 events" in s["recommendation_note"]
    one = bl.recalibrate(events, window="1h", max_share=0.01, n_boot=0,
                         candidates=[0.83, 0.835])
    shares = one.candidates.set_index("target")["share_exhausted"]
    assert shares.loc[0.83] == pytest.approx((10 * MIN + 1) / (4250 * MIN), rel=1e-12)
    assert shares.loc[0.835] > 0.01
    assert np.isnan(one.summary.iloc[0]["recommended_target"])
