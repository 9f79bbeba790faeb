"""While a tier's long window fills: the one rule of which alert episodes are set apart.

A tier's long window fills afresh at the start of every *stretch* of a group's traffic: the
group's own first event, and its first event after a silence longer than the window (the window
emptied; the warm-up of :func:`budgetlab.compare_windows` and of the window's clock,
docs/conventions.md). Until one window has passed, the tier judges minutes of the group's
history as if they were hours or days. The stretch starts at the start of its first bin with
traffic (``s``); a silence is longer than the window when the bins with traffic on either side of
it start more than the window apart (the window evaluated between them held nothing). An
episode of that group *over* by ``s + long window`` (its ``end`` at or before it) began and ended
while the window filled: :func:`budgetlab.score_alerts` scores it apart (``episodes_filling``;
it detects nothing),
``budgetlab backtest`` marks it (``filling``) and :func:`budgetlab.bucket_breakdown` does not
count it (``alerts_filling``). An episode begun earlier that still fires once the window is full
is a page a person gets, counted like any other. A stretch whose window never fills before the
grid's end sets apart every episode in it; a tier whose window fills in no stretch of any group
is *not evaluated* (``budgetlab incident`` says "not evaluated").

:func:`budgetlab.alert_episodes` keeps the stretch starts in its ``attrs["stretches"]``
(:func:`~budgetlab.alerts.stretches.stretch_attrs`); a table without them (older ones,
hand-built) is read by the grid's start for every group, the rule before stretches.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from .._util.validation import utc_ns_column
from ..windows.bingrid import BinGrid
from .score_inputs import OPEN
from .stretches import stretch_attrs

__all__ = ["filled_until", "over_while_filling", "episodes_filling", "unfilled_tiers",
           "Stretches", "filling_spans", "filling_words"]


def filled_until(grid_start_ns: Any, long_ns: int, span_end_ns: int) -> Any:
    """An episode of the stretch begun at ``grid_start_ns`` (an int or an array of them) ending at
    or before this instant (ns) is over while the long window (``long_ns``) filled:
    ``start + long_ns``, or :data:`OPEN` (every episode) when the window never filled before
    ``span_end_ns``.

    >>> filled_until(0, 60, 600), filled_until(0, 600, 600) == OPEN
    (60, True)
    """
    cut = np.asarray(grid_start_ns, dtype=np.int64) + np.int64(long_ns)
    out = np.where(cut < span_end_ns, cut, np.int64(OPEN))
    return int(out) if out.ndim == 0 else out


def over_while_filling(end_ns: Any, filled_ns: Any) -> np.ndarray:
    """Which episodes (their exclusive ``end_ns``) are over while the long window filled:
    ``end <= filled_ns`` (:func:`filled_until`, one instant or one per episode); none when
    ``filled_ns`` is ``None`` (every episode counted).

    >>> over_while_filling(np.array([60, 61]), 60).tolist()
    [True, False]
    """
    ends = np.asarray(end_ns)
    if filled_ns is None:
        return np.zeros(len(ends), dtype=bool)
    return np.asarray(ends <= filled_ns)


class Stretches:
    """The stretch starts of :func:`~budgetlab.alerts.stretches.stretch_attrs` with each row's
    group as a position in the scorer's ``keys`` (a table of group key values, the grid's
    order), from the grid or from the ``attrs``; without either, one stretch per group at
    ``grid_start_ns`` (the rule before stretches)."""

    def __init__(self, n_groups: int, group: np.ndarray, start_ns: np.ndarray,
                 gap_ns: np.ndarray) -> None:
        order = np.lexsort((start_ns, group))
        self.n_groups = n_groups
        self.group, self.start, self.gap = group[order], start_ns[order], gap_ns[order]

    @classmethod
    def of(cls, keys: pd.DataFrame, by: list[str], attrs: Mapping[Hashable, Any],
           grid: BinGrid | None, grid_start_ns: int | None,
           min_window_ns: int = 0) -> Stretches | None:
        """The stretches of the groups of ``keys`` (``by`` its columns; for windows of at least
        ``min_window_ns`` when read from the ``grid``), or ``None`` when nothing says where they
        start."""
        if grid is not None:
            raw: Mapping[str, list[Any]] = stretch_attrs(grid, min_window_ns)
        elif isinstance(attrs.get("stretches"), Mapping):
            raw = attrs["stretches"]
        elif grid_start_ns is not None:
            n = len(keys)
            return cls(n, np.arange(n, dtype=np.int64), np.full(n, grid_start_ns, np.int64),
                       np.full(n, -1, np.int64))
        else:
            return None
        pos = _key_positions(keys, by, raw["keys"])
        known = pos >= 0
        return cls(len(keys), pos[known], np.asarray(raw["start_ns"], np.int64)[known],
                   np.asarray(raw["gap_ns"], np.int64)[known])

    def filled(self, group: np.ndarray, start_ns: np.ndarray, long_ns: int,
               span_end_ns: int) -> np.ndarray:
        """Per interval (its group, its start): :func:`filled_until` of the stretch it began in
        for a window of ``long_ns`` (the latest stretch start at or before it; ``OPEN`` when its
        group has none)."""
        keep = (self.gap < 0) | (self.gap >= long_ns)
        g, s = self.group[keep], self.start[keep]
        times = np.unique(np.concatenate([s, np.asarray(start_ns, np.int64)]))
        big = np.int64(len(times))  # (group, rank of the time): ordered as (group, time)
        ranks = np.searchsorted(g * big + np.searchsorted(times, s),
                                np.asarray(group) * big + np.searchsorted(times, start_ns),
                                side="right") - 1
        found = (ranks >= 0) & (g[np.maximum(ranks, 0)] == group) if len(g) else ranks >= 0
        begun = s[np.maximum(ranks, 0)] if len(s) else np.zeros(len(ranks), np.int64)
        return np.where(found, filled_until(begun, long_ns, span_end_ns), np.int64(OPEN))

    def never_filled(self, long_ns: int, span_end_ns: int) -> bool:
        """No stretch of any group filled a window of ``long_ns`` before ``span_end_ns``."""
        keep = (self.gap < 0) | (self.gap >= long_ns)
        return not bool(np.any(self.start[keep] + long_ns < span_end_ns))


def _key_positions(keys: pd.DataFrame, by: list[str], rows: list[list[str]]) -> np.ndarray:
    """Position in ``keys`` of each key row (``-1``: a group ``keys`` does not have)."""
    if not by:
        return np.zeros(len(rows), dtype=np.int64)

    def index(cols: list[np.ndarray]) -> pd.Index:
        return pd.MultiIndex.from_arrays(cols) if len(cols) > 1 else pd.Index(cols[0])

    mine = index([keys[k].astype(str).to_numpy(dtype=object) for k in by])
    table = np.array(rows, dtype=object).reshape(len(rows), len(by))
    return np.asarray(mine.get_indexer(index([table[:, j] for j in range(len(by))])), np.int64)


def _grid_ns(attrs: Mapping[Hashable, Any]) -> tuple[int, int]:
    """``(grid_start, grid_end)`` in ns from an episodes table's attrs."""
    return (int(pd.Timestamp(attrs["grid_start"]).as_unit("ns").value),
            int(pd.Timestamp(attrs["grid_end"]).as_unit("ns").value))


def _table_stretches(episodes: pd.DataFrame) -> tuple[Stretches, np.ndarray]:
    """The stretches of an episodes table's ``attrs`` and each episode's group among them."""
    attrs = episodes.attrs
    by = [str(k) for k in attrs.get("by") or []]
    if by:
        keys = episodes[by].astype(str).drop_duplicates().reset_index(drop=True)
        group = _key_positions(keys, by, episodes[by].astype(str).to_numpy().tolist())
    else:
        keys, group = pd.DataFrame(index=pd.RangeIndex(1)), np.zeros(len(episodes), np.int64)
    found = Stretches.of(keys, by, attrs, None, _grid_ns(attrs)[0])
    assert found is not None  # the grid's start is known
    return found, group


def episodes_filling(episodes: pd.DataFrame) -> np.ndarray:
    """Per episode of a :func:`budgetlab.alert_episodes` table: over while its tier's long window
    filled in the stretch of its group's traffic it began in (:func:`over_while_filling`; the
    grid, the windows and the stretches from the table's ``attrs``: ``grid_start``, ``grid_end``,
    ``tier_windows``, ``by``, ``stretches``).

    >>> ep = pd.DataFrame({"k": ["a", "a", "b"], "tier": ["page_1h", "page_1h", "page_1h"],
    ...                    "start": pd.to_datetime(["2026-01-01 00:10", "2026-01-01 05:10",
    ...                                             "2026-01-01 05:10"], utc=True),
    ...                    "end": pd.to_datetime(["2026-01-01 00:20", "2026-01-01 05:20",
    ...                                           "2026-01-01 05:20"], utc=True)})
    >>> ep.attrs.update(grid_start="2026-01-01T00:00:00+00:00", by=["k"],
    ...                 grid_end="2026-01-02T00:00:00+00:00",
    ...                 tier_windows={"page_1h": 3_600 * 10**9},
    ...                 stretches={"keys": [["a"], ["b"]], "gap_ns": [-1, -1],
    ...                            "start_ns": [1767225600 * 10**9, 1767243600 * 10**9]})
    >>> episodes_filling(ep).tolist()  # b's traffic begins at 05:00
    [True, False, True]
    """
    if not len(episodes):
        return np.zeros(0, dtype=bool)
    stretches, group = _table_stretches(episodes)
    end = _grid_ns(episodes.attrs)[1]
    windows = episodes.attrs["tier_windows"]
    tiers = episodes["tier"].astype(str).to_numpy()
    starts = utc_ns_column(episodes["start"], "episodes['start']")
    ends = utc_ns_column(episodes["end"], "episodes['end']")
    out = np.zeros(len(episodes), dtype=bool)
    for name in np.unique(tiers).tolist():
        rows = tiers == name
        filled = stretches.filled(group[rows], starts[rows], int(windows[name]), end)
        out[rows] = over_while_filling(ends[rows], filled)
    return out


def unfilled_tiers(attrs: Mapping[Hashable, Any]) -> dict[str, int]:
    """The tiers (name: long window in ns) of an episodes table's ``attrs`` whose long window
    filled in no stretch of any group before the grid's end: not evaluated.

    >>> unfilled_tiers({"grid_start": "2026-01-01T00:00:00+00:00",
    ...                 "grid_end": "2026-01-04T00:00:00+00:00",
    ...                 "tier_windows": {"page_1h": 3_600 * 10**9, "ticket_3d": 259_200 * 10**9}})
    {'ticket_3d': 259200000000000}
    """
    start, end = _grid_ns(attrs)
    found = _attr_stretches(attrs, start)
    return {str(n): int(w) for n, w in attrs["tier_windows"].items()
            if found.never_filled(int(w), end)}


def _attr_stretches(attrs: Mapping[Hashable, Any], grid_start_ns: int) -> Stretches:
    """Every stretch start of ``attrs`` (whose group does not matter here), else the grid's
    start."""
    raw = attrs.get("stretches")
    if not isinstance(raw, Mapping):
        return Stretches(1, np.zeros(1, np.int64), np.array([grid_start_ns]), np.array([-1]))
    start = np.asarray(raw["start_ns"], np.int64)
    return Stretches(1, np.zeros(len(start), np.int64), start, np.asarray(raw["gap_ns"], np.int64))


def filling_spans(attrs: Mapping[Hashable, Any], group: tuple[str, ...],
                  tier: str) -> list[tuple[int, int]]:
    """Where ``tier``'s long window filled for ``group`` (its key values as text, in ``by``
    order; ``()`` ungrouped): ``(start, stop)`` in ns per stretch of its traffic, ``stop`` the
    start plus the window, clipped to the grid's end; from the grid's start when ``attrs`` hold
    no ``stretches``; none without ``grid_start``, ``grid_end`` or the tier's window.

    >>> filling_spans({"grid_start": "1970-01-01T00:00:00Z", "grid_end": "1970-01-01T00:10:00Z",
    ...                "tier_windows": {"t": 120 * 10**9},
    ...                "stretches": {"keys": [["a"], ["b"], ["b"]],
    ...                              "start_ns": [0, 60 * 10**9, 540 * 10**9],
    ...                              "gap_ns": [-1, -1, 480 * 10**9]}}, ("b",), "t")
    [(60000000000, 180000000000), (540000000000, 600000000000)]
    """
    window = (attrs.get("tier_windows") or {}).get(tier)
    if window is None or attrs.get("grid_start") is None or attrs.get("grid_end") is None:
        return []
    start, end = _grid_ns(attrs)
    raw = attrs.get("stretches")
    if isinstance(raw, Mapping):
        begins = [int(s) for k, s, gap in zip(raw["keys"], raw["start_ns"], raw["gap_ns"],
                                              strict=True)
                  if tuple(k) == tuple(group) and (gap < 0 or gap >= int(window))]
    else:
        begins = [start]
    return [(s, min(s + int(window), end)) for s in begins if min(s + int(window), end) > s]


def filling_words(window: str) -> str:
    """Where episodes over while a long window of ``window`` (its words) filled began and ended,
    as the notes under the scores and the bucket tables say it.

    >>> filling_words("1 h")
    "in the first 1 h of a group's traffic (or of its return after a silence that long)"
    """
    return (f"in the first {window} of a group's traffic (or of its return after a silence that "
            "long)")
