"""An incident shorter than the policy's bins, between two evaluations: no tier is evaluated
during it, and the report says so instead of blaming the data's start (stop 63)."""

from __future__ import annotations

import pandas as pd

from budgetlab import SLO, AlertPolicy, as_events, incident_report

#: 20 h of steady traffic, one event every 10 s from 00:00; the data start 18 h before 18:00:20.
TS = pd.date_range("2026-01-01", periods=20 * 360, freq="10s", tz="UTC")
EVENTS = as_events(TS, ~((TS >= "2026-01-01 18:00:20") & (TS < "2026-01-01 18:00:32")))


def _report(start: str, end: str):
    return incident_report(EVENTS, SLO(target=0.95, window="1h"), start, end,
                           policy=AlertPolicy.workbook("30D"))


def _tier_note(rep) -> str:
    return next(n for n in rep.notes if n.startswith("the data start at"))


def test_a_12_s_incident_between_minute_marks_names_the_evaluations():
    # by hand: evaluations at 18:00 and 18:01; (18:00:20, 18:00:32] holds none, while page_1h's
    # window is all after the data's start from 01:00 on (17 h before)
    rep = _report("2026-01-01 18:00:20", "2026-01-01 18:00:32")
    reason = "no 1 min evaluation falls inside the incident's 12 s"
    assert reason in _tier_note(rep), _tier_note(rep)
    assert reason in rep.summary, rep.summary
    for text in (_tier_note(rep), rep.summary):
        assert "after the data's start during" not in text, text
        assert "never lying after the data's start" not in text, text


def test_an_incident_before_the_data_start_and_a_window_keeps_the_window_reason():
    # by hand: 00:20 .. 00:50 holds the evaluations 00:21 .. 00:50; page_1h's window first lies
    # after the data's start (00:00) at 01:00, after the incident: the window is the reason
    rep = _report("2026-01-01 00:20", "2026-01-01 00:50")
    note = _tier_note(rep)
    assert ("page_1h (1 h) not evaluated, its window never all after the data's start during "
            "the incident") in note, note
    assert "evaluation falls inside" not in note + rep.summary
