"""backtest's per-incident table says its detection times to the second, as the score table on
the same screen does (an SRE's report: ``1 d 8 h`` beside ``1 d 8 h 9 min``). Oracle: the
detection time worked out by hand on a hand-built log."""

from __future__ import annotations

import pandas as pd

from budgetlab import AlertPolicy, alert_episodes, as_events, bin_events
from budgetlab.alerts.scoring import incident_detections, score_alerts
from budgetlab.cli.backtest_report import print_scores

T0 = pd.Timestamp("2026-03-02", tz="UTC")


def test_the_incident_table_and_the_score_table_say_one_detection_time(capsys, wide_terminal):
    # an event a minute (30 s past it) for 4 days; one failure, in the minute that starts
    # 1 d 8 h 8 min after the incident's start (T0 + 2 h). Under 99 % a 1 h window of 60 events
    # holding 1 failure (1/60 > 1 x 0.01) fires at the end of that minute's bin: detection
    # 1 d 8 h 9 min after the incident's start
    ts = pd.date_range(T0, periods=4 * 1440, freq="1min") + pd.Timedelta("30s")
    fail = T0 + pd.Timedelta("2h") + pd.Timedelta("1D8h8min")
    bins = bin_events(as_events(ts, ~((ts >= fail) & (ts < fail + pd.Timedelta("1min")))), "1min")
    pol = AlertPolicy.single_window("1h", burn=1.0)
    ep = alert_episodes(bins, 0.99, pol)
    inc = pd.DataFrame({"incident_id": ["I1"], "start": [T0 + pd.Timedelta("2h")],
                        "end": [T0 + pd.Timedelta("2D2h")]})
    kw = {"grace": "1h", "bins": bins, "target": 0.99, "period": pol.period, "policy": pol}
    det = incident_detections(ep, inc, **kw)
    print_scores("p", det, score_alerts(ep, inc, **kw), [], ep, 1, incidents=inc, grace="1h")
    lines = capsys.readouterr().out.splitlines()
    [row] = [ln for ln in lines if ln.split()[:1] == ["I1"]]
    # incident_id, start (date, time), detected, then the detection time
    assert row.split()[3:10] == ["True", "1", "d", "8", "h", "9", "min"]
    scored = [ln for ln in lines if ln.split()[:2] == ["page_1h", "page"]]
    assert " 1 d 8 h 9 min " in scored[0]  # detection_median, the table on one line a row
