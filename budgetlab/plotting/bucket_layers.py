"""The layers of :func:`~budgetlab.plotting.charts.plot_buckets`: which rows are drawn, the groups
kept apart (the others added up) and each row's layer, all by group code: a table over time
repeats every group on each bin and bucket (millions of rows, thousands of groups), and a
group's label is looked up once."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._util.validation import require_columns
from ..errors import ConfigError
from ._group_labels import OtherGroups, group_labels, labelled_groups

__all__ = ["MAX_GROUPS", "OTHERS", "bucket_layers", "drawn_groups", "kept_groups", "top_groups",
           "withheld_groups"]

#: The most groups :func:`~budgetlab.plotting.charts.plot_buckets` keeps apart in its stack (the
#: others are added up).
MAX_GROUPS = 4

#: The column of a table over time whose ``True`` rows are several groups already added up
#: (:func:`~budgetlab.plotting.bucket_drawn.drawn_burn_over_time`); ``attrs["others"]`` holds
#: how many.
OTHERS = "others"


def kept_groups(total: pd.Series, *, folded: bool = False) -> pd.Index:
    """The groups kept apart (index labels of ``total``, each group's weight): every group when
    there are :data:`MAX_GROUPS` or fewer (and none is ``folded`` already), else the
    :data:`MAX_GROUPS` ``- 1`` of most weight, a tie in the order of ``total``.

    >>> kept_groups(pd.Series([1, 5, 5, 0, 2], index=list("abcde"))).tolist()
    ['b', 'c', 'e']
    >>> kept_groups(pd.Series([1, 5], index=list("ab"))).tolist()
    ['a', 'b']
    """
    if len(total) <= MAX_GROUPS and not folded:
        return total.index
    return total.sort_values(ascending=False, kind="stable").index[: MAX_GROUPS - 1]


def top_groups(codes: np.ndarray, labels: np.ndarray,
                weight: np.ndarray) -> tuple[np.ndarray, list[str | OtherGroups]]:
    """Each row's group (``codes`` into ``labels``) as a code into the second item, the groups
    drawn: all but the :data:`MAX_GROUPS` ``- 1`` groups of most ``weight`` (their summed burn ×
    events, :func:`kept_groups`) put in one :class:`OtherGroups` (``other (N groups)``, equal to
    no label, last); every group with :data:`MAX_GROUPS` groups or fewer. Groups added up
    already (an :class:`OtherGroups` among ``labels``) stay in "other", counted as they were."""
    total = pd.Series(weight).groupby(codes, sort=False).sum()
    if len(total) <= MAX_GROUPS:
        return codes, list(labels)
    added = np.array([isinstance(labels[c], OtherGroups) for c in total.index], dtype=bool)
    keep = kept_groups(total[~added], folded=bool(added.any()))
    n_other = sum(labels[c].n if isinstance(labels[c], OtherGroups) else 1
                  for c in total.index.difference(keep, sort=False))
    to = np.full(len(labels), len(keep), dtype=np.int64)  # the others: the last group
    to[keep] = np.arange(len(keep))
    return to[codes], [*labels[keep], OtherGroups(n_other)]


def drawn_groups(over_time: pd.DataFrame, keys: list[str], withheld: list[str],
                  ) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray] | None]:
    """Whether each row of ``over_time`` is drawn (its group not ``withheld``), and each drawn
    row's group as a code into the labels (:func:`labelled_groups`; None without ``keys``): a
    label is looked up once, the millions of rows (groups x bins x buckets) by code. The rows
    of :data:`OTHERS` are one group, ``other (N groups)`` (N: ``attrs["others"]``)."""
    added = (over_time[OTHERS].to_numpy(dtype=bool) if OTHERS in over_time
             else np.zeros(len(over_time), dtype=bool))
    codes, labels = labelled_groups(over_time[~added] if added.any() else over_time, keys)
    if added.any():
        every = np.full(len(over_time), len(labels), dtype=np.int64)  # "other": the last label
        every[~added] = codes
        codes = every
        labels = np.array([*labels, OtherGroups(int(over_time.attrs[OTHERS]))], dtype=object)
    # a hashed look-up: np.isin sorts object arrays (seconds at thousands of groups)
    drawn = (~pd.Series(labels).isin(withheld).to_numpy())[codes]
    return drawn, ((codes[drawn], labels) if keys else None)


def bucket_layers(rows: pd.DataFrame, groups: tuple[np.ndarray, np.ndarray] | None,
                  weighted: np.ndarray,
                  names: list[str]) -> tuple[np.ndarray, list[tuple[str, str | OtherGroups]]]:
    """The stack's layers: each row's layer (an index into the second item) and the layers in
    stack order as ``(bucket, group)`` (group ``""`` without ``groups``, else each
    row's group as a code into the labels, :func:`labelled_groups`; the groups past the top ones
    in "other"): the buckets in their display order ``names``, within a bucket the groups by
    name, "other" last."""
    g_code, labels = (top_groups(*groups, weighted) if groups is not None
                      else (np.zeros(len(rows), dtype=np.int64), [""]))
    # the distinct (bucket, group) pairs, each row's pair by its codes (rows: bins x groups);
    # a bucket's name as astype(str) spells it, once per distinct value (two values that spell
    # one name are one bucket)
    b_code, values = pd.factorize(rows["bucket"], use_na_sentinel=False)
    spelled, buckets = pd.factorize(pd.Index(values).astype(str))
    b_code = spelled[b_code]
    pair_code, pairs = pd.factorize(b_code.astype(np.int64) * len(labels) + g_code)
    distinct = [(str(buckets[int(c) // len(labels)]), labels[int(c) % len(labels)])
                for c in pairs]

    def rank(pair: tuple[str, str | OtherGroups]) -> tuple[int, bool, str]:
        b, g = pair
        return (names.index(b) if b in names else len(names), isinstance(g, OtherGroups), str(g))

    order = sorted(distinct, key=rank)
    index = {p: i for i, p in enumerate(order)}
    return np.array([index[p] for p in distinct], dtype=np.int64)[pair_code], order


def withheld_groups(breakdown: pd.DataFrame | None, keys: list[str]) -> list[str]:
    """The labels (as :func:`~budgetlab.plotting._group_labels.group_labels` writes them) of the
    groups whose figures ``breakdown`` withholds (a ``note`` that begins ``withheld``; a decided
    ``missed`` keeps them), in its order."""
    if breakdown is None:
        return []
    its_by = breakdown.attrs.get("by")
    if isinstance(its_by, list) and its_by != keys:
        raise ConfigError(f"breakdown is by {its_by or 'no key'} and the plot by "
                          f"{keys or 'no key'}: make both with the same by=.")
    require_columns(breakdown, [*keys, "note"], what="breakdown")
    thin = breakdown["note"].astype(str).str.startswith("withheld").to_numpy()
    return list(dict.fromkeys(group_labels(breakdown[thin], keys).tolist()))
