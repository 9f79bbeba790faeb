"""What an incident report covers: the incident ``[start, end)``, the window around it, the
history replayed before the window, and the events and incidents in that span."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from .._util.attrs import clock_at, time_text
from .._util.validation import require_columns, to_timedelta, utc_ns_column, utc_timestamp
from .._util.words import duration_words, prose_duration, say, speak
from ..alerts.incident_scopes import HASHED, holds_hashes
from ..alerts.score_inputs import outside_span
from ..budget.spans import status_spans
from ..errors import ConfigError, NoTrafficError, SchemaError
from ..events.schema import parse_scope, scope_mask, ts_ns
from ..slo import SLO
from ..windows.groups import group_codes
from .incident_coverage import tracker_note

__all__ = ["Span", "alerted_events", "between", "check_scope", "nice_freq", "no_traffic_words",
           "overlapping_incidents", "replayed_events", "scoped_events", "tracked_events"]

_NICE_FREQS = ("1min", "5min", "10min", "15min", "30min", "1h", "3h", "6h", "1D")


def nice_freq(span_ns: int, max_bins: int = 120) -> str:
    """The finest of the usual bin widths that cuts ``span_ns`` into at most ``max_bins`` bins.

    >>> nice_freq(6 * 3_600_000_000_000)
    '5min'
    """
    fits = (f for f in _NICE_FREQS if span_ns / pd.Timedelta(f).value <= max_bins)
    return next(fits, _NICE_FREQS[-1])


def between(ts: pd.Series, lo: pd.Timestamp, hi: pd.Timestamp) -> np.ndarray:
    """Mask of the times ``ts`` in ``[lo, hi)``."""
    t = utc_ns_column(ts, "ts")
    return (t >= lo.value) & (t < hi.value)


def check_scope(events: pd.DataFrame, scope: str | None) -> str:
    """The scope as the report states it (``"*"``: all events); refused when it names a column
    ``events`` does not have, and (:class:`NoTrafficError`, with the fix) when a value is not a
    keyed hash but its column holds keyed hashes only (``pii="hash"``): it matches no event."""
    named = parse_scope(scope)
    for key, value in named.items():
        if key not in events.columns:
            raise SchemaError(f"scope={scope!r} names column {key!r}, which events does not "
                              "have; a scope's keys are key columns of events (read with by=).")
        if not re.fullmatch(HASHED, value) and holds_hashes(events[key]):
            # a plain value is none of the keyed hashes: no event is in scope (value never shown)
            whose = say("the events'", "the log's")
            why = (f"the scope's value of {key!r} is not a keyed hash, but {whose} {key!r} holds "
                   "keyed hashes only")
            raise NoTrafficError(why + say(
                " (read with pii='hash'): pass scope=budgetlab.hash_scope(scope, events, "
                "salt=...) with the salt the events were read with.",
                ": check the value, and pass --pii hash --salt S with the salt the log is hashed "
                "with."), why=why)
    return str(scope).strip() if named else "*"


@dataclass(frozen=True)
class Span:
    """The incident ``[start, end)``, the reported window around it and where the replay starts."""

    start: pd.Timestamp
    end: pd.Timestamp
    w_start: pd.Timestamp
    w_end: pd.Timestamp
    # replayed before the window: the longest of the tracker's and the alerts' windows
    history: pd.Timedelta
    # the clock the report speaks (its notes' times)
    tz: str = "UTC"
    # the log's last event when the log ends before the window does (the alerts' evaluations
    # are read up to the end of its bin: after it, windows empty with the data, not the traffic)
    data_end: pd.Timestamp | None = None
    # the log's first event when it comes after the history the longest window needs (a tier is
    # evaluated only where its long window lies after the bin of it)
    data_start: pd.Timestamp | None = None
    # an alert up to this long after the incident's end still detects it (score_alerts' grace)
    grace: pd.Timedelta = pd.Timedelta(0)

    @property
    def h_start(self) -> pd.Timestamp:
        return self.w_start - self.history

    @property
    def alerts_end(self) -> pd.Timestamp:
        """Where the alerts are replayed to: the window's end, or the incident's end + grace
        when that is later (an alert beginning then still detects the incident)."""
        return max(self.w_end, self.end + self.grace)

    def at(self, ns: int) -> str:
        """The instant ``ns`` (UTC) to the second, as the report's notes say it: in UTC, or on
        the clock of ``tz`` with its UTC offset (:func:`~budgetlab._util.attrs.clock_at`)."""
        return clock_at(pd.Timestamp(int(ns), tz="UTC"), self.tz, "%Y-%m-%d %H:%M:%S")

    @classmethod
    def of(cls, start: Any, end: Any, *, tz: str, context: Any, history: pd.Timedelta) -> Span:
        start_ts, end_ts = utc_timestamp(start, name="start", tz=tz), utc_timestamp(end, name="end",
                                                                                    tz=tz)
        if end_ts <= start_ts:
            raise ConfigError("end must be after start (the incident is [start, end)).")
        ctx = to_timedelta(context, name="context", allow_zero=True)
        return cls(start=start_ts, end=end_ts, w_start=start_ts - ctx, w_end=end_ts + ctx,
                   history=history, tz=tz)


def replayed_events(events: pd.DataFrame, span: Span, scope: str, *, slo: SLO,
                    keys: list[str]) -> tuple[pd.DataFrame, tuple[int, int], list[str], Span]:
    """The events to replay (from ``span.h_start`` to the window's end, in scope), the span of
    time they cover, ``[lo, hi)`` in ns (cut by the table's own start and end when they come
    first), a note when the data
    start too late for the longest window, or end before the window does, and ``span`` with
    ``data_end``: the log's last event (``None`` when the log runs to the window's end or
    beyond) and ``data_start``: its first (``None`` when the history the longest window needs is
    in the log). A window without events in scope is refused with the silence it lies in and the
    tracker's status there (:func:`no_traffic_words`)."""
    t = ts_ns(events)
    h_start, w_start, w_end = span.h_start, span.w_start, span.w_end
    i0 = int(np.searchsorted(t, h_start.value, side="left"))
    i1 = int(np.searchsorted(t, w_end.value, side="left"))
    ev = events.iloc[i0:i1]
    if scope != "*":
        ev = ev[scope_mask(ev, scope)]
    if not between(ev["ts"], w_start, w_end).any():
        mine = t if scope == "*" else t[scope_mask(events, scope)]
        why, fix = no_traffic_words(mine, ev, span, scope, slo=slo, keys=keys)
        raise NoTrafficError(f"{why}{fix}", why=why)
    notes: list[str] = []
    data_start = None
    # the log's first event, whatever the scope: a scope silent before it had no traffic then,
    # which the replay counts (its status, its events a day), not a gap in the data
    first_ns = int(t[0])
    if i0 == 0 and first_ns > h_start.value:
        need = f"the {prose_duration(span.history)} of history the longest window needs"
        if first_ns > w_start.value:
            have = (f"only at {span.at(first_ns)}, inside the report's window (the incident and "
                    f"its context), with none of {need}")
        else:
            have = (f"{duration_words(pd.Timedelta(w_start.value - first_ns, unit='ns'))} before "
                    f"the report's window (the incident and its context), less than {need}")
        data_start = pd.Timestamp(first_ns, unit="ns", tz="UTC")
        notes.append(f"the data start {have}: ")  # the tracker's part once data_end is known
    # the log's last event, whatever the scope: after it the log holds nothing, which is not a
    # silence of the traffic (the replay goes on to the window's end as if it were one)
    last_ns = int(t[-1])
    data_end = None
    if i1 == len(events) and last_ns < w_end.value:
        data_end = pd.Timestamp(last_ns, unit="ns", tz="UTC")
        where = ("before the incident began: the log does not cover the incident"
                 if last_ns < span.start.value else
                 "before the incident ended: the incident's figures count only its part before "
                 "that" if last_ns < span.end.value else "inside the context after the incident")
        notes.append(f"the data end at {span.at(last_ns)}, {where}; after it the log holds no "
                     "events (the log ended, not the traffic), so the statuses, burns and alerts "
                     "after it are not production's.")
    span_lo = h_start.value if i0 > 0 else first_ns
    span_hi = w_end.value if i1 < len(events) else int(t[-1])
    span = replace(span, data_end=data_end, data_start=data_start)
    if data_start is not None:  # where the tracker is read from, as its table is
        notes[0] += f"{tracker_note(span, slo.window)}."
    return ev, (span_lo, max(span_hi, span_lo + 1)), notes, span


def scoped_events(events: pd.DataFrame, scope: str) -> pd.DataFrame:
    """The whole log's events in ``scope`` (all of them for ``"*"``): what the incident's budget
    is carried from, whatever the report's context."""
    return events if scope == "*" else events[scope_mask(events, scope)]


def tracked_events(events: pd.DataFrame, ev: pd.DataFrame, span: Span, scope: str,
                   keys: list[str], *, min_events: int = 0) -> pd.DataFrame:
    """The events the tracker replays: ``ev`` (from ``span.h_start``, in scope) and, for every
    group of ``ev``, its events from its last event before the window ``t_prev`` less
    ``span.history`` on. The status at ``t_prev`` is the "from" of a change at the group's first
    event in the window: read on its full window, it is the status the streaming tracker had
    there whatever the context (replayed from ``h_start`` only, a window reaching before it
    would be cut). A group with no event before the window starts at ``h_start``. With
    ``min_events`` > 0 a status held on a thin window is the one before it, a chain with no bound
    in time: every group of ``ev`` is replayed from the log's start."""
    t = ts_ns(events)
    w, h = span.w_start.value, span.h_start.value
    i_w, i_end = (int(np.searchsorted(t, x, side="left")) for x in (w, span.w_end.value))
    # first the history of two windows: a group silent all the history of the window needs more
    for lo_ns in (None,) if min_events > 0 else (h - span.history.value, None):
        i_lo = 0 if lo_ns is None else int(np.searchsorted(t, lo_ns, side="left"))
        cand = events.iloc[i_lo:i_end]
        if scope != "*":
            cand = cand[scope_mask(cand, scope)]
        tt = ts_ns(cand)
        code = group_codes(cand, keys).astype(np.int64)
        n = int(code.max()) + 1 if len(code) else 0
        present = np.zeros(n, dtype=bool)
        present[code[tt >= h]] = True
        before = tt < w
        last = pd.Series(tt[before]).groupby(code[before]).max()
        t_prev = np.full(n, np.iinfo(np.int64).min, dtype=np.int64)
        t_prev[last.index.to_numpy()] = last.to_numpy()
        unseen = present & (t_prev < h)  # no event in [h_start, w_start): further back, maybe
        if i_lo == 0 or not unseen.any():
            break
    if i_w == 0 or not len(cand):
        return ev
    back = t_prev - span.history.value if min_events == 0 else np.iinfo(np.int64).min
    start = np.where(present & (t_prev > np.iinfo(np.int64).min), back, h)
    return cand[tt >= start[code]]


def alerted_events(events: pd.DataFrame, ev: pd.DataFrame, span: Span,
                   scope: str) -> tuple[pd.DataFrame, pd.Timestamp, pd.Timestamp]:
    """The events the alert tiers are evaluated on, the log's first event (whatever the scope)
    and the end of their bins: ``ev`` (from ``span.h_start``, in scope) when the log starts there
    or later, else the scope's events from the log's start, to the window's end, or to
    ``span.alerts_end`` (the incident's end + grace) when that is later, then no further than the
    log's last event (after it the log holds nothing: ``budgetlab alerts`` evaluates no bin
    there). An alert's episode at the window's start, its pending time (``for_``) and its
    cooldown depend on evaluations before the window whose own windows reach before ``h_start``:
    evaluated from the log's start, each of them is read on its full window, as
    :func:`budgetlab.alert_episodes` over the whole log reads it."""
    t = ts_ns(events)
    first = pd.Timestamp(int(t[0]), unit="ns", tz="UTC")
    stop = max(span.w_end, min(span.alerts_end, pd.Timestamp(int(t[-1]) + 1, unit="ns", tz="UTC")))
    if first >= span.h_start and stop == span.w_end:
        return ev, first, stop
    lo = 0 if first < span.h_start else int(np.searchsorted(t, span.h_start.value, side="left"))
    out = events.iloc[lo:int(np.searchsorted(t, stop.value, side="left"))]
    return (out if scope == "*" else out[scope_mask(out, scope)]), first, stop


def no_traffic_words(t: np.ndarray, history: pd.DataFrame, span: Span, scope: str, *, slo: SLO,
                     keys: list[str]) -> tuple[str, str]:
    """Why there is no report, and its fix (``""`` when none): the report window ``[w_start,
    w_end)`` has no events in scope (``t``: the times of the scope's events, sorted). Names the
    silence it lies in and the tracker's status in it on the window's clock: earlier events stay
    in the tracker's window through ``ts + window``, then the window is empty (no traffic)."""
    where = "" if scope == "*" else f" in scope {scope!r}"
    head = (f"no traffic{where} in the report window ({span.at(span.w_start.value)} to "
            f"{span.at(span.w_end.value)}, the incident and its context)")
    j = int(np.searchsorted(t, span.w_start.value, side="left"))
    if len(t) == 0:
        return f"{head}: the log has no events{where} at all", "; check the scope."
    if j == 0:
        return (f"{head}: the log{where} begins at {span.at(t[0])}, after the window; nothing to "
                "report", ".")
    silence = (f"the log{where} ends at {span.at(t[j - 1])}" if j == len(t) else
               f"the log{where} is silent from {span.at(t[j - 1])} to {span.at(t[j])}")
    held = int(t[j - 1]) + slo.window_ns  # the last event is in the tracker's window through it
    if held < span.w_start.value:
        status = (f"the tracker's window ({prose_duration(slo.window)}) was empty all that time "
                  "(no traffic, no status)")
    else:
        now = _statuses_at(history, slo, keys, span.w_start.value)
        until = (f"through {span.at(held)}, then no traffic" if held < span.w_end.value
                 else "through the report window")
        whose = "the trackers' windows" if keys else "the tracker's window"
        status = (f"{whose} ({prose_duration(slo.window)}) still held earlier events {until}; "
                  f"status at the window's start on the window's clock: {now}")
    return (speak(f"{head}: {silence}, so there is nothing to report there; {status}"),
            speak(". A report needs events in its window: move start=, end= or context= to "
                  "traffic."))


def _statuses_at(history: pd.DataFrame, slo: SLO, keys: list[str], at_ns: int) -> str:
    """The status of every group at ``at_ns`` on the window's clock (from ``history``, which
    holds at least one window before it), as words."""
    spans = status_spans(history, slo, by=keys or None, end=pd.Timestamp(at_ns + 1, tz="UTC"))
    last = spans[spans["start"].array.asi8 <= at_ns].groupby(
        keys, observed=True, sort=True).tail(1) if keys else spans.tail(1)
    words = [str(st) if not keys else
             f"{'/'.join(str(row[k]) for k in keys)} {st}"
             for (_, row), st in zip(last.iterrows(), last["status"].astype(str), strict=True)]
    shown = ", ".join(words[:5]) + (f" and {len(words) - 5} more groups" if len(words) > 5 else "")
    return shown.replace("no_traffic", "no traffic")



def overlapping_incidents(incidents: pd.DataFrame | None, span: Span, *, scope: str = "*",
                          by: list[str] | None = None) -> pd.DataFrame:
    """The given incidents that overlap the window (an empty table when none were given): not
    :func:`~budgetlab.alerts.score_inputs.outside_span` it, the rule of scoring. Its ``attrs``
    say what it is: the report window it is cut to, ``start`` .. ``end`` (``end`` excluded),
    and the report's ``scope`` and ``by``."""
    said: dict[Any, Any] = {"start": time_text(span.w_start), "end": time_text(span.w_end),
                            "scope": scope, "by": list(by or [])}
    if incidents is None:
        out = pd.DataFrame({"start": pd.Series([], dtype="datetime64[ns, UTC]"),
                            "end": pd.Series([], dtype="datetime64[ns, UTC]")})
        out.attrs = said
        return out
    require_columns(incidents, ["start", "end"], what="incidents")
    i_s = utc_ns_column(incidents["start"], "incidents['start']")
    i_e = utc_ns_column(incidents["end"], "incidents['end']")
    away = outside_span(i_s, i_e, (span.w_start.value, span.w_end.value))
    out = incidents[~away].reset_index(drop=True)
    out.attrs = {**incidents.attrs, **said}  # how it was read, and what it is now
    return out
