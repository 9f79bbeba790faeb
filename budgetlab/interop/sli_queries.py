"""The SLI queries of an SLO spec, for :func:`~budgetlab.read_prometheus`: an OpenSLO ratio
indicator (``spec.indicator.spec.ratioMetric.{good,bad,total}.metricSource.spec.query``) or
Sloth's own ``prometheus/v1`` spec (``slos[].sli.events.error_query`` / ``total_query``).

Sloth's spec has no time window: its SLO period is Sloth's default, 30 days (the
``--default-slo-period`` of ``sloth generate``), and its ``objective`` is a percentage.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from ..alerts.policy import AlertPolicy
from ..errors import ConfigError, FileFormatError
from ..slo import SLO
from .openslo import SLODocument, read_openslo

__all__ = ["SpecSLO", "sli_queries", "read_slo_spec", "SLOTH_VERSION"]

SLOTH_VERSION = "prometheus/v1"


@dataclass(frozen=True)
class SpecSLO:
    """One SLO of a spec with what a backtest needs: the SLO, its counters (``total`` and one
    of ``errors`` / ``good``), its own alert policy (OpenSLO) and labels."""

    name: str
    slo: SLO
    total: str
    errors: str | None = None
    good: str | None = None
    policy: AlertPolicy | None = None
    source: str = "OpenSLO"
    labels: dict[str, Any] = field(default_factory=dict)


def _query(ratio: Mapping[str, Any], part: str, where: str) -> str | None:
    item = ratio.get(part)
    if item is None:
        return None
    src = item.get("metricSource") if isinstance(item, Mapping) else None
    if not isinstance(src, Mapping):
        raise ConfigError(f"{where}.{part}.metricSource is required (type: Prometheus, spec.query).")
    kind = src.get("type")
    if not isinstance(kind, str) or kind.lower() != "prometheus":
        raise ConfigError(f"{where}.{part}.metricSource.type is {kind!r}; budgetlab backtests Prometheus sources "
                          "only (give --total/--errors instead).")
    spec = src.get("spec")
    query = spec.get("query") if isinstance(spec, Mapping) else None
    if not isinstance(query, str) or not query.strip():
        raise ConfigError(f"{where}.{part}.metricSource.spec.query must be the PromQL text of the counter.")
    return query


def sli_queries(doc: SLODocument) -> dict[str, str]:
    """``{"total": ..., "errors" or "good": ...}`` from an OpenSLO document's inline ratio indicator.

    >>> from budgetlab.interop.openslo import ratio_indicator
    >>> doc = SLODocument("api", SLO(0.999, "30D"), indicator=ratio_indicator("req_total", "err_total"))
    >>> sli_queries(doc)
    {'total': 'req_total', 'errors': 'err_total'}
    """
    ind = doc.indicator
    if ind is None:
        ref = f" (indicatorRef {doc.indicator_ref!r})" if doc.indicator_ref else ""
        raise ConfigError(f"SLO {doc.name!r} has no inline indicator{ref}; inline the ratioMetric SLI in "
                          "spec.indicator, or give --total and --errors.")
    where = "spec.indicator.spec.ratioMetric"
    ratio = ind.get("spec", {}).get("ratioMetric")
    if not isinstance(ratio, Mapping):
        raise ConfigError(f"SLO {doc.name!r}: {where} is required.")
    if ratio.get("counter") is False:
        raise ConfigError(f"SLO {doc.name!r}: {where}.counter is false; budgetlab reads counters of events.")
    if "raw" in ratio:
        raise ConfigError(f"SLO {doc.name!r}: {where}.raw (a precomputed ratio) cannot be split into events; "
                          "give good or bad over total.")
    total = _query(ratio, "total", where)
    good = _query(ratio, "good", where)
    bad = _query(ratio, "bad", where)
    if total is None or (good is None) == (bad is None):
        raise ConfigError(f"SLO {doc.name!r}: {where} needs total and exactly one of good and bad.")
    return {"total": total, "errors": bad} if bad is not None else {"total": total, "good": good or ""}


def _sloth(data: Mapping[str, Any], label: str) -> list[SpecSLO]:
    slos = data.get("slos")
    if not isinstance(slos, list) or not slos:
        raise ConfigError(f"{label}: a Sloth spec needs a non-empty slos: list.")
    out = []
    for i, item in enumerate(slos):
        where = f"{label}: slos[{i}]"
        if not isinstance(item, Mapping) or not isinstance(item.get("name"), str):
            raise ConfigError(f"{where} needs a name.")
        obj = item.get("objective")
        if isinstance(obj, bool) or not isinstance(obj, (int, float)) or not 0 < obj < 100:
            raise ConfigError(f"{where}.objective must be a percentage between 0 and 100 (e.g. 99.9).")
        sli = item.get("sli")
        events = sli.get("events") if isinstance(sli, Mapping) else None
        if not isinstance(events, Mapping):
            kind = next(iter(sli), "none") if isinstance(sli, Mapping) else "none"
            raise ConfigError(f"{where}.sli.{kind} is not supported: budgetlab needs sli.events (error_query and "
                              "total_query, two counters).")
        err, tot = events.get("error_query"), events.get("total_query")
        if not isinstance(err, str) or not isinstance(tot, str):
            raise ConfigError(f"{where}.sli.events needs error_query and total_query.")
        labels = {**(data.get("labels") or {}), **(item.get("labels") or {})}
        out.append(SpecSLO(name=item["name"], slo=SLO(target=float(obj) / 100, window="30D"), total=tot,
                           errors=err, source="Sloth prometheus/v1", labels=labels))
    return out


def read_slo_spec(spec: str | os.PathLike[str]) -> list[SpecSLO]:
    """The SLOs of an OpenSLO or Sloth ``prometheus/v1`` file (``FILE#NAME`` picks one).

    >>> text = '''version: prometheus/v1
    ... service: api
    ... slos:
    ...   - name: availability
    ...     objective: 99.9
    ...     sli: {events: {error_query: 'sum(rate(e_total[{{.window}}]))',
    ...                    total_query: 'sum(rate(r_total[{{.window}}]))'}}
    ... '''
    >>> import pathlib, tempfile
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "sloth.yaml"
    >>> _ = p.write_text(text)
    >>> [(s.name, s.slo.target, s.errors) for s in read_slo_spec(p)]
    [('availability', 0.999, 'sum(rate(e_total[{{.window}}]))')]
    """
    path_text, _, name = str(spec).partition("#")
    path = Path(path_text)
    if not path.is_file():
        raise FileFormatError(f"{path.name}: no such file; give an OpenSLO or Sloth prometheus/v1 spec.")
    try:
        first = next(iter(yaml.safe_load_all(path.read_text(encoding="utf-8"))), None)
    except (yaml.YAMLError, UnicodeDecodeError):
        raise FileFormatError(f"{path.name}: is not valid YAML.") from None
    if isinstance(first, Mapping) and first.get("version") == SLOTH_VERSION:
        found = _sloth(first, path.name)
    else:
        found = []
        for doc in read_openslo(path):
            if name and doc.name != name:
                continue
            found.append(SpecSLO(name=doc.name, slo=doc.slo, policy=doc.policy, labels=dict(doc.labels),
                                 **sli_queries(doc)))
    if name:
        found = [s for s in found if s.name == name]
        if not found:
            raise ConfigError(f"{path.name}: has no SLO named {name!r}.")
    return found
