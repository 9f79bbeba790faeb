"""compare-windows --out writes its count columns as whole numbers (``1``, never ``1.0``) and a
withheld count as an empty cell; the API's table holds them as nullable integers (``Int64``,
``<NA>`` where withheld).

Hand-computed case (7 d window, target 0.9; the case of tests/analyses/test_window_no_event.py):
group ``thin`` has a timeout at D0 00:00 and a success at D6 00:00; group ``busy`` a success at
D0 00:30 and one every hour from D0 01:00 to D8 23:00, the log's last event. ``thin``'s evaluated
span (D7 .. D8 23:00) holds no event: its counts are withheld. ``busy`` never fails: no status
change, no round trip; incident ``i`` (scope ``*``, D0 00:00 .. 01:00) is in its window's
traffic and not detected: detected 0, missed 1, unseen 0, unrecovered 0."""

from __future__ import annotations

import numpy as np
import pandas as pd

from budgetlab import SLO, compare_windows, read_events
from budgetlab.cli import main

D0 = pd.Timestamp("2026-03-02", tz="UTC")
COUNTS = ["transitions", "round_trips", "detected", "missed", "unseen", "unrecovered"]


def _files(tmp_path):
    thin = [D0, D0 + pd.Timedelta(days=6)]
    busy = [D0 + pd.Timedelta(minutes=30),
            *(D0 + pd.Timedelta(hours=1) + pd.to_timedelta(np.arange(9 * 24 - 1), unit="h"))]
    log, inc = tmp_path / "log.csv", tmp_path / "inc.csv"
    pd.DataFrame({"ts": pd.DatetimeIndex([*thin, *busy]).strftime("%Y-%m-%dT%H:%M:%SZ"),
                  "outcome": ["timeout"] + ["success"] * (1 + len(busy)),
                  "g": ["thin"] * 2 + ["busy"] * len(busy)}).to_csv(log, index=False)
    pd.DataFrame({"incident_id": ["i"], "scope": ["*"], "start": ["2026-03-02T00:00:00Z"],
                  "end": ["2026-03-02T01:00:00Z"]}).to_csv(inc, index=False)
    return log, inc


def test_out_writes_counts_as_whole_numbers_and_a_withheld_count_empty(tmp_path, capsys):
    log, inc = _files(tmp_path)
    out = tmp_path / "w.csv"
    assert main(["compare-windows", str(log), "--target", "0.9", "--windows", "7D", "--by", "g",
                 "--incidents", str(inc), "--out", str(out)]) == 0
    capsys.readouterr()
    cells = pd.read_csv(out, dtype=str, keep_default_na=False).set_index("g")
    assert cells.loc["busy", ["incidents", *COUNTS]].tolist() == ["1", "0", "0", "0", "1", "0",
                                                                  "0"]
    assert cells.loc["thin", ["incidents", *COUNTS]].tolist() == ["1", "", "", "", "", "", ""]
    # the file's own text: the busy row's counts, no "1.0" anywhere in them
    rows = out.read_text().splitlines()
    header = rows[0].split(",")
    busy = next(r for r in rows if r.startswith("busy,")).split(",")
    assert [busy[header.index(c)] for c in ("detected", "missed")] == ["0", "1"]


def test_the_api_holds_counts_as_nullable_integers(tmp_path):
    log, inc = _files(tmp_path)
    t = compare_windows(read_events(log, by="g"), SLO(target=0.9), "7D", by="g",
                        incidents=pd.read_csv(inc, parse_dates=["start", "end"])).set_index("g")
    for c in COUNTS:
        assert str(t[c].dtype) == "Int64", c
    assert t.loc["busy", ["detected", "missed", "unseen"]].tolist() == [0, 1, 0]
    assert t.loc["thin", COUNTS].isna().all()
