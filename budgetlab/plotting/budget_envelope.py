"""The budget line of a timeline with more steps than pixel columns: its time-weighted mean per
column, over a light band of the range it spans there.

The budget left under a short window flips between extremes: each failure takes it from 100 % to
0 and the window's next fill back. Drawn with the extremes of each column (as the other lines),
every column holding one failure becomes a black bar from 0 to 100, and a log 8 % of the time
exhausted reads as a black panel. Its mean per column keeps the area under the line (the time
the budget was spent weighs as long as it lasted), and the band keeps what the extremes showed:
how low and how high it went in the column. Its legend key is the line's over a strip of the
band: the band names no status (the strip along the panel's top marks where it was exhausted).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from ._common import step_line
from ._pixels import column_envelope, pixel_columns
from .clock_lines import clock_values
from .status_bands import RangeLine

__all__ = ["ENVELOPE_COLOR", "budget_envelope", "draw_envelope", "enveloped", "range_key"]

#: The band of the budget's range per pixel column: Okabe–Ito blue at 15 % opacity, light and
#: see-through (the status band behind it shows), apart from every status tint (the exhausted
#: grey above all: the range is no status) and from the warm-up strip's opaque sky blue.
ENVELOPE_COLOR = (0.0, 0.447, 0.698, 0.15)

Envelope = tuple[np.ndarray, np.ndarray, np.ndarray]


def enveloped(t: np.ndarray, spans: pd.DataFrame | None, ax: Axes) -> bool:
    """Whether :func:`budget_envelope` will draw the range on ``ax`` by default (4 rows per pixel
    column): before the legends' room is made, from the width it has then (the legend naming the
    range is made anew if the narrowed panel decides otherwise)."""
    steps = len(spans) + 1 if spans is not None and len(spans) else len(t)
    return steps > 4 * pixel_columns(ax)


def budget_envelope(ax: Axes, points: dict[str, tuple[np.ndarray, np.ndarray]], t: np.ndarray,
                    values: dict[str, np.ndarray], spans: pd.DataFrame | None,
                    breaks: np.ndarray, columns: int, max_points: int) -> Envelope | None:
    """With more budget steps than ``max_points``: ``points["budget_remaining"]`` set to its
    time-weighted mean in each of ``columns`` (the steps of the window's clock with ``spans``,
    else the per-event ``values`` at ``t`` broken after ``breaks``;
    :func:`~budgetlab.plotting._pixels.column_envelope`) and ``(x, low, high)``, the range
    drawn under it on ``ax`` (:func:`draw_envelope`); ``None`` (``points`` kept) with fewer
    steps, or without a budget line."""
    if "budget_remaining" not in values:
        return None
    if spans is not None and len(spans):
        x, y = clock_values(spans, "budget_remaining")  # each step and the end
        if len(x) <= max_points:
            return None
    elif len(t) <= max_points:  # as the lines are thinned: beyond max_points events
        return None
    else:
        x, y = step_line(t, values["budget_remaining"], np.arange(len(t), dtype=np.int64), breaks)
        x = x.view(np.int64)
    edges, mean, low, high = column_envelope(x, y, columns)
    at = edges.view("datetime64[ns]")
    points["budget_remaining"] = (at, np.r_[mean, mean[-1:]])
    envelope = (at, np.r_[low, low[-1:]], np.r_[high, high[-1:]])
    draw_envelope(ax, envelope)
    return envelope


def draw_envelope(ax: Axes, envelope: Envelope, scale: float = 100.0) -> Any:
    """The range of :func:`budget_envelope` as a light band under the budget line (gid
    ``budget_range``; its legend key is the line's, :func:`range_key`), in %."""
    x, low, high = envelope
    return ax.fill_between(x, low * scale, high * scale, step="post", color=ENVELOPE_COLOR,
                           lw=0, zorder=1.5, gid="budget_range")


def range_key(line: Any) -> RangeLine:
    """The legend entry of the budget ``line`` (a Line2D) drawn over its range: its look and
    label over a key-high band of :data:`ENVELOPE_COLOR` (gid ``budget_remaining``, as the
    line's)."""
    key = RangeLine(band=ENVELOPE_COLOR, color=line.get_color(), lw=line.get_linewidth(),
                    label=line.get_label())
    key.set_gid(line.get_gid())
    return key
