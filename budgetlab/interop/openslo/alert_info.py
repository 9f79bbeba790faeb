"""What an OpenSLO AlertPolicy carries beyond the budgetlab tier (:class:`AlertPolicyInfo`), and
the notification target budgetlab writes when a policy names none (:data:`DEFAULT_TARGET`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...alerts.tier import AlertTier
from ...errors import ConfigError
from ._fields import check_str, check_strings, duration_shorthand
from ._yaml import plain

__all__ = ["AlertPolicyInfo", "DEFAULT_TARGET"]

#: The notification target budgetlab writes when a policy has none (OpenSLO v1 requires one).
DEFAULT_TARGET: dict[str, Any] = {
    "kind": "AlertNotificationTarget", "metadata": {"name": "alertmanager"},
    "spec": {"target": "alertmanager",
             "description": "Prometheus Alertmanager: budgetlab's rules carry the "
                                                      "severity label; route on it"}}


@dataclass(frozen=True)
class AlertPolicyInfo:
    """What an OpenSLO AlertPolicy (and its one condition) carries beyond the budgetlab tier:
    delivery and description, kept so that a read-write round trip loses nothing.

    Parameters
    ----------
    display_name, description : str
        The AlertPolicy's ``metadata.displayName`` and ``spec.description``.
    notification_targets : tuple of dict
        ``spec.notificationTargets`` as written (``{"targetRef": name}`` or inline
        ``AlertNotificationTarget`` objects).
    condition_display_name, condition_description : str
        The AlertCondition's ``metadata.displayName`` and ``spec.description``.
    alert_when_resolved : bool
        ``spec.alertWhenResolved``.
    labels, annotations : dict
        The AlertPolicy's ``metadata.labels`` and (non-budgetlab) ``metadata.annotations``.
    """

    display_name: str = ""
    description: str = ""
    notification_targets: tuple[dict[str, Any], ...] = ()
    condition_display_name: str = ""
    condition_description: str = ""
    alert_when_resolved: bool = False
    labels: dict[str, Any] = field(default_factory=dict)
    annotations: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for f in ("display_name", "description", "condition_display_name", "condition_description"):
            object.__setattr__(self, f, check_str(getattr(self, f), f))
        nts = self.notification_targets
        if (
            isinstance(nts, Mapping)
            or not isinstance(nts, Sequence)
            or not all(isinstance(t, Mapping) for t in nts)
        ):
            raise ConfigError("notification_targets must be a tuple of mappings ({'targetRef': "
                              "name} or an inline "
                              "AlertNotificationTarget).")
        object.__setattr__(self, "notification_targets", tuple(plain(t) for t in nts))
        if not isinstance(self.alert_when_resolved, bool):
            raise ConfigError("alert_when_resolved must be true or false.")
        object.__setattr__(self, "labels", check_strings(self.labels, "labels", lists=True))
        object.__setattr__(self, "annotations", check_strings(self.annotations, "annotations"))

    @classmethod
    def default(cls, tier: AlertTier) -> AlertPolicyInfo:
        """What budgetlab writes for ``tier`` when it was given nothing else."""
        windows = " and ".join(duration_shorthand(w) for w in tier.windows)
        return cls(description=f"{tier.severity} when the burn-rate condition {tier.name} holds",
                   notification_targets=(DEFAULT_TARGET,),
                   condition_description=f"burn rate above {tier.burn:g} over {windows}")


