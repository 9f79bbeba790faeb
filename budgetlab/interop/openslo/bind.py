"""SLO files bound to budgetlab's runs: :func:`load_slo` (one SLO of a file, ``replay --slo
FILE[#NAME]``) and :func:`load_slos` (the SLOs of a file bound to groups by their
``metadata.labels``, ``--slo FILE --by KEY``)."""

from __future__ import annotations

import itertools
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from ..._util.words import noun_for, say
from ...errors import ConfigError
from ...privacy import guard_values, shown
from ...slo import SLO, PerGroup
from ._yaml import file_label
from .model import SLODocument
from .read import Source, read_openslo

__all__ = ["load_slo", "load_slos", "pick_slos"]


def pick_slos(spec: Source) -> tuple[Path, str, list[SLODocument]]:
    """``(path, NAME or "", SLOs)`` of ``FILE[#NAME]``: every SLO of the file, or the one
    ``NAME`` names (one that names none is refused, with the names the file holds)."""
    if isinstance(spec, str):
        path, _, name = spec.partition("#")
    elif isinstance(spec, os.PathLike):
        path, name = os.fspath(spec), ""
    else:
        raise ConfigError("give the OpenSLO file as a path (FILE or FILE#NAME).")
    docs = read_openslo(Path(path))
    chosen = [d for d in docs if d.name == name]
    if name and not chosen:
        raise ConfigError(f"{file_label(Path(path).name)}: has no SLO named {shown(name)}; it "
                          f"holds {', '.join(repr(d.name) for d in docs)}.")
    return Path(path), name, chosen if name else docs


def _calendar_note(doc: SLODocument) -> None:
    if doc.calendar is not None:
        sys.stderr.write(f"note: SLO {doc.name!r} has a calendar {doc.calendar} window; the "
                         "tracker replays it as a "
                         f"trailing {doc.slo.window} window.\n")


def load_slo(spec: Source) -> SLO:
    """The :class:`SLO` of an OpenSLO file, for ``budgetlab replay --slo FILE[#NAME]``.

    ``#NAME`` picks one SLO of a file that holds several; its ``metadata.labels`` are not
    applied here (the command line keeps the events they select; from Python, select them
    yourself). A calendar-aligned window is
    replayed as a trailing window of its nominal length; a note on stderr says so. For a file
    whose SLOs are bound to groups by labels, see :func:`load_slos`.
    """
    path, name, docs = pick_slos(spec)
    if name or len(docs) == 1:
        doc = docs[0]
    else:
        label = file_label(path.name)
        bind = say("load_slos(file, by=[...])", "--by KEY")
        # the file as given, so the fix works when pasted from where the command ran
        raise ConfigError(f"{label}: holds {len(docs)} SLOs; pick one with {file_label(path)}#NAME "
                          f"({', '.join(d.name for d in docs)}), or bind them to groups by their "
                          f"labels ({bind}).")
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
        keys = say(f"by={by}", "--by " + ",".join(by))
        raise ConfigError(f"SLO {doc.name!r} is bound by the {noun_for(len(present), 'label')} "
                          f"{', '.join(present)} but has no label {', '.join(missing)}; with "
                          f"{keys} an SLO names every key or none (none: the default).")
    values = [doc.labels[k] if isinstance(doc.labels[k], list) else [doc.labels[k]] for k in by]
    for k, vals in zip(by, values, strict=True):
        if not vals:
            raise ConfigError(f"SLO {doc.name!r}: label {k} is an empty list; give the group "
                              "values it binds.")
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
    >>> one = ("apiVersion: openslo/v1\\nkind: SLO\\n"
    ...        "metadata: {name: NAME, labels: {captcha_type: TYPE, team: web}}\\n"
    ...        "spec: {service: captcha, indicatorRef: solves, budgetingMethod: Occurrences,\\n"
    ...        "  timeWindow: [{duration: 30d, isRolling: true}], "
    ...        "objectives: [{target: TARGET}]}\\n")
    >>> text = "---\\n".join(one.replace("NAME", n).replace("TYPE", t).replace("TARGET", x)
    ...                     for n, t, x in [("v2-avail", "recaptcha_v2", "0.93"),
    ...                                     ("ts-avail", "turnstile", "0.97")])
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "slos.yaml"
    >>> _ = path.write_text(text)
    >>> slos = load_slos(path, by=["captcha_type"])
    >>> slos.binding
    'slos.yaml: captcha_type=recaptcha_v2 -> v2-avail (target 0.93), captcha_type=turnstile ->
    ts-avail (target 0.97)'
    >>> slos.slo_for("turnstile").target
    0.97
    """
    keys = [by] if isinstance(by, str) else list(by)
    if not all(isinstance(k, str) and k for k in keys):
        raise ConfigError("by= takes group keys, each a column name (a non-empty string).")
    twice = next((k for i, k in enumerate(keys) if k in keys[:i]), None)
    if twice is not None:  # said as the reader says it: by= in the API, --by on the command line
        raise ConfigError(f"the column {shown(twice)} appears twice in by=; name each column "
                          "once.")
    path, name, docs = pick_slos(spec)
    if name:
        _calendar_note(docs[0])
        return docs[0].slo
    if not keys:
        return load_slo(path)
    label = file_label(path.name)
    table: dict[tuple[str, ...], SLODocument] = {}
    unbound: list[SLODocument] = []
    for doc in docs:
        claimed = _bound_keys(doc, keys)
        if not claimed:
            unbound.append(doc)
        for key in claimed:
            if key in table and table[key] is not doc:
                raise ConfigError(f"{label}: the group {_describe(key, keys)} is claimed by two "
                                  "SLOs, "
                                  f"{table[key].name!r} and {doc.name!r}; give each group one SLO.")
            table[key] = doc
    if len(unbound) > 1:
        raise ConfigError(f"{label}: {len(unbound)} SLOs have no label {' / '.join(keys)} "
                          f"({', '.join(repr(d.name) for d in unbound)}); at most one may be the "
                          "default for the "
                          "other groups: label the others, or pick one with "
                          f"{file_label(path)}#NAME.")
    if not table:
        _calendar_note(unbound[0])
        return unbound[0].slo
    for doc in {id(d): d for d in [*table.values(), *unbound]}.values():
        _calendar_note(doc)
    parts = [f"{_describe(k, keys)} -> {d.name} (target {d.slo.target!r})" for k,
             d in table.items()]
    if unbound:
        parts.append(f"other groups -> {unbound[0].name} (target {unbound[0].slo.target!r})")
    return PerGroup({k if len(k) > 1 else k[0]: d.slo for k, d in table.items()},
                    default=unbound[0].slo if unbound else None,
                    binding=f"{label}: {', '.join(parts)}")
