"""Stop 57: a real header above a column of outcome words is a header. ``ts,error`` over rows
whose ``error`` holds only ``timeout`` was said to "look like data" (an outcome word above
outcome words), and the refusal hid the names the user needs. The first line is data only when it
looks like the rows below it and names no declared column: a header's name above a column of
times (or of numbers) is no row of data. A header-less file's row is still never shown. Oracle:
the messages written out by hand from the files' own text."""

from __future__ import annotations

import pytest

from budgetlab import read_events
from budgetlab.cli import main
from budgetlab.errors import SchemaError

DATA = "The first line looks like data, not column names"
ROWS = "2026-01-01T00:00:00Z,timeout\n2026-01-01T00:01:00Z,timeout\n"


def _refusal(tmp_path, text, **kw) -> str:
    path = tmp_path / "log.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SchemaError) as info:
        read_events(path, **kw)
    return str(info.value)


def test_a_header_over_outcome_words_is_named_and_its_rows_never(tmp_path):
    # 'ts' names the time column the read declares; 'error' tops timeouts: still a header
    assert _refusal(tmp_path, "ts,error\n" + ROWS) == (
        "log.csv has no column 'outcome' (the outcome-label column: name the right one with "
        "outcome=, or give a true/false success column with ok=). Columns present: 'ts', "
        "'error'.")
    # no declared name: 'time' over times is a header's name, not a row's time
    assert _refusal(tmp_path, "time,error\n" + ROWS) == (
        "log.csv has no column 'ts' (the time column: name the right one with time=). Columns "
        "present: 'time', 'error'.")
    # the same file without its header: its first row is not shown
    said = _refusal(tmp_path, ROWS)
    assert DATA in said and "timeout" not in said and "2026" not in said


def test_the_command_line_names_the_header_and_its_own_flags(tmp_path, capsys):
    path = tmp_path / "log.csv"
    path.write_text("ts,error\n" + ROWS, encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    assert capsys.readouterr().err == (
        "budgetlab: error: log.csv has no column 'outcome' (the outcome-label column: name the "
        "right one with --outcome, or give a true/false success column with --ok). Columns "
        "present: 'ts', 'error'.\n")


@pytest.mark.parametrize("text, kw, shown", [
    # a header-less row naming the declared column 'ok' above outcome words: a header by its
    # declared name, yet like the rows below, so only that name is shown
    ("jsmith,ok,berlin\nmjones,failed,paris\n", {"ok": "ok"}, "'ok'"),
    ("jsmith,error,berlin\nmjones,timeout,paris\n", {"outcome": "error"}, "'error'"),
])
def test_a_row_naming_a_declared_column_shows_that_name_only(tmp_path, text, kw, shown):
    said = _refusal(tmp_path, text, **kw)
    assert said.endswith(f"Columns present: {shown} and 2 other names not shown (without a usual "
                         "column word: the first line may be data).")
    assert not any(v in said for v in ("jsmith", "berlin", "mjones", "paris"))


def test_a_name_over_epoch_numbers_is_a_header(tmp_path):
    # 'stamp' tops epoch seconds: no row of this file; 'stamp' has no usual column word, so it
    # is counted, not shown (the rule of test_headerless_first_row)
    said = _refusal(tmp_path, "stamp,error\n1767225600,timeout\n1767225660,timeout\n")
    assert said == ("log.csv has no column 'ts' (the time column: name the right one with time=)."
                    " Columns present: 'error' and 1 other name not shown (without a usual column "
                    "word: the first line may be data).")
    # without its header, the first row (a number, an outcome word) is data, not shown
    said = _refusal(tmp_path, "1767225600,timeout\n1767225660,timeout\n")
    assert DATA in said and "1767225600" not in said and "timeout" not in said
