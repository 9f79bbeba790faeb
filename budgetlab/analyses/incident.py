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
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any

import pandas as pd

from .._util.figures import save_figure
from .._util.validation import as_list, check_tz, require_columns, to_ns, to_timedelta
from .._util.words import counted, duration_words
from ..alerts.firing import check_policy_bins
from ..alerts.period_tiers import check_tier_names
from ..alerts.policy import AlertPolicy, as_policy
from ..errors import ConfigError
from ..events.schema import ROLE_COLUMNS, check_events
from ..slo import SLO, PerGroup, as_per_group, as_slo
from .incident_coverage import tiers_note
from .incident_replay import replay_tables
from .incident_text import summary_text
from .incident_window import (
    Span,
    alerted_events,
    check_scope,
    overlapping_incidents,
    replayed_events,
    tracked_events,
)
from .per_group import REPORT_TABLES, group_slos, merge_tables

__all__ = ["IncidentReport", "incident_report"]


@dataclass(frozen=True, eq=False, repr=False)
class IncidentReport:
    """Everything :func:`incident_report` found, as tables, plus a plain-language summary.

    Attributes
    ----------
    start, end : Timestamp
        The incident ``[start, end)`` (UTC).
    window_start, window_end : Timestamp
        The reported window, the incident plus ``context`` on each side (UTC).
    slo, policy : SLO, AlertPolicy
        What was replayed (with per-group SLOs: the SLO of the group the summary talks about).
    freq : Timedelta
        The bins of the alert policy: its tiers are evaluated at the end of every bin (the
        tracker, at every event).
    slos : PerGroup or None
        The per-group SLOs, when given: each group's rows come from the replay under its own SLO.
    by, breakdown_by : tuple of str
        Group keys of the tracker and alerts; of the bucket breakdown.
    scope : str
        Event filter (``"*"``: all events).
    tz : str
        Time zone of the summary and the plot.
    states : DataFrame
        :func:`budgetlab.replay` rows of the events in the window (history replayed first).
    spans : DataFrame
        :func:`budgetlab.status_spans` over the window (from its first event when the data start
        later; history replayed first): the window's clock, which the tracker table reads.
    steps : DataFrame or None
        The same with ``steps=True`` (a row at every change of the window): the plot's lines
        and bands (``None`` in a report built by hand: the plot draws the per-event rows).
    transitions : DataFrame
        :func:`budgetlab.transitions` in the window, plus ``caused_by_timeouts`` (the change
        would not have happened without timeouts; see :mod:`budgetlab.analyses.failure_buckets`);
        ``attrs`` ``start`` .. ``end``: as ``states``' (``replayed_*``: with the history, from
        the tracker's window at its last event before the window).
    tracker : DataFrame
        Per group: ``status_at_start``, ``worst_status``, ``worst_at`` (on the window's
        clock), ``worst_status_at_events`` (the worst the incident's events showed: a
        ``worst_status`` worse than it was reached only between events), ``status_at_end``
        (the clock's, up to the log's last event when it ends first: ``data_end``),
        ``first_change_at``, ``first_change_from``, ``first_change_to``, ``first_change_burn``,
        ``first_change_rate`` (the seed's rounded report figures), ``peak_burn``,
        ``peak_burn_at``, ``min_success_rate`` (at the events, as the tracker recomputes them),
        ``transitions``, ``transitions_caused_by_timeouts`` (all during the incident, at its
        events), ``status_at_last_event`` and ``last_event_at`` (the status at the incident's
        last event: the changes at events end there; the summary says so when the window's
        clock left it before the incident ended, older events leaving with no event); all
        from ``read_from``: the incident's start, or when the log starts late the first instant
        the window lies after ``data_start`` (NaT: never during the incident, figures missing).
    alerts : DataFrame
        :func:`budgetlab.alert_episodes` overlapping the window, replayed over the log from its
        first event (whatever ``context``), plus ``caused_by_timeouts`` and
        ``may_have_fired_earlier``: each tier replayed from its first evaluation whose long window
        lies after the log's first bin (``tiers``' replay: the flags its own; the second, that its
        condition held from that evaluation: :mod:`~budgetlab.analyses.incident_coverage`).
    tiers : DataFrame
        Per group and tier, during the incident: ``tier``, ``severity``, ``burn`` (threshold),
        ``long_window``, ``short_window``, ``fired``, ``first_alert``, ``detection_delay``
        (first alert − start, at least 0), ``alert_end`` (of the alerts overlapping ``[start,
        end + grace)``, ``score_alerts``' rule, begun while the windows held data),
        ``caused_by_timeouts`` (every episode that fired was caused by timeouts alone),
        ``may_have_fired_earlier`` (the first alert's, as in ``alerts``), ``peak_burn_long``,
        ``peak_burn_short``, ``condition_held`` (both burns over ``burn`` at an evaluation), over
        the evaluations in ``(start, end]`` whose windows hold data: up to
        the end of the bin of ``data_end`` when the log ends first, and when it starts late
        (``data_start``) from the first whose long window lies after the bin of its first event
        (the alerts replayed from there: :mod:`~budgetlab.analyses.incident_coverage`); that
        span is ``evaluated_from`` .. ``evaluated_to`` (NaT: none, every figure withheld).
    budget : DataFrame
        Per group, during the incident: ``events``, ``failures``, ``success_rate``,
        ``burn_rate``, ``excess_failures`` (failures − (1 − target) × events), ``period`` (the
        budget period of the next three: the policy's; with per-group SLOs and a preset, or no
        policy, each group's SLO period), ``period_budget_pct`` (failures in % of the budget of
        ``period`` at the traffic of the replayed span), ``period_budget`` (that budget, in
        failures), ``period_events`` (the events of a period at that traffic), the span
        ``replayed_start`` .. ``replayed_end``, ``replayed_events``, ``replayed_hours``,
        ``traffic_hours`` (its time with traffic, the window holding an event: the traffic is
        read over it, :mod:`~budgetlab.analyses.incident_budget`), ``silences`` and
        ``silent_hours`` (left out of it). Under 24 h of traffic (the rule of
        :func:`budgetlab.replay_summary`'s ``note``) the period figures are NaN, and
        ``period_budget_pct`` when the incident's events hold under 10 expected failures:
        ``attrs["budget_note"]`` says why, the summary withholds them in words (and by the same
        rule its burn over the incident; ``burn_rate`` stays the measured ratio).
    buckets : DataFrame
        :func:`budgetlab.analyses.failure_buckets.bucket_counts` of the incident by
        ``breakdown_by`` (its ``note``: the groups with too few events during the incident for a
        verdict, the rule of :func:`budgetlab.bucket_breakdown`).
    alert_bins : DataFrame or None
        The bins the tier table is read on (bins of ``freq`` by ``by``, from the window's start
        less the longest window, history included, to its end): the figure's alert panel rules
        each tier's row grey where its long window holds no event of the group, as
        ``budgetlab alerts --plot`` does (``None`` in a report built by hand: no silence is
        marked).
    window_buckets : DataFrame or None
        The same over the window, the events the figure's bucket panel draws: the groups it
        notes as too thin are left out of the panel and named in its legend, as
        ``budgetlab buckets --plot`` does (``None`` in a report built by hand: every group is
        drawn).
    over_time : DataFrame
        :func:`budgetlab.bucket_burn_over_time` of the window by ``breakdown_by``; with
        per-group SLOs of different targets its ``attrs`` hold no ``target`` (each group's is in
        ``slos``), and ``states``' and the spans' ``attrs["slo"]`` is ``slos``.
    incidents : DataFrame
        The given incidents that overlap the window (empty if none were given); ``attrs``: the
        window ``[start, end)``, ``scope``, ``by``.
    summary : str
        One paragraph, every figure computed from the tables above.
    notes : tuple of str
        Caveats (short history, no events, ...).
    data_end, data_start : Timestamp or None
        The log's last event when the log ends inside the window (a note says so, and the figure
        marks the time after it: no data, not a silence of the traffic); ``None`` when the log
        runs to the window's end or beyond. Its first event when it comes after the history the
        longest window needs (a note says each tier's evaluated span); ``None`` when it does not.
    grace : Timedelta
        An alert overlapping ``[start, end + grace)`` detects the incident (``tiers``' ``fired``).
    """

    start: pd.Timestamp
    end: pd.Timestamp
    window_start: pd.Timestamp
    window_end: pd.Timestamp
    slo: SLO
    policy: AlertPolicy
    by: tuple[str, ...]
    breakdown_by: tuple[str, ...]
    scope: str
    tz: str
    states: pd.DataFrame
    spans: pd.DataFrame
    transitions: pd.DataFrame
    tracker: pd.DataFrame
    alerts: pd.DataFrame
    tiers: pd.DataFrame
    budget: pd.DataFrame
    buckets: pd.DataFrame
    over_time: pd.DataFrame
    incidents: pd.DataFrame
    summary: str
    notes: tuple[str, ...] = field(default=())
    slos: PerGroup | None = None
    freq: pd.Timedelta = pd.Timedelta(minutes=1)
    steps: pd.DataFrame | None = None
    window_buckets: pd.DataFrame | None = None
    data_end: pd.Timestamp | None = None
    data_start: pd.Timestamp | None = None
    alert_bins: pd.DataFrame | None = None
    grace: pd.Timedelta = pd.Timedelta(hours=1)

    def __repr__(self) -> str:
        local = [t.tz_convert(self.tz) for t in (self.start, self.window_start, self.window_end)]
        return (f"IncidentReport({local[0]:%Y-%m-%d %H:%M} {self.tz}, "
                f"{duration_words(self.end - self.start)}; in the report window "
                f"{local[1]:%Y-%m-%d %H:%M} .. {local[2]:%Y-%m-%d %H:%M}: "
                f"{counted(len(self.transitions), 'status change')}, "
                f"{counted(len(self.alerts), 'alert episode')})\n{self.summary}")

    def focus(self) -> dict[str, Any]:
        """Group keys of the group the summary talks about (the worst tracker status)."""
        if not self.by or len(self.tracker) == 0:
            return {}
        row = self.tracker.iloc[0]
        return {k: row[k] for k in self.by}

    def plot(self, *, fig: Any = None) -> Any:
        """Timeline (focus group), alert episodes (focus group) and stacked bucket burn, sharing
        the time axis; returns the matplotlib Figure."""
        from .incident_plot import plot_report

        return plot_report(self, fig=fig)

    def save(self, path: str | PathLike[str], *, force: bool = False, dpi: int = 120) -> Path:
        """Save :meth:`plot` atomically (format from the suffix: ``.png``, ``.pdf``, ``.svg``)."""
        import matplotlib.pyplot as plt

        p = Path(path)
        if p.suffix.lower() not in (".png", ".pdf", ".svg"):  # refused before the drawing
            raise ConfigError(f"{p.name}: the figure file must end in .png, .pdf or .svg.")
        fig = self.plot()
        try:
            return save_figure(fig, p, force=force, dpi=dpi, option="path")
        finally:
            plt.close(fig)


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
        Time shown before and after the incident (default 6 h).
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
    with 1 h burn 0.66 (1 h success 93.44 %), reached EXHAUSTED at 10:11; it changed status 3 times
    at its events and was EXHAUSTED when the incident ended (at its events: peak 1 h burn 4.92 at
    10:59, lowest 1 h success 50.82 %). 100 % of the failures were timeouts; the success rate
    without timeouts is withheld (the incident's 60 events hold 6 expected failures under the
    target: too few for a verdict, one needs at least 10); without timeouts 3 of the tracker's 3
    status changes would not have happened.
    The single_window policy would have fired ticket_1h (ticket) at 10:36, 36 min after the start.
    Over its 1 h the incident saw 30 failures in 60 events (burn 5 over the incident); its share
    of a 30 d error budget is withheld, too thin to go by (that budget is the traffic of
    2026-01-01 08:00 .. 12:00 UTC carried to 30 d, and a rate per day needs at least 24 h of time
    with traffic: the replayed span holds 240 events in 4 h with traffic); the incident's 60
    events hold 6 expected failures under the target, too few for a verdict, but the failures
    decide it: missed: 30 of 60 events failed (50.00 %); even with 60 events, a service at 90 %
    would fail this often with probability < 0.1 %.

    By hand: at 10:07 the window holds 61 events, 4 of them timeouts: burn 4 / 6.1 = 0.66 (the
    seed's report figure, rounded to two decimals); 1 ns after 10:11 the 09:11 event leaves the
    window, which then holds 6 timeouts among 60 events: the budget of 6.0 is spent (EXHAUSTED on
    the window's clock; the per-event replay gets there at 10:13, 7 timeouts among 61 events); at
    10:59 it holds all 30 timeouts among 61 events (burn 30 / 6.1 = 4.918, said to three significant
    digits: 4.92; success 31 / 61); the 1-hour error ratio first exceeds 2.9 x 10 % at the 10:36
    evaluation (18 of 60); the replay reads 08:00 to 12:00 (1 h of history for the 1 h windows,
    1 h of context either side of the incident): 240 events in 4 h, less than the day a rate per
    day needs. The incident's 60 events hold 60 x 0.1 = 6 expected failures under 90 %, too few
    for a verdict (the rule of ``buckets["note"]``): the rate without timeouts, the burn over the
    incident (30 / 6 = 5) and the share of the 30 d budget are withheld, the tracker's replay is
    not.

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
    ev, replayed, notes, span = replayed_events(events, span, scope_text, slo=slo, keys=keys)
    tables = replay_tables(ev, slo, pol, keys, bkeys, span, freq=freq, replayed=replayed,
                           tracked=tracked_events(events, ev, span, scope_text, keys,
                                                  min_events=slo.min_events),
                           alerted=alerted_events(events, ev, span, scope_text))
    if int(tables["budget"]["events"].sum()) == 0:
        notes.append("there were no events during the incident.")
    if span.data_start is not None:  # each tier's evaluated span
        notes.append(tiers_note(tables["tiers"], span.data_start, tz, span.start))
    return _with_summary(IncidentReport(
        start=span.start, end=span.end, window_start=span.w_start, window_end=span.w_end, slo=slo,
        policy=pol, by=tuple(keys), breakdown_by=tuple(bkeys), scope=scope_text, tz=tz, **tables,
        incidents=overlapping_incidents(incidents, span, scope=scope_text, by=keys), summary="",
        notes=tuple(notes), freq=to_timedelta(freq, name="freq"), data_end=span.data_end,
        data_start=span.data_start, grace=span.grace))


def _with_summary(rep: IncidentReport) -> IncidentReport:
    """``rep`` with the summary of its tables."""
    return dataclasses.replace(rep, summary=summary_text(
        start=rep.start, end=rep.end, tz=rep.tz, slo=rep.slo, by=rep.by, freq=rep.freq,
        breakdown_by=rep.breakdown_by, scope=rep.scope, tracker=rep.tracker, buckets=rep.buckets,
        tiers=rep.tiers, policy=rep.policy, budget=rep.budget, data_end=rep.data_end,
        grace=rep.grace))


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
    focus = tables["tracker"].iloc[0] if len(tables["tracker"]) else None
    focus_slo = slo_of[tuple(str(focus[k]) for k in keys)] if focus is not None else reports[0].slo
    rep = next(r for r in reports if r.slo == focus_slo)
    notes = tuple(dict.fromkeys(n for r in reports for n in r.notes))
    return _with_summary(dataclasses.replace(rep, slo=focus_slo, notes=notes, slos=per, **tables))
