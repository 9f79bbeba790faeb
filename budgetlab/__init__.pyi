"""What type checkers see of ``budgetlab`` (its names are imported on first use at run time).

Generated from ``_EXPORTS``, ``_MODULES`` and ``budgetlab.errors.__all__`` by
``python tests/test_public_api.py``; do not edit."""

from . import alerts as alerts
from . import analyses as analyses
from . import budget as budget
from . import cli as cli
from . import datasets as datasets
from . import errors as errors
from . import events as events
from . import interop as interop
from . import plotting as plotting
from . import slo as slo
from . import windows as windows
from .alerts.episodes import alert_episodes as alert_episodes
from .alerts.episodes import alert_states as alert_states
from .alerts.incident_scopes import hash_scope as hash_scope
from .alerts.incidents_file import read_incidents as read_incidents
from .alerts.lowtraffic import low_traffic as low_traffic
from .alerts.policy import AlertPolicy as AlertPolicy
from .alerts.scoring import compare_policies as compare_policies
from .alerts.scoring import incident_detections as incident_detections
from .alerts.scoring import score_alerts as score_alerts
from .alerts.tier import AlertTier as AlertTier
from .analyses.bucket_burn import bucket_burn_over_time as bucket_burn_over_time
from .analyses.count_verdicts import cause_verdict as cause_verdict
from .analyses.count_verdicts import page_verdict as page_verdict
from .analyses.failure_buckets import bucket_breakdown as bucket_breakdown
from .analyses.incident import IncidentReport as IncidentReport
from .analyses.incident import incident_report as incident_report
from .analyses.latency_profile import LatencyProfile as LatencyProfile
from .analyses.latency_profile import latency_profile as latency_profile
from .analyses.latency_recalibration import LatencyRecalibration as LatencyRecalibration
from .analyses.latency_recalibration import latency_recalibrate as latency_recalibrate
from .analyses.recalibration import Recalibration as Recalibration
from .analyses.recalibration import recalibrate as recalibrate
from .analyses.recalibration.options import RecalibrationOptions as RecalibrationOptions
from .analyses.status_variants import hysteresis as hysteresis
from .analyses.status_variants import replay_calendar as replay_calendar
from .analyses.timeout_tradeoff import timeout_tradeoff as timeout_tradeoff
from .analyses.verdicts import Verdict as Verdict
from .analyses.verdicts import target_verdicts as target_verdicts
from .analyses.verdicts import verdicts_table as verdicts_table
from .analyses.window_lengths import compare_windows as compare_windows
from .analyses.window_lengths import window_incidents as window_incidents
from .analyses.window_options import WindowOptions as WindowOptions
from .budget.burn import burn_rate_chunks as burn_rate_chunks
from .budget.burn import burn_rates as burn_rates
from .budget.episodes import status_episodes as status_episodes
from .budget.figures import STATUS_DTYPE as STATUS_DTYPE
from .budget.period import period_budget as period_budget
from .budget.spans import SPAN_STATUS_DTYPE as SPAN_STATUS_DTYPE
from .budget.spans import SPAN_STATUSES as SPAN_STATUSES
from .budget.spans import silences as silences
from .budget.spans import status_spans as status_spans
from .budget.status_changes import replay_transitions as replay_transitions
from .budget.status_changes import transitions as transitions
from .budget.stream import Tracker as Tracker
from .budget.summary import replay_summary as replay_summary
from .budget.tracker import KeyedTracker as KeyedTracker
from .budget.tracker_replay import replay as replay
from .datasets import synth as synth
from .errors import BudgetlabError as BudgetlabError
from .errors import BudgetlabWarning as BudgetlabWarning
from .errors import ConfigError as ConfigError
from .errors import DatasetError as DatasetError
from .errors import FileFormatError as FileFormatError
from .errors import InputError as InputError
from .errors import NotebookError as NotebookError
from .errors import NoTrafficError as NoTrafficError
from .errors import OutcomeError as OutcomeError
from .errors import OutputExistsError as OutputExistsError
from .errors import PartialWindowWarning as PartialWindowWarning
from .errors import PersonalDataError as PersonalDataError
from .errors import PersonalDataWarning as PersonalDataWarning
from .errors import SchemaError as SchemaError
from .errors import ServerError as ServerError
from .errors import TimestampError as TimestampError
from .events.accesslog import read_access_log as read_access_log
from .events.how_read import how_read as how_read
from .events.read import read_events as read_events
from .events.schema import as_events as as_events
from .events.schema import check_events as check_events
from .events.spec import ReadSpec as ReadSpec
from .interop.openslo import SLODocument as SLODocument
from .interop.openslo import load_slos as load_slos
from .interop.openslo import read_openslo as read_openslo
from .interop.openslo import read_recalibration_table as read_recalibration_table
from .interop.openslo import slos_from_recalibration as slos_from_recalibration
from .interop.openslo import write_openslo as write_openslo
from .interop.prometheus import prometheus_rules as prometheus_rules
from .interop.prometheus import promtool_test as promtool_test
from .interop.prometheus_source import read_prometheus as read_prometheus
from .slo import SLO as SLO
from .slo import PerGroup as PerGroup
from .slo import table_slo as table_slo
from .windows.binning import bin_events as bin_events

__version__: str
__all__ = [
    "BudgetlabError",
    "ConfigError",
    "InputError",
    "SchemaError",
    "TimestampError",
    "NoTrafficError",
    "OutcomeError",
    "FileFormatError",
    "PersonalDataError",
    "OutputExistsError",
    "DatasetError",
    "NotebookError",
    "ServerError",
    "BudgetlabWarning",
    "PartialWindowWarning",
    "PersonalDataWarning",
    "synth",
    "datasets",
    "SLO",
    "PerGroup",
    "table_slo",
    "as_events",
    "check_events",
    "read_events",
    "ReadSpec",
    "how_read",
    "read_access_log",
    "bin_events",
    "STATUS_DTYPE",
    "replay",
    "replay_summary",
    "replay_transitions",
    "transitions",
    "SPAN_STATUS_DTYPE",
    "SPAN_STATUSES",
    "status_spans",
    "silences",
    "status_episodes",
    "Tracker",
    "KeyedTracker",
    "burn_rates",
    "burn_rate_chunks",
    "period_budget",
    "AlertPolicy",
    "AlertTier",
    "alert_episodes",
    "alert_states",
    "score_alerts",
    "incident_detections",
    "compare_policies",
    "low_traffic",
    "read_incidents",
    "hash_scope",
    "bucket_breakdown",
    "bucket_burn_over_time",
    "IncidentReport",
    "incident_report",
    "Recalibration",
    "recalibrate",
    "RecalibrationOptions",
    "LatencyProfile",
    "latency_profile",
    "LatencyRecalibration",
    "latency_recalibrate",
    "timeout_tradeoff",
    "Verdict",
    "target_verdicts",
    "page_verdict",
    "cause_verdict",
    "verdicts_table",
    "compare_windows",
    "window_incidents",
    "WindowOptions",
    "replay_calendar",
    "hysteresis",
    "SLODocument",
    "read_openslo",
    "load_slos",
    "read_recalibration_table",
    "write_openslo",
    "slos_from_recalibration",
    "prometheus_rules",
    "promtool_test",
    "read_prometheus",
]

def __dir__() -> list[str]: ...
