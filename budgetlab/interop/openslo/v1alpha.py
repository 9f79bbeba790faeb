"""OpenSLO ``v1alpha`` in, as Sloth reads and writes it: each objective becomes one v1 SLO.

Sloth (github.com/slok/sloth, ``internal/storage/io/openslo.go``) reads ``apiVersion:
openslo/v1alpha`` ``kind: SLO`` files: every objective with ``ratioMetrics`` (good and total
queries) is one SLO named ``<name>-<index>``, its period is ``timeWindows[0].count`` days
(30 days without ``timeWindows``) and it has no alerts. budgetlab reads the same way, so the
names and ``sloth_slo`` labels of its rules match Sloth's, and turns each objective into an
``openslo/v1`` SLO object with an inline ``ratioMetric`` indicator
(``metricSource.type`` = the v1alpha ``source``, ``spec`` = ``query`` and ``queryType``), which
the v1 reader then reads. Threshold indicators, calendar windows other than 1 day/week/month,
and units without a fixed length are refused with the field's name.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...errors import ConfigError
from ._fields import quoted
from .checks import check_keys, check_name

__all__ = ["V1ALPHA", "from_v1alpha"]

V1ALPHA = "openslo/v1alpha"
_DAYS = {"Day": 1, "Week": 7}
_CALENDAR = {("Day", 1): "1d", ("Week", 1): "1w", ("Month", 1): "1M"}


def _metric(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise ConfigError(f"{where} must be a mapping with source, queryType and query.")
    check_keys(value, ("source", "queryType", "query"), where)
    for k in ("source", "queryType", "query"):
        if not isinstance(value.get(k), str) or not value[k].strip():
            raise ConfigError(f"{where}.{k} is required (a non-empty string).")
    return {"metricSource": {"type": value["source"], "spec": {"query": value["query"],
                                                                 "queryType": value["queryType"]}}}


def _time_window(spec: Mapping[str, Any], notes: list[str]) -> dict[str, Any]:
    tws = spec.get("timeWindows")
    if tws is None:
        notes.append("spec.timeWindows is absent: period 30 days, as Sloth reads it")
        return {"duration": "30d", "isRolling": True}
    if not isinstance(tws, list) or len(tws) != 1:
        raise ConfigError("spec.timeWindows must list exactly one time window.")
    tw = tws[0]
    if not isinstance(tw, Mapping):
        raise ConfigError("spec.timeWindows[0] must be a mapping with count and unit.")
    check_keys(tw, ("count", "unit", "isRolling", "calendar"), "spec.timeWindows[0]")
    count, unit = tw.get("count"), tw.get("unit")
    if isinstance(count, bool) or not isinstance(count, int) or count <= 0:
        raise ConfigError(f"spec.timeWindows[0].count={quoted(count)} must be a whole number > 0.")
    if "calendar" in tw or tw.get("isRolling") is False:
        duration = _CALENDAR.get((str(unit), count))
        if duration is None or "calendar" not in tw:
            raise ConfigError(f"spec.timeWindows[0]: a calendar window of {count} {unit} is not "
                              "supported; budgetlab "
                              "has calendar periods of 1 Day, 1 Week and 1 Month (with calendar "
                              "startTime and timeZone).")
        return {"duration": duration, "isRolling": False, "calendar": tw["calendar"]}
    if unit not in _DAYS:
        raise ConfigError(f"spec.timeWindows[0].unit={quoted(unit)} is not supported for a rolling "
                          "window; use Day or Week "
                          "(Month and Quarter have no fixed length; Sloth reads Day only).")
    if "isRolling" not in tw:
        notes.append("spec.timeWindows[0].isRolling is absent: read as a rolling window, as Sloth "
                     "reads it")
    return {"duration": f"{count * _DAYS[unit]}d", "isRolling": True}


def _objective(
    o: Any, where: str, method: Any, notes: list[str]
) -> tuple[dict[str, Any], dict[str, Any]]:
    if not isinstance(o, Mapping):
        raise ConfigError(f"{where} must be a mapping.")
    check_keys(o, ("displayName", "value", "ratioMetrics", "target", "timeSliceTarget", "op"),
               where)
    if "ratioMetrics" not in o:
        raise ConfigError(f"{where}.ratioMetrics is required: budgetlab evaluates ratio SLIs (good "
                          "over total); "
                          "threshold objectives (op/value) are not supported.")
    rm = o["ratioMetrics"]
    if not isinstance(rm, Mapping):
        raise ConfigError(f"{where}.ratioMetrics must be a mapping with good and total.")
    check_keys(rm, ("good", "total", "incremental"), f"{where}.ratioMetrics")
    incremental = rm.get("incremental", False)
    if not isinstance(incremental, bool):
        raise ConfigError(f"{where}.ratioMetrics.incremental must be true or false.")
    indicator_spec = {"ratioMetric": {"counter": incremental,
                                      "good": _metric(rm.get("good"), f"{where}.ratioMetrics.good"),
                                      "total": _metric(rm.get("total"),
                                                       f"{where}.ratioMetrics.total")}}
    for k in ("value", "op"):
        if k in o:
            notes.append(f"{where}.{k} has no meaning for a ratio objective: not read")
    if "target" not in o:
        raise ConfigError(f"{where}.target is required (a fraction, e.g. 0.999).")
    objective: dict[str, Any] = {"target": o["target"]}
    if o.get("displayName"):
        objective["displayName"] = o["displayName"]
    if method == "Timeslices":
        raise ConfigError("spec.budgetingMethod: Timeslices in openslo/v1alpha has no "
                          "timeSliceWindow; budgetlab needs "
                          "the slice length: write the SLO in openslo/v1 (timeSliceWindow).")
    return indicator_spec, objective


def from_v1alpha(obj: Mapping[str, Any]) -> list[tuple[dict[str, Any], list[str]]]:
    """``openslo/v1`` objects (with the notes of how they were read) for one v1alpha object.

    >>> slo = {"apiVersion": "openslo/v1alpha", "kind": "SLO", "metadata": {"name": "api"},
    ...        "spec": {"service": "web", "budgetingMethod": "Occurrences",
    ...                 "objectives": [{"target": 0.999, "ratioMetrics": {
    ...                     "good": {"source": "prometheus", "queryType": "promql", "query": "ok"},
    ...                     "total": {"source": "prometheus", "queryType": "promql",
    ...                               "query": "all"}}}],
    ...                 "timeWindows": [{"count": 28, "unit": "Day"}]}}
    >>> (v1, notes), = from_v1alpha(slo)
    >>> v1["metadata"]["name"], v1["spec"]["timeWindow"], v1["spec"]["objectives"]
    ('api-0', [{'duration': '28d', 'isRolling': True}], [{'target': 0.999}])
    """
    check_keys(obj, ("apiVersion", "kind", "metadata", "spec"), "")
    kind = obj.get("kind")
    meta = obj.get("metadata")
    if not isinstance(meta, Mapping):
        raise ConfigError("metadata must be a mapping with name.")
    check_keys(meta, ("name", "displayName"), "metadata")
    name = check_name(meta.get("name"), "metadata.name")
    spec = obj.get("spec")
    if kind == "Service":
        out: dict[str, Any] = {"apiVersion": "openslo/v1", "kind": "Service",
                               "metadata": dict(meta)}
        if spec is not None:
            out["spec"] = spec
        return [(out, [])]
    if kind != "SLO":
        raise ConfigError(f"kind={quoted(kind)} is not supported in {V1ALPHA}; budgetlab reads its "
                          "SLO and Service kinds.")
    if not isinstance(spec, Mapping):
        raise ConfigError("spec must be a mapping.")
    check_keys(spec, ("timeWindows", "budgetingMethod", "description", "indicator", "service",
                      "objectives"), "spec")
    if "indicator" in spec:
        raise ConfigError("spec.indicator (thresholdMetric) is not supported: budgetlab evaluates "
                          "good/total event "
                          "ratios; give objectives[].ratioMetrics.")
    objectives = spec.get("objectives")
    if not isinstance(objectives, list) or not objectives:
        raise ConfigError("spec.objectives must list at least one objective.")
    notes: list[str] = ["openslo/v1alpha: read as Sloth reads it, one SLO per objective named "
                        f"'{name}-<index>'"]
    window = _time_window(spec, notes)
    out_list = []
    for i, o in enumerate(objectives):
        own = list(notes)
        ind_spec, objective = _objective(o, f"spec.objectives[{i}]", spec.get("budgetingMethod"),
                                         own)
        v1_spec: dict[str, Any] = {}
        for k in ("description", "service"):
            if k in spec:
                v1_spec[k] = spec[k]
        v1_spec.update(indicator={"metadata": {"name": f"{name}-{i}"}, "spec": ind_spec},
                       timeWindow=[window],
                       budgetingMethod=spec.get("budgetingMethod"), objectives=[objective])
        v1_meta = {"name": f"{name}-{i}",
                   **({"displayName": meta["displayName"]} if "displayName" in meta else {})}
        out_list.append(({"apiVersion": "openslo/v1", "kind": "SLO", "metadata": v1_meta,
                          "spec": v1_spec}, own))
    return out_list
