"""Every command's table fits the terminal (:func:`budgetlab.cli.shared.table_text`): a table whose
rows fit prints as ``to_string(index=False)`` always did; a wider one is cut into blocks of
columns no wider than the terminal (``COLUMNS``), each block repeating the key columns that name
a row (the ``--by`` keys, the window...), their names on the line under the block's header.
Oracle: the blocks written out by hand, and the widths stated (80 columns, set here)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from budgetlab.cli import main
from budgetlab.cli.shared import table_text

APACHE = Path(__file__).parents[1] / "fixtures" / "elastic_apache" / "apache_logs"

#: A compare-windows table of two groups, 110 columns wide in one block.
WIDE = pd.DataFrame({
    "method": ["GET", "OPTIONS"], "window": ["1 h", "6 h"], "events": ["9,878", "0"],
    "hours": [82.02, 0.0], "share_warning": ["0.0 %", ""], "share_critical": ["0.0 %", ""],
    "transitions_per_day": ["0.00", ""], "detection_median": ["none detected", "no incident"],
    "recovery_median": ["none detected", "no incident"]})


def test_a_table_wider_than_the_terminal_repeats_its_keys_in_every_block(monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    text = table_text(WIDE, ["method", "window"], float_format=lambda x: f"{x:.2f}")
    assert text.splitlines() == [
        "               events  hours share_warning share_critical transitions_per_day  \\",
        "method  window",
        "GET     1 h     9,878  82.02         0.0 %          0.0 %                0.00",
        "OPTIONS 6 h         0   0.00",
        "",
        "               detection_median recovery_median",
        "method  window",
        "GET     1 h       none detected   none detected",
        "OPTIONS 6 h         no incident     no incident",
    ]
    assert max(len(line) for line in text.splitlines()) <= 80


def test_a_table_that_fits_prints_as_before(monkeypatch):
    monkeypatch.setenv("COLUMNS", "110")  # the table's own width: it fits, as it printed before
    text = table_text(WIDE, ["method", "window"])
    assert text == WIDE.to_string(index=False)
    assert text.splitlines()[0] == (" method window events  hours share_warning share_critical "
                                    "transitions_per_day detection_median recovery_median")


def test_a_one_row_table_without_keys_goes_in_blocks_of_its_columns(monkeypatch):
    # replay without --by: one row, no column names it; the blocks need none
    monkeypatch.setenv("COLUMNS", "80")
    one = pd.DataFrame({"events": ["10,000"], "success_rate": ["99.97 %"],
                        "healthy": ["83.0 h (100 %)"], "warning": ["0.0 h (0 %)"],
                        "critical": ["0.0 h (0 %)"], "exhausted": ["0.0 h (0 %)"],
                        "no traffic": ["0.0 h (0 %)"], "events/day": ["2,891.6"],
                        "final_status": ["healthy"]})
    assert table_text(one).splitlines() == [
        "events success_rate        healthy     warning    critical   exhausted  \\",
        "10,000      99.97 % 83.0 h (100 %) 0.0 h (0 %) 0.0 h (0 %) 0.0 h (0 %)",
        "",
        " no traffic events/day final_status",
        "0.0 h (0 %)    2,891.6      healthy",
    ]


@pytest.mark.parametrize("columns", [80, 250])
def test_compare_windows_on_a_web_log_fits_the_terminal(monkeypatch, capsys, columns):
    # the Elastic sample log by method under two windows: 4 groups x 2 windows, 8 rows
    monkeypatch.setenv("COLUMNS", str(columns))
    assert main(["compare-windows", str(APACHE), "--preset", "access", "--by", "method",
                 "--windows", "1h,6h"]) == 0
    # the table: after the legend's blank line, before the note on the thin rows
    table = capsys.readouterr().out.split("\n\n", 1)[1].split("shares and rates")[0]
    lines = table.splitlines()
    rows = [ln.split()[:3] for ln in lines if ln.split()[:1] in (["GET"], ["HEAD"])]
    if columns == 80:  # 2 blocks, each with its header, the key names and the 8 rows
        assert max(len(line) for line in lines) <= 80
        assert [ln for ln in lines if ln.startswith("method")] == ["method  window"] * 2
        assert lines[0].split() == ["events", "hours", "hours_no_traffic", "share_warning",
                                    "share_critical", "\\"]
        assert rows == [["GET", "1", "h"], ["HEAD", "1", "h"], ["GET", "6", "h"],
                        ["HEAD", "6", "h"]] * 2
    else:  # one block, as the table always printed: the header, then one line per row
        assert lines[0].split()[:3] == ["method", "window", "events"]
        assert rows == [["GET", "1", "h"], ["HEAD", "1", "h"], ["GET", "6", "h"],
                        ["HEAD", "6", "h"]]
