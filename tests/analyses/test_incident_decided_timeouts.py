"""The incident summary's success rate without timeouts, where the incident's events are too
few for a verdict (under 10 expected failures) but the failures left without timeouts decide a
miss over the events left: given, and why, as the budget sentence gives its verdict then ("...
too few for a verdict, but the failures decide it: missed: ..."). Before, the rate was withheld
beside that decided miss. Where only the failures with the timeouts decide it, the rate stays
withheld (whether the service would miss without them is not decided: the buckets table's
rule, failure_buckets.WITHOUT_COLUMNS).

Hand-built log: one event a minute from 2026-03-01 00:00 UTC for 10 h; the incident is
04:00 .. 07:20 (minutes 240..439: 200 events). In it, minutes 300..339 failed: 300..329 timeouts
(30), 330..339 solve errors (10). Target 0.99: the 200 events hold 2 expected failures (too few,
a verdict needs 10), and 40 failures in 200 at 1 % happen with probability far below 0.1 %: a
decided miss. By hand: success 160 / 200 = 80.00 %; without the 30 timeouts, 160 / 170 =
94.12 %, and its 10 failures in 170 events decide a miss on their own (P < 0.1 %); the
timeouts are 30 / 40 = 75 % of the failures."""

from __future__ import annotations

import numpy as np
import pandas as pd

import budgetlab as bl
from budgetlab.analyses.incident import incident_report


def _report(last_failed: int):
    ts = pd.date_range("2026-03-01", periods=600, freq="1min", tz="UTC")
    minute = np.arange(600)
    bucket = np.where((minute >= 300) & (minute < 330), "timeout",
                      np.where((minute >= 330) & (minute <= last_failed), "solve_error",
                               "success"))
    ev = bl.as_events(ts, bucket == "success", bucket)
    return incident_report(ev, bl.SLO(target=0.99, window="1h"), "2026-03-01 04:00",
                           "2026-03-01 07:20")


def test_the_rate_without_timeouts_is_given_where_the_failures_decide_a_miss():
    text = " ".join(_report(339).summary.split())
    assert "missed: 40 of 200 events failed (20.00 %)" in text  # the budget sentence's verdict
    # without the timeouts: 10 failures in 170 events, P(X >= 10 | 170, 1 %) < 0.1 %: decided
    assert ("75 % of the failures were timeouts; without timeouts the success rate would have "
            "been 94.12 % instead of 80.00 % (170 events, too few for a verdict, but their 10 "
            "failures decide a miss all the same)") in text
    assert "is withheld (the incident's" not in text


def test_the_rate_stays_withheld_where_the_failures_left_decide_nothing():
    # minutes 300..329 timeouts and 330 a solve error: 31 failures in the 200 events, a decided
    # miss; without the 30 timeouts, 1 failure in 170 events, which a 99 % service fails that
    # often with P(X >= 1 | 170, 1 %) = 0.82: whether it would miss without them is not decided
    text = " ".join(_report(330).summary.split())
    assert "missed: 31 of 200 events failed (15.50 %)" in text
    assert ("97 % of the failures were timeouts; the success rate without timeouts is withheld "
            "(the incident's 200 events hold 2 expected failures under the target: too few for "
            "a verdict, one needs at least 10)") in text
