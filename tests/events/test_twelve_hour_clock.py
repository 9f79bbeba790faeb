"""An ISO-8601 date with a 12-hour clock (``2026-03-01 10:00 PM +0100``) is not ISO-8601; it was
refused with "use ISO-8601" alone, without the option that reads it. The refusal now gives the
``time_format=`` (``--time-format`` on the command line) for the file's own form, and that format,
passed back, reads the file: expected instants converted by hand (10:00 PM at +01:00 is 21:00 UTC).
A numeric date with AM/PM gets its 12-hour directives too (it got "the time's own directives
(e.g. %H:%M:%S)", a 24-hour clock)."""

from __future__ import annotations

import re

import pandas as pd
import pytest

from budgetlab import read_events
from budgetlab.cli import main
from tests.events.time_logs import time_refusal, times_log

ISO = "ISO-8601 like 2026-11-29T03:47:00Z or 2026-11-29 04:47:00+01:00."
TOLD = ("these times have an ISO-8601 date but a 12-hour clock (AM/PM), which ISO-8601 does not "
        "have: give ")


def test_the_api_refusal_names_time_format_and_it_reads_the_file(tmp_path):
    path = times_log(tmp_path, ["2026-03-01 10:00 PM +0100", "2026-03-01 12:30 AM +0100"])
    assert time_refusal(path) == (
        "unparseable timestamps at rows 1, 2 (1-based, after the header); " + TOLD
        + f"time_format='%Y-%m-%d %I:%M %p %z'; or write {ISO}")
    got = read_events(path, ok="ok", time_format="%Y-%m-%d %I:%M %p %z")["ts"].tolist()
    # 12:30 AM at +01:00 on 1 March is 23:30 UTC on 28 February; 10:00 PM is 21:00 UTC
    assert got == [pd.Timestamp("2026-02-28T23:30:00Z"), pd.Timestamp("2026-03-01T21:00:00Z")]


def test_the_command_line_names_time_format_and_it_reads_the_file(tmp_path, capsys):
    path = times_log(tmp_path, ["2026-03-01 10:00 PM +0100"])
    assert main(["replay", str(path), "--ok", "ok"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "budgetlab: error: unparseable timestamp at row 1 (1-based, after the header); " + TOLD
        + f"--time-format '%Y-%m-%d %I:%M %p %z'; or write {ISO}\n")
    given = re.search(r"--time-format '([^']+)'", err).group(1)
    assert main(["replay", str(path), "--ok", "ok", "--time-format", given]) == 0
    assert "2026-03-01T21:00:00Z" in capsys.readouterr().err  # 10:00 PM at +01:00


@pytest.mark.parametrize(("time", "fmt", "utc"), [
    ("2026-03-01T10:00:05PM+01:00", "%Y-%m-%dT%I:%M:%S%p%z", "2026-03-01T21:00:05Z"),
    ("2026-03-01 10:00:05.5 pm Z", "%Y-%m-%d %I:%M:%S.%f %p %z", "2026-03-01T22:00:05.5Z"),
    ("2026-03-01 10:00 PM", "%Y-%m-%d %I:%M %p", "2026-03-01T22:00:00Z"),  # naive: UTC
])
def test_each_form_gets_its_own_format(tmp_path, time, fmt, utc):
    path = times_log(tmp_path, [time])
    assert time_refusal(path) == (
        "unparseable timestamp at row 1 (1-based, after the header); " + TOLD
        + f"time_format={fmt!r}; or write {ISO}")
    assert read_events(path, ok="ok", time_format=fmt)["ts"].tolist() == [pd.Timestamp(utc)]


def test_a_numeric_date_with_am_pm_gets_twelve_hour_directives(tmp_path):
    path = times_log(tmp_path, ["01/02/2026 10:00 PM"])
    assert time_refusal(path) == (
        "unparseable timestamp at row 1 (1-based, after the header); a date such as 01/02/2026 "
        "reads day first (1 February) or month first (2 January), and budgetlab does not guess "
        "which: give time_format='%d/%m/%Y %I:%M %p' (day first) or "
        f"time_format='%m/%d/%Y %I:%M %p' (month first); or write {ISO}")
    got = read_events(path, ok="ok", time_format="%d/%m/%Y %I:%M %p")["ts"].tolist()
    assert got == [pd.Timestamp("2026-02-01T22:00:00Z")]  # 1 February, 10 PM


def test_times_in_two_forms_are_told_to_be_written_in_one(tmp_path):
    path = times_log(tmp_path, ["2026-03-01 10:00 PM +0100", "2026-03-01 10:00:05 PM +0100"])
    assert time_refusal(path) == (
        "unparseable timestamps at rows 1, 2 (1-based, after the header); " + TOLD
        + "time_format='%Y-%m-%d %I:%M %p %z' (the first time's form: the times are written in "
        f"2 forms, write them in one); or write {ISO}")
