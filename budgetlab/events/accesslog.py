"""Web-server access logs (Apache/nginx common or combined log format) as canonical events.

Only the time, the HTTP status and (if asked for with ``by=``) the request method or status are
read. The client address, identity and user fields, the request path, the referrer and the user
agent are personal data or may hold it: they are matched by the pattern but never extracted.
"""

from __future__ import annotations

import dataclasses
import re
import warnings
from collections.abc import Callable, Mapping, Sequence
from os import PathLike
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._util.files import register_input
from .._util.validation import as_list, check_argument
from ..errors import ConfigError, FileFormatError, InputError
from ._formats import check_path
from ._input import CR_ONLY_NOTE, compression_of, cr_only, file_name, read_input
from .outcomes import LabelReading, OutcomeReading, check_outcomes, classify_outcomes
from .report import HowRead, skip_reasons, time_span
from .schema import SUCCESS, as_events, bucket_dtype, ts_ns
from .sources import expand_sources, file_notes

__all__ = ["read_access_log", "is_access_log", "ACCESS_LOG_KEYS", "SERVER_ERROR", "CLIENT_ERROR", "OTHER_ERROR"]

SERVER_ERROR = "server_error"  # a failure with a 5xx status
CLIENT_ERROR = "client_error"  # a failure with a 4xx status (only if ``ok`` calls 4xx failures)
OTHER_ERROR = "other_error"  # a failure with any other status
#: Group keys :func:`read_access_log` can add with ``by=``; nothing personal.
ACCESS_LOG_KEYS = ("method", "status", "status_class")

# host ident user [time] "request" status size ["referrer" "user agent"] [more fields]
# Only time, method and status are captured (RE2 syntax, run by pyarrow over all lines at once).
_QUOTED = r'"(?:[^"\\]|\\.)*"'
_PATTERN = (
    r"^[^ ]+ [^ ]+ (?:[^ ]+|" + _QUOTED + r") \[(?P<time>[^\]]+)\] "
    r'"(?P<method>[A-Za-z]*)(?:[^"\\]|\\.)*" (?P<status>[0-9]{3}) (?:[0-9]+|-)'
    r"(?: .*)?[\r]?$"
)
_TIME_FORMAT = "%d/%b/%Y:%H:%M:%S %z"
_MAX_LINES_LISTED = 10


def _line_list(numbers: np.ndarray) -> str:
    shown = ", ".join(str(int(n)) for n in numbers[:_MAX_LINES_LISTED])
    more = len(numbers) - min(len(numbers), _MAX_LINES_LISTED)
    return shown + (f" and {more} more" if more > 0 else "")


def _head(path: Path) -> bytes:
    with open(path, "rb") as fh:  # read-only
        return fh.read(16)


def _read_text(path: Path, notes: list[str] | None = None) -> str:
    check_path(path, how="a folder of logs: pass the folder to read_access_log as a list of its files or a glob "
               "such as 'logs/access.log*' (CLI: budgetlab replay logs/)")
    register_input(path)
    name = file_name(path)
    raw = read_input(path, name, notes)  # compressed by content too (a gzip named access.log.2), streamed under a cap
    if path.suffix.lower() == ".gz" and compression_of(_head(path)) != "gzip":
        raise FileFormatError(f"{name}: is named .gz but is not gzip data; the gzip stream is truncated or corrupt, "
                              "or the file is misnamed.")
    if cr_only(raw):  # old Mac line ends: the lines they are
        raw = raw.replace(b"\r", b"\n")
        if notes is not None:
            notes.append(CR_ONLY_NOTE)
    # Undecodable bytes can only sit in fields that are never extracted (paths, user agents), or
    # make a line malformed; replacing them never alters a kept value.
    return raw.decode("utf-8", errors="replace")


def is_access_log(path: str | PathLike[str]) -> bool:
    """Whether the file's first non-blank line is in common/combined log format (read by content:
    gzip, bzip2 and xz are recognised by their magic bytes, not by the name).

    >>> import pathlib, tempfile
    >>> log = pathlib.Path(tempfile.mkdtemp()) / "access.log.1"
    >>> _ = log.write_text('192.0.2.8 - - [10/Oct/2026:13:55:36 +0200] "GET / HTTP/1.1" 200 2326\\n')
    >>> is_access_log(log)
    True
    """
    p = Path(path).expanduser()
    if not p.is_file():
        return False
    try:
        with open(p, "rb") as fh:
            head = fh.read(1 << 16)
        kind = compression_of(head)
        if kind in ("gzip", "bz2", "xz"):
            import bz2
            import gzip
            import lzma
            import zlib

            opener: Any = {"gzip": gzip.open, "bz2": bz2.open, "xz": lzma.open}[kind]
            try:
                with opener(p, "rb") as fh:
                    head = fh.read(1 << 16)
            except (EOFError, zlib.error, lzma.LZMAError):
                return False
    except OSError:  # also a corrupt bzip2 stream
        return False
    lines = head.decode("utf-8", errors="replace").splitlines()
    for line in lines[:-1] or lines:  # the last line of the head may be cut
        if line.strip():
            return re.match(_PATTERN, line) is not None
    return False


def _ok_flags(ok: Callable[[int], Any], statuses: np.ndarray) -> np.ndarray:
    """``ok(status)`` for each distinct status (a loop over status codes, not over events)."""
    flags = np.empty(len(statuses), dtype=bool)
    for i, status in enumerate(statuses.tolist()):
        try:
            value = ok(int(status))
        except Exception as exc:
            raise ConfigError(f"ok({status}) raised {type(exc).__name__}; ok must map an int status to True/False.") from None
        if not isinstance(value, (bool, np.bool_)):
            raise ConfigError(f"ok({status}) returned {type(value).__name__}, not a bool; e.g. ok=lambda status: status < 500.")
        flags[i] = bool(value)
    return flags


def _parse_file(path: Path, on_error: str, notes: list[str]) -> tuple[pd.Series, np.ndarray, pd.Series, int]:
    """``(times, statuses, methods, lines skipped)`` of the good lines of one file (its reading
    decisions appended to ``notes``)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    text = _read_text(path, notes)
    lines = pc.split_pattern(pa.array([text], type=pa.large_string()), "\n").flatten()
    del text
    number = np.arange(1, len(lines) + 1)
    blank = np.asarray(pc.match_substring_regex(lines, r"^\s*$"), dtype=bool)
    parts = pc.extract_regex(lines, _PATTERN)
    matched = np.asarray(parts.is_valid(), dtype=bool)

    # time and status of every matching line; an impossible value makes the line malformed too
    time_text = pd.Series(parts.field("time").to_pandas(), dtype="str")
    ts = pd.to_datetime(time_text, format=_TIME_FORMAT, utc=True, errors="coerce")
    status = pd.to_numeric(pd.Series(parts.field("status").to_pandas(), dtype="str"), errors="coerce")
    status_ok = np.asarray(status.between(100, 599), dtype=bool)
    good = matched & np.asarray(ts.notna(), dtype=bool) & status_ok
    bad = ~good & ~blank
    n_bad = int(bad.sum())
    if n_bad and on_error == "raise":
        raise FileFormatError(
            f"{file_name(path)}: {n_bad} line(s) not in common/combined log format (line {_line_list(number[bad])}); "
            "fix them or pass on_error='skip' to drop them."
        )
    if not good.any():
        raise FileFormatError(f"{file_name(path)}: no line in common/combined log format; is this an access log?")
    if n_bad:
        warnings.warn(
            f"{file_name(path)}: skipped {n_bad} line(s) not in common/combined log format (line {_line_list(number[bad])}).",
            UserWarning,
            stacklevel=3,
        )
    method = pd.Series(parts.field("method").to_pandas(), dtype="str")[good].str.upper()
    return (ts[good].reset_index(drop=True), status.to_numpy()[good].astype(np.int64),
            method.mask(method == "", "-").reset_index(drop=True), n_bad)


def _default_reading(codes: np.ndarray, ok: Callable[[int], Any] | None) -> OutcomeReading:
    """Statuses through ``ok(status)`` (default: below 500 is a success); failures by class."""
    distinct, inverse = np.unique(codes, return_inverse=True)
    flags = _ok_flags(ok if ok is not None else (lambda status: status < 500), distinct)
    kinds = np.where(distinct >= 500, SERVER_ERROR, np.where((distinct >= 400) & (distinct < 500), CLIENT_ERROR,
                                                            OTHER_ERROR))
    meaning = np.where(flags, SUCCESS, kinds)
    success = flags[inverse]
    bucket = meaning[inverse]
    dtype = bucket_dtype(set(meaning.tolist()) - {SUCCESS})
    counts = np.bincount(inverse, minlength=len(distinct))
    rule = "default: status < 500 is a success" if ok is None else "ok(status)"
    rows = sorted((LabelReading(str(c), str(m), rule, int(n)) for c, m, n in zip(distinct, meaning, counts, strict=True)),
                  key=lambda r: (r.meaning != SUCCESS, r.meaning, -r.rows))
    categorical: pd.Categorical = pd.Categorical(np.asarray(bucket, dtype=object), dtype=dtype)
    return OutcomeReading(success, categorical, np.zeros(len(codes), dtype=bool),
                          tuple(rows), "HTTP status")


def read_access_log(
    path: str | PathLike[str] | Sequence[str | PathLike[str]],
    *,
    ok: Callable[[int], bool] | None = None,
    outcomes: Mapping[str, str] | None = None,
    by: str | Sequence[str] | None = None,
    on_error: str = "raise",
) -> pd.DataFrame:
    """Read access logs in common or combined log format into canonical events.

    Parameters
    ----------
    path : str or path, or a list of them
        The log file (gzip is recognised by its content, whatever the name), a list of files, a
        glob (``"logs/access.log*"``) or a folder (rotated or daily logs: files sorted by name).
        Lines may be in any order; blank lines are ignored.
    ok : callable, optional
        ``ok(status) -> bool`` for an int HTTP status; default: anything below 500 is a success.
        Failures are ``server_error`` (5xx), ``client_error`` (4xx) or ``other_error``.
    outcomes : mapping, optional
        Instead of ``ok``: a complete status mapping, with ranges, e.g. ``{"2xx": "success",
        "3xx": "success", "4xx": "skip", "5xx": "server_error"}`` (an exact code such as
        ``"404"`` wins over ``"40x"``, which wins over ``"4xx"``; ``skip`` leaves the rows out).
        A status it does not cover is refused with its count.
    by : str or list, optional
        Group keys to keep, from :data:`ACCESS_LOG_KEYS`: ``method`` (``GET``, ... ; ``-`` when the
        request line has none), ``status`` (``"200"``), ``status_class`` (``"2xx"``).
    on_error : {'raise', 'skip'}
        Lines not in the format (or with an impossible time or status): ``'raise'`` a
        :class:`~budgetlab.errors.FileFormatError` naming their file and line numbers, or
        ``'skip'`` them with a warning; the count is in ``events.attrs["skipped_lines"]``.

    Returns
    -------
    DataFrame
        Canonical events sorted stably by time (file order, then line order, among equal
        times): ``ts`` (datetime64[ns, UTC]), ``ok``, ``bucket`` (``success`` then the failure
        buckets present), then the ``by`` keys (categoricals). ``attrs["how_read"]`` says how it
        was read (lines, skips, each status -> meaning with its count).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> log = pathlib.Path(tempfile.mkdtemp()) / "access.log"
    >>> _ = log.write_text(
    ...     '192.0.2.7 - frank [10/Oct/2026:13:55:40 +0200] "GET /a HTTP/1.1" 503 12\\n'
    ...     '192.0.2.8 - - [10/Oct/2026:13:55:36 +0200] "POST /b HTTP/1.1" 200 2326 "-" "curl/8"\\n')
    >>> events = read_access_log(log, by="method")
    >>> events.astype({"ts": str}).to_dict("list")
    {'ts': ['2026-10-10 11:55:36+00:00', '2026-10-10 11:55:40+00:00'], 'ok': [True, False], 'bucket': ['success', 'server_error'], 'method': ['POST', 'GET']}
    >>> read_access_log(log, outcomes={"2xx": "success", "5xx": "skip"})["ok"].tolist()
    [True]
    """
    keys = as_list(by)
    for key in keys:
        check_argument("by", key, ACCESS_LOG_KEYS)
    if len(set(keys)) != len(keys):
        raise ConfigError("by= names a key twice; give each key once.")
    check_argument("on_error", on_error, ("raise", "skip"))
    if ok is not None and not callable(ok):
        raise ConfigError("ok must be a function of the int HTTP status, e.g. ok=lambda status: status < 500.")
    if ok is not None and outcomes is not None:
        raise ConfigError("give ok= (a function of the status) or outcomes= (a status mapping), not both.")
    table = check_outcomes(outcomes)
    paths = expand_sources(path)
    per_file: list[list[str]] = [[] for _ in paths]
    parsed = [_parse_file(p, on_error, n) for p, n in zip(paths, per_file, strict=True)]
    ts = pd.concat([x[0] for x in parsed], ignore_index=True) if len(parsed) > 1 else parsed[0][0]
    codes = np.concatenate([x[1] for x in parsed])
    n_bad = sum(x[3] for x in parsed)
    if table is None:
        reading = _default_reading(codes, ok)
    else:
        reading = classify_outcomes(pd.Series(codes.astype(str), dtype="str"), table)
        reading = dataclasses.replace(reading, vocabulary="status mapping outcomes=")
    keep = ~reading.skip
    if not keep.any():
        raise InputError("every line maps to skip; nothing is left to analyse: check outcomes=.")
    groups: dict[str, Any] = {}
    for key in keys:
        if key == "method":
            groups[key] = pd.concat([x[2] for x in parsed], ignore_index=True).to_numpy()[keep]
        elif key == "status":
            groups[key] = codes[keep].astype(str)
        else:
            groups[key] = np.char.add((codes[keep] // 100).astype(str), "xx")
    events = as_events(ts[keep].reset_index(drop=True), reading.ok[keep],
                       np.asarray(reading.bucket.astype(str))[keep], groups=groups)
    events["bucket"] = events["bucket"].cat.set_categories(  # only the buckets the log has
        list(bucket_dtype(set(events["bucket"].astype(str)) - {SUCCESS}).categories))
    first, last = time_span(ts_ns(events))
    skipped = skip_reasons(reading.labels, "status") + ((("lines not in the format", n_bad),) if n_bad else ())
    events.attrs["skipped_lines"] = n_bad
    events.attrs["how_read"] = HowRead(
        files=tuple((file_name(p), len(x[1]) + x[3]) for p, x in zip(paths, parsed, strict=True)),
        rows_read=len(codes) + n_bad, rows_kept=len(events), skipped=skipped, time_column="[time]",
        time_reading="access-log times with UTC offsets (each line its own instant)", first=first, last=last,
        outcome_column="status", vocabulary=reading.vocabulary, labels=reading.labels,
        notes=tuple(file_notes([file_name(p) for p in paths], per_file)),
    )
    return events
