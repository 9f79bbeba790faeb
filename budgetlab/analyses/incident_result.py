"""The post-incident report as an object: its tables (the tracker, the alert tiers, the budget,
the failure buckets), its plain-language summary, its figure (:meth:`IncidentReport.plot`) and
its atomic save; :func:`budgetlab.incident_report` builds it."""

from __future__ import annotations

from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any

import pandas as pd

from .._util.figures import save_figure
from .._util.words import counted, duration_words
from ..alerts.policy import AlertPolicy
from ..errors import ConfigError
from ..slo import SLO, PerGroup

__all__ = ["IncidentReport"]


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
        later; history replayed first; to 1 ns after the log's last event when the log ends
        first: no status is evaluated after it): the window's clock, which the tracker table
        reads.
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
        ``first_change_rate`` (the tracker's burn and success rate at that change, unrounded:
        ``transitions``' ``burn_rate`` and ``current_rate`` are the seed's rounded report; before
        stop 59 these were too, and the summary said a burn of 0.9047 as 0.9), ``peak_burn``,
        ``peak_burn_at``, ``min_success_rate`` (at the events, as the tracker recomputes them),
        ``transitions``, ``transitions_caused_by_timeouts`` (all during the incident, at its
        events), ``status_at_last_event`` and ``last_event_at`` (the status at the incident's
        last event: the changes at events end there; the summary says so when the window's
        clock left it before the incident ended, older events leaving with no event); all
        from ``read_from``: the incident's start, or when the log starts late the first instant
        the window lies after ``data_start`` (NaT: never during the incident, figures missing).
    alerts : DataFrame
        :func:`budgetlab.alert_episodes` overlapping the window, replayed over the log from its
        first event (whatever ``context``) to the window's end (an alert firing there is
        ``ongoing`` in this table, which the figure draws; ``tiers`` follows it to its reset
        in the log), plus ``caused_by_timeouts`` and
        ``may_have_fired_earlier``: each tier replayed from its first evaluation whose long window
        lies after the log's first bin (``tiers``' replay: the flags its own; the second, that its
        condition held from that evaluation: :mod:`~budgetlab.analyses.incident_coverage`).
    tiers : DataFrame
        Per group and tier, during the incident: ``tier``, ``severity``, ``burn`` (threshold),
        ``long_window``, ``short_window``, ``fired``, ``first_alert``, ``detection_delay``
        (first alert − start; NaT when ``already_firing``: its alert began before the
        incident did, so it did not detect it, ``score_alerts``' rule), ``alert_end`` (of
        the alerts overlapping ``[start, end + grace)``, ``score_alerts``' rule, begun while
        the windows held data; one still firing at the report's span's end is followed in
        the log to its reset, and for one still firing at the log's last evaluation, one step
        after it), ``ongoing`` (such an alert was still firing there: its ``alert_end`` is not
        where it stopped),
        ``caused_by_timeouts`` (every episode that fired was caused by timeouts alone),
        ``may_have_fired_earlier`` (the first alert's, as in ``alerts``), ``apart_alert``
        (the start of the first alert overlapping the incident scored apart: over while its long
        window filled after the group's first event or a silence that long; it detects nothing,
        as ``score_alerts`` scores it, and is not the tier's ``first_alert``), ``apart_filled``
        (when that window filled), ``apart_after_silence`` (it filled after a silence),
        ``peak_burn_long``,
        ``peak_burn_short`` (over the evaluations whose short window held an event; missing when
        none did: no traffic, not a burn of 0), ``short_window_empty`` (the evaluations whose
        short window held no event), ``condition_held`` (both burns over ``burn`` at an
        evaluation), over
        the evaluations in ``(start, end]`` whose windows hold data: up to
        the end of the bin of ``data_end`` when the log ends first, and when it starts late
        (``data_start``) from the first whose long window lies after the bin of its first event
        (the alerts replayed from there: :mod:`~budgetlab.analyses.incident_coverage`); that
        span is ``evaluated_from`` .. ``evaluated_to`` (NaT: none, every figure withheld);
        ``judged_to``: where the alerts were matched up to, ``end + grace``, or the last
        evaluation whose windows hold data when the log ends first (the grace is cut there: the
        summary says so when no tier paged).
    budget : DataFrame
        Per group, during the incident: ``events``, ``failures``, ``success_rate``,
        ``burn_rate``, ``excess_failures`` (failures − (1 − target) × events), ``period`` (the
        budget period of the next three: the policy's; with per-group SLOs and a preset, or no
        policy, each group's SLO period), ``period_budget_pct`` (failures in % of the budget of
        ``period`` at the traffic of the whole log in ``scope``, whatever the ``context``),
        ``period_budget`` (that budget, in failures), ``period_events`` (the events of a period
        at that traffic), the span ``log_start`` .. ``log_end`` (the scope's first to last
        event), ``log_events``, ``log_hours``, ``log_traffic_hours`` (its time with traffic, the
        window holding an event: the traffic is read over it,
        :mod:`~budgetlab.analyses.incident_budget`), ``log_silences`` and ``log_silent_hours``
        (left out of it). Under 24 h of traffic (the rule of
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
        """Group keys of the group the summary talks about (the worst tracker status; when no
        group's status is known, the most events during the incident, the summary says so)."""
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
