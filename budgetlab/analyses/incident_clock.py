"""The incident report's tracker on the window's clock (:func:`budgetlab.status_spans`).

The per-event columns of the tracker table (the first status change, its burn, the number of
changes) are what the tracker's callbacks saw. Its status when the incident began and ended, its
worst status during it and the time its window was empty are read on the window's clock: between
events the window keeps moving, and an empty window is *no traffic*, never the last status.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..budget.spans import SPAN_STATUS_DTYPE, SPAN_STATUSES, status_spans
from ..slo import SLO

__all__ = ["NO_TRAFFIC", "on_the_clock"]


#: The code of ``no_traffic`` in :data:`~budgetlab.budget.spans.SPAN_STATUS_DTYPE`.
NO_TRAFFIC = SPAN_STATUSES.index("no_traffic")


def on_the_clock(tracker: pd.DataFrame, events: pd.DataFrame, slo: SLO, keys: list[str], span: Any) -> pd.DataFrame:
    """The tracker table's time-driven columns from the window's clock (:func:`budgetlab.status_spans`):
    ``status_at_start`` (at ``start``), ``status_at_end`` (in the incident's last instant),
    ``worst_status`` and ``worst_at`` over ``[start, end)`` (``no_traffic`` when the window was
    empty throughout), ``hours_no_traffic`` during the incident. The worst group comes first."""
    start, end = span.start, span.end
    spans = status_spans(events, slo, by=keys or None, end=max(span.w_end, events["ts"].iloc[-1]))
    lo, hi = start.value, end.value
    s_ns, e_ns = spans["start"].array.asi8, spans["end"].array.asi8
    code = spans["status"].cat.codes.to_numpy().astype(np.int64)
    gid = (spans.groupby(keys, observed=True, sort=False).ngroup().to_numpy() if keys
           else np.zeros(len(spans), dtype=np.int64))
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
        at = mine & (s_ns <= lo) & (e_ns > lo)
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


