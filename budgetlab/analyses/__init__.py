"""Analyses: SLO recalibration, window-length comparison, failure buckets, incident replay,
latency."""

from __future__ import annotations

from .bucket_burn import bucket_burn_over_time
from .count_verdicts import cause_verdict, page_verdict
from .failure_buckets import bucket_breakdown
from .incident import IncidentReport, incident_report
from .latency_profile import LatencyProfile, latency_profile
from .latency_recalibration import LatencyRecalibration, latency_recalibrate
from .recalibration import Recalibration, RecalibrationOptions, recalibrate
from .recalibration.wilson import wilson_interval
from .status_variants import hysteresis, replay_calendar
from .timeout_tradeoff import timeout_tradeoff
from .verdicts import Verdict, target_verdicts, verdicts_table
from .window_lengths import compare_windows, window_incidents
from .window_options import WindowOptions

__all__ = ["bucket_breakdown", "bucket_burn_over_time", "IncidentReport", "incident_report",
           "Recalibration",
           "RecalibrationOptions", "recalibrate", "wilson_interval", "compare_windows",
           "hysteresis", "replay_calendar",
           "window_incidents", "WindowOptions",
           "Verdict", "target_verdicts", "page_verdict", "cause_verdict", "verdicts_table",
           "LatencyProfile",
           "latency_profile", "LatencyRecalibration", "latency_recalibrate", "timeout_tradeoff"]
