"""``recalibrate`` says what happened to a group whose events all fell within a warm-up (it said
"no events in the evaluated span (59 min 22 s with traffic)", which read as a contradiction), and
that a verdict the current target's evidence cannot carry is withheld alone; the
Elastic Apache log's POST, OPTIONS and GET requests, figures worked out by hand in the comments."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from budgetlab import read_events
from budgetlab.analyses.recalibration import recalibrate
from budgetlab.cli import main

APACHE = Path(__file__).parents[1] / "fixtures" / "elastic_apache" / "apache_logs"

# POST (grep '"POST ' in the log), 2015-05-19: 04:05:16 (alone: its stretch is its warm-up),
# 09:05:53 and 10:05:15 (one stretch: the warm-up ends at 10:05:53, the 10:05:15 event leaves the
# window at 11:05:15, so the window holds only it for 59 min 22 s after the warm-up), 11:05:57
# (after an empty window: a new stretch); 2015-05-20 08:05:41 (alone). None lies after a warm-up.
POST = ("method=POST: no events after the 1 h warm-up (the window held only warm-up events, for "
        "59 min 22 s of evaluated time); no recommended target; no verdict")
POST_REASON = ("0 events in the evaluated span: all 5 of the group's events fell within a warm-up "
               "(the first 1 h of a stretch of traffic, which only fills the window); no verdict "
               "and no recommendation without events after it")
# OPTIONS: one request, 2015-05-20 14:05:16; the window holds it through 15:05:16, the instant its
# warm-up closes, and is empty 1 ns later: one instant, no evaluated time (it said "for under a
# second of evaluated time")
OPTIONS = ("method=OPTIONS: no events after the 1 h warm-up (no evaluated time); no recommended "
           "target; no verdict")
OPTIONS_REASON = ("0 events in the evaluated span: the group's one event fell within a warm-up "
                  "(the first 1 h of a stretch of traffic, which only fills the window); no "
                  "verdict and no recommendation without events after it")


def _said(out: str) -> str:
    return " ".join(out.split())


def test_groups_whose_events_all_fell_in_the_warm_up_say_so(capsys):
    assert main(["recalibrate", str(APACHE), "--preset", "access", "--by", "method",
                 "--window", "1h", "--n-boot", "0"]) == 0
    text = _said(capsys.readouterr().out)
    assert f"{POST} {POST_REASON}" in text
    assert f"{OPTIONS} {OPTIONS_REASON}" in text
    assert "with traffic); " not in text.split("method=OPTIONS:")[1]


def test_the_api_table_holds_the_reason_with_its_count():
    ev = read_events(APACHE, preset="access", by=["method"])
    s = recalibrate(ev, by="method", window="1h", n_boot=0).summary.set_index("method")
    assert s.loc["POST", "events"] == 0 and s.loc["POST", "verdict_reason"] == POST_REASON
    assert s.loc["POST", "recommendation_note"] == POST_REASON
    # 59 min 22 s of evaluated time, in hours
    assert abs(s.loc["POST", "hours"] - (59 * 60 + 22) / 3600) < 1e-9
    assert s.loc["OPTIONS", "verdict_reason"] == OPTIONS_REASON


def test_a_history_that_cuts_the_log_names_the_span_the_events_were_counted_in():
    # 1 h window, 3 h history back from the last event (12:00): from 09:00. Group a: an event
    # every minute all day; group b: 10:00 and 10:30 (one stretch, its warm-up until 11:00) and
    # 07:00 (before the history: not counted)
    ts = pd.date_range("2026-11-01 00:00", "2026-11-01 12:00", freq="1min", tz="UTC")
    b = pd.to_datetime(["2026-11-01 07:00", "2026-11-01 10:00", "2026-11-01 10:30"], utc=True)
    ev = pd.DataFrame({"ts": ts.append(b), "ok": True, "g": ["a"] * len(ts) + ["b"] * 3})
    ev = ev.sort_values("ts", kind="stable").reset_index(drop=True)
    ev["bucket"] = pd.Categorical(["success"] * len(ev))
    s = recalibrate(ev, by="g", window="1h", history="3h", n_boot=0).summary.set_index("g")
    assert s.loc["b", "verdict_reason"] == (
        "0 events in the evaluated span: both of the group's events in the last 3 h fell within "
        "a warm-up (the first 1 h of a stretch of traffic, which only fills the window); no "
        "verdict and no recommendation without events after it")


def test_a_verdict_withheld_for_the_current_target_and_a_thin_window(capsys):
    # --target 0.999: GET's 9,878 evaluated events hold 9.878 expected failures under 99.9 %,
    # fewer than 10: no verdict. The rule's 0.991 (at it the 9,878 hold 88.9, enough) measures the
    # window (g63recal): 9,878 events over 3 d 10 h are ~2,890 a day, ~119 in a 1 h window; one
    # failure moves the rate 100 / 119 = 0.84 points, to 99.16 %, below GET's Wilson low (9,876
    # of 9,878: 99.93 %), for up to 1 h of its 82 h (1.22 % > 1 %): withheld, in words
    assert main(["recalibrate", str(APACHE), "--preset", "access", "--by", "method",
                 "--window", "1h", "--target", "0.999", "--n-boot", "0"]) == 0
    out = capsys.readouterr().out
    block = _said(out[out.index("method=GET:"):out.index("method=HEAD:")])
    assert ("current target 0.999; no recommended target; no verdict 9,878 events in the "
            "evaluated span: too few for a verdict (under 99.9 % they hold 9.88 expected "
            "failures; one needs at least 10, i.e. 10,000 events) note: too few events in a "
            "window for a recommendation: ~2,890 events a day with traffic (per 24 h of its 3 d "
            "10 h of evaluated time): a 1 h window holds ~119 events, so one failure moves the "
            "rate 0.84 points: such a window holding one failure is EXHAUSTED or worse under "
            "every target from 99.16 % up, a target at the group's own level among them "
            "(99.93 %, ci_low: the low end of its success rate's interval), and one failure "
            "stays in the window 1 h (1.22 % of the evaluated time; limit 1 %)") in block
    assert block.count("too few for a verdict") == 1
    # HEAD's 5 events are too thin for any target: the verdict's reason at 99.9 %, the
    # recommendation's at 50 % (5 x 0.5 = 2.5 expected failures; 10 / 0.5 = 20 events)
    head = _said(out[out.index("method=HEAD:"):out.index("method=OPTIONS:")])
    assert "no recommended target; no verdict" in head
    assert ("note: 5 events in the evaluated span: too few for a recommendation (at 50 %, the "
            "lowest usual target, they hold 2.5 expected failures; one needs at "
            "least 10, i.e. 20 events)") in head
    assert "verdict alone" not in head
