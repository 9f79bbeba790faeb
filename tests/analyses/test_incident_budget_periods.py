"""The incident's share of the error budget with per-group SLOs of different periods: each group's
failures against its own period's budget, never every group's failures against one period's.
Before the fix the summary summed both groups' failures over the budgets it found and named the
period of the group it talks about ("9.9 % of a 28 d error budget": 50 failures over ams's
403.2 with fra's 100.8 added, "at 1,800 events a day": both periods' events over 28 d; with
fra's replay under a day its NaN budget was left out of the sum, "12.4 %": 50 over ams's alone).

Hand computation (docs/incident.md: the share is the failures over ``(1 - target)`` x the events
of a period at the replayed span's traffic). One event a minute per region, target 99 %, the
incident [72 h, 73 h) of a 4-day log, ams failing every 2nd minute of it (30 failures), fra every
3rd (20). The Workbook at 28 d: its longest window 3 d x 28 / 30 = 67 h 12 min, so ams's report
replays from the log's start to the window's end (72 h - 6 h context + 1 h + 6 h = 79 h): 4,740
events, 40,320 in 28 d, a budget of 403.2: 30 / 403.2 = 7.44 %. At 7 d: 16 h 48 min, so fra's
replay is 16.8 + 13 = 29.8 h: 1,788 events, 10,080 in 7 d, a budget of 100.8: 20 / 100.8 =
19.84 %. Both at 1,440 events a day.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from budgetlab import SLO, PerGroup, as_events, incident_report

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


def _per(ams: str, fra: str, *, fra_window: str = "1h") -> PerGroup:
    return PerGroup({"ams": SLO(0.99, window="1h", period=ams),
                     "fra": SLO(0.99, window=fra_window, period=fra)})


def _budget_words(summary: str) -> str:
    return " ".join(summary[summary.index("Over its"):].split())


def test_each_group_against_its_own_periods_budget():
    rep = incident_report(_events(), _per("28D", "7D"), START, END, policy="workbook",
                          by="region")
    b = rep.budget.set_index("region")
    assert b["period"].tolist() == [pd.Timedelta("28D"), pd.Timedelta("7D")]
    assert b["replayed_events"].tolist() == [4_740, 1_788]
    assert np.allclose(b["period_budget"], [403.2, 100.8], rtol=1e-12)
    assert np.allclose(b["period_budget_pct"], [100 * 30 / 403.2, 100 * 20 / 100.8], rtol=1e-12)
    # burn over the incident: 50 / (0.01 x 120)
    assert _budget_words(rep.summary) == (
        "Over its 1 h the incident saw 50 failures in 120 events of both groups by region (burn "
        "41.7 over the incident); its share of the error budget is said per SLO period, each "
        "group's budget at its replayed span's traffic: 7.4 % of a 28 d budget for region=ams "
        "(1,440 events a day) and 19.8 % of a 7 d budget for region=fra (1,440 events a day).")


def test_a_period_read_over_less_than_a_day_is_withheld_alone():
    # context 1 h: fra's replay is 16.8 + 3 = 19.8 h (1,188 events), under a day; ams's from
    # 71 h - 67.2 h = 3.8 h to 74 h, 70.2 h (4,212 events): 30 / (0.01 x 4,212 x 672 / 70.2) =
    # 30 / 403.2 again
    rep = incident_report(_events(), _per("28D", "7D"), START, END, policy="workbook",
                          by="region", context="1h")
    assert rep.budget["replayed_events"].tolist() == [4_212, 1_188]
    assert _budget_words(rep.summary).endswith(
        "its share of the error budget is said per SLO period, each group's budget at its "
        "replayed span's traffic: 7.4 % of a 28 d budget for region=ams (1,440 events a day) and "
        "the share of region=fra's 7 d budget withheld, too thin to go by (the replayed span "
        "holds 1,188 events in 19 h 48 min, and a rate per day needs at least 24 h of observed "
        "time).")


def test_one_period_with_one_group_read_too_briefly_is_withheld():
    # both 7 d; ams's 2-day tracker window replays 48 + 3 = 51 h, fra's 19.8 h: the share of
    # both together needs fra's budget, which is too thin (before: 50 failures over ams's
    # budget alone, 0.01 x 3,060 x 168 / 51 = 100.8, "49.6 %")
    slos = PerGroup({"ams": SLO(0.99, window="2D", period="7D"),
                     "fra": SLO(0.99, window="1h", period="7D")})
    rep = incident_report(_events(), slos, START, END, policy="workbook", by="region",
                          context="1h")
    assert rep.budget["replayed_hours"].tolist() == [51.0, 19.8]
    assert _budget_words(rep.summary).endswith(
        "its share of a 7 d error budget is withheld, too thin to go by (that budget is the "
        "replayed span's traffic carried to 7 d, and a rate per day needs at least 24 h of "
        "observed time: the shortest replayed span (region=fra's) holds 1,188 events in 19 h 48 "
        "min).")
