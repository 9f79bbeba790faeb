"""The OpenSLO v1 rules of an SLO ``spec`` (objectives, time window, calendar, alert policies), of
Service and DataSource objects, and :func:`check_object`, which applies the rules of its kind to
any ``openslo/v1`` object (the field rules and the SLI and alerting kinds are in :mod:`.checks`).
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Callable, Mapping
from typing import Any

from ..._util.validation import check_tz
from ...errors import ConfigError
from ._fields import quoted
from .checks import (
    KINDS,
    METHODS_V1,
    OPS,
    RULE,
    check_bool,
    check_choice,
    check_condition_spec,
    check_indicator_spec,
    check_keys,
    check_mapping,
    check_metadata,
    check_name,
    check_one_of,
    check_policy_spec,
    check_shorthand,
    check_target_spec,
    check_text,
)

__all__ = ["check_slo_spec", "check_object"]


def _check_calendar(cal: Any, where: str) -> None:
    c = check_mapping(cal, where)
    check_keys(c, ("startTime", "timeZone"), where)
    start = c.get("startTime")
    if isinstance(start, _dt.datetime):  # YAML reads an unquoted date-time as a timestamp
        start = start.strftime("%Y-%m-%d %H:%M:%S") if start.tzinfo is None else "with a zone"
    try:
        _dt.datetime.strptime(str(start), "%Y-%m-%d %H:%M:%S")
    except ValueError:
        raise ConfigError(f"{where}.startTime={quoted(c.get('startTime'))} must be a date-time "
                          "like "
                          f"'2022-01-01 12:00:00' {RULE}.") from None
    check_tz(c.get("timeZone"), name=f"{where}.timeZone")


def _check_objective(o: Any, where: str, method: Any, ratio: bool | None) -> None:
    m = check_mapping(o, where)
    check_keys(m, ("displayName", "op", "value", "target", "targetPercent", "timeSliceTarget",
                   "timeSliceWindow",
                   "indicator", "indicatorRef", "compositeWeight"), where)
    if ("target" in m) == ("targetPercent" in m):
        raise ConfigError(f"{where}: give exactly one of target and targetPercent {RULE}.")
    for key, high in (("target", 1.0), ("targetPercent", 100.0)):
        if key in m:
            v = m[key]
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v < high:
                raise ConfigError(f"{where}.{key}={quoted(v)} must lie in [0, {high:g}) {RULE}.")
    if method == "Timeslices":
        v = m.get("timeSliceTarget")
        if v is None or isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 < v <= 1:
            raise ConfigError(f"{where}.timeSliceTarget is required with Timeslices and must lie "
                              f"in (0, 1] {RULE}.")
    if method in ("Timeslices", "RatioTimeslices"):
        tsw = m.get("timeSliceWindow")
        if isinstance(tsw, (int, float)) and not isinstance(tsw, bool):
            raise ConfigError(f"{where}.timeSliceWindow={quoted(tsw)} needs a unit, e.g. '{tsw}m' "
                              "(a duration "
                              f"shorthand [0-9]+[mhdwMQY]) {RULE}.")
        check_shorthand(tsw, f"{where}.timeSliceWindow")
    if ratio is True and "value" in m:
        raise ConfigError(f"{where}.value is forbidden with a ratioMetric indicator {RULE}.")
    if ratio is False and ("value" not in m or m.get("op") not in OPS):
        raise ConfigError(f"{where}: a thresholdMetric objective needs value and op (lt, lte, gt, "
                          f"gte) {RULE}.")


def check_slo_spec(spec: Any, where: str) -> None:
    """An SLO ``spec`` (``op`` on a ratio objective is left to the reader, which drops it)."""
    s = check_mapping(spec, where)
    check_keys(s, ("description", "service", "indicator", "indicatorRef", "budgetingMethod",
                   "timeWindow",
                   "objectives", "alertPolicies"), where)
    check_text(s.get("description"), f"{where}.description", max_len=1050)
    check_text(s.get("service"), f"{where}.service", required=True)
    objectives = s.get("objectives")
    if not isinstance(objectives, list) or not objectives:
        raise ConfigError(f"{where}.objectives must list at least one objective {RULE}.")
    composite = any(
        isinstance(o, Mapping) and ("indicator" in o or "indicatorRef" in o) for o in objectives
    )
    has = ("indicator" in s) or ("indicatorRef" in s)
    if composite == has:
        raise ConfigError(f"{where}: give indicator or indicatorRef on the spec (or, for a "
                          "composite SLO, on every "
                          f"objective), {'not both' if has else 'none was given'} {RULE}.")
    if "indicator" in s and "indicatorRef" in s:
        raise ConfigError(f"{where}: indicator and indicatorRef are mutually exclusive {RULE}.")
    ratio: bool | None = None
    if "indicator" in s:
        ind = check_mapping(s["indicator"], f"{where}.indicator")
        check_keys(ind, ("metadata", "spec"), f"{where}.indicator")
        check_metadata(ind.get("metadata"), f"{where}.indicator.metadata")
        check_indicator_spec(ind.get("spec"), f"{where}.indicator.spec")
        ratio = "ratioMetric" in ind["spec"]
    if "indicatorRef" in s:
        check_name(s["indicatorRef"], f"{where}.indicatorRef")
    method = s.get("budgetingMethod")
    check_choice(method, METHODS_V1, f"{where}.budgetingMethod")
    tw = s.get("timeWindow")
    if tw is not None:
        if not isinstance(tw, list) or len(tw) != 1:
            raise ConfigError(f"{where}.timeWindow must list exactly one time window {RULE}.")
        iw = f"{where}.timeWindow[0]"
        item = check_mapping(tw[0], iw)
        check_keys(item, ("duration", "isRolling", "calendar"), iw)
        check_shorthand(item.get("duration"), f"{iw}.duration")
        check_bool(item.get("isRolling"), f"{iw}.isRolling")
        if bool(item.get("isRolling")) == ("calendar" in item):
            raise ConfigError(
                f"{iw}: 'calendar' "
                f"{'cannot be set when' if item.get('isRolling') else 'must be set when'}"
                f" 'isRolling' is {str(bool(item.get('isRolling'))).lower()} {RULE}."
            )
        if "calendar" in item:
            _check_calendar(item["calendar"], f"{iw}.calendar")
    for i, o in enumerate(objectives):
        _check_objective(o, f"{where}.objectives[{i}]", method, ratio)
    pols = s.get("alertPolicies")
    if pols is not None:
        if not isinstance(pols, list):
            raise ConfigError(f"{where}.alertPolicies must be a list {RULE}.")
        for i, p in enumerate(pols):
            check_one_of(p, "alertPolicyRef", "AlertPolicy", f"{where}.alertPolicies[{i}]",
                         check_policy_spec)


def _check_service(spec: Any, where: str) -> None:
    s = check_mapping({} if spec is None else spec, where)
    check_keys(s, ("description",), where)
    check_text(s.get("description"), f"{where}.description", max_len=1050)


def _check_data_source(spec: Any, where: str) -> None:
    s = check_mapping(spec, where)
    check_keys(s, ("description", "type", "connectionDetails"), where)
    check_text(s.get("description"), f"{where}.description", max_len=1050)
    check_text(s.get("type"), f"{where}.type", required=True)
    if s.get("connectionDetails") in (None, {}, []):
        raise ConfigError(f"{where}.connectionDetails is required {RULE}.")


_SPECS: dict[str, Callable[[Any, str], None]] = {
    "SLO": check_slo_spec, "SLI": check_indicator_spec, "Service": _check_service,
                                                 "DataSource": _check_data_source,
    "AlertPolicy": check_policy_spec, "AlertCondition": check_condition_spec,
    "AlertNotificationTarget": check_target_spec,
}


def check_object(obj: Mapping[str, Any]) -> str:
    """Check one ``openslo/v1`` object against the v1 rules; return its kind."""
    check_keys(obj, ("apiVersion", "kind", "metadata", "spec"), "")
    kind = obj.get("kind")
    if kind not in KINDS:
        raise ConfigError(f"kind={quoted(kind)} is not an OpenSLO v1 kind; known: "
                          f"{', '.join(KINDS)}.")
    check_metadata(obj.get("metadata"), "metadata")
    _SPECS[str(kind)](obj.get("spec"), "spec")
    return str(kind)
