"""Which groups a command prints on the terminal: with more than ``--show-groups`` groups
(default :data:`~budgetlab.cli.options.SHOW_GROUPS`; 0: all), a table or a list of paragraphs
per group shows that many, chosen by a stated order (the most events first; ``replay``: the most
time exhausted), and one line says what was shown, how many more there are and which file holds
them all. Every command that cuts its table has a file output with every group's row (``--out``,
``replay --summary-out``, ``incident --tiers-out``).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._util.words import command_flag, counted
from ..errors import ConfigError
from .options import SHOW_GROUPS
from .reading import group_keys

__all__ = ["Shown", "shown_groups", "group_limit"]


@dataclass(frozen=True)
class Shown:
    """The rows to print (those of the chosen groups, the groups in the stated order, each
    group's rows in the table's order) and the line that says so (``None``: every group shown,
    the table as it was)."""

    rows: pd.DataFrame
    line: str | None


def group_limit(args: argparse.Namespace) -> int:
    """``--show-groups`` of the command line (:data:`SHOW_GROUPS` when not given), refused when
    given without ``--by`` (one group, all events: nothing to choose), before the work.

    >>> group_limit(argparse.Namespace(show_groups=None, by=None)), group_limit(
    ...     argparse.Namespace(show_groups=5, by="region"))
    (40, 5)
    """
    if args.show_groups is None:
        return SHOW_GROUPS
    if not group_keys(args):
        raise ConfigError("--show-groups chooses how many groups of --by the terminal shows; "
                          "without --by there is one group, all events: give --by KEY too, or "
                          "leave --show-groups out.")
    return int(args.show_groups)


def shown_groups(table: pd.DataFrame, by: Sequence[str], limit: int, *,
                 order: Sequence[str] = ("events",), most: str = "the most events first",
                 full: str = "--out FILE writes every group's row",
                 verb: str = "prints") -> Shown:
    """The rows of ``table`` (one or more per group of the ``by`` keys) the terminal shows: every
    row when there are at most ``limit`` groups (or ``limit`` 0, or no keys); else the ``limit``
    groups whose ``order`` columns are the largest (compared in turn; ties in the table's order),
    in that order, and a line naming the choice (``most``), how many more groups there are, where
    all are (``full``) and what ``--show-groups 0`` does (``verb``: ``draws`` for a plot's
    cut). A group of several rows (one per window, per bucket) counts the largest of its rows'
    figures: a group's events repeated on each of its rows are its events.

    >>> t = pd.DataFrame({"k": ["a", "b", "c", "b"], "events": [5, 1, 7, 6]})
    >>> s = shown_groups(t, ["k"], 2)
    >>> s.rows["k"].tolist(), s.rows["events"].tolist()
    (['c', 'b', 'b'], [7, 1, 6])
    >>> print(s.line)  # doctest: +NORMALIZE_WHITESPACE
    showing 2 of 3 groups (--by k), the most events first; 1 more group not shown: --out FILE
    writes every group's row
    >>> shown_groups(t, ["k"], 3).line is None, shown_groups(t, ["k"], 0).line is None
    (True, True)
    """
    if not by or limit == 0 or table.empty:
        return Shown(table, None)
    codes = table.groupby(list(by), sort=False, observed=True, dropna=False).ngroup().to_numpy()
    n = int(codes.max()) + 1
    if n <= limit:
        return Shown(table, None)
    totals = table[list(order)].groupby(codes).max()  # one row per group, in first-seen order
    # largest first, ties in the table's order (a stable sort of the negated figures)
    chosen = np.lexsort([*(-totals[c].to_numpy(dtype=float) for c in reversed(order))])[:limit]
    rank = np.full(n, -1)
    rank[totals.index.to_numpy()[chosen]] = np.arange(limit)
    row_rank = rank[codes]
    keep = np.flatnonzero(row_rank >= 0)
    rows = table.iloc[keep[np.argsort(row_rank[keep], kind="stable")]]
    flag = command_flag("show_groups")
    everything = f"; {flag} 0 {verb} them all" if flag else ""
    line = (f"showing {limit:,} of {n:,} groups (--by {','.join(by)}), {most}; "
            f"{counted(n - limit, 'more group')} not shown: {full}{everything}")
    return Shown(rows, line)
