"""The grey "other" groups of :func:`~budgetlab.plotting.plot_recalibration`, drawn together: one
artist per kind of mark for all of them (a :class:`~matplotlib.collections.LineCollection` of
their step lines, one line of their candidates' dots, ...), not one per group. Thousands of
sitekeys drew thousands of artists each (27 s); one collection draws the same curves at the cost
of one artist."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.collections import LineCollection

from ._common import OTHER_COLOR
from ._group_labels import other_gid

__all__ = ["draw_other_groups", "known_curve", "rows_by_label", "steps_post"]

#: Their zorder: under the coloured groups' (2).
OTHER_Z = 1.5


def rows_by_label(labels: np.ndarray) -> dict[Any, np.ndarray]:
    """The rows of each label, in order: one pass over a table (a comparison per group was
    one pass per group: 1,381 passes over 321,405 rows).

    >>> {k: v.tolist() for k, v in rows_by_label(np.array(["b", "a", "b"])).items()}
    {'b': [0, 2], 'a': [1]}
    """
    codes, uniques = pd.factorize(np.asarray(labels, dtype=object), use_na_sentinel=False)
    order = np.argsort(codes, kind="stable")
    bounds = np.searchsorted(codes[order], np.arange(len(uniques) + 1))
    return {uniques[k]: order[bounds[k]:bounds[k + 1]] for k in range(len(uniques))}


def steps_post(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The vertices matplotlib's ``drawstyle="steps-post"`` draws through ``(x, y)``: each
    ``y`` held until the next ``x``.

    >>> steps_post(np.array([1.0, 2.0, 4.0]), np.array([5.0, 6.0, 7.0])).tolist()
    [[1.0, 5.0], [2.0, 5.0], [2.0, 6.0], [4.0, 6.0], [4.0, 7.0]]
    """
    return np.column_stack([np.repeat(x, 2)[1:], np.repeat(y, 2)[:-1]])


def known_curve(levels_x: np.ndarray, levels_y: np.ndarray, cand_x: np.ndarray,
                cand_y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The curve :func:`~budgetlab.plotting.plot_recalibration` draws (steps-post vertices): the
    most the two tables say of the share of time at the limit status or worse under each target.
    ``levels_x``, ``levels_y``: the distribution's targets and levels (from ``levels_x[i]`` up
    the share is at least ``levels_y[i]``); ``cand_x``, ``cand_y``: the candidates' targets and
    their exact shares. Sorted by target (a tie by share, so that a candidate exactly at a
    level's target sits on its riser), each point held up to the largest share known at or left
    of it: the share never falls as the target rises. Drawn from the levels alone the line stayed
    at the lower level up to the next one, under the candidates' own dots (2 % under dots at
    2.4 % on a real access log).

    >>> x, y = known_curve(np.array([1.0, 3.0, 5.0]), np.array([10.0, 30.0, 50.0]),
    ...                    np.array([2.0, 3.0, 4.0]), np.array([20.0, 40.0, 40.0]))
    >>> x.tolist(), y.tolist()  # the level at 3.0 (30) on the candidate's riser up to 40
    ([1.0, 2.0, 3.0, 3.0, 4.0, 5.0], [10.0, 20.0, 30.0, 40.0, 40.0, 50.0])
    """
    x = np.concatenate([levels_x, cand_x]).astype(np.float64)
    y = np.concatenate([levels_y, cand_y]).astype(np.float64)
    keep = np.isfinite(x) & np.isfinite(y)
    x, y = x[keep], y[keep]
    order = np.lexsort((y, x))
    return x[order], np.maximum.accumulate(y[order]) if len(y) else y[order]


def draw_other_groups(ax: Axes, curves: list[np.ndarray], targets: np.ndarray,
                      shares: np.ndarray, rows: pd.DataFrame, *,
                      floor: float | None) -> None:
    """Every grey group's marks, one artist per kind (gids ``<kind>/others``,
    :func:`~budgetlab.plotting._group_labels.other_gid`): ``curves`` (each group's step line,
    :func:`steps_post` vertices in percent), the candidates (``targets`` and ``shares``,
    fractions), their ``recommended_target`` and ``current_target`` (``rows``, one per group) as
    vertical lines; ``floor`` as in ``_draw_recalibration_group``."""
    ax.add_collection(LineCollection(curves, colors=OTHER_COLOR, lw=1.0, zorder=OTHER_Z,
                                     gid=other_gid("distribution")))
    below = ((shares > 0) & (shares < floor / 100) if floor is not None
             else np.zeros(len(shares), dtype=bool))
    ax.plot(targets[~below] * 100, shares[~below] * 100, ls="none", marker="o", ms=3,
            color=OTHER_COLOR, alpha=0.6, gid=other_gid("candidates"), zorder=OTHER_Z)
    if below.any() and floor is not None:
        ax.plot(targets[below] * 100, np.full(int(below.sum()), floor), ls="none", marker="v",
                ms=4, color=OTHER_COLOR, alpha=0.6, clip_on=False,
                gid=other_gid("below_floor"), zorder=OTHER_Z)
    for kind, column, style in (("recommended", "recommended_target", "-"),
                                ("current", "current_target", "--")):
        x = rows[column].to_numpy(dtype=float) * 100
        x = x[np.isfinite(x)]
        if not len(x):
            continue
        ax.add_collection(LineCollection([[(v, 0.0), (v, 1.0)] for v in x.tolist()],
                                         colors=OTHER_COLOR, lw=1.0, linestyles=style,
                                         transform=ax.get_xaxis_transform(), zorder=OTHER_Z,
                                         gid=other_gid(kind)), autolim=False)
        ax.update_datalim(np.column_stack([x, np.ones(len(x))]), updatey=False)
        if kind == "current":  # a triangle on the top edge, as each coloured group's
            ax.plot(x, np.ones(len(x)), ls="none", marker="v", ms=7, color=OTHER_COLOR,
                    clip_on=False, transform=ax.get_xaxis_transform(), zorder=OTHER_Z,
                    gid=other_gid("current_top"))
    ax.autoscale_view()
