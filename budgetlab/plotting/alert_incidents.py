"""The incidents of :func:`~budgetlab.plotting.plot_alerts`: hatched bars on a row of their
own, named beside them (the names laid out in lanes of the row when drawn, so that none runs into
another: :class:`NameLanes`), each shaded across the chart's rows of its scope
(:func:`incident_row`)."""

from __future__ import annotations

import textwrap
from typing import Any

import matplotlib.dates as mdates
import numpy as np
import pandas as pd
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.patches import Rectangle
from matplotlib.text import Annotation

from .._util.validation import require_columns
from ._common import overlap_lanes, utc_naive
from .alert_blind import UNSEEN_STYLE

__all__ = ["incident_row", "NameLanes", "NAME_GAP", "INCIDENT_SHADE"]

#: The least room (pixels) between two incident names in one lane of the row.
NAME_GAP = 3.0

#: How an incident is shaded across the rows of its scope: hatched as its bar and its legend
#: key, no fill, so that it is never read as a tier's silence (filled light grey: "no event in
#: the tier's long window: cannot fire", :data:`~.alert_blind.SILENCE_STYLE`) and the bars and
#: bands under it show through; under the episode bars.
INCIDENT_SHADE: dict[str, Any] = {"facecolor": "none", "edgecolor": "grey", "hatch": "//",
                                  "lw": 0, "zorder": 0.9}


def incident_row(ax: Axes, incidents: pd.DataFrame, y: int,
                 groups: pd.DataFrame | None = None, unseen: np.ndarray | None = None) -> str:
    """:func:`plot_alerts`' incidents: hatched bars on row ``y`` (overlapping ones in lanes of
    the row, so each one's end is seen), named by ``incident_id`` when given, beside the bar's
    end (before its start when the end is in the axis' last tenth), never over it, and never
    over another name (:class:`NameLanes`); each shaded (hatched, :data:`INCIDENT_SHADE`, gid
    ``incident``) across the rows
    of its ``scope`` and its own: ``groups`` are the key values of the chart's groups (as text),
    each with ``y // len(groups)`` rows in turn; ``None`` (no group keys), no scope or ``*``:
    all rows. A scope that matches no group is shaded on row ``y`` only; returned is the
    legend's line that says so, by id (``no row for the scope of`` then ``I2: method=GET``; ""
    when every scope has a row). Without ids, the name itself says it (``(method=GET: no
    row)``). The incidents ``unseen`` marks (unseen by every tier: nothing to detect) are drawn
    hollow and dashed (:data:`~budgetlab.plotting.alert_blind.UNSEEN_STYLE`, bars of gid
    ``incident_unseen``, their shading lighter, gid ``incident_unseen_shade``)."""
    require_columns(incidents, ["start", "end"], what="incidents")
    unseen = np.zeros(len(incidents), dtype=bool) if unseen is None else unseen
    i_s, i_e = utc_naive(incidents["start"]), utc_naive(incidents["end"])
    lane = overlap_lanes(i_s, i_e)
    h = 0.6 / (int(lane.max()) + 1 if len(lane) else 1)
    ys = y - 0.3 + (lane + 0.5) * h
    bars = ax.barh(ys, i_e - i_s, left=i_s, height=h, color="none", edgecolor="grey",
                   hatch="//", label="incidents")
    for bar in np.asarray(bars.patches, dtype=object)[unseen]:
        bar.set(**UNSEEN_STYLE, gid="incident_unseen")
    scopes = (incidents["scope"] if "scope" in incidents.columns
              else pd.Series("*", index=incidents.index)).fillna("*").astype(str)
    ids = (incidents["incident_id"].astype(str) if "incident_id" in incidents.columns
           else pd.Series("", index=incidents.index))
    x0, x1 = ax.get_xlim()
    begin = mdates.date2num(i_s)  # type: ignore[no-untyped-call]
    stop = mdates.date2num(i_e)  # type: ignore[no-untyped-call]
    names: list[Annotation] = []
    rowless: dict[str, list[str]] = {}
    for s, e, at, iid, scope, hollow in zip(begin, stop, ys, ids, scopes, unseen, strict=True):
        runs = _scope_rows(groups, scope, y)
        for first, last in runs:  # from row to row, the first and last to the axis' edge
            lo, hi = first - (0.7 if first == 0 else 0.5), last + (0.7 if last == y else 0.5)
            ax.add_patch(Rectangle((s, lo), e - s, hi - lo, **INCIDENT_SHADE,
                                   alpha=0.2 if hollow else 0.4,
                                   gid="incident_unseen_shade" if hollow else "incident"))
        name = iid
        if runs == [(y, y)]:  # no row of its scope: said in the legend by id, else in the name
            if iid:
                rowless.setdefault(scope, []).append(iid)
            name = name or f"({scope}: no row)"
        if name:
            left = e > x0 + 0.9 * (x1 - x0)
            names.append(ax.annotate(name, xy=(s if left else e, at),
                                     xytext=(-2 if left else 2, 0), textcoords="offset points",
                                     va="center", ha="right" if left else "left",
                                     fontsize="x-small", gid="incident_name"))
    if names:
        ax.add_artist(NameLanes(names, y))
    return rowless_line(rowless)


def rowless_line(rowless: dict[str, list[str]], width: int = 34) -> str:
    """The legend's line naming the incidents whose scope has no row (``scope: ids``), each
    wrapped at ``width`` characters; "" without any.

    >>> print(rowless_line({"captcha_type=turnstile": ["I03", "I05"]}))
    no row for the scope of
    I03, I05: captcha_type=turnstile
    """
    if not rowless:
        return ""
    lines = [textwrap.fill(f"{', '.join(ids)}: {scope}", width, break_on_hyphens=False)
             for scope, ids in rowless.items()]
    return "\n".join(["no row for the scope of", *lines])


class NameLanes(Artist):
    """The incident names of row ``row``, laid out when drawn, once the axes' size is settled
    (a layout engine or a legend's room changes it after plotting): in order of their anchor's
    x, each in the lane of the row nearest its bar whose names leave :data:`NAME_GAP` pixels
    free each side of it; the row (``row - 0.5`` to ``row + 0.5``) holds as many lanes as
    names' heights fit. A name no lane has room for is not drawn (``set_visible(False)``; its
    bar still is): names never overlap. Drawn before the names (a lower zorder), nothing
    itself."""

    def __init__(self, names: list[Annotation], row: int) -> None:
        super().__init__()
        self.names, self.row = names, row
        self.homes = [float(n.xy[1]) for n in names]
        self.set_zorder(min(n.get_zorder() for n in names) - 0.01)
        self.set_in_layout(False)

    def draw(self, renderer: Any) -> None:
        ax = self.axes
        if ax is None or not self.get_visible():
            return
        for n, home in zip(self.names, self.homes, strict=True):
            n.xy = (n.xy[0], home)
            n.set_visible(True)
        tall = max(n.get_window_extent(renderer).height for n in self.names)
        span = abs(float(np.diff(ax.transData.transform([(0, self.row - 0.5),
                                                         (0, self.row + 0.5)])[:, 1])[0]))
        lanes = max(1, int(span // max(tall, 1.0)))
        centres = self.row - 0.5 + (np.arange(lanes) + 0.5) / lanes
        taken: list[list[tuple[float, float]]] = [[] for _ in range(lanes)]
        for i in np.argsort([n.xy[0] for n in self.names], kind="stable"):
            n = self.names[i]
            for k in np.argsort(np.abs(centres - self.homes[i]), kind="stable"):
                n.xy = (n.xy[0], float(centres[k]))
                box = n.get_window_extent(renderer)
                if all(box.x0 >= b + NAME_GAP or box.x1 <= a - NAME_GAP for a, b in taken[k]):
                    taken[k].append((box.x0, box.x1))
                    break
            else:
                n.set_visible(False)


def _scope_rows(groups: pd.DataFrame | None, scope: str, y: int) -> list[tuple[int, int]]:
    """The rows (first, last; runs of adjacent ones) :func:`incident_row` shades for an incident
    of ``scope``: those of the ``groups`` it covers (each ``y // len(groups)`` rows in turn) and
    the incident row ``y``; all without groups or a scope.

    >>> g = pd.DataFrame({"method": ["HEAD", "GET", "POST"]})  # two tiers each: rows 0 .. 5
    >>> _scope_rows(g, "method=GET", 6), _scope_rows(g, "method=POST", 6)
    ([(2, 3), (6, 6)], [(4, 6)])
    >>> _scope_rows(g, "*", 6), _scope_rows(g, "method=PUT", 6), _scope_rows(None, "method=GET", 6)
    ([(0, 6)], [(6, 6)], [(0, 6)])
    """
    from ..events.schema import parse_scope, scope_mask  # loaded when drawn

    if groups is None or not len(groups) or not set(parse_scope(scope)) & set(groups.columns):
        return [(0, y)]
    per = y // len(groups)
    rows = [*np.flatnonzero(np.repeat(scope_mask(groups, scope), per)).tolist(), y]
    runs: list[tuple[int, int]] = []
    for r in rows:
        runs = runs[:-1] + [(runs[-1][0], r)] if runs and runs[-1][1] == r - 1 else runs + [(r, r)]
    return runs
