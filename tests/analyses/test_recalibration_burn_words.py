"""The burn an "ok" verdict cites: zero in words, any other to three significant digits (it read
"burn at p10 0.00" for a zero burn and for one of 0.0001, two decimals rounding it away).

The burns are worked out by hand beside each case: 9 hours in 10 the window burns at most
``(1 - p10) / (1 - current)`` of its budget.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import budgetlab as bl
from budgetlab.analyses.recalibration.verdict import verdict


@pytest.mark.parametrize(("current", "p10", "rec", "lo", "hi", "words"), [
    # interval 0.89 .. 0.91 does not separate from 0.9; (1 - 1.0) / 0.1 = 0
    (0.9, 1.0, 0.9, 0.89, 0.91, "9 hours in 10 the 24 h window spends none of its budget; "),
    # (1 - 0.99999) / 0.1 = 0.0001, which two decimals said as 0.00
    (0.9, 0.99999, 0.9, 0.89, 0.91, "9 hours in 10 the 24 h window burns at most 0.0001 of its "
                                    "budget; "),
    # interval 0.92 .. 0.935 lies below 0.95 (share 0 within the limit); (1 - 0.9498) / 0.05 =
    # 1.004: three significant digits, 1
    (0.95, 0.9498, 0.93, 0.92, 0.935, "9 hours in 10 the 24 h window burns at most 1 of its "
                                      "budget; "),
    # (1 - 0.5) / (1 - 0.99) = 50 (a burn is never printed as an exponent)
    (0.99, 0.5, 0.99, 0.98, 0.995, "9 hours in 10 the 24 h window burns at most 50 of its "
                                   "budget; "),
])
def test_an_ok_verdict_says_its_burn_in_two_significant_digits(current, p10, rec, lo, hi, words):
    got = verdict(current, 0.0, p10, rec, lo, hi, max_share=0.01, limit_status="exhausted",
                  loose_burn=0.25, window="24 h window")
    assert got[0] == "ok"
    assert words in got[1]
    assert "0.00 " not in got[1].replace("0.00 %", "") and "p10" not in got[1]


def test_an_ok_verdict_above_the_current_target_cites_its_burn_once():
    # the interval 0.93 .. 0.935 lies above 0.9, but (1 - 0.93) / 0.1 = 0.7 >= loose_burn 0.25:
    # ok, the burn said once, as the reason (it was said twice, "burn at p10 0.70" first)
    got = verdict(0.9, 0.0, 0.93, 0.93, 0.92, 0.935, max_share=0.01, limit_status="exhausted",
                  loose_burn=0.25, window="24 h window")
    assert got[0] == "ok"
    assert got[1] == (
        "EXHAUSTED or worse 0.00 % of the evaluated time under 0.9 (limit 1 %); the rule's target "
        "0.93 (bootstrap interval 0.92 .. 0.935) lies above 0.9, but 9 hours in 10 the 24 h "
        "window burns at most 0.7 of its budget (limit: loose_burn 0.25): keep 0.9")


def test_recalibrate_says_a_window_that_spends_nothing_in_words():
    # 5 days at one attempt a second, one failure at 2026-01-04 00:00; 1 h window. The evaluated
    # span starts after the first hour: 5 x 86,400 - 3,600 = 428,400 events. The failure
    # exhausts a 1 h window under 0.99995 (budget 3,600 x 0.00005 = 0.18) for 1 h of the 118 h
    # 59 min 59 s evaluated: 3,600 / 428,399 = 0.84 % <= 1 %. The rule's target is capped by the
    # evidence at 0.9999 (1 - 10 / 428,400 = 0.99998 rounds down to the highest usual target),
    # below 0.99995, which stays within its limit: ok. The window holds no failure 117 h 59 min
    # 59 s of that time: p10 = 1, burn (1 - 1) / 0.00005 = 0 ("burn at p10 0.00" before)
    n = 5 * 86_400
    ok = np.ones(n, dtype=bool)
    ok[3 * 86_400] = False
    events = pd.DataFrame({"ts": pd.date_range("2026-01-01", periods=n, freq="1s", tz="UTC"),
                           "ok": ok})
    row = bl.recalibrate(events, target=0.99995, window="1h", n_boot=0).summary.iloc[0]
    assert (row["events"], row["verdict"], row["action"]) == (428_400, "ok", "keep 0.99995")
    assert row["verdict_reason"].startswith(
        "EXHAUSTED or worse 0.84 % of the evaluated time under 0.99995 (limit 1 %); 9 hours in 10 "
        "the 1 h window spends none of its budget; the rule's target 0.9999 ")


def test_no_recommendation_but_an_interval_says_the_interval():
    # NAB's machine temperature, "good" above 50, 1 h window, current 0.95: no usual target meets
    # the rule on the whole history (even 50 % is exhausted 6.57 % of the time), but the bootstrap
    # interval of the resampled histories runs from below every candidate up to 0.95. It read "no
    # usual target meets the rule (see the recommendation note) does not separate from 0.95", the
    # interval said nowhere; then (until stop 58) "ok, keep 0.95" beside 7.34 % over the 1 %
    # limit: the current target breaks the rule on the history, too strict, the interval said
    got = verdict(0.95, 0.0734, 1.0, np.nan, np.nan, 0.95, max_share=0.01,
                  limit_status="exhausted", loose_burn=0.25, window="1 h window")
    assert got[0] == "too_strict"
    assert got[1] == (
        "burns too fast: EXHAUSTED or worse 7.34 % of the evaluated time under 0.95 (limit 1 %); "
        "no usual target meets the rule (see the recommendation note); only resampled histories "
        "meet it at 0.95 (bootstrap interval below every candidate .. 0.95): loosen")


def test_the_cli_line_says_the_interval_without_a_recommendation():
    from budgetlab.cli.recalibrate_command import _recalibration_line

    row = pd.Series({"events": 8065, "hours": 672.0, "success_rate": 0.9344, "ci_low": 0.9288,
                     "ci_high": 0.9396, "current_target": 0.95, "recommended_target": np.nan,
                     "recommended_low": np.nan, "recommended_high": 0.95,
                     "recommended_capped": False, "verdict": "too_strict",
                     "action": "loosen (no usual target meets the rule)"})
    assert "; no recommended target (bootstrap below the candidates' range .. 0.95); verdict: " \
           "too strict, loosen (no usual target meets the rule)" in _recalibration_line(row, True)
    # no interval at all (n_boot=0, or no resample met the rule either): nothing in brackets
    row[["recommended_high", "verdict", "action"]] = [np.nan, "too_strict", "loosen"]
    assert _recalibration_line(row, True).endswith("; current target 0.95; no recommended "
                                                   "target; verdict: too strict, loosen")
