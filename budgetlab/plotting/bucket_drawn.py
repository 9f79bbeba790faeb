"""What :func:`~budgetlab.plotting.plot_buckets` draws of a log, built for that alone: the groups
its stack keeps apart chosen first, from the events (:func:`~.bucket_layers.kept_groups`, the
stack's own rule), their burn over time, and the other groups' as one group's rows, added up
before binning. The table of every group (thousands of sitekeys x bins x buckets, hundreds of
megabytes) is never built only to add most of it up; and the groups a breakdown withholds
(:func:`~.bucket_layers.withheld_groups`), which the figure leaves out, are not binned at all."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._util.validation import to_timedelta
from ..analyses.bucket_burn import bucket_burn_over_time
from ..slo import SLO
from ..windows.groups import group_key_codes
from ._group_labels import group_labels
from .bucket_layers import OTHERS, kept_groups

__all__ = ["drawn_burn_over_time"]


def _groups(parts: Sequence[tuple[SLO, pd.DataFrame]], freq_ns: int,
            keys: list[str]) -> tuple[pd.DataFrame, list[np.ndarray]]:
    """Every group of ``parts`` in the order of its first row in their tables over time put
    together (a part's dense grid holds each of its groups from the part's first bin: by that
    bin, then by key, as the command sorts them), with its ``label`` and ``failures``; and each
    part's events as a row of that table."""
    tables, codes = [], []
    for _, events in parts:
        code, key_table = group_key_codes(events, keys)
        fails = np.bincount(code, weights=~events["ok"].to_numpy(dtype=bool),
                            minlength=len(key_table))
        first_bin = int(events["ts"].min().value) // freq_ns  # bins aligned on the epoch
        tables.append(key_table.assign(first_bin=first_bin, failures=fails.astype(np.int64)))
        codes.append(code)
    offsets = np.cumsum([0, *(len(t) for t in tables)])
    table = pd.concat(tables, ignore_index=True)
    if len(parts) > 1:  # the parts' tables sorted by bin_start and keys, as the command does
        table = table.sort_values(["first_bin", *keys], kind="stable")
    table["label"] = group_labels(table, keys)
    return table, [c + offsets[i] for i, c in enumerate(codes)]


def drawn_burn_over_time(parts: Sequence[tuple[SLO, pd.DataFrame]], *, freq: Any,
                         by: list[str], withheld: Sequence[str],
                         span: dict[str, Any]) -> pd.DataFrame:
    """The rows :func:`~budgetlab.plotting.plot_buckets` draws of the events of ``parts`` (each
    ``(slo, events)``, every SLO of one target: their burns add up), by ``by``, with the groups
    labelled ``withheld`` left out: :func:`budgetlab.bucket_burn_over_time` of each part for the
    groups kept apart (the most failures, a tie in table order: the groups' weights in the
    stack, burn × events, are their failures over one error budget), and of the other groups'
    events in one table without keys (the rows :data:`~.bucket_layers.OTHERS`, ``attrs``
    ``others`` their number; per bin and bucket their failures and events summed, as the stack
    adds them up). No ``budget_spent`` (no group's own share of its budget in "other");
    ``attrs`` ``start`` and ``end`` are ``span``'s. Without groups drawn, a withheld group's rows
    (left out by the figure all the same) give the bins."""
    table, codes = _groups(parts, int(to_timedelta(freq).value), by)
    drawn = table[~table["label"].isin(withheld)]
    weights = drawn.groupby("label", sort=False)["failures"].sum()
    keep = kept_groups(weights)
    if not len(keep):  # every group withheld: the figure says so over its bins
        keep = pd.Index(table["label"].iloc[:1])
    labels = table["label"].sort_index()  # each part's groups by their codes
    kept = labels.isin(keep).to_numpy()
    other = labels.isin(weights.index).to_numpy() & ~kept
    over = _over_time([(s, e[kept[c]]) for (s, e), c in zip(parts, codes, strict=True)],
                      freq, by).drop(columns="budget_spent")
    over[OTHERS] = False
    attrs: dict[Any, Any] = {**over.attrs, "by": list(by), "target": parts[0][0].target, **span}
    rest = [e[other[c]] for (_, e), c in zip(parts, codes, strict=True)]
    n_rest = int(weights.index.difference(keep).size)
    if n_rest:
        summed = bucket_burn_over_time(pd.concat(rest), parts[0][0], freq=freq)
        over = pd.concat([over, summed.drop(columns="budget_spent").assign(**{OTHERS: True})],
                         ignore_index=True)
    over.attrs = {**attrs, OTHERS: n_rest}
    return over


def _over_time(parts: Sequence[tuple[SLO, pd.DataFrame]], freq: Any,
               by: list[str]) -> pd.DataFrame:
    """:func:`budgetlab.bucket_burn_over_time` of each part with events, put together sorted by
    bin and keys (one part: as it is)."""
    tables = [bucket_burn_over_time(e, s, freq=freq, by=by) for s, e in parts if len(e)]
    if len(tables) == 1:
        return tables[0]
    out = pd.concat(tables, ignore_index=True).sort_values(["bin_start", *by], kind="stable",
                                                           ignore_index=True)
    out.attrs.update(tables[0].attrs)
    return out
