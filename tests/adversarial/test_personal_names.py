"""Review of issue 15: file names the user gives are repeated in the report only when they pass
the personal-data guard; the files are still read and written."""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

import budgetlab.dask as bdask
from budgetlab.cli import main
from budgetlab.errors import FileFormatError
from tests.adversarial.harness import Case, run_case

LOG = "ts,outcome\n" + "".join(
    f"2026-11-29T00:{m:02d}:00Z,{'timeout' if m % 4 == 0 else 'success'}\n" for m in range(40)
)


def test_personal_input_and_output_names_are_not_repeated(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "иван@почта.рф.csv").write_text(LOG)
    assert main(["replay", "иван@почта.рф.csv", "--target", "0.9", "--window", "10min",
                 "--out", "ivan@mail.ru.csv", "--plot", "+7 (495) 123-45-67.png"]) == 0
    out, err = capsys.readouterr()
    for secret in ("иван", "ivan@mail.ru", "123-45-67"):
        assert secret not in out and secret not in err
    assert (tmp_path / "ivan@mail.ru.csv").exists() and (tmp_path / "+7 (495) "
                                                                    "123-45-67.png").exists()
    record = json.loads((tmp_path / "ivan@mail.ru.csv.run.json").read_text())
    text = json.dumps(record, ensure_ascii=False)
    for secret in ("иван", "ivan@mail.ru", "123-45-67"):
        assert secret not in text


# budgetlab.dask.read_events shows a file's name as the pandas reader does: hidden when personal
EMAIL = "ivan.petrov@example.org"
HIDDEN = "a file whose name looks like personal data (not shown)"


def _parquet(frame: pd.DataFrame) -> bytes:
    buffer = io.BytesIO()
    frame.to_parquet(buffer, index=False)
    return buffer.getvalue()


def _dask_read(name: str) -> Callable[[Path], Any]:
    return lambda d: bdask.read_events(d / name)


DASK_CASES = [
    Case("dask-personal-csv", files={f"{EMAIL}.csv": LOG.encode()},
         needles=(f"{HIDDEN}: budgetlab.dask.read_events reads Parquet (a file, a folder or a "
                  "glob); for CSV or JSON build the frame with dask.dataframe.read_csv(..., "
                  "dtype=str) and pass it.",),
         api=_dask_read(f"{EMAIL}.csv"), api_error=FileFormatError, forbidden=(EMAIL, "petrov")),
    Case("dask-personal-not-parquet", files={f"{EMAIL}.parquet": b"not parquet at all\n"},
         needles=(f"{HIDDEN}: no readable Parquet data (",),
         api=_dask_read(f"{EMAIL}.parquet"), api_error=FileFormatError,
         forbidden=(EMAIL, "petrov")),
    Case("dask-personal-no-rows",
         files={f"{EMAIL}.parquet": _parquet(pd.DataFrame({"ts": pd.Series(dtype=str),
                                                            "outcome": pd.Series(dtype=str)}))},
         needles=(f"{HIDDEN}: has a schema but no rows; nothing to analyse.",),
         api=_dask_read(f"{EMAIL}.parquet"), api_error=FileFormatError,
         forbidden=(EMAIL, "petrov")),
]


@pytest.mark.parametrize("case", DASK_CASES, ids=str)
def test_dask_reader_hides_a_personal_file_name(case, tmp_path, capsys, monkeypatch):
    run_case(case, tmp_path, capsys, monkeypatch)


def test_dask_reading_record_hides_a_personal_file_name(tmp_path):
    """The reading record names the file as the pandas reader's does; the 40 rows of LOG are
    counted by hand (minutes 0..39)."""
    path = tmp_path / f"{EMAIL}.parquet"
    path.write_bytes(_parquet(pd.read_csv(io.StringIO(LOG), dtype=str)))
    how = bdask.read_events(path).attrs["how_read"]  # as plain values
    assert how["files"] == [{"name": HIDDEN, "rows": 40}]
    record = json.dumps(how, ensure_ascii=False)
    assert EMAIL not in record and "petrov" not in record
