"""promtool_test expects each alert with the name, labels and annotations the rules give it: in
Sloth's layout the SLO's labels (which its recordings carry) and the alert policy's labels and
annotations, rendered as Prometheus renders them (stranger's report, stop 55, item 1)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab import ConfigError
from budgetlab.events.schema import as_events
from budgetlab.interop.openslo import read_openslo
from budgetlab.interop.prometheus import (
    prometheus_rules,
    promtool_test,
    run_promtool,
    write_prometheus_rules,
)
from budgetlab.windows.binning import bin_events

START = pd.Timestamp("2026-03-02", tz="UTC")
KW = {"selector_labels": ["svc"], "total_metric": "t_total", "errors_metric": "e_total"}

# Two SLOs whose label svc holds a space and a leading "=", an alert name, the policy's labels
# and an annotation that reads a label of the alert's expression.
SPEC = """
version: prometheus/v1
service: web
labels: {owner: team-a}
slos:
  - name: a
    objective: 99
    labels: {svc: "alpha beta"}
    sli:
      events: {error_query: 'sum(rate(e[{{.window}}]))', total_query: 'sum(rate(t[{{.window}}]))'}
    alerting:
      name: ApiBurn
      labels: {category: availability}
      annotations: {runbook: "see {{ $labels.svc }}"}
      page_alert: {labels: {routing_key: team-a}}
      ticket_alert: {disable: true}
  - name: b
    objective: 99
    labels: {svc: "=eq"}
    sli:
      events: {error_query: 'sum(rate(e[{{.window}}]))', total_query: 'sum(rate(t[{{.window}}]))'}
    alerting:
      name: ApiBurn
      labels: {category: availability}
      annotations: {runbook: "see {{ $labels.svc }}"}
      page_alert: {labels: {routing_key: team-a}}
      ticket_alert: {disable: true}
"""


def _bins() -> pd.DataFrame:
    """One event a minute for 4 h in each group; "=eq" fails at minutes 60-89 only."""
    minutes = np.arange(240)
    ts = np.concatenate([START + pd.to_timedelta(minutes * 60 + 30, unit="s")] * 2)
    svc = np.repeat(["alpha beta", "=eq"], 240)
    ok = ~((svc == "=eq") & np.tile((minutes >= 60) & (minutes < 90), 2))
    return bin_events(as_events(ts, ok, groups={"svc": svc}), "1min", by=["svc"])


def _firing(test: dict) -> list[dict]:
    return [dict(a, alertname=e["alertname"], eval_time=e["eval_time"])
            for e in test["tests"][0]["alert_rule_test"] for a in e["exp_alerts"]]


def test_sloth_style_expects_the_slo_labels_and_the_policy_labels_and_annotations():
    docs = read_openslo(SPEC)
    test = promtool_test(_bins(), docs, rule_file="r.yaml", style="sloth", **KW)
    firing = _firing(test)
    # the page (1 h and 5 min above 14.4 x 0.01 = 0.144) fires for b only: 30 bad minutes of 60
    assert firing and {a["exp_labels"]["sloth_slo"] for a in firing} == {"b"}
    # written out by hand: what Prometheus gives the alert (promtool's "got" of the report)
    assert firing[0]["exp_labels"] == {
        "sloth_id": "web-b", "sloth_service": "web", "sloth_slo": "b", "sloth_severity": "page",
        "svc": "=eq", "owner": "team-a", "category": "availability", "routing_key": "team-a"}
    assert firing[0]["alertname"] == "ApiBurn"
    assert firing[0]["exp_annotations"] == {
        "title": "(page) web b SLO error budget burn rate is too fast.",
        "summary": "web b SLO error budget burn rate is over expected.", "runbook": "see =eq"}


def test_budgetlab_style_expects_the_alert_name_the_rules_write():
    test = promtool_test(_bins(), read_openslo(SPEC), rule_file="r.yaml", **KW)
    firing = _firing(test)
    assert firing and {a["alertname"] for a in firing} == {"ApiBurn"}
    assert {e["alertname"] for e in test["tests"][0]["alert_rule_test"]} == {"ApiBurn"}
    first = {a["exp_labels"]["tier"]: a for a in reversed(firing)}
    # page_slow: the 6 h window holds the 4 h so far, k bad of 60 + k > 6 x 0.01 from k = 4
    # (bad minutes 60-63, evaluated at 64 min); page_quick: k of 60 > 0.144 from k = 9 (69 min)
    assert {t: a["eval_time"] for t, a in first.items()} == {"page_slow": "1h4m",
                                                             "page_quick": "1h9m"}
    assert first["page_quick"]["exp_labels"] == {
        "sloth_id": "web-b", "sloth_service": "web", "sloth_slo": "b", "severity": "page",
        "tier": "page_quick"}


def test_a_template_promtool_cannot_foresee_is_refused():
    docs = read_openslo(SPEC.replace("see {{ $labels.svc }}", "burn {{ $value }}"))
    with pytest.raises(ConfigError, match=r"annotation 'runbook' holds a template other than"):
        promtool_test(_bins(), docs, rule_file="r.yaml", style="sloth", **KW)


@pytest.mark.promtool
@pytest.mark.usefixtures("promtool")
@pytest.mark.parametrize("style", ["sloth", "budgetlab"])
def test_promtool_passes_with_labelled_slos_and_sloths_alerting(tmp_path, style):
    docs = read_openslo(SPEC)
    write_prometheus_rules(prometheus_rules(docs, style=style, **KW), tmp_path / "r.yaml")
    test = promtool_test(_bins(), docs, rule_file="r.yaml", style=style, **KW)
    assert _firing(test)
    write_prometheus_rules(test, tmp_path / "t.yaml")
    proc = run_promtool("test", "rules", str(tmp_path / "t.yaml"), cwd=tmp_path)
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
