"""The incidents of :func:`~budgetlab.plotting.plot_alerts`: hatched bars on a row of their
own, named beside them, each shaded across the chart's rows of its scope
(:func:`incident_row`)."""

from __future__ import annotations

import matplotlib.dates as mdates
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.patches import Rectangle

from .._util.validation import require_columns
from ._common import overlap_lanes, utc_naive

__all__ = ["incident_row"]


def incident_row(ax: Axes, incidents: pd.DataFrame, y: int,
                 groups: pd.DataFrame | None = None) -> None:
    """:func:`plot_alerts`' incidents: hatched bars on row ``y`` (overlapping ones in lanes of
    the row, so each one's end is seen), named by ``incident_id`` when given, beside the bar's
    end (before its start when the end is in the axis' last tenth), never over it; each shaded
    (grey, gid ``incident``) across the rows of its ``scope`` and its own: ``groups`` are the
    key values of the chart's groups (as text), each with ``y // len(groups)`` rows in turn;
    ``None`` (no group keys), no scope or ``*``: all rows. A scope that matches no group is
    shaded on row ``y`` only and named ``<id> (<scope>: no row)``."""
    require_columns(incidents, ["start", "end"], what="incidents")
    i_s, i_e = utc_naive(incidents["start"]), utc_naive(incidents["end"])
    lane = overlap_lanes(i_s, i_e)
    h = 0.6 / (int(lane.max()) + 1 if len(lane) else 1)
    ys = y - 0.3 + (lane + 0.5) * h
    ax.barh(ys, i_e - i_s, left=i_s, height=h, color="none", edgecolor="grey", hatch="//",
            label="incidents")
    scopes = (incidents["scope"] if "scope" in incidents.columns
              else pd.Series("*", index=incidents.index)).fillna("*").astype(str)
    ids = (incidents["incident_id"].astype(str) if "incident_id" in incidents.columns
           else pd.Series("", index=incidents.index))
    x0, x1 = ax.get_xlim()
    begin = mdates.date2num(i_s)  # type: ignore[no-untyped-call]
    stop = mdates.date2num(i_e)  # type: ignore[no-untyped-call]
    for s, e, at, iid, scope in zip(begin, stop, ys, ids, scopes, strict=True):
        runs = _scope_rows(groups, scope, y)
        for first, last in runs:  # from row to row, the first and last to the axis' edge
            lo, hi = first - (0.7 if first == 0 else 0.5), last + (0.7 if last == y else 0.5)
            ax.add_patch(Rectangle((s, lo), e - s, hi - lo, color="grey", alpha=0.12, lw=0,
                                   gid="incident"))
        name = iid if runs != [(y, y)] else " ".join(filter(None, [iid, f"({scope}: no row)"]))
        if name:
            left = e > x0 + 0.9 * (x1 - x0)
            ax.annotate(name, xy=(s if left else e, at), xytext=(-2 if left else 2, 0),
                        textcoords="offset points", va="center", ha="right" if left else "left",
                        fontsize="x-small", gid="incident_name")


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
