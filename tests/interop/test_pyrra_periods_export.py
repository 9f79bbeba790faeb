"""Exported rules of two SLOs whose periods differ, under ``--policy pyrra``: the names meet, the
rules stay apart. Pyrra itself labels each alert ``slo``, ``severity``, ``long`` and ``short``
(``slo/rules.go``), so its 28 d and 7 d SLOs both have a ``severity="warning", long="1d"``
alert, told apart by ``slo``; budgetlab's rules carry ``sloth_slo`` and ``tier`` the same way.
A pin (it passes on the code before stop 55 too): the export is one rule group per SLO, and no
table merges them. Burns by hand from Pyrra's ``Windows()``: at 28 d the 1d/2h tier is x2, at
7 d the 1d/1h30m tier (7 d / 7, 7 d / 112) is x1."""

from __future__ import annotations

import pytest

from budgetlab import SLO
from budgetlab.interop.openslo import SLODocument
from budgetlab.interop.prometheus import prometheus_rules, run_promtool, write_prometheus_rules

METRICS = {"total_metric": "req_total", "errors_metric": "err_total"}
DOCS = [SLODocument("ams", SLO(0.99, period="28D"), labels={"region": "ams"}),
        SLODocument("fra", SLO(0.99, period="7D"), labels={"region": "fra"})]


def _alerts(rules):
    return [r for g in rules["groups"] for r in g["rules"] if "alert" in r]


def test_one_tier_name_in_two_slos_is_two_rules_told_apart_by_the_slo():
    rules = prometheus_rules(DOCS, "pyrra", selector_labels=["region"], **METRICS)
    alerts = _alerts(rules)
    keys = [(a["labels"]["sloth_slo"], a["labels"]["tier"]) for a in alerts]
    assert len(set(keys)) == len(keys) == 8
    both = [a for a in alerts if a["labels"]["tier"] == "warning_1d"]
    assert [(a["labels"]["sloth_slo"], a["annotations"]["summary"]) for a in both] == [
        ("ams", "SLO ams of budgetlab: error budget burn rate above 2 over 1d and 2h"),
        ("fra", "SLO fra of budgetlab: error budget burn rate above 1 over 1d and 1h30m")]
    assert [a["for"] for a in both] == ["1h", "45m"]


@pytest.mark.promtool
@pytest.mark.usefixtures("promtool")
def test_promtool_checks_the_two_slos_rules(tmp_path):
    rules = prometheus_rules(DOCS, "pyrra", selector_labels=["region"], **METRICS)
    write_prometheus_rules(rules, tmp_path / "r.yaml")
    proc = run_promtool("check", "rules", str(tmp_path / "r.yaml"))
    assert proc.returncode == 0 and "SUCCESS: 26 rules found" in proc.stdout, (
        proc.stderr + proc.stdout)
