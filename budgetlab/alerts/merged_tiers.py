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

**While a window fills** (:mod:`budgetlab.alerts.filling`) an episode scored apart detects
nothing, on a merged row as on its tier's own row (:func:`split_rows`). A merged episode is
apart when it is over while the row's longest long window filled, or when every member episode
in it is over while its own tier's window filled (in the stretch of its group's traffic it
began in: after a silence shorter than the longest window the short tiers' windows fill again
while the longest does not). The scored and apart merged episodes together are the merged
episodes of ``filling="count"``. Only member episodes scored on their own row and not inside
an apart merged episode detect (:func:`outside_apart`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

import numpy as np

from .filling import over_while_filling
from .group_scores import GroupScores, already_firing, merge_intervals

__all__ = ["merged_first", "merged_scores", "outside_apart", "split_rows", "Triple"]

Triple = tuple[np.ndarray, np.ndarray, np.ndarray]  #: (group, start, end) of episodes

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


def outside_apart(gi: np.ndarray, st: np.ndarray, en: np.ndarray, apart_gi: np.ndarray,
                  apart_st: np.ndarray, apart_en: np.ndarray) -> Triple:
    """The member tier's episodes (group ``gi``, ``[st, en)``) that lie inside none of the merged
    row's episodes scored apart (``apart_*``: disjoint per group, sorted by group and start, as
    :func:`~budgetlab.alerts.group_scores.merge_intervals` returns them): an episode scored
    apart detects nothing, nor does any alert it is made of.

    >>> g = np.array([0, 0, 1])
    >>> kept = outside_apart(g, np.array([10, 50, 10]), np.array([20, 60, 20]),
    ...                      np.array([0]), np.array([5]), np.array([30]))
    >>> [a.tolist() for a in kept]
    [[0, 1], [50, 10], [60, 20]]
    """
    at = _containing(apart_gi, apart_st, gi, st)
    k = np.maximum(at, 0)
    inside = (at >= 0) & (en <= apart_en[k]) if len(apart_en) else np.zeros(len(gi), dtype=bool)
    return gi[~inside], st[~inside], en[~inside]


def _containing(mg: np.ndarray, ms: np.ndarray, gi: np.ndarray, st: np.ndarray) -> np.ndarray:
    """Per episode (group ``gi``, start ``st``): the position of the last of the intervals
    (``mg``, ``ms``: sorted by group and start) of its group begun at or before it, ``-1``
    when none."""
    if len(mg) == 0 or len(gi) == 0:
        return np.full(len(gi), -1, dtype=np.int64)
    times = np.unique(np.concatenate([ms, st]))
    big = np.int64(len(times))  # (group, rank of the time): ordered as (group, time)
    keys = mg.astype(np.int64) * big + np.searchsorted(times, ms)
    at = np.searchsorted(keys, gi.astype(np.int64) * big + np.searchsorted(times, st),
                         side="right") - 1
    return np.where((at >= 0) & (mg[np.maximum(at, 0)] == gi), at, -1).astype(np.int64)


def split_rows(gi: np.ndarray, st: np.ndarray, en: np.ndarray, tier: np.ndarray,
               tiers: list[int],
               filled: Callable[[list[int], np.ndarray, np.ndarray], np.ndarray | None],
               ) -> tuple[Triple, Triple, Triple, list[Triple]]:
    """The episodes (group ``gi``, ``[st, en)``, ``tier``) of the row of ``tiers`` as
    ``(scored, apart, detecting, members)``: the row's episodes scored and those scored apart
    (merged per group when several tiers; together the row's episodes), the intervals that may
    detect an incident (merged) and, per tier of ``tiers``, its episodes that may. ``filled(tiers,
    group, start)`` is when the long window of those tiers (the longest) filled for each
    episode, ``None``: every episode scored (``filling='count'``).

    >>> when = lambda t, g, s: np.full(len(g), 100 if t == [0] else 1000)
    >>> out = split_rows(np.zeros(4, np.int64), np.array([10, 200, 300, 1200]),
    ...                  np.array([50, 250, 1500, 1300]), np.array([0, 0, 1, 0]), [0, 1], when)
    >>> [[a.tolist() for a in part] for part in out[:3]]
    [[[0], [300], [1500]], [[0, 0], [10, 200], [50, 250]], [[0], [300], [1500]]]
    """
    own = np.zeros(len(gi), dtype=bool)
    for t in tiers:
        rows = tier == t
        own[rows] = over_while_filling(en[rows], filled([t], gi[rows], st[rows]))
    if len(tiers) == 1:
        kept = (gi[~own], st[~own], en[~own])
        return kept, (gi[own], st[own], en[own]), kept, [kept]
    mg, ms, me = merge_intervals(gi, st, en)
    some = np.zeros(len(mg), dtype=bool)  # a member scored on its own row
    some[_containing(mg, ms, gi[~own], st[~own])] = True
    away = over_while_filling(me, filled(tiers, mg, ms)) | ~some
    members = [outside_apart(gi[~own & (tier == t)], st[~own & (tier == t)],
                             en[~own & (tier == t)], mg[away], ms[away], me[away]) for t in tiers]
    detecting = merge_intervals(*(np.concatenate(parts) for parts in zip(*members, strict=True)))
    return (mg[~away], ms[~away], me[~away]), (mg[away], ms[away], me[away]), detecting, members
