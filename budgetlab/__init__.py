"""budgetlab: offline analytics for SLO error budgets.

events -> windows -> budget/status -> alerts -> analyses -> plots.
"""

from __future__ import annotations

from . import datasets, synth
from .accesslog import read_access_log
from .alerts import alert_episodes, alert_states
from .bins import bin_events
from .buckets import bucket_breakdown, bucket_burn_over_time
from .burn import burn_rates
from .compare import compare_windows, hysteresis, replay_calendar, window_incidents
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

# --- feature modules: one import line each (isort order; __all__ below follows the data flow) ---
from .events import read_events
from .incident import IncidentReport, incident_report
from .lowtraffic import low_traffic
from .openslo import SLODocument, read_openslo, slos_from_recalibration, write_openslo
from .period import period_budget
from .policy import AlertPolicy, AlertTier
from .prometheus import prometheus_rules, promtool_test
from .recalibrate import Recalibration, recalibrate
from .replay import STATUS_DTYPE, replay, replay_summary, transitions
from .schema import as_events, check_events
from .scoring import compare_policies, incident_detections, score_alerts
from .slo import SLO
from .tracker import Tracker

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
