"""Prometheus rule files for SLOs and alert policies (:mod:`.rules`, Sloth's layout in
:mod:`budgetlab.interop.sloth_rules`; the SLOs they are written for and their alerts' labels in
:mod:`.rule_slos`), and promtool unit tests that check them (:mod:`.promtool`)."""

from __future__ import annotations

from .promtool import promtool_path, promtool_test, run_promtool
from .rule_slos import POLICY_PRESETS, resolve_policy
from .rules import STYLES, prometheus_rules, to_prometheus_yaml, write_prometheus_rules

__all__ = ["POLICY_PRESETS", "STYLES", "resolve_policy", "prometheus_rules", "to_prometheus_yaml",
           "write_prometheus_rules", "promtool_test", "run_promtool", "promtool_path"]
