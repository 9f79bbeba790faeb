"""The words about a file's format: a ``format=`` value checked (``'access'``, the command line's
``--format access``, answered with the ways the API reads an access log) and a file whose name
says no format refused with every way that reads it (an access log, recognised by its first line,
told as one).
"""

from __future__ import annotations

from pathlib import Path

from .._util.validation import check_argument
from .._util.words import say
from ..errors import ConfigError, FileFormatError

__all__ = ["FORMATS", "check_format", "unsupported_file_type"]

#: The file formats read (``format=`` values).
FORMATS = ("csv", "tsv", "parquet", "jsonl")

#: How the API reads an access log (the command line recognises one by its first line).
READ_ACCESS_LOG = ("budgetlab.read_access_log(path) (its HTTP status the outcome, below 500 a "
                   "success) or read_events(path, preset='access')")


def check_format(fmt: str) -> str:
    """``fmt`` if it is a ``format=`` value; ``'access'`` is refused with the ways that read an
    access log.

    >>> check_format("csv")
    'csv'
    >>> check_format("access")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: format='access' is the command line's --format access: an \
access log is not a table format; read it with budgetlab.read_access_log(path) (its HTTP status \
the outcome, below 500 a success) or read_events(path, preset='access').
    """
    if isinstance(fmt, str) and fmt.strip().lower() == "access":
        raise ConfigError("format='access' is the command line's --format access: an access log "
                          f"is not a table format; read it with {READ_ACCESS_LOG}.")
    return str(check_argument("format", fmt, FORMATS))


def unsupported_file_type(path: Path, name: str, shown: str) -> FileFormatError:
    """The refusal of a file whose extension (``shown``, or its mask) says no format read, naming
    every way that reads it: an access log (by its first line) is told as one."""
    from .access_sniff import is_access_log
    from .presets import PRESETS

    head = f"{name}: unsupported file type {shown!r}"
    if is_access_log(path):
        return FileFormatError(
            f"{head}; its first line is an Apache/nginx access log (common/combined log format): "
            + say(f"read it with {READ_ACCESS_LOG}.", "read it with --format access."))
    others = ", ".join(repr(p) for p in PRESETS if p != "access")
    return FileFormatError(
        f"{head}; use .csv, .tsv, .parquet, .jsonl/.ndjson (text formats optionally .gz), or pass "
        + say("format='csv'|'tsv'|'parquet'|'jsonl'; an Apache/nginx access log is read with "
              f"{READ_ACCESS_LOG}, another line-oriented text log with preset= ({others}) or "
              "pattern= (a regex with named groups).",
              "--format csv|tsv|parquet|jsonl|access; a line-oriented text log is read with "
              f"--pattern REGEX or --preset NAME ({', '.join(PRESETS)})."))
