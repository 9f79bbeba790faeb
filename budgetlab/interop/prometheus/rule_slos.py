"""The SLOs a Prometheus rule file is written for, and what their alerts carry: each SLO with its
identity labels, target, policy (a preset resolved at the SLO's period: :func:`resolve_policy`,
:data:`POLICY_PRESETS`) and its selectors or its own queries (:class:`RuleSLO`,
:func:`prepare_slos`); the labels and annotations of its alerts (:func:`alert_labels`,
:func:`alert_annotations`, :func:`slo_rule_labels`, :func:`sloth_alert_info`) and their name
(:func:`rule_alert_name`: the spec's own whatever the policy and style). Shared by the
rules (:mod:`.rules`) and promtool's unit tests of them (:mod:`.promtool`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..._util.percent import given_fraction
from ...alerts.policy import AlertPolicy, as_policy
from ...alerts.tier import AlertTier
from ...errors import ConfigError
from ..openslo import SLODocument
from ..openslo.alert_info import AlertPolicyInfo
from ..openslo.model import as_documents
from ..promql import LABEL_NAME, label_matchers, label_values, prom_duration
from ..sli_queries import rule_queries
from ..sloth_rules import DEFAULT_ALERT_NAME, alert_title

__all__ = ["POLICY_PRESETS", "resolve_policy", "RuleSLO", "prepare_slos", "alert_labels",
           "alert_annotations", "slo_rule_labels", "sloth_alert_info", "own_alert_name",
           "spec_alert_name", "rule_alert_name"]

#: Names accepted by :func:`resolve_policy` (``--policy`` on the command line).
POLICY_PRESETS = ("workbook", "sloth", "sloth30", "sloth28", "pyrra", "single_window")


def resolve_policy(policy: AlertPolicy | str, *, period: Any = "30D") -> AlertPolicy:
    """An :class:`AlertPolicy` from a preset name (see :data:`POLICY_PRESETS`) or as given.

    ``period`` is the SRE budget period (:attr:`budgetlab.SLO.period`, not the tracker window).
    The Workbook and Pyrra presets keep their burn factors at any period and scale their
    windows (Pyrra's rule); Sloth's preset keeps Sloth's budget fractions, as Sloth does.
    ``sloth30`` / ``sloth28`` fix the period; ``single_window`` is the seed-style 1 h rule.

    >>> [t.burn for t in resolve_policy("workbook", period="28D").tiers]
    [14.4, 6.0, 3.0, 1.0]
    """
    if isinstance(policy, str) and policy in ("sloth30", "sloth28"):
        return AlertPolicy.sloth(f"{policy[-2:]}D")
    if not isinstance(policy, AlertPolicy) and (not isinstance(policy, str)
                                                or policy not in POLICY_PRESETS):
        raise ConfigError(f"policy={policy!r} is not valid; use an AlertPolicy or one of "
                          f"{', '.join(map(repr, POLICY_PRESETS))}.")
    return as_policy(policy, period=period)


class RuleSLO:
    """What the rules of one SLO need: identity labels, target, policy, selectors or the SLO's
    own queries (``queries``, when no counters were given)."""

    def __init__(self, doc: SLODocument, policy: AlertPolicy, service: str, base: list[str],
                 selector_labels: Sequence[str], queries: dict[str, str] | None = None):
        self.doc = doc
        self.queries = queries
        self.policy = policy
        self.service = service
        self.id = f"{service}-{doc.name}"
        self.ids = {"sloth_id": self.id, "sloth_service": service, "sloth_slo": doc.name}
        self.group_labels: dict[str, str] = {}
        for key in selector_labels:
            value = doc.labels.get(key)
            if not isinstance(value, str):
                raise ConfigError(f"SLO {doc.name!r} has no single-valued label {key!r} for "
                                  "selector_labels; "
                                  "set it in metadata.labels (slos_from_recalibration does).")
            self.group_labels[key] = value
        self.matchers = base + label_matchers(self.group_labels, "selector_labels")


def prepare_slos(slos: Any, policy: Any, *, selector: Any, selector_labels: Sequence[str],
                 service: str | None, name: str | None, own_queries: bool = False,
                 errors_selector: Any = None) -> list[RuleSLO]:
    """One :class:`RuleSLO` per SLO, with its policy (``policy``, else its own) and service."""
    docs = as_documents(slos, name=name or "slo")
    base = label_matchers(selector, "selector")
    keys = [selector_labels] if isinstance(selector_labels, str) else list(selector_labels)
    for k in keys:
        if not isinstance(k, str) or not LABEL_NAME.match(k):
            raise ConfigError(f"selector_labels: {k!r} is not a Prometheus label name.")
    out = []
    for doc in docs:
        queries = (
            rule_queries(doc, selectors=bool(base or keys or errors_selector))
            if own_queries
            else None
        )
        if policy is None:
            pol = doc.policy
            if pol is None:
                raise ConfigError(f"SLO {doc.name!r} has no alert policies; pass policy= (e.g. "
                                  "'workbook').")
        else:
            pol = resolve_policy(policy, period=doc.slo.period)
        svc = service if service is not None else (doc.service or "budgetlab")
        if not isinstance(svc, str) or not svc:
            raise ConfigError("service must be a non-empty string.")
        out.append(RuleSLO(doc, pol, svc, base, keys, queries))
    return out


def alert_labels(s: RuleSLO, tier: AlertTier) -> dict[str, str]:
    # the SLO identity repeats the labels the expression yields, so that promtool's lint sees
    # the alerting rules of different SLOs as different rules
    return {**s.ids, "severity": tier.severity, "tier": tier.name}


def alert_annotations(s: RuleSLO, tier: AlertTier) -> dict[str, str]:
    windows = " and ".join(prom_duration(w, "window") for w in tier.windows)
    return {
        "summary": f"SLO {s.doc.name} of {s.service}: error budget burn rate above {tier.burn:g} "
                   f"over {windows}",
        "description": (f"target {given_fraction(s.doc.slo.target)}: the error ratio exceeds "
                        f"{tier.burn:g} x "
                        f"{s.doc.slo.error_budget:.6g} "
                        f"over {windows}; tier {tier.name} ({tier.severity})"),
    }


def slo_rule_labels(s: RuleSLO, style: str) -> dict[str, str]:
    """The SLO's own labels (``metadata.labels``) that every recording of ``style`` carries, and
    so every alert read from them: all of them in Sloth's layout, none in budgetlab's."""
    if style != "sloth":
        return {}
    return label_values(s.doc.labels, f"SLO {s.doc.name!r} metadata.labels")


def sloth_alert_info(s: RuleSLO) -> dict[str, AlertPolicyInfo]:
    """Per tier name and per severity, the alert name, labels and annotations of the SLO's own
    policies: a policy given in place of the SLO's own keeps each severity's."""
    own = s.doc.policy
    return {**{t.severity: s.doc.policy_info[t.name] for t in (own.tiers if own else ())
               if t.name in s.doc.policy_info}, **s.doc.policy_info}



def own_alert_name(doc: SLODocument) -> str | None:
    """The one alert name of the SLO's own alerts (Sloth's and Pyrra's ``alerting.name``, an
    OpenSLO file whose alert policies share one ``displayName`` that is a Prometheus name);
    ``None`` when they name none, or several."""
    names = {i.display_name for i in doc.policy_info.values() if LABEL_NAME.match(i.display_name)}
    return names.pop() if len(names) == 1 else None


def spec_alert_name(s: RuleSLO) -> str:
    """The name of an alert of ``s`` that no policy of the spec names by its tier or severity
    (a policy given in place of the SLO's own, ``--policy``): the spec's one alert name
    (:func:`own_alert_name`), else :data:`~budgetlab.interop.sloth_rules.DEFAULT_ALERT_NAME`.
    An Alertmanager route keyed on the spec's name keeps matching whatever policy is written."""
    return own_alert_name(s.doc) or DEFAULT_ALERT_NAME


def rule_alert_name(s: RuleSLO, tier: AlertTier, alert_name: str | None) -> str:
    """The name of the alerting rule of ``tier`` in budgetlab's style (one alert per tier):
    ``alert_name`` when given, else the spec's alert name for the tier's name or severity
    (:func:`sloth_alert_info`, as Sloth's style names its alert per severity), else
    :func:`spec_alert_name` (``tests/interop/test_spec_alert_name.py``).
    """
    info = sloth_alert_info(s)
    return alert_title(alert_name, info.get(tier.name) or info.get(tier.severity),
                       fallback=spec_alert_name(s))
