"""Where an output may go, checked before any work: :func:`check_output` (a file),
:func:`check_out_folder` and :func:`make_folder` (a folder), and the words of their refusals: the
option that gave the path first, the path as :func:`shown_path` may show it, the true reason (a
part of the path that is a file, not a folder, is named as such: :func:`file_in_the_way`).
The atomic writes that follow are :mod:`budgetlab._util.files`'.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import secrets
import stat
from os import PathLike
from pathlib import Path

from ..errors import ConfigError, OutputExistsError
from .inputs import is_input, special_kind
from .words import say

__all__ = ["check_output", "check_out_folder", "file_in_the_way", "shown_path", "name_max",
           "make_folder", "named", "exists_refusal", "check_special"]

_SAFE_NAME = re.compile(r"[A-Za-z0-9_.,=+-]{1,80}")


def shown_path(path: Path, given: str = "") -> str:
    """A file name as a message may show it: quoted when it is plainly not personal data (short,
    ASCII letters, digits and ``_.,=+-`` only, fewer than 8 digits: no e-mail, phone or IP
    address fits), else a placeholder; ``given``, the path as typed, is shown whole when it is
    relative, to the working folder or to the home folder (``'ro/x.csv'``, ``'~/out'``, not
    ``'x.csv'``, ``'out'``), and each part plain; an absolute path by its name (it may hold the
    user's login, ``/home/fztu/...``). (This layer cannot use the detector of
    :mod:`budgetlab.privacy`; it errs on the side of hiding.)

    >>> shown_path(Path("/root/nonexist"), "~/nonexist"), shown_path(Path("/tmp/a/b"), "/tmp/a/b")
    ("'~/nonexist'", "'b'")
    """
    parts = given.replace(os.sep, "/").split("/")
    if (given and not os.path.isabs(given) and all(_SAFE_NAME.fullmatch(q) or (i == 0 and q == "~")
                                                   for i, q in enumerate(parts) if q)
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
    """``folder`` for a command's outputs, made when missing; the folder it goes in must exist,
    as for every output (a missing one is refused with the fix, never made silently). A file of
    that name or in its path (:func:`file_in_the_way`), or a folder that cannot be made, is
    refused in one line that names the command's ``flag``, the path as given and the folder at
    fault (:func:`shown_path`: a path outside the working folder by its last name).

    >>> make_folder(Path(os.devnull), flag="--out")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: --out: 'null' is a file, not a folder; --out takes a folder.
    >>> make_folder(Path("no-such-folder/deep/nb"), flag="--html")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: --html 'no-such-folder/deep/nb': folder 'no-such-folder/deep'
    does not exist; create it first.
    """
    given = shown_path(folder, str(folder))
    if folder.exists() and not folder.is_dir():
        raise ConfigError(f"{flag}: {given} is a file, not a folder; {flag} takes a folder.")
    blocker = file_in_the_way(folder)
    if blocker is not None:
        raise ConfigError(f"{flag} {given}: {shown_path(blocker, str(blocker))} is a file, not a "
                          f"folder; {flag} takes a folder.")
    parent = folder.parent
    if not parent.is_dir():
        raise ConfigError(f"{flag} {given}: folder {shown_path(parent, str(parent))} does not "
                          "exist; create it first.")
    try:
        folder.mkdir(exist_ok=True)
    except OSError as exc:
        raise ConfigError(f"{flag} {given}: cannot create the folder in "
                          f"{shown_path(parent.resolve(), str(parent))} "
                          f"({exc.strerror or type(exc).__name__}); give a folder you can write "
                          "to.") from None
    return folder


def named(option: str | None, subject: str, rest: str) -> str:
    """A refusal about one output: ``--out: 'a.csv' exists already; ...`` when the option that
    gave it is known (its flag on the command line, its keyword argument in the API), else
    ``'a.csv': exists already; ...``; an option that names the file already (one of the files
    of a folder option: ``--out bins.csv``) is not followed by the name again.

    >>> named("--plot", "'t.png'", "is a folder.")
    "--plot: 't.png' is a folder."
    >>> named(None, "'t.png'", "is a folder.")
    "'t.png': is a folder."
    >>> named("--out bins.csv", "'bins.csv'", "exists already.")
    '--out bins.csv: exists already.'
    """
    if not option:
        return f"{subject}: {rest}"
    if subject == repr(option.split()[-1]):
        return f"{option}: {rest}"
    return f"{option}: {subject} {rest}"


def exists_refusal(p: Path, option: str | None = None, given: str = "") -> str:
    return named(option, shown_path(p, given),
                  f"exists already; pass {say('force=True', '--force')} to overwrite it.")


def check_special(p: Path, option: str | None = None, given: str = "") -> None:
    try:
        mode = os.stat(p).st_mode
    except (OSError, ValueError):
        return
    if not stat.S_ISREG(mode) and not stat.S_ISDIR(mode):
        raise ConfigError(named(option, shown_path(p, given), f"is {special_kind(mode)}, not a "
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
        raise ConfigError(named(option, shown_path(p, given), f"cannot be written, {reason}; "
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
        raise ConfigError(named(option, shown_path(Path(text)), "names a folder (it ends in '/'); "
                                 "give a file name for the output."))
    p = Path(text).expanduser()
    limit = name_max(p.parent if p.parent.is_dir() else ".")
    if len(os.fsencode(p.name)) > limit:
        raise ConfigError(f"{lead}the output name is {len(os.fsencode(p.name))} bytes long; this "
                          f"file system allows {limit}: give a shorter name.")
    if p.is_dir():
        raise ConfigError(named(option, shown_path(p), "is a folder, not a file; give a file name "
                                 "for the output."))
    blocker = file_in_the_way(p)
    if blocker is not None:
        raise ConfigError(named(option, shown_path(p, text), "cannot be written: "
                                f"{shown_path(blocker, str(blocker))} is a file, not a folder; "
                                "give an output path inside a folder."))
    if not p.parent.exists():
        folder = shown_path(p.parent, os.path.dirname(text))
        raise ConfigError(f"{lead}folder {folder} does not exist; create it first." if option
                          else f"{folder}: folder does not exist; create it first.")
    _check_writable(p, option, text)
    if is_input(p):
        raise ConfigError(named(option, shown_path(p, text), "is an input of this run; write the "
                                 "output to another file (inputs are never overwritten, not even "
                                 "with --force)."))
    check_special(p, option, text)
    if os.path.lexists(p) and not force:
        raise OutputExistsError(exists_refusal(p, option, text))
    return p


def file_in_the_way(path: Path) -> Path | None:
    """The first folder of ``path`` (from the top) that exists and is a file, not a folder: what
    keeps an output from being written there; ``None`` when there is none.

    >>> file_in_the_way(Path(os.devnull) / "x" / "out.csv") == Path(os.devnull)
    True
    """
    for parent in reversed(path.parents):
        if not parent.exists():
            return None
        if not parent.is_dir():
            return parent
    return None


def check_out_folder(given: str, option: str, *, or_file: str = "") -> Path:
    """``given`` (as typed) as the existing folder of a command's outputs; a file there or in its
    path, or no folder, is refused naming ``option``, the path and the true reason; ``or_file``
    is what else ``option`` takes (``"a .csv/.parquet file for the episodes"``).

    >>> check_out_folder(os.devnull, "--out")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: --out: 'null' is a file, not a folder; give a folder.
    """
    p = Path(given).expanduser()
    if p.is_dir():
        return p
    alt = f", or give {or_file}" if or_file else ""
    blocker = p if p.exists() else file_in_the_way(p)
    if blocker == p:
        raise ConfigError(named(option, shown_path(p, given), f"is a file, not a folder; give a "
                                f"folder{alt}."))
    if blocker is not None:
        raise ConfigError(named(option, shown_path(p, given), "cannot be a folder: "
                                f"{shown_path(blocker, str(blocker))} is a file, not a folder; "
                                f"give a folder{alt}."))
    raise ConfigError(f"{option}: folder {shown_path(p, given)} does not exist; create "
                      f"it{alt}.")
