"""Incidents in a silence: **unseen**, neither detected nor missed.

An alert can only fire while its window holds traffic (a window without an event has error ratio
0). An incident during which a window held no event of its scope at any instant from the
incident's start to its end + ``grace`` gave nothing to detect: it is **unseen**, no miss.
:func:`held_traffic` is that one rule, on the stretches during which a window holds traffic;
:func:`~budgetlab.compare_windows` applies it on each window's clock (its ``unseen`` column) and
:func:`~budgetlab.score_alerts` on the tier's long window at each evaluation (the stretches of
:func:`traffic_spans`, the bins at whose end the window holds an event: the rule of the observed
time, :mod:`budgetlab.alerts.observed`), so that both count the same silence alike. An incident
that an alert matched is detected, whatever the traffic (an alert kept firing by its
``cooldown`` through a silence detects it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._util.words import prose_duration, say, some_named
from ..budget.burn_rows import traffic_runs
from ..errors import ConfigError
from ..privacy import shown
from ..windows.bingrid import BinGrid
from .firing import run_ends

__all__ = ["held_traffic", "traffic_spans", "Silences", "row_name", "unseen_note",
           "unseen_rows", "unseen_by_every_tier"]


def held_traffic(group: np.ndarray, start: np.ndarray, end: np.ndarray, pair_group: np.ndarray,
                 lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Per pair ``i``: whether group ``pair_group[i]``'s window held traffic at some instant of
    ``[lo[i], hi[i])``, given the stretches ``[start, end)`` (ns) during which each ``group``'s
    window holds traffic, disjoint within a group and sorted by group then start (a stretch
    ``[t, t)`` is the one instant ``t``).

    >>> held_traffic(np.array([0, 0, 1]), np.array([0, 50, 0]), np.array([10, 60, 100]),
    ...              np.array([0, 0, 0, 1, 2]), np.array([10, 5, 60, 30, 0]),
    ...              np.array([50, 20, 70, 40, 99])).tolist()
    [False, True, False, True, False]
    """
    group, start, end = (np.asarray(a, dtype=np.int64) for a in (group, start, end))
    pair_group, lo, hi = (np.asarray(a, dtype=np.int64) for a in (pair_group, lo, hi))
    if len(group) == 0:
        return np.zeros(len(pair_group), dtype=bool)
    times = np.unique(np.concatenate([start, hi]))
    big = np.int64(len(times))
    # the last stretch of the pair's group that starts before hi: it reaches furthest
    k = np.searchsorted(group * big + np.searchsorted(times, start),
                        pair_group * big + np.searchsorted(times, hi), side="left") - 1
    safe = np.maximum(k, 0)
    return np.asarray((k >= 0) & (group[safe] == pair_group) & (end[safe] > lo)
                      & (start[safe] < hi))


def traffic_spans(grid: BinGrid, window_ns: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(group, start, end)`` in ns: the stretches during which a window of ``window_ns``
    (rounded up to whole bins) holds an event of the group, evaluated at the bin ends: from the
    first evaluation at which it does to the first at which it no longer does (the last
    evaluation, the end of the grid, when it still does there: nothing past the evaluated span).

    >>> g = BinGrid.from_dense(pd.DataFrame(index=pd.RangeIndex(1)), [], 0, 60,
    ...                        np.array([[1, 0, 0, 0, 1, 0]]), np.zeros((1, 6)))
    >>> [a.tolist() for a in traffic_spans(g, 120)]
    [[0, 0], [60, 300], [180, 360]]
    """
    k = max(1, -(-int(window_ns) // grid.freq_ns))
    group, first, stop = traffic_runs(grid, k)
    ends = grid.bin_end_ns
    return group, ends[first], run_ends(ends, stop)


class Silences:
    """Whether incidents were seen by the rows of a score table: the stretches of
    :func:`traffic_spans` of the longest long window of the row's tiers (the observed time's
    window), read once per window. Without bins, or with a long window unknown, traffic is
    unknown: every incident is seen (none is unseen)."""

    def __init__(self, grid: BinGrid | None, long_ns: list[int | None]) -> None:
        self.grid = grid
        self.long_ns = long_ns
        self._spans: dict[int, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}

    def seen(self, tiers: list[int], pair_group: np.ndarray, lo: np.ndarray,
             hi: np.ndarray) -> np.ndarray:
        """Per (group, incident) pair: :func:`held_traffic` in ``[lo, hi)`` (the incident's start
        to its end + grace) of the long window of ``tiers``."""
        windows = [self.long_ns[t] for t in tiers]
        if self.grid is None or any(w is None for w in windows):
            return np.ones(len(pair_group), dtype=bool)
        k = max(int(w or 0) for w in windows)
        if k not in self._spans:
            self._spans[k] = traffic_spans(self.grid, k)
        return held_traffic(*self._spans[k], pair_group, lo, hi)

    def seen_any(self, tiers: list[int], scope: np.ndarray, groups: np.ndarray, lo: np.ndarray,
                 hi: np.ndarray) -> np.ndarray:
        """Per incident (row of ``scope``, its groups among ``groups``): seen by one of them."""
        inc, col = np.nonzero(scope)
        hit = self.seen(tiers, groups[col], lo[inc], hi[inc])
        return np.bincount(inc[hit], minlength=scope.shape[0]) > 0


def unseen_note(rows: list[tuple[str, list[str]]], grace: pd.Timedelta) -> str:
    """The incidents no alert matched and during which the tier's long window held no event of
    their scope, in words: ``rows`` holds, per score row (its name in prose), the ids of its
    unseen incidents; ``""`` when no row has any. The keyword ``grace=`` from the API, the flag
    ``--grace`` on the command line (:func:`~budgetlab._util.words.say`).

    >>> print(unseen_note([("page_1h", ["i2"]), ("all tiers merged", ["i2"])],
    ...                   pd.Timedelta("1h")))  # doctest: +NORMALIZE_WHITESPACE
    unseen (neither detected nor missed, left out of recall): 'i2' for page_1h and all tiers
    merged; the tier's long window held no event of the incident's scope from its start to 1 h
    (grace=) after its end: there was nothing to detect.
    """
    said: dict[tuple[str, ...], list[str]] = {}
    for name, ids in rows:
        if ids:
            said.setdefault(tuple(ids), []).append(name)
    if not said:
        return ""
    parts = []
    for named, names in said.items():
        who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        parts.append(f"{some_named([shown(i) for i in named], 5)} for {who}")
    flag = say("grace=", "--grace")
    return (f"unseen (neither detected nor missed, left out of recall): {'; '.join(parts)}; "
            f"the tier's long window held no event of the incident's scope from its start to "
            f"{prose_duration(grace)} ({flag}) after its end: there was nothing to detect.")


def row_name(tier: str, severity: str) -> str:
    """A score row in prose: its tier, or the tiers it merges.

    >>> row_name("page_1h", "page"), row_name("*", "page"), row_name("*", "*")
    ('page_1h', 'the page tiers merged', 'all tiers merged')
    """
    if tier != "*":
        return tier
    return "all tiers merged" if severity == "*" else f"the {severity} tiers merged"


def unseen_rows(rows: Sequence[tuple[str, str]], matches: Sequence[Any], positions: np.ndarray,
                apart: bool) -> list[dict[str, Any]]:
    """Which incidents each all-groups row of a score table left unseen (its
    ``attrs["unseen_incidents"]``), one record per row: its ``tier`` and ``severity``, ``rows``
    (the positions in the incidents table scored of those its ``unseen`` column counts) and,
    when what began while the long window filled is scored apart (``apart``), ``filling_rows``
    (the unseen incidents begun then, counted in ``incidents_filling`` instead). ``matches``
    holds each row's :class:`~budgetlab.alerts.score_context.Matches`: its incidents (their
    places in ``positions``, the scored incidents' positions in the table), whether each is
    ``unseen``, and whether it began while the window filled (``early``).

    >>> from types import SimpleNamespace
    >>> m = SimpleNamespace(incidents=np.array([0, 1, 2]), unseen=np.array([False, True, True]),
    ...                     early=np.array([False, False, True]))
    >>> unseen_rows([("page_1h", "page")], [m], np.array([0, 2, 3]), apart=True)
    [{'tier': 'page_1h', 'severity': 'page', 'rows': [2], 'filling_rows': [3]}]
    """
    said: list[dict[str, Any]] = []
    for (tier, sev), m in zip(rows, matches, strict=True):
        one = {"tier": tier, "severity": sev,
               "rows": positions[m.incidents[m.unseen & ~m.early]].tolist()}
        if apart:
            one["filling_rows"] = positions[m.incidents[m.unseen & m.early]].tolist()
        said.append(one)
    return said


def unseen_by_every_tier(scores: pd.DataFrame, scored: pd.DataFrame,
                         incidents: pd.DataFrame) -> np.ndarray:
    """Per row of ``incidents``: unseen by every tier, as the score table ``scores``
    (:func:`~budgetlab.score_alerts` of ``scored``: ``incidents`` or some of its rows, under
    their labels) says it in ``attrs["unseen_incidents"]`` (:func:`unseen_rows`): among the
    ``rows`` (and ``filling_rows``) of every tier's all-groups row. An incident not scored is not
    unseen. What the alert chart draws hollow (:func:`~budgetlab.plotting.plot_alerts`'
    ``unseen``) without scoring the policy again.

    >>> sc = pd.DataFrame()
    >>> sc.attrs["unseen_incidents"] = [
    ...     {"tier": "p1", "severity": "page", "rows": [1]},
    ...     {"tier": "t6", "severity": "ticket", "rows": [0, 1]},
    ...     {"tier": "*", "severity": "*", "rows": [0, 1]}]
    >>> inc = pd.DataFrame(index=range(4))
    >>> unseen_by_every_tier(sc, inc.iloc[[1, 3]], inc).tolist()  # scored rows 0, 1: 1 and 3
    [False, False, False, True]
    """
    records = scores.attrs.get("unseen_incidents")
    if not isinstance(records, list):
        raise ConfigError("scores= needs the score table budgetlab.score_alerts() returns, "
                          "with its attrs (unseen_incidents).")
    every: set[int] | None = None
    for r in records:
        if str(r["tier"]) != "*":
            mine = {*r["rows"], *r.get("filling_rows", [])}
            every = mine if every is None else every & mine
    return np.asarray(incidents.index.isin(scored.index[sorted(every or ())]), dtype=bool)
