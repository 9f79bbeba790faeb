"""OpenSLO AlertPolicy and AlertCondition objects -> budgetlab tiers and
:class:`~.model.AlertPolicyInfo`.

The objects have passed the v1 rules (:mod:`.checks`); what is refused here is what budgetlab
cannot honour (a burn-rate ``op`` other than ``gt``, ``alertWhenNoData: true`` ...)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ..._util.validation import check_number
from ...alerts.policy import AlertPolicy
from ...alerts.tier import AlertTier
from ...errors import ConfigError
from ._fields import check_strings, parse_duration_shorthand, prefix, quoted
from .alert_info import AlertPolicyInfo
from .model import ANNOTATION_PREFIX

__all__ = ["ObjectTable", "context", "own_annotations", "parse_alert_policies"]

_POLICY_ANNOTATIONS = ("policy", "period")
_CONDITION_ANNOTATIONS = ("tier", "short-window", "keep-firing-for")


@contextlib.contextmanager
def context(label: str) -> Iterator[None]:
    """Prefix the message of a ConfigError raised inside with ``label: ``."""
    try:
        yield
    except ConfigError as exc:
        if not label:
            raise
        raise ConfigError(f"{label}: {exc}") from None


@dataclass
class ObjectTable:
    """The objects of the files read, by kind and name, and which of them an SLO used."""

    label: str
    objects: dict[tuple[str, str], tuple[str, dict[str, Any]]] = field(default_factory=dict)
    used: set[tuple[str, str]] = field(default_factory=set)
    ambiguous: set[tuple[str, str]] = field(default_factory=set)

    def get(self, kind: str, name: str) -> tuple[str, dict[str, Any]] | None:
        if (kind, name) in self.ambiguous:
            raise ConfigError(f"{self.label} holds several {kind} objects named {quoted(name)} "
                              "with different content; the "
                              "reference is ambiguous: rename one.")
        found = self.objects.get((kind, name))
        if found is not None:
            self.used.add((kind, name))
        return found

    def need(self, kind: str, ref_key: str, name: str, where: str) -> tuple[str, dict[str, Any]]:
        """The object ``{ref_key: name}`` refers to (:meth:`get`), refused when none is read."""
        found = self.get(kind, name)
        if found is None:
            raise ConfigError(f"{where}: {ref_key} {quoted(name)} names no {kind} in "
                              f"{self.label}; add it to the files read.")
        return found


def own_annotations(meta: Mapping[str, Any], allowed: tuple[str, ...],
                    where: str) -> tuple[dict[str, str], dict[str, str]]:
    """Split ``metadata.annotations`` into (budgetlab ones without prefix, the rest)."""
    ann = check_strings(meta.get("annotations"), f"{prefix(where)}metadata.annotations")
    own: dict[str, str] = {}
    rest: dict[str, str] = {}
    for k, v in ann.items():
        if k.startswith(ANNOTATION_PREFIX):
            short = k[len(ANNOTATION_PREFIX):]
            if short not in allowed:
                raise ConfigError(f"{prefix(where)}metadata.annotations.{k} is not a budgetlab "
                                  "annotation here; "
                                  f"known: {', '.join(ANNOTATION_PREFIX + a for a in allowed)}.")
            own[short] = v
        else:
            rest[k] = v
    return own, rest


def _condition(obj: Mapping[str, Any], where: str) -> tuple[AlertTier, str, str]:
    """(tier, displayName, description) of one AlertCondition (inline or referenced)."""
    meta = obj["metadata"]
    own, _rest = own_annotations(meta, _CONDITION_ANNOTATIONS, where)
    spec = obj["spec"]
    cw = f"{prefix(where)}spec.condition"
    cond = spec["condition"]
    if cond["op"] != "gt":
        raise ConfigError(f"{prefix(cw)}op={quoted(cond['op'])} is not supported: a burn-rate "
                          "alert fires while the burn rate "
                          "is above the threshold (op: gt), as in Prometheus's '>'.")
    threshold = check_number(f"{prefix(cw)}threshold", cond["threshold"])
    long_w = parse_duration_shorthand(cond["lookbackWindow"], where=f"{prefix(cw)}lookbackWindow")
    after = parse_duration_shorthand(cond.get("alertAfter", "0m"), where=f"{prefix(cw)}alertAfter",
                                     allow_zero=True)
    aw = f"{prefix(where)}metadata.annotations.budgetlab/"
    short_w = None
    if "short-window" in own:
        short_w = parse_duration_shorthand(own["short-window"], where=aw + "short-window")
    cool = pd.Timedelta(0)
    if "keep-firing-for" in own:
        cool = parse_duration_shorthand(own["keep-firing-for"], allow_zero=True,
                                        where=aw + "keep-firing-for")
    with context(cw):
        tier = AlertTier(own.get("tier", meta["name"]), spec["severity"], long_w, short_w,
                         threshold, for_=after,
                         cooldown=cool)
    return tier, meta.get("displayName", ""), spec.get("description", "")


_Parsed = tuple[str, str | None, pd.Timedelta | None, AlertTier, AlertPolicyInfo, list[dict[str,
                                                                                            Any]]]


def _policy(obj: Mapping[str, Any], where: str, table: ObjectTable) -> _Parsed:
    """(name, budgetlab/policy, budgetlab/period, tier, info, companions) of one AlertPolicy."""
    meta = obj["metadata"]
    own, rest = own_annotations(meta, _POLICY_ANNOTATIONS, where)
    spec = obj["spec"]
    sw = f"{prefix(where)}spec"
    if spec.get("alertWhenBreaching") is False:
        raise ConfigError(f"{sw}.alertWhenBreaching: false is not supported: budgetlab's alerts "
                          "fire while the "
                          "condition breaches.")
    if spec.get("alertWhenNoData"):
        raise ConfigError(f"{sw}.alertWhenNoData: true is not supported: a window without traffic "
                          "has burn rate 0 "
                          "in budgetlab and never alerts.")
    (c,) = spec["conditions"]
    if "conditionRef" in c:
        ctx, cobj = table.need("AlertCondition", "conditionRef", c["conditionRef"],
                               f"{sw}.conditions[0]")
        with context(ctx):
            tier, c_display, c_desc = _condition(cobj, "")
    else:
        tier, c_display, c_desc = _condition(c, f"{sw}.conditions[0]")
    companions = []
    for i, t in enumerate(spec["notificationTargets"]):
        if "targetRef" in t:
            companions.append(table.need("AlertNotificationTarget", "targetRef", t["targetRef"],
                                         f"{sw}.notificationTargets[{i}]")[1])
    info = AlertPolicyInfo(display_name=meta.get("displayName", ""),
                           description=spec.get("description", ""),
                           notification_targets=tuple(spec["notificationTargets"]),
                           condition_display_name=c_display,
                           condition_description=c_desc,
                           alert_when_resolved=bool(spec.get("alertWhenResolved")),
                           labels=check_strings(meta.get("labels"), "labels", lists=True),
                           annotations=rest)
    period = None
    if "period" in own:
        period = parse_duration_shorthand(
            own["period"], where=f"{prefix(where)}metadata.annotations.budgetlab/period"
        )
    return meta["name"], own.get("policy"), period, tier, info, companions


def _resolve(item: Mapping[str, Any], where: str, table: ObjectTable) -> _Parsed:
    if "alertPolicyRef" in item:
        ctx, obj = table.need("AlertPolicy", "alertPolicyRef", item["alertPolicyRef"], where)
        with context(ctx):
            return _policy(obj, "", table)
    return _policy(item, where, table)


def parse_alert_policies(spec: Mapping[str, Any], table: ObjectTable, period: pd.Timedelta
                         ) -> tuple[tuple[AlertPolicy, ...], dict[str, AlertPolicyInfo],
                                    list[dict[str, Any]]]:
    """The ``alertPolicies`` of an SLO spec: budgetlab policies (consecutive ones with the same
    ``budgetlab/policy`` annotation merged), per-tier info (only where it differs from what
    budgetlab writes by default) and the notification-target objects referenced."""
    groups: list[tuple[str, str | None, pd.Timedelta, list[AlertTier]]] = []
    infos: dict[str, AlertPolicyInfo] = {}
    companions: list[dict[str, Any]] = []
    for i, it in enumerate(spec.get("alertPolicies") or []):
        iw = f"spec.alertPolicies[{i}]"
        pname, group, p_period, tier, info, comps = _resolve(it, iw, table)
        p_period = period if p_period is None else p_period
        if info != AlertPolicyInfo.default(tier):
            infos[tier.name] = info
        companions.extend(comps)
        if group is not None and groups and groups[-1][1] == group:
            if groups[-1][2] != p_period:
                raise ConfigError(f"{iw}: the policies grouped as budgetlab/policy {quoted(group)} "
                                  "have different "
                                  "budgetlab/period annotations.")
            groups[-1][3].append(tier)
        else:
            groups.append((group if group is not None else pname, group, p_period, [tier]))
    policies = tuple(AlertPolicy(tuple(tiers), period=p, name=n) for n, _, p, tiers in groups)
    return policies, infos, companions
