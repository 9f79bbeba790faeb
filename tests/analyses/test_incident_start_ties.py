"""The tracker's sentence when its first status change at events comes as the incident begins, or
records a status the window's clock already held: it said "was EXHAUSTED when the incident began
and went EXHAUSTED at 02:00" (the clock's status before the start beside the change its events
recorded at the start). Now a change at the instant the reading begins is what it began with,
and a change the clock made before, between events, is said as reached then and recorded at the
next event. The log: one event at the start of each minute, SLO 90 % over 1 h (a budget of 0.1
of the window's events), one 1 h tier out of reach; each status worked out by hand."""

from __future__ import annotations

import pandas as pd

from budgetlab import SLO, AlertPolicy, as_events, incident_report

SLO_90 = SLO(target=0.9, window="1h")


def at(hhmm: str) -> pd.Timestamp:
    return pd.Timestamp(f"2026-01-01 {hhmm}", tz="UTC")


def report(first: str, failing: tuple[str, str], start: str, end: str = "02:30"):
    """Events each minute from ``first`` to 03:00, those in ``failing`` (both included) failed."""
    ts = pd.date_range(at(first), at("03:00"), freq="1min")
    ev = as_events(ts, [not at(failing[0]) <= t <= at(failing[1]) for t in ts])
    return incident_report(ev, SLO_90, f"2026-01-01 {start}", f"2026-01-01 {end}", context="1h",
                           policy=AlertPolicy.single_window("1h", 50.0))


def flat(text: str) -> str:
    return " ".join(text.split())


def test_a_change_at_the_incident_start_is_what_the_tracker_began_with():
    # failures at 01:54 .. 02:00 (7). At its 01:59 event the hour [00:59, 01:59] holds 61 events,
    # 6 failures: burn 6 / 6.1 = 0.98, 1.6 % left: CRITICAL. 1 ns after 01:59 the 00:59 event
    # leaves: 6 failures in 60, the budget of 6 spent: EXHAUSTED on the clock before 02:00. At
    # the 02:00 event [01:00, 02:00] holds 7 failures in 61: burn 7 / 6.1 = 1.15, success 54 / 61
    # = 88.52 %, the change CRITICAL -> EXHAUSTED at its events, at the incident's start
    rep = report("00:00", ("01:54", "02:00"), "02:00")
    row = rep.tracker.iloc[0]
    assert (row["status_at_start"], row["first_change_from"], row["first_change_to"]) == (
        "exhausted", "critical", "exhausted")
    assert row["first_change_at"] == at("02:00")
    said = flat(rep.summary)
    assert ("the 1 h tracker (target 90 %) went EXHAUSTED at 02:00, as the incident began, with "
            "1 h burn 1.15 (1 h success 88.52 %); it changed status 1 time at its events and was "
            "EXHAUSTED when the incident ended") in said
    assert "was EXHAUSTED when the incident began and went EXHAUSTED" not in said  # the old words


def test_a_change_the_clock_made_before_the_start_is_said_as_recorded_at_the_next_event():
    # the same log, the incident from 01:59:30: the clock is EXHAUSTED from 1 ns after 01:59 (as
    # above), before the start; the events record it at 02:00, from CRITICAL (its 01:59 event's)
    rep = report("00:00", ("01:54", "02:00"), "01:59:30")
    said = flat(rep.summary)
    assert ("the 1 h tracker (target 90 %) was EXHAUSTED when the incident began, reached between "
            "its events as older events left its window, and its events recorded that change "
            "(from CRITICAL) at 02:00 with 1 h burn 1.15 (1 h success 88.52 %); it changed status "
            "1 time at its events") in said
    assert "went EXHAUSTED" not in said

