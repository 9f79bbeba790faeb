"""Legends outside the plot area (above it or beside it, so they hide no data) and the room the
figure makes for them, so that a plain ``savefig`` keeps them whole."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.patches import Patch
from matplotlib.transforms import Bbox, ScaledTranslation

#: What :func:`room_for` keeps free between an artist and the figure's edge, as a fraction of the
#: figure's width or height.
EDGE_MARGIN = 0.01


def legend_above(ax: Axes, handles: list[Any], ncols: int = 4, title: str | None = None,
                 handlelength: float | None = None, block: int = 1) -> None:
    """A legend above the plot area, so it never covers data (``title`` over its entries,
    left-aligned), over the room of the axes' title (:func:`title_room`: a title the user sets
    before or after, ``ax.set_title(...)``, sits between the plot area and the legend); with
    fewer columns when ``ncols`` of them would run past the figure's right edge (long group
    names), so it is never cut there; room made above (:func:`room_for`). ``handlelength``: the
    keys' length in font sizes (matplotlib's default, 2, when ``None``); ``block``: runs of
    entries that each stay in one column (a group's thresholds; the last run may be shorter, an
    entry of its own), blank entries (no key, no text) added at the end where matplotlib's
    balanced columns would split one (:func:`in_runs`)."""
    fig = ax.figure
    anchor = ax.transAxes + ScaledTranslation(0, title_room(ax) / 72, fig.dpi_scale_trans)

    def fits(box: Bbox) -> bool:
        if fig.get_layout_engine() is not None:  # the engine moves the axes to make room
            return bool(box.width <= 0.98 * fig.bbox.width)
        return bool(box.x1 <= fig.bbox.x1 - EDGE_MARGIN * fig.bbox.width)  # from the axes' left

    _fitted_legend(ax, min(ncols, len(handles)), fits, block=block, handles=handles,
                   loc="lower left", bbox_to_anchor=(0.0, 1.0), bbox_transform=anchor,
                   title=title, title_fontsize="small", alignment="left",
                   handlelength=handlelength)


def _fitted_legend(ax: Axes, ncols: int, fits: Callable[[Bbox], bool], block: int = 1,
                   **options: Any) -> None:
    """``ax.legend(**options)`` (small font, no frame) in ``ncols`` columns, or fewer until its
    box ``fits`` (the figure's right edge), and the room made for it (:func:`room_for`). With a
    ``block`` > 1, ``options["handles"]`` are runs of ``block`` entries (the last one maybe
    shorter: an entry of its own), each kept whole in one column (:func:`in_runs`)."""
    renderer = getattr(ax.figure.canvas, "get_renderer", None)
    handles = list(options.pop("handles", []))
    for n in range(max(1, ncols), 0, -1):
        laid = in_runs(len(handles), block, n) if block > 1 else 0
        if laid is None:  # no layout of n columns keeps every run whole
            continue
        legend = ax.legend(handles=handles + [Patch(visible=False, label="")] * laid, ncols=n,
                           fontsize="small", frameon=False, borderaxespad=0.0, **options)
        if n == 1 or renderer is None or fits(legend.get_window_extent(renderer())):
            break
    room_for(ax, [legend])


def in_runs(entries: int, block: int, ncols: int) -> int | None:
    """How many blank entries to add after ``entries`` (runs of ``block``, the last one maybe
    shorter) so that matplotlib's ``ncols`` columns each start at a run, none with blanks only;
    ``None`` when no number does. Matplotlib balances its columns (10 entries in 4: 3, 3, 2, 2;
    a group's third threshold then led the fourth column, the incident under it), filling each
    before the next.

    >>> in_runs(10, 3, 4), in_runs(5, 2, 3), in_runs(10, 3, 3), in_runs(10, 3, 2)
    (1, 0, None, 1)
    """
    if ncols == 1:
        return 0
    for extra in range(ncols * block + 1):
        rows, large = divmod(entries + extra, ncols)
        starts = np.cumsum([0] + [rows + 1] * large + [rows] * (ncols - large))[:ncols]
        if rows and all(start % block == 0 and start < entries for start in starts):
            return extra
    return None


def title_room(ax: Axes) -> float:
    """The height (points) the axes' title takes above the plot area: its pad and one line at
    the title font size (:rc:`axes.titlepad`, :rc:`axes.titlesize`), or as many lines as the
    tallest title already set (``ax.set_title("a\\nb")``).

    >>> import matplotlib.pyplot as plt
    >>> ax = plt.figure().add_subplot()
    >>> round(title_room(ax), 1)  # 6 + 1.2 x 12 points
    20.4
    >>> _ = ax.set_title("two\\nlines", loc="left")
    >>> round(title_room(ax), 1)  # 6 + 2 x 1.2 x 12 points
    34.8
    >>> plt.close("all")
    """
    import matplotlib as mpl
    from matplotlib.font_manager import FontProperties

    line = 1.2 * FontProperties(size=mpl.rcParams["axes.titlesize"]).get_size_in_points()
    lines = max(len(ax.get_title(loc).splitlines()) for loc in ("center", "left", "right"))
    return float(mpl.rcParams["axes.titlepad"]) + max(1, lines) * line


def legend_right(ax: Axes, handles: list[Any], *, x: float = 1.0, inches: float = 0.1,
                 ncols: int = 1, handler_map: dict[Any, Any] | None = None,
                 y: float = 1.0, title: str | None = None) -> None:
    """A legend right of the plot area (``x`` in axes fraction plus ``inches``; its top at ``y``,
    in axes fraction), so it covers no data and leaves the title free (``handler_map``:
    matplotlib's, for handles of its own; ``title`` over its entries, left-aligned); in fewer
    columns when ``ncols`` of them would run past the figure's right edge; room made beside it
    (:func:`room_for`)."""
    anchor = ax.transAxes + ScaledTranslation(inches, 0, ax.figure.dpi_scale_trans)
    _fitted_legend(ax, ncols, lambda box: box.x1 <= ax.figure.bbox.x1, handles=handles,
                   loc="upper left", bbox_to_anchor=(x, y), bbox_transform=anchor,
                   columnspacing=1.0, handlelength=1.6, handler_map=handler_map, title=title,
                   title_fontsize="small", alignment="left")


def fit_y_label(ax: Axes, words: str, widths: Sequence[int]) -> None:
    """``ax``'s y label, wrapped at the widest of ``widths`` characters whose lines are no
    taller than the plot area (as placed now; the narrowest when none is): a label taller than
    its panel ran into the label of the panel below (a 7 x 4 inch figure), or past the figure's
    edge, cut there."""
    renderer = getattr(ax.figure.canvas, "get_renderer", None)
    for width in widths:
        ax.set_ylabel(textwrap.fill(words, width))
        if renderer is None or (ax.yaxis.label.get_window_extent(renderer()).height
                                <= ax.get_window_extent(renderer()).height):
            return


def room_for_y_labels(ax: Axes) -> None:
    """Make room (:func:`room_for`) left of ``ax`` for its y tick labels and, beyond them, its y
    label, where matplotlib will draw it (its place is only set at draw time, so it is reckoned
    here: ``labelpad`` points left of the widest tick label), so that long row names are kept
    whole on a plain ``plt.subplots()`` figure."""
    renderer = getattr(ax.figure.canvas, "get_renderer", None)
    labels = [t for t in ax.get_yticklabels() if t.get_visible() and t.get_text()]
    if renderer is None or not labels:
        return
    box = Bbox.union([t.get_window_extent(renderer()) for t in labels])
    if ax.get_ylabel():
        width = ax.yaxis.label.get_window_extent(renderer()).width
        x0 = box.x0 - ax.yaxis.labelpad * ax.figure.dpi / 72 - width
        box = Bbox.from_extents(x0, box.y0, box.x1, box.y1)
    room_for(ax, [box])


def x_label_clear(ax: Axes) -> None:
    """Move ``ax``'s x label under the offset text of its date ticks (the year and month that
    :class:`~matplotlib.dates.ConciseDateFormatter` writes at the axis' right end) where the two
    would overlap, as placed now: on a narrow axis (a legend's room taken beside it) the centred
    "time (UTC)" ran into "2026-Oct". Room is made below on a plain figure (:func:`room_for`).
    Call it once the axes' width is settled (legends placed)."""
    renderer = getattr(ax.figure.canvas, "get_renderer", None)
    label, offset = ax.xaxis.label, ax.xaxis.get_offset_text()
    if renderer is None or not label.get_text():
        return
    ax.xaxis.get_tightbbox(renderer())  # sets the offset text and places both
    if not offset.get_text() or not label.get_window_extent(renderer()).overlaps(
            offset.get_window_extent(renderer())):
        return
    ax.xaxis.labelpad += offset.get_window_extent(renderer()).height * 72 / ax.figure.dpi
    room_for(ax, [ax.xaxis.get_tightbbox(renderer())])


def room_below(ax: Axes, artists: Sequence[Any] = ()) -> None:
    """Make room (:func:`room_for`) below ``ax`` for its x axis, tick labels and x label (a long
    label wrapped, ``ax.xaxis.label.set_wrap(True)``), and for ``artists`` placed from them (a
    note under the x label), where the draw will put them."""
    renderer = getattr(ax.figure.canvas, "get_renderer", None)
    if renderer is None or ax.figure.get_layout_engine() is not None:
        return  # nothing to measure with, or an engine makes the room
    box = ax.xaxis.get_tightbbox(renderer())  # places the ticks and the label, as drawn
    boxes = [a.get_window_extent(renderer()) for a in artists]
    room_for(ax, [b for b in [box, *boxes] if b is not None])


def room_for(ax: Axes, artists: Sequence[Any]) -> None:
    """Make room in ``ax``'s figure for ``artists`` drawn outside the plot area (legends above or
    beside it; a ``Bbox`` in display units stands for what is drawn there) when the figure has no
    layout engine (a plain ``plt.subplots()``), so that a plain ``savefig`` keeps them whole: on
    each side where they run past the figure's edge (less :data:`EDGE_MARGIN`), the subplots'
    margin grows by as much (``subplots_adjust``), and axes placed by hand (``ax`` and those
    sharing its x axis, as one block) shrink by as much; at the top, the figure's edge is the
    foot of the figure's title when one is set (``fig.suptitle(...)`` before drawing). The
    plot area keeps a fifth of its width and height at least (an artist as large as the figure is
    cut). A layout engine (``layout="constrained"``) makes the room itself; a grid with margins of
    its own (``fig.add_gridspec(left=...)``) keeps them."""
    fig = ax.figure
    renderer = getattr(fig.canvas, "get_renderer", None)
    if renderer is None or fig.get_layout_engine() is not None or not artists:
        return
    box = Bbox.union([a if isinstance(a, Bbox) else a.get_window_extent(renderer())
                      for a in artists])
    f = fig.bbox
    left, bottom = (f.x0 - box.x0) / f.width, (f.y0 - box.y0) / f.height
    right, top = (box.x1 - f.x1) / f.width, (box.y1 - f.y1) / f.height
    suptitle = getattr(fig, "_suptitle", None)  # fig.suptitle(...), set before: kept clear
    if suptitle is not None and suptitle.get_visible() and suptitle.get_text():
        top = (box.y1 - suptitle.get_window_extent(renderer()).y0) / f.height
    over = [max(0.0, v + EDGE_MARGIN) for v in (left, bottom, right, top)]
    if not any(over):
        return
    if ax.get_subplotspec() is not None:
        p = fig.subplotpars
        x0, x1 = _squeeze(p.left, p.right, over[0], over[2])
        y0, y1 = _squeeze(p.bottom, p.top, over[1], over[3])
        fig.subplots_adjust(left=x0, right=x1, bottom=y0, top=y1)
        return
    block = [a for a in ax.get_shared_x_axes().get_siblings(ax) if a.get_subplotspec() is None]
    was = Bbox.union([a.get_position(original=True) for a in block])
    x0, x1 = _squeeze(was.x0, was.x1, over[0], over[2])
    y0, y1 = _squeeze(was.y0, was.y1, over[1], over[3])
    sx, sy = (x1 - x0) / was.width, (y1 - y0) / was.height
    for a in block:
        b = a.get_position(original=True)
        a.set_position((x0 + (b.x0 - was.x0) * sx, y0 + (b.y0 - was.y0) * sy, b.width * sx,
                        b.height * sy))


def _squeeze(lo: float, hi: float, cut_lo: float, cut_hi: float) -> tuple[float, float]:
    """``[lo, hi]`` moved in by ``cut_lo`` and ``cut_hi``, less (in proportion) where it would
    keep under a fifth of its length.

    >>> _squeeze(0.1, 0.9, 0.0, 0.2)
    (0.1, 0.7)
    >>> _squeeze(0.0, 1.0, 0.6, 0.6)  # 1.2 asked, 0.8 given: a fifth kept
    (0.4, 0.6)
    """
    asked = cut_lo + cut_hi
    scale = min(1.0, 0.8 * (hi - lo) / asked) if asked > 0 else 1.0
    return lo + cut_lo * scale, hi - cut_hi * scale
