"""The longer window a note advises is weighed against the group's span in the log (stop 58).

A sparse group's evaluated history under a short window is mostly warm-up: the note compared a
longer window with it ("longer than the 3 d 19 h of evaluated history or the 7 d maximum") and
asked for more history, for a group whose log spans four weeks. Figures worked out by hand.
"""

from __future__ import annotations

import pandas as pd
import pytest

import budgetlab as bl


def _bursts(per_day_minutes: list[int], failing: tuple[int, ...]) -> pd.DataFrame:
    """28 days, each with events at 12:00 plus the given minutes, those in ``failing`` failed."""
    base = pd.Timestamp("2026-01-01 12:00", tz="UTC")
    rows = [(base + pd.Timedelta(days=d, minutes=m), m not in failing)
            for d in range(28) for m in per_day_minutes]
    return pd.DataFrame(rows, columns=["ts", "ok"])


def test_the_window_advised_is_counted_over_the_groups_span_in_the_log():
    # 15 events a day: 12:00 .. 12:44 every 4 minutes, then 13:05, 13:10 (both failed), 13:15.
    # Under a 1 h window each day is warm-up until 13:00, evaluated until 14:15 (the last, the
    # last day's 13:15): 27 x 1 h 15 min + 15 min = 34 h (1 d 10 h) holding 3 x 28 = 84 events,
    # "59.3 a day with traffic". Ten failures at 90 % need 100 events: at 59.3 a day 1.7 days,
    # longer than the 1 d 10 h, so the old note said no window fixes it and asked for more
    # history. But the log holds 420 events over 27 d 1 h 15 min (15.5 a day): a window of
    # 100 / 15.5 = 6.4 days, 7D, holds 7 x 15 = 105 events, and the log spans four weeks
    mins = [4 * i for i in range(12)] + [65, 70, 75]
    s = bl.recalibrate(_bursts(mins, (65, 70)), window="1h", n_boot=0).summary.iloc[0]
    assert (s["events"], s["hours"]) == (84, pytest.approx(34.0))
    note = s["recommendation_note"]
    assert "use a longer window (window='7D')" in note
    assert "no window length fixes this" not in note and "give more history" not in note
    assert ("a longer window also evaluates more of the log (1 d 10 h of evaluated history in the "
            "group's 27 d 1 h in the log") in note
    # the window it names holds the events: 7 x 15 = 105 a window
    week = bl.recalibrate(_bursts(mins, (65, 70)), window="7D", n_boot=0).summary.iloc[0]
    assert week["window_events"] == 105


def test_no_window_names_the_length_it_would_take():
    # 5 events a day (12:00, 12:20, 12:40, 13:10 failed, 13:30): 140 in 27 d 1 h 30 min (said
    # 27 d 1 h), 5.17 a day: 100 events take a 19.33-day window (19 d 7 h 55 min, said 19 d 7 h),
    # within the log's span but over the 7-day maximum: that alone is named. Evaluated: 13:00 ..
    # 14:30 a day (the last, 13:30): 27 x 1.5 h + 0.5 h = 41 h = 1 d 17 h; the log spans 27 d:
    # no window lengthens it, and more history is not what it lacks
    s = bl.recalibrate(_bursts([0, 20, 40, 70, 90], (70,)), window="1h",
                       n_boot=0).summary.iloc[0]
    note = s["recommendation_note"]
    assert ("no window length fixes this: too little traffic (a window at 90 % needs 100 events "
            "to allow 10 failures; at ~5.17 events a day over the group's 27 d 1 h in the log "
            "that is a 19 d 7 h window, longer than the 7 d maximum)") in note
    assert "a longer window also" not in note and "give more history" not in note
    assert note.endswith("; 1 d 17 h of evaluated history in the group's 27 d 1 h in the log: its "
                         "window is empty or warming up the rest of the time; a recommendation "
                         "needs at least 14 d of evaluated history")
