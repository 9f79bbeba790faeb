"""A status held for one instant only (a *blip*) on the window's clock: found, and folded.

When an event arrives exactly one window after an earlier one, the closed left edge keeps the
earlier event in the window at that instant, and it leaves 1 ns later: those window contents
hold at no stretch of time. :func:`budgetlab.status_spans` keeps such a span (1 ns, flagged
``instant``, found by :func:`instant_spans`); wherever statuses are read as a sequence (status
episodes, the incident report's worst status) it is folded into the status before it
(:func:`blips_folded`), as the status changes on the clock count it (docs/conventions.md).
A traffic stretch whose events all arrive at its first instant is full at the instant its
warm-up closes only: that nanosecond is no evaluated time and counts with the warm-up
(:func:`closing_instants`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["instant_spans", "has_event", "blips_folded", "closing_instants"]


def instant_spans(t: np.ndarray, codes: np.ndarray, g: np.ndarray, s: np.ndarray,
                  window_ns: int, one: np.ndarray) -> np.ndarray:
    """Spans held for one instant only: of those ``[s, s + 1)`` with traffic (``one``), the ones
    where group ``g`` has an event at ``s`` and one at ``s - window`` (it leaves at ``s + 1``),
    as :attr:`~budgetlab.analyses.recalibration.clock.ClockCounts.instant` (``t`` ascending)."""
    out = np.zeros(len(s), dtype=bool)
    cand = np.flatnonzero(one)
    if len(cand):
        out[cand] = (has_event(t, codes, g[cand], s[cand])
                     & has_event(t, codes, g[cand], s[cand] - window_ns))
    return out


def has_event(t: np.ndarray, codes: np.ndarray, g: np.ndarray, at: np.ndarray) -> np.ndarray:
    """Whether group ``g[i]`` has an event at ``at[i]`` (``t`` ascending): one search per
    query, the rows sharing that time compared (usually one)."""
    lo = np.searchsorted(t, at, side="left")
    hi = np.searchsorted(t, at, side="right")
    found = np.asarray((hi - lo == 1) & (codes[np.minimum(lo, len(t) - 1)] == g), dtype=bool)
    for i in np.flatnonzero(hi - lo > 1).tolist():
        found[i] = bool((codes[lo[i]:hi[i]] == g[i]).any())
    return found


def blips_folded(spans: pd.DataFrame, group: np.ndarray) -> np.ndarray:
    """The status codes of :func:`status_spans` (int64, :data:`SPAN_STATUSES` order) with every
    status held for one instant only (``instant``) replaced by the status of the span before it
    in its group (``group``: each row's group number, rows in group then time order), as the
    status changes on the clock read them (:func:`status_spans` keeps the blip's row and its
    nanosecond): that status goes on through the instant. A blip first
    in its group, which the spans never hold, would read HEALTHY.

    >>> from budgetlab import SLO, as_events, status_spans
    >>> ts = pd.to_datetime(["2026-01-01 00:00", "2026-01-01 00:30", "2026-01-01 01:00",
    ...                      "2026-01-01 02:00"], utc=True)
    >>> sp = status_spans(as_events(ts, [False, True, False, True]), SLO(target=0.4, window="1h"))
    >>> sp["status"].astype(str).tolist(), blips_folded(sp, np.zeros(len(sp), int)).tolist()
    (['exhausted', 'warning', 'exhausted', 'warning', 'exhausted'], [3, 1, 1, 1, 3])
    """
    code = spans["status"].cat.codes.to_numpy().astype(np.int64)
    instant = spans["instant"].to_numpy(dtype=bool)
    if not bool(instant.any()):
        return code
    n = len(code)
    src = np.where(instant, -1, np.arange(n))
    np.maximum.accumulate(src, out=src)
    head = np.ones(n, dtype=bool)
    head[1:] = group[1:] != group[:-1]
    start = np.where(head, np.arange(n), 0)
    np.maximum.accumulate(start, out=start)
    return np.where(src >= start, code[np.maximum(src, 0)], 0)


def closing_instants(s: np.ndarray, e: np.ndarray, warmup_end: np.ndarray, traffic: np.ndarray,
                     gid: np.ndarray) -> np.ndarray:
    """Spans ``[s, e)`` (in group ``gid`` then time order) whose time after warm-up is only the
    instant the window empties at, with none before it in their stretch (its events all at its
    first instant ``f``: the window holds them through ``f + window``, its warm-up's end, and is
    empty 1 ns later). One instant is no evaluated time
    (:func:`~budgetlab.analyses.recalibration.clock.evaluated_time`), so that nanosecond of the
    grid counts with the warm-up: observed time = warm-up + evaluated time, to the nanosecond.

    >>> closing_instants(np.array([0, 11, 20]), np.array([11, 20, 31]), np.array([10, 11, 30]),
    ...                  np.array([True, False, True]), np.zeros(3, dtype=np.int64)).tolist()
    [True, False, False]
    """
    n = len(s)
    quiet_next = np.zeros(n, dtype=bool)  # the window empties right after the span
    quiet_next[:-1] = (gid[1:] == gid[:-1]) & ~traffic[1:]
    head = np.ones(n, dtype=bool)  # the group's first span: the observation starts there
    head[1:] = gid[1:] != gid[:-1]
    closes = (e - 1 == np.maximum(s, warmup_end)) & ((s <= warmup_end) | head)
    return np.asarray(traffic & quiet_next & closes)
