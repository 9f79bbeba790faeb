"""The ``sshd`` preset on the auth.log lines a stranger found it missing, and the share of unmatched
lines with blank lines in the file (stop 56).

The sample is real: ``tests/fixtures/elastic_auth/auth_300.log`` (elastic/examples, Apache 2.0;
provenance and the grep/awk hand counts in its README): 1 ``Accepted``, 57 ``Failed`` and 2
``message repeated N times: [ Failed ... ]`` lines (4 and 5 times), so 67 attempts, 66 failed;
the other 240 of its 300 lines are not events. The RFC 3339, pid-less and ``sshd-session``
variants are the same lines with only the stamp or the program tag rewritten (rsyslog's
``RSYSLOG_FileFormat`` stamp, ``2017-04-01T18:08:16.000000+02:00``; OpenSSH 9.8's per-session
``sshd-session``): their counts are the sample's, their instants its own shifted by the offset."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

import pandas as pd
import pytest

from budgetlab import how_read, read_events
from budgetlab.cli import main
from budgetlab.errors import ConfigError, TimestampError

AUTH = Path(__file__).parent.parent / "fixtures" / "elastic_auth" / "auth_300.log"
_STAMP = re.compile(r"^([A-Z][a-z]{2} [ 0-9][0-9] [0-9:]{8}) ", re.M)


def _rfc3339(text: str, offset: str = "+02:00") -> str:
    """The sample with each syslog stamp written as rsyslog's RFC 3339 one (year 2017)."""
    return _STAMP.sub(lambda m: datetime.strptime(f"2017 {m[1]}", "%Y %b %d %H:%M:%S")
                      .strftime("%Y-%m-%dT%H:%M:%S.000000") + offset + " ", text)


def test_message_repeated_lines_count_the_attempts_they_stand_for():
    ev = read_events(AUTH, preset="sshd", year=2017, by="host")
    assert len(ev) == 67 and int((~ev["ok"]).sum()) == 66  # 1 + 57 + (4 + 5)
    at = ev["ts"].value_counts()
    assert at[pd.Timestamp("2017-04-01T18:22:45Z")] == 4  # line 114: "repeated 4 times"
    assert at[pd.Timestamp("2017-04-01T22:52:21Z")] == 5  # line 169: "repeated 5 times"
    assert not ev.loc[ev["ts"] == pd.Timestamp("2017-04-01T18:22:45Z"), "ok"].any()
    how = how_read(ev)
    assert how.rows_read == 67 and how.files == (("auth_300.log", 67),)
    assert how.notes == (
        "auth_300.log: 240 of 300 lines (80.0 %) do not match the pattern and are not events",
        "auth_300.log: 2 lines 'message repeated N times: [ ... ]' read as 9 events, N each (the "
        "outcome it repeats, each at that line's time: rsyslog stamps it with the last repeat's)")


def test_skipping_the_other_lines_keeps_the_repeated_attempts():
    with pytest.warns(UserWarning, match="skipped 240 lines not in the format"):
        ev = read_events(AUTH, preset="sshd", year=2017, on_error="skip")
    how = how_read(ev)
    assert len(ev) == 67 and how.rows_kept == 67
    assert how.skipped == (("lines not in the format", 240),)
    assert how.rows_read == 307  # 300 lines, 2 of which stand for 9 events: 7 more rows


@pytest.mark.parametrize("rewrite", [
    lambda t: _rfc3339(t),  # modern Debian/Ubuntu rsyslog
    lambda t: _rfc3339(t).replace(" sshd[", " sshd-session["),  # OpenSSH 9.8 on
    lambda t: re.sub(r" sshd\[[0-9]+\]:", " sshd:", _rfc3339(t)),  # no pid
])
def test_rfc3339_stamps_are_instants_and_need_no_year(tmp_path, rewrite):
    log = tmp_path / "auth.log"
    log.write_text(rewrite(AUTH.read_text()))
    ev = read_events(log, preset="sshd")
    classic = read_events(AUTH, preset="sshd", year=2017)
    assert len(ev) == 67 and int((~ev["ok"]).sum()) == 66
    # the same wall times at +02:00: two hours earlier in UTC, line for line
    pd.testing.assert_series_equal(ev["ts"], classic["ts"] - pd.Timedelta(hours=2))
    assert how_read(ev).time_reading == "RFC 3339 text with UTC offsets (each line its own instant)"
    with pytest.raises(ConfigError, match=r"^the lines' times are RFC 3339 stamps, which carry "
                                          r"their year; leave year= out\.$"):
        read_events(log, preset="sshd", year=2017)


def test_syslog_lines_without_a_pid_or_from_sshd_session_are_read(tmp_path):
    for name, text in (("nopid.log", re.sub(r" sshd\[[0-9]+\]:", " sshd:", AUTH.read_text())),
                       ("session.log", AUTH.read_text().replace(" sshd[", " sshd-session["))):
        (tmp_path / name).write_text(text)
        ev = read_events(tmp_path / name, preset="sshd", year=2017)
        assert len(ev) == 67 and int(ev["ok"].sum()) == 1


def test_the_command_line_reads_an_rfc3339_auth_log_without_year(tmp_path, capsys):
    log = tmp_path / "auth.log"
    log.write_text(_rfc3339(AUTH.read_text(), "+00:00"))
    assert main(["replay", str(log), "--preset", "sshd", "--window", "1h"]) == 0
    out = capsys.readouterr()
    assert out.out.startswith("auth.log: 67 events, 2017-04-01 18:08 .. 2017-04-03 07:28 UTC")
    assert "RFC 3339 text with UTC offsets" in out.err


def test_a_read_of_both_stamp_styles_is_refused_naming_a_line_of_each(tmp_path):
    # lines 101-300 rewritten: the first event after them is line 105 (grep -n), the first of all 18
    lines = AUTH.read_text().splitlines(keepends=True)
    log = tmp_path / "auth.log"
    log.write_text("".join(lines[:100]) + _rfc3339("".join(lines[100:])))
    with pytest.raises(TimestampError) as info:
        read_events(log, preset="sshd", year=2017)
    assert str(info.value) == (
        "the time at line 105 of auth.log is an RFC 3339 stamp (with its year and UTC offset), "
        "that at line 18 of auth.log a syslog stamp (Dec 10 09:00:01, with neither); read the "
        "files of each style apart, the syslog ones with year=.")


def test_the_unmatched_share_says_how_many_blank_lines_it_left_out(tmp_path):
    # the stranger's file: 6 lines, 3 blank, 1 of the 3 others no event
    log = tmp_path / "app.log"
    log.write_text("2026-01-01T10:00:01Z ok\n\nstarting\n\n2026-01-01T10:00:02Z failed\n\n")
    ev = read_events(log, pattern=r"^(?P<ts>\S+) (?P<outcome>\w+)$")
    assert how_read(ev).notes == ("app.log: 1 of 3 non-blank lines (33.3 %; 3 blank lines left "
                                  "out) do not match the pattern and are not events",)
    # the real sample with a blank line after lines 100, 200 and 300: 240 of 300 non-blank
    lines = AUTH.read_text().splitlines(keepends=True)
    blanked = tmp_path / "auth.log"
    blanked.write_text("".join(line + ("\n" if n % 100 == 0 else "")
                               for n, line in enumerate(lines, 1)))
    notes = how_read(read_events(blanked, preset="sshd", year=2017)).notes
    assert notes[0] == ("auth.log: 240 of 300 non-blank lines (80.0 %; 3 blank lines left out) "
                        "do not match the pattern and are not events")
