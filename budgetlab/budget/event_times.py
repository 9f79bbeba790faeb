"""The times a :class:`~budgetlab.budget.stream.Tracker` is given, as int64 ns: numbers are
seconds (like ``time.monotonic()``), anything else is read by :class:`pandas.Timestamp` (naive
times are UTC); with their kind (naive, aware, a number), since naive times after aware ones, or
the reverse, are refused (:func:`time_kind`)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..errors import InputError

__all__ = ["batch_kinds", "batch_ns", "batch_outcomes", "event_time", "one_outcome", "time_kind"]


def event_time(ts: Any) -> tuple[int, str | None]:
    """An event time as int ns (numbers are seconds, like ``time.monotonic()``; anything else is
    read by :class:`pandas.Timestamp`, naive times as UTC) and the kind of the time: ``"naive"``,
    ``"aware"`` (with a zone or offset), None for a number of seconds.

    >>> event_time("2026-01-01 00:00"), event_time("2026-01-01 01:00+01:00"), event_time(1.5)
    ((1767225600000000000, 'naive'), (1767225600000000000, 'aware'), (1500000000, None))
    """
    if isinstance(ts, bool):
        raise InputError("ts must be a time, not a bool.")
    if isinstance(ts, (int, float, np.integer, np.floating)):
        if not np.isfinite(ts):
            raise InputError("ts must be a finite number of seconds.")
        return int(round(float(ts) * 1e9)), None
    try:
        stamp = pd.Timestamp(ts)
    except (ValueError, TypeError, OverflowError):
        raise InputError("ts is not a time; give a datetime, a Timestamp, an ISO string or "
                         "seconds.") from None
    if pd.isna(stamp):
        raise InputError("ts is NaT; give a time.")
    kind = "naive" if stamp.tzinfo is None else "aware"
    if stamp.tzinfo is None:
        stamp = stamp.tz_localize("UTC")
    return int(stamp.as_unit("ns").value), kind


def batch_ns(ts: Any) -> np.ndarray:
    """Event times of a batch as int64 ns (numbers are seconds; naive times are UTC)."""
    if np.ndim(ts) == 0:
        raise InputError("record_many() needs one ts per event.")
    ts_arr = np.asarray(ts)
    if ts_arr.dtype.kind == "M":  # datetime64 (naive = UTC): exact, no float detour
        return ts_arr.astype("datetime64[ns]").view(np.int64)
    if ts_arr.dtype.kind in "iuf":
        return np.round(ts_arr.astype(np.float64) * 1e9).astype(np.int64)
    return np.asarray(pd.to_datetime(pd.Series(ts_arr),
                                     utc=True).dt.as_unit("ns").to_numpy(dtype="datetime64[ns]")
                      .view(np.int64))


_OFFSET = r"(?:Z|[+-][0-9]{2}:?[0-9]{2})\s*$"


def batch_kinds(ts: Any) -> set[str | None]:
    """The kinds (see :func:`event_time`) of a batch's times: ``{"naive"}`` for datetime64,
    ``{"aware"}`` for a zoned column, those of each item for Timestamps, datetimes and ISO text
    (text with ``Z`` or an offset is aware), ``{None}`` for numbers.

    >>> batch_kinds(["2026-01-01 00:00Z", "2026-01-01 00:01"]) == {"aware", "naive"}
    True
    """
    if isinstance(getattr(ts, "dtype", None), pd.DatetimeTZDtype):
        return {"aware"}
    arr = np.asarray(ts)
    if arr.dtype.kind == "M":
        return {"naive"}
    if arr.dtype.kind != "O" and arr.dtype.kind not in "US":
        return {None}
    items = pd.Series(arr.ravel(), dtype=object)
    text = items.map(lambda x: isinstance(x, str))
    kinds: set[str | None] = set()
    if text.any():
        aware = items[text].astype(str).str.contains(_OFFSET, regex=True)
        kinds |= {"aware" if a else "naive" for a in aware.unique().tolist()}
    for x in items[~text].tolist():
        tzinfo = getattr(x, "tzinfo", False)
        kinds.add(None if tzinfo is False else "naive" if tzinfo is None else "aware")
    return kinds


def time_kind(kinds: set[str | None], have: str | None = None) -> str | None:
    """The one kind of ``kinds`` (as :func:`batch_kinds` gives them) and ``have``, the kind of
    the times before: naive times after aware ones, or the reverse, are refused (a naive time is
    read as UTC, which the clock of aware times need not be). None for numbers only.

    >>> time_kind({"naive", None}), time_kind(set(), "aware")
    ('naive', 'aware')
    """
    found = (kinds | {have}) - {None}
    if len(found) > 1:
        raise InputError("ts mixes naive times (read as UTC) and times with a zone or offset; "
                         "give every time with its zone (e.g. pd.Timestamp(..., tz='UTC')) or "
                         "none.")
    return found.pop() if found else None



#: How the outcomes are given, in the words of a refusal.
_OUTCOMES = "True (a success) or False (a failure), or 1 and 0"


def one_outcome(ok: Any) -> bool:
    """The outcome of one event: a bool, or the number 1 or 0; anything else is refused (text
    such as ``"error"`` would otherwise count as a success).

    >>> one_outcome(True), one_outcome(0)
    (True, False)
    """
    if isinstance(ok, (bool, np.bool_)) or (
            isinstance(ok, (int, float, np.integer, np.floating)) and ok in (0, 1)):
        return bool(ok)
    got = "text" if isinstance(ok, str) else f"{ok!r}"[:40]
    raise InputError(f"record() takes ok= as {_OUTCOMES}; got {got}.")


def batch_outcomes(ok: Any) -> np.ndarray:
    """The outcomes of a batch as a bool array: bools, or the numbers 1 and 0; anything else
    (text, missing values, one value for the batch) is refused.

    >>> batch_outcomes([True, 0, 1]).tolist()
    [True, False, True]
    """
    if np.ndim(ok) != 1:
        raise InputError(f"record_many() takes ok= as a sequence of outcomes, one per event: "
                         f"{_OUTCOMES}; for one event use record().")
    arr = np.asarray(ok)
    if arr.dtype.kind == "b":
        return arr
    if arr.size == 0 or (arr.dtype.kind in "iuf" and np.isin(arr, (0, 1)).all()):
        return arr.astype(bool)
    if arr.dtype == object and all(isinstance(v, (bool, np.bool_)) for v in arr):
        return arr.astype(bool)
    if arr.dtype.kind in "US" or any(isinstance(v, (str, bytes)) for v in arr.ravel()):
        got = "text"
    elif pd.isna(arr).any():
        got = "missing values"
    else:
        got = "numbers other than 1 and 0"
    raise InputError(f"record_many() takes ok= as {_OUTCOMES}; it holds {got}.")
