"""Rows stamped after the time of reading are stated, not refused: the count, the time of reading
(pinned here with BUDGETLAB_READING_TIME, never the real date), the skew allowed (1 h), the last
time and the likely fix. Oracles: hand-built times on each side of the skew, and the loghub
sample's hand count (tests/fixtures/loghub/README.md: 66 sshd events, all on 10 Dec)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from budgetlab import how_read, read_events
from budgetlab.errors import ConfigError

SSH = Path(__file__).parents[1] / "fixtures" / "loghub" / "openssh_300.log"
AT = "2026-12-06T07:00:00Z"


@pytest.fixture
def reading_at(monkeypatch):
    monkeypatch.setenv("BUDGETLAB_READING_TIME", AT)


def test_rows_later_than_the_time_of_reading_and_its_skew_are_counted(reading_at):
    # 07:00 is the time of reading; up to 08:00 (1 h of skew) is not late, 08:00:01 is
    times = ["2026-12-01T00:00:00Z", "2026-12-06T07:59:59Z", "2026-12-06T08:00:00Z",
             "2026-12-06T08:00:01Z", "2026-12-10T06:55:00Z"]
    ev = read_events(pd.DataFrame({"ts": times, "outcome": ["success"] * 5}))
    how = how_read(ev)
    assert how.rows_after_reading == 2
    assert how.reading_time == AT
    assert how.notes[-1] == (
        "2 rows are after the time of reading (2026-12-06 07:00 UTC, 1 h of clock skew "
        "allowed), up to 2026-12-10 06:55 UTC: check the clock that stamped the log, and for "
        "times written without a UTC offset the time zone (tz=)")
    assert str(how).splitlines()[-1] == f"  note: {how.notes[-1]}"
    assert how.as_dict()["rows_after_reading"] == 2


def test_a_log_within_the_skew_says_nothing(reading_at):
    ev = read_events(pd.DataFrame({"ts": ["2026-12-06T08:00:00Z"], "outcome": ["success"]}))
    how = how_read(ev)
    assert (how.rows_after_reading, how.reading_time, how.notes) == (0, None, ())


def test_a_year_given_is_the_likely_fix(reading_at):
    ev = read_events(SSH, preset="sshd", year=2026)
    how = how_read(ev)
    assert how.rows_after_reading == 66  # every event of the README's hand count
    assert how.notes[-1].endswith("up to 2026-12-10 10:55 UTC: check year=")
    assert how.notes[-1].startswith("66 rows are after the time of reading (2026-12-06 07:00 "
                                    "UTC, 1 h of clock skew allowed)")
    # the year before: nothing after the time of reading
    assert how_read(read_events(SSH, preset="sshd", year=2025)).rows_after_reading == 0


def test_a_time_of_reading_that_is_no_instant_is_refused(monkeypatch):
    monkeypatch.setenv("BUDGETLAB_READING_TIME", "tomorrow-ish")
    with pytest.raises(ConfigError, match="BUDGETLAB_READING_TIME='tomorrow-ish' is not an "
                                          "ISO-8601 instant"):
        read_events(pd.DataFrame({"ts": ["2026-12-06T08:00:00Z"], "outcome": ["success"]}))


def test_a_naive_time_of_reading_is_utc(monkeypatch):
    monkeypatch.setenv("BUDGETLAB_READING_TIME", "2026-12-06 07:00")
    ev = read_events(pd.DataFrame({"ts": ["2026-12-06T08:00:01Z"], "outcome": ["success"]}))
    assert how_read(ev).reading_time == AT


def test_the_command_line_note_says_when_tz_applies(reading_at, tmp_path, capsys):
    """A log whose times carry an offset (``Z``) is read whatever ``--tz`` says: the note names
    ``--tz`` only for times written without one (it said "check the time zone (--tz) or the
    clock" for every log)."""
    from budgetlab.cli import main

    path = tmp_path / "late.csv"
    path.write_text("ts,outcome\n2026-12-01T00:00:00Z,success\n2027-06-01T00:00:00Z,success\n")
    assert main(["replay", str(path), "--target", "0.95", "--window", "1h"]) == 0
    err = " ".join(capsys.readouterr().err.split())
    assert ("note: 1 row is after the time of reading (2026-12-06 07:00 UTC, 1 h of clock skew "
            "allowed), up to 2027-06-01 00:00 UTC: check the clock that stamped the log, and for "
            "times written without a UTC offset the time zone (--tz)") in err
