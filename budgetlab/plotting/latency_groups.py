"""The groups of :func:`~budgetlab.plotting.plot_latency_shares` at scale: which are left out as
too thin (:func:`thin_groups`, named in a note under the x label), and how the others are drawn
(:func:`draw_share_lines`): each coloured group a line a threshold, on top of the grey rest,
drawn together, one line a threshold under them (gid ``within 1 s/others``), as the
recalibration and window comparison figures draw theirs. 3,194 grey sitekeys drew 6,388 lines,
one over the other and over the six coloured groups: a solid grey block."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from .._util.words import given_duration, say
from ..analyses.hour_rates import MIN_HOUR_ATTEMPTS
from ._common import OTHER_COLOR, group_colors, other_label
from ._group_labels import other_gid
from .recalibration_others import OTHER_Z

__all__ = ["MAX_MARKERS", "MIN_PERIOD_ATTEMPTS", "NAMED_Z", "THIN_BREAKS", "THIN_WHY",
           "draw_share_lines", "sparse_markers", "sparse_words", "thin_words", "without_thin"]

#: Fewest attempts a period of a group holds for its share to be drawn: under it the share moves
#: by more than 5 points with one attempt more or less (one attempt a day: a point at 0 % or
#: 100 %). The rule of the hourly profile's solid points
#: (:data:`~budgetlab.analyses.hour_rates.MIN_HOUR_ATTEMPTS`).
MIN_PERIOD_ATTEMPTS = MIN_HOUR_ATTEMPTS
#: The coloured groups' zorder: above the grey rest's
#: (:data:`~budgetlab.plotting.recalibration_others.OTHER_Z`).
NAMED_Z = 2.0
#: Why the note under the x label leaves shares out.
THIN_WHY = (f"shares of under {MIN_PERIOD_ATTEMPTS} attempts in a period, too thin: one attempt "
            "moves them by 5 points or more")
#: The legend title's words (a line of it) when a line breaks where shares were left out as too
#: thin (or at periods without attempts).
THIN_BREAKS = "a break in a line: periods without attempts, or too few to draw (no share drawn)"


def without_thin(parts: Sequence[pd.DataFrame], names: Sequence[str]
                 ) -> tuple[list[pd.DataFrame], list[str], list[str], bool]:
    """``parts`` (one table a group and threshold, named by ``names``) without the rows of
    fewer than :data:`MIN_PERIOD_ATTEMPTS` attempts: the parts left (a group's parts all empty
    are dropped), their names, the groups with no share left (in their order) and whether any
    row was dropped. Tables without an ``attempts`` column are kept whole.

    >>> a = pd.DataFrame({"attempts": [19, 3]})
    >>> kept, names, gone, thinned = without_thin([a, a.assign(attempts=[20, 1])], ["x", "y"])
    >>> [k["attempts"].tolist() for k in kept], names, gone, thinned
    ([[20]], ['y'], ['x'], True)
    """
    kept, kept_names, gone, thinned = [], [], [], False
    for name, part in zip(names, parts, strict=True):
        rows = part[part["attempts"] >= MIN_PERIOD_ATTEMPTS] if "attempts" in part else part
        thinned = thinned or len(rows) < len(part)
        if len(rows):
            kept.append(rows)
            kept_names.append(name)
        elif name not in gone:
            gone.append(name)
    gone = [name for name in gone if name not in kept_names]
    return kept, kept_names, gone, thinned


def thin_words(gone: Sequence[str], *, nothing_left: bool = False) -> str:
    """Why the note under the x label leaves shares out (:data:`THIN_WHY`), and when some groups
    are left out whole (``gone``, which the note names), that it names them; when no share is
    left to draw (``nothing_left``), how to draw some: longer periods, more attempts each.

    >>> thin_words([]) == THIN_WHY, thin_words(["a"]).endswith("; every share of these groups")
    (True, True)
    >>> thin_words(["a"], nothing_left=True).endswith("pool more attempts a share")
    True
    """
    longer = say("longer periods, latency_profile(freq=...),", "a longer --freq,")
    return (THIN_WHY + ("; every share of these groups" if gone else "")
            + (f"; {longer} would pool more attempts a share" if nothing_left else ""))


def draw_share_lines(ax: Axes, parts: Sequence[pd.DataFrame], names: Sequence[str],
                     xy: Sequence[tuple[Any, np.ndarray]],
                     styles: dict[pd.Timedelta, tuple[str, str]], *,
                     grouped: bool) -> tuple[list[Any], list[str]]:
    """Draw ``parts`` (one table a group and threshold, named by ``names``, its points ``xy``):
    each group the colour :func:`~budgetlab.plotting._common.group_colors` gives it, weighed by
    its attempts (those of its first part: every threshold counts them all); each threshold its
    line style and marker (``styles``). A coloured group's line a threshold (gid
    ``within 1 s:<group>``, labelled ``<group> within 1 s``, only ``within 1 s`` when not
    ``grouped``; zorder :data:`NAMED_Z`), then the grey groups' one line a threshold (gid
    ``within 1 s/others``, labelled ``other (N groups) within 1 s``, zorder
    :data:`~budgetlab.plotting.recalibration_others.OTHER_Z`: under the coloured ones), each
    group's points apart from the next's (a NaN point between: no line joins two groups). A lone
    point is its marker (a line through one point draws nothing). Returns the lines, in that
    order, and their colours."""
    first: dict[str, pd.DataFrame] = {}
    for name, part in zip(names, parts, strict=True):
        first.setdefault(name, part)
    colors = group_colors(list(first), [float(part["attempts"].sum()) for part in first.values()]
                          if parts and "attempts" in parts[0].columns else None)
    lines: list[Any] = []
    shades: list[str] = []
    grey: dict[pd.Timedelta, list[int]] = {}
    for k, (name, part) in enumerate(zip(names, parts, strict=True)):
        threshold = part["threshold"].iloc[0]
        color = colors[name]
        if color is None:
            grey.setdefault(threshold, []).append(k)
            continue
        within = f"within {given_duration(threshold)}"
        linestyle, marker = styles[threshold]
        lines += ax.plot(*xy[k], marker=marker, markeredgewidth=0, color=color,
                         label=f"{name} {within}" if grouped else within, gid=f"{within}:{name}",
                         linestyle=linestyle if len(part) > 1 else "none", zorder=NAMED_Z)
        shades.append(color)
    for threshold in sorted(grey):
        within = f"within {given_duration(threshold)}"
        linestyle, marker = styles[threshold]
        rows = grey[threshold]
        lines += ax.plot(*_apart([xy[k] for k in rows]), marker=marker, markeredgewidth=0,
                         color=OTHER_COLOR, zorder=OTHER_Z,
                         label=f"{other_label(colors)} {within}", gid=other_gid(within),
                         linestyle=linestyle if any(len(parts[k]) > 1 for k in rows)
                         else "none")
        shades.append(OTHER_COLOR)
    return lines, shades


#: The most markers a line of :func:`~budgetlab.plotting.plot_latency_shares` shows: one on each
#: of more points (three weeks of hourly periods: 504) paves the plot area, the lines and their
#: styles lost under the markers.
MAX_MARKERS = 16


def sparse_markers(lines: Sequence[Any]) -> int:
    """Thin the markers of ``lines`` when one has more than :data:`MAX_MARKERS` points: a marker
    every ``step``-th point (the fewest that leaves at most that many on the longest line), each
    line from its own offset (``k * step // len(lines)``), so that the markers of lines that meet
    lie side by side, not one on the other. Returns ``step``, 0 when every marker is drawn.

    >>> import matplotlib.pyplot as plt
    >>> ax = plt.figure().gca()
    >>> lines = ax.plot(range(100), marker="o") + ax.plot(range(100), marker="s")
    >>> sparse_markers(lines), [line.get_markevery() for line in lines]
    (7, [(0, 7), (3, 7)])
    >>> plt.close("all")
    """
    most = max((len(line.get_xdata()) for line in lines), default=0)
    if most <= MAX_MARKERS:
        return 0
    step = -(-most // MAX_MARKERS)
    for k, line in enumerate(lines):
        line.set_markevery((k * step // len(lines), step))
    return step


def sparse_words(step: int) -> str:
    """The legend title's words for :func:`sparse_markers`' ``step``.

    >>> sparse_words(32)
    "a line's marker every 32 periods, each line's from its own"
    """
    return f"a line's marker every {step} periods, each line's from its own"


def _apart(xy: Sequence[tuple[pd.DatetimeIndex, np.ndarray]]
           ) -> tuple[pd.DatetimeIndex, np.ndarray]:
    """Several lines' points as one line's, each line's points followed by a NaN point at its
    last x: a break, so that no segment joins the end of one to the start of the next.

    >>> x = pd.to_datetime(["2026-01-01", "2026-01-02"], utc=True)
    >>> jx, jy = _apart([(x, np.array([1.0, 2.0])), (x[:1], np.array([3.0]))])
    >>> [f"{t:%d}" for t in jx], jy.tolist()
    (['01', '02', '02', '01', '01'], [1.0, 2.0, nan, 3.0, nan])
    """
    ns = np.concatenate([np.append(x.as_unit("ns").asi8, x.as_unit("ns").asi8[-1:])
                         for x, _ in xy])
    y = np.concatenate([np.append(np.asarray(v, dtype=float), np.nan) for _, v in xy])
    tz = xy[0][0].tz
    x = pd.DatetimeIndex(ns.astype("M8[ns]"))
    return (x.tz_localize("UTC").tz_convert(tz) if tz is not None else x), y
