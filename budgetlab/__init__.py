"""budgetlab: offline analytics for SLO error budgets.

The subpackages follow the data flow::

    events -> windows -> budget -> alerts -> analyses -> plotting, cli, notebooks
                                           interop (OpenSLO, Prometheus), datasets, dask

Every public name below is re-exported here and imported on first use, so that ``import
budgetlab`` stays cheap (the command line answers ``--help`` before pandas is loaded).
"""

from __future__ import annotations

import importlib
from typing import Any

from . import errors

__version__ = "0.1.0"

# public name -> module that defines it (in data-flow order): the public surface, written once. To
# export a new name: one line here, then `python tests/test_public_api.py` regenerates the type
# checkers' stub (__init__.pyi)
_EXPORTS: dict[str, str] = {
    "SLO": "slo",
    "PerGroup": "slo",
    "table_slo": "slo",
    "as_events": "events.schema",
    "check_events": "events.schema",
    "read_events": "events.read",
    "ReadSpec": "events.spec",
    "how_read": "events.how_read",
    "read_access_log": "events.accesslog",
    "bin_events": "windows.binning",
    "STATUS_DTYPE": "budget.figures",
    "replay": "budget.tracker_replay",
    "replay_summary": "budget.summary",
    "replay_transitions": "budget.status_changes",
    "transitions": "budget.status_changes",
    "SPAN_STATUS_DTYPE": "budget.spans",
    "SPAN_STATUSES": "budget.spans",
    "status_spans": "budget.spans",
    "silences": "budget.spans",
    "status_episodes": "budget.episodes",
    "Tracker": "budget.stream",
    "KeyedTracker": "budget.tracker",
    "burn_rates": "budget.burn",
    "burn_rate_chunks": "budget.burn",
    "period_budget": "budget.period",
    "AlertPolicy": "alerts.policy",
    "AlertTier": "alerts.tier",
    "alert_episodes": "alerts.episodes",
    "alert_states": "alerts.episodes",
    "score_alerts": "alerts.scoring",
    "incident_detections": "alerts.scoring",
    "compare_policies": "alerts.scoring",
    "low_traffic": "alerts.lowtraffic",
    "read_incidents": "alerts.incidents_file",
    "hash_scope": "alerts.incident_scopes",
    "bucket_breakdown": "analyses.failure_buckets",
    "bucket_burn_over_time": "analyses.bucket_burn",
    "IncidentReport": "analyses.incident",
    "incident_report": "analyses.incident",
    "Recalibration": "analyses.recalibration",
    "recalibrate": "analyses.recalibration",
    "RecalibrationOptions": "analyses.recalibration.options",
    "LatencyProfile": "analyses.latency_profile",
    "latency_profile": "analyses.latency_profile",
    "LatencyRecalibration": "analyses.latency_recalibration",
    "latency_recalibrate": "analyses.latency_recalibration",
    "timeout_tradeoff": "analyses.timeout_tradeoff",
    "Verdict": "analyses.verdicts",
    "target_verdicts": "analyses.verdicts",
    "page_verdict": "analyses.count_verdicts",
    "cause_verdict": "analyses.count_verdicts",
    "verdicts_table": "analyses.verdicts",
    "compare_windows": "analyses.window_lengths",
    "window_incidents": "analyses.window_lengths",
    "WindowOptions": "analyses.window_options",
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
# subpackages and modules reachable as attributes (``bl.datasets.load``, ``bl.plotting.timeline``),
# imported on first use like the names above; ``budgetlab.dask`` needs the optional extra and is
# imported by name only
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

# the exception classes are imported at once (budgetlab.errors is light); every other name on
# first use
globals().update({name: getattr(errors, name) for name in errors.__all__})
__all__ = [*errors.__all__, "synth", "datasets", *_EXPORTS]


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
