"""budgetlab.analyses.history: plain-parameter targets and labels, daily success rates with their
intervals, the day-to-day spread, hourly failure profiles and incident scopes, on hand-computed
cases."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.stats import binomtest

from budgetlab.analyses.history import (
    daily_spread,
    daily_success,
    group_values,
    hourly_profile,
    incidents_for,
    outcome_labels,
    target_table,
)
from budgetlab.errors import ConfigError, InputError


def _events(times, ok, bucket=None, **keys):
    frame = pd.DataFrame({"ts": pd.to_datetime(times, utc=True).as_unit("ns"), "ok": ok})
    if bucket is not None:
        frame["bucket"] = bucket
    for k, v in keys.items():
        frame[k] = v
    return frame


def test_target_table_default_and_overrides():
    ev = pd.DataFrame({"g": pd.Categorical(["x", "y", "x", "z"], categories=["z", "y", "x"])})
    t = target_table(ev, by="g", target=0.95, overrides="x=0.9, y = 0.97")
    assert t["g"].tolist() == ["z", "y", "x"]  # category order
    assert t["target"].tolist() == [0.95, 0.97, 0.9]
    assert target_table(ev, by="g", target=0.9, overrides=None)["target"].tolist() == [0.9, 0.9,
                                                                                       0.9]
    assert target_table(ev, by="g", overrides="x:0.9,y:0.97")["target"].tolist() == [0.95, 0.97,
                                                                                     0.9]


def test_target_table_of_a_proposal_holds_only_the_groups_it_names():
    """Notebook 01 merged ``proposed = "recaptcha_v2:0.93,turnstile:0.97"`` into the current
    target for every other group, then judged image's current 95 % as "the proposed target 95 %
    for image". ``target=None``: the groups named, in the table's group order, nothing else; a
    group proposed at the usual target is still named; an unknown group is still refused."""
    ev = pd.DataFrame({"g": pd.Categorical(["x", "y", "x", "z"], categories=["z", "y", "x"])})
    t = target_table(ev, by="g", target=None, overrides="x:0.93,z:0.95", name="proposed")
    assert t.to_dict("list") == {"g": ["z", "x"], "target": [0.95, 0.93]}  # category order
    assert target_table(ev, by="g", target=None, overrides=None).to_dict("list") == {
        "g": [], "target": []}
    with pytest.raises(ConfigError, match="proposed names 1 group"):
        target_table(ev, by="g", target=None, overrides="w=0.9", name="proposed")


def test_target_table_without_a_group_column_names_by():
    """Notebook 02 with by=None (a log without groups) said "events has no column None": no
    keyword, no fix. The refusal names by= and a value that works when pasted."""
    ev = pd.DataFrame({"method": ["GET", "POST"]})
    with pytest.raises(ConfigError) as err:
        target_table(ev, by=None, target=0.95)
    assert str(err.value) == ("by=None: a table of targets per group needs the name of a group "
                              "column of events, e.g. by='method' (or a list of them).")
    assert target_table(ev, by="method", target=0.95)["method"].tolist() == ["GET", "POST"]


@pytest.mark.parametrize("overrides", ["x", "x=", "x=1.5", "x=abc", "=0.9", "x=0.9,x=0.8", "w=0.9"])
def test_target_table_refuses_bad_text(overrides):
    ev = pd.DataFrame({"g": ["x", "y"]})
    with pytest.raises(ConfigError):
        target_table(ev, by="g", target=0.95, overrides=overrides)


@pytest.mark.parametrize("target", [0, 1, 1.2, True, "0.9"])
def test_target_table_refuses_bad_target(target):
    with pytest.raises(ConfigError):
        target_table(pd.DataFrame({"g": ["x"]}), by="g", target=target)


def test_outcome_labels():
    assert outcome_labels("done=success,pending=skip, 5xx = server_error") == {
        "done": "success", "pending": "skip", "5xx": "server_error"}
    assert outcome_labels("2xx:success,4xx:skip") == {"2xx": "success", "4xx": "skip"}
    assert outcome_labels(None) is None and outcome_labels("  ") is None
    for bad in ("done", "done=", "=x", "a=b,a=c"):
        with pytest.raises(ConfigError):
            outcome_labels(bad)


def test_group_values_skips_unused_categories():
    ev = pd.DataFrame({"g": pd.Categorical(["b"], categories=["a", "b"])})
    assert group_values(ev, "g") == ["b"]
    assert group_values(pd.DataFrame({"g": ["b", "a", "b"]}), "g") == ["a", "b"]


def test_daily_success_uses_local_days_and_wilson_intervals():
    # Berlin is UTC+1 in January: 23:30 UTC on the 1st is 00:30 on the 2nd there
    ev = _events(["2026-01-01 08:00", "2026-01-01 09:00", "2026-01-01 23:30", "2026-01-02 10:00",
                  "2026-01-01 12:00"], [True, False, True, True, True], g=["a", "a", "a", "a", "b"])
    d = daily_success(ev, by="g", tz="Europe/Berlin")
    assert d["g"].tolist() == ["a", "a", "b"]
    assert [str(x.date()) for x in d["day"]] == ["2026-01-01", "2026-01-02", "2026-01-01"]
    assert d["total"].tolist() == [2, 2, 1] and d["good"].tolist() == [1, 2, 1]
    assert d["success_rate"].tolist() == [0.5, 1.0, 1.0]
    for row in d.itertuples():
        ci = binomtest(int(row.good), int(row.total)).proportion_ci(confidence_level=0.95,
                                                                    method="wilson")
        assert row.ci_low == pytest.approx(ci.low, abs=1e-12)
        assert row.ci_high == pytest.approx(ci.high, abs=1e-12)
    # full days: at least half the group's median daily traffic (a: median 2; b: median 1)
    assert d["full_day"].tolist() == [True, True, True]


def test_daily_success_marks_partial_days():
    times = [f"2026-01-0{d} {h:02d}:00" for d in (1, 2,
                                                  3) for h in range(10)] + ["2026-01-04 00:00"]
    d = daily_success(_events(times, [True] * len(times)))
    assert d["total"].tolist() == [10, 10, 10, 1]
    assert d["full_day"].tolist() == [True, True, True, False]  # median 10: the last day holds 1


def test_daily_spread_by_hand():
    daily = pd.DataFrame({"g": ["a", "a", "a", "b"],
                          "day": pd.to_datetime(["2026-01-01", "2026-01-02", "2026-01-03",
                                                 "2026-01-01"], utc=True),
                          "total": [100, 100, 10, 50], "good": [90, 98, 0, 50], "full_day": [True,
                                                                                             True,
                                                                                             False,
                                                                                             True]})
    s = daily_spread(daily)
    a = s.set_index("g").loc["a"]
    assert a["total"] == 210 and a["good"] == 188
    assert a["success_rate"] == pytest.approx(188 / 210)
    assert a["full_days"] == 2
    # the partial day is left out
    assert a["day_min"] == pytest.approx(0.90) and a["day_max"] == pytest.approx(0.98)
    assert a["spread"] == pytest.approx(0.08)
    ci = binomtest(188, 210).proportion_ci(method="wilson")
    assert a["interval_width"] == pytest.approx(ci.high - ci.low)
    assert a["spread_ratio"] == pytest.approx(0.08 / (ci.high - ci.low))
    b = s.set_index("g").loc["b"]
    assert b["spread"] == 0.0 and b["success_rate"] == 1.0


def test_hourly_profile_by_hand():
    ev = _events(["2026-01-01 03:10", "2026-01-01 03:20", "2026-01-02 03:30", "2026-01-01 03:40",
                  "2026-01-01 14:00"], [False, True, False, False, True],
                 ["timeout", "success", "solve_error", "timeout", "success"], region=["fra", "fra",
                                                                                      "fra", "ams",
                                                                                      "fra"])
    p = hourly_profile(ev, bucket="timeout", by="region", tz="UTC")
    assert p[["region", "hour"]].values.tolist() == [["ams", 3], ["fra", 3], ["fra", 14]]
    assert p["total"].tolist() == [1, 3, 1]
    assert p["bucket_failures"].tolist() == [1, 1, 0]
    assert p["other_failures"].tolist() == [0, 1, 0]
    assert p["bucket_rate"].tolist() == pytest.approx([1.0, 1 / 3, 0.0])
    assert p["other_rate"].tolist() == pytest.approx([0.0, 1 / 3, 0.0])
    assert p.attrs["bucket"] == "timeout"
    # local hours: 03:10 UTC is 12:10 in Tokyo
    assert hourly_profile(ev, bucket="timeout", tz="Asia/Tokyo")["hour"].tolist() == [12, 23]


def test_hourly_profile_refuses_a_bucket_the_data_do_not_have():
    ev = _events(["2026-01-01 03:10"], [True], ["success"])
    with pytest.raises(InputError):
        hourly_profile(ev, bucket="timeout")


def test_incidents_for_reads_scopes():
    inc = pd.DataFrame({"incident_id": ["a", "b", "c", "d"],
                        "scope": ["*", "captcha_type=image", "captcha_type=image&region=fra",
                                  "region=ams"]})
    assert incidents_for(inc, captcha_type="image", region="fra")["incident_id"].tolist() == ["a",
                                                                                              "b",
                                                                                              "c"]
    assert incidents_for(inc, captcha_type="turnstile",
                         region="ams")["incident_id"].tolist() == ["a", "d"]
    assert incidents_for(inc.iloc[1:2], captcha_type="turnstile") is None
    assert incidents_for(None) is None and incidents_for(inc.iloc[:0]) is None
    # no keys: nothing excluded
    assert np.array_equal(incidents_for(inc)["incident_id"], inc["incident_id"])


def test_target_table_refusals_name_the_parameter_the_user_wrote():
    """Notebook 01's ``proposed`` (default: captcha groups) on a log grouped by method was refused
    as "targets names 2 groups ...": a parameter the user had not set. The refusal names what the
    caller says the text is (``name=``), and ``overrides`` by default, the keyword."""
    ev = pd.DataFrame({"method": ["GET", "POST"]})
    with pytest.raises(ConfigError) as err:
        target_table(ev, by="method", overrides="recaptcha_v2:0.93,turnstile:0.97",
                     name="proposed")
    assert str(err.value) == ("proposed names 2 groups that the column 'method' does not have "
                              "(recaptcha_v2, turnstile); use its values: GET, POST, or name "
                              "none: proposed=None (`-p proposed=None` when running a notebook "
                              "on a log of other groups).")
    with pytest.raises(ConfigError) as err:
        target_table(ev, by="method", overrides="GET=2")
    assert str(err.value) == ("overrides must be numbers between 0 and 1 "
                              "(e.g. 'recaptcha_v2=0.93,turnstile=0.97').")
