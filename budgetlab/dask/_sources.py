"""What the Dask reader reads: Parquet paths (a file, a folder, a glob, a list; checked before
Dask sees them, in budgetlab's words) or a Dask DataFrame, the files Dask found in them with their
rows (:func:`files_read`, named as :func:`budgetlab.read_events` names files), and the options it
takes (the :class:`~budgetlab.events.spec.ReadSpec` of :func:`budgetlab.read_events`, less the
fields for text files and the latency fields)."""

from __future__ import annotations

import warnings
from os import PathLike
from pathlib import Path
from typing import Any

import dask.dataframe as dd
import pandas as pd
import pyarrow.parquet as pq
from dask.base import compute
from dask.dataframe.io.parquet.arrow import ArrowDatasetEngine
from dask.delayed import delayed

from .._util.inputs import check_input_file
from .._util.words import counted
from ..errors import FileFormatError, InputError
from ..events.file_names import file_names
from ..events.files import SKIPPED, file_name, file_notes, no_rows_refusal
from ..events.spec import ReadSpec
from ..events.timeformat import has_year

__all__ = ["read_parquet", "source_name", "spec_of", "raw_frame", "files_read",
           "files_with_rows", "FILTERED_OUT"]

#: ReadSpec fields for files and text logs read by :func:`budgetlab.read_events` only. Not
#: ``on_error`` nor the deprecated ``strict``: the spec itself refuses them without ``pattern=``
#: (``strict=True`` warns first and is held as ``on_error="raise"``), in the same words for both
#: readers. Not ``time_format``: each partition reads its times with it, as the pandas reader
#: reads a table's (``year``, for a format without one, is refused in :func:`spec_of`).
_PANDAS_ONLY = ("preset", "pattern", "format", "encoding")
#: Suffixes of the text logs a glob may name (refused as a text file is: Dask reads Parquet).
_TEXT_SUFFIXES = {".csv", ".tsv", ".tab", ".json", ".jsonl", ".ndjson", ".log", ".txt"}
#: Files whose rows one task of :func:`files_read` counts.
_FILES_PER_TASK = 64
#: The note of a file with rows, none of which ``filters=`` keep (after its name, as
#: :data:`~budgetlab.events.files.SKIPPED` is said of a file without rows).
FILTERED_OUT = "no rows kept by filters=, skipped"
#: The latency fields: the Dask reader reads no request durations (nor the ``slow`` bucket).
_LATENCY = ("duration", "duration_unit", "slow_above")


class _Engine(ArrowDatasetEngine):  # type: ignore[misc]
    """Dask's pyarrow engine, without the warning of its own deprecated pandas call: reading a
    partition, it calls ``df.reset_index(drop=True, inplace=True)``, which pandas 3.1 deprecates
    (``Pandas4Warning``); it reached the user's ``.compute()`` of :func:`~.read.read_events`,
    about Dask's code, which the user can neither change nor avoid. Dask takes engine classes
    (``dd.read_parquet(engine=...)``). The filter, for that message from that Dask module only,
    is added to the process's filters and left there: ``warnings.catch_warnings`` restores the
    filters of the whole process, so on Dask's worker threads one read would remove another's
    filter (measured: the warning came back on 1 test of 58)."""

    @classmethod
    def read_partition(cls, *args: Any, **kwargs: Any) -> pd.DataFrame:
        warnings.filterwarnings("ignore", message="The inplace keyword in DataFrame.reset_index",
                                category=DeprecationWarning,
                                module=r"dask\.dataframe\.io\.parquet\.arrow")
        frame: pd.DataFrame = super().read_partition(*args, **kwargs)  # type: ignore[no-untyped-call]
        return frame


def read_parquet(source: Any, filters: Any) -> tuple[dd.DataFrame, str]:
    """Parquet paths as a Dask frame, and their name for messages; each local path is checked
    first (missing, a pipe or a device, or not Parquet: a CSV file is pointed to
    ``dask.dataframe.read_csv``)."""
    paths = list(source) if isinstance(source, (list, tuple)) else [source]
    for p in paths:
        if not isinstance(p, (str, PathLike)):
            raise InputError("source must be a Parquet path (file, folder or glob), a list of "
                             f"them, or a dask DataFrame, got {type(p).__name__}.")
    name = source_name(paths)
    for p in paths:
        text = str(p)
        if _is_glob(text) and set(Path(text).suffixes) & _TEXT_SUFFIXES:
            raise FileFormatError(
                f"{file_name(text)}: budgetlab.dask.read_events reads Parquet (a file, a folder or "
                "a glob of .parquet files); for CSV or JSON build the frame with "
                "dask.dataframe.read_csv(..., dtype=str) and pass it.")
        if _is_glob(text):
            continue  # a glob or a remote URL: Dask resolves it
        path = Path(text)
        if path.is_dir() and len(paths) > 1:  # Dask's own error: IsADirectoryError
            shown = file_name(path)
            raise InputError(
                f"{shown} is a folder in a list of {len(paths)} paths; Dask reads one folder, or "
                "a list of files and globs: give "
                f"'{shown if shown == path.name else 'FOLDER'}/*.parquet' in the list for its "
                "files.")
        if path.is_dir():
            continue  # a Parquet dataset: Dask reads its files
        check_input_file(path, name=file_name(path),
                         give="give a Parquet file, a folder of them or a glob such as "
                              "'logs/*.parquet'")
        if path.suffix.lower() not in (".parquet", ".pq", ".parq"):
            raise FileFormatError(
                f"{file_name(path)}: budgetlab.dask.read_events reads Parquet (a file, a folder or "
                "a glob); for CSV or JSON build the frame with dask.dataframe.read_csv(..., "
                "dtype=str) and pass it.")
    try:
        import pyarrow as pa

        frame = dd.read_parquet([str(p) for p in paths] if len(paths) > 1 else str(paths[0]),
                                filters=filters, engine=_Engine)
    except (pa.ArrowException, OSError, ValueError, IndexError) as exc:
        raise FileFormatError(
            f"{name}: no readable Parquet data ({type(exc).__name__}); check the path, that it "
            "holds .parquet files, and the filters.") from None
    _refuse_twice(frame)
    return frame, name


def _refuse_twice(frame: dd.DataFrame) -> None:
    """A file that ``frame`` would read twice (named twice in a list, or by a path and a glob
    that matches it) refused in the words of :func:`budgetlab.read_events`
    (:func:`~budgetlab.events.files.expand_sources`): its rows would count twice."""
    dataset = getattr(getattr(frame, "expr", None), "_dataset_info", {}).get("ds")
    seen: set[str] = set()
    for path in getattr(dataset, "files", None) or ():
        key = str(Path(path).resolve()) if Path(path).exists() else path
        if key in seen:
            raise InputError(f"{file_name(path)} is given twice; give each file once.")
        seen.add(key)


def _is_glob(text: str) -> bool:
    return any(ch in text for ch in "*?[") or "://" in text


def source_name(paths: list[Any]) -> str:
    """What the user gave, for messages: one path by its name, several counted by kind (files,
    folders, globs or URLs, in that order; a missing path counts as a file).

    >>> source_name(["logs/a.parquet"]), source_name(["a.parquet", "b.parquet", "logs/*.parquet"])
    ('a.parquet', '2 files and 1 glob')
    """
    if len(paths) == 1:
        return file_name(paths[0])
    kinds = {"file": 0, "folder": 0, "glob": 0, "URL": 0}
    for p in map(str, paths):
        kinds["URL" if "://" in p else "glob" if _is_glob(p) else
              "folder" if Path(p).is_dir() else "file"] += 1
    return " and ".join(counted(n, kind) for kind, n in kinds.items() if n)


def spec_of(spec: ReadSpec | None, options: dict[str, Any]) -> ReadSpec:
    """``spec`` (default: a plain :class:`~budgetlab.events.spec.ReadSpec`) with ``options``, the
    same object for both loaders; fields for files and text logs, and request durations, are
    refused first, whatever their value (before the spec's own checks of them)."""
    if spec is not None and not isinstance(spec, ReadSpec):
        raise TypeError(f"spec= takes a budgetlab.ReadSpec, got {type(spec).__name__}")
    default = ReadSpec()
    _refuse_unsupported({k: v for k, v in options.items()
                         if k in (*_PANDAS_ONLY, *_LATENCY) and v != getattr(default, k)})
    spec = (spec if spec is not None else ReadSpec()).replace(**options)
    _refuse_unsupported({k: getattr(spec, k) for k in (*_PANDAS_ONLY, *_LATENCY)
                         if getattr(spec, k) != getattr(default, k)})
    if spec.year is not None or (spec.time_format is not None and not has_year(spec.time_format)):
        raise InputError(
            f"the Dask reader reads time_format= with the year in it (%Y, %y, %G); the format "
            f"{spec.time_format!r} has none, and its year= is carried from line to line (the "
            "New Year rule), which partitions read apart cannot do: use budgetlab.read_events.")
    return spec


def _refuse_unsupported(given: dict[str, Any]) -> None:
    """Refuses the first of the ReadSpec fields in ``given`` that the Dask reader does not
    take: those for text files, then request durations."""
    for name in (n for n in _PANDAS_ONLY if n in given):
        raise InputError(
            f"{name}= is not supported by budgetlab.dask.read_events, which reads Parquet files "
            f"or a Dask DataFrame; {name}= is for budgetlab.read_events.")
    for name in (n for n in _LATENCY if n in given):
        raise InputError(
            f"{name}= is not supported by budgetlab.dask.read_events, which does not read "
            "request durations: use budgetlab.read_events for duration=, duration_unit= and "
            "slow_above=, or pass a Dask DataFrame with an ok column you computed (a success "
            "within your threshold) and ok= naming it.")


def raw_frame(source: Any, filters: Any) -> tuple[dd.DataFrame, str]:
    """The raw Dask frame of ``source`` and its name for messages."""
    if isinstance(source, dd.DataFrame):
        return source, "the Dask DataFrame"
    if isinstance(source, pd.DataFrame):
        raise InputError("source is a pandas DataFrame; use budgetlab.read_events() for pandas, "
                         "or pass dask.dataframe.from_pandas(source, npartitions=...) here.")
    return read_parquet(source, filters)


def _count_rows(fragments: list[Any], schema: Any, where: Any) -> list[tuple[int, int]]:
    """The rows of each Parquet file (a pyarrow fragment of a dataset of ``schema``, hive keys
    included) that ``where`` keeps, and all its rows: its footer alone without ``where``, or one
    on partition keys only; else the columns ``where`` names."""
    counts = []
    for f in fragments:
        rows = int(f.count_rows())
        counts.append((rows if where is None else
                       int(f.scanner(schema=schema, filter=where, columns=[]).count_rows()), rows))
    return counts


def files_read(frame: dd.DataFrame, filters: Any) -> list[tuple[str, int, int]] | None:
    """The Parquet files Dask reads for ``frame`` (from Parquet paths), in its order, each named
    as :func:`budgetlab.read_events` names files
    (:func:`~budgetlab.events.file_names.file_names`: ``date=2026-01-01/part.parquet`` in hive
    folders) with the rows that ``filters`` keep of it and all its rows, counted on the workers;
    ``None`` when Dask does not say which files it reads (then the reader names the paths as
    given)."""
    dataset = getattr(getattr(frame, "expr", None), "_dataset_info", {}).get("ds")
    if dataset is None:  # pragma: no cover - a Dask whose Parquet reader keeps no dataset
        return None
    where = pq.filters_to_expression(filters) if filters else None
    fragments = list(dataset.get_fragments() if where is None else
                     dataset.get_fragments(filter=where))
    tasks = [delayed(_count_rows)(fragments[i:i + _FILES_PER_TASK], dataset.schema, where)
             for i in range(0, len(fragments), _FILES_PER_TASK)]
    counts = [n for part in compute(*tasks) for n in part]  # type: ignore[no-untyped-call]
    names = file_names([f.path for f in fragments])  # hive folders: date=.../part.parquet
    return [(name, kept, rows) for name, (kept, rows) in zip(names, counts, strict=True)]


def files_with_rows(files: list[tuple[str, int, int]] | None, filters: Any,
                    infos: list[dict[str, Any]], name: str, many: bool,
                    ) -> tuple[list[tuple[str, int]] | None, tuple[str, ...]]:
    """The ``files`` read (Parquet paths: name, rows kept by ``filters``, rows) that have rows
    kept, and the note on those that have none (skipped, as :func:`budgetlab.read_events` skips
    and states them: :data:`FILTERED_OUT` for a file that has rows, none of which ``filters``
    keep). Input without rows (the partition profiles ``infos``) is refused: Parquet files
    without rows in the words of :func:`budgetlab.read_events` (``FileFormatError``, one file by
    its name, several counted), rows that ``filters`` all leave out, or a Dask DataFrame by
    ``name``, as ``InputError``."""
    if sum(int(i["rows"]) for i in infos) == 0:
        if files and not any(rows for _, _, rows in files):
            raise no_rows_refusal([n for n, _, _ in files],
                                  "has a schema but no rows; nothing to analyse.")
        if filters is not None:
            raise InputError(f"{name}: filters= leave no rows; nothing to analyse: check "
                             "filters=.")
        raise InputError(f"{name} {'have' if many else 'has'} no rows; nothing to analyse.")
    if files is None:
        return None, ()
    notes = file_notes([n for n, _, _ in files],
                       [[] if kept else [SKIPPED if not rows else FILTERED_OUT]
                        for _, kept, rows in files])
    return [(n, kept) for n, kept, _ in files if kept], tuple(notes)
