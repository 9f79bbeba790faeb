"""The incident's share of the error budget: the traffic it is carried from is read over the
sending time of the whole log in scope (first to last event less gaps over a day, no window in
it, as ``replay``'s events/day), the span is named, and a share from an incident too thin for a
verdict is withheld in words.

Before the fix the events a day divided the replayed span's events by its calendar time,
silences included ("0.8 % of a 30 d error budget at the replayed span's traffic (627 events a
day)" below, where the traffic ran at 1,403 a day while it ran), never named the span, and an
incident of 1 event, whose figure beside it was withheld as too thin, got "36.9 % of a 30 d error
budget ... (1 events a day)".
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab import SLO, AlertPolicy, as_events, incident_report
from budgetlab.analyses.incident_budget_text import budget_sentence

#: What the budget sentence says its traffic is read over (whatever the context=).
SPAN = "the whole log in scope,"

T0 = pd.Timestamp("2026-01-05", tz="UTC")


def _budget_words(summary: str) -> str:
    return " ".join(summary[summary.index("Over its"):].split())


def _silent_log() -> pd.DataFrame:
    """One event a minute for 4 days, silent [24 h, 72 h); every 2nd minute of [80 h, 81 h) a
    failure (30 of the incident's 60 events)."""
    i = np.arange(4 * 24 * 60)
    i = i[(i < 24 * 60) | (i >= 72 * 60)]
    ts = T0 + pd.to_timedelta(i, unit="min")
    return as_events(ts, ~((i >= 80 * 60) & (i < 81 * 60) & (i % 2 == 0)))


def test_the_daily_traffic_is_read_over_the_time_with_traffic_and_says_its_span():
    # The whole log, whatever the context: minutes 0 .. 1,439 (1,440) and 4,320 .. 5,759 (1,440):
    # 2,880 events, 2026-01-05 00:00 .. 2026-01-08 23:59 (its first to its last event), 95 h 59
    # min. Sending time (first to last event less gaps over 24 h; no window in it): 1,439 min +
    # 1,439 min = 47 h 58 min; the one gap over a day, minute 1,439 .. 4,320, is the silence left
    # out, 2,881 min = 48 h 1 min. 2,880 / 47.96667 h x 24 = 1,441.0 events a day; the 30 d
    # budget 0.2 x 1,441.0 x 30 = 8,646.1; 30 failures: 0.347 %. (Before, on the 1 h window's
    # clock: 48 h 58 min with traffic, the window's hour after each run's last event counted,
    # 1,411.6 a day; at a 24 h window it would be 71 h 58 min, 960.4 a day.)
    rep = incident_report(_silent_log(), SLO(target=0.8, window="1h"), T0 + pd.Timedelta("80h"),
                          T0 + pd.Timedelta("81h"))
    b = rep.budget.iloc[0]
    traffic = 47 + 58 / 60
    assert b["log_events"] == 2_880
    assert b["log_hours"] == pytest.approx(95 + 59 / 60, abs=1e-9)
    assert b["log_traffic_hours"] == pytest.approx(traffic, abs=1e-9)
    assert (b["log_silences"], b["log_silent_hours"]) == (1, pytest.approx(48 + 1 / 60, abs=1e-9))
    assert (b["log_start"], b["log_end"]) == (T0, T0 + pd.Timedelta("95h59min"))
    per_period = 2_880 * 720 / traffic
    assert b["period_events"] == pytest.approx(per_period, rel=1e-9)
    assert b["period_budget_pct"] == pytest.approx(100 * 30 / (0.2 * per_period), rel=1e-9)
    assert rep.budget.attrs["budget_note"] == ""
    assert _budget_words(rep.summary).endswith(
        "0.3 % of a 30 d error budget at the traffic of " + SPAN
        + " 2026-01-05 00:00 .. 2026-01-08 23:59 UTC "
        "(1,441 events a day over its 47 h 58 min of sending time, first to last event less "
        "gaps over 24 h; a 48 h 1 min silence left out).")


def test_a_share_from_an_incident_too_thin_for_a_verdict_is_withheld():
    # one event an hour, 6 h window (never empty), for 4 days; the incident [80 h, 80 h 30 min)
    # holds one event, a failure: 1 x (1 - 0.93) = 0.07 expected failures, under the 10 a
    # verdict needs. The whole log is over a day of traffic, so only the thin incident
    # withholds the share (before: "5.6 % ... (24 events a day)")
    ts = T0 + pd.to_timedelta(np.arange(96), unit="h")
    ev = as_events(ts, ts != T0 + pd.Timedelta("80h"))
    rep = incident_report(ev, SLO(target=0.93, window="6h"), T0 + pd.Timedelta("80h"),
                          T0 + pd.Timedelta("80h30min"))
    b = rep.budget.iloc[0]
    assert np.isnan(b["period_budget_pct"])
    # the whole log, 00:00 .. 95 h, all with traffic (an event every hour, a 6 h window): 96
    # events in 95 h (before: the replayed span [2 h, 86 h 30 min), 85 events in 84.5 h)
    assert b["log_traffic_hours"] == 95.0
    assert b["period_events"] == pytest.approx(96 * 720 / 95, rel=1e-9)
    assert rep.budget.attrs["budget_note"] == (
        "period_budget_pct withheld: 1 event in the group's incident: too few for a verdict "
        "(under 93 % it holds 0.07 expected failures; one needs at least 10, i.e. 143 events).")
    assert _budget_words(rep.summary).endswith(
        "Over its 30 min the incident saw 1 failure in 1 event; its burn over the incident and "
        "its share of a 30 d error budget are withheld (the incident's 1 event holds 0.07 "
        "expected failures under the target: too few for a verdict, one needs at least 10).")


def test_one_event_a_day_is_said_in_the_singular():
    # a table by hand: 30 events a period of 30 d is 1 event a day; 12 failures of a budget of
    # 0.5 x 30 = 15 in an incident of 20 events (10 expected failures: enough): 80 %
    b = pd.DataFrame({"events": [20], "failures": [12], "excess_failures": [2.0],
                      "period_budget": [15.0], "period_events": [30.0],
                      "log_events": [40], "log_hours": [960.0],
                      "log_traffic_hours": [960.0], "log_silences": [0], "log_silent_hours": [0.0],
                      "log_start": [T0], "log_end": [T0 + pd.Timedelta("40D")]})
    said = budget_sentence(b, SLO(target=0.5, window="1D"), AlertPolicy.workbook("30D"),
                           pd.Timedelta("1h"))
    assert said.endswith("80.0 % of a 30 d error budget at the traffic of " + SPAN
                         + " 2026-01-05 00:00 .. 2026-02-14 00:00 UTC (1 event a day over its "
                         "960 h of sending time, first to last event less gaps over 24 h).")
