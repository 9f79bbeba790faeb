"""The status bands behind the timeline's bottom panel: the seed tracker's status per event
(:func:`draw_status`) or the window's clock (:func:`draw_spans`, no traffic ruled grey and outlined,
a silence shorter than a pixel column drawn one column wide), one
bar per run of a status, or per run of pixel columns when there are more runs than columns (the
status each column held longest); each warning, critical or exhausted stretch also marked by a
solid strip in its colour above the lines (per pixel column: the worst status it touched).
"""

from __future__ import annotations

from typing import Any

import matplotlib.dates as mdates
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.colors import to_hex, to_rgb, to_rgba
from matplotlib.legend_handler import HandlerLine2D, HandlerPatch
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle

from .._util.validation import utc_ns_column
from ..budget.blips import closing_instants
from ..budget.figures import STATUSES
from ..budget.spans import SPAN_STATUS_DTYPE, SPAN_STATUSES
from ._common import FILLING_COLOR, STATUS_COLORS, STATUS_HATCHES
from ._pixels import (
    column_runs,
    quiet_column_wide,
    span_bands,
    status_runs,
    strip_bands,
    worst_per_column,
)

__all__ = ["BAND_ALPHA", "LEGEND_HANDLERS", "NO_TRAFFIC", "RangeHandler", "RangeLine",
           "RuledHandler", "RuledPatch", "STRIP",
           "STRIP_STATUSES", "StripHandler", "StripPatch", "WARMUP", "WARMUP_COLOR",
           "WARMUP_LABEL", "RUG", "RUG_OVER_WARMUP", "FOOT_PAD", "band_patch", "rug_band",
           "draw_spans", "draw_status", "draw_warmup", "warmup_patch", "warmup_spans",
           "NO_TRAFFIC_LW", "WORDS_BOX"]

#: Fill and hatch opacity of the status bands (black, for exhausted, is toned down to grey): on
#: white, the tints of healthy, warning and critical grow darker in that order (CIELAB L* 91, 86,
#: 78), so the order reads in any colour vision.
BAND_ALPHA = {"healthy": (0.2, 0.0), "warning": (0.45, 0.6), "critical": (0.45, 0.5),
              "exhausted": (0.16, 0.3), "no_traffic": (0.0, 0.5)}
#: The no-traffic band of the window's clock (``spans=``): no fill, sparse grey horizontal rules.
#: Every status is filled, and hatched with dots or diagonals if at all: a silence cannot be read
#: as one, in colour or in greyscale, and its rules stay lighter than the dashed thresholds.
NO_TRAFFIC = ("#7F7F7F", "-")
#: The outline (points) of each no-traffic band, as of its legend box (:class:`RuledHandler`):
#: a silence of one pixel column, or less, is a grey line at least.
NO_TRAFFIC_LW = 0.8
#: The box under words drawn inside a panel ("no alert fired", "no failures in these bins", a
#: tier's "can never fire"): white, borderless, so that they read over the rules of a silence.
WORDS_BOX = {"facecolor": "white", "alpha": 0.8, "lw": 0, "pad": 1}
#: The status strip (axes height fractions): a solid bar in the status's colour over each
#: warning, critical or exhausted stretch, above the lines (a stretch of a pixel column would hide
#: behind the budget line's vertical step), outlined so that it is two pixels wide at least (a
#: third of the box in the legend). Healthy has none: the strip shows what went wrong.
STRIP = (0.92, 1.0)


def _on_white(color: str, alpha: float) -> str:
    """``color`` at opacity ``alpha`` over white, as one opaque colour.

    >>> _on_white("#000000", 0.25)
    '#bfbfbf'
    """
    r, g, b = to_rgb(color)
    return to_hex((1 - alpha + alpha * r, 1 - alpha + alpha * g, 1 - alpha + alpha * b))


#: The warm-up strip (axes height fractions) along the foot of the bottom panel, under the lines:
#: each span while a window fills (:func:`warmup_spans`), outlined so that a span of one pixel
#: column, or less, stays visible. Over the incidents' shading and the status changes' lines;
#: a rug of status changes is drawn in a band of its own above it (:func:`rug_band`).
WARMUP = (0.0, 0.05)
#: The rug of status changes (axes height fractions) at the bottom panel's foot: alone there, or
#: over the warm-up strip when one is drawn, the panel's y range then padded by
#: :data:`FOOT_PAD` below so that both lie under its lowest value.
RUG, RUG_OVER_WARMUP = (0.0, 0.06), (0.05, 0.1)
#: The bottom panel's y padding (a fraction of its range, each side) with both bands at its foot:
#: its lowest value at 0.12 / 1.24 = 0.097 of its height, over the rug.
FOOT_PAD = 0.12
#: The warm-up strip's fill and outline, opaque (the band under it does not show through): the
#: sky blue of the alert chart's long-window filling
#: (:data:`~budgetlab.plotting._common.FILLING_COLOR`: the same thing, a window filling) at
#: 60 % on white, outlined in that sky blue itself. Darker than the chart's light filling
#: (:data:`~budgetlab.plotting._common.FILLING_ALPHA`): a strip a few pixels high must stand
#: out from every status tint, the exhausted grey (as light as that filling) included.
WARMUP_COLOR = (_on_white(FILLING_COLOR, 0.6), FILLING_COLOR)
#: The warm-up strip's legend entry.
WARMUP_LABEL = "warm-up (window filling)"
#: The statuses marked by the strip, mildest first (where two outlines meet, the worse is on top).
STRIP_STATUSES = STATUSES[1:]


def _look(name: str) -> dict[str, Any]:
    """The fill, hatch colour and hatch of the band of a status or of ``no_traffic``."""
    color, hatch = NO_TRAFFIC if name == "no_traffic" else (STATUS_COLORS[name],
                                                            STATUS_HATCHES[name])
    return {"facecolor": to_rgba(color, BAND_ALPHA[name][0]),
            "edgecolor": to_rgba(color, BAND_ALPHA[name][1]), "hatch": hatch or None}


class RuledPatch(Patch):
    """The legend entry of no traffic (drawn by :class:`RuledHandler`)."""


class RuledHandler(HandlerPatch):
    """No traffic in a legend: an outlined empty box with one rule through its middle (a hatch is
    anchored to the canvas, so its sparse rules may miss a legend's small box)."""

    def create_artists(self, legend: Any, orig_handle: Any, xdescent: float, ydescent: float,
                       width: float, height: float, fontsize: float, trans: Any) -> list[Any]:
        color = orig_handle.get_edgecolor()
        x0, y0 = -xdescent, -ydescent
        box = Rectangle((x0, y0), width, height, facecolor="none", edgecolor=color,
                        lw=NO_TRAFFIC_LW,
                        transform=trans)
        rule = Line2D([x0, x0 + width], [y0 + height / 2] * 2, color=color, lw=1.0,
                      transform=trans)
        return [box, rule]


class StripPatch(Patch):
    """The legend entry of a status the strip marks (drawn by :class:`StripHandler`): its band,
    and ``strip``, the strip's colour."""

    def __init__(self, *, strip: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.strip = strip


class StripHandler(HandlerPatch):
    """A warning, critical or exhausted band in a legend, with the solid strip along the top
    that marks each such stretch above the lines (:data:`STRIP`), in the status's colour."""

    def create_artists(self, legend: Any, orig_handle: Any, xdescent: float, ydescent: float,
                       width: float, height: float, fontsize: float, trans: Any) -> list[Any]:
        band = super().create_artists(legend, orig_handle, xdescent, ydescent, width, height,
                                      fontsize, trans)
        strip = Rectangle((-xdescent, -ydescent + height * 2 / 3), width, height / 3,
                          facecolor=orig_handle.strip, lw=0, transform=trans)
        return [*band, strip]


class RangeLine(Line2D):
    """The legend entry of a line drawn over a light band of its range (drawn by
    :class:`RangeHandler`): the line's look, and ``band``, the band's colour."""

    def __init__(self, *, band: Any, **kwargs: Any) -> None:
        super().__init__([], [], **kwargs)
        self.band = band


class RangeHandler(HandlerLine2D):
    """A line over the band of its range, in a legend: the band (the key's height) behind the
    line's own key."""

    def create_artists(self, legend: Any, orig_handle: Any, xdescent: float, ydescent: float,
                       width: float, height: float, fontsize: float, trans: Any) -> list[Any]:
        band = Rectangle((-xdescent, -ydescent), width, height, facecolor=orig_handle.band, lw=0,
                         transform=trans)
        line = super().create_artists(legend, orig_handle, xdescent, ydescent, width, height,
                                      fontsize, trans)
        return [band, *line]


#: The handlers a legend holding band entries needs.
LEGEND_HANDLERS = {RuledPatch: RuledHandler(), StripPatch: StripHandler(),
                   RangeLine: RangeHandler()}


def band_patch(name: str, label: str) -> Patch:
    """The legend entry of a status band or of no traffic, in the band's colours (with the
    strip of :data:`STRIP_STATUSES`)."""
    if name in STRIP_STATUSES:
        return StripPatch(strip=STATUS_COLORS[name], **_look(name), lw=0, label=label)
    kind = RuledPatch if name == "no_traffic" else Patch
    return kind(**_look(name), lw=0, label=label)


def _bars(bottom: Axes, names: np.ndarray, start_ns: np.ndarray, end_ns: np.ndarray,
          strip: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None) -> set[str]:
    """One bar collection per status (gid ``status_<name>``) over the full height of ``bottom``,
    behind the lines; over them, the :data:`STRIP` of each of :data:`STRIP_STATUSES` drawn (gid
    ``<name>_strip``, the worse ones on top): of the bands, or of ``strip`` (names, starts and
    ends: the worst status of each pixel column, where the bands are the status held longest).
    The statuses drawn (and ``no_traffic``), as a band or only in the strip (a status no column
    held longest, marked where it was the worst): what the legend names."""
    for name in (*STATUSES, "no_traffic"):
        run = names == name
        if not run.any():
            continue
        look = _look(name)
        # no traffic outlined, as its legend box: a silence one pixel column wide stays visible
        _barh(bottom, start_ns[run], end_ns[run], (0, 1), facecolors=look["facecolor"],
              edgecolors=look["edgecolor"], lw=NO_TRAFFIC_LW if name == "no_traffic" else 0,
              hatch=look["hatch"], gid=f"status_{name}", zorder=0.5)
    marks = (names, start_ns, end_ns) if strip is None else strip
    for name in STRIP_STATUSES:
        run = marks[0] == name
        if run.any():
            color = STATUS_COLORS[name]
            _barh(bottom, marks[1][run], marks[2][run], STRIP, facecolors=color,
                  edgecolors=color, lw=1.5, gid=f"{name}_strip", zorder=2.5)
    return {str(n) for n in pd.unique(np.r_[names, marks[0]]) if n}


def _barh(ax: Axes, start_ns: np.ndarray, end_ns: np.ndarray, height: tuple[float, float],
          **style: Any) -> None:
    """``ax.broken_barh`` of the spans ``[start_ns, end_ns)`` from ``height[0]`` to ``height[1]``
    of the axes' height."""
    x0 = mdates.date2num(start_ns.view("datetime64[ns]"))  # type: ignore[no-untyped-call]
    width = mdates.date2num(end_ns.view("datetime64[ns]")) - x0  # type: ignore[no-untyped-call]
    ax.broken_barh(list(zip(x0, width, strict=True)), (height[0], height[1] - height[0]),
                   transform=ax.get_xaxis_transform(), **style)


def draw_status(bottom: Axes, status: pd.Series, order: np.ndarray | None, t: np.ndarray,
                starts: np.ndarray, breaks: np.ndarray) -> set[str]:
    """The per-event statuses of a replay (rows in ``order``) as bands, runs cut at the line
    breaks; the statuses drawn."""
    if not isinstance(status.dtype,
                      pd.CategoricalDtype) or list(status.cat.categories) != list(STATUSES):
        status = pd.Series(pd.Categorical(status.astype(str), categories=list(STATUSES),
                                          ordered=True))
    code = np.asarray(status.cat.codes)
    code = code if order is None else code[order]
    codes, s_ns, e_ns = status_runs(t, code, starts, breaks)
    # -1: none
    names = np.where(codes >= 0, np.asarray(STATUSES, dtype=object)[np.maximum(codes, 0)], "")
    return _bars(bottom, names, s_ns, e_ns)


def draw_spans(bottom: Axes, spans: pd.DataFrame, t: np.ndarray, columns: int) -> set[str]:
    """The status bands of the window's clock: one bar per run of one status of the spans or
    steps (or per run of pixel columns: the status held longest in each, see
    :func:`~budgetlab.plotting._pixels.span_bands`, and the strip the worst of each,
    :func:`~budgetlab.plotting._pixels.strip_bands`; always, over the columns of the time
    ``spans.attrs["shown"]`` (``(start, end)``: what the panel will show, set by a figure that
    widens the time axis, the incident figure's window), so that seconds of a status keep their
    column there), no traffic ruled grey; a status held for one instant only (``instant``) left
    out, so that the status before it goes on through it (as
    :func:`~budgetlab.budget.blips.blips_folded` reads it, and as the lines hold the value before
    it: a group's first span is never one). The statuses drawn."""
    status = spans["status"]
    if status.dtype != SPAN_STATUS_DTYPE:  # hand-made spans: status names as text
        status = pd.Series(pd.Categorical(status.astype(str), dtype=SPAN_STATUS_DTYPE))
    # codes, not names, per row: the steps hold up to two rows per event
    code = status.cat.codes.to_numpy()
    start, end = (utc_ns_column(spans[c], f"spans['{c}']") for c in ("start", "end"))
    if "instant" in spans:
        blip = spans["instant"].to_numpy(dtype=bool)
        if bool(blip.any()):
            code, start = code[~blip], start[~blip]
    run = np.r_[True, code[1:] != code[:-1]]  # steps of one status (steps=True): one band
    # each band lasts until the next one starts (the spans tile the observation)
    code, start, end = code[run], start[run], np.r_[start[run][1:], end[-1:]]
    names = np.asarray(SPAN_STATUSES)[code]
    lo, hi = int(min([start[0], *t[:1]])), int(max([end[-1], *t[-1:]]))  # t may be empty
    strip = None
    shown = spans.attrs.get("shown")
    if shown is not None:  # the time the panel will show: the strip reduced to its columns
        first, last = (pd.Timestamp(x).value for x in shown)
        strip = strip_bands(names, start, end, first, last, columns)
    if len(names) > columns:  # the status held longest per column; the strip: the worst
        strip = strip_bands(names, start, end, lo, hi, columns) if strip is None else strip
        names, start, end = span_bands(names, start, end, lo, hi, columns)
    else:  # a silence shorter than a pixel column: one column wide, as span_bands keeps it
        start, end = quiet_column_wide(names, start, end, lo, hi, columns)
    return _bars(bottom, names, start, end, strip)


def warmup_spans(spans: pd.DataFrame | None) -> tuple[np.ndarray, np.ndarray]:
    """``(start_ns, end_ns)`` of the warm-up in the window's steps or spans: of each span with
    traffic (status not ``no_traffic``), the part before its ``warmup_end`` (the end of the first
    window of its traffic stretch: from the group's first event, or refilling after a silence
    longer than the window), touching parts joined. The rule of
    :func:`budgetlab.replay_summary`'s ``warmup_hours``: the spans' lengths add up to it. No
    spans, or spans without ``warmup_end`` (made by hand), have none.

    >>> sp = pd.DataFrame({"start": pd.to_datetime([0, 30, 90, 180], unit="m", utc=True),
    ...                    "end": pd.to_datetime([30, 90, 180, 190], unit="m", utc=True),
    ...                    "status": ["healthy", "exhausted", "no_traffic", "healthy"],
    ...                    "warmup_end": pd.to_datetime([60, 60, 90, 240], unit="m", utc=True)})
    >>> [(v // 60_000_000_000).tolist() for v in warmup_spans(sp)]
    [[0, 180], [60, 190]]
    """
    if spans is None or "warmup_end" not in spans or not len(spans):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    start, end, stretch = (utc_ns_column(spans[c], f"spans['{c}']")
                           for c in ("start", "end", "warmup_end"))
    traffic = (spans["status"] != "no_traffic").to_numpy(dtype=bool)  # on the codes
    stop = np.minimum(stretch, end)
    # a stretch full at its warm-up's last instant only: that nanosecond is warm-up too (a new
    # group's spans do not go on from the last one's)
    gid = np.cumsum(np.r_[True, start[1:] != end[:-1]])
    stop = np.where(closing_instants(start, end, stretch, traffic, gid), end, stop)
    keep = traffic & (stop > start)
    start, stop = start[keep], stop[keep]
    if not len(start):  # a window past its warm-up, or no traffic, all through
        return start, stop
    new = np.r_[True, start[1:] != stop[:-1]]  # a part that does not go on from the one before
    last = np.r_[np.flatnonzero(new)[1:] - 1, len(start) - 1]
    return start[new], stop[last]


def warmup_patch() -> Patch:
    """The legend entry of the warm-up strip (gid ``warmup``)."""
    patch = Patch(facecolor=WARMUP_COLOR[0], edgecolor=WARMUP_COLOR[1], lw=0.8,
                  label=WARMUP_LABEL)
    patch.set_gid("warmup")
    return patch


def draw_warmup(bottom: Axes, warm: tuple[np.ndarray, np.ndarray], lo: int, hi: int,
                columns: int) -> None:
    """The warm-up spans ``warm`` (:func:`warmup_spans`) as the :data:`WARMUP` strip of
    ``bottom`` (gid ``warmup``); more spans than ``columns``: the runs of the columns of
    ``[lo, hi]`` that hold any warm-up (one reduction over the spans, as the no-traffic overlay)."""
    start, end = warm
    if not len(start):
        return
    if len(start) > columns:
        held = worst_per_column(start, end, np.zeros(len(start), dtype=np.int64), lo, hi, columns)
        _, start, end = column_runs(held, lo, hi)
    _barh(bottom, start, end, WARMUP, facecolors=WARMUP_COLOR[0], edgecolors=WARMUP_COLOR[1],
          lw=0.8, gid="warmup", zorder=0.8)


def rug_band(warmup: bool, rug: bool) -> tuple[tuple[float, float], dict[str, float]]:
    """The band of the rug of status changes at the bottom panel's foot (:data:`RUG`, or
    :data:`RUG_OVER_WARMUP` when a ``warmup`` strip and a ``rug`` are both drawn) and the
    padding its y range then takes (``{"pad": FOOT_PAD}``; else none)."""
    both = warmup and rug
    return (RUG_OVER_WARMUP, {"pad": FOOT_PAD}) if both else (RUG, {})
