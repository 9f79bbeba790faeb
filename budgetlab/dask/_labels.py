"""The outcome labels of a Dask log, classified once, as one file's are: each partition checks
its own rows (the refusals that name rows) and counts its distinct labels; the driver adds the
counts up, partition after partition, and classifies them as one column, so that a refusal lists
the labels of the whole input in the order met, with their rows, in the words of
:func:`budgetlab.read_events`."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ..events.outcomes import OutcomeReading, check_label_rows, classify_outcomes
from ..events.vocabulary import Outcomes

__all__ = ["LabelCounts", "count_labels", "classify_counts", "skipped_parts"]

#: One partition's distinct outcome labels (as they are, in the order met) and the rows of each.
LabelCounts = tuple[pd.Series, np.ndarray]


def count_labels(labels: pd.Series, outcomes: Outcomes | None) -> tuple[LabelCounts, np.ndarray]:
    """A partition's labels, counted, after the refusals that name its rows; and each row's label
    as a position in those distinct labels (for the facts of each label's rows: their times).

    >>> (values, rows), codes = count_labels(pd.Series(["success", "zeta", "success"]), None)
    >>> values.tolist(), rows.tolist(), codes.tolist()
    (['success', 'zeta'], [2, 1], [0, 1, 0])
    """
    check_label_rows(labels, outcomes)
    if isinstance(labels.dtype, pd.CategoricalDtype):  # its categories' values, as labels
        labels = labels.astype(object)
    codes, uniques = pd.factorize(labels)  # in the order met; no missing value (refused above)
    return (pd.Series(uniques, name=labels.name), np.bincount(codes, minlength=len(uniques))), \
        codes


def classify_counts(parts: Sequence[LabelCounts], outcomes: Outcomes | None, *,
                    require_success: bool) -> OutcomeReading:
    """The labels of every partition (``parts``, in partition order) classified once, each
    distinct label with the rows of all partitions (see :func:`count_labels`).

    >>> reading = classify_counts([count_labels(pd.Series(["success", "timeout"]), None)[0],
    ...                            count_labels(pd.Series(["timeout"]), None)[0]], None,
    ...                           require_success=True)
    >>> [(x.label, x.rows) for x in reading.labels]
    [('success', 1), ('timeout', 2)]
    """
    values = pd.concat([v for v, _ in parts], ignore_index=True)
    codes, uniques = pd.factorize(values)
    rows = np.bincount(codes, weights=np.concatenate([r for _, r in parts]),
                       minlength=len(uniques)).astype(np.int64)
    return classify_outcomes(pd.Series(uniques, name=values.name), outcomes,
                             require_success=require_success, counts=rows)


def skipped_parts(parts: Sequence[LabelCounts | None], reading: OutcomeReading) -> frozenset[int]:
    """The partitions (by position in ``parts``; ``None``: no rows) whose every label maps to
    ``skip`` under ``reading``, :func:`classify_counts`'s of the same ``parts``: they load as no
    rows, as those rows leave one file's table, where a partition alone would be refused as
    "every row maps to skip".

    >>> parts = [count_labels(pd.Series(["pending", "pending"]), None)[0],
    ...          count_labels(pd.Series(["success", "pending"]), None)[0]]
    >>> reading = classify_counts(parts, {"pending": "skip", "success": "success"},
    ...                           require_success=True)
    >>> sorted(skipped_parts(parts, reading))
    [0]
    """
    present = [p for p in parts if p is not None]
    values = pd.concat([v for v, _ in present], ignore_index=True)
    codes, uniques = pd.factorize(values)
    skipped = set(pd.Series(uniques)[reading.skip])  # classify_counts' order of the uniques
    return frozenset(n for n, p in enumerate(parts)
                     if p is not None and set(p[0]) <= skipped)
