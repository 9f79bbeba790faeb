"""The episode bars of :func:`~budgetlab.plotting.plot_alerts`: one bar per episode on its tier
row, in its severity's colour, edged in it, and at least one pixel column wide once the chart is
laid out (:func:`~budgetlab.plotting._pixels.column_wide`, the rule that keeps a silence of the
timeline visible): a page of one minute in two days is a column of the chart, not a sliver under
the axes' spine."""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes
from matplotlib.container import BarContainer

from .._util.units import DAY_NS  # matplotlib's date numbers are days
from ._pixels import column_wide, pixel_columns

__all__ = ["SEVERITY_COLORS", "row_bars", "bars_column_wide"]

#: Episode colours by severity (pages vermillion, tickets orange, as the status bands).
SEVERITY_COLORS = {"page": "#D55E00", "critical": "#D55E00", "ticket": "#E69F00",
                   "warning": "#E69F00"}


def row_bars(ax: Axes, y: int, start: np.ndarray, end: np.ndarray, severity: str,
             label: str) -> BarContainer:
    """The episodes ``[start, end)`` (date numbers) of row ``y`` as bars in ``severity``'s colour
    (:data:`SEVERITY_COLORS`, blue for another), labelled ``label``; edged in that colour, so
    that an episode narrower than a pixel still shows (:func:`bars_column_wide` widens it)."""
    colour = SEVERITY_COLORS.get(severity, "#0072B2")
    return ax.barh(np.full(len(start), y), end - start, left=start, height=0.6, color=colour,
                   edgecolor=colour, linewidth=0.8, label=label)


def bars_column_wide(ax: Axes, rows: list[BarContainer]) -> None:
    """Each bar of ``rows`` narrower than one pixel column (:func:`pixel_columns`) of ``ax``'s x
    range widened to one column, from its start (up to the range's end near it): call it once the
    axes' width is settled (legends placed)."""
    bars = [bar for row in rows for bar in row.patches]
    if not bars:
        return
    lo, hi = ax.get_xlim()
    x0 = np.array([bar.get_x() for bar in bars])
    x1 = x0 + np.array([bar.get_width() for bar in bars])
    # nanoseconds from the range's start: exact enough for a pixel column, small integers
    a0, a1 = np.round((x0 - lo) * DAY_NS), np.round((x1 - lo) * DAY_NS)
    s, e = column_wide(a0, a1, 0, round((hi - lo) * DAY_NS), pixel_columns(ax))
    for i in np.flatnonzero((s != a0) | (e != a1)):  # the others left as drawn
        bars[i].set_x(lo + s[i] / DAY_NS)
        bars[i].set_width((e[i] - s[i]) / DAY_NS)
