"""Quiet gaps: gaps between two events of a group too short to be a silence, long enough to say.

A **silence** is a gap between two consecutive events of a group longer than the window (a
calendar window: longer than the period that holds the earlier event): the window empties in it
and the time after is no traffic (docs/conventions.md). A shorter gap leaves the window holding
the earlier events, so its time counts at the status the window held, on the window's clock:
right by the definition, but status time with no event in it. A **quiet gap** is such a gap of
at least :data:`QUIET_GAP_HOURS` (one stated rule, whatever the window: under a window of 1 h or
less there is none, every gap of an hour and more being a silence or exactly the window).

:func:`next_gaps` is the one gap computation (the silences of
:mod:`budgetlab.analyses.window_silence` read it too); :func:`quiet_gaps` sums the quiet gaps per
group for :func:`budgetlab.replay_summary` and :func:`budgetlab.compare_windows`;
:func:`gap_columns` puts them beside the silences in the summary.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .._util.units import HOUR_NS
from ..events.schema import ts_ns
from ..slo import SLO, PerGroup
from ..windows.groups import group_order

__all__ = ["QUIET_GAP_HOURS", "QUIET_COLUMNS", "next_gaps", "quiet_starts", "quiet_gaps",
           "summary_quiet_gaps", "gap_columns"]

#: A gap between two consecutive events of a group at least this long (hours) and not a silence
#: is a quiet gap, said apart.
QUIET_GAP_HOURS = 1.0

#: The columns of :func:`quiet_gaps`, as :func:`budgetlab.replay_summary` and
#: :func:`budgetlab.compare_windows` name them.
QUIET_COLUMNS = ("quiet_gaps", "quiet_gap_hours", "longest_quiet_gap_hours",
                 "longest_quiet_gap_start")


def next_gaps(t: np.ndarray, bounds: np.ndarray) -> np.ndarray:
    """Per event (``t`` in ns, each group's rows together in time order between ``bounds``): the
    time to the group's next event, ``-1`` at a group's last event.

    >>> next_gaps(np.array([0, 5, 7, 2]), np.array([0, 3, 4])).tolist()
    [5, 2, -1, -1]
    """
    t = np.asarray(t, dtype=np.int64)
    gap = np.full(len(t), -1, dtype=np.int64)
    if len(t) > 1:
        gap[:-1] = np.diff(t)
    ends = np.asarray(bounds[1:], dtype=np.int64)
    ends = ends[(ends > np.asarray(bounds[:-1])) & (ends > 0)] - 1  # each group's last event
    gap[ends] = -1
    return gap


def quiet_starts(gap: np.ndarray, limit: Any) -> np.ndarray:
    """Per event: whether the gap to the group's next event (:func:`next_gaps`) is a quiet gap,
    at least :data:`QUIET_GAP_HOURS` and no longer than ``limit`` (ns: the window, or per event
    the calendar period holding it; longer is a silence).

    >>> quiet_starts(np.array([2 * HOUR_NS, 30 * HOUR_NS, 60, -1]), 24 * HOUR_NS).tolist()
    [True, False, False, False]
    """
    gap = np.asarray(gap, dtype=np.int64)
    return (gap >= round(QUIET_GAP_HOURS * HOUR_NS)) & (gap <= np.asarray(limit, dtype=np.int64))


def quiet_gaps(t: np.ndarray, bounds: np.ndarray, limit: Any) -> pd.DataFrame:
    """Per group (between ``bounds``): ``quiet_gaps`` (how many), ``quiet_gap_hours`` (their
    length, summed), ``longest_quiet_gap_hours`` and ``longest_quiet_gap_start`` (the event
    before the longest, first of equals; UTC, NaT without a quiet gap). ``limit``: as for
    :func:`quiet_starts`.

    >>> h = HOUR_NS
    >>> q = quiet_gaps(np.array([0, 10 * h, 11 * h, 0, 30 * h]), np.array([0, 3, 5]), 24 * h)
    >>> q[["quiet_gaps", "quiet_gap_hours", "longest_quiet_gap_hours"]].to_dict("list")
    {'quiet_gaps': [2, 0], 'quiet_gap_hours': [11.0, 0.0], 'longest_quiet_gap_hours': [10.0, 0.0]}
    """
    t = np.asarray(t, dtype=np.int64)
    n = len(bounds) - 1
    gap = next_gaps(t, bounds)
    quiet = quiet_starts(gap, limit)
    seg = np.repeat(np.arange(n), np.diff(bounds))
    longest = np.zeros(n, dtype=np.int64)
    np.maximum.at(longest, seg[quiet], gap[quiet])
    start = np.full(n, np.iinfo(np.int64).min, dtype=np.int64)  # NaT
    at = np.flatnonzero(quiet & (gap == longest[seg]))[::-1]  # the first of equals written last
    start[seg[at]] = t[at]
    return pd.DataFrame({
        "quiet_gaps": np.bincount(seg[quiet], minlength=n).astype(np.int64),
        "quiet_gap_hours": np.bincount(seg[quiet], weights=gap[quiet], minlength=n) / HOUR_NS,
        "longest_quiet_gap_hours": longest / HOUR_NS,
        "longest_quiet_gap_start": pd.DatetimeIndex(start.view("datetime64[ns]")).tz_localize(
            "UTC")})  # ns since the epoch (int64 min is NaT), zoned as the events


def summary_quiet_gaps(events: pd.DataFrame, keys: list[str],
                       slo: SLO | PerGroup | Any) -> pd.DataFrame:
    """:func:`quiet_gaps` of a replay's groups with events, in the order of
    :func:`~budgetlab.windows.groups.group_order` (the summary's), under each group's window
    (``slo``: an :class:`SLO`, or a :class:`PerGroup` resolved per group)."""
    order, bounds = group_order(events, keys)
    idx = np.arange(len(events)) if order is None else order
    t = ts_ns(events)[idx]
    has = np.diff(bounds) > 0
    window = np.zeros(len(bounds) - 1, dtype=np.int64)
    if isinstance(slo, PerGroup) and keys:
        firsts = events[keys].iloc[idx[bounds[:-1][has]]].reset_index(drop=True)
        window[has] = [s.window.value for s in slo.resolve(firsts)]
    elif isinstance(slo, SLO):
        window[:] = slo.window.value
    limit = np.repeat(window, np.diff(bounds))
    return quiet_gaps(t, bounds, limit)[has].reset_index(drop=True)


def gap_columns(quiet: pd.DataFrame, row: np.ndarray, gaps: pd.DataFrame) -> dict[str, Any]:
    """The summary's gap columns, per group (``gaps``' rows, :func:`summary_quiet_gaps`):
    ``silences``, ``longest_silence_hours`` and ``silent_hours`` from ``quiet``
    (:func:`budgetlab.silences`, its rows at ``row`` of the summary; none elsewhere), then
    :data:`QUIET_COLUMNS`."""
    cols: dict[str, Any] = {}
    for name, col in (("silences", "silences"), ("longest_silence_hours", "longest_silence"),
                      ("silent_hours", "silent_time")):
        values = np.zeros(len(gaps), dtype=np.int64)
        values[row] = quiet[col].to_numpy(dtype=np.int64)
        cols[name] = values if name == "silences" else values / HOUR_NS
    return {**cols, **{name: gaps[name].array for name in QUIET_COLUMNS}}  # zoned times kept
