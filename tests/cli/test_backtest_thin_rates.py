"""``backtest``'s score table: ``alerts_per_day`` reads ``withheld`` under 24 h of observed time
(the rule of ``replay``'s events/day) and one sentence names the tiers and their observed time;
over three days the rate is printed. Hand-made bins, hand-computed figures."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab.alerts.episodes import alert_episodes
from budgetlab.alerts.policy import AlertPolicy
from budgetlab.alerts.scoring import incident_detections, score_alerts
from budgetlab.cli.backtest_report import print_scores
from tests.outage_bins import T0, outage_bins

POLICY = AlertPolicy.single_window("10min", burn=1.5, period="30D")


def printed(minutes: int, capsys) -> tuple[list[str], str]:
    """The page_10m score row printed by ``backtest`` over ``minutes`` of bins, and all text."""
    b = outage_bins(minutes)
    inc = pd.DataFrame({"incident_id": ["i1"], "scope": ["*"],
                        "start": [T0 + pd.Timedelta("1h40min")],
                        "end": [T0 + pd.Timedelta("1h50min")]})
    ep = alert_episodes(b, 0.9, POLICY)
    kw = {"grace": "1h", "bins": b, "target": 0.9, "period": POLICY.period, "policy": POLICY}
    print_scores("single", incident_detections(ep, inc, **kw), score_alerts(ep, inc, **kw), [],
                 ep, len(inc))
    text = capsys.readouterr().out
    rows = [ln.split() for ln in text.splitlines() if ln.split()[:2] == ["page_10m", "page"]]
    assert len(rows) == 1
    return rows[0], " ".join(text.split())


@pytest.mark.usefixtures("wide_terminal")  # reads the table's rows
def test_a_two_hour_span_withholds_alerts_per_day(capsys):
    """2 h of bins, the 10 min window full from 00:10: 1 h 50 min observed. One page (01:42,
    matching i1) in it is not 13 pages a day: the cell reads withheld."""
    row, text = printed(120, capsys)
    # tier severity episodes precision incidents detected recall detection reset alerts_per_day
    # observed_days episodes_filling incidents_filling
    assert row[2] == "1" and row[-4:] == ["withheld", "0.0764", "0", "0"]  # 110 / 1440 d
    assert ("alerts_per_day withheld, too thin to go by (a rate per day needs at least 24 h of "
            "observed time): page_10m (1 h 50 min observed), the page tiers merged (1 h 50 min "
            "observed), all tiers merged (1 h 50 min observed).") in text


@pytest.mark.usefixtures("wide_terminal")  # reads the table's rows
def test_a_three_day_span_prints_the_rate(capsys):
    """3 d of bins: 72 h - 10 min = 71 h 50 min observed, one page: 24 / 71.8333 = 0.334 a day."""
    row, text = printed(3 * 1440, capsys)
    assert row[-4:] == ["0.334", "2.99", "0", "0"]
    assert "alerts_per_day withheld" not in text


def test_the_incidents_table_says_which_incidents_are_scored_apart(capsys):
    """3 h of bins, the 10 min window full from 00:10: i0 (00:05 .. 00:08) began while it filled
    and is scored apart by the merged rows (incidents_filling 1); i1 (01:40) is scored. The
    incidents table above them says so per incident, not only the score rows."""
    b = outage_bins(180)
    inc = pd.DataFrame({"incident_id": ["i0", "i1"], "scope": ["*", "*"],
                        "start": [T0 + pd.Timedelta("5min"), T0 + pd.Timedelta("1h40min")],
                        "end": [T0 + pd.Timedelta("8min"), T0 + pd.Timedelta("1h50min")]})
    ep = alert_episodes(b, 0.9, POLICY)
    kw = {"grace": "1h", "bins": b, "target": 0.9, "period": POLICY.period, "policy": POLICY}
    print_scores("single", incident_detections(ep, inc, **kw), score_alerts(ep, inc, **kw), [],
                 ep, len(inc))
    lines = capsys.readouterr().out.splitlines()
    head = lines.index("Incidents, policy single (all tiers merged):")
    assert lines[head + 1].split() == ["incident_id", "incident_start", "detected",
                                       "detection_time", "reset_time", "scored"]
    assert lines[head + 2].split()[:4] == ["i0", "2026-01-05", "00:05", "False"]
    assert lines[head + 2].split()[-2:] == ["apart", "(filling)"]
    assert lines[head + 3].split()[:4] == ["i1", "2026-01-05", "01:40", "True"]
    assert lines[head + 3].split()[-1] == "yes"
