"""recalibrate() withholds a group with less than a day of evaluated time (the package's one rule
for time shares and rates per day, budgetlab._util.thin.too_thin), as it withholds the other thin
groups: verdict, quantiles and per-day figures, the reason in words.

Oracle: a hand-made log whose evaluated time, events and day blocks are counted by hand below.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab import as_events
from budgetlab.analyses.recalibration import recalibrate
from budgetlab.analyses.recalibration.rules import thin_evidence
from budgetlab.analyses.recalibration.tables import ESTIMATES

T0 = pd.Timestamp("2026-03-02 00:00", tz="UTC")

#: The reason a group with two 3 h stretches of evaluated time is withheld (hand-written).
SIX_HOURS = ("only 6 h of evaluated time, too little for time shares and rates per day (at "
             "least 24 h)")


def _minutes(day: int, n: int, group: str) -> pd.DataFrame:
    """One event a minute from 00:00 of ``day`` for ``n`` minutes; every 5th (from the first)
    fails."""
    ts = T0 + pd.Timedelta(days=day) + pd.to_timedelta(np.arange(n), unit="min")
    return pd.DataFrame({"ts": ts, "ok": np.arange(n) % 5 != 0, "kind": group})


def _log() -> pd.DataFrame:
    """``thin``: 00:00 .. 03:00 (181 events) on day 0 and on day 2. Under a 1 h window each
    stretch is warm-up until 01:00 and the window holds traffic until 1 ns after 04:00: 3 h (and
    1 ns) of evaluated time each, 6 h in all; 121 events each in it (01:00 .. 03:00), 25 of them
    failures (minutes 60, 65, ..., 180); day blocks with traffic: 2. Enough events under 95 %
    (242 x 0.05 = 12.1 expected failures, at least 10) and enough day blocks (2): only the
    evaluated time is thin.

    ``full`` (the control): one event a minute for four days from day 0 00:00: evaluated from
    01:00 (the end of its warm-up) to its last event at 23:59 of day 3: 94 h 59 min. At 80 % it
    spends all of it exhausted under 95 %: too strict."""
    df = pd.concat([_minutes(0, 181, "thin"), _minutes(2, 181, "thin"),
                    _minutes(0, 4 * 24 * 60, "full")], ignore_index=True)
    df = df.sort_values("ts", kind="stable").reset_index(drop=True)
    return as_events(df["ts"], df["ok"].to_numpy(), groups={"kind": df["kind"].to_numpy()})


def test_a_group_under_a_day_of_evaluated_time_is_withheld_in_words():
    r = recalibrate(_log(), window="1h", by="kind", target=0.95, n_boot=20)
    s = r.summary.set_index("kind")
    thin, full = s.loc["thin"], s.loc["full"]
    # the counts the reason rests on stay
    assert thin["hours"] == pytest.approx(6.0, abs=1e-9)
    assert (thin["events"], thin["failures"], thin["traffic_days"]) == (242, 50, 2)
    assert thin["success_rate"] == pytest.approx(192 / 242)
    # withheld: no verdict, no action, no recommendation, no figures over the 6 h
    assert thin["verdict"] == "withheld" and thin["action"] == ""
    assert np.isnan(thin["recommended_target"]) and np.isnan(thin["recommended_low"])
    assert thin["verdict_reason"] == SIX_HOURS and thin["recommendation_note"] == SIX_HOURS
    assert thin[list(ESTIMATES)].isna().all()
    cand = r.candidates[r.candidates["kind"] == "thin"]
    assert len(cand) > 0
    for col in ("share_healthy", "share_exhausted", "hours_exhausted", "transitions_per_day",
                "pages_per_day"):
        assert cand[col].isna().all(), col
    assert r.distribution.loc[r.distribution["kind"] == "thin", "success_rate"].isna().all()
    # the control keeps its verdict and its figures
    assert full["hours"] == pytest.approx(94 + 59 / 60)
    assert full["verdict"] == "too_strict"
    assert full["events_per_day"] == pytest.approx(full["events"] / (full["hours"] / 24))
    ctrl = r.candidates[(r.candidates["kind"] == "full") & r.candidates["is_current"]].iloc[0]
    assert ctrl["share_exhausted"] == pytest.approx(1.0)
    assert np.isfinite(ctrl["transitions_per_day"]) and np.isfinite(ctrl["pages_per_day"])


def test_the_evaluated_time_rule_is_the_one_day_of_too_thin():
    # at 24 h enough (the rule is "under 24 h"); just under, the words; an earlier reason first
    assert thin_evidence(5000, 0.95, 2, True, hours=24.0) == ""
    assert thin_evidence(5000, 0.95, 2, True, hours=23.5) == (
        "only 23 h 30 min of evaluated time, too little for time shares and rates per day (at "
        "least 24 h)")
    # under a day of evaluated time the time is the reason, before the day blocks it implies
    assert thin_evidence(5000, 0.95, 1, True, hours=5.0).startswith("only 5 h of evaluated")
    # two bursts of simultaneous events, each holding the window for 1 ns after its warm-up:
    # never "0 s"
    assert thin_evidence(5000, 0.95, 2, True, hours=2 / 3.6e12).startswith(
        "only under a second of evaluated time")


def test_the_reason_reaches_the_recalibrate_command(tmp_path, capsys):
    from budgetlab.cli import main

    ev = _log()
    path = tmp_path / "log.csv"
    ev.assign(ts=ev["ts"].dt.strftime("%Y-%m-%dT%H:%M:%S.%fZ")).to_csv(path, index=False)
    assert main(["recalibrate", str(path), "--ok", "ok", "--by", "kind", "--target", "0.95",
                 "--window", "1h", "--n-boot", "20"]) == 0
    out = capsys.readouterr().out
    assert SIX_HOURS in out
    for token in ("nan", "NaN", "NaT"):
        assert token not in out


def _one_stretch() -> pd.DataFrame:
    """``short``: one event a minute on day 0 from 00:00 to 03:00 (181 events, every 5th a
    failure). Under a 1 h window: warm-up to 01:00, then 121 events (25 failures) in 2 h of
    evaluated time (the evaluated span ends at the log's last event, 03:00), all in one day
    block. 121 events hold 6.05 expected failures under 95 % (too few), 12.1 under 90 %
    (enough: a current target of 90 % is judged by events)."""
    df = _minutes(0, 181, "short")
    return as_events(df["ts"], df["ok"].to_numpy(), groups={"kind": df["kind"].to_numpy()})


def test_without_a_bootstrap_the_reason_is_never_the_bootstrap():
    """Two rules apply to ``short`` at 90 % (enough events): one day block (too few for the
    day-block bootstrap) and 2 h of evaluated time (too little). The time is the more basic
    reason (under a day of it, one day block follows) and is said with a bootstrap too; without
    one (``n_boot=0``) the day blocks are no reason at all."""
    booted = recalibrate(_one_stretch(), window="1h", by="kind", target=0.9, n_boot=20)
    assert booted.summary.loc[0, "verdict_reason"] == (
        "only 2 h of evaluated time, too little for time shares and rates per day (at least "
        "24 h)")
    plain = recalibrate(_one_stretch(), window="1h", by="kind", target=0.9, n_boot=0)
    s = plain.summary.loc[0]
    assert (s["events"], s["traffic_days"]) == (121, 1)
    assert s["hours"] == pytest.approx(2.0, abs=1e-9)
    assert s["verdict"] == "withheld"
    assert s["verdict_reason"] == ("only 2 h of evaluated time, too little for time shares and "
                                   "rates per day (at least 24 h)")
    assert "bootstrap" not in s["verdict_reason"] + s["recommendation_note"]
