"""A negative duration in a CSV output is neutralised like any text cell (issue 30's rule).

``alerts --out`` wrote ``reset_median`` ``-29m`` as it was: text (no spreadsheet reads ``29m`` as a
number) that begins with ``-``, which a spreadsheet runs as a formula (``#NAME?``). Durations are
text cells, so the rule applies to them: ``'-29m``, read back by budgetlab's rule to ``-29m``.
"""

from __future__ import annotations

import csv
import io

import pandas as pd

from budgetlab._util.csv_cells import restore_frame
from budgetlab._util.files import write_table
from budgetlab.cli import main


def _hand_log(tmp_path):
    # one event a minute, 00:00 .. 04:59; only the 02:00 event fails
    ts = pd.date_range("2026-01-01", periods=300, freq="1min", tz="UTC")
    log = tmp_path / "log.csv"
    pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ"),
                  "ok": ts != pd.Timestamp("2026-01-01 02:00", tz="UTC")}).to_csv(log, index=False)
    inc = tmp_path / "inc.csv"
    inc.write_text("incident_id,start,end\ni1,2026-01-01T02:00:00Z,2026-01-01T03:30:00Z\n")
    return log, inc


def test_alerts_out_writes_a_negative_reset_neutralised_and_it_reads_back(tmp_path, capsys):
    # hand figures: single_window is one 1 h window at burn 0.9; under 0.99 it fires when the
    # window's error ratio is above 0.9 % (1 failure in its 60 events is 1.67 %). Evaluated at
    # each 1 min bin's end T over the events T-60min .. T-1min, it fires from 02:01 (detection
    # 1 min) to 03:00, the last T whose window holds 02:00; the episode ends one step later,
    # 03:01: 29 min before the incident's end at 03:30, a reset of -29 min
    log, inc = _hand_log(tmp_path)
    out = tmp_path / "scores.csv"
    assert main(["alerts", str(log), "--ok", "ok", "--target", "0.99", "--incidents", str(inc),
                 "--policy", "single_window", "--out", str(out)]) == 0
    capsys.readouterr()
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    row = next(r for r in rows if r["tier"] == "page_1h")
    assert row["detection_median"] == "1m"  # positive: as it was
    assert row["reset_median"] == row["reset_max"] == "'-29m"  # the cell as written
    back = restore_frame(pd.read_csv(out, dtype=str, keep_default_na=False))
    first = back[back["tier"] == "page_1h"].iloc[0]
    assert pd.Timedelta(first["reset_median"]) == pd.Timedelta("-29min")
    assert pd.Timedelta(first["detection_median"]) == pd.Timedelta("1min")


def test_write_table_neutralises_negative_durations_only(tmp_path):
    table = pd.DataFrame({"reset": pd.to_timedelta(["-8h56min", "2h", None]),
                          "rate": [-0.5, 0.25, 1.0]})
    text = write_table(table, tmp_path / "t.csv").read_text()
    # hand-written: the negative duration quoted, the positive and the numbers as they are
    assert text == "reset,rate\n'-8h56m,-0.5\n2h,0.25\n,1.0\n"
    back = restore_frame(pd.read_csv(tmp_path / "t.csv", dtype=str, keep_default_na=False))
    assert back["reset"].tolist() == ["-8h56m", "2h", ""]
    assert pd.Timedelta(back["reset"][0]) == pd.Timedelta("-8h56min")
