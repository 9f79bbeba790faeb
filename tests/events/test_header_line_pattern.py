"""A pattern that matches a CSV's header line took the header's ``ts`` for a time, and the log was
refused with "use ISO-8601" for line 1, as if a time were misspelt. The refusal now says that the
line looks like a header (its values are the pattern's group names, or its time is a column name
such as ``timestamp``) and how to leave it out: a pattern that does not match it (budgetlab has
no option to skip a header line); the pattern it suggests reads the log, to instants written by
hand."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab import read_events
from budgetlab.cli import main
from budgetlab.errors import TimestampError

PATTERN = r"^(?P<ts>[^,]+),(?P<outcome>\w+)$"
OUTCOMES = {"ok": "success", "fail": "failure"}
FIX = (" so that it does not match that line (e.g. with a time group that begins with a digit, "
       "\\d, when the times do).")


def _log(tmp_path, header):
    path = tmp_path / "export.log"
    path.write_text(f"{header}\n2026-12-01T10:00:00Z,ok\n2026-12-01T10:00:05Z,fail\n")
    return path


def test_the_command_line_says_line_1_is_a_header_and_names_the_pattern(tmp_path, capsys):
    path = _log(tmp_path, "ts,outcome")
    flags = ["replay", str(path), "--outcomes", "ok=success,fail=failure"]
    assert main([*flags, "--pattern", PATTERN]) == 2
    assert capsys.readouterr().err == (
        "budgetlab: error: unparseable timestamp at line 1 of export.log: the line looks like a "
        "header, not an event (its values are the names of the pattern's groups: ts, outcome); "
        "write --pattern" + FIX + "\n")
    assert main([*flags, "--pattern", r"^(?P<ts>\d[^,]*),(?P<outcome>\w+)$"]) == 0
    said = " ".join(capsys.readouterr().err.split())  # the block wraps its lines
    assert "2026-12-01T10:00:00Z .. 2026-12-01T10:00:05Z (UTC)" in said


@pytest.mark.parametrize("header", ["timestamp,result", "Time,result", '"ts","outcome"'])
def test_the_api_says_a_time_named_like_a_column_is_a_header(tmp_path, header):
    path = _log(tmp_path, header)
    with pytest.raises(TimestampError) as info:
        read_events(path, pattern=r'^"?(?P<ts>[^,"]+)"?,"?(?P<outcome>\w+)"?$', outcomes=OUTCOMES)
    why = ("its values are the names of the pattern's groups: ts, outcome" if "ts" in header
           else "its time is a column name such as timestamp, time or ts, not a time")
    assert str(info.value) == ("unparseable timestamp at line 1 of export.log: the line looks "
                               f"like a header, not an event ({why}); write pattern=" + FIX)
    got = read_events(path, pattern=r"^(?P<ts>\d[^,]*),(?P<outcome>\w+)$", outcomes=OUTCOMES)
    assert got["ts"].tolist() == [pd.Timestamp("2026-12-01T10:00:00Z"),
                                  pd.Timestamp("2026-12-01T10:00:05Z")]
    assert got["ok"].tolist() == [True, False]
