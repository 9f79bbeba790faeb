"""``incident_span`` says which rule picked the incident under review (stop 63: notebook 04 read
an 11 s episode as "the incident under review" without saying why that one)."""

from __future__ import annotations

import pandas as pd

from budgetlab import SLO, as_events, replay
from budgetlab.analyses.incident_review import incident_span


def test_the_episode_holding_the_alert_is_picked_and_the_rule_said():
    # one event a minute for 3 h; 00:40 .. 01:09 fail (a long critical episode), then at 02:30 a
    # burst: 30 failures 1 s apart; the alert at 02:30:10 falls in the burst's episode, not the
    # long one: the rule picks the episode holding the alert, whatever its length
    ts = pd.date_range("2026-01-01", periods=180, freq="1min", tz="UTC")
    ok = [not 40 <= i < 70 for i in range(180)]
    burst = pd.date_range("2026-01-01 02:30:01", periods=30, freq="1s", tz="UTC")
    ev = as_events(ts.append(burst), ok + [False] * 30).sort_values("ts", kind="stable")
    st = replay(ev.reset_index(drop=True), SLO(target=0.9, window="30min"))
    span = incident_span(st, at="2026-01-01 02:30:10")
    assert span["start"] > pd.Timestamp("2026-01-01 02:00", tz="UTC"), span
    assert "picked as the one holding the alert, whatever its length" in span["reason"], span
    assert "no incident labels given" in span["reason"], span
