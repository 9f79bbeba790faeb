"""The SLI queries of an SLO spec, for :func:`~budgetlab.read_prometheus` and the rules of
:func:`~budgetlab.interop.prometheus.prometheus_rules`: an OpenSLO ratio indicator
(``spec.indicator.spec.ratioMetric.{good,bad,total}.metricSource.spec.query``), which is also
where Sloth's own ``prometheus/v1`` spec (``slos[].sli.events.error_query`` / ``total_query``) and
Pyrra's ``ServiceLevelObjective`` (``indicator.ratio`` / ``indicator.latency``) are read to.

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

from .._util.words import say
from ..alerts.policy import AlertPolicy
from ..errors import ConfigError
from ..slo import SLO
from .openslo import SLODocument
from .openslo.bind import pick_slos
from .openslo.pyrra import is_pyrra
from .openslo.sloth import SLOTH_VERSION, is_sloth_spec
from .promql import parse_count_query, window_query

__all__ = ["SpecSLO", "sli_queries", "rule_queries", "ratio_rule_expr", "read_slo_spec",
           "SLOTH_VERSION"]


@dataclass(frozen=True)
class SpecSLO:
    """One SLO of a spec with what a backtest needs: the SLO, its counters (``total`` and one
    of ``errors`` / ``good``), its own alert policy (OpenSLO, Sloth's, Pyrra's), labels, the
    notes of how the file was read, and ``by``: the labels its queries group by (Pyrra's
    ``grouping``), the default of ``backtest --by``. ``policy`` merges ``alert_policies``, each
    with its own period, under the SLO's (:func:`~budgetlab.interop.openslo.model.merged_policy`).
    ``targets``: per-group SLOs whose targets replace ``slo.target`` group by group (``backtest
    --slo FILE`` with the counters named on the command line), else None.
    """

    name: str
    slo: SLO
    total: str
    errors: str | None = None
    good: str | None = None
    policy: AlertPolicy | None = None
    source: str = "OpenSLO"
    labels: dict[str, Any] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    by: tuple[str, ...] = ()
    alert_policies: tuple[AlertPolicy, ...] = ()
    targets: Any = None


def _query(ratio: Mapping[str, Any], part: str, where: str) -> str | None:
    item = ratio.get(part)
    if item is None:
        return None
    src = item.get("metricSource") if isinstance(item, Mapping) else None
    if not isinstance(src, Mapping):
        raise ConfigError(f"{where}.{part}.metricSource is required (type: Prometheus, "
                          "spec.query).")
    kind = src.get("type")
    if not isinstance(kind, str) or kind.lower() != "prometheus":
        raise ConfigError(f"{where}.{part}.metricSource.type is {kind!r}; budgetlab reads "
                          "Prometheus sources only "
                          "(give the counters instead: backtest --total/--errors, export "
                          "--total-metric/--errors-metric).")
    spec = src.get("spec")
    query = spec.get("query") if isinstance(spec, Mapping) else None
    if not isinstance(query, str) or not query.strip():
        raise ConfigError(f"{where}.{part}.metricSource.spec.query must be the PromQL text of the "
                          "counter.")
    return query


def sli_queries(doc: SLODocument) -> dict[str, str]:
    """``{"total": ..., "errors" or "good": ...}`` from an OpenSLO document's inline ratio
    indicator.

    >>> from budgetlab.interop.openslo import ratio_indicator
    >>> doc = SLODocument("api", SLO(0.999, "30D"), indicator=ratio_indicator("req_total",
    ...                                                                       "err_total"))
    >>> sli_queries(doc)
    {'total': 'req_total', 'errors': 'err_total'}
    """
    ind = doc.indicator
    if ind is None:  # budgetlab's events SLI (what export openslo writes without counters) reads so
        why = (f"its indicatorRef {doc.indicator_ref!r} names no SLI in the files read"
               if doc.indicator_ref else
               "its indicator is budgetlab's events SLI, metricSource type budgetlab, or none")
        fix = say("read the counters without the spec: read_prometheus(total=, errors= or good=)",
                  "name the counters: --total with --errors or --good (beside --slo the "
                  "file's targets are kept, per group with --by; in place of it, give "
                  "--target)")
        raise ConfigError(f"SLO {doc.name!r} carries no Prometheus queries ({why}); inline a "
                          "ratioMetric SLI with Prometheus queries in spec.indicator, or "
                          f"{fix}.")
    where = "spec.indicator.spec.ratioMetric"
    ratio = ind.get("spec", {}).get("ratioMetric")
    if not isinstance(ratio, Mapping):
        raise ConfigError(f"SLO {doc.name!r}: {where} is required.")
    if "raw" in ratio:
        raise ConfigError(f"SLO {doc.name!r}: {where}.raw (a precomputed ratio) cannot be split "
                          "into events; "
                          "give good or bad over total.")
    total = _query(ratio, "total", where)
    good = _query(ratio, "good", where)
    bad = _query(ratio, "bad", where)
    if total is None or (good is None) == (bad is None):
        raise ConfigError(f"SLO {doc.name!r}: {where} needs total and exactly one of good and bad.")
    queries = {"total": total, "errors": bad} if bad is not None else {"total": total,
                                                                       "good": good or ""}
    # each query read here, named as the file holds it (no keyword or flag gave it)
    parsed = [parse_count_query(q, f"SLO {doc.name!r}: the {part} query")
              for part, q in queries.items()]
    if ratio.get("counter") is False and any(q.bare for q in parsed):
        # a bare selector of a gauge has no per-bin increase; rate()/increase() of counters inside
        # an expression (Sloth's v1alpha files, counter: false) read the same either way
        raise ConfigError(f"SLO {doc.name!r}: {where}.counter is false and a query is a bare "
                          "selector; budgetlab "
                          "reads counters of events (set counter: true, or write "
                          "rate(x_total[{{.window}}])).")
    return queries


def rule_queries(doc: SLODocument, *, selectors: bool = False) -> dict[str, str]:
    """:func:`sli_queries` for rules written without counters: an SLO without queries, or
    label selectors given besides its queries, are refused with the fix."""
    if doc.indicator is None:
        raise ConfigError(f"SLO {doc.name!r} carries no Prometheus queries (no inline ratioMetric "
                          "SLI): give the "
                          "counters, total_metric= and errors_metric= (CLI "
                          "--total-metric/--errors-metric).")
    if selectors:
        raise ConfigError(f"SLO {doc.name!r} carries its own queries: selector=, "
                          "errors_selector= and selector_labels= apply to "
                          "total_metric=/errors_metric= only; put the matchers in the queries.")
    return sli_queries(doc)


def ratio_rule_expr(queries: Mapping[str, str], window: str, *, function: str = "increase") -> str:
    """The error ratio over ``window`` of an SLO's queries (:func:`sli_queries`), as a recording
    rule's PromQL: ``(errors) / (total)``, or ``((total) - (good)) / (total)``, each query over
    the window by :func:`~budgetlab.interop.promql.window_query`. Over the same counters this is
    the ratio budgetlab's bins give (errors, or total minus good, summed over the window's bins).

    >>> print(ratio_rule_expr({"total": "sum(rate(r_total[{{.window}}]))",
    ...                        "good": "sum(rate(ok_total[{{.window}}]))"}, "5m"))
    ((sum(rate(r_total[5m]))) - (sum(rate(ok_total[5m]))))
    /
    (sum(rate(r_total[5m])))
    <BLANKLINE>
    """
    def over(part: str) -> str:
        parse_count_query(queries[part], part)  # refused here as backtest refuses it
        return window_query(queries[part], window, function=function)

    total = over("total")
    if queries.get("errors"):
        return f"({over('errors')})\n/\n({total})\n"
    return f"(({total}) - ({over('good')}))\n/\n({total})\n"


def _source(path: Path) -> tuple[str, dict[str, tuple[str, ...]]]:
    """Which kind of spec a file is (for the reading block): OpenSLO, Sloth or Pyrra, and for
    Pyrra the ``grouping`` labels of each SLO (by name)."""
    # read_openslo has read the file with its bounded loader and checked every object
    objects = [o for o in yaml.safe_load_all(path.read_text(encoding="utf-8")) if o is not None]
    if is_sloth_spec(objects[0]):
        return f"Sloth {SLOTH_VERSION}", {}
    if not is_pyrra(objects[0]):
        return "OpenSLO", {}
    return "Pyrra", {o["metadata"]["name"]: tuple(next(iter(o["spec"]["indicator"].values()))
                                                  .get("grouping") or ())
                     for o in objects if is_pyrra(o)}


def read_slo_spec(spec: str | os.PathLike[str]) -> list[SpecSLO]:
    """The SLOs of an OpenSLO, Sloth ``prometheus/v1`` or Pyrra file (``FILE#NAME`` picks one),
    read by :func:`~budgetlab.interop.openslo.read_openslo`.

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
    path, _, docs = pick_slos(str(spec))  # refuses a path that is not a regular file
    source, grouping = _source(path)
    return [SpecSLO(name=doc.name, slo=doc.slo, policy=doc.policy, labels=dict(doc.labels),
                    source=source, notes=doc.notes, by=grouping.get(doc.name, ()),
                    alert_policies=doc.alert_policies, **sli_queries(doc)) for doc in docs]
