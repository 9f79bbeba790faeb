"""Sending time: the one clock of "events a day", free of the tracker's window.

A group's **sending time** runs from its first event to its last, less every gap between two of
its consecutive events longer than :data:`SENDING_GAP_HOURS` (a day, the unit of the rate): such
a gap is a pause in sending, not traffic. Events a day are the group's events over its sending
time. No window enters it: the replay's ``events_per_day`` (:func:`budgetlab.replay_summary`)
and the incident report's carried budget
(:func:`budgetlab.analyses.incident_budget.log_traffic`) read the same figure at a 1 h, 24 h or
7 d window (docs/conventions.md, "Events a day").
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .._util.units import HOUR_NS

__all__ = ["SENDING_GAP_HOURS", "SENDING_WORDS", "sending_time", "stopped_sending"]

#: A gap between two consecutive events of a group longer than this (hours) is left out of its
#: sending time: a pause in sending, not traffic.
SENDING_GAP_HOURS = 24.0

#: The sending time in words, for text that reads a rate per day over it.
SENDING_WORDS = f"sending time, first to last event less gaps over {SENDING_GAP_HOURS:g} h"


def sending_time(ts: np.ndarray, code: np.ndarray, ngroups: int) -> pd.DataFrame:
    """Per group code ``0 .. ngroups - 1``: ``sending_hours`` (first to last event less the gaps
    longer than :data:`SENDING_GAP_HOURS`), ``pauses`` (those gaps) and ``pause_hours`` (their
    length). ``ts``: the events' times in ns; ``code``: each event's group (any order).

    >>> t = pd.to_datetime(["2026-01-01 00:00", "2026-01-01 05:00", "2026-01-03 05:00",
    ...                     "2026-01-03 06:00"]).as_unit("ns").asi8
    >>> sending_time(t, np.zeros(4, dtype=np.int64), 1).to_dict("records")  # 5 h + 1 h; 48 h out
    [{'sending_hours': 6.0, 'pauses': 1, 'pause_hours': 48.0}]
    """
    ts = np.asarray(ts, dtype=np.int64)
    code = np.asarray(code, dtype=np.int64)
    order = np.lexsort((ts, code))
    t, c = ts[order], code[order]
    gap = np.diff(t)
    same = c[1:] == c[:-1]
    pause = same & (gap > round(SENDING_GAP_HOURS * HOUR_NS))
    keep = same & ~pause
    seg = c[1:]
    return pd.DataFrame({
        "sending_hours": np.bincount(seg[keep], weights=gap[keep], minlength=ngroups) / HOUR_NS,
        "pauses": np.bincount(seg[pause], minlength=ngroups).astype(np.int64),
        "pause_hours": np.bincount(seg[pause], weights=gap[pause], minlength=ngroups) / HOUR_NS})


def stopped_sending(since_last_hours: Any, emptied_hours: Any) -> np.ndarray:
    """Per group: whether it stopped sending before the observation's end: its last event more
    than :data:`SENDING_GAP_HOURS` before that end (``since_last_hours``, whatever the window),
    or its window emptied after it (``emptied_hours`` of no traffic after its last event).

    >>> stopped_sending([48.0, 0.1, 2.0], [0.0, 0.0, 1.0]).tolist()
    [True, False, True]
    """
    since = np.asarray(since_last_hours, dtype=np.float64)
    return np.asarray((since > SENDING_GAP_HOURS)
                      | (np.asarray(emptied_hours, dtype=np.float64) > 0), dtype=bool)
