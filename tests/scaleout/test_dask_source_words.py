"""Stop 57: the Dask reader's messages name what the user gave, in the right number (a list of
two files is "2 files", not "2 Parquet paths"); a glob of text files is refused as a CSV file
is, and a folder in a list (which Dask cannot read: IsADirectoryError) is refused with the glob
that reads its files. Oracle: the paths each test writes."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab.dask import read_events
from budgetlab.errors import FileFormatError, InputError, SchemaError


def _parquet(path, rows=2):
    pd.DataFrame({"ts": [f"2026-11-29T0{i}:00:00Z" for i in range(rows)],
                  "outcome": ["success"] * rows}).to_parquet(path)
    return path


def test_a_list_of_files_is_counted_as_files(tmp_path):
    a, b = _parquet(tmp_path / "a.parquet"), _parquet(tmp_path / "b.parquet")
    with pytest.raises(SchemaError, match=r"^2 files have no column 'region'\. "):
        read_events([a, b], by="region")
    (tmp_path / "more").mkdir()
    _parquet(tmp_path / "more" / "c.parquet")
    with pytest.raises(SchemaError, match=r"^2 files and 1 glob have no column 'region'\. "):
        read_events([a, b, str(tmp_path / "more" / "*.parquet")], by="region")
    # one path in a list is named by its name, as before
    with pytest.raises(SchemaError, match=r"^a\.parquet has no column 'region'\. "):
        read_events([a], by="region")


def test_files_without_rows_have_no_rows(tmp_path):
    a, b = _parquet(tmp_path / "a.parquet", 0), _parquet(tmp_path / "b.parquet", 0)
    with pytest.raises(InputError, match=r"^2 files have no rows; nothing to analyse\.$"):
        read_events([a, b])


@pytest.mark.parametrize("given", [["*.csv"], ["*.csv", "a.parquet"], ["logs/*.csv.gz"]])
def test_a_glob_of_csv_files_is_refused_as_a_csv_file_is(tmp_path, monkeypatch, given):
    monkeypatch.chdir(tmp_path)
    _parquet(tmp_path / "a.parquet")
    (tmp_path / "logs").mkdir()
    for name in ("b.csv", "logs/c.csv.gz"):
        (tmp_path / name).write_text("ts,outcome\n2026-11-29T00:00:00Z,success\n")
    shown = given[0].rsplit("/", 1)[-1]
    with pytest.raises(FileFormatError, match=rf"^\{shown}: budgetlab\.dask\.read_events reads "
                                              r"Parquet .*dask\.dataframe\.read_csv\(\.\.\., "
                                              r"dtype=str\) and pass it\.$"):
        read_events(given)


def test_a_folder_in_a_list_is_refused_with_the_glob_of_its_files(tmp_path):
    (tmp_path / "day1").mkdir()
    _parquet(tmp_path / "day1" / "part.parquet")
    a = _parquet(tmp_path / "a.parquet")
    with pytest.raises(InputError, match=r"^day1 is a folder in a list of 2 paths; Dask reads "
                                         r"one folder, or a list of files and globs: give "
                                         r"'day1/\*\.parquet' in the list for its files\.$"):
        read_events([a, tmp_path / "day1"])
    # the glob it names reads the folder's files beside the file: 2 + 2 rows
    ev = read_events([a, str(tmp_path / "day1" / "*.parquet")]).compute()
    assert len(ev) == 4
