"""``budgetlab alerts`` and ``backtest``'s incident table on an incident begun while the page
already fired: counted apart (``already_firing``), neither detected nor missed, not "detected in
0 s", and recall stated over the incidents it counts.

The log: one event a minute for 3 days (2026-03-02..04), every event of 00:00-00:29 failed on
03-03 and on 03-04; target 90 %, the single-window preset (page_1h: 1 h error ratio over 9 %,
i.e. 6 of the 60 events of the window). On each day the page fires at 00:06 (the 6th failure)
and stops at 01:25 (from then the window holds 5 failures or fewer). Incident I1 03-03 00:20-00:40
began under the firing page: already firing (reset 01:25 - 00:40 = 45 min); I2 03-04 00:00-00:30
is detected in 6 min (reset 55 min). incidents 2 = detected 1 + already_firing 1; recall 1 / (2 -
0 - 1) = 1; detection median 6 min (it was 3 min, the median of 0 s and 6 min); reset median
(45 + 55) / 2 = 50 min."""

from __future__ import annotations

import numpy as np
import pandas as pd

from budgetlab.cli import main

INCIDENTS = pd.DataFrame({"incident_id": ["I1", "I2"], "scope": "*",
                          "start": ["2026-03-03T00:20:00Z", "2026-03-04T00:00:00Z"],
                          "end": ["2026-03-03T00:40:00Z", "2026-03-04T00:30:00Z"]})


def _files(tmp_path):
    ts = pd.date_range("2026-03-02", periods=3 * 1440, freq="1min", tz="UTC")
    ok = np.ones(len(ts), dtype=bool)
    ok[1440:1470] = False
    ok[2880:2910] = False
    log, inc = tmp_path / "log.csv", tmp_path / "inc.csv"
    pd.DataFrame({"ts": ts, "outcome": np.where(ok, "ok", "error")}).to_csv(log, index=False)
    INCIDENTS.to_csv(inc, index=False)
    return log, inc


def test_alerts_counts_the_incident_begun_under_the_page_apart(tmp_path, capsys, wide_terminal):
    log, inc = _files(tmp_path)
    out = tmp_path / "scores.csv"
    assert main(["alerts", str(log), "--incidents", str(inc), "--target", "0.9",
                 "--policy", "single_window", "--out", str(out)]) == 0
    text = " ".join(capsys.readouterr().out.split())
    table = pd.read_csv(out, keep_default_na=False)
    row = table[table["tier"] == "page_1h"].iloc[0]
    assert (row["incidents"], row["detected"]) == (2, 1)
    assert (row["detection_median"], row["reset_median"]) == ("6m", "50m")
    assert row["already_firing"] == 1 and float(row["recall"]) == 1.0
    assert ("page_1h page 2 1 2 1 1 1 6 min" in text)  # ... incidents detected already recall
    assert ("already_firing: incidents that began while the row's alert already fired (it was "
            "not caused by them): neither detected nor missed, left out of recall (it is over "
            "incidents - unseen - already_firing)") in text
    assert "recall: detected / (incidents - unseen - already_firing)" in text


def test_backtest_incident_table_says_already_firing_not_0_s(capsys):
    """backtest's per-incident table (its printer, on the scores of the log above)."""
    from budgetlab import AlertPolicy, alert_episodes, incident_detections, score_alerts
    from budgetlab.cli.backtest_report import print_scores
    from budgetlab.events.schema import as_events
    from budgetlab.windows.binning import bin_events

    ts = pd.date_range("2026-03-02", periods=3 * 1440, freq="1min", tz="UTC")
    ok = np.ones(len(ts), dtype=bool)
    ok[1440:1470] = False
    ok[2880:2910] = False
    bins = bin_events(as_events(ts, ok), "1min")
    pol = AlertPolicy.single_window("1h", 0.9)
    ep = alert_episodes(bins, 0.9, pol)
    inc = INCIDENTS.assign(start=pd.to_datetime(INCIDENTS["start"]),
                           end=pd.to_datetime(INCIDENTS["end"]))
    det = incident_detections(ep, inc, bins=bins, target=0.9, grace="0s")
    sc = score_alerts(ep, inc, bins=bins, target=0.9, grace="0s")
    print_scores("single", det, sc, [], ep, len(inc), incidents=inc)
    lines = capsys.readouterr().out.splitlines()
    i1 = next(line for line in lines if line.strip().startswith("I1"))
    i2 = next(line for line in lines if line.strip().startswith("I2"))
    assert "already firing at start" in i1 and "45 min" in i1 and "0 s" not in i1
    assert "False" in i1  # not detected
    assert "6 min" in i2 and "55 min" in i2 and "True" in i2
