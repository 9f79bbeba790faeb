"""The timeline's lines with more steps than pixel columns: each line's time-weighted mean per
column, over a light band of the range it spans there.

Reduced to its extremes per column, a line that swings within every column reads as a solid
block: the budget left under a short window flips from 100 % to 0 at each failure and back at
the window's next fill, so every column holding one failure became a black bar from 0 to 100
(a log 8 % of the time exhausted read as a black panel); the success rate of a log failing 1.5 %
of the time dips at each failure under a 1 h window, and its panel became a block from the
lowest dip to 100 %, as if it swung so all the time. The mean per column keeps the area under
the line (a dip weighs as long as it lasted: a log succeeding 99 % of the time draws 99 %), and
the band keeps what the extremes showed: how low and how high the line went in the column. The
line breaks over each gap (NaN, no traffic) of a column or more, its band too; shorter gaps
merge (the mean is over the time holding a value). Its legend key is the line's over a strip of
the band: the band names no status (the strip along the budget panel's top marks where it was
exhausted).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from ._pixels import pixel_columns
from .clock_lines import clock_table
from .column_means import line_envelope
from .status_bands import RangeLine

__all__ = ["ENVELOPE_COLOR", "RANGE_COLORS", "RANGE_GIDS", "draw_envelope", "enveloped",
           "line_envelope", "line_envelopes", "range_key"]

#: The band of the budget's range per pixel column: Okabe–Ito blue at 15 % opacity, light and
#: see-through (the status band behind it shows), apart from every status tint (the exhausted
#: grey above all: the range is no status) and from the warm-up strip's opaque sky blue.
ENVELOPE_COLOR = (0.0, 0.447, 0.698, 0.15)

#: Each line's band: its own colour, see-through (the success rate's blue is the budget's
#: band's; the budget's black line over the same blue, not a grey read as exhausted). The burn
#: rate's reddish purple at 30 %: at 15 % on white it was barely seen above the line's peaks.
RANGE_COLORS: dict[str, tuple[float, float, float, float]] = {
    "success_rate": ENVELOPE_COLOR, "burn_rate": (0.8, 0.475, 0.655, 0.3),
    "budget_remaining": ENVELOPE_COLOR}

#: Each line's gid -> the gid of the band of its range.
RANGE_GIDS = {"success_rate": "success_range", "burn_rate": "burn_range",
              "budget_remaining": "budget_range"}

Envelope = tuple[np.ndarray, np.ndarray, np.ndarray]


def enveloped(t: np.ndarray, spans: pd.DataFrame | None, ax: Axes) -> bool:
    """Whether :func:`line_envelopes` will draw the ranges on the panels as wide as ``ax`` by
    default (4 rows per pixel column): before the legends' room is made, from the width it has
    then (the legends naming the ranges are made anew if the narrowed panel decides otherwise)."""
    steps = len(spans) + 1 if spans is not None and len(spans) else len(t)
    return steps > 4 * pixel_columns(ax)


def line_envelopes(panels: dict[str, Axes], t: np.ndarray, values: dict[str, np.ndarray],
                   spans: pd.DataFrame | None, breaks: np.ndarray, columns: int, max_points: int
                   ) -> tuple[dict[str, tuple[np.ndarray, np.ndarray]], dict[str, np.ndarray]]:
    """With more steps than ``max_points``: ``(points, ranges)``, each line's (of ``panels``,
    gid -> its panel) ``(x, y)`` to draw as steps, its time-weighted mean in each of ``columns``
    (the steps of the window's clock with ``spans``, else the per-event ``values`` at ``t``
    broken after ``breaks``; :func:`line_envelope`), its range drawn under it on its panel
    (:func:`draw_envelope`), and the lows and highs drawn (unscaled: what the panel's y range
    must hold). Both empty (nothing drawn) with fewer steps: the lines are drawn exactly."""
    if spans is not None and len(spans):
        x, figure = clock_table(spans)  # each step and the end
        rows = len(x)
    else:  # each event, and a NaN after each break at its time (as step_line draws them)
        rows, brk = len(t), np.unique(np.asarray(breaks, dtype=np.int64))
        x = np.insert(np.asarray(t, dtype=np.int64), brk + 1, np.asarray(t, dtype=np.int64)[brk])

        def figure(gid: str) -> np.ndarray:
            return np.insert(np.asarray(values[gid], dtype=float), brk + 1, np.nan)
    if rows <= max_points:  # the lines drawn exactly
        return {}, {}
    points, ranges = {}, {}
    for gid, ax in panels.items():
        at, mean, low, high = line_envelope(x, figure(gid), columns)
        points[gid] = (at, mean)
        draw_envelope(ax, (at, low, high), scale=1.0 if gid == "burn_rate" else 100.0, gid=gid)
        ranges[gid] = np.r_[low, high]
    return points, ranges


def draw_envelope(ax: Axes, envelope: Envelope, scale: float = 100.0,
                  gid: str = "budget_remaining") -> Any:
    """The range of line ``gid`` (:func:`line_envelope`'s ``at``, ``low`` and ``high``, each
    held until the next ``at``) as a light band under the line, times ``scale`` (gid
    :data:`RANGE_GIDS` ``[gid]``, colour :data:`RANGE_COLORS` ``[gid]``; its legend key is the
    line's, :func:`range_key`); broken where the range is NaN."""
    x, low, high = envelope
    # each step as its two corners: a step before a NaN keeps its width (fill_between's
    # step="post" drops the last step of each unbroken run)
    xs = np.repeat(np.asarray(x), 2)[1:-1]
    return ax.fill_between(xs, np.repeat(low[:-1], 2) * scale, np.repeat(high[:-1], 2) * scale,
                           color=RANGE_COLORS[gid], lw=0, zorder=1.5, gid=RANGE_GIDS[gid])


def range_key(line: Any) -> RangeLine:
    """The legend entry of a ``line`` (a Line2D, gid one of :data:`RANGE_GIDS`) drawn over its
    range: its look and label over a key-high band of its :data:`RANGE_COLORS` (gid the
    line's)."""
    key = RangeLine(band=RANGE_COLORS.get(str(line.get_gid()), ENVELOPE_COLOR),
                    color=line.get_color(), lw=line.get_linewidth(), label=line.get_label())
    key.set_gid(line.get_gid())
    return key
