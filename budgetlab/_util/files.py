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
import errno
import os
import re
import secrets
import stat
from collections.abc import Iterator
from os import PathLike
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from ..errors import ConfigError, OutputExistsError
from .inputs import is_input, special_kind
from .words import say

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["atomic_path", "atomic_write", "write_table", "write_bytes", "check_output",
           "shown_path", "name_max", "make_folder", "TABLE_SUFFIXES"]

#: The suffixes a table is written with (:func:`write_table`); the format follows the suffix.
TABLE_SUFFIXES = (".csv", ".parquet")

_SAFE_NAME = re.compile(r"[A-Za-z0-9_.,=+-]{1,80}")


def shown_path(path: Path, given: str = "") -> str:
    """A file name as a message may show it: quoted when it is plainly not personal data (short,
    ASCII letters, digits and ``_.,=+-`` only, fewer than 8 digits: no e-mail, phone or IP
    address fits), else a placeholder; ``given``, the path as typed, is shown whole when it is
    relative (``'ro/x.csv'``, not ``'x.csv'``) and each part plain. (This layer cannot use the
    detector of :mod:`budgetlab.privacy`; it errs on the side of hiding.)"""
    parts = given.replace(os.sep, "/").split("/")
    if (given and not os.path.isabs(given) and all(_SAFE_NAME.fullmatch(q) for q in parts if q)
            and len(given) <= 160 and sum(c.isdigit() for c in given) < 8):
        return repr(given)
    name = path.name or str(path)
    if _SAFE_NAME.fullmatch(name) and sum(c.isdigit() for c in name) < 8:
        return repr(name)
    return "the output file (name not shown: it may hold personal data)"


def name_max(folder: str | PathLike[str]) -> int:
    """The longest file name (in bytes) the file system of ``folder`` allows (255 when unknown).

    >>> name_max(".") >= 14
    True
    """
    try:
        return int(os.pathconf(folder, "PC_NAME_MAX"))
    except (AttributeError, OSError, ValueError):  # no pathconf (Windows) or no answer
        return 255


def make_folder(folder: Path, *, flag: str) -> Path:
    """``folder`` for a command's outputs, made with its parents; a file of that name, or a folder
    that cannot be made, is refused in one line that names the command's ``flag``.

    >>> make_folder(Path(os.devnull), flag="--out")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: --out null: is a file; --out takes a folder.
    """
    if folder.exists() and not folder.is_dir():
        raise ConfigError(f"{flag} {folder.name}: is a file; {flag} takes a folder.")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"{flag} {folder.name}: cannot create the folder "
                          f"({exc.strerror or type(exc).__name__}); give a folder you can write "
                          "to.") from None
    return folder


def _named(option: str | None, subject: str, rest: str) -> str:
    """A refusal about one output: ``--out: 'a.csv' exists already; ...`` when the option that
    gave it is known (its flag on the command line, its keyword argument in the API), else
    ``'a.csv': exists already; ...``; an option that names the file already (one of the files
    of a folder option: ``--out bins.csv``) is not followed by the name again.

    >>> _named("--plot", "'t.png'", "is a folder.")
    "--plot: 't.png' is a folder."
    >>> _named(None, "'t.png'", "is a folder.")
    "'t.png': is a folder."
    >>> _named("--out bins.csv", "'bins.csv'", "exists already.")
    '--out bins.csv: exists already.'
    """
    if not option:
        return f"{subject}: {rest}"
    if subject == repr(option.split()[-1]):
        return f"{option}: {rest}"
    return f"{option}: {subject} {rest}"


def _exists(p: Path, option: str | None = None, given: str = "") -> str:
    return _named(option, shown_path(p, given),
                  f"exists already; pass {say('force=True', '--force')} to overwrite it.")


def _check_special(p: Path, option: str | None = None, given: str = "") -> None:
    try:
        mode = os.stat(p).st_mode
    except (OSError, ValueError):
        return
    if not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        raise ConfigError(_named(option, shown_path(p, given), f"is {special_kind(mode)}, not a "
                                 "regular file; budgetlab never replaces special files, not even "
                                 "with --force: give the name of a regular file."))


def _check_writable(p: Path, option: str | None = None, given: str = "") -> None:
    """Refuse an output whose folder does not let budgetlab create a file (permissions, a
    read-only file system, ...), before the work: a probe file is created there and removed. The
    reason is the one the system gave: a folder that exists but answers "no such file" to a new
    one (``/proc``) cannot hold files, which is not a matter of permission."""
    probe = p.parent / f".bl-{secrets.token_hex(8)}.probe"
    try:
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as exc:
        folder = shown_path(p.parent, os.path.dirname(given))
        why = exc.strerror or type(exc).__name__
        if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            reason = f"its folder {folder} does not let budgetlab create files ({why})"
        elif exc.errno == errno.ENOENT:  # the folder exists (checked before): a special one
            reason = (f"its folder {folder} cannot hold files (a special file system, such as "
                      f"/proc: creating a file there fails with {why})")
        else:
            reason = f"creating a file in its folder {folder} failed ({why})"
        raise ConfigError(_named(option, shown_path(p, given), f"cannot be written, {reason}; "
                                 "give an output in a folder you can write to.")) from None
    os.close(fd)
    with contextlib.suppress(OSError):
        os.unlink(probe)


def check_output(path: str | PathLike[str], *, force: bool = False,
                 option: str | None = None) -> Path:
    """Validate an output path: a non-empty file name in an existing folder that lets budgetlab
    create files, not too long for the file system, not an input of this run, not a special
    file, and not an existing file unless ``force``. Returns it as a :class:`~pathlib.Path`.

    ``option`` is what gave the path, named first in every refusal: the flag on the command line
    (``--summary-out``, :func:`budgetlab._util.plan.plan_outputs` passes it), the keyword
    argument in the API (``path``); without it a refusal starts with the file's name.

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> (d / "out.csv").write_text("old")
    3
    >>> check_output(d / "out.csv")
    Traceback (most recent call last):
    ...
    budgetlab.errors.OutputExistsError: 'out.csv': exists already; pass force=True to overwrite it.
    >>> check_output(d / "no-such-folder" / "s.csv", option="--summary-out")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: --summary-out: folder 'no-such-folder' does not exist; create it
    first.
    """
    lead = f"{option}: " if option else ""
    if not isinstance(path, (str, PathLike)) or not os.fspath(path).strip():
        raise ConfigError(f"{lead}an output file name is empty; give a file name (or leave the "
                          "option out).")
    text = os.fspath(path)
    if not isinstance(text, str):
        raise ConfigError(f"{lead}an output path must be text, not bytes.")
    if text.endswith(("/", os.sep)):
        raise ConfigError(_named(option, shown_path(Path(text)), "names a folder (it ends in '/'); "
                                 "give a file name for the output."))
    p = Path(text).expanduser()
    limit = name_max(p.parent if p.parent.is_dir() else ".")
    if len(os.fsencode(p.name)) > limit:
        raise ConfigError(f"{lead}the output name is {len(os.fsencode(p.name))} bytes long; this "
                          f"file system allows {limit}: give a shorter name.")
    if p.is_dir():
        raise ConfigError(_named(option, shown_path(p), "is a folder, not a file; give a file name "
                                 "for the output."))
    if not p.parent.exists():
        raise ConfigError(f"{lead}folder {shown_path(p.parent)} does not exist; create it first."
                          if option else
                          f"{shown_path(p.parent)}: folder does not exist; create it first.")
    if not p.parent.is_dir():
        raise ConfigError(_named(option, shown_path(p.parent), "is not a folder; give an output "
                                 "path inside a folder."))
    _check_writable(p, option, text)
    if is_input(p):
        raise ConfigError(_named(option, shown_path(p, text), "is an input of this run; write the "
                                 "output to another file (inputs are never overwritten, not even "
                                 "with --force)."))
    _check_special(p, option, text)
    if os.path.lexists(p) and not force:
        raise OutputExistsError(_exists(p, option, text))
    return p


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
            raise ConfigError(_named(option, shown_path(target), "is an input of this run; write "
                                     "the output to another file."))
        _check_special(target, option)
        os.replace(tmp, target)
    else:
        try:
            os.link(tmp, target)  # atomic and fails if the target appeared meanwhile
        except FileExistsError:
            raise OutputExistsError(_exists(target, option)) from None
        except OSError:  # no hard links on this file system
            if os.path.lexists(target):
                raise OutputExistsError(_exists(target, option)) from None
            os.replace(tmp, target)
        else:
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
                raise ConfigError(_named(option, shown_path(target), "cannot be written "
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
    ``24m``, ``1h30m``, ``10s``; never pandas' ``0 days 00:24:00``); Parquet keeps its own
    duration type.

    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> import pandas as pd
    >>> write_table(pd.DataFrame({"a": [1, 2]}), d / "t.csv").read_text()
    'a\\n1\\n2\\n'
    >>> t = pd.DataFrame({"gap": pd.to_timedelta(["24min", None]), "n": [1, 2]})
    >>> write_table(t, d / "g.csv").read_text()
    'gap,n\\n24m,1\\n,2\\n'
    """
    p = check_output(path, force=force)
    ext = p.suffix.lower()
    if ext not in TABLE_SUFFIXES:
        raise ConfigError(f"{shown_path(p)}: output must end in .csv or .parquet.")
    with atomic_path(p, force=force) as tmp:
        if ext == ".csv":
            from .csv_cells import neutralise, quoting

            safe = _durations_as_text(neutralise(table))
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
