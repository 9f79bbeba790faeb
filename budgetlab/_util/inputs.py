"""The files a run reads: every reader registers its file here, so that no output of the same
run is written over it (:func:`budgetlab._util.files.check_output` asks :func:`is_input`), under
any name: symlinks, hard links and ``..`` lead to the same file.
"""

from __future__ import annotations

import os
from os import PathLike

__all__ = ["file_identity", "forget_inputs", "is_input", "register_input"]

# the files read in this run: identity (device, inode) -> the absolute names it was read under.
# A match counts while one of those names still leads to the same file, so a new file that
# reuses the inode of a deleted input is not mistaken for it.
_INPUTS: dict[tuple[int, int], set[str]] = {}


def forget_inputs() -> None:
    """Forget the inputs registered so far (:func:`budgetlab._util.plan.new_run` starts a run)."""
    _INPUTS.clear()


def file_identity(path: str | PathLike[str]) -> tuple[int, int] | None:
    """``(device, inode)`` of an existing file, else None."""
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return st.st_dev, st.st_ino


def register_input(path: str | PathLike[str]) -> None:
    """Remember ``path`` as an input of this run: no output may be written over it (under any
    name: symlinks, hard links and ``..`` lead to the same file), not even with ``force``.
    Registering a file twice, or a file that does not exist, is harmless.

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "log.csv").write_text("ts,ok")
    >>> register_input(d / "log.csv")
    >>> is_input(d / "." / "log.csv")
    True
    """
    ident = file_identity(path)
    if ident is not None:
        _INPUTS.setdefault(ident, set()).add(os.path.abspath(os.fspath(path)))


def is_input(path: str | PathLike[str]) -> bool:
    """Whether ``path`` leads to a file registered by :func:`register_input` in this run."""
    ident = file_identity(path)
    if ident is None or ident not in _INPUTS:
        return False
    return any(file_identity(name) == ident for name in _INPUTS[ident])
