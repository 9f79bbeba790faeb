"""Sloth's own ``prometheus/v1`` spec in, as Sloth reads it (github.com/slok/sloth,
``internal/storage/io/sloth.go`` and ``pkg/prometheus/api/v1``): one :class:`~.model.SLODocument`
per ``slos[]`` item.

* name ``slos[].name``, service ``service``; Sloth's id ``<service>-<name>`` is the ``sloth_id``
  of the rules budgetlab writes;
* target ``objective`` (a percentage, read decimal-exact: ``99.9`` is ``0.999``); period 30 days,
  Sloth's default (``sloth generate --default-slo-period``), which is also the tracker window;
* labels: the spec's ``labels`` merged with the SLO's (the SLO's win, as in Sloth);
* the SLI: ``sli.events.error_query`` / ``total_query`` as an inline ratio indicator (``bad`` /
  ``total``, ``metricSource.type: Prometheus``, the queries verbatim with ``{{.window}}``);
  ``sli.raw`` (a precomputed ratio) and ``sli.plugin`` cannot be split into events: refused;
* the alerts: Sloth's multiwindow tiers at the period (:meth:`AlertPolicy.sloth`), one
  severity dropped per ``page_alert`` / ``ticket_alert`` with ``disable: true``; per tier,
  :class:`~.model.AlertPolicyInfo` holds the alert name (``alerting.name``, as ``display_name``;
  Sloth requires it, budgetlab then uses its own default)
  and the labels and annotations Sloth puts on that severity's alert (``alerting.labels`` merged
  with ``page_alert.labels``, the same for annotations), so that the rules budgetlab writes
  carry Sloth's routing labels.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from ..._util.validation import percent_to_fraction
from ...alerts.policy import AlertPolicy
from ...errors import ConfigError
from ...slo import SLO
from ._fields import quoted
from .alert_info import DEFAULT_TARGET, AlertPolicyInfo
from .indicators import prometheus_ratio
from .model import SLODocument
from .write import slug

__all__ = ["SLOTH_VERSION", "SLOTH_PERIOD", "ALERTS_NOTE", "ALSO_TRACKER", "TRACKER_NOTE",
           "without_tracker_window", "is_sloth_spec", "from_sloth",
           "check_keys", "text_map", "text_field"]

SLOTH_VERSION = "prometheus/v1"
#: Sloth's default SLO period (``sloth generate --default-slo-period``).
SLOTH_PERIOD = "30D"
_SEVERITIES = (("page_alert", "page"), ("ticket_alert", "ticket"))
#: How the note on the spec's alerting begins: a report whose rules replace that alerting (a policy
#: given instead) leaves the note out.
ALERTS_NOTE = "the alerts: "
#: How the readers say that an SLO file's period is also the tracker window (Sloth, Pyrra: a
#: clause after the period's note) and that they took the period for one (OpenSLO: a note of its
#: own); :func:`without_tracker_window` takes both out where no tracker runs.
ALSO_TRACKER = ", also the tracker window"
TRACKER_NOTE = "tracker window = "


def without_tracker_window(notes: Iterable[str]) -> tuple[str, ...]:
    """A spec's notes of how it was read, without what they say of a tracker window (for a
    command that uses none: ``budgetlab backtest`` replays alert policies over the period).

    >>> without_tracker_window(["Sloth prometheus/v1: period 30 days (Sloth's default), also "
    ...                         "the tracker window", "tracker window = the period 28d (no "
    ...                         "budgetlab/window annotation)"])
    ("Sloth prometheus/v1: period 30 days (Sloth's default)",)
    """
    return tuple(note.replace(ALSO_TRACKER, "") for note in notes
                 if not note.startswith(TRACKER_NOTE))


def check_keys(obj: Mapping[str, Any], allowed: tuple[str, ...], where: str) -> None:
    """Unknown keys are errors (a misspelt key is never ignored).

    >>> check_keys({"nme": "x"}, ("name",), "slos[0]")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: slos[0]: nme is not a field here; known: name.
    """
    for k in obj:
        if k not in allowed:
            key = (
                k
                if isinstance(k, str) and len(k) <= 60 and k.replace("_", "").isalnum()
                else quoted(k)
            )
            raise ConfigError(f"{where}: {key} is not a field here; known: {', '.join(allowed)}.")


def is_sloth_spec(obj: Any) -> bool:
    """Whether ``obj`` (one YAML document) is a Sloth ``prometheus/v1`` spec."""
    return isinstance(obj, Mapping) and obj.get("version") == SLOTH_VERSION


def text_map(value: Any, where: str) -> dict[str, str]:
    """Labels or annotations of a peer's spec: names to text (``{}`` when absent)."""
    if value is None:
        return {}
    if not isinstance(value, Mapping) or not all(isinstance(k, str) and isinstance(v, str)
                                                 for k, v in value.items()):
        raise ConfigError(f"{where} must map names to text (quote numbers: tier: \"2\").")
    return dict(value)


def text_field(obj: Mapping[str, Any], key: str, where: str) -> str:
    """``obj[key]`` as text (``""`` when absent); anything else is refused."""
    value = obj.get(key, "")
    if not isinstance(value, str):
        raise ConfigError(f"{where}.{key} must be text.")
    return value


def _queries(item: Mapping[str, Any], where: str) -> tuple[str, str]:
    sli = item.get("sli")
    if not isinstance(sli, Mapping):
        raise ConfigError(f"{where}.sli is required (events: error_query and total_query).")
    check_keys(sli, ("events", "raw", "plugin"), f"{where}.sli")
    if "events" not in sli:
        kind = next(iter(sli), "none")
        raise ConfigError(f"{where}.sli.{kind} is not supported: budgetlab needs sli.events "
                          "(error_query and "
                          "total_query, two counts of events); a ratio alone cannot be split into "
                          "events.")
    events = sli["events"]
    if not isinstance(events, Mapping):
        raise ConfigError(f"{where}.sli.events must be a mapping with error_query and total_query.")
    check_keys(events, ("error_query", "total_query"), f"{where}.sli.events")
    out = []
    for k in ("error_query", "total_query"):
        q = events.get(k)
        if not isinstance(q, str) or not q.strip():
            raise ConfigError(f"{where}.sli.events.{k} is required (PromQL with {{{{.window}}}}).")
        out.append(q)  # verbatim, as Sloth renders it
    return out[0], out[1]


def _alerting(item: Mapping[str, Any], where: str) -> tuple[set[str], dict[str, AlertPolicyInfo]]:
    """(the severities that alert, per severity the alert's name, labels and annotations)."""
    alerting = item.get("alerting") or {}
    if not isinstance(alerting, Mapping):
        raise ConfigError(f"{where}.alerting must be a mapping.")
    aw = f"{where}.alerting"
    check_keys(alerting, ("name", "labels", "annotations", "page_alert", "ticket_alert"), aw)
    name = text_field(alerting, "name", aw)
    labels = text_map(alerting.get("labels"), f"{aw}.labels")
    annotations = text_map(alerting.get("annotations"), f"{aw}.annotations")
    on: set[str] = set()
    info: dict[str, AlertPolicyInfo] = {}
    for key, severity in _SEVERITIES:
        alert = alerting.get(key) or {}
        if not isinstance(alert, Mapping):
            raise ConfigError(f"{aw}.{key} must be a mapping.")
        check_keys(alert, ("disable", "labels", "annotations"), f"{aw}.{key}")
        if alert.get("disable", False) is True:
            continue
        if not isinstance(alert.get("disable", False), bool):
            raise ConfigError(f"{aw}.{key}.disable must be true or false.")
        on.add(severity)
        info[severity] = AlertPolicyInfo(
            display_name=name,
            notification_targets=(DEFAULT_TARGET,),
            labels={**labels, **text_map(alert.get("labels"), f"{aw}.{key}.labels")},
            annotations={
                **annotations,
                **text_map(alert.get("annotations"), f"{aw}.{key}.annotations"),
            },
        )
    return on, info


def _document(spec: Mapping[str, Any], i: int, item: Any, label: str) -> SLODocument:
    where = f"slos[{i}]"
    if not isinstance(item, Mapping) or not isinstance(item.get("name"), str) or not item["name"]:
        raise ConfigError(f"{label}: {where} needs a name.")
    check_keys(item, ("name", "description", "objective", "labels", "sli", "alerting", "plugins"),
               f"{label}: {where}")
    if item.get("plugins"):
        raise ConfigError(f"{label}: {where}.plugins (SLO plugins) is not supported: budgetlab "
                          "writes Sloth's default "
                          "rules only.")
    name = item["name"]
    target = percent_to_fraction(f"{label}: {where}.objective", item.get("objective"))
    errors, total = _queries(item, f"{label}: {where}")
    on, info = _alerting(item, f"{label}: {where}")
    tiers = tuple(t for t in AlertPolicy.sloth(SLOTH_PERIOD).tiers if t.severity in on)
    policies = (AlertPolicy(tiers, period=SLOTH_PERIOD, name="sloth"),) if tiers else ()
    ind_name = slug(name) if name else "sli"
    indicator = prometheus_ratio(ind_name, total=total, bad=errors)
    disabled = [s for _, s in _SEVERITIES if s not in on]
    notes = [
        f"Sloth {SLOTH_VERSION}: period {SLOTH_PERIOD[:-1]} days (Sloth's default){ALSO_TRACKER}",
        f"{ALERTS_NOTE}Sloth's tiers (page 14.4 over 1h/5m and 6 over 6h/30m, ticket 3 over "
        "1d/2h and 1 over 3d/6h)" + (f"; disabled: {', '.join(disabled)}" if disabled else ""),
    ]
    description = text_field(item, "description", f"{label}: {where}")
    return SLODocument(
        name=name,
        slo=SLO(target=target, window=SLOTH_PERIOD, period=SLOTH_PERIOD),
        service=spec["service"],
        description=description,
        alert_policies=policies,
        indicator=indicator,
        labels={
            **text_map(spec.get("labels"), f"{label}: labels"),
            **text_map(item.get("labels"), f"{label}: {where}.labels"),
        },
        policy_info={t.name: info[t.severity] for t in tiers},
        notes=tuple(notes),
        source_spec=SLOTH_VERSION,
    )


def from_sloth(spec: Mapping[str, Any], label: str) -> list[SLODocument]:
    """The SLOs of a Sloth ``prometheus/v1`` spec, as Sloth reads them.

    >>> spec = {"version": "prometheus/v1", "service": "web", "labels": {"owner": "team-a"},
    ...     "slos": [
    ...     {"name": "availability", "objective": 99.9,
    ...      "sli": {"events": {"error_query": "sum(rate(e_total[{{.window}}]))",
    ...                         "total_query": "sum(rate(r_total[{{.window}}]))"}},
    ...      "alerting": {"name": "WebAvailability",
    ...                   "page_alert": {"labels": {"routing_key": "team-a"}},
    ...                   "ticket_alert": {"disable": True}}}]}
    >>> (doc,) = from_sloth(spec, "sloth.yaml")
    >>> doc.slo.target, doc.labels, [t.name for t in doc.policy.tiers]
    (0.999, {'owner': 'team-a'}, ['page_quick', 'page_slow'])
    >>> doc.policy_info["page_quick"].labels
    {'routing_key': 'team-a'}
    """
    check_keys(spec, ("version", "service", "labels", "slos", "slo_plugins"), label)
    if spec.get("slo_plugins"):
        raise ConfigError(f"{label}: slo_plugins is not supported: budgetlab writes Sloth's "
                          "default rules only.")
    service = spec.get("service")
    if not isinstance(service, str) or not service:
        raise ConfigError(f"{label}: service is required (Sloth's spec names the service of its "
                          "SLOs).")
    slos = spec.get("slos")
    if not isinstance(slos, list) or not slos:
        raise ConfigError(f"{label}: a Sloth spec needs a non-empty slos: list.")
    return [_document(spec, i, item, label) for i, item in enumerate(slos)]
