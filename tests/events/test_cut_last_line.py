"""A file's last line without its line end that is not a whole line of the access format (cut
inside the user agent's quotes: the file may be half-written) is refused, as a CSV whose last row
is cut is refused (tests/events: "the last line has no line end: the file may be half-written");
``on_error="skip"`` skips it as a line not in the format. A whole last line without a line end is
an ordinary line: a file may simply lack its final newline.

Before cli55 the cut line still matched the access pattern (its time and status come first) and
was counted as an event. The lines are the first four of the Elastic sample log (all GET 200, at
10:05:03, 10:05:43, 10:05:47 and 10:05:12 on 2015-05-17, read by eye), the fourth cut before
"Chrome" in its user agent; the expected counts and messages are written by hand."""

from __future__ import annotations

import gzip
import warnings
from pathlib import Path

import pytest

from budgetlab import FileFormatError, ReadSpec, read_access_log, read_events
from budgetlab.cli import main

FIXTURE = Path(__file__).parents[1] / "fixtures" / "elastic_apache" / "apache_logs"
FOUR = FIXTURE.read_text(encoding="utf-8").splitlines()[:4]
CUT = FOUR[3][:FOUR[3].index("Chrome")]  # inside the user agent: its quote never closed
REFUSED = ("{name}: line 4 is not a whole line in common/combined log format (a quoted field is "
           "never closed); the last line has no line end: the file may be half-written. Read it "
           "once it is whole, or {fix}.")
API_FIX = "pass on_error='skip' to drop it"
CLI_FIX = "pass --on-error skip to drop it (with a warning)"


def _write(tmp_path: Path, last: str, name: str = "access.log") -> Path:
    path = tmp_path / name
    text = "\n".join([*FOUR[:3], last]).encode()  # no line end after the last line
    path.write_bytes(gzip.compress(text) if name.endswith(".gz") else text)
    return path


@pytest.mark.parametrize("name", ["access.log", "access.log.gz"])
def test_a_last_line_cut_inside_the_user_agent_is_refused(tmp_path, name):
    path = _write(tmp_path, CUT, name)
    with pytest.raises(FileFormatError) as caught:
        read_access_log(path)
    assert str(caught.value) == REFUSED.format(name=name, fix=API_FIX)
    # the line reader with the access preset, every line counted (on_error="count"): refused too
    with pytest.raises(FileFormatError) as caught:
        read_events(path, ReadSpec(preset="access"))
    assert str(caught.value) == REFUSED.format(name=name, fix=API_FIX)


def test_the_command_line_names_its_flag(tmp_path, capsys):
    path = _write(tmp_path, CUT)
    for preset in ([], ["--preset", "access"]):
        assert main(["replay", str(path), *preset]) == 2
        err = capsys.readouterr().err.splitlines()
        assert err[-1] == "budgetlab: error: " + REFUSED.format(name="access.log", fix=CLI_FIX)


def test_skip_drops_the_cut_line_with_the_others_not_in_the_format(tmp_path):
    path = _write(tmp_path, CUT)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        events = read_access_log(path, on_error="skip")
    assert [str(w.message) for w in caught] == [
        "access.log: skipped 1 line not in common/combined log format (line 4)."]
    assert events["ts"].dt.strftime("%H:%M:%S").tolist() == ["10:05:03", "10:05:43", "10:05:47"]
    assert events.attrs["skipped_lines"] == 1


@pytest.mark.parametrize("last", [
    FOUR[3],  # whole, only its final newline missing
    FOUR[3][:FOUR[3].index(" 7697") + 3],  # cut inside the size: a whole line still, "200 76"
], ids=["whole", "cut-in-the-size"])
def test_a_whole_last_line_without_its_line_end_is_an_ordinary_line(tmp_path, last):
    path = _write(tmp_path, last)
    for events in (read_access_log(path), read_events(path, ReadSpec(preset="access"))):
        assert events["ts"].dt.strftime("%H:%M:%S").tolist() == [
            "10:05:03", "10:05:12", "10:05:43", "10:05:47"]
        assert events["ok"].tolist() == [True] * 4


def test_a_cut_line_inside_the_file_is_not_the_file_s_end(tmp_path):
    """Only the last line can be half-written: the same line followed by a line end (the Elastic
    log's line 8,899 has such an agent, its quote never closed) is an event as before."""
    path = tmp_path / "access.log"
    path.write_text("\n".join([*FOUR[:3], CUT, FOUR[3]]) + "\n", encoding="utf-8")
    assert len(read_access_log(path)) == 5
    path.write_text("\n".join([*FOUR[:3], CUT, FOUR[3]]), encoding="utf-8")  # whole last line
    assert len(read_access_log(path)) == 5
