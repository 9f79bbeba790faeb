"""Web-server access logs (Apache/nginx common or combined log format) as canonical events:
:func:`read_access_log` is :func:`~budgetlab.read_events` with the ``access`` preset of the line
reader (:mod:`budgetlab.events.lines`: scanning, the lines not in the format, times) and the shared
assembly (personal-data guard, canonical table, sorting, "how it was read"). What is HTTP's own
lives here: the status -> outcome rule (``ok(status)``, by default below 500 is a success), the
failure buckets by status class, the ``method``/``status``/``status_class`` keys and the words
of the "how it was read" block.

Only the time, the HTTP status and (if asked for with ``by=``) the request method are read. The
client address, identity and user fields, the request path, the referrer and the user agent are
personal data or may hold it: they are matched by the pattern but never extracted.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from os import PathLike
from typing import Any

import numpy as np
import pandas as pd

from .._util.validation import as_list, check_argument
from ..errors import ConfigError
from .access_sniff import is_access_log
from .how_read import HowRead, skip_reasons
from .lines import NOT_IN_FORMAT
from .presets import PRESETS
from .read import read_events
from .schema import SUCCESS
from .spec import ReadSpec
from .vocabulary import check_outcomes

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
_TIME_READING = "access-log times with UTC offsets (each line its own instant)"


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


def _meaning_of_status(ok: Callable[[int], Any] | None) -> Callable[[str], str]:
    """The status -> outcome rule as ``outcomes=`` takes it: ``ok(status)`` (default: below 500
    is a success), a failure bucketed by its status class."""
    rule = ok if ok is not None else (lambda status: status < 500)

    def meaning(label: str) -> str:
        status = int(label)
        if _ok_flags(rule, np.array([status]))[0]:
            return SUCCESS
        return SERVER_ERROR if status >= 500 else CLIENT_ERROR if status >= 400 else OTHER_ERROR

    return meaning


def _regrouped(col: pd.Series, names: pd.Index) -> pd.Categorical:
    """A categorical key from a read column (``names``: its categories renamed, perhaps several
    to one): sorted categories, only those some row has."""
    uniq, inverse = np.unique(np.asarray(names, dtype=object).astype(str), return_inverse=True)
    return pd.Categorical.from_codes(inverse[np.asarray(col.cat.codes)],
                                     categories=pd.Index(uniq, dtype="str")
                                     ).remove_unused_categories()


def _keys(events: pd.DataFrame, keys: list[str]) -> dict[str, pd.Categorical]:
    """The ``by`` keys: the request method (upper case; ``-`` when none), the status, the status
    class."""
    out = {}
    for key in keys:
        if key == "method":
            names = events["method"].cat.categories.str.upper()
            out[key] = _regrouped(events["method"], names.where(names != "", "-"))
        else:
            names = events["outcome"].cat.categories
            out[key] = _regrouped(events["outcome"],
                                  names if key == "status" else names.str[0] + "xx")
    return out


def _http_words(how: HowRead, ok: Callable[[int], Any] | None, mapping: bool) -> HowRead:
    """The "how it was read" block in the words of access logs: the time and status fields, the
    rule each status was read by."""
    labels = how.labels
    if not mapping:
        rule = "default: status < 500 is a success" if ok is None else "ok(status)"
        labels = tuple(sorted((dataclasses.replace(r, rule=rule) for r in labels),
                              key=lambda r: (r.meaning != SUCCESS, r.meaning, -r.rows,
                                             int(r.label or 0))))
    bad = dict(how.skipped).get(NOT_IN_FORMAT, 0)
    return dataclasses.replace(
        how, skipped=skip_reasons(labels, "status") + (((NOT_IN_FORMAT, bad),) if bad else ()),
        time_column="[time]", time_reading=_TIME_READING, outcome_column="status",
        vocabulary="status mapping outcomes=" if mapping else "HTTP status", labels=labels)


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
        Lines not in the format (or with an impossible time or a status outside 100..599):
        ``'raise'`` a :class:`~budgetlab.errors.FileFormatError` naming their file and line
        numbers, or ``'skip'`` them with a warning; the count is in
        ``events.attrs["skipped_lines"]``. The line reader's rule, as ``read_events(...,
        preset="access", on_error=...)`` applies it (:mod:`budgetlab.events.lines`).

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
    kept = [c for c, wanted in (("method", "method" in keys),
                                ("outcome", bool({"status", "status_class"} & set(keys))))
            if wanted]
    events = read_events(path, ReadSpec(preset="access", keep=kept, on_error=on_error,
                                        outcomes=_meaning_of_status(ok) if table is None
                                        else table))
    how = _http_words(HowRead.from_dict(events.attrs["how_read"]), ok, table is not None)
    if keys:
        events = pd.DataFrame({**{c: events[c] for c in ("ts", "ok", "bucket")},
                               **_keys(events, keys)}, copy=False)
    events.attrs = {"skipped_lines": dict(how.skipped).get(NOT_IN_FORMAT, 0),
                    "how_read": how.as_dict()}
    return events
