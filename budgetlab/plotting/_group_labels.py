"""Each row's group as the figures label it (``a · b`` for two keys): the legends, the layers
of a stack and the groups left out all use these words."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

__all__ = ["group_labels"]


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
