"""The timeline's lines on the window's clock (``spans=``): the figures of
:func:`budgetlab.status_spans` at every status change, as the status bands, and the replay's at
every event in between.

Between events the window changes when an event leaves it (1 ns after ``ts + window``): the
per-event lines alone miss those changes, and stop at the last event before a silence. On the
clock, each line is a step through the start of every span (its figures there) and every event
inside a span (the replay's state after the last row of its instant), NaN over ``no_traffic`` (the
line breaks exactly where the window is empty), a blip (``instant``) drawn as the value before it
(as the bands fold it), and the last value held to the observation's end. An expiry that changes
no status starts no span: the value drawn holds from the previous event or status change. Beyond
``max_points`` rows, a line keeps the first, last, lowest and highest row of each pixel column
(:func:`~budgetlab.plotting._common.extreme_rows`, as the per-event lines).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._util.validation import require_columns, utc_ns_column
from ._common import extreme_rows, piece_starts, step_line
from ._pixels import merge_breaks

__all__ = ["SPAN_FIGURES", "clock_line", "clock_values"]

#: The line (gid) -> its spans column (the success rate is ``1 - failures / total``).
SPAN_FIGURES = {"success_rate": "failures", "burn_rate": "burn_rate",
                "budget_remaining": "remaining_fraction"}


def _span_figure(spans: pd.DataFrame, gid: str) -> np.ndarray:
    """The figure of line ``gid`` at the start of each span (NaN without traffic)."""
    total = spans["total"].to_numpy(dtype=float)
    quiet = (spans["status"].astype(str).to_numpy() == "no_traffic") | (total <= 0)
    if gid == "success_rate":
        failures = spans["failures"].to_numpy(dtype=float)
        return np.where(quiet, np.nan, 1.0 - failures / np.where(quiet, 1.0, total))
    return np.where(quiet, np.nan, spans[SPAN_FIGURES[gid]].to_numpy(dtype=float))


def clock_values(spans: pd.DataFrame, t: np.ndarray, y: np.ndarray,
                 gid: str) -> tuple[np.ndarray, np.ndarray]:
    """``(t_ns, values)`` of line ``gid`` on the window's clock: a row at each span start (blips
    left out: the value before holds through them) with the span's figure (NaN over
    ``no_traffic``), one at each event time ``t`` (sorted) inside a span after its start, with
    ``y`` of the instant's last row, and a last row at the observation's end (the last value
    again: where the last step stops).

    >>> from budgetlab import SLO, as_events, replay, status_spans
    >>> ts = pd.to_datetime(["2026-01-01 00:00", "2026-01-01 00:10", "2026-01-01 00:20",
    ...                      "2026-01-01 05:00"], utc=True)
    >>> ev, slo = as_events(ts, [True, True, False, True]), SLO(target=0.5, window="1h")
    >>> st = replay(ev, slo)
    >>> t, v = clock_values(status_spans(ev, slo), st["ts"].array.asi8,
    ...                     st["success_rate"].to_numpy(), "success_rate")
    >>> pd.to_datetime(t, utc=True).strftime("%H:%M").tolist()
    ['00:00', '00:10', '00:20', '01:00', '01:20', '05:00']
    >>> np.round(v, 3).tolist()
    [1.0, 1.0, 0.667, 0.5, nan, nan]

    (at 01:10 + 1 ns the 00:10 success leaves, 0 of 1: still exhausted, no span starts, so
    0.5 holds until 01:20 + 1 ns, when the window empties)
    """
    require_columns(spans, ["start", "end", "status", "total", "failures", "burn_rate",
                            "remaining_fraction"], what="spans (budgetlab.status_spans's output)")
    start = utc_ns_column(spans["start"], "spans['start']")
    end = utc_ns_column(spans["end"], "spans['end']")
    fig = _span_figure(spans, gid)
    keep = ~spans["instant"].to_numpy(dtype=bool) if "instant" in spans else np.ones(len(start),
                                                                                      dtype=bool)
    # the events inside a traffic span, after its start: the last row of each instant
    at = np.searchsorted(start, t, side="right") - 1
    inside = np.r_[t[1:] != t[:-1], True] & (at >= 0) & (t < end[-1])
    inside[inside] &= np.isfinite(fig[at[inside]]) & (start[at[inside]] != t[inside])
    times = np.r_[start[keep], t[inside]]
    order = np.argsort(times, kind="stable")
    values = np.r_[fig[keep], np.asarray(y, dtype=float)[inside]][order]
    return np.r_[times[order], end[-1:]].astype(np.int64), np.r_[values, values[-1:]]


def clock_line(spans: pd.DataFrame, t: np.ndarray, y: np.ndarray, gid: str, *, columns: int,
               max_points: int) -> tuple[np.ndarray, np.ndarray]:
    """``(x, y)`` of line ``gid`` on the window's clock (:func:`clock_values`), to draw with
    ``drawstyle="steps-post"`` (``x`` naive UTC ``datetime64[ns]``; ``y`` unscaled). Beyond
    ``max_points`` rows, the extremes of each of ``columns`` time columns, each NaN row (no
    traffic) a piece of its own so that its break is kept (breaks closer than a column merge:
    :func:`~budgetlab.plotting._pixels.merge_breaks`).

    >>> from budgetlab import SLO, as_events, replay, status_spans
    >>> ts = pd.to_datetime(["2026-01-01 00:00", "2026-01-01 00:10", "2026-01-01 05:00"],
    ...                     utc=True)
    >>> ev, slo = as_events(ts, [True, False, True]), SLO(target=0.9, window="1h")
    >>> st = replay(ev, slo)
    >>> x, v = clock_line(status_spans(ev, slo), st["ts"].array.asi8,
    ...                   st["burn_rate"].to_numpy(), "burn_rate", columns=1, max_points=4)
    >>> len(x), v.tolist()
    (4, [0.0, 5.0, nan, nan])
    """
    tc, v = clock_values(spans, t, y, gid)
    starts = np.arange(len(tc), dtype=np.int64)
    if len(tc) > max_points:
        q = np.flatnonzero(np.isnan(v))
        breaks = np.unique(np.r_[q - 1, q])
        breaks = breaks[(breaks >= 0) & (breaks < len(tc) - 1)]
        breaks = merge_breaks(tc, breaks, int(tc[0]), int(tc[-1]), columns)
        starts = extreme_rows(v, piece_starts(tc, columns, breaks))
    return step_line(tc, v, starts, np.zeros(0, dtype=np.int64))
