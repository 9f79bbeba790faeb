"""promtool unit tests of the exported rules: :func:`promtool_test` turns a bins table into a
``promtool test rules`` file. The two counters are sampled once per bin (cumulative counts,
starting at 0) and, at every evaluation, the expected alerts are the exact set
:func:`budgetlab.alerts.episodes.alert_states` says are firing; ``promtool test rules`` then
checks that Prometheus fires the exported rules at the same minutes as budgetlab.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ...alerts.episodes import alert_states
from ...alerts.policy import AlertPolicy
from ...errors import ConfigError
from ...slo import SLO
from ...windows.bingrid import BinGrid
from ...windows.bins import read_bins, window_bins
from ..openslo import SLODocument
from ..promql import label_matchers, metric_name, prom_duration, selector_text
from ..sloth_rules import severity_groups, sloth_alert_rules
from .rule_slos import (
    RuleSLO,
    alert_annotations,
    alert_labels,
    prepare_slos,
    rule_alert_name,
    slo_rule_labels,
    sloth_alert_info,
    spec_alert_name,
)
from .rules import STYLES

__all__ = ["promtool_test", "run_promtool", "promtool_path"]


def _group_of(grid: BinGrid, s: RuleSLO, n_slos: int) -> int:
    """The group of the bins whose keys equal the SLO's ``selector_labels``."""
    if not grid.by:
        if n_slos != 1:
            raise ConfigError("ungrouped bins take exactly one SLO.")
        return 0
    if any(k not in s.group_labels for k in grid.by):
        one = len(grid.by) == 1
        raise ConfigError(f"the bins are grouped by {', '.join(grid.by)}: pass selector_labels "
                          f"with {'this key' if one else 'these keys'} and SLOs labelled with "
                          f"{'it' if one else 'them'}.")
    hit = np.ones(grid.n_groups, dtype=bool)
    for k in grid.by:
        hit &= grid.keys[k].astype(str).to_numpy() == s.group_labels[k]
    idx = np.flatnonzero(hit)
    if len(idx) != 1:
        raise ConfigError(f"SLO {s.doc.name!r} matches no group of the bins; check its labels.")
    return int(idx[0])


#: A Go template action in an alert's label or annotation: ``{{$labels.NAME}}`` is rendered.
_LABEL_ACTION = re.compile(r"\{\{-?\s*\$labels\.([A-Za-z_][A-Za-z0-9_]*)\s*-?\}\}")


def _expand(text: str, labels: Mapping[str, str], where: str) -> str:
    """``text`` as Prometheus renders an alert's label or annotation for a sample with
    ``labels`` (what ``promtool test rules`` compares): ``{{$labels.NAME}}`` is the sample's
    label; any other template (``$value``, a function) is refused, as it cannot be foreseen.

    >>> _expand("({{$labels.sloth_slo}}) {{ $labels.svc }}", {"sloth_slo": "a", "svc": "b c"}, "x")
    '(a) b c'
    """
    def label(m: re.Match[str]) -> str:
        if m.group(1) not in labels:
            raise ConfigError(f"promtool_test: {where} reads the label {m.group(1)!r}, which the "
                              "alert's expression does not yield.")
        return labels[m.group(1)]

    out = _LABEL_ACTION.sub(label, text)
    if "{{" in out:
        raise ConfigError(f"promtool_test: {where} holds a template other than "
                          "{{$labels.NAME}}, whose text a test cannot foresee; leave it out of "
                          "the alert policy of the SLOs given, or edit the test file.")
    return out


def _expected(name: str, rule_labels: Mapping[str, str], annotations: Mapping[str, str],
              sample: Mapping[str, str]) -> tuple[str, dict[str, Any]]:
    """``(alert name, expected alert)`` of an alerting rule whose expression yields a sample
    with the labels ``sample``: Prometheus adds the rule's labels to the sample's (the rule's
    win) and renders both labels and annotations with the sample's labels."""
    labels = {**sample, **{k: _expand(v, sample, f"the {name} alert's label {k!r}")
                           for k, v in rule_labels.items()}}
    return name, {"exp_labels": labels,
                  "exp_annotations": {k: _expand(v, sample, f"the {name} alert's annotation {k!r}")
                                      for k, v in annotations.items()}}


def _firing_entries(grid: BinGrid, s: RuleSLO, style: str, alert_name: str | None
                    ) -> list[tuple[str, dict[str, Any], np.ndarray]]:
    """``(alert name, expected alert, firing per bin end)`` of every alert the SLO's rules
    write, with the labels and annotations :func:`~.rules.prometheus_rules` gives it."""
    for tier in s.policy.tiers:
        for w in tier.windows:
            window_bins(w, grid.freq_ns, name=f"tier {tier.name} window")
    states = alert_states(grid, s.doc.slo, s.policy)
    firing = states["firing"].to_numpy().reshape(len(s.policy.tiers), grid.n_bins)
    # the labels of `max(recording > threshold) without (sloth_window)`: the recording's
    sample = {**slo_rule_labels(s, style), **s.ids}
    if style != "sloth":
        return [(*_expected(rule_alert_name(s, t, alert_name),
                            alert_labels(s, t), alert_annotations(s, t), sample), firing[j])
                for j, t in enumerate(s.policy.tiers)]
    # one alert per severity: the OR of its tiers' states
    if any(t.for_ > pd.Timedelta(0) or t.cooldown > pd.Timedelta(0) for t in s.policy.tiers):
        raise ConfigError("promtool_test with style='sloth' needs tiers without for_ and cooldown "
                          "(the OR of the tiers is then the OR of budgetlab's per-tier states).")
    index = {t.name: j for j, t in enumerate(s.policy.tiers)}
    rules = sloth_alert_rules(s.ids, s.policy.tiers, alert_name, lambda t: "",
                              info=sloth_alert_info(s), fallback=spec_alert_name(s))
    return [(*_expected(rule["alert"], rule["labels"], rule["annotations"], sample),
             np.logical_or.reduce([firing[index[t.name]] for t in ts]))
            for rule, (_, ts) in zip(rules, severity_groups(s.policy.tiers), strict=True)]


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
    alert_name: str | None = None,
    freq: Any = None,
    style: str = "budgetlab",
) -> dict[str, Any]:
    """A ``promtool test rules`` document: the bins as counters, budgetlab's firing alerts as
    the expected result at every evaluation.

    Give the keyword arguments used for :func:`~.rules.prometheus_rules` (whose ``interval``
    must be the bin width). Each SLO is matched to the group of the bins whose keys equal its
    ``selector_labels`` (ungrouped bins take exactly one SLO). Promtool's time 0 is the start of
    the first bin; the counters are sampled at every bin end (value: the events before that
    time, starting at 0), and the alerts are checked at every bin end, including those where
    none should fire: ``promtool test rules`` passes only if Prometheus fires exactly when
    :func:`budgetlab.alerts.episodes.alert_states` does.

    Each expected alert has the name, labels and annotations the rules give it, as Prometheus
    renders them: the labels its expression yields (in ``style="sloth"`` the SLO's
    ``metadata.labels`` too, which Sloth-style recordings carry) under the rule's own (the alert
    policy's labels, Sloth's ``page_alert``/``ticket_alert``), ``{{$labels.NAME}}`` filled in;
    an alert policy whose labels or annotations hold any other template is refused.

    Returns
    -------
    dict
        ``rule_files``, ``evaluation_interval`` and one test with ``input_series`` (two per
        group) and ``alert_rule_test`` (one entry per bin end and alert name, ``exp_alerts``
        listing every firing alert of that name with its labels and annotations).

    Examples
    --------
    >>> from budgetlab.events.schema import as_events
    >>> from budgetlab.windows.binning import bin_events
    >>> ev = as_events(pd.date_range("2026-01-01", periods=6, freq="1min"),
    ...                [True, False, False, True, True, True])
    >>> t = promtool_test(bin_events(ev, "1min"), SLO(0.9, "1D"),
    ...                   AlertPolicy.single_window("2min", burn=4),
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
        raise ConfigError("promtool_test needs selector= as a mapping of label values (the series "
                          "get those labels).")
    if metric_name(total_metric, "total_metric") == metric_name(errors_metric, "errors_metric"):
        raise ConfigError("promtool_test needs two counters: give different total_metric and "
                          "errors_metric.")
    grid = read_bins(bins, freq=freq)
    step_td = pd.Timedelta(grid.freq_ns, unit="ns")
    step = prom_duration(step_td, "freq")
    prepared = prepare_slos(slos, policy, selector=selector, selector_labels=selector_labels,
                            service=service, name=name)
    series: list[dict[str, str]] = []
    seen_groups: set[int] = set()
    # per alert name (in the order the rules write them), the expected alerts at each bin end
    expected: dict[str, list[list[dict[str, Any]]]] = {}
    for s in prepared:
        g = _group_of(grid, s, len(prepared))
        if g not in seen_groups:
            seen_groups.add(g)
            sel = selector_text(label_matchers({**(selector or {}), **s.group_labels}, "selector"))
            dense = grid.dense(g, g + 1)
            for metric, (counts,) in zip((total_metric, errors_metric), dense, strict=True):
                cum = np.concatenate([[0], np.cumsum(counts)])
                series.append({"series": metric + sel, "values": " ".join(map(str, cum.tolist()))})
        for title, entry, firing in _firing_entries(grid.select([g]), s, style, alert_name):
            at = expected.setdefault(title, [[] for _ in range(grid.n_bins)])
            for i in np.flatnonzero(firing).tolist():
                at[i].append(entry)
    tests = [{"eval_time": prom_duration((i + 1) * step_td, "eval_time"), "alertname": title,
              "exp_alerts": at[i]} for i in range(grid.n_bins) for title, at in expected.items()]
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
        raise ConfigError("promtool was not found on PATH; install Prometheus (Debian: apt-get "
                          "install prometheus).")
    return subprocess.run([exe, *args], cwd=cwd, capture_output=True, text=True, timeout=timeout,
                          check=False)
