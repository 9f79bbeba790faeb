"""Sloth-style rule files (``style="sloth"``, issue 18): Sloth's alert grouping, labels and meta
recordings, checked against Sloth's own generated example and by promtool."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from budgetlab import SLO, ConfigError
from budgetlab.alerts.policy import AlertPolicy
from budgetlab.alerts.tier import AlertTier
from budgetlab.cli import main
from budgetlab.events.schema import as_events
from budgetlab.interop.openslo import read_openslo
from budgetlab.interop.prometheus import (
    prometheus_rules,
    promtool_test,
    run_promtool,
    write_prometheus_rules,
)
from budgetlab.windows.binning import bin_events

SLOTH = Path(__file__).parents[1] / "fixtures" / "sloth"
METRICS = {"total_metric": "req_total", "errors_metric": "err_total"}
START = pd.Timestamp("2026-03-02", tz="UTC")


#: A Pyrra ServiceLevelObjective (99 % over 28 d, errors = code 500 of t_total)
PYRRA = """apiVersion: pyrra.dev/v1alpha1
kind: ServiceLevelObjective
metadata: {name: api, namespace: web}
spec:
  target: "99"
  window: 28d
  indicator: {ratio: {errors: {metric: 'e_total{code="500"}'}, total: {metric: t_total}}}
"""


def _rules(**kw):
    (doc,) = read_openslo(SLOTH / "openslo-getting-started.yml")
    return doc, prometheus_rules(doc, "sloth", style="sloth", **METRICS, **kw)["groups"][0]["rules"]


def test_sloth_style_has_sloths_recording_names_and_labels():
    # Sloth's own output for the same spec: tests/fixtures/sloth/_gen__openslo-getting-started.yml
    gen = yaml.safe_load((SLOTH / "_gen__openslo-getting-started.yml").read_text())
    sloth_records = [r["record"] for g in gen["groups"] for r in g["rules"] if "record" in r]
    doc, rules = _rules()
    ours = [r["record"] for r in rules if "record" in r]
    assert ours == sloth_records  # same names, same order: windows, period, meta recordings
    ids = {"sloth_id": "my-service-sloth-slo-my-service-0", "sloth_service": "my-service",
           "sloth_slo": "sloth-slo-my-service-0"}
    sloth_labels = {r["record"]: {k: v for k, v in r["labels"].items() if k != "cmd"}
                    for g in gen["groups"] for r in g["rules"] if "record" in r}
    for r in rules:
        if "record" in r:
            want = dict(sloth_labels[r["record"]])
            # who wrote it: Sloth names itself, budgetlab itself; the spec read is Sloth's
            # (openslo/v1alpha, the file's apiVersion)
            if r["record"] == "sloth_slo_info":
                assert {k: r["labels"][k] for k in ("sloth_mode", "sloth_version")} == {
                    "sloth_mode": "budgetlab", "sloth_version": "budgetlab"}
                want = {k: v for k, v in want.items() if k not in ("sloth_mode", "sloth_version")}
                got = {k: v for k, v in r["labels"].items() if k not in ("sloth_mode",
                                                                         "sloth_version")}
                assert got == want and got["sloth_spec"] == "openslo/v1alpha"
            else:
                assert r["labels"] == want, r["record"]
    assert {k: v for k, v in rules[0]["labels"].items() if k != "sloth_window"} == ids


def test_sloth_slo_info_names_the_spec_read():
    # Sloth writes the spec it read (prometheus/v1 in its _gen__getting-started.yml); a Pyrra or
    # OpenSLO v1 file is named by its apiVersion, an SLO built in Python as OpenSLO v1
    pyrra = PYRRA
    for source, spec in ((SLOTH / "getting-started.yml", "prometheus/v1"),
                         (pyrra, "pyrra.dev/v1alpha1"), (SLO(0.99, "1D"), "openslo/v1")):
        docs = read_openslo(source) if not isinstance(source, SLO) else source
        rules = prometheus_rules(docs, "sloth", style="sloth", name="x", **METRICS)
        info = [r for r in rules["groups"][0]["rules"] if r.get("record") == "sloth_slo_info"]
        assert info[0]["labels"]["sloth_spec"] == spec


def test_sloth_style_objective_is_the_decimal_target_not_sloths_rounding():
    _, rules = _rules()
    by = {r.get("record"): r for r in rules}
    # Sloth writes vector(0.9990000000000001) (99.9 / 100); budgetlab the target's own double
    assert by["slo:objective:ratio"]["expr"] == "vector(0.999)"
    assert by["slo:error_budget:ratio"]["expr"] == "vector(1 - 0.999)"
    assert by["slo:time_period:days"]["expr"] == "vector(30)"
    assert by["sloth_slo_info"]["labels"]["sloth_objective"] == "99.9"
    assert "slo:sli_error:ratio_rate5m{" in by["slo:current_burn_rate:ratio"]["expr"]
    assert "slo:sli_error:ratio_rate30d{" in by["slo:period_burn_rate:ratio"]["expr"]
    assert by["slo:period_error_budget_remaining:ratio"]["expr"].startswith(
        "1 - slo:period_burn_rate:ratio{"
    )
    # the period ratio is the exact errors / total over 30 days
    assert (
        by["slo:sli_error:ratio_rate30d"]["expr"]
        == "sum(increase(err_total[30d]))\n/\nsum(increase(req_total[30d]))\n"
    )


def test_sloth_style_one_alert_per_severity_tiers_ored():
    _, rules = _rules()
    alerts = [r for r in rules if "alert" in r]
    assert [a["labels"]["sloth_severity"] for a in alerts] == ["page", "ticket"]
    for a in alerts:
        assert a["labels"]["sloth_id"] == "my-service-sloth-slo-my-service-0"
        assert "severity" not in a["labels"] and "tier" not in a["labels"]
        assert a["expr"].count("\nor\n") == 1 and a["expr"].count("\nand\n") == 2
    # page: 14.4 over 1h/5m OR 6 over 6h/30m (Sloth's google-30d windows)
    assert ("> (14.4 * (1 - "
            "0.999))") in alerts[0]["expr"] and ("> (6.0 * (1 - "
                                                              "0.999))") in alerts[0]["expr"]
    assert alerts[0]["annotations"]["title"] == (
        "(page) {{$labels.sloth_service}} {{$labels.sloth_slo}} SLO error budget burn rate is too "
        "fast.")


def test_sloth_style_refuses_tiers_of_one_severity_with_different_for():
    pol = AlertPolicy((AlertTier("a", "page", "1h", "5min", 14.4, for_="2min"),
                       AlertTier("b", "page", "6h", "30min", 6.0)), period="30D", name="p")
    with pytest.raises(ConfigError, match="different for_/cooldown"):
        prometheus_rules(SLO(0.99), pol, style="sloth", **METRICS)
    # Pyrra's tiers have different for:
    with pytest.raises(ConfigError, match="the 'critical' tiers"):
        prometheus_rules(SLO(0.99), "pyrra", style="sloth", **METRICS)
    with pytest.raises(ConfigError, match="style='nope'"):
        prometheus_rules(SLO(0.99), pol, style="nope", **METRICS)


@pytest.mark.promtool
@pytest.mark.usefixtures("promtool")
def test_sloth_style_passes_promtool_check_rules(tmp_path):
    for preset in ("sloth", "workbook", "single_window"):
        rules = prometheus_rules(SLO(0.999, "1D"), preset, style="sloth", name="solve", **METRICS)
        write_prometheus_rules(rules, tmp_path / "r.yaml", force=True)
        proc = run_promtool("check", "rules", str(tmp_path / "r.yaml"))
        assert proc.returncode == 0 and "SUCCESS" in proc.stdout and not proc.stderr, (
            proc.stderr + proc.stdout
        )


@pytest.mark.promtool
@pytest.mark.usefixtures("promtool")
def test_sloth_style_alerts_fire_at_the_same_minutes_as_budgetlab(tmp_path):
    rng = np.random.default_rng(5)
    counts = rng.poisson(20, 6 * 60)
    minute = np.repeat(np.arange(6 * 60), counts)
    p = np.full(6 * 60, 0.002)
    p[30:60] = 0.4
    p[200:280] = 0.03
    ts = START + pd.to_timedelta(minute * 60 + rng.uniform(0, 60, counts.sum()), unit="s")
    ev = as_events(ts, rng.random(counts.sum()) >= p[minute])
    bins = bin_events(ev, "1min", start=START, end=START + pd.Timedelta("6h"))
    slo, pol = SLO(0.99, "30D"), AlertPolicy.workbook("30D")
    rules = prometheus_rules(slo, pol, style="sloth", name="solve", **METRICS)
    write_prometheus_rules(rules, tmp_path / "rules.yaml", force=True)
    test = promtool_test(bins, slo, pol, style="sloth", name="solve", **METRICS)
    firing = sum(len(e["exp_alerts"]) for e in test["tests"][0]["alert_rule_test"])
    assert 0 < firing < 2 * 360  # alerts fire, and not all the time
    write_prometheus_rules(test, tmp_path / "test.yaml", force=True)
    proc = run_promtool("test", "rules", str(tmp_path / "test.yaml"))
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]


@pytest.mark.promtool
@pytest.mark.usefixtures("promtool")
def test_cli_export_prometheus_style_sloth_with_check(tmp_path, capsys):
    out = tmp_path / "rules.yaml"
    assert main(["export", "prometheus", "--slo", str(SLOTH / "openslo-kubernetes-apiserver.yml"),
                 "--policy", "sloth",
                 "--style", "sloth", "--check", str(out)]) == 0
    assert "promtool check rules: ok" in capsys.readouterr().out
    groups = yaml.safe_load(out.read_text())["groups"]
    assert len(groups) == 3
    assert all(sum(r.get("record") == "sloth_slo_info" for r in g["rules"]) == 1 for g in groups)
