"""A text log's refusals name the event by its file and line, as an editor counts lines: the
header comment, blank lines and lines the pattern does not match count (they were once skipped:
"row 2" named the second event, which sits on line 5). Every expected line is counted by hand."""

from __future__ import annotations

import pytest

from budgetlab import read_events
from budgetlab.cli import main
from budgetlab.errors import TimestampError

PATTERN = r"^(?P<ts>\S+ \S+) (?P<outcome>\w+) (?P<region>\w+)$"
# line 1: a header comment; 2: an event; 3: unmatched; 4: blank; 5: an event in the DST gap
APP = ("# app log, version 1\n2026-03-29 01:59:00 ok fra\nstarting worker\n\n"
       "2026-03-29 02:30:00 ok fra\n2026-03-29 03:10:00 failed ams\n")
# line 1: an event; 2: unmatched; 3: an event whose month is 13
BAD = "2026-03-29 01:00:00 ok fra\nnoise\n2026-13-29 01:00:00 ok fra\n"


def _logs(tmp_path):
    (tmp_path / "app.log").write_text(APP)
    (tmp_path / "b.log").write_text(BAD)
    return tmp_path / "app.log", tmp_path / "b.log"


def test_a_dst_gap_is_named_by_its_line(tmp_path):
    app, _ = _logs(tmp_path)
    with pytest.raises(TimestampError) as err:
        read_events(app, pattern=PATTERN, tz="Europe/Berlin")
    assert "nonexistent at line 5 of app.log: 2026-03-29 02:00-03:00 does not exist" in \
        str(err.value)


def test_a_time_off_the_format_is_named_by_its_line_in_its_file(tmp_path):
    app, b = _logs(tmp_path)
    # the second file's third line, after the first file's 3 events
    with pytest.raises(TimestampError, match=r"^the time at line 3 of b\.log does not match"):
        read_events([app, b], pattern=PATTERN, time_format="%Y-%m-%d %H:%M:%S")


def test_lines_skipped_as_not_in_the_format_still_count(tmp_path):
    # line 1: an event; 2: month 13, skipped (on_error="skip"); 3: blank; 4: in the DST gap
    log = tmp_path / "c.log"
    log.write_text("2026-03-29 01:00:00 ok fra\n2026-13-29 01:00:00 ok fra\n\n"
                   "2026-03-29 02:15:00 ok fra\n")
    with pytest.warns(UserWarning, match="skipped 1 line"), \
            pytest.raises(TimestampError, match="nonexistent at line 4 of c.log: "):
        read_events(log, pattern=PATTERN, time_format="%Y-%m-%d %H:%M:%S",
                    tz="Europe/Berlin", on_error="skip")


def test_the_cli_names_the_line_too(tmp_path, capsys):
    _, b = _logs(tmp_path)
    code = main(["replay", str(b), "--pattern", PATTERN, "--window", "1h"])
    assert code == 2
    assert "unparseable timestamp at line 3 of b.log;" in capsys.readouterr().err
