"""The status bands behind the timeline's bottom panel: the seed tracker's status per event
(:func:`draw_status`) or the window's clock (:func:`draw_spans`, no traffic ruled grey), one
bar per run of a status, or per run of pixel columns when there are more runs than columns; each
warning, critical or exhausted stretch also marked by a solid strip in its colour above the lines.
"""

from __future__ import annotations

from typing import Any

import matplotlib.dates as mdates
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.colors import to_rgba
from matplotlib.legend_handler import HandlerPatch
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle

from .._util.validation import utc_ns_column
from ..budget.figures import STATUSES
from ..budget.spans import SPAN_STATUS_DTYPE, SPAN_STATUSES
from ._common import STATUS_COLORS, STATUS_HATCHES
from ._pixels import span_bands, status_runs

__all__ = ["BAND_ALPHA", "LEGEND_HANDLERS", "NO_TRAFFIC", "RuledHandler", "RuledPatch", "STRIP",
           "STRIP_STATUSES", "StripHandler", "StripPatch", "band_patch", "draw_spans",
           "draw_status"]

#: Fill and hatch opacity of the status bands (black, for exhausted, is toned down to grey): on
#: white, the tints of healthy, warning and critical grow darker in that order (CIELAB L* 91, 86,
#: 78), so the order reads in any colour vision.
BAND_ALPHA = {"healthy": (0.2, 0.0), "warning": (0.45, 0.6), "critical": (0.45, 0.5),
              "exhausted": (0.16, 0.3), "no_traffic": (0.0, 0.5)}
#: The no-traffic band of the window's clock (``spans=``): no fill, sparse grey horizontal rules.
#: Every status is filled, and hatched with dots or diagonals if at all: a silence cannot be read
#: as one, in colour or in greyscale, and its rules stay lighter than the dashed thresholds.
NO_TRAFFIC = ("#7F7F7F", "-")
#: The status strip (axes height fractions): a solid bar in the status's colour over each
#: warning, critical or exhausted stretch, above the lines (a stretch of a pixel column would hide
#: behind the budget line's vertical step), outlined so that it is two pixels wide at least (a
#: third of the box in the legend). Healthy has none: the strip shows what went wrong.
STRIP = (0.92, 1.0)
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
        box = Rectangle((x0, y0), width, height, facecolor="none", edgecolor=color, lw=0.8,
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


#: The handlers a legend holding band entries needs.
LEGEND_HANDLERS = {RuledPatch: RuledHandler(), StripPatch: StripHandler()}


def band_patch(name: str, label: str) -> Patch:
    """The legend entry of a status band or of no traffic, in the band's colours (with the
    strip of :data:`STRIP_STATUSES`)."""
    if name in STRIP_STATUSES:
        return StripPatch(strip=STATUS_COLORS[name], **_look(name), lw=0, label=label)
    kind = RuledPatch if name == "no_traffic" else Patch
    return kind(**_look(name), lw=0, label=label)


def _bars(bottom: Axes, names: np.ndarray, start_ns: np.ndarray, end_ns: np.ndarray) -> None:
    """One bar collection per status (gid ``status_<name>``) over the full height of ``bottom``,
    behind the lines; over them, the :data:`STRIP` of each of :data:`STRIP_STATUSES` drawn (gid
    ``<name>_strip``, the worse ones on top)."""
    x0 = mdates.date2num(start_ns.view("datetime64[ns]"))  # type: ignore[no-untyped-call]
    width = mdates.date2num(end_ns.view("datetime64[ns]")) - x0  # type: ignore[no-untyped-call]
    for name in (*STATUSES, "no_traffic"):
        run = names == name
        if not run.any():
            continue
        look, bars = _look(name), list(zip(x0[run], width[run], strict=True))
        bottom.broken_barh(bars, (0, 1), transform=bottom.get_xaxis_transform(),
                           facecolors=look["facecolor"], edgecolors=look["edgecolor"], lw=0,
                           hatch=look["hatch"], gid=f"status_{name}", zorder=0.5)
        if name in STRIP_STATUSES:
            color = STATUS_COLORS[name]
            bottom.broken_barh(bars, (STRIP[0], STRIP[1] - STRIP[0]),
                               transform=bottom.get_xaxis_transform(), facecolors=color,
                               edgecolors=color, lw=1.5, gid=f"{name}_strip", zorder=2.5)


def draw_status(bottom: Axes, status: pd.Series, order: np.ndarray | None, t: np.ndarray,
                starts: np.ndarray, breaks: np.ndarray) -> None:
    """The per-event statuses of a replay (rows in ``order``) as bands, runs cut at the line
    breaks."""
    if not isinstance(status.dtype,
                      pd.CategoricalDtype) or list(status.cat.categories) != list(STATUSES):
        status = pd.Series(pd.Categorical(status.astype(str), categories=list(STATUSES),
                                          ordered=True))
    code = np.asarray(status.cat.codes)
    code = code if order is None else code[order]
    codes, s_ns, e_ns = status_runs(t, code, starts, breaks)
    # -1: none
    names = np.where(codes >= 0, np.asarray(STATUSES, dtype=object)[np.maximum(codes, 0)], "")
    _bars(bottom, names, s_ns, e_ns)


def draw_spans(bottom: Axes, spans: pd.DataFrame, t: np.ndarray, columns: int) -> None:
    """The status bands of the window's clock: one bar per run of one status of the spans or
    steps (or per run of pixel columns: see :func:`~budgetlab.plotting._pixels.span_bands`), no
    traffic ruled grey; a status held for one instant only (``instant``) left out, so that the
    status before it goes on through it (as :func:`~budgetlab.budget.blips.blips_folded` reads
    it, and as the lines hold the value before it: a group's first span is never one)."""
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
    if len(names) > columns:
        names, start, end = span_bands(names, start, end, int(min([start[0], *t[:1]])),
                                       int(max([end[-1], *t[-1:]])), columns)  # t may be empty
    _bars(bottom, names, start, end)
