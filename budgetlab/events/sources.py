"""Many files as one input: a list of paths, a glob or a folder, expanded in a stable order and
read into one raw table with one schema check across the files; a bad row is then named by its
file (see :func:`budgetlab.events._messages.reading_files`).
"""

from __future__ import annotations

import glob
from collections.abc import Sequence
from os import PathLike
from pathlib import Path
from typing import Any

import pandas as pd

from .._util.progress import progress
from ..errors import FileFormatError, InputError, SchemaError
from ._csv import ISO_TIME
from ._formats import read_columns
from ._input import PROGRESS_BYTES, file_name
from ._messages import file_offset, reading_files

__all__ = ["expand_sources", "read_files", "is_path_like", "file_notes"]

_GLOB_CHARS = ("*", "?", "[")


def is_path_like(source: Any) -> bool:
    """A path, or a non-empty list or tuple of paths."""
    if isinstance(source, (str, PathLike)):
        return True
    return isinstance(source, (list, tuple)) and len(source) > 0 and \
        all(isinstance(p, (str, PathLike)) for p in source)


def _one(source: str | PathLike[str]) -> list[Path]:
    path = Path(source).expanduser()
    text = str(source)
    if not path.exists() and any(ch in text for ch in _GLOB_CHARS):
        found = sorted(
            Path(p) for p in glob.glob(str(Path(text).expanduser())) if Path(p).is_file()
        )
        if not found:
            raise FileFormatError(f"{file_name(path)}: the pattern matches no file; check the "
                                  "folder and the pattern.")
        return found
    if path.is_dir():
        found = sorted(p for p in path.iterdir() if p.is_file() and not p.name.startswith((".", "_",
                                                                                           "~")))
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
    items = [source] if isinstance(source, (str, PathLike)) else list(source)
    paths: list[Path] = []
    for item in items:
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


def _kind(dtype: Any) -> str:
    if isinstance(dtype, pd.CategoricalDtype):
        dtype = dtype.categories.dtype
    if pd.api.types.is_bool_dtype(dtype):
        return "true/false values"
    if isinstance(dtype, pd.DatetimeTZDtype) or pd.api.types.is_datetime64_dtype(dtype):
        return "datetimes"
    if pd.api.types.is_numeric_dtype(dtype):
        return "numbers"
    return "text"


def file_notes(names: Sequence[str], per_file: Sequence[Sequence[str]]) -> list[str]:
    """The reading statements of several files as one list: a file's own statements as they are
    when it is the only file; else each statement once, prefixed by the files it concerns.

    >>> file_notes(["a.csv"], [["compression: xz (recognised by content)"]])
    ['compression: xz (recognised by content)']
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
        shown = "every file" if len(files) == len(names) else ", ".join(files[:3]) + (
            f" and {len(files) - 3} more files" if len(files) > 3 else "")
        out.append(f"{shown}: {note}")
    return out


def _large(paths: Sequence[Path]) -> bool:
    """Several files that together hold at least :data:`PROGRESS_BYTES` (a bar is worth showing)."""
    if len(paths) < 2:
        return False
    total = 0
    for p in paths:
        try:
            total += p.stat().st_size
        except OSError:
            continue  # named when it is read
    return total >= PROGRESS_BYTES


def read_files(paths: Sequence[Path], columns: list[str], fmt: str | None, encoding: str,
               dict_columns: Sequence[str], notes: list[str] | None = None,
               iso_time: str | None = None,
               ) -> tuple[pd.DataFrame, list[tuple[str, int]]]:
    """The declared columns of every file, one after the other (file order, then row order), and
    ``(file name, rows)`` per file. Every file must have the declared columns with the same kind
    of values (text, numbers, datetimes, true/false) as the first: one schema across files.
    The reading decisions of the files are appended to ``notes`` (see :func:`file_notes`).
    ``iso_time``: see :func:`~budgetlab.events._formats.read_columns`; the table is marked with
    :data:`~budgetlab.events._csv.ISO_TIME` only when every file's time column came so (when
    some did and some did not, every file is read again with its time as text, as it was
    written)."""
    frames: list[pd.DataFrame] = []
    per_file: list[list[str]] = []
    offset = 0
    for path in progress(paths, desc=f"reading {len(paths)} files") if _large(paths) else paths:
        per_file.append([])
        with file_offset(offset):
            frame = read_columns(path, columns, fmt, encoding, dict_columns, per_file[-1],
                                 iso_time).reset_index(drop=True)
        if (
            frames
            and iso_time is not None
            and bool(frame.attrs.get(ISO_TIME)) != bool(frames[0].attrs.get(ISO_TIME))
        ):
            # one form for every file: text
            return read_files(paths, columns, fmt, encoding, dict_columns, notes)
        if frames:
            for col in columns:
                first, this = _kind(frames[0][col].dtype), _kind(frame[col].dtype)
                if first != this:
                    raise SchemaError(
                        f"column {col!r} holds {first} in {file_name(paths[0])} but {this} in "
                        f"{file_name(path)}; every file must "
                        "have one schema: export them the same way."
                    )
        frames.append(frame)
        offset += len(frame)
    files = [(file_name(p), len(f)) for p, f in zip(paths, frames, strict=True)]
    if notes is not None:
        notes.extend(file_notes([n for n, _ in files], per_file))
    if len(frames) == 1:
        return frames[0], files
    reading_files([n for n, _ in files], [r for _, r in files])
    cats = [c for c in columns if any(isinstance(f[c].dtype, pd.CategoricalDtype) for f in frames)]
    for f in frames:
        for c in cats:
            if isinstance(f[c].dtype, pd.CategoricalDtype):
                f[c] = f[c].astype(f[c].cat.categories.dtype)
    raw = pd.concat(frames, ignore_index=True)
    for c in cats:
        raw[c] = raw[c].astype("category")
    # plain text: scanned again
    raw.attrs = {ISO_TIME: True} if frames[0].attrs.get(ISO_TIME) else {}
    return raw, files
