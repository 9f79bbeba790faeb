"""The rows a replay timeline draws (:func:`~budgetlab.plotting.timeline.plot_timeline`): the
per-event rows in time order (:func:`event_rows`), where their lines break after a gap and the
rows alone between breaks, drawn as dots (:func:`line_breaks`, :func:`lone_rows`; after the
spans, :func:`rows_after_spans`), and the first and last instant drawn with spans
(:func:`observed_ends`). Numbers only: the timeline draws them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._util.validation import to_timedelta, utc_ns_column
from ..slo import SLO
from ._common import gap_breaks, gap_threshold

__all__ = ["event_rows", "line_breaks", "lone_rows", "rows_after_spans", "observed_ends"]


def event_rows(states: pd.DataFrame | None, lines: Sequence[tuple[str, str]]
               ) -> tuple[np.ndarray, dict[str, np.ndarray], pd.Series, np.ndarray | None]:
    """``(t, values, status, order)`` of the per-event rows drawn: their times in time order,
    each line's values (gid -> ``states`` column, of ``lines``) in that order, their statuses
    and the order (``None``: the table's); no row without ``states``."""
    if states is None:
        return (np.zeros(0, dtype=np.int64), {gid: np.zeros(0) for gid, _ in lines},
                pd.Series([], dtype=object), None)
    t = utc_ns_column(states["ts"], "states['ts']")
    order = None if len(t) < 2 or bool((t[1:] >= t[:-1]).all()) else np.argsort(t, kind="stable")
    values = {gid: states[name].to_numpy(dtype=float) for gid, name in lines}
    if order is not None:
        t, values = t[order], {gid: v[order] for gid, v in values.items()}
    return t, values, states["status"], order


def line_breaks(t: np.ndarray, spans: pd.DataFrame | None, gap: Any,
                slo: SLO | None) -> tuple[np.ndarray, np.ndarray]:
    """Rows after which the per-event lines break (after a gap), and the rows alone between
    breaks (drawn as dots: a step needs two points). With ``spans`` the lines are the spans'
    (:func:`~budgetlab.plotting.clock_lines.clock_lines`): no break, and a dot for the events at
    the spans' end. The default gap is at most ``slo``'s window: after a longer silence the
    window held no event."""
    if spans is not None and len(spans):
        return np.zeros(0, dtype=np.int64), rows_after_spans(t, spans)
    if gap is None:
        gap_ns = gap_threshold(t)
        if slo is not None:
            gap_ns = min(gap_ns, int(slo.window.value))
    else:
        gap_ns = int(pd.Timedelta(to_timedelta(gap, name="gap")).value)
    breaks = gap_breaks(t, gap_ns)
    return breaks, lone_rows(len(t), breaks)


def lone_rows(n: int, breaks: np.ndarray) -> np.ndarray:
    """The rows of ``n`` alone between ``breaks`` (rows after which a line breaks), the first
    and last row included.

    >>> lone_rows(5, np.array([0, 1, 3])).tolist()
    [0, 1, 4]
    """
    cut = np.zeros(n + 1, dtype=bool)  # cut[i]: a break before row i (row 0 and the end included)
    cut[0] = cut[-1] = True
    cut[breaks + 1] = True
    return np.flatnonzero(cut[:-1] & cut[1:])


def rows_after_spans(t: np.ndarray, spans: pd.DataFrame) -> np.ndarray:
    """After a silence, the last row of each event time at or after the spans' end (the
    observation's last instant, which no span ``[start, end)`` holds): drawn as dots."""
    if str(spans["status"].iloc[-1]) != "no_traffic":  # the last step runs up to that instant
        return np.zeros(0, dtype=np.int64)
    rows = np.flatnonzero(t >= utc_ns_column(spans["end"], "spans['end']")[-1])
    return rows[np.r_[t[rows][1:] != t[rows][:-1], True]] if len(rows) else rows


def observed_ends(t: np.ndarray, spans: pd.DataFrame) -> np.ndarray:
    """The first and last instant drawn with ``spans``: their observation, and the events' ``t``
    beyond it (``t`` may be empty)."""
    lo, hi = spans["start"].iloc[0].value, spans["end"].iloc[-1].value
    return np.array([min([lo, *t[:1]]), max([hi, *t[-1:]])], dtype=np.int64)

