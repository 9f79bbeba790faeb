"""The files a run reads: every reader refuses a path that is not a regular file in one wording
(:func:`check_input_file`) and registers its file here, so that no output of the same run is
written over it (:func:`budgetlab._util.files.check_output` asks :func:`is_input`), under any
name: symlinks, hard links and ``..`` lead to the same file.
"""

from __future__ import annotations

import os
import stat
from os import PathLike
from pathlib import Path

from ..errors import BudgetlabError, FileFormatError

__all__ = ["check_input_file", "file_identity", "forget_inputs", "is_input", "register_input",
           "special_kind"]

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


def special_kind(mode: int) -> str:
    """What a file that is neither a regular file nor a folder is, for a message (``mode`` as
    :func:`os.stat` gives it).

    >>> special_kind(stat.S_IFIFO), special_kind(stat.S_IFCHR)
    ('a FIFO (named pipe)', 'a device')
    """
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "a socket"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    return "a special file"


def check_input_file(path: Path, *, name: str, give: str,
                     error: type[BudgetlabError] = FileFormatError) -> None:
    """Refuse ``path`` unless it leads to a regular file, in one wording: ``name`` (the path as
    the caller's messages show it, personal data hidden), what the path is instead (missing, a
    folder, a pipe or a device: reading one would wait forever), then ``give``, the caller's
    words for what to give. ``error`` is the exception the caller raises for a bad input.

    >>> check_input_file(Path("no-such-folder/a.csv"), name="a.csv",
    ...                  give="give the incidents as a CSV file")
    Traceback (most recent call last):
    ...
    budgetlab.errors.FileFormatError: a.csv: no such file (its folder does not exist either); give
    the incidents as a CSV file.
    >>> check_input_file(Path(os.devnull), name="null", give="give an OpenSLO YAML file")
    Traceback (most recent call last):
    ...
    budgetlab.errors.FileFormatError: null: is a device, not a regular file; give an OpenSLO YAML
    file.
    """
    try:
        mode = os.stat(path).st_mode
    except (FileNotFoundError, NotADirectoryError, ValueError):  # ValueError: a NUL in the name
        hint = "" if os.path.isdir(path.parent) else " (its folder does not exist either)"
        raise error(f"{name}: no such file{hint}; {give}.") from None
    except OSError as exc:  # a folder on the way that may not be searched, a symlink loop, ...
        raise error(f"{name}: cannot be read ({exc.strerror or type(exc).__name__}); "
                    f"{give}.") from None
    if stat.S_ISDIR(mode):
        raise error(f"{name}: is a folder, not a file; {give}.")
    if not stat.S_ISREG(mode):
        raise error(f"{name}: is {special_kind(mode)}, not a regular file; {give}.")
