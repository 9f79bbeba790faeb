"""While a tier's long window fills: the one rule of which alert episodes are set apart.

A tier evaluated less than its long window after the grid's start (the first bin of the data,
the same instant for every group) judges minutes of history as if they were hours or days. An
episode *over* by ``grid start + long window`` (its ``end`` at or before it) began and ended
while the window filled: :func:`budgetlab.score_alerts` scores it apart (``episodes_filling``)
and :func:`budgetlab.bucket_breakdown` does not count it (``alerts_filling``). An episode begun
earlier that still fires once the window is full is a page a person gets, counted like any
other. A tier whose long window never fills before the grid's end is *not evaluated*: every one
of its episodes is apart (``budgetlab incident`` says "not evaluated").
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from .._util.validation import utc_ns_column
from .score_inputs import OPEN

__all__ = ["filled_until", "over_while_filling", "episodes_filling", "unfilled_tiers"]


def filled_until(grid_start_ns: int, long_ns: int, span_end_ns: int) -> int:
    """An episode ending at or before this instant (ns) is over while the long window
    (``long_ns``) filled: ``grid_start_ns + long_ns``, or :data:`OPEN` (every episode) when the
    window never filled before ``span_end_ns``.

    >>> filled_until(0, 60, 600), filled_until(0, 600, 600) == OPEN
    (60, True)
    """
    cut = grid_start_ns + long_ns
    return cut if cut < span_end_ns else OPEN


def over_while_filling(end_ns: Any, filled_ns: int | None) -> np.ndarray:
    """Which episodes (their exclusive ``end_ns``) are over while the long window filled:
    ``end <= filled_ns`` (:func:`filled_until`); none when ``filled_ns`` is ``None`` (every
    episode counted).

    >>> over_while_filling(np.array([60, 61]), 60).tolist()
    [True, False]
    """
    ends = np.asarray(end_ns)
    if filled_ns is None:
        return np.zeros(len(ends), dtype=bool)
    return np.asarray(ends <= filled_ns)


def _grid_ns(attrs: Mapping[Hashable, Any]) -> tuple[int, int]:
    """``(grid_start, grid_end)`` in ns from an episodes table's attrs."""
    return (int(pd.Timestamp(attrs["grid_start"]).as_unit("ns").value),
            int(pd.Timestamp(attrs["grid_end"]).as_unit("ns").value))


def episodes_filling(episodes: pd.DataFrame) -> np.ndarray:
    """Per episode of a :func:`budgetlab.alert_episodes` table: over while its tier's long window
    filled (:func:`over_while_filling` at :func:`filled_until`; the grid and the windows from the
    table's ``attrs``: ``grid_start``, ``grid_end``, ``tier_windows``).

    >>> ep = pd.DataFrame({"tier": ["page_1h", "page_1h", "ticket_3d"],
    ...                    "end": pd.to_datetime(["2026-01-01 01:00", "2026-01-01 01:05",
    ...                                           "2026-01-01 12:00"], utc=True)})
    >>> ep.attrs.update(grid_start="2026-01-01T00:00:00+00:00",
    ...                 grid_end="2026-01-02T00:00:00+00:00",
    ...                 tier_windows={"page_1h": 3_600 * 10**9, "ticket_3d": 259_200 * 10**9})
    >>> episodes_filling(ep).tolist()
    [True, False, True]
    """
    start, end = _grid_ns(episodes.attrs)
    windows = episodes.attrs["tier_windows"]
    names, tier = np.unique(episodes["tier"].astype(str).to_numpy(), return_inverse=True)
    until = np.array([filled_until(start, int(windows[n]), end) for n in names.tolist()],
                     dtype=np.int64)
    ends = utc_ns_column(episodes["end"], "episodes['end']")
    return over_while_filling(ends, None) if not len(ends) else ends <= until[tier.reshape(-1)]


def unfilled_tiers(attrs: Mapping[Hashable, Any]) -> dict[str, int]:
    """The tiers (name: long window in ns) of an episodes table's ``attrs`` whose long window
    never filled before the grid's end: not evaluated.

    >>> unfilled_tiers({"grid_start": "2026-01-01T00:00:00+00:00",
    ...                 "grid_end": "2026-01-04T00:00:00+00:00",
    ...                 "tier_windows": {"page_1h": 3_600 * 10**9, "ticket_3d": 259_200 * 10**9}})
    {'ticket_3d': 259200000000000}
    """
    start, end = _grid_ns(attrs)
    return {str(n): int(w) for n, w in attrs["tier_windows"].items()
            if filled_until(start, int(w), end) == OPEN}
