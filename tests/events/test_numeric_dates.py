"""Dates in numbers only (``01.02.2026``) are refused, never guessed, and the refusal says which
readings it could not choose between and the time format that reads each, for the file's own
form (it said only "Dates like 01.02.2026 are ambiguous (day or month first?); use ISO-8601",
whatever the file's separator, and the same for 13/02/2026, which only day first reads). The
format it gives, passed back, reads the file: expected instants written by hand."""

from __future__ import annotations

import re

import pandas as pd

from budgetlab import read_events
from budgetlab.cli import main
from tests.events.time_logs import time_refusal, times_log

ISO = "ISO-8601 like 2026-11-29T03:47:00Z or 2026-11-29 04:47:00+01:00."


def test_day_or_month_first_is_said_with_both_formats(tmp_path):
    path = times_log(tmp_path, ["01.02.2026 10:00", "02.02.2026 10:30"])
    assert time_refusal(path) == (
        "unparseable timestamps at rows 1, 2 (1-based, "
        "after the header); a date such as 01.02.2026 reads day "
        "first (1 February) or month first (2 January), and budgetlab does not guess which: give "
        "time_format='%d.%m.%Y %H:%M' (day first) or time_format='%m.%d.%Y %H:%M' (month "
        f"first); or write {ISO}")
    # each format read back: 1 and 2 February day first, 2 January and 2 February month first
    day = read_events(path, ok="ok", time_format="%d.%m.%Y %H:%M")["ts"]
    month = read_events(path, ok="ok", time_format="%m.%d.%Y %H:%M")["ts"]
    assert day.tolist() == list(pd.to_datetime(["2026-02-01 10:00", "2026-02-02 10:30"],
                                               utc=True))
    assert month.tolist() == list(pd.to_datetime(["2026-01-02 10:00", "2026-02-02 10:30"],
                                                 utc=True))


def test_on_the_command_line_it_names_time_format(tmp_path, capsys):
    path = times_log(tmp_path, ["01/02/26T10:00:05.5+01:00"])
    assert main(["replay", str(path), "--ok", "ok"]) == 2
    err = capsys.readouterr().err
    assert err == (
        "budgetlab: error: unparseable timestamp at row 1 (1-based, "
        "after the header); a date such as 01/02/26 "
        "reads day first (1 February) or month first (2 January), and budgetlab does not guess "
        "which: give --time-format %d/%m/%yT%H:%M:%S.%f%z (day first) or --time-format "
        f"%m/%d/%yT%H:%M:%S.%f%z (month first); or write {ISO}\n")
    given = re.search(r"--time-format (\S+) \(day first\)", err).group(1)
    assert main(["replay", str(path), "--ok", "ok", "--time-format", given]) == 0
    # 1 February 2026, 10:00:05.5 at +01:00: 09:00:05.5 UTC
    assert "2026-02-01T09:00:05.500000Z" in capsys.readouterr().err


def test_one_order_only_is_said_and_still_not_taken_from_some_rows(tmp_path):
    path = times_log(tmp_path, ["13/02/2026", "01/02/2026"])
    assert time_refusal(path) == (
        "unparseable timestamps at rows 1, 2 (1-based, "
        "after the header); these dates read day first only (a first "
        "number above 12 is no month), and budgetlab does not take the order from some rows: "
        f"give time_format='%d/%m/%Y' (day first); or write {ISO}")
    assert read_events(path, ok="ok", time_format="%d/%m/%Y")["ts"].tolist() == list(
        pd.to_datetime(["2026-02-01", "2026-02-13"], utc=True))  # sorted by time


def test_a_time_in_a_form_of_its_own_gets_the_dates_part(tmp_path):
    assert time_refusal(times_log(tmp_path, ["01-02-2026 10h00"])) == (
        "unparseable timestamp at row 1 (1-based, "
        "after the header); a date such as 01-02-2026 reads day first "
        "(1 February) or month first (2 January), and budgetlab does not guess which: give "
        "time_format= with the date as '%d-%m-%Y' (day first) or '%m-%d-%Y' (month first), then "
        f"the time's own directives (e.g. %H:%M:%S); or write {ISO}")


def test_dates_no_order_reads_get_no_format(tmp_path):
    assert time_refusal(times_log(tmp_path, ["31.13.2026"])) == (
        f"unparseable timestamp at row 1 (1-based, after the header); use {ISO}")
