"""The SLIs budgetlab writes: an inline OpenSLO ``ratioMetric`` on Prometheus queries (two
counters, :func:`ratio_indicator`; a histogram, :func:`latency_indicator`; the queries of Sloth's
and Pyrra's specs, :func:`prometheus_ratio`), and budgetlab's own events SLI
(:func:`events_indicator`) written when an SLO has no other."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..._util.validation import to_timedelta
from ..._util.words import prose_duration
from ._yaml import plain

__all__ = ["metric_source", "prometheus_ratio", "ratio_indicator", "latency_indicator",
           "events_indicator", "is_events_indicator"]


def metric_source(query: str) -> dict[str, Any]:
    """One side of a ratio SLI: a Prometheus query as an OpenSLO ``metricSource``."""
    return {"metricSource": {"type": "Prometheus", "spec": {"query": query}}}


def prometheus_ratio(name: str, *, total: str, bad: str | None = None,
                     good: str | None = None) -> dict[str, Any]:
    """An inline ``ratioMetric`` SLI named ``name``: ``bad`` (or ``good``) over ``total``, each a
    Prometheus counter query.

    >>> prometheus_ratio("api", total="r_total", good="ok_total")["spec"]["ratioMetric"]["good"]
    {'metricSource': {'type': 'Prometheus', 'spec': {'query': 'ok_total'}}}
    """
    part = {"bad": metric_source(bad)} if bad is not None else {"good": metric_source(good or "")}
    return {"metadata": {"name": name},
            "spec": {"ratioMetric": {"counter": True, **part, "total": metric_source(total)}}}


def ratio_indicator(total_metric: str, errors_metric: str, *, selector: str = "",
                    errors_selector: str = "", name: str = "error-ratio") -> dict[str, Any]:
    """An inline OpenSLO ``ratioMetric`` SLI (bad over total) on two Prometheus counters.

    >>> ratio_indicator("solves_total", "solve_errors_total")["spec"]["ratioMetric"]["bad"]
    {'metricSource': {'type': 'Prometheus', 'spec': {'query': 'solve_errors_total'}}}
    """
    def query(metric: str, extra: str) -> str:
        sel = ",".join(s for s in (selector.strip(), extra.strip()) if s)
        return f"{metric}{{{sel}}}" if sel else metric

    return prometheus_ratio(name, total=query(total_metric, ""),
                            bad=query(errors_metric, errors_selector))


def latency_indicator(histogram: str, slow_above: Any, *, name: str = "latency") -> dict[str, Any]:
    """An inline OpenSLO ``ratioMetric`` latency SLI: good (the histogram's bucket at the
    threshold, ``le`` in seconds) over total (its ``_count``), both Prometheus counters.

    >>> ind = latency_indicator('http_request_duration_seconds{job="api"}', "500ms")
    >>> ind["spec"]["ratioMetric"]["good"]["metricSource"]["spec"]["query"]
    'http_request_duration_seconds_bucket{job="api", le="0.5"}'
    """
    from ..prometheus_histogram import latency_selectors

    good, total = latency_selectors(histogram, slow_above)
    out = prometheus_ratio(name, total=total, good=good)
    shown = prose_duration(to_timedelta(slow_above, name="slow_above"))
    out["metadata"]["displayName"] = f"share of events within {shown}"
    return out


def events_indicator(name: str) -> dict[str, Any]:
    """The SLI budgetlab writes when none is given: the success ratio of its event table
    (good = events with ``ok`` true, total = all events), ``metricSource.type: budgetlab``.
    Read back, it is recognised and gives ``indicator=None`` again.

    >>> events_indicator("solve")["spec"]["ratioMetric"]["good"]
    {'metricSource': {'type': 'budgetlab', 'spec': {'events': 'ok'}}}
    """
    def source(which: str) -> dict[str, Any]:
        return {"metricSource": {"type": "budgetlab", "spec": {"events": which}}}

    return {"metadata": {"name": name},
            "spec": {"description": "success ratio of budgetlab's event table: good = events with "
                                    "ok true, "
                                    "total = all events",
                     "ratioMetric": {"counter": False, "good": source("ok"),
                                     "total": source("all")}}}


def is_events_indicator(indicator: Mapping[str, Any]) -> bool:
    """Whether ``indicator`` is :func:`events_indicator` (under any name)."""
    meta = indicator.get("metadata")
    name = meta.get("name") if isinstance(meta, Mapping) else None
    return isinstance(name, str) and plain(indicator) == events_indicator(name)
