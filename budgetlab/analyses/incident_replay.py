"""The tables of :func:`budgetlab.analyses.incident.incident_report`: the tracker and the alert
policy replayed over the events (history included), then cut to the report's window or the
incident (:mod:`~budgetlab.analyses.incident_tables` makes each table)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pandas as pd

from .._util.attrs import time_text
from ..alerts.policy import AlertPolicy
from ..budget.spans import status_spans
from ..budget.status_changes import transitions
from ..budget.tracker_replay import replay_table
from ..events.schema import TIMEOUT
from ..slo import SLO
from .bucket_burn import bucket_burn_over_time
from .bucket_variants import Groups, TrackerVariants
from .failure_buckets import bucket_counts
from .incident_budget import budget_table, log_traffic
from .incident_coverage import tracker_read_from, withhold_tracker
from .incident_follow import LogRest
from .incident_tables import alert_tables, report_attrs, tracker_table
from .incident_window import Span, between, nice_freq

__all__ = ["replay_tables"]


def replay_tables(ev: pd.DataFrame, slo: SLO, pol: AlertPolicy, keys: list[str], bkeys: list[str],
                  span: Span, *, freq: Any, log: pd.DataFrame,
                  tracked: pd.DataFrame | None = None,
                  alerted: tuple[pd.DataFrame, pd.Timestamp, pd.Timestamp] | None = None,
                  rest: LogRest | None = None,
                  ) -> dict[str, Any]:
    """The report's tables from the events replayed (history included), cut to the window or the
    incident. The tracker replays
    ``tracked`` (default ``ev``): ``ev`` and each group's history before its last event before
    the window (:func:`~budgetlab.analyses.incident_window.tracked_events`); the alert tiers
    replay ``alerted`` (default ``ev``): the events from the log's start, its first event and
    the end of their bins (:func:`~budgetlab.analyses.incident_window.alerted_events`). The
    budget is carried from the traffic of ``log``: the whole log in the report's scope
    (:func:`~budgetlab.analyses.incident_budget.log_traffic`), whatever the report's context.
    The tier table's alerts still firing at the replay's end are followed in ``rest``, the log
    (:func:`~budgetlab.analyses.incident_tables.alert_tables`)."""
    tracked = ev if tracked is None else tracked
    # a window longer than the history is in notes, not a warning
    states_h = replay_table(tracked, slo, by=keys, warn_partial=False)
    variants = TrackerVariants(tracked, slo, Groups(tracked, keys))
    tr_h = transitions(states_h)
    has_timeout = TIMEOUT in variants.names
    tr_h["caused_by_timeouts"] = (variants.caused(variants.names.index(TIMEOUT))[2] if has_timeout
                                  else False)
    states = states_h[between(tracked["ts"], span.w_start, span.w_end)].reset_index(drop=True)
    states.attrs.update(states_h.attrs)
    alerts, tiers, alert_bins = alert_tables(ev, slo, pol, keys, span, freq=freq,
                                             has_timeout=has_timeout, alerted=alerted,
                                             rest=rest)
    groups_h = Groups(ev, keys)
    in_window = between(ev["ts"], span.w_start, span.w_end)
    in_incident = between(ev["ts"], span.start, span.end)
    ok = ev["ok"].to_numpy(dtype=bool)[in_incident]
    window_buckets = bucket_counts(ev[in_window], slo, bkeys)  # what the figure draws
    buckets = (bucket_counts(ev[in_incident], slo, bkeys) if in_incident.any()
               else window_buckets.iloc[0:0])
    tr = tr_h[between(tr_h["ts"], span.w_start, span.w_end)].reset_index(drop=True)
    # the window's clock over the window (or from the log's first event, when that is later)
    observed = dict(by=keys or None, start=max(span.w_start, ev["ts"].iloc[0]), end=span.w_end)
    spans = status_spans(tracked, slo, **observed)
    # the tracker read from when its window lies after the data's start (None: never)
    read_from = tracker_read_from(span, slo.window)
    steps = status_spans(tracked, slo, **observed, steps=True)
    tables = dict(
        states=states, spans=_until_data(spans, span), transitions=tr,
        steps=_until_data(steps, span),
        tracker=withhold_tracker(tracker_table(states_h, tr_h, spans, keys, replace(
            span, start=span.end if read_from is None else read_from), slo.target), read_from),
        alerts=alerts, tiers=tiers, alert_bins=alert_bins, buckets=buckets,
        window_buckets=window_buckets,
        budget=budget_table(groups_h.code[in_incident], ok, groups_h, slo, pol,
                            log_traffic(log, groups_h)),
        over_time=bucket_burn_over_time(ev[in_window], slo, by=bkeys,
                                        freq=nice_freq(span.w_end.value - span.w_start.value)))
    report_attrs(tables, slo, keys, ev["ts"][in_incident])
    return tables


def _until_data(spans: pd.DataFrame, span: Span) -> pd.DataFrame:
    """The window's clock (``spans`` of :func:`budgetlab.status_spans`) up to the log's last
    event, included (``span.data_end``, when the log ends inside the window; ``attrs["end"]``
    then 1 ns after it): after it the window empties with the data, not the traffic, so no
    status is evaluated there (the figure hatches that time as the log's end)."""
    if span.data_end is None or span.data_end >= span.w_end:
        return spans
    hi = span.data_end + pd.Timedelta(1)
    out = spans[spans["start"] < hi].copy()
    out["end"] = out["end"].where(out["end"] <= hi, hi)
    out.attrs = {**spans.attrs, "end": time_text(hi)}
    return out.reset_index(drop=True)
