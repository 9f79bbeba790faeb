"""Which groups ``budgetlab latency`` prints: with more groups of ``--by`` than ``--show-groups``
(default 40; 0: all), those with the most attempts, chosen once by the rule of every command
(:func:`~budgetlab.cli.shown_groups.shown_groups`) and applied alike to each block that speaks
per group (the profile, the client-timeout trade-off, the supported targets and the frontier),
with one line under the profile saying what was shown and where every group is. 3,200 sitekeys
printed 24,103 lines.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from .shown_groups import shown_groups

__all__ = ["FULL", "Chosen", "choose_groups"]

#: Where every group is when the terminal shows some: the ``--out`` table holds every group's
#: shares (the quantiles and the other blocks only ``--show-groups 0`` prints).
FULL = "--out FILE writes every group's shares per period"


class Chosen:
    """The groups the command prints (``None``: every group) and the line that says so."""

    def __init__(self, keys: list[tuple[str, ...]] | None, by: Sequence[str],
                 line: str | None) -> None:
        self.keys, self.by, self.line = keys, list(by), line

    @property
    def also(self) -> str:
        """The words a later block's header adds when some groups are not printed.

        >>> Chosen([("c",), ("b",)], ["k"], "...").also, Chosen(None, ["k"], None).also
        ('; the 2 groups shown above', '')
        """
        return "" if self.keys is None else f"; the {len(self.keys):,} groups shown above"

    def rows(self, table: pd.DataFrame) -> pd.DataFrame:
        """The rows of ``table`` (a table per group of the ``by`` keys: one row or more a group)
        of the chosen groups, the groups in the chosen order, each group's rows in the table's
        order; ``table`` itself when every group is printed.

        >>> t = pd.DataFrame({"k": ["a", "b", "c", "b"], "x": [1, 2, 3, 4]})
        >>> Chosen([("c",), ("b",)], ["k"], "...").rows(t)["x"].tolist()
        [3, 2, 4]
        """
        if self.keys is None:
            return table
        rank = {key: k for k, key in enumerate(self.keys)}
        order = np.array([rank.get(_key(row), -1) for row in
                          table[self.by].itertuples(index=False)], dtype=np.int64)
        keep = np.flatnonzero(order >= 0)
        return table.iloc[keep[np.argsort(order[keep], kind="stable")]]

    def sentences(self, said: Sequence[str], groups: pd.DataFrame) -> list[str]:
        """The sentences of ``said`` that speak of a chosen group, in the chosen order: each
        begins with its group's ``key=value, ...: `` (``timeout_tradeoff``'s
        ``attrs["withheld"]``), read as the longest such label of the ``groups`` (a row a group,
        every group of the log), so that a group named ``a: b`` is never taken for ``a``; all of
        them when every group is printed.

        >>> g = pd.DataFrame({"k": ["a", "a: b", "c"]})
        >>> Chosen([("a",), ("c",)], ["k"], "...").sentences(
        ...     ["k=a: b: withheld", "k=c: withheld", "k=a: withheld"], g)
        ['k=a: withheld', 'k=c: withheld']
        """
        if self.keys is None:
            return list(said)
        labels = {", ".join(f"{k}={v}" for k, v in zip(self.by, key, strict=True)): key
                  for key in (_key(row) for row in groups[self.by].itertuples(index=False))}
        rank = {key: k for k, key in enumerate(self.keys)}
        kept = []
        for sentence in said:
            ends = [i for i in range(len(sentence)) if sentence.startswith(": ", i)]
            label = next((sentence[:i] for i in reversed(ends) if sentence[:i] in labels), None)
            if label is not None and labels[label] in rank:
                kept.append((rank[labels[label]], sentence))
        return [sentence for _, sentence in sorted(kept, key=lambda pair: pair[0])]


def _key(row: Any) -> tuple[str, ...]:
    return tuple(str(v) for v in row)


def choose_groups(shares: pd.DataFrame, by: Sequence[str], limit: int) -> Chosen:
    """The groups of the profile's ``shares`` (``latency_profile(freq=None)``: a row a group and
    threshold, each counting the group's ``attempts``) the terminal shows: at most ``limit``
    (``--show-groups``; 0: all), the most attempts first, and the line that says so."""
    cut = shown_groups(shares, by, limit, order=("attempts",), most="the most attempts first",
                       full=FULL)
    if cut.line is None:
        return Chosen(None, by, None)
    keys = list(dict.fromkeys(_key(row) for row in cut.rows[list(by)].itertuples(index=False)))
    return Chosen(keys, by, cut.line)
