"""The incident summary's timeout clause when no status change was caused by timeouts: "every one
of the tracker's 3 status changes would have happened without them too", never "0 of the
tracker's 3 status changes would not have happened" (seen on many.parquet, --by sitekey)."""

from __future__ import annotations

import numpy as np
import pandas as pd

import budgetlab as bl
from budgetlab.analyses.incident import incident_report


def test_no_change_caused_by_timeouts_is_said_without_a_double_negative():
    """One event a minute from 00:00 for 10 h; minutes 300..329 solve errors, minute 335 a
    timeout. Target 0.9, window 1 h ([t - 1h, t]: 61 events, a budget of 6.1 failures). By hand:
    4 failures (minute 303) leave 34 %: WARNING; 6 (305) leave 1.6 %: CRITICAL; 7 (306) leave
    less than nothing: EXHAUSTED, past the incident's end (at minute 359 the window 299..359
    holds all 30 solve errors and the timeout). The incident 04:00 .. 06:00 (minutes 240..359)
    holds the 3 changes, all before the timeout: none of them caused by it. Its 120 events hold
    12 expected failures (a verdict needs 10): the clause is the full one."""
    ts = pd.date_range("2026-03-01", periods=600, freq="1min", tz="UTC")
    minute = np.arange(600)
    bucket = np.where((minute >= 300) & (minute < 330), "solve_error",
                      np.where(minute == 335, "timeout", "success"))
    ev = bl.as_events(ts, bucket == "success", bucket)
    rep = incident_report(ev, bl.SLO(target=0.9, window="1h"), "2026-03-01 04:00",
                          "2026-03-01 06:00")
    assert rep.tracker["transitions"].iloc[0] == 3
    assert rep.tracker["transitions_caused_by_timeouts"].iloc[0] == 0
    text = " ".join(rep.summary.split())
    assert ", and every one of the tracker's 3 status changes would have happened without them " \
           "too." in text
    assert "0 of" not in text


def _timeouts_from_05_00(n: int):
    """One event a minute from 00:00 for 10 h, minutes 300 .. 300 + n - 1 timeouts; the report
    of 04:00 .. 06:00 under target 0.9, window 1 h."""
    ts = pd.date_range("2026-03-01", periods=600, freq="1min", tz="UTC")
    minute = np.arange(600)
    bucket = np.where((minute >= 300) & (minute < 300 + n), "timeout", "success")
    ev = bl.as_events(ts, bucket == "success", bucket)
    return incident_report(ev, bl.SLO(target=0.9, window="1h"), "2026-03-01 04:00",
                           "2026-03-01 06:00")


def test_one_change_caused_by_timeouts_is_said_in_the_singular():
    """On-call lead, stop 62: "1 of the 1 status change of the tracker". One event a minute
    from 00:00 for 10 h; minutes 300..303 timeouts. Target 0.9, window 1 h (61 events, a budget of
    6.1 failures): 4 failures (minute 303) leave (6.1 - 4) / 6.1 = 34 %: WARNING, the one change
    in the incident 04:00 .. 06:00 (the timeouts leave the window after it ends); without them no
    failure, no change: the one change was caused by timeouts. Its 120 events hold 12 expected
    failures: the full clause."""
    rep = _timeouts_from_05_00(4)
    assert rep.tracker["transitions"].iloc[0] == 1
    assert rep.tracker["transitions_caused_by_timeouts"].iloc[0] == 1
    text = " ".join(rep.summary.split())
    assert ", and the tracker's one status change would not have happened." in text
    assert "1 of the" not in text


def test_every_change_caused_by_timeouts_is_said_all_of_them():
    """Stranger, stop 62: "3 of the 3 status changes". One event a minute from 00:00 for 10 h;
    minutes 300..305 timeouts. Target 0.9, window 1 h (61 events, a budget of 6.1 failures):
    4 failures leave (6.1 - 4) / 6.1 = 34 %: WARNING at 05:03; 6 leave 1.6 %: CRITICAL at 05:05;
    the timeouts leave the window after the incident 04:00 .. 06:00 ends: 2 changes, both caused
    by timeouts (without them, no failure). Its 120 events hold 12 expected failures: the full
    clause."""
    rep = _timeouts_from_05_00(6)
    assert rep.tracker["transitions"].iloc[0] == 2
    assert rep.tracker["transitions_caused_by_timeouts"].iloc[0] == 2
    text = " ".join(rep.summary.split())
    assert ", and both of the tracker's status changes would not have happened." in text
    assert "2 of the" not in text
