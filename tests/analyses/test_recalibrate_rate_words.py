"""recalibrate's note names each rate it gives (stop 59): "~286 events a day with traffic" was
4,649 events over 389 h 40 min of evaluated time x 24 h, read as 286 a calendar day where each
day held 166, and the window advice stood on another rate, unnamed. Oracle: hand computation."""

from __future__ import annotations

from budgetlab.analyses.recalibration.no_target import explain_no_recommendation


def test_the_note_names_the_rate_of_its_figure_and_the_rate_of_its_window_advice():
    # 28 days, each with 166 evaluated events between 08:00 and 22:00 (4,649 in all) and 389 h
    # 40 min of evaluated time: 4,649 / (389.6667 / 24) = 286.3 events per 24 h of it; the advice
    # weighs a window over the group's 28 d in the log: 4,649 / 28 = 166.0 a day, and a window at
    # 90 % needs 10 / 0.1 = 100 events: 100 / 166.04 x 24 h = 14.45 h, 15 h
    note = explain_no_recommendation(
        has_time=True, p1=0.5, floor=0.5, lo=0.5, share_lo=0.0595, events_per_day=286.337,
        window_events=2.0, window_ns=600 * 10**9, history_days=389.6667 / 24, max_share=0.01,
        limit_status="exhausted", log_days=28.0, log_events=4_649)
    assert ("~286 events a day with traffic (per 24 h of its 16 d 5 h of evaluated time): a "
            "10 min window holds ~2 events") in note
    assert ("use a longer window (window='15h') or min_events=100 (the status holds while the "
            "window has fewer events), counted at ~166 events a day over the group's 28 d in the "
            "log (silences included)") in note
