"""Group codes: the one place that turns group-key columns into small integer codes.

Every grouped computation (event-level windows, bins, transitions, analyses) numbers its groups
here, so that they agree on the order: groups in key order, missing keys a group of their own,
sorted last. Several keys are combined arithmetically (``groupby().ngroup()`` takes seconds on
3 M rows).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

__all__ = ["group_codes", "group_order", "group_key_codes"]


def group_order(events: pd.DataFrame, by: Sequence[str]) -> tuple[np.ndarray | None, np.ndarray]:
    """Stable order that puts each group's events together (time order kept inside a group).

    Returns ``(order, bounds)``: ``order`` is ``None`` when there is one group (identity);
    ``bounds`` holds the start offset of each group in that order plus the total length.
    """
    n = len(events)
    if not by or n == 0:
        return None, np.array([0, n], dtype=np.int64)
    codes = group_codes(events, by, dense=False)
    # small integer codes: numpy's stable sort is then a radix sort (5x faster on 10 M rows)
    order = np.argsort(codes, kind="stable")
    counts = np.bincount(codes)
    counts = counts[counts > 0]
    bounds = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=bounds[1:])
    return order, bounds


def group_codes(events: pd.DataFrame, by: Sequence[str], *, dense: bool = True) -> np.ndarray:
    """Integer group codes (groups in key order; missing keys form a group of their own, sorted
    last), in the smallest integer dtype so that numpy's stable sort is a radix sort. ``dense``:
    codes are 0..k-1 over the groups present (else unused categories may leave gaps). Several keys
    are combined arithmetically (``groupby().ngroup()`` takes seconds on 3 M rows)."""
    if len(by) == 1 and not dense and isinstance(events[by[0]].dtype, pd.CategoricalDtype):
        col = events[by[0]]
        codes = col.cat.codes.to_numpy()  # already the smallest integer type
        if len(col.cat.categories) < 127 and codes.dtype != np.int8:
            codes = codes.astype(np.int8)
        if (codes < 0).any():
            codes = np.where(codes < 0, len(col.cat.categories), codes).astype(
                np.int8 if len(col.cat.categories) < 127 else np.int32)
        return codes
    combined = np.zeros(len(events), dtype=np.int64)
    size = 1
    for k in by:
        col = events[k]
        if isinstance(col.dtype, pd.CategoricalDtype):
            c = col.cat.codes.to_numpy().astype(np.int64)
            card = len(col.cat.categories) + 1
            c[c < 0] = card - 1
        else:
            c = pd.factorize(col, sort=True, use_na_sentinel=False)[0].astype(np.int64)
            card = int(c.max(initial=0)) + 1
        combined = combined * card + c if len(by) > 1 else c
        size *= card
    if len(by) > 1 or int(combined.max(initial=0)) + 1 != size:  # make the codes dense
        if size <= 50_000_000:
            seen = np.bincount(combined, minlength=size) > 0
            combined = (np.cumsum(seen) - 1)[combined]
        else:
            combined = np.unique(combined, return_inverse=True)[1]
    top = int(combined.max(initial=0))
    small = np.int8 if top < 127 else np.int16 if top < 32767 else np.int64
    return combined.astype(small)


def group_key_codes(frame: pd.DataFrame, by: list[str]) -> tuple[np.ndarray, pd.DataFrame]:
    """Group code per row (sorted key order) and the key table (one row per group)."""
    if not by:
        return np.zeros(len(frame), dtype=np.int64), pd.DataFrame(index=pd.RangeIndex(1))
    codes = group_codes(frame, by).astype(np.int64)
    _, first = np.unique(codes, return_index=True)
    keys = frame[by].iloc[first].reset_index(drop=True)
    return codes, keys
