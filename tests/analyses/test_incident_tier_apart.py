"""The incident report's tier table scores apart an alert over while its tier's long window
filled (``budgetlab alerts``' rule, g63fill): such an alert detects nothing; the tier reads "not
detected" ("scored apart"), with no first alert and no delay, and the summary does not name it as
the page (g63tier). Hand-built log, hand-computed figures.

The log: one event at the start of each minute (1-minute bins, evaluated at each bin's end; a
window ``W`` at ``t`` holds the bins starting in ``[t - W, t)``). 2026-03-02 00:00 .. 05:59 all
succeed; silence 06:00 .. 15:59 (10 h: longer than both long windows, so the group's traffic
begins a new stretch at 16:00, both windows empty); 16:00 .. 16:04 fail (5), then every event
succeeds up to 22:59; 23:00 .. 23:44 fail (45); 23:45 .. 2026-03-03 01:59 succeed.

Policy at target 0.9 (budget 0.1), both tiers burn 1.05, i.e. an error ratio over 0.105 in both
windows: page_1h (1 h, 5 min), page_6h (6 h, 30 min). The return's windows fill at 16:00 + 1 h =
17:00 (page_1h) and 16:00 + 6 h = 22:00 (page_6h).

* The burst at 16:00 (evaluation at the end of bin 16:k, i.e. 16:k+1): the long windows hold the
  bins since 16:00 only: 5 / (k + 1) > 0.105 for k + 1 <= 47. page_1h's 5 min window holds a
  failure up to k = 8 (1 in 5 = 0.2): it fires at 16:01 .. 16:09, episode [16:01, 16:10).
  page_6h's 30 min window holds all k + 1 bins up to k = 29, then (34 - k) / 30 > 0.105 up to
  k = 30: episode [16:01, 16:32). Both are over before their window filled (16:10 <= 17:00,
  16:32 <= 22:00): scored apart. Incident I1 15:55 .. 16:30 (grace 1 h): only these alerts
  overlap it, so neither tier detects it (before g63tier: fired at 16:01, 6 min).
* The burst at 23:00 (after both windows filled): page_1h's 1 h window holds 60 bins, (k + 1) /
  60 > 0.105 from k + 1 = 7 (k = 6; its 5 min window all failures): first alert 23:07; page_6h's
  6 h window holds 360 bins, (k + 1) / 360 > 0.105 from k + 1 = 38 (k = 37; its 30 min window all
  failures): first alert 23:38. Incident I2 23:00 .. 23:45: detected, 7 min and 38 min.
"""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab import SLO, AlertPolicy, as_events, incident_report
from budgetlab.alerts.tier import AlertTier
from budgetlab.cli.incident_tiers import print_tier_table

# the test reads the tier table's rows, one row a line: at any terminal width
pytestmark = pytest.mark.usefixtures("wide_terminal")

T0 = pd.Timestamp("2026-03-02", tz="UTC")
POLICY = AlertPolicy([AlertTier("page_1h", "page", "1h", "5min", 1.05),
                      AlertTier("page_6h", "page", "6h", "30min", 1.05)])


def at(hour: int, minute: int = 0) -> pd.Timestamp:
    return T0 + pd.Timedelta(hours=hour, minutes=minute)


def events() -> pd.DataFrame:
    minutes = [*range(0, 6 * 60), *range(16 * 60, 26 * 60)]
    failed = {*range(16 * 60, 16 * 60 + 5), *range(23 * 60, 23 * 60 + 45)}
    return as_events([at(0, m) for m in minutes], [m not in failed for m in minutes])


def report(start: pd.Timestamp, end: pd.Timestamp):
    return incident_report(events(), SLO(target=0.9, window="1h"), start, end, policy=POLICY,
                           grace="1h")


def test_an_alert_over_while_its_window_filled_detects_nothing(capsys):
    rep = report(at(15, 55), at(16, 30))
    t = rep.tiers.set_index("tier")
    assert t["fired"].to_dict() == {"page_1h": False, "page_6h": False}
    assert t["first_alert"].isna().all() and t["detection_delay"].isna().all()
    assert not t["already_firing"].any()
    assert t["apart_alert"].to_dict() == {"page_1h": at(16, 1), "page_6h": at(16, 1)}
    assert t["apart_filled"].to_dict() == {"page_1h": at(17), "page_6h": at(22)}
    assert t["apart_after_silence"].all()
    print_tier_table(rep, [])
    text = capsys.readouterr().out
    rows = {line.split()[0]: line.split() for line in text.splitlines()
            if line.startswith("page_")}
    assert rows["page_1h"][3:] == ["False", "none", "scored", "apart", "10"]
    assert rows["page_6h"][3:] == ["False", "none", "scored", "apart", "10"]
    said = " ".join(text.split())
    assert ("note: scored apart: page_1h's alert at 16:01 began and ended while its 1 h window "
            "filled after the group's silence (until 17:00); page_6h's alert at 16:01 began and "
            "ended while its 6 h window filled after the group's silence (until 22:00): they "
            "detect nothing (not detected)") in said
    summary = " ".join(rep.summary.split())
    assert "would have paged" not in summary
    assert "would not have paged" in summary
    assert "no alert of it began" not in summary  # one did: it was scored apart
    assert ("page_1h's alert at 16:01 was scored apart (so was page_6h's): it began and ended "
            "while its 1 h window filled after the group's silence (until 17:00), so it "
            "detected nothing") in summary


def test_an_alert_after_the_window_filled_detects_with_its_delay(capsys):
    rep = report(at(23), at(23, 45))
    t = rep.tiers.set_index("tier")
    assert t["fired"].all() and not t["already_firing"].any()
    assert t["first_alert"].to_dict() == {"page_1h": at(23, 7), "page_6h": at(23, 38)}
    assert t["detection_delay"].to_dict() == {"page_1h": pd.Timedelta("7min"),
                                              "page_6h": pd.Timedelta("38min")}
    assert t["apart_alert"].isna().all()
    print_tier_table(rep, [])
    text = capsys.readouterr().out
    assert "scored apart" not in text
    assert "would have paged at 23:07, 7 min after the start (page_1h)" in " ".join(
        rep.summary.split())
