"""The tracker's window ``wake_verdict`` judges at its peak, against the seed's tracker
(tests/seed_tracker.py): rows sharing the peak event's second, recorded after it (stop 63)."""

from __future__ import annotations

import pandas as pd

from budgetlab import SLO, AlertPolicy, as_events, incident_report
from budgetlab.analyses.paging import wake_verdict
from tests.seed_tracker import ErrorBudgetTracker, SLOConfig


def _tied_log() -> pd.DataFrame:
    """One event a minute for 4 h; from 02:00 to 02:30 every event fails; at 02:30:00 a second
    row, a success, shares the failing event's second. The burn peaks at the failure of 02:30:00,
    before the success recorded after it at the same second."""
    ts = list(pd.date_range("2026-01-01", periods=240, freq="1min", tz="UTC"))
    ok = [not (pd.Timestamp("2026-01-01 02:00", tz="UTC") <= t
               <= pd.Timestamp("2026-01-01 02:30", tz="UTC")) for t in ts]
    at = ts.index(pd.Timestamp("2026-01-01 02:30", tz="UTC"))
    ts.insert(at + 1, ts[at])
    ok.insert(at + 1, True)
    return as_events(pd.DatetimeIndex(ts), ok)


def _seed_peak(ev: pd.DataFrame) -> tuple[int, int]:
    """Failures and events in the seed tracker's window at its peak burn (the first of equal
    burns), the events recorded one at a time in table order, 1 h window, target 0.95."""
    tracker = ErrorBudgetTracker(SLOConfig(target_success_rate=0.95, window_seconds=3600 * 10**9))
    best = (-1.0, 0, 0)
    for t, ok in zip(ev["ts"], ev["ok"], strict=True):
        tracker.record(bool(ok), t.value)
        if pd.Timestamp("2026-01-01 02:00", tz="UTC") <= t < pd.Timestamp(
                "2026-01-01 03:00", tz="UTC") and tracker.burn_rate > best[0]:
            best = (tracker.burn_rate, tracker.failure_count, tracker.total_events)
    return best[1], best[2]


def _verdict() -> str:
    ev = _tied_log()
    rep = incident_report(ev, SLO(target=0.95, window="1h"), "2026-01-01 02:00",
                          "2026-01-01 03:00", policy=AlertPolicy.single_window("1h", 0.9))
    assert rep.tracker.iloc[0]["peak_burn_at"] == pd.Timestamp("2026-01-01 02:30", tz="UTC")
    return wake_verdict(ev, {"seed": rep}).sentence


def test_the_tracker_peak_window_counts_what_the_seed_held_at_a_tied_second():
    # by hand: at 02:30:00 (the failure) the hour holds 01:30:00 .. 02:30:00, 61 events, of which
    # 02:00 .. 02:30 fail, 31; the success of the same second is not recorded yet
    assert _seed_peak(_tied_log()) == (31, 61)
    sentence = _verdict()
    assert "The tracker's peak burn was justified: 31 failures in 61 events" in sentence, sentence

