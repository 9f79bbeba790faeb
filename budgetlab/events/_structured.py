"""Files that carry their own structure: JSON Lines (or a JSON array of records) and Parquet, their
declared columns as raw values; a problem is refused with what to fix, never with a data value.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pandas as pd

from .._util.words import say
from ..errors import BudgetlabError, FileFormatError, SchemaError
from ._messages import MAX_ROWS_LISTED, note_open_last_row, number_dtypes
from ._text import FileSpec, as_pandas, compression_of, utf8_family
from .schema import check_header

__all__ = ["read_jsonl", "read_parquet", "NO_RECORDS"]

#: Why a JSON file holds no row: no records (an empty array refused alone, as ``{}`` is).
NO_RECORDS = "no records; nothing to analyse."


def read_jsonl(raw: bytes, name: str, want: FileSpec) -> pd.DataFrame:
    """JSON Lines (or an array of records): Arrow's reader when every declared field is a string,
    else pandas'; the first bad lines are named."""
    columns = list(want.columns)
    text = raw.decode(want.encoding).lstrip("\ufeff")
    array = text.lstrip().startswith("[")
    frame: Any = None if array else _arrow_jsonl(
        raw.lstrip(b"\xef\xbb\xbf") if utf8_family(want.encoding) else text.encode("utf-8"),
        name, columns)
    try:
        if frame is None:  # no conversion of values (dtype) or of the column names (convert_axes:
            # names like dates were parsed, with a warning): nothing to silence
            frame = pd.read_json(io.StringIO(text), dtype=False, convert_axes=False,
                                 **({"orient": "records"} if array else {"lines": True}))
    except (ValueError, TypeError, OverflowError, RecursionError, KeyError, AttributeError):
        if array:
            raise FileFormatError(f"{name}: not a valid JSON array of records; give one JSON "
                                  "object per line (JSON Lines) or an array of objects.") from None
        bad = []  # only on the error path, to name the first bad lines
        for i, line in enumerate(text.splitlines(), 1):
            try:
                obj = json.loads(line) if line.strip() else {}
            except (ValueError, RecursionError):
                obj = None
            if not isinstance(obj, dict):
                bad.append(i)
                if len(bad) >= MAX_ROWS_LISTED:
                    break
        where = f" (first bad {'line' if len(bad) == 1 else 'lines'}: " \
            f"{', '.join(map(str, bad))})" if bad \
            else " (a number out of range?)"
        raise FileFormatError(f"{name}: not valid JSON Lines{where}; give one JSON object per "
                              "line.") from None
    if array and isinstance(frame, pd.DataFrame) and frame.shape == (0, 0) \
            and text.strip()[1:-1].strip() == "":
        # an empty array (``[]``): a file without rows, skipped beside files with rows and
        # refused alone (``read_files``), as an empty JSON Lines file is
        return pd.DataFrame({c: pd.Series(dtype=object) for c in columns})
    if not isinstance(frame, pd.DataFrame) or frame.empty:
        raise FileFormatError(f"{name}: {NO_RECORDS}")
    check_header(list(frame.columns), columns, name, numbers=lambda: number_dtypes(frame))
    if not array and not text.rstrip(" \t").endswith(("\n", "\r")):
        note_open_last_row(len(frame) - 1)
    return frame[columns]


def _arrow_jsonl(data: bytes, name: str, columns: list[str]) -> pd.DataFrame | None:
    """JSON Lines whose declared fields are all strings, fast; ``None`` when another type
    appears."""
    import pyarrow as pa
    import pyarrow.json as pj

    schema = pa.schema([(c, pa.string()) for c in columns])
    try:
        table = pj.read_json(pa.BufferReader(data), parse_options=pj.ParseOptions(
            explicit_schema=schema, unexpected_field_behavior="ignore"))
    except (pa.ArrowException, ValueError, OSError, MemoryError) as exc:
        twice = re.search(r"Column\(/(.*?)\) was specified twice", str(exc))
        if twice and twice.group(1) in columns:
            raise SchemaError(f"{name}: a record repeats the key {twice.group(1)!r}; each key once "
                              "per line.") from None
        return None
    if table.num_rows == 0 or any(table.column(c).null_count == table.num_rows for c in columns):
        return None  # absent keys: the careful reader names them
    return pd.DataFrame(table.to_pandas())


def read_parquet(path: Path, name: str, want: FileSpec) -> tuple[pd.DataFrame, list[str]]:
    """The declared columns of a Parquet file, batch by batch; string labels and keys as
    categoricals, binary columns decoded as UTF-8 text."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    columns = list(want.columns)
    try:
        with pa.OSFile(str(path)) as fh:  # read-only
            schema = pq.ParquetFile(fh).schema_arrow
            check_header(list(schema.names), columns, name, numbers=lambda: [
                f.name for f in schema if pa.types.is_integer(f.type)
                or pa.types.is_floating(f.type) or pa.types.is_decimal(f.type)])
            as_dict = [c for c in want.categorical if pa.types.is_string(schema.field(c).type)
                       or pa.types.is_large_string(schema.field(c).type)]
            fh.seek(0)
            parquet = pq.ParquetFile(fh, read_dictionary=as_dict)
            batches = list(parquet.iter_batches(columns=columns))
            table = pa.Table.from_batches(batches) if batches else parquet.read(columns=columns)
            table, notes = _binary_as_text(table, name)
            frame = as_pandas(table)
    except (pa.ArrowException, OSError, ValueError, TypeError, KeyError, IndexError, EOFError,
            MemoryError, OverflowError, NotImplementedError) as exc:
        if isinstance(exc, BudgetlabError):
            raise
        if isinstance(exc, UnicodeError):
            raise FileFormatError(f"{name}: a text column of the Parquet file holds bytes that are "
                                  "not UTF-8; write it again with string (UTF-8) columns."
                                  ) from None
        raise _not_parquet(path, name, exc) from None
    return frame, notes  # no rows: refused or skipped by the file layer (files.read_files)


def _binary_as_text(table: Any, name: str) -> tuple[Any, list[str]]:
    """Binary columns as UTF-8 text, as CSV values are, with a note each; other bytes refused."""
    import pyarrow as pa

    notes = []
    for i, fld in enumerate(table.schema):
        if pa.types.is_binary(fld.type) or pa.types.is_large_binary(fld.type):
            try:
                table = table.set_column(i, fld.name, table.column(i).cast(pa.string()))
            except pa.ArrowInvalid:
                raise FileFormatError(f"{name}: column {fld.name!r} holds bytes that are not UTF-8 "
                                      "text; write it again as a string (UTF-8) column.") from None
            notes.append(f"column {fld.name!r}: binary, decoded as UTF-8")
    return table, notes


def _not_parquet(path: Path, name: str, exc: BaseException) -> FileFormatError:
    """Why a .parquet file does not read: another format under the name, or a damaged file."""
    with open(path, "rb") as fh:  # read-only
        text = fh.read(4096)
    inner = compression_of(text[:16])
    if text[:4] != b"PAR1" and inner is not None:
        return FileFormatError(f"{name}: is {inner}-compressed data, not Parquet; decompress it "
                               "(Parquet compresses itself).")
    try:
        sample = text.decode("utf-8")
    except UnicodeDecodeError as bad:
        sample = text[: bad.start].decode("utf-8") if bad.start > 64 else ""
    if text[:4] != b"PAR1" and sample.lstrip().startswith(("{", "[")):
        return FileFormatError(f"{name}: this .parquet file holds JSON text; rename it to .jsonl "
                               "or pass " + say("format='jsonl'", "--format jsonl") + ".")
    if text[:4] != b"PAR1" and ("," in sample or "\t" in sample) \
            and ("\n" in sample or "\r" in sample or len(text) < 4096):
        return FileFormatError(f"{name}: this .parquet file holds CSV text; rename it to .csv or "
                               "pass " + say("format='csv'", "--format csv") + ".")
    return FileFormatError(f"{name}: not a readable Parquet file ({type(exc).__name__}); it may be "
                           "truncated or corrupt: copy or export it again.")
