"""Each row's group as the figures label it (``a · b`` for two keys): the legends, the layers
of a stack and the groups left out all use these words; and the gids that tell a group's artists
(``<kind>:<group>``) from the grey rest's (``<kind>/others``)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

__all__ = ["OTHER_GID", "gid_kind", "group_labels", "other_gid"]

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
