"""The labelled incidents :func:`~budgetlab.analyses.recalibration.recalibrate` leaves out
(``exclude_incidents=``): the time they leave out per group (:func:`incident_rows`), which of them
left out any evaluated time or event (:func:`incidents_left_out`), and what
:attr:`~budgetlab.analyses.recalibration.Recalibration.settings` records of them
(:func:`excluded_said`, :func:`merged_said`: the runs of per-group SLOs put together).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..._util.validation import require_columns, utc_ns_column
from ...events.schema import scope_mask
from .clock import evaluated_events
from .rolling import Exclusions, Rolling

__all__ = ["incident_rows", "incidents_left_out", "excluded_said", "merged_said"]


def _incident_spans(srt: Any, incidents: pd.DataFrame,
                    window_ns: int) -> tuple[list[np.ndarray], np.ndarray, np.ndarray]:
    """Per labelled incident: the groups its scope covers, and the ``[start, end + window)`` it
    leaves out of them (ns)."""
    require_columns(incidents, ["start", "end"], what="incidents")
    starts = utc_ns_column(incidents["start"], "incidents['start']")
    ends = utc_ns_column(incidents["end"], "incidents['end']")
    scopes = incidents["scope"].tolist() if "scope" in incidents.columns else ["*"] * len(incidents)
    keys = srt.keys.astype(str)
    covered = [np.flatnonzero(np.asarray(scope_mask(keys, sc), dtype=bool)) for sc in scopes]
    return covered, np.asarray(starts, dtype=np.int64), np.asarray(ends, dtype=np.int64) + window_ns


def incident_rows(srt: Any, incidents: pd.DataFrame, window_ns: int) -> Exclusions:
    """The time :func:`recalibrate` leaves out with ``exclude_incidents``: per group its scope
    covers, from a labelled incident's start to one window after its end."""
    covered, lo, hi = _incident_spans(srt, incidents, window_ns)
    n = [len(c) for c in covered]
    return Exclusions.merged(np.concatenate([np.zeros(0, dtype=np.int64), *covered]),
                             np.repeat(lo, n), np.repeat(hi, n))


def incidents_left_out(srt: Any, incidents: pd.DataFrame, window_ns: int, rolling: Rolling,
                       span: tuple[int, int]) -> np.ndarray:
    """Per labelled incident, whether it left out anything the evaluation counts: evaluated time
    (``rolling``'s evaluated part of a clock segment, incidents not cut out) or an evaluated event
    (in the evaluated ``span``, after its warm-up) of a group its scope covers, inside
    ``[start, end + window)``. One outside the evaluated span, within a warm-up, in a silence or
    scoped to no group with evaluated time leaves out nothing (an incident inside another leaves
    out time all the same: each is judged alone)."""
    covered, lo, hi = _incident_spans(srt, incidents, window_ns)
    a, b, seg = rolling.eval_from, rolling.eval_to, rolling.clock.seg
    t = np.asarray(srt.t, dtype=np.int64)
    counted = evaluated_events(t, srt.bounds, window_ns, *span)
    out = np.zeros(len(lo), dtype=bool)
    for i, groups in enumerate(covered):
        mine = np.isin(seg, groups)
        ev = t[counted & np.isin(srt.seg, groups)]
        out[i] = bool((np.minimum(b[mine], hi[i]) > np.maximum(a[mine], lo[i])).any()
                      or ((ev >= lo[i]) & (ev < hi[i])).any())
    return out


def excluded_said(incidents: pd.DataFrame | None,
                  left_out: np.ndarray | None = None) -> dict[str, Any] | None:
    """What ``exclude_incidents`` left out, for :attr:`Recalibration.settings`: ``count`` (the
    labelled incidents that left out evaluated time or events, ``left_out``; default every one
    given), ``given`` (how many were given), ``rows`` (the counted ones' positions in the table,
    from 0), ``start`` (the first counted one's start) and ``end`` (the last counted one's end,
    UTC; ``None`` when none is counted): the time left out runs one window past each end;
    ``None`` when no table was given.

    >>> inc = pd.DataFrame({"start": pd.to_datetime(["2026-01-02 00:00", "2026-01-01 00:00",
    ...                                              "2025-06-01 00:00"], utc=True),
    ...                     "end": pd.to_datetime(["2026-01-02 01:00", "2026-01-01 02:00",
    ...                                            "2025-06-02 00:00"], utc=True)})
    >>> said = excluded_said(inc, np.array([True, True, False]))
    >>> said["count"], said["given"], said["rows"], str(said["start"]), str(said["end"])
    (2, 3, [0, 1], '2026-01-01 00:00:00+00:00', '2026-01-02 01:00:00+00:00')
    """
    if incidents is None:
        return None
    starts = utc_ns_column(incidents["start"], "incidents['start']")
    ends = utc_ns_column(incidents["end"], "incidents['end']")
    keep = np.ones(len(starts), dtype=bool) if left_out is None else np.asarray(left_out, bool)
    rows = np.flatnonzero(keep)
    said: dict[str, Any] = {"count": len(rows), "given": len(starts),
                            "rows": rows.tolist(), "start": None, "end": None}
    if len(rows):
        said["start"] = pd.Timestamp(int(np.min(starts[rows])), tz="UTC")
        said["end"] = pd.Timestamp(int(np.max(ends[rows])), tz="UTC")
    return said


def merged_said(parts: Sequence[dict[str, Any] | None]) -> dict[str, Any] | None:
    """:func:`excluded_said` of the runs of per-group SLOs (each over some groups) put together:
    an incident is counted when it left out anything in any run.

    >>> t = pd.Timestamp
    >>> merged_said([{"count": 1, "given": 3, "rows": [2], "start": t("2026-01-03"),
    ...               "end": t("2026-01-04")},
    ...              {"count": 1, "given": 3, "rows": [0], "start": t("2026-01-01"),
    ...               "end": t("2026-01-02")}])["rows"]
    [0, 2]
    """
    said = [p for p in parts if p is not None]
    if not said:
        return None
    starts = [p["start"] for p in said if p["start"] is not None]
    ends = [p["end"] for p in said if p["end"] is not None]
    rows = sorted({r for p in said for r in p["rows"]})
    return {"count": len(rows), "given": said[0]["given"], "rows": rows,
            "start": min(starts) if starts else None, "end": max(ends) if ends else None}
