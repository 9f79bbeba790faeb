"""Notebook 04 on a night across the autumn change of the clocks (Europe/Berlin, 2026-10-25: the
clocks go back from 03:00 CEST to 02:00 CET at 01:00 UTC). It printed the incident 00:15 .. 01:45
UTC (90 minutes) as "Sun 2026-10-25 02:15 – 02:45", which reads as 30, and its status changes at
"Sun 02:23:00" without a zone, inside the hour that happens twice. Each end now carries its own
zone and every status change its zone."""

from __future__ import annotations

import re
from pathlib import Path

import nbformat
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_notebook_04_says_the_zones_of_an_incident_across_the_change(tmp_path, monkeypatch):
    papermill = pytest.importorskip("papermill",
                                    reason="papermill (a test extra) runs the notebooks")
    # one event a minute, 2026-10-24 20:00 .. 2026-10-25 03:59 UTC; every one of 00:20 .. 00:39
    # UTC fails. The 1 h window at 00:23 holds 61 events (its cut-off 23:23 stays): budget 6.1,
    # 4 failures leave 1 - 4/6.1 = 0.34 < 0.5, so the tracker goes WARNING at 00:23 UTC, the
    # first pass of 02:23 (CEST); at 00:22, 3 failures leave 0.51: HEALTHY.
    ts = pd.date_range("2026-10-24 20:00", "2026-10-25 03:59", freq="min", tz="UTC")
    bad = (ts >= pd.Timestamp("2026-10-25 00:20", tz="UTC")) & (
        ts < pd.Timestamp("2026-10-25 00:40", tz="UTC"))
    log = tmp_path / "night.parquet"
    pd.DataFrame({"ts": ts, "outcome": ["timeout" if b else "success" for b in bad]}
                 ).to_parquet(log, index=False)
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    out = tmp_path / "04.ipynb"
    papermill.execute_notebook(
        str(ROOT / "budgetlab" / "notebooks" / "04_incident_replay.ipynb"), str(out),
        kernel_name="python3", progress_bar=False, cwd=str(tmp_path),
        parameters={"source": str(log), "incidents": None, "scope_column": None,
                    "breakdown_by": None, "target": 0.9, "window": "1h",
                    "alert_time": "2026-10-25T02:30+02:00",
                    "incident_start": "2026-10-25T02:15+02:00",
                    "incident_end": "2026-10-25T02:45+01:00", "tz": "Europe/Berlin"})
    outputs = [o for cell in nbformat.read(out, as_version=4).cells
               for o in cell.get("outputs", [])]
    assert not [o for o in outputs if o.output_type == "error"]
    words = " ".join(" ".join(o.get("data", {}).get("text/markdown", "").split())
                     for o in outputs)
    assert ("Incident under review: **Sun 2026-10-25 02:15 CEST – 02:45 CET (Europe/Berlin)**, "
            "as given.") in words
    changes = next(o.data["text/html"] for o in outputs
                   if "to_status" in o.get("data", {}).get("text/html", ""))
    shown = re.findall(r"<th[^>]*>(Sun \d\d:\d\d:\d\d[^<]*)</th>", changes)
    assert shown[0] == "Sun 02:23:00 CEST"
    assert all(re.fullmatch(r"Sun \d\d:\d\d:\d\d (CEST|CET)", s) for s in shown)
