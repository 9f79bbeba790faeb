"""The canonical event table: the one contract every module shares.

=============  ===========================  ==============================================
column         dtype                        meaning
=============  ===========================  ==============================================
``ts``         ``datetime64[ns, UTC]``      when the attempt finished, sorted ascending
``ok``         ``bool``                     success
``bucket``     ordered categorical          ``success`` then the failure kinds the data has
group keys     categorical                  declared with ``by=``, never guessed
``session_id`` string (optional)            opaque id, may be hashed on load
=============  ===========================  ==============================================

:func:`as_events` builds the table from arrays; :func:`check_events` is what every function
that takes ``events`` calls first.

How a reader read an input (``events.attrs["how_read"]``) is :mod:`budgetlab.events.how_read`.

Readers' messages never show a data value (:mod:`budgetlab.events._messages`).
"""

from __future__ import annotations

import datetime
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._util.validation import as_list, require_columns
from ..errors import ConfigError, InputError, SchemaError, TimestampError
from ._messages import MISSING_LABELS
from .scopes import parse_scope, scope_mask

__all__ = ["SUCCESS", "TIMEOUT", "SOLVE_ERROR", "FAILURE", "SLOW", "SKIP", "MISSING_LABELS",
           "bucket_dtype", "code_counts", "as_events", "check_events", "ts_error", "ts_utc",
           "ts_ns", "INCIDENT_COLUMNS", "parse_scope", "scope_mask", "time_span", "sort_by_time",
           "check_header", "ROLE_COLUMNS"]

#: Columns of an incident table (ground truth for scoring): ``incident_id`` (str), ``kind`` (str),
#: ``start``/``end`` (datetime64[ns, UTC], ``end`` exclusive), ``scope`` (str, see
#: :func:`parse_scope`), ``severity`` (float: the injected failure rate inside the scope).
INCIDENT_COLUMNS = ("incident_id", "kind", "start", "end", "scope", "severity")

SUCCESS = "success"
TIMEOUT = "timeout"
SOLVE_ERROR = "solve_error"
#: The failure bucket of a failure whose kind the data does not say (``false``, ``failed``, ...).
FAILURE = "failure"
#: The failure bucket of a success slower than ``slow_above`` (latency SLI).
SLOW = "slow"
#: The meaning of a label whose rows are left out on purpose (counted, never analysed).
SKIP = "skip"
#: The columns of the canonical table that are not group keys: never suggested for a missing key
#: (:func:`~budgetlab._util.validation.close_names`); ``duration``: a latency read's durations.
ROLE_COLUMNS = ("ts", "ok", "bucket", "session_id", "duration")
_KNOWN_ORDER = (SUCCESS, TIMEOUT, SOLVE_ERROR)


def bucket_dtype(labels: Iterable[str] | None = None) -> pd.CategoricalDtype:
    """The ordered bucket dtype: ``success``, then ``timeout`` and ``solve_error`` if present,
    then any other failure labels in sorted order (without ``labels``: the sample domain's three).

    >>> list(bucket_dtype(["server_error"]).categories)
    ['success', 'server_error']
    >>> list(bucket_dtype(["solve_error", "timeout", "slow"]).categories)
    ['success', 'timeout', 'solve_error', 'slow']
    >>> list(bucket_dtype().categories)
    ['success', 'timeout', 'solve_error']
    """
    if labels is None:
        return pd.CategoricalDtype(list(_KNOWN_ORDER), ordered=True)
    given = {str(x) for x in labels}
    known = [k for k in _KNOWN_ORDER[1:] if k in given]
    return pd.CategoricalDtype([SUCCESS, *known, *sorted(given - set(_KNOWN_ORDER))], ordered=True)


def code_counts(codes: np.ndarray, n: int, *, step: int = 1 << 20) -> np.ndarray:
    """Rows per code ``0 .. n-1`` of non-negative categorical ``codes``: for a few codes one
    comparison each (``np.bincount`` widens small codes to ``intp`` first: several times slower).

    >>> code_counts(np.array([2, 0, 2], dtype=np.int8), 4).tolist()
    [1, 0, 2, 0]
    """
    if n <= 16:
        return np.array([np.count_nonzero(codes == i) for i in range(n)], dtype=np.int64)
    counts = np.zeros(n, dtype=np.int64)
    for lo in range(0, len(codes), step):
        counts += np.bincount(codes[lo:lo + step], minlength=n)
    return counts


def as_events(ts: Any, ok: Any, bucket: Any = None, *, groups: dict[str, Any] | None = None,
              session_id: Any = None, sort: bool = True) -> pd.DataFrame:
    """Build a canonical event table from arrays (no guessing).

    ``ts``: datetimes (naive ones are UTC) or text read as :func:`budgetlab.read_events` reads it
    (ISO-8601; day/month orders such as ``01/02/2026`` refused); numbers are refused, their unit
    unknown (convert them with ``pd.to_datetime(ts, unit="s", utc=True)``). ``ok``: booleans or
    0/1 (text is refused: ``bool("no")`` is true). ``bucket`` defaults to
    ``success`` for ``ok`` rows and ``failure`` otherwise (a failure of no stated kind, as the
    readers read an ``ok=`` column without ``bucket=``), and the bucket categories are then
    ``success`` and ``failure`` if a row failed, as the readers keep them. A given ``bucket`` names
    the kinds; its categories are the sample domain's ``timeout`` and ``solve_error`` (always
    there) and the labels given. Sorted stably by ``ts``.

    >>> ev = as_events(["2026-01-01 00:00:01", "2026-01-01 00:00:00"], [True, False])
    >>> ev[["ok", "bucket"]].to_dict("list")
    {'ok': [False, True], 'bucket': ['failure', 'success']}
    >>> list(ev["bucket"].cat.categories)
    ['success', 'failure']
    >>> list(as_events(["2026-01-01"] * 2, [True, False], ["success", "timeout"])["bucket"]
    ...      .cat.categories)
    ['success', 'timeout', 'solve_error']
    >>> str(ev["ts"].dtype)
    'datetime64[ns, UTC]'
    """
    times = _utc_times(pd.Series(ts))
    ok_arr = _as_ok(ok)
    lengths = {"ts": len(times), "ok": len(ok_arr),
               **({} if bucket is None else {"bucket": len(bucket)}),
               **{f"groups[{k!r}]": len(v) for k, v in (groups or {}).items()},
               **({} if session_id is None else {"session_id": len(session_id)})}
    if len(set(lengths.values())) > 1:
        raise InputError("as_events() needs one value per event in each argument; got "
                         + ", ".join(f"{k} {n:,}" for k, n in lengths.items()) + ".")
    if bucket is None:
        bucket_arr = np.where(ok_arr, SUCCESS, FAILURE)
        dtype = bucket_dtype(pd.unique(bucket_arr))
    else:
        bucket_arr = np.asarray(pd.Series(bucket).astype(str))
        wrong = ok_arr != (bucket_arr == SUCCESS)
        if wrong.any():
            raise InputError(f"as_events(): bucket disagrees with ok at {int(wrong.sum()):,} of "
                             f"{len(wrong):,} events (a success's bucket is {SUCCESS!r}, a "
                             "failure's is its kind); fix ok or bucket.")
        dtype = bucket_dtype([*_KNOWN_ORDER[1:], *pd.unique(bucket_arr)])
    cols: dict[str, Any] = {"ts": times, "ok": ok_arr,
                            "bucket": pd.Categorical(bucket_arr, dtype=dtype)}
    cols.update({name: pd.Categorical(values) for name, values in (groups or {}).items()})
    if session_id is not None:
        cols["session_id"] = pd.array(session_id, dtype="string")
    frame = pd.DataFrame(cols)
    return frame.sort_values("ts", kind="stable", ignore_index=True) if sort else frame


def _as_ok(ok: Any) -> np.ndarray:
    """``ok`` as a bool array: booleans, or the numbers 0 and 1; anything else (text such as
    ``"no"``, missing values) is refused, since ``bool("no")`` is true."""
    col = pd.Series(ok)
    if not len(col):
        return np.zeros(0, dtype=bool)
    if pd.api.types.is_bool_dtype(col.dtype) and not col.isna().any():
        return col.to_numpy(dtype=bool)
    if (pd.api.types.is_numeric_dtype(col.dtype) and not col.isna().any()
            and col.isin([0, 1]).all()):
        return np.asarray(col.to_numpy() == 1, dtype=bool)
    what = ("missing values" if col.isna().any() else
            "numbers other than 0 and 1" if pd.api.types.is_numeric_dtype(col.dtype) else
            "text" if pd.api.types.is_string_dtype(col.dtype) else f"{col.dtype} values")
    raise InputError(f"as_events(): ok must be true/false (booleans, or 0 and 1), and it holds "
                     f"{what}; map your labels first, e.g. ok=(labels == 'success'), or read the "
                     "log with budgetlab.read_events(..., outcomes=...).")


def _utc_times(ts: pd.Series) -> Any:
    """The times of :func:`as_events` as datetime64[ns, UTC], by the readers' rules: pandas alone
    took ``1792893600`` for 1.79 s after 1970 and ``01/02/2026`` for January 2nd."""
    from .._util.validation import utc_from_ns
    from .times import parse_time

    if pd.api.types.is_numeric_dtype(ts) and not pd.api.types.is_bool_dtype(ts) and len(ts):
        raise TimestampError("ts holds numbers, whose unit as_events cannot know; convert them "
                             "first, e.g. pd.to_datetime(ts, unit='s', utc=True).")
    try:
        ns = parse_time(ts, tz=None, epoch=None)
    except TimestampError as exc:  # the readers' words: their keywords are read_events'
        raise TimestampError(f"as_events(): {exc} (The keywords named are read_events'; here "
                             "give times, e.g. pd.to_datetime(ts, format=..., utc=True).)"
                             ) from None
    return utc_from_ns(ns).array


def ts_error(dtype: Any, reader: str) -> SchemaError | None:
    """The refusal of an event table's time column of ``dtype`` (pandas or Dask), ``None`` when it
    holds UTC times: zoned in pandas' UTC or in a zone whose offset is always zero (``Etc/UTC``,
    ``Zulu``, ``Etc/GMT``, a fixed ``+00:00``), which is UTC by definition. Times that are not
    zoned are refused with the reader that parses them (``reader``); times in another zone, even
    one at offset zero for part of the year (``Europe/London``), with that zone named and the
    conversion (the instants stay the same).

    >>> ts_error(pd.DatetimeTZDtype(tz="Zulu"), "budgetlab.read_events()") is None
    True
    >>> print(ts_error(pd.DatetimeTZDtype(tz="Europe/London"), "budgetlab.read_events()"))
    ... # doctest: +NORMALIZE_WHITESPACE
    events['ts'] is in Europe/London, not UTC (the event table's times are UTC); convert it, the
    instants stay the same: events.assign(ts=events['ts'].dt.tz_convert('UTC')).
    """
    if not isinstance(dtype, pd.DatetimeTZDtype):
        return SchemaError("events['ts'] must be a UTC datetime column (datetime64 in s, ms, us or "
                           f"ns, UTC); load the data with {reader}, which parses and converts "
                           "timestamps.")
    # tzinfo.utcoffset(None) is the offset of a zone that has one fixed offset, else None
    if dtype.tz.utcoffset(None) != datetime.timedelta(0):
        return SchemaError(f"events['ts'] is in {dtype.tz}, not UTC (the event table's times are "
                           "UTC); convert it, the instants stay the same: "
                           "events.assign(ts=events['ts'].dt.tz_convert('UTC')).")
    return None


def ts_utc(events: pd.DataFrame) -> Any:
    """``events["ts"]`` (checked by :func:`check_events`) as a datetime array in pandas' UTC, the
    zone of every time a function returns (``Etc/UTC`` is the same instants in UTC's name)."""
    return events["ts"].array.tz_convert("UTC")


def ts_ns(events: pd.DataFrame) -> np.ndarray:
    """``events["ts"]`` as int64 nanoseconds since the epoch, without an object-dtype detour."""
    col = events["ts"]
    if not isinstance(col.dtype, pd.DatetimeTZDtype):
        raise SchemaError("events['ts'] must be datetime64[ns, UTC]; load the data with "
                          "budgetlab.read_events().")
    return np.asarray((col if col.dtype.unit == "ns" else col.dt.as_unit("ns")).array.asi8)


def check_events(events: Any, by: str | Sequence[str] | None = None, *,
                 need_sorted: bool = True, output: Sequence[str] = ()) -> list[str]:
    """Check that ``events`` is a canonical event table (as :func:`budgetlab.read_events` returns).

    Returns the ``by`` columns as a list. Raises :class:`SchemaError` or :class:`InputError`;
    :class:`ConfigError` for a key named like one of the ``output`` columns of the caller's
    table (a key ``status`` beside the replay's own ``status`` would be lost in it).
    """
    if not isinstance(events, pd.DataFrame):
        if type(events).__module__.startswith("dask"):
            raise InputError("events is a dask DataFrame; use the same function from "
                             "budgetlab.dask (import budgetlab.dask as bd; bd.replay(events, slo, "
                             "by=...), bd.bin_events(...)).")
        raise InputError("events must be a pandas DataFrame from budgetlab.read_events(), got "
                         f"{type(events).__name__}.")
    keys = as_list(by)
    clash = [k for k in keys if k in output]
    if clash:
        raise ConfigError(f"the group key {clash[0]!r} has the name of a column the result writes "
                          "itself, which would hide the key: rename that column of the events "
                          "first (an access log's status: group by status_class).")
    require_columns(events, ["ts", "ok", *keys], roles=ROLE_COLUMNS)
    if (error := ts_error(events["ts"].dtype, "budgetlab.read_events()")) is not None:
        raise error
    if events["ts"].isna().any():
        raise InputError("events['ts'] has missing timestamps; load the data with "
                         "budgetlab.read_events().")
    if events["ok"].dtype != bool:
        raise SchemaError("events['ok'] must be a bool column; load the data with "
                          "budgetlab.read_events().")
    if need_sorted and len(events) > 1:
        t = ts_ns(events)
        if bool((t[1:] < t[:-1]).any()):
            raise InputError("events must be sorted by 'ts'; use budgetlab.read_events() or "
                             "events.sort_values('ts', kind='stable').")
    return keys


def time_span(ts: np.ndarray) -> tuple[str | None, str | None]:
    """First and last instant of int64 ns UTC times as ISO strings (``None`` without rows)."""
    if len(ts) == 0:
        return None, None
    lo, hi = (pd.Timestamp(int(v), tz="UTC").isoformat().replace("+00:00", "Z")
              for v in (np.min(ts), np.max(ts)))
    return lo, hi


def sort_by_time(events: pd.DataFrame, ts: np.ndarray,
                 ) -> tuple[pd.DataFrame, str | None, str | None]:
    """``events`` sorted stably by their int64 ns UTC times ``ts`` (equal times keep input order;
    unsorted input is sorted, never refused) and the first and last instant (:func:`time_span`,
    read off the sorted ends: no scan for the extremes).

    >>> ev = pd.DataFrame({"x": ["b", "a", "c"]})
    >>> out, first, last = sort_by_time(ev, np.array([2, 1, 2]) * 10**9)
    >>> out["x"].tolist(), first, last
    (['a', 'b', 'c'], '1970-01-01T00:00:01Z', '1970-01-01T00:00:02Z')
    """
    ends = np.array([0, len(ts) - 1]) if len(ts) else np.zeros(0, dtype=np.intp)
    if len(ts) > 1 and bool((ts[1:] < ts[:-1]).any()):
        order = np.argsort(ts, kind="stable")
        events, ends = events.take(order).reset_index(drop=True), order[ends]
    return events, *time_span(ts[ends])


def check_header(names: Sequence[object], columns: Sequence[str], what: str,
                 numbers: Callable[[], Collection[str]] | None = None,
                 rows: Iterable[Sequence[str]] | None = None,
                 words: Callable[[str], str | None] = lambda w: None) -> None:
    """Refuse duplicated column names and declared ``columns`` missing from ``names`` (a
    :class:`SchemaError` whose words :func:`~budgetlab.events._header_words.header_error` chooses;
    ``numbers``, asked only when refusing: the columns the reader saw hold numbers, from what it
    has already read; ``rows``, read only when refusing: a text file's rows after the header, and
    ``words``, what a built-in outcome word means)."""
    have = Counter(str(n) for n in names)
    if max(have.values(), default=1) > 1 or any(c not in have for c in columns):
        from ._header_words import header_error

        raise header_error([str(n) for n in names], columns, what, numbers, rows, words)
