"""Labelled incidents against the windows of
:func:`~budgetlab.analyses.window_lengths.compare_windows` and
:func:`~budgetlab.analyses.window_lengths.window_incidents`: the incident table parsed once, and
per group and incident how fast the status reached ``alert_at`` (detection) and how long it took
to fall below it after the end (recovery), both on the window's clock
(:mod:`budgetlab.analyses.window_clock`): a status can change when an event arrives and when one
leaves the window, so with thin traffic the recovery is dated when the failures left the window,
not at the next event. A change is dated where it happens: an arrival at its ``ts`` (the new
status holds from it), a departure at ``ts + window`` (the event is in the window through that
instant and the new status holds from 1 ns later, the nanosecond grid's next instant;
:attr:`~budgetlab.analyses.recalibration.clock.ClockCounts.lag_start`): detection and recovery
times carry no artefact nanosecond. A status held for one instant only is none
(:func:`~budgetlab.analyses.recalibration.clock.folded_codes`); an empty window (no traffic) is
below every status. An incident during which the window held no traffic at all (from its start
to its end + grace) is **unseen**: there was nothing to detect, so it is no miss. An incident
that began while its group's status was already at ``alert_at`` or worse (in the instant before
its start, blips folded: the rule of the incident report's ``status_at_start``, which ``budgetlab
demo`` says as "already CRITICAL when it began") is **already at alert**
(:func:`status_before`): the window could not show it, so it is counted apart, neither detected
(no detection time, never a "0 s") nor missed nor unseen; its recovery still counts.

**Withheld.** The (incident, group) pairs of a (window, group) row whose evaluated span holds no
event (``events`` 0: :func:`~budgetlab.analyses.window_clock.withhold_empty`, which withholds the
row's detection columns in :func:`~budgetlab.compare_windows`) have their detection withheld in
:func:`~budgetlab.window_incidents` too (:func:`incident_frame`): ``withheld`` True, ``detected``,
``recovered`` and ``unseen`` unknown (``<NA>``), the times NaT, and the row's ``note`` (why): never
a detection or a miss read off a window that held only events of a warm-up."""

from __future__ import annotations

import warnings
from collections.abc import Collection
from typing import Any

import numpy as np
import pandas as pd

from .._util.units import HOUR_NS
from .._util.validation import utc_from_ns, utc_ns_column
from ..alerts.incidents_file import check_incidents
from ..alerts.unseen import held_traffic
from ..errors import BudgetlabWarning, InputError
from ..events.schema import parse_scope, scope_mask
from .recalibration.clock import ClockCounts, evaluated_time, folded_codes
from .sorted_events import Sorted, WindowSpec
from .window_clock import clock_events, thin_notes, warmup_notes, withhold_empty

__all__ = ["ALREADY", "NAT", "Incidents", "status_before", "incident_delays", "incident_rows",
           "incident_columns", "as_timedelta", "LEFT_OUT_REASONS", "left_out_note",
           "SCOPE_COUNTS", "warn_scopes", "UNSEEN", "incident_frame", "withheld_groups"]

#: The note of :func:`~budgetlab.window_incidents` on an incident the window held no traffic for.
UNSEEN = ("the window held no traffic from the incident's start to its end + grace: nothing to "
          "detect, so no miss")

#: The note of :func:`~budgetlab.window_incidents` on an incident that began at ``alert_at``.
ALREADY = ("the window was already {status} or worse when the incident began: it could not show "
           "the incident, so no detection time (neither detected nor missed)")

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
        keys = srt.keys.astype(str)
        self.match = np.zeros((len(inc), srt.n_groups), dtype=bool)
        for i, sc in enumerate(scopes):
            parse_scope(sc)
            self.match[i] = scope_mask(keys, sc)

    def left_out(self, first_ns: int, lo_ns: int) -> dict[str, int]:
        """How many incidents no row counts, by reason (:data:`LEFT_OUT_REASONS`; one reason
        each, the first that applies): starting before the first event ``first_ns``, starting
        in the warm-up (before ``lo_ns``), or with a scope that covers none of the groups."""
        before = self.start < first_ns
        warm = ~before & (self.start < lo_ns)
        none = ~before & ~warm & ~self.match.any(axis=1)
        return {"before_first_event": int(before.sum()), "in_warmup": int(warm.sum()),
                "no_group": int(none.sum())}


#: What a scope key that is not a group key does not restrict, in the window comparison's words
#: (:func:`~budgetlab.alerts.incident_scopes.ungrouped_scope_words`).
SCOPE_COUNTS = "which groups an incident counts for"


def warn_scopes(inc: Incidents, by: list[str], columns: Collection[str] | None = None) -> None:
    """Warn (:class:`~budgetlab.errors.BudgetlabWarning`) of the incidents whose scope covers no
    group (no row counts them: :func:`~budgetlab.alerts.score_inputs.unmatched_words`) and of the
    scope keys that are not group keys (they do not restrict: the incident counts for every
    group, :func:`~budgetlab.alerts.incident_scopes.ungrouped_scope_words`): the rule and words
    of the alert scoring. For :func:`~budgetlab.compare_windows` and
    :func:`~budgetlab.window_incidents`, whose caller the warnings name; ``columns``: the events'
    columns (a scope key that is none of them is said to be no column of these events, and
    reading it as a group key is advised on the condition that the data has it: the events keep
    only the columns they were read with)."""
    from ..alerts.incident_scopes import ungrouped_scope_words
    from ..alerts.score_inputs import unmatched_words

    table = inc.table
    scopes = table["scope"] if "scope" in table.columns else pd.Series([], dtype=object)
    ungrouped = ungrouped_scope_words(scopes, by, SCOPE_COUNTS, columns=columns,
                                      as_read=columns is not None)
    if ungrouped:
        warnings.warn(BudgetlabWarning(ungrouped), stacklevel=3)
    none = ~inc.match.any(axis=1)
    if none.any():
        ids = [str(v) for v in table["incident_id"].to_numpy()[none]]
        warnings.warn(BudgetlabWarning(unmatched_words(ids, len(table), by, of="the events")),
                      stacklevel=3)


#: The reasons of :meth:`Incidents.left_out`, in words (a keyword ``name=`` is the command's flag
#: on the command line).
LEFT_OUT_REASONS = {
    "before_first_event": "{n} start{s} before the first event ({first})",
    "in_warmup": "{n} start{s} in the warm-up (the {warmup} of warmup= after the first event)",
    "no_group": "{n} ha{ve} a scope that covers none of the groups (of by=)",
}


def left_out_note(counts: dict[str, int], total: int, first: pd.Timestamp,
                  warmup: pd.Timedelta, tz: str = "UTC") -> str:
    """The incidents of ``counts`` (:meth:`Incidents.left_out`) left out of ``total``, in words
    by reason; empty when none is. The first event ``first`` in UTC, or on the clock of ``tz``
    with its UTC offset (:func:`~budgetlab._util.attrs.clock_at`).

    >>> print(left_out_note({"before_first_event": 1, "in_warmup": 0, "no_group": 2}, 5,
    ...                     pd.Timestamp("2026-01-01", tz="UTC"), pd.Timedelta(0)))
    3 of the 5 incidents of incidents= are left out (no row, no detection or recovery counted for
    them): 1 starts before the first event (2026-01-01 00:00:00 UTC); 2 have a scope that covers
    none of the groups (of by=); check their times (UTC) and scopes against the log
    """
    from .._util.attrs import clock_at
    from .._util.words import counted_of, prose_duration

    n_out = sum(counts.values())
    if not n_out:
        return ""
    parts = [LEFT_OUT_REASONS[k].format(
        n=n, s="s" if n == 1 else "", ve="s" if n == 1 else "ve",
        first=clock_at(first, tz, "%Y-%m-%d %H:%M:%S"), warmup=prose_duration(warmup))
        for k, n in counts.items() if n]
    head = counted_of(n_out, total, "incident")
    verb = "is" if n_out == 1 else "are"
    return (f"{head} of incidents= {verb} left out (no row, no detection or recovery counted "
            f"for {'it' if n_out == 1 else 'them'}): {'; '.join(parts)}; check "
            f"{'its' if n_out == 1 else 'their'} times (UTC) and scopes against the log")


def incident_delays(c: ClockCounts, code: np.ndarray, s: int, e: int, start: int, end: int, *,
                    grace_ns: int, level: int, obs_end: int) -> tuple[int, int]:
    """(detection delay, recovery time) in ns of one group (clock segments ``[s, e)``, blips
    folded) for one incident; ``NAT`` when missed / not recovered within the observation (before
    ``obs_end``). Detection: the first instant from ``start`` on with status ``>= level``, before
    ``end + grace_ns``; recovery, of a detected incident only (a window that never reached
    ``level`` has nothing to recover from: NAT, not 0): from ``end`` to the first instant, after
    the window reached ``level``, with status ``< level`` or an empty window. Detected before the
    end: from ``end`` on (0 when already below then); detected after it (within the grace): from
    the detection on, so never 0 (the window was below ``level`` at the end only because it had
    not reached it yet). An incident ending after the observation is read at its last instant."""
    a, b, cg = c.start[s:e], c.end[s:e], code[s:e]
    k = int(np.searchsorted(b, start, side="right"))  # the segment holding `start`, or the next
    hit = np.flatnonzero(cg[k:] >= level)
    if not len(hit):
        return NAT, NAT
    j = k + int(hit[0])  # dated where the status changed (a departure at ts + window, not 1 ns on)
    at = max(int(a[j]) - int(c.lag_start[s + j]), start)
    if at >= end + grace_ns:
        return NAT, NAT
    read = min(end, obs_end - 1)  # an incident ending after the observation: its last instant
    if at >= read:  # detected after the end: the run at `level` that began then
        k = j
    else:
        k = int(np.searchsorted(b, read, side="right"))
        if k == len(cg) or a[k] > read or cg[k] < level:
            return at - start, 0
    det = at - start
    # the run at `level` or worse from k on, while the segments touch (no empty window between)
    stop = np.flatnonzero((cg[k + 1:] < level) | (a[k + 1:] != b[k:-1]))
    last = k + int(stop[0]) if len(stop) else len(cg) - 1
    return det, max(int(b[last]) - int(c.lag_end[s + last]) - end, 0) if b[last] < obs_end \
        else NAT


def status_before(c: ClockCounts, code: np.ndarray, s: int, e: int, start: int) -> int:
    """The status code of one group (clock segments ``[s, e)``) in the instant before ``start``
    (a change at ``start`` itself is the incident's first change, as the incident report's
    ``status_at_start`` reads it); -1 when the window was empty then.

    >>> from budgetlab.analyses.recalibration.clock import clock_counts
    >>> c = clock_counts(np.array([0, 10]), np.array([True, True]), np.array([0, 2]), 10, 30)
    >>> code = np.array([0, 2, 2], dtype=np.int8)
    >>> [status_before(c, code, 0, 3, t) for t in (5, 10, 11, 21, 22)]
    [0, 0, 2, 2, -1]
    """
    k = int(np.searchsorted(c.end[s:e], start - 1, side="right"))
    if k == e - s or int(c.start[s + k]) > start - 1:
        return -1
    return int(code[s + k])


def as_timedelta(ns: np.ndarray) -> pd.TimedeltaIndex:
    """ns as Timedeltas (:data:`NAT` becomes NaT)."""
    return pd.to_timedelta(np.asarray(ns, dtype=np.int64).view("timedelta64[ns]"))


def incident_rows(inc: Incidents, c: ClockCounts, code: np.ndarray, lo_ns: int, obs_end: int,
                  grace_ns: int, level: int) -> tuple[np.ndarray, ...]:
    """(group, incident index, detection ns, recovery ns, seen, already) for every in-scope pair,
    read on the clock segments ``c`` with their (shown) status codes; ``already``: the status in
    the instant before the start was ``level`` or worse (:func:`status_before`); ``seen``: the
    window held traffic at some instant from the incident's start to its end + grace (else there
    was nothing to detect: the incident is unseen, not missed;
    :func:`~budgetlab.alerts.unseen.held_traffic`, the rule :func:`~budgetlab.score_alerts`
    applies to its tiers' long windows). Not scoring's overlap rule
    (:func:`~budgetlab.alerts.score_inputs.outside_span`, the incident against the log's span) on
    purpose: a detection counts up to ``grace`` after the end, so traffic then makes the incident
    seen too."""
    folded = folded_codes(c, code)
    gs: list[int] = []
    ii: list[int] = []
    det: list[int] = []
    rec: list[int] = []
    already: list[bool] = []
    for i in range(len(inc.start)):
        if inc.start[i] < lo_ns:
            continue
        a, b = int(inc.start[i]), int(inc.end[i])
        for g in np.flatnonzero(inc.match[i]).tolist():
            s, e = int(c.bounds[g]), int(c.bounds[g + 1])
            d, r = incident_delays(c, folded, s, e, a, b, grace_ns=grace_ns, level=level,
                                   obs_end=obs_end)
            gs.append(g)
            ii.append(i)
            det.append(d)
            rec.append(r)
            already.append(status_before(c, folded, s, e, a) >= level)
    g_arr, i_arr = np.array(gs, dtype=np.int64), np.array(ii, dtype=np.int64)
    seen = held_traffic(c.seg, c.start, c.end, g_arr, inc.start[i_arr],
                        inc.end[i_arr] + grace_ns)
    return (g_arr, i_arr, np.array(det, dtype=np.int64), np.array(rec, dtype=np.int64), seen,
            np.array(already, dtype=bool))


def incident_columns(inc: Incidents, c: ClockCounts, code: np.ndarray, n_groups: int, lo_ns: int,
                     obs_end: int, grace_ns: int, level: int) -> dict[str, Any]:
    """The incident columns of :func:`~budgetlab.analyses.window_lengths.compare_windows`: the
    incidents already at ``level`` when they began counted apart (``already_at_alert``), the
    detection figures over the others, the recovery figures over every incident whose window
    reached ``level`` during it (detected or already there)."""
    g_n = n_groups
    gs, _, det, rec, seen, already = incident_rows(inc, c, code, lo_ns, obs_end, grace_ns, level)
    n_inc = np.bincount(gs, minlength=g_n)
    reached = det != NAT
    hit = reached & ~already
    back = rec != NAT
    n_det = np.bincount(gs[hit], minlength=g_n)
    n_already = np.bincount(gs[already], minlength=g_n)
    n_unseen = np.bincount(gs[~seen & ~already], minlength=g_n)
    cols: dict[str, Any] = {"incidents": n_inc.astype(np.int64), "detected": n_det.astype(np.int64),
                            "missed": (n_inc - n_det - n_unseen - n_already).astype(np.int64),
                            "unseen": n_unseen.astype(np.int64),
                            "already_at_alert": n_already.astype(np.int64)}
    for name, vals, ok in (("detection", det, hit), ("recovery", rec, back)):
        per = pd.Series(vals[ok], dtype=np.int64).groupby(gs[ok])
        for stat, got in (("median", per.median().astype(np.int64)), ("max", per.max())):
            ns = got.reindex(range(g_n), fill_value=NAT).to_numpy()  # NAT: none in the group
            cols[f"{name}_{stat}"] = as_timedelta(ns)
    # reached alert_at during the incident (detected or already there), never below it again
    cols["unrecovered"] = (np.bincount(gs[reached], minlength=g_n)
                           - np.bincount(gs[back], minlength=g_n)).astype(np.int64)
    return cols


def withheld_groups(srt: Sorted, spec: WindowSpec, c: ClockCounts, lo_ns: int, hi_ns: int,
                    warmup_ns: int) -> tuple[np.ndarray, list[str]]:
    """Per group, whether :func:`~budgetlab.compare_windows` withholds the detections of its row
    under ``spec`` (no event in the evaluated span,
    :func:`~budgetlab.analyses.window_clock.withhold_empty`), and that row's ``note``: the same
    rule, the same words, on the same clock segments ``c``."""
    a, b = evaluated_time(c, lo_ns, hi_ns)
    hours = np.bincount(c.seg, weights=(b - a).astype(np.float64),
                        minlength=srt.n_groups) / HOUR_NS
    events = clock_events(srt, spec, lo_ns, hi_ns)
    notes = warmup_notes(thin_notes(hours, events), srt, spec, hi_ns)
    row = withhold_empty({"events": events, "hours": hours, "note": notes}, spec, warmup_ns)
    return events == 0, list(row["note"])


def incident_frame(inc: Incidents, srt: Sorted, run: tuple[WindowSpec, int, ClockCounts,
                                                           np.ndarray],
                   lo_ns: int, grace_ns: int, level: int, warmup_ns: int,
                   alert_at: str = "critical") -> pd.DataFrame:
    """The rows of :func:`~budgetlab.window_incidents` of one window x dwell ``run`` (window,
    dwell ns, shown clock segments and codes): one per in-scope (incident, group) pair, those of
    a withheld row (:func:`withheld_groups`) with ``withheld`` True and their detection unknown
    (``<NA>``, NaT) and the row's note; those that began at ``alert_at`` (``level``) or worse
    ``already_at_alert``, neither detected nor unseen, no detection time, the note
    :data:`ALREADY`."""
    spec, dwell_ns, c, code = run
    hi_ns = int(srt.t.max())
    gs, ii, det, rec, seen, already = incident_rows(inc, c, code, lo_ns, hi_ns, grace_ns, level)
    empty, notes = withheld_groups(srt, spec, c, lo_ns, hi_ns, warmup_ns)
    held = empty[gs]
    kinds = (inc.table["kind"].astype(str).to_numpy() if "kind" in inc.table.columns
             else np.full(len(inc.table), ""))
    frame = (srt.keys.iloc[gs].reset_index(drop=True) if srt.by
             else pd.DataFrame(index=pd.RangeIndex(len(gs))))
    frame["window"] = spec.label
    frame["window_kind"] = spec.kind
    frame["min_dwell"] = pd.Timedelta(dwell_ns, unit="ns")
    frame["incident_id"] = inc.table["incident_id"].to_numpy()[ii]
    frame["incident_kind"] = kinds[ii]
    frame["incident_start"] = utc_from_ns(inc.start[ii])
    frame["incident_end"] = utc_from_ns(inc.end[ii])
    frame["detected"] = _unknown((det != NAT) & ~already, held)
    frame["detection"] = as_timedelta(np.where(held | already, NAT, det))
    frame["recovered"] = _unknown(rec != NAT, held)
    frame["recovery"] = as_timedelta(np.where(held, NAT, rec))
    frame["unseen"] = _unknown(~seen & ~already, held)
    frame["already_at_alert"] = _unknown(already, held)
    frame["withheld"] = held
    said = ALREADY.format(status=alert_at.upper())
    frame["note"] = [notes[g] if h else said if a else ("" if s else UNSEEN)
                     for g, h, s, a in zip(gs.tolist(), held.tolist(), seen.tolist(),
                                           already.tolist(), strict=True)]
    return frame


def _unknown(values: np.ndarray, held: np.ndarray) -> pd.arrays.BooleanArray:
    """``values`` as a nullable boolean array, ``<NA>`` (not known) where ``held``."""
    return pd.arrays.BooleanArray(np.asarray(values, dtype=bool), np.asarray(held, dtype=bool))
