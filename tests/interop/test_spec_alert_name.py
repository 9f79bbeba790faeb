"""A Sloth spec's ``alerting.name`` names every alert ``export prometheus`` writes, whatever
--policy and --style (an SRE's report: with --policy workbook the file said
``alert: SLOErrorBudgetBurn`` on all 4 alerts while the output named AppHighErrorRate; an
Alertmanager route keyed on the spec's name would silently miss them)."""

from __future__ import annotations

import subprocess

import pytest
import yaml

from budgetlab.cli import main

# The SRE's spec (its alerting.name is the oracle: the name every alert must carry)
SPEC = """\
version: "prometheus/v1"
service: app
slos:
  - name: availability
    objective: 99.5
    sli:
      events:
        error_query: sum by (region) (rate(app_request_errors_total[{{.window}}]))
        total_query: sum by (region) (rate(app_requests_total[{{.window}}]))
    alerting:
      name: AppHighErrorRate
      page_alert: {labels: {severity: page}}
      ticket_alert: {labels: {severity: ticket}}
"""

# alerts per flags, by hand: workbook 4 tiers (budgetlab's style: one alert per tier), Sloth's
# own 2 tiers each a severity; in Sloth's style one alert per severity (page, ticket)
CASES = [([], 4), (["--policy", "workbook"], 4), (["--policy", "workbook", "--style", "sloth"], 2),
         (["--style", "sloth"], 2), (["--policy", "pyrra"], 4)]


def _export(tmp_path, flags, capsys):
    spec = tmp_path / "slo.yaml"
    spec.write_text(SPEC)
    out = tmp_path / "rules.yaml"
    capsys.readouterr()
    assert main(["export", "prometheus", "--slo", str(spec), *flags, str(out)]) == 0
    said = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("alert names:")]
    rules = [r for g in yaml.safe_load(out.read_text())["groups"] for r in g["rules"]
             if "alert" in r]
    return out, said, rules


@pytest.mark.parametrize(("flags", "n"), CASES)
def test_every_alert_carries_the_specs_alert_name(tmp_path, capsys, flags, n):
    _, said, rules = _export(tmp_path, flags, capsys)
    assert [r["alert"] for r in rules] == ["AppHighErrorRate"] * n
    assert said == ["alert names: AppHighErrorRate (the spec's alert name, on all its alerts; "
                    "--alert-name sets one)"]


def test_alert_name_still_wins(tmp_path, capsys):
    _, said, rules = _export(tmp_path, ["--policy", "workbook", "--alert-name", "Mine"], capsys)
    assert [r["alert"] for r in rules] == ["Mine"] * 4
    assert said == []


def test_promtool_accepts_the_rules(tmp_path, capsys, promtool):
    out, _, _ = _export(tmp_path, ["--policy", "workbook"], capsys)
    run = subprocess.run([promtool, "check", "rules", str(out)], capture_output=True, text=True,
                         check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    # the 7 windows of the 4 tiers (1h/5m, 6h/30m, 1d/2h, 3d/6h) recorded, 2 objective
    # recordings, 4 alerts
    assert "SUCCESS: 13 rules found" in run.stdout
