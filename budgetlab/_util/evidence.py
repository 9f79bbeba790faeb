"""Which groups a figure draws in colour (or at all) when it cannot draw every one: those with
the most evidence, the most failures first, then the most events, ties in their order. One rule
for ``replay --plot`` (its timelines) and the figures that colour some groups and grey the rest
(the window comparison, the recalibration): near-equal heavy groups never push the one that
failed most into the grey."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["LESS_EVIDENCE", "MOST_EVIDENCE", "most_evidence", "evidence_weights"]

#: The rule in words, as a figure's legend or note says it.
MOST_EVIDENCE = "the most failures first, then the most events"
#: The rule in a legend's words for the groups left grey (short: a legend's width is the plot's).
LESS_EVIDENCE = "fewer failures, then events"


def most_evidence(failures: Any, events: Any) -> np.ndarray:
    """Positions of the groups, those with the most evidence first (:data:`MOST_EVIDENCE`).

    >>> most_evidence([3, 40, 3, 0], [900, 100, 1000, 5000]).tolist()
    [1, 2, 0, 3]
    """
    f = np.nan_to_num(np.asarray(failures, dtype=float), nan=0.0)
    e = np.nan_to_num(np.asarray(events, dtype=float), nan=0.0)
    return np.lexsort((np.arange(len(e)), -e, -f))


def evidence_weights(failures: Any, events: Any) -> np.ndarray:
    """A weight per group whose descending order is :func:`most_evidence`'s (for a function
    that keeps the heaviest, such as :func:`~budgetlab.plotting._common.group_colors`).

    >>> evidence_weights([3, 40, 3, 0], [900, 100, 1000, 5000]).tolist()
    [2.0, 4.0, 3.0, 1.0]
    """
    order = most_evidence(failures, events)
    out = np.empty(len(order), dtype=float)
    out[order] = np.arange(len(order), 0, -1, dtype=float)
    return out
