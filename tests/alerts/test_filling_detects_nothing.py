"""An episode scored apart (over while its tier's long window filled) detects nothing: an
incident only it overlapped is missed, on the tier's row and on the merged rows, and an apart
episode begun before an incident does not make it "already firing". Hand-built log and episodes,
hand-computed figures (g63fill).

The log is the one of ``tests/alerts/test_late_group_filling.py`` (its docstring derives
page_1h's episodes): one-minute bins, group A from 2026-01-01 00:00 to 2026-01-04 23:59, group B
from 2026-01-04 00:00, silent 06:00-08:59 and back at 09:00 (3 h 01 min after its previous bin:
a new stretch for a 1 h window, filled at 10:00; not for a 6 h one, whose window for B filled at
06:00). page_1h's episodes: A [01-02 12:28, 13:03) (true page of I1), B [00:01, 00:03) and
[09:01, 09:03) (each over before B's 1 h window filled: apart), B [15:59, 16:02) (false page).
A second tier, ticket_6h, has one episode written by hand: A [01-02 12:40, 14:00).

Incidents (grace 1 h; all begin after the grid's first hour, so none is scored apart):

* I1, A, 01-02 12:00-12:30: page_1h's 12:28 page detects it in 28 min;
* I2, B, 01-04 09:00-09:10: only B's apart page [09:01, 09:03) overlaps it: missed (before
  g63fill "detected in 1 min");
* I3, B, 01-04 00:02-00:20: only B's apart page [00:01, 00:03), begun before it, overlaps it:
  missed (before g63fill "already firing").

page_1h, all groups: 3 incidents, 1 detected, 0 already firing, recall 1/3, detection 28 min;
B: 2 incidents, none detected, recall 0, 1 episode scored (15:59, false), 2 apart, both met an
incident. Tier ``*`` ``*`` (longest window 6 h): the merged episodes A [12:28, 14:00) and B
[15:59, 16:02) are scored; B's [00:01, 00:03) and [09:01, 09:03) are made only of pages apart on
their own row: apart (the second though B's 6 h window never emptied). 2 scored, 1 true, 2 apart,
recall 1/3, detection 28 min (the page, the first alert not already firing at I1's start).
"""

from __future__ import annotations

import pandas as pd

from budgetlab.alerts.policy import AlertPolicy
from budgetlab.alerts.scoring import incident_detections, score_alerts
from budgetlab.alerts.tier import AlertTier
from tests.alerts.hand_tables import hand_episodes
from tests.alerts.test_late_group_filling import DAY0, bins

POLICY = AlertPolicy([AlertTier("page_1h", "page", "1h", "5min", 4.6),
                      AlertTier("ticket_6h", "ticket", "6h", "30min", 1.0)])


def at(when: str) -> pd.Timestamp:
    """``"d hh:mm"``: day ``d`` of January 2026, UTC."""
    day, hhmm = when.split()
    return DAY0 + pd.Timedelta(days=int(day) - 1, hours=int(hhmm[:2]), minutes=int(hhmm[3:]))


def episodes(policy: AlertPolicy) -> pd.DataFrame:
    rows = [("A", "page_1h", "2 12:28", "2 13:03"), ("B", "page_1h", "4 00:01", "4 00:03"),
            ("B", "page_1h", "4 09:01", "4 09:03"), ("B", "page_1h", "4 15:59", "4 16:02"),
            ("A", "ticket_6h", "2 12:40", "2 14:00")]
    names = [t.name for t in policy.tiers]
    rows = [r for r in rows if r[1] in names]
    ep = hand_episodes([r[1:] for r in rows], policy, at)
    ep.insert(0, "g", pd.Categorical([r[0] for r in rows], categories=["A", "B"]))
    return ep


INCIDENTS = pd.DataFrame({
    "incident_id": ["I1", "I2", "I3"], "scope": ["g=A", "g=B", "g=B"],
    "start": [at("2 12:00"), at("4 09:00"), at("4 00:02")],
    "end": [at("2 12:30"), at("4 09:10"), at("4 00:20")]})


def row(table: pd.DataFrame, g: str, tier: str, severity: str) -> pd.Series:
    m = (table["g"] == g) & (table["tier"] == tier) & (table["severity"] == severity)
    assert m.sum() == 1
    return table[m].iloc[0]


def scores(policy: AlertPolicy) -> pd.DataFrame:
    return score_alerts(episodes(policy), INCIDENTS, bins=bins(), target=0.9, policy=policy,
                        grace="1h")


def test_an_incident_only_an_apart_page_overlapped_is_missed():
    one = AlertPolicy([POLICY.tiers[0]])
    s = scores(one)
    r = row(s, "*", "page_1h", "page")
    assert (r["incidents"], r["detected"], r["already_firing"], r["unseen"]) == (3, 1, 0, 0)
    assert r["recall"] == 1 / 3
    assert r["detection_median"] == r["detection_max"] == pd.Timedelta("28min")
    b = row(s, "B", "page_1h", "page")
    assert (b["incidents"], b["detected"], b["already_firing"], b["recall"]) == (2, 0, 0, 0.0)
    assert (b["episodes"], b["true_episodes"], b["precision"]) == (1, 0, 0.0)
    assert (b["episodes_filling"], b["true_episodes_filling"]) == (2, 2)
    assert pd.isna(b["detection_median"]) and pd.isna(b["reset_median"])
    a = row(s, "A", "page_1h", "page")  # a page after the window filled detects as before
    assert (a["detected"], a["recall"], a["detection_median"]) == (1, 1.0, pd.Timedelta("28min"))
    assert a["reset_median"] == pd.Timedelta("33min")  # 13:03 - 12:30


def test_incident_detections_say_the_apart_page_detected_nothing():
    one = AlertPolicy([POLICY.tiers[0]])
    det = incident_detections(episodes(one), INCIDENTS, bins=bins(), target=0.9, policy=one,
                              grace="1h")
    b = det[(det["g"] == "B") & (det["tier"] == "page_1h")].set_index("incident_id")
    assert b["detected"].to_dict() == {"I2": False, "I3": False}
    assert b["already_firing"].to_dict() == {"I2": False, "I3": False}
    assert b["first_alert"].isna().all() and b["detection_time"].isna().all()
    assert not b["filling"].any()  # the incidents themselves are scored


def test_merged_rows_leave_out_pages_apart_on_their_own_row():
    s = scores(POLICY)
    every = row(s, "*", "*", "*")
    assert (every["episodes"], every["true_episodes"]) == (2, 1)
    assert (every["episodes_filling"], every["true_episodes_filling"]) == (2, 2)
    assert (every["incidents"], every["detected"], every["already_firing"]) == (3, 1, 0)
    assert every["recall"] == 1 / 3
    assert every["detection_median"] == pd.Timedelta("28min")
    page = row(s, "*", "*", "page")
    assert (page["detected"], page["recall"]) == (1, 1 / 3)
    b = row(s, "B", "*", "*")
    assert (b["incidents"], b["detected"], b["already_firing"], b["recall"]) == (2, 0, 0, 0.0)
