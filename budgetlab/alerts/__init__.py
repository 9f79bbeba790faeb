"""Alerts: multiwindow multi-burn-rate policies, their episodes, scoring against incidents, and
low-traffic diagnostics."""

from __future__ import annotations

from .episodes import alert_episodes, alert_states
from .lowtraffic import low_traffic
from .policy import AlertPolicy
from .scoring import compare_policies, incident_detections, score_alerts
from .tier import AlertTier

__all__ = ["alert_episodes", "alert_states", "low_traffic", "AlertPolicy", "AlertTier",
           "compare_policies", "incident_detections", "score_alerts"]
