"""Analyses: SLO recalibration, window-length comparison, failure buckets, incident replay."""

from __future__ import annotations

from .failure_buckets import bucket_breakdown, bucket_burn_over_time
from .incident import IncidentReport, incident_report
from .recalibration import Recalibration, recalibrate, wilson_interval
from .status_variants import hysteresis, replay_calendar
from .verdicts import Verdict, cause_verdict, page_verdict, target_verdicts, verdicts_table
from .window_lengths import compare_windows, window_incidents

__all__ = ["bucket_breakdown", "bucket_burn_over_time", "IncidentReport", "incident_report", "Recalibration",
           "recalibrate", "wilson_interval", "compare_windows", "hysteresis", "replay_calendar", "window_incidents",
           "Verdict", "target_verdicts", "page_verdict", "cause_verdict", "verdicts_table"]
