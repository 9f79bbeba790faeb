"""Calendar windows: period starts (local midnight in a time zone, DST-aware) and the per-event
counts since the start of each event's calendar period."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._util.units import HOUR_NS
from .._util.validation import check_argument, check_tz, utc_from_ns

__all__ = ["CALENDARS", "calendar_period_starts", "calendar_edges", "calendar_counts"]

CALENDARS = ("day", "week", "month")


def calendar_period_starts(bin_start_ns: np.ndarray, calendar: str, tz: str = "UTC") -> np.ndarray:
    """UTC ns of the calendar period (``day``/``week``/``month``, local midnight in ``tz``)
    each bin start falls in. Weeks start on Monday.

    >>> t = pd.DatetimeIndex(["2026-03-29 21:59", "2026-03-29 22:00"], tz="UTC").as_unit("ns").asi8
    >>> utc_from_ns(calendar_period_starts(t, "day",
    ...                                    "Europe/Berlin")).strftime("%Y-%m-%d %H:%M").tolist()
    ['2026-03-28 23:00', '2026-03-29 22:00']
    """
    check_argument("calendar", calendar, CALENDARS)
    tz = check_tz(tz)
    local = utc_from_ns(bin_start_ns).tz_convert(tz).tz_localize(None)
    day = local.normalize()
    if calendar == "week":
        day = day - pd.to_timedelta(day.day_of_week, unit="D")
    elif calendar == "month":
        day = day - pd.to_timedelta(day.day - 1, unit="D")
    uniq, inverse = np.unique(day.as_unit("ns").asi8, return_inverse=True)
    naive = pd.DatetimeIndex(uniq.view("datetime64[ns]"))
    starts = naive.tz_localize(tz, ambiguous=np.ones(len(naive), dtype=bool),
                               nonexistent="shift_forward")
    return np.asarray(starts.tz_convert("UTC").as_unit("ns").asi8, dtype=np.int64)[inverse]


def calendar_edges(lo_ns: int, hi_ns: int, calendar: str = "day", tz: str = "UTC") -> np.ndarray:
    """UTC ns of every calendar period start (local midnight in ``tz``; weeks on Monday) from
    the period holding ``lo_ns`` through the one holding ``hi_ns``.

    Uses :func:`calendar_period_starts` (same DST handling) on hourly probes:
    every period is at least 23 hours long, so each one holds a probe.

    >>> lo = pd.Timestamp("2026-10-24 12:00", tz="UTC").value
    >>> hi = pd.Timestamp("2026-10-26 12:00", tz="UTC").value
    >>> pd.to_datetime(calendar_edges(lo, hi, "day", "Europe/Berlin"),
    ...                utc=True).strftime("%d %H:%M").tolist()
    ['23 22:00', '24 22:00', '25 23:00']
    """
    probes = np.arange((lo_ns // HOUR_NS) * HOUR_NS, hi_ns + HOUR_NS, HOUR_NS, dtype=np.int64)
    return np.unique(calendar_period_starts(probes, calendar, tz))


def calendar_counts(
    t: np.ndarray, bad: np.ndarray, edges: np.ndarray, bounds: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Events and failures since the start of each event's calendar period.

    The calendar twin of :func:`trailing_counts`: at event ``i`` the window holds the events ``j <=
    i`` (table order, same segment) whose time lies in the same period ``[edges[k], edges[k + 1])``
    as ``t_i``; the counts reset at every edge (an event exactly on an edge opens the new period).

    ``t`` (sorted inside each segment), ``bad`` and ``bounds`` are those of
    :func:`budgetlab.windows.trailing.trailing_counts`; ``edges`` are the sorted period starts
    covering every ``t`` (:func:`calendar_edges`). Returns ``(total, failures)``, int64 arrays.

    Examples
    --------
    >>> t = np.array([0, 5, 10, 12, 30], dtype=np.int64)
    >>> bad = np.array([True, False, True, True, False])
    >>> calendar_counts(t, bad, np.array([0, 10, 20]), np.array([0, 5]))
    (array([1, 2, 1, 2, 1]), array([1, 1, 1, 2, 0]))
    """
    n = len(t)
    period = np.searchsorted(edges, t, side="right")
    new = np.ones(n, dtype=bool)
    if n:
        new[1:] = period[1:] != period[:-1]
        new[bounds[:-1][bounds[:-1] < n]] = True
    first = np.where(new, np.arange(n, dtype=np.int64), 0)
    np.maximum.accumulate(first, out=first)
    cum = np.empty(n + 1, dtype=np.int64)
    cum[0] = 0
    np.cumsum(bad, out=cum[1:])
    total = np.arange(1, n + 1, dtype=np.int64)
    total -= first
    failures = cum[1:] - cum[first]
    return total, failures
