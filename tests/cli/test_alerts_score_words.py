"""``alerts`` prints why a score row has no detection or reset time, in words, not a blank cell."""

from __future__ import annotations

import numpy as np
import pandas as pd

from budgetlab.cli import main


def test_an_incident_no_alert_met_reads_none_detected(tmp_path, capsys):
    """One event a minute, 6 h, the minutes 60..69 failed; target 0.9, the single-window policy
    (1 h, burn 0.9). By hand (as the reset test of test_analyses_cli): one episode, 01:06 ..
    02:05. The incident is [04:00, 04:30), no failure in it: the episode ended 1 h 55 min before it
    began (an alert detects an incident when it fires between the incident's start and its end
    plus the 1 h grace), so the incident is not detected. The page_1h row:
    1 episode, precision 0 (it met no incident), 1 incident, 0 detected, recall 0, and no
    detection or reset time: "none detected" in both cells, never blank."""
    ts = pd.date_range("2026-01-05", periods=360, freq="1min", tz="UTC")
    outcome = np.where((np.arange(360) >= 60) & (np.arange(360) < 70), "solve_error", "success")
    log = tmp_path / "log.csv"
    pd.DataFrame({"ts": ts, "outcome": outcome}).to_csv(log, index=False)
    inc = tmp_path / "incidents.csv"
    inc.write_text("incident_id,start,end\ni1,2026-01-05T04:00:00Z,2026-01-05T04:30:00Z\n")
    assert main(["alerts", str(log), "--incidents", str(inc), "--target", "0.9", "--window",
                 "1h", "--policy", "single_window"]) == 0
    out = capsys.readouterr().out
    rows = [ln.split() for ln in out.splitlines() if ln.split()[:2] == ["page_1h", "page"]]
    # tier severity episodes precision incidents detected recall detection reset pages_per_day
    # observed_days episodes_filling incidents_filling
    assert rows == [["page_1h", "page", "1", "0", "1", "0", "0", "none", "detected", "none",
                     "detected", "withheld", "0.208", "0", "0"]]
