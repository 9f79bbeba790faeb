"""The replay's summary lines on the groups that start late or stop early: the time before a
group's first event, and after its last (:func:`~budgetlab.budget.sending.stopped_sending`:
whatever the window), each counted as no traffic where the window held none, never among the
silences (gaps between two events). ``keys``: the summary's group keys."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._util.words import counted, hours_words
from ..budget.sending import stopped_sending
from .shared import group_label, wrap

__all__ = ["before_first_line", "after_last_line"]


def before_first_line(summary: pd.DataFrame, keys: list[str], most: int = 5) -> str | None:
    """The groups whose first event comes after the observation's start (the log's first event,
    of any group), with the time before it: counted as no traffic, but no silence (no gap
    between two of the group's events). ``None`` when no group has any.

    >>> s = pd.DataFrame({"svc": ["a", "b"], "before_first_hours": [0.0, 6888.0]})
    >>> print(before_first_line(s, ["svc"]))
    Before their first event (counted as no traffic, no silence): svc=b 6,888 h.
    """
    return _edge_line(summary, keys, "before_first_hours",
                      "Before their first event (counted as no traffic, no silence)", most)


def after_last_line(summary: pd.DataFrame, keys: list[str], most: int = 5) -> str | None:
    """The groups that stopped sending before the observation's end (the log's last event, of
    any group): their last event more than :data:`SENDING_GAP_HOURS` before it, or their window
    emptied after it (:func:`stopped_sending`), whatever the window. Each with the time from its
    last event to that end and what the window made of it: no traffic from its emptying (not
    among the silences, which lie between two events), or still holding the group's last events
    at the end (``at_end`` their status). ``None`` when no group stopped.

    >>> s = pd.DataFrame({"svc": ["gone", "keep", "late"], "after_last_hours": [1146.0, 0.0, 0.0],
    ...                   "since_last_event_hours": [1147.0, 0.1, 48.0]})
    >>> print(after_last_line(s, ["svc"]))  # doctest: +NORMALIZE_WHITESPACE
    After their last event (to the log's last event): svc=gone 1,147 h (1,146 h of it no traffic,
    from its window emptying; not among the silences), svc=late 48 h (its window still holds its
    last events at the end: at_end is their status).
    """
    if "after_last_hours" not in summary.columns:
        return None
    emptied = summary["after_last_hours"].to_numpy(dtype=np.float64)
    since = (summary["since_last_event_hours"].to_numpy(dtype=np.float64)
             if "since_last_event_hours" in summary.columns else emptied)  # an older file
    rows = summary[stopped_sending(since, emptied)].assign(_since=since[stopped_sending(
        since, emptied)]).sort_values("_since", ascending=False, kind="stable")
    if not len(rows):
        return None
    names = []
    for _, r in rows.head(most).iterrows():
        held = float(r["after_last_hours"])
        what = (f"{hours_words(held)} of it no traffic, from its window emptying; not among the "
                "silences" if held > 0 else
                "its window still holds its last events at the end: at_end is their status")
        names.append(f"{group_label(r, keys)} {hours_words(float(r['_since']))} ({what})")
    more = len(rows) - len(names)
    said = ", ".join(names) + (f" and {counted(more, 'more group')}" if more else "")
    return wrap(f"After their last event (to the log's last event): {said}.", indent="")


def _edge_line(summary: pd.DataFrame, keys: list[str], column: str, head: str, most: int
               ) -> str | None:
    """``head: group hours, ...`` for the groups with time in ``column``, most first."""
    if column not in summary.columns:
        return None
    rows = summary[summary[column] > 0].sort_values(column, ascending=False, kind="stable")
    if not len(rows):
        return None
    names = [f"{group_label(r, keys)} {hours_words(float(r[column]))}"
             for _, r in rows.head(most).iterrows()]
    more = len(rows) - len(names)
    said = ", ".join(names) + (f" and {counted(more, 'more group')}" if more else "")
    return wrap(f"{head}: {said}.", indent="")
