"""The timeline's lines on the window's clock (``spans=``): the window's exact step function.

Between events the window changes when an event leaves it (1 ns after ``ts + window``), whether
or not the status changes there. The lines are drawn from :func:`budgetlab.status_spans` with
``steps=True``: one row at every instant where the window changes (each event instant and each
expiry), so that each line is a step through every row with the window's figures there (success
rate ``1 - failures / total``, burn rate, budget remaining), NaN over ``no_traffic`` (the line
breaks exactly where the window is empty), a blip (``instant``, held 1 ns) drawn as the value
before it (as the bands fold it), and the last value held to the observation's end. Beyond
``max_points`` rows, a line is its time-weighted mean per pixel column, so that drawing costs no
more with more events: the timeline's reduction (:mod:`~budgetlab.plotting.column_means`; the
timeline draws each column's range as a band under it, :mod:`~budgetlab.plotting.line_envelope`).
A column's extremes would draw a log briefly bad as bad throughout.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from .._util.validation import require_columns, utc_ns_column
from ..errors import ConfigError
from ._common import step_line
from .column_means import line_envelope

__all__ = ["SPAN_FIGURES", "clock_line", "clock_lines", "clock_table", "clock_values",
           "require_steps"]

#: The line (gid) -> its spans column (the success rate is ``1 - failures / total``).
SPAN_FIGURES = {"success_rate": "failures", "burn_rate": "burn_rate",
                "budget_remaining": "remaining_fraction"}


def require_steps(spans: pd.DataFrame) -> None:
    """Refuse spans that are not the window's steps (``status_spans(..., steps=True)``): one row
    per status run holds the figures of its start only, and a line drawn from them would show
    values the window did not have between an expiry and the next status change."""
    if not spans.attrs.get("steps", False):
        raise ConfigError("spans= takes the window's steps, budgetlab.status_spans(events, slo, "
                          "steps=True) (one row at every change of the window: the lines are "
                          "exact); these spans hold one row per status run.")


def clock_table(steps: pd.DataFrame) -> tuple[np.ndarray, Callable[[str], np.ndarray]]:
    """``(t_ns, figure)``: the times of :func:`clock_values`, read once, and ``figure(gid)``, the
    values of line ``gid`` (made when asked: one line's at a time)."""
    require_steps(steps)
    require_columns(steps, ["start", "end", "status", "total", "failures", "burn_rate",
                            "remaining_fraction"], what="spans (budgetlab.status_spans's output)")
    start = utc_ns_column(steps["start"], "spans['start']")
    end = utc_ns_column(steps["end"].iloc[-1:], "spans['end']")  # where the last step stops
    keep = ~steps["instant"].to_numpy(dtype=bool) if "instant" in steps else np.ones(len(start),
                                                                                      dtype=bool)
    total = steps["total"].to_numpy(dtype=float)[keep]
    # compared as a categorical (its codes): text conversion costs a second per million rows
    quiet = (steps["status"] == "no_traffic").to_numpy(dtype=bool)[keep] | (total <= 0)

    def figure(gid: str) -> np.ndarray:
        if gid == "success_rate":
            failures = steps["failures"].to_numpy(dtype=float)[keep]
            v = np.where(quiet, np.nan, 1.0 - failures / np.where(quiet, 1.0, total))
        else:
            v = np.where(quiet, np.nan, steps[SPAN_FIGURES[gid]].to_numpy(dtype=float)[keep])
        return np.asarray(np.r_[v, v[-1:]], dtype=float)

    return np.r_[start[keep], end].astype(np.int64), figure


def clock_values(steps: pd.DataFrame, gid: str) -> tuple[np.ndarray, np.ndarray]:
    """``(t_ns, values)`` of line ``gid`` on the window's clock: a row at the start of each step
    of ``steps`` (:func:`budgetlab.status_spans` with ``steps=True``; blips left out: the value
    before holds through them) with the window's figure there (NaN over ``no_traffic``), and a
    last row at the observation's end (the last value again: where the last step stops).

    >>> from budgetlab import SLO, as_events, status_spans
    >>> ts = pd.to_datetime(["2026-01-01 00:00", "2026-01-01 00:10", "2026-01-01 00:20",
    ...                      "2026-01-01 05:00"], utc=True)
    >>> ev, slo = as_events(ts, [True, True, False, True]), SLO(target=0.5, window="1h")
    >>> t, v = clock_values(status_spans(ev, slo, steps=True), "success_rate")
    >>> pd.to_datetime(t, utc=True).strftime("%H:%M").tolist()
    ['00:00', '00:10', '00:20', '01:00', '01:10', '01:20', '05:00']
    >>> np.round(v, 3).tolist()
    [1.0, 1.0, 0.667, 0.5, 0.0, nan, nan]

    (at 01:10 + 1 ns the 00:10 success leaves: 0 of 1, until 01:20 + 1 ns, when the window
    empties)
    """
    t, figure = clock_table(steps)
    return t, figure(gid)


def clock_lines(steps: pd.DataFrame, gids: Sequence[str], *, columns: int,
                max_points: int) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """``{gid: (x, y)}``: :func:`clock_line` of each of ``gids`` (the steps read once)."""
    tc, figure = clock_table(steps)
    lines = {}
    every = np.arange(len(tc), dtype=np.int64)
    for gid in gids:
        v = figure(gid)
        if len(tc) > max_points:  # each column's time-weighted mean (its range: line_envelope)
            at, mean, _, _ = line_envelope(tc, v, columns)
            lines[gid] = (at, mean)
        else:
            lines[gid] = step_line(tc, v, every, np.zeros(0, dtype=np.int64))
    return lines


def clock_line(steps: pd.DataFrame, gid: str, *, columns: int,
               max_points: int) -> tuple[np.ndarray, np.ndarray]:
    """``(x, y)`` of line ``gid`` on the window's clock (:func:`clock_values`), to draw with
    ``drawstyle="steps-post"`` (``x`` naive UTC ``datetime64[ns]``; ``y`` unscaled). Beyond
    ``max_points`` rows, the line's time-weighted mean in each of ``columns`` time columns, as
    the timeline draws it (:func:`~budgetlab.plotting.column_means.line_envelope`, whose low and
    high per column are the range): a value held for a tenth of a column weighs a tenth; the
    line breaks over each stretch without traffic (NaN) of a column or more, shorter ones merge
    (the mean is over the time holding a value).

    >>> from budgetlab import SLO, as_events, status_spans
    >>> ts = pd.to_datetime(["2026-01-01 00:00", "2026-01-01 00:10", "2026-01-01 05:00"],
    ...                     utc=True)
    >>> ev, slo = as_events(ts, [True, False, True]), SLO(target=0.9, window="1h")
    >>> x, v = clock_line(status_spans(ev, slo, steps=True), "burn_rate", columns=1,
    ...                   max_points=5)
    >>> v.tolist()  # at 01:00 + 1 ns the success leaves: 1 failure of 1, burn 10x
    [0.0, 5.0, 10.0, nan, nan]
    >>> x, v = clock_line(status_spans(ev, slo, steps=True), "burn_rate", columns=1,
    ...                   max_points=4)
    >>> np.round(v, 9).tolist()  # 0 for 10 min, 5 for 50, 10 for 10: 350 / 70 (one column)
    [5.0, 5.0]
    """
    return clock_lines(steps, [gid], columns=columns, max_points=max_points)[gid]
