"""The incident's share of the error budget with per-group SLOs of different periods: each group's
failures against its own period's budget, never every group's failures against one period's.
Before the fix the summary summed both groups' failures over the budgets it found and named the
period of the group it talks about ("9.9 % of a 28 d error budget": 50 failures over ams's
403.2 with fra's 100.8 added, "at 1,800 events a day": both periods' events over 28 d; with
fra's replay under a day its NaN budget was left out of the sum, "12.4 %": 50 over ams's alone).

Hand computation (docs/incident.md: the share is the failures over ``(1 - target)`` x the events
of a period at the traffic of the whole log in scope, over its time with traffic: here all of
it). One event a minute per region, target 80 % (60 events hold 12 expected failures: enough for
a verdict, which 99 %'s 0.6 are not), the incident [72 h, 73 h) of a 4-day log, ams failing every
2nd minute of it (30 failures), fra every 3rd (20). The budget is carried from the whole log,
whatever the context and the policy's windows (before: each SLO's replayed span, ams's 79 h and
4,740 events, fra's 29.8 h and 1,788): 5,760 events a region from 2026-01-05 00:00 to
2026-01-08 23:59, 96 h - 1 min = 95.98333 h, all with traffic: 5,760 / 95.98333 x 24 = 1,440.25
events a day. ams, 28 d: 5,760 x 672 / 95.98333 = 40,327.0 events, a budget of 0.2 x that =
8,065.40: 30 / 8,065.40 = 0.372 %. fra, 7 d: 5,760 x 168 / 95.98333 = 10,081.7 events, a budget
of 2,016.35: 20 / 2,016.35 = 0.992 %.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab import SLO, PerGroup, as_events, incident_report

#: What the budget sentence says its traffic is read over (whatever the context=).
SPAN = "the whole log in scope,"
HOURS = 96 - 1 / 60  # the whole log: 2026-01-05 00:00 .. 2026-01-08 23:59

T0 = pd.Timestamp("2026-01-05", tz="UTC")
START, END = T0 + pd.Timedelta("72h"), T0 + pd.Timedelta("73h")


def _events() -> pd.DataFrame:
    i = np.arange(4 * 24 * 60)
    ts = pd.date_range(T0, periods=len(i), freq="1min")
    during = (i >= 72 * 60) & (i < 73 * 60)
    frames = [as_events(ts, ~(during & (i % every == 0))).assign(region=r)
              for r, every in (("ams", 2), ("fra", 3))]
    ev = pd.concat(frames, ignore_index=True).sort_values("ts", kind="stable")
    return ev.reset_index(drop=True)


def _late_fra() -> pd.DataFrame:
    """:func:`_events` with fra's events before 2026-01-08 00:00 (the incident's start) left out:
    fra's 1,440 events from 00:00 to 23:59 are 23 h 59 min of time with traffic."""
    ev = _events()
    keep = (ev["region"] != "fra") | (ev["ts"] >= START)
    return ev[keep.to_numpy()].reset_index(drop=True)


def _per(ams: str, fra: str, *, fra_window: str = "1h") -> PerGroup:
    return PerGroup({"ams": SLO(0.8, window="1h", period=ams),
                     "fra": SLO(0.8, window=fra_window, period=fra)})


def _budget_words(summary: str) -> str:
    return " ".join(summary[summary.index("Over its"):].split())


def test_each_group_against_its_own_periods_budget():
    rep = incident_report(_events(), _per("28D", "7D"), START, END, policy="workbook",
                          by="region")
    b = rep.budget.set_index("region")
    assert b["period"].tolist() == [pd.Timedelta("28D"), pd.Timedelta("7D")]
    assert b["log_events"].tolist() == [5_760, 5_760]
    budgets = [0.2 * 5_760 * 672 / HOURS, 0.2 * 5_760 * 168 / HOURS]  # 8,065.40, 2,016.35
    assert np.allclose(b["period_budget"], budgets, rtol=1e-12)
    assert np.allclose(b["period_budget_pct"], [100 * 30 / budgets[0], 100 * 20 / budgets[1]],
                       rtol=1e-12)  # 0.372 %, 0.992 %
    # one event a minute: all with traffic
    assert np.allclose(b["log_traffic_hours"], [HOURS, HOURS], rtol=1e-12)
    # burn over the incident: 50 / (0.2 x 120)
    assert _budget_words(rep.summary) == (
        "Over its 1 h the incident saw 50 failures in 120 events of both groups by region (burn "
        "2.08 over the incident); its share of the error budget is said per SLO period: 0.4 % of "
        "a 28 d budget for region=ams at the traffic of " + SPAN
        + " 2026-01-05 00:00 .. 2026-01-08 23:59 UTC "
        "(1,440 events a day over its 95 h 59 min "
        "of sending time, first to last event less gaps over 24 h) and 1.0 % of a 7 d budget "
        "for region=fra at the traffic of " + SPAN
        + " 2026-01-05 00:00 .. 2026-01-08 23:59 UTC (1,440 events a "
        "day over its 95 h 59 min of sending time, first to last event less gaps over 24 h).")


def test_a_period_read_over_less_than_a_day_is_withheld_alone():
    # fra's events only from the incident's start: 1,440 in 23 h 59 min (00:00 .. 23:59 on
    # 2026-01-08), under a day, withheld; ams's whole log as above, 0.372 % of its 28 d budget
    # (before, with every event, context 1 h: fra's replay of 19.8 h was the thin one)
    rep = incident_report(_late_fra(), _per("28D", "7D"), START, END, policy="workbook",
                          by="region", context="1h")
    assert rep.budget["log_events"].tolist() == [5_760, 1_440]
    assert rep.budget["period_budget_pct"].iloc[0] == pytest.approx(
        100 * 30 / (0.2 * 5_760 * 672 / HOURS))
    assert np.isnan(rep.budget["period_budget_pct"].iloc[1])
    assert _budget_words(rep.summary).endswith(
        "its share of the error budget is said per SLO period: 0.4 % of a 28 d budget for "
        "region=ams at the traffic of " + SPAN
        + " 2026-01-05 00:00 .. 2026-01-08 23:59 UTC (1,440 events a "
        "day over its 95 h 59 min "
        "of sending time, first to last event less gaps over 24 h) and the share of "
        "region=fra's 7 d budget "
        "withheld, too thin to go by (that budget is the traffic of " + SPAN
        + " 2026-01-05 00:00 .. "
        "2026-01-08 23:59 UTC carried to 7 d, and a rate per day needs at least 24 h of "
        "sending time: the whole log in scope holds 1,440 events in 23 h 59 min of "
        "sending time).")


def test_one_period_with_one_group_read_too_briefly_is_withheld():
    # both 7 d; ams's 95 h 59 min of traffic (its 2-day window changes nothing: one event a
    # minute), fra's 23 h 59 min: the share of both together needs fra's budget, which is too
    # thin (before: 50 failures over ams's budget alone, "49.6 %")
    slos = PerGroup({"ams": SLO(0.8, window="2D", period="7D"),
                     "fra": SLO(0.8, window="1h", period="7D")})
    rep = incident_report(_late_fra(), slos, START, END, policy="workbook", by="region",
                          context="1h")
    assert np.allclose(rep.budget["log_traffic_hours"], [HOURS, 24 - 1 / 60], rtol=1e-12)
    assert _budget_words(rep.summary).endswith(
        "its share of a 7 d error budget is withheld, too thin to go by (that budget is the "
        "traffic of " + SPAN + " 2026-01-05 00:00 .. 2026-01-08 23:59 UTC carried to 7 d, and "
        "a rate per day needs at least 24 h of sending time: the whole log in scope of "
        "region=fra (the least sending time) holds 1,440 events in 23 h 59 min of "
        "sending time).")


def test_a_share_from_too_few_expected_failures_is_said_when_the_failures_decide_a_miss():
    # at 99 % the incident's 120 events hold 1.2 expected failures (0.01 x 120), under the 10 a
    # verdict needs (the buckets' rule), but 50 of them failed: P(X >= 50 | 120, 0.01) ~ 1e-66,
    # at most 0.1 %, a decided miss (and per group, 30 of ams's 60, 20 of fra's 60: decided too).
    # The shares are measured ones, said: 30 / (0.01 x 5,760 x 672 / 95.98333) = 30 / 403.27 =
    # 7.44 % of ams's 28 d budget, 20 / (0.01 x 5,760 x 168 / 95.98333) = 20 / 100.82 = 19.8 %
    # of fra's 7 d one, with the burn 50 / 1.2 = 41.7 (stop 56 withheld all of them)
    slos = PerGroup({"ams": SLO(0.99, window="1h", period="28D"),
                     "fra": SLO(0.99, window="1h", period="7D")})
    rep = incident_report(_events(), slos, START, END, policy="workbook", by="region")
    budgets = [0.01 * 5_760 * 672 / HOURS, 0.01 * 5_760 * 168 / HOURS]  # 403.27, 100.82
    assert rep.budget["period_budget"].tolist() == pytest.approx(budgets, rel=1e-12)
    assert rep.budget["period_budget_pct"].tolist() == pytest.approx(
        [100 * 30 / budgets[0], 100 * 20 / budgets[1]], rel=1e-12)
    words = _budget_words(rep.summary)
    assert words.startswith(
        "Over its 1 h the incident saw 50 failures in 120 events of both groups by region (burn "
        "41.7 over the incident); its share of the error budget is said per SLO period: 7.4 % of "
        "a 28 d budget for region=ams")
    assert "and 19.8 % of a 7 d budget for region=fra" in words
    assert words.endswith(
        "the incident's 120 events hold 1.2 expected failures under the target, too few for a "
        "verdict, but the failures decide it: missed: 50 of 120 events failed (41.67 %); even "
        "with 120 events, a service at 99 % would fail this often with probability < 0.1 %.")
