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

import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._util.files import atomic_path
from .._util.validation import as_list, check_tz, require_columns, to_timedelta
from ..alerts.episodes import alert_episodes, alert_states
from ..alerts.policy import AlertPolicy, as_policy
from ..budget.figures import STATUSES
from ..budget.tracker_replay import STATUS_DTYPE, replay, transitions
from ..errors import ConfigError, InputError, PartialWindowWarning, SchemaError
from ..events.schema import TIMEOUT, check_events, parse_scope, scope_mask, ts_ns
from ..slo import SLO, as_slo
from ..windows.bins import bin_events
from .failure_buckets import (
    Groups,
    TrackerVariants,
    bucket_burn_over_time,
    bucket_counts,
    episodes_caused,
    utc_ns,
)

__all__ = ["IncidentReport", "incident_report"]

_NICE_FREQS = ("1min", "5min", "10min", "15min", "30min", "1h", "3h", "6h", "1D")



def _parse_time(value: Any, tz: str, name: str) -> pd.Timestamp:
    try:
        ts = pd.Timestamp(value)
    except (ValueError, TypeError):
        raise ConfigError(f"{name} is not a time; give e.g. '2026-11-05 03:00' or a Timestamp.") from None
    if pd.isna(ts):
        raise ConfigError(f"{name} is missing (NaT); give e.g. '2026-11-05 03:00'.")
    ts = ts.tz_localize(tz) if ts.tzinfo is None else ts
    return ts.tz_convert("UTC").as_unit("ns")


def _utc(ns: int) -> pd.Timestamp:
    return pd.Timestamp(ns, unit="ns", tz="UTC")


def _nice_freq(span_ns: int, max_bins: int = 120) -> str:
    for f in _NICE_FREQS:
        if span_ns / pd.Timedelta(f).value <= max_bins:
            return f
    return _NICE_FREQS[-1]


def _group_label(row: pd.Series | dict[str, Any], keys: Sequence[str]) -> str:
    return ", ".join(f"{k}={row[k]}" for k in keys)


def _prose_duration(value: Any) -> str:
    """A duration for prose: ``30 d``, ``24 h``, ``3.5 h``, ``90 min``, ``45 s``.

    >>> [_prose_duration(pd.Timedelta(x)) for x in ("30D", "24h", "210min", "90min", "45s")]
    ['30 d', '24 h', '3.5 h', '90 min', '45 s']
    """
    seconds = pd.Timedelta(value).total_seconds()
    if seconds >= 2 * 86400 and seconds % 86400 == 0:
        return f"{seconds / 86400:g} d"
    if seconds >= 3600 and (seconds % 3600 == 0 or seconds % 1800 == 0 and seconds > 2 * 3600):
        return f"{seconds / 3600:g} h"
    if seconds >= 60 and seconds % 60 == 0:
        return f"{seconds / 60:g} min"
    if seconds >= 3600:
        return f"{seconds / 3600:.2f} h"
    return f"{seconds:g} s"


def _phrase_bucket(name: str) -> str:
    return name.replace("_", " ") + "s"


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
        What was replayed.
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
        would not have happened without timeouts; see :mod:`budgetlab.buckets`).
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
        traffic of the replayed span).
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

        fig = plt.figure(figsize=(11, 10), layout="constrained") if fig is None else fig
        axes = fig.subplots(3, 1, sharex=True, height_ratios=[3, 1.6, 2])
        focus = self.focus()
        st, tr, ep = self.states, self.transitions, self.alerts
        for k, v in focus.items():
            st = st[st[k] == v]
            tr = tr[tr[k] == v]
            ep = ep[ep[k] == v]
        st = st.drop(columns=list(self.by))
        st.attrs["slo"] = self.slo
        plot_timeline(st, slo=self.slo, incidents=self.incidents if len(self.incidents) else None,
                      transitions=tr, ax=axes[0], tz=self.tz)
        ep = ep.copy()
        ep.attrs = dict(self.alerts.attrs)
        plot_alerts(ep, incidents=self.incidents if len(self.incidents) else None, ax=axes[1], tz=self.tz)
        if len(self.over_time):
            plot_buckets(self.over_time, by=list(self.breakdown_by) or None, ax=axes[2], tz=self.tz)
        for ax in axes:
            ax.axvspan(self.start.tz_convert(None), self.end.tz_convert(None), color="black", alpha=0.04, lw=0)
        axes[0].set_xlim(self.window_start.tz_convert(None), self.window_end.tz_convert(None))
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
            row["worst_at"] = _utc(int(t_ns[during[np.argmax(code[during] == worst)]]))
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
            row["peak_burn_at"] = _utc(int(t_ns[during[j]]))
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
    return out


def _fmt_clock(ts: pd.Timestamp, tz: str, ref: pd.Timestamp) -> str:
    local = ts.tz_convert(tz)
    if local.date() == ref.tz_convert(tz).date():
        return f"{local:%H:%M}"
    return f"{local:%Y-%m-%d %H:%M}"


def _summary(rep: dict[str, Any]) -> str:
    """The plain-language paragraph, composed from the computed tables only."""
    start, end, tz, slo, keys = rep["start"], rep["end"], rep["tz"], rep["slo"], rep["by"]
    loc_s, loc_e = start.tz_convert(tz), end.tz_convert(tz)

    def clock(t: pd.Timestamp) -> str:
        return _fmt_clock(t, tz, start)

    end_txt = f"{loc_e:%H:%M}" if loc_e.date() == loc_s.date() else f"{loc_e:%Y-%m-%d %H:%M}"
    scope = "" if rep["scope"] == "*" else f" ({rep['scope']})"
    parts = [f"Between {loc_s:%H:%M} and {end_txt} {loc_s:%Z} on {loc_s:%Y-%m-%d}{scope}"]
    tracker = rep["tracker"]
    window = _prose_duration(slo.window)
    target = f"{slo.target * 100:g} %"
    if len(tracker) == 0:
        parts[0] += f", there were no events for the {window} tracker (target {target})."
    else:
        row = tracker.iloc[0]
        who = f" for {_group_label(row, keys)}" if keys else ""
        head = f"the {window} tracker{who} (target {target})"
        at_start = str(row["status_at_start"])
        worst = str(row["worst_status"])
        peak = (f"peak burn {row['peak_burn']:.2f} at {clock(row['peak_burn_at'])}, lowest success "
                f"{row['min_success_rate'] * 100:.2f} %") if pd.notna(row["peak_burn"]) else "no events"
        if row["transitions"] > 0:
            txt = head + (f" was {at_start.upper()} when the incident began and" if at_start != "healthy" else "")
            txt += (f" went {row['first_change_to'].upper()} at {clock(row['first_change_at'])} with burn "
                    f"{row['first_change_burn']:.2f} (success {row['first_change_rate'] * 100:.2f} %)")
            if worst != row["first_change_to"] and worst != at_start:
                txt += f", reached {worst.upper()} at {clock(row['worst_at'])}"
            n_tr = int(row["transitions"])
            txt += (f"; it changed status {n_tr} time{'s' if n_tr != 1 else ''} and was "
                    f"{str(row['status_at_end']).upper()} when the incident ended ({peak})")
        elif at_start != "healthy":
            txt = f"{head} was already {at_start.upper()} when the incident began and stayed so ({peak})"
        else:
            txt = f"{head} stayed HEALTHY throughout ({peak})"
        others = int((tracker["worst_status"].iloc[1:].astype(str) != "healthy").sum()) if len(tracker) > 1 else 0
        if others:
            txt += f"; {others} other group{'s' if others > 1 else ''} also left HEALTHY"
        parts[0] += ", " + txt + "."
    # buckets
    b = rep["buckets"]
    bkeys = rep["breakdown_by"]
    total_fail = int(b["failures"].sum()) if len(b) else 0
    if total_fail == 0:
        parts.append("There were no failures during the incident.")
    else:
        top = b.iloc[int(np.argmax(b["failures"].to_numpy()))]
        where = f" in {_group_label(top, bkeys)}" if bkeys else ""
        if len(bkeys) == 1:
            where = f" in {top[bkeys[0]]}"
        txt = f"{top['share_of_all_failures'] * 100:.0f} % of the failures were {_phrase_bucket(str(top['bucket']))}{where}"
        to = b[b["bucket"].astype(str) == TIMEOUT]
        n_to = int(to["failures"].sum()) if len(to) else 0
        if n_to:
            ev_g = b.drop_duplicates(subset=list(bkeys) or None)["events"].sum() if bkeys else int(b["events"].iloc[0])
            ok = int(ev_g) - total_fail
            sli = ok / ev_g
            sli_wo = ok / (ev_g - n_to) if ev_g > n_to else 1.0
            share = "" if (not bkeys and str(top["bucket"]) == TIMEOUT) else f" ({n_to / total_fail * 100:.0f} % of all failures)"
            txt += (f"; without timeouts{share} the success rate would have"
                    f" been {sli_wo * 100:.2f} % instead of {sli * 100:.2f} %")
            caused = int(tracker["transitions_caused_by_timeouts"].iloc[0]) if len(tracker) else 0
            n_tr = int(tracker["transitions"].iloc[0]) if len(tracker) else 0
            if n_tr:
                txt += (f", and {caused} of the tracker's {n_tr} status change{'s' if n_tr != 1 else ''}"
                        " would not have happened")
        parts.append(txt[0].upper() + txt[1:] + ".")
    # alerts
    tiers, pol = rep["tiers"], rep["policy"]
    name = f"the {pol.name} policy" if pol.name else "the alert policy"
    fired = tiers[tiers["fired"]].sort_values("first_alert", kind="stable") if len(tiers) else tiers
    has_page = any(t.severity == "page" for t in pol.tiers)
    pages = fired[fired["severity"] == "page"] if len(fired) else fired

    def when(r: pd.Series) -> str:
        if r["first_alert"] <= start:
            return f"already at the start (firing since {clock(r['first_alert'])})"
        delay = int(round(r["detection_delay"].total_seconds() / 60))
        return f"at {clock(r['first_alert'])}, {delay} min after the start"

    if has_page and len(pages):
        p = pages.iloc[0]
        who = f" for {_group_label(p, keys)}" if keys else ""
        txt = f"{name} would have paged{who} {when(p)} ({p['tier']})"
        if bool(pages["caused_by_timeouts"].all()):
            txt += "; timeouts alone caused the page"
    elif not has_page and len(fired):
        r = fired.iloc[0]
        txt = f"{name} would have fired {r['tier']} ({r['severity']}) {when(r)}"
    else:
        txt = f"{name} would not have {'paged' if has_page else 'fired'}"
        page_rows = tiers[tiers["severity"] == "page"] if has_page else tiers
        ratio = (page_rows["peak_burn_long"] / page_rows["burn"]).to_numpy(dtype=float)
        if len(ratio) and np.isfinite(ratio).any():
            r = page_rows.iloc[int(np.nanargmax(ratio))]
            txt += (f" ({r['tier']}'s {_prose_duration(r['long_window'])} burn peaked at {r['peak_burn_long']:.2f}, "
                    f"its threshold is {r['burn']:g})")
        if has_page and len(fired):
            r = fired.iloc[0]
            txt += f"; its {r['tier']} tier would have raised a {r['severity']} {when(r)}"
        elif has_page:
            txt += " and no other tier fired"
    parts.append(txt[0].upper() + txt[1:] + ".")
    # budget
    bud = rep["budget"]
    if len(bud) and int(bud["events"].sum()):
        n_ev = int(bud["events"].sum())
        n_bad = int(bud["failures"].sum())
        burn = n_bad / (n_ev * slo.error_budget)
        pct = float(bud["period_budget_pct"].sum())
        parts.append(f"Over its {_prose_duration(end - start)} the incident saw {n_bad:,} failures in {n_ev:,} events (burn {burn:.2f}), "
                     f"{pct:.1f} % of a {_prose_duration(pol.period)} error budget.")
    return " ".join(parts)


def incident_report(
    events: pd.DataFrame,
    slo: SLO,
    start: Any,
    end: Any,
    *,
    policy: AlertPolicy | None = None,
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
    slo : SLO
        The production tracker's SLO (target, window, thresholds).
    start, end : str or Timestamp
        The incident ``[start, end)``; naive times are in ``tz`` (UTC by default).
    policy : AlertPolicy, optional
        Alert tiers to replay on bins of ``freq`` (default :meth:`AlertPolicy.workbook`).
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
    with burn 0.66 (success 93.44 %), reached EXHAUSTED at 10:13; it changed status 3 times and was
    EXHAUSTED when the incident ended (peak burn 4.92 at 10:59, lowest success 50.82 %). 100 % of the
    failures were timeouts; without timeouts the success rate would have been 100.00 % instead of
    50.00 %, and 3 of the tracker's 3 status changes would not have happened. The single_window
    policy would have fired ticket_1h (ticket) at 10:36, 36 min after the start. Over its 1 h the
    incident saw 30 failures in 60 events (burn 5.00), 0.7 % of a 30 d error budget.

    By hand: at 10:07 the window holds 61 events, 4 of them timeouts: burn 4 / 6.1 = 0.66; at 10:59
    it holds all 30 timeouts among 61 events (burn 4.92, success 31 / 61); the 1-hour error ratio
    first exceeds 2.9 x 10 % at the 10:36 evaluation (18 of 60); 30 failures are 0.7 % of a 30-day
    budget at 240 events per 4 h replayed (0.1 x 43,200).

    >>> rep.tiers[["tier", "fired", "first_alert", "detection_delay", "peak_burn_long"]]
            tier  fired               first_alert detection_delay  peak_burn_long
    0  ticket_1h   True 2026-01-01 10:36:00+00:00 0 days 00:36:00             5.0
    """
    slo = as_slo(slo)
    pol = as_policy(policy, default=AlertPolicy.workbook())
    tz = check_tz(tz)
    keys = check_events(events, by)
    bkeys = as_list(breakdown_by) if breakdown_by is not None else list(keys)
    require_columns(events, bkeys)
    start_ts, end_ts = _parse_time(start, tz, "start"), _parse_time(end, tz, "end")
    if end_ts <= start_ts:
        raise ConfigError("end must be after start (the incident is [start, end)).")
    ctx = to_timedelta(context, name="context", allow_zero=True)
    w_start, w_end = start_ts - ctx, end_ts + ctx
    history = max([slo.window, *pol.windows])
    h_start = w_start - history
    scope_text = "*" if scope is None or not parse_scope(scope) else str(scope).strip()
    for key in parse_scope(scope):
        if key not in events.columns:
            raise SchemaError(f"scope names column {key!r}, which events does not have.")

    t = ts_ns(events)
    i0 = int(np.searchsorted(t, h_start.value, side="left"))
    i1 = int(np.searchsorted(t, w_end.value, side="left"))
    ev = events.iloc[i0:i1]
    if scope_text != "*":
        ev = ev[scope_mask(ev, scope_text)]
    in_window = _between(ev["ts"], w_start, w_end)
    if not in_window.any():
        raise InputError("there are no events in the report window (in scope); check start/end, tz and scope.")
    notes: list[str] = []
    first_ns = int(ts_ns(ev)[0])
    if i0 == 0 and first_ns > h_start.value:
        have = max(w_start.value - first_ns, 0) / 3.6e12
        notes.append(f"the data start {have:.1f} h before the window, less than the {_prose_duration(history)} "
                     "the longest window needs: statuses and burns early in the window may differ from "
                     "production's.")

    # tracker (a window longer than the history is reported in notes, not warned about)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PartialWindowWarning)
        states_h = replay(ev, slo, by=keys)
    tr_h = transitions(states_h)
    groups_h = Groups(ev, keys)
    variants = TrackerVariants(ev, slo, groups_h)
    has_timeout = TIMEOUT in variants.names
    if has_timeout:
        _, _, caused = variants.caused(variants.names.index(TIMEOUT))
        if len(caused) != len(tr_h):  # two replays of one table must agree
            raise RuntimeError("internal error: the timeout-free replay disagrees with replay().")
        tr_h["caused_by_timeouts"] = caused
    else:
        tr_h["caused_by_timeouts"] = False
    states = states_h[in_window].reset_index(drop=True)
    states.attrs.update(states_h.attrs)
    tr = tr_h[_between(tr_h["ts"], w_start, w_end)].reset_index(drop=True)
    tracker = _tracker_table(states_h, tr_h, keys, start_ts, end_ts)

    # alerts
    bins = bin_events(ev, freq, by=keys, start=h_start, end=w_end)
    if has_timeout:
        ep, _ = episodes_caused(bins, slo.target, pol, TIMEOUT, freq=freq)
        ep = ep.rename(columns={"caused": "caused_by_timeouts"})
    else:
        ep = alert_episodes(bins, slo.target, pol, freq=freq)
        ep["caused_by_timeouts"] = False
    s_ns = utc_ns(ep["start"])
    e_ns = utc_ns(ep["end"])
    alerts = ep[(s_ns < w_end.value) & (e_ns > w_start.value)].reset_index(drop=True)
    alerts.attrs.update(ep.attrs)
    alerts.attrs["grid_start"], alerts.attrs["grid_end"] = w_start, w_end
    a_states = alert_states(bins, slo.target, pol, freq=freq)
    tiers = _tier_table(ep, a_states, pol, keys, start_ts, end_ts)

    # budget and buckets
    in_incident = _between(ev["ts"], start_ts, end_ts)
    ev_inc = ev[in_incident]
    # the span the replayed events cover: cut by the table's own start and end when they come first
    span_lo = h_start.value if i0 > 0 else first_ns
    span_hi = w_end.value if i1 < len(events) else int(t[-1])
    hist_span = max(span_hi - span_lo, 1)
    budget = _budget_table(groups_h.code[in_incident], ev_inc["ok"].to_numpy(dtype=bool), groups_h, slo, pol,
                           hist_span)
    if len(ev_inc):
        buckets = bucket_counts(ev_inc, slo, bkeys)
    else:
        buckets = bucket_counts(ev[in_window], slo, bkeys).iloc[0:0]
        notes.append("there were no events during the incident.")
    over_time = bucket_burn_over_time(ev[in_window], slo, freq=_nice_freq(w_end.value - w_start.value), by=bkeys)

    if incidents is not None:
        require_columns(incidents, ["start", "end"], what="incidents")
        i_s = pd.to_datetime(incidents["start"], utc=True)
        i_e = pd.to_datetime(incidents["end"], utc=True)
        inc = incidents[((i_s < w_end) & (i_e > w_start)).to_numpy()].reset_index(drop=True)
    else:
        inc = pd.DataFrame({"start": pd.Series([], dtype="datetime64[ns, UTC]"),
                            "end": pd.Series([], dtype="datetime64[ns, UTC]")})

    parts = {"start": start_ts, "end": end_ts, "tz": tz, "slo": slo, "by": keys, "breakdown_by": bkeys,
             "scope": scope_text, "tracker": tracker, "buckets": buckets, "tiers": tiers, "policy": pol,
             "budget": budget}
    return IncidentReport(
        start=start_ts, end=end_ts, window_start=w_start, window_end=w_end, slo=slo, policy=pol,
        by=tuple(keys), breakdown_by=tuple(bkeys), scope=scope_text, tz=tz, states=states, transitions=tr,
        tracker=tracker, alerts=alerts, tiers=tiers, budget=budget, buckets=buckets, over_time=over_time,
        incidents=inc, summary=_summary(parts), notes=tuple(notes),
    )
