"""Prometheus rules for an SLO and an alert policy.

:func:`prometheus_rules` writes one rule group per SLO, in the style Sloth users know:

* one recording rule ``slo:sli_error:ratio_rate<window>`` per window of the policy:
  ``sum(increase(<errors>[w])) / sum(increase(<total>[w]))`` over two counters, labelled
  ``sloth_id``, ``sloth_service``, ``sloth_slo`` and ``sloth_window``;
* ``slo:objective:ratio`` and ``slo:error_budget:ratio`` (the target and ``1 - target``);
* one alerting rule per tier: the long- and short-window ratios both above
  ``burn * (1 - target)``, with ``for:`` and ``keep_firing_for:`` from the tier and the labels
  ``severity`` and ``tier``.

Recording and alerting rules share **one** group, so at every evaluation the alerts read the
ratios recorded at the same timestamp (rules of a group run in order); with two groups (as
Sloth writes them) an alert can act on ratios one evaluation old.

**Why ``increase`` and not ``rate``.** ``rate = increase / range`` and both counters share the
range, so the two ratios are equal in exact arithmetic; in floating point, ``(e / w) / (t / w)``
can differ from ``e / t`` in the last bit, which decides ties at the threshold differently from
budgetlab. With counters sampled at every bin end, Prometheus 2.x computes ``increase`` without
extrapolation (see ``docs/interop.md``) and the recorded ratio is bit for bit the bin
ratio budgetlab uses. ``function="rate"`` writes Sloth's literal form.

"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd
import yaml

from ..._util.files import write_bytes
from ...alerts.policy import AlertPolicy
from ...alerts.reach import named_slos_note
from ...alerts.tier import AlertTier
from ...errors import BudgetlabWarning, ConfigError
from ...slo import SLO
from ..openslo import SLODocument
from ..promql import (
    LABEL_NAME,
    label_filter,
    label_matchers,
    metric_name,
    prom_duration,
    selector_text,
)
from ..sli_queries import ratio_rule_expr
from ..sloth_rules import (
    alert_timing,
    objective_rules,
    sloth_alert_rules,
    sloth_meta_rules,
)
from .rule_slos import (
    POLICY_PRESETS,
    RuleSLO,
    alert_annotations,
    alert_labels,
    prepare_slos,
    resolve_policy,
    rule_alert_name,
    slo_rule_labels,
    sloth_alert_info,
    spec_alert_name,
)

# POLICY_PRESETS and resolve_policy: at home in rule_slos, named here too
__all__ = ["POLICY_PRESETS", "STYLES", "resolve_policy", "prometheus_rules", "to_prometheus_yaml",
           "write_prometheus_rules"]

_FUNCTIONS = ("increase", "rate")
#: ``style=`` of :func:`prometheus_rules`: one alert per tier, or Sloth's layout.
STYLES = ("budgetlab", "sloth")


def _num(x: float) -> str:
    """Shortest text that parses back to the same float (Go's ParseFloat reads it exactly)."""
    return repr(float(x))


def _record_name(window: pd.Timedelta) -> str:
    return f"slo:sli_error:ratio_rate{prom_duration(window, 'window')}"


def _ratio_expr(s: RuleSLO, window: pd.Timedelta, total: str, errors: str, errors_extra: list[str],
                fn: str) -> str:
    w = prom_duration(window, "window")
    if s.queries is not None:
        return ratio_rule_expr(s.queries, w, function=fn)
    err_sel = selector_text(s.matchers + errors_extra)
    tot_sel = selector_text(s.matchers)
    return f"sum({fn}({errors}{err_sel}[{w}]))\n/\nsum({fn}({total}{tot_sel}[{w}]))\n"


def _threshold(tier: AlertTier, target: float) -> str:
    return f"({_num(tier.burn)} * (1 - {_num(target)}))"


def _recording(s: RuleSLO, window: pd.Timedelta, expr: str, extra: dict[str, str]) -> dict[str,
                                                                                           Any]:
    return {"record": _record_name(window), "expr": expr,
            "labels": {**extra, **s.ids, "sloth_window": prom_duration(window, "window")}}


def _alert_expr(s: RuleSLO, tier: AlertTier) -> str:
    ids = label_filter(s.ids)
    thr = _threshold(tier, s.doc.slo.target)
    parts = [f"max({_record_name(w)}{ids} > {thr}) without (sloth_window)" for w in tier.windows]
    if len(parts) == 1:
        return parts[0] + "\n"
    return "(\n  " + "\nand\n  ".join(parts) + "\n)\n"


def prometheus_rules(
    slos: SLO | SLODocument | Sequence[SLODocument],
    policy: AlertPolicy | str | None = None,
    *,
    total_metric: str | None = None,
    errors_metric: str | None = None,
    selector: str | Mapping[str, str] | None = None,
    errors_selector: str | Mapping[str, str] | None = None,
    selector_labels: Sequence[str] = (),
    service: str | None = None,
    name: str | None = None,
    alert_name: str | None = None,
    interval: Any = "1m",
    function: str = "increase",
    style: str = "budgetlab",
) -> dict[str, Any]:
    """Recording and alerting rules for SLOs and an alert policy, one rule group per SLO.

    Parameters
    ----------
    slos : SLO, SLODocument or list of SLODocument
        The objectives; a plain :class:`SLO` is named ``name`` (default ``"slo"``).
    policy : AlertPolicy or str, optional
        A policy or a preset name (:data:`POLICY_PRESETS`; its period is each SLO's ``period``).
        Default: each SLO's own alert policies (from OpenSLO).
    total_metric, errors_metric : str, optional
        Counter names: all attempts, and failed attempts. Without them, each SLO's own
        Prometheus queries (its inline ratioMetric SLI: OpenSLO, Sloth's spec, Pyrra's) make the
        ratios, over each window as Sloth renders ``{{.window}}``
        (:func:`~budgetlab.interop.sli_queries.ratio_rule_expr`): the SLI ``budgetlab backtest``
        reads from the same file. An SLO without queries then raises ConfigError.
    selector : str or mapping, optional
        Label matchers applied to both counters (``'job="solver"'`` or ``{"job": "solver"}``).
    errors_selector : str or mapping, optional
        Extra matchers for the errors counter only (e.g. ``'outcome!="success"'`` when both
        counters are the same metric).
    selector_labels : sequence of str
        SLO ``metadata.labels`` to add as equality matchers (e.g. ``("captcha_type",)`` for
        one SLO per captcha type).
    service : str, optional
        ``sloth_service`` label (default: the SLO's service, else ``"budgetlab"``).
    alert_name : str, optional
        Name of every alerting rule; tiers differ by the ``tier`` and ``severity`` labels.
        Default: the alert policy's display name where it is a Prometheus name (Sloth's
        ``alerting.name``, Pyrra's ``alerting.name``), else ``SLOErrorBudgetBurn``.
    interval : duration
        Evaluation interval of the groups (budgetlab's bin width when comparing).
    function : {"increase", "rate"}
        Counter function of the ratios; see the module notes on ties.
    style : {"budgetlab", "sloth"}
        ``"budgetlab"``: one alert per tier, labels ``severity`` and ``tier``.
        ``"sloth"``: Sloth's layout (:mod:`budgetlab.interop.sloth_rules`): one alert per
        severity with its tiers OR-ed, labels ``sloth_severity`` and ``sloth_id``, and Sloth's
        meta recordings (objective, error budget, period days, current and period burn rate,
        period budget remaining, ``sloth_slo_info``) over the SLO's ``period``, so Sloth's
        dashboards and Alertmanager routes work unchanged. The SLO's labels go on every
        recording, and each alert carries its policy's labels and annotations (Sloth's
        ``alerting`` and ``page_alert``/``ticket_alert`` labels), as Sloth writes them.

    Returns
    -------
    dict
        ``{"groups": [...]}``, ready for :func:`to_prometheus_yaml`. A tier that can never fire
        at its SLO's target (``burn x (1 - target) >= 1``: an error ratio is at most 1) is
        written all the same, and a :class:`~budgetlab.errors.BudgetlabWarning` names it, its
        SLO and its threshold (:mod:`budgetlab.alerts.reach`).

    Examples
    --------
    >>> rules = prometheus_rules(SLO(0.999, "30D"), "workbook", total_metric="captcha_solves_total",
    ...                          errors_metric="captcha_solve_errors_total", name="solve")
    >>> [r.get("record") or r["alert"] for r in rules["groups"][0]["rules"]][:3]
    ['slo:sli_error:ratio_rate5m', 'slo:sli_error:ratio_rate30m', 'slo:sli_error:ratio_rate1h']
    >>> expr = rules["groups"][0]["rules"][-4]["expr"]  # page_1h: 1h and 5m above 14.4 x budget
    >>> [ln.strip().split("{")[0] for ln in expr.splitlines() if "> (14.4 * (1 - 0.999))" in ln]
    ['max(slo:sli_error:ratio_rate1h', 'max(slo:sli_error:ratio_rate5m']
    """
    if (total_metric is None) != (errors_metric is None):
        raise ConfigError("give both total_metric and errors_metric, or neither (each SLO's own "
                          "queries).")
    own = total_metric is None or errors_metric is None
    total = "" if total_metric is None else metric_name(total_metric, "total_metric")
    errors = "" if errors_metric is None else metric_name(errors_metric, "errors_metric")
    if alert_name is not None and (not isinstance(alert_name,
                                                  str) or not LABEL_NAME.match(alert_name)):
        raise ConfigError(f"alert_name={alert_name!r} must be a Prometheus name (letters, digits, "
                          "_).")
    if function not in _FUNCTIONS:
        raise ConfigError(f"function={function!r} is not valid; use 'increase' or 'rate'.")
    if style not in STYLES:
        raise ConfigError(f"style={style!r} is not valid; use 'budgetlab' (one alert per tier) or "
                          "'sloth'.")
    err_extra = label_matchers(errors_selector, "errors_selector")
    if not own and total == errors and not err_extra:
        raise ConfigError("errors_metric equals total_metric; give errors_selector= to pick the "
                          "failures.")
    step = prom_duration(interval, "interval")

    def ratio(s: RuleSLO, window: pd.Timedelta) -> str:
        return _ratio_expr(s, window, total, errors, err_extra, function)

    groups = []
    prepared = prepare_slos(slos, policy, selector=selector, selector_labels=selector_labels,
                            service=service, name=name, own_queries=own,
                            errors_selector=errors_selector)
    for s in prepared:
        extra = slo_rule_labels(s, style)
        rules = [_recording(s, w, ratio(s, w), extra) for w in s.policy.windows]
        if style == "sloth":
            rules.extend(_sloth_rules(s, ratio, alert_name, extra))
        else:
            rules.extend(objective_rules(s.ids, _num(s.doc.slo.target)))
            rules.extend({"alert": rule_alert_name(s, tier, alert_name),
                          "expr": _alert_expr(s, tier), **alert_timing(tier),
                          "labels": alert_labels(s, tier),
                          "annotations": alert_annotations(s, tier)}
                         for tier in s.policy.tiers)
        groups.append({"name": f"budgetlab-slo-{s.id}", "interval": step, "rules": rules})
    never = named_slos_note([(s.doc.name, s.doc.slo.target, s.policy) for s in prepared])
    if never:
        warnings.warn(never, BudgetlabWarning, stacklevel=2)
    return {"groups": groups}


def _sloth_rules(s: RuleSLO, ratio: Callable[[RuleSLO, pd.Timedelta], str], alert_name: str | None,
                 extra: dict[str, str]) -> list[dict[str, Any]]:
    """The period recording, Sloth's meta recordings and one alert per severity."""
    period = s.doc.slo.period
    out = [] if period in s.policy.windows else [_recording(s, period, ratio(s, period), extra)]
    out.extend(sloth_meta_rules(s.ids, target=s.doc.slo.target, target_text=_num(s.doc.slo.target),
                                period=period, current=_record_name(min(s.policy.windows)),
                                period_record=_record_name(period), version="budgetlab",
                                spec=s.doc.source_spec, labels=extra))
    out.extend(sloth_alert_rules(s.ids, s.policy.tiers, alert_name, lambda t: _alert_expr(s, t),
                                 info=sloth_alert_info(s), fallback=spec_alert_name(s)))
    return out


class _Dumper(yaml.SafeDumper):  # type: ignore[misc]
    """Block scalars (``|``) for multi-line strings, so PromQL stays readable."""


def _str_representer(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str_representer)


def to_prometheus_yaml(rules: Mapping[str, Any]) -> str:
    """YAML text of a rules (or promtool test) document."""
    return str(yaml.dump(dict(rules), Dumper=_Dumper, sort_keys=False, allow_unicode=True,
                         width=200))


def write_prometheus_rules(rules: Mapping[str, Any], path: str | os.PathLike[str], *,
                           force: bool = False) -> Path:
    """Write a rules (or promtool test) document atomically (existing files need ``force``)."""
    return write_bytes(to_prometheus_yaml(rules).encode("utf-8"), path, force=force, option="path")
