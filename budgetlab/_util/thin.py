"""Too thin to extrapolate: the one rule for time shares and rates per day.

A time share or rate per day read over less than :data:`MIN_EVALUATED_HOURS` (one day) of
evaluated or observed time (none at all, or unknown, included) says little: one event seen for an
hour is not 24 events a day, one page in the hour after a tier's long window filled is not 24 pages
a day. :func:`too_thin` is that rule, :func:`thin_words` says it in words. They live here, below
every subpackage, so that the window comparison (:mod:`budgetlab.analyses.window_clock`, which
re-exports :func:`too_thin`), the replay's summary (:func:`budgetlab.replay_summary`) and the alert
scoring (:mod:`budgetlab.alerts.observed`) read the same threshold and write the same words.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .words import counted, some_hours_words

__all__ = ["MIN_EVALUATED_HOURS", "too_thin", "thin_words"]

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


def thin_words(hours: Any, events: Any, *, time: str, figures: str, no_time: str) -> list[str]:
    """Per row: why the ``figures`` read over each of ``hours`` of ``time`` (holding ``events``)
    are too thin to go by (:func:`too_thin`), in words; ``no_time`` for a row without any of that
    time; empty for a row that is not too thin.

    >>> thin_words([1.35, 0.0, 82.0], [1, 0, 9710], time="observed time", figures="rates per day",
    ...            no_time="no observed time")  # doctest: +NORMALIZE_WHITESPACE
    ['only 1 h 21 min of observed time (1 event in it): too little for rates per day, which need
      at least 24 h (one day)', 'no observed time', '']
    """
    out = []
    for h, n, thin in zip(np.asarray(hours, dtype=np.float64).tolist(),
                          np.asarray(events).tolist(), too_thin(hours).tolist(), strict=True):
        if not thin:
            out.append("")
        elif not h > 0:
            out.append(no_time)
        else:
            out.append(f"only {some_hours_words(h)} of {time} ({counted(int(n), 'event')} in "
                       f"it): too little for {figures}, which need at least "
                       f"{MIN_EVALUATED_HOURS:g} h (one day)")
    return out
