"""Recalibration distributions and the window-length comparison."""

from __future__ import annotations

import textwrap
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
    OTHER_COLOR,
    display_names,
    group_colors,
    legend_above,
    other_label,
    split_axes,
)


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
        ``distribution:<g>`` (line: x = the time-weighted quantiles ``success_rate`` × 100, y =
        ``probability`` × 100 from ``result.distribution``), ``candidates:<g>`` (markers: x =
        ``target`` × 100, y = share of time at ``limit_status`` or worse × 100 from
        ``result.candidates``), ``recommended:<g>`` (vertical line), ``interval:<g>`` (shaded
        ``recommended_low``..``recommended_high``), ``current:<g>`` (dashed vertical line, a
        triangle on its top end), and ``limit`` (horizontal line at ``max_share`` × 100). With more
        groups than distinct colours, those with the most events keep theirs and the others are
        drawn in grey (without the interval's shading) under one legend entry, ``other (N groups)``.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from budgetlab import recalibrate, synth
    >>> events, _ = synth.generate("2026-10-05", 6, seed=1, rate=0.1, incidents=None,
    ...                            session_ids=False)
    >>> r = recalibrate(events, by="captcha_type", target=0.93, n_boot=20)
    >>> ax = plot_recalibration(r)
    >>> [ln.get_gid() for ln in ax.lines][:3]
    ['distribution:recaptcha_v2', 'candidates:recaptcha_v2', 'recommended:recaptcha_v2']
    >>> plt.close("all")
    """
    for attr in ("summary", "candidates", "distribution", "settings"):
        if not hasattr(result, attr):
            raise InputError("plot_recalibration() takes the Recalibration that "
                             "budgetlab.recalibrate() returns.")
    ax = plt.gca() if ax is None else ax
    settings = result.settings
    keys = list(settings.get("by", []))
    limit_status = str(settings.get("limit_status", "exhausted"))
    levels = STATUSES[STATUSES.index(limit_status):]
    summary, cand, dist = result.summary, result.candidates, result.distribution
    s_lab, c_lab, d_lab = (_group_labels(summary, keys), _group_labels(cand, keys),
                           _group_labels(dist, keys))
    c_share = cand[[f"share_{s}" for s in levels]].sum(axis=1).to_numpy()
    handles: list[Any] = []
    weight = summary["events"].to_numpy(dtype=float) if "events" in summary.columns else None
    colors = group_colors([str(x) for x in s_lab], weight)
    for i, label in enumerate(s_lab):
        sel = c_lab == label
        line = _draw_recalibration_group(ax, label, summary.iloc[i], dist[d_lab == label],
                                         cand["target"].to_numpy()[sel], c_share[sel],
                                         colors[str(label)])
        if colors[str(label)] is not None:
            handles.append(line)
    if other_label(colors):
        handles.append(Line2D([], [], color=OTHER_COLOR, lw=1.5, label=other_label(colors)))
    max_share = float(settings.get("max_share", 0.01))
    ax.axhline(max_share * 100, color="black", lw=0.8, ls=":", gid="limit")
    if logy:
        ax.set_yscale("log")
    ax.set_xlabel(_recalibration_xlabel(settings))
    ax.set_ylabel("share of time at or below (%)" + (", log scale" if logy else ""))
    legend_above(ax, handles + _recalibration_key(settings, limit_status, max_share), ncols=3)
    return ax


def _draw_recalibration_group(ax: Axes, label: Any, row: pd.Series, d: pd.DataFrame,
                              targets: np.ndarray, shares: np.ndarray, color: str | None) -> Any:
    """One group's artists in :func:`plot_recalibration`: its distribution (the line returned, for
    the legend), candidates, recommended target and interval, current target. ``color`` None: one
    of the grey "other" groups, drawn under the others and without the interval's shading."""
    shown = color is not None
    color, z = (color or OTHER_COLOR, 2.0 if shown else 1.5)
    line, = ax.plot(d["success_rate"].to_numpy() * 100, d["probability"].to_numpy() * 100,
                    color=color, lw=1.5, gid=f"distribution:{label}", label=label, zorder=z)
    ax.plot(targets * 100, shares * 100, ls="none", marker="o", ms=3, color=color, alpha=0.6,
            gid=f"candidates:{label}", zorder=z)
    rec, lo, hi, cur = (row["recommended_target"], row["recommended_low"],
                        row["recommended_high"], row["current_target"])
    if np.isfinite(rec):
        ax.axvline(rec * 100, color=color, lw=1.2, gid=f"recommended:{label}", zorder=z)
    if np.isfinite(lo) and np.isfinite(hi) and shown:
        ax.axvspan(lo * 100, hi * 100, color=color, alpha=0.12, lw=0, gid=f"interval:{label}")
    if np.isfinite(cur):
        # a triangle on the top edge: visible also when the recommendation is the current target
        ax.axvline(cur * 100, color=color, lw=1.0, ls="--", marker="v", markevery=[1], ms=7,
                   clip_on=False, gid=f"current:{label}", zorder=z)
    return line


def _recalibration_xlabel(settings: dict[str, Any]) -> str:
    """The x label of :func:`plot_recalibration`: the window and the span measured."""
    window, history = settings.get("window"), settings.get("history")
    wtxt = f"rolling {duration_label(window)} window" if window is not None else "rolling window"
    lo, hi = settings.get("span_start"), settings.get("span_end")
    # the span actually measured (history caps it; the data may be shorter)
    if lo is not None and hi is not None:
        span = pd.Timedelta(pd.Timestamp(hi) - pd.Timestamp(lo))
        htxt = f", {duration_label(span.round('1min'))} measured"
    else:
        htxt = f", last {duration_label(history)}" if history is not None else ""
    return f"success rate in the {wtxt}{htxt} (%)"


def _recalibration_key(settings: dict[str, Any], limit_status: str,
                       max_share: float) -> list[Any]:
    """The legend entries of :func:`plot_recalibration`'s marks (after the groups')."""
    return [Line2D([], [], color="grey", ls="none", marker="o", ms=3,
                   label=f"time {limit_status}+ at target"),
            Line2D([], [], color="grey", lw=1.2, label="recommended target"),
            Patch(color="grey", alpha=0.25,
                  label=f"{settings.get('confidence', 0.95):.0%} bootstrap interval"),
            Line2D([], [], color="grey", lw=1.0, ls="--", marker="v", ms=6,
                   label="current target"),
            Line2D([], [], color="black", lw=0.8, ls=":",
                   label=f"limit {max_share:.1%} {limit_status}")]


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
    # in minutes; NaT (e.g. nothing detected) is NaN
    if pd.api.types.is_timedelta64_dtype(col.dtype):
        return np.asarray(pd.to_timedelta(col).dt.total_seconds().to_numpy(dtype=float) / 60.0)
    vals = col.to_numpy(dtype=float)
    return vals * 100 if column.startswith("share_") else vals


def _from_zero(ax: Axes, values: np.ndarray | None) -> None:
    """Y from 0 to the data's top plus 8 %; a flat 0 gets the range 0..1 so the line shows above
    the axis (never hidden in it)."""
    v = np.asarray(values, dtype=float) if values is not None else np.zeros(0)
    v = v[np.isfinite(v)]
    top = float(v.max()) if len(v) else 0.0
    ax.set_ylim(-0.04 * (top or 1.0), (top or 1.0) * 1.08)


def plot_window_comparison(table: pd.DataFrame, *, y: str = "transitions_per_day",
                           y2: str | None = "auto", ax: Axes | None = None,
                           logy: bool = False) -> Axes:
    """Flapping against reaction time, window by window (one line per group and dwell time):
    ``y`` on the top panel, ``y2`` on a panel below it, so that neither hides the other.

    Parameters
    ----------
    table : DataFrame
        Output of :func:`budgetlab.compare_windows`.
    y : str
        Column on the left axis (default ``transitions_per_day``).
    y2 : str or None
        Column of a second panel below, sharing the windows axis (default ``"auto"``:
        ``detection_median`` when the table has incident columns, else ``share_exhausted``);
        ``None`` for none.
    ax : Axes, optional
        Where to draw (default ``plt.gca()``).
    logy : bool
        Log scale on the left axis.

    Returns
    -------
    Axes
        The top panel; the lower one (``y2``) is ``ax.y2_ax`` (``None`` without ``y2``). One line
        per series (gid ``<column>:<series>``, series ``<group>`` or ``<group> · dwell <d>``): x =
        the position of each window in ``table["window"]``'s categories (tick labels are the
        windows), y = the column's values (Timedelta columns in minutes, ``share_*`` in %). With
        more lines than distinct colours, those of the groups with the most events (the table's
        ``events`` column, else the first ones) keep theirs and the others are drawn in grey under
        one legend entry, ``other (N groups)``.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from budgetlab import SLO, as_events, compare_windows
    >>> ts = pd.date_range("2026-01-01", periods=2 * 1440, freq="1min")
    >>> t = compare_windows(as_events(ts, [i % 9 != 0 for i in range(len(ts))]), SLO(target=0.9),
    ...                     ["30min", "2h", "calendar:day"])
    >>> ax = plot_window_comparison(t)
    >>> [tl.get_text() for tl in ax.y2_ax.get_xticklabels()]
    ['30m', '2h', 'calendar:day']
    >>> plt.close("all")
    """
    require_columns(table, ["window", "min_dwell", y], what="table")
    if y2 == "auto":
        y2 = "detection_median" if "detection_median" in table.columns else "share_exhausted"
    if y2 is not None:
        require_columns(table, [y2], what="table")
    ax = plt.gca() if ax is None else ax
    windows, x_all, series = _comparison_series(table)
    labels_below = bool(ax.xaxis.get_tick_params(which="major").get("labelbottom", True))
    ax2 = split_axes(ax, 2, hspace=0.08)[1] if y2 is not None else None
    v1 = _metric_values(table, y)
    v2 = _metric_values(table, y2) if y2 is not None else None
    handles: list[Any] = []
    names = pd.unique(series)
    weight = (table["events"].to_numpy(dtype=float) if "events" in table.columns
              else np.zeros(len(table)))
    colors = group_colors([str(n) for n in names],
                          [float(weight[series == n].max()) for n in names])
    for name in names:
        sel = series == name
        order = np.argsort(x_all[sel], kind="stable")
        shown = colors[str(name)] is not None
        color, z = (colors[str(name)] or OTHER_COLOR, 2.0 if shown else 1.5)
        line, = ax.plot(x_all[sel][order], v1[sel][order], marker="o", color=color, lw=1.5,
                        label=str(name),
                        gid=f"{y}:{name}", zorder=z)
        if shown:
            handles.append(line)
        if ax2 is not None and v2 is not None:
            ax2.plot(x_all[sel][order], v2[sel][order], marker="s", ms=4, color=color, lw=1.2,
                     gid=f"{y2}:{name}", zorder=z)
    if other_label(colors):
        handles.append(Line2D([], [], color=OTHER_COLOR, marker="o", lw=1.5,
                              label=other_label(colors)))
    ax.set_xticks(np.arange(len(windows)), windows)
    ax.set_xlim(-0.3, len(windows) - 0.7)
    bottom = ax2 if ax2 is not None else ax
    bottom.set_xlabel("window (rolling, or calendar in the table's tz)" if labels_below else "")
    ax.set_ylabel(textwrap.fill(_METRIC_LABELS.get(y, y), 24))
    if logy:
        ax.set_yscale("log")
    if ax2 is not None and y2 is not None:
        ax.tick_params(labelbottom=False)
        ax2.tick_params(labelbottom=labels_below)
        ax2.set_ylabel(textwrap.fill(_METRIC_LABELS.get(y2, y2), 24))
        _from_zero(ax2, v2)
        ax.figure.align_ylabels([ax, ax2])
    if not logy:
        _from_zero(ax, v1)
    legend_above(ax, handles, ncols=3)
    ax.y2_ax = ax2  # type: ignore[attr-defined]
    return ax


def _comparison_series(table: pd.DataFrame) -> tuple[list[str], np.ndarray, np.ndarray]:
    """:func:`plot_window_comparison`'s windows (display names, in order), each row's x (its
    window's position) and series (``<group>``, or ``<group> · dwell <d>`` with several dwell
    times)."""
    keys = list(table.attrs.get("by", [])) if isinstance(table.attrs.get("by"), list) else []
    keys = [k for k in keys if k in table.columns]
    windows = display_names(table["window"])
    x_all = np.array([windows.index(str(w)) for w in table["window"]], dtype=float)
    dwell = pd.to_timedelta(table["min_dwell"])
    series = _group_labels(table, keys)
    if dwell.nunique() > 1:
        series = np.array([f"{s} · dwell {duration_label(d) if d > pd.Timedelta(0) else '0'}"
                           for s, d in zip(series, dwell, strict=True)], dtype=object)
    return windows, x_all, series
