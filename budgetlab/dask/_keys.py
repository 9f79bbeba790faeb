"""The group keys' categories that every partition of a Dask read shares: each partition's key
values in one spelling (:func:`~budgetlab.events.read.group_key`, the pandas reader's), joined on
the driver; under ``pii="hash"`` a key that holds personal data anywhere is hashed after it is
spelled, as :func:`budgetlab.read_events` hashes it, so that ``Köln`` written composed in one
file and decomposed in another is one hashed group."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..events.read import group_key
from ..privacy import hash_values

__all__ = ["union", "spelled_keys", "key_dtypes"]


def union(lists: Sequence[Sequence[Any]], *, sort: bool) -> list[Any]:
    """The values of ``lists`` once each, in the order met (or sorted).

    >>> union([["b", "a"], ["a", "c"]], sort=False), union([["b"], ["a"]], sort=True)
    (['b', 'a', 'c'], ['a', 'b'])
    """
    seen: dict[Any, None] = {}
    for values in lists:
        for v in values:
            seen.setdefault(v, None)
    return sorted(seen) if sort else list(seen)


def spelled_keys(raw: pd.DataFrame, frame: pd.DataFrame, keys: Sequence[str], *,
                 hashing: bool) -> dict[str, list[str]]:
    """One partition's categories of each group key in one spelling: those of ``frame`` (the
    partition read by :func:`budgetlab.read_events`); a key the guard took out of ``frame`` (it
    holds personal data) is spelled from ``raw`` when it will be hashed (``hashing``)."""
    return {k: list(frame[k].cat.categories) if k in frame.columns
            else list(group_key(raw[k], k).categories)
            for k in keys if k in frame.columns or hashing}


def key_dtypes(infos: Sequence[dict[str, Any]], keys: Sequence[str], flagged: set[str],
               meta_raw: pd.DataFrame, salt: str | None) -> dict[str, pd.CategoricalDtype]:
    """One categorical dtype per group key, with the categories of every partition (see
    :func:`spelled_keys`). A key in ``flagged`` (personal data in some partition) has none when
    it is dropped (``salt`` is ``None``), else the sorted keyed hashes of its spelled values, as
    :func:`~budgetlab.privacy.hash_values` orders a hashed categorical."""
    out: dict[str, pd.CategoricalDtype] = {}
    for k in keys:
        if k in flagged:
            if salt is not None:
                spelled = union([i["keys"].get(k, []) for i in infos], sort=True)
                hashed = hash_values(pd.Series(spelled, dtype="str"), salt)
                out[k] = pd.CategoricalDtype(np.unique(np.asarray(hashed, dtype=object)
                                                       .astype(str)).tolist())
            continue
        cats = union([i["keys"].get(k, []) for i in infos],
                     sort=not isinstance(meta_raw[k].dtype, pd.CategoricalDtype))
        out[k] = pd.CategoricalDtype(cats, ordered=bool(getattr(meta_raw[k].dtype, "ordered",
                                                                False)))
    return out
