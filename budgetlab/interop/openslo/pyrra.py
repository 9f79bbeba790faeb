"""Pyrra's ``ServiceLevelObjective`` resources in (github.com/pyrra-dev/pyrra,
``kubernetes/api/v1alpha1/servicelevelobjective_types.go``): one :class:`~.model.SLODocument` each.

* name ``metadata.name``; service ``metadata.namespace`` (Pyrra has no service; without a
  namespace, budgetlab's default service); labels ``metadata.labels``;
* target ``spec.target`` (a percentage as text, ``"99.5"``, read decimal-exact); period
  ``spec.window`` (``2w``, ``28d``), also the tracker window;
* the SLI: ``indicator.ratio`` (``errors`` over ``total``) or ``indicator.latency``
  (``success``, the histogram bucket at the latency, over ``total``), each ``metric`` a counter
  selector; with ``grouping``, each query becomes ``sum by (grouping)
  (increase(metric[{{.window}}]))``,
  as Pyrra groups its rules (``backtest`` groups by them unless ``--by`` says otherwise).
  ``latencyNative`` and ``bool_gauge`` are refused;
* the alerts: Pyrra's multiwindow tiers at the window (:meth:`AlertPolicy.pyrra`), unless
  ``alerting.disabled`` or ``alerting.burnrates: false``; ``alerting.name`` is the alert name.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..._util.validation import percent_to_fraction
from ...alerts.policy import AlertPolicy
from ...errors import ConfigError
from ...slo import SLO
from ._fields import parse_duration_shorthand, quoted
from .alert_info import DEFAULT_TARGET, AlertPolicyInfo
from .indicators import prometheus_ratio
from .model import SLODocument
from .sloth import ALSO_TRACKER, check_keys, text_field, text_map

__all__ = ["PYRRA_VERSION", "is_pyrra", "from_pyrra"]

PYRRA_VERSION = "pyrra.dev/v1alpha1"
_LABEL_CHARS = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


def is_pyrra(obj: Any) -> bool:
    """Whether ``obj`` (one YAML document) is a Pyrra resource."""
    return isinstance(obj, Mapping) and obj.get("apiVersion") == PYRRA_VERSION


def _metric(ind: Mapping[str, Any], part: str, where: str) -> str:
    item = ind.get(part)
    if not isinstance(item, Mapping) or not isinstance(item.get("metric"),
                                                       str) or not item["metric"].strip():
        raise ConfigError(f"{where}.{part}.metric is required (a counter selector).")
    check_keys(item, ("metric",), f"{where}.{part}")
    return str(item["metric"]).strip()


def _grouped(metric: str, grouping: list[str]) -> str:
    return (f"sum by ({', '.join(grouping)}) "
            f"(increase({metric}[{{{{.window}}}}]))") if grouping else metric


def _indicator(spec: Mapping[str, Any], name: str, where: str) -> tuple[dict[str, Any], list[str]]:
    ind = spec.get("indicator")
    if not isinstance(ind, Mapping) or len(ind) != 1:
        raise ConfigError(f"{where}.indicator needs exactly one of ratio and latency.")
    kind = next(iter(ind))
    iw = f"{where}.indicator.{kind}"
    if kind not in ("ratio", "latency"):
        raise ConfigError(f"{iw} is not supported: budgetlab reads counters of events (ratio: "
                          "errors over total; "
                          "latency: the success bucket over total).")
    body = ind[kind]
    if not isinstance(body, Mapping):
        raise ConfigError(f"{iw} must be a mapping.")
    first = "errors" if kind == "ratio" else "success"
    check_keys(body, (first, "total", "grouping"), iw)
    grouping = body.get("grouping") or []
    if not isinstance(grouping, list) or not all(isinstance(g, str) and g and set(g) <= _LABEL_CHARS
                                                 and not g[0].isdigit() for g in grouping):
        raise ConfigError(f"{iw}.grouping must list Prometheus label names.")
    queries = {"bad" if kind == "ratio" else "good": _grouped(_metric(body, first, iw), grouping)}
    indicator = prometheus_ratio(name, total=_grouped(_metric(body, "total", iw), grouping),
                                 **queries)
    notes = [f"Pyrra {kind} indicator: "
             f"{'errors' if kind == 'ratio' else 'success (the latency bucket)'} over total"]
    if grouping:
        notes.append(f"grouping {', '.join(grouping)}: the queries sum by ({', '.join(grouping)}), "
                     "and backtest groups "
                     "by it unless --by says otherwise")
    return indicator, notes


def _alerts(spec: Mapping[str, Any], window: Any, where: str) -> tuple[tuple[AlertPolicy, ...],
                                                                       dict[str, AlertPolicyInfo]]:
    alerting = spec.get("alerting") or {}
    if not isinstance(alerting, Mapping):
        raise ConfigError(f"{where}.alerting must be a mapping.")
    check_keys(alerting, ("disabled", "burnrates", "absent", "name", "absentName", "severities"),
               f"{where}.alerting")
    if alerting.get("disabled") is True or alerting.get("burnrates") is False:
        return (), {}
    policy = AlertPolicy.pyrra(window)
    name = text_field(alerting, "name", f"{where}.alerting")
    info = (
        {
            t.name: AlertPolicyInfo(display_name=name, notification_targets=(DEFAULT_TARGET,))
            for t in policy.tiers
        }
        if name
        else {}
    )
    return (policy,), info


def _document(obj: Mapping[str, Any], label: str) -> SLODocument:
    check_keys(obj, ("apiVersion", "kind", "metadata", "spec", "status"), label)
    if obj.get("kind") != "ServiceLevelObjective":
        raise ConfigError(f"{label}: kind={quoted(obj.get('kind'))} is not supported; budgetlab "
                          "reads Pyrra's "
                          "ServiceLevelObjective.")
    meta, spec = obj.get("metadata"), obj.get("spec")
    if not isinstance(meta, Mapping) or not isinstance(meta.get("name"),
                                                       str) or not isinstance(spec, Mapping):
        raise ConfigError(f"{label}: a ServiceLevelObjective needs metadata.name and spec.")
    name = meta["name"]
    where = f"{label}, ServiceLevelObjective {quoted(name)}: spec"
    check_keys(spec, ("description", "target", "window", "indicator", "alerting",
                      "partial_response_strategy",
                      "performanceOverAccuracy", "ruleOutput"), where)
    target_text = spec.get("target")
    try:
        pct = float(target_text) if isinstance(target_text, str) else None
    except ValueError:
        pct = None
    if pct is None:
        raise ConfigError(f"{where}.target={quoted(target_text)} must be a percentage as text "
                          "(e.g. \"99.5\").")
    target = percent_to_fraction(f"{where}.target", pct)
    window = parse_duration_shorthand(spec.get("window"), where=f"{where}.window")
    indicator, notes = _indicator(spec, name, where)
    policies, info = _alerts(spec, window, where)
    labels = text_map(meta.get("labels") or {}, f"{label}, ServiceLevelObjective {quoted(name)}: "
                      "metadata.labels")
    namespace = meta.get("namespace", "")
    notes.append(f"Pyrra: period = window {spec.get('window')}{ALSO_TRACKER}"
                 + ("" if namespace else "; no metadata.namespace: budgetlab's default service"))
    return SLODocument(name=name, slo=SLO(target=target, window=window, period=window),
                       service=str(namespace),
                       description=str(spec.get("description") or ""), alert_policies=policies,
                       indicator=indicator, labels=labels, policy_info=info, notes=tuple(notes),
                       source_spec=PYRRA_VERSION)


def from_pyrra(objects: list[Any], label: str) -> list[SLODocument]:
    """The SLOs of Pyrra ``ServiceLevelObjective`` resources.

    >>> slo = {"apiVersion": "pyrra.dev/v1alpha1", "kind": "ServiceLevelObjective",
    ...        "metadata": {"name": "api", "namespace": "web"},
    ...        "spec": {"target": "99.5", "window": "2w", "indicator": {"ratio": {
    ...            "errors": {"metric": 'http_requests_total{code=~"5.."}'},
    ...            "total": {"metric": "http_requests_total"}}}}}
    >>> (doc,) = from_pyrra([slo], "slo.yaml")
    >>> doc.slo.target, doc.slo.period.days, doc.service, [t.name for t in doc.policy.tiers][:2]
    (0.995, 14, 'web', ['critical_30m', 'critical_3h'])
    """
    return [_document(obj, label) for obj in objects]
