"""OpenSLO v1 out: each :class:`~.model.SLODocument` as a ``kind: SLO`` object followed by its
``AlertPolicy`` objects (one inline ``AlertCondition`` each) and the objects it refers to, as YAML
text or an atomic file. What is written passes the OpenSLO v1 rules: RFC 1123 names (the
original name in ``budgetlab/name``), ``service`` and an indicator always present (without a
metric, budgetlab's events SLI), at least one notification target (without one, the inline
target ``alertmanager``), ``op`` only on burn-rate conditions."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pandas as pd
import yaml

from ..._util.files import write_bytes
from ...alerts.tier import AlertTier
from ...errors import ConfigError
from ...slo import SLO
from ._fields import duration_shorthand
from ._policies import context
from ._yaml import plain
from .alert_info import AlertPolicyInfo
from .checks_slo import check_object
from .indicators import events_indicator
from .model import ANNOTATION_PREFIX, API_VERSION, CALENDAR_SHORTHAND, SLODocument, as_documents

__all__ = ["to_openslo_yaml", "write_openslo", "openslo_names", "slug"]

_RFC1123 = re.compile(r"^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$")


def slug(text: str) -> str:
    """``text`` as an RFC 1123 name (lower-case letters, digits and ``-``, at most 63 characters).

    >>> slug("recaptcha_v2 / FRA")
    'recaptcha-v2-fra'
    """
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return (s or "x")[:63].strip("-") or "x"


def openslo_names(docs: SLODocument | Iterable[SLODocument]) -> dict[str, str]:
    """``{name: written name}`` of the SLOs whose name is not an RFC 1123 label (OpenSLO v1
    requires one); the original name travels in the annotation ``budgetlab/name``.

    >>> from budgetlab import SLO
    >>> openslo_names([SLODocument("solve_rate", SLO(0.95)), SLODocument("ok-name", SLO(0.9))])
    {'solve_rate': 'solve-rate'}
    """
    items = as_documents(docs)
    out = {d.name: slug(d.name) for d in items if not _RFC1123.match(d.name)}
    written: dict[str, str] = {}
    for d in items:
        w = out.get(d.name, d.name)
        if w in written:
            raise ConfigError(f"SLOs {written[w]!r} and {d.name!r} would both be written as {w!r}; "
                              "rename one.")
        written[w] = d.name
    return out


def _tier_condition(tier: AlertTier, info: AlertPolicyInfo) -> dict[str, Any]:
    ann: dict[str, str] = {}
    name = tier.name if _RFC1123.match(tier.name) else slug(tier.name)
    if name != tier.name:
        ann[ANNOTATION_PREFIX + "tier"] = tier.name
    if tier.short_window is not None:
        ann[ANNOTATION_PREFIX + "short-window"] = duration_shorthand(tier.short_window)
    if tier.cooldown > pd.Timedelta(0):
        ann[ANNOTATION_PREFIX + "keep-firing-for"] = duration_shorthand(tier.cooldown)
    meta = _given(name=name, displayName=info.condition_display_name, annotations=ann)
    spec = {**_given(description=info.condition_description), "severity": tier.severity,
            "condition": {"kind": "burnrate", "op": "gt", "threshold": _num(tier.burn),
                          "lookbackWindow": duration_shorthand(tier.long_window),
                          "alertAfter": duration_shorthand(tier.for_)}}
    return {"kind": "AlertCondition", "metadata": meta, "spec": spec}


def _given(**fields: Any) -> dict[str, Any]:
    """``fields`` without the empty ones (OpenSLO leaves an empty optional field out)."""
    return {k: v for k, v in fields.items() if v}


def _num(x: float) -> float | int:
    return int(x) if float(x).is_integer() else float(x)


def _policy_objects(doc: SLODocument, name: str) -> list[dict[str, Any]]:
    out = []
    for p in doc.alert_policies:
        single = len(p.tiers) == 1 and bool(_RFC1123.match(p.name))
        for t in p.tiers:
            info = doc.policy_info.get(t.name) or AlertPolicyInfo.default(t)
            ann = dict(info.annotations)
            if not single:
                ann[ANNOTATION_PREFIX + "policy"] = p.name
            if p.period != doc.slo.period:
                ann[ANNOTATION_PREFIX + "period"] = duration_shorthand(p.period)
            meta = _given(name=p.name if single else slug(f"{name}-{p.name}-{t.name}"),
                          displayName=info.display_name, labels=dict(info.labels),
                          annotations=ann)
            spec = {**_given(description=info.description), "alertWhenNoData": False,
                    "alertWhenBreaching": True, "alertWhenResolved": info.alert_when_resolved,
                    "conditions": [_tier_condition(t, info)],
                    "notificationTargets": list(info.notification_targets)}
            out.append({"apiVersion": API_VERSION, "kind": "AlertPolicy", "metadata": meta,
                        "spec": spec})
    return out


def _slo_metadata(doc: SLODocument, name: str) -> dict[str, Any]:
    ann = dict(doc.annotations)
    if name != doc.name:
        ann[ANNOTATION_PREFIX + "name"] = doc.name
    if doc.slo.window != doc.slo.period:
        ann[ANNOTATION_PREFIX + "window"] = duration_shorthand(doc.slo.window)
    default = SLO()
    if doc.slo.warning != default.warning:
        ann[ANNOTATION_PREFIX + "warning"] = repr(doc.slo.warning)
    if doc.slo.critical != default.critical:
        ann[ANNOTATION_PREFIX + "critical"] = repr(doc.slo.critical)
    if doc.slo.min_events != default.min_events:
        ann[ANNOTATION_PREFIX + "min-events"] = str(doc.slo.min_events)
    return _given(name=name, displayName=doc.display_name, labels=dict(doc.labels),
                  annotations=ann)


def _sli_object(doc: SLODocument) -> dict[str, Any] | None:
    """The ``kind: SLI`` object an ``indicator_ref`` names, when its content is known."""
    if doc.indicator_ref is None or doc.indicator is None:
        return None
    meta = {**doc.indicator.get("metadata", {}), "name": doc.indicator_ref}
    return {"apiVersion": API_VERSION, "kind": "SLI", "metadata": meta,
            "spec": plain(doc.indicator["spec"])}


def _slo_object(doc: SLODocument, name: str, policy_names: list[str]) -> dict[str, Any]:
    spec: dict[str, Any] = {**_given(description=doc.description), "service": doc.service}
    if doc.indicator_ref is not None:
        spec["indicatorRef"] = doc.indicator_ref
    else:
        spec["indicator"] = (
            plain(doc.indicator)
            if doc.indicator is not None
            else events_indicator(f"{name}-events")
        )
    if doc.calendar is None:
        spec["timeWindow"] = [{"duration": duration_shorthand(doc.slo.period), "isRolling": True}]
    else:
        spec["timeWindow"] = [{"duration": CALENDAR_SHORTHAND[doc.calendar], "isRolling": False,
                               "calendar": {"startTime": doc.calendar_start,
                                            "timeZone": doc.time_zone}}]
    spec["budgetingMethod"] = doc.budgeting_method
    # op only with an indicatorRef whose SLI is elsewhere (see SLODocument)
    objective = _given(displayName=doc.objective_name, op=doc.objective_op)
    objective["target"] = float(doc.slo.target)
    if doc.budgeting_method == "Timeslices":
        objective["timeSliceTarget"] = _num(float(doc.time_slice_target))  # type: ignore[arg-type]
    if doc.budgeting_method != "Occurrences":
        objective["timeSliceWindow"] = duration_shorthand(doc.time_slice_window)
    spec["objectives"] = [objective]
    if policy_names:
        spec["alertPolicies"] = [{"alertPolicyRef": n} for n in policy_names]
    return {"apiVersion": API_VERSION, "kind": "SLO", "metadata": _slo_metadata(doc, name),
            "spec": spec}


def _companion(obj: dict[str, Any]) -> dict[str, Any]:
    return {"apiVersion": API_VERSION, **{k: v for k, v in obj.items() if k != "apiVersion"}}


def to_openslo_yaml(docs: SLODocument | Iterable[SLODocument]) -> str:
    """OpenSLO v1 YAML for ``docs``: each SLO followed by its SLI (for an ``indicator_ref``), its
    AlertPolicy objects (one condition each) and its companions, separated by ``---``. An object
    shared by several SLOs (same kind, name and content) is written once. Every object passes the
    OpenSLO v1 rules (:func:`.checks.check_object`) or ConfigError names the field.

    Examples
    --------
    >>> from budgetlab.interop.openslo import read_openslo
    >>> ind = {"metadata": {"name": "checkout-ratio"}, "spec": {"ratioMetric": {"counter": True,
    ...        "bad": {"metricSource": {"type": "Prometheus", "spec": {"query": "errors_total"}}},
    ...        "total": {"metricSource": {"type": "Prometheus",
    ...                                   "spec": {"query": "requests_total"}}}}}}
    >>> doc = SLODocument("checkout", SLO(target=0.999, window="1D", period="28D"), service="shop",
    ...                   indicator=ind)
    >>> print(to_openslo_yaml([doc]), end="")
    apiVersion: openslo/v1
    kind: SLO
    metadata:
      name: checkout
      annotations:
        budgetlab/window: 1d
    spec:
      service: shop
      indicator:
        metadata:
          name: checkout-ratio
        spec:
          ratioMetric:
            counter: true
            bad:
              metricSource:
                type: Prometheus
                spec:
                  query: errors_total
            total:
              metricSource:
                type: Prometheus
                spec:
                  query: requests_total
      timeWindow:
      - duration: 28d
        isRolling: true
      budgetingMethod: Occurrences
      objectives:
      - target: 0.999
    >>> read_openslo(to_openslo_yaml([doc])) == [doc]
    True
    """
    items = as_documents(docs)
    names = openslo_names(items)
    written: dict[tuple[str, str], dict[str, Any]] = {}
    parts: list[dict[str, Any]] = []

    def add(obj: dict[str, Any]) -> None:
        key = (obj["kind"], obj["metadata"]["name"])
        if key in written:
            if written[key] != obj:
                raise ConfigError(f"two different {key[0]} objects would both be written as "
                                  f"{key[1]!r}; rename one.")
            return
        with context(f"{key[0]} {key[1]!r}"):
            check_object(obj)
        written[key] = obj
        parts.append(obj)

    for doc in items:
        name = names.get(doc.name, doc.name)
        pols = _policy_objects(doc, name)
        add(_slo_object(doc, name, [o["metadata"]["name"] for o in pols]))
        sli = _sli_object(doc)
        if sli is not None:
            add(sli)
        for obj in pols:
            add(obj)
        for c in doc.companions:
            add(_companion(c))
    return "---\n".join(yaml.safe_dump(p, sort_keys=False, allow_unicode=True,
                                       default_flow_style=False, width=100)
                        for p in parts)


def write_openslo(docs: SLODocument | Iterable[SLODocument], path: str | os.PathLike[str], *,
                  force: bool = False) -> Path:
    """Write ``docs`` as an OpenSLO v1 YAML file, atomically (existing files need ``force``)."""
    return write_bytes(to_openslo_yaml(docs).encode("utf-8"), path, force=force, option="path")

