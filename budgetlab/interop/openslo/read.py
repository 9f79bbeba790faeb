"""OpenSLO in: ``openslo/v1`` files with every kind (SLO, SLI, Service, DataSource, AlertPolicy,
AlertCondition, AlertNotificationTarget) and ``openslo/v1alpha`` (as Sloth reads it) ->
:class:`~.model.SLODocument`; Sloth's own ``prometheus/v1`` specs (:mod:`.sloth`) and Pyrra's
``ServiceLevelObjective`` resources (:mod:`.pyrra`) are read into the same documents.

Every object must first pass the OpenSLO v1 rules (:mod:`.checks`, ported from the Go SDK);
then anything budgetlab cannot honour raises :class:`~budgetlab.ConfigError` naming the field
path. What budgetlab had to decide is kept in :attr:`SLODocument.notes`."""

from __future__ import annotations

import dataclasses
import itertools
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..._util.validation import check_fraction, check_tz, percent_to_fraction
from ...errors import ConfigError
from ...privacy import guard_values, looks_personal, shown
from ...slo import SLO, PerGroup
from ._fields import check_str, check_strings, normalize_start, quoted
from ._policies import ObjectTable, context, own_annotations, parse_alert_policies
from ._yaml import load_documents
from .checks import KINDS, check_object
from .durations import parse_duration_shorthand
from .model import API_VERSION, CALENDARS, SLODocument, is_events_indicator
from .peers import peer_documents, unique_names
from .v1alpha import V1ALPHA, from_v1alpha

__all__ = ["read_openslo", "load_slo", "load_slos"]

_SLO_ANNOTATIONS = ("warning", "critical", "min-events", "window", "name")
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
            notes.append(f"spec.indicatorRef {ref!r}: no kind: SLI of that name in the files read; kept as a reference")
            return None, ref, []
        ind = {"metadata": found[1]["metadata"], "spec": found[1]["spec"]}
        where = f"SLI {ref!r} (spec.indicatorRef): spec"
    else:
        ind = dict(spec["indicator"])
        where = "spec.indicator.spec"
    if "thresholdMetric" in ind["spec"]:
        raise ConfigError(f"{where}.thresholdMetric is not supported: budgetlab evaluates good/total event ratios; "
                          "describe the SLI as a ratioMetric (good or bad over total).")
    sources = []
    for part in ("good", "bad", "total", "raw"):
        src_ref = ind["spec"]["ratioMetric"].get(part, {}).get("metricSource", {}).get("metricSourceRef")
        if src_ref:
            found_ds = table.get("DataSource", src_ref)
            if found_ds is None:
                notes.append(f"{where}.ratioMetric.{part}.metricSource.metricSourceRef {src_ref!r}: no kind: DataSource "
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
        raise ConfigError("spec.timeWindow is required by budgetlab (the SLO period, e.g. 28d rolling).")
    item = tw[0]
    tww = "spec.timeWindow[0]"
    if item.get("isRolling"):
        return {"period": parse_duration_shorthand(item["duration"], where=f"{tww}.duration")}
    duration = item["duration"]
    if duration not in CALENDARS:
        raise ConfigError(f"{tww}.duration={quoted(duration)} is not supported for a calendar window; budgetlab has calendar "
                          "periods 1d, 1w and 1M (note: 'm' is minutes, 'M' months).")
    calendar, period = CALENDARS[duration]
    cal = item["calendar"]
    if cal.get("timeZone") is None:
        raise ConfigError(f"{tww}.calendar.timeZone is required for a calendar window (an IANA name such as "
                          "'Europe/Berlin').")
    return {"period": period, "calendar": calendar,
            "calendar_start": normalize_start(cal["startTime"], f"{tww}.calendar.startTime"),
            "time_zone": check_tz(cal["timeZone"], name=f"{tww}.calendar.timeZone")}


def _objective(spec: Mapping[str, Any], ratio_known: bool, notes: list[str]) -> dict[str, Any]:
    """``target`` and the other :class:`SLODocument` fields of the one objective."""
    objectives = spec["objectives"]
    if len(objectives) > 1:
        raise ConfigError(f"spec.objectives lists {len(objectives)} objectives; budgetlab reads one objective per SLO: "
                          "split them into one SLO each.")
    ow = "spec.objectives[0]"
    objective = objectives[0]
    if "target" in objective:
        target = check_fraction(f"{ow}.target", objective["target"])
    else:
        target = percent_to_fraction(f"{ow}.targetPercent", objective["targetPercent"])
    if "value" in objective:
        raise ConfigError(f"{ow}.value is not supported (thresholdMetric objectives (op/value) are not supported; "
                          "budgetlab evaluates ratio SLIs).")
    op = objective.get("op")
    if op is not None and ratio_known:
        raise ConfigError(f"{ow}.op is forbidden with a ratio SLI (OpenSLO v1; the Go SDK: 'property is forbidden'): "
                          "op belongs to threshold metrics; delete it.")
    out: dict[str, Any] = {"target": target, "objective_op": op, "objective_name": objective.get("displayName", "")}
    method = spec["budgetingMethod"]
    if method == "Occurrences":
        for k in ("timeSliceTarget", "timeSliceWindow"):
            if k in objective:
                raise ConfigError(f"{ow}.{k} applies to time-slice budgeting methods only.")
        return out
    if method == "RatioTimeslices" and "timeSliceTarget" in objective:
        raise ConfigError(f"{ow}.timeSliceTarget has no meaning with RatioTimeslices (the target applies to the mean "
                          "per-slice ratio); drop it or use Timeslices.")
    if method == "Timeslices":
        out["time_slice_target"] = check_fraction(f"{ow}.timeSliceTarget", objective["timeSliceTarget"],
                                                  high_open=False)
    out["time_slice_window"] = parse_duration_shorthand(objective["timeSliceWindow"], where=f"{ow}.timeSliceWindow")
    return out


def _slo_fields(meta: Mapping[str, Any], notes: list[str]) -> tuple[str, dict[str, Any], dict[str, str]]:
    """(name, SLO keyword arguments, other annotations) from the SLO's metadata."""
    own, rest = own_annotations(meta, _SLO_ANNOTATIONS, "")
    out: dict[str, Any] = {}
    for key, fname, conv in (("warning", "warning", float), ("critical", "critical", float),
                             ("min-events", "min_events", int)):
        if key in own:
            try:
                out[fname] = conv(own[key])
            except ValueError:
                raise ConfigError(f"metadata.annotations.budgetlab/{key} must be a number.") from None
    if "window" in own:
        out["window"] = parse_duration_shorthand(own["window"], where="metadata.annotations.budgetlab/window")
    name = meta["name"]
    if "name" in own:
        name = check_str(own["name"], "metadata.annotations.budgetlab/name", required=True)
        notes.append(f"name {name!r} from budgetlab/name (written as the RFC 1123 name {meta['name']!r})")
    return name, out, rest


def _parse_slo(obj: Mapping[str, Any], table: ObjectTable, notes: list[str]) -> SLODocument:
    meta, spec = obj["metadata"], obj["spec"]
    if any("indicator" in o or "indicatorRef" in o for o in spec["objectives"]):
        raise ConfigError("spec.objectives[0].indicator: composite SLOs (an indicator per objective) are not "
                          "supported; budgetlab reads one ratio SLI per SLO.")
    name, slo_kw, rest = _slo_fields(meta, notes)
    indicator, indicator_ref, companions = _indicator(spec, table, notes)
    window = _time_window(spec)
    objective = _objective(spec, indicator is not None or "indicator" in spec, notes)
    period = window.pop("period")
    if "window" not in slo_kw:
        notes.append(f"tracker window = the period {spec['timeWindow'][0]['duration']} (no budgetlab/window annotation)")
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
        description=spec.get("description", ""), budgeting_method=spec["budgetingMethod"], alert_policies=policies,
        indicator=indicator, indicator_ref=indicator_ref, labels=check_strings(meta.get("labels"), "labels", lists=True),
        annotations=rest, policy_info=info, companions=tuple(companions), notes=tuple(notes), **window, **objective,
    )


def _sources(source: Source | Sequence[Source]) -> list[Source]:
    if isinstance(source, (str, os.PathLike)):
        return [source]
    if isinstance(source, Sequence) and source and all(isinstance(s, (str, os.PathLike)) for s in source):
        return list(source)
    raise ConfigError("read_openslo takes a path, YAML text, or a non-empty list of them (read as one set).")


def _collect(sources: list[Source], direct: list[SLODocument]
             ) -> tuple[ObjectTable, list[tuple[str, dict[str, Any], list[str]]]]:
    """Check every object against the v1 rules (v1alpha converted first) and index it by kind
    and name; return the table and the SLO objects in file order. Sloth and Pyrra files are
    read into ``direct`` as documents."""
    labels, slos = [], []
    table = ObjectTable(label="")
    for src in sources:
        objects, label = load_documents(src)
        labels.append(label)
        peers = peer_documents(objects, label)
        if peers is not None:
            direct.extend(peers)
            continue
        for i, obj in enumerate(objects, start=1):
            with context(f"{label}, document {i}"):
                if not isinstance(obj, Mapping):
                    raise ConfigError("each object must be a mapping with apiVersion, kind, metadata and spec.")
                version = obj.get("apiVersion")
                if version == V1ALPHA:
                    converted = from_v1alpha(obj)
                elif version == API_VERSION:
                    converted = [(dict(obj), [])]
                else:
                    raise ConfigError(f"apiVersion={quoted(version)} is not supported; budgetlab reads {API_VERSION!r} and "
                                      f"{V1ALPHA!r} (as Sloth writes it), Sloth's 'version: prometheus/v1' specs and Pyrra's "
                                      "ServiceLevelObjective.")
            for v1, notes in converted:
                name = v1.get("metadata", {}).get("name") if isinstance(v1.get("metadata"), Mapping) else None
                kind_text = v1.get("kind") if v1.get("kind") in KINDS else "object"
                ctx = f"{label}, {kind_text} {quoted(name)}" if isinstance(name, str) else f"{label}, document {i}"
                with context(ctx):
                    kind = check_object(v1)
                key = (kind, str(name))
                if key in table.objects:
                    if kind == "SLO":
                        raise ConfigError(f"{ctx}: another SLO has the same name; SLO names must be unique.")
                    if table.objects[key][1] != v1:  # an error only if an SLO refers to it
                        table.ambiguous.add(key)
                    continue
                table.objects[key] = (ctx, v1)
                if kind == "SLO":
                    slos.append((ctx, v1, notes))
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
    SLO(target=0.999, window=Timedelta('30 days 00:00:00'), warning=0.5, critical=0.1, min_events=0, period=Timedelta('30 days 00:00:00'))
    >>> read_openslo(text.replace("name: solve-rate", "name: solve_rate"))
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: <text>, SLO 'solve_rate': metadata.name='solve_rate' is not an RFC 1123 label (lower-case letters, digits and '-', starting and ending with a letter or digit, at most 63 characters) (OpenSLO v1).
    """
    direct: list[SLODocument] = []
    table, slos = _collect(_sources(source), direct)
    if direct and not slos:
        return unique_names(direct, table.label)
    if direct:
        raise ConfigError(f"{table.label}: mixes OpenSLO with Sloth or Pyrra specs; read them apart.")
    if not slos:
        kinds = sorted({k for k, _ in table.objects})
        raise ConfigError(f"{table.label}: holds no kind: SLO object (it holds {', '.join(kinds)}); read it together "
                          "with the SLO file: read_openslo([slo_file, this_file]).")
    docs = []
    for ctx, obj, notes in slos:
        with context(ctx):
            docs.append(_parse_slo(obj, table, list(notes)))
    unused = [f"{kind} {name!r}" for (kind, name) in table.objects if kind != "SLO" and (kind, name) not in table.used]
    if unused:
        note = f"not used by any SLO (checked, not read): {', '.join(unused)}"
        docs = [dataclasses.replace(d, notes=(*d.notes, note)) for d in docs]
    return docs


def _pick(spec: Source) -> tuple[Path, str, list[SLODocument]]:
    """(path, ``#NAME`` or ``""``, the SLOs of the file) of ``FILE[#NAME]``."""
    if isinstance(spec, str):
        path, _, name = spec.partition("#")
    elif isinstance(spec, os.PathLike):
        path, name = os.fspath(spec), ""
    else:
        raise ConfigError("give the OpenSLO file as a path (FILE or FILE#NAME).")
    return Path(path), name, read_openslo(Path(path))


def _file_label(path: Path) -> str:
    """The file name as messages and outputs show it (never a name that looks personal)."""
    return path.name if not looks_personal(path.name) else "the OpenSLO file (its name looks like personal data)"


def _calendar_note(doc: SLODocument) -> None:
    if doc.calendar is not None:
        sys.stderr.write(f"note: SLO {doc.name!r} has a calendar {doc.calendar} window; the tracker replays it as a "
                         f"trailing {doc.slo.window} window.\n")


def _named(path: Path, name: str, docs: list[SLODocument]) -> SLODocument:
    chosen = [d for d in docs if d.name == name]
    if not chosen:
        raise ConfigError(f"{_file_label(path)}: has no SLO named {shown(name)}; it holds "
                          f"{', '.join(repr(d.name) for d in docs)}.")
    return chosen[0]


def load_slo(spec: Source) -> SLO:
    """The :class:`SLO` of an OpenSLO file, for ``budgetlab replay --slo FILE[#NAME]``.

    ``#NAME`` picks one SLO of a file that holds several. A calendar-aligned window is
    replayed as a trailing window of its nominal length; a note on stderr says so. For a file
    whose SLOs are bound to groups by labels, see :func:`load_slos`.
    """
    path, name, docs = _pick(spec)
    if name:
        doc = _named(path, name, docs)
    elif len(docs) == 1:
        doc = docs[0]
    else:
        label = _file_label(path)
        raise ConfigError(f"{label}: holds {len(docs)} SLOs; pick one with {label}#NAME "
                          f"({', '.join(d.name for d in docs)}), or bind them to groups by their labels "
                          "(load_slos(file, by=[...]); CLI --by).")
    _calendar_note(doc)
    return doc.slo


def _bound_keys(doc: SLODocument, by: list[str]) -> list[tuple[str, ...]]:
    """The group keys (tuples in ``by`` order) an SLO's labels claim; ``[]`` when no label
    names a ``by`` key. A label holding a list claims each of its values."""
    present = [k for k in by if k in doc.labels]
    if not present:
        return []
    if len(present) != len(by):
        missing = [k for k in by if k not in doc.labels]
        raise ConfigError(f"SLO {doc.name!r} is bound by the label(s) {', '.join(present)} but has no label "
                          f"{', '.join(missing)}; with by={by} an SLO names every key or none (none: the default).")
    values = [doc.labels[k] if isinstance(doc.labels[k], list) else [doc.labels[k]] for k in by]
    for k, vals in zip(by, values, strict=True):
        if not vals:
            raise ConfigError(f"SLO {doc.name!r}: label {k} is an empty list; give the group value(s) it binds.")
        guard_values(vals, what=f"SLO {doc.name!r}, label {k}")
    return list(itertools.product(*values))


def _describe(key: tuple[str, ...], by: list[str]) -> str:
    return " & ".join(f"{k}={v}" for k, v in zip(by, key, strict=True))


def load_slos(spec: Source, by: Sequence[str] = ()) -> SLO | PerGroup:
    """The SLOs of an OpenSLO file bound to groups by their ``metadata.labels``, for ``budgetlab
    replay --slo FILE --by KEY``.

    Only label keys named in ``by`` bind (other labels are ignored). An SLO whose labels name every
    ``by`` key applies to that group (a tuple in ``by`` order for several keys; a label holding a
    list binds each of its values); an SLO with none of them is the default for the groups no SLO
    names (at most one such SLO). A group claimed by two SLOs, two unbound SLOs, or an SLO naming
    some but not all ``by`` keys is refused. ``FILE#NAME`` picks one SLO for every group.

    Returns
    -------
    SLO or PerGroup
        One :class:`SLO` when the file gives one SLO for every group: ``#NAME``, no ``by``
        (then the file must hold one SLO, as :func:`load_slo`), or no SLO bound by a ``by``
        label. Else a :class:`PerGroup` whose ``binding`` states the binding in one line (the
        CLI prints it), e.g. ``slos.yaml: captcha_type=recaptcha_v2 -> v2-avail (target 0.93),
        captcha_type=turnstile -> ts-avail (target 0.97)``; groups without an SLO are an error
        that names them unless an unbound SLO is the default (``other groups -> NAME``).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> one = ("apiVersion: openslo/v1\\nkind: SLO\\nmetadata: {name: NAME, labels: {captcha_type: TYPE, team: web}}\\n"
    ...        "spec: {service: captcha, indicatorRef: solves, budgetingMethod: Occurrences,\\n"
    ...        "  timeWindow: [{duration: 30d, isRolling: true}], objectives: [{target: TARGET}]}\\n")
    >>> text = "---\\n".join(one.replace("NAME", n).replace("TYPE", t).replace("TARGET", x)
    ...                     for n, t, x in [("v2-avail", "recaptcha_v2", "0.93"), ("ts-avail", "turnstile", "0.97")])
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "slos.yaml"
    >>> _ = path.write_text(text)
    >>> slos = load_slos(path, by=["captcha_type"])
    >>> slos.binding
    'slos.yaml: captcha_type=recaptcha_v2 -> v2-avail (target 0.93), captcha_type=turnstile -> ts-avail (target 0.97)'
    >>> slos.slo_for("turnstile").target
    0.97
    """
    keys = [by] if isinstance(by, str) else list(by)
    if not all(isinstance(k, str) and k for k in keys) or len(set(keys)) != len(keys):
        raise ConfigError("by must name distinct group keys (e.g. by=['captcha_type']).")
    path, name, docs = _pick(spec)
    if name:
        doc = _named(path, name, docs)
        _calendar_note(doc)
        return doc.slo
    if not keys:
        return load_slo(path)
    label = _file_label(path)
    table: dict[tuple[str, ...], SLODocument] = {}
    unbound: list[SLODocument] = []
    for doc in docs:
        claimed = _bound_keys(doc, keys)
        if not claimed:
            unbound.append(doc)
        for key in claimed:
            if key in table and table[key] is not doc:
                raise ConfigError(f"{label}: the group {_describe(key, keys)} is claimed by two SLOs, "
                                  f"{table[key].name!r} and {doc.name!r}; give each group one SLO.")
            table[key] = doc
    if len(unbound) > 1:
        raise ConfigError(f"{label}: {len(unbound)} SLOs have no label {' / '.join(keys)} "
                          f"({', '.join(repr(d.name) for d in unbound)}); at most one may be the default for the "
                          f"other groups: label the others, or pick one with {label}#NAME.")
    if not table:
        _calendar_note(unbound[0])
        return unbound[0].slo
    for doc in {id(d): d for d in [*table.values(), *unbound]}.values():
        _calendar_note(doc)
    parts = [f"{_describe(k, keys)} -> {d.name} (target {d.slo.target!r})" for k, d in table.items()]
    if unbound:
        parts.append(f"other groups -> {unbound[0].name} (target {unbound[0].slo.target!r})")
    return PerGroup({k if len(k) > 1 else k[0]: d.slo for k, d in table.items()},
                    default=unbound[0].slo if unbound else None, binding=f"{label}: {', '.join(parts)}")
