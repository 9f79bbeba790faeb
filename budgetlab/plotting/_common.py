"""Shared drawing helpers of :mod:`budgetlab.plotting` (time axes, thinning, gaps, stacked panels,
colours)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from .._util.words import counted
from ..errors import InputError
from ._dates import WidthDateLocator, YearDateFormatter

#: Colours of the status bands, from the Okabe–Ito palette: bluish green, orange, vermillion and
#: black (warning and critical as :data:`~budgetlab.plotting.alert_chart.SEVERITY_COLORS` draws
#: them). Against white they stand out by lightness (WCAG contrast 3.4, 2.3, 3.9 and 21 to 1; the
#: palette's yellow, warning until 0.2, had 1.3 to 1 and its strip and status-change lines hardly
#: showed), and besides their hue they differ in lightness (CIELAB L* 58, 73, 54, 0) and the bands
#: add :data:`STATUS_HATCHES`: the four stay apart in deuteranopia and protanopia (Machado et al.
#: 2009) and in greyscale print. The bands' tints grow darker from healthy to critical
#: (:data:`~budgetlab.plotting.status_bands.BAND_ALPHA`).
STATUS_COLORS = {"healthy": "#009E73", "warning": "#E69F00", "critical": "#D55E00",
                 "exhausted": "#000000"}
#: Hatching of the status bands (density grows with the severity).
STATUS_HATCHES = {"healthy": "", "warning": "..", "critical": "///", "exhausted": "xx"}
#: Okabe–Ito sky blue, drawn light (:data:`FILLING_ALPHA`) behind an alert chart's tier row while
#: its long window fills: apart from the incidents' grey and from the severities' orange and
#: vermillion (here, not in :mod:`~budgetlab.plotting.alert_chart`: the status bands' warm-up
#: strip is drawn in it too).
FILLING_COLOR = "#56B4E9"
FILLING_ALPHA = 0.25

#: Colours of groups in line plots, in the groups' display order: Okabe–Ito's blue, vermillion,
#: reddish purple, bluish green and black, with Paul Tol's wine and indigo in place of its yellow,
#: orange and sky blue. A thin line needs the WCAG contrast for graphics, 3 to 1 against white
#: (SC 1.4.11): these have 5.2, 3.9, 3.1, 3.4, 8.7, 12.2 and 21 (the yellow had 1.3, the orange
#: 2.3, the sky blue 2.3). Any two stay at least 17 CIELAB units apart also in deuteranopia,
#: protanopia and tritanopia (Machado et al. 2009), as Okabe–Ito's own closest pair; no two
#: neighbours are both status colours (:data:`STATUS_COLORS`), so two or three groups do not read
#: as healthy beside critical.
GROUP_COLORS = ("#0072B2", "#D55E00", "#CC79A7", "#009E73", "#882255", "#332288", "#000000")
#: The colour of the groups drawn as "other" (:func:`group_colors`): lighter than every group
#: colour, yet against white no fainter than the lightest status colour (2.6 to 1).
OTHER_COLOR = "#A0A0A0"


def group_colors(names: Sequence[str], weights: Sequence[float] | None = None) -> dict[str,
                                                                                       str | None]:
    """A colour per group, the one rule of every figure that draws groups: the coloured groups
    take :data:`GROUP_COLORS` in the sorted order of their names, whatever order a figure draws
    them in, so a group has the same colour in every figure that draws the same groups (the
    daily success and the recalibration figure of a run, say). Distinct colours while they
    suffice; with more groups, the ``len(GROUP_COLORS) - 1`` with the most weight (evidence,
    e.g. events; ties and no weights: the first ones) keep theirs, and the others map to
    ``None``: drawn in :data:`OTHER_COLOR` under one legend entry (:func:`other_label`). The
    mapping keeps the order of ``names`` (a legend's order).

    >>> group_colors(["b", "a"])
    {'b': '#D55E00', 'a': '#0072B2'}
    >>> c = group_colors([f"g{i}" for i in range(10)], weights=[1] * 9 + [5])
    >>> c["g0"], c["g9"], c["g6"], other_label(c)
    ('#0072B2', '#332288', None, 'other (4 groups)')
    """
    names = [str(n) for n in names]
    coloured = names
    if len(names) > len(GROUP_COLORS):
        w = np.zeros(len(names)) if weights is None else np.asarray(weights, dtype=float)
        top = np.argsort(-np.nan_to_num(w, nan=0.0), kind="stable")[: len(GROUP_COLORS) - 1]
        coloured = [names[k] for k in top.tolist()]
    colour = {n: GROUP_COLORS[i] for i, n in enumerate(sorted(set(coloured)))}
    return {n: colour.get(n) for n in names}


def other_label(colors: dict[str, str | None], rule: str = "") -> str:
    """The legend text of the groups :func:`group_colors` put in "other" (``""`` when none),
    with ``rule``, how the coloured ones were chosen, when given.

    >>> other_label({"a": "#0072B2", "b": None, "c": None})
    'other (2 groups)'
    >>> other_label({"a": "#0072B2", "b": None}, "fewer failures")
    'other (1 group; fewer failures)'
    """
    n = sum(1 for c in colors.values() if c is None)
    return f"other ({counted(n, 'group')}{f'; {rule}' if rule else ''})" if n else ""


def gap_threshold(t_ns: np.ndarray, *, factor: float = 20.0, share: float = 0.02) -> int:
    """The shortest time without events drawn as a gap, in nanoseconds.

    ``max(factor × the median spacing of consecutive events, share × the span drawn, 1 ns)``: a
    gap is far longer than the usual spacing of the events and wide enough to read as one (2 % of
    the span is ~20 pixel columns of a 1,000-pixel-wide panel), so at most ``1 / share`` (50)
    gaps. Shorter silences are drawn as the step they are (the tracker's state holds between
    events): a log that arrives in hourly bursts over days is one line, not a dust of segments.

    >>> t = np.array([0, 10, 20, 30, 1_000, 1_010], dtype=np.int64)
    >>> gap_threshold(t)  # median spacing 10: 20 x 10 = 200; 2 % of 1,010 = 20
    200
    """
    t = np.asarray(t_ns, dtype=np.int64)
    if len(t) < 2:
        return 1
    med = float(np.median(np.diff(t)))
    return max(int(factor * med), int(share * float(t[-1] - t[0])), 1)


def piece_starts(t_ns: np.ndarray, columns: int, breaks: np.ndarray) -> np.ndarray:
    """Start rows of the pieces that :func:`thin_minmax` keeps extremes of: ``[t[0], t[-1]]`` cut
    into ``columns`` equal-width time columns (column ``k`` holds the rows with ``t >= t[0] + k ×
    span / columns``, rounded up to the nanosecond, up to the next column), cut again after every
    row in ``breaks``; empty pieces left out.

    >>> piece_starts(np.array([0, 1, 2, 3, 8, 9, 10], dtype=np.int64), 2, np.array([1])).tolist()
    [0, 2, 4]
    """
    t = np.asarray(t_ns, dtype=np.int64)
    n = len(t)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    span = float(t[-1] - t[0])
    edges = t[0] + np.ceil(np.arange(1, columns) * (span / columns)).astype(np.int64)
    b = np.asarray(breaks, dtype=np.int64)
    cuts = np.concatenate([[0], np.searchsorted(t, edges, side="left"), b[b < n - 1] + 1])
    return np.unique(cuts[cuts < n]).astype(np.int64)


def extreme_rows(y: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """Rows kept of ``y`` in each piece starting at ``starts``: the first, the last, the first row
    holding the piece's minimum and the first holding its maximum (NaN ignored; a piece of NaN
    only keeps its first and last row). Sorted, without repeats. A few vectorised passes over the
    values, whatever the number of pieces.

    >>> extreme_rows(np.array([5., 1., 7., 3., 2., np.nan, 4.]), np.array([0, 5])).tolist()
    [0, 1, 2, 4, 5, 6]
    """
    y = np.asarray(y, dtype=float)
    n = len(y)
    if n == 0 or len(starts) == 0:
        return np.zeros(0, dtype=np.int64)
    s = np.asarray(starts, dtype=np.int64)
    y = y[s[0]:]  # rows before the first piece belong to none
    rel = s - s[0]
    last = np.r_[rel[1:], len(y)] - 1
    lengths = last - rel + 1
    out = [rel, last]
    for reduce in (np.fmin, np.fmax):  # NaN ignored unless a piece holds nothing else
        extreme = reduce.reduceat(y, rel)
        # NaN never equals: an all-NaN piece has none
        hit = np.flatnonzero(y == np.repeat(extreme, lengths))
        j = np.searchsorted(hit, rel)  # the first hit of each piece: the first from its start,
        inside = j < len(hit)  # if there is one and it is before the piece's end
        first = hit[j[inside]]
        out.append(first[first <= last[inside]])
    return np.asarray(np.unique(np.concatenate(out)) + s[0], dtype=np.int64)


def thin_minmax(t_ns: np.ndarray, y: np.ndarray, *, max_points: int,
                breaks: np.ndarray | None = None) -> np.ndarray:
    """Rows of a time series to draw so that the picture stays the same: all rows when there are
    at most ``max_points``, else the first, last, minimum and maximum of each of
    ``max_points // 4`` equal-width time columns (each also cut after every row in ``breaks``,
    e.g. the gaps). At most ``max_points + 4 × len(breaks)`` rows.

    Parameters
    ----------
    t_ns : ndarray of int64
        Times of the rows in nanoseconds, sorted.
    y : ndarray of float
        The values.
    max_points : int
        Keep all rows up to this many; else ``max_points // 4`` columns (a panel's pixel columns
        or more: 1,250 at the default 5,000).
    breaks : ndarray of int, optional
        Rows after which the line breaks (a column ends there).

    Returns
    -------
    ndarray of int64
        The rows kept, sorted.

    Examples
    --------
    >>> t = np.arange(8, dtype=np.int64)
    >>> thin_minmax(t, np.array([0., 9., 1., 2., 3., 8., -1., 4.]), max_points=4).tolist()
    [0, 1, 6, 7]
    >>> thin_minmax(t, np.array([0., 9., 1., 2., 3., 8., -1., 4.]), max_points=8).tolist()
    [0, 1, 2, 3, 4, 5, 6, 7]
    """
    n = len(t_ns)
    b = np.zeros(0, dtype=np.int64) if breaks is None else np.asarray(breaks, dtype=np.int64)
    if n <= max_points:
        return np.arange(n, dtype=np.int64)
    return extreme_rows(y, piece_starts(t_ns, max(1, max_points // 4), b))


def gap_breaks(t_ns: np.ndarray, gap_ns: int) -> np.ndarray:
    """Rows after which more than ``gap_ns`` pass without an event (where a line breaks).

    >>> gap_breaks(np.array([0, 10, 20, 300, 310], dtype=np.int64), 200).tolist()
    [2]
    """
    t = np.asarray(t_ns, dtype=np.int64)
    return np.flatnonzero(np.diff(t) > gap_ns).astype(np.int64)


def step_line(t_ns: np.ndarray, y: np.ndarray, rows: np.ndarray,
              breaks: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(x, y)`` to draw with ``drawstyle="steps-post"``: the ``rows`` kept (see
    :func:`thin_minmax`), and after every row in ``breaks`` a NaN at the same time, so that the
    value holds until the next event but never across a gap. ``x`` is naive UTC
    ``datetime64[ns]``.

    >>> x, v = step_line(np.array([0, 10, 300], dtype=np.int64), np.array([1., 2., 3.]),
    ...                  np.array([0, 1, 2]), np.array([1]))
    >>> x.view(np.int64).tolist(), v.tolist()
    ([0, 10, 10, 300], [1.0, 2.0, nan, 3.0])
    """
    t = np.asarray(t_ns, dtype=np.int64)
    yy = np.asarray(y, dtype=float)
    rows = np.asarray(rows, dtype=np.int64)
    brk = np.intersect1d(np.asarray(breaks, dtype=np.int64), rows)
    pos = np.searchsorted(rows, brk) + 1  # insert after the break row
    x = np.insert(t[rows], pos, t[brk])
    v = np.insert(yy[rows], pos, np.nan)
    return x.view("datetime64[ns]"), v


def utc_naive(values: Any) -> np.ndarray:
    """Times as naive UTC ``datetime64[ns]`` (what matplotlib plots; the axis shows ``tz``);
    ``.view(np.int64)`` gives UTC nanoseconds."""
    s = pd.to_datetime(pd.Series(values), utc=True)
    return np.asarray(s.dt.tz_localize(None).dt.as_unit("ns").to_numpy())


def display_names(col: pd.Series) -> list[str]:
    """The values of a column in display order: its categories, else first appearance."""
    if isinstance(col.dtype, pd.CategoricalDtype):
        return [str(c) for c in col.cat.categories]
    return list(pd.unique(col.astype(str)))


def time_axis(ax: Axes, tz: str) -> None:
    """Date ticks and labels in ``tz`` (the data stay UTC; as many ticks as the axis' width holds:
    :class:`WidthDateLocator`) and the zone in the x label; no x label under an axis whose tick
    labels are hidden (an upper chart of a stack sharing its x axis, ``plt.subplots(n,
    sharex=True)``): the chart that shows the dates carries it. On a figure without a layout
    engine, room is made below for the dates, their year and month and the x label
    (:func:`~budgetlab.plotting.legends.room_for`: a short figure keeps them whole)."""
    from .legends import room_below, x_label_clear

    locator = WidthDateLocator(tz)
    ax.xaxis.set_major_locator(locator)
    ax.xaxis.set_major_formatter(YearDateFormatter(locator, tz=tz))  # type: ignore[no-untyped-call]
    shown = ax.xaxis.get_tick_params(which="major")
    dates_shown = shown.get("labelbottom", True) or shown.get("labeltop", False)
    ax.set_xlabel(f"time ({tz})" if dates_shown else "")
    if not dates_shown or ax.figure.get_layout_engine() is not None:
        return  # no room to make: no dates below, or an engine makes it
    room_below(ax)
    x_label_clear(ax)


def split_axes(ax: Axes, n: int, *, hspace: float = 0.12) -> list[Axes]:
    """``ax`` and ``n - 1`` new axes below it, sharing its x axis, stacked in the area ``ax``
    had (a sub-grid of its grid cell, or its box split by hand when it was placed by hand)."""
    fig = ax.figure
    spec = ax.get_subplotspec()
    if spec is not None:
        grid = spec.subgridspec(n, 1, hspace=hspace)
        ax.set_subplotspec(grid[0])
        rest = [fig.add_subplot(grid[i], sharex=ax) for i in range(1, n)]
    else:
        box = ax.get_position()
        h = box.height / (n + hspace * (n - 1))
        ax.set_position((box.x0, box.y1 - h, box.width, h))
        rest = [fig.add_axes((box.x0, box.y1 - (i + 1) * h - i * hspace * h, box.width, h),
                             sharex=ax)
                for i in range(1, n)]
    return [ax, *rest]


def one_group(frame: pd.DataFrame, known: Sequence[str], what: str) -> None:
    keys = [c for c in frame.columns if c not in known]
    for k in keys:
        if frame[k].nunique(dropna=False) > 1:
            raise InputError(
                f"{what} holds several groups ({k!r} varies); select one group first, e.g. "
                f"{what}[{what}[{k!r}] == value]."
            )


def _label_edge(axis: Any, renderer: Any, side: str) -> float | None:
    """Display coordinate of the outer edge of ``axis``'s tick labels drawn inside its view
    (``side``: ``"x0"`` for a y axis, ``"y0"`` for an x axis), or ``None`` without any."""
    lo, hi = sorted(axis.get_view_interval())
    tol = 1e-9 * max(hi - lo, 1e-300)
    edges = [
        getattr(t.label1.get_window_extent(renderer), side)
        for t in axis.get_major_ticks()
        if t.label1.get_visible() and t.label1.get_text() and lo - tol <= t.get_loc() <= hi + tol
    ]
    return min(edges) if edges else None


def place_axis_labels(panels: Sequence[Axes]) -> None:
    """Fix the y labels of ``panels`` (one column of stacked panels, as :func:`split_axes` makes)
    where ``fig.align_ylabels(panels)`` puts them, and each x label where matplotlib puts it: left
    of (below) the widest (lowest) tick label, ``labelpad`` away. Measured once per axis, so the
    draw does not measure every sibling's ticks again for every label (a third of the drawing
    time of a many-panel figure). Call it when the panels are complete (limits, locators,
    formatters); the labels stay where they are if the data change afterwards."""
    if not panels:
        return
    fig = panels[0].get_figure(root=True)
    renderer = fig.canvas.get_renderer()  # type: ignore[union-attr]
    pad = fig.dpi / 72  # type: ignore[union-attr]
    for p in panels:  # the tick labels as the draw will make them
        p.xaxis.get_majorticklabels()
        p.yaxis.get_majorticklabels()
    boxes = [p.get_window_extent(renderer) for p in panels]
    lefts = [_label_edge(p.yaxis, renderer, "x0") for p in panels]
    left = min([b.x0 for b in boxes] + [e for e in lefts if e is not None])
    for p, box in zip(panels, boxes, strict=True):
        x = left - p.yaxis.labelpad * pad
        p.yaxis.set_label_coords((x - box.x0) / box.width, 0.5)
        if p.xaxis.get_label_text():
            low = _label_edge(p.xaxis, renderer, "y0")
            y = min(box.y0, box.y0 if low is None else low) - p.xaxis.labelpad * pad
            p.xaxis.set_label_coords(0.5, (y - box.y0) / box.height)
        else:  # no x label: nothing to place
            p.xaxis.set_label_coords(0.5, 0.0)


def overlap_lanes(starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Each span ``[start, end)``'s lane, 0 up: in order of start, the first lane whose spans
    have all ended by then, so that spans sharing a lane never overlap.

    >>> overlap_lanes(np.array([0, 5, 2, 9]), np.array([6, 8, 4, 10])).tolist()
    [0, 1, 1, 0]
    """
    lane = np.zeros(len(starts), dtype=np.int64)
    free_at: list[Any] = []  # per lane, the end of its last span
    for i in np.argsort(starts, kind="stable"):  # a loop over spans (incidents), not events
        j = next((k for k, end in enumerate(free_at) if end <= starts[i]), len(free_at))
        free_at[j:j + 1] = [ends[i]]
        lane[i] = j
    return lane
