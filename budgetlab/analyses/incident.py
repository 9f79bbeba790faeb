"""Post-incident replay: what the tracker showed, what each alert tier would have done, what the
incident cost and which failures it was made of, in one report.

The report covers the **window** ``[start - context, end + context)``; the incident itself is
``[start, end)``. Because the tracker's status at any moment depends on the last ``slo.window``
of events and an alert tier on its long window, everything is replayed from
``window start - max(slo.window, longest policy window)`` (or the first event, when the data
start later: then ``notes`` says so) and cut to the window afterwards, so the figures at the
window's start are the ones production showed.

Times: ``start``/``end`` may be strings or Timestamps; naive times are read in ``tz`` (UTC
when ``tz`` is not given), aware ones are converted. All tables hold UTC times; the summary
speaks local time of ``tz``.
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._util.files import atomic_path
from .._util.validation import as_list, check_tz, require_columns, to_timedelta, utc_timestamp
from ..alerts.episodes import alert_episodes, alert_states
from ..alerts.policy import AlertPolicy, as_policy
from ..budget.figures import STATUSES
from ..budget.tracker_replay import STATUS_DTYPE, replay, transitions
from ..errors import ConfigError, InputError, PartialWindowWarning, SchemaError
from ..events.schema import TIMEOUT, check_events, parse_scope, scope_mask, ts_ns
from ..slo import SLO, PerGroup, as_per_group, as_slo
from ..windows.bins import bin_events
from .bucket_variants import Groups, TrackerVariants, episodes_caused, utc_ns
from .failure_buckets import bucket_burn_over_time, bucket_counts
from .incident_clock import on_the_clock
from .incident_text import prose_duration, summary_text
from .per_group import group_keys, merge_tables

__all__ = ["IncidentReport", "incident_report"]

_NICE_FREQS = ("1min", "5min", "10min", "15min", "30min", "1h", "3h", "6h", "1D")


def _nice_freq(span_ns: int, max_bins: int = 120) -> str:
    for f in _NICE_FREQS:
        if span_ns / pd.Timedelta(f).value <= max_bins:
            return f
    return _NICE_FREQS[-1]


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
    transitions : DataFrame
        :func:`budgetlab.transitions` in the window, plus ``caused_by_timeouts`` (the change
        would not have happened without timeouts; see :mod:`budgetlab.analyses.failure_buckets`).
    tracker : DataFrame
        Per group: ``status_at_start``, ``worst_status``, ``worst_at``, ``status_at_end``,
        ``first_change_at``, ``first_change_from``, ``first_change_to``, ``first_change_burn``,
        ``first_change_rate`` (the seed's rounded report figures), ``peak_burn``,
        ``peak_burn_at``, ``min_success_rate``, ``transitions``, ``transitions_caused_by_timeouts``
        (all during the incident).
    alerts : DataFrame
        :func:`budgetlab.alert_episodes` overlapping the window, plus ``caused_by_timeouts``.
    tiers : DataFrame
        Per group and tier, during the incident: ``tier``, ``severity``, ``burn`` (threshold),
        ``long_window``, ``short_window``, ``fired``, ``first_alert``, ``detection_delay``
        (first alert − start, at least 0), ``alert_end``, ``caused_by_timeouts`` (every episode
        that fired was caused by timeouts alone), ``peak_burn_long``, ``peak_burn_short`` (over
        the evaluations in ``(start, end]``).
    budget : DataFrame
        Per group, during the incident: ``events``, ``failures``, ``success_rate``,
        ``burn_rate``, ``excess_failures`` (failures − (1 − target) × events),
        ``period_budget_pct`` (failures in % of the ``policy.period`` budget at the average
        traffic of the replayed span), ``period_budget`` (that budget, in failures).
    buckets : DataFrame
        :func:`budgetlab.analyses.failure_buckets.bucket_counts` of the incident by ``breakdown_by``.
    over_time : DataFrame
        :func:`budgetlab.bucket_burn_over_time` of the window by ``breakdown_by``.
    incidents : DataFrame
        The given incidents that overlap the window (empty if none were given).
    summary : str
        One paragraph, every figure computed from the tables above.
    notes : tuple of str
        Caveats (short history, no events, ...).
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

    def __repr__(self) -> str:
        local = self.start.tz_convert(self.tz)
        return (f"IncidentReport({local:%Y-%m-%d %H:%M} {self.tz}, {self.end - self.start}, "
                f"{len(self.transitions)} transitions, {len(self.alerts)} alert episodes)\n{self.summary}")

    def focus(self) -> dict[str, Any]:
        """Group keys of the group the summary talks about (the worst tracker status)."""
        if not self.by or len(self.tracker) == 0:
            return {}
        row = self.tracker.iloc[0]
        return {k: row[k] for k in self.by}

    def plot(self, *, fig: Any = None) -> Any:
        """Timeline (focus group), alert episodes (focus group) and stacked bucket burn, sharing
        the time axis; returns the matplotlib Figure."""
        import matplotlib.pyplot as plt

        from ..plotting import plot_alerts, plot_buckets, plot_timeline

        # a manual layout: constrained layout would align the timeline's own panels (a grid inside
        # the first row) apart from the rows below, so that their time axes no longer line up
        fig = plt.figure(figsize=(11, 12)) if fig is None else fig
        fig.set_layout_engine("none")
        fig.subplots_adjust(left=0.1, right=0.74, top=0.94, bottom=0.05, hspace=0.16)
        axes = fig.subplots(3, 1, sharex=True, height_ratios=[4.5, 1.6, 2])
        focus = self.focus()
        st, tr, ep = self.states, self.transitions, self.alerts
        for k, v in focus.items():
            st = st[st[k] == v]
            tr = tr[tr[k] == v]
            ep = ep[ep[k] == v]
        st = st.drop(columns=list(self.by))
        st.attrs["slo"] = self.slo
        top = plot_timeline(st, slo=self.slo, incidents=self.incidents if len(self.incidents) else None,
                            transitions=tr, ax=axes[0], tz=self.tz)
        panels = list(getattr(top, "panels", [top]))
        ep = ep.copy()
        ep.attrs = dict(self.alerts.attrs)
        plot_alerts(ep, incidents=self.incidents if len(self.incidents) else None, ax=axes[1], tz=self.tz)
        if len(self.over_time):
            plot_buckets(self.over_time, by=list(self.breakdown_by) or None, ax=axes[2], tz=self.tz)
        for ax in [*panels, *axes[1:]]:
            ax.axvspan(self.start.tz_convert(None), self.end.tz_convert(None), color="black", alpha=0.04, lw=0)
        axes[1].set_xlabel("")  # the time axis is labelled once, at the bottom
        for ax in [*panels, axes[1]]:  # the rows below share axes[1]'s time axis
            ax.set_xlim(self.window_start.tz_convert(None), self.window_end.tz_convert(None))
        where = ", ".join(f"{k}={v}" for k, v in focus.items())
        fig.suptitle(f"Incident {self.start.tz_convert(self.tz):%Y-%m-%d %H:%M}–"
                     f"{self.end.tz_convert(self.tz):%H:%M} ({self.tz})" + (f", {where}" if where else ""))
        return fig

    def save(self, path: str | PathLike[str], *, force: bool = False, dpi: int = 120) -> Path:
        """Save :meth:`plot` atomically (format from the suffix: ``.png``, ``.pdf``, ``.svg``)."""
        import matplotlib.pyplot as plt

        p = Path(path)
        fmt = p.suffix.lower().lstrip(".")
        if fmt not in ("png", "pdf", "svg"):
            raise ConfigError(f"{p.name}: the figure file must end in .png, .pdf or .svg.")
        fig = self.plot()
        try:
            with atomic_path(p, force=force) as tmp:
                fig.savefig(tmp, format=fmt, dpi=dpi)
        finally:
            plt.close(fig)
        return p


# ------------------------------------------------------------------------------------------------


def _between(ts: pd.Series, lo: pd.Timestamp, hi: pd.Timestamp) -> np.ndarray:
    t = utc_ns(ts)
    return (t >= lo.value) & (t < hi.value)


def _tracker_table(states: pd.DataFrame, trans: pd.DataFrame, keys: list[str], start: pd.Timestamp,
                   end: pd.Timestamp) -> pd.DataFrame:
    """Per group: the tracker's key moments during the incident (a loop over groups)."""
    t_ns = utc_ns(states["ts"])
    code = states["status"].cat.codes.to_numpy().astype(np.int64)
    tr_t = utc_ns(trans["ts"]) if len(trans) else np.empty(0, dtype=np.int64)
    if keys:
        grouped = states.groupby(keys, observed=True, sort=True).indices
        tr_groups = trans.groupby(keys, observed=True, sort=True).indices if len(trans) else {}
        items = [((k,) if not isinstance(k, tuple) else k, idx) for k, idx in grouped.items()]
        tr_items = {((k,) if not isinstance(k, tuple) else k): idx for k, idx in tr_groups.items()}
    else:
        items = [((), np.arange(len(states)))]
        tr_items = {(): np.arange(len(trans))}
    rows = []
    nat = pd.NaT
    for key, idx in items:
        idx = np.sort(idx)
        tg = t_ns[idx]
        before = idx[tg < start.value]
        during = idx[(tg >= start.value) & (tg < end.value)]
        until_end = idx[tg < end.value]
        at_start = int(code[before[-1]]) if len(before) else 0
        row: dict[str, Any] = dict(zip(keys, key, strict=True))
        row["status_at_start"] = STATUSES[at_start]
        worst = max(at_start, int(code[during].max())) if len(during) else at_start
        row["worst_status"] = STATUSES[worst]
        if worst == at_start:
            row["worst_at"] = start
        else:
            row["worst_at"] = pd.Timestamp(int(t_ns[during[np.argmax(code[during] == worst)]]), tz="UTC")
        row["status_at_end"] = STATUSES[int(code[until_end[-1]])] if len(until_end) else STATUSES[0]
        ti = np.sort(tr_items.get(key, np.empty(0, dtype=np.int64)))
        ti = ti[(tr_t[ti] >= start.value) & (tr_t[ti] < end.value)]
        if len(ti):
            first = trans.iloc[int(ti[0])]
            row.update(first_change_at=first["ts"], first_change_from=str(first["from_status"]),
                       first_change_to=str(first["to_status"]), first_change_burn=float(first["burn_rate"]),
                       first_change_rate=float(first["current_rate"]))
        else:
            row.update(first_change_at=nat, first_change_from=None, first_change_to=None,
                       first_change_burn=np.nan, first_change_rate=np.nan)
        if len(during):
            burn = states["burn_rate"].to_numpy()[during]
            j = int(np.argmax(burn))
            row["peak_burn"] = float(burn[j])
            row["peak_burn_at"] = pd.Timestamp(int(t_ns[during[j]]), tz="UTC")
            row["min_success_rate"] = float(states["success_rate"].to_numpy()[during].min())
        else:
            row.update(peak_burn=np.nan, peak_burn_at=nat, min_success_rate=np.nan)
        row["transitions"] = len(ti)
        row["transitions_caused_by_timeouts"] = int(trans["caused_by_timeouts"].to_numpy()[ti].sum()) if len(ti) else 0
        rows.append(row)
    cols = [*keys, "status_at_start", "worst_status", "worst_at", "status_at_end", "first_change_at",
            "first_change_from", "first_change_to", "first_change_burn", "first_change_rate", "peak_burn",
            "peak_burn_at", "min_success_rate", "transitions", "transitions_caused_by_timeouts"]
    out = pd.DataFrame(rows, columns=cols)
    for c in ("status_at_start", "worst_status", "status_at_end"):
        out[c] = out[c].astype(STATUS_DTYPE)
    for c in ("worst_at", "first_change_at", "peak_burn_at"):
        out[c] = pd.Series([r[c] for r in rows], dtype="datetime64[ns, UTC]")
    # the worst group first: status, then peak burn
    rank = out["worst_status"].cat.codes.to_numpy() * 1e6 + out["peak_burn"].fillna(0.0).to_numpy()
    return out.iloc[np.argsort(-rank, kind="stable")].reset_index(drop=True)


def _tier_table(episodes: pd.DataFrame, states: pd.DataFrame, policy: AlertPolicy, keys: list[str],
                start: pd.Timestamp, end: pd.Timestamp) -> pd.DataFrame:
    """Per group and tier: what the tier did during the incident."""
    ev_t = utc_ns(states["bin_end"])
    during = (ev_t > start.value) & (ev_t <= end.value)
    st = states[during]
    peaks = st.groupby([*keys, "tier"], observed=True, sort=False)[["burn_long", "burn_short"]].max()
    ep = episodes
    s_ns = utc_ns(ep["start"])
    e_ns = utc_ns(ep["end"])
    hit = ep[(s_ns < end.value) & (e_ns > start.value)]
    group_rows = [()] if not keys else list(
        states[keys].drop_duplicates().itertuples(index=False, name=None))
    rows = []
    for g in group_rows:  # a loop over groups and tiers
        sel_g = np.ones(len(hit), dtype=bool)
        for k, v in zip(keys, g, strict=True):
            sel_g &= (hit[k] == v).to_numpy()
        for tier in policy.tiers:
            h = hit[sel_g & (hit["tier"].astype(str) == tier.name).to_numpy()]
            row: dict[str, Any] = dict(zip(keys, g, strict=True))
            row.update(tier=tier.name, severity=tier.severity, burn=tier.burn, long_window=tier.long_window,
                       short_window=tier.short_window if tier.short_window is not None else pd.NaT)
            row["fired"] = len(h) > 0
            first = pd.Timestamp(h["start"].min()) if len(h) else None
            row["first_alert"] = first if first is not None else pd.NaT
            row["detection_delay"] = max(first - start, pd.Timedelta(0)) if first is not None else pd.NaT
            row["alert_end"] = h["end"].max() if len(h) else pd.NaT
            row["caused_by_timeouts"] = bool(len(h) and h["caused_by_timeouts"].all())
            pk: Any = (*g, tier.name) if keys else tier.name
            if pk in peaks.index:
                row["peak_burn_long"] = float(peaks.loc[pk, "burn_long"])
                row["peak_burn_short"] = float(peaks.loc[pk, "burn_short"])
            else:
                row["peak_burn_long"] = row["peak_burn_short"] = np.nan
            rows.append(row)
    out = pd.DataFrame(rows)
    for c in ("first_alert", "alert_end"):
        out[c] = pd.Series([r[c] for r in rows], dtype="datetime64[ns, UTC]")
    for c in ("detection_delay", "long_window", "short_window"):
        out[c] = pd.Series([r[c] for r in rows], dtype="timedelta64[ns]")
    return out


def _budget_table(incident_group: np.ndarray, incident_ok: np.ndarray, groups_hist: Groups, slo: SLO,
                  policy: AlertPolicy, span_ns: int) -> pd.DataFrame:
    """Per group: failures during the incident and their share of the policy-period budget.

    ``incident_group`` / ``incident_ok``: group code (of ``groups_hist``) and outcome of each event
    of the incident."""
    eb = slo.error_budget
    keys = groups_hist.keys
    kt = groups_hist.key_table
    hist_counts = np.bincount(groups_hist.code, minlength=groups_hist.n_groups)
    n = np.bincount(incident_group, minlength=groups_hist.n_groups)
    bad = np.bincount(incident_group[~incident_ok], minlength=groups_hist.n_groups)
    out = kt.copy() if keys else pd.DataFrame(index=pd.RangeIndex(groups_hist.n_groups))
    out["events"] = n
    out["failures"] = bad
    rate = np.ones(len(n))
    np.divide(n - bad, n, out=rate, where=n > 0)
    out["success_rate"] = rate
    burn = np.zeros(len(n))
    np.divide(bad, n * eb, out=burn, where=n > 0)
    out["burn_rate"] = burn
    out["excess_failures"] = bad - eb * n
    per_period = hist_counts * (policy.period.value / max(span_ns, 1))
    pct = np.zeros(len(n))
    np.divide(100.0 * bad, eb * per_period, out=pct, where=per_period > 0)
    out["period_budget_pct"] = pct
    out["period_budget"] = eb * per_period
    return out


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
    >>> rep = incident_report(ev, SLO(target=0.9, window="1h"), "2026-01-01 10:00", "2026-01-01 11:00",
    ...                       context="1h", policy=AlertPolicy.single_window("1h", 2.9, severity="ticket"))
    >>> print(rep.summary)  # doctest: +NORMALIZE_WHITESPACE
    Between 10:00 and 11:00 UTC on 2026-01-01, the 1 h tracker (target 90 %) went WARNING at 10:07
    with 1 h burn 0.66 (1 h success 93.44 %), reached EXHAUSTED at 10:11; it changed status 3 times
    and was EXHAUSTED when the incident ended (peak 1 h burn 4.92 at 10:59, lowest 1 h success
    50.82 %). 100 % of the failures were timeouts; without timeouts the success rate would have been
    100.00 % instead of 50.00 %, and 3 of the tracker's 3 status changes would not have happened.
    The single_window policy would have fired ticket_1h (ticket) at 10:36, 36 min after the start.
    Over its 1 h the incident saw 30 failures in 60 events (burn 5.00 over the incident), 0.7 % of
    a 30 d error budget.

    By hand: at 10:07 the window holds 61 events, 4 of them timeouts: burn 4 / 6.1 = 0.66; 1 ns
    after 10:11 the 09:11 event leaves the window, which then holds 6 timeouts among 60 events: the
    budget of 6.0 is spent (EXHAUSTED on the window's clock; the per-event replay gets there at
    10:13, 7 timeouts among 61 events); at 10:59
    it holds all 30 timeouts among 61 events (burn 4.92, success 31 / 61); the 1-hour error ratio
    first exceeds 2.9 x 10 % at the 10:36 evaluation (18 of 60); 30 failures are 0.7 % of a 30-day
    budget at 240 events per 4 h replayed (0.1 x 43,200).

    >>> rep.tiers[["tier", "fired", "first_alert", "detection_delay", "peak_burn_long"]]
            tier  fired               first_alert detection_delay  peak_burn_long
    0  ticket_1h   True 2026-01-01 10:36:00+00:00 0 days 00:36:00             5.0
    """
    per = as_per_group(slo)
    if per is not None:
        return _per_group_report(events, per, start, end, dict(
            policy=policy, by=by, context=context, scope=scope, breakdown_by=breakdown_by, incidents=incidents,
            tz=tz, freq=freq))
    slo = as_slo(slo)
    pol = as_policy(policy, default=AlertPolicy.workbook(slo.period), period=slo.period)
    tz = check_tz(tz)
    keys = check_events(events, by)
    bkeys = as_list(breakdown_by) if breakdown_by is not None else list(keys)
    require_columns(events, bkeys)
    span = _Span.of(start, end, tz=tz, context=context, history=max([slo.window, *pol.windows]))
    scope_text = "*" if scope is None or not parse_scope(scope) else str(scope).strip()
    for key in parse_scope(scope):
        if key not in events.columns:
            raise SchemaError(f"scope names column {key!r}, which events does not have.")
    ev, replayed_ns, notes = _replayed_events(events, span, scope_text)

    with warnings.catch_warnings():  # a window longer than the history is in notes, not a warning
        warnings.simplefilter("ignore", PartialWindowWarning)
        states_h = replay(ev, slo, by=keys)
    groups_h = Groups(ev, keys)
    variants = TrackerVariants(ev, slo, groups_h)
    has_timeout = TIMEOUT in variants.names
    tr_h = transitions(states_h)
    tr_h["caused_by_timeouts"] = variants.caused(variants.names.index(TIMEOUT))[2] if has_timeout else False
    in_window = _between(ev["ts"], span.w_start, span.w_end)
    states = states_h[in_window].reset_index(drop=True)
    states.attrs.update(states_h.attrs)
    tr = tr_h[_between(tr_h["ts"], span.w_start, span.w_end)].reset_index(drop=True)
    tracker = on_the_clock(_tracker_table(states_h, tr_h, keys, span.start, span.end), ev, slo, keys, span)
    alerts, tiers = _alert_tables(ev, slo, pol, keys, span, freq=freq, has_timeout=has_timeout)

    in_incident = _between(ev["ts"], span.start, span.end)
    ev_inc = ev[in_incident]
    budget = _budget_table(groups_h.code[in_incident], ev_inc["ok"].to_numpy(dtype=bool), groups_h, slo, pol,
                           replayed_ns)
    if len(ev_inc):
        buckets = bucket_counts(ev_inc, slo, bkeys)
    else:
        buckets = bucket_counts(ev[in_window], slo, bkeys).iloc[0:0]
        notes.append("there were no events during the incident.")
    over_time = bucket_burn_over_time(ev[in_window], slo, freq=_nice_freq(span.w_end.value - span.w_start.value),
                                      by=bkeys)
    summary = summary_text(start=span.start, end=span.end, tz=tz, slo=slo, by=keys, breakdown_by=bkeys,
                           scope=scope_text, tracker=tracker, buckets=buckets, tiers=tiers, policy=pol, budget=budget)
    return IncidentReport(
        start=span.start, end=span.end, window_start=span.w_start, window_end=span.w_end, slo=slo, policy=pol,
        by=tuple(keys), breakdown_by=tuple(bkeys), scope=scope_text, tz=tz, states=states, transitions=tr,
        tracker=tracker, alerts=alerts, tiers=tiers, budget=budget, buckets=buckets, over_time=over_time,
        incidents=_overlapping_incidents(incidents, span), summary=summary, notes=tuple(notes),
    )


def _per_group_report(events: pd.DataFrame, per: PerGroup, start: Any, end: Any, kw: dict[str, Any]) -> IncidentReport:
    """:func:`incident_report` under per-group SLOs: one report per distinct SLO, each group's rows
    from the report under its own SLO, the summary about the worst group under its SLO."""
    keys = check_events(events, kw["by"])
    if not keys:
        raise ConfigError("per-group SLOs need group keys; pass by=... naming the columns they are keyed by.")
    bkeys = as_list(kw["breakdown_by"]) if kw["breakdown_by"] is not None else list(keys)
    key_table = group_keys(events, keys)
    slos = per.resolve(key_table)
    slo_of = {tuple(k): s for k, s in zip(key_table.astype(str).itertuples(index=False, name=None), slos, strict=True)}
    reports = [incident_report(events, one, start, end, **kw) for one in dict.fromkeys(slos)]
    names = ("states", "transitions", "tracker", "alerts", "tiers", "budget", "buckets", "over_time")
    tables = merge_tables([(r.slo, {n: getattr(r, n) for n in names}) for r in reports], keys, bkeys, slo_of)
    focus = tables["tracker"].iloc[0] if len(tables["tracker"]) else None
    focus_slo = slo_of[tuple(str(focus[k]) for k in keys)] if focus is not None else reports[0].slo
    rep = next(r for r in reports if r.slo == focus_slo)
    summary = summary_text(start=rep.start, end=rep.end, tz=rep.tz, slo=focus_slo, by=keys, breakdown_by=bkeys,
                           scope=rep.scope, tracker=tables["tracker"], buckets=tables["buckets"], tiers=tables["tiers"],
                           policy=rep.policy, budget=tables["budget"])
    notes = tuple(dict.fromkeys(n for r in reports for n in r.notes))
    changes: dict[str, Any] = {n: tables[n] for n in names}
    return dataclasses.replace(rep, slo=focus_slo, summary=summary, notes=notes, slos=per, **changes)


@dataclass(frozen=True)
class _Span:
    """The incident ``[start, end)``, the reported window around it and where the replay starts."""

    start: pd.Timestamp
    end: pd.Timestamp
    w_start: pd.Timestamp
    w_end: pd.Timestamp
    history: pd.Timedelta  # replayed before the window: the longest of the tracker's and the alerts' windows

    @property
    def h_start(self) -> pd.Timestamp:
        return self.w_start - self.history

    @classmethod
    def of(cls, start: Any, end: Any, *, tz: str, context: Any, history: pd.Timedelta) -> _Span:
        start_ts, end_ts = utc_timestamp(start, name="start", tz=tz), utc_timestamp(end, name="end", tz=tz)
        if end_ts <= start_ts:
            raise ConfigError("end must be after start (the incident is [start, end)).")
        ctx = to_timedelta(context, name="context", allow_zero=True)
        return cls(start=start_ts, end=end_ts, w_start=start_ts - ctx, w_end=end_ts + ctx, history=history)


def _replayed_events(events: pd.DataFrame, span: _Span, scope: str) -> tuple[pd.DataFrame, int, list[str]]:
    """The events to replay (from ``span.h_start`` to the window's end, in scope), the time they
    span (cut by the table's own start and end when they come first) and a note when the data
    start too late for the longest window."""
    t = ts_ns(events)
    h_start, w_start, w_end = span.h_start, span.w_start, span.w_end
    i0 = int(np.searchsorted(t, h_start.value, side="left"))
    i1 = int(np.searchsorted(t, w_end.value, side="left"))
    ev = events.iloc[i0:i1]
    if scope != "*":
        ev = ev[scope_mask(ev, scope)]
    if not _between(ev["ts"], w_start, w_end).any():
        raise InputError("there are no events in the report window (in scope); check start/end, tz and scope.")
    notes: list[str] = []
    first_ns = int(ts_ns(ev)[0])
    if i0 == 0 and first_ns > h_start.value:
        have = max(w_start.value - first_ns, 0) / 3.6e12
        notes.append(f"the data start {have:.1f} h before the report's window (the incident and its context), "
                     f"less than the {prose_duration(span.history)} of history the longest window needs: "
                     "statuses and burns early in the report may differ from production's.")
    span_lo = h_start.value if i0 > 0 else first_ns
    span_hi = w_end.value if i1 < len(events) else int(t[-1])
    return ev, max(span_hi - span_lo, 1), notes


def _alert_tables(ev: pd.DataFrame, slo: SLO, policy: AlertPolicy, keys: list[str], span: _Span, *,
                  freq: Any, has_timeout: bool) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The alert episodes overlapping the window (with ``caused_by_timeouts``) and the tier table."""
    bins = bin_events(ev, freq, by=keys, start=span.h_start, end=span.w_end)
    if has_timeout:
        ep, _ = episodes_caused(bins, slo.target, policy, TIMEOUT, freq=freq)
        ep = ep.rename(columns={"caused": "caused_by_timeouts"})
    else:
        ep = alert_episodes(bins, slo.target, policy, freq=freq)
        ep["caused_by_timeouts"] = False
    s_ns = utc_ns(ep["start"])
    e_ns = utc_ns(ep["end"])
    alerts = ep[(s_ns < span.w_end.value) & (e_ns > span.w_start.value)].reset_index(drop=True)
    alerts.attrs.update(ep.attrs)
    alerts.attrs["grid_start"], alerts.attrs["grid_end"] = span.w_start, span.w_end
    a_states = alert_states(bins, slo.target, policy, freq=freq)
    return alerts, _tier_table(ep, a_states, policy, keys, span.start, span.end)


def _overlapping_incidents(incidents: pd.DataFrame | None, span: _Span) -> pd.DataFrame:
    """The given incidents that overlap the window (an empty table when none were given)."""
    if incidents is None:
        return pd.DataFrame({"start": pd.Series([], dtype="datetime64[ns, UTC]"),
                             "end": pd.Series([], dtype="datetime64[ns, UTC]")})
    require_columns(incidents, ["start", "end"], what="incidents")
    i_s = pd.to_datetime(incidents["start"], utc=True)
    i_e = pd.to_datetime(incidents["end"], utc=True)
    return incidents[((i_s < span.w_end) & (i_e > span.w_start)).to_numpy()].reset_index(drop=True)
