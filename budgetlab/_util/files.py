"""Atomic outputs: write to a temporary file in the same folder, then rename into place.

An interrupted run leaves the old file or none, never half of one: the data goes to a hidden
temporary file next to the target (``.bl-<random>.tmp<suffix>``, short whatever the target's
name), is flushed to disk, and only then renamed over the target (an atomic step on POSIX and
Windows). An existing output is replaced only with ``force=True`` (CLI ``--force``).

Nothing read is ever lost: every reader registers its file with
:func:`budgetlab._util.inputs.register_input`, and no output may resolve (through symlinks, hard
links, ``..``) to a file read in the same run, not even with ``force``. Special files (FIFOs,
devices, sockets) are never replaced. The outputs of one run are planned together before any work
(:func:`budgetlab._util.plan.plan_outputs`); figures are written by :mod:`budgetlab._util.figures`.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Iterator
from os import PathLike
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from ..errors import ConfigError, OutputExistsError
from .inputs import is_input
from .output_paths import (
    check_output,
    check_special,
    exists_refusal,
    make_folder,
    name_max,
    named,
    shown_path,
)
from .run_outputs import note_written

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["atomic_path", "atomic_write", "write_table", "write_bytes", "check_output",
           "shown_path", "name_max", "make_folder", "TABLE_SUFFIXES"]

#: The suffixes a table is written with (:func:`write_table`); the format follows the suffix.
TABLE_SUFFIXES = (".csv", ".parquet")


def _temp_name(target: Path) -> Path:
    """A short hidden name next to ``target`` with its suffixes (writers infer formats and
    compression from them): short enough for any target name the file system allows."""
    suffix = "".join(s for s in target.suffixes[-2:] if len(s) <= 16 and " " not in s)
    return target.with_name(f".bl-{secrets.token_hex(8)}.tmp{suffix}")


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):  # not every platform/file system can open a folder
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _publish(tmp: Path, target: Path, *, force: bool, option: str | None = None) -> None:
    """Move the finished temporary file into place (never over an existing file without force)."""
    with open(tmp, "rb+") as fh:  # the writer may not have synced: make the bytes durable first
        os.fsync(fh.fileno())
    if force:
        if is_input(target):  # checked again: the names may have changed while the work ran
            raise ConfigError(named(option, shown_path(target), "is an input of this run; write "
                                     "the output to another file."))
        check_special(target, option)
        os.replace(tmp, target)
        note_written(target)
    else:
        try:
            os.link(tmp, target)  # atomic and fails if the target appeared meanwhile
        except FileExistsError:
            raise OutputExistsError(exists_refusal(target, option)) from None
        except OSError:  # no hard links on this file system
            if os.path.lexists(target):
                raise OutputExistsError(exists_refusal(target, option)) from None
            os.replace(tmp, target)
            note_written(target)
        else:
            note_written(target)  # in place: the run's record says so, whatever follows
            tmp.unlink()
    _fsync_dir(target.parent)


@contextlib.contextmanager
def atomic_path(path: str | PathLike[str], *, force: bool = False,
                option: str | None = None) -> Iterator[Path]:
    """Yield a temporary path next to ``path`` (same suffix); when the block ends without an
    error the file is synced and renamed to ``path``; on any error or interruption it is removed
    and ``path`` is left as it was. A refusal names ``option`` first (see :func:`check_output`).

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> with atomic_path(d / "out.txt") as tmp:
    ...     _ = tmp.write_text("done")
    >>> (d / "out.txt").read_text(), sorted(p.name for p in d.iterdir())
    ('done', ['out.txt'])
    """
    target = check_output(path, force=force, option=option)
    tmp: Path | None = None
    try:
        # create it now (exclusively, with the umask's permissions) so the name is ours; inside the
        # cleanup block, so that an interruption right after its creation removes it too
        for _ in range(16):
            tmp = _temp_name(target)
            try:
                fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            except FileExistsError:  # another writer's (16 random hex digits make this rare)
                tmp = None
                continue
            # the folder changed since the check: name the output, not the temporary
            except OSError as exc:
                tmp = None
                raise ConfigError(named(option, shown_path(target), "cannot be written "
                                         f"({exc.strerror or type(exc).__name__}); give an "
                                         "output in a folder you can write to.")) from None
            os.close(fd)
            break
        if tmp is None:
            raise ConfigError(f"{shown_path(target.parent)}: cannot create a temporary file there; "
                              "remove stale '.bl-*.tmp*' files.")
        yield tmp
        if not tmp.exists():
            raise FileNotFoundError(f"{tmp}: the writer did not create the temporary file")
        _publish(tmp, target, force=force, option=option)
    finally:
        if tmp is not None:
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()


@contextlib.contextmanager
def atomic_write(
    path: str | PathLike[str], mode: str = "w", *, force: bool = False,
                 encoding: str | None = "utf-8",
    newline: str | None = None,
    option: str | None = None,
) -> Iterator[IO[Any]]:
    """Open a temporary file next to ``path`` for writing (``mode`` ``"w"`` or ``"wb"``); it
    replaces ``path`` only when the block ends without an error (see :func:`atomic_path`; a
    refusal names ``option`` first).

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> with atomic_write(d / "rules.yaml") as fh:
    ...     _ = fh.write("groups: []\\n")
    >>> (d / "rules.yaml").read_text()
    'groups: []\\n'
    """
    if mode not in ("w", "wb"):
        raise ConfigError(f"mode={mode!r} is not valid; use 'w' (text) or 'wb' (bytes).")
    with atomic_path(path, force=force, option=option) as tmp:
        if mode == "wb":
            with open(tmp, "wb") as fh:
                yield fh
                fh.flush()
                os.fsync(fh.fileno())
        else:
            with open(tmp, "w", encoding=encoding, newline=newline) as fh:
                yield fh
                fh.flush()
                os.fsync(fh.fileno())


def write_table(table: pd.DataFrame, path: str | PathLike[str], *, force: bool = False) -> Path:
    """Write ``table`` atomically as CSV or Parquet, chosen by the extension. In a CSV, text
    cells a spreadsheet would run as a formula get a leading ``'``
    (:mod:`budgetlab._util.csv_cells`; budgetlab's readers remove it), and a duration is written
    as the ``window`` column writes one (:func:`~budgetlab._util.durations.duration_cell`:
    ``24m``, ``1h30m``, ``10s``; never pandas' ``0 days 00:24:00``), text like any other: a
    negative one gets the ``'`` too (``'-8h56m``); Parquet keeps its own duration type.

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> import pandas as pd
    >>> write_table(pd.DataFrame({"a": [1, 2]}), d / "t.csv").read_text()
    'a\\n1\\n2\\n'
    >>> t = pd.DataFrame({"gap": pd.to_timedelta(["24min", None]), "n": [1, 2]})
    >>> write_table(t, d / "g.csv").read_text()
    'gap,n\\n24m,1\\n,2\\n'
    >>> write_table(pd.DataFrame({"reset": [pd.Timedelta("-90min")]}), d / "r.csv").read_text()
    "reset\\n'-1h30m\\n"
    """
    p = check_output(path, force=force)
    ext = p.suffix.lower()
    if ext not in TABLE_SUFFIXES:
        raise ConfigError(f"{shown_path(p)}: output must end in .csv or .parquet.")
    with atomic_path(p, force=force) as tmp:
        if ext == ".csv":
            from .csv_cells import neutralise, quoting

            safe = neutralise(_durations_as_text(table))  # a negative duration is text too
            safe.to_csv(tmp, index=False, lineterminator="\n", quoting=quoting(safe))
        else:
            table.to_parquet(tmp, index=False)
    return p


def _durations_as_text(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` with its duration columns as :func:`~.durations.duration_cell` text."""
    import pandas as pd

    from .durations import duration_cell

    spans = [c for c in table.columns if pd.api.types.is_timedelta64_dtype(table[c].dtype)]
    if not spans:
        return table
    out = table.copy(deep=False)
    for name in spans:
        out[name] = pd.Series([None if pd.isna(v) else duration_cell(v) for v in out[name]],
                              index=out.index, dtype=object)  # NaT: an empty cell, as NaN
    return out


def write_bytes(data: bytes, path: str | PathLike[str], *, force: bool = False,
                option: str | None = None) -> Path:
    """Write ``data`` to ``path`` atomically (see :func:`atomic_path`; a refusal names
    ``option`` first).

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> write_bytes(b"%PDF-", d / "t.pdf").read_bytes()
    b'%PDF-'
    """
    with atomic_write(path, "wb", force=force, option=option) as fh:
        fh.write(data)
    return Path(path)
