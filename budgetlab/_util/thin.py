"""Too thin to extrapolate: the one rule for time shares and rates per day.

A time share or rate per day read over less than :data:`MIN_EVALUATED_HOURS` (one day) of
evaluated or observed time (none at all, or unknown, included) says little: one event seen for an
hour is not 24 events a day, one page in the hour after a tier's long window filled is not 24 pages
a day. :func:`too_thin` is that rule. It lives here, below every subpackage, so that the window
comparison and the replay (:mod:`budgetlab.analyses.window_clock`, which re-exports it) and the
alert scoring (:mod:`budgetlab.alerts.observed`) read the same threshold.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["MIN_EVALUATED_HOURS", "too_thin"]

#: Least evaluated (or observed) time, in hours, for time shares and rates per day (one day).
MIN_EVALUATED_HOURS = 24.0


def too_thin(hours: Any) -> np.ndarray:
    """Whether time shares and rates per day read over each of ``hours`` (evaluated or observed
    time, in hours) are too thin to go by: less than :data:`MIN_EVALUATED_HOURS`, none at all and
    unknown (NaN) included.

    >>> too_thin([1.35, 0.0, 24.0, 82.0, float("nan")]).tolist()
    [True, True, False, False, True]
    """
    return np.asarray(~(np.asarray(hours, dtype=np.float64) >= MIN_EVALUATED_HOURS), dtype=bool)
