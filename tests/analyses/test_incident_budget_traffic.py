"""The incident's share of the error budget: the traffic it is carried from is read over the
replayed span's time with traffic (the window's clock, as ``replay``'s events/day), the span is
named, and a share from an incident too thin for a verdict is withheld in words.

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

#: What the budget sentence says its traffic is read over (it moves with context=).
SPAN = "the report's span (the incident with its context, after the windows' history)"

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
    # Workbook at 30 d, longest window 3 d; context 6 h: the replay reads [80 h - 6 h - 72 h,
    # 81 h + 6 h) = [2 h, 87 h), 2026-01-05 02:00 .. 2026-01-08 15:00, 85 h. Its events: minutes
    # 120 .. 1,439 (1,320) and 4,320 .. 5,219 (900): 2,220. Time with traffic, 1 h window (an
    # event stays in it through ts + 1 h): [02:00, 24:59 + 1 ns) and [72 h, 87 h), 37 h 59 min;
    # the silence is the rest, 85 h - 37 h 59 min = 47 h 1 min (the 48 h gap less the window).
    # 2,220 / 37.98333 h x 24 = 1,402.7 events a day; the 30 d budget 0.2 x 1,402.7 x 30 =
    # 8,416.3; 30 failures: 0.356 %. On calendar time (the old figure) 2,220 / 85 h x 24 = 626.8
    # a day and 0.798 %.
    rep = incident_report(_silent_log(), SLO(target=0.8, window="1h"), T0 + pd.Timedelta("80h"),
                          T0 + pd.Timedelta("81h"))
    b = rep.budget.iloc[0]
    traffic = 37 + 59 / 60
    assert b["replayed_events"] == 2_220
    assert b["replayed_hours"] == 85.0
    assert b["traffic_hours"] == pytest.approx(traffic, abs=1e-9)
    assert (b["silences"], b["silent_hours"]) == (1, pytest.approx(47 + 1 / 60, abs=1e-9))
    assert (b["replayed_start"], b["replayed_end"]) == (T0 + pd.Timedelta("2h"),
                                                        T0 + pd.Timedelta("87h"))
    per_period = 2_220 * 720 / traffic
    assert b["period_events"] == pytest.approx(per_period, rel=1e-9)
    assert b["period_budget_pct"] == pytest.approx(100 * 30 / (0.2 * per_period), rel=1e-9)
    assert rep.budget.attrs["budget_note"] == ""
    assert _budget_words(rep.summary).endswith(
        "0.4 % of a 30 d error budget at the traffic of " + SPAN
        + " 2026-01-05 02:00 .. 2026-01-08 15:00 UTC "
        "(1,403 events a day over its 37 h 59 min with traffic; a 47 h 1 min silence left "
        "out).")


def test_a_share_from_an_incident_too_thin_for_a_verdict_is_withheld():
    # one event an hour, 6 h window (never empty), for 4 days; the incident [80 h, 80 h 30 min)
    # holds one event, a failure: 1 x (1 - 0.93) = 0.07 expected failures, under the 10 a
    # verdict needs. Its replay reads 3 d of history: over a day of traffic, so only the thin
    # incident withholds the share (before: "5.6 % ... (24 events a day)")
    ts = T0 + pd.to_timedelta(np.arange(96), unit="h")
    ev = as_events(ts, ts != T0 + pd.Timedelta("80h"))
    rep = incident_report(ev, SLO(target=0.93, window="6h"), T0 + pd.Timedelta("80h"),
                          T0 + pd.Timedelta("80h30min"))
    b = rep.budget.iloc[0]
    assert np.isnan(b["period_budget_pct"])
    # the replay reads [80 h - 6 h - 72 h, 80 h 30 min + 6 h) = [2 h, 86 h 30 min), all with
    # traffic (an event every hour, a 6 h window): 85 events (02:00 .. 86 h) in 84.5 h
    assert b["traffic_hours"] == 84.5
    assert b["period_events"] == pytest.approx(85 * 720 / 84.5, rel=1e-9)
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
                      "replayed_events": [40], "replayed_hours": [960.0],
                      "traffic_hours": [960.0], "silences": [0], "silent_hours": [0.0],
                      "replayed_start": [T0], "replayed_end": [T0 + pd.Timedelta("40D")]})
    said = budget_sentence(b, SLO(target=0.5, window="1D"), AlertPolicy.workbook("30D"),
                           pd.Timedelta("1h"))
    assert said.endswith("80.0 % of a 30 d error budget at the traffic of " + SPAN
    + " 2026-01-05 00:00 .. "
                         "2026-02-14 00:00 UTC (1 event a day over its 960 h, all with traffic).")
