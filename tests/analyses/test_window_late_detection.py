"""Recovery of an incident detected after its end (within the grace), against hand computation.

The recovery was read at the incident's end, when a window that detects late was still below
``alert_at`` (it had not reached it yet), so it came out as 0 s for an incident detected 55 min
after its end (the elastic apache log, GET at 1 h). The rule (docs/compare-windows.md): recovery
is the time from the end until the window is below ``alert_at`` again after having reached it.
"""

from __future__ import annotations

import pandas as pd

from budgetlab import SLO, as_events
from budgetlab.analyses.window_lengths import compare_windows, window_incidents


def late_case() -> tuple[pd.DataFrame, pd.DataFrame]:
    """Target 50 %, window 1 h (``[t - 1h, t]``): successes at 00:00 and 00:10, a failure at
    00:40, successes at 01:20 and 03:00; incident 00:30-00:50."""
    ts = pd.to_datetime(["2026-01-01 00:00", "2026-01-01 00:10", "2026-01-01 00:40",
                         "2026-01-01 01:20", "2026-01-01 03:00"], utc=True)
    events = as_events(ts, [True, True, False, True, True])
    inc = pd.DataFrame({"incident_id": ["i1"], "scope": ["*"],
                        "start": pd.to_datetime(["2026-01-01 00:30"], utc=True),
                        "end": pd.to_datetime(["2026-01-01 00:50"], utc=True)})
    return events, inc


def test_recovery_of_an_incident_detected_after_its_end_hand_computed():
    # By hand: at 00:40 three events, budget 3 * 0.5 = 1.5, one failure: remaining 1/3, WARNING
    # (below CRITICAL); so at the end, 00:50, the window is below CRITICAL: the old reading
    # (recovery 0 s). 00:00 is in the window through 01:00: from then two events, budget 1, one
    # failure: remaining 0, EXHAUSTED, dated 01:00: detected 30 min after the start, 10 min
    # after the end (grace 30 min). The failure is in the window through 01:40; then the
    # 01:20 success alone, HEALTHY, dated 01:40: recovery 01:40 - 00:50 = 50 min. With a 1 h
    # dwell EXHAUSTED (entered at 01:00) may drop at 02:00: recovery 70 min.
    events, inc = late_case()
    slo = SLO(target=0.5)
    w = window_incidents(events, slo, inc, "1h", grace="30min", min_dwell=[0, "1h"])
    assert w["detection"].tolist() == [pd.Timedelta("30min")] * 2
    assert w["recovered"].tolist() == [True, True]
    assert w["recovery"].tolist() == [pd.Timedelta("50min"), pd.Timedelta("70min")]
    t = compare_windows(events, slo, "1h", incidents=inc, grace="30min")
    assert t[["detected", "unrecovered"]].iloc[0].tolist() == [1, 0]
    assert (t["recovery_median"].iloc[0], t["recovery_max"].iloc[0]) == (
        pd.Timedelta("50min"), pd.Timedelta("50min"))


def test_a_late_detection_still_at_alert_when_the_log_ends_is_unrecovered():
    # Without the 03:00 success the log ends at 01:20 (the observation's end), when the failure
    # is still in the window (two events from 01:00, then 00:40 and 01:20: one failure of two,
    # budget 1: EXHAUSTED): detected at 01:00 and never below CRITICAL again within the log.
    events, inc = late_case()
    cut = as_events(events["ts"].iloc[:4], events["ok"].iloc[:4])
    w = window_incidents(cut, SLO(target=0.5), inc, "1h", grace="30min")
    assert w["detection"].tolist() == [pd.Timedelta("30min")]
    assert w["recovered"].tolist() == [False] and pd.isna(w["recovery"].iloc[0])
    t = compare_windows(cut, SLO(target=0.5), "1h", incidents=inc, grace="30min")
    assert t["unrecovered"].iloc[0] == 1 and pd.isna(t["recovery_max"].iloc[0])
