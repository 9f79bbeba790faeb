"""Each row's group as the figures label it (``a · b`` for two keys): the legends, the layers
of a stack and the groups left out all use these words; the gids that tell a group's artists
(``<kind>:<group>``) from the grey rest's (``<kind>/others``), and the grey rest as one group
(:class:`OtherGroups`); and the note under the x label
that names the groups a figure leaves out (:func:`left_out_note`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from .._util.words import counted, some_named

__all__ = ["MOST_NAMED", "OTHER_GID", "OtherGroups", "gid_kind", "group_gid", "group_labels",
           "labelled_groups", "left_out_note", "other_gid"]

#: The most groups a note on the groups left out names (then "and N more").
MOST_NAMED = 6

#: The gid suffix of the grey groups' artists, after a ``/`` (``distribution/others``, ...): a
#: coloured group's artist is ``<kind>:<group>``, with a colon; the grey ones' have none, so no
#: group name (``other``, ``others`` included) gives the gid of the grey rest.
OTHER_GID = "others"


def other_gid(kind: str) -> str:
    """The gid of the grey groups' artist of a kind of mark (a figure's panel column, for
    :func:`~budgetlab.plotting.plot_window_comparison`): never a coloured group's
    ``<kind>:<group>``.

    >>> other_gid("distribution")
    'distribution/others'
    """
    return f"{kind}/{OTHER_GID}"


@dataclass(frozen=True)
class OtherGroups:
    """The groups a figure adds up in grey, as one group: ``str()`` gives its legend words,
    ``other (N groups)``, but it equals no group's label (a text), so a group named ``other (2
    groups)`` keeps its own layer and gids (:func:`group_gid`).

    >>> str(OtherGroups(2)), OtherGroups(2) == "other (2 groups)"
    ('other (2 groups)', False)
    """

    n: int

    def __str__(self) -> str:
        return f"other ({counted(self.n, 'group')})"


def group_gid(kind: str, group: object) -> str:
    """The gid of a group's artist of a kind of mark: ``<kind>:<group>``, or :func:`other_gid`
    for the grey rest (:class:`OtherGroups`), whatever the groups are named.

    >>> group_gid("no_traffic", "other (2 groups)"), group_gid("no_traffic", OtherGroups(2))
    ('no_traffic:other (2 groups)', 'no_traffic/others')
    """
    return other_gid(kind) if isinstance(group, OtherGroups) else f"{kind}:{group}"


def gid_kind(gid: object) -> str:
    """The kind of mark of a gid: what comes before its colon (a coloured group's
    ``<kind>:<group>``) or of :func:`other_gid` (the grey groups').

    >>> gid_kind("candidates:other"), gid_kind(other_gid("candidates")), gid_kind("limit")
    ('candidates', 'candidates', 'limit')
    """
    text = str(gid)
    return text.split(":")[0] if ":" in text else text.removesuffix(f"/{OTHER_GID}")


def group_labels(frame: pd.DataFrame, keys: Sequence[str]) -> np.ndarray:
    """Each row's group as a label (``a · b`` for two keys; a missing value ``<NA>``), ``all``
    without keys. Each key's distinct values are spelled once and taken per row (a table over
    time repeats a group on every bin: millions of rows, thousands of groups).

    >>> group_labels(pd.DataFrame({"k": ["x", "y", "x"], "r": [1, 2, 1]}), ["k", "r"]).tolist()
    ['x · 1', 'y · 2', 'x · 1']
    """
    if not keys:
        return np.full(len(frame), "all", dtype=object)
    parts = []
    for key in keys:
        codes, values = pd.factorize(frame[key], use_na_sentinel=False)
        spelled = ["<NA>" if pd.isna(v) else str(v) for v in values]  # a missing key: <NA>
        parts.append(np.array(spelled, dtype=object)[codes])
    out = parts[0]
    for part in parts[1:]:
        out = out + " · " + part
    return out


def labelled_groups(frame: pd.DataFrame, keys: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """``(codes, labels)``: each row's group as a code into ``labels``, the distinct
    :func:`group_labels` in the order of their first row (``labels[codes]`` is
    :func:`group_labels`): a table over time compares and sums its groups by code, never by its
    millions of labels.

    >>> codes, labels = labelled_groups(pd.DataFrame({"k": ["y", "x", "y"]}), ["k"])
    >>> codes.tolist(), labels.tolist()
    ([0, 1, 0], ['y', 'x'])
    """
    if not keys:
        return np.zeros(len(frame), dtype=np.int64), np.array(["all"], dtype=object)
    combined = np.zeros(len(frame), dtype=np.int64)
    for key in keys:  # the distinct combinations of the keys' values, by their codes
        codes, values = pd.factorize(frame[key], use_na_sentinel=False)
        combined, _ = pd.factorize(combined * max(len(values), 1) + codes)
    _, first = np.unique(combined, return_index=True)
    # two combinations may spell one label (``a · b`` + ``c``, ``a`` + ``b · c``): one group
    code_of, labels = pd.factorize(group_labels(frame.iloc[first], keys))
    return code_of[combined].astype(np.int64), np.asarray(labels, dtype=object)


def left_out_note(ax: Axes, why: str, names: Sequence[str], most: int = MOST_NAMED) -> Any:
    """The note (gid ``left_out``) under ``ax``'s x label, outside the plot area (inside it, it
    covered the points drawn there), that says ``why`` groups are not drawn and names them, the
    first ``most``, then how many more: thousands of thin sitekeys would cover the plot.
    ``not drawn (<why>): a, b, c and 2 more``; ``not drawn: <why>`` without ``names``."""
    text = f"not drawn ({why}): {some_named(list(names), most)}" if names else f"not drawn: {why}"
    return ax.annotate(text, xy=(0, 0),
                       xycoords=("axes fraction", ax.xaxis.label), xytext=(0, -4),
                       textcoords="offset points", fontsize="small", va="top", gid="left_out",
                       wrap=True)
