"""Interop: OpenSLO documents, Prometheus rule files and the Prometheus source."""

from __future__ import annotations

from .openslo import SLODocument, read_openslo, slos_from_recalibration, write_openslo
from .prometheus import prometheus_rules, promtool_test
from .prometheus_source import read_prometheus

__all__ = ["SLODocument", "read_openslo", "slos_from_recalibration", "write_openslo",
           "prometheus_rules", "promtool_test",
           "read_prometheus"]
