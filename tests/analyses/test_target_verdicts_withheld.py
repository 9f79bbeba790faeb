"""``target_verdicts`` says why a verdict is withheld once, in words a reader of its table needs:
where the evidence is too thin for the current target alone, the rule at the current target and
that the recommendation is judged at its own level, with its expected failures there, and not
recalibrate's "the verdict alone is withheld ... as without a current target (at 0.995 the
2,000 events hold ...)", whose target and events the ``recommendation`` column names. Expected
words written by hand, figures worked out in the comments."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab import as_events, recalibrate, target_verdicts


def _minutely(n: int, start: str = "2026-11-01 00:00:30") -> pd.DatetimeIndex:
    return pd.Timestamp(start, tz="UTC") + pd.to_timedelta(np.arange(n), unit="min")


@pytest.fixture(scope="module")
def verdicts() -> pd.DataFrame:
    """Group a: one success at 00:00:00, then one a minute from 00:00:30 for 2,060 minutes; under
    a 1 h window the first hour (61 events) is warm-up: 2,000 evaluated successes over 33 h 19 min
    30 s on 2 days; the rule alone gives 0.9999, capped at 1 - 10 / 2,000 = 0.995. Group b: 50
    successes every 7 min from 10:00; 10:00 .. 10:56 (9) fill the window until 11:00: 41
    evaluated, on 1 day. Current target 0.999 for both."""
    a = _minutely(2060).insert(0, pd.Timestamp("2026-11-01 00:00:00", tz="UTC"))
    b = pd.Timestamp("2026-11-01 10:00", tz="UTC") + pd.to_timedelta(7 * np.arange(50), "min")
    ev = as_events(a.append(b), np.ones(len(a) + len(b), dtype=bool),
                   groups={"g": ["a"] * len(a) + ["b"] * len(b)})
    # max_share=0.05: under 1 % the window's rule withholds a's 0.995 (g63recal): one failure in
    # its 60-event 1 h window puts it at 98.33 %, EXHAUSTED under 0.995 for up to 1 h of 33 h 19
    # min 30 s (3.0 % > 1 %); within 5 % it stays within the limit
    rec = recalibrate(ev, by="g", target=0.999, window="1h", n_boot=0, max_share=0.05)
    return target_verdicts(rec).set_index("g")


def test_a_verdict_withheld_alone_says_why_once(verdicts):
    # 2,000 x 0.001 = 2 expected failures under 99.9 % (a verdict needs 10 / 0.001 = 10,000
    # events); at the recommended 0.995, 2,000 x 0.005 = 10. Wilson 95 % lower bound of 2,000 in
    # 2,000: 2,000 / (2,000 + 1.96^2) = 99.81 %; 33 h 19 min 30 s is 1 d 9 h
    a = verdicts.loc["a"]
    withheld = ("2,000 events in the evaluated span: too few for a verdict (under 99.9 % they hold "
                "2 expected failures; one needs at least 10, i.e. 10,000 events); the "
                "recommendation is judged at its own level, where they hold 10 expected failures")
    assert a["withheld"] == withheld and a["verdict"] == "withheld"
    assert a["sentence"] == (
        f"No verdict on the target 99.9 % for a: {withheld} (2,000 events, 0 failures over 1 d "
        "9 h of evaluated time; success 100.00 % (95 % interval 99.81 % – 100.00 %)).")
    # capped: the rule alone gives 99.99 %, 2,000 events judge up to 99.5 % (the legend's words)
    assert a["recommendation"] == (
        "Recommended for a: 99.5 % (capped: as high as 2,000 events can judge), from 2,000 events "
        "over 1 d 9 h of evaluated time; provisional: 1 d 9 h of evaluated history, less than the "
        "14 d a recommendation needs.")
    assert a["recommended_target"] == pytest.approx(0.995, abs=1e-12)
    for said in ("too few for a verdict", "judged at its own level", "expected failures"):
        assert f"{a['sentence']} {a['recommendation']}".count(said) == 1 + (
            said == "expected failures")  # under 99.9 % and at the recommendation's level


def test_a_group_too_thin_for_both_keeps_recalibrates_reason(verdicts):
    # b: 41 x 0.001 = 0.041 expected failures under 99.9 %; its recommendation is withheld for
    # its 5 h 43 min of evaluated time (11:00 .. 16:43; 24 h needed): on one day with traffic,
    # but no day-block bootstrap is drawn (n_boot=0), so that is no reason
    b = verdicts.loc["b"]
    assert b["withheld"] == (
        "41 events in the evaluated span: too few for a verdict (under 99.9 % they hold 0.041 "
        "expected failures; one needs at least 10, i.e. 10,000 events)")
    assert b["recommendation"] == (
        "No recommendation for b: only 5 h 43 min of evaluated time, too little for time shares "
        "and rates per day (at least 24 h).")


def test_a_verdict_withheld_alone_where_no_target_meets_the_rule():
    # an event every 30 min from 00:07 for 3 days (144), 6 failures spread over them; the 1 h
    # window's first hour (00:07, 00:37) is warm-up: 142 evaluated. Under 99 % they hold 1.42
    # expected failures (a verdict needs 1,000 events), and 6 failures do not decide a miss
    # (P(X >= 6 | 142, 0.01) = 0.0032 >= 0.001; 48 would: test_thin_miss); at 50 %, 71: enough,
    # but each failure holds the 2-event window at 50 % for an hour, over 1 % of the time: no
    # target meets the rule
    ts = pd.date_range("2026-01-05 00:07", periods=144, freq="30min", tz="UTC")
    ok = np.ones(144, dtype=bool)
    ok[np.linspace(10, 140, 6).astype(int)] = False
    rec = recalibrate(as_events(ts, ok), target=0.99, window="1h", n_boot=0)
    v = target_verdicts(rec).iloc[0]
    assert v["withheld"] == (
        "142 events in the evaluated span: too few for a verdict (under 99 % they hold 1.42 "
        "expected failures; one needs at least 10, i.e. 1,000 events); the recommendation "
        "is judged at its own level")
    # the 1 % quantile is 50 % itself: only a target below 50 %, under every usual target,
    # would meet the rule (stop 56: no usual target, said as such)
    assert v["recommendation"].startswith("No recommendation for all events: no usual target "
                                          "meets the rule: even 50 %, the lowest usual target, ")
