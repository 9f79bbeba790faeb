"""Syslog's times (``Dec 31 23:59:58``: a month's name and a day, no year) read without a time
format were refused with "use ISO-8601" alone, without the options that read them. The refusal
now gives the ``time_format=`` of the log's own form (seconds or not, a fraction, the month
abbreviated or in full; a day padded with a space, ``Dec  1``, read by ``%d``) and ``year=``
(``--time-format`` and ``--year`` on the command line); that format, passed back with a year,
reads the log: the expected instants are written by hand (a log crossing New Year goes on in the
next year)."""

from __future__ import annotations

import re

import pandas as pd
import pytest

from budgetlab import read_events
from budgetlab.cli import main
from budgetlab.errors import TimestampError

ISO = "ISO-8601 like 2026-11-29T03:47:00Z or 2026-11-29 04:47:00+01:00."
TOLD = "these times have a month and a day but no year (syslog's form): give "
YEAR = (", the year of the first line (a format without a year needs it; a log that crosses New "
        "Year goes on in the next one)")
PATTERN = r"^(?P<ts>\w{3} [ \d]\d \d\d:\d\d:\d\d) \S+ app\[\d+\]: login result=(?P<outcome>\w+)$"


def _syslog(tmp_path):
    path = tmp_path / "newyear.log"
    path.write_text("Dec 31 23:59:58 web01 app[4242]: login result=ok\n"
                    "Dec 31 23:59:59 web01 kernel: eth0: link up\n"
                    "Jan  1 00:00:01 web01 app[4242]: login result=fail\n")
    return path


def _csv(tmp_path, times):
    path = tmp_path / "log.csv"
    path.write_text("ts,ok\n" + "".join(f'"{t}",true\n' for t in times))  # quoted: 05,5 s
    return path


def test_the_command_line_names_time_format_and_year_and_they_read_the_log(tmp_path, capsys):
    path = _syslog(tmp_path)
    flags = ["replay", str(path), "--pattern", PATTERN, "--outcomes", "ok=success,fail=failure"]
    assert main(flags) == 2
    err = capsys.readouterr().err
    assert err == ("budgetlab: error: unparseable timestamps at lines 1, 3 of newyear.log; "
                   + TOLD + "--time-format '%b %d %H:%M:%S' and --year YYYY" + YEAR
                   + f"; or write {ISO}\n")
    given = re.search(r"--time-format '([^']+)'", err).group(1)
    assert main([*flags, "--time-format", given, "--year", "2026"]) == 0
    said = " ".join(capsys.readouterr().err.split())  # the block wraps its lines
    assert "2026-12-31T23:59:58Z .. 2027-01-01T00:00:01Z (UTC)" in said
    got = read_events(path, pattern=PATTERN, outcomes={"ok": "success", "fail": "failure"},
                      time_format=given, year=2026)["ts"].tolist()
    assert got == [pd.Timestamp("2026-12-31T23:59:58Z"), pd.Timestamp("2027-01-01T00:00:01Z")]


def test_the_api_names_time_format_and_year_and_they_read_the_file(tmp_path):
    path = _csv(tmp_path, ["Dec 31 23:59:58", "Jan  1 00:00:01"])
    with pytest.raises(TimestampError) as info:
        read_events(path, ok="ok")
    assert str(info.value) == ("unparseable timestamps at rows 1, 2 (1-based, after the header); "
                               + TOLD + "time_format='%b %d %H:%M:%S' and year=YYYY" + YEAR
                               + f"; or write {ISO}")
    got = read_events(path, ok="ok", time_format="%b %d %H:%M:%S", year=2026)["ts"].tolist()
    assert got == [pd.Timestamp("2026-12-31T23:59:58Z"), pd.Timestamp("2027-01-01T00:00:01Z")]


@pytest.mark.parametrize(("time", "fmt", "utc"), [
    ("Dec 31 23:59", "%b %d %H:%M", "2026-12-31T23:59:00Z"),  # no seconds
    ("Dec  1 10:00:05.25", "%b %d %H:%M:%S.%f", "2026-12-01T10:00:05.25Z"),  # padded day
    ("Dec 1 10:00:05,123456789", "%b %d %H:%M:%S,%f", "2026-12-01T10:00:05.123456789Z"),
    ("December  1 10:00:05", "%B %d %H:%M:%S", "2026-12-01T10:00:05Z"),  # the month in full
])
def test_each_form_gets_its_own_format(tmp_path, time, fmt, utc):
    path = _csv(tmp_path, [time])
    with pytest.raises(TimestampError) as info:
        read_events(path, ok="ok")
    assert str(info.value) == ("unparseable timestamp at row 1 (1-based, after the header); "
                               + TOLD + f"time_format={fmt!r} and year=YYYY" + YEAR
                               + f"; or write {ISO}")
    got = read_events(path, ok="ok", time_format=fmt, year=2026)["ts"].tolist()
    assert got == [pd.Timestamp(utc)]


def test_times_in_two_forms_are_told_to_be_written_in_one(tmp_path):
    path = _csv(tmp_path, ["Dec 31 23:59", "Dec 31 23:59:58", "Dec 31 23:59:59"])
    with pytest.raises(TimestampError) as info:
        read_events(path, ok="ok")
    assert str(info.value) == (
        "unparseable timestamps at rows 1, 2, 3 (1-based, after the header); " + TOLD
        + "time_format='%b %d %H:%M' and year=YYYY" + YEAR + " (the first time's form: the times "
        f"are written in 2 forms, write them in one); or write {ISO}")
