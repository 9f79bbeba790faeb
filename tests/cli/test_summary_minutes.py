"""A replay summary of a log shorter than 2 h counts its time in minutes: in hours a 47-minute
log read "0.0 h (1 %)" for a group's time in a status."""

from __future__ import annotations

import re

import pytest

from budgetlab.cli import main


@pytest.mark.usefixtures("wide_terminal")  # reads the table's rows
def test_a_short_log_counts_minutes(tmp_path, capsys):
    # 00:00 success, 00:10 timeout, 00:40 success at 0.95, 1 h window: healthy from the first
    # event to the failure (10 min of the 40 min observed, 25 %), exhausted after it (1 failure
    # in 2 then 3 events, budget 0.1 then 0.15): 30 min, 75 %; one transition
    log = tmp_path / "log.csv"
    log.write_text("ts,outcome\n2026-01-01T00:00:00Z,success\n2026-01-01T00:10:00Z,timeout\n"
                   "2026-01-01T00:40:00Z,success\n")
    assert main(["replay", str(log), "--window", "1h"]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.lstrip().startswith("3 "))
    assert row.split() == ["3", "66.67", "%", "10.0", "min", "(25", "%)", "0.0", "min", "(0",
                           "%)", "0.0", "min", "(0", "%)", "30.0", "min", "(75", "%)", "0.0",
                           "min", "(0", "%)", "1", "exhausted", "exhausted"]
    # no time in a status said in hours ("0.0 h (1 %)"); the notes' "24 h (the tracker's
    # window ...)" is a threshold in words, not a figure of the table
    assert not re.search(r"\d h \(\d", out)
