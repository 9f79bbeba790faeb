"""Latency recalibration: a threshold x target table computed by hand, the frontier, the notes."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab import SLO
from budgetlab.analyses.latency_recalibration import latency_recalibrate
from budgetlab.errors import ConfigError


def every_ten_minutes(slow_at_min=12 * 60, slow_seconds=13.0, days=2, timeout_row=False):
    """One success every 10 min for ``days`` days, 5 s each, one of them (at ``slow_at_min``)
    slower."""
    n = days * 144
    ts = pd.Timestamp("2026-01-01", tz="UTC") + pd.to_timedelta(np.arange(n) * 10, unit="min")
    sec = np.full(n, 5.0)
    sec[slow_at_min // 10] = slow_seconds
    bucket = np.array(["success"] * n, dtype=object)
    if timeout_row:
        bucket[-1], sec[-1] = "timeout", 30.0
    return pd.DataFrame({"ts": ts.as_unit("ns"), "ok": bucket == "success",
                         "bucket": pd.Categorical(bucket, categories=["success", "timeout"],
                                                  ordered=True),
                         "duration": pd.to_timedelta(sec, unit="s").as_unit("ns")})


def test_table_and_frontier_by_hand():
    ev = every_ten_minutes()
    r = latency_recalibrate(ev, slo=SLO(target=0.9, window="1h"), thresholds=["10s", "20s"],
                            candidates=[0.5, 0.9], n_boot=50)
    t = r.table.set_index(["threshold", "target"])
    # observation [00:00, 47:50), warm-up to 01:00: 46 h 50 min observed after warm-up. At 10 s the
    # 13 s success
    # at 12:00 fails; it is in the window through 13:00 inclusive (leaves 1 ns later). With 6 or 7
    # events in
    # the window, target 0.9 allows 0.6-0.7 failures: exhausted for that hour; target 0.5 allows
    # 3-3.5: healthy.
    observed = (46 * 60 + 50) * 60e9
    assert t.loc[(pd.Timedelta("10s"), 0.9),
                 "limit_share"] == pytest.approx((3600e9 + 1) / observed, rel=1e-12)
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


def test_n_boot_0_gives_the_supported_targets_without_an_interval():
    # recalibrate's rule: 0 skips the bootstrap. The hand-computed answers of
    # test_table_and_frontier_by_hand (0.5 within 10 s, 0.9 within 20 s), no bounds
    r = latency_recalibrate(every_ten_minutes(), slo=SLO(target=0.9, window="1h"),
                            thresholds=["10s", "20s"], candidates=[0.5, 0.9], n_boot=0)
    s = r.summary.set_index("threshold")
    assert s["supported_target"].to_dict() == {pd.Timedelta("10s"): 0.5, pd.Timedelta("20s"): 0.9}
    assert s[["supported_low", "supported_high"]].isna().all().all()
    with pytest.raises(ConfigError, match="n_boot=-1 must be a whole number >= 0"):
        latency_recalibrate(every_ten_minutes(), slo=SLO(target=0.9, window="1h"), n_boot=-1)


def test_a_lower_bound_below_the_grid_is_nan_never_a_negative_figure():
    # 3 days, the slow hour (a whole window CRITICAL or worse under 0.9 within 10 s) on day 1:
    # 1 h of the 70 h 50 min observed after warm-up, 1.4 % <= max_share 2 %, so 0.9 is supported.
    # A day-block sample holding day 1 twice or more (7 in 27) holds 2 h of ~71 h, 2.8 % > 2 %:
    # no candidate, ranked below the grid, so the 2.5 % bound is NaN ("below the candidates'
    # range" in the lines), never a figure below 0 (the note said "reaches below" for one)
    r = latency_recalibrate(every_ten_minutes(days=3), slo=SLO(target=0.9, window="1h"),
                            thresholds=["10s"], candidates=[0.9], max_share=0.02, n_boot=200)
    row = r.summary.iloc[0]
    assert row["supported_target"] == row["supported_high"] == 0.9
    assert np.isnan(row["supported_low"])
    assert row["note"].startswith("provisional: ") and "below" not in row["note"]
    with pytest.raises(ConfigError, match="candidates=0 must lie in"):
        latency_recalibrate(every_ten_minutes(), slo=SLO(target=0.9, window="1h"),
                            candidates=[0, 0.5])


def test_looser_limit_share_changes_the_answer():
    ev = every_ten_minutes()
    r = latency_recalibrate(ev, slo=SLO(target=0.9, window="1h"), thresholds=["10s"],
                            candidates=[0.5, 0.9],
                            max_share=0.05, n_boot=20)
    # 2.1 % of the time at or over the limit <= 5 %
    assert r.summary["supported_target"].iloc[0] == 0.9


def test_no_supported_target_and_the_frontier_gap_are_said():
    ev = every_ten_minutes()
    r = latency_recalibrate(ev, slo=SLO(target=0.9, window="1h"), thresholds=["10s"],
                            candidates=[0.9, 0.95],
                            n_boot=20)
    assert np.isnan(r.summary["supported_target"].iloc[0])
    assert "no candidate target supported" in r.summary["note"].iloc[0]
    assert r.frontier["smallest_threshold"].isna().all()
    assert (r.frontier["note"] == "no threshold in the grid supports this target").all()


def test_threshold_at_the_timeout_equals_availability():
    ev = every_ten_minutes(timeout_row=True)
    r = latency_recalibrate(ev, slo=SLO(target=0.9, window="1h"), thresholds=["10s", "30s"],
                            candidates=[0.5],
                            n_boot=10)
    s = r.summary.set_index("threshold")
    assert not s.loc[pd.Timedelta("10s"), "equals_availability"]
    assert s.loc[pd.Timedelta("30s"), "equals_availability"]
    assert "equals availability" in s.loc[pd.Timedelta("30s"), "note"]


def two_groups():
    """Groups ``a`` and ``b`` on the same clock (same first and last event, so the same UTC days),
    each with one 13 s success: ``a`` at 12:00, ``b`` at 30:00."""
    a = every_ten_minutes().assign(t="a")
    b = every_ten_minutes(slow_at_min=30 * 60).assign(t="b")
    return pd.concat([a, b]).sort_values("ts", kind="stable").reset_index(drop=True)


def test_per_group_slos_equal_one_run_per_group_under_its_own_slo():
    ev = two_groups()
    slos = {"a": SLO(target=0.9, window="1h"), "b": SLO(target=0.95, window="2h")}
    opts = dict(thresholds=["10s", "20s"], candidates=[0.5, 0.9], n_boot=50, by="t")
    r = latency_recalibrate(ev, slo=slos, **opts)
    # oracle: the single-SLO function on each group's rows alone, with that group's SLO
    alone = {g: latency_recalibrate(ev[ev["t"] == g].reset_index(drop=True), slo=slos[g],
                                    **opts) for g in "ab"}
    for name in ("table", "summary", "frontier"):
        expected = pd.concat([getattr(alone[g], name) for g in "ab"], ignore_index=True)
        pd.testing.assert_frame_equal(getattr(r, name), expected)
    # by hand: a's 1 h window is exhausted for 1 h + 1 ns at target 0.9 (as in
    # test_table_and_frontier_by_hand);
    # b's 2 h window holds 12-13 events, one failure of the 1.2-1.3 allowed at 0.9 leaves over 10 %
    # of the
    # budget: never critical. Warm-up is each group's own window.
    t = r.table.set_index(["t", "threshold", "target"])["limit_share"]
    assert t[("a", pd.Timedelta("10s"),
              0.9)] == pytest.approx((3600e9 + 1) / ((46 * 60 + 50) * 60e9), rel=1e-12)
    assert t[("b", pd.Timedelta("10s"), 0.9)] == 0.0
    obs = r.table.set_index(["t", "threshold", "target"])["observed_time"]
    assert obs[("b", pd.Timedelta("10s"), 0.9)] == pd.Timedelta(hours=45, minutes=50)
    s = r.summary.set_index(["t", "threshold"])
    assert s.loc[("a", pd.Timedelta("10s")), "supported_target"] == 0.5
    assert s.loc[("b", pd.Timedelta("10s")), "supported_target"] == 0.9
    assert (
        s.xs("a")["window"].eq(pd.Timedelta("1h")).all()
        and s.xs("a")["current_target"].eq(0.9).all()
    )
    assert (
        s.xs("b")["window"].eq(pd.Timedelta("2h")).all()
        and s.xs("b")["current_target"].eq(0.95).all()
    )


def three_groups(days=6):
    """Groups ``a``, ``b``, ``c`` on the same clock (one success every 10 min each, 5 s), each with
    slow (13 s) successes at its own random instants: the days differ, so resampled days give
    intervals that are not one point."""
    frames = []
    for seed, name in enumerate("abc"):
        ev = every_ten_minutes(days=days).assign(t=name)
        slow = np.random.default_rng(seed).choice(len(ev), 4 * days, replace=False)
        ev.loc[slow, "duration"] = pd.Timedelta("13s")
        frames.append(ev)
    return pd.concat(frames).sort_values("ts", kind="stable").reset_index(drop=True)


def test_three_groups_two_slos_equal_each_group_alone_bootstrap_included():
    # "a" and "c" share an SLO. Every group has the log's first and last event (the same clock),
    # so a group alone has the log's span and UTC days: its rows of the per-group run equal a run
    # over its events alone under its own SLO, the bootstrap interval included (each group draws
    # from its own generator).
    ev = three_groups()
    slo_ac, slo_b = SLO(target=0.9, window="1h"), SLO(target=0.95, window="2h")
    opts = dict(thresholds=["10s", "20s"], candidates=[0.5, 0.7, 0.8, 0.9], n_boot=40, by="t")
    r = latency_recalibrate(ev, slo={"a": slo_ac, "b": slo_b, "c": slo_ac}, **opts)
    assert r.summary["t"].tolist() == ["a", "a", "b", "b", "c", "c"]
    for g, slo in (("a", slo_ac), ("b", slo_b), ("c", slo_ac)):
        alone = latency_recalibrate(ev[ev["t"] == g].reset_index(drop=True), slo=slo, **opts)
        for name in ("table", "summary", "frontier"):
            got = getattr(r, name)
            got = got[(got["t"] == g).to_numpy()].reset_index(drop=True)
            pd.testing.assert_frame_equal(got, getattr(alone, name), check_exact=True)


def test_a_groups_interval_is_the_same_alone_or_beside_other_groups():
    # Under one SLO: the bootstrap draws of group "c" come from its own generator, seeded by the
    # seed and its key, so the groups beside it change nothing (before, one generator drew the
    # groups in turn: "c" beside "a" and "b" drew after them).
    ev = three_groups()
    opts = dict(slo=SLO(target=0.9, window="1h"), thresholds=["10s"],
                candidates=[0.5, 0.6, 0.7, 0.8, 0.85, 0.9], n_boot=30, by="t", seed=4)
    beside = latency_recalibrate(ev, **opts).summary
    beside = beside[(beside["t"] == "c").to_numpy()].reset_index(drop=True)
    alone = latency_recalibrate(ev[ev["t"] == "c"].reset_index(drop=True), **opts).summary
    pd.testing.assert_frame_equal(beside, alone, check_exact=True)
    # a real interval, not one point the draws could not move
    assert (alone["supported_low"] < alone["supported_high"]).all()


def test_one_slo_for_every_group_given_per_group_is_the_one_slo_run():
    ev = two_groups()
    one = SLO(target=0.9, window="1h")
    opts = dict(thresholds=["10s"], candidates=[0.5, 0.9], n_boot=20, by="t")
    per = latency_recalibrate(ev, slo={"a": one, "b": one}, **opts)
    plain = latency_recalibrate(ev, slo=one, **opts)
    for name in ("table", "summary", "frontier"):
        pd.testing.assert_frame_equal(getattr(per, name), getattr(plain, name))


def test_per_group_slos_need_group_keys_and_every_group():
    with pytest.raises(ConfigError, match="group keys"):
        latency_recalibrate(two_groups(), slo={"a": SLO(target=0.9, window="1h")},
                            thresholds=["10s"])
    with pytest.raises(ConfigError, match="no SLO for the group"):
        latency_recalibrate(two_groups(), slo={"a": SLO(target=0.9, window="1h")},
                            thresholds=["10s"], by="t")


def test_a_target_the_evidence_is_too_thin_for_is_withheld_in_words():
    # 288 events, of which the first hour's 6 (00:00 .. 00:50) are warm-up: 282 in the evaluated
    # span (the one at 01:00 is a full window after the first). Under 0.99 they hold 2.82
    # expected failures (fewer than 10): 0.99 is never supported, though no event is slower than
    # 20 s; 0.9 (28.2 expected failures) is judged as usual, and the supported target stops there
    ev = every_ten_minutes()
    r = latency_recalibrate(ev, slo=SLO(target=0.9, window="1h"), thresholds=["20s"],
                            candidates=[0.9, 0.99], n_boot=20)
    t = r.table.set_index("target")
    assert t.loc[0.99, "limit_share"] == 0.0 and not t.loc[0.99, "supported"]
    assert t.loc[0.9, "supported"]
    row = r.summary.iloc[0]
    # both days support 0.9 whole: every resample does too
    assert (row["supported_target"], row["supported_low"], row["supported_high"]) == (0.9, 0.9,
                                                                                       0.9)
    # 10 expected failures under 99 % need 10 / 0.01 = 1,000 events
    # and the history is short: 1 Jan 01:00 (after the 1 h warm-up) to 2 Jan 23:50, 46 h 50 min
    assert row["note"] == ("99 % would need 1,000 events in the evaluated span (10 expected "
                           "failures); it holds 282: the supported target stops at 0.9; "
                           "provisional: 1 d 22 h of evaluated history, less than the 14 d a "
                           "recommendation needs; re-run with more history")
    f = r.frontier.set_index("target")
    assert f.loc[0.9, "smallest_threshold"] == pd.Timedelta("20s") and f.loc[0.9, "note"] == ""
    assert pd.isna(f.loc[0.99, "smallest_threshold"])
    assert f.loc[0.99, "note"] == ("282 events in the evaluated span: too few for a verdict "
                                   "(under 99 % they hold 2.82 expected failures; one needs "
                                   "at least 10, i.e. 1,000 events)")


def test_too_thin_for_even_the_lowest_candidate_withholds_the_whole_row_in_words():
    # 282 evaluated events under 0.97 hold 8.46 expected failures: fewer than 10 (10 / 0.03 =
    # 333.3, so 334 events would do); nothing is supported, nothing is on the frontier
    ev = every_ten_minutes()
    r = latency_recalibrate(ev, slo=SLO(target=0.9, window="1h"), thresholds=["20s"],
                            candidates=[0.97, 0.99], n_boot=20)
    assert not r.table["supported"].any() and r.frontier["smallest_threshold"].isna().all()
    row = r.summary.iloc[0]
    assert np.isnan([row["supported_target"], row["supported_low"], row["supported_high"]]).all()
    assert row["note"] == ("withheld: 282 events in the evaluated span: too few for a verdict "
                           "(under 97 % they hold 8.46 expected failures; one needs at "
                           "least 10, i.e. 334 events)")


def test_the_supported_target_stops_at_the_highest_candidate_the_evidence_can_judge():
    # a user's case: 432 fast successes over three days under a 24 h window. The first day is
    # warm-up, so 288 events are in the evaluated span: 95 % (14.4 expected failures) can be
    # judged, 97.5 % (7.2) cannot. The rule alone would give 99.9 % (no event slower than 20 s)
    ev = every_ten_minutes(days=3, slow_seconds=5.0)
    r = latency_recalibrate(ev, slo=SLO(target=0.9, window="24h"), thresholds=["20s"],
                            n_boot=20)
    row = r.summary.iloc[0]
    assert (row["supported_target"], row["supported_low"], row["supported_high"]) == (0.95, 0.95,
                                                                                       0.95)
    # and the history is short: 2 Jan 00:00 (after the 24 h warm-up) to 3 Jan 23:50, 47 h 50 min
    assert row["note"] == ("99.9 % would need 10,000 events in the evaluated span (10 expected "
                           "failures); it holds 288: the supported target stops at 0.95; "
                           "provisional: 1 d 23 h of evaluated history, less than the 14 d a "
                           "recommendation needs; re-run with more history")
    t = r.table.set_index("target")["supported"]
    assert t[t].index.tolist() == [0.5, 0.75, 0.8, 0.85, 0.9, 0.95]
    f = r.frontier.set_index("target")
    assert f.loc[0.95, "smallest_threshold"] == pd.Timedelta("20s")
    assert pd.isna(f.loc[0.975, "smallest_threshold"])
    assert f.loc[0.975, "note"].startswith("288 events in the evaluated span: too few for a "
                                           "verdict (under 97.5 % they hold 7.2 expected")


def test_one_day_with_traffic_is_withheld_for_its_time_first():
    # one day with traffic is also too few for the day-block bootstrap, but the more basic
    # reason comes first: 00:00 .. 23:50 less the 1 h warm-up is 22 h 50 min of evaluated time
    ev = every_ten_minutes(days=1, slow_at_min=60)
    r = latency_recalibrate(ev, slo=SLO(target=0.5, window="1h"), thresholds=["20s"],
                            candidates=[0.5],
                            n_boot=20)
    row = r.summary.iloc[0]
    assert np.isnan(row["supported_target"])
    assert row["note"] == ("withheld: only 22 h 50 min of evaluated time, too little for time "
                           "shares and rates per day (at least 24 h)")


def fast_every_minute(start: str, minutes: int, group: str) -> pd.DataFrame:
    """One 5 s success a minute from ``start`` for ``minutes`` minutes, in group ``group``."""
    ts = pd.Timestamp(start, tz="UTC") + pd.to_timedelta(np.arange(minutes), unit="min")
    return pd.DataFrame({"ts": ts.as_unit("ns"), "ok": True, "g": group,
                         "bucket": pd.Categorical(["success"] * minutes,
                                                  categories=["success", "timeout"], ordered=True),
                         "duration": pd.to_timedelta(np.full(minutes, 5.0),
                                                     unit="s").as_unit("ns")})


def test_under_a_day_of_observed_time_gets_no_supported_target_by_the_24_h_rule():
    """recalibrate's rule for time shares (under 24 h of evaluated time: no verdict) holds here.

    By hand, under a 1 h window: ``short`` has one fast success a minute from 1 Jan 21:30 to
    2 Jan 02:30 (301 events). Its warm-up ends at 22:30; ``long`` keeps the log going, so its
    window holds traffic until 1 ns after 03:30: 5 h (and 1 ns) of observed time, on 2 UTC days;
    241 events in the evaluated span (22:30 .. 02:30), 24.1 expected failures under 90 %: only
    its time is thin. ``long`` (the control): one a minute for the two whole days, observed from
    01:00 to its last event at 2 Jan 23:59, 46 h 59 min: supported 0.9 (no event is slow)."""
    ev = pd.concat([fast_every_minute("2026-01-01 21:30", 301, "short"),
                    fast_every_minute("2026-01-01 00:00", 2 * 24 * 60, "long")])
    ev = ev.sort_values("ts", kind="stable").reset_index(drop=True)
    r = latency_recalibrate(ev, slo=SLO(target=0.9, window="1h"), thresholds=["10s"],
                            candidates=[0.5, 0.9], n_boot=20, by="g")
    obs = r.table.groupby("g", observed=True)["observed_time"].first()
    assert obs["short"] == pd.Timedelta(hours=5) + pd.Timedelta(1, unit="ns")
    assert obs["long"] == pd.Timedelta(hours=46, minutes=59)
    s = r.summary.set_index("g")
    short, long = s.loc["short"], s.loc["long"]
    assert np.isnan([short["supported_target"], short["supported_low"],
                     short["supported_high"]]).all()
    assert short["note"] == ("withheld: only 5 h of evaluated time, too little for time shares "
                             "and rates per day (at least 24 h)")
    f = r.frontier[r.frontier["g"] == "short"]
    assert f["smallest_threshold"].isna().all()
    assert f["note"].str.startswith("only 5 h of evaluated time").all()
    # the control keeps its verdict (provisional: 46 h 59 min of history)
    assert (long["supported_target"], long["supported_low"], long["supported_high"]) == (
        0.9, 0.9, 0.9)
    assert long["note"].startswith("provisional: 1 d 22 h of evaluated history")
    assert (r.frontier.loc[r.frontier["g"] == "long", "smallest_threshold"]
            == pd.Timedelta("10s")).all()


def test_the_bootstrap_draws_only_days_with_observed_time():
    # three UTC days of fast successes under a 24 h window: the first day is all warm-up (no
    # observed time), the other two support 0.9 whole. Every resample of the days with observed
    # time supports 0.9, so the interval is 0.9 .. 0.9; a resample of the warm-up day alone holds
    # no evidence and must never be drawn (it would support nothing: "below the grid")
    ev = every_ten_minutes(days=3, slow_seconds=5.0)
    r = latency_recalibrate(ev, slo=SLO(target=0.9, window="24h"), thresholds=["20s"],
                            candidates=[0.5, 0.9], n_boot=1000)
    row = r.summary.iloc[0]
    assert (row["supported_target"], row["supported_low"], row["supported_high"]) == (0.9, 0.9,
                                                                                       0.9)
    # evaluated from 2 Jan 00:00 (after the 24 h warm-up) to the last event, 3 Jan 23:50: 47 h 50
    # min, 1.99 days
    assert row["note"] == ("provisional: 1 d 23 h of evaluated history, less than the 14 d a "
                           "recommendation needs; re-run with more history")


def test_a_short_history_makes_a_supported_target_provisional_as_recalibrate_says():
    """recalibrate's rule (under 14 days from the first evaluated instant to the last: the
    caveat); withheld and unsupported rows carry no caveat, there is nothing to qualify."""
    slo = SLO(target=0.9, window="1h")
    short = latency_recalibrate(every_ten_minutes(days=3, slow_seconds=5.0), slo=slo,
                                thresholds=["20s"], candidates=[0.5, 0.9], n_boot=20)
    # 1 Jan 01:00 (after the 1 h warm-up) to 3 Jan 23:50: 70 h 50 min = 2 d 22 h 50 min
    assert short.summary["note"].tolist() == [
        "provisional: 2 d 22 h of evaluated history, less than the 14 d a recommendation needs; "
        "re-run with more history"]
    # 15 days: 1 Jan 01:00 to 15 Jan 23:50 is 14.95 days, enough
    enough = latency_recalibrate(every_ten_minutes(days=15, slow_seconds=5.0), slo=slo,
                                 thresholds=["20s"], candidates=[0.5, 0.9], n_boot=20)
    assert enough.summary["note"].tolist() == [""]
    none = latency_recalibrate(every_ten_minutes(days=3, slow_seconds=30.0, slow_at_min=600),
                               slo=slo, thresholds=["1s"], candidates=[0.5, 0.9], n_boot=20)
    assert np.isnan(none.summary["supported_target"].iloc[0])
    assert "provisional" not in none.summary["note"].iloc[0]


def test_the_frontier_says_which_rule_withholds_a_target_with_its_figure():
    # 282 evaluated events (the first hour's 6 are warm-up): under 0.9 they hold 28.2 expected
    # failures (judged), under 0.97 8.46 and under 0.99 2.82 (fewer than 10: too few events);
    # the kind and the count are columns, not words to parse back
    ev = every_ten_minutes()
    r = latency_recalibrate(ev, slo=SLO(target=0.9, window="1h"), thresholds=["20s"],
                            candidates=[0.9, 0.97, 0.99], n_boot=20)
    f = r.frontier.set_index("target")
    assert f["withheld"].tolist() == ["", "too_few_events", "too_few_events"]
    assert f["events"].tolist() == [282, 282, 282]
    # with a 24 h window the first day is warm-up: 144 events on one day with traffic, which
    # 0.9 (14.4 expected failures) could judge but under 24 h of evaluated time cannot (the
    # basic reason, said before the day-block bootstrap's 2 days); at 0.97 its 144 events are
    # too few as well (4.32 expected failures), but under 24 h of evaluated time the time is the
    # reason whatever the events (thin_time's rule: more events would not do)
    r = latency_recalibrate(ev, slo=SLO(target=0.9, window="24h"), thresholds=["20s"],
                            candidates=[0.9, 0.97], n_boot=20)
    f = r.frontier.set_index("target")
    assert f["withheld"].tolist() == ["too_little_time", "too_little_time"]
    assert f["events"].tolist() == [144, 144]


def test_the_interval_bounds_are_candidates_never_a_value_between_two():
    # Day 1 holds the slow hour (at 10 s it supports 0.5 only), day 2 does not (0.9): every
    # resample supports 0.5 or 0.9, so a percentile interval of the samples is bounded by two of
    # them, as recalibrate's is. Two samples and a 50 % interval: before, the bounds were
    # interpolated between the samples (0.6 .. 0.8 when one drew 0.5 and the other 0.9).
    ev = every_ten_minutes()
    seen = set()
    for seed in range(6):
        row = latency_recalibrate(ev, slo=SLO(target=0.9, window="1h"), thresholds=["10s"],
                                  candidates=[0.5, 0.9], n_boot=2, confidence=0.5,
                                  seed=seed).summary.iloc[0]
        assert row["supported_low"] in (0.5, 0.9) and row["supported_high"] in (0.5, 0.9)
        seen.add((row["supported_low"], row["supported_high"]))
    assert (0.5, 0.9) in seen  # a seed whose two samples differ


def test_an_upper_bound_beside_no_supported_target_is_said_in_the_note():
    # 3 days, every attempt from 12:00 to 12:50 of day 0 takes 13 s: at 10 s the window holds
    # only failures for about 2 h (12:00 .. 13:50), at least 1 h of the 70 h 50 min observed
    # after warm-up (1.4 % > 1 %), so neither 0.5 nor 0.9 is supported. A day-block sample
    # without day 0 (a share of (2/3)^3 = 30 % of them) has no failure at all and supports 0.9,
    # so the 97.5 % bound is 0.9 and the 2.5 % bound below the grid (NaN). Before, the note said
    # only "even 0.5 is too strict" beside that 0.9 (notebook 05 printed both).
    ev = every_ten_minutes(days=3)
    ev.loc[ev["ts"].dt.hour.eq(12) & ev["ts"].dt.day.eq(1), "duration"] = pd.Timedelta("13s")
    r = latency_recalibrate(ev, slo=SLO(target=0.9, window="1h"), thresholds=["10s"],
                            candidates=[0.5, 0.9], n_boot=200)
    assert (r.table["limit_share"] > 3600 / (70 * 3600 + 50 * 60)).all()
    row = r.summary.iloc[0]
    assert np.isnan(row["supported_target"]) and np.isnan(row["supported_low"])
    assert row["supported_high"] == 0.9
    assert row["note"] == ("no candidate target supported (even 0.5 is too strict); the bootstrap "
                           "interval runs from below 0.5 to 0.9: some histories resampled by "
                           "whole days support 0.9 or more")
    # without a bootstrap there is no bound to word
    r0 = latency_recalibrate(ev, slo=SLO(target=0.9, window="1h"), thresholds=["10s"],
                             candidates=[0.5, 0.9], n_boot=0)
    assert r0.summary["note"].iloc[0] == "no candidate target supported (even 0.5 is too strict)"
