"""Which group the incident summary speaks of (:class:`~budgetlab.analyses.incident_result.
IncidentReport`'s focus: the tracker table's first row) when the worst tracker status cannot
pick it: when no group's status is known (its window never lay after the data's start), the
group with the most events during the incident, and the words that say so."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from .incident_group_words import group_label

__all__ = ["focus_first", "focus_words"]


def _events(tracker: pd.DataFrame, budget: pd.DataFrame, keys: Sequence[str]) -> np.ndarray:
    """Each tracker row's events during the incident (the budget table's ``events``; 0 for a
    group it does not hold)."""
    per = {tuple(str(v) for v in k): int(n) for k, n in zip(
        budget[list(keys)].itertuples(index=False, name=None), budget["events"], strict=True)}
    return np.array([per.get(tuple(str(v) for v in k), 0) for k in
                     tracker[list(keys)].itertuples(index=False, name=None)], dtype=np.int64)


def _unknown(tracker: pd.DataFrame) -> np.ndarray:
    return np.asarray(tracker["worst_status"].isna().to_numpy(), dtype=bool)


def focus_first(tracker: pd.DataFrame, budget: pd.DataFrame, keys: Sequence[str]) -> pd.DataFrame:
    """``tracker`` (worst first) with the group the summary speaks of first: unchanged when the
    first row's worst status is known; else the groups whose status is known first (in their
    order), then those whose status is not known by their events during the incident (``budget``'s
    ``events``), most first, equal counts by name.

    >>> t = pd.DataFrame({"g": ["a", "b", "c"], "worst_status": [None, None, None]})
    >>> b = pd.DataFrame({"g": ["a", "b", "c"], "events": [1, 34, 2]})
    >>> list(focus_first(t, b, ["g"])["g"])
    ['b', 'c', 'a']
    """
    if not keys or len(tracker) < 2 or not _unknown(tracker)[0] or "events" not in budget:
        return tracker
    unknown = _unknown(tracker)
    names = tracker[list(keys)].astype(str).agg("\x1f".join, axis=1).to_numpy()
    by_name = np.argsort(names, kind="stable")
    events = _events(tracker, budget, keys)[by_name]
    order = by_name[np.lexsort((-events, unknown[by_name]))]
    return tracker.iloc[order].reset_index(drop=True)


def focus_words(tracker: pd.DataFrame, budget: pd.DataFrame, keys: Sequence[str]) -> str:
    """Why the summary speaks of the tracker's first group when no group's status is known
    (:func:`focus_first` picked it by its events), as a sentence after the tracker's; ``""``
    when its status is known, or with one group.

    >>> t = pd.DataFrame({"g": ["b", "c", "a"], "worst_status": [None, None, None]})
    >>> b = pd.DataFrame({"g": ["a", "b", "c"], "events": [1, 34, 5]})
    >>> focus_words(t, b, ["g"])
    " No group's tracker status is known: the summary speaks of g=b, the group with the most \
events during the incident (34 of 40)."
    """
    if not keys or len(tracker) < 2 or not _unknown(tracker).all() or "events" not in budget:
        return ""
    events = _events(tracker, budget, keys)
    tie = int((events == events[0]).sum())
    first = f", the first by name of the {tie:,} with as many" if tie > 1 else ""
    return (f" No group's tracker status is known: the summary speaks of "
            f"{group_label(tracker.iloc[0], keys)}, the group with the most events during the "
            f"incident ({events[0]:,} of {int(budget['events'].sum()):,}{first}).")
