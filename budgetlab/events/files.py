"""Reading input files: many files as one input (a list, a glob, a folder), each one's format
(by name, or ``format=``), and the declared columns of each as a DataFrame of raw values: CSV/TSV
through :mod:`._text`, JSON Lines and Parquet here. Files are opened read-only and never modified;
every problem raises :class:`~budgetlab.errors.FileFormatError` or
:class:`~budgetlab.errors.SchemaError` with a message that says what to fix and never holds a
data value.
"""

from __future__ import annotations

import glob
import io
import json
import re
import warnings
from collections.abc import Sequence
from dataclasses import replace
from os import PathLike
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._util.files import register_input
from .._util.progress import progress
from .._util.validation import check_argument
from .._util.words import say
from ..errors import BudgetlabError, FileFormatError, InputError, SchemaError
from ._messages import (
    MAX_ROWS_LISTED,
    check_header,
    file_offset,
    note_open_last_row,
    reading_files,
    row_numbers,
)
from ._text import (
    CR_ONLY_NOTE,
    ISO_TIME,
    PROGRESS_BYTES,
    FileSpec,
    as_lf,
    compression_of,
    is_blank,
    plain_utf8,
    read_csv_text,
    read_input,
    refuse_wide,
    sniff,
    text_problem,
    utf8_family,
)

__all__ = ["FORMATS", "ISO_TIME", "FileSpec", "check_path", "check_scalars", "expand_sources",
           "file_name", "file_notes", "is_path_like", "read_file", "read_files"]

#: The file formats read (``format=`` values).
FORMATS = ("csv", "tsv", "parquet", "jsonl")

_SUFFIXES = {".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".parquet": "parquet", ".pq": "parquet",
             ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl"}
_PACKED = {".gz": "gzip", ".gzip": "gzip", ".bz2": "bz2", ".xz": "xz", ".zst": "zstd",
           ".zstd": "zstd", ".lz4": "lz4"}  # compressed names (the format is the suffix before)


def file_name(path: str | PathLike[str]) -> str:
    """A file's name for a message: as given, unless it looks like personal data (then not shown).

    >>> file_name("logs/day1.csv"), file_name("ivan.petrov@mail.ru.csv")
    ('day1.csv', 'a file whose name looks like personal data (not shown)')
    """
    from ..privacy import looks_personal

    name = Path(path).name or str(path)
    return "a file whose name looks like personal data (not shown)" if looks_personal(name) \
        else name


# ------------------------------------------------------------------------------------------
# many files as one input
# ------------------------------------------------------------------------------------------
def is_path_like(source: Any) -> bool:
    """A path, or a non-empty list or tuple of paths."""
    if isinstance(source, (str, PathLike)):
        return True
    return isinstance(source, (list, tuple)) and len(source) > 0 and \
        all(isinstance(p, (str, PathLike)) for p in source)


def _one(source: str | PathLike[str]) -> list[Path]:
    path, text = Path(source).expanduser(), str(source)
    if not path.exists() and any(ch in text for ch in "*?["):
        found = sorted(Path(p) for p in glob.glob(str(Path(text).expanduser()))
                       if Path(p).is_file())
        if not found:
            raise FileFormatError(f"{file_name(path)}: the pattern matches no file; check the "
                                  "folder and the pattern.")
        return found
    if path.is_dir():
        found = sorted(p for p in path.iterdir()
                       if p.is_file() and not p.name.startswith((".", "_", "~")))
        if not found:
            raise FileFormatError(f"{file_name(path)}: is a directory that holds no file to read; "
                                  "give a file or a folder of files.")
        return found
    return [path]


def expand_sources(source: str | PathLike[str] | Sequence[str | PathLike[str]]) -> list[Path]:
    """The files of ``source``: one path, a glob (``logs/*.csv``, files sorted by name), a folder
    (its files sorted by name; names starting with ``.``, ``_`` or ``~`` are skipped, like
    ``_SUCCESS`` markers) or a list of any of these (in the order given). A file named twice is
    refused.

    >>> import pathlib, tempfile
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> for name in ("b.csv", "a.csv", "_SUCCESS"):
    ...     _ = (d / name).write_text("x")
    >>> [p.name for p in expand_sources(d)], [p.name for p in expand_sources(d / "*.csv")]
    (['a.csv', 'b.csv'], ['a.csv', 'b.csv'])
    """
    paths: list[Path] = []
    for item in [source] if isinstance(source, (str, PathLike)) else list(source):
        if not isinstance(item, (str, PathLike)):
            raise InputError("source must be file paths, a glob or a folder, got "
                             f"{type(item).__name__} in the list.")
        paths.extend(_one(item))
    if not paths:
        raise InputError("source is an empty list; give at least one file.")
    seen: set[Path] = set()
    for p in paths:
        key = p.resolve() if p.exists() else p
        if key in seen:
            raise InputError(f"{file_name(p)} is given twice; give each file once.")
        seen.add(key)
    return paths


def file_notes(names: Sequence[str], per_file: Sequence[Sequence[str]]) -> list[str]:
    """The reading statements of several files as one list: a file's own statements as they are
    when it is the only file; else each statement once, prefixed by the files it concerns.

    >>> file_notes(["a.csv", "b.csv", "c.csv"], [["x"], ["x", "y"], ["x"]])
    ['every file: x', 'b.csv: y']
    """
    if len(names) == 1:
        return list(per_file[0])
    which: dict[str, list[str]] = {}
    for name, notes in zip(names, per_file, strict=True):
        for note in dict.fromkeys(notes):
            which.setdefault(note, []).append(name)
    more = lambda files: f" and {len(files) - 3} more files" if len(files) > 3 else ""  # noqa: E731
    return [f"{'every file' if len(files) == len(names) else ', '.join(files[:3]) + more(files)}: "
            f"{note}" for note, files in which.items()]


def _kind(dtype: Any) -> str:
    if isinstance(dtype, pd.CategoricalDtype):
        dtype = dtype.categories.dtype
    if pd.api.types.is_bool_dtype(dtype):
        return "true/false values"
    if isinstance(dtype, pd.DatetimeTZDtype) or pd.api.types.is_datetime64_dtype(dtype):
        return "datetimes"
    return "numbers" if pd.api.types.is_numeric_dtype(dtype) else "text"


def _large(paths: Sequence[Path]) -> bool:
    """Several files that together hold at least :data:`PROGRESS_BYTES` (a bar is worth showing)."""
    return len(paths) > 1 and sum(p.stat().st_size for p in paths if p.is_file()) >= PROGRESS_BYTES


def read_files(paths: Sequence[Path], want: FileSpec,
               ) -> tuple[pd.DataFrame, list[tuple[str, int]], list[str]]:
    """The declared columns of every file, one after the other (file order, then row order),
    ``(file name, rows)`` per file, and how they were read (see :func:`file_notes`). Every file
    must have the declared columns with the same kind of values (text, numbers, datetimes,
    true/false) as the first. The table is marked with :data:`ISO_TIME` only when every file's
    time column came as instants (when some did and some did not, every file is read again with
    its time as text, as it was written)."""
    frames: list[pd.DataFrame] = []
    per_file: list[list[str]] = []
    for path in progress(paths, desc=f"reading {len(paths)} files") if _large(paths) else paths:
        with file_offset(sum(map(len, frames))):
            frame, notes = read_file(path, want)
        if frames and want.iso_time is not None \
                and bool(frame.attrs.get(ISO_TIME)) != bool(frames[0].attrs.get(ISO_TIME)):
            return read_files(paths, replace(want, iso_time=None))  # one form for all: text
        for col in want.columns if frames else ():
            first, this = _kind(frames[0][col].dtype), _kind(frame[col].dtype)
            if first != this:
                raise SchemaError(f"column {col!r} holds {first} in {file_name(paths[0])} but "
                                  f"{this} in {file_name(path)}; every file must have one schema: "
                                  "export them the same way.")
        frames.append(frame.reset_index(drop=True))
        per_file.append(notes)
    files = [(file_name(p), len(f)) for p, f in zip(paths, frames, strict=True)]
    notes = file_notes([n for n, _ in files], per_file)
    if len(frames) == 1:
        return frames[0], files, notes
    reading_files([n for n, _ in files], [r for _, r in files])
    cats = [c for c in want.columns if any(isinstance(f[c].dtype, pd.CategoricalDtype)
                                           for f in frames)]
    raw = pd.concat([f.astype({c: f[c].cat.categories.dtype for c in cats
                               if isinstance(f[c].dtype, pd.CategoricalDtype)})
                     for f in frames], ignore_index=True)
    raw = raw.astype({c: "category" for c in cats})
    raw.attrs = {ISO_TIME: True} if frames[0].attrs.get(ISO_TIME) else {}
    return raw, files, notes


# ------------------------------------------------------------------------------------------
# one file
# ------------------------------------------------------------------------------------------
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
                              "Parquet or JSON Lines file.")


def _detect_format(path: Path, fmt: str | None) -> tuple[str, bool]:
    """The format of the file at ``path`` and whether its name says it is compressed."""
    suffixes = [s.lower() for s in path.suffixes]
    packed = bool(suffixes) and suffixes[-1] in _PACKED
    if fmt is not None:
        return check_argument("format", fmt, FORMATS), packed
    ext = suffixes[-2] if packed and len(suffixes) > 1 else (suffixes[-1] if suffixes and not
                                                             packed else "")
    if ext not in _SUFFIXES:
        shown = "".join(path.suffixes[-2:]) or "(no extension)"
        shown = shown if file_name(shown) == shown else "(not shown)"
        raise FileFormatError(
            f"{file_name(path)}: unsupported file type {shown!r}; use .csv, .tsv, .parquet, "
            ".jsonl/.ndjson (text formats optionally .gz), or pass "
            + say("format='csv'|'tsv'|'parquet'|'jsonl'; a line-oriented text log is read with "
                  "pattern= or preset=.",
                  "--format csv|tsv|parquet|jsonl; a line-oriented text log is read with "
                  "--pattern REGEX or --preset NAME."))
    return _SUFFIXES[ext], packed


def read_file(path: Path, want: FileSpec) -> tuple[pd.DataFrame, list[str]]:
    """The declared columns of the file at ``path`` as read (labels and keys as categoricals where
    the format allows), and each reading decision (compression recognised, CR-only line ends,
    binary columns decoded as UTF-8) for the "how it was read" facts."""
    path = path.expanduser()
    check_path(path)
    kind, packed = _detect_format(path, want.format)
    register_input(path)
    name = file_name(path)
    if kind == "parquet":
        if packed:
            raise FileFormatError(f"{name}: compressed Parquet (.gz, .xz, ...) is not supported; "
                                  "Parquet compresses itself: decompress it.")
        return _read_parquet(path, name, want)
    if kind != "jsonl" and plain_utf8(path, want.encoding, packed):
        return read_csv_text(path, name, kind, want), []
    raw, notes = read_input(path, name)
    if packed and compression_of(_head(path)) is None:
        suffix = path.suffixes[-1].lower()
        named = _PACKED[suffix]
        raise FileFormatError(f"{name}: is named {suffix} but is not {named} data; the {named} "
                              "stream is truncated or corrupt, or the file is misnamed: rename or "
                              "export it again.")
    sniff(raw, name, kind)
    lf = as_lf(raw, want.encoding)  # old Mac line ends: read as the lines they are
    if lf is not None:
        raw, notes = lf, [*notes, CR_ONLY_NOTE]
    if is_blank(raw):
        raise FileFormatError(f"{name}: the file is empty; give a file with a header and rows.")
    if utf8_family(want.encoding):
        refuse_wide(raw, name)
    if (kind == "jsonl" or not utf8_family(want.encoding)) \
            and (err := text_problem(raw, name, want.encoding)) is not None:
        raise err
    if kind == "jsonl":
        return _read_jsonl(raw, name, want), notes
    if not utf8_family(want.encoding):
        raw = raw.decode(want.encoding).encode("utf-8")  # a BOM is skipped by read_csv_text
    return read_csv_text(raw, name, kind, want), notes


def _head(path: Path) -> bytes:
    with open(path, "rb") as fh:  # read-only
        return fh.read(16)


def _read_jsonl(raw: bytes, name: str, want: FileSpec) -> pd.DataFrame:
    """JSON Lines (or a JSON array of records) by Arrow's reader when every declared field is a
    string, else by pandas' (other types); the first bad lines are named."""
    columns = list(want.columns)
    text = raw.decode(want.encoding).lstrip("\ufeff")
    array = text.lstrip().startswith("[")
    frame = None if array else _arrow_jsonl(
        raw.lstrip(b"\xef\xbb\xbf") if utf8_family(want.encoding) else text.encode("utf-8"),
        name, columns)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if frame is None:
                frame = pd.read_json(io.StringIO(text), dtype=False,
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
        where = f" (first bad lines: {', '.join(map(str, bad))})" if bad \
            else " (a number out of range?)"
        raise FileFormatError(f"{name}: not valid JSON Lines{where}; give one JSON object per "
                              "line.") from None
    if not isinstance(frame, pd.DataFrame) or frame.empty:
        raise FileFormatError(f"{name}: no records; nothing to analyse.")
    check_header(list(frame.columns), columns, name)
    if not array and not text.rstrip(" \t").endswith(("\n", "\r")):
        note_open_last_row(len(frame) - 1)
    return frame[columns]


def _arrow_jsonl(data: bytes, name: str, columns: list[str]) -> pd.DataFrame | None:
    """The common case fast: JSON Lines whose declared fields are all strings (Arrow's reader,
    no per-line Python); ``None`` when another type appears (pandas' reader takes over)."""
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


def _read_parquet(path: Path, name: str, want: FileSpec) -> tuple[pd.DataFrame, list[str]]:
    """The declared columns of a Parquet file, batch by batch; string labels and keys as
    categoricals (cheap codes instead of strings), binary columns decoded as UTF-8 text."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    columns = list(want.columns)
    try:
        with pa.OSFile(str(path)) as fh:  # read-only
            schema = pq.ParquetFile(fh).schema_arrow
            check_header(list(schema.names), columns, name)
            as_dict = [c for c in want.categorical if pa.types.is_string(schema.field(c).type)
                       or pa.types.is_large_string(schema.field(c).type)]
            fh.seek(0)
            parquet = pq.ParquetFile(fh, read_dictionary=as_dict)
            batches = list(parquet.iter_batches(columns=columns))
            table = pa.Table.from_batches(batches) if batches else parquet.read(columns=columns)
            table, notes = _binary_as_text(table, name)
            frame = pd.DataFrame(table.to_pandas(ignore_metadata=True))
    except (pa.ArrowException, OSError, ValueError, TypeError, KeyError, IndexError, EOFError,
            MemoryError, OverflowError, NotImplementedError) as exc:
        if isinstance(exc, BudgetlabError):
            raise
        if isinstance(exc, UnicodeError):
            raise FileFormatError(f"{name}: a text column of the Parquet file holds bytes that are "
                                  "not UTF-8; write it again with string (UTF-8) columns."
                                  ) from None
        raise _not_parquet(path, name, exc) from None
    if len(frame) == 0:
        raise FileFormatError(f"{name}: has a schema but no rows; nothing to analyse.")
    return frame, notes


def _binary_as_text(table: Any, name: str) -> tuple[Any, list[str]]:
    """Binary (bytes) columns as UTF-8 text, as CSV values are, and a note for each; bytes that
    are not UTF-8 are refused by column (Arrow validates, no loop over rows)."""
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
                               "or pass --format jsonl (API: format='jsonl').")
    if text[:4] != b"PAR1" and ("," in sample or "\t" in sample) \
            and ("\n" in sample or "\r" in sample or len(text) < 4096):
        return FileFormatError(f"{name}: this .parquet file holds CSV text; rename it to .csv or "
                               "pass --format csv (API: format='csv').")
    return FileFormatError(f"{name}: not a readable Parquet file ({type(exc).__name__}); it may be "
                           "truncated or corrupt: copy or export it again.")


def check_scalars(raw: pd.DataFrame, columns: Sequence[str]) -> None:
    """Refuse nested values (JSON objects/arrays, Parquet structs) in declared columns."""
    for col in columns:
        s = raw[col]
        if pd.api.types.is_object_dtype(s.dtype) \
                and pd.api.types.infer_dtype(s, skipna=True) in ("mixed", "unknown-array"):
            nested = s.map(lambda v: isinstance(v, (dict, list, tuple, set, np.ndarray)))
            if nested.any():
                raise SchemaError(f"column {col!r} holds nested values (objects or lists) at "
                                  f"{row_numbers(nested.to_numpy(dtype=bool))}; flatten it so "
                                  "each cell is one value.")
