"""budgetlab.analyses.choices: the notebooks' decision rules on hand-made tables whose answers are
worked out by hand (which window, which policy, which target, keep or lower)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab.analyses.choices import (
    bucket_target_verdicts,
    choose_policy,
    choose_window,
    policy_summary,
    suggest_targets,
    window_summary,
)
from budgetlab.analyses.recalibration import Recalibration
from budgetlab.errors import ConfigError

EMPTY = pd.DataFrame()


def _rec(groups, recommended, by=("g",), shares=None):
    """A result by hand: 10,000 events and 100 failures per group (every target up to 99 %
    afforded), the candidates' shares of time EXHAUSTED as ``shares`` gives them per group
    (``{target: share}``), the limit 5 %."""
    summary = pd.DataFrame({"g": groups, "events": 10_000, "failures": 100,
                            "recommended_target": recommended,
                            "recommendation_note": ["no candidate qualifies"] * len(groups)})
    rows = [(g, t, x) for g, at in (shares or {}).items() for t, x in at.items()]
    cand = pd.DataFrame(rows, columns=["g", "target", "share_exhausted"])
    return Recalibration(summary=summary, candidates=cand, distribution=EMPTY, bootstrap=EMPTY,
                         settings={"by": list(by), "max_share": 0.05, "limit_status": "exhausted"})


def test_suggest_targets_rule_by_hand():
    # all of the history affords b's 0.97 and c's 0.93: EXHAUSTED at most 5 % of the time there
    rec = _rec(["a", "b", "c", "d"], [0.95, 0.95, np.nan, 0.9],
               shares={"b": {0.95: 0.01, 0.97: 0.04}, "c": {0.93: 0.05}})
    clean = _rec(["d", "c", "b", "a"], [0.85, 0.93, 0.97, 0.95])  # another order: matched by key
    s = suggest_targets(rec, clean).set_index("g")
    assert s["recommended_without_incidents"].tolist() == [0.95, 0.97, 0.93, 0.85]
    # a: equal -> keep; b: higher outside -> 0.97; c: none on all history but one outside -> 0.93;
    # d: lower -> keep
    assert s["suggested_target"].tolist() == [0.95, 0.97, 0.93, 0.9]
    assert (
        "do not move" in s.loc["a", "reason"]
        and "pull the recommendation down" in s.loc["b", "reason"]
    )


def test_suggest_targets_without_labels_or_recommendation():
    s = suggest_targets(_rec(["a", "b"], [0.95, np.nan]))
    assert s["suggested_target"].iloc[0] == 0.95 and np.isnan(s["suggested_target"].iloc[1])
    assert s["recommended_without_incidents"].isna().all()
    assert s["reason"].iloc[1].startswith("no recommendation")
    with pytest.raises(ConfigError):
        suggest_targets(s)


def _compare_table():
    # hours and hours_exhausted in tens of hours (a: 10, b: 30): every row has the day of
    # evaluated time its shares need (none thin); the comments below count in tens of hours
    dwell = pd.to_timedelta([0, 0, 0, 0, 3600 * 10**9, 3600 * 10**9], unit="ns")
    return pd.DataFrame({
        "g": ["a", "b", "a", "b", "a", "b"],
        "window": pd.Categorical(["1h", "1h", "1d", "1d", "1h", "1h"], categories=["1h", "1d"],
                                 ordered=True),
        "min_dwell": dwell, "hours": [100.0, 300.0, 100.0, 300.0, 100.0, 300.0],
        "hours_exhausted": [10.0, 30.0, 20.0, 0.0, 10.0, 10.0],
        "transitions_per_day": [20.0, 10.0, 2.0, 1.0, 5.0, 4.0], "round_trips_per_day": [1.0, 2.0,
                                                                                         0, 0, 0,
                                                                                         0],
        "share_warning": [0.5] * 6, "share_critical": [0.1, 0.0, 0.2, 0.1, 0.1, 0.0],
        "share_exhausted": [0.1, 0.1, 0.2, 0.0, 0.1, 1 / 30]})


def _pairs():
    rows = []
    for window, dwell, detected, detection in [("1h", 0, [True, True, True, True], [1, 2, 3, 4]),
                                               ("1d", 0, [True, False, False, True], [10, None,
                                                                                      None, 30]),
                                               ("1h", 3600, [True, True, True, False], [1, 2, 3,
                                                                                        None])]:
        for i, (d, t) in enumerate(zip(detected, detection, strict=True)):
            back = d and i != 3  # only a detected pair recovers (window_incidents)
            rows.append({"window": window, "min_dwell": pd.Timedelta(seconds=dwell),
                         "g": "ab"[i % 2],
                         "detected": d, "detection": pd.Timedelta(minutes=t) if t else pd.NaT,
                         "recovered": back,
                         "recovery": pd.Timedelta(minutes=10 * (i + 1)) if back else pd.NaT})
    return pd.DataFrame(rows)


def test_window_summary_sums_groups_by_hand():
    s = window_summary(_compare_table(), _pairs())
    assert s["window"].tolist() == ["1h", "1d", "1h"]
    assert s["transitions_per_day"].tolist() == [30.0, 3.0, 9.0]
    assert s["share_exhausted"].tolist() == pytest.approx([4 / 40, 2 / 40, 2 / 40])
    # alerting (critical or worse) hours: 1h: 10*.2 + 30*.1 = 5; 1d: 10*.4 + 30*.1 = 7; 1h+dwell:
    # 10*.2 + 30/30 = 3
    assert s["share_alerting"].tolist() == pytest.approx([5 / 40, 7 / 40, 3 / 40])
    assert s["pairs"].tolist() == [4, 4, 4] and s["detected"].tolist() == [4, 2, 3]
    assert s["detection_median"].tolist() == [pd.Timedelta(minutes=2.5), pd.Timedelta(minutes=20),
                                              pd.Timedelta(minutes=2)]
    # over the recovered pairs: 1h 10, 20, 30; 1d only pair 0 (1 and 2 missed, 3 unrecovered);
    # 1h with dwell 10, 20, 30 (pair 3 missed: nothing to recover from)
    assert s["recovery_median"].tolist() == [pd.Timedelta(minutes=20), pd.Timedelta(minutes=10),
                                             pd.Timedelta(minutes=20)]
    # detected and never recovered: pair 3 of 1h and of 1d; none with dwell (its pair 3 missed)
    assert s["unrecovered"].tolist() == [1, 1, 0]
    warning = window_summary(_compare_table(), alert_at="warning")
    assert warning["share_alerting"].tolist() == pytest.approx(
        [
            (10 * 0.7 + 30 * 0.6) / 40,
            (10 * 0.9 + 30 * 0.6) / 40,
            (10 * 0.7 + 30 * (0.5 + 1 / 30)) / 40,
        ]
    )
    assert "pairs" not in warning.columns
    with pytest.raises(ConfigError):
        window_summary(_compare_table(), alert_at="healthy")


def test_choose_window_rule_by_hand():
    s = window_summary(_compare_table(), _pairs())
    # recall 0.8 of 4 pairs: 1h (4) and 1h + 1 h dwell (3.2 > 3? no) qualify -> only 1h (4 >= 3.2)
    v = choose_window(s, min_recall=0.8)
    assert v.verdict == "chosen" and v.subject == "the 1 h window"
    # recall 0.75: 1h (30/day) and 1h + dwell (9/day) qualify: the fewer changes win
    assert choose_window(s, min_recall=0.75).subject == "the 1 h window with 1 h of hysteresis"
    # recall 0.5: the 1d window (3/day) qualifies too
    assert choose_window(s, min_recall=0.5).subject == "the 24 h window"
    flapping_only = choose_window(window_summary(_compare_table()))
    assert flapping_only.subject == "the 24 h window" and "only flapping" in flapping_only.caveat


def test_choose_window_withheld_when_nothing_detects_enough():
    pairs = _pairs().assign(detected=False)
    v = choose_window(window_summary(_compare_table(), pairs), min_recall=0.5)
    assert v.verdict is None and "no window reaches" in v.withheld


def _scores():
    td = pd.to_timedelta
    return pd.DataFrame({
        "policy": ["wb", "wb", "wb", "seed", "seed", "pyrra"],
        "g": ["*", "a", "*", "*", "*", "*"],
        "tier": ["*", "*", "page_1h", "*", "*", "*"],
        "severity": ["page", "page", "page", "page", "ticket", "critical"],
        "episodes": [2, 1, 2, 40, 3, 6], "alerts_per_day": [0.1, 0.05, 0.1, 2.0, 0.2, 0.3],
        "precision": [1.0, 1.0, 1.0, 0.1, 0.5, 0.5], "incidents": [5, 5, 5, 5, 5, 5],
                         "detected": [2, 1, 2, 5, 2, 4],
        "recall": [0.4, 0.2, 0.4, 1.0, 0.4, 0.8], "detection_median": td(["10min", "1h", "10min",
                                                                          "1min", "3h", "20min"]),
        "false_alerts_per_week": [0.0, 0.0, 0.0, 25.0, 1.0, 1.5]})


def test_policy_summary_picks_the_overall_page_rows():
    s = policy_summary(_scores())
    assert s.index.tolist() == ["wb", "seed", "pyrra"]
    assert s["pages"].tolist() == [2, 40, 6]
    assert s["recall"].tolist() == [0.4, 1.0, 0.8]
    assert s["false_pages_per_week"].tolist() == [0.0, 25.0, 1.5]


def test_choose_policy_rule_by_hand():
    s = policy_summary(_scores())
    v = choose_policy(s, min_recall=0.8, max_false_pages_per_week=2.0)
    assert v.verdict == "chosen" and v.subject == "pyrra"  # seed detects all but pages 25 a week
    v = choose_policy(s, min_recall=0.9, max_false_pages_per_week=2.0)
    assert v.verdict is None
    assert "pyrra detects most (80 %)" in v.sentence and "seed is the quietest (25.0" in v.sentence
    # fastest: 1 min
    assert choose_policy(s, min_recall=0.3, max_false_pages_per_week=30).subject == "seed"
    with pytest.raises(ConfigError):
        choose_policy(s, max_false_pages_per_week=-1)
    unscored = choose_policy(s.assign(recall=np.nan))
    assert unscored.verdict is None and "not scored" in unscored.withheld


def _thin_scores():
    """_scores() where pyrra's overall page row was over 5 h of observed time: its rates withheld
    (NaN, rates_note) as score_alerts leaves them; a policy "none" without page tiers (a ticket
    row only)."""
    sc = _scores().assign(rates_note="")
    pyrra = sc["policy"] == "pyrra"
    sc.loc[pyrra, ["alerts_per_day", "false_alerts_per_week"]] = np.nan
    sc.loc[pyrra, "rates_note"] = ("withheld: only 5 h of observed time, too little for a rate "
                                   "per day or week (at least 24 h)")
    ticket = sc[sc["policy"] == "seed"].iloc[[1]].assign(policy="none", rates_note="")
    return pd.concat([sc, ticket], ignore_index=True)


def test_policy_summary_keeps_a_withheld_rate_apart_from_no_pages():
    s = policy_summary(_thin_scores())
    assert s.index.tolist() == ["wb", "seed", "pyrra", "none"]
    # pyrra's withheld rates stay NaN (not 0 pages a day); "none" has no page tier: 0 pages
    assert s["pages"].tolist() == [2, 40, 6, 0]
    assert s["pages_per_day"].tolist()[:2] == [0.1, 2.0] and np.isnan(s.loc["pyrra",
                                                                            "pages_per_day"])
    assert s.loc["none", "pages_per_day"] == 0.0 and s.loc["none", "false_pages_per_week"] == 0.0
    assert np.isnan(s.loc["pyrra", "false_pages_per_week"])
    assert s["rates_note"].tolist() == ["", "", _thin_scores()["rates_note"].iloc[5], ""]


def test_choose_policy_does_not_judge_a_policy_whose_rates_are_withheld():
    s = policy_summary(_thin_scores()).drop(index="none")
    # by hand, min_recall 0.8, at most 2 false pages a week: pyrra (recall 0.8) would be chosen
    # with its 1.5 false pages a week; withheld, it is not judged: seed (25 a week) is too loud
    v = choose_policy(s, min_recall=0.8, max_false_pages_per_week=2.0)
    assert v.verdict is None
    assert v.withheld == ("no policy detects 80 % of the incidents with at most 2 false pages a "
                          "week among those judged (not judged, pyrra: false pages a week "
                          "withheld, only 5 h of observed time, too little for a rate per day "
                          "or week (at least 24 h))")
    assert v.caveat.startswith("not judged, pyrra")
    assert "pyrra" not in v.sentence.split("among those judged")[0]
    # with 30 tolerated, seed (1 min) is chosen among the judged; pyrra is named in the caveat
    v = choose_policy(s, min_recall=0.3, max_false_pages_per_week=30)
    assert v.subject == "seed" and v.caveat.startswith("not judged, pyrra")
    # none judged: withheld, saying why
    v = choose_policy(s.loc[["pyrra"]])
    assert v.verdict is None and v.withheld.startswith("no policy's false pages a week are known")


def test_choice_sentences_spell_elapsed_times_as_the_rest_of_budgetlab():
    # one spelling of an elapsed time (6 h 10 min, 2 d 2 h, 45 min), written out by hand
    s = policy_summary(_scores()).assign(detection_median=pd.to_timedelta(["10min", "50h",
                                                                           "90min"]))
    v = choose_policy(s, min_recall=0.8, max_false_pages_per_week=2.0)
    assert v.subject == "pyrra" and v.evidence.endswith("median detection 1 h 30 min")
    v = choose_policy(s, min_recall=0.3, max_false_pages_per_week=30)
    assert v.subject == "wb" and v.evidence.endswith("median detection 10 min")
    s = s.assign(detection_median=pd.to_timedelta(["3D", "50h", "90min"]))
    assert choose_policy(s, min_recall=0.9, max_false_pages_per_week=30).evidence.endswith(
        "median detection 2 d 2 h")  # seed alone
    assert choose_policy(s.iloc[[0]], min_recall=0.3).evidence.endswith("median detection 3 d")


def test_bucket_target_verdicts_rule_by_hand():
    n = 200
    ok = np.ones(3 * n, dtype=bool)
    bucket = np.array(["success"] * (3 * n), dtype=object)
    # a: 6 timeouts + 4 solve errors in 200 -> 95.0 % (meets 0.95): keep
    ok[:10] = False
    bucket[:6], bucket[6:10] = "timeout", "solve_error"
    # b: 12 timeouts + 4 solve errors -> 92 %; without timeouts 184/188 = 97.9 %: bucket_only
    ok[n:n + 16] = False
    bucket[n:n + 12], bucket[n + 12:n + 16] = "timeout", "solve_error"
    # c: 2 timeouts + 18 solve errors -> 90 %; without 180/198 = 90.9 %: misses_without
    ok[2 * n:2 * n + 20] = False
    bucket[2 * n:2 * n + 2], bucket[2 * n + 2:2 * n + 20] = "timeout", "solve_error"
    ev = pd.DataFrame({"g": ["a"] * n + ["b"] * n + ["c"] * n, "ok": ok, "bucket": bucket})
    t = pd.DataFrame({"g": ["a", "b", "c"], "target": [0.95, 0.95, 0.95]})
    v = bucket_target_verdicts(ev, t, bucket="timeout")
    assert v["verdict"].tolist() == ["keep", "bucket_only", "misses_without"]
    assert v["success_rate"].tolist() == pytest.approx([0.95, 0.92, 0.90])
    assert v["success_rate_without"].tolist() == pytest.approx([190 / 194, 184 / 188, 180 / 198])
    assert v["bucket_failures"].tolist() == [6, 12, 2]
    assert "do not lower the target" in v["sentence"].iloc[1]
    few = bucket_target_verdicts(ev, t, bucket="timeout", min_events=201)
    assert (few["verdict"] == "withheld").all()
    assert few["withheld"].str.contains("at least 201").all()


@pytest.mark.parametrize("bad", [-1, 2.5, 100.0, "100", None, True, np.nan])
def test_bucket_target_verdicts_refuse_a_min_events_that_is_not_a_whole_number(bad):
    """A negative, fractional, float, boolean or NaN floor was taken as given, text or None failed
    inside with a TypeError: refused, naming the keyword, as target_verdicts(min_events=) does."""
    ev = pd.DataFrame({"g": ["a"] * 200, "ok": np.arange(200) >= 5,
                       "bucket": np.where(np.arange(200) >= 5, "success", "timeout")})
    t = pd.DataFrame({"g": ["a"], "target": [0.95]})
    with pytest.raises(ConfigError) as exc:
        bucket_target_verdicts(ev, t, bucket="timeout", min_events=bad)
    assert str(exc.value) == f"min_events={bad!r} must be a whole number >= 0."
    # the floor's edges are taken: 0 (the rule alone: 195 / 200 meets 95 %) and a numpy integer
    assert bucket_target_verdicts(ev, t, bucket="timeout", min_events=0).loc[0, "verdict"] == "keep"
    assert bucket_target_verdicts(ev, t, bucket="timeout", min_events=np.int64(201)).loc[
        0, "withheld"] == "only 200 attempts; a verdict needs at least 201"


def test_bucket_target_verdicts_are_withheld_by_the_bucket_tables_rule():
    # the rule of bucket_breakdown's note (too_few_events): 10 expected failures under the
    # group's target. By hand: 199 attempts x 5 % = 9.95 (withheld), 200 x 5 % = 10 (judged);
    # 100 x 10 % = 10 under 90 % (judged, where a flat 100-attempt rule would say the same of 95 %)
    sizes = {"a": (199, 0.95), "b": (200, 0.95), "c": (100, 0.9), "d": (100, 0.95)}
    ev = pd.concat([pd.DataFrame({"g": g, "ok": np.arange(n) >= 2,
                                  "bucket": np.where(np.arange(n) >= 2, "success", "timeout")})
                    for g, (n, _) in sizes.items()], ignore_index=True)
    t = pd.DataFrame({"g": list(sizes), "target": [tg for _, tg in sizes.values()]})
    v = bucket_target_verdicts(ev, t, bucket="timeout").set_index("g")
    assert v["verdict"].tolist() == ["withheld", "keep", "keep", "withheld"]
    assert v.loc["a", "withheld"] == ("199 events in the group: too few for a verdict (under 95 % "
                                      "they hold 9.95 expected failures; one needs at least "
                                      "10, i.e. 200 events)")
    # the target as written (0.95: 95 %, no digit added)
    assert v.loc["a", "sentence"].startswith("No verdict on the target 95 % for a: 199 events")
    # b: 198 / 200 = 99 % meets 95 %
    assert v.loc["b", "verdict"] == "keep" and v.loc["c", "verdict"] == "keep"
    assert v.loc["d", "withheld"].startswith("100 events in the group: too few for a verdict")


THIN = ("only 2 h of evaluated time (10 events in it): too little for time shares and rates "
        "per day, which need at least 24 h (one day)")


def _thin_table():
    # compare_windows rows by hand: under 1 h, group b is thin (2 h evaluated); under 5 min both
    # groups are; under 24 h neither
    return pd.DataFrame({
        "g": ["a", "b", "a", "b", "a", "b"],
        "window": pd.Categorical(["1h", "1h", "1d", "1d", "5m", "5m"],
                                 categories=["5m", "1h", "1d"], ordered=True),
        "min_dwell": pd.to_timedelta([0] * 6), "hours": [40.0, 2.0, 30.0, 50.0, 1.0, 0.5],
        "hours_exhausted": [4.0, 2.0, 3.0, 0.0, 1.0, 0.5],
        "transitions_per_day": [2.0, 100.0, 2.0, 1.0, 200.0, 300.0],
        "round_trips_per_day": [1.0, 5.0, 0.0, 0.0, 9.0, 9.0],
        "share_warning": [0.0] * 6, "share_critical": [0.1, 0.0, 0.2, 0.1, 0.0, 0.0],
        "share_exhausted": [0.1, 1.0, 0.1, 0.0, 1.0, 1.0],
        "note": ["", THIN, "", "", THIN, THIN]})


def test_window_summary_leaves_thin_rows_out_of_its_sums_by_hand():
    s = window_summary(_thin_table()).set_index("window")
    # 1h: a alone (b's rates are withheld): 2 changes a day, 4 of 40 h exhausted, alerting
    # (0.1 + 0.1) x 40 h of 40 h
    one = s.loc["1h"]
    assert (one["transitions_per_day"], one["round_trips_per_day"], one["hours"]) == (2.0, 1.0,
                                                                                      40.0)
    assert one["share_exhausted"] == pytest.approx(0.1)
    assert one["share_alerting"] == pytest.approx(0.2)
    assert (one["groups"], one["groups_left_out"]) == (1, 1)
    assert one["note"] == ("left out of the sums: 1 of the 2 group rows, too thin for a verdict "
                           "(1 row: under 24 h of evaluated time): their time shares and rates "
                           "per day do not go by (the table's note)")
    # 1d: both groups: 2 + 1 changes a day; 3 of 80 h exhausted; alerting (0.3 x 30 + 0.1 x 50)
    day = s.loc["1d"]
    assert day["transitions_per_day"] == 3.0 and day["share_exhausted"] == pytest.approx(3 / 80)
    assert day["share_alerting"] == pytest.approx(14 / 80)
    assert (day["groups"], day["groups_left_out"], day["note"]) == (2, 0, "")
    # 5m: every row thin: no summed value at all
    five = s.loc["5m"]
    assert all(np.isnan(five[c]) for c in ("transitions_per_day", "round_trips_per_day",
                                           "share_exhausted", "share_alerting"))
    assert (five["groups"], five["groups_left_out"]) == (0, 2)
    assert five["note"].startswith("no summed value: all 2 group rows are too thin for a verdict "
                                   "(2 rows: under 24 h")
    assert window_summary(_thin_table()).attrs["groups_left_out"] == 3


def test_window_summary_says_a_single_group_row_as_a_reader_would():
    """One group whose only row is thin (1 h of evaluated time, under 24 h): "the one group row
    has", never "all 1 group rows have"."""
    t = _thin_table()
    one = window_summary(t[(t["window"] == "5m") & (t["g"] == "a")]).loc[0, "note"]
    assert one == ("no summed value: the one group row is too thin for a verdict (1 row: under "
                   "24 h of evaluated time): their time shares and rates per day do not go by "
                   "(the table's note)")


def test_window_summary_the_plot_and_the_cli_share_one_thin_rule():
    # the same rows without their notes: thinness is read from the evaluated hours, by hand
    # [40, 2, 30, 50, 1, 0.5] under 24 h -> b under 1h, a and b under 5m
    import matplotlib.pyplot as plt

    from budgetlab.analyses.window_clock import thin_rows
    from budgetlab.plotting import plot_window_comparison

    t = _thin_table().drop(columns="note")
    hand = np.array([False, True, False, False, True, True])
    np.testing.assert_array_equal(thin_rows(t), hand)  # the CLI's blanks
    s = window_summary(t).set_index("window")
    assert s["groups_left_out"].to_dict() == {"5m": 2, "1h": 1, "1d": 0}
    assert s.loc["1h", "transitions_per_day"] == 2.0  # a alone, as with the notes
    t.attrs["by"] = ["g"]
    ax = plot_window_comparison(t, y2=None)  # the plot draws no value on those rows
    drawn = {ln.get_gid(): ln.get_ydata() for ln in ax.lines}
    np.testing.assert_array_equal(drawn["transitions_per_day:b"], [np.nan, np.nan, 1.0])
    np.testing.assert_array_equal(drawn["transitions_per_day:a"], [np.nan, 2.0, 2.0])
    plt.close("all")
    # a note alone no longer decides: a row with 30 h and a stray note is summed
    noted = _thin_table().assign(note=["", THIN, "stray", "", THIN, THIN])
    assert window_summary(noted).set_index("window").loc["1d", "groups_left_out"] == 0


def test_choose_window_compares_only_windows_that_hold_every_group():
    # 1h's sum without b (2 a day) is below 1d's (3 a day); comparing them would favour the
    # window that lost a group: 1d is chosen and the others are named
    s = window_summary(_thin_table())
    v = choose_window(s)
    assert v.verdict == "chosen" and v.subject == "the 24 h window"
    assert v.caveat == ("without incident labels only flapping is compared; not compared, as their "
                        "sums leave out groups with a verdict under another window (the "
                        "summary's note says why): the 1 h window, 1 of the 2 group rows; the "
                        "5 min window, all 2 group rows")
    pairs = pd.DataFrame({"window": ["1h", "1d", "5m"], "min_dwell": pd.Timedelta(0),
                          "g": "a", "detected": True, "detection": pd.Timedelta("5min"),
                          "recovered": True, "recovery": pd.Timedelta("10min")})
    v = choose_window(window_summary(_thin_table(), pairs), min_recall=0.9)
    assert v.subject == "the 24 h window" and "note says why): the 1 h window," in v.caveat
    # only windows with rows left out: withheld, with the reason in words
    partial = window_summary(_thin_table()[lambda t: t["window"] != "1d"])
    w = choose_window(partial)
    assert w.verdict is None and w.withheld.startswith(
        "every window leaves out of its sums groups that have a verdict under another window "
        "(not compared, as their sums leave out groups with a verdict under another window (the "
        "summary's note says why): the 1 h window")
    assert w.evidence == "2 windows compared"


def _detection_summary(pairs, detected, unseen=None):
    # 1 h: 30 status changes a day, 24 h: 3 (the fewer changes win among the windows judged)
    s = pd.DataFrame({"window": ["1h", "1d"], "min_dwell": pd.to_timedelta([0, 0]),
                      "transitions_per_day": [30.0, 3.0], "pairs": pairs, "detected": detected,
                      "detection_median": pd.to_timedelta(["5min", pd.NaT])})
    return s if unseen is None else s.assign(unseen=unseen)


def test_choose_window_never_judges_a_window_on_no_incident():
    # 24 h saw no pair: 0 of 0 is no recall, so it cannot pass min_recall (it flaps less and
    # would win); 1 h detects 4 of 4 and is chosen, 24 h named as not judged
    v = choose_window(_detection_summary([4, 0], [4, 0]), min_recall=0.8)
    assert v.subject == "the 1 h window"
    assert v.caveat == ("not judged on detection, the 24 h window: no (incident, group) pair with "
                        "traffic")
    # no window saw a pair: withheld, the reason in words with the fix
    none = choose_window(_detection_summary([0, 0], [0, 0]))
    assert none.verdict is None
    assert none.withheld == (
        "no (incident, group) pair to judge detection by: no incident counted (each starts "
        "before the observation and any warm-up, or its scope covers none of the groups); check "
        "the incidents' times (UTC) and scopes against the log, or leave the incidents out to "
        "compare flapping alone")


def test_choose_window_judges_recall_over_the_pairs_a_window_saw():
    # 1 h held no traffic during 2 of its 4 pairs (unseen, no miss, as compare_windows counts
    # them): 2 of 2 seen detected passes 0.8; 24 h saw all 4 and detected 2: 2 of 4 does not
    v = choose_window(_detection_summary([4, 4], [2, 2], unseen=[2, 0]), min_recall=0.8)
    assert v.subject == "the 1 h window"
    assert v.evidence.startswith("detects 2 of 2 (incident, group) pairs it saw (2 more unseen: "
                                 "no traffic) (median 5 min) with 30.0 status changes per day")
    allunseen = choose_window(_detection_summary([3, 3], [0, 0], unseen=[3, 3]))
    assert allunseen.withheld.startswith(
        "no (incident, group) pair to judge detection by: no window held traffic during its "
        "(incident, group) pairs (3, all unseen: nothing to detect, no miss); check")
    # window_summary counts unseen pairs from window_incidents' column (0 without it)
    pairs = _pairs().assign(unseen=lambda p: p.index.isin([0, 4]))
    s = window_summary(_compare_table(), pairs)
    assert s["unseen"].tolist() == [1, 1, 0]
    assert window_summary(_compare_table(), _pairs())["unseen"].tolist() == [0, 0, 0]


def test_choose_window_on_incidents_outside_the_log_says_so():
    # a real run: a 3-day log, an incident a month before it (counted for no group: 0 pairs) and
    # one a month after it (a pair the windows held no traffic for: unseen)
    from budgetlab import SLO, as_events, compare_windows, window_incidents

    ts = pd.date_range("2026-01-01", periods=3 * 24 * 60, freq="1min", tz="UTC")
    events = as_events(ts, [not (120 <= i < 150) for i in range(len(ts))])

    def incident(day):
        return pd.DataFrame({"incident_id": ["i1"], "scope": ["*"],
                             "start": [pd.Timestamp(day, tz="UTC")],
                             "end": [pd.Timestamp(day, tz="UTC") + pd.Timedelta("30min")]})

    said = {}
    for when, day in (("before", "2025-12-01 02:00"), ("after", "2026-02-01 02:00")):
        inc = incident(day)
        table = compare_windows(events, SLO(target=0.9), ["1h", "6h"], incidents=inc)
        s = window_summary(table, window_incidents(events, SLO(target=0.9), inc, ["1h", "6h"]))
        assert s["detected"].tolist() == [0, 0]
        v = choose_window(s)
        assert v.verdict is None
        said[when] = (s["pairs"].tolist(), s["unseen"].tolist(), v.withheld.split("; check")[0])
    assert said["before"] == ([0, 0], [0, 0], "no (incident, group) pair to judge detection by: "
                              "no incident counted (each starts before the observation and any "
                              "warm-up, or its scope covers none of the groups)")
    assert said["after"] == ([1, 1], [1, 1], "no (incident, group) pair to judge detection by: "
                             "no window held traffic during its (incident, group) pairs (1, all "
                             "unseen: nothing to detect, no miss)")


def test_bucket_target_evidence_counts_agree_with_their_nouns():
    """The Elastic log's OPTIONS group read "1 attempts, 1 failures, 1 of them server_error
    failures". Hand: a holds 1 attempt, failed as server_error; b holds 3, one a server_error
    failure (2 of 3 succeed: 66.67 %, 100.00 % without it)."""
    ev = pd.DataFrame({"g": ["a", "b", "b", "b"], "ok": [False, True, True, False],
                       "bucket": ["server_error", "success", "success", "server_error"]})
    targets = pd.DataFrame({"g": ["a", "b"], "target": [0.999, 0.999]})
    v = bucket_target_verdicts(ev, targets, bucket="server_error").set_index("g")
    assert v.loc["a", "sentence"].endswith(
        "(0.00 % with server_error failures, n/a without; 1 attempt, 1 failure, "
        "1 server_error failure).")
    assert v.loc["b", "sentence"].endswith(
        "(66.67 % with server_error failures, 100.00 % without; 3 attempts, 1 failure, "
        "1 server_error failure).")
