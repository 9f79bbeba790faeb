"""Web-server access logs (Apache/nginx common or combined log format) as canonical events: the
``access`` preset of the line reader (:mod:`budgetlab.events.lines`), its times read with the
time-format path (:func:`budgetlab.events.timeformat.instants`), its HTTP statuses mapped to
outcomes here.

Only the time, the HTTP status and (if asked for with ``by=``) the request method or status are
read. The client address, identity and user fields, the request path, the referrer and the user
agent are personal data or may hold it: they are matched by the pattern but never extracted.
"""

from __future__ import annotations

import bz2
import dataclasses
import gzip
import lzma
import re
import warnings
import zlib
from collections.abc import Callable, Mapping, Sequence
from os import PathLike
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from .._util.validation import as_list, check_argument, utc_from_ns
from ..errors import ConfigError, FileFormatError, InputError
from ._text import compression_of
from .files import expand_sources, file_name, file_notes
from .lines import MAX_LINES_LISTED, PRESETS, line_list, scan_lines
from .outcomes import OutcomeReading, check_outcomes, classify_outcomes
from .schema import SUCCESS, HowRead, bucket_dtype, skip_reasons, sort_by_time
from .timeformat import instants

__all__ = ["read_access_log", "is_access_log", "ACCESS_LOG_KEYS", "SERVER_ERROR", "CLIENT_ERROR",
           "OTHER_ERROR", "LOG_PATTERN", "TIME_FORMAT"]

SERVER_ERROR = "server_error"  # a failure with a 5xx status
CLIENT_ERROR = "client_error"  # a failure with a 4xx status (only if ``ok`` calls 4xx failures)
OTHER_ERROR = "other_error"  # a failure with any other status
#: Group keys :func:`read_access_log` can add with ``by=``; nothing personal.
ACCESS_LOG_KEYS = ("method", "status", "status_class")
#: The pattern of one line (RE2, also valid for Python's ``re``): groups ``ts``, ``method`` and
#: ``outcome`` (the status); and the time format of common/combined logs (``strptime``).
LOG_PATTERN, TIME_FORMAT = PRESETS["access"].pattern, PRESETS["access"].time_format
#: :data:`LOG_PATTERN` with an unquoted user and the method before a non-letter: one-pass, so RE2
#: extracts fast; on the lines it matches, :data:`LOG_PATTERN` matches with the same groups.
_FAST = (r'^[^ ]+ [^ ]+ [^ ]+ \[(?P<ts>[^\]]+)\] '
         r'"(?P<method>[A-Za-z]*)(?:[^A-Za-z"\\](?:[^"\\]|\\.)*)?" '
         r"(?P<outcome>[0-9]{3}) (?:[0-9]+|-)(?: |$)")


def is_access_log(path: str | PathLike[str]) -> bool:
    """Whether the file's first non-blank line is in common/combined log format (read by content:
    gzip, bzip2 and xz are recognised by their magic bytes, not by the name).

    >>> import pathlib, tempfile
    >>> log = pathlib.Path(tempfile.mkdtemp()) / "access.log.1"
    >>> _ = log.write_text(
    ...     '192.0.2.8 - - [10/Oct/2026:13:55:36 +0200] "GET / HTTP/1.1" 200 2326\\n')
    >>> is_access_log(log)
    True
    """
    p = Path(path).expanduser()
    if not p.is_file():
        return False
    try:
        with open(p, "rb") as fh:
            kind = compression_of(fh.read(16))
        opener: Any = {"gzip": gzip.open, "bz2": bz2.open, "xz": lzma.open}.get(kind or "", open)
        with opener(p, "rb") as fh:
            head = fh.read(1 << 16)
    except (OSError, EOFError, zlib.error, lzma.LZMAError):  # OSError: also a corrupt bzip2 stream
        return False
    lines = head.decode("utf-8", errors="replace").splitlines()
    for line in lines[:-1] or lines:  # the last line of the head may be cut
        if line.strip():
            return re.match(LOG_PATTERN, line) is not None
    return False


def _ok_flags(ok: Callable[[int], Any], statuses: np.ndarray) -> np.ndarray:
    """``ok(status)`` for each distinct status (a loop over status codes, not over events)."""
    flags = np.empty(len(statuses), dtype=bool)
    for i, status in enumerate(statuses.tolist()):
        try:
            value = ok(int(status))
        except Exception as exc:
            raise ConfigError(f"ok({status}) raised {type(exc).__name__}; ok must map an int "
                              "status to True/False.") from None
        if not isinstance(value, (bool, np.bool_)):
            raise ConfigError(f"ok({status}) returned {type(value).__name__}, not a bool; "
                              "e.g. ok=lambda status: status < 500.")
        flags[i] = bool(value)
    return flags


def _read_file(path: Path, on_error: str, with_method: bool,
               ) -> tuple[np.ndarray, np.ndarray, pa.ChunkedArray, int, int, list[str]]:
    """``(times in ns, statuses, methods, lines skipped, lines, notes)`` of the good lines of one
    file: those the pattern matches with a real time and a status in 100..599."""
    # a group costs time: the method's only when it is kept
    strict, fast = (p if with_method else p.replace("(?P<method>", "(?:")
                    for p in (LOG_PATTERN, _FAST))
    scan = scan_lines(path, strict, replace=True, fast=fast)
    ns, good = instants(scan.events.column("ts"), TIME_FORMAT)
    status = np.asarray(scan.events.column("outcome").cast(pa.int16()), dtype=np.int16)
    good &= (status >= 100) & (status <= 599)
    n_bad = scan.unmatched + int((~good).sum())
    listed = line_list(np.sort(np.concatenate([scan.first_unmatched,
                                               scan.numbers[~good][:MAX_LINES_LISTED]])), n_bad)
    what = f"{n_bad} line(s) not in common/combined log format (line {listed})"
    if n_bad and on_error == "raise":
        raise FileFormatError(f"{scan.name}: {what}; fix them or pass on_error='skip' to drop "
                              "them.")
    if not good.any():
        raise FileFormatError(f"{scan.name}: no line in common/combined log format; is this an "
                              "access log?")
    if n_bad:
        warnings.warn(f"{scan.name}: skipped {what}.", UserWarning, stacklevel=3)
    method = scan.events.column("method").filter(pa.array(good)) if with_method \
        else pa.chunked_array([], pa.string())
    return ns[good], status[good], method, n_bad, scan.lines, list(scan.notes)


def _reading(
    codes: np.ndarray, ok: Callable[[int], Any] | None, table: dict[str, str] | None
) -> OutcomeReading:
    """Statuses through ``outcomes`` (a status mapping), else through ``ok(status)`` (default:
    below 500 is a success), failures by class."""
    distinct, inverse = np.unique(codes, return_inverse=True)
    names = pd.Index(distinct.astype(str), dtype="str")
    status = pd.Series(pd.Categorical.from_codes(inverse, categories=names))
    if table is not None:
        return dataclasses.replace(classify_outcomes(status, table),
                                   vocabulary="status mapping outcomes=")
    flags = _ok_flags(ok if ok is not None else (lambda status: status < 500), distinct)
    kinds = np.select([distinct >= 500, distinct >= 400], [SERVER_ERROR, CLIENT_ERROR], OTHER_ERROR)
    meanings = dict(zip(names, np.where(flags, SUCCESS, kinds).tolist(), strict=True))
    reading = classify_outcomes(status, meanings, require_success=False)
    rule = "default: status < 500 is a success" if ok is None else "ok(status)"
    rows = sorted((dataclasses.replace(r, rule=rule) for r in reading.labels),
                  key=lambda r: (r.meaning != SUCCESS, r.meaning, -r.rows))
    return dataclasses.replace(reading, labels=tuple(rows), vocabulary="HTTP status")


def _key_columns(
    codes: np.ndarray, methods: pa.ChunkedArray, keys: list[str]
) -> dict[str, pd.Categorical]:
    """The ``by`` keys: the request method (``-`` when none), the status, the status class."""
    distinct, inverse = np.unique(codes, return_inverse=True)
    names = {"status": distinct.astype(str),
             "status_class": np.char.add((distinct // 100).astype(str), "xx")}
    out = {}
    for key in keys:
        if key == "method":
            upper = pc.utf8_upper(methods)
            out[key] = pd.Series(pc.if_else(pc.equal(upper, ""), "-", upper).to_pandas()) \
                .astype("category").array
        else:
            cats, code_of = np.unique(names[key], return_inverse=True)
            out[key] = pd.Categorical.from_codes(code_of[inverse],
                                                 categories=pd.Index(cats, dtype="str"))
    return out


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
    ...     '192.0.2.8 - - [10/Oct/2026:13:55:36 +0200] "POST /b HTTP/1.1" 200 2326 '
    ...     '"-" "curl/8"\\n')
    >>> events = read_access_log(log, by="method")
    >>> events.astype({"ts": str}).to_dict("list")
    {'ts': ['2026-10-10 11:55:36+00:00', '2026-10-10 11:55:40+00:00'], 'ok': [True, False],
    'bucket': ['success', 'server_error'], 'method': ['POST', 'GET']}
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
        raise ConfigError("ok must be a function of the int HTTP status, e.g. "
                          "ok=lambda status: status < 500.")
    if ok is not None and outcomes is not None:
        raise ConfigError("give ok= (a function of the status) or outcomes= (a status mapping), "
                          "not both.")
    table = check_outcomes(outcomes)
    paths = expand_sources(path)
    parsed = [_read_file(p, on_error, "method" in keys) for p in paths]
    t = np.concatenate([x[0] for x in parsed])
    codes = np.concatenate([x[1] for x in parsed])
    methods = pa.chunked_array([c for x in parsed for c in x[2].chunks], type=pa.string())
    n_bad = sum(x[3] for x in parsed)
    reading = _reading(codes, ok, table)
    keep = ~reading.skip
    if not keep.any():
        raise InputError("every line maps to skip; nothing is left to analyse: check outcomes=.")
    if not keep.all():
        t, codes = t[keep], codes[keep]
        methods = methods.filter(pa.array(keep)) if len(methods) else methods
    bucket = reading.bucket[keep]
    present = set(pd.unique(bucket.astype(str)).tolist()) - {SUCCESS}
    events = pd.DataFrame({"ts": utc_from_ns(t, copy=False).array, "ok": reading.ok[keep],
                           "bucket": pd.Categorical(bucket, dtype=bucket_dtype(present)),
                           **_key_columns(codes, methods, keys)}, copy=False)
    events, first, last = sort_by_time(events, t)
    skipped = skip_reasons(reading.labels, "status") \
        + ((("lines not in the format", n_bad),) if n_bad else ())
    names = [file_name(p) for p in paths]
    events.attrs["skipped_lines"] = n_bad
    events.attrs["how_read"] = HowRead(
        files=tuple((name, x[4]) for name, x in zip(names, parsed, strict=True)),
        rows_read=len(reading.ok) + n_bad, rows_kept=len(events), skipped=skipped,
        time_column="[time]", first=first, last=last,
        time_reading="access-log times with UTC offsets (each line its own instant)",
        outcome_column="status", vocabulary=reading.vocabulary, labels=reading.labels,
        notes=tuple(file_notes(names, [x[5] for x in parsed])))
    return events
