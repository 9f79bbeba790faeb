"""JSON Lines whose lines end in CR (old Mac), wholly or in part, read as the lines they are:
the same events as the rows written by hand, and a bad line named by its number as an editor
counts it. (CR-only files: also tests/events/test_how_read_states.py, which checks the note.)"""

from __future__ import annotations

import json

import pytest

from budgetlab import how_read, read_events
from budgetlab.errors import FileFormatError

ROWS = [{"ts": f"2026-01-01T00:0{i}:00Z", "outcome": "success" if i % 3 else "timeout",
         "region": "fra" if i % 2 else "ams"} for i in range(6)]
LINES = [json.dumps(r) for r in ROWS]
CR_NOTE = "line endings: CR only (old Mac), read as line ends"


def _expect(events) -> None:
    # by hand: minutes 0..5, a timeout at 0 and 3, regions alternating from ams
    assert events["ts"].dt.minute.tolist() == [0, 1, 2, 3, 4, 5]
    assert events["ok"].tolist() == [False, True, True, False, True, True]
    assert events["region"].astype(str).tolist() == ["ams", "fra"] * 3


@pytest.mark.parametrize("data, cr_only", [
    (("\r".join(LINES) + "\r").encode(), True),
    (("\r".join(LINES)).encode(), True),  # no line end after the last line
    (("\n".join(LINES[:3]) + "\n" + LINES[3] + "\r" + LINES[4] + "\n" + LINES[5]).encode(), False),
    (("\r".join(LINES) + "\r").encode() + b" " * (1 << 20) + b"\n", False),  # an LF after 1 MiB
    (("\r\n".join(LINES) + "\r\n").encode(), False),
], ids=["cr", "cr-open-end", "cr-and-lf", "lf-late", "crlf"])
def test_lines_ending_in_cr_are_read_as_lines(tmp_path, data, cr_only):
    path = tmp_path / "log.jsonl"
    path.write_bytes(data)
    events = read_events(path, by="region")
    _expect(events)
    assert (CR_NOTE in how_read(events).notes) is cr_only
    assert path.read_bytes() == data  # the input is never modified


def test_a_bad_line_of_a_cr_only_file_is_named_by_its_number(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_bytes(("\r".join([*LINES[:3], "{not json", *LINES[3:]]) + "\r").encode())
    with pytest.raises(FileFormatError, match=r"not valid JSON Lines \(first bad line: 4\)"):
        read_events(path)
