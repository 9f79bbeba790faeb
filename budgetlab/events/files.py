"""Input files: many as one input (a list, a glob, a folder), each one's format, and its declared
columns as raw values (CSV/TSV through :mod:`._text`, JSON Lines and Parquet through
:mod:`._structured`), read-only. A problem is refused with what to fix, never with a data value.
"""

from __future__ import annotations

import codecs
import glob
from collections.abc import Sequence
from contextlib import nullcontext
from os import PathLike
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._util.inputs import check_input_file, register_input
from .._util.progress import progress
from .._util.validation import utc_from_ns
from .._util.words import counted, say
from ..errors import ConfigError, FileFormatError, InputError, SchemaError, TimestampError
from ._compressed import PACKED, read_input
from ._format_words import FORMATS, check_format, unsupported_file_type
from ._messages import ROWS, SKIPPED, file_offset, no_rows_refusal, reading_files, row_numbers
from ._structured import NO_RECORDS, read_jsonl, read_parquet
from ._text import (
    CR_ONLY_NOTE,
    ISO_TIME,
    PROGRESS_BYTES,
    FileSpec,
    cr_only,
    is_blank,
    plain_head,
    read_csv_text,
    refuse_wide,
    sniff,
    text_problem,
    utf8_family,
    utf16_encoding,
)
from ._time_words import refuse_epoch_units_apart, refuse_epochs_beside_dates
from .epochs import UNIT_NAMES, epoch_look
from .file_names import HIDDEN_NAME, file_names
from .times import OFFSETS_READING, describe_time, is_instant, parse_time

__all__ = ["FORMATS", "ISO_TIME", "FileSpec", "as_lf", "check_path", "check_scalars",
           "check_text_encoding", "expand_sources", "file_name", "file_notes", "is_path_like",
           "no_rows_refusal", "read_file", "read_files", "SKIPPED"]

_SUFFIXES = {".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".parquet": "parquet", ".pq": "parquet",
             ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl"}


def file_name(path: str | PathLike[str]) -> str:
    """A file's name for a message: as given, unless it looks like personal data (not shown)."""
    from ..privacy import looks_personal

    name = Path(path).name or str(path)
    return HIDDEN_NAME if looks_personal(name) else name


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
            raise FileFormatError(f"{file_name(path)}: is a folder that holds no file to read; "
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
    out = []
    for note, files in which.items():
        more = f" and {counted(len(files) - 3, 'more file')}" if len(files) > 3 else ""
        out.append(f"{'every file' if len(files) == len(names) else ', '.join(files[:3]) + more}: "
                   f"{note}")
    return out


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
    """The declared columns of every file, one after the other, ``(file name, rows)`` per file, and
    how they were read (:func:`file_notes`). A file without rows among files with rows is skipped,
    and said (:data:`SKIPPED`); none with rows is refused (:func:`no_rows_refusal`). Every file
    must hold the same kind of values (text, numbers, datetimes, true/false) as the first, the time
    column (``want.time``) aside: it becomes UTC instants file by file (:func:`_times_of_files`),
    each file parsed once. Text beside numbers or true/false values (a CSV, which holds text,
    beside a Parquet file) is one text column, read as one file's text would be. A file that
    repeats an earlier one row for row is refused (:func:`refuse_copies`)."""
    frames: list[pd.DataFrame] = []
    per_file: list[list[str]] = []
    kept: list[Path] = []
    empty: list[tuple[str, str]] = []  # the files without rows, and why
    as_text: set[str] = set()
    shown = dict(zip(paths, file_names(paths) if len(paths) > 1 else [file_name(paths[0])],
                     strict=True))  # names that repeat (hive folders): the path's own ending
    state = ROWS.get()  # CSV/TSV rows are counted after the header: messages say so
    if state is not None and any(p.is_file() and _detect_format(p, want.format)[0] in ("csv", "tsv")
                                 for p in paths):  # a missing file is named in the loop below
        state["header"] = True
    for path in progress(paths, desc=f"reading {len(paths)} files") if _large(paths) else paths:
        # where rows are, for messages: the file's first row in the whole table
        with file_offset(sum(map(len, frames))) if len(paths) > 1 else nullcontext():
            frame, notes = read_file(path, want)
        if len(frame) == 0:
            empty.append((shown[path], _no_rows(path, frame, want)))
            continue
        for col in [c for c in want.columns if c != want.time] if frames else ():
            first, this = _kind(frames[0][col].dtype), _kind(frame[col].dtype)
            if first != this and ("text" not in (first, this) or "datetimes" in (first, this)):
                raise SchemaError(f"column {col!r} holds {first} in {shown[kept[0]]} but "
                                  f"{this} in {shown[path]}; every file must have one schema: "
                                  "export them the same way.")
            if first != this:  # a CSV has no types: numbers beside its text are read as text
                as_text.add(col)
        frames.append(frame.reset_index(drop=True))
        per_file.append(notes)
        kept.append(path)
    if not frames:
        raise no_rows_refusal([n for n, _ in empty], empty[0][1])
    for frame, col in ((f, c) for f in frames for c in as_text):  # then parsed as one column
        frame[col] = frame[col].astype(pd.StringDtype(na_value=np.nan))
    files = [(shown[p], len(f)) for p, f in zip(kept, frames, strict=True)]
    reading = _times_of_files(frames, files, want, per_file) if len(frames) > 1 and want.time \
        else OFFSETS_READING if frames[0].attrs.get(ISO_TIME) else None
    refuse_copies(frames, files)
    notes = file_notes([*(n for n, _ in files), *(n for n, _ in empty)],
                       [*per_file, *([SKIPPED] for _ in empty)])
    if len(frames) > 1:
        reading_files([n for n, _ in files], [r for _, r in files])
    cats = [c for c in want.columns if any(isinstance(f[c].dtype, pd.CategoricalDtype)
                                           for f in frames)]
    raw = frames[0] if len(frames) == 1 else pd.concat(
        [f.astype({c: f[c].cat.categories.dtype for c in cats
                   if isinstance(f[c].dtype, pd.CategoricalDtype)}) for f in frames],
        ignore_index=True)
    for c in cats if len(frames) > 1 else ():  # categories in the order met, as in one file
        raw[c] = pd.Categorical.from_codes(*pd.factorize(raw[c]), validate=False)
    raw.attrs = {} if reading is None else {ISO_TIME: reading}
    return raw, files, notes


def _no_rows(path: Path, frame: pd.DataFrame, want: FileSpec) -> str:
    """Why the file at ``path`` (read as ``frame``) has no rows, as its refusal says it."""
    if len(frame.columns) == 0:
        return "the file is empty; give a file with a header and rows."
    fmt = _detect_format(path, want.format)[0]  # JSON: an empty array
    return NO_RECORDS if fmt == "jsonl" else \
        f"has a {'schema' if fmt == 'parquet' else 'header'} but no rows; nothing to analyse."


def refuse_copies(frames: list[pd.DataFrame], files: list[tuple[str, int]]) -> None:
    """Refuse a file whose rows, times read, are row for row those of an earlier file: a copy
    (the ``.gz`` that ``gzip -k`` keeps beside its file, a Parquet export of a CSV) would count
    every event twice. Only files of equal row counts are compared, by a hash of their rows."""
    first: dict[tuple[int, bytes], str] = {}
    same_length = pd.Series([rows for _, rows in files]).duplicated(keep=False)
    for frame, (name, rows), compare in zip(frames, files, same_length, strict=True):
        if not (compare and rows):
            continue
        key = (rows, pd.util.hash_pandas_object(frame, index=False).to_numpy().tobytes())
        if key in first:
            raise InputError(
                f"{name} holds the same {counted(rows, 'row')} as {first[key]}, row for row: "
                "read both, every event would count twice; give each log once (two logs that "
                "really hold the same events: join them into one file first).")
        first[key] = name


def _times_of_files(frames: list[pd.DataFrame], files: list[tuple[str, int]], want: FileSpec,
                    per_file: list[list[str]]) -> str:
    """The time column of each file (``want.time``) as UTC instants, each by its own rule (zoned
    text and datetimes as their instants, epochs in ``want.epoch``, naive times in ``want.tz``),
    and how they were read: one reading, or a note per file when they differ. Naive times beside
    instants are refused, naming both files (a naive time has no instant without its zone)."""
    assert want.time is not None  # for mypy: the caller reads times only with a time column
    readings = [OFFSETS_READING if f.attrs.get(ISO_TIME) else
                describe_time(f[want.time], tz=want.tz, epoch=want.epoch) for f in frames]
    if want.epoch is None:  # with epoch=, dates are refused as no numbers, row and file named
        refuse_epochs_beside_dates([f[want.time] for f in frames], [n for n, _ in files],
                                   [bool(f.attrs.get(ISO_TIME)) for f in frames], want.time)
    looks = [epoch_look(f[want.time]) if want.epoch or pd.api.types.is_numeric_dtype(
        f[want.time].dtype) else None for f in frames]  # one unit per file, but files apart
    refuse_epoch_units_apart(looks, [n for n, _ in files], want.time, want.epoch, UNIT_NAMES)
    times, start = [], 0
    for frame, (name, rows) in zip(frames, files, strict=True):  # each file's own errors first
        check_scalars(frame, [want.time])
        reading_files([name], [rows])  # a bad time is named by its row in this file
        with file_offset(start):
            times.append(parse_time(frame[want.time], tz=want.tz, epoch=want.epoch))
        start += rows
    instant = [is_instant(r) for r in readings]  # parsed: each file's times in one form
    if any(instant) and not all(instant):
        naive, zoned = files[instant.index(False)][0], files[instant.index(True)][0]
        raise TimestampError(
            f"mixed naive and zone-aware timestamps: {naive} holds times without a UTC offset "
            f"({readings[instant.index(False)]}), but {zoned} holds instants "
            f"({readings[instant.index(True)]}); give every time an offset, or none and pass "
            + say("tz=", "--tz") + " for the local zone.")
    for frame, t, notes, how in zip(frames, times, per_file, readings, strict=True):
        frame[want.time] = utc_from_ns(t, copy=False)
        notes.extend([f"time: {how}"] if len(set(readings)) > 1 else [])
    return readings[0] if len(set(readings)) == 1 else \
        "each file by its own rule (see the notes), as UTC instants"


def check_path(path: Path) -> None:
    """Refuse a path that is not a regular file (missing, a folder, a pipe or a device) in the
    words of :func:`~budgetlab._util.inputs.check_input_file`, naming it as the readers do."""
    check_input_file(path, name=file_name(path),
                     give="give a log file (CSV, TSV, Parquet, JSON Lines or text), a folder of "
                          "them or a glob such as 'logs/*.csv'")


def _detect_format(path: Path, fmt: str | None) -> tuple[str, bool]:
    """The format of the file at ``path`` and whether its name says it is compressed."""
    suffixes = [s.lower() for s in path.suffixes]
    packed = bool(suffixes) and suffixes[-1] in PACKED
    if fmt is not None:
        return check_format(fmt), packed
    ext = suffixes[-2] if packed and len(suffixes) > 1 else (suffixes[-1] if suffixes and not
                                                             packed else "")
    if ext not in _SUFFIXES:
        shown = "".join(path.suffixes[-2:]) or "(no extension)"
        raise unsupported_file_type(path, file_name(path),
                                    shown if file_name(shown) == shown else "(not shown)")
    return _SUFFIXES[ext], packed


def read_file(path: Path, want: FileSpec) -> tuple[pd.DataFrame, list[str]]:
    """The declared columns of the file at ``path`` (labels and keys as categoricals where the
    format allows) and its reading decisions (compression, CR-only line ends, binary columns)."""
    path = path.expanduser()
    check_path(path)
    kind, packed = _detect_format(path, want.format)
    register_input(path)  # an input of this run: no output may be written over it
    name = file_name(path)
    if kind == "parquet":
        if packed:
            raise FileFormatError(f"{name}: compressed Parquet (.gz, .xz, ...) is not supported; "
                                  "Parquet compresses itself: decompress it.")
        return read_parquet(path, name, want)
    head = plain_head(path, want.encoding, packed) if kind != "jsonl" else None
    raw, notes = (head, []) if head is not None else read_input(path, name, holds=kind)
    sniff(raw, name, kind)
    if head is None and (lf := as_lf(raw, want.encoding, quoted=kind != "jsonl")) is not None:
        raw, notes = lf, [*notes, CR_ONLY_NOTE]  # old Mac line ends: the lines they are
    if is_blank(raw):  # a whole file (a blank first MiB with more after it is read whole)
        return pd.DataFrame(), notes  # no columns, no rows: see read_files
    if utf8_family(want.encoding):
        refuse_wide(raw, name)
    if (kind == "jsonl" or not utf8_family(want.encoding)) \
            and (err := text_problem(raw, name, want.encoding)) is not None:
        raise err
    if kind == "jsonl":
        return read_jsonl(raw, name, want), notes
    if not utf8_family(want.encoding):
        raw = raw.decode(want.encoding).encode("utf-8")  # a BOM is skipped by read_csv_text
    return read_csv_text(path if head is not None else raw, name, kind, want), notes


def as_lf(raw: bytes, encoding: str, *, quoted: bool) -> bytes | None:
    """``raw`` with CR-only line ends as LF, else ``None``; judged on the decoded text when the
    encoding is not ASCII-compatible (in UTF-16 a CR byte can be half of U+010D). ``quoted``
    (CSV, TSV): a CR inside a quoted field is part of its value and stays."""
    codec = utf16_encoding(raw) or encoding
    try:
        ascii_compatible = "\r\n".encode(codec) == b"\r\n"
    except (LookupError, UnicodeError):
        ascii_compatible = True
    if not ascii_compatible:
        try:
            lf = as_lf(raw.decode(codec).encode(), "utf-8", quoted=quoted)
        except (UnicodeDecodeError, LookupError):
            return None  # the reader names the encoding problem
        return None if lf is None else lf.decode().encode(codec)
    if not cr_only(raw[: 1 << 20]) or b"\n" in raw:
        return None
    pieces = raw.split(b'"') if quoted else [raw]  # out of quotes (even pieces) only
    return b'"'.join(p.replace(b"\r", b"\n") if i % 2 == 0 else p for i, p in enumerate(pieces))


def check_text_encoding(encoding: Any) -> str:
    """``encoding`` if it names a text encoding; non-text codecs (``hex``, ``base64``, ``rot13``,
    ``bz2``) and unknown names raise :class:`ConfigError`.

    >>> check_text_encoding("cp1251")
    'cp1251'
    """
    try:
        info = codecs.lookup(encoding)
    except (LookupError, TypeError, ValueError):
        raise ConfigError(f"encoding={encoding!r} is not a known text encoding; e.g. 'utf-8', "
                          "'latin-1', 'cp1251'.") from None
    if not getattr(info, "_is_text_encoding", True) \
            or info.name in ("rot-13", "punycode", "idna", "undefined"):
        raise ConfigError(f"encoding={encoding!r} is not a character encoding for text files; give "
                          "the file's encoding, e.g. 'utf-8', 'latin-1', 'cp1251', 'utf-16'.")
    return str(encoding)


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
