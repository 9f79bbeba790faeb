"""budgetlab: offline analytics for SLO error budgets.

The subpackages follow the data flow::

    events -> windows -> budget -> alerts -> analyses -> plotting, cli, notebooks
                                           interop (OpenSLO, Prometheus), datasets, scaleout (Dask)

Every public name below is re-exported here and imported on first use, so that ``import
budgetlab`` stays cheap (the command line answers ``--help`` before pandas is loaded).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

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

__version__ = "0.1.0"

# public name -> module that defines it (in data-flow order). To export a new name: one line here, the name in
# __all__ and its import in the TYPE_CHECKING block at the end (tests/cli/test_startup.py checks the three agree)
_EXPORTS: dict[str, str] = {
    "SLO": "slo",
    "PerGroup": "slo",
    "as_events": "events.schema",
    "check_events": "events.schema",
    "read_events": "events.read",
    "read_access_log": "events.accesslog",
    "bin_events": "windows.bins",
    "STATUS_DTYPE": "budget.tracker_replay",
    "replay": "budget.tracker_replay",
    "replay_summary": "budget.summary",
    "replay_transitions": "budget.tracker_replay",
    "transitions": "budget.tracker_replay",
    "SPAN_STATUS_DTYPE": "budget.spans",
    "SPAN_STATUSES": "budget.spans",
    "status_spans": "budget.spans",
    "silences": "budget.spans",
    "status_episodes": "budget.episodes",
    "Tracker": "budget.tracker",
    "KeyedTracker": "budget.tracker",
    "burn_rates": "budget.burn",
    "period_budget": "budget.period",
    "AlertPolicy": "alerts.policy",
    "AlertTier": "alerts.policy",
    "alert_episodes": "alerts.episodes",
    "alert_states": "alerts.episodes",
    "score_alerts": "alerts.scoring",
    "incident_detections": "alerts.scoring",
    "compare_policies": "alerts.scoring",
    "low_traffic": "alerts.lowtraffic",
    "read_incidents": "alerts.incidents_file",
    "bucket_breakdown": "analyses.failure_buckets",
    "bucket_burn_over_time": "analyses.failure_buckets",
    "IncidentReport": "analyses.incident",
    "incident_report": "analyses.incident",
    "Recalibration": "analyses.recalibration",
    "recalibrate": "analyses.recalibration",
    "LatencyProfile": "analyses.latency_profile",
    "latency_profile": "analyses.latency_profile",
    "LatencyRecalibration": "analyses.latency_recalibration",
    "latency_recalibrate": "analyses.latency_recalibration",
    "timeout_tradeoff": "analyses.timeout_tradeoff",
    "Verdict": "analyses.verdicts",
    "target_verdicts": "analyses.verdicts",
    "page_verdict": "analyses.verdicts",
    "cause_verdict": "analyses.verdicts",
    "verdicts_table": "analyses.verdicts",
    "compare_windows": "analyses.window_lengths",
    "window_incidents": "analyses.window_lengths",
    "replay_calendar": "analyses.status_variants",
    "hysteresis": "analyses.status_variants",
    "SLODocument": "interop.openslo",
    "read_openslo": "interop.openslo",
    "load_slos": "interop.openslo",
    "read_recalibration_table": "interop.openslo",
    "write_openslo": "interop.openslo",
    "slos_from_recalibration": "interop.openslo",
    "prometheus_rules": "interop.prometheus",
    "promtool_test": "interop.prometheus",
    "read_prometheus": "interop.prometheus_source",
}
# subpackages and modules reachable as attributes (``bl.datasets.load``, ``bl.plotting.timeline``), imported
# on first use like the names above; ``budgetlab.scaleout`` (alias ``budgetlab.dask``) needs the optional extra
# and is imported by name only
_MODULES: dict[str, str] = {
    "slo": "slo",
    "events": "events",
    "windows": "windows",
    "budget": "budget",
    "alerts": "alerts",
    "analyses": "analyses",
    "plotting": "plotting",
    "interop": "interop",
    "datasets": "datasets",
    "synth": "datasets.synth",
    "cli": "cli",
}

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
    "synth",
    "datasets",
    "SLO",
    "PerGroup",
    "as_events",
    "check_events",
    "read_events",
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
    "bucket_breakdown",
    "bucket_burn_over_time",
    "IncidentReport",
    "incident_report",
    "Recalibration",
    "recalibrate",
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


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        value = getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
    elif name in _MODULES:
        value = importlib.import_module(f".{_MODULES[name]}", __name__)
    else:
        raise AttributeError(f"module 'budgetlab' has no attribute {name!r}")
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__, *_MODULES})


if TYPE_CHECKING:  # what the lazy look-up resolves to, for type checkers and IDEs
    from . import alerts as alerts
    from . import analyses as analyses
    from . import budget as budget
    from . import cli as cli
    from . import datasets as datasets
    from . import events as events
    from . import interop as interop
    from . import plotting as plotting
    from . import slo as slo
    from . import windows as windows
    from .alerts.episodes import alert_episodes, alert_states
    from .alerts.incidents_file import read_incidents
    from .alerts.lowtraffic import low_traffic
    from .alerts.policy import AlertPolicy, AlertTier
    from .alerts.scoring import compare_policies, incident_detections, score_alerts
    from .analyses.failure_buckets import bucket_breakdown, bucket_burn_over_time
    from .analyses.incident import IncidentReport, incident_report
    from .analyses.latency_profile import LatencyProfile, latency_profile
    from .analyses.latency_recalibration import LatencyRecalibration, latency_recalibrate
    from .analyses.recalibration import Recalibration, recalibrate
    from .analyses.status_variants import hysteresis, replay_calendar
    from .analyses.timeout_tradeoff import timeout_tradeoff
    from .analyses.verdicts import (
        Verdict,
        cause_verdict,
        page_verdict,
        target_verdicts,
        verdicts_table,
    )
    from .analyses.window_lengths import compare_windows, window_incidents
    from .budget.burn import burn_rates
    from .budget.episodes import status_episodes
    from .budget.period import period_budget
    from .budget.spans import SPAN_STATUS_DTYPE, SPAN_STATUSES, silences, status_spans
    from .budget.summary import replay_summary
    from .budget.tracker import KeyedTracker, Tracker
    from .budget.tracker_replay import (
        STATUS_DTYPE,
        replay,
        replay_transitions,
        transitions,
    )
    from .datasets import synth
    from .events.accesslog import read_access_log
    from .events.read import read_events
    from .events.schema import as_events, check_events
    from .interop.openslo import (
        SLODocument,
        load_slos,
        read_openslo,
        read_recalibration_table,
        slos_from_recalibration,
        write_openslo,
    )
    from .interop.prometheus import prometheus_rules, promtool_test
    from .interop.prometheus_source import read_prometheus
    from .slo import SLO, PerGroup
    from .windows.bins import bin_events
