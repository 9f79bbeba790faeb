"""The recommended targets' vertical lines in :func:`~budgetlab.plotting.plot_recalibration`:
those the evidence capped keyed one by one, and those several groups share (the current
targets' too) striped in the groups' colours and keyed once with every group they stand for."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.lines import Line2D

from .._util.percent import given_percent
from .._util.words import counted, some_named
from ._common import OTHER_COLOR
from ._group_labels import MOST_NAMED

__all__ = ["STRIPE_POINTS", "capped_handles", "stripe_shared"]

#: The length (points) of one group's stripe on a line several groups share: each group's line
#: is drawn ``STRIPE_POINTS`` on, then off while the others' stripes are drawn.
STRIPE_POINTS = 6.0


def capped_handles(summary: pd.DataFrame, labels: np.ndarray, capped: np.ndarray,
                   colors: dict[str, str | None], *, named: bool) -> list[Any]:
    """The legend entries of the recommendations the evidence capped (the rule alone gives more
    than the group's events can judge): one per coloured group, with the target and the events;
    one for the grey groups together."""
    from ..analyses.recalibration.rules import capped_words  # the sentences' words

    out: list[Any] = []
    grey = 0
    for i in np.flatnonzero(capped).tolist():
        color = colors[str(labels[i])]
        if color is None:
            grey += 1
            continue
        row = summary.iloc[i]
        out.append(Line2D([], [], color=color, lw=1.2, label=(
            f"{labels[i]}: " if named else "") + "recommended "
            f"{given_percent(float(row['recommended_target']), space=False)} "
            f"({capped_words(int(row['events']))})"))
    if grey:
        out.append(Line2D([], [], color=OTHER_COLOR, lw=1.2, label=(
            f"recommended, capped by the events: {counted(grey, 'grey group')}")))
    return out


def stripe_shared(ax: Axes, kind: str = "recommended", *, keyed: bool = True) -> list[Any]:
    """Stripe the coloured groups' ``kind`` lines (gids ``<kind>:<g>``: ``recommended``, or
    ``current``) that share a target: drawn one over the other, only the last group's colour
    showed, one line in one colour for several groups. Each of the ``n`` lines keeps its artist
    and gid, dashed :data:`STRIPE_POINTS` on and ``(n - 1)`` times that off, offset by its place,
    so that the line shows every group's colour in turn; a ``current`` line, dashed, keeps a gap
    of half a stripe after each. Returns one legend entry per shared target, naming its groups
    (the first :data:`~budgetlab.plotting._group_labels.MOST_NAMED`, then how many more); none
    unless ``keyed``."""
    by_x: dict[float, list[Line2D]] = {}
    for line in ax.lines:
        gid = str(line.get_gid() or "")
        if gid.startswith(f"{kind}:"):
            x = float(np.asarray(line.get_xdata(), dtype=float)[0])
            by_x.setdefault(x, []).append(line)
    gap = STRIPE_POINTS / 2 if kind == "current" else 0.0  # dashed: a gap after each stripe
    handles: list[Any] = []
    for x, lines in sorted(by_x.items()):
        if len(lines) < 2:
            continue
        n = len(lines)
        for k, line in enumerate(lines):
            # dashes in points, scaled by the line width: divide it out
            lw = float(line.get_linewidth()) or 1.0
            line.set_linestyle((k * (STRIPE_POINTS + gap) / lw,
                                (STRIPE_POINTS / lw, (n * (STRIPE_POINTS + gap) - STRIPE_POINTS)
                                 / lw)))
        if not keyed:
            continue
        names = [str(line.get_gid()).split(":", 1)[1] for line in lines]
        handles.append(Line2D([], [], color="grey", lw=1.2, ls=(0, (2, 2)), label=(
            f"{kind} {given_percent(x / 100, space=False)}, one line striped in the "
            f"colours of {counted(n, 'group')}: {some_named(names, MOST_NAMED)}")))
    return handles
