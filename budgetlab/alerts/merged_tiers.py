"""The detection rule of merged-tier rows (tier ``*``) of :func:`budgetlab.score_alerts`.

A merged row's alert is the union of its tiers' episodes, so one episode begun by a slow tier
(a ticket firing for hours on a degradation) would swallow a fast tier's page caused by an
outage inside it: read on the union, the outage began "under a firing alert". The row is scored
per member tier instead: an incident is **detected** on a merged row when one of its tiers that
was not already firing at the incident's start (:func:`~budgetlab.alerts.group_scores.
already_firing`, per tier) fires during it, at the first such alert; it is **already firing**
only when every tier that fires during it was already firing at its start. A merged row thus
detects every incident one of its member rows detects (its recall is never below theirs on the
same incidents, the same unseen ones aside).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from .group_scores import GroupScores, already_firing

__all__ = ["merged_first", "merged_scores"]

_NEVER = np.iinfo(np.int64).max


def merged_first(first: np.ndarray, inc_start: np.ndarray,
                 tiers: Sequence[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    """Per incident (or pair): the first alert of the merged row that counts. ``first`` is the
    merged episodes' first matching start, ``tiers`` one ``(detected, first)`` per member tier
    (the same incidents in the same order). Where a tier not already firing at ``inc_start``
    fired during it, the first such tier alert (the detection instant); elsewhere ``first``
    (before ``inc_start`` when the row already fired: every matching tier already did).

    >>> start = np.array([100, 100, 100])
    >>> ticket = (np.array([True, True, False]), np.array([50, 50, 0]))
    >>> page = (np.array([True, False, False]), np.array([139, 0, 0]))
    >>> merged_first(np.array([50, 50, 0]), start, [ticket, page]).tolist()
    [139, 50, 0]
    """
    best = np.full(len(inc_start), _NEVER, dtype=np.int64)
    for detected, tier_first in tiers:
        fresh = detected & ~already_firing(tier_first, inc_start)
        best = np.where(fresh & (tier_first < best), tier_first, best)
    return np.where(best < _NEVER, best, first).astype(np.int64)


def merged_scores(gs: GroupScores, inc_start: np.ndarray,
                  tiers: Sequence[GroupScores | None]) -> GroupScores | None:
    """``gs`` (the merged episodes' matches of every group) with ``first`` per pair as
    :func:`merged_first` reads it from the member tiers' matches ``tiers`` (the same pairs:
    every group's incidents, in :func:`~budgetlab.alerts.group_scores.group_scores`' order).
    ``None`` when a tier's matches are (its episodes overlap: scored row by row)."""
    if any(t is None for t in tiers):
        return None
    per = [(t.detected, t.first) for t in tiers if t is not None]
    first = merged_first(gs.first, inc_start[gs.pair_incident], per)
    return dataclasses.replace(gs, first=np.where(gs.detected, first, gs.first))
