"""Atomic outputs: write to a temporary file in the same folder, then rename into place.

An interrupted run leaves the old file or none, never half of one; an existing output is
replaced only with ``force=True``.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from os import PathLike
from pathlib import Path

import pandas as pd

from .errors import ConfigError, OutputExistsError

__all__ = ["atomic_path", "write_table", "check_output"]


def check_output(path: str | PathLike[str], *, force: bool = False) -> Path:
    """Validate an output path: its folder exists, and it does not exist unless ``force``."""
    p = Path(path)
    if p.is_dir():
        raise ConfigError(f"{p}: is a directory; give a file name for the output.")
    if not p.parent.exists():
        raise ConfigError(f"{p.parent}: folder does not exist; create it first.")
    if p.exists() and not force:
        raise OutputExistsError(f"{p}: exists already; pass --force (force=True) to overwrite it.")
    return p


@contextlib.contextmanager
def atomic_path(path: str | PathLike[str], *, force: bool = False) -> Iterator[Path]:
    """Yield a temporary path next to ``path``; on success it is renamed to ``path``.

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> with atomic_path(d / "out.txt") as tmp:
    ...     _ = tmp.write_text("done")
    >>> (d / "out.txt").read_text(), sorted(p.name for p in d.iterdir())
    ('done', ['out.txt'])
    """
    target = check_output(path, force=force)
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    tmp = Path(tmp_name)
    try:
        yield tmp
        if target.exists() and not force:  # appeared while we were writing
            raise OutputExistsError(f"{target}: exists already; pass --force (force=True) to overwrite it.")
        os.replace(tmp, target)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def write_table(table: pd.DataFrame, path: str | PathLike[str], *, force: bool = False) -> Path:
    """Write ``table`` atomically as CSV or Parquet, chosen by the extension."""
    p = Path(path)
    ext = "".join(s.lower() for s in p.suffixes[-1:])
    if ext not in (".csv", ".parquet"):
        raise ConfigError(f"{p.name}: output must end in .csv or .parquet.")
    with atomic_path(p, force=force) as tmp:
        if ext == ".csv":
            table.to_csv(tmp, index=False)
        else:
            table.to_parquet(tmp, index=False)
    return p
