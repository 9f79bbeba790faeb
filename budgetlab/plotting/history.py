"""A history at a glance: daily success rates with intervals, failure rates by hour of day."""

from __future__ import annotations

from typing import Any

import matplotlib.dates as mdates
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.lines import Line2D

from .._util.validation import require_columns
from ..analyses.daily_rates import daily_spread
from ..analyses.hour_rates import MIN_HOUR_ATTEMPTS, silent_hours
from ._common import OTHER_COLOR, group_colors, other_label
from ._dates import YearDateFormatter
from ._numbers import plain_numbers
from .legends import legend_above

__all__ = ["MIN_HOUR_ATTEMPTS", "plot_daily_success", "plot_hourly_profile"]

_KNOWN_DAILY = ("day", "total", "good", "success_rate", "ci_low", "ci_high", "full_day")
_KNOWN_SPREAD = ("total", "good", "success_rate", "ci_low", "ci_high", "interval_width",
                 "full_days", "day_min", "day_max", "spread", "spread_ratio")
_KNOWN_HOURLY = ("hour", "total", "bucket_failures", "other_failures", "bucket_rate", "other_rate")


def _series(frame: pd.DataFrame, known: tuple[str, ...]) -> list[tuple[str, pd.DataFrame]]:
    keys = [c for c in frame.columns if c not in known]
    if not keys:
        return [("all", frame)]
    label = frame[keys].astype(str).agg(" · ".join, axis=1)
    return [(str(name), frame[(label == name).to_numpy()]) for name in pd.unique(label)]


def _colors(groups: list[tuple[str, pd.DataFrame]]) -> dict[str, str | None]:
    """:func:`group_colors` of the series, weighted by their events (``total``)."""
    return group_colors([n for n, _ in groups],
                        [float(d["total"].sum()) if "total" in d.columns else float(len(d)) for _,
                         d in groups])


def plot_daily_success(daily: pd.DataFrame, *, ax: Axes | None = None,
                       target: Any = None) -> Axes:
    """Success rate per local day and group, with each day's interval as an error bar.

    Parameters
    ----------
    daily : DataFrame
        Output of :func:`budgetlab.analyses.history.daily_success`.
    ax : Axes, optional
        Where to draw (default ``plt.gca()``).
    target : float or DataFrame, optional
        As :func:`~budgetlab.analyses.history.daily_spread` takes it: a group whose events are
        too few for it (its ``note``) is left out, so that its days of one or two events (0 or
        100 %, intervals as wide) never set the scale; the x label names the groups left out.
        Without it every group is drawn.

    Returns
    -------
    Axes
        One errorbar container per group drawn (label: the group, ``"all"`` without groups): its
        points sit at local noon of each day (shifted by a few hours per group so they do not
        cover each other), y = ``success_rate`` × 100, bars from ``ci_low`` to ``ci_high`` × 100.
        The points are lines with gids ``days:<group>`` (full days) and ``partial:<group>``
        (``full_day`` false, drawn hollow). The x range runs from the first day's local
        midnight to the last day's end, each day between two ticks (the first day's own tick
        labelled: it was left of the range, unlabelled). The y range is the data's. With more
        groups than distinct colours, those with the most events keep theirs and the others are
        drawn in grey under one legend entry, ``other (N groups)``.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> daily = pd.DataFrame({
    ...     "day": pd.to_datetime(["2026-01-01", "2026-01-02"]).tz_localize("Europe/Berlin"),
    ...     "total": [100, 50], "good": [90, 49], "success_rate": [0.9, 0.98],
    ...     "ci_low": [0.83, 0.9], "ci_high": [0.94, 0.99], "full_day": [True, False]})
    >>> ax = plot_daily_success(daily)
    >>> [c.get_label() for c in ax.containers]
    ['all']
    >>> plt.close("all")
    """
    require_columns(daily, ["day", "success_rate", "ci_low", "ci_high"], what="daily")
    ax = plt.gca() if ax is None else ax
    groups, thin = _drawn(daily, target)
    colors = _colors(groups)
    top = [n for n, c in colors.items() if c is not None]
    n_series = len(top) + (1 if len(top) < len(groups) else 0)  # the top groups, and "other"
    for name, d in groups:
        day = pd.DatetimeIndex(d["day"])
        i = top.index(name) if colors[name] is not None else n_series - 1
        # naive UTC (what matplotlib plots; the ticks and labels below are in the days' zone)
        x = (day.tz_convert("UTC").tz_localize(None) if day.tz is not None else day) + pd.Timedelta(
            hours=12 + 3 * (i - n_series // 2))
        y = 100 * d["success_rate"].to_numpy(dtype=float)
        err = np.vstack([y - 100 * d["ci_low"].to_numpy(dtype=float),
                         100 * d["ci_high"].to_numpy(dtype=float) - y])
        full = d["full_day"].to_numpy(dtype=bool) if "full_day" in d.columns else np.ones(len(d),
                                                                                          bool)
        color, z = (colors[name], 2.0) if colors[name] is not None else (OTHER_COLOR, 1.5)
        ax.errorbar(x, y, yerr=np.clip(err, 0, None), fmt="none", ecolor=color, capsize=2, lw=1,
                    label=name,
                    zorder=z)
        ax.plot(x[full], y[full], "o", color=color, ms=4, gid=f"days:{name}", zorder=z)
        ax.plot(x[~full], y[~full], "o", mfc="white", mec=color, ms=4, gid=f"partial:{name}",
                zorder=z)
    tz = getattr(pd.DatetimeIndex(daily["day"]).tz, "key", None) if len(daily) else None
    n_days = int(pd.DatetimeIndex(daily["day"]).nunique()) if len(daily) else 1
    # ticks at local midnights only (never 12:00): each day's points sit at its noon, between ticks
    locator = mdates.DayLocator(interval=max(1, -(-n_days // 10)),
                                tz=tz or "UTC")  # type: ignore[no-untyped-call]
    ax.xaxis.set_major_locator(locator)
    ax.xaxis.set_major_formatter(YearDateFormatter(locator, tz=tz or "UTC"))  # type: ignore[no-untyped-call]
    if len(daily):  # the first day's midnight to the last one's end: every day has its tick
        days = pd.DatetimeIndex(daily["day"])
        ends = pd.DatetimeIndex([days.min(), days.max() + pd.DateOffset(days=1)])
        ax.set_xlim(*(ends.tz_convert("UTC").tz_localize(None) if ends.tz is not None else ends))
    # the rule of daily_success's full_day, said as it is: traffic, not the hours the log covers
    gone = (f"\nnot drawn, too few events for a day's rate (daily_spread's note): "
            f"{', '.join(thin)}" if thin else "")
    ax.set_xlabel(f"local day ({tz or 'UTC'}); hollow: a day with under half the group's median "
                  f"day of traffic{gone}")
    ax.set_ylabel("success rate that day (%)")
    plain_numbers(ax.yaxis)  # 99.99 .. 100 read as such: no offset apart
    ax.grid(alpha=0.3)
    handles: list[Any] = [Line2D([], [], color=colors[n], marker="o", label=n) for n in top]
    if other_label(colors):
        handles.append(Line2D([], [], color=OTHER_COLOR, marker="o", label=other_label(colors)))
    legend_above(ax, handles, ncols=min(len(handles), 6))
    return ax


def _drawn(daily: pd.DataFrame, target: Any) -> tuple[list[tuple[str, pd.DataFrame]],
                                                      list[str]]:
    """The series of :func:`plot_daily_success` to draw, and the names of those left out: too
    few events under ``target`` (:func:`~budgetlab.analyses.history.daily_spread`'s rule; none
    without one)."""
    groups = _series(daily, _KNOWN_DAILY)
    if target is None or not {"total", "good", "full_day"} <= set(daily.columns) or not len(daily):
        return groups, []
    spread = daily_spread(daily, target=target)
    names = [n for n, _ in _series(spread.drop(columns=["note"]), _KNOWN_SPREAD)]
    thin = {n for n, note in zip(names, spread["note"].tolist(), strict=True) if note}
    return [(n, d) for n, d in groups if n not in thin], [n for n, _ in groups if n in thin]


def plot_hourly_profile(profile: pd.DataFrame, *, ax: Axes | None = None) -> Axes:
    """Failure rates by local hour of day: one bucket's (solid) against all others (dashed).

    Parameters
    ----------
    profile : DataFrame
        Output of :func:`budgetlab.analyses.history.hourly_profile`.
    ax : Axes, optional
        Where to draw (default ``plt.gca()``).

    Returns
    -------
    Axes
        Two lines per group over the hours 0-23: gid ``bucket:<group>`` (y = ``bucket_rate`` ×
        100) and ``other:<group>`` (y = ``other_rate`` × 100), ``<group>`` ``"all"`` without
        groups; NaN (a break in the line, nothing drawn across it) at hours without any attempt
        and at hours with fewer than
        :data:`~budgetlab.analyses.hour_rates.MIN_HOUR_ATTEMPTS` attempts (``total``), whose
        rates a table withholds: their points are hollow markers apart, lines of gid
        ``thin_bucket:<group>`` and ``thin_other:<group>``, and the legend names the rule. An hour
        without an attempt in any group is shaded grey (``Rectangle`` of gid ``no_attempts``),
        one legend entry "grey: no attempts at that hour"
        (:func:`~budgetlab.analyses.hour_rates.silent_hours`; its table,
        :func:`~budgetlab.analyses.hour_rates.hour_rate_table`, says ``no attempts`` there). With
        more groups than distinct colours, those with the most events keep theirs and the others
        are drawn in grey under one legend entry per line style, ``other (N groups)``.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> p = pd.DataFrame({"hour": [3, 14], "total": [30, 1], "bucket_failures": [10, 1],
    ...     "other_failures": [10, 0],
    ...     "bucket_rate": [1 / 3, 1.0], "other_rate": [1 / 3, 0.0]})
    >>> ax = plot_hourly_profile(p)
    >>> [line.get_gid() for line in ax.lines]
    ['bucket:all', 'thin_bucket:all', 'other:all', 'thin_other:all']
    >>> plt.close("all")
    """
    require_columns(profile, ["hour", "total", "bucket_rate", "other_rate"], what="profile")
    ax = plt.gca() if ax is None else ax
    bucket = str(profile.attrs.get("bucket", "bucket"))
    groups = _series(profile, _KNOWN_HOURLY)
    colors = _colors(groups)
    handles: list[Any] = []
    hours = np.arange(24)
    any_thin = False
    for name, d in groups:
        color, z = (colors[name], 2.0) if colors[name] is not None else (OTHER_COLOR, 1.5)
        by_hour = d.set_index("hour").reindex(hours)  # NaN where the hour holds no attempt
        thin = (by_hour["total"] < MIN_HOUR_ATTEMPTS).to_numpy()  # NaN (no attempt): not thin
        any_thin = any_thin or bool(thin.any())
        drawn = []
        for kind, column, what, style in (("bucket", "bucket_rate", bucket, {"lw": 2}),
                                          ("other", "other_rate", "other failures",
                                           {"lw": 1.2, "ls": "--"})):
            y = 100 * by_hour[column].to_numpy(dtype=float)
            # a thin hour breaks the line (as the table withholds its rate): no solid stretch
            # reads a share of a few attempts as a trend; its point is hollow, apart
            drawn += ax.plot(hours, np.where(thin, np.nan, y), color=color, marker="o", ms=3,
                             label=f"{name}: {what}", gid=f"{kind}:{name}", zorder=z, **style)
            ax.plot(hours[thin], y[thin], ls="none", marker="o", ms=4, mfc="white", mec=color,
                    gid=f"thin_{kind}:{name}", zorder=z)
        if colors[name] is not None:
            handles += drawn
    if other_label(colors):
        handles += [Line2D([], [], color=OTHER_COLOR, lw=2, marker="o", ms=3,
                           label=f"{other_label(colors)}: {bucket}"),
                    Line2D([], [], color=OTHER_COLOR, lw=1.2, ls="--", marker="o", ms=3,
                           label=f"{other_label(colors)}: other failures")]
    # no group had an attempt then: no share to draw (the table: too few), the hour said grey
    spans = [ax.axvspan(h - 0.5, h + 0.5, color="0.85", zorder=0, lw=0, gid="no_attempts")
             for h in silent_hours(profile)]
    if spans:
        spans[0].set_label("grey: no attempts at that hour")
        handles.append(spans[0])
    if any_thin:
        handles.append(Line2D([], [], ls="none", marker="o", ms=4, mfc="white", mec="0.3",
                              label=f"hollow: under {MIN_HOUR_ATTEMPTS} attempts at that hour"))
    ax.set_xticks(range(0, 24, 2))
    ax.set_xlim(-0.5, 23.5)
    ax.set_xlabel("local hour of day")
    ax.set_ylabel("share of attempts (%)")
    plain_numbers(ax.yaxis)
    ax.grid(alpha=0.3)
    legend_above(ax, handles, ncols=4)
    return ax
