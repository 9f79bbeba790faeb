"""Merged-tier rows (tier ``*``): an incident is detected when a member tier that was not
already firing at its start fires during it, at the first such alert; it is already firing only
when every tier that fires during it already fired at its start (f62; docs/sre-model.md).

The hand-built alert log, one group, 2026-03-10 UTC, grace 0 s: a slow degradation fires the
ticket tier 08:00-20:00; an outage inside it fires the page tier 12:10-12:40. Incidents:
DEG 07:00-19:00 (the degradation), OUT 12:00-13:00 (the outage), LATE 14:00-14:30 (only the
ticket, already firing, overlaps it), MISS 22:00-22:30 (no alert).

* page_1h (and ``* page``): DEG detected 12:10 (5 h 10 min), OUT 12:10 (10 min), LATE and MISS
  missed: incidents 4, detected 2, already 0, recall 2/4 = 0.5; detection median (10 min +
  5 h 10 min) / 2 = 2 h 40 min.
* ticket_3d (and ``* ticket``): DEG detected 08:00 (1 h), OUT and LATE already firing (08:00 is
  before 12:00 and 14:00), MISS missed: detected 1, already 2, recall 1 / (4 - 2) = 0.5.
* ``* *`` (merged episode 08:00-20:00): DEG detected by the ticket at 08:00 (1 h; the page at
  12:10 is later); OUT: the ticket already fired, the page did not and fires at 12:10: detected
  in 10 min (the old reading, from the merged episode begun 08:00: already firing); LATE: the
  only tier firing during it (ticket) already fired: already firing; MISS missed. detected 2,
  already 1, recall 2 / (4 - 1) = 2/3 (old: 1 / (4 - 2) = 0.5); detection median (1 h + 10 min)
  / 2 = 35 min, max 1 h; resets from the merged end 20:00: DEG 1 h, OUT 7 h, LATE 5 h 30 min.
"""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab.alerts.policy import AlertPolicy
from budgetlab.alerts.scoring import incident_detections, score_alerts
from budgetlab.alerts.tier import AlertTier
from tests.alerts.hand_tables import hand_episodes

T0 = pd.Timestamp("2026-03-10", tz="UTC")
POLICY = AlertPolicy([AlertTier("page_1h", "page", "1h", "5min", 14.4),
                      AlertTier("ticket_3d", "ticket", "3d", "6h", 1.0)])


def at(hhmm: str) -> pd.Timestamp:
    return T0 + pd.Timedelta(hours=int(hhmm[:2]), minutes=int(hhmm[3:]))


def episodes() -> pd.DataFrame:
    return hand_episodes([("ticket_3d", "08:00", "20:00"), ("page_1h", "12:10", "12:40")],
                         POLICY, at)


ALL = pd.DataFrame({"incident_id": ["DEG", "OUT", "LATE", "MISS"], "scope": "*",
                    "start": [at("07:00"), at("12:00"), at("14:00"), at("22:00")],
                    "end": [at("19:00"), at("13:00"), at("14:30"), at("22:30")]})


def scores(incidents: pd.DataFrame = ALL) -> pd.DataFrame:
    return score_alerts(episodes(), incidents, grace="0s", policy=POLICY,
                        filling="count").set_index(["tier", "severity"])


def test_merged_rows_detect_the_outage_the_page_caught_under_the_ticket():
    s = scores()
    mins = pd.Timedelta(minutes=1)
    want = {  # (detected, already_firing, recall, detection_median)
        ("page_1h", "page"): (2, 0, 0.5, 160 * mins),
        ("*", "page"): (2, 0, 0.5, 160 * mins),
        ("ticket_3d", "ticket"): (1, 2, 0.5, 60 * mins),
        ("*", "ticket"): (1, 2, 0.5, 60 * mins),
        ("*", "*"): (2, 1, 2 / 3, 35 * mins),
    }
    for row, (det, already, recall, median) in want.items():
        r = s.loc[row]
        assert (r["incidents"], r["detected"], r["already_firing"]) == (4, det, already), row
        assert r["recall"] == pytest.approx(recall), row
        assert r["detection_median"] == median, row
    assert s.loc[("*", "*"), "detection_max"] == 60 * mins


def test_the_incident_rows_of_the_merged_row_name_the_alert_that_detected():
    d = incident_detections(episodes(), ALL, grace="0s", policy=POLICY, filling="count")
    both = d[(d["tier"] == "*") & (d["severity"] == "*")].set_index("incident_id")
    assert both["detected"].to_dict() == {"DEG": True, "OUT": True, "LATE": False, "MISS": False}
    assert both["already_firing"].to_dict() == {"DEG": False, "OUT": False, "LATE": True,
                                                "MISS": False}
    assert both.loc["OUT", "first_alert"] == at("12:10")  # the page, not the ticket's 08:00
    assert both.loc["OUT", "detection_time"] == pd.Timedelta(minutes=10)
    assert both.loc["DEG", "first_alert"] == at("08:00")
    assert both.loc["DEG", "detection_time"] == pd.Timedelta(hours=1)
    assert both.loc["LATE", "first_alert"] == at("08:00")  # before its start: already firing
    assert pd.isna(both.loc["LATE", "detection_time"])
    resets = both["reset_time"]
    assert (resets["DEG"], resets["OUT"], resets["LATE"]) == (
        pd.Timedelta(hours=1), pd.Timedelta(hours=7), pd.Timedelta(hours=5, minutes=30))
    assert pd.isna(resets["MISS"])


@pytest.mark.parametrize("ids", [["DEG", "OUT", "LATE", "MISS"], ["DEG", "OUT", "MISS"]])
def test_merging_tiers_never_lowers_recall(ids):
    """Property on the hand log: the ``* *`` row detects every incident a member row detects,
    so its recall is at least each severity row's (on DEG, OUT, MISS the old reading gave
    ``* *`` 1 / 2 = 0.5 under the page's 2/3)."""
    s = scores(ALL[ALL["incident_id"].isin(ids)])
    merged = s.loc[("*", "*"), "recall"]
    for sev in ("page", "ticket"):
        assert merged >= s.loc[("*", sev), "recall"] - 1e-12, sev
