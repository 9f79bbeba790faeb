"""OpenSLO v1 out: each :class:`~.model.SLODocument` as a ``kind: SLO`` object followed by its
``AlertPolicy`` objects (one inline ``AlertCondition`` each), as YAML text or an atomic file."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pandas as pd
import yaml

from ..._util.files import atomic_path
from ...alerts.policy import AlertTier
from ...errors import ConfigError
from ...slo import SLO
from ._yaml import plain
from .durations import duration_shorthand
from .model import ANNOTATION_PREFIX, API_VERSION, CALENDAR_SHORTHAND, SLODocument, as_documents

__all__ = ["to_openslo_yaml", "write_openslo", "slug"]

_RFC1123 = re.compile(r"^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$")


def slug(text: str) -> str:
    """``text`` as an RFC 1123 name (lower-case letters, digits and ``-``, at most 63 characters).

    >>> slug("recaptcha_v2 / FRA")
    'recaptcha-v2-fra'
    """
    s = re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
    return (s or "x")[:63].strip("-") or "x"


def _tier_condition(tier: AlertTier) -> dict[str, Any]:
    ann: dict[str, str] = {}
    name = tier.name if _RFC1123.match(tier.name) else slug(tier.name)
    if name != tier.name:
        ann[ANNOTATION_PREFIX + "tier"] = tier.name
    if tier.short_window is not None:
        ann[ANNOTATION_PREFIX + "short-window"] = duration_shorthand(tier.short_window)
    if tier.cooldown > pd.Timedelta(0):
        ann[ANNOTATION_PREFIX + "keep-firing-for"] = duration_shorthand(tier.cooldown)
    meta: dict[str, Any] = {"name": name}
    if ann:
        meta["annotations"] = ann
    windows = " and ".join(duration_shorthand(w) for w in tier.windows)
    return {
        "kind": "AlertCondition",
        "metadata": meta,
        "spec": {
            "description": f"burn rate above {tier.burn:g} over {windows}",
            "severity": tier.severity,
            "condition": {
                "kind": "burnrate",
                "op": "gt",
                "threshold": _num(tier.burn),
                "lookbackWindow": duration_shorthand(tier.long_window),
                "alertAfter": duration_shorthand(tier.for_),
            },
        },
    }


def _num(x: float) -> float | int:
    return int(x) if float(x).is_integer() else float(x)


def _policy_objects(doc: SLODocument) -> list[dict[str, Any]]:
    out = []
    for p in doc.alert_policies:
        single = len(p.tiers) == 1 and bool(_RFC1123.match(p.name))
        for t in p.tiers:
            meta: dict[str, Any]
            ann: dict[str, str] = {}
            if single:
                meta = {"name": p.name}
            else:
                meta = {"name": slug(f"{doc.name}-{p.name}-{t.name}")}
                ann[ANNOTATION_PREFIX + "policy"] = p.name
            if p.period != doc.slo.window:
                ann[ANNOTATION_PREFIX + "period"] = duration_shorthand(p.period)
            if ann:
                meta["annotations"] = ann
            out.append({
                "apiVersion": API_VERSION,
                "kind": "AlertPolicy",
                "metadata": meta,
                "spec": {
                    "description": f"{t.severity} when the burn-rate condition {t.name} holds",
                    "alertWhenNoData": False,
                    "alertWhenBreaching": True,
                    "alertWhenResolved": False,
                    "conditions": [_tier_condition(t)],
                    "notificationTargets": [],
                },
            })
    return out


def _slo_object(doc: SLODocument, policy_names: list[str]) -> dict[str, Any]:
    meta: dict[str, Any] = {"name": doc.name}
    if doc.display_name:
        meta["displayName"] = doc.display_name
    if doc.labels:
        meta["labels"] = dict(doc.labels)
    ann = dict(doc.annotations)
    default = SLO()
    if doc.slo.warning != default.warning:
        ann[ANNOTATION_PREFIX + "warning"] = repr(doc.slo.warning)
    if doc.slo.critical != default.critical:
        ann[ANNOTATION_PREFIX + "critical"] = repr(doc.slo.critical)
    if doc.slo.min_events != default.min_events:
        ann[ANNOTATION_PREFIX + "min-events"] = str(doc.slo.min_events)
    if ann:
        meta["annotations"] = ann
    spec: dict[str, Any] = {}
    if doc.description:
        spec["description"] = doc.description
    if doc.service:
        spec["service"] = doc.service
    if doc.indicator is not None:
        spec["indicator"] = plain(doc.indicator)
    if doc.indicator_ref is not None:
        spec["indicatorRef"] = doc.indicator_ref
    if doc.calendar is None:
        spec["timeWindow"] = [{"duration": duration_shorthand(doc.slo.window), "isRolling": True}]
    else:
        spec["timeWindow"] = [{"duration": CALENDAR_SHORTHAND[doc.calendar], "isRolling": False,
                               "calendar": {"startTime": doc.calendar_start, "timeZone": doc.time_zone}}]
    spec["budgetingMethod"] = doc.budgeting_method
    objective: dict[str, Any] = {}
    if doc.objective_name:
        objective["displayName"] = doc.objective_name
    if doc.objective_op is not None:
        objective["op"] = doc.objective_op
    objective["target"] = float(doc.slo.target)
    if doc.budgeting_method == "Timeslices":
        objective["timeSliceTarget"] = _num(float(doc.time_slice_target))  # type: ignore[arg-type]
        objective["timeSliceWindow"] = duration_shorthand(doc.time_slice_window)
    spec["objectives"] = [objective]
    if policy_names:
        spec["alertPolicies"] = [{"alertPolicyRef": n} for n in policy_names]
    return {"apiVersion": API_VERSION, "kind": "SLO", "metadata": meta, "spec": spec}


def to_openslo_yaml(docs: SLODocument | Iterable[SLODocument]) -> str:
    """OpenSLO v1 YAML for ``docs``: each SLO followed by its AlertPolicy objects (one condition
    each), separated by ``---``. An alert policy shared by several SLOs (same name, same
    content) is written once. See :class:`SLODocument` for an example."""
    items = as_documents(docs)
    written: dict[str, dict[str, Any]] = {}
    parts: list[dict[str, Any]] = []
    for doc in items:
        pols = _policy_objects(doc)
        parts.append(_slo_object(doc, [o["metadata"]["name"] for o in pols]))
        for obj in pols:
            n = obj["metadata"]["name"]
            if n in written:
                if written[n] != obj:
                    raise ConfigError(f"two different alert policies would both be written as {n!r}; rename one.")
                continue
            written[n] = obj
            parts.append(obj)
    return "---\n".join(yaml.safe_dump(p, sort_keys=False, allow_unicode=True, default_flow_style=False, width=100)
                        for p in parts)


def write_openslo(docs: SLODocument | Iterable[SLODocument], path: str | os.PathLike[str], *,
                  force: bool = False) -> Path:
    """Write ``docs`` as an OpenSLO v1 YAML file, atomically (existing files need ``force``)."""
    text = to_openslo_yaml(docs)
    with atomic_path(path, force=force) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return Path(path)

