"""Where each group's traffic begins a *stretch* on the bins' grid: its first bin with traffic,
and each one that starts at least a long window after the group's previous one (the window
emptied). :func:`stretch_attrs` records them in the ``attrs`` of
:func:`budgetlab.alert_episodes`; :mod:`budgetlab.alerts.filling` holds the rule that reads them
(which episodes are over while a tier's long window filled)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..windows.bingrid import BinGrid

__all__ = ["stretch_attrs"]


def stretch_attrs(grid: BinGrid, min_window_ns: int) -> dict[str, list[Any]]:
    """Where each group's traffic (the grid's cells) may begin a stretch, for a tier whose long
    window is at least ``min_window_ns``: ``keys`` (the group's key values as text, one list per
    row), ``start_ns`` (the start of the bin), ``gap_ns`` (from the start of the group's previous
    bin with traffic; ``-1`` at its first). Only a group's first bin and those at least
    ``min_window_ns`` after the previous one are kept.

    >>> import pandas as pd
    >>> g = BinGrid.from_dense(pd.DataFrame({"k": ["a", "b"]}), ["k"], 0, 60,
    ...                        np.array([[1, 1, 0, 0, 1], [0, 0, 0, 1, 0]]), np.zeros((2, 5)))
    >>> stretch_attrs(g, 180)
    {'keys': [['a'], ['a'], ['b']], 'start_ns': [0, 240, 180], 'gap_ns': [-1, 180, -1]}
    """
    group, at = grid.cell_group, grid.start_ns + grid.cell_bin * grid.freq_ns
    first = np.ones(len(group), dtype=bool)
    first[1:] = group[1:] != group[:-1]
    gap = np.where(first, -1, at - np.concatenate([at[:1], at[:-1]]))
    keep = first | (gap >= min_window_ns)
    keys = grid.keys[grid.by].astype(str).to_numpy(dtype=object) if grid.by else None
    rows = [[] if keys is None else [str(v) for v in keys[g]] for g in group[keep].tolist()]
    return {"keys": rows, "start_ns": at[keep].tolist(), "gap_ns": gap[keep].tolist()}
