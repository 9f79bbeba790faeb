"""``budgetlab alerts``: a row whose incidents all began under its firing alert has no recall,
and the cell states the count (``n/a (1 of 1 already firing)``), not a bare phrase.

The log of tests/cli/test_alerts_already_firing.py: one event a minute 2026-03-02..04, every
event of 00:00-00:29 failed on 03-03; target 90 %, single-window preset (page_1h fires at the
6th failure of its 1 h window, 00:06, and stops at 01:25). Incident I1 03-03 00:20-00:40 began
under the firing page: incidents 1, detected 0, already_firing 1, recall n/a (1 of 1)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from budgetlab.cli import main


def test_recall_cell_counts_the_incidents_already_firing(tmp_path, capsys):
    ts = pd.date_range("2026-03-02", periods=3 * 1440, freq="1min", tz="UTC")
    ok = np.ones(len(ts), dtype=bool)
    ok[1440:1470] = False
    log, inc = tmp_path / "log.csv", tmp_path / "inc.csv"
    pd.DataFrame({"ts": ts, "outcome": np.where(ok, "ok", "error")}).to_csv(log, index=False)
    inc.write_text("incident_id,start,end,scope\n"
                   "I1,2026-03-03T00:20:00Z,2026-03-03T00:40:00Z,*\n")
    out = tmp_path / "scores.csv"
    assert main(["alerts", str(log), "--incidents", str(inc), "--target", "0.9",
                 "--policy", "single_window", "--out", str(out)]) == 0
    text = " ".join(capsys.readouterr().out.split())
    row = pd.read_csv(out).iloc[0]
    assert (row["incidents"], row["detected"], row["already_firing"]) == (1, 0, 1)
    assert "n/a (1 of 1 already firing)" in text
