"""What an incident report covers: the incident ``[start, end)``, the window around it, the
history replayed before the window, and the events and incidents in that span."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .._util.validation import require_columns, to_timedelta, utc_ns_column, utc_timestamp
from .._util.words import prose_duration
from ..errors import ConfigError, InputError, SchemaError
from ..events.schema import parse_scope, scope_mask, ts_ns

__all__ = ["Span", "between", "check_scope", "nice_freq", "overlapping_incidents",
           "replayed_events"]

_NICE_FREQS = ("1min", "5min", "10min", "15min", "30min", "1h", "3h", "6h", "1D")


def nice_freq(span_ns: int, max_bins: int = 120) -> str:
    """The finest of the usual bin widths that cuts ``span_ns`` into at most ``max_bins`` bins.

    >>> nice_freq(6 * 3_600_000_000_000)
    '5min'
    """
    fits = (f for f in _NICE_FREQS if span_ns / pd.Timedelta(f).value <= max_bins)
    return next(fits, _NICE_FREQS[-1])


def between(ts: pd.Series, lo: pd.Timestamp, hi: pd.Timestamp) -> np.ndarray:
    """Mask of the times ``ts`` in ``[lo, hi)``."""
    t = utc_ns_column(ts, "ts")
    return (t >= lo.value) & (t < hi.value)


def check_scope(events: pd.DataFrame, scope: str | None) -> str:
    """The scope as the report states it (``"*"``: all events); refused when it names a column
    ``events`` does not have."""
    named = parse_scope(scope)
    for key in named:
        if key not in events.columns:
            raise SchemaError(f"scope={scope!r} names column {key!r}, which events does not "
                              "have; a scope's keys are key columns of events (read with by=).")
    return str(scope).strip() if named else "*"


@dataclass(frozen=True)
class Span:
    """The incident ``[start, end)``, the reported window around it and where the replay starts."""

    start: pd.Timestamp
    end: pd.Timestamp
    w_start: pd.Timestamp
    w_end: pd.Timestamp
    # replayed before the window: the longest of the tracker's and the alerts' windows
    history: pd.Timedelta

    @property
    def h_start(self) -> pd.Timestamp:
        return self.w_start - self.history

    @classmethod
    def of(cls, start: Any, end: Any, *, tz: str, context: Any, history: pd.Timedelta) -> Span:
        start_ts, end_ts = utc_timestamp(start, name="start", tz=tz), utc_timestamp(end, name="end",
                                                                                    tz=tz)
        if end_ts <= start_ts:
            raise ConfigError("end must be after start (the incident is [start, end)).")
        ctx = to_timedelta(context, name="context", allow_zero=True)
        return cls(start=start_ts, end=end_ts, w_start=start_ts - ctx, w_end=end_ts + ctx,
                   history=history)


def replayed_events(events: pd.DataFrame, span: Span, scope: str) -> tuple[pd.DataFrame, int,
                                                                           list[str]]:
    """The events to replay (from ``span.h_start`` to the window's end, in scope), the time they
    span (cut by the table's own start and end when they come first) and a note when the data
    start too late for the longest window."""
    t = ts_ns(events)
    h_start, w_start, w_end = span.h_start, span.w_start, span.w_end
    i0 = int(np.searchsorted(t, h_start.value, side="left"))
    i1 = int(np.searchsorted(t, w_end.value, side="left"))
    ev = events.iloc[i0:i1]
    j0, j1 = np.searchsorted(t, [w_start.value, w_end.value], side="left")
    if j0 == j1:
        raise InputError(f"no traffic in the report window: {_silence(t, int(j0))}; "
                         "check start/end and tz.")
    if scope != "*":
        ev = ev[scope_mask(ev, scope)]
    if not between(ev["ts"], w_start, w_end).any():
        raise InputError(f"there are no events in scope {scope!r} in the report window; "
                         "check the scope.")
    notes: list[str] = []
    first_ns = int(ts_ns(ev)[0])
    if i0 == 0 and first_ns > h_start.value:
        have = max(w_start.value - first_ns, 0) / 3.6e12
        notes.append(f"the data start {have:.1f} h before the report's window (the incident and "
                     f"its context), less than the {prose_duration(span.history)} of history the "
                     "longest window needs: statuses and burns early in the report may differ "
                     "from production's.")
    span_lo = h_start.value if i0 > 0 else first_ns
    span_hi = w_end.value if i1 < len(events) else int(t[-1])
    return ev, max(span_hi - span_lo, 1), notes


def _silence(t: np.ndarray, j: int) -> str:
    """Where the log is silent around position ``j`` of the sorted times ``t`` (nanoseconds)."""
    def at(ns: int) -> str:
        return f"{pd.Timestamp(int(ns), tz='UTC'):%Y-%m-%d %H:%M:%S} UTC"

    if len(t) == 0:
        return "the log has no events"
    if j == 0:
        return f"the log begins at {at(t[0])}, after the window"
    if j == len(t):
        return f"the log ends at {at(t[-1])}, before the window"
    return f"the log is silent from {at(t[j - 1])} to {at(t[j])}"


def overlapping_incidents(incidents: pd.DataFrame | None, span: Span) -> pd.DataFrame:
    """The given incidents that overlap the window (an empty table when none were given)."""
    if incidents is None:
        return pd.DataFrame({"start": pd.Series([], dtype="datetime64[ns, UTC]"),
                             "end": pd.Series([], dtype="datetime64[ns, UTC]")})
    require_columns(incidents, ["start", "end"], what="incidents")
    i_s = pd.to_datetime(incidents["start"], utc=True)
    i_e = pd.to_datetime(incidents["end"], utc=True)
    return incidents[((i_s < span.w_end) & (i_e > span.w_start)).to_numpy()].reset_index(drop=True)
