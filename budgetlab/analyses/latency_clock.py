"""The clock of :func:`~budgetlab.latency_recalibrate`: per group, the time at the limit status
and the observed time in each day (24 h blocks from the log's first event), the history evaluated
(its time and its span) and the events in it, all after warm-up with no-traffic time left out, as
:func:`budgetlab.recalibrate` counts them: the status spans say which status, the one rule of
evaluated time (:func:`~budgetlab.analyses.recalibration.clock.evaluated_time`) how long; a
stretch whose only evaluated part is one instant before its window empties holds none
(:func:`no_time_instants`)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from .._util.units import DAY_NS
from .._util.validation import utc_ns_column
from .recalibration.clock import clock_counts, evaluated_events, evaluated_time
from .recalibration.evidence import short_history

__all__ = ["day_times", "history_days", "caveat_short_history", "evaluated_group_events",
           "no_time_instants"]


def evaluated_group_events(events: pd.DataFrame, gcodes: np.ndarray, n_groups: int,
                           window_ns: int, counted: np.ndarray | None = None) -> np.ndarray:
    """Per group, the events in the evaluated span (after each traffic stretch's first window), as
    :func:`budgetlab.recalibrate` counts them for its thin-evidence rule; only those ``counted``
    (a mask of ``events``) where given."""
    if not len(events):
        return np.zeros(n_groups, dtype=np.int64)
    order = np.argsort(gcodes, kind="stable")
    t = utc_ns_column(events["ts"], "ts")[order]
    bounds = np.searchsorted(gcodes[order], np.arange(n_groups + 1))
    keep = evaluated_events(t, bounds, window_ns, int(t.min()), int(t.max()))
    if counted is not None:
        keep = keep & counted[order]
    return np.bincount(gcodes[order][keep], minlength=n_groups)


def no_time_instants(events: pd.DataFrame, gcodes: np.ndarray, n_groups: int, window_ns: int,
                     span: tuple[int, int]) -> pd.MultiIndex:
    """``(group, instant)`` (ns) of each evaluated part that is one instant with no evaluated time
    by :func:`~budgetlab.analyses.recalibration.clock.evaluated_time` (the window is full at the
    instant its stretch's warm-up closes and empties 1 ns later: a lone event), on the window's
    clock over ``span`` (the status spans' observation); the status spans keep its nanosecond,
    which :func:`day_times` and :func:`history_days` leave out."""
    order = np.argsort(gcodes, kind="stable")
    t = utc_ns_column(events["ts"], "ts")[order] if len(events) else np.zeros(0, dtype=np.int64)
    bounds = np.searchsorted(gcodes[order], np.arange(n_groups + 1))
    c = clock_counts(t, np.zeros(len(t), dtype=bool), bounds, window_ns, span[1])
    a, b = evaluated_time(c, *span)
    none = (b == a) & (np.minimum(c.end, span[1]) == a + 1)  # the clock's 1 ns, counted none
    return pd.MultiIndex.from_arrays([c.seg[none], a[none]])


def _evaluated(spans: pd.DataFrame, keys: Sequence[str], censoring: pd.DataFrame,
               instants: pd.MultiIndex) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The evaluated part of each status span with traffic: its start (after warm-up), end,
    status and group (the row of ``censoring``); spans wholly in warm-up or without traffic left
    out, and so is an evaluated part that is one of the ``instants`` (:func:`no_time_instants`:
    no evaluated time)."""
    status = spans["status"].astype(str).to_numpy()
    start, warm, end = (utc_ns_column(spans[c], c) for c in ("start", "warmup_end", "end"))
    a = np.maximum(start, warm)
    g = _group_rows(spans, keys, censoring)
    keep = (status != "no_traffic") & (end > a)
    one = keep & (end == a + 1)
    if bool(one.any()) and len(instants):
        keep[one] = ~pd.MultiIndex.from_arrays([g[one], a[one]]).isin(instants)
    return a[keep], end[keep], status[keep], g[keep]


def day_times(spans: pd.DataFrame, limit: list[str], t0: int, n_days: int, keys: Sequence[str],
              censoring: pd.DataFrame, instants: pd.MultiIndex,
              ) -> tuple[np.ndarray, np.ndarray]:
    """Per group and day of the observation (24 h blocks from ``t0``, the log's first event): time
    at ``limit`` or worse, and observed time (both after warm-up, no-traffic time and the
    ``instants`` of :func:`no_time_instants` left out)."""
    a, b, status, g = _evaluated(spans, keys, censoring, instants)
    a, b = a - t0, b - t0
    is_bad = np.isin(status, limit)
    da, db = a // DAY_NS, (b - 1) // DAY_NS
    reps = (db - da + 1).astype(np.int64)
    row = np.repeat(np.arange(len(a)), reps)
    day = da[row] + np.arange(len(row)) - np.repeat(np.cumsum(reps) - reps, reps)
    lo = np.maximum(a[row], day * DAY_NS)
    hi = np.minimum(b[row], (day + 1) * DAY_NS)
    flat = g[row] * n_days + np.clip(day, 0, n_days - 1)
    size = len(censoring) * n_days
    obs = np.bincount(flat, weights=(hi - lo).astype(np.float64), minlength=size)
    bad = np.bincount(flat, weights=np.where(is_bad[row], hi - lo, 0).astype(np.float64),
                      minlength=size)
    return bad.reshape(len(censoring), n_days), obs.reshape(len(censoring), n_days)


def history_days(spans: pd.DataFrame, keys: Sequence[str], censoring: pd.DataFrame,
                 instants: pd.MultiIndex) -> tuple[np.ndarray, np.ndarray]:
    """Per group, ``(history, span)`` in days, as :func:`budgetlab.recalibrate`'s
    ``history_days`` and ``span_days``: its evaluated time (after warm-up, with traffic: a
    silence holds none, nor one of the ``instants``), the history the provisional rule counts;
    and the span from its first evaluated instant to its last (silences and later warm-ups
    included); 0 without evaluated time."""
    a, end, _, g = _evaluated(spans, keys, censoring, instants)
    first = np.full(len(censoring), np.nan)
    last = np.full(len(censoring), np.nan)
    np.fmin.at(first, g, a.astype(np.float64))
    np.fmax.at(last, g, end.astype(np.float64))
    held = np.bincount(g, weights=(end - a).astype(np.float64), minlength=len(censoring))
    return held / DAY_NS, np.where(np.isfinite(first), (last - first) / DAY_NS, 0.0)


def caveat_short_history(summary: pd.DataFrame, days: np.ndarray, span: np.ndarray) -> None:
    """A supported target from ``days`` of evaluated history (:func:`history_days`, ``span``
    beside it) shorter than
    :data:`~budgetlab.analyses.recalibration.evidence.MIN_HISTORY_DAYS` is provisional, said in
    ``note`` with :func:`budgetlab.recalibrate`'s words (its rows are groups x thresholds)."""
    g = np.repeat(np.arange(len(days)), len(summary) // max(len(days), 1))
    given = np.isfinite(summary["supported_target"].to_numpy(dtype=np.float64))
    summary["note"] = ["; ".join(x for x in (n, short_history(float(days[i]), span=float(
        span[i])) if k else "") if x) for n, i, k in zip(summary["note"], g, given, strict=True)]


def _group_rows(spans: pd.DataFrame, keys: Sequence[str], censoring: pd.DataFrame) -> np.ndarray:
    """The row of ``censoring`` (one per group) of each span."""
    if not keys:
        return np.zeros(len(spans), dtype=np.int64)
    index = pd.MultiIndex.from_frame(censoring[list(keys)].astype(str))
    return np.asarray(index.get_indexer(pd.MultiIndex.from_frame(spans[list(keys)].astype(str))),
                      dtype=np.int64)
