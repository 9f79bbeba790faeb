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


def test_a_worst_status_reached_between_events_is_said_so():
    """One event every 10 min from 00:00 (event i at i x 10 min); failures at i = 14, 16, 18, 21,
    23, 25, ... (three in every seven from i = 14). Target 50 %, window 1 h (``[t - 1h, t]``: 7
    events at an event's instant, 6 in between). By hand:
    at i = 16 (02:40) the window i = 10..16 holds 2 failures: budget 3.5, left 1 - 2 / 3.5 = 43 %,
    WARNING, burn 2 / 3.5 = 0.57 (success 5 / 7 = 71.43 %); at i = 18 (03:00) 3 failures, left
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
    assert ("went WARNING at 02:40 with 1 h burn 0.57 (1 h success 71.43 %), reached EXHAUSTED "
            "at 03:00 between its events, as older events left its window; it changed status 1 "
            "time at its events and was WARNING when the incident ended (at its events: peak 1 h "
            "burn 0.857 at 03:00") in rep.summary
