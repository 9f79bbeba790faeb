"""Interop: OpenSLO documents and Prometheus rule files."""

from __future__ import annotations

from .openslo import SLODocument, read_openslo, slos_from_recalibration, write_openslo
from .prometheus import prometheus_rules, promtool_test

__all__ = ["SLODocument", "read_openslo", "slos_from_recalibration", "write_openslo", "prometheus_rules", "promtool_test"]
