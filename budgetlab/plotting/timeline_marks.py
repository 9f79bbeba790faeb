"""What sits over the timeline's panels: incidents shaded grey, status changes as dotted lines
(a rug of ticks above :data:`MAX_TRANSITION_LINES`), and one legend right of each panel.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from .._util.validation import require_columns
from ..budget.figures import STATUSES
from ._common import STATUS_COLORS, legend_right, utc_naive
from ._pixels import rug_ticks
from .status_bands import LEGEND_HANDLERS, band_patch

__all__ = ["MAX_TRANSITION_LINES", "draw_marks", "legends"]

#: Transitions are drawn as full-height lines up to this many, as a rug below the data above it.
MAX_TRANSITION_LINES = 60


def draw_marks(panels: list[Axes], incidents: pd.DataFrame | None, transitions: pd.DataFrame | None,
                columns: int) -> None:
    if incidents is not None and len(incidents):
        require_columns(incidents, ["start", "end"], what="incidents")
        spans = list(zip(utc_naive(incidents["start"]), utc_naive(incidents["end"]), strict=True))
        for p in panels:
            for s, e in spans:
                p.axvspan(s, e, facecolor=(0.5, 0.5, 0.5, 0.18), edgecolor="0.3", lw=0.8,
                          gid="incident", zorder=0.6)
    if transitions is not None and len(transitions):
        require_columns(transitions, ["ts", "to_status"], what="transitions")
        t_tr = utc_naive(transitions["ts"])
        colors = [STATUS_COLORS[str(s)] for s in transitions["to_status"].astype(str)]
        if len(t_tr) <= MAX_TRANSITION_LINES:
            for p in panels:
                p.vlines(t_tr, 0, 1, transform=p.get_xaxis_transform(), colors=colors, lw=0.9,
                         ls=":",
                         gid="transitions", zorder=0.7)
        else:  # a rug, one tick per pixel column at most (its worst new status)
            if len(t_tr) > columns:
                keep = rug_ticks(t_tr.view(np.int64),
                                 transitions["to_status"].astype(str).to_numpy(), columns)
                t_tr, colors = t_tr[keep], [colors[i] for i in keep]
            panels[-1].vlines(t_tr, 0, 0.06, transform=panels[-1].get_xaxis_transform(),
                              colors=colors, lw=0.8,
                              gid="transitions", zorder=0.7)


def legends(panels: list[Axes], bottom: Axes, hidden: list[str], transitions: pd.DataFrame | None,
             slo: Any, quiet: bool = False) -> None:
    """One legend right of each panel; the bottom one in two columns, so that it stays about as
    tall as its panel (statuses named with the budget thresholds that start them)."""
    starts = {"warning": f" (< {slo.warning:.0%})", "critical": f" (< {slo.critical:.0%})",
              "exhausted": " (≤ 0)"} if slo is not None else {}
    for p in panels:
        handles: list[Any] = list(p.get_legend_handles_labels()[0])
        if p is panels[1]:
            handles += [Line2D([], [], color="none", label=h) for h in hidden]
        if p is bottom:
            if any(a.get_gid() == "incident" for a in p.patches):
                handles.append(Patch(facecolor=(0.5, 0.5, 0.5, 0.18), edgecolor="0.3",
                                     label="incident"))
            if transitions is not None and len(transitions):
                few = len(transitions) <= MAX_TRANSITION_LINES
                word = "status change" if len(transitions) == 1 else "status changes"
                handles.append(Line2D([], [], color="0.3", ls=":" if few else "-", lw=0.9,
                                      label=f"{len(transitions)} "
                                            f"{word}" + ("" if few else " (rug)")))
            if quiet:  # before the statuses, named as what it is: not one of them
                handles.append(band_patch("no_traffic", "no traffic (window empty)"))
            handles += [band_patch(s, s + starts.get(s, "")) for s in STATUSES]
        legend_right(p, handles, ncols=2 if p is bottom and len(handles) > 5 else 1,
                     handler_map=LEGEND_HANDLERS)
