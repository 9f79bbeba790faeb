"""Runs of ``True`` in a boolean mask: the one finder for the package (the scrape gaps of a
Prometheus read, the empty bins a figure marks)."""

from __future__ import annotations

import numpy as np

__all__ = ["true_runs"]


def true_runs(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The first and the past-the-end index of each run of ``True`` in ``mask``.

    >>> true_runs(np.array([True, True, False, True]))
    (array([0, 3]), array([2, 4]))
    """
    step = np.diff(np.r_[0, mask.astype(np.int8), 0])
    return np.flatnonzero(step == 1), np.flatnonzero(step == -1)
