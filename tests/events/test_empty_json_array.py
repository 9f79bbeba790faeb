"""Stop 60: a JSON file holding an empty array (``[]``) is a file without rows, as an empty JSON
Lines file is: beside files with rows it is skipped and said ("how it was read" notes
``e.json: no rows, skipped``), alone (or with other files without rows) refused as
``FileFormatError``. Before, it was refused as "no records" wherever it stood. (The Dask reader
reads Parquet and refuses a ``.json`` path in its own words.) Oracle: the rows written below."""

from __future__ import annotations

import json

import pytest

import budgetlab as bl
from budgetlab.errors import FileFormatError

ROWS = [{"ts": "2026-11-29T01:00:00Z", "outcome": "success"},
        {"ts": "2026-11-29T02:00:00Z", "outcome": "timeout"}]


@pytest.fixture
def logs(tmp_path):
    (tmp_path / "a.jsonl").write_text("".join(json.dumps(r) + "\n" for r in ROWS))
    (tmp_path / "e.json").write_text("[]")
    (tmp_path / "f.json").write_text("[ ]\n")
    return tmp_path


def test_an_empty_array_beside_a_file_with_rows_is_skipped_and_said(logs):
    ev = bl.read_events([logs / "a.jsonl", logs / "e.json"])
    how = bl.how_read(ev)
    assert len(ev) == 2 and int((~ev["ok"]).sum()) == 1  # by hand: 2 rows, 1 timeout
    assert how.files == (("a.jsonl", 2),)
    assert how.notes == ("e.json: no rows, skipped",)


def test_input_of_empty_arrays_is_refused(logs):
    with pytest.raises(FileFormatError, match=r"^e\.json: no records; nothing to analyse\.$"):
        bl.read_events(logs / "e.json")
    with pytest.raises(FileFormatError, match=r"^2 files have no rows; nothing to analyse\.$"):
        bl.read_events([logs / "e.json", logs / "f.json"])
