"""compare-windows prints ``missed`` beside ``detected`` (g63fill: it printed incidents,
already_at_alert and detected only, leaving the reader to infer the misses). Hand-counted log:
groups a and b send one event a minute for two days (2026-03-02 and 03); b's fail from 10:00
to 10:29 on the first day, a's never do. Target 0.99, a 1 h window (warm-up to 01:00), alert at
critical: one failure among the hour's 60 events spends more than the hour's budget (0.6
failures), so b is exhausted from 10:00 until the failures leave the window; a never leaves OK.

Incidents (grace 1 h): A1 a 05:00-05:10, A2 a 20:00-20:10 (a never alerts: both missed);
B1 b 10:00-10:30 (detected at its start), B2 b 20:00-20:10 (the window holds only successes
from 11:30 on: missed). Each window held traffic throughout: none unseen.
a: 2 incidents, 0 detected, 2 missed; b: 2 incidents, 1 detected, 1 missed."""

from __future__ import annotations

import numpy as np
import pandas as pd

T0 = pd.Timestamp("2026-03-02", tz="UTC")
INCIDENTS = """incident_id,start,end,scope
A1,2026-03-02T05:00:00Z,2026-03-02T05:10:00Z,g=a
A2,2026-03-02T20:00:00Z,2026-03-02T20:10:00Z,g=a
B1,2026-03-02T10:00:00Z,2026-03-02T10:30:00Z,g=b
B2,2026-03-02T20:00:00Z,2026-03-02T20:10:00Z,g=b
"""


def _write(tmp_path) -> tuple[str, str]:
    ts = T0 + pd.to_timedelta(np.arange(2 * 1440), unit="min")
    a = pd.DataFrame({"ts": ts, "g": "a", "outcome": "success"})
    b = pd.DataFrame({"ts": ts, "g": "b", "outcome": "success"})
    b.loc[(ts >= T0 + pd.Timedelta("10h")) & (ts < T0 + pd.Timedelta("10h30min")),
          "outcome"] = "error"
    frame = pd.concat([a, b]).sort_values("ts", kind="stable")
    frame["ts"] = frame["ts"].map(lambda t: t.strftime("%Y-%m-%dT%H:%M:%SZ"))
    frame.to_csv(tmp_path / "log.csv", index=False)
    (tmp_path / "inc.csv").write_text(INCIDENTS)
    return str(tmp_path / "log.csv"), str(tmp_path / "inc.csv")


def test_the_printed_table_counts_the_missed_incidents(tmp_path, capsys, wide_terminal):
    from budgetlab.cli import main

    log, inc = _write(tmp_path)
    assert main(["compare-windows", log, "--by", "g", "--windows", "1h", "--target", "0.99",
                 "--incidents", inc]) == 0
    lines = capsys.readouterr().out.splitlines()
    # one header line (the index names, then the columns) and one line a row, on a wide
    # terminal; a count is right-aligned under its column's name
    header = next(line for line in lines if line.split()[:3] == ["g", "window", "events"])
    rows = {line.split()[0]: line for line in lines
            if line.split()[:3] in (["a", "1", "h"], ["b", "1", "h"])}
    assert " missed " in header

    def cell(g: str, column: str) -> str:
        end = header.index(f" {column} ") + len(column) + 1
        return rows[g][:end].split()[-1]

    assert [cell("a", c) for c in ("incidents", "detected", "missed")] == ["2", "0", "2"]
    assert [cell("b", c) for c in ("incidents", "detected", "missed")] == ["2", "1", "1"]
    out = " ".join(lines)
    assert "missed: incidents during which (up to --grace after their end) the window" in out
