"""The incident summary's tracker sentence reads its worst status on the window's clock and its
count of status changes at events: when the worst status was reached only between events, it says
so, and says the count is at events (it read "reached EXHAUSTED at 03:00; it changed status 1
time", which contradicts itself: NAB's ec2_request_latency_system_failure.csv, --ok-when
'value<50', 24 h window, 2014-03-18 17:06 .. 2014-03-19 04:16)."""

from __future__ import annotations

import numpy as np
import pandas as pd

import budgetlab as bl
from budgetlab.analyses.incident import incident_report
from tests.seed_tracker import ErrorBudgetTracker, SLOConfig


def test_a_worst_status_reached_between_events_is_said_so():
    """One event every 10 min from 00:00 (event i at i x 10 min); failures at i = 14, 16, 18, 21,
    23, 25, ... (three in every seven from i = 14). Target 50 %, window 1 h (``[t - 1h, t]``: 7
    events at an event's instant, 6 in between). By hand:
    at i = 16 (02:40) the window i = 10..16 holds 2 failures: budget 3.5, left 1 - 2 / 3.5 = 43 %,
    WARNING, burn 2 / 3.5 = 0.571 (success 5 / 7 = 71.43 %); at i = 18 (03:00) 3 failures, left
    14 %, still WARNING (burn 0.857), and every later window of 7 holds 3: WARNING at every event,
    one change in the incident [02:20, 05:00). 1 ns after 03:00 the event i = 12 has left: 6
    events, 3 failures, budget 3, nothing left: EXHAUSTED between events, on the window's clock
    only."""
    ts = pd.date_range("2026-01-01", periods=43, freq="10min", tz="UTC")
    i = np.arange(43)
    ok = ~((i >= 14) & (i <= 40) & np.isin(i % 7, [0, 2, 4]))
    rep = incident_report(bl.as_events(ts, ok), bl.SLO(target=0.5, window="1h"),
                          "2026-01-01 02:20", "2026-01-01 05:00", context="1h")
    assert rep.tracker["transitions"].iloc[0] == 1
    assert str(rep.tracker["worst_status"].iloc[0]) == "exhausted"
    assert ("went WARNING at 02:40 with 1 h burn 0.571 (1 h success 71.43 %), reached EXHAUSTED "
            "at 03:00 between its events, as older events left its window; it changed status 1 "
            "time at its events and was WARNING when the incident ended (at its events: peak 1 h "
            "burn 0.857 at 03:00") in rep.summary


def _seed_status(tracker: ErrorBudgetTracker, t: pd.Timestamp) -> str:
    """The seed tracker's status at instant ``t`` (ns), stepped there without an event: its window
    pruned to ``t`` and its status computed, as ``record`` does."""
    tracker._prune(t.value)
    return tracker._compute_status().value


def test_a_worst_status_reached_between_events_after_two_changes_is_said_so():
    """Target 90 %, window 1 h: 100 successes 00:00:00 .. 00:01:39 (one a second), 6 failures
    00:30:00 .. 00:30:05, 60 successes 00:40:00 .. 00:40:59, one success at 01:35. At events: the
    6th failure makes 6 of 106 (budget 10.6, 43 % left, burn 0.566): WARNING at 00:30:05; the 14th
    success of 00:40 makes 120 events (budget 12, 50 % left): HEALTHY at 00:40:13; two changes.
    Between events the 100 successes of 00:00 leave (1 ns after ts + 1 h): from 01:01:39 + 1 ns the
    window holds 6 failures in 66 events (budget 6.6, 9 % left): CRITICAL until the failures leave,
    at 01:30 + 1 ns. The incident 00:20 .. 01:20: no event in it showed CRITICAL (the summary read
    "reached CRITICAL at 01:01; it changed status 2 times", as if an event had). The oracle is the
    seed tracker recording the events and stepped at the instants in question."""
    t0 = pd.Timestamp("2026-01-01", tz="UTC")
    parts = [(pd.Timedelta(0), 100, True), (pd.Timedelta("30min"), 6, False),
             (pd.Timedelta("40min"), 60, True), (pd.Timedelta("95min"), 1, True)]
    ts = [t0 + at + pd.Timedelta(seconds=k) for at, n, _ in parts for k in range(n)]
    ok = [good for _, n, good in parts for _ in range(n)]
    start, end = t0 + pd.Timedelta("20min"), t0 + pd.Timedelta("80min")
    seed = ErrorBudgetTracker(SLOConfig(target_success_rate=0.9, window_seconds=3600 * 10**9))
    at_events = []
    for t, good in zip(ts, ok, strict=True):
        seed.record(good, t.value)
        if start <= t < end:
            at_events.append(seed.get_report()["status"])
    assert set(at_events) == {"healthy", "warning"}  # no event of the incident showed CRITICAL
    seed = ErrorBudgetTracker(SLOConfig(target_success_rate=0.9, window_seconds=3600 * 10**9))
    for t, good in zip(ts, ok, strict=True):
        if t > t0 + pd.Timedelta("41min"):
            break
        seed.record(good, t.value)
    critical_at = t0 + pd.Timedelta("61min39s") + pd.Timedelta(1, "ns")
    assert _seed_status(seed, critical_at - pd.Timedelta(2, "ns")) == "warning"
    assert _seed_status(seed, critical_at) == "critical"
    assert _seed_status(seed, end - pd.Timedelta(1, "ns")) == "critical"

    rep = incident_report(_framed(ts, ok), bl.SLO(target=0.9, window="1h"), start, end,
                          policy=bl.AlertPolicy.single_window("1h", 50.0))
    row = rep.tracker.iloc[0]
    assert row["transitions"] == 2
    assert (str(row["worst_status"]), row["worst_at"]) == ("critical", critical_at)
    assert str(row["worst_status_at_events"]) == "warning"
    said = " ".join(rep.summary.split())
    assert ("went WARNING at 00:30 with 1 h burn 0.566 (1 h success 94.34 %), reached CRITICAL "
            "at 01:01 between its events, as older events left its window; it changed status 2 "
            "times at its events and was HEALTHY at the last of them (00:40); after it, with no "
            "event, older events left its window and it was CRITICAL when the incident "
            "ended") in said


def _framed(ts, ok) -> pd.DataFrame:
    """The events, with one success a day before and one a day after: the log covers the history
    the windows need and runs past the report's window, so its silences are the traffic's (as the
    seed, fed only the events, sees them; those two lie outside every window read)."""
    day = pd.Timedelta("1D")
    return bl.as_events(pd.DatetimeIndex([ts[0] - day, *ts, ts[-1] + day]),
                        np.array([True, *ok, True]))


def _seed_run(ts, ok, target):
    """The seed tracker after recording every event, and its status at each event."""
    seed = ErrorBudgetTracker(SLOConfig(target_success_rate=target, window_seconds=3600 * 10**9))
    at_events = []
    for t, good in zip(ts, ok, strict=True):
        seed.record(bool(good), t.value)
        at_events.append(seed.get_report()["status"])
    return seed, at_events


def test_a_status_the_window_left_after_the_last_event_is_said_so():
    """It read "went EXHAUSTED at 00:05 ...; it changed status 1 time and was HEALTHY when the
    incident ended": HEALTHY -> EXHAUSTED -> HEALTHY is two changes (the real case: the apache
    access log, target 99.9 %, 1 h window, 03:05:34 .. 04:05:35). Target 90 %, window 1 h:
    successes 00:00 .. 00:04 (one a minute), a failure at 00:05, successes 00:06 .. 00:08;
    incident 00:03 .. 01:07. By hand: at 00:05 six events, budget 0.6, one failure: EXHAUSTED,
    and still at 00:08 (9 events, budget 0.9): one change at events, EXHAUSTED at the last. The
    failure is in the window through 01:05; from 1 ns later the window holds 00:06 .. 00:08, no
    failure: HEALTHY at 01:07, with no event after 00:08. The oracle is the seed tracker."""
    ts = pd.DatetimeIndex([pd.Timestamp("2026-01-01", tz="UTC") + pd.Timedelta(minutes=m)
                           for m in range(9)])
    ok = np.arange(9) != 5
    seed, at_events = _seed_run(ts, ok, 0.9)
    assert at_events == ["healthy"] * 5 + ["exhausted"] * 4
    end = pd.Timestamp("2026-01-01 01:07", tz="UTC")
    assert _seed_status(seed, end - pd.Timedelta(1, "ns")) == "healthy"
    rep = incident_report(_framed(ts, ok), bl.SLO(target=0.9, window="1h"),
                          "2026-01-01 00:03", end, context="0h",
                          policy=bl.AlertPolicy.single_window("1h", 50.0))
    row = rep.tracker.iloc[0]
    assert (row["transitions"], str(row["status_at_last_event"]), str(row["status_at_end"])) == (
        1, "exhausted", "healthy")
    assert row["last_event_at"] == ts[-1]
    said = " ".join(rep.summary.split())
    assert ("went EXHAUSTED at 00:05 with 1 h burn 1.67 (1 h success 83.33 %); it changed status "
            "1 time at its events and was EXHAUSTED at the last of them (00:08); after it, with "
            "no event, older events left its window and it was HEALTHY when the incident "
            "ended") in said


def test_no_change_at_events_is_not_said_to_have_stayed_when_the_window_moved():
    """It read "was already EXHAUSTED when the incident began and stayed so" of a tracker whose
    window emptied of its failure during the incident. Same log as above, incident 00:06 ..
    01:07: EXHAUSTED at start and at every event of the incident (00:06 .. 00:08: no change at
    events), HEALTHY from 1 ns after 01:05 (the failure left), so HEALTHY at the end."""
    ts = pd.DatetimeIndex([pd.Timestamp("2026-01-01", tz="UTC") + pd.Timedelta(minutes=m)
                           for m in range(9)])
    ok = np.arange(9) != 5
    rep = incident_report(_framed(ts, ok), bl.SLO(target=0.9, window="1h"),
                          "2026-01-01 00:06", "2026-01-01 01:07", context="0h",
                          policy=bl.AlertPolicy.single_window("1h", 50.0))
    row = rep.tracker.iloc[0]
    assert (row["transitions"], str(row["status_at_start"]), str(row["status_at_end"])) == (
        0, "exhausted", "healthy")
    said = " ".join(rep.summary.split())
    assert "stayed so" not in said
    assert ("was EXHAUSTED when the incident began; it did not change status at its events and "
            "was EXHAUSTED at the last of them (00:08); after it, with no event, older events "
            "left its window and it was HEALTHY when the incident ended") in said
