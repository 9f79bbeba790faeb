"""Recalibration distributions and the window-length comparison."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from .._util.validation import duration_label, require_columns
from ..budget.figures import STATUSES
from ..errors import InputError
from ._common import (
    display_names,
    legend_above,
)

#: Colours of groups in plot_recalibration / plot_window_comparison (Okabe–Ito, then tab10).
_GROUP_COLORS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000")


def _group_labels(frame: pd.DataFrame, keys: Sequence[str]) -> np.ndarray:
    if not keys:
        return np.full(len(frame), "all", dtype=object)
    return frame[list(keys)].astype(str).agg(" · ".join, axis=1).to_numpy()


def plot_recalibration(result: Any, *, ax: Axes | None = None, logy: bool = True) -> Axes:
    """Rolling-window success rate distribution per group, with the recommended target and its
    bootstrap interval, the current target and the candidates' time at the limit status.

    Parameters
    ----------
    result : Recalibration
        Output of :func:`budgetlab.recalibrate`.
    ax : Axes, optional
        Where to draw (default ``plt.gca()``).
    logy : bool
        Log scale for the share of time (the tail that decides the target stays visible).

    Returns
    -------
    Axes
        Artists with gids, one set per group label ``<g>`` (``"all"`` without groups):
        ``distribution:<g>`` (line: x = the time-weighted quantiles ``success_rate`` × 100,
        y = ``probability`` × 100 from ``result.distribution``), ``candidates:<g>`` (markers:
        x = ``target`` × 100, y = share of time at ``limit_status`` or worse × 100 from
        ``result.candidates``), ``recommended:<g>`` (vertical line), ``interval:<g>``
        (shaded ``recommended_low``..``recommended_high``), ``current:<g>`` (dashed vertical
        line), and ``limit`` (horizontal line at ``max_share`` × 100).

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from budgetlab import recalibrate, synth
    >>> events, _ = synth.generate("2026-10-05", 6, seed=1, rate=0.1, incidents=None, session_ids=False)
    >>> r = recalibrate(events, by="captcha_type", target=0.93, n_boot=20)
    >>> ax = plot_recalibration(r)
    >>> [ln.get_gid() for ln in ax.lines][:3]
    ['distribution:recaptcha_v2', 'candidates:recaptcha_v2', 'recommended:recaptcha_v2']
    >>> plt.close("all")
    """
    for attr in ("summary", "candidates", "distribution", "settings"):
        if not hasattr(result, attr):
            raise InputError("plot_recalibration() takes the Recalibration that budgetlab.recalibrate() returns.")
    ax = plt.gca() if ax is None else ax
    settings = result.settings
    keys = list(settings.get("by", []))
    limit_status = str(settings.get("limit_status", "exhausted"))
    levels = STATUSES[STATUSES.index(limit_status):]
    summary, cand, dist = result.summary, result.candidates, result.distribution
    s_lab, c_lab, d_lab = _group_labels(summary, keys), _group_labels(cand, keys), _group_labels(dist, keys)
    c_share = cand[[f"share_{s}" for s in levels]].sum(axis=1).to_numpy()
    handles: list[Any] = []
    for i, label in enumerate(s_lab):
        color = _GROUP_COLORS[i % len(_GROUP_COLORS)]
        row = summary.iloc[i]
        d = dist[d_lab == label]
        line, = ax.plot(d["success_rate"].to_numpy() * 100, d["probability"].to_numpy() * 100, color=color,
                        lw=1.5, gid=f"distribution:{label}", label=label)
        handles.append(line)
        sel = c_lab == label
        ax.plot(cand["target"].to_numpy()[sel] * 100, c_share[sel] * 100, ls="none", marker="o", ms=3,
                color=color, alpha=0.6, gid=f"candidates:{label}")
        rec, lo, hi, cur = (row["recommended_target"], row["recommended_low"], row["recommended_high"],
                            row["current_target"])
        if np.isfinite(rec):
            ax.axvline(rec * 100, color=color, lw=1.2, gid=f"recommended:{label}")
        if np.isfinite(lo) and np.isfinite(hi):
            ax.axvspan(lo * 100, hi * 100, color=color, alpha=0.12, lw=0, gid=f"interval:{label}")
        if np.isfinite(cur):
            ax.axvline(cur * 100, color=color, lw=1.0, ls="--", gid=f"current:{label}")
    max_share = float(settings.get("max_share", 0.01))
    ax.axhline(max_share * 100, color="black", lw=0.8, ls=":", gid="limit")
    if logy:
        ax.set_yscale("log")
    window, history = settings.get("window"), settings.get("history")
    wtxt = f"rolling {duration_label(window)} window" if window is not None else "rolling window"
    htxt = f", last {duration_label(history)}" if history is not None else ""
    ax.set_xlabel(f"success rate in the {wtxt}{htxt} (%)")
    ax.set_ylabel("share of time at or below (%)" + (", log scale" if logy else ""))
    handles += [Line2D([], [], color="grey", ls="none", marker="o", ms=3, label=f"time {limit_status}+ at target"),
                Line2D([], [], color="grey", lw=1.2, label="recommended target"),
                Patch(color="grey", alpha=0.25, label=f"{settings.get('confidence', 0.95):.0%} bootstrap interval"),
                Line2D([], [], color="grey", lw=1.0, ls="--", label="current target"),
                Line2D([], [], color="black", lw=0.8, ls=":", label=f"limit {max_share:.1%} {limit_status}")]
    legend_above(ax, handles, ncols=3)
    return ax


_METRIC_LABELS = {
    "transitions_per_day": "status changes per day (flapping)",
    "round_trips_per_day": "healthy→warning→healthy round trips per day",
    "detection_median": "median detection delay (min)",
    "detection_max": "worst detection delay (min)",
    "recovery_median": "median recovery time (min)",
    "recovery_max": "worst recovery time (min)",
    "share_exhausted": "share of time exhausted (%)",
    "share_healthy": "share of time healthy (%)",
    "hours_exhausted": "hours exhausted",
    "missed": "missed incidents",
}


def _metric_values(table: pd.DataFrame, column: str) -> np.ndarray:
    col = table[column]
    if pd.api.types.is_timedelta64_dtype(col.dtype):  # in minutes; NaT (e.g. nothing detected) is NaN
        return np.asarray(pd.to_timedelta(col).dt.total_seconds().to_numpy(dtype=float) / 60.0)
    vals = col.to_numpy(dtype=float)
    return vals * 100 if column.startswith("share_") else vals


def plot_window_comparison(table: pd.DataFrame, *, y: str = "transitions_per_day", y2: str | None = "auto",
                           ax: Axes | None = None, logy: bool = False) -> Axes:
    """Flapping against reaction time, window by window (one line per group and dwell time).

    Parameters
    ----------
    table : DataFrame
        Output of :func:`budgetlab.compare_windows`.
    y : str
        Column on the left axis (default ``transitions_per_day``).
    y2 : str or None
        Column on the right axis, dashed (default ``"auto"``: ``detection_median`` when the
        table has incident columns, else ``share_exhausted``); ``None`` for none.
    ax : Axes, optional
        Where to draw (default ``plt.gca()``).
    logy : bool
        Log scale on the left axis.

    Returns
    -------
    Axes
        The left axes; the right one is ``ax.y2_ax`` (``None`` without ``y2``). One line per
        series (gid ``<column>:<series>``, series ``<group>`` or ``<group> · dwell <d>``):
        x = the position of each window in ``table["window"]``'s categories (tick labels are the
        windows), y = the column's values (Timedelta columns in minutes, ``share_*`` in %).

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from budgetlab import SLO, as_events, compare_windows
    >>> ts = pd.date_range("2026-01-01", periods=2 * 1440, freq="1min")
    >>> t = compare_windows(as_events(ts, [i % 9 != 0 for i in range(len(ts))]), SLO(target=0.9),
    ...                     ["30min", "2h", "calendar:day"])
    >>> ax = plot_window_comparison(t)
    >>> [tl.get_text() for tl in ax.get_xticklabels()]
    ['30m', '2h', 'calendar:day']
    >>> plt.close("all")
    """
    require_columns(table, ["window", "min_dwell", y], what="table")
    if y2 == "auto":
        y2 = "detection_median" if "detection_median" in table.columns else "share_exhausted"
    if y2 is not None:
        require_columns(table, [y2], what="table")
    ax = plt.gca() if ax is None else ax
    keys = list(table.attrs.get("by", [])) if isinstance(table.attrs.get("by"), list) else []
    keys = [k for k in keys if k in table.columns]
    windows = display_names(table["window"])
    x_all = np.array([windows.index(str(w)) for w in table["window"]], dtype=float)
    dwell = pd.to_timedelta(table["min_dwell"])
    several_dwells = dwell.nunique() > 1
    series = _group_labels(table, keys)
    if several_dwells:
        series = np.array([f"{s} · dwell {duration_label(d) if d > pd.Timedelta(0) else '0'}"
                           for s, d in zip(series, dwell, strict=True)], dtype=object)
    ax2 = ax.twinx() if y2 is not None else None
    v1 = _metric_values(table, y)
    v2 = _metric_values(table, y2) if y2 is not None else None
    handles: list[Any] = []
    for i, name in enumerate(pd.unique(series)):
        sel = series == name
        order = np.argsort(x_all[sel], kind="stable")
        color = _GROUP_COLORS[i % len(_GROUP_COLORS)]
        line, = ax.plot(x_all[sel][order], v1[sel][order], marker="o", color=color, lw=1.5, label=str(name),
                        gid=f"{y}:{name}")
        handles.append(line)
        if ax2 is not None and v2 is not None:
            ax2.plot(x_all[sel][order], v2[sel][order], marker="s", ms=4, color=color, lw=1.0, ls="--",
                     gid=f"{y2}:{name}")
    ax.set_xticks(np.arange(len(windows)), windows)
    ax.set_xlim(-0.3, len(windows) - 0.7)
    ax.set_xlabel("window (rolling, or calendar in the table's tz)")
    ax.set_ylabel(_METRIC_LABELS.get(y, y) + " — solid")
    if logy:
        ax.set_yscale("log")
    if ax2 is not None and y2 is not None:
        ax2.set_ylabel(_METRIC_LABELS.get(y2, y2) + " — dashed")
        ax2.set_ylim(bottom=0)
    ax.set_ylim(bottom=0 if not logy else None)
    legend_above(ax, handles, ncols=3)
    ax.y2_ax = ax2  # type: ignore[attr-defined]
    return ax
