"""``on_error=`` follows one rule for a time that does not match ``time_format``, with or without
the year in the format: ``"skip"`` leaves the line out (warned, in the words of the pattern and
the time format), ``"raise"`` refuses it with the other lines not in the format, and the default
refusal names ``on_error='skip'``. Expected instants written by hand."""

import warnings

import pandas as pd
import pytest

from budgetlab import ReadSpec, read_events
from budgetlab.cli import main
from budgetlab.errors import FileFormatError, TimestampError

LINES = ("[12.31 23:00:08] chrome - close\n[12.31 23:00] chrome - close\n"
         "[01.01 00:00:05] chrome - error\n")
PATTERN = r"^\[(?P<ts>[0-9.]+ [0-9:]+)\] (?P<app>\S+) - (?P<outcome>close|error)\b"


def _spec(on_error: str) -> ReadSpec:
    return ReadSpec(pattern=PATTERN, time_format="%m.%d %H:%M:%S", on_error=on_error,
                    outcomes={"close": "success", "error": "failure"})


def test_skip_leaves_out_a_time_not_in_a_format_without_the_year(tmp_path):
    log = tmp_path / "proxy.log"
    log.write_text(LINES)
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        ev = read_events(log, _spec("skip"), year=2016)
    # hand: line 2 left out; line 3 across New Year
    assert ev["ts"].tolist() == [pd.Timestamp("2016-12-31T23:00:08Z"),
                                 pd.Timestamp("2017-01-01T00:00:05Z")]
    words = [str(w.message) for w in said]
    assert any("skipped 1 line not in the format of the pattern and the time format "
               "'%m.%d %H:%M:%S' (line 2)" in w for w in words), words


def test_raise_and_count_name_the_line_and_the_way_out(tmp_path, capsys):
    log = tmp_path / "proxy.log"
    log.write_text(LINES)
    with pytest.raises(FileFormatError, match=r"1 line not in the format .*\(line 2\); fix it or "
                                              r"pass on_error='skip' to drop it"):
        read_events(log, _spec("raise"), year=2016)
    with pytest.raises(TimestampError, match=r"the time at line 2 of proxy.log does not match "
                                             r".*fix it or pass on_error='skip' to leave that "
                                             r"line out"):
        read_events(log, _spec("count"), year=2016)
    rc = main(["replay", str(log), "--pattern", PATTERN, "--time-format", "%m.%d %H:%M:%S",
               "--year", "2016", "--outcomes", "close=success,error=failure"])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "--on-error skip" in err


def test_a_preset_with_a_time_format_names_the_flag_given(tmp_path, capsys):
    log = tmp_path / "auth.log"
    log.write_text("Dec 31 23:59:50 h sshd[1]: Accepted password for a from 10.0.0.1 port 1 ssh2\n")
    rc = main(["replay", str(log), "--preset", "sshd", "--time-format", "%b %d"])
    err = capsys.readouterr().err
    assert rc == 2 and "give either --preset or --time-format, not both" in err, err
    assert "--pattern" not in err
