"""recalibrate's words where a share of time is printed beside its limit (``max_share``): a share
over the limit never reads as equal to it or below, one under never as equal or over. The rule is
"at most the limit" (``share <= max_share``, docs/recalibrate.md "The rule"), so a share equal to
the limit meets it and reads as the limit.

Stop 55: the note said "EXHAUSTED or worse 1.00 % of the time (limit 1 %)" of a share of 1.0038 %
(6.0121 h of 598.9509 h): two decimals rounded a breach onto the limit, as if the rule were met.
Also the no-target note's apposition (the candidates now start strictly below the floor) and its
counting words ("~1 event", never "~1 events").
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import budgetlab as bl
from budgetlab._util.percent import share_percent
from budgetlab._util.words import about_counted
from budgetlab.analyses.recalibration.no_target import explain_no_recommendation
from budgetlab.analyses.recalibration.verdict import verdict

MIN_NS = 60 * 10**9
SPAN_MIN = 40_259  # evaluated: minute 60 (after the 1 h warm-up) to minute 40,319


@pytest.mark.parametrize("share, limit, digits, text", [
    (0.010038, 0.01, 2, "1.004 %"),  # 1.0038 %: over 1 %, never "1.00 %"
    (6.0121 / 598.9509, 0.01, 2, "1.004 %"),  # the figures: 1.00378... %
    (0.00999, 0.01, 2, "0.999 %"),  # under 1 %, never "1.00 %"
    (0.01, 0.01, 2, "1.00 %"),  # at the limit: the rule ("at most") is met, and it reads so
    (0.0100004, 0.01, 1, "1.00004 %"),  # one decimal: 1.0, 1.00, 1.000, 1.0000 all read equal
    (0.00999, 0.01, 1, "0.999 %"),
    (0.0047, 0.01, 2, "0.47 %"),  # far from the limit: measured_percent's figure, unchanged
    (0.1647, 0.01, 2, "16.47 %"),
    (0.00125, 0.00125, 2, "0.125 %"),  # at a limit of three decimals: as the limit is written
    (0.0013, 0.00125, 2, "0.13 %"),  # over 0.125 % and reads over
    (0.0012, 0.00125, 2, "0.12 %"),
])
def test_a_share_reads_on_its_side_of_the_limit(share, limit, digits, text):
    assert share_percent(share, limit, digits) == text


def test_a_missing_share_is_said_in_words():
    assert share_percent(float("nan"), 0.01) == "n/a"
    assert share_percent(None, 0.01, missing="withheld") == "withheld"


def _note(share_lo: float, **kw: float) -> str:
    args = dict(has_time=True, p1=0.9, floor=0.9, lo=0.85, share_lo=share_lo, events_per_day=24.0,
                window_events=1.0, window_ns=3_600 * 10**9, history_days=28.0, max_share=0.01,
                limit_status="exhausted")
    return explain_no_recommendation(**{**args, **kw})


def test_the_no_target_note_says_a_breach_over_the_limit():
    assert "EXHAUSTED or worse 1.004 % of the time (limit 1 %)" in _note(0.010038)
    assert "EXHAUSTED or worse 0.999 % of the time (limit 1 %)" in _note(0.00999)


def test_the_no_target_note_names_where_the_candidates_start():
    # p1 = 90 %, a usual target: the range starts at the usual target strictly below it, 85 %
    assert _note(0.02).startswith(
        "no target meets the rule: even 85 %, the highest usual target below the rolling rate's "
        "1 % quantile (90.00 %), where the candidates start, is EXHAUSTED or worse 2.00 % of the "
        "time (limit 1 %); ")
    # lowered below that by the evidence (rules.widen_to_support): a candidate below it
    assert _note(0.02, lo=0.75).startswith(
        "no target meets the rule: even 75 %, the lowest candidate, below the rolling rate's 1 % "
        "quantile (90.00 %), is EXHAUSTED")
    # with the min_events hold the candidates start at 50 %, whatever the quantile
    assert _note(0.02, lo=0.5, min_events=20).startswith(
        "no target meets the rule: even 50 %, the lowest usual target, where min_events starts "
        "the candidates, is EXHAUSTED")


def test_the_no_target_note_counts_the_events_of_a_window_in_words():
    # a window of about one event: "~1 event"; it moves the rate 100 points
    assert "a 1 h window holds ~1 event, so one failure moves the rate 100 points" in _note(0.02)
    assert "~1 event a day with traffic" in _note(0.02, events_per_day=1.0)
    assert "a 1 h window holds ~2.5 events, so one failure moves the rate 40 points" in \
        _note(0.02, window_events=2.5)
    # below one event (a median of counts between 0 and 1): never "~0.4 events", never 250 points
    assert "a 1 h window holds under 1 event, so one failure moves the rate 100 points" in \
        _note(0.02, window_events=0.4)
    assert [about_counted(x, "event") for x in (1.0, 40.0, 0.4)] == [
        "~1 event", "~40 events", "under 1 event"]


def test_the_verdict_reason_says_a_breach_over_the_limit():
    # too_strict: the share 1.0038 % breaches the 1 % limit and the rule's target lies below
    _, reason, _ = verdict(0.95, 0.010038, 0.93, 0.93, 0.92, 0.935, max_share=0.01,
                           limit_status="exhausted", loose_burn=0.25)
    assert reason.startswith("burns too fast: EXHAUSTED or worse 1.004 % of the evaluated time "
                             "under 0.95 (limit 1 %)")


def _bursts(lengths: list[int]) -> pd.DataFrame:
    """One event a minute for 28 days from 2026-01-05 00:00 UTC (minutes 0 to 40,319), failing in
    bursts of ``lengths`` consecutive minutes, one starting every 2,000 minutes from minute 1,000
    (far apart: a 1 h window holds one burst at most)."""
    i = np.arange(28 * 1440)
    bad = np.zeros(len(i), dtype=bool)
    for k, b in enumerate(lengths):
        bad[1_000 + 2_000 * k: 1_000 + 2_000 * k + b] = True
    return bl.as_events(pd.Timestamp("2026-01-05", tz="UTC") + pd.to_timedelta(i, unit="min"),
                        ~bad)


# Under 0.915 a 60-event window is EXHAUSTED with 6 failures or more (the seed's remaining
# 1 - f / (60 x 0.08499999999999996): 1 - 6 / 5.1 < 0 < 1 - 5 / 5.1), a 61-event one (the 1 ns at
# each arrival) likewise (61 x 0.085 = 5.185). After the arrival of event a the window holds
# events a - 59 .. a for one minute; a burst of B failures from minute m has 6 or more of them in
# it for a = m + 5 .. m + B + 53: B + 49 minutes (to a few ns). Seven bursts, lengths summing to
# 60: 7 x 49 + 60 = 403 min of the 40,259 evaluated, 1.00102 % (over 1 %); summing to 59: 402 min,
# 0.99853 % (under). Two decimals said both "1.00 %".
@pytest.mark.parametrize("lengths, minutes, shown, code", [
    ([9, 9, 9, 9, 9, 9, 6], 403, "1.001 %", "too_strict"),
    ([9, 9, 9, 9, 9, 8, 6], 402, "0.999 %", "ok"),
])
def test_recalibrate_says_a_share_beside_its_limit_on_its_side(lengths, minutes, shown, code):
    r = bl.recalibrate(_bursts(lengths), target=0.915, window="1h", n_boot=0)
    row = r.summary.iloc[0]
    assert row["current_share_limit"] == pytest.approx(minutes / SPAN_MIN, rel=1e-9)
    assert row["verdict"] == code
    assert (f"EXHAUSTED or worse {shown} of the evaluated time under 0.915 (limit 1 %)"
            in row["verdict_reason"])
    # target_verdicts' evidence, one decimal: "1.0 %" would read as the 1 % limit
    v = bl.target_verdicts(r).iloc[0]
    assert f"EXHAUSTED or worse {shown} of the time under 91.5 % (limit 1 %)." in v["sentence"]
