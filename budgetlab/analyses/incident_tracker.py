"""The incident report's tracker table: one row per group, the worst group first.

The per-event columns (the first status change, its burn, the number of changes, the peak burn)
are what the tracker's callbacks saw. Its status when the incident began and ended, its worst
status during it and the time its window was empty are read on the window's clock
(:func:`budgetlab.status_spans`): between events the window keeps moving, and an empty window is
*no traffic*, never the last status.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..budget.blips import blips_folded
from ..budget.spans import SPAN_STATUS_DTYPE, SPAN_STATUSES
from .incident_window import Span, between

__all__ = ["NO_TRAFFIC", "TRACKER_COLUMNS", "tracker_table"]


#: The code of ``no_traffic`` in :data:`~budgetlab.budget.spans.SPAN_STATUS_DTYPE`.
NO_TRAFFIC = SPAN_STATUSES.index("no_traffic")

#: Columns of the tracker table after the group keys.
TRACKER_COLUMNS = ("status_at_start", "worst_status", "worst_at", "status_at_end",
                   "first_change_at", "first_change_from", "first_change_to", "first_change_burn",
                   "first_change_rate", "peak_burn", "peak_burn_at", "min_success_rate",
                   "transitions", "transitions_caused_by_timeouts", "hours_no_traffic")


def tracker_table(states: pd.DataFrame, trans: pd.DataFrame, spans: pd.DataFrame,
                  keys: list[str], span: Span) -> pd.DataFrame:
    """Per group of ``states`` (the replay, history included) and its ``trans``itions (with
    ``caused_by_timeouts``): the :data:`TRACKER_COLUMNS` over the incident ``[span.start,
    span.end)`` (the time-driven ones from ``spans``, :func:`budgetlab.status_spans` covering
    the incident), the worst group (status on the clock, then peak burn) first."""
    per_event = _per_event(states, trans, keys, span.start, span.end)
    return _on_the_clock(per_event, spans, keys, span)[[*keys, *TRACKER_COLUMNS]]


def _by_group(frame: pd.DataFrame, keys: list[str]) -> dict[tuple[Any, ...], pd.DataFrame]:
    if not keys:
        return {(): frame}
    return {k if isinstance(k, tuple) else (k,): g
            for k, g in frame.groupby(keys, observed=True, sort=True)}


def _per_event(states: pd.DataFrame, trans: pd.DataFrame, keys: list[str], start: pd.Timestamp,
               end: pd.Timestamp) -> pd.DataFrame:
    """Per group (in key order): the first status change, the changes and the peak burn during the
    incident, as the tracker recorded them at events (a loop over groups)."""
    during = _by_group(states[between(states["ts"], start, end)], keys)
    changes = _by_group(trans[between(trans["ts"], start, end)] if len(trans) else trans, keys)
    rows = []
    for key in _by_group(states, keys):
        row: dict[str, Any] = dict(zip(keys, key, strict=True))
        c = changes.get(key, trans.iloc[0:0])
        first = c.iloc[0] if len(c) else None
        row.update(first_change_at=first["ts"] if first is not None else pd.NaT,
                   first_change_from=str(first["from_status"]) if first is not None else None,
                   first_change_to=str(first["to_status"]) if first is not None else None,
                   first_change_burn=float(first["burn_rate"]) if first is not None else np.nan,
                   first_change_rate=float(first["current_rate"]) if first is not None else np.nan,
                   transitions=len(c),
                   transitions_caused_by_timeouts=int(c["caused_by_timeouts"].sum()))
        d = during.get(key, states.iloc[0:0])
        j = int(np.argmax(d["burn_rate"].to_numpy())) if len(d) else -1
        row.update(peak_burn=float(d["burn_rate"].iloc[j]) if len(d) else np.nan,
                   peak_burn_at=d["ts"].iloc[j] if len(d) else pd.NaT,
                   min_success_rate=float(d["success_rate"].min()) if len(d) else np.nan)
        rows.append(row)
    out = pd.DataFrame(rows, columns=[*keys, *TRACKER_COLUMNS[4:-1]])
    for col in ("first_change_at", "peak_burn_at"):
        out[col] = pd.Series([r[col] for r in rows], dtype="datetime64[ns, UTC]")
    return out


def _on_the_clock(tracker: pd.DataFrame, spans: pd.DataFrame, keys: list[str],
                  span: Span) -> pd.DataFrame:
    """The tracker table's time-driven columns from the window's clock: ``status_at_start`` (in
    the instant before ``start``: a change at ``start`` is the incident's first change; at
    ``start`` when the spans begin there), ``status_at_end`` (in the incident's last instant),
    ``worst_status`` and ``worst_at`` over ``[start, end)`` (``no_traffic`` when the window was
    empty throughout), ``hours_no_traffic`` during the incident; a status held for one instant
    only counts as the one before it (docs/conventions.md). The worst group comes first."""
    start, end = span.start, span.end
    lo, hi = start.value, end.value
    s_ns, e_ns = spans["start"].array.asi8, spans["end"].array.asi8
    gid = (spans.groupby(keys, observed=True, sort=False).ngroup().to_numpy() if keys
           else np.zeros(len(spans), dtype=np.int64))
    code = blips_folded(spans, gid)  # a status held for one instant only is none
    first: dict[tuple[str, ...], int] = {}
    rows = spans[keys].itertuples(index=False, name=None) if keys else [()] * len(spans)
    for k, g in zip(rows, gid.tolist(), strict=True):
        first.setdefault(tuple(str(v) for v in k), g)
    out = tracker.copy()
    at_s, at_e, worst, worst_at, quiet = [], [], [], [], []
    for _, row in tracker.iterrows():
        g = first.get(tuple(str(row[k]) for k in keys), -1)
        mine = gid == g
        over = mine & (s_ns < hi) & (e_ns > lo)
        at = mine & (s_ns <= lo - 1) & (e_ns > lo - 1)  # before a change at start
        at = at if at.any() else mine & (s_ns <= lo) & (e_ns > lo)  # spans begin at start
        last = mine & (s_ns <= hi - 1) & (e_ns > hi - 1)
        at_s.append(SPAN_STATUSES[int(code[at][0])] if at.any() else "no_traffic")
        at_e.append(SPAN_STATUSES[int(code[last][0])] if last.any() else "no_traffic")
        busy = over & (code != NO_TRAFFIC)
        if busy.any():
            top = int(code[busy].max())
            worst.append(SPAN_STATUSES[top])
            worst_at.append(pd.Timestamp(max(int(s_ns[busy & (code == top)][0]), lo), tz="UTC"))
        else:
            worst.append("no_traffic")
            worst_at.append(start)
        dur = np.minimum(e_ns, hi) - np.maximum(s_ns, lo)
        quiet.append(float(dur[over & (code == NO_TRAFFIC)].sum()) / 3.6e12)
    out["status_at_start"] = pd.Categorical(at_s, dtype=SPAN_STATUS_DTYPE)
    out["status_at_end"] = pd.Categorical(at_e, dtype=SPAN_STATUS_DTYPE)
    out["worst_status"] = pd.Categorical(worst, dtype=SPAN_STATUS_DTYPE)
    out["worst_at"] = pd.Series(worst_at, dtype="datetime64[ns, UTC]").to_numpy()
    out["hours_no_traffic"] = np.asarray(quiet, dtype=np.float64)
    level = out["worst_status"].cat.codes.to_numpy().astype(np.float64)
    level[level == NO_TRAFFIC] = -1.0
    rank = level * 1e6 + out["peak_burn"].fillna(0.0).to_numpy()
    return out.iloc[np.argsort(-rank, kind="stable")].reset_index(drop=True)
