"""What sits behind and below :func:`~budgetlab.plotting.plot_alerts`' episode bars: each tier
row's span while its long window fills (what scoring counts apart by default), and the incidents
(their own row, shaded across all rows)."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

import matplotlib.dates as mdates
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.patches import Rectangle

from .._util.validation import check_argument, require_columns
from ._common import overlap_lanes, utc_naive

__all__ = ["FILLING_ALPHA", "FILLING_COLOR", "FILLING_LABELS", "filling_key", "filling_span",
           "incident_row"]

#: Okabe–Ito sky blue, drawn light (:data:`FILLING_ALPHA`) behind a tier row while its long window
#: fills: apart from the incidents' grey and from the severities' orange and vermillion.
FILLING_COLOR = "#56B4E9"
FILLING_ALPHA = 0.25
#: The legend entry of those spans, by the rule the episodes were scored with
#: (:func:`budgetlab.score_alerts`' ``filling``): ``"apart"`` (its default) leaves what begins
#: there out of the scores, ``"count"`` scores it as any other episode or incident.
FILLING_LABELS = {"apart": "long window filling: scored apart",
                  "count": "long window filling: scored with the rest"}


def filling_key(filling: str) -> str:
    """The legend entry of the filling spans of episodes scored with ``filling``
    (:data:`FILLING_LABELS`); another rule is a :class:`~budgetlab.errors.ConfigError`.

    >>> filling_key("count")
    'long window filling: scored with the rest'
    """
    return FILLING_LABELS[check_argument("filling", filling, FILLING_LABELS)]


def filling_span(ax: Axes, attrs: Mapping[Hashable, Any], tier: str, y: int) -> bool:
    """Shade row ``y`` from the grid's start to the start plus ``tier``'s long window (clipped to
    the grid's end): the episodes and incidents that begin there are scored apart by
    :func:`budgetlab.score_alerts` with ``filling="apart"`` (its default), with the rest with
    ``filling="count"``. ``attrs`` are the episodes' (from
    :func:`budgetlab.alert_episodes`); without ``grid_start``, ``grid_end`` or the tier's entry in
    ``tier_windows`` nothing is drawn. A :class:`~matplotlib.patches.Rectangle` (gid ``filling``)
    0.9 rows high, behind the bars; returns whether one was drawn."""
    from ..alerts.score_inputs import tier_window  # the alerts package: loaded when drawn

    window = tier_window(attrs.get("tier_windows"), tier)
    lo, hi = attrs.get("grid_start"), attrs.get("grid_end")
    if window is None or lo is None or hi is None:
        return False
    start = pd.Timestamp(lo)
    stop = min(start + pd.Timedelta(window, unit="ns"), pd.Timestamp(hi))
    x0, x1 = mdates.date2num(utc_naive([start, stop]))  # type: ignore[no-untyped-call]
    if x1 <= x0:
        return False
    ax.add_patch(Rectangle((x0, y - 0.45), x1 - x0, 0.9, facecolor=FILLING_COLOR,
                           alpha=FILLING_ALPHA, lw=0, gid="filling", zorder=0.5))
    return True


def incident_row(ax: Axes, incidents: pd.DataFrame, y: int) -> None:
    """:func:`plot_alerts`' incidents: hatched bars on row ``y`` (named by ``incident_id`` when
    given; overlapping ones in lanes of the row, so each one's end is seen), shaded across all
    rows."""
    require_columns(incidents, ["start", "end"], what="incidents")
    i_s, i_e = utc_naive(incidents["start"]), utc_naive(incidents["end"])
    lane = overlap_lanes(i_s, i_e)
    h = 0.6 / (int(lane.max()) + 1 if len(lane) else 1)
    ys = y - 0.3 + (lane + 0.5) * h
    ax.barh(ys, i_e - i_s, left=i_s, height=h, color="none", edgecolor="grey", hatch="//",
            label="incidents")
    for s, e in zip(i_s, i_e, strict=True):
        ax.axvspan(s, e, color="grey", alpha=0.12, lw=0, gid="incident")
    if "incident_id" in incidents.columns:
        for s, at, iid in zip(i_s, ys, incidents["incident_id"].astype(str), strict=True):
            ax.annotate(iid, xy=(s, at), xytext=(2, 0), textcoords="offset points", va="center",
                        fontsize="x-small")
