"""Sloth-compatible pieces of a Prometheus rule file (``prometheus_rules(..., style="sloth")``).

Sloth (github.com/slok/sloth) writes, per SLO: SLI error-ratio recordings per window (budgetlab
writes the same names and labels in both styles), the meta recordings its Grafana dashboards read
(``internal/plugin/slo/core/metadata_rules_v1/plugin.go``: ``slo:objective:ratio``,
``slo:error_budget:ratio``, ``slo:time_period:days``, ``slo:current_burn_rate:ratio``,
``slo:period_burn_rate:ratio``, ``slo:period_error_budget_remaining:ratio``, ``sloth_slo_info``),
and one alert per severity whose expression ORs the tiers of that severity
(``internal/plugin/slo/core/alert_rules_v1/plugin.go``) with the label ``sloth_severity``, which
Alertmanager routes written for Sloth match on.

Differences, on purpose: the period ratio ``slo:sli_error:ratio_rate<period>`` is the exact
``errors / total`` over the period (Sloth averages the 5-minute ratios, a different number when
traffic varies); the objective is the target's own double (``0.999``, where Sloth writes
``99.9 / 100 = 0.9990000000000001``); recordings and alerts share one rule group.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import pandas as pd

from .._util.percent import fraction_to_percent
from ..alerts.tier import AlertTier
from ..errors import ConfigError
from .openslo.alert_info import AlertPolicyInfo
from .promql import LABEL_NAME, label_filter, label_values, prom_duration

__all__ = ["severity_groups", "sloth_alert_rules", "sloth_alert_labels", "sloth_alert_annotations",
           "sloth_meta_rules", "objective_rules", "alert_title", "alert_timing",
           "DEFAULT_ALERT_NAME"]

#: The alert name when neither ``alert_name`` nor the policy names one.
DEFAULT_ALERT_NAME = "SLOErrorBudgetBurn"


def alert_title(alert_name: str | None, info: AlertPolicyInfo | None, *,
                fallback: str = DEFAULT_ALERT_NAME) -> str:
    """The alert's name: ``alert_name`` when given, else the policy's display name where it is
    a Prometheus name (Sloth's and Pyrra's ``alerting.name``), else ``fallback`` (the spec's
    one alert name, :func:`~.prometheus.rule_slos.spec_alert_name`, else
    :data:`DEFAULT_ALERT_NAME`).

    >>> alert_title(None, AlertPolicyInfo(display_name="MyServiceHighErrorRate"))
    'MyServiceHighErrorRate'
    >>> alert_title(None, AlertPolicyInfo(display_name="Page the team")), alert_title("Mine", None)
    ('SLOErrorBudgetBurn', 'Mine')
    """
    if alert_name is not None:
        return alert_name
    shown = info.display_name if info is not None else ""
    return shown if LABEL_NAME.match(shown) else fallback


def alert_timing(tier: AlertTier) -> dict[str, str]:
    """``for`` and ``keep_firing_for`` of the alerting rule of ``tier`` (left out when zero)."""
    out = {}
    if tier.for_ > pd.Timedelta(0):
        out["for"] = prom_duration(tier.for_, "for_")
    if tier.cooldown > pd.Timedelta(0):
        out["keep_firing_for"] = prom_duration(tier.cooldown, "cooldown")
    return out


def objective_rules(ids: Mapping[str, str], target_text: str) -> list[dict[str, Any]]:
    """The recordings ``slo:objective:ratio`` and ``slo:error_budget:ratio`` (labels ``ids``)."""
    return [{"record": "slo:objective:ratio", "expr": f"vector({target_text})",
             "labels": dict(ids)},
            {"record": "slo:error_budget:ratio", "expr": f"vector(1 - {target_text})",
             "labels": dict(ids)}]


def severity_groups(tiers: Sequence[AlertTier]) -> list[tuple[str, list[AlertTier]]]:
    """Tiers grouped by severity, in order of first appearance; the tiers of one severity must
    share ``for_`` and ``cooldown`` (one alert has one ``for:``).

    >>> from budgetlab.alerts.policy import AlertPolicy
    >>> [(sev, [t.name for t in ts]) for sev, ts in severity_groups(AlertPolicy.workbook().tiers)]
    [('page', ['page_1h', 'page_6h']), ('ticket', ['ticket_1d', 'ticket_3d'])]
    """
    groups: dict[str, list[AlertTier]] = {}
    for t in tiers:
        groups.setdefault(t.severity, []).append(t)
    for sev, ts in groups.items():
        if len({(t.for_, t.cooldown) for t in ts}) > 1:
            raise ConfigError(f"style='sloth' writes one alert per severity: the {sev!r} tiers "
                              f"({', '.join(t.name for t in ts)}) have different for_/cooldown; "
                              "give them the same, "
                              "or use style='budgetlab' (one alert per tier).")
    return list(groups.items())


def sloth_alert_labels(ids: Mapping[str, str], severity: str) -> dict[str, str]:
    """Labels of a Sloth-style alert: the SLO identity (which the expression yields too) and
    ``sloth_severity``."""
    return {**ids, "sloth_severity": severity}


def sloth_alert_annotations(severity: str, ids: Mapping[str, str] | None = None) -> dict[str, str]:
    """Sloth's default annotations (``title`` and ``summary``); with ``ids``, as Prometheus
    renders them for that SLO (what ``promtool test rules`` compares).

    >>> sloth_alert_annotations("page", {"sloth_service": "web", "sloth_slo": "api"})["title"]
    '(page) web api SLO error budget burn rate is too fast.'
    """
    svc, slo = ("{{$labels.sloth_service}}", "{{$labels.sloth_slo}}") if ids is None else (
        ids["sloth_service"], ids["sloth_slo"])
    return {"title": f"({severity}) {svc} {slo} SLO error budget burn rate is too fast.",
            "summary": f"{svc} {slo} SLO error budget burn rate is over expected."}


def sloth_alert_rules(ids: Mapping[str, str], tiers: Sequence[AlertTier], alert_name: str | None,
                      tier_expr: Callable[[AlertTier], str],
                      info: Mapping[str, AlertPolicyInfo] | None = None, *,
                      fallback: str = DEFAULT_ALERT_NAME) -> list[dict[str, Any]]:
    """One alerting rule per severity: the tiers' expressions OR-ed. ``info`` (per tier name,
    :attr:`SLODocument.policy_info`, or per severity): the name, labels and annotations of the
    severity's alert, merged over Sloth's as Sloth merges them (the spec's win); ``fallback``:
    the name of an alert ``info`` names none for (:func:`alert_title`)."""
    rules = []
    for sev, ts in severity_groups(tiers):
        parts = [tier_expr(t).rstrip("\n") for t in ts]
        expr = parts[0] + "\n" if len(parts) == 1 else "\nor\n".join(parts) + "\n"
        table = info or {}
        own = table.get(ts[0].name) or table.get(sev)
        if any((table.get(t.name) or table.get(sev)) != own for t in ts):
            raise ConfigError(f"style='sloth' writes one alert per severity: the {sev!r} tiers "
                              "carry different "
                              "alert policy names, labels or annotations; give them the same.")
        rule: dict[str, Any] = {"alert": alert_title(alert_name, own, fallback=fallback),
                                "expr": expr,
                                **alert_timing(ts[0])}
        labels = label_values(own.labels, f"the {sev} alert policy's labels") if own else {}
        rule["labels"] = {**sloth_alert_labels(ids, sev), **labels}
        rule["annotations"] = {**sloth_alert_annotations(sev), **(own.annotations if own else {})}
        rules.append(rule)
    return rules


def sloth_meta_rules(ids: Mapping[str, str], *, target: float, target_text: str,
                     period: pd.Timedelta,
                     current: str, period_record: str, version: str,
                     spec: str = "openslo/v1",
                     labels: Mapping[str, str] | None = None) -> list[dict[str, Any]]:
    """Sloth's meta recordings for one SLO. ``current`` / ``period_record``: the recording names
    of the shortest window and of the period; ``spec``: the spec the SLO was read from
    (``sloth_slo_info``'s ``sloth_spec``, as Sloth writes it); ``labels``: the SLO's labels, on
    every rule."""
    f = label_filter(ids)
    ids = {**(labels or {}), **ids}
    days = period / pd.Timedelta("1D")

    def burn(record: str) -> str:
        return (f"{record}{f}\n/ on(sloth_id, sloth_slo, sloth_service) "
                f"group_left\nslo:error_budget:ratio{f}\n")

    return [
        *objective_rules(ids, target_text),
        {"record": "slo:time_period:days", "expr": f"vector({days:g})", "labels": dict(ids)},
        {"record": "slo:current_burn_rate:ratio", "expr": burn(current), "labels": dict(ids)},
        {"record": "slo:period_burn_rate:ratio", "expr": burn(period_record), "labels": dict(ids)},
        {"record": "slo:period_error_budget_remaining:ratio",
         "expr": f"1 - slo:period_burn_rate:ratio{f}",
         "labels": dict(ids)},
        {"record": "sloth_slo_info", "expr": "vector(1)",
         "labels": {**ids, "sloth_mode": "budgetlab",
                    "sloth_objective": fraction_to_percent(target),
                    "sloth_spec": spec, "sloth_version": version}},
    ]
