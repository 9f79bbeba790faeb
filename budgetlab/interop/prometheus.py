"""Prometheus rules for an SLO and an alert policy, and promtool unit tests that check them.

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

:func:`promtool_test` turns a bins table into a ``promtool test rules`` file: the two counters
sampled once per bin (cumulative counts, starting at 0) and, at every evaluation, the exact set
of alerts :func:`budgetlab.alerts.episodes.alert_states` says are firing. ``promtool test rules`` then
checks that Prometheus fires the exported rules at the same minutes as budgetlab.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import yaml

from .._util.files import atomic_path
from .._util.validation import to_timedelta
from ..alerts.episodes import alert_states
from ..alerts.policy import AlertPolicy, AlertTier
from ..errors import ConfigError
from ..slo import SLO
from ..windows.bins import duration_label, read_bins, window_bins
from .openslo import SLODocument
from .openslo.model import as_documents
from .sli_queries import ratio_rule_expr, rule_queries
from .sloth_rules import (
    alert_title,
    rule_labels,
    severity_groups,
    sloth_alert_annotations,
    sloth_alert_labels,
    sloth_alert_rules,
    sloth_meta_rules,
)

__all__ = [
    "POLICY_PRESETS",
    "STYLES",
    "resolve_policy",
    "prometheus_rules",
    "to_prometheus_yaml",
    "write_prometheus_rules",
    "promtool_test",
    "run_promtool",
    "promtool_path",
]

#: Names accepted by :func:`resolve_policy` (``--policy`` on the command line).
POLICY_PRESETS = ("workbook", "sloth", "sloth30", "sloth28", "pyrra", "single_window")

_METRIC = re.compile(r"^[a-zA-Z_:][a-zA-Z0-9_:]*$")
_LABEL = re.compile(r"^[a-zA-Z_][a-zA-Z0-9_]*$")
_MATCHER = re.compile(r'\s*[a-zA-Z_][a-zA-Z0-9_]*\s*(=~|!~|!=|=)\s*"(?:[^"\\]|\\.)*"\s*')
_FUNCTIONS = ("increase", "rate")
#: ``style=`` of :func:`prometheus_rules`: one alert per tier, or Sloth's layout.
STYLES = ("budgetlab", "sloth")


def resolve_policy(policy: AlertPolicy | str, *, period: Any = "30D") -> AlertPolicy:
    """An :class:`AlertPolicy` from a preset name (see :data:`POLICY_PRESETS`) or as given.

    ``period`` is the SRE budget period (:attr:`budgetlab.SLO.period`, not the tracker window).
    The Workbook and Pyrra presets keep their burn factors at any period and scale their
    windows (Pyrra's rule); Sloth's preset keeps Sloth's budget fractions, as Sloth does.
    ``sloth30`` / ``sloth28`` fix the period; ``single_window`` is the seed-style 1 h rule.

    >>> [t.burn for t in resolve_policy("workbook", period="28D").tiers]
    [14.4, 6.0, 3.0, 1.0]
    """
    if isinstance(policy, AlertPolicy):
        return policy
    if not isinstance(policy, str) or policy not in POLICY_PRESETS:
        raise ConfigError(f"policy={policy!r} is not valid; use an AlertPolicy or one of "
                          f"{', '.join(map(repr, POLICY_PRESETS))}.")
    if policy == "workbook":
        return AlertPolicy.workbook(period)
    if policy == "sloth":
        return AlertPolicy.sloth(period)
    if policy == "sloth30":
        return AlertPolicy.sloth("30D")
    if policy == "sloth28":
        return AlertPolicy.sloth("28D")
    if policy == "pyrra":
        return AlertPolicy.pyrra(period)
    return AlertPolicy.single_window("1h", 0.9, period=period)


# ----------------------------------------------------------------------------------------------
# PromQL pieces


def _prom_duration(value: Any, what: str) -> str:
    td = to_timedelta(value, name=what)
    if td.value % 10**6:
        raise ConfigError(f"{what}={td} is not a whole number of milliseconds; Prometheus durations cannot say it.")
    return duration_label(td)


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def _matchers(selector: str | Mapping[str, str] | None, what: str) -> list[str]:
    """Label matchers as PromQL text items (``job="solver"``)."""
    if selector is None:
        return []
    if isinstance(selector, Mapping):
        out = []
        for k, v in selector.items():
            if not isinstance(k, str) or not _LABEL.match(k) or k.startswith("__"):
                raise ConfigError(f"{what}: {k!r} is not a Prometheus label name (letters, digits, _).")
            if not isinstance(v, str):
                raise ConfigError(f"{what}: the value of {k!r} must be a string.")
            out.append(f'{k}="{_escape(v)}"')
        return out
    if not isinstance(selector, str):
        raise ConfigError(f"{what} must be label matchers such as 'job=\"solver\"' or a mapping.")
    text = selector.strip().strip("{}").strip()
    if not text:
        return []
    items: list[str] = []
    pos = 0
    while pos < len(text):
        m = _MATCHER.match(text, pos)
        if m is None:
            raise ConfigError(f"{what} is not a list of label matchers such as 'job=\"solver\",region=~\"fra|ams\"'.")
        items.append(m.group(0).strip())
        pos = m.end()
        if pos < len(text):
            if text[pos] != ",":
                raise ConfigError(f"{what}: separate label matchers with commas.")
            pos += 1
    return items


def _metric(name: str, what: str) -> str:
    if not isinstance(name, str) or not _METRIC.match(name):
        raise ConfigError(f"{what}={name!r} is not a Prometheus metric name (letters, digits, _ and :).")
    return name


def _selector_text(items: Sequence[str]) -> str:
    return "{" + ",".join(items) + "}" if items else ""


def _num(x: float) -> str:
    """Shortest text that parses back to the same float (Go's ParseFloat reads it exactly)."""
    return repr(float(x))


class _Slo:
    """What the rules of one SLO need: identity labels, target, policy, selectors or the SLO's
    own queries (``queries``, when no counters were given)."""

    def __init__(self, doc: SLODocument, policy: AlertPolicy, service: str, base: list[str],
                 selector_labels: Sequence[str], queries: dict[str, str] | None = None):
        self.doc = doc
        self.queries = queries
        self.policy = policy
        self.service = service
        self.id = f"{service}-{doc.name}"
        self.ids = {"sloth_id": self.id, "sloth_service": service, "sloth_slo": doc.name}
        self.group_labels: dict[str, str] = {}
        for key in selector_labels:
            value = doc.labels.get(key)
            if not isinstance(value, str):
                raise ConfigError(f"SLO {doc.name!r} has no single-valued label {key!r} for selector_labels; "
                                  "set it in metadata.labels (slos_from_recalibration does).")
            self.group_labels[key] = value
        self.matchers = base + _matchers(self.group_labels, "selector_labels")


def _prepare(slos: Any, policy: Any, *, selector: Any, selector_labels: Sequence[str], service: str | None,
             name: str | None, own_queries: bool = False, errors_selector: Any = None) -> list[_Slo]:
    docs = as_documents(slos, name=name or "slo")
    base = _matchers(selector, "selector")
    keys = [selector_labels] if isinstance(selector_labels, str) else list(selector_labels)
    for k in keys:
        if not isinstance(k, str) or not _LABEL.match(k):
            raise ConfigError(f"selector_labels: {k!r} is not a Prometheus label name.")
    out = []
    for doc in docs:
        queries = rule_queries(doc, selectors=bool(base or keys or errors_selector)) if own_queries else None
        if policy is None:
            pol = doc.policy
            if pol is None:
                raise ConfigError(f"SLO {doc.name!r} has no alert policies; pass policy= (e.g. 'workbook').")
        else:
            pol = resolve_policy(policy, period=doc.slo.period)
        svc = service if service is not None else (doc.service or "budgetlab")
        if not isinstance(svc, str) or not svc:
            raise ConfigError("service must be a non-empty string.")
        out.append(_Slo(doc, pol, svc, base, keys, queries))
    return out


def _record_name(window: pd.Timedelta) -> str:
    return f"slo:sli_error:ratio_rate{_prom_duration(window, 'window')}"


def _ratio_expr(s: _Slo, window: pd.Timedelta, total: str, errors: str, errors_extra: list[str], fn: str) -> str:
    w = _prom_duration(window, "window")
    if s.queries is not None:
        return ratio_rule_expr(s.queries, w, function=fn)
    err_sel = _selector_text(s.matchers + errors_extra)
    tot_sel = _selector_text(s.matchers)
    return f"sum({fn}({errors}{err_sel}[{w}]))\n/\nsum({fn}({total}{tot_sel}[{w}]))\n"


def _threshold(tier: AlertTier, target: float) -> str:
    return f"({_num(tier.burn)} * (1 - {_num(target)}))"


def _alert_expr(s: _Slo, tier: AlertTier) -> str:
    ids = ", ".join(f'{k}="{_escape(v)}"' for k, v in s.ids.items())
    thr = _threshold(tier, s.doc.slo.target)
    parts = [f"max({_record_name(w)}{{{ids}}} > {thr}) without (sloth_window)" for w in tier.windows]
    if len(parts) == 1:
        return parts[0] + "\n"
    return "(\n  " + "\nand\n  ".join(parts) + "\n)\n"


def _alert_labels(s: _Slo, tier: AlertTier) -> dict[str, str]:
    # the SLO identity repeats the labels the expression yields, so that promtool's lint sees
    # the alerting rules of different SLOs as different rules
    return {**s.ids, "severity": tier.severity, "tier": tier.name}


def _alert_annotations(s: _Slo, tier: AlertTier) -> dict[str, str]:
    windows = " and ".join(_prom_duration(w, "window") for w in tier.windows)
    return {
        "summary": f"SLO {s.doc.name} of {s.service}: error budget burn rate above {tier.burn:g} over {windows}",
        "description": (f"target {s.doc.slo.target:g}: the error ratio exceeds {tier.burn:g} x {s.doc.slo.error_budget:.6g} "
                        f"over {windows}; tier {tier.name} ({tier.severity})"),
    }


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
        ``{"groups": [...]}``, ready for :func:`to_prometheus_yaml`.

    Examples
    --------
    >>> rules = prometheus_rules(SLO(0.999, "30D"), "workbook", total_metric="captcha_solves_total",
    ...                          errors_metric="captcha_solve_errors_total", name="solve")
    >>> [r.get("record") or r["alert"] for r in rules["groups"][0]["rules"]][:3]
    ['slo:sli_error:ratio_rate5m', 'slo:sli_error:ratio_rate30m', 'slo:sli_error:ratio_rate1h']
    >>> print(rules["groups"][0]["rules"][-4]["expr"], end="")
    (
      max(slo:sli_error:ratio_rate1h{sloth_id="budgetlab-solve", sloth_service="budgetlab", sloth_slo="solve"} > (14.4 * (1 - 0.999))) without (sloth_window)
    and
      max(slo:sli_error:ratio_rate5m{sloth_id="budgetlab-solve", sloth_service="budgetlab", sloth_slo="solve"} > (14.4 * (1 - 0.999))) without (sloth_window)
    )
    """
    if (total_metric is None) != (errors_metric is None):
        raise ConfigError("give both total_metric and errors_metric, or neither (each SLO's own queries).")
    own = total_metric is None or errors_metric is None
    total = "" if total_metric is None else _metric(total_metric, "total_metric")
    errors = "" if errors_metric is None else _metric(errors_metric, "errors_metric")
    if alert_name is not None and (not isinstance(alert_name, str) or not _LABEL.match(alert_name)):
        raise ConfigError(f"alert_name={alert_name!r} must be a Prometheus name (letters, digits, _).")
    if function not in _FUNCTIONS:
        raise ConfigError(f"function={function!r} is not valid; use 'increase' or 'rate'.")
    if style not in STYLES:
        raise ConfigError(f"style={style!r} is not valid; use 'budgetlab' (one alert per tier) or 'sloth'.")
    err_extra = _matchers(errors_selector, "errors_selector")
    if not own and total == errors and not err_extra:
        raise ConfigError("errors_metric equals total_metric; give errors_selector= to pick the failures.")
    step = _prom_duration(interval, "interval")
    groups = []
    for s in _prepare(slos, policy, selector=selector, selector_labels=selector_labels, service=service, name=name,
                      own_queries=own, errors_selector=errors_selector):
        extra = rule_labels(s.doc.labels, f"SLO {s.doc.name!r} metadata.labels") if style == "sloth" else {}
        rules: list[dict[str, Any]] = []
        for w in s.policy.windows:
            rules.append({"record": _record_name(w), "expr": _ratio_expr(s, w, total, errors, err_extra, function),
                          "labels": {**extra, **s.ids, "sloth_window": _prom_duration(w, "window")}})
        target = s.doc.slo.target
        if style == "sloth":
            rules.extend(_sloth_rules(s, total, errors, err_extra, function, alert_name, extra))
            groups.append({"name": f"budgetlab-slo-{s.id}", "interval": step, "rules": rules})
            continue
        rules.append({"record": "slo:objective:ratio", "expr": f"vector({_num(target)})", "labels": dict(s.ids)})
        rules.append({"record": "slo:error_budget:ratio", "expr": f"vector(1 - {_num(target)})", "labels": dict(s.ids)})
        for tier in s.policy.tiers:
            rule: dict[str, Any] = {"alert": alert_title(alert_name, s.doc.policy_info.get(tier.name)),
                                    "expr": _alert_expr(s, tier)}
            if tier.for_ > pd.Timedelta(0):
                rule["for"] = _prom_duration(tier.for_, "for_")
            if tier.cooldown > pd.Timedelta(0):
                rule["keep_firing_for"] = _prom_duration(tier.cooldown, "cooldown")
            rule["labels"] = _alert_labels(s, tier)
            rule["annotations"] = _alert_annotations(s, tier)
            rules.append(rule)
        groups.append({"name": f"budgetlab-slo-{s.id}", "interval": step, "rules": rules})
    return {"groups": groups}


def _sloth_rules(s: _Slo, total: str, errors: str, err_extra: list[str], fn: str, alert_name: str | None,
                 extra: dict[str, str]) -> list[dict[str, Any]]:
    """The period recording, Sloth's meta recordings and one alert per severity."""
    period = s.doc.slo.period
    out: list[dict[str, Any]] = []
    if period not in s.policy.windows:
        out.append({"record": _record_name(period), "expr": _ratio_expr(s, period, total, errors, err_extra, fn),
                    "labels": {**extra, **s.ids, "sloth_window": _prom_duration(period, "period")}})
    current = _record_name(min(s.policy.windows))
    out.extend(sloth_meta_rules(s.ids, target=s.doc.slo.target, target_text=_num(s.doc.slo.target), period=period,
                                current=current, period_record=_record_name(period), version="budgetlab",
                                labels=extra))
    # a policy given in place of the SLO's own keeps each severity's alert name, labels, annotations
    own = s.doc.policy
    info = {**{t.severity: s.doc.policy_info[t.name] for t in (own.tiers if own else ()) if t.name in s.doc.policy_info},
            **s.doc.policy_info}
    out.extend(sloth_alert_rules(s.ids, s.policy.tiers, alert_name, lambda t: _alert_expr(s, t), _prom_duration,
                                 info=info))
    return out


class _Dumper(yaml.SafeDumper):  # type: ignore[misc]
    """Block scalars (``|``) for multi-line strings, so PromQL stays readable."""


def _str_representer(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str_representer)


def to_prometheus_yaml(rules: Mapping[str, Any]) -> str:
    """YAML text of a rules (or promtool test) document."""
    return str(yaml.dump(dict(rules), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=200))


def write_prometheus_rules(rules: Mapping[str, Any], path: str | os.PathLike[str], *, force: bool = False) -> Path:
    """Write a rules (or promtool test) document atomically (existing files need ``force``)."""
    text = to_prometheus_yaml(rules)
    with atomic_path(path, force=force) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return Path(path)


# ----------------------------------------------------------------------------------------------
# promtool


def promtool_test(
    bins: pd.DataFrame,
    slos: SLO | SLODocument | Sequence[SLODocument],
    policy: AlertPolicy | str | None = None,
    *,
    rule_file: str = "rules.yaml",
    total_metric: str,
    errors_metric: str,
    selector: Mapping[str, str] | None = None,
    selector_labels: Sequence[str] = (),
    service: str | None = None,
    name: str | None = None,
    alert_name: str = "SLOErrorBudgetBurn",
    freq: Any = None,
    style: str = "budgetlab",
) -> dict[str, Any]:
    """A ``promtool test rules`` document: the bins as counters, budgetlab's firing alerts as
    the expected result at every evaluation.

    Give the keyword arguments used for :func:`prometheus_rules` (whose ``interval`` must be the
    bin width). Each SLO is matched to the group of the bins whose keys equal its
    ``selector_labels`` (ungrouped bins take exactly one SLO). Promtool's time 0 is the start of
    the first bin; the counters are sampled at every bin end (value: the events before that
    time, starting at 0), and the alerts are checked at every bin end, including those where
    none should fire: ``promtool test rules`` passes only if Prometheus fires exactly when
    :func:`budgetlab.alerts.episodes.alert_states` does.

    Returns
    -------
    dict
        ``rule_files``, ``evaluation_interval`` and one test with ``input_series`` (two per
        group) and ``alert_rule_test`` (one entry per bin end, ``exp_alerts`` listing every
        firing tier with its labels and annotations).

    Examples
    --------
    >>> from budgetlab.events.schema import as_events
    >>> from budgetlab.windows.bins import bin_events
    >>> ev = as_events(pd.date_range("2026-01-01", periods=6, freq="1min"), [True, False, False, True, True, True])
    >>> t = promtool_test(bin_events(ev, "1min"), SLO(0.9, "1D"), AlertPolicy.single_window("2min", burn=4),
    ...                   total_metric="req_total", errors_metric="err_total", name="demo")
    >>> [s["values"] for s in t["tests"][0]["input_series"]]
    ['0 1 2 3 4 5 6', '0 0 1 2 2 2 2']
    >>> # 2-minute error ratios at 1m..6m: 0/1, 1/2, 2/2, 1/2, 0/2, 0/2; threshold 4 x 0.1 = 0.4
    >>> [(a["eval_time"], len(a["exp_alerts"])) for a in t["tests"][0]["alert_rule_test"]]
    [('1m', 0), ('2m', 1), ('3m', 1), ('4m', 1), ('5m', 0), ('6m', 0)]
    """
    if style not in STYLES:
        raise ConfigError(f"style={style!r} is not valid; use 'budgetlab' or 'sloth'.")
    if selector is not None and not isinstance(selector, Mapping):
        raise ConfigError("promtool_test needs selector= as a mapping of label values (the series get those labels).")
    _metric(total_metric, "total_metric")
    _metric(errors_metric, "errors_metric")
    if total_metric == errors_metric:
        raise ConfigError("promtool_test needs two counters: give different total_metric and errors_metric.")
    grid = read_bins(bins, freq=freq)
    step_ns = grid.freq_ns
    step = _prom_duration(pd.Timedelta(step_ns, unit="ns"), "freq")
    prepared = _prepare(slos, policy, selector=selector, selector_labels=selector_labels, service=service,
                        name=name)
    base = dict(selector or {})
    series: list[dict[str, str]] = []
    seen_groups: set[int] = set()
    n = grid.n_bins
    expected: list[list[dict[str, Any]]] = [[] for _ in range(n)]
    for s in prepared:
        if grid.by:
            missing = [k for k in grid.by if k not in s.group_labels]
            if missing:
                raise ConfigError(f"the bins are grouped by {', '.join(grid.by)}: pass selector_labels with these keys "
                                  "and SLOs labelled with them.")
            hit = np.ones(grid.n_groups, dtype=bool)
            for k in grid.by:
                hit &= grid.keys[k].astype(str).to_numpy() == s.group_labels[k]
            idx = np.flatnonzero(hit)
            if len(idx) != 1:
                raise ConfigError(f"SLO {s.doc.name!r} matches no group of the bins; check its labels.")
            g = int(idx[0])
        else:
            if len(prepared) != 1:
                raise ConfigError("ungrouped bins take exactly one SLO.")
            g = 0
        labels = {**base, **s.group_labels}
        if g not in seen_groups:
            seen_groups.add(g)
            for metric, counts in zip((total_metric, errors_metric), (d[0] for d in grid.dense(g, g + 1)), strict=True):
                cum = np.concatenate([[0], np.cumsum(counts)])
                series.append({"series": metric + _selector_text(_matchers(labels, "selector")),
                               "values": " ".join(map(str, cum.tolist()))})
        for tier in s.policy.tiers:
            for w in tier.windows:
                window_bins(w, step_ns, name=f"tier {tier.name} window")
        states = alert_states(grid.select([g]), s.doc.slo, s.policy)
        firing = states["firing"].to_numpy().reshape(len(s.policy.tiers), n)
        if style == "sloth":  # one alert per severity: the OR of its tiers' states
            if any(t.for_ > pd.Timedelta(0) or t.cooldown > pd.Timedelta(0) for t in s.policy.tiers):
                raise ConfigError("promtool_test with style='sloth' needs tiers without for_ and cooldown (the OR of "
                                  "the tiers is then the OR of budgetlab's per-tier states).")
            index = {t.name: j for j, t in enumerate(s.policy.tiers)}
            for sev, ts in severity_groups(s.policy.tiers):
                entry = {"exp_labels": sloth_alert_labels(s.ids, sev), "exp_annotations": sloth_alert_annotations(sev, s.ids)}
                any_firing = np.logical_or.reduce([firing[index[t.name]] for t in ts])
                for i in np.flatnonzero(any_firing).tolist():
                    expected[i].append(entry)
            continue
        for j, tier in enumerate(s.policy.tiers):
            entry = {"exp_labels": _alert_labels(s, tier),
                     "exp_annotations": _alert_annotations(s, tier)}
            for i in np.flatnonzero(firing[j]).tolist():
                expected[i].append(entry)
    tests = [{"eval_time": _prom_duration(pd.Timedelta((i + 1) * step_ns, unit="ns"), "eval_time"),
              "alertname": alert_name, "exp_alerts": expected[i]} for i in range(n)]
    return {"rule_files": [rule_file], "evaluation_interval": step,
            "tests": [{"interval": step, "input_series": series, "alert_rule_test": tests}]}


def promtool_path() -> str | None:
    """Path of Prometheus's ``promtool`` on ``PATH``, or ``None``."""
    return shutil.which("promtool")


def run_promtool(*args: str, cwd: str | os.PathLike[str] | None = None,
                 timeout: float = 120.0) -> subprocess.CompletedProcess[str]:
    """Run ``promtool ARGS`` and return the finished process (it does not raise on failure).

    >>> import budgetlab.interop.prometheus as bp
    >>> bp.promtool_path() is None or bp.run_promtool("--version").returncode == 0
    True
    """
    exe = promtool_path()
    if exe is None:
        raise ConfigError("promtool was not found on PATH; install Prometheus (Debian: apt-get install prometheus).")
    return subprocess.run([exe, *args], cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False)
