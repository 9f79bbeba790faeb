"""The marks of :func:`~budgetlab.plotting.plot_window_comparison`: one line of marks (no joining
line) per coloured series and panel, and the grey "other" series together, one line of marks per
panel (gid ``<column>/others``, never a series' ``<column>:<series>``), not one per series: 3,061
sitekeys drew 6,122 artists, most of the figure's 14 s; one line draws the same marks at the
cost of one artist."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from matplotlib.lines import Line2D

from .._util.evidence import LESS_EVIDENCE, evidence_weights
from .._util.words import counted, some_named
from ._common import OTHER_COLOR, group_colors, other_label
from ._group_labels import other_gid

__all__ = ["DWELL_SERIES", "MARKERS", "NO_ROW", "draw_series", "nothing_drawn", "series_codes"]

#: What joins a group and its dwell time in a series' name (``GET · dwell 1 h``) when the table
#: compares several dwell times: one group is then several series.
DWELL_SERIES = " · dwell "

#: The legend's words when a series has no mark at a window for want of a row (a table filtered
#: by hand; :func:`budgetlab.compare_windows` gives every series a row per window).
NO_ROW = "no mark: no row for that window"

#: Marker shapes of the series and their sizes (times the panel's), cycled like their colours:
#: where two series share a value, their hollow shapes stay in sight one around the other (a small
#: square inside a large circle), never one hiding the other.
MARKERS = (("o", 1.4), ("s", 0.8), ("^", 1.4), ("D", 0.8), ("v", 1.4), ("X", 0.8), ("P", 1.4),
           ("*", 0.8))


def series_codes(series: np.ndarray, panels: list[Any]) -> tuple[np.ndarray, np.ndarray,
                                                                  np.ndarray]:
    """Each row's series code, the series' names (in the order of their first rows) and whether
    any panel ``(axes, column, values, ...)`` draws a value of each: one pass over the rows.

    >>> v = np.array([1.0, np.nan, np.nan, 2.0])
    >>> codes, names, drawn = series_codes(np.array(["b", "a", "a", "b"]), [(None, "y", v)])
    >>> codes.tolist(), names.tolist(), drawn.tolist()
    ([0, 1, 1, 0], ['b', 'a'], [True, False])
    """
    codes, names = pd.factorize(np.asarray(series, dtype=object), use_na_sentinel=False)
    finite = np.zeros(len(codes), dtype=bool)
    for _, _, vals, *_ in panels:
        finite |= np.isfinite(vals)
    drawn = np.bincount(codes[finite], minlength=len(names)) > 0
    return codes, np.asarray(names, dtype=object), drawn


def draw_series(table: pd.DataFrame, series: np.ndarray, x_all: np.ndarray,
                panels: list[Any], n_windows: int) -> list[Any]:
    """The marks (no joining line) on each panel ``(axes, column, values, marker size)`` and the
    legend handles (the top panel's coloured series, chosen by
    :func:`~budgetlab._util.evidence.most_evidence` on each series' most ``failures`` and
    ``events`` at a window, then ``other (N groups; fewer failures, then events)`` (``N
    groups, M series`` when a group is a series per dwell time: :func:`_grey_label`), then
    :data:`NO_ROW` when a series lacks a row at a window). Only the series with a value drawn
    take a colour and a legend entry (the others have no marks); each coloured one a line of
    its own (gid ``<column>:<series>``), its hollow marker shape (:data:`MARKERS`) and colour;
    the grey ones one line per panel (gid ``<column>/others``:
    :func:`~budgetlab.plotting._group_labels.other_gid`, which no series name gives),
    series after series in the order of their first rows, each in window order."""
    codes, names, drawn = series_codes(series, panels)
    evidence = []  # per series, its most failures and events of a window
    for col in ("failures", "events"):
        top = np.zeros(len(names))
        if col in table.columns:
            np.maximum.at(top, codes, np.nan_to_num(table[col].to_numpy(dtype=float), nan=0.0))
        evidence.append(top[drawn])
    colors = group_colors([str(n) for n in names[drawn]], evidence_weights(*evidence).tolist())
    grey_label = _grey_label(colors, pd.to_timedelta(table["min_dwell"]).nunique() > 1)
    # a window without a row of a series (a table filtered by hand): no mark there, said
    pairs = np.unique(codes * n_windows + x_all.astype(np.int64))
    broken = bool((np.bincount(pairs // n_windows, minlength=len(names)) < n_windows).any())
    order = np.lexsort((x_all, codes))  # series by series, each in window order
    handles: list[Any] = []
    shown = [k for k in range(len(names)) if colors.get(str(names[k])) is not None]
    is_grey = drawn.copy()
    is_grey[shown] = False
    grey = is_grey[codes[order]]
    for i, (p, col, vals, ms) in enumerate(panels):
        for j, k in enumerate(shown):
            rows = order[codes[order] == k]
            marker, size = MARKERS[j % len(MARKERS)]
            line, = p.plot(x_all[rows], vals[rows], ls="none", marker=marker, ms=ms * size,
                           mfc="none", mew=1.4, color=colors[str(names[k])],
                           label=str(names[k]), gid=f"{col}:{names[k]}", zorder=2.0)
            if i == 0:
                handles.append(line)
        if grey.any():
            p.plot(x_all[order[grey]], vals[order[grey]], ls="none", marker="o", ms=ms,
                   mfc="none", mew=1.4, color=OTHER_COLOR, label=grey_label,
                   gid=other_gid(col), zorder=1.5)
    if grey_label:
        handles.append(Line2D([], [], color=OTHER_COLOR, marker="o", mfc="none", ls="none",
                              label=grey_label))
    if broken:
        handles.append(Line2D([], [], ls="none", label=NO_ROW))
    return handles


def _grey_label(colors: dict[str, str | None], by_dwell: bool) -> str:
    """The legend's words of the grey series: ``other (N groups; ...)``, or, when each group is
    a series per dwell time (``by_dwell``), its groups and its series counted apart (``other (2
    groups, 4 series; ...)``: 4 series of 2 groups were said to be 4 groups).

    >>> _grey_label({"a · dwell 0": "#0072B2", "b · dwell 0": None, "b · dwell 1 h": None}, True)
    'other (1 group, 2 series; fewer failures, then events)'
    """
    grey = [name for name, c in colors.items() if c is None]
    if not by_dwell or not grey:
        return other_label(colors, LESS_EVIDENCE)
    groups = {name.rsplit(DWELL_SERIES, 1)[0] for name in grey}
    return (f"other ({counted(len(groups), 'group')}, {counted(len(grey), 'series', 'series')}; "
            f"{LESS_EVIDENCE})")


def nothing_drawn(series: np.ndarray, panels: list[Any], most: int = 4) -> list[Any]:
    """The legend's words on the series without a value to draw (every row withheld or empty),
    named (the first ``most``, then how many more): ``[]`` when every series has one."""
    _, names, drawn = series_codes(series, panels)
    if drawn.all():
        return []
    empty = [str(n) for n in names[~drawn]]
    return [Line2D([], [], ls="none", label=f"nothing to draw: {some_named(empty, most)}")]
