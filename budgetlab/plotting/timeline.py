"""The replay timeline: success rate, burn rate and budget remaining over time."""

from __future__ import annotations

from typing import Any

import matplotlib.dates as mdates
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from .._util.validation import check_tz, require_columns
from ..budget.figures import STATUSES
from ..errors import ConfigError
from ..slo import PerGroup
from ._common import (
    STATUS_COLORS,
    legend_right,
    one_group,
    thin_rows,
    time_axis,
    utc_naive,
)

#: Transitions are drawn as full-height lines up to this many, as a rug below the data above it.
MAX_TRANSITION_LINES = 60


def plot_timeline(states: pd.DataFrame, *, slo: Any = None, incidents: pd.DataFrame | None = None,
                  transitions: pd.DataFrame | None = None, ax: Axes | None = None, max_points: int = 5000,
                  tz: str | None = None, budget: bool = True) -> Axes:
    """Success rate, burn rate and budget remaining over time, on status bands.

    Parameters
    ----------
    states : DataFrame
        One group's output of :func:`budgetlab.replay` (filter groups first).
    slo : SLO, optional
        Draws the target line (default: ``states.attrs["slo"]`` when present).
    incidents : DataFrame, optional
        Incident table; each ``[start, end)`` is shaded with grey hatching.
    transitions : DataFrame, optional
        Output of :func:`budgetlab.transitions`: up to 60 changes are marked with full-height
        lines, more with a rug of short ticks at the bottom, coloured by the new status.
    ax : Axes, optional
        Where to draw (default ``plt.gca()``).
    max_points : int
        Lines are thinned to at most this many points (every k-th event and the last one).
    tz : str, optional
        Time zone of the tick labels (default UTC), named in the x label; the data stay UTC.
    budget : bool
        Draw ``remaining_fraction`` (in %) on a third axis.

    Returns
    -------
    Axes
        The success-rate axes (left, %); the burn-rate axes (right) is ``ax.burn_ax`` and the
        budget-remaining axes (outer right, %) ``ax.budget_ax`` (``None`` with ``budget=False``).
        Artists carry gids: ``success_rate``, ``burn_rate``, ``budget_remaining``, ``target``,
        ``status_<name>`` (band collections), ``incident``, ``transitions``.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from budgetlab import SLO, as_events, replay
    >>> ev = as_events(pd.date_range("2026-01-01", periods=60, freq="1min"), [i % 7 != 0 for i in range(60)])
    >>> ax = plot_timeline(replay(ev, SLO(target=0.9, window="10min")), tz="Europe/Berlin")
    >>> ax.get_xlabel(), ax.burn_ax.get_ylabel()
    ('time (Europe/Berlin)', 'burn rate (1 = allowed pace)')
    >>> plt.close("all")
    """
    from ..budget.tracker_replay import REPLAY_COLUMNS

    ax = plt.gca() if ax is None else ax
    tz = check_tz(tz)
    need = ["ts", "success_rate", "burn_rate", "status"] + (["remaining_fraction"] if budget else [])
    require_columns(states, need, what="states")
    one_group(states, REPLAY_COLUMNS, "states")
    if isinstance(max_points, bool) or not isinstance(max_points, (int, np.integer)) or max_points < 2:
        raise ConfigError("max_points must be a whole number >= 2.")
    slo = slo if slo is not None else states.attrs.get("slo")
    if isinstance(slo, PerGroup):  # a per-group replay: the SLO of the group drawn (its key columns)
        slo = slo.slo_for(tuple(states[[c for c in states.columns if c not in REPLAY_COLUMNS]].iloc[0])) if len(states) else None
    data = states.sort_values("ts", kind="stable")
    ts = utc_naive(data["ts"])
    code = data["status"].cat.codes.to_numpy()
    if len(data):  # status bands: a run of equal status lasts until the next change
        starts = np.flatnonzero(np.r_[True, code[1:] != code[:-1]])
        x0 = mdates.date2num(ts[starts])  # type: ignore[no-untyped-call]
        width = mdates.date2num(np.r_[ts[starts[1:]], ts[-1]]) - x0  # type: ignore[no-untyped-call]
        for k, status in enumerate(STATUSES):
            run = code[starts] == k
            if run.any():
                ax.broken_barh(list(zip(x0[run], width[run], strict=True)), (0, 1), transform=ax.get_xaxis_transform(),
                               facecolors=STATUS_COLORS[status], alpha=0.15, lw=0, gid=f"status_{status}")
    thin = thin_rows(data, max_points)
    tthin = utc_naive(thin["ts"])
    ax.plot(tthin, thin["success_rate"].to_numpy() * 100, color="#0072B2", lw=1.2,
            label="success rate in window (%)", gid="success_rate")
    if slo is not None:
        ax.axhline(slo.target * 100, color="black", ls="--", lw=1, label=f"target {slo.target:.1%}", gid="target")
    ax.set_ylabel("success rate in window (%)")
    burn_ax = ax.twinx()
    burn_ax.plot(tthin, thin["burn_rate"].to_numpy(), color="#CC79A7", lw=1, label="burn rate", gid="burn_rate")
    burn_ax.axhline(1.0, color="#CC79A7", ls=":", lw=1, gid="burn_one")
    burn_ax.set_ylabel("burn rate (1 = allowed pace)")
    budget_ax = None
    if budget:
        budget_ax = ax.twinx()
        budget_ax.spines["right"].set_position(("axes", 1.1))
        budget_ax.plot(tthin, thin["remaining_fraction"].to_numpy() * 100, color="#009E73", lw=1, ls="-.",
                       label="budget remaining (%)", gid="budget_remaining")
        budget_ax.set_ylim(-5, 105)
        budget_ax.set_ylabel("budget remaining in window (%)")
    handles = [h for a in (ax, burn_ax, budget_ax) if a is not None for h in a.get_legend_handles_labels()[0]]
    if incidents is not None and len(incidents):
        require_columns(incidents, ["start", "end"], what="incidents")
        for s, e in zip(utc_naive(incidents["start"]), utc_naive(incidents["end"]), strict=True):
            ax.axvspan(s, e, facecolor="none", edgecolor="grey", hatch="//", lw=0.8, gid="incident")
        handles.append(Patch(facecolor="none", edgecolor="grey", hatch="//", label="incident"))
    if transitions is not None and len(transitions):
        require_columns(transitions, ["ts", "to_status"], what="transitions")
        t_tr = utc_naive(transitions["ts"])
        colors = [STATUS_COLORS[str(s)] for s in transitions["to_status"].astype(str)]
        few = len(t_tr) <= MAX_TRANSITION_LINES
        ax.vlines(t_tr, 0, 1 if few else 0.04, transform=ax.get_xaxis_transform(), colors=colors,
                  lw=0.8, ls=":" if few else "-", gid="transitions")
        label = f"{len(t_tr)} status changes" + ("" if few else " (rug)")
        handles.append(Line2D([], [], color="grey", ls=":" if few else "-", lw=0.8, label=label))
    handles += [Patch(color=STATUS_COLORS[s], alpha=0.3, label=s) for s in STATUSES]
    time_axis(ax, tz)
    # right of the outermost y axis: burn rate (labels ~0.55 in) or budget remaining (spine at 1.1)
    legend_right(ax, handles, x=1.1 if budget_ax is not None else 1.0, inches=0.75 if budget_ax is not None else 0.7)
    ax.burn_ax = burn_ax  # type: ignore[attr-defined]
    ax.budget_ax = budget_ax  # type: ignore[attr-defined]
    ax.figure.sca(ax)  # twinx() made the twin current; hand back the main axes
    return ax

