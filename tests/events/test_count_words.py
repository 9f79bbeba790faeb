"""A count in the readers' words takes its noun's number: ``1 row``, never ``1 rows``. Expected
texts are written by hand."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab import read_events
from budgetlab.errors import FileFormatError, InputError, OutcomeError, SchemaError
from budgetlab.events.files import file_notes

T0 = "2026-01-01T00:00:00Z"


def test_a_one_row_file_is_read_as_1_row(tmp_path):
    (tmp_path / "one.csv").write_text(f"ts,outcome\n{T0},success\n")
    text = str(read_events(tmp_path / "one.csv").attrs["how_read"])
    assert text.splitlines()[:2] == ["how it was read: one.csv (1 row)",
                                     "  rows: 1 read, 1 kept, 0 skipped"]


def test_one_slow_success_is_1_row():
    frame = pd.DataFrame({"ts": [T0, "2026-01-01T00:01:00Z"], "outcome": ["success", "success"],
                          "ms": [3000, 10]})
    how = read_events(frame, duration="ms", duration_unit="ms", slow_above="2s").attrs["how_read"]
    assert "  latency: successes slower than 2 s counted as failures in bucket 'slow': 1 row" \
        in str(how).splitlines()


def test_the_labels_past_the_40th_holding_one_row_are_1_row():
    # 40 labels of 2 rows each, then 'z' with 1 row: listed 41st, so summed in the last line
    labels = [f"l{k:02d}" for k in range(40) for _ in range(2)] + ["z"]
    frame = pd.DataFrame({"ts": [T0] * len(labels), "outcome": labels})
    how = read_events(frame, outcomes={u: "success" for u in set(labels)}).attrs["how_read"]
    assert str(how).splitlines()[-1] == "    ... 1 more label(s): 1 row"


def test_one_more_file_is_1_more_file():
    names = ["a.csv", "b.csv", "c.csv", "d.csv", "e.csv"]
    notes = [["x"], ["x"], ["x"], ["x"], []]
    assert file_notes(names, notes) == ["a.csv, b.csv, c.csv and 1 more file: x"]


def test_a_header_less_one_column_file_is_1_field(tmp_path):
    (tmp_path / "bare.csv").write_text(f"{T0}\n{T0}\n")
    with pytest.raises(SchemaError) as info:
        read_events(tmp_path / "bare.csv")
    assert "The first line looks like data, not column names (1 field; not shown): does the " \
        "file have a header row?" in str(info.value)


def test_one_row_that_is_no_boolean_is_the_one_row():
    with pytest.raises(OutcomeError) as info:
        read_events(pd.DataFrame({"ts": [T0], "ok": ["7"]}), ok="ok")
    assert str(info.value).startswith(
        "the one row of the success column is not a boolean (true/false or 1/0): this looks "
        "like a metric series.")


def test_one_bad_csv_row_is_data_row_2(tmp_path):
    (tmp_path / "bad.csv").write_text(f"ts,outcome\n{T0},success\n{T0},success,x\n{T0},success\n")
    with pytest.raises(FileFormatError) as info:
        read_events(tmp_path / "bad.csv")
    assert str(info.value) == (
        "bad.csv: 1 row(s) have a different number of fields than the header (data row 2, "
        "1-based); a field may hold an unquoted separator or quote. Fix or drop those rows.")


def test_one_group_key_with_an_invisible_character_is_1_row():
    frame = pd.DataFrame({"ts": [T0] * 2, "outcome": ["success"] * 2,
                          "region": ["fra", "fra\u200b"]})
    with pytest.raises(InputError) as info:
        read_events(frame, by="region")
    assert "control characters) at row 2 (1-based) (1 row); they would make groups" \
        in str(info.value)
