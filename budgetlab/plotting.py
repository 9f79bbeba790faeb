"""Drawings only. Every ``plot_*`` takes the tidy table a budgetlab function returned, draws on
``ax`` (default: the current axes), returns the Axes and never calls ``plt.show()``.
"""

from __future__ import annotations

from typing import Any

import matplotlib.dates as mdates
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from .replay import STATUSES

__all__ = ["STATUS_COLORS", "plot_timeline"]

#: Colours of the status bands (colour-blind-safe, from Okabe–Ito).
STATUS_COLORS = {"healthy": "#009E73", "warning": "#E69F00", "critical": "#D55E00", "exhausted": "#7F0000"}


def _thin(frame: pd.DataFrame, max_points: int) -> pd.DataFrame:
    """Keep at most ``max_points`` rows (every k-th row plus the last) for drawing."""
    if len(frame) <= max_points:
        return frame
    step = int(np.ceil(len(frame) / max_points))
    idx = np.unique(np.r_[np.arange(0, len(frame), step), len(frame) - 1])
    return frame.iloc[idx]


def _status_runs(ts: pd.Series, status: pd.Series, end: pd.Timestamp) -> list[tuple[str, Any, Any]]:
    """(status, start, end) of each run of equal status; a run lasts until the next change."""
    code = status.cat.codes.to_numpy()
    if len(code) == 0:
        return []
    starts = np.flatnonzero(np.r_[True, code[1:] != code[:-1]])
    t = ts.to_numpy()
    ends = np.r_[t[starts[1:]], np.datetime64(end.tz_convert(None).as_unit("ns"))] if len(starts) else []
    return [(STATUSES[code[s]], t[s], e) for s, e in zip(starts, ends, strict=True)]


def plot_timeline(
    states: pd.DataFrame,
    *,
    slo: Any = None,
    incidents: pd.DataFrame | None = None,
    transitions: pd.DataFrame | None = None,
    ax: Axes | None = None,
    max_points: int = 5000,
) -> Axes:
    """Success rate (left axis) and burn rate (right axis) over time, on status bands.

    Parameters
    ----------
    states : DataFrame
        One group's output of :func:`budgetlab.replay` (filter groups first).
    slo : SLO, optional
        Draws the target line (default: ``states.attrs["slo"]`` when present).
    incidents : DataFrame, optional
        Incident table; each ``[start, end)`` is shaded grey.
    transitions : DataFrame, optional
        Output of :func:`budgetlab.transitions`; each change is marked with a dotted line.
    ax : Axes, optional
        Where to draw (default ``plt.gca()``).

    Returns
    -------
    Axes
        The success-rate axes; the burn-rate axes is ``ax.burn_ax``.
    """
    ax = plt.gca() if ax is None else ax
    slo = slo if slo is not None else states.attrs.get("slo")
    data = states.sort_values("ts", kind="stable")
    ts = data["ts"].dt.tz_convert("UTC").dt.tz_localize(None)
    if len(data):
        end = data["ts"].iloc[-1]
        for status, s, e in _status_runs(ts, data["status"], end):
            ax.axvspan(s, e, color=STATUS_COLORS[status], alpha=0.15, lw=0)
    thin = _thin(data, max_points)
    tthin = thin["ts"].dt.tz_convert("UTC").dt.tz_localize(None)
    ax.plot(tthin, thin["success_rate"] * 100, color="#0072B2", lw=1.2, label="success rate (window)")
    if slo is not None:
        ax.axhline(slo.target * 100, color="black", ls="--", lw=1, label=f"target {slo.target:.1%}")
    ax.set_ylabel("success rate in window (%)")
    ax.set_xlabel("time (UTC)")
    burn_ax = ax.twinx()
    burn_ax.plot(tthin, thin["burn_rate"], color="#CC79A7", lw=1, label="burn rate")
    burn_ax.axhline(1.0, color="#CC79A7", ls=":", lw=1)
    burn_ax.set_ylabel("burn rate (1 = allowed pace)")
    if incidents is not None and len(incidents):
        for _, inc in incidents.iterrows():
            ax.axvspan(pd.Timestamp(inc["start"]).tz_convert(None), pd.Timestamp(inc["end"]).tz_convert(None),
                       facecolor="none", edgecolor="grey", hatch="//", lw=0.8, label="_incident")
    if transitions is not None and len(transitions):
        for t in pd.to_datetime(transitions["ts"], utc=True).dt.tz_localize(None):
            ax.axvline(t, color="grey", ls=":", lw=0.8)
    ax.xaxis.set_major_formatter(mdates.ConciseDateFormatter(ax.xaxis.get_major_locator()))
    handles = ax.get_legend_handles_labels()[0] + burn_ax.get_legend_handles_labels()[0]
    handles += [plt.Rectangle((0, 0), 1, 1, color=STATUS_COLORS[s], alpha=0.3, label=s) for s in STATUSES]
    ax.legend(handles=handles, loc="lower left", fontsize="small", ncols=2)
    ax.burn_ax = burn_ax  # type: ignore[attr-defined]
    return ax
