"""The OpenSLO v1 rules an object must pass before budgetlab reads its meaning.

These are the rules of the OpenSLO Go SDK (github.com/OpenSLO/go-sdk, ``pkg/openslo/v1/*.go``,
the library behind ``oslo validate``) that decide whether a file is valid OpenSLO v1: known
keys only (the SDK decodes strictly), RFC 1123 names, label and annotation keys, the lengths of
``displayName`` (63) and ``description`` (1050), one condition per AlertPolicy and at least one
notification target, a burn-rate condition with ``op``, ``threshold`` and ``lookbackWindow``, a
ratio SLI with ``total`` and exactly one of ``good``/``bad`` (or ``raw``/``rawType``), and so on.
Every message names the field path and the rule, e.g.
``spec.conditions: an AlertPolicy has exactly one condition (OpenSLO v1)``.

This module holds the field rules and those of the SLI and alerting kinds; :mod:`.checks_slo`
those of an SLO spec and :func:`~.checks_slo.check_object`, which checks any object.

What budgetlab then refuses although it is valid OpenSLO (threshold SLIs, composite objectives,
``op: lte`` on a burn rate, ...) is checked by the reader, with the reason.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from ...errors import ConfigError
from ...privacy import looks_personal
from ._fields import prefix, quoted, yaml_type

__all__ = ["DNS_LABEL", "KINDS", "OPS", "METHODS_V1", "RULE", "check_keys", "check_name",
           "check_metadata",
           "check_mapping", "check_text", "check_shorthand", "check_bool", "check_choice",
           "check_one_of",
           "check_indicator_spec", "check_condition_spec", "check_target_spec", "check_policy_spec"]

#: RFC 1123 label: what ``metadata.name`` and every reference must be.
DNS_LABEL = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
_LABEL_KEY = re.compile(r"^[a-zA-Z0-9]([-._a-zA-Z0-9]{0,61}[a-zA-Z0-9])?$")
_ANNOTATION_KEY_LENGTH = re.compile(r"^(.{0,253}/)?.{0,63}$", re.DOTALL)
_ANNOTATION_KEY = re.compile(
    r"^([a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?(\.[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)*/)?"
    r"[a-zA-Z0-9]([-._a-zA-Z0-9]{0,61}[a-zA-Z0-9])?$"
)
_SHORTHAND = re.compile(r"^[0-9]+[mhdwMQY]$")
#: The kinds of OpenSLO v1.
KINDS = ("SLO", "SLI", "Service", "DataSource", "AlertPolicy", "AlertCondition",
         "AlertNotificationTarget")
OPS = ("lt", "lte", "gt", "gte")
#: ``spec.budgetingMethod`` values (all of which budgetlab reads).
METHODS_V1 = ("Occurrences", "Timeslices", "RatioTimeslices")
#: How a message names the rule it applies.
RULE = "(OpenSLO v1)"


def check_keys(obj: Mapping[str, Any], allowed: tuple[str, ...], where: str) -> None:
    """Unknown keys are errors, as in the SDK's strict decoding (a misspelt key is never
    ignored)."""
    for k in obj:
        if k not in allowed:
            key = quoted(k) if looks_personal(str(k)) or not isinstance(k,
                                                                        str) or len(k) > 60 else k
            raise ConfigError(f"{prefix(where)}{key} is not a field of OpenSLO v1 here {RULE}; "
                              "known: "
                              f"{', '.join(allowed)}.")


def check_mapping(value: Any, where: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise ConfigError(f"{where} must be a mapping {RULE}.")
    return value


def check_text(value: Any, where: str, *, required: bool = False,
               max_len: int | None = None) -> str:
    if value is None or value == "":
        if required:
            raise ConfigError(f"{where} is required {RULE}.")
        return ""
    if not isinstance(value, str):
        raise ConfigError(f"{where} must be a string {RULE}.")
    if max_len is not None and len(value) > max_len:
        raise ConfigError(f"{where} has {len(value)} characters; OpenSLO v1 allows at most "
                          f"{max_len}.")
    return value


def check_name(value: Any, where: str) -> str:
    """An RFC 1123 label: lower-case letters, digits and ``-``, at most 63 characters."""
    if not isinstance(value, str) or not value:
        raise ConfigError(f"{where} is required {RULE}.")
    if len(value) > 63 or not DNS_LABEL.match(value):
        raise ConfigError(f"{where}={quoted(value)} is not an RFC 1123 label (lower-case letters, "
                          "digits and '-', "
                          "starting and ending with a letter or digit, at most 63 characters) "
                          f"{RULE}.")
    return value


def check_shorthand(value: Any, where: str, *, required: bool = True) -> None:
    if value is None and not required:
        return
    if not isinstance(value, str) or not _SHORTHAND.match(value):
        raise ConfigError(f"{where}={quoted(value)} is not a duration shorthand ([0-9]+ and one of "
                          f"m h d w M Q Y) {RULE}.")


def check_bool(value: Any, where: str) -> None:
    if value is not None and not isinstance(value, bool):
        raise ConfigError(f"{where} must be true or false {RULE}.")


def check_choice(value: Any, choices: tuple[str, ...], where: str) -> None:
    """A required field with a fixed set of values (``budgetingMethod``): missing is said as
    missing, not as Python's ``None``."""
    if value is None:
        raise ConfigError(f"{where} is required: one of {', '.join(choices)} {RULE}.")
    if value not in choices:
        raise ConfigError(f"{where}={quoted(value)} must be one of {', '.join(choices)} {RULE}.")


def check_metadata(meta: Any, where: str) -> None:
    """``metadata``: name (RFC 1123), displayName (<= 63), label and annotation keys."""
    m = check_mapping(meta, where)
    check_keys(m, ("name", "displayName", "labels", "annotations"), where)
    check_name(m.get("name"), f"{where}.name")
    check_text(m.get("displayName"), f"{where}.displayName", max_len=63)
    labels = m.get("labels")
    if labels is not None:
        for k, v in check_mapping(labels, f"{where}.labels").items():
            if not isinstance(k, str) or not _LABEL_KEY.match(k):
                raise ConfigError(f"{where}.labels: key {quoted(k)} is not a label key (letters, "
                                  "digits, '-', '.', '_', "
                                  "starting and ending with a letter or digit, at most 63 "
                                  f"characters) {RULE}.")
            if not (
                isinstance(v, str) or (isinstance(v, list) and all(isinstance(x, str) for x in v))
            ):
                raise ConfigError(f"{where}.labels.{k} must be a string or a list of strings "
                                  f"{RULE}.")
    annotations = m.get("annotations")
    if annotations is not None:
        for k, v in check_mapping(annotations, f"{where}.annotations").items():
            if (
                not isinstance(k, str)
                or not _ANNOTATION_KEY_LENGTH.match(k)
                or not _ANNOTATION_KEY.match(k)
            ):
                raise ConfigError(f"{where}.annotations: key {quoted(k)} is not an annotation key "
                                  "(an optional DNS "
                                  f"prefix and '/', then a name like a label key) {RULE}.")
            if not isinstance(v, str):
                raise ConfigError(f"{where}.annotations.{k} must be a string (quote it in YAML) "
                                  f"{RULE}.")


def _metric_spec(value: Any, where: str) -> None:
    m = check_mapping(value, where)
    check_keys(m, ("metricSource",), where)
    src = check_mapping(m.get("metricSource"), f"{where}.metricSource")
    check_keys(src, ("metricSourceRef", "type", "spec"), f"{where}.metricSource")
    if src.get("metricSourceRef") not in (None, ""):
        check_name(src["metricSourceRef"], f"{where}.metricSource.metricSourceRef")
    check_text(src.get("type"), f"{where}.metricSource.type")
    spec = src.get("spec")
    if not isinstance(spec, Mapping) or not spec:
        raise ConfigError(f"{where}.metricSource.spec is required and must hold at least one field "
                          "(e.g. query) "
                          f"{RULE}.")


def check_indicator_spec(spec: Any, where: str) -> None:
    """An SLI ``spec``: exactly one of thresholdMetric and ratioMetric; a ratio has ``total``
    with exactly one of ``good``/``bad``, or ``raw`` with ``rawType``."""
    s = check_mapping(spec, where)
    check_keys(s, ("description", "thresholdMetric", "ratioMetric"), where)
    check_text(s.get("description"), f"{where}.description", max_len=1050)
    if ("thresholdMetric" in s) == ("ratioMetric" in s):
        raise ConfigError(f"{where}: give exactly one of thresholdMetric and ratioMetric {RULE}.")
    if "thresholdMetric" in s:
        _metric_spec(s["thresholdMetric"], f"{where}.thresholdMetric")
        return
    rw = f"{where}.ratioMetric"
    r = check_mapping(s["ratioMetric"], rw)
    check_keys(r, ("counter", "good", "bad", "total", "rawType", "raw"), rw)
    check_bool(r.get("counter"), f"{rw}.counter")
    if ("total" in r) == ("raw" in r):
        raise ConfigError(f"{rw}: give exactly one of total and raw {RULE}.")
    if sum(k in r for k in ("raw", "good", "bad")) > 1:
        present = [k for k in ("raw", "good", "bad") if k in r]
        raise ConfigError(f"{rw}: {' and '.join(present)} are mutually exclusive; give one of "
                          "good, bad "
                          f"(with total) or raw {RULE}.")
    if "total" in r:
        if "good" not in r and "bad" not in r:
            raise ConfigError(f"{rw}: with total, give good or bad {RULE}.")
        for k in ("total", "good", "bad"):
            if k in r:
                _metric_spec(r[k], f"{rw}.{k}")
    else:
        _metric_spec(r["raw"], f"{rw}.raw")
        if r.get("rawType") not in ("success", "failure"):
            raise ConfigError(f"{rw}.rawType={quoted(r.get('rawType'))} must be success or failure "
                              f"{RULE}.")


def check_condition_spec(spec: Any, where: str) -> None:
    """An AlertCondition ``spec``: severity, and a burnrate condition with op, threshold and
    lookbackWindow."""
    s = check_mapping(spec, where)
    check_keys(s, ("description", "severity", "condition"), where)
    check_text(s.get("description"), f"{where}.description", max_len=1050)
    check_text(s.get("severity"), f"{where}.severity", required=True)
    cw = f"{where}.condition"
    c = check_mapping(s.get("condition"), cw)
    check_keys(c, ("kind", "op", "threshold", "lookbackWindow", "alertAfter"), cw)
    if c.get("kind") != "burnrate":
        raise ConfigError(f"{cw}.kind={quoted(c.get('kind'))} must be burnrate {RULE}.")
    if c.get("op") is None:
        raise ConfigError(f"{cw}.op is required for a burnrate condition (one of lt, lte, gt, gte) "
                          f"{RULE}.")
    if c.get("op") not in OPS:
        raise ConfigError(f"{cw}.op={quoted(c.get('op'))} must be one of lt, lte, gt, gte {RULE}.")
    th = c.get("threshold")
    if th is None or isinstance(th, bool) or not isinstance(th, (int, float)):
        raise ConfigError(f"{cw}.threshold is required and must be a number {RULE}.")
    check_shorthand(c.get("lookbackWindow"), f"{cw}.lookbackWindow")
    check_shorthand(c.get("alertAfter"), f"{cw}.alertAfter", required=False)


def check_one_of(
    item: Any, ref_key: str, kind: str, where: str, check_spec: Callable[[Any, str], None]
) -> None:
    """A list item that is either ``{ref_key: name}`` or an inline ``kind`` object."""
    m = check_mapping(item, where)
    if ref_key in m:
        if set(m) != {ref_key}:
            raise ConfigError(f"{where}: {ref_key} and an inline {kind} are mutually exclusive "
                              f"{RULE}.")
        check_name(m[ref_key], f"{where}.{ref_key}")
        return
    check_keys(m, ("kind", "metadata", "spec"), where)
    if m.get("kind") != kind:
        raise ConfigError(f"{where}.kind={quoted(m.get('kind'))} must be {kind} (or give "
                          f"{ref_key}) {RULE}.")
    check_metadata(m.get("metadata"), f"{where}.metadata")
    check_spec(m.get("spec"), f"{where}.spec")


def check_target_spec(spec: Any, where: str) -> None:
    """An AlertNotificationTarget ``spec``: target (required), description."""
    s = check_mapping(spec, where)
    check_keys(s, ("description", "target"), where)
    check_text(s.get("target"), f"{where}.target", required=True)
    check_text(s.get("description"), f"{where}.description", max_len=1050)


def check_policy_spec(spec: Any, where: str) -> None:
    """An AlertPolicy ``spec``: exactly one condition, at least one notification target."""
    s = check_mapping(spec, where)
    check_keys(s, ("description", "alertWhenNoData", "alertWhenBreaching", "alertWhenResolved",
                   "conditions",
                   "notificationTargets"), where)
    check_text(s.get("description"), f"{where}.description", max_len=1050)
    for k in ("alertWhenNoData", "alertWhenBreaching", "alertWhenResolved"):
        check_bool(s.get(k), f"{where}.{k}")
    conds = s.get("conditions")
    if not isinstance(conds, list):  # missing, or a mapping or a string: not "0 conditions"
        what = "is missing" if "conditions" not in s else f"is {yaml_type(conds)}, not a list"
        raise ConfigError(f"{where}.conditions {what}; an AlertPolicy lists exactly one "
                          f"condition {RULE}: write it as a list of one item ('- conditionRef: "
                          "NAME' or '- kind: AlertCondition ...').")
    if len(conds) != 1:
        raise ConfigError(f"{where}.conditions lists {len(conds)} conditions; an AlertPolicy has "
                          f"exactly one condition {RULE} (give each condition its own "
                          "AlertPolicy).")
    check_one_of(conds[0], "conditionRef", "AlertCondition", f"{where}.conditions[0]",
                 check_condition_spec)
    targets = s.get("notificationTargets")
    if not isinstance(targets, list) or not targets:
        raise ConfigError(f"{where}.notificationTargets must list at least one target (targetRef "
                          "or an inline "
                          f"AlertNotificationTarget) {RULE}.")
    for i, t in enumerate(targets):
        check_one_of(t, "targetRef", "AlertNotificationTarget", f"{where}.notificationTargets[{i}]",
                     check_target_spec)
