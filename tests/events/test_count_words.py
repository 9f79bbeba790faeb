"""A count in the readers' words takes its noun's number: ``1 row``, never ``1 rows``. Expected
texts are written by hand."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab import how_read, read_events
from budgetlab.errors import (
    FileFormatError,
    InputError,
    OutcomeError,
    SchemaError,
    TimestampError,
)
from budgetlab.events import ReadSpec
from budgetlab.events.files import file_notes

T0 = "2026-01-01T00:00:00Z"


def test_a_one_row_file_is_read_as_1_row(tmp_path):
    (tmp_path / "one.csv").write_text(f"ts,outcome\n{T0},success\n")
    text = str(how_read(read_events(tmp_path / "one.csv")))
    assert text.splitlines()[:2] == ["how it was read: one.csv (1 row)",
                                     "  rows: 1 read, 1 kept, 0 skipped"]


def test_one_slow_success_is_1_row():
    frame = pd.DataFrame({"ts": [T0, "2026-01-01T00:01:00Z"], "outcome": ["success", "success"],
                          "ms": [3000, 10]})
    how = how_read(read_events(frame, duration="ms", duration_unit="ms", slow_above="2s"))
    assert "  latency: successes slower than 2 s counted as failures in bucket 'slow': 1 row" \
        in str(how).splitlines()


def test_the_labels_past_the_40th_holding_one_row_are_1_row():
    # 40 labels of 2 rows each, then 'z' with 1 row: listed 41st, so summed in the last line
    labels = [f"l{k:02d}" for k in range(40) for _ in range(2)] + ["z"]
    frame = pd.DataFrame({"ts": [T0] * len(labels), "outcome": labels})
    how = how_read(read_events(frame, outcomes={u: "success" for u in set(labels)}))
    assert str(how).splitlines()[-1] == "    ... 1 more label: 1 row"


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
        "bad.csv: 1 row has a different number of fields than the header (data row 2, "
        "1-based); a field may hold an unquoted separator or quote. Fix or drop those rows.")


def test_one_group_key_with_an_invisible_character_is_1_row():
    frame = pd.DataFrame({"ts": [T0] * 2, "outcome": ["success"] * 2,
                          "region": ["fra", "fra\u200b"]})
    with pytest.raises(InputError) as info:
        read_events(frame, by="region")
    assert "control characters) at row 2 (1-based) (1 row); they would make groups" \
        in str(info.value)


def _frame(n: int, **columns: list) -> pd.DataFrame:
    return pd.DataFrame({"ts": pd.date_range("2026-01-01", periods=n, freq="h", tz="UTC"),
                         **columns})


@pytest.mark.parametrize(("times", "message"), [
    ([T0, "x1"], "unparseable timestamp at row 2 (1-based); use ISO-8601 like "
                 "2026-11-29T03:47:00Z or 2026-11-29 04:47:00+01:00."),
    ([T0, "x1", "x2"], "unparseable timestamps at rows 2, 3 (1-based); use ISO-8601 like "
                       "2026-11-29T03:47:00Z or 2026-11-29 04:47:00+01:00."),
])
def test_unparseable_timestamps_take_the_number_of_their_rows(times, message):
    with pytest.raises(TimestampError) as info:
        read_events(pd.DataFrame({"ts": times, "outcome": ["success"] * len(times)}))
    assert str(info.value) == message


@pytest.mark.parametrize(("seconds", "message"), [
    ([1.78e9, 5.0], "with epoch='s' (seconds) 1 timestamp falls before 2000 or after 2100, at "
                    "row 2 (1-based); check the time column."),
    ([1.78e9, 5.0, 6.0], "with epoch='s' (seconds) 2 timestamps fall before 2000 or after 2100, "
                         "at rows 2, 3 (1-based); check the time column."),
])
def test_epoch_times_out_of_range_take_the_number_of_their_count(seconds, message):
    with pytest.raises(TimestampError) as info:
        read_events(pd.DataFrame({"ts": seconds, "outcome": ["success"] * len(seconds)}),
                    epoch="s")
    assert str(info.value) == message


@pytest.mark.parametrize(("ms", "message"), [
    ([1.0, -2.0, 3.0], "negative duration at row 2 (1-based); check the duration column."),
    ([1.0, -2.0, -3.0], "negative durations at rows 2, 3 (1-based); check the duration column."),
])
def test_negative_durations_take_the_number_of_their_rows(ms, message):
    with pytest.raises(InputError) as info:
        read_events(_frame(3, outcome=["success"] * 3, d=ms), duration="d", duration_unit="ms")
    assert str(info.value) == message


def test_unexpected_keywords_take_the_number_of_their_count():
    with pytest.raises(TypeError) as one:
        ReadSpec().replace(colour=1)
    assert str(one.value) == "read_events() got unexpected keyword argument 'colour'"
    with pytest.raises(TypeError) as two:
        ReadSpec().replace(colour=1, size=2)
    assert str(two.value) == "read_events() got unexpected keyword arguments 'colour', 'size'"
