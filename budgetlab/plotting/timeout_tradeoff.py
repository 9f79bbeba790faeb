"""The client-timeout trade-off drawn: per candidate timeout, the successes lost against the
waiting saved, points per group (the candidates measured, never joined by a line)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.ticker import FixedLocator, MaxNLocator

from .._util.durations import duration_scale
from .._util.units import SECOND_NS
from .._util.validation import check_tz
from .._util.words import given_duration
from ..errors import InputError
from ._common import OTHER_COLOR, group_colors, other_label
from ._numbers import plain_numbers
from .latency import group_label, nested_sizes, points_meet, table_keys
from .latency_label import span_counted
from .legends import legend_above

__all__ = ["plot_timeout_tradeoff", "POINTS_MEET", "POINT_GROW"]

#: The legend title's words where points of :func:`plot_timeout_tradeoff` meet.
POINTS_MEET = "where points meet, their markers nest: the first listed outermost"
#: How much larger (points) the dots of :func:`plot_timeout_tradeoff` are than nested line
#: markers: drawn without a line, each dot carries the figure alone.
POINT_GROW = 2.0


def plot_timeout_tradeoff(tradeoff: pd.DataFrame, *, ax: Axes | None = None,
                          tz: str | None = None) -> Axes:
    """Per candidate client timeout: successes lost (percent of attempts, left axis) against the
    waiting saved per attempt (right axis, in the unit the CLI says it in, the largest value's,
    :func:`~budgetlab._util.durations.duration_scale`: ms when all are under a second; drawn in
    the lower half so that it never lies over the successes lost; ticked from 0 up to the first
    tick at or above its largest value, none beyond), a set of points per group, in the sorted
    order of their names: ``timeout_tradeoff(...)``.
    Only the candidates were measured, so they are points, never joined by a line (a line, even
    a faint one, would show values between candidates that nobody measured); each candidate is
    a tick of the x axis, named as given (:func:`~budgetlab._util.words.given_duration`).
    The legend sits above the plot area (it covers no point). Where points meet, on one axis or
    across the two (zero sits at one height on both, and at the current timeout every group,
    a lone one too, loses nothing and saves nothing), the dots nest as
    :func:`~budgetlab.plotting.plot_latency_shares`' do, the successes lost first, then the
    waiting saved, each square with a thin white rim (on its group's dot, of the same colour, it
    would not show). The x label states the span counted (``attrs["start"]`` .. ``attrs["end"]``,
    on the clock of ``tz``, default UTC, named), as :func:`~budgetlab.plotting.plot_latency_shares`'
    does. The successes lost are drawn
    in percent of the attempts (``successes_lost_share`` × 100), as the CLI prints them; each
    group has the colour
    :func:`~budgetlab.plotting._common.group_colors` gives its name in every figure (more groups
    than colours: those with the most attempts keep theirs, the others are grey under one
    legend entry, ``other (N groups)``).

    >>> from budgetlab.analyses.timeout_tradeoff import timeout_tradeoff
    >>> ev = pd.DataFrame({"ts": pd.to_datetime(["2026-01-01"] * 3, utc=True).as_unit("ns"),
    ...     "ok": [True, True, False], "bucket": pd.Categorical(["success", "success", "timeout"]),
    ...     "duration": pd.to_timedelta([2, 8, 30], unit="s")})
    >>> ax = plot_timeout_tradeoff(timeout_tradeoff(ev, timeouts=["5s", "30s"]),
    ...                            ax=plt.figure().gca())
    >>> ax.lines[0].get_ydata().round(2).tolist(), ax.lines[0].get_linestyle()
    ([33.33, 0.0], 'None')
    >>> [t.get_text() for t in ax.get_xticklabels()]
    ['5 s', '30 s']
    >>> ax.figure.axes[1].get_ylabel()  # (3 + 25) / 3 = 9.33 s saved per attempt at 5 s
    'waiting saved per attempt (s)'
    >>> print(ax.get_xlabel())
    client timeout (the candidates measured); attempts 2026-01-01 00:00 .. 2026-01-01 00:00 UTC
    >>> ax = plot_timeout_tradeoff(timeout_tradeoff(ev, timeouts=["5s", "30s"]),
    ...                            ax=plt.figure().gca(), tz="Europe/Berlin")
    >>> print(ax.get_xlabel().split("; ")[1])
    attempts 2026-01-01 01:00 +01:00 .. 2026-01-01 01:00 +01:00 Europe/Berlin
    >>> plt.close("all")
    """
    known = ("client_timeout", "current", "attempts", "timed_out", "successes_lost",
             "timed_out_share",
             "successes_lost_share", "wait_saved", "wait_saved_per_attempt", "availability",
             "latency_sli")
    if "successes_lost_share" not in tradeoff.columns:
        raise InputError("plot_timeout_tradeoff draws the table of timeout_tradeoff(...).")
    tz = check_tz(tz)  # before anything is drawn
    ax = plt.gca() if ax is None else ax
    right = ax.twinx()
    # the waiting saved in the unit the CLI says it in: its largest value's (ms under a second)
    size, unit = duration_scale(tradeoff["wait_saved_per_attempt"].max())
    saved_in_unit = tradeoff["wait_saved_per_attempt"].dt.total_seconds() * (SECOND_NS / size)
    keys = table_keys(tradeoff, known)
    parts = [part for _, part in (tradeoff.groupby(keys, sort=True, observed=True) if keys
                                  else [((), tradeoff)])]
    # in the sorted order of their names, the command's (a categorical key's groupby keeps the
    # order of its categories: a log's first appearance)
    parts.sort(key=lambda part: group_label(part.iloc[0], keys))
    names = [group_label(part.iloc[0], keys) or "all attempts" for part in parts]
    # the one rule of every figure that draws groups: colours by the groups' sorted names
    colors = group_colors(names, [float(part["attempts"].max()) for part in parts]
                          if "attempts" in tradeoff.columns else None)
    grey = [n for n in names if colors[n] is None]
    lost, saved = [], []
    for name, part in zip(names, parts, strict=True):
        x = part["client_timeout"].dt.total_seconds().to_numpy()
        # the grey groups under one legend entry (the first one's), as every figure keys them
        key = name if colors[name] else other_label(colors) if name == grey[0] else "_nolegend_"
        # points only: the candidates were measured, nothing between them
        lost += ax.plot(x, part["successes_lost_share"].to_numpy() * 100, marker="o",
                        linestyle="none", color=colors[name] or OTHER_COLOR, markeredgewidth=0,
                        label=f"{key}: successes lost")
        saved += right.plot(x, saved_in_unit[part.index].to_numpy(),
                            marker="s", linestyle="none", color=colors[name] or OTHER_COLOR,
                            markeredgewidth=0, label=f"{key}: waiting saved")
    lost_in_percent = tradeoff["successes_lost_share"].astype(float) * 100
    _apart(ax, lost_in_percent, right, saved_in_unit)
    # nested dots where points meet, on one axis or across the two (zero sits at one height on
    # both): at the current timeout every group loses and saves nothing, one group too
    x = tradeoff["client_timeout"]
    meet = points_meet(pd.concat([x, x]), pd.concat([_height(ax, lost_in_percent),
                                                     _height(right, saved_in_unit)]), span=1.0)
    for line, ms in zip([*lost, *saved], nested_sizes(2 * len(parts), meet), strict=True):
        line.set_markersize(ms + POINT_GROW)
    if meet:  # a square on its group's dot is of its colour: a white rim shows where it lies
        for line in saved:
            line.set(markeredgecolor="white", markeredgewidth=0.8)
    candidates = np.unique(tradeoff["client_timeout"].dropna().to_numpy())
    ax.set_xticks(pd.to_timedelta(candidates).total_seconds(),
                  [given_duration(t) for t in candidates])
    ax.set_xlabel("client timeout (the candidates measured)"
                  + span_counted(tradeoff, tz, zone=True))
    ax.set_ylabel("successes lost (% of attempts; no retries)")
    right.set_ylabel(f"waiting saved per attempt ({unit})")
    plain_numbers(ax.yaxis, right.yaxis)  # the values themselves: no offset, no power apart
    # above the plot area, so it covers no point: the successes lost in one column, the
    # waiting saved in the other
    legend_above(ax, ax.get_legend_handles_labels()[0] + right.get_legend_handles_labels()[0],
                 ncols=2, title=POINTS_MEET if meet else None)
    return ax


def _height(axis: Axes, values: pd.Series) -> pd.Series:
    """``values`` as heights in ``axis``' plot area: 0 at its bottom, 1 at its top."""
    low, high = axis.get_ylim()
    return (values.astype(float) - low) / (high - low)


def _apart(left: Axes, lost: pd.Series, right: Axes, saved: pd.Series) -> None:
    """Zero at one height on both axes (a margin of 5 % below it, so dots at 0 are whole), the
    waiting saved in the lower half: two timeouts give each group a line from its largest value
    down to 0 on either axis, and each scaled to its own top drew the waiting saved exactly over
    the successes lost (one line seen where there were two). The right axis is ticked from 0 up to
    the first tick at or above its largest value (a point at 1.12 s under a last tick of 1 s read
    as off the scale), no further: the upper half holds none. Both quantities cannot be negative:
    an axis whose values are all 0 runs from the same margin below 0 up to 1 (its unit), never
    ticked below 0 (matplotlib's own limits around a lone 0 read -0.04)."""
    for axis, values, room in ((left, lost, 1.05), (right, saved, 2.1)):
        top = float(values.max()) if len(values) else 0.0
        if np.isfinite(top) and float(values.min() if len(values) else 0.0) >= 0:
            top = top if top > 0 else 1.0  # every value 0: a scale of one unit above it
            axis.set_ylim(-0.05 * top * room, top * room)
            if axis is right:  # matplotlib's ticks over 0 .. top: the last at or above top
                ticks = np.asarray(MaxNLocator(nbins=6, steps=[1, 2, 2.5, 5, 10])
                                   .tick_values(0.0, top))
                last = int(np.searchsorted(ticks, top * (1 - 1e-9)))  # the first >= top
                axis.yaxis.set_major_locator(FixedLocator(ticks[:last + 1].tolist()))

