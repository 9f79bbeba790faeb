"""A test-side port of the OpenSLO Go SDK's validation rules: the independent judge of what
budgetlab writes and of the peer fixtures.

Ported (ideas, not code) from github.com/OpenSLO/go-sdk at commit
ae145da12c36289a0c6566474f1ce8a9a6aeaf1e (the library behind ``oslo validate``):

* ``pkg/openslo/v1/objects.go``: metadata (name RFC 1123 via ``rules.StringDNSLabel``,
  displayName <= 63, label-key and annotation-key regular expressions), operators;
* ``pkg/openslo/v1/slo.go``: spec (service required, description <= 1050, budgetingMethod one of
  Occurrences/Timeslices/RatioTimeslices, timeWindow exactly 1, indicator xor indicatorRef unless
  composite, objectives: target xor targetPercent, ranges, Timeslices/RatioTimeslices fields,
  ``value``/``op`` forbidden with an inline ratioMetric, required with a thresholdMetric,
  alertPolicies ref xor inline), time windows (calendar iff not rolling, startTime
  ``2006-01-02 15:04:05``, IANA time zone);
* ``pkg/openslo/v1/sli.go``: thresholdMetric xor ratioMetric; ratio: total xor raw, at most one
  of raw/good/bad, good or bad with total, rawType with raw; metricSource.spec non-empty,
  metricSourceRef RFC 1123;
* ``pkg/openslo/v1/alert_policy.go``: conditions length exactly 1, notificationTargets at least
  1, each ref xor inline (kind equal to AlertCondition / AlertNotificationTarget);
* ``pkg/openslo/v1/alert_condition.go``: severity required, condition.kind burnrate, op required
  and one of lt/lte/gt/gte, threshold required, lookbackWindow required shorthand;
* ``pkg/openslo/v1/alert_notification_target.go``, ``data_source.go``, ``service.go``;
* ``pkg/openslo/v1/duration_shorthand.go``: ``[0-9]+[mhdwMQY]``;
* ``pkg/openslo/v1alpha/slo.go``, ``service.go``, ``objects.go``: the v1alpha SLO and Service rules;
* the SDK decodes strictly (``json: unknown field``, as ``oslo``'s own test
  ``test/validate.bats`` "validate unknown field" records).

``validate(objects)`` returns every violation as ``(kind, name, index, path, rule)`` like
``oslo validate`` reports them (``'spec.objectives[0].op'``, ``forbidden``).
"""

from __future__ import annotations

import datetime as dt
import re
import zoneinfo
from collections.abc import Mapping
from typing import Any, NamedTuple

SDK_COMMIT = "ae145da12c36289a0c6566474f1ce8a9a6aeaf1e"

# rules.StringDNSLabel (RFC 1123), length <= 63
DNS = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")
LABEL_KEY = re.compile(r"^[a-zA-Z0-9]([-._a-zA-Z0-9]{0,61}[a-zA-Z0-9])?$")
ANN_KEY_LEN = re.compile(r"^(.{0,253}/)?.{0,63}$", re.S)
ANN_KEY = re.compile(
    r"^([a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?(\.[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)*/)?"
    r"[a-zA-Z0-9]([-._a-zA-Z0-9]{0,61}[a-zA-Z0-9])?$"
)
SHORTHAND = re.compile(r"^[0-9]+[mhdwMQY]$")
OPS = {"gt", "lt", "gte", "lte"}
ALPHA = re.compile(r"^[A-Za-z]+$")


class Violation(NamedTuple):
    kind: str
    name: str
    index: int
    path: str
    rule: str


class _Run:
    def __init__(self) -> None:
        self.errors: list[tuple[str, str]] = []

    def add(self, path: str, rule: str) -> None:
        self.errors.append((path, rule))

    def keys(self, obj: Any, path: str, allowed: set[str]) -> None:
        if isinstance(obj, Mapping):
            for k in obj:
                if k not in allowed:
                    self.add(f"{path}.{k}" if path else k, "unknown_field")


def _empty(v: Any) -> bool:
    return v is None or v == "" or v == [] or v == {}


def _num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _metadata(r: _Run, m: Any, path: str, *, v1alpha: bool = False) -> None:
    if not isinstance(m, Mapping):
        r.add(path, "required")
        return
    r.keys(m, path, {"name", "displayName"} if v1alpha else {"name", "displayName", "labels",
                                                             "annotations"})
    name = m.get("name")
    if _empty(name):
        r.add(f"{path}.name", "required")
    elif not isinstance(name, str) or len(name) > 63 or not DNS.match(name):
        r.add(f"{path}.name", "string_dns_label")
    dn = m.get("displayName")
    if isinstance(dn, str) and len(dn) > 63:
        r.add(f"{path}.displayName", "string_max_length")
    for k in (m.get("labels") or {}):
        if not isinstance(k, str) or not LABEL_KEY.match(k):
            r.add(f"{path}.labels.{k}", "string_match_regexp")
    for k in (m.get("annotations") or {}):
        if not isinstance(k, str) or not ANN_KEY_LEN.match(k) or not ANN_KEY.match(k):
            r.add(f"{path}.annotations.{k}", "string_match_regexp")


def _max(r: _Run, v: Any, path: str, n: int = 1050) -> None:
    if isinstance(v, str) and len(v) > n:
        r.add(path, "string_max_length")


def _duration(r: _Run, v: Any, path: str, *, required: bool = True) -> None:
    if _empty(v):
        if required:
            r.add(path, "required")
    elif not isinstance(v, str) or not SHORTHAND.match(v):
        r.add(path, "invalid_duration_shorthand")


def _metric(r: _Run, m: Any, path: str) -> None:
    if not isinstance(m, Mapping):
        r.add(path, "required")
        return
    r.keys(m, path, {"metricSource"})
    src = m.get("metricSource")
    if not isinstance(src, Mapping):
        r.add(f"{path}.metricSource", "required")
        return
    r.keys(src, f"{path}.metricSource", {"metricSourceRef", "type", "spec"})
    ref = src.get("metricSourceRef")
    if not _empty(ref) and not (isinstance(ref, str) and DNS.match(ref) and len(ref) <= 63):
        r.add(f"{path}.metricSource.metricSourceRef", "string_dns_label")
    if _empty(src.get("spec")):
        r.add(f"{path}.metricSource.spec", "required")


def _sli_spec(r: _Run, s: Any, path: str) -> None:
    if not isinstance(s, Mapping):
        s = {}
    r.keys(s, path, {"description", "thresholdMetric", "ratioMetric"})
    _max(r, s.get("description"), f"{path}.description")
    if ("thresholdMetric" in s) == ("ratioMetric" in s):
        r.add(path, "mutually_exclusive")
    if "thresholdMetric" in s:
        _metric(r, s["thresholdMetric"], f"{path}.thresholdMetric")
    rm = s.get("ratioMetric")
    if not isinstance(rm, Mapping):
        return
    rp = f"{path}.ratioMetric"
    r.keys(rm, rp, {"counter", "good", "bad", "total", "rawType", "raw"})
    has = {k for k in ("good", "bad", "total", "raw") if rm.get(k) is not None}
    if ("total" in has) == ("raw" in has):  # cascade stop: the next rules are not run
        r.add(rp, "mutually_exclusive")
        return
    if len(has & {"raw", "good", "bad"}) > 1:
        r.add(rp, "mutually_exclusive")
        return
    if "total" in has:
        if not has & {"good", "bad"}:
            r.add(rp, "one_of_properties")
            return
        for k in ("total", "good", "bad"):
            if k in has:
                _metric(r, rm[k], f"{rp}.{k}")
    else:
        _metric(r, rm["raw"], f"{rp}.raw")
        if rm.get("rawType") not in ("success", "failure"):
            r.add(f"{rp}.rawType", "one_of" if rm.get("rawType") else "required")


def _condition_spec(r: _Run, s: Any, path: str) -> None:
    if not isinstance(s, Mapping):
        r.add(path, "required")
        return
    r.keys(s, path, {"severity", "condition", "description"})
    _max(r, s.get("description"), f"{path}.description")
    if _empty(s.get("severity")):
        r.add(f"{path}.severity", "required")
    c = s.get("condition")
    if not isinstance(c, Mapping):
        r.add(f"{path}.condition", "required")
        return
    cp = f"{path}.condition"
    r.keys(c, cp, {"kind", "op", "threshold", "lookbackWindow", "alertAfter"})
    if _empty(c.get("kind")):
        r.add(f"{cp}.kind", "required")
    elif c.get("kind") != "burnrate":
        r.add(f"{cp}.kind", "one_of")
    if c.get("kind") == "burnrate":
        if _empty(c.get("op")):
            r.add(f"{cp}.op", "required")
        elif c.get("op") not in OPS:
            r.add(f"{cp}.op", "one_of")
        if c.get("threshold") is None:
            r.add(f"{cp}.threshold", "required")
        _duration(r, c.get("lookbackWindow"), f"{cp}.lookbackWindow")
        _duration(r, c.get("alertAfter"), f"{cp}.alertAfter", required=False)


def _ref_or_inline(r: _Run, item: Any, path: str, ref: str, kind: str, spec_rule: Any) -> None:
    if not isinstance(item, Mapping):
        r.add(path, "required")
        return
    inline = {k: v for k, v in item.items() if k != ref}
    if (ref in item) == bool(inline):
        r.add(path, "mutually_exclusive")
        return
    if ref in item:
        v = item[ref]
        if _empty(v):
            r.add(f"{path}.{ref}", "required")
        elif not (isinstance(v, str) and DNS.match(v) and len(v) <= 63):
            r.add(f"{path}.{ref}", "string_dns_label")
        return
    r.keys(item, path, {"kind", "metadata", "spec"})
    if item.get("kind") != kind:
        r.add(f"{path}.kind", "equal_to" if item.get("kind") else "required")
    _metadata(r, item.get("metadata"), f"{path}.metadata")
    spec_rule(r, item.get("spec"), f"{path}.spec")


def _target_spec(r: _Run, s: Any, path: str) -> None:
    if not isinstance(s, Mapping):
        s = {}
    r.keys(s, path, {"description", "target"})
    if _empty(s.get("target")):
        r.add(f"{path}.target", "required")
    _max(r, s.get("description"), f"{path}.description")


def _policy_spec(r: _Run, s: Any, path: str) -> None:
    if not isinstance(s, Mapping):
        s = {}
    r.keys(s, path, {"description", "alertWhenNoData", "alertWhenBreaching", "alertWhenResolved",
                     "conditions",
                     "notificationTargets"})
    _max(r, s.get("description"), f"{path}.description")
    conds = s.get("conditions") or []
    if len(conds) != 1:
        r.add(f"{path}.conditions", "slice_length")
    for i, c in enumerate(conds):
        _ref_or_inline(r, c, f"{path}.conditions[{i}]", "conditionRef", "AlertCondition",
                       _condition_spec)
    nts = s.get("notificationTargets") or []
    if len(nts) < 1:
        r.add(f"{path}.notificationTargets", "slice_min_length")
    for i, t in enumerate(nts):
        _ref_or_inline(r, t, f"{path}.notificationTargets[{i}]", "targetRef",
                       "AlertNotificationTarget", _target_spec)


def _calendar(r: _Run, cal: Any, path: str) -> None:
    start = cal.get("startTime")
    if isinstance(start, dt.datetime):
        start = start.strftime("%Y-%m-%d %H:%M:%S")
    try:
        dt.datetime.strptime(str(start), "%Y-%m-%d %H:%M:%S")
    except ValueError:
        r.add(f"{path}.startTime", "string_date_time")
    try:
        zoneinfo.ZoneInfo(str(cal.get("timeZone")))
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        r.add(f"{path}.timeZone", "string_time_zone")


def _slo_spec(r: _Run, s: Any, path: str) -> None:
    if not isinstance(s, Mapping):
        r.add(path, "required")
        return
    r.keys(s, path, {"description", "service", "indicator", "indicatorRef", "budgetingMethod",
                     "timeWindow",
                     "objectives", "alertPolicies"})
    objs = s.get("objectives") or []
    composite = any(
        isinstance(o, Mapping)
        and (o.get("indicator") is not None or o.get("indicatorRef") is not None)
        for o in objs
    )
    has_ind = s.get("indicator") is not None or s.get("indicatorRef") is not None
    if composite == has_ind:
        r.add(path, "mutually_exclusive")
    ind = s.get("indicator")
    if ind is not None and s.get("indicatorRef") is not None:
        r.add(path, "mutually_exclusive")
    elif isinstance(ind, Mapping):
        r.keys(ind, f"{path}.indicator", {"metadata", "spec"})
        _metadata(r, ind.get("metadata"), f"{path}.indicator.metadata")
        _sli_spec(r, ind.get("spec"), f"{path}.indicator.spec")
    elif s.get("indicatorRef") is not None:
        ref = s["indicatorRef"]
        if not (isinstance(ref, str) and DNS.match(ref) and len(ref) <= 63):
            r.add(f"{path}.indicatorRef", "string_dns_label")
    method = s.get("budgetingMethod")
    for i, o in enumerate(objs):
        op = f"{path}.objectives[{i}]"
        if method == "Timeslices":
            tst = o.get("timeSliceTarget")
            if tst is None:
                r.add(f"{op}.timeSliceTarget", "required")
            elif not (_num(tst) and 0 < tst <= 1):
                r.add(f"{op}.timeSliceTarget", "gt/lte")
        if method in ("Timeslices", "RatioTimeslices"):
            # the SDK's field is a DurationShorthand (text): a bare number does not decode
            _duration(r, o.get("timeSliceWindow"), f"{op}.timeSliceWindow")
    _max(r, s.get("description"), f"{path}.description")
    if _empty(s.get("service")):
        r.add(f"{path}.service", "required")
    if _empty(method):
        r.add(f"{path}.budgetingMethod", "required")
    elif method not in ("Occurrences", "Timeslices", "RatioTimeslices"):
        r.add(f"{path}.budgetingMethod", "one_of")
    tws = s.get("timeWindow")
    if tws is not None:
        if len(tws) != 1:
            r.add(f"{path}.timeWindow", "slice_length")
        for i, tw in enumerate(tws):
            tp = f"{path}.timeWindow[{i}]"
            r.keys(tw, tp, {"duration", "isRolling", "calendar"})
            if bool(tw.get("isRolling")) == (tw.get("calendar") is not None):
                r.add(tp, "calendar_vs_isRolling")
            _duration(r, tw.get("duration"), f"{tp}.duration")
            if isinstance(tw.get("calendar"), Mapping):
                _calendar(r, tw["calendar"], f"{tp}.calendar")
    for i, p in enumerate(s.get("alertPolicies") or []):
        _ref_or_inline(r, p, f"{path}.alertPolicies[{i}]", "alertPolicyRef", "AlertPolicy",
                       _policy_spec)
    ratio = isinstance(ind, Mapping) and isinstance(ind.get("spec"),
                                                    Mapping) and "ratioMetric" in ind["spec"]
    threshold = (
        isinstance(ind, Mapping)
        and isinstance(ind.get("spec"), Mapping)
        and "thresholdMetric" in ind["spec"]
    )
    for i, o in enumerate(objs):
        op = f"{path}.objectives[{i}]"
        r.keys(o, op, {"displayName", "op", "value", "target", "targetPercent", "timeSliceTarget",
                       "timeSliceWindow",
                       "indicator", "indicatorRef", "compositeWeight"})
        if ("target" in o) == ("targetPercent" in o):
            r.add(op, "mutually_exclusive")
        if "target" in o and not (_num(o["target"]) and 0 <= o["target"] < 1):
            r.add(f"{op}.target", "gte/lt")
        if "targetPercent" in o and not (
            _num(o["targetPercent"]) and 0 <= o["targetPercent"] < 100
        ):
            r.add(f"{op}.targetPercent", "gte/lt")
        if ratio:
            for k in ("value", "op"):
                if not _empty(o.get(k)):
                    r.add(f"{op}.{k}", "forbidden")
        if threshold:
            if o.get("value") is None:
                r.add(f"{op}.value", "required")
            if _empty(o.get("op")):
                r.add(f"{op}.op", "required")
            elif o.get("op") not in OPS:
                r.add(f"{op}.op", "one_of")


def _service_spec(r: _Run, s: Any, path: str) -> None:
    if isinstance(s, Mapping):
        r.keys(s, path, {"description"})
        _max(r, s.get("description"), f"{path}.description")


def _data_source_spec(r: _Run, s: Any, path: str) -> None:
    s = s if isinstance(s, Mapping) else {}
    r.keys(s, path, {"description", "type", "connectionDetails"})
    _max(r, s.get("description"), f"{path}.description")
    if _empty(s.get("type")):
        r.add(f"{path}.type", "required")
    if _empty(s.get("connectionDetails")):
        r.add(f"{path}.connectionDetails", "required")


_V1 = {"SLO": _slo_spec, "SLI": _sli_spec, "Service": _service_spec,
       "DataSource": _data_source_spec,
       "AlertPolicy": _policy_spec, "AlertCondition": _condition_spec,
       "AlertNotificationTarget": _target_spec}


def _v1alpha_metric(r: _Run, m: Any, path: str) -> None:
    m = m if isinstance(m, Mapping) else {}
    for k in ("source", "queryType"):
        if _empty(m.get(k)):
            r.add(f"{path}.{k}", "required")
        elif not ALPHA.match(str(m[k])):
            r.add(f"{path}.{k}", "string_alpha")
    if _empty(m.get("query")):
        r.add(f"{path}.query", "required")


def _v1alpha_slo(r: _Run, s: Any, path: str) -> None:
    if not isinstance(s, Mapping):
        r.add(path, "required")
        return
    objs = s.get("objectives") or []
    has_ratio = any(isinstance(o, Mapping) and o.get("ratioMetrics") is not None for o in objs)
    if has_ratio == (s.get("indicator") is not None):
        r.add(path, "mutually_exclusive")
        return  # cascade stop
    if s.get("budgetingMethod") == "Timeslices":
        for i, o in enumerate(objs):
            if o.get("timeSliceTarget") is None:
                r.add(f"{path}.objectives[{i}].timeSliceTarget", "required")
    _max(r, s.get("description"), f"{path}.description")
    if _empty(s.get("service")):
        r.add(f"{path}.service", "required")
    if isinstance(s.get("indicator"), Mapping):
        _v1alpha_metric(r, s["indicator"].get("thresholdMetric"),
                        f"{path}.indicator.thresholdMetric")
    if s.get("budgetingMethod") not in ("Occurrences", "Timeslices"):
        r.add(f"{path}.budgetingMethod", "one_of")
    tws = s.get("timeWindows") or []
    if len(tws) != 1:
        r.add(f"{path}.timeWindow", "slice_length")
    for i, tw in enumerate(tws):
        tp = f"{path}.timeWindow[{i}]"
        if bool(tw.get("isRolling")) == (tw.get("calendar") is not None):
            r.add(tp, "calendar_vs_isRolling")
        if tw.get("unit") not in ("Second", "Day", "Week", "Month", "Quarter"):
            r.add(f"{tp}.unit", "one_of")
        if not (isinstance(tw.get("count"), int) and tw["count"] > 0):
            r.add(f"{tp}.count", "gt")
    for i, o in enumerate(objs):
        op = f"{path}.objectives[{i}]"
        _max(r, o.get("displayName"), f"{op}.displayName")
        if isinstance(o.get("ratioMetrics"), Mapping):
            for k in ("good", "total"):
                _v1alpha_metric(r, o["ratioMetrics"].get(k), f"{op}.ratioMetrics.{k}")
        if o.get("value") is None:
            r.add(f"{op}.value", "required")
        t = o.get("target")
        if t is None:
            r.add(f"{op}.target", "required")
        elif not (_num(t) and 0 <= t < 1):
            r.add(f"{op}.target", "gte/lt")
        if o.get("ratioMetrics") is None and o.get("op") not in OPS:
            r.add(f"{op}.op", "required" if _empty(o.get("op")) else "one_of")
        if o.get("ratioMetrics") is not None and not _empty(o.get("op")):
            r.add(f"{op}.op", "forbidden")


def validate(objects: list[Any]) -> list[Violation]:
    """Every violation of the objects (one file's objects, in order, index from 0)."""
    out: list[Violation] = []
    for index, obj in enumerate(objects):
        r = _Run()
        version, kind = obj.get("apiVersion"), obj.get("kind")
        name = (obj.get("metadata") or {}).get("name", "")
        r.keys(obj, "", {"apiVersion", "kind", "metadata", "spec"})
        if version == "openslo/v1" and kind in _V1:
            _metadata(r, obj.get("metadata"), "metadata")
            _V1[kind](r, obj.get("spec"), "spec")
        elif version == "openslo/v1alpha" and kind in ("SLO", "Service"):
            _metadata(r, obj.get("metadata"), "metadata", v1alpha=True)
            if kind == "SLO":
                _v1alpha_slo(r, obj.get("spec"), "spec")
            else:
                _service_spec(r, obj.get("spec"), "spec")
        else:
            r.add("apiVersion/kind", "unsupported")
        out.extend(Violation(str(kind), str(name), index, p, rule) for p, rule in r.errors)
    return out
