"""Labelled incidents against the windows of
:func:`~budgetlab.analyses.window_lengths.compare_windows`
and :func:`~budgetlab.analyses.window_lengths.window_incidents`: the incident table parsed once,
and per group and incident how fast the per-event status reached ``alert_at`` (detection) and how
long it took to fall below it after the end (recovery)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .._util.validation import utc_ns_column
from ..alerts.incidents_file import check_incidents
from ..errors import InputError
from ..events.schema import parse_scope, scope_mask
from .sorted_events import Sorted

__all__ = ["NAT", "Incidents", "incident_delays", "incident_rows", "incident_columns",
           "as_timedelta"]

#: "Never": a missed detection or an unrecovered incident (NaT once a Timedelta).
NAT = np.iinfo(np.int64).min


class Incidents:
    """Incident table parsed once: times in ns and which groups each scope covers."""

    def __init__(self, incidents: pd.DataFrame, srt: Sorted) -> None:
        check_incidents(incidents)
        inc = incidents.reset_index(drop=True)
        self.table = inc
        self.start = utc_ns_column(inc["start"], "incidents['start']")
        self.end = utc_ns_column(inc["end"], "incidents['end']")
        if bool(np.any(self.end <= self.start)):
            raise InputError("incidents has rows with end <= start; 'end' is exclusive and must be "
                             "after 'start'.")
        scopes = inc["scope"].tolist() if "scope" in inc.columns else ["*"] * len(inc)
        keys = srt.keys.astype(str) if srt.by else pd.DataFrame(index=pd.RangeIndex(1))
        self.match = np.zeros((len(inc), srt.n_groups), dtype=bool)
        for i, sc in enumerate(scopes):
            parse_scope(sc)
            self.match[i] = scope_mask(keys, sc)



def incident_delays(t: np.ndarray, code: np.ndarray, s: int, e: int, start: int, end: int,
                     grace_ns: int, level: int) -> tuple[int, int]:
    """(detection delay, recovery time) in ns of one group ``[s, e)`` for one incident; ``NAT``
    when missed / not recovered. Detection: status ``>= level``; recovery: ``< level``. The
    status holding at a time ``x`` is that of the group's last event before ``x`` (healthy
    before its first event)."""
    tg, cg = t[s:e], code[s:e]
    k = int(np.searchsorted(tg, start, side="left"))
    if k > 0 and cg[k - 1] >= level:
        det = 0
    else:
        hit = np.flatnonzero(cg[k:] >= level)
        det = int(tg[k + hit[0]] - start) if len(hit) and tg[k + hit[0]] < end + grace_ns else NAT
    k = int(np.searchsorted(tg, end, side="left"))
    if k == 0 or cg[k - 1] < level:
        rec = 0
    else:
        ok = np.flatnonzero(cg[k:] < level)
        rec = int(tg[k + ok[0]] - end) if len(ok) else NAT
    return det, rec


def as_timedelta(ns: np.ndarray) -> pd.TimedeltaIndex:
    """ns as Timedeltas (:data:`NAT` becomes NaT)."""
    return pd.to_timedelta(np.asarray(ns, dtype=np.int64).view("timedelta64[ns]"))


def incident_rows(inc: Incidents, t: np.ndarray, code: np.ndarray, bounds: np.ndarray, lo_ns: int,
                   grace_ns: int, level: int) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                       np.ndarray]:
    """(group, incident index, detection ns, recovery ns) for every in-scope pair."""
    gs, ii, det, rec = [], [], [], []
    for i in range(len(inc.start)):
        if inc.start[i] < lo_ns:
            continue
        for g in np.flatnonzero(inc.match[i]).tolist():
            s, e = int(bounds[g]), int(bounds[g + 1])
            d, r = incident_delays(t, code, s, e, int(inc.start[i]), int(inc.end[i]), grace_ns,
                                   level)
            gs.append(g)
            ii.append(i)
            det.append(d)
            rec.append(r)
    return (np.array(gs, dtype=np.int64), np.array(ii, dtype=np.int64), np.array(det,
                                                                                 dtype=np.int64),
            np.array(rec, dtype=np.int64))


def incident_columns(inc: Incidents, t: np.ndarray, code: np.ndarray, bounds: np.ndarray,
                     lo_ns: int,
                      grace_ns: int, level: int) -> dict[str, Any]:
    g_n = len(bounds) - 1
    gs, _, det, rec = incident_rows(inc, t, code, bounds, lo_ns, grace_ns, level)
    n_inc = np.bincount(gs, minlength=g_n)
    hit = det != NAT
    back = rec != NAT
    n_det = np.bincount(gs[hit], minlength=g_n)
    n_back = np.bincount(gs[back], minlength=g_n)
    cols: dict[str, Any] = {"incidents": n_inc.astype(np.int64), "detected": n_det.astype(np.int64),
                            "missed": (n_inc - n_det).astype(np.int64)}
    for name, vals, ok in (("detection", det, hit), ("recovery", rec, back)):
        med = np.full(g_n, NAT, dtype=np.int64)
        mx = np.full(g_n, NAT, dtype=np.int64)
        for g in range(g_n):
            v = vals[(gs == g) & ok]
            if len(v):
                med[g] = int(np.median(v))
                mx[g] = int(v.max())
        cols[f"{name}_median"] = as_timedelta(med)
        cols[f"{name}_max"] = as_timedelta(mx)
    cols["unrecovered"] = (n_inc - n_back).astype(np.int64)
    return cols
