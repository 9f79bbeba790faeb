"""The incident report when the log starts inside the history its windows need: an alert tier is
evaluated only where its long window lies after the data's start (a 6 h window 1 h after the first
event holds 1 h of data), its peaks and alerts read from those evaluations, the note says each
tier's evaluated span; and past the data's end the tracker table's clock columns read up to the
log's last event. Every expected figure is worked out by hand in the comments (the tracker's
status at the last event also by the seed's tracker, tests/seed_tracker.py)."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab import SLO, AlertPolicy, AlertTier, as_events, incident_report
from tests.seed_tracker import ErrorBudgetTracker, SLOConfig

T0 = pd.Timestamp("2026-03-02 08:00", tz="UTC")  # the log's first event
SLO_99 = SLO(target=0.99, window="1h")  # error budget 0.01
PAGE_1H = AlertTier("page_1h", severity="page", long_window="1h", short_window="5min", burn=14.4)
PAGE_6H = AlertTier("page_6h", severity="page", long_window="6h", short_window="30min", burn=6)


def log(hours: int) -> pd.DataFrame:
    """One event at the start of each minute from 08:00 for ``hours``; the ten of 10:30 .. 10:39
    (minutes 150 .. 159) fail."""
    ts = [T0 + pd.Timedelta(minutes=i) for i in range(hours * 60)]
    return as_events(ts, [not 150 <= i < 160 for i in range(len(ts))])


def test_a_tier_whose_window_reaches_before_the_data_is_not_evaluated():
    # the log starts at 08:00, 2 h before the incident 10:00 .. 12:00 (context 1 h): the 1 h tier's
    # window lies after the data's start from 09:00, so it is evaluated at 10:01 .. 12:00. At 10:39
    # [09:39, 10:39) holds 9 failures in 60 (0.15 > 0.144) and [10:34, 10:39) 5 in 5: it pages;
    # its peak is 10 failures in 60: (10/60)/0.01 = 16.7. The 6 h tier's window first lies after
    # the data's start at 14:00, after the incident: not evaluated. The old report read its 6 h
    # window at 10:40 holding 160 min of data, 10 failures: (10/160)/0.01 = 6.25 > 6, a page.
    rep = incident_report(log(6), SLO_99, "2026-03-02 10:00", "2026-03-02 12:00",
                          policy=AlertPolicy([PAGE_1H, PAGE_6H]), context="1h")
    one, six = (rep.tiers.set_index("tier").loc[t] for t in ("page_1h", "page_6h"))
    assert not six["fired"] and pd.isna(six["peak_burn_long"])  # old: fired, 6.25
    assert one["evaluated_from"] == pd.Timestamp("2026-03-02 10:01", tz="UTC")
    assert one["evaluated_to"] == pd.Timestamp("2026-03-02 12:00", tz="UTC")
    assert one["first_alert"] == pd.Timestamp("2026-03-02 10:39", tz="UTC")
    assert one["peak_burn_long"] == pytest.approx(100 / 6)
    assert pd.isna(six["evaluated_from"]) and pd.isna(six["peak_burn_long"])
    assert not six["fired"] and not six["condition_held"]
    note = " ".join(" ".join(rep.notes).split())
    assert "page_1h (1 h) from 10:01 to 12:00" in note
    assert "page_6h (6 h) not evaluated" in note
    assert rep.data_start == T0


def test_a_tier_evaluated_from_its_first_covered_window_says_from_when():
    # incident 10:00 .. 16:00, the log to 17:59: the 6 h tier is evaluated from 14:00 (window
    # [08:00, 14:00)) to 16:00; each of those windows holds 360 events and the 10 failures:
    # (10/360)/0.01 = 2.78 < 6, no page. The old report paged at 10:40 (6.25, read on 160 min).
    rep = incident_report(log(10), SLO_99, "2026-03-02 10:00", "2026-03-02 16:00",
                          policy=AlertPolicy([PAGE_6H]), context="0s")
    row = rep.tiers.iloc[0]
    assert row["peak_burn_long"] == pytest.approx(1000 / 360)  # old: 6.25
    assert not row["fired"]
    assert row["evaluated_from"] == pd.Timestamp("2026-03-02 14:00", tz="UTC")
    assert ("page_6h's 6 h burn, evaluated every minute from 14:00 (its first window after the "
            "data's start), peaked at 2.78, its threshold is 6") in " ".join(rep.summary.split())


def test_no_tier_evaluated_says_the_policy_is_not_known():
    # incident 10:00 .. 12:00 with the 6 h tier alone: never evaluated (see the first test); the
    # old report said it would have paged at 10:40
    rep = incident_report(log(6), SLO_99, "2026-03-02 10:00", "2026-03-02 12:00",
                          policy=AlertPolicy([PAGE_6H]), context="0s")
    assert ("The alert policy's page tiers were not evaluated during the incident, their windows "
            "never lying after the data's start, so whether it would have paged is not known."
            ) in " ".join(rep.summary.split())
    assert "would have paged at" not in rep.summary


def test_tracker_clock_columns_stop_at_the_data_end():
    # the log runs 08:00 .. 10:59 (failures 10:30 .. 10:39), the incident 10:00 .. 12:30: after
    # 10:59 the window empties with the data; at 11:59:00.000000001 it holds nothing (no_traffic,
    # what the old status_at_end read). At the last event, 10:59, the 1 h window [09:59, 10:59]
    # holds 61 events, 10 failures: the budget 0.61 is spent (EXHAUSTED), as the seed says.
    ev = log(3)
    seed = ErrorBudgetTracker(SLOConfig(target_success_rate=0.99, window_seconds=3_600 * 10**9))
    for t, ok in zip(ev["ts"], ev["ok"], strict=True):
        seed.record(bool(ok), t.value)
    assert seed._compute_status().value == "exhausted"
    rep = incident_report(ev, SLO_99, "2026-03-02 10:00", "2026-03-02 12:30",
                          policy=AlertPolicy([PAGE_1H]), context="0s")
    row = rep.tracker.iloc[0]
    assert str(row["status_at_end"]) == "exhausted"
    assert str(row["worst_status"]) == "exhausted"
    assert row["hours_no_traffic"] == 0
    assert ("was EXHAUSTED at the data's end (10:59), before the incident ended"
            in " ".join(rep.summary.split()))


def tracker_note(rep) -> str:
    """The note's words after the data start's: what it says of the tracker."""
    note = " ".join(rep.notes[0].split())
    return note[note.index("the tracker's"):]


def test_the_data_start_note_says_where_the_tracker_is_read_from_and_nothing_before_it():
    # log from 10:00 (ten hours of it: 10:00 .. 17:59), 1 h tracker: its window lies after the
    # data's start from 11:00. The note said "its statuses and burns before then may differ from
    # production's", though the tracker table is read from 11:00: it says what is read where.
    ten = log(10)
    ten = ten[ten["ts"] >= pd.Timestamp("2026-03-02 10:00", tz="UTC")].reset_index(drop=True)
    # the incident 10:15 .. 12:00, no context: read_from 11:00, inside the incident
    rep = incident_report(ten, SLO_99, "2026-03-02 10:15", "2026-03-02 12:00", context="0s")
    assert rep.tracker["read_from"].iloc[0] == pd.Timestamp("2026-03-02 11:00", tz="UTC")
    assert "may differ" not in tracker_note(rep)  # the old words
    assert tracker_note(rep) == (
        "the tracker's 1 h window holds less than its length of data until 2026-03-02 11:00:00 "
        "UTC, so the incident's tracker figures are read from then; what it shows before then "
        "(its replayed rows, hatched in the figure) is read on less than a window of data.")
    # the incident 11:30 .. 12:00 with 1 h of context: 11:00 comes before it began, every window
    # of the incident is full (read_from is the incident's start)
    rep = incident_report(ten, SLO_99, "2026-03-02 11:30", "2026-03-02 12:00", context="1h")
    assert rep.tracker["read_from"].iloc[0] == pd.Timestamp("2026-03-02 11:30", tz="UTC")
    assert tracker_note(rep).startswith(
        "the tracker's 1 h window holds less than its length of data until 2026-03-02 11:00:00 "
        "UTC, before the incident began, so the incident's tracker figures are read over full "
        "windows;")
    # the incident 10:15 .. 10:45: 11:00 comes after its end, nothing read (read_from NaT)
    rep = incident_report(ten, SLO_99, "2026-03-02 10:15", "2026-03-02 10:45", context="0s")
    assert pd.isna(rep.tracker["read_from"].iloc[0])
    assert tracker_note(rep).startswith(
        "the tracker's 1 h window holds less than its length of data until 2026-03-02 11:00:00 "
        "UTC, after the incident's end, so the incident's tracker figures are withheld;")
