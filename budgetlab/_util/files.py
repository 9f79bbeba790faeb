"""Atomic outputs: write to a temporary file in the same folder, then rename into place.

An interrupted run leaves the old file or none, never half of one: the data goes to a hidden
temporary file next to the target (``.name.<random>.tmp<suffix>``), is flushed to disk, and only
then renamed over the target (an atomic step on POSIX and Windows). An existing output is
replaced only with ``force=True`` (CLI ``--force``); an input file read by
:func:`budgetlab.read_events` in this process is never an output, not even with ``force``.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Iterator
from os import PathLike
from pathlib import Path
from typing import IO, Any

import pandas as pd

from ..errors import ConfigError, OutputExistsError

__all__ = ["atomic_path", "atomic_write", "write_table", "check_output", "register_input", "plan_outputs", "save_figure",
           "PLOT_SUFFIXES"]

# the files read in this process, by identity (device, inode) and version (mtime, size): a file
# that another name points to is the same input; a new file that reuses a freed inode is not
_INPUTS: set[tuple[int, int, int, int]] = set()


def _identity(path: str | PathLike[str]) -> tuple[int, int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino, st.st_mtime_ns, st.st_size


def register_input(path: str | PathLike[str]) -> None:
    """Remember ``path`` as an input: :func:`check_output` refuses to write over it."""
    ident = _identity(path)
    if ident is not None:
        _INPUTS.add(ident)


def _is_input(path: Path) -> bool:
    ident = _identity(path)
    return ident is not None and ident in _INPUTS


def check_output(path: str | PathLike[str], *, force: bool = False) -> Path:
    """Validate an output path: its folder exists, it is not an input, and it does not exist
    unless ``force``. Returns it as a :class:`~pathlib.Path`.

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> (d / "out.csv").write_text("old")
    3
    >>> check_output(d / "out.csv")
    Traceback (most recent call last):
    ...
    budgetlab.errors.OutputExistsError: .../out.csv: exists already; pass --force (force=True) to overwrite it.
    """
    if not isinstance(path, (str, PathLike)) or not str(path):
        raise ConfigError(f"an output path must be a file name, got {path!r}.")
    p = Path(path).expanduser()
    if p.is_dir():
        raise ConfigError(f"{p}: is a directory; give a file name for the output.")
    if not p.parent.exists():
        raise ConfigError(f"{p.parent}: folder does not exist; create it first.")
    if not p.parent.is_dir():
        raise ConfigError(f"{p.parent}: is not a folder; give an output path inside a folder.")
    if _is_input(p):
        raise ConfigError(f"{p}: is an input of this run; write the output to another file (inputs are never "
                          "overwritten, not even with --force).")
    if p.exists() and not force:
        raise OutputExistsError(f"{p}: exists already; pass --force (force=True) to overwrite it.")
    return p


def _temp_name(target: Path) -> Path:
    suffix = "".join(target.suffixes[-2:])
    stem = target.name[: len(target.name) - len(suffix)] if suffix else target.name
    return target.with_name(f".{stem}.{secrets.token_hex(4)}.tmp{suffix}")


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):  # not every platform/file system can open a folder
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _publish(tmp: Path, target: Path, *, force: bool) -> None:
    """Move the finished temporary file into place (never over an existing file without force)."""
    with open(tmp, "rb+") as fh:  # the writer may not have synced: make the bytes durable first
        os.fsync(fh.fileno())
    if force:
        if _is_input(target):
            raise ConfigError(f"{target}: is an input of this run; write the output to another file.")
        os.replace(tmp, target)
    else:
        try:
            os.link(tmp, target)  # atomic and fails if the target appeared meanwhile
        except FileExistsError:
            raise OutputExistsError(f"{target}: exists already; pass --force (force=True) to overwrite it.") from None
        except OSError:  # no hard links on this file system
            if target.exists():
                raise OutputExistsError(f"{target}: exists already; pass --force (force=True) to overwrite it.") from None
            os.replace(tmp, target)
        else:
            tmp.unlink()
    _fsync_dir(target.parent)


@contextlib.contextmanager
def atomic_path(path: str | PathLike[str], *, force: bool = False) -> Iterator[Path]:
    """Yield a temporary path next to ``path`` (same suffix); when the block ends without an
    error the file is synced and renamed to ``path``; on any error or interruption it is removed
    and ``path`` is left as it was.

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> with atomic_path(d / "out.txt") as tmp:
    ...     _ = tmp.write_text("done")
    >>> (d / "out.txt").read_text(), sorted(p.name for p in d.iterdir())
    ('done', ['out.txt'])
    """
    target = check_output(path, force=force)
    tmp = _temp_name(target)
    # create it now (exclusively, with the umask's permissions) so the name is ours
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    os.close(fd)
    try:
        yield tmp
        if not tmp.exists():
            raise FileNotFoundError(f"{tmp}: the writer did not create the temporary file")
        _publish(tmp, target, force=force)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


@contextlib.contextmanager
def atomic_write(
    path: str | PathLike[str], mode: str = "w", *, force: bool = False, encoding: str | None = "utf-8",
    newline: str | None = None,
) -> Iterator[IO[Any]]:
    """Open a temporary file next to ``path`` for writing (``mode`` ``"w"`` or ``"wb"``); it
    replaces ``path`` only when the block ends without an error (see :func:`atomic_path`).

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> with atomic_write(d / "rules.yaml") as fh:
    ...     _ = fh.write("groups: []\\n")
    >>> (d / "rules.yaml").read_text()
    'groups: []\\n'
    """
    if mode not in ("w", "wb"):
        raise ConfigError(f"mode={mode!r} is not valid; use 'w' (text) or 'wb' (bytes).")
    with atomic_path(path, force=force) as tmp:
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
    """Write ``table`` atomically as CSV or Parquet, chosen by the extension.

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> write_table(pd.DataFrame({"a": [1, 2]}), d / "t.csv").read_text()
    'a\\n1\\n2\\n'
    """
    p = Path(path)
    ext = p.suffix.lower()
    if ext not in (".csv", ".parquet"):
        raise ConfigError(f"{p.name}: output must end in .csv or .parquet.")
    with atomic_path(p, force=force) as tmp:
        if ext == ".csv":
            table.to_csv(tmp, index=False, lineterminator="\n")
        else:
            table.to_parquet(tmp, index=False)
    return p


#: Figure formats an output path may name (the format follows the suffix).
PLOT_SUFFIXES = (".png", ".svg", ".pdf")


def plan_outputs(outputs: dict[str, Any], *, force: bool = False) -> dict[str, Path]:
    """Check every output of one run before any work: ``{option: path or None}`` (e.g.
    ``{"--out": args.out, "--plot": args.plot}``). Refuses empty names, two options naming the
    same file, inputs of this run, existing files without ``force`` and, for options whose name
    contains ``plot``, a suffix other than :data:`PLOT_SUFFIXES`. Returns the given ones as paths.
    """
    planned: dict[str, Path] = {}
    for option, path in outputs.items():
        if path is None:
            continue
        if not str(path).strip():
            raise ConfigError(f"{option}: an empty file name; give a file name or leave the option out.")
        p = check_output(path, force=force)
        if "plot" in option and p.suffix.lower() not in PLOT_SUFFIXES:
            raise ConfigError(f"{option} {p.name}: a plot is written as {', '.join(PLOT_SUFFIXES)}; choose one of "
                              "these suffixes.")
        for other, q in planned.items():
            if os.path.abspath(q) == os.path.abspath(p):
                raise ConfigError(f"{option} and {other} name the same file {p.name}; give each output its own name.")
        planned[option] = p
    return planned


def save_figure(fig: Any, path: str | PathLike[str], *, force: bool = False, dpi: int = 110) -> Path:
    """Save a matplotlib figure atomically in the format its suffix names (png, svg or pdf)."""
    p = Path(path)
    fmt = p.suffix.lower().lstrip(".")
    if f".{fmt}" not in PLOT_SUFFIXES:
        raise ConfigError(f"{p.name}: a plot is written as {', '.join(PLOT_SUFFIXES)}; choose one of these suffixes.")
    with atomic_path(p, force=force) as tmp:
        fig.savefig(tmp, format=fmt, dpi=dpi)
    return p
