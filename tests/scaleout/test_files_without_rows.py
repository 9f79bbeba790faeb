"""Stop 59: one rule for files without rows, in both readers. A file without rows beside files
with rows is skipped, and said ("how it was read" notes ``b.parquet: no rows, skipped``; it is
not among the files read); input in which no file has a row is refused as ``FileFormatError``,
in the same words. Before, the pandas reader refused the whole folder for one empty file, and
the Dask reader read it silently and refused an empty file alone as ``InputError`` in other
words. Oracles: the rows written below (5 events, 1 failure, by hand) and each reader on the
files with rows alone."""

from __future__ import annotations

import pandas as pd
import pytest

import budgetlab as bl
import budgetlab.dask as bd
from budgetlab.cli import main
from budgetlab.errors import FileFormatError

pytestmark = pytest.mark.dask

READERS = [bl.read_events, lambda *a, **kw: bd.read_events(*a, **kw)]


def _write(path, times, outcomes):
    pd.DataFrame({"ts": pd.Series(times, dtype=str), "outcome": pd.Series(outcomes, dtype=str),
                  "region": pd.Series(["fra"] * len(times), dtype=str)}
                 ).to_parquet(path, index=False)
    return path


@pytest.fixture
def logs(tmp_path):
    folder = tmp_path / "logs"
    folder.mkdir()
    _write(folder / "a.parquet", ["2026-11-29T00:00:00Z", "2026-11-29T00:01:00Z",
                                  "2026-11-29T00:02:00Z"], ["success", "timeout", "success"])
    _write(folder / "b.parquet", [], [])  # a schema, no rows
    _write(folder / "c.parquet", ["2026-11-30T00:00:00Z", "2026-11-30T00:01:00Z"],
           ["success", "success"])
    return folder


def _events(read, source):
    got = read(source, by="region")
    how = bl.how_read(got)
    return (got.compute() if hasattr(got, "compute") else got).reset_index(drop=True), how


@pytest.mark.parametrize("read", READERS, ids=["pandas", "dask"])
def test_an_empty_file_in_a_folder_is_skipped_and_said(logs, read):
    events, how = _events(read, logs)
    alone, how_alone = _events(read, [logs / "a.parquet", logs / "c.parquet"])
    pd.testing.assert_frame_equal(events, alone)
    assert len(events) == 5 and int((~events["ok"]).sum()) == 1  # by hand: 3 + 2 rows, 1 timeout
    assert how.files == (("a.parquet", 3), ("c.parquet", 2)) == how_alone.files
    assert how.notes == ("b.parquet: no rows, skipped",)
    assert "  note: b.parquet: no rows, skipped" in str(how).splitlines()


@pytest.mark.parametrize("read", READERS, ids=["pandas", "dask"])
def test_input_without_any_row_is_refused_in_the_same_words(logs, read):
    with pytest.raises(FileFormatError,
                       match=r"^b\.parquet: has a schema but no rows; nothing to analyse\.$"):
        read(logs / "b.parquet")
    _write(logs / "d.parquet", [], [])
    with pytest.raises(FileFormatError, match=r"^2 files have no rows; nothing to analyse\.$"):
        read([logs / "b.parquet", logs / "d.parquet"])


def test_header_only_and_blank_files_among_csv_files_are_skipped(tmp_path):
    (tmp_path / "a.csv").write_text("ts,outcome\n2026-11-29T00:00:00Z,success\n"
                                    "2026-11-29T00:01:00Z,timeout\n")
    (tmp_path / "b.csv").write_text("ts,outcome\n")
    (tmp_path / "c.csv").write_text("")
    events = bl.read_events(tmp_path)
    assert len(events) == 2 and bl.how_read(events).files == (("a.csv", 2),)
    assert bl.how_read(events).notes == ("b.csv, c.csv: no rows, skipped",)
    with pytest.raises(FileFormatError, match=r"^c\.csv: the file is empty; give a file with a "
                                              r"header and rows\.$"):
        bl.read_events(tmp_path / "c.csv")


def test_the_command_line_reads_the_folder_and_says_so(logs, capsys):
    code = main(["buckets", str(logs), "--by", "region"])
    err = capsys.readouterr().err
    assert code in (0, None), err
    assert "note: b.parquet: no rows, skipped" in err
    assert "how it was read: 2 files: a.parquet, c.parquet (5 rows)" in err
