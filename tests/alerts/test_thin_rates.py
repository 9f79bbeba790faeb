"""Rates per day of the alert scores need a day of observed time: under 24 h (the one rule of the
window comparison and the replay) ``alerts_per_day`` and ``false_alerts_per_week`` are NaN and
``rates_note`` says why. Hand-made grids and episodes, hand-computed figures."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab.alerts.policy import AlertPolicy
from budgetlab.alerts.scoring import compare_policies, score_alerts
from budgetlab.alerts.tier import AlertTier

T0 = pd.Timestamp("2026-03-02", tz="UTC")
PAGE_1H = AlertTier("page_1h", "page", "1h", "5min", 14.4)
POLICY = AlertPolicy([PAGE_1H])


def at(hours: float) -> pd.Timestamp:
    return T0 + pd.Timedelta(hours=hours)


def grid(hours: int, quiet_after: dict[str, int] | None = None) -> pd.DataFrame:
    """1-minute bins over ``hours`` for the groups ``a`` (and those of ``quiet_after``, each
    without traffic after that many hours), 10 events a minute, none failed (the scoring reads
    only the grid's traffic here: the episodes are made by hand)."""
    starts = pd.date_range(T0, periods=hours * 60, freq="1min")
    frames = []
    for name, last in {"a": hours, **(quiet_after or {})}.items():
        total = np.where(starts < at(last), 10, 0)
        frames.append(pd.DataFrame({"g": name, "bin_start": starts, "total": total,
                                    "good": total, "bad": 0, "bad_timeout": 0}))
    out = pd.concat(frames, ignore_index=True)
    out = out[out["total"] > 0].reset_index(drop=True)
    out["g"] = pd.Categorical(out["g"])
    out.attrs.update({"freq": "1min", "by": ["g"]})
    return out


def episodes(rows: list[tuple[str, float, float]]) -> pd.DataFrame:
    """Hand-made page_1h episodes ``(group, start hour, end hour)``."""
    ep = pd.DataFrame({"g": pd.Categorical([r[0] for r in rows]),
                       "tier": pd.Categorical(["page_1h"] * len(rows), categories=["page_1h"]),
                       "severity": "page",
                       "start": pd.DatetimeIndex([at(r[1]) for r in rows]),
                       "end": pd.DatetimeIndex([at(r[2]) for r in rows])})
    ep["duration"] = ep["end"] - ep["start"]
    ep["ongoing"] = False
    return ep


def incidents(rows: list[tuple[str, float, float]]) -> pd.DataFrame:
    return pd.DataFrame({"incident_id": [r[0] for r in rows], "scope": "*",
                         "start": [at(r[1]) for r in rows], "end": [at(r[2]) for r in rows]})


def row(table: pd.DataFrame, group: str, tier: str = "page_1h",
        severity: str = "page") -> pd.Series:
    m = (table["g"] == group) & (table["tier"] == tier) & (table["severity"] == severity)
    assert m.sum() == 1
    return table[m].iloc[0]


def test_a_one_hour_tier_on_a_six_hour_grid_has_its_rates_withheld():
    """6 h of bins, the 1 h window full from 01:00: 5 h of observed time, under a day."""
    s = score_alerts(episodes([("a", 2, 2.5)]), incidents([("B", 1.8, 2.3)]), grace="0s",
                     bins=grid(6), target=0.99, policy=POLICY)
    for group in ("a", "*"):
        r = row(s, group)
        assert r["episodes"] == 1 and r["observed_days"] == 5 / 24
        assert np.isnan(r["alerts_per_day"]) and np.isnan(r["false_alerts_per_week"])
        assert r["rates_note"] == ("withheld: only 5 h of observed time, too little for a rate "
                                   "per day or week (at least 24 h)")
        assert (r["precision"], r["recall"]) == (1.0, 1.0)  # the counts stay


def test_a_one_hour_tier_on_a_three_day_grid_gets_its_rate_by_hand():
    """3 d of bins, the 1 h window full from 01:00: 71 h observed. Three pages, one matching an
    incident: 3 / (71 / 24) = 72/71 pages a day, 2 / (71 / 168) = 336/71 false pages a week."""
    ep = episodes([("a", 5, 5.5), ("a", 30, 30.25), ("a", 60, 61)])
    s = score_alerts(ep, incidents([("B", 29.9, 30.1)]), grace="0s", bins=grid(72),
                     target=0.99, policy=POLICY)
    for group in ("a", "*"):
        r = row(s, group)
        assert r["observed_days"] == pytest.approx(71 / 24, rel=1e-15)
        assert r["alerts_per_day"] == pytest.approx(72 / 71, rel=1e-12)
        assert r["false_alerts_per_week"] == pytest.approx(336 / 71, rel=1e-12)
        assert r["rates_note"] == ""


def test_a_group_quiet_after_ten_hours_is_withheld_beside_one_with_three_days():
    """Group b has traffic 00:00-10:00 only: its 1 h window holds an event at the end of the
    bins 00:00 .. 10:58 (659 bins), 599 of them from 01:00 on: 9 h 59 min observed, withheld.
    Group a's 71 h and the all-groups row (traffic of any group: a's 71 h) are given."""
    ep = episodes([("a", 5, 5.5), ("b", 3, 3.5), ("b", 4, 4.5)])
    s = score_alerts(ep, incidents([("B", 2.9, 3.1)]), grace="0s",
                     bins=grid(72, quiet_after={"b": 10}), target=0.99, policy=POLICY)
    b = row(s, "b")
    assert b["observed_days"] * 24 * 60 == pytest.approx(599, rel=1e-12)
    assert np.isnan(b["alerts_per_day"]) and np.isnan(b["false_alerts_per_week"])
    assert b["rates_note"].startswith("withheld: only 9 h 59 min of observed time")
    a = row(s, "a")
    assert a["alerts_per_day"] == pytest.approx(1 / (71 / 24), rel=1e-12)
    every = row(s, "*")  # three pages over a's 71 h, two of them false (b's 03:00 page hits B)
    assert every["alerts_per_day"] == pytest.approx(3 / (71 / 24), rel=1e-12)
    assert every["false_alerts_per_week"] == pytest.approx(2 / (71 / 168), rel=1e-12)
    assert every["rates_note"] == ""


def test_overlapping_episodes_take_the_row_by_row_path_and_the_same_rule():
    """Two overlapping episodes of one group make the scoring match row by row: the rule holds
    there too (6 h grid: 5 h observed, withheld; 3 d grid: 2 pages in 71 h)."""
    ep = episodes([("a", 2, 3), ("a", 2.5, 3.5)])
    short = score_alerts(ep, incidents([]), grace="0s", bins=grid(6), target=0.99, policy=POLICY)
    assert np.isnan(row(short, "a")["alerts_per_day"])
    assert row(short, "a")["rates_note"].startswith("withheld: only 5 h ")
    long = score_alerts(ep, incidents([]), grace="0s", bins=grid(72), target=0.99, policy=POLICY)
    assert row(long, "a")["alerts_per_day"] == pytest.approx(2 / (71 / 24), rel=1e-12)


def test_without_bins_the_evaluated_span_is_the_observed_time():
    """No bins: traffic is unknown and the rates are over the evaluated span (first to last
    instant of episodes and incidents): 02:00-04:00 is 2 h, withheld; 02:00-day 3 02:00 is 48 h,
    2 pages in 2 days = 1 a day."""
    ep = episodes([("a", 2, 2.5), ("a", 3.5, 4)])
    short = score_alerts(ep, incidents([]), grace="0s", policy=POLICY, filling="count")
    assert short["observed_days"].tolist() == [2 / 24] * len(short)
    assert short["alerts_per_day"].isna().all() and (short["rates_note"] != "").all()
    long = score_alerts(ep, incidents([("Z", 49.5, 50)]), grace="0s", policy=POLICY,
                        filling="count")
    assert long["observed_days"].tolist() == [2.0] * len(long)
    assert long["alerts_per_day"].tolist() == [1.0] * len(long)


def test_compare_policies_withholds_per_policy_row():
    """The same two policies on 6 h and on 3 d of bins: the table's rates and notes follow each
    row's observed time."""
    pols = {"one": POLICY, "single": AlertPolicy.single_window("1h", 10)}
    short = compare_policies(grid(6), 0.99, pols, incidents([("B", 1.8, 2.3)]))
    assert short["alerts_per_day"].isna().all()
    assert short["rates_note"].str.startswith("withheld: only 5 h of observed time").all()
    long = compare_policies(grid(72), 0.99, pols, incidents([("B", 1.8, 2.3)]))
    assert long["observed_days"].tolist() == pytest.approx([71 / 24] * len(long), rel=1e-15)
    assert long["alerts_per_day"].tolist() == [0.0] * len(long)  # no failure, no page
    assert (long["rates_note"] == "").all()
