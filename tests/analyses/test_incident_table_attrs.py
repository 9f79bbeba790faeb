"""incident_report's transitions and incidents say in attrs the span their rows count: the
report window's events (``start`` .. ``end``), the replay behind them apart
(``replayed_start`` .. ``replayed_end``); the incidents the window ``[start, end)`` they are cut
to, with the report's scope and by. Times written out by hand from the events built here."""

from __future__ import annotations

import json

import pandas as pd

from budgetlab import SLO, AlertPolicy, PerGroup, as_events
from budgetlab.analyses.incident import incident_report

POLICY = AlertPolicy.single_window("1h", 2.9, severity="ticket")


def events(groups: bool = False) -> pd.DataFrame:
    """One event a minute on 2026-01-01 (00:00 .. 23:59), every other one failing 10:00-11:00;
    with ``groups``, the minutes alternate between a and b."""
    ts = pd.date_range("2026-01-01", periods=24 * 60, freq="1min")
    ok = [not (600 <= i < 660 and i % 2) for i in range(len(ts))]
    extra = {"groups": {"g": ["a", "b"] * (len(ts) // 2)}} if groups else {}
    return as_events(ts, ok, **extra)


def iso(text: str) -> str:
    return pd.Timestamp(text, tz="UTC").isoformat()


def test_transitions_count_the_window_and_say_the_replay_apart():
    inc = pd.DataFrame({"id": ["in", "out"],
                        "start": pd.to_datetime(["2026-01-01 10:00", "2026-01-01 20:00"], utc=True),
                        "end": pd.to_datetime(["2026-01-01 11:00", "2026-01-01 21:00"], utc=True)})
    rep = incident_report(events(), SLO(target=0.9, window="1h"), "2026-01-01 10:00",
                          "2026-01-01 11:00", context="1h", policy=POLICY, incidents=inc)
    # the window is 09:00 .. 12:00 (excluded): its events 09:00 .. 11:59; the tracker replays
    # the 1 h window of its last event before the window (08:59) first: from 07:59
    tr = rep.transitions.attrs
    assert (tr["start"], tr["end"]) == (iso("2026-01-01 09:00"), iso("2026-01-01 11:59"))
    assert (tr["replayed_start"], tr["replayed_end"]) == (iso("2026-01-01 07:59"),
                                                          iso("2026-01-01 11:59"))
    assert len(rep.transitions) and (rep.transitions["ts"] >= pd.Timestamp(tr["start"])).all()
    # the incidents: "in" overlaps the window, "out" does not
    assert rep.incidents["id"].tolist() == ["in"]
    assert rep.incidents.attrs == {"start": iso("2026-01-01 09:00"),
                                   "end": iso("2026-01-01 12:00"), "scope": "*", "by": []}
    json.dumps(rep.incidents.attrs)
    json.dumps(tr)


def test_incidents_say_the_window_when_none_were_given_with_scope_and_keys():
    rep = incident_report(events(groups=True), SLO(target=0.9, window="1h"), "2026-01-01 10:00",
                          "2026-01-01 11:00", context="30min", policy=POLICY, by="g",
                          scope="g=a")
    assert len(rep.incidents) == 0
    assert rep.incidents.attrs == {"start": iso("2026-01-01 09:30"),
                                   "end": iso("2026-01-01 11:30"), "scope": "g=a", "by": ["g"]}


def test_per_group_slos_replayed_from_the_longest_history():
    # a under a 2 h window reads 2 h of history before its last event before the window's 09:00
    # (a has the even minutes: 08:58, so from 06:58), b under 1 h one hour before its 08:59 (from
    # 07:59): together the replay starts at 06:58; b's last event is 11:59
    per = PerGroup({"a": SLO(target=0.9, window="2h"), "b": SLO(target=0.9, window="1h")})
    rep = incident_report(events(groups=True), per, "2026-01-01 10:00", "2026-01-01 11:00",
                          context="1h", policy=POLICY, by="g")
    tr = rep.transitions.attrs
    assert (tr["start"], tr["end"]) == (iso("2026-01-01 09:00"), iso("2026-01-01 11:59"))
    assert (tr["replayed_start"], tr["replayed_end"]) == (iso("2026-01-01 06:58"),
                                                          iso("2026-01-01 11:59"))
