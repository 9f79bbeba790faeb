"""With ``min_events`` > 0 a status held on a thin window is the one before it: a chain that
reaches back further than any window. The incident report replayed each group from its last
event before the window less one window, so a status held since long before (EXHAUSTED at
00:02, held through thin windows at 05:00, 07:00, 08:10 and 08:20) started over from HEALTHY
and the change at 08:30 was lost. The oracle is worked out by hand in the comments."""

from __future__ import annotations

import pandas as pd

from budgetlab import SLO, AlertPolicy, as_events, incident_report

# a budget of 0.1 of the window's events; no status moves while the 1 h window holds < 3 events
SLO_HOLD = SLO(target=0.9, window="1h", min_events=3)
OUT_OF_REACH = AlertPolicy.single_window("1h", 50.0)


def at(hhmm: str) -> pd.Timestamp:
    return pd.Timestamp(f"2026-03-02 {hhmm}", tz="UTC")


# 00:00 and 00:01 fail with fewer than 3 events in the window: HEALTHY held. 00:02 fails: 3
# events, 3 failures, 0.3 - 3 of a 0.3 budget left: EXHAUSTED. 05:00, 07:00, 08:10, 08:20
# succeed, each window [t - 1 h, t] holding 1, 1, 1 and 2 events: EXHAUSTED held. 08:30
# succeeds with 3 events, no failure, the whole budget left: HEALTHY, a change at 08:30.
TIMES = ["00:00", "00:01", "00:02", "05:00", "07:00", "08:10", "08:20", "08:30", "08:40"]
OKS = [False, False, False, True, True, True, True, True, True]


def test_a_status_held_since_long_before_the_window_is_the_from_of_its_change():
    ev = as_events([at(t) for t in TIMES], OKS)
    for context in ("0s", "1h"):
        rep = incident_report(ev, SLO_HOLD, "2026-03-02 08:00", "2026-03-02 09:00",
                              context=context, policy=OUT_OF_REACH)
        got = [(t, f, to) for t, f, to in rep.transitions[["ts", "from_status", "to_status"]]
               .itertuples(index=False) if t >= at("08:00")]
        assert got == [(at("08:30"), "exhausted", "healthy")], context
        row = rep.tracker.iloc[0]
        assert (row["first_change_at"], row["first_change_from"], row["first_change_to"]) == (
            at("08:30"), "exhausted", "healthy")
