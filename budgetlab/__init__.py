"""budgetlab: offline analytics for SLO error budgets.

events -> windows -> budget/status -> alerts -> analyses -> plots.
"""

from __future__ import annotations

from .errors import (
    BudgetlabError,
    BudgetlabWarning,
    ConfigError,
    DatasetError,
    FileFormatError,
    InputError,
    OutcomeError,
    OutputExistsError,
    PartialWindowWarning,
    PersonalDataError,
    PersonalDataWarning,
    SchemaError,
    TimestampError,
)
from .schema import as_events, check_events
from .slo import SLO

# --- feature modules: one import line each (keep this block sorted by data flow) ---
from .events import read_events
from .accesslog import read_access_log
from . import synth
from . import datasets
from .replay import STATUS_DTYPE, replay, replay_summary, transitions
from .tracker import Tracker
from .bins import bin_events
from .burn import burn_rates
from .period import period_budget
from .policy import AlertPolicy, AlertTier
from .alerts import alert_episodes, alert_states
from .scoring import compare_policies, incident_detections, score_alerts
from .lowtraffic import low_traffic
from .buckets import bucket_breakdown, bucket_burn_over_time
from .incident import IncidentReport, incident_report
from .recalibrate import Recalibration, recalibrate
from .compare import compare_windows, hysteresis, replay_calendar, window_incidents
from .openslo import SLODocument, read_openslo, slos_from_recalibration, write_openslo
from .prometheus import prometheus_rules, promtool_test

__version__ = "0.1.0"

__all__ = [
    "BudgetlabError",
    "ConfigError",
    "DatasetError",
    "FileFormatError",
    "InputError",
    "OutcomeError",
    "OutputExistsError",
    "PersonalDataError",
    "SchemaError",
    "TimestampError",
    "BudgetlabWarning",
    "PartialWindowWarning",
    "PersonalDataWarning",
    "SLO",
    "as_events",
    "check_events",
    "read_events",
    "read_access_log",
    "synth",
    "datasets",
    "STATUS_DTYPE",
    "replay_summary",
    "replay",
    "transitions",
    "Tracker",
    "bin_events",
    "burn_rates",
    "period_budget",
    "AlertPolicy",
    "AlertTier",
    "alert_episodes",
    "alert_states",
    "score_alerts",
    "incident_detections",
    "compare_policies",
    "low_traffic",
    "bucket_breakdown",
    "bucket_burn_over_time",
    "IncidentReport",
    "incident_report",
    "Recalibration",
    "recalibrate",
    "compare_windows",
    "window_incidents",
    "replay_calendar",
    "hysteresis",
    "SLODocument",
    "read_openslo",
    "write_openslo",
    "slos_from_recalibration",
    "prometheus_rules",
    "promtool_test",
]
