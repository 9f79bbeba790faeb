"""Event times as the streaming trackers take them: int64 ns, numbers read as seconds (like
``time.monotonic()``), naive times as UTC."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..errors import InputError

__all__ = ["batch_ns", "event_ns"]


def event_ns(ts: Any) -> int:
    """An event time as int ns: numbers are seconds (like ``time.monotonic()``), anything else is
    read by :class:`pandas.Timestamp` (naive times are UTC)."""
    if isinstance(ts, bool):
        raise InputError("ts must be a time, not a bool.")
    if isinstance(ts, (int, float, np.integer, np.floating)):
        if not np.isfinite(ts):
            raise InputError("ts must be a finite number of seconds.")
        return int(round(float(ts) * 1e9))
    try:
        stamp = pd.Timestamp(ts)
    except (ValueError, TypeError, OverflowError):
        raise InputError("ts is not a time; give a datetime, a Timestamp, an ISO string or "
                         "seconds.") from None
    if pd.isna(stamp):
        raise InputError("ts is NaT; give a time.")
    if stamp.tzinfo is None:
        stamp = stamp.tz_localize("UTC")
    return int(stamp.as_unit("ns").value)


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
