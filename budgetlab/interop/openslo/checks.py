"""The OpenSLO v1 rules an object must pass before budgetlab reads its meaning.

These are the rules of the OpenSLO Go SDK (github.com/OpenSLO/go-sdk, ``pkg/openslo/v1/*.go``,
the library behind ``oslo validate``) that decide whether a file is valid OpenSLO v1: known
keys only (the SDK decodes strictly), RFC 1123 names, label and annotation keys, the lengths of
``displayName`` (63) and ``description`` (1050), one condition per AlertPolicy and at least one
notification target, a burn-rate condition with ``op``, ``threshold`` and ``lookbackWindow``, a
ratio SLI with ``total`` and exactly one of ``good``/``bad`` (or ``raw``/``rawType``), and so on.
Every message names the field path and the rule, e.g.
``spec.conditions: an AlertPolicy has exactly one condition (OpenSLO v1)``.

What budgetlab then refuses although it is valid OpenSLO (threshold SLIs, composite objectives,
``op: lte`` on a burn rate, ...) is checked by the reader, with the reason.
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Callable, Mapping
from typing import Any

from ..._util.validation import check_tz
from ...errors import ConfigError
from ...privacy import looks_personal
from ._fields import prefix, quoted

__all__ = ["DNS_LABEL", "KINDS", "OPS", "check_object", "check_keys", "check_name", "check_metadata",
           "check_indicator_spec", "check_condition_spec", "check_policy_spec", "check_slo_spec"]

#: RFC 1123 label: what ``metadata.name`` and every reference must be.
DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
_LABEL_KEY = re.compile(r"^[a-zA-Z0-9]([-._a-zA-Z0-9]{0,61}[a-zA-Z0-9])?$")
_ANNOTATION_KEY_LENGTH = re.compile(r"^(.{0,253}/)?.{0,63}$", re.DOTALL)
_ANNOTATION_KEY = re.compile(r"^([a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?(\.[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)*/)?"
                             r"[a-zA-Z0-9]([-._a-zA-Z0-9]{0,61}[a-zA-Z0-9])?$")
_SHORTHAND = re.compile(r"^[0-9]+[mhdwMQY]$")
#: The kinds of OpenSLO v1.
KINDS = ("SLO", "SLI", "Service", "DataSource", "AlertPolicy", "AlertCondition", "AlertNotificationTarget")
OPS = ("lt", "lte", "gt", "gte")
METHODS_V1 = ("Occurrences", "Timeslices", "RatioTimeslices")
_RULE = "(OpenSLO v1)"


def check_keys(obj: Mapping[str, Any], allowed: tuple[str, ...], where: str) -> None:
    """Unknown keys are errors, as in the SDK's strict decoding (a misspelt key is never ignored)."""
    for k in obj:
        if k not in allowed:
            key = quoted(k) if looks_personal(str(k)) or not isinstance(k, str) or len(k) > 60 else k
            raise ConfigError(f"{prefix(where)}{key} is not a field of OpenSLO v1 here {_RULE}; known: "
                              f"{', '.join(allowed)}.")


def _mapping(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ConfigError(f"{where} must be a mapping {_RULE}.")
    return value


def _text(value: Any, where: str, *, required: bool = False, max_len: int | None = None) -> str:
    if value is None or value == "":
        if required:
            raise ConfigError(f"{where} is required {_RULE}.")
        return ""
    if not isinstance(value, str):
        raise ConfigError(f"{where} must be a string {_RULE}.")
    if max_len is not None and len(value) > max_len:
        raise ConfigError(f"{where} has {len(value)} characters; OpenSLO v1 allows at most {max_len}.")
    return value


def check_name(value: Any, where: str) -> str:
    """An RFC 1123 label: lower-case letters, digits and ``-``, at most 63 characters."""
    if not isinstance(value, str) or not value:
        raise ConfigError(f"{where} is required {_RULE}.")
    if len(value) > 63 or not DNS_LABEL.match(value):
        raise ConfigError(f"{where}={quoted(value)} is not an RFC 1123 label (lower-case letters, digits and '-', "
                          f"starting and ending with a letter or digit, at most 63 characters) {_RULE}.")
    return value


def _shorthand(value: Any, where: str, *, required: bool = True) -> None:
    if value is None and not required:
        return
    if not isinstance(value, str) or not _SHORTHAND.match(value):
        raise ConfigError(f"{where}={quoted(value)} is not a duration shorthand ([0-9]+ and one of m h d w M Q Y) {_RULE}.")


def _bool(value: Any, where: str) -> None:
    if value is not None and not isinstance(value, bool):
        raise ConfigError(f"{where} must be true or false {_RULE}.")


def check_metadata(meta: Any, where: str) -> None:
    """``metadata``: name (RFC 1123), displayName (<= 63), label and annotation keys."""
    m = _mapping(meta, where)
    check_keys(m, ("name", "displayName", "labels", "annotations"), where)
    check_name(m.get("name"), f"{where}.name")
    _text(m.get("displayName"), f"{where}.displayName", max_len=63)
    labels = m.get("labels")
    if labels is not None:
        for k, v in _mapping(labels, f"{where}.labels").items():
            if not isinstance(k, str) or not _LABEL_KEY.match(k):
                raise ConfigError(f"{where}.labels: key {quoted(k)} is not a label key (letters, digits, '-', '.', '_', "
                                  f"starting and ending with a letter or digit, at most 63 characters) {_RULE}.")
            if not (isinstance(v, str) or (isinstance(v, list) and all(isinstance(x, str) for x in v))):
                raise ConfigError(f"{where}.labels.{k} must be a string or a list of strings {_RULE}.")
    annotations = m.get("annotations")
    if annotations is not None:
        for k, v in _mapping(annotations, f"{where}.annotations").items():
            if not isinstance(k, str) or not _ANNOTATION_KEY_LENGTH.match(k) or not _ANNOTATION_KEY.match(k):
                raise ConfigError(f"{where}.annotations: key {quoted(k)} is not an annotation key (an optional DNS "
                                  f"prefix and '/', then a name like a label key) {_RULE}.")
            if not isinstance(v, str):
                raise ConfigError(f"{where}.annotations.{k} must be a string (quote it in YAML) {_RULE}.")


def _metric_spec(value: Any, where: str) -> None:
    m = _mapping(value, where)
    check_keys(m, ("metricSource",), where)
    src = _mapping(m.get("metricSource"), f"{where}.metricSource")
    check_keys(src, ("metricSourceRef", "type", "spec"), f"{where}.metricSource")
    if src.get("metricSourceRef") not in (None, ""):
        check_name(src["metricSourceRef"], f"{where}.metricSource.metricSourceRef")
    _text(src.get("type"), f"{where}.metricSource.type")
    spec = src.get("spec")
    if not isinstance(spec, Mapping) or not spec:
        raise ConfigError(f"{where}.metricSource.spec is required and must hold at least one field (e.g. query) "
                          f"{_RULE}.")


def check_indicator_spec(spec: Any, where: str) -> None:
    """An SLI ``spec``: exactly one of thresholdMetric and ratioMetric; a ratio has ``total``
    with exactly one of ``good``/``bad``, or ``raw`` with ``rawType``."""
    s = _mapping(spec, where)
    check_keys(s, ("description", "thresholdMetric", "ratioMetric"), where)
    _text(s.get("description"), f"{where}.description", max_len=1050)
    if ("thresholdMetric" in s) == ("ratioMetric" in s):
        raise ConfigError(f"{where}: give exactly one of thresholdMetric and ratioMetric {_RULE}.")
    if "thresholdMetric" in s:
        _metric_spec(s["thresholdMetric"], f"{where}.thresholdMetric")
        return
    rw = f"{where}.ratioMetric"
    r = _mapping(s["ratioMetric"], rw)
    check_keys(r, ("counter", "good", "bad", "total", "rawType", "raw"), rw)
    _bool(r.get("counter"), f"{rw}.counter")
    if ("total" in r) == ("raw" in r):
        raise ConfigError(f"{rw}: give exactly one of total and raw {_RULE}.")
    if sum(k in r for k in ("raw", "good", "bad")) > 1:
        present = [k for k in ("raw", "good", "bad") if k in r]
        raise ConfigError(f"{rw}: {' and '.join(present)} are mutually exclusive; give one of good, bad "
                          f"(with total) or raw {_RULE}.")
    if "total" in r:
        if "good" not in r and "bad" not in r:
            raise ConfigError(f"{rw}: with total, give good or bad {_RULE}.")
        for k in ("total", "good", "bad"):
            if k in r:
                _metric_spec(r[k], f"{rw}.{k}")
    else:
        _metric_spec(r["raw"], f"{rw}.raw")
        if r.get("rawType") not in ("success", "failure"):
            raise ConfigError(f"{rw}.rawType={quoted(r.get('rawType'))} must be success or failure {_RULE}.")


def check_condition_spec(spec: Any, where: str) -> None:
    """An AlertCondition ``spec``: severity, and a burnrate condition with op, threshold and
    lookbackWindow."""
    s = _mapping(spec, where)
    check_keys(s, ("description", "severity", "condition"), where)
    _text(s.get("description"), f"{where}.description", max_len=1050)
    _text(s.get("severity"), f"{where}.severity", required=True)
    cw = f"{where}.condition"
    c = _mapping(s.get("condition"), cw)
    check_keys(c, ("kind", "op", "threshold", "lookbackWindow", "alertAfter"), cw)
    if c.get("kind") != "burnrate":
        raise ConfigError(f"{cw}.kind={quoted(c.get('kind'))} must be burnrate {_RULE}.")
    if c.get("op") is None:
        raise ConfigError(f"{cw}.op is required for a burnrate condition (one of lt, lte, gt, gte) {_RULE}.")
    if c.get("op") not in OPS:
        raise ConfigError(f"{cw}.op={quoted(c.get('op'))} must be one of lt, lte, gt, gte {_RULE}.")
    th = c.get("threshold")
    if th is None or isinstance(th, bool) or not isinstance(th, (int, float)):
        raise ConfigError(f"{cw}.threshold is required and must be a number {_RULE}.")
    _shorthand(c.get("lookbackWindow"), f"{cw}.lookbackWindow")
    _shorthand(c.get("alertAfter"), f"{cw}.alertAfter", required=False)


def _one_of(item: Any, ref_key: str, kind: str, where: str, check_spec: Callable[[Any, str], None]) -> None:
    """A list item that is either ``{ref_key: name}`` or an inline ``kind`` object."""
    m = _mapping(item, where)
    if ref_key in m:
        if set(m) != {ref_key}:
            raise ConfigError(f"{where}: {ref_key} and an inline {kind} are mutually exclusive {_RULE}.")
        check_name(m[ref_key], f"{where}.{ref_key}")
        return
    check_keys(m, ("kind", "metadata", "spec"), where)
    if m.get("kind") != kind:
        raise ConfigError(f"{where}.kind={quoted(m.get('kind'))} must be {kind} (or give {ref_key}) {_RULE}.")
    check_metadata(m.get("metadata"), f"{where}.metadata")
    check_spec(m.get("spec"), f"{where}.spec")


def check_target_spec(spec: Any, where: str) -> None:
    """An AlertNotificationTarget ``spec``: target (required), description."""
    s = _mapping(spec, where)
    check_keys(s, ("description", "target"), where)
    _text(s.get("target"), f"{where}.target", required=True)
    _text(s.get("description"), f"{where}.description", max_len=1050)


def check_policy_spec(spec: Any, where: str) -> None:
    """An AlertPolicy ``spec``: exactly one condition, at least one notification target."""
    s = _mapping(spec, where)
    check_keys(s, ("description", "alertWhenNoData", "alertWhenBreaching", "alertWhenResolved", "conditions",
                   "notificationTargets"), where)
    _text(s.get("description"), f"{where}.description", max_len=1050)
    for k in ("alertWhenNoData", "alertWhenBreaching", "alertWhenResolved"):
        _bool(s.get(k), f"{where}.{k}")
    conds = s.get("conditions")
    if not isinstance(conds, list) or len(conds) != 1:
        n = len(conds) if isinstance(conds, list) else 0
        raise ConfigError(f"{where}.conditions lists {n} conditions; an AlertPolicy has exactly one condition "
                          f"{_RULE} (give each condition its own AlertPolicy).")
    _one_of(conds[0], "conditionRef", "AlertCondition", f"{where}.conditions[0]", check_condition_spec)
    targets = s.get("notificationTargets")
    if not isinstance(targets, list) or not targets:
        raise ConfigError(f"{where}.notificationTargets must list at least one target (targetRef or an inline "
                          f"AlertNotificationTarget) {_RULE}.")
    for i, t in enumerate(targets):
        _one_of(t, "targetRef", "AlertNotificationTarget", f"{where}.notificationTargets[{i}]", check_target_spec)


def _check_calendar(cal: Any, where: str) -> None:
    c = _mapping(cal, where)
    check_keys(c, ("startTime", "timeZone"), where)
    start = c.get("startTime")
    if isinstance(start, _dt.datetime):  # YAML reads an unquoted date-time as a timestamp
        start = start.strftime("%Y-%m-%d %H:%M:%S") if start.tzinfo is None else "with a zone"
    try:
        _dt.datetime.strptime(str(start), "%Y-%m-%d %H:%M:%S")
    except ValueError:
        raise ConfigError(f"{where}.startTime={quoted(c.get('startTime'))} must be a date-time like "
                          f"'2022-01-01 12:00:00' {_RULE}.") from None
    check_tz(c.get("timeZone"), name=f"{where}.timeZone")


def _check_objective(o: Any, where: str, method: Any, ratio: bool | None) -> None:
    m = _mapping(o, where)
    check_keys(m, ("displayName", "op", "value", "target", "targetPercent", "timeSliceTarget", "timeSliceWindow",
                   "indicator", "indicatorRef", "compositeWeight"), where)
    if ("target" in m) == ("targetPercent" in m):
        raise ConfigError(f"{where}: give exactly one of target and targetPercent {_RULE}.")
    for key, high in (("target", 1.0), ("targetPercent", 100.0)):
        if key in m:
            v = m[key]
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 <= v < high:
                raise ConfigError(f"{where}.{key}={quoted(v)} must lie in [0, {high:g}) {_RULE}.")
    if method == "Timeslices":
        v = m.get("timeSliceTarget")
        if v is None or isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 < v <= 1:
            raise ConfigError(f"{where}.timeSliceTarget is required with Timeslices and must lie in (0, 1] {_RULE}.")
    if method in ("Timeslices", "RatioTimeslices"):
        tsw = m.get("timeSliceWindow")
        if isinstance(tsw, (int, float)) and not isinstance(tsw, bool):
            raise ConfigError(f"{where}.timeSliceWindow={quoted(tsw)} needs a unit, e.g. '{tsw}m' (a duration "
                              f"shorthand [0-9]+[mhdwMQY]) {_RULE}.")
        _shorthand(tsw, f"{where}.timeSliceWindow")
    if ratio is True and "value" in m:
        raise ConfigError(f"{where}.value is forbidden with a ratioMetric indicator {_RULE}.")
    if ratio is False and ("value" not in m or m.get("op") not in OPS):
        raise ConfigError(f"{where}: a thresholdMetric objective needs value and op (lt, lte, gt, gte) {_RULE}.")


def check_slo_spec(spec: Any, where: str) -> None:
    """An SLO ``spec`` (``op`` on a ratio objective is left to the reader, which drops it)."""
    s = _mapping(spec, where)
    check_keys(s, ("description", "service", "indicator", "indicatorRef", "budgetingMethod", "timeWindow",
                   "objectives", "alertPolicies"), where)
    _text(s.get("description"), f"{where}.description", max_len=1050)
    _text(s.get("service"), f"{where}.service", required=True)
    objectives = s.get("objectives")
    if not isinstance(objectives, list) or not objectives:
        raise ConfigError(f"{where}.objectives must list at least one objective {_RULE}.")
    composite = any(isinstance(o, Mapping) and ("indicator" in o or "indicatorRef" in o) for o in objectives)
    has = ("indicator" in s) or ("indicatorRef" in s)
    if composite == has:
        raise ConfigError(f"{where}: give indicator or indicatorRef on the spec (or, for a composite SLO, on every "
                          f"objective), {'not both' if has else 'none was given'} {_RULE}.")
    if "indicator" in s and "indicatorRef" in s:
        raise ConfigError(f"{where}: indicator and indicatorRef are mutually exclusive {_RULE}.")
    ratio: bool | None = None
    if "indicator" in s:
        ind = _mapping(s["indicator"], f"{where}.indicator")
        check_keys(ind, ("metadata", "spec"), f"{where}.indicator")
        check_metadata(ind.get("metadata"), f"{where}.indicator.metadata")
        check_indicator_spec(ind.get("spec"), f"{where}.indicator.spec")
        ratio = "ratioMetric" in ind["spec"]
    if "indicatorRef" in s:
        check_name(s["indicatorRef"], f"{where}.indicatorRef")
    method = s.get("budgetingMethod")
    if method not in METHODS_V1:
        raise ConfigError(f"{where}.budgetingMethod={quoted(method)} must be one of {', '.join(METHODS_V1)} {_RULE}.")
    tw = s.get("timeWindow")
    if tw is not None:
        if not isinstance(tw, list) or len(tw) != 1:
            raise ConfigError(f"{where}.timeWindow must list exactly one time window {_RULE}.")
        iw = f"{where}.timeWindow[0]"
        item = _mapping(tw[0], iw)
        check_keys(item, ("duration", "isRolling", "calendar"), iw)
        _shorthand(item.get("duration"), f"{iw}.duration")
        _bool(item.get("isRolling"), f"{iw}.isRolling")
        if bool(item.get("isRolling")) == ("calendar" in item):
            raise ConfigError(f"{iw}: 'calendar' {'cannot be set when' if item.get('isRolling') else 'must be set when'}"
                              f" 'isRolling' is {str(bool(item.get('isRolling'))).lower()} {_RULE}.")
        if "calendar" in item:
            _check_calendar(item["calendar"], f"{iw}.calendar")
    for i, o in enumerate(objectives):
        _check_objective(o, f"{where}.objectives[{i}]", method, ratio)
    pols = s.get("alertPolicies")
    if pols is not None:
        if not isinstance(pols, list):
            raise ConfigError(f"{where}.alertPolicies must be a list {_RULE}.")
        for i, p in enumerate(pols):
            _one_of(p, "alertPolicyRef", "AlertPolicy", f"{where}.alertPolicies[{i}]", check_policy_spec)


def _check_service(spec: Any, where: str) -> None:
    s = _mapping({} if spec is None else spec, where)
    check_keys(s, ("description",), where)
    _text(s.get("description"), f"{where}.description", max_len=1050)


def _check_data_source(spec: Any, where: str) -> None:
    s = _mapping(spec, where)
    check_keys(s, ("description", "type", "connectionDetails"), where)
    _text(s.get("description"), f"{where}.description", max_len=1050)
    _text(s.get("type"), f"{where}.type", required=True)
    if s.get("connectionDetails") in (None, {}, []):
        raise ConfigError(f"{where}.connectionDetails is required {_RULE}.")


_SPECS: dict[str, Callable[[Any, str], None]] = {
    "SLO": check_slo_spec, "SLI": check_indicator_spec, "Service": _check_service, "DataSource": _check_data_source,
    "AlertPolicy": check_policy_spec, "AlertCondition": check_condition_spec,
    "AlertNotificationTarget": check_target_spec,
}


def check_object(obj: Mapping[str, Any]) -> str:
    """Check one ``openslo/v1`` object against the v1 rules; return its kind."""
    check_keys(obj, ("apiVersion", "kind", "metadata", "spec"), "")
    kind = obj.get("kind")
    if kind not in KINDS:
        raise ConfigError(f"kind={quoted(kind)} is not an OpenSLO v1 kind; known: {', '.join(KINDS)}.")
    check_metadata(obj.get("metadata"), "metadata")
    _SPECS[str(kind)](obj.get("spec"), "spec")
    return str(kind)
