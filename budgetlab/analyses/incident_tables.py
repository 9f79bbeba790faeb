"""The incident report's alert and budget tables: the alert episodes overlapping the window, what
each tier of the policy did during the incident, and what the incident cost the error budget."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .._util.ratios import ratio
from .._util.validation import utc_ns_column
from ..alerts.episodes import alert_episodes, alert_states
from ..alerts.policy import AlertPolicy
from ..events.schema import TIMEOUT
from ..slo import SLO
from ..windows.bingrid import BinGrid
from ..windows.binning import bin_events
from ..windows.bins import read_bins
from .bucket_variants import Groups, episodes_caused
from .incident_window import Span

__all__ = ["alert_tables", "budget_table"]


def alert_tables(ev: pd.DataFrame, slo: SLO, policy: AlertPolicy, keys: list[str], span: Span, *,
                 freq: Any, has_timeout: bool) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The alert episodes overlapping the window (with ``caused_by_timeouts``) and the tier
    table."""
    bins = bin_events(ev, freq, by=keys, start=span.h_start, end=span.w_end)
    if has_timeout:
        ep, _ = episodes_caused(bins, slo.target, policy, TIMEOUT, freq=freq)
        ep = ep.rename(columns={"caused": "caused_by_timeouts"})
    else:
        ep = alert_episodes(bins, slo.target, policy, freq=freq)
        ep["caused_by_timeouts"] = False
    alerts = _overlapping(ep, span.w_start, span.w_end).reset_index(drop=True)
    alerts.attrs.update(ep.attrs)  # the grid's own start and end: the history read included
    states, group_rows = _incident_states(read_bins(bins, freq=freq), slo.target, policy, keys,
                                          span.start, span.end)
    return alerts, _tier_table(ep, states, group_rows, policy, keys, span.start, span.end)


#: Bytes per group and bin of :func:`~budgetlab.alerts.episodes.alert_states` (its own estimate
#: for the workbook's 4 tiers and 7 windows), for the size of the chunks of groups it is run on.
_STATES_BYTES_PER_CELL = 372


def _incident_states(grid: BinGrid, target: Any, policy: AlertPolicy, keys: list[str],
                     start: pd.Timestamp, end: pd.Timestamp,
                     ) -> tuple[pd.DataFrame, list[tuple[Any, ...]]]:
    """The tiers' states (:func:`~budgetlab.alerts.episodes.alert_states`) at the evaluations in
    ``(start, end]``, and the keys of every group of the grid in order. The states of the whole
    history are made a chunk of groups at a time (:meth:`BinGrid.chunks`) and cut to the
    incident at once: over thousands of groups at minute bins they would hold gigabytes; each
    group's states are those of the whole grid (its rolling sums are its own)."""
    parts, group_rows = [], []
    for g0, g1 in grid.chunks(_STATES_BYTES_PER_CELL // 8):
        states = alert_states(grid.select(np.arange(g0, g1)), target, policy)
        ev_t = utc_ns_column(states["bin_end"], "bin_end")
        parts.append(states[(ev_t > start.value) & (ev_t <= end.value)])
        if keys:
            group_rows += list(states[keys].drop_duplicates().itertuples(index=False, name=None))
    return pd.concat(parts, ignore_index=True), group_rows or [()]


def _overlapping(episodes: pd.DataFrame, lo: pd.Timestamp, hi: pd.Timestamp) -> pd.DataFrame:
    """The episodes that overlap ``[lo, hi)``."""
    starts, ends = (utc_ns_column(episodes[c], f"episodes['{c}']") for c in ("start", "end"))
    return episodes[(starts < hi.value) & (ends > lo.value)]


def _tier_table(episodes: pd.DataFrame, states: pd.DataFrame, group_rows: list[tuple[Any, ...]],
                policy: AlertPolicy, keys: list[str], start: pd.Timestamp,
                end: pd.Timestamp) -> pd.DataFrame:
    """Per group (``group_rows``: their keys) and tier: what the tier did during the incident
    (``states``: the tiers' states at its evaluations)."""
    peaks = states.groupby([*keys, "tier"], observed=True, sort=False)[["burn_long",
                                                                        "burn_short"]].max()
    hit = _overlapping(episodes, start, end)
    rows = []
    for g in group_rows:  # a loop over groups and tiers
        sel_g = np.ones(len(hit), dtype=bool)
        for k, v in zip(keys, g, strict=True):
            sel_g &= (hit[k] == v).to_numpy()
        for tier in policy.tiers:
            h = hit[sel_g & (hit["tier"].astype(str) == tier.name).to_numpy()]
            row: dict[str, Any] = dict(zip(keys, g, strict=True))
            row.update(tier=tier.name, severity=tier.severity, burn=tier.burn,
                       long_window=tier.long_window,
                       short_window=tier.short_window if tier.short_window is not None else pd.NaT)
            first: Any = h["start"].min() if len(h) else pd.NaT
            row.update(fired=len(h) > 0, first_alert=first,
                       detection_delay=max(first - start, pd.Timedelta(0)) if len(h) else pd.NaT,
                       alert_end=h["end"].max() if len(h) else pd.NaT,
                       caused_by_timeouts=bool(len(h) and h["caused_by_timeouts"].all()))
            pk: Any = (*g, tier.name) if keys else tier.name
            peak = peaks.loc[pk] if pk in peaks.index else {"burn_long": np.nan,
                                                            "burn_short": np.nan}
            row.update(peak_burn_long=float(peak["burn_long"]),
                       peak_burn_short=float(peak["burn_short"]))
            rows.append(row)
    out = pd.DataFrame(rows)
    for c in ("first_alert", "alert_end"):
        out[c] = pd.Series([r[c] for r in rows], dtype="datetime64[ns, UTC]")
    for c in ("detection_delay", "long_window", "short_window"):
        out[c] = pd.Series([r[c] for r in rows], dtype="timedelta64[ns]")
    return out


def budget_table(incident_group: np.ndarray, incident_ok: np.ndarray, groups_hist: Groups, slo: SLO,
                 policy: AlertPolicy, span_ns: int) -> pd.DataFrame:
    """Per group: failures during the incident and their share of the policy-period budget at
    the traffic of the replayed span (``span_ns`` long: its events and hours are columns).

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
    out["success_rate"] = ratio(n - bad, n, 1.0)
    out["burn_rate"] = ratio(bad, n * eb, 0.0)
    # to 1e-9 of a failure: 1 - 0.99 is 0.010000000000000009 in floats, so 200 events' allowance
    # is 2.0000000000000018 and 2 failures would be -1.8e-15 over it
    out["excess_failures"] = np.round(bad - eb * n, 9)
    per_period = hist_counts * (policy.period.value / max(span_ns, 1))
    out["period_budget_pct"] = ratio(100.0 * bad, eb * per_period, 0.0)
    out["period_budget"] = eb * per_period
    out["period_events"] = per_period
    # what the period's figures are read over: a span under a day is too thin for them
    # (budgetlab._util.thin.too_thin), which the summary says instead of the figures
    out["replayed_events"] = hist_counts
    out["replayed_hours"] = max(span_ns, 1) / 3.6e12
    return out
