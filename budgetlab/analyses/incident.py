"""Post-incident replay: what the tracker showed, what each alert tier would have done, what the
incident cost and which failures it was made of, in one report.

The report covers the **window** ``[start - context, end + context)``; the incident itself is
``[start, end)``. Because the tracker's status at any moment depends on the last ``slo.window``
of events and an alert tier on its long window, everything is replayed from
``window start - max(slo.window, longest policy window)`` (or the first event, when the data
start later: then ``notes`` says so) and cut to the window afterwards, so the figures at the
window's start are the ones production showed; the tracker from its last event before the window
less that history (per group): its status there, a change's "from", on its full window.

Times: ``start``/``end`` may be strings or Timestamps; naive times are read in ``tz`` (UTC
when ``tz`` is not given), aware ones are converted. All tables hold UTC times; the summary
speaks local time of ``tz``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from .._util.validation import as_list, check_tz, require_columns, to_ns, to_timedelta
from ..alerts.firing import check_policy_bins
from ..alerts.period_tiers import check_tier_names
from ..alerts.policy import AlertPolicy, as_policy
from ..events.schema import ROLE_COLUMNS, check_events
from ..slo import SLO, PerGroup, as_per_group, as_slo
from .incident_coverage import tiers_note
from .incident_focus import Targets, focus_first, thin_groups
from .incident_follow import LogRest
from .incident_replay import replay_tables
from .incident_result import IncidentReport
from .incident_text import summary_text
from .incident_window import (
    Span,
    alerted_events,
    check_scope,
    overlapping_incidents,
    replayed_events,
    scoped_events,
    tracked_events,
)
from .per_group import REPORT_TABLES, group_slos, merge_tables

__all__ = ["IncidentReport", "incident_report"]


def incident_report(
    events: pd.DataFrame,
    slo: SLO | PerGroup | Mapping[Any, Any],
    start: Any,
    end: Any,
    *,
    policy: AlertPolicy | str | None = None,
    by: str | Sequence[str] | None = None,
    context: Any = "6h",
    scope: str | None = None,
    breakdown_by: str | Sequence[str] | None = None,
    incidents: pd.DataFrame | None = None,
    tz: str | None = None,
    freq: Any = "1min",
    grace: Any = "1h",
) -> IncidentReport:
    """Replay an incident: tracker, alert tiers, budget and failure buckets, with a summary.

    Parameters
    ----------
    events : DataFrame
        Canonical event table (with enough history before ``start``).
    slo : SLO or PerGroup
        The production tracker's SLO (target, window, thresholds); per group (a
        :class:`~budgetlab.PerGroup` or a mapping from group key to SLO or target, with ``by``):
        each group's rows equal those of the report under its own SLO, and the summary speaks
        about the worst group under its SLO. The bucket tables then need the ``by`` keys among
        ``breakdown_by``.
    start, end : str or Timestamp
        The incident ``[start, end)``; naive times are in ``tz`` (UTC by default).
    policy : AlertPolicy, optional
        Alert tiers to replay on bins of ``freq`` (default :meth:`AlertPolicy.workbook` for the
        SLO's ``period``; a given policy keeps its own period; a preset name such as
        ``"workbook"`` is built for the SLO's ``period``).
    by : str or list of str, optional
        Group keys of the tracker and the alerts (one tracker per group, as in production).
    context : duration
        Time shown before and after the incident (default 6 h). A display choice: the budget
        table's share is carried from the whole log in ``scope`` (first to last event), not
        from the time shown.
    scope : str, optional
        Only events in this scope (``"captcha_type=recaptcha_v2"``, see
        :func:`budgetlab.events.schema.parse_scope`).
    breakdown_by : str or list of str, optional
        Group keys of the bucket breakdown (default: ``by``), e.g. ``"region"``.
    incidents : DataFrame, optional
        Incident table; the ones overlapping the window are kept and drawn.
    tz : str, optional
        Time zone for naive ``start``/``end``, the summary and the plot (default UTC).
    freq : duration
        Bin width for the alert policy.
    grace : duration
        An alert up to this long after the incident's end still detects it: a tier's alert
        counts when it overlaps ``[start, end + grace)``, the rule and default of
        :func:`budgetlab.score_alerts` (``budgetlab alerts --grace``).

    Returns
    -------
    IncidentReport
        Tables as attributes, ``.summary``, ``.plot()``, ``.save(path)``.

    Examples
    --------
    >>> from budgetlab import SLO, as_events
    >>> ts = pd.date_range("2026-01-01", periods=24 * 60, freq="1min")  # one event a minute
    >>> bucket = ["timeout" if 600 <= i < 660 and i % 2 else "success" for i in range(len(ts))]
    >>> ev = as_events(ts, [b == "success" for b in bucket], bucket)
    >>> rep = incident_report(ev, SLO(target=0.9, window="1h"),
    ...                       "2026-01-01 10:00", "2026-01-01 11:00", context="1h",
    ...                       policy=AlertPolicy.single_window("1h", 2.9, severity="ticket"))
    >>> print(rep.summary)  # doctest: +NORMALIZE_WHITESPACE
    Between 10:00 and 11:00 UTC on 2026-01-01, the 1 h tracker (target 90 %) went WARNING at 10:07
    with 1 h burn 0.656 (1 h success 93.44 %), reached EXHAUSTED at 10:11; it changed status 3 times
    at its events and was EXHAUSTED when the incident ended (at its events: peak 1 h burn 4.92 at
    10:59, lowest 1 h success 50.82 %; held on the window's clock, as the figure draws it: peak 1 h
    burn 5 from 10:59, lowest 1 h success 50.00 %). 100 % of the failures were timeouts; the success
    rate without timeouts is withheld (the incident's 60 events hold 6 expected failures under the
    target: too few for a verdict, one needs at least 10); without timeouts all 3 of the tracker's
    status changes would not have happened.
    The single_window policy would have fired ticket_1h (ticket) at 10:36, 36 min after the start.
    Over its 1 h the incident saw 30 failures in 60 events (burn 5 over the incident); its share of
    a 30 d error budget is withheld, too thin to go by (that budget is the traffic of the whole log
    in scope, 2026-01-01 00:00 .. 23:59 UTC carried to 30 d, and a rate per day needs at least 24 h
    of sending time: the whole log in scope holds 1,440 events in 23 h 59 min of sending time); the
    incident's 60 events hold 6 expected failures under the target, too few for a verdict, but the
    failures decide it: missed: 30 of 60 events failed (50.00 %); even with 60 events, a service at
    90 % would fail this often with probability < 0.1 %.

    By hand: at 10:07 the window holds 61 events, 4 of them timeouts: burn 4 / 6.1 = 0.66 (the
    seed's report figure, rounded to two decimals); 1 ns after 10:11 the 09:11 event leaves the
    window, which then holds 6 timeouts among 60 events: the budget of 6.0 is spent (EXHAUSTED on
    the window's clock; the per-event replay gets there at 10:13, 7 timeouts among 61 events); at
    10:59 it holds all 30 timeouts among 61 events (burn 30 / 6.1 = 4.918, said to three significant
    digits: 4.92; success 31 / 61); the 1-hour error ratio first exceeds 2.9 x 10 % at the 10:36
    evaluation (18 of 60); the budget is carried from the whole log, whatever the context: its 1,440
    events from 00:00 to 23:59 are 23 h 59 min of sending time (first to last event, no gap over 24
    h), less than the day a rate per day needs. The incident's 60 events hold 60 x 0.1 = 6 expected
    failures under 90 %, too few for a verdict (the rule of ``buckets["note"]``): the rate without
    timeouts, the burn over the incident (30 / 6 = 5) and the share of the 30 d budget are withheld,
    the tracker's replay is not.

    >>> rep.tiers[["tier", "fired", "first_alert", "detection_delay", "peak_burn_long"]]
            tier  fired               first_alert detection_delay  peak_burn_long
    0  ticket_1h   True 2026-01-01 10:36:00+00:00 0 days 00:36:00             5.0
    """
    per = as_per_group(slo)
    if per is not None:
        return _per_group_report(events, per, start, end, dict(
            policy=policy, by=by, context=context, scope=scope, breakdown_by=breakdown_by,
            incidents=incidents, tz=tz, freq=freq, grace=grace))
    slo = as_slo(slo)
    pol = as_policy(policy, default=AlertPolicy.workbook(slo.period), period=slo.period)
    check_policy_bins(pol, to_ns(freq, name="freq"), fix="freq={!r}")
    tz = check_tz(tz)
    keys = check_events(events, by)
    bkeys = as_list(breakdown_by) if breakdown_by is not None else list(keys)
    require_columns(events, bkeys, roles=ROLE_COLUMNS)
    span = dataclasses.replace(Span.of(start, end, tz=tz, context=context, history=max(
        [slo.window, *pol.windows])), grace=to_timedelta(grace, name="grace", allow_zero=True))
    scope_text = check_scope(events, scope)
    ev, _, notes, span = replayed_events(events, span, scope_text, slo=slo, keys=keys)
    tables = replay_tables(ev, slo, pol, keys, bkeys, span, freq=freq,
                           log=scoped_events(events, scope_text),
                           tracked=tracked_events(events, ev, span, scope_text, keys,
                                                  min_events=slo.min_events),
                           alerted=alerted_events(events, ev, span, scope_text),
                           rest=LogRest(events, scope_text))
    if span.data_start is not None and span.data_start >= span.end:
        notes.append("the log starts after the incident ends: none of its events is in the log.")
    elif int(tables["budget"]["events"].sum()) == 0 and not (
            span.data_end is not None and span.data_end < span.start):  # said in its note
        notes.append("there were no events during the incident.")
    if span.data_start is not None:  # each tier's evaluated span
        notes.append(tiers_note(tables["tiers"], span.data_start, tz, span.start, span.data_end,
                                end=span.end, freq=freq))
    return _with_summary(IncidentReport(
        start=span.start, end=span.end, window_start=span.w_start, window_end=span.w_end, slo=slo,
        policy=pol, by=tuple(keys), breakdown_by=tuple(bkeys), scope=scope_text, tz=tz, **tables,
        incidents=overlapping_incidents(incidents, span, scope=scope_text, by=keys), summary="",
        notes=tuple(notes), freq=to_timedelta(freq, name="freq"), data_end=span.data_end,
        data_start=span.data_start, grace=span.grace))


def _with_summary(rep: IncidentReport, targets: Targets | None = None) -> IncidentReport:
    """``rep`` with the summary of its tables, the group it speaks of first
    (:func:`~budgetlab.analyses.incident_focus.focus_first`, under each group's target:
    ``targets`` under per-group SLOs)."""
    targets = float(rep.slo.target) if targets is None else targets
    rep = dataclasses.replace(rep, tracker=focus_first(rep.tracker, rep.budget, rep.by, targets))
    return dataclasses.replace(rep, summary=summary_text(
        start=rep.start, end=rep.end, tz=rep.tz, slo=rep.slo, by=rep.by, freq=rep.freq,
        breakdown_by=rep.breakdown_by, scope=rep.scope, tracker=rep.tracker, buckets=rep.buckets,
        tiers=rep.tiers, policy=rep.policy, budget=rep.budget, data_end=rep.data_end,
        grace=rep.grace, data_start=rep.data_start,
        thin=thin_groups(rep.tracker, rep.by, targets), steps=rep.steps))


def _per_group_report(events: pd.DataFrame, per: PerGroup, start: Any, end: Any,
                      kw: dict[str, Any]) -> IncidentReport:
    """:func:`incident_report` under per-group SLOs: one report per distinct SLO, each group's rows
    from the report under its own SLO, the summary about the worst group under its SLO."""
    keys, slo_of = group_slos(events, kw["by"], per)
    bkeys = as_list(kw["breakdown_by"]) if kw["breakdown_by"] is not None else list(keys)
    if isinstance(kw["policy"], str):  # a preset built per period: one tier name, one tier
        check_tier_names(kw["policy"].strip(), [(p, as_policy(kw["policy"], period=p)) for p in
                                                dict.fromkeys(s.period for s in slo_of.values())])
    reports = [incident_report(events, one, start, end, **kw)
               for one in dict.fromkeys(slo_of.values())]
    runs = [(r.slo, {n: getattr(r, n) for n in REPORT_TABLES}) for r in reports]
    tables: dict[str, Any] = merge_tables(runs, keys, bkeys, slo_of, per)
    targets = {k: float(s.target) for k, s in slo_of.items()}
    tables["tracker"] = focus_first(tables["tracker"], tables["budget"], keys, targets)
    focus = tables["tracker"].iloc[0] if len(tables["tracker"]) else None
    focus_slo = slo_of[tuple(str(focus[k]) for k in keys)] if focus is not None else reports[0].slo
    rep = next(r for r in reports if r.slo == focus_slo)
    notes = tuple(dict.fromkeys(n for r in reports for n in r.notes))
    return _with_summary(dataclasses.replace(rep, slo=focus_slo, notes=notes, slos=per, **tables),
                         targets)
