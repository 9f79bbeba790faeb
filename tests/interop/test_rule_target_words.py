"""Targets as written where ``:g`` printed 0.9999995 as 1: the alert description of exported
rules, and the recalibrate command ``budgetlab demo`` suggests."""

from __future__ import annotations

from budgetlab import SLO, prometheus_rules


def test_the_alert_description_names_the_target_as_written():
    rules = prometheus_rules(SLO(target=0.9999995, window="1h", period="30d"), "workbook",
                             total_metric="solves_total", errors_metric="solve_errors_total")
    described = [r["annotations"]["description"] for g in rules["groups"] for r in g["rules"]
                 if "alert" in r]
    assert described  # the workbook policy writes alerts
    # error budget 1 - 0.9999995 = 5e-07; the tier's burn times it is the ratio
    assert all(d.startswith("target 0.9999995: the error ratio exceeds ") for d in described)
    assert all("target 1:" not in d for d in described)


def test_the_demo_suggests_the_target_as_given(capsys):
    from budgetlab.cli import main

    assert main(["demo", "--target", "0.9999995"]) == 0
    suggested = [line for line in capsys.readouterr().out.splitlines()
                 if line.strip().startswith("budgetlab recalibrate ")]
    # the command on the sample with its targets, then the one for your own log (--slo)
    assert len(suggested) == 2 and " --target 0.9999995 " in suggested[0]
    assert "--target" not in suggested[1] and " --slo SLOS.yaml" in suggested[1]
