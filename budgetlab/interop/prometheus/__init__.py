"""Prometheus rule files for SLOs and alert policies (:mod:`.rules`, Sloth's layout in
:mod:`budgetlab.interop.sloth_rules`), and promtool unit tests that check them
(:mod:`.promtool`)."""

from __future__ import annotations

from .promtool import promtool_path, promtool_test, run_promtool
from .rules import (
    POLICY_PRESETS,
    STYLES,
    prometheus_rules,
    resolve_policy,
    to_prometheus_yaml,
    write_prometheus_rules,
)

__all__ = ["POLICY_PRESETS", "STYLES", "resolve_policy", "prometheus_rules", "to_prometheus_yaml",
           "write_prometheus_rules", "promtool_test", "run_promtool", "promtool_path"]
