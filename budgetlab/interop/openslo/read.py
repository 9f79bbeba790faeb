"""OpenSLO v1 in: ``kind: SLO`` with its ``AlertPolicy`` and ``AlertCondition`` objects ->
:class:`~.model.SLODocument`. Anything that would change the meaning raises
:class:`~budgetlab.ConfigError` naming the field path."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from ..._util.validation import check_fraction, check_number, check_tz, check_whole
from ...alerts.policy import AlertPolicy, AlertTier
from ...errors import ConfigError
from ...slo import SLO
from ._fields import check_indicator, check_str, check_strings, normalize_start, prefix
from ._yaml import load_documents
from .durations import parse_duration_shorthand
from .model import ANNOTATION_PREFIX, API_VERSION, CALENDARS, METHODS, SLODocument

__all__ = ["read_openslo", "load_slo"]

_KINDS = ("SLO", "AlertPolicy", "AlertCondition")
_SLO_ANNOTATIONS = ("warning", "critical", "min-events")
_POLICY_ANNOTATIONS = ("policy", "period")
_CONDITION_ANNOTATIONS = ("tier", "short-window", "keep-firing-for")
_OPS = ("lt", "lte", "gt", "gte")


def _keys(obj: Mapping[str, Any], allowed: Iterable[str], where: str, why: Mapping[str, str] | None = None) -> None:
    allowed = set(allowed)
    for k in obj:
        if k not in allowed:
            reason = (why or {}).get(k, "budgetlab does not read this field")
            raise ConfigError(f"{prefix(where)}{k} is not supported ({reason}); supported here: "
                              f"{', '.join(sorted(allowed))}.")


def _mapping(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, Mapping):
        raise ConfigError(f"{where} must be a mapping.")
    return dict(value)


def _metadata(obj: Mapping[str, Any], where: str) -> tuple[str, str, dict[str, Any], dict[str, str]]:
    meta = _mapping(obj.get("metadata"), f"{prefix(where)}metadata")
    _keys(meta, ("name", "displayName", "labels", "annotations"), f"{prefix(where)}metadata")
    name = check_str(meta.get("name"), f"{prefix(where)}metadata.name", required=True)
    display = check_str(meta.get("displayName"), f"{prefix(where)}metadata.displayName")
    labels = check_strings(meta.get("labels"), f"{prefix(where)}metadata.labels", lists=True)
    ann = check_strings(meta.get("annotations"), f"{prefix(where)}metadata.annotations")
    return name, display, labels, ann


def _own_annotations(ann: dict[str, str], allowed: Sequence[str], where: str) -> tuple[dict[str, str], dict[str, str]]:
    """Split annotations into (budgetlab ones without prefix, the rest)."""
    own: dict[str, str] = {}
    rest: dict[str, str] = {}
    for k, v in ann.items():
        if k.startswith(ANNOTATION_PREFIX):
            short = k[len(ANNOTATION_PREFIX):]
            if short not in allowed:
                raise ConfigError(f"{prefix(where)}metadata.annotations.{k} is not a budgetlab annotation here; "
                                  f"known: {', '.join(ANNOTATION_PREFIX + a for a in allowed)}.")
            own[short] = v
        else:
            rest[k] = v
    return own, rest


def _bool(value: Any, where: str, default: bool) -> bool:
    if value is None:
        return default
    if not isinstance(value, bool):
        raise ConfigError(f"{where} must be true or false.")
    return value


def _check_envelope(obj: Any, where: str, *, inline_kind: str | None = None) -> str:
    if not isinstance(obj, Mapping):
        raise ConfigError(f"{where or 'each object'} must be a mapping with apiVersion, kind, metadata and spec.")
    if inline_kind is None or "apiVersion" in obj:
        version = obj.get("apiVersion")
        if version != API_VERSION:
            raise ConfigError(f"{prefix(where)}apiVersion={version!r} is not supported; budgetlab reads {API_VERSION!r}.")
    kind = obj.get("kind", inline_kind)
    expected = _KINDS if inline_kind is None else (inline_kind,)
    if kind not in expected:
        raise ConfigError(f"{prefix(where)}kind={kind!r} is not supported here; budgetlab reads kind "
                          f"{', '.join(expected)}.")
    _keys(obj, ("apiVersion", "kind", "metadata", "spec"), where)
    return str(kind)


def _parse_condition(obj: Mapping[str, Any], where: str) -> AlertTier:
    name, _display, _labels, ann = _metadata(obj, where)
    own, _rest = _own_annotations(ann, _CONDITION_ANNOTATIONS, where)
    spec = _mapping(obj.get("spec"), f"{prefix(where)}spec")
    _keys(spec, ("description", "severity", "condition"), f"{prefix(where)}spec")
    severity = check_str(spec.get("severity"), f"{prefix(where)}spec.severity", required=True)
    cond = _mapping(spec.get("condition"), f"{prefix(where)}spec.condition")
    cw = f"{prefix(where)}spec.condition"
    _keys(cond, ("kind", "op", "threshold", "lookbackWindow", "alertAfter"), cw)
    kind = cond.get("kind", "burnrate")
    if kind != "burnrate":
        raise ConfigError(f"{prefix(cw)}kind={kind!r} is not supported; budgetlab reads burnrate conditions.")
    op = cond.get("op", "gt")
    if op != "gt":
        raise ConfigError(f"{prefix(cw)}op={op!r} is not supported: a burn-rate alert fires while the burn rate is "
                          "above the threshold (op: gt), as in Prometheus's '>'.")
    if "threshold" not in cond:
        raise ConfigError(f"{prefix(cw)}threshold is required (the burn rate, e.g. 14.4).")
    threshold = check_number(f"{prefix(cw)}threshold", cond["threshold"])
    if "lookbackWindow" not in cond:
        raise ConfigError(f"{prefix(cw)}lookbackWindow is required (e.g. 1h).")
    long_w = parse_duration_shorthand(cond["lookbackWindow"], where=f"{prefix(cw)}lookbackWindow")
    after = parse_duration_shorthand(cond.get("alertAfter", "0m"), where=f"{prefix(cw)}alertAfter", allow_zero=True)
    short_w = None
    if "short-window" in own:
        short_w = parse_duration_shorthand(own["short-window"], where=f"{prefix(where)}metadata.annotations.budgetlab/short-window")
    cool = pd.Timedelta(0)
    if "keep-firing-for" in own:
        cool = parse_duration_shorthand(own["keep-firing-for"], allow_zero=True,
                                        where=f"{prefix(where)}metadata.annotations.budgetlab/keep-firing-for")
    with _context(f"{prefix(where)}spec.condition"):
        return AlertTier(own.get("tier", name), severity, long_w, short_w, threshold, for_=after, cooldown=cool)


@contextlib.contextmanager
def _context(label: str) -> Iterator[None]:
    """Prefix the message of a ConfigError raised inside with ``label: ``."""
    try:
        yield
    except ConfigError as exc:
        if not label:
            raise
        raise ConfigError(f"{label}: {exc}") from None


@dataclass
class _Objects:
    label: str
    slos: list[tuple[str, dict[str, Any]]]
    policies: dict[str, tuple[str, dict[str, Any]]]
    conditions: dict[str, tuple[str, dict[str, Any]]]
    used: set[tuple[str, str]]


_Parsed = tuple[str, str | None, pd.Timedelta | None, list[AlertTier]]


def _resolve_policy(item: Any, where: str, objs: _Objects) -> _Parsed:
    """(name, budgetlab/policy and budgetlab/period annotations or None, tiers) of one
    ``alertPolicies`` item."""
    if isinstance(item, str) or (isinstance(item, Mapping) and set(item) == {"alertPolicyRef"}):
        ref = item if isinstance(item, str) else item["alertPolicyRef"]
        if not isinstance(ref, str) or ref not in objs.policies:
            raise ConfigError(f"{where}: alertPolicyRef {ref!r} names no AlertPolicy in {objs.label}.")
        objs.used.add(("AlertPolicy", ref))
        ctx, obj = objs.policies[ref]
        with _context(ctx):
            return _parse_policy(obj, "", objs)
    _check_envelope(item, where, inline_kind="AlertPolicy")
    return _parse_policy(dict(item), where, objs)


def _parse_policy(obj: Mapping[str, Any], pwhere: str, objs: _Objects) -> _Parsed:
    name, _display, _labels, ann = _metadata(obj, pwhere)
    own, _rest = _own_annotations(ann, _POLICY_ANNOTATIONS, pwhere)
    spec = _mapping(obj.get("spec"), f"{prefix(pwhere)}spec")
    _keys(spec, ("description", "alertWhenNoData", "alertWhenBreaching", "alertWhenResolved", "conditions",
                 "notificationTargets"), f"{prefix(pwhere)}spec")
    if not _bool(spec.get("alertWhenBreaching"), f"{prefix(pwhere)}spec.alertWhenBreaching", True):
        raise ConfigError(f"{prefix(pwhere)}spec.alertWhenBreaching: false is not supported: budgetlab's alerts fire "
                          "while the condition breaches.")
    if _bool(spec.get("alertWhenNoData"), f"{prefix(pwhere)}spec.alertWhenNoData", False):
        raise ConfigError(f"{prefix(pwhere)}spec.alertWhenNoData: true is not supported: a window without traffic has "
                          "burn rate 0 in budgetlab and never alerts.")
    _bool(spec.get("alertWhenResolved"), f"{prefix(pwhere)}spec.alertWhenResolved", False)
    nt = spec.get("notificationTargets")
    if nt is not None and not isinstance(nt, list):
        raise ConfigError(f"{prefix(pwhere)}spec.notificationTargets must be a list.")
    conds = spec.get("conditions")
    if not isinstance(conds, list) or not conds:
        raise ConfigError(f"{prefix(pwhere)}spec.conditions must list at least one condition.")
    tiers = []
    for i, c in enumerate(conds):
        cwhere = f"{prefix(pwhere)}spec.conditions[{i}]"
        if isinstance(c, Mapping) and set(c) == {"conditionRef"}:
            ref = c["conditionRef"]
            if not isinstance(ref, str) or ref not in objs.conditions:
                raise ConfigError(f"{cwhere}: conditionRef {ref!r} names no AlertCondition in {objs.label}.")
            objs.used.add(("AlertCondition", ref))
            ctx, ref_obj = objs.conditions[ref]
            with _context(ctx):
                tiers.append(_parse_condition(ref_obj, ""))
        else:
            _check_envelope(c, cwhere, inline_kind="AlertCondition")
            tiers.append(_parse_condition(c, cwhere))
    period = None
    if "period" in own:
        period = parse_duration_shorthand(own["period"], where=f"{prefix(pwhere)}metadata.annotations.budgetlab/period")
    return name, own.get("policy"), period, tiers


def _parse_indicator(spec: Mapping[str, Any], sw: str) -> tuple[dict[str, Any] | None, str | None]:
    """``spec.indicator`` (kept verbatim, a ratio SLI) and ``spec.indicatorRef``."""
    indicator = spec.get("indicator")
    if indicator is not None:
        indicator = _mapping(indicator, f"{prefix(sw)}indicator")
        check_indicator(indicator, f"{prefix(sw)}indicator")
    indicator_ref = spec.get("indicatorRef")
    if indicator_ref is not None:
        indicator_ref = check_str(indicator_ref, f"{prefix(sw)}indicatorRef", required=True)
    return indicator, indicator_ref


def _parse_time_window(spec: Mapping[str, Any], sw: str) -> dict[str, Any]:
    """``window`` and, for a calendar window, ``calendar``, ``calendar_start`` and ``time_zone``."""
    tw = spec.get("timeWindow")
    if tw is None:
        raise ConfigError(f"{prefix(sw)}timeWindow is required by budgetlab (the SLO window, e.g. 28d rolling).")
    if not isinstance(tw, list) or len(tw) != 1:
        raise ConfigError(f"{prefix(sw)}timeWindow must be a list with exactly one item.")
    tww = f"{prefix(sw)}timeWindow[0]"
    item = _mapping(tw[0], tww)
    _keys(item, ("duration", "isRolling", "calendar"), tww)
    if "duration" not in item:
        raise ConfigError(f"{prefix(tww)}duration is required (e.g. 28d).")
    cal = item.get("calendar")
    if _bool(item.get("isRolling"), f"{prefix(tww)}isRolling", cal is None):
        if cal is not None:
            raise ConfigError(f"{tww}: isRolling: true contradicts calendar; give one of them.")
        return {"window": parse_duration_shorthand(item["duration"], where=f"{prefix(tww)}duration")}
    if cal is None:
        raise ConfigError(f"{tww}: isRolling: false needs calendar (startTime, timeZone).")
    duration = item["duration"]
    if duration not in CALENDARS:
        raise ConfigError(f"{prefix(tww)}duration={duration!r} is not supported for a calendar window; budgetlab "
                          "has calendar periods 1d, 1w and 1M (note: 'm' is minutes, 'M' months).")
    calendar, window = CALENDARS[duration]
    cmap = _mapping(cal, f"{prefix(tww)}calendar")
    _keys(cmap, ("startTime", "timeZone"), f"{prefix(tww)}calendar")
    for k in ("startTime", "timeZone"):
        if cmap.get(k) is None:
            raise ConfigError(f"{prefix(tww)}calendar.{k} is required.")
    return {"window": window, "calendar": calendar,
            "calendar_start": normalize_start(cmap["startTime"], f"{prefix(tww)}calendar.startTime"),
            "time_zone": check_tz(cmap["timeZone"], name=f"{prefix(tww)}calendar.timeZone")}


def _parse_objective(spec: Mapping[str, Any], sw: str, method: str) -> dict[str, Any]:
    """``target`` and the other :class:`SLODocument` fields of the one objective."""
    objectives = spec.get("objectives")
    if not isinstance(objectives, list) or not objectives:
        raise ConfigError(f"{prefix(sw)}objectives must list one objective.")
    if len(objectives) > 1:
        raise ConfigError(f"{prefix(sw)}objectives lists {len(objectives)} objectives; budgetlab reads one objective "
                          "per SLO: split them into one SLO each.")
    ow = f"{prefix(sw)}objectives[0]"
    objective = _mapping(objectives[0], ow)
    _keys(objective, ("displayName", "op", "target", "targetPercent", "timeSliceTarget", "timeSliceWindow"), ow,
          why={"value": "thresholdMetric objectives (op/value) are not supported; budgetlab evaluates ratio SLIs",
               "indicator": "per-objective indicators are not part of openslo/v1 SLO objectives",
               "indicatorRef": "per-objective indicators are not part of openslo/v1 SLO objectives"})
    op = objective.get("op")
    if op is not None and op not in _OPS:
        raise ConfigError(f"{prefix(ow)}op={op!r} must be one of lt, lte, gt, gte.")
    if ("target" in objective) == ("targetPercent" in objective):
        raise ConfigError(f"{ow}: give exactly one of target and targetPercent.")
    if "target" in objective:
        target = check_fraction(f"{prefix(ow)}target", objective["target"])
    else:
        pct = check_number(f"{prefix(ow)}targetPercent", objective["targetPercent"])
        if not 0 < pct < 100:
            raise ConfigError(f"{prefix(ow)}targetPercent={pct!r} must lie in (0, 100).")
        target = pct / 100
    out = {"target": target, "objective_op": op,
           "objective_name": check_str(objective.get("displayName"), f"{prefix(ow)}displayName")}
    slicing = ("timeSliceTarget", "timeSliceWindow")
    if method != "Timeslices":
        for k in slicing:
            if k in objective:
                raise ConfigError(f"{prefix(ow)}{k} applies to budgetingMethod: Timeslices only.")
        return out
    for k in slicing:
        if k not in objective:
            raise ConfigError(f"{prefix(ow)}{k} is required with budgetingMethod: Timeslices.")
    out["time_slice_target"] = check_fraction(f"{prefix(ow)}timeSliceTarget", objective["timeSliceTarget"],
                                              high_open=False)
    tsw = objective["timeSliceWindow"]
    if isinstance(tsw, int) and not isinstance(tsw, bool):  # the spec: a bare number is minutes
        out["time_slice_window"] = pd.Timedelta(minutes=check_whole(f"{prefix(ow)}timeSliceWindow", tsw, low=1))
    else:
        out["time_slice_window"] = parse_duration_shorthand(tsw, where=f"{prefix(ow)}timeSliceWindow")
    return out


def _slo_thresholds(own: Mapping[str, str], where: str) -> dict[str, Any]:
    """:class:`SLO` ``warning``, ``critical`` and ``min_events`` from the budgetlab annotations."""
    out: dict[str, Any] = {}
    for key, fname, conv in (("warning", "warning", float), ("critical", "critical", float),
                             ("min-events", "min_events", int)):
        if key in own:
            try:
                out[fname] = conv(own[key])
            except ValueError:
                raise ConfigError(f"{prefix(where)}metadata.annotations.budgetlab/{key} must be a number.") from None
    return out


def _alert_policies(spec: Mapping[str, Any], sw: str, objs: _Objects, window: pd.Timedelta) -> tuple[AlertPolicy, ...]:
    """The ``alertPolicies`` as :class:`AlertPolicy` objects, consecutive ones with the same
    ``budgetlab/policy`` annotation merged into one."""
    raw = spec.get("alertPolicies")
    if raw is not None and not isinstance(raw, list):
        raise ConfigError(f"{prefix(sw)}alertPolicies must be a list.")
    groups: list[tuple[str, str | None, pd.Timedelta, list[AlertTier]]] = []
    for i, it in enumerate(raw or []):
        iw = f"{prefix(sw)}alertPolicies[{i}]"
        pname, group, period, tiers = _resolve_policy(it, iw, objs)
        period = window if period is None else period
        if group is not None and groups and groups[-1][1] == group:
            if groups[-1][2] != period:
                raise ConfigError(f"{iw}: the policies grouped as budgetlab/policy {group!r} have different "
                                  "budgetlab/period annotations.")
            groups[-1][3].extend(tiers)
        else:
            groups.append((group if group is not None else pname, group, period, list(tiers)))
    return tuple(AlertPolicy(tuple(tiers), period=period, name=pname) for pname, _, period, tiers in groups)


def _parse_slo(obj: dict[str, Any], objs: _Objects) -> SLODocument:
    name, display, labels, ann = _metadata(obj, "")
    own, rest = _own_annotations(ann, _SLO_ANNOTATIONS, "")
    sw = "spec"
    spec = _mapping(obj.get("spec"), sw)
    _keys(spec, ("description", "service", "indicator", "indicatorRef", "timeWindow", "budgetingMethod",
                 "objectives", "alertPolicies"), sw)
    indicator, indicator_ref = _parse_indicator(spec, sw)
    window = _parse_time_window(spec, sw)
    method = spec.get("budgetingMethod")
    if method not in METHODS:
        raise ConfigError(f"{prefix(sw)}budgetingMethod={method!r} is not supported; use Occurrences or Timeslices.")
    objective = _parse_objective(spec, sw, method)
    slo = SLO(target=objective.pop("target"), window=window.pop("window"), **_slo_thresholds(own, ""))
    return SLODocument(
        name=name, slo=slo, service=check_str(spec.get("service"), f"{prefix(sw)}service"), display_name=display,
        description=check_str(spec.get("description"), f"{prefix(sw)}description"), budgeting_method=method,
        alert_policies=_alert_policies(spec, sw, objs, slo.window), indicator=indicator,
        indicator_ref=indicator_ref, labels=labels, annotations=rest, **window, **objective,
    )


def read_openslo(source: str | os.PathLike[str]) -> list[SLODocument]:
    """Read the SLOs of an OpenSLO v1 file (or YAML text), with their alert policies.

    The file may hold several YAML documents (``---``) or lists of objects. ``AlertPolicy``
    objects are found by ``alertPolicyRef`` (or inline), ``AlertCondition`` objects by
    ``conditionRef`` (or inline). Every object must be used: an AlertPolicy or AlertCondition
    that no SLO references raises ConfigError, as does any other kind (Service, SLI, ...).

    Returns
    -------
    list of SLODocument
        In file order.

    Examples
    --------
    >>> text = '''
    ... apiVersion: openslo/v1
    ... kind: SLO
    ... metadata: {name: solve-rate}
    ... spec:
    ...   service: captcha
    ...   timeWindow: [{duration: 1d, isRolling: true}]
    ...   budgetingMethod: Occurrences
    ...   objectives: [{targetPercent: 95}]
    ... '''
    >>> doc, = read_openslo(text)
    >>> doc.slo
    SLO(target=0.95, window=Timedelta('1 days 00:00:00'), warning=0.5, critical=0.1, min_events=0)
    >>> read_openslo(text.replace("targetPercent: 95", "target: 0.95, value: 3"))
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: <text>, SLO 'solve-rate': spec.objectives[0].value is not supported (thresholdMetric objectives (op/value) are not supported; budgetlab evaluates ratio SLIs); supported here: displayName, op, target, targetPercent, timeSliceTarget, timeSliceWindow.
    """
    objects, label = load_documents(source)
    objs = _Objects(label=label, slos=[], policies={}, conditions={}, used=set())
    slo_names: set[str] = set()
    for i, obj in enumerate(objects, start=1):
        with _context(f"{label}, document {i}"):
            kind = _check_envelope(obj, "")
            meta = obj.get("metadata")
            name = meta.get("name") if isinstance(meta, Mapping) else None
            if not isinstance(name, str) or not name.strip():
                raise ConfigError("metadata.name is required.")
        ctx = f"{label}, {kind} {name!r}"
        if kind == "SLO":
            if name in slo_names:
                raise ConfigError(f"{ctx}: another SLO has the same name; names must be unique.")
            slo_names.add(name)
            objs.slos.append((ctx, dict(obj)))
        else:
            table = objs.policies if kind == "AlertPolicy" else objs.conditions
            if name in table:
                raise ConfigError(f"{ctx}: another {kind} has the same name; names must be unique.")
            table[name] = (ctx, dict(obj))
    if not objs.slos:
        raise ConfigError(f"{label}: holds no kind: SLO object.")
    docs = []
    for ctx, obj in objs.slos:
        with _context(ctx):
            docs.append(_parse_slo(obj, objs))
    for kind, table in (("AlertPolicy", objs.policies), ("AlertCondition", objs.conditions)):
        for name, (ctx, _) in table.items():
            if (kind, name) not in objs.used:
                raise ConfigError(f"{ctx}: no SLO uses this {kind}; reference it (alertPolicyRef / "
                                  "conditionRef) or remove it.")
    return docs


def load_slo(spec: str) -> SLO:
    """The :class:`SLO` of an OpenSLO file, for ``budgetlab replay --slo FILE[#NAME]``.

    ``#NAME`` picks one SLO of a file that holds several. A calendar-aligned window is
    replayed as a trailing window of its nominal length; a note on stderr says so.
    """
    path, _, name = str(spec).partition("#")
    docs = read_openslo(Path(path))
    if name:
        chosen = [d for d in docs if d.name == name]
        if not chosen:
            raise ConfigError(f"{path}: has no SLO named {name!r}; it holds {', '.join(repr(d.name) for d in docs)}.")
        doc = chosen[0]
    elif len(docs) == 1:
        doc = docs[0]
    else:
        raise ConfigError(f"{path}: holds {len(docs)} SLOs; pick one with {path}#NAME "
                          f"({', '.join(d.name for d in docs)}).")
    if doc.calendar is not None:
        sys.stderr.write(f"note: SLO {doc.name!r} has a calendar {doc.calendar} window; the tracker replays it as a "
                         f"trailing {doc.slo.window} window.\n")
    return doc.slo

