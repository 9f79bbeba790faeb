"""Web-server access logs (Apache/nginx common or combined log format) as canonical events.

Only the time, the HTTP status and (if asked for with ``by=``) the request method or status are
read. The client address, identity and user fields, the request path, the referrer and the user
agent are personal data or may hold it: they are matched by the pattern but never extracted.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from os import PathLike
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._util.validation import as_list, check_argument
from ..errors import ConfigError, FileFormatError
from ._formats import gunzip
from .schema import SUCCESS, as_events

__all__ = ["read_access_log", "ACCESS_LOG_KEYS", "SERVER_ERROR", "CLIENT_ERROR", "OTHER_ERROR"]

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


def _read_text(path: Path) -> str:
    if not path.is_file():
        raise FileFormatError(f"{path}: no such file; check the path.")
    with open(path, "rb") as fh:  # read-only
        raw = fh.read()
    if path.suffix.lower() == ".gz":
        raw = gunzip(raw, path.name)
    # Undecodable bytes can only sit in fields that are never extracted (paths, user agents), or
    # make a line malformed; replacing them never alters a kept value.
    return raw.decode("utf-8", errors="replace")


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


def read_access_log(
    path: str | PathLike[str],
    *,
    ok: Callable[[int], bool] = lambda status: status < 500,
    by: str | Sequence[str] | None = None,
    on_error: str = "raise",
) -> pd.DataFrame:
    """Read an access log in common or combined log format into canonical events.

    Parameters
    ----------
    path : str or path
        The log file (``.gz`` is decompressed). Lines may be in any order; blank lines are ignored.
    ok : callable
        ``ok(status) -> bool`` for an int HTTP status; default: anything below 500 is a success.
    by : str or list, optional
        Group keys to keep, from :data:`ACCESS_LOG_KEYS`: ``method`` (``GET``, ... ; ``-`` when the
        request line has none), ``status`` (``"200"``), ``status_class`` (``"2xx"``).
    on_error : {'raise', 'skip'}
        Lines not in the format (or with an impossible time or status): ``'raise'`` a
        :class:`~budgetlab.errors.FileFormatError` naming their line numbers, or ``'skip'`` them
        with a warning; the count is in ``events.attrs["skipped_lines"]``.

    Returns
    -------
    DataFrame
        Canonical events sorted stably by time (file order among equal times): ``ts``
        (datetime64[ns, UTC]), ``ok``, ``bucket`` (``success``; failures ``server_error`` for 5xx,
        ``client_error`` for 4xx, ``other_error`` otherwise), then the ``by`` keys (categoricals).

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
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    keys = as_list(by)
    for key in keys:
        check_argument("by", key, ACCESS_LOG_KEYS)
    if len(set(keys)) != len(keys):
        raise ConfigError("by= names a key twice; give each key once.")
    check_argument("on_error", on_error, ("raise", "skip"))
    if not callable(ok):
        raise ConfigError("ok must be a function of the int HTTP status, e.g. ok=lambda status: status < 500.")
    p = Path(path)
    text = _read_text(p)

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
            f"{p.name}: {n_bad} line(s) not in common/combined log format (line {_line_list(number[bad])}); "
            "fix them or pass on_error='skip' to drop them."
        )
    if not good.any():
        raise FileFormatError(f"{p.name}: no line in common/combined log format; is this an access log?")
    if n_bad:
        warnings.warn(
            f"{p.name}: skipped {n_bad} line(s) not in common/combined log format (line {_line_list(number[bad])}).",
            UserWarning,
            stacklevel=2,
        )

    codes = status.to_numpy()[good].astype(np.int64)
    distinct, inverse = np.unique(codes, return_inverse=True)
    success = _ok_flags(ok, distinct)[inverse]
    failure_kind = np.where(codes >= 500, 2, np.where((codes >= 400) & (codes < 500), 1, 0))
    bucket = np.where(success, SUCCESS, np.array([OTHER_ERROR, CLIENT_ERROR, SERVER_ERROR])[failure_kind])

    groups: dict[str, Any] = {}
    for key in keys:
        if key == "method":
            method = pd.Series(parts.field("method").to_pandas(), dtype="str")[good].str.upper()
            groups[key] = method.mask(method == "", "-").to_numpy()
        elif key == "status":
            groups[key] = codes.astype(str)
        else:
            groups[key] = np.char.add((codes // 100).astype(str), "xx")
    events = as_events(ts[good].reset_index(drop=True), success, bucket, groups=groups)
    events.attrs["skipped_lines"] = n_bad
    return events
