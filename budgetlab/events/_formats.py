"""Reading an input file: format sniffing and opening, then only the declared columns of a
CSV/TSV (:mod:`._csv`), JSON Lines or Parquet file as a DataFrame of raw values.

Files are opened read-only and never modified. Every problem raises
:class:`~budgetlab.errors.FileFormatError` or :class:`~budgetlab.errors.SchemaError` with a
message that says what to fix and never contains a data value.
"""

from __future__ import annotations

import io
import json
import re
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._util.files import register_input
from .._util.validation import check_argument
from .._util.words import say
from ..errors import BudgetlabError, FileFormatError, SchemaError
from ._csv import plain_utf8, read_csv_text
from ._input import (
    COMPRESSED_SUFFIXES,
    CR_ONLY_NOTE,
    compression_of,
    cr_only,
    file_name,
    is_blank,
    read_input,
    refuse_wide,
    sniff,
    text_problem,
    utf8_family,
    utf16_encoding,
)
from ._messages import MAX_ROWS_LISTED, note_open_last_row, row_numbers
from .schema import check_header

__all__ = ["FORMATS", "read_columns", "check_scalars", "check_path"]


#: The file formats :func:`read_columns` reads (``format=`` values).
FORMATS = ("csv", "tsv", "parquet", "jsonl")


_SUFFIXES = {".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".parquet": "parquet", ".pq": "parquet",
             ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl"}


def _cr_only_as_lf(raw: bytes, encoding: str) -> bytes | None:
    """``raw`` with CR-only line ends as LF, or None when it has LF line ends (or none). Judged and
    converted on the decoded text when the encoding is not ASCII-compatible (UTF-16/32: a CR byte
    can be half of another character, e.g. U+010D)."""
    codec = utf16_encoding(raw) or encoding
    try:
        ascii_compatible = "\r\n".encode(codec) == b"\r\n"
    except (LookupError, UnicodeError):
        ascii_compatible = True
    if ascii_compatible:
        return raw.replace(b"\r", b"\n") if cr_only(raw[: 1 << 20]) and b"\n" not in raw else None
    try:
        text = raw.decode(codec)
    except (UnicodeDecodeError, LookupError):
        return None  # the reader names the encoding problem
    return text.replace("\r", "\n").encode(codec) if "\r" in text and "\n" not in text else None


def _detect_format(path: Path, fmt: str | None) -> tuple[str, bool]:
    suffixes = [s.lower() for s in path.suffixes]
    packed = bool(suffixes) and suffixes[-1] in COMPRESSED_SUFFIXES
    if fmt is not None:
        return check_argument("format", fmt, FORMATS), packed
    ext = (
        suffixes[-2]
        if packed and len(suffixes) > 1
        else (suffixes[-1] if suffixes and not packed else "")
    )
    if ext not in _SUFFIXES:
        shown = "".join(path.suffixes[-2:]) or "(no extension)"
        shown = shown if file_name(shown) == shown else "(not shown)"
        raise FileFormatError(
            f"{file_name(path)}: unsupported file type {shown!r}; use .csv, .tsv, .parquet, "
            ".jsonl/.ndjson "
            "(text formats optionally .gz), or pass "
            + say("format='csv'|'tsv'|'parquet'|'jsonl'; a line-oriented text log is read with "
                  "pattern= or preset=.",
                  "--format csv|tsv|parquet|jsonl; a line-oriented text log is read with --pattern "
                  "REGEX or "
                  "--preset NAME.")
        )
    return _SUFFIXES[ext], packed


def check_path(path: Path, *,
               how: str = "a folder of files: pass the folder itself, a glob such as 'logs/*.csv' "
               "or a list of files to read_events (CLI: budgetlab replay logs/)") -> None:
    """Refuse a path that is not a readable regular file, naming what it is instead (a missing
    file, a folder and how to pass one, a special file); file names pass the personal-data check."""
    name = file_name(path)
    if not path.exists():
        hint = " (its folder does not exist either)" if not path.parent.exists() else ""
        raise FileFormatError(f"{name}: no such file{hint}; check the path.")
    if path.is_dir():
        raise FileFormatError(f"{name}: is a directory, not a file; for {how}.")
    if not path.is_file():
        raise FileFormatError(f"{name}: is not a regular file (a pipe or a device); give a CSV, "
                              "Parquet or JSON "
                              "Lines file.")


def _read_jsonl(raw: bytes, name: str, columns: list[str], encoding: str) -> pd.DataFrame:
    if utf8_family(encoding):
        refuse_wide(raw, name)
    err = text_problem(raw, name, encoding)
    if err is not None:
        raise err
    text = raw.decode(encoding).lstrip("\ufeff")
    array = text.lstrip().startswith("[")
    if not array:
        fast = _arrow_jsonl(
            text.encode("utf-8") if not utf8_family(encoding) else raw.lstrip(b"\xef\xbb\xbf"),
            name,
            columns,
        )
        if fast is not None:
            if not text.rstrip(" \t").endswith(("\n", "\r")):
                note_open_last_row(len(fast) - 1)
            return fast
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if array:
                frame = pd.read_json(io.StringIO(text), orient="records", dtype=False)
            else:
                frame = pd.read_json(io.StringIO(text), lines=True, dtype=False)
    except (ValueError, TypeError, OverflowError, RecursionError, KeyError, AttributeError):
        if array:
            raise FileFormatError(f"{name}: not a valid JSON array of records; give one JSON "
                                  "object per line "
                                  "(JSON Lines) or an array of objects.") from None
        bad = []
        # only on the error path, to name the first bad lines
        for i, line in enumerate(text.splitlines(), 1):
            if line.strip():
                try:
                    obj = json.loads(line)
                except (ValueError, RecursionError):
                    obj = None
                if not isinstance(obj, dict):
                    bad.append(i)
                    if len(bad) >= MAX_ROWS_LISTED:
                        break
        where = (" (first bad lines: "
                 f"{', '.join(map(str, bad))})") if bad else " (a number out of range?)"
        raise FileFormatError(f"{name}: not valid JSON Lines{where}; give one JSON object per "
                              "line.") from None
    if not isinstance(frame, pd.DataFrame) or frame.empty:
        raise FileFormatError(f"{name}: no records; nothing to analyse.")
    check_header(list(frame.columns), columns, name)
    if not text.rstrip(" \t").endswith(("\n", "\r")) and not array:
        note_open_last_row(len(frame) - 1)
    return frame[columns]


def _arrow_jsonl(data: bytes, name: str, columns: list[str]) -> pd.DataFrame | None:
    """The common case fast: JSON Lines whose declared fields are all strings (Arrow's reader,
    no per-line Python). ``None`` when another type appears (pandas' reader takes over)."""
    import pyarrow as pa
    import pyarrow.json as pj

    schema = pa.schema([(c, pa.string()) for c in columns])
    try:
        table = pj.read_json(
            pa.BufferReader(data),
            parse_options=pj.ParseOptions(explicit_schema=schema,
                                          unexpected_field_behavior="ignore"),
        )
    except (pa.ArrowException, ValueError, OSError, MemoryError) as exc:
        twice = re.search(r"Column\(/(.*?)\) was specified twice", str(exc))
        if twice and twice.group(1) in columns:
            raise SchemaError(f"{name}: a record repeats the key {twice.group(1)!r}; each key once "
                              "per line.") from None
        return None
    if table.num_rows == 0 or any(table.column(c).null_count == table.num_rows for c in columns):
        return None  # absent keys: the careful reader names them
    return pd.DataFrame(table.to_pandas())


def _read_parquet(path: Path, columns: list[str], dict_columns: Sequence[str] = (),
                  notes: list[str] | None = None) -> pd.DataFrame:
    import pyarrow as pa
    import pyarrow.parquet as pq

    name = file_name(path)
    try:
        with pa.OSFile(str(path)) as fh:  # read-only
            schema = pq.ParquetFile(fh).schema_arrow
            header = list(schema.names)
            check_header(header, columns, name)
            # label and key columns come back as categoricals (cheap codes instead of strings)
            as_dict = [c for c in dict_columns if pa.types.is_string(schema.field(c).type)
                       or pa.types.is_large_string(schema.field(c).type)]
            fh.seek(0)
            table = _parquet_table(pq.ParquetFile(fh, read_dictionary=as_dict), columns)
            frame = _binary_as_text(table, name, notes).to_pandas(ignore_metadata=True)
    except (pa.ArrowException, OSError, ValueError, TypeError, KeyError, IndexError, EOFError,
            MemoryError, OverflowError, NotImplementedError) as exc:
        if isinstance(exc, BudgetlabError):
            raise
        if isinstance(exc, UnicodeError):
            raise FileFormatError(f"{name}: a text column of the Parquet file holds bytes that are "
                                  "not UTF-8; "
                                  "write it again with string (UTF-8) columns.") from None
        raise _not_parquet(path, name, exc) from None
    if len(frame) == 0:
        raise FileFormatError(f"{name}: has a schema but no rows; nothing to analyse.")
    return frame if isinstance(frame, pd.DataFrame) else pd.DataFrame(frame)


def _not_parquet(path: Path, name: str, exc: BaseException) -> FileFormatError:
    """Why a .parquet file does not read: another format under the name, or a damaged file."""
    head = _head(path)
    if head[:4] != b"PAR1":
        inner = compression_of(head)
        if inner is not None:
            return FileFormatError(f"{name}: is {inner}-compressed data, not Parquet; decompress "
                                   "it (Parquet "
                                   "compresses itself).")
        with open(path, "rb") as fh:
            text = fh.read(4096)
        try:
            sample = text.decode("utf-8")
        except UnicodeDecodeError as bad:
            sample = text[: bad.start].decode("utf-8") if bad.start > 64 else ""
        if sample.lstrip().startswith(("{", "[")):
            return FileFormatError(f"{name}: this .parquet file holds JSON text; rename it to "
                                   ".jsonl or pass "
                                   "--format jsonl (API: format='jsonl').")
        if (
            sample
            and ("," in sample or "\t" in sample)
            and ("\n" in sample or "\r" in sample or len(text) < 4096)
        ):
            return FileFormatError(f"{name}: this .parquet file holds CSV text; rename it to .csv "
                                   "or pass --format csv "
                                   "(API: format='csv').")
    return FileFormatError(f"{name}: not a readable Parquet file ({type(exc).__name__}); it may be "
                           "truncated or "
                           "corrupt: copy or export it again.")


def _binary_as_text(table: Any, name: str, notes: list[str] | None = None) -> Any:
    """Binary (bytes) columns as UTF-8 text, as CSV values are (stated in ``notes``); bytes that
    are not UTF-8 are refused by column (Arrow validates, no loop over rows)."""
    import pyarrow as pa

    for i, fld in enumerate(table.schema):
        if pa.types.is_binary(fld.type) or pa.types.is_large_binary(fld.type):
            try:
                table = table.set_column(i, fld.name, table.column(i).cast(pa.string()))
            except pa.ArrowInvalid:
                raise FileFormatError(f"{name}: column {fld.name!r} holds bytes that are not UTF-8 "
                                      "text; write it "
                                      "again as a string (UTF-8) column.") from None
            if notes is not None:
                notes.append(f"column {fld.name!r}: binary, decoded as UTF-8")
    return table


def _parquet_table(parquet: Any, columns: list[str]) -> Any:
    """The declared ``columns`` of a :class:`pyarrow.parquet.ParquetFile`, batch by batch."""
    import pyarrow as pa

    batches = list(parquet.iter_batches(columns=columns))
    if not batches:
        return parquet.read(columns=columns)
    return pa.Table.from_batches(batches)


def read_columns(path: Path, columns: list[str], fmt: str | None, encoding: str,
                 dict_columns: Sequence[str] = (), notes: list[str] | None = None,
                 iso_time: str | None = None) -> pd.DataFrame:
    """The declared ``columns`` of the file at ``path`` as read (``dict_columns`` as categoricals
    where the format allows: cheap codes instead of strings for labels and keys). Each reading
    decision (compression recognised, CR-only line ends, binary columns decoded as UTF-8) is
    appended to ``notes`` for the "how it was read" facts. A CSV/TSV ``iso_time`` column whose
    every value is ISO-8601 text with a zone comes as instants (``datetime64[ns, UTC]``), the
    frame marked with :data:`ISO_TIME`; otherwise as text."""
    path = path.expanduser()
    check_path(path)
    kind, packed = _detect_format(path, fmt)
    register_input(path)
    name = file_name(path)
    if kind == "parquet":
        if packed:
            raise FileFormatError(f"{name}: compressed Parquet (.gz, .xz, ...) is not supported; "
                                  "Parquet compresses "
                                  "itself: decompress it.")
        return _read_parquet(path, columns, dict_columns, notes)
    if kind in ("csv", "tsv") and plain_utf8(path, encoding, packed):
        return read_csv_text(path, name, kind, columns, dict_columns, iso_time)
    raw = read_input(path, name, notes)
    if packed and compression_of(_head(path)) is None:
        suffix = path.suffixes[-1].lower()
        kind_named = {".gz": "gzip", ".gzip": "gzip", ".bz2": "bz2", ".xz": "xz"}.get(
            suffix, suffix.lstrip(".")
        )
        raise FileFormatError(f"{name}: is named {suffix} but is not {kind_named} data; the "
                              f"{kind_named} stream is "
                              "truncated or corrupt, or the file is misnamed: rename or export it "
                              "again.")
    sniff(raw, name, kind)
    lf = _cr_only_as_lf(raw, encoding)  # old Mac line ends: read as the lines they are
    if lf is not None:
        raw = lf
        if notes is not None:
            notes.append(CR_ONLY_NOTE)
    if is_blank(raw):
        raise FileFormatError(f"{name}: the file is empty; give a file with a header and rows.")
    if kind == "jsonl":
        return _read_jsonl(raw, name, columns, encoding)
    if utf8_family(encoding):
        refuse_wide(raw, name)
    elif (err := text_problem(raw, name, encoding)) is not None:
        raise err
    else:
        raw = raw.decode(encoding).encode("utf-8")  # a byte-order mark is skipped by read_csv_text
    return read_csv_text(raw, name, kind, columns, dict_columns, iso_time)


def _head(path: Path) -> bytes:
    with open(path, "rb") as fh:  # read-only
        return fh.read(16)


def check_scalars(raw: pd.DataFrame, columns: Sequence[str]) -> None:
    """Refuse nested values (JSON objects/arrays, Parquet structs) in declared columns."""
    for col in columns:
        s = raw[col]
        if not pd.api.types.is_object_dtype(s.dtype):
            continue
        inferred = pd.api.types.infer_dtype(s, skipna=True)
        if inferred in ("mixed", "unknown-array"):
            nested = s.map(lambda v: isinstance(v, (dict, list, tuple, set,
                                                    np.ndarray))).to_numpy(dtype=bool)
            if nested.any():
                raise SchemaError(f"column {col!r} holds nested values (objects or lists) at "
                                  f"{row_numbers(nested)}; "
                                  "flatten it so each cell is one value.")
