"""OpenSLO in: ``openslo/v1`` files with every kind (SLO, SLI, Service, DataSource, AlertPolicy,
AlertCondition, AlertNotificationTarget) and ``openslo/v1alpha`` (as Sloth reads it) ->
:class:`~.model.SLODocument`; Sloth's own ``prometheus/v1`` specs (:mod:`.sloth`) and Pyrra's
``ServiceLevelObjective`` resources (:mod:`.pyrra`) are read into the same documents.

Every object must first pass the OpenSLO v1 rules (:mod:`.checks`, ported from the Go SDK);
then anything budgetlab cannot honour raises :class:`~budgetlab.ConfigError` naming the field
path. What budgetlab had to decide is kept in :attr:`SLODocument.notes`."""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Mapping, Sequence
from typing import Any

from ..._util.validation import check_fraction, check_tz, percent_to_fraction
from ...errors import ConfigError
from ...slo import SLO
from ._fields import (
    check_str,
    check_strings,
    normalize_start,
    parse_duration_shorthand,
    quoted,
    refuse_threshold,
)
from ._policies import ObjectTable, context, own_annotations, parse_alert_policies
from ._yaml import load_documents
from .checks import KINDS
from .checks_slo import check_object
from .indicators import is_events_indicator
from .model import API_VERSION, CALENDARS, SLODocument
from .pyrra import from_pyrra, is_pyrra
from .sloth import TRACKER_NOTE, from_sloth, is_sloth_spec
from .v1alpha import V1ALPHA, from_v1alpha

__all__ = ["read_openslo", "Source"]

_SLO_ANNOTATIONS = ("warning", "critical", "min-events", "window", "name")
#: A file path or YAML text.
Source = str | os.PathLike[str]


def _indicator(spec: Mapping[str, Any], table: ObjectTable, notes: list[str]
               ) -> tuple[dict[str, Any] | None, str | None, list[dict[str, Any]]]:
    """(indicator, indicator_ref, data sources) of an SLO spec; an ``indicatorRef`` is resolved
    when the file holds that ``kind: SLI``."""
    ref = spec.get("indicatorRef")
    where = "spec.indicator"
    if ref is not None:
        found = table.get("SLI", ref)
        if found is None:
            notes.append(f"spec.indicatorRef {ref!r}: no kind: SLI of that name in the files read; "
                         "kept as a reference")
            return None, ref, []
        ind = {"metadata": found[1]["metadata"], "spec": found[1]["spec"]}
        where = f"SLI {ref!r} (spec.indicatorRef): spec"
    else:
        ind = dict(spec["indicator"])
        where = "spec.indicator.spec"
    refuse_threshold(ind["spec"], where)
    sources = []
    for part in ("good", "bad", "total", "raw"):
        src_ref = ind["spec"]["ratioMetric"].get(part, {}).get("metricSource",
                                                               {}).get("metricSourceRef")
        if src_ref:
            found_ds = table.get("DataSource", src_ref)
            if found_ds is None:
                notes.append(f"{where}.ratioMetric.{part}.metricSource.metricSourceRef "
                             f"{src_ref!r}: no kind: DataSource "
                             "of that name in the files read; kept as a reference")
            elif found_ds[1] not in sources:
                sources.append(found_ds[1])
    if ref is None and is_events_indicator(ind):
        return None, None, sources
    return ind, ref, sources


def _time_window(spec: Mapping[str, Any]) -> dict[str, Any]:
    """``period`` and, for a calendar window, ``calendar``, ``calendar_start`` and ``time_zone``."""
    tw = spec.get("timeWindow")
    if tw is None:
        raise ConfigError("spec.timeWindow is required by budgetlab (the SLO period, e.g. 28d "
                          "rolling).")
    item = tw[0]
    tww = "spec.timeWindow[0]"
    if item.get("isRolling"):
        return {"period": parse_duration_shorthand(item["duration"], where=f"{tww}.duration")}
    duration = item["duration"]
    if duration not in CALENDARS:
        raise ConfigError(f"{tww}.duration={quoted(duration)} is not supported for a calendar "
                          "window; budgetlab has calendar "
                          "periods 1d, 1w and 1M (note: 'm' is minutes, 'M' months).")
    calendar, period = CALENDARS[duration]
    cal = item["calendar"]
    if cal.get("timeZone") is None:
        raise ConfigError(f"{tww}.calendar.timeZone is required for a calendar window (an IANA "
                          "name such as "
                          "'Europe/Berlin').")
    return {"period": period, "calendar": calendar,
            "calendar_start": normalize_start(cal["startTime"], f"{tww}.calendar.startTime"),
            "time_zone": check_tz(cal["timeZone"], name=f"{tww}.calendar.timeZone")}


def _objective(spec: Mapping[str, Any], ratio_known: bool, notes: list[str]) -> dict[str, Any]:
    """``target`` and the other :class:`SLODocument` fields of the one objective."""
    objectives = spec["objectives"]
    if len(objectives) > 1:
        raise ConfigError(f"spec.objectives lists {len(objectives)} objectives; budgetlab reads "
                          "one objective per SLO: "
                          "split them into one SLO each.")
    ow = "spec.objectives[0]"
    objective = objectives[0]
    if "target" in objective:
        target = check_fraction(f"{ow}.target", objective["target"])
    else:
        target = percent_to_fraction(f"{ow}.targetPercent", objective["targetPercent"])
    if "value" in objective:
        raise ConfigError(f"{ow}.value is not supported (thresholdMetric objectives (op/value) are "
                          "not supported; "
                          "budgetlab evaluates ratio SLIs).")
    op = objective.get("op")
    if op is not None and ratio_known:
        raise ConfigError(f"{ow}.op is forbidden with a ratio SLI (OpenSLO v1; the Go SDK: "
                          "'property is forbidden'): "
                          "op belongs to threshold metrics; delete it.")
    out: dict[str, Any] = {"target": target, "objective_op": op,
                           "objective_name": objective.get("displayName", "")}
    method = spec["budgetingMethod"]
    if method == "Occurrences":
        for k, methods in (("timeSliceTarget", "Timeslices"),
                           ("timeSliceWindow", "Timeslices or RatioTimeslices")):
            if k in objective:  # the fix: which field to delete, or which method reads it
                raise ConfigError(f"{ow}.{k} applies to the time-slice budgeting methods only "
                                  f"({methods}), and spec.budgetingMethod is Occurrences (each "
                                  f"event counted): delete {k}, or set budgetingMethod: "
                                  f"{methods} to budget time slices.")
        return out
    if method == "RatioTimeslices" and "timeSliceTarget" in objective:
        raise ConfigError(f"{ow}.timeSliceTarget has no meaning with RatioTimeslices (the target "
                          "applies to the mean "
                          "per-slice ratio); drop it or use Timeslices.")
    if method == "Timeslices":
        out["time_slice_target"] = check_fraction(f"{ow}.timeSliceTarget",
                                                  objective["timeSliceTarget"],
                                                  high_open=False)
    out["time_slice_window"] = parse_duration_shorthand(objective["timeSliceWindow"],
                                                        where=f"{ow}.timeSliceWindow")
    return out


def _slo_fields(meta: Mapping[str, Any], notes: list[str]) -> tuple[str, dict[str, Any], dict[str,
                                                                                              str]]:
    """(name, SLO keyword arguments, other annotations) from the SLO's metadata."""
    own, rest = own_annotations(meta, _SLO_ANNOTATIONS, "")
    out: dict[str, Any] = {}
    for key, fname, conv in (("warning", "warning", float), ("critical", "critical", float),
                             ("min-events", "min_events", int)):
        if key in own:
            try:
                out[fname] = conv(own[key])
            except ValueError:
                raise ConfigError(f"metadata.annotations.budgetlab/{key} must be a "
                                  "number.") from None
    if "window" in own:
        out["window"] = parse_duration_shorthand(own["window"],
                                                 where="metadata.annotations.budgetlab/window")
    name = meta["name"]
    if "name" in own:
        name = check_str(own["name"], "metadata.annotations.budgetlab/name", required=True)
        notes.append(f"name {name!r} from budgetlab/name (written as the RFC 1123 name "
                     f"{meta['name']!r})")
    return name, out, rest


def _parse_slo(obj: Mapping[str, Any], table: ObjectTable, notes: list[str],
               version: str = API_VERSION) -> SLODocument:
    meta, spec = obj["metadata"], obj["spec"]
    if any("indicator" in o or "indicatorRef" in o for o in spec["objectives"]):
        raise ConfigError("spec.objectives[0].indicator: composite SLOs (an indicator per "
                          "objective) are not "
                          "supported; budgetlab reads one ratio SLI per SLO.")
    name, slo_kw, rest = _slo_fields(meta, notes)
    indicator, indicator_ref, companions = _indicator(spec, table, notes)
    window = _time_window(spec)
    objective = _objective(spec, indicator is not None or "indicator" in spec, notes)
    period = window.pop("period")
    if "window" not in slo_kw:
        notes.append(f"{TRACKER_NOTE}the period {spec['timeWindow'][0]['duration']} (no "
                     "budgetlab/window annotation)")
        slo_kw["window"] = period
    slo = SLO(target=objective.pop("target"), period=period, **slo_kw)
    policies, info, targets = parse_alert_policies(spec, table, period)
    service = spec["service"]
    found = table.get("Service", service)
    if found is not None:
        companions.insert(0, found[1])
    for t in targets:
        if t not in companions:
            companions.append(t)
    return SLODocument(
        name=name, slo=slo, service=service, display_name=meta.get("displayName", ""),
        description=spec.get("description", ""), budgeting_method=spec["budgetingMethod"],
                       alert_policies=policies,
        indicator=indicator, indicator_ref=indicator_ref, labels=check_strings(meta.get("labels"),
                                                                               "labels",
                                                                               lists=True),
        annotations=rest, policy_info=info, companions=tuple(companions), notes=tuple(notes),
        source_spec=version, **window, **objective,
    )


def _peer_documents(objects: list[Any], label: str) -> list[SLODocument] | None:
    """The SLOs of a file of Sloth specs (one per YAML document) or Pyrra resources; ``None``
    for any other file (OpenSLO). A file that mixes them is refused."""
    if all(is_sloth_spec(o) for o in objects):
        return [d for o in objects for d in from_sloth(o, label)]
    if all(is_pyrra(o) for o in objects):
        return from_pyrra(objects, label)
    if any(is_sloth_spec(o) or is_pyrra(o) for o in objects):
        raise ConfigError(f"{label}: mixes Sloth or Pyrra specs with other objects; give them in "
                          "files apart.")
    return None


def _unique_names(docs: list[SLODocument], label: str) -> list[SLODocument]:
    """``docs``, whose names must be unique (budgetlab names an SLO by its name alone)."""
    names = [d.name for d in docs]
    dup = next((n for n in names if names.count(n) > 1), None)
    if dup is not None:
        raise ConfigError(f"{label}: two SLOs are named {quoted(dup)}; SLO names must be unique "
                          "(FILE#NAME could "
                          "not tell them apart): rename one.")
    return docs


def _sources(source: Source | Sequence[Source]) -> list[Source]:
    if isinstance(source, (str, os.PathLike)):
        return [source]
    if (
        isinstance(source, Sequence)
        and source
        and all(isinstance(s, (str, os.PathLike)) for s in source)
    ):
        return list(source)
    raise ConfigError("read_openslo takes a path, YAML text, or a non-empty list of them (read as "
                      "one set).")


def _unsupported(obj: Mapping[str, Any]) -> str:
    """Why an object is not read: a Prometheus rule file (``groups:``, e.g. what Sloth or
    ``budgetlab export prometheus`` wrote) is named as such, else its ``apiVersion``."""
    if obj.get("apiVersion") is None and isinstance(obj.get("groups"), list):
        return ("a Prometheus rule file (groups: of rules, as Sloth or 'budgetlab export "
                "prometheus' write them), not an SLO spec; give the spec the rules were made from "
                "(OpenSLO, Sloth 'version: prometheus/v1', Pyrra ServiceLevelObjective).")
    return (f"apiVersion={quoted(obj.get('apiVersion'))} is not supported; budgetlab reads "
            f"{API_VERSION!r} and {V1ALPHA!r} (as Sloth writes it), Sloth's 'version: "
            "prometheus/v1' specs and Pyrra's ServiceLevelObjective.")


def _collect(sources: list[Source], direct: list[SLODocument]
             ) -> tuple[ObjectTable, list[tuple[str, dict[str, Any], list[str], str]]]:
    """Check every object against the v1 rules (v1alpha converted first) and index it by kind
    and name; return the table and the SLO objects in file order (with the notes of their
    reading and their ``apiVersion``). Sloth and Pyrra files are
    read into ``direct`` as documents."""
    labels, slos = [], []
    table = ObjectTable(label="")
    for src in sources:
        objects, label = load_documents(src)
        labels.append(label)
        peers = _peer_documents(objects, label)
        if peers is not None:
            direct.extend(peers)
            continue
        for i, obj in enumerate(objects, start=1):
            with context(f"{label}, document {i}"):
                if not isinstance(obj, Mapping):
                    raise ConfigError("each object must be a mapping with apiVersion, kind, "
                                      "metadata and spec.")
                version = obj.get("apiVersion")
                if version == V1ALPHA:
                    converted = from_v1alpha(obj)
                elif version == API_VERSION:
                    converted = [(dict(obj), [])]
                else:
                    raise ConfigError(_unsupported(obj))
            for v1, notes in converted:
                name = v1.get("metadata", {}).get("name") if isinstance(v1.get("metadata"),
                                                                        Mapping) else None
                kind_text = v1.get("kind") if v1.get("kind") in KINDS else "object"
                ctx = (
                    f"{label}, {kind_text} {quoted(name)}"
                    if isinstance(name, str)
                    else f"{label}, document {i}"
                )
                with context(ctx):
                    kind = check_object(v1)
                key = (kind, str(name))
                if key in table.objects:
                    if kind == "SLO":
                        raise ConfigError(f"{ctx}: another SLO has the same name; SLO names must "
                                          "be unique.")
                    if table.objects[key][1] != v1:  # an error only if an SLO refers to it
                        table.ambiguous.add(key)
                    continue
                table.objects[key] = (ctx, v1)
                if kind == "SLO":
                    slos.append((ctx, v1, notes, version))
    table.label = " + ".join(labels)
    return table, slos


def read_openslo(source: Source | Sequence[Source]) -> list[SLODocument]:
    """Read the SLOs of OpenSLO files (or YAML text), with what they refer to.

    ``source`` is one file or text, or a list of them read as one set (as ``oslo validate -f``
    reads several files). A file may hold several YAML documents (``---``) or lists of objects.
    Every object must pass the OpenSLO v1 rules (:mod:`.checks`); ``openslo/v1alpha`` objects
    are read as Sloth reads them (:mod:`.v1alpha`). References are resolved within the set:
    ``indicatorRef`` (kind SLI), ``alertPolicyRef``, ``conditionRef``, ``targetRef`` (kind
    AlertNotificationTarget, kept in ``companions``), ``spec.service`` (kind Service, kept when
    present) and ``metricSourceRef`` (kind DataSource, kept when present). Objects no SLO uses
    are checked, then noted in ``notes`` as not used.

    Returns
    -------
    list of SLODocument
        In file order; each with ``notes`` saying what was decided in reading it.

    Examples
    --------
    >>> text = '''
    ... apiVersion: openslo/v1
    ... kind: SLO
    ... metadata: {name: solve-rate}
    ... spec:
    ...   service: captcha
    ...   indicatorRef: solves
    ...   timeWindow: [{duration: 30d, isRolling: true}]
    ...   budgetingMethod: Occurrences
    ...   objectives: [{targetPercent: 99.9}]
    ... '''
    >>> doc, = read_openslo(text)
    >>> doc.slo
    SLO(target=0.999, window=Timedelta('30 days 00:00:00'), warning=0.5, critical=0.1, min_events=0,
    period=Timedelta('30 days 00:00:00'))
    >>> read_openslo(text.replace("name: solve-rate", "name: solve_rate"))
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: <text>, SLO 'solve_rate': metadata.name='solve_rate' is not an RFC
    1123 label (lower-case letters, digits and '-', starting and ending with a letter or digit, at
    most 63 characters) (OpenSLO v1).
    """
    direct: list[SLODocument] = []
    table, slos = _collect(_sources(source), direct)
    if direct and not slos:
        return _unique_names(direct, table.label)
    if direct:
        raise ConfigError(f"{table.label}: mixes OpenSLO with Sloth or Pyrra specs; read them "
                          "apart.")
    if not slos:
        kinds = sorted({k for k, _ in table.objects})
        raise ConfigError(f"{table.label}: holds no kind: SLO object (it holds "
                          f"{', '.join(kinds)}); read it together "
                          "with the SLO file: read_openslo([slo_file, this_file]).")
    docs = []
    for ctx, obj, notes, version in slos:
        with context(ctx):
            docs.append(_parse_slo(obj, table, list(notes), version))
    unused = [
        f"{kind} {name!r}"
        for (kind, name) in table.objects
        if kind != "SLO" and (kind, name) not in table.used
    ]
    if unused:
        note = f"not used by any SLO (checked, not read): {', '.join(unused)}"
        docs = [dataclasses.replace(d, notes=(*d.notes, note)) for d in docs]
    return docs
