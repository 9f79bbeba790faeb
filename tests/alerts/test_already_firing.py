"""An incident that begins while its row's alert already fires was not detected by that alert (the
alert was not caused by it): ``score_alerts`` counts it apart in ``already_firing``, neither
detected nor missed, and leaves it out of recall, the detection times and the budget before
alert (it was "detected in 0 s" before, the detection clipped at 0); its reset is kept. The
rule of ``compare_windows``' ``already_at_alert``. Hand-built episodes and bins, hand-computed
figures.

The log: 1-minute bins 00:00-12:00, 10 events a minute (7,200), 2 of them failed a minute in
05:00-05:09 (20 failures). page_1h (long window 1 h: full from 01:00) fires 02:50-03:40,
05:10-05:30 and 07:00-07:20. Incidents (grace 0):

* A 03:00-03:30: the page fired from 02:50, before it began: already firing; reset 03:40 - 03:30
  = +10 min;
* B 05:00-05:20: detected 05:10, in 10 min; reset 05:30 - 05:20 = +10 min; 20 failures before
  the alert (bins 05:00-05:09);
* C 07:00-07:30: the page began as it did: detected in 0 s; reset 07:20 - 07:30 = -10 min;
  no failure before the alert;
* D 09:00-09:30: no page, traffic throughout: missed.

incidents 4 = detected 2 + missed 1 + unseen 0 + already_firing 1; recall 2 / (4 - 0 - 1) = 2/3;
detection over B, C: median 5 min, max 10 min; reset over A, B, C (+10, +10, -10): median
+10 min, max +10 min. Budget before alert, period 6 h, target 99 %: 1 % of 7,200 events x
6 h / 12 h = 36 failures; B 20 / 36 = 55.56 %, C 0 %: median 27.78 %, max 55.56 %.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from budgetlab.alerts.policy import AlertPolicy
from budgetlab.alerts.scoring import incident_detections, score_alerts
from budgetlab.alerts.tier import AlertTier
from budgetlab.analyses.choices import choose_policy, policy_summary
from tests.alerts.hand_tables import hand_episodes

T0 = pd.Timestamp("2026-03-02", tz="UTC")
POLICY = AlertPolicy([AlertTier("page_1h", "page", "1h", "5min", 14.4)])


def at(hhmm: str) -> pd.Timestamp:
    return T0 + pd.Timedelta(hours=int(hhmm[:2]), minutes=int(hhmm[3:]))


def twelve_hours() -> pd.DataFrame:
    starts = pd.date_range(T0, periods=720, freq="1min")
    bad = np.zeros(720, dtype=np.int64)
    bad[300:310] = 2  # 05:00-05:09
    out = pd.DataFrame({"bin_start": starts, "total": 10, "good": 10 - bad, "bad": bad,
                        "bad_timeout": 0})
    out.attrs.update({"freq": "1min", "by": []})
    return out


def episodes(rows=(("02:50", "03:40"), ("05:10", "05:30"), ("07:00", "07:20"))) -> pd.DataFrame:
    return hand_episodes([("page_1h", s, e) for s, e in rows], POLICY, at)


INCIDENTS = pd.DataFrame({"incident_id": ["A", "B", "C", "D"], "scope": "*",
                          "start": [at("03:00"), at("05:00"), at("07:00"), at("09:00")],
                          "end": [at("03:30"), at("05:20"), at("07:30"), at("09:30")]})


def scores(ep=None, incidents=INCIDENTS) -> pd.DataFrame:
    return score_alerts(episodes() if ep is None else ep, incidents, grace="0s",
                        bins=twelve_hours(), target=0.99, period="6h", policy=POLICY)


@pytest.mark.parametrize("tier", ["page_1h", "*"])
def test_an_incident_begun_under_a_firing_page_is_counted_apart(tier):
    s = scores()
    r = s[(s["tier"] == tier) & (s["severity"] == "page")].iloc[0]
    assert (r["episodes"], r["true_episodes"], r["precision"]) == (3, 3, 1.0)
    assert (r["incidents"], r["detected"], r["unseen"]) == (4, 2, 0)
    assert r["recall"] == pytest.approx(2 / 3, rel=1e-15)
    assert (r["detection_median"], r["detection_max"]) == (pd.Timedelta("5min"),
                                                           pd.Timedelta("10min"))
    assert r["already_firing"] == 1
    assert (r["reset_median"], r["reset_max"]) == (pd.Timedelta("10min"), pd.Timedelta("10min"))
    assert r["budget_before_alert_median"] == pytest.approx(100 * 10 / 36, rel=1e-12)
    assert r["budget_before_alert_max"] == pytest.approx(100 * 20 / 36, rel=1e-12)
    assert r["incidents_filling"] == 0


def test_the_incident_rows_say_already_firing_without_a_detection_time():
    det = incident_detections(episodes(), INCIDENTS, grace="0s", bins=twelve_hours(),
                              target=0.99, period="6h", policy=POLICY)
    page = det[det["tier"] == "page_1h"].set_index("incident_id")
    assert page["detected"].tolist() == [False, True, True, False]
    assert pd.isna(page.loc["A", "detection_time"])  # not "0 s"
    assert page["already_firing"].tolist() == [True, False, False, False]
    assert page.loc["A", "first_alert"] == at("02:50")
    assert page.loc["A", "reset_time"] == pd.Timedelta("10min")  # kept
    assert page.loc["B", "detection_time"] == pd.Timedelta("10min")
    assert page.loc["C", "detection_time"] == pd.Timedelta(0)  # began with the incident


def test_only_incidents_begun_under_a_firing_page_leave_no_recall_to_state():
    """A alone: 1 incident, already firing: recall over 1 - 0 - 1 = 0 incidents is withheld
    (NaN), not 1 (it was "1 of 1 detected in 0 s"); policy_summary keeps it withheld and
    choose_policy says why."""
    s = scores(episodes([("02:50", "03:40")]), INCIDENTS.iloc[[0]])
    r = s[(s["tier"] == "*") & (s["severity"] == "*")].iloc[0]
    assert (r["incidents"], r["detected"]) == (1, 0)
    assert math.isnan(r["recall"]) and pd.isna(r["detection_median"])
    assert r["already_firing"] == 1
    assert r["reset_median"] == pd.Timedelta("10min")
    summary = policy_summary(s.assign(policy="p"))
    assert math.isnan(summary.loc["p", "recall"]) and summary.loc["p", "already_firing"] == 1
    assert choose_policy(summary).withheld == (
        "every incident was already paged on when it began (not caused by it) for every "
        "policy, so no recall is known")
