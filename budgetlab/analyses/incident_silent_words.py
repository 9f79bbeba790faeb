"""Why a tier of the incident report whose long-window burn peaked over its threshold did not
detect the incident, in the summary's words (:func:`why_silent`)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from .._util.words import counted, prose_duration
from ..alerts.policy import AlertPolicy
from .incident_end_words import detection_span_words
from .incident_tier_apart import apart_cell

__all__ = ["why_silent"]


def why_silent(near: pd.Series, policy: AlertPolicy, grace: Any) -> str:
    """Why the tier of ``near`` (a tiers row) did not fire when its peak long-window burn was
    over its threshold (``""`` when it was not): its short window was never over it at the same
    evaluation, or both were but no alert began during the incident or its ``grace``
    (``for_``); ``""`` too when its alert was scored apart (over while its long window filled:
    :func:`~.incident_tier_apart.apart_words` says it).

    >>> from budgetlab.alerts.tier import AlertTier
    >>> t = AlertPolicy([AlertTier("page_1h", "page", "1h", "5min", 14.4)])
    >>> near = pd.Series({"tier": "page_1h", "burn": 14.4, "peak_burn_long": 20.0,
    ...                   "peak_burn_short": 3.0, "condition_held": False, "fired": False})
    >>> why_silent(near, t, "1h")
    ', but its 5 min burn was never over it at the same evaluation'
    >>> why_silent(pd.concat([near, pd.Series({"apart_alert": pd.Timestamp(0, tz="UTC")})]),
    ...            t, "1h")
    ''
    """
    if not near["peak_burn_long"] > near["burn"] or apart_cell(near):
        return ""
    tier = next(t for t in policy.tiers if t.name == near["tier"])
    if not near["condition_held"]:
        if tier.short_window is None:
            return ", but its alert condition never held"
        short = prose_duration(tier.short_window)
        if pd.isna(near.get("peak_burn_short", 0.0)):  # no traffic, not a burn of 0
            return f", but its {short} window held no event at any of those evaluations"
        n = int(near.get("short_window_empty", 0))
        some = (f" (at {counted(n, 'evaluation')} its {short} window held no event: no burn "
                f"{'there' if n > 1 else 'then'}, no traffic)" if n else "")
        return f", but its {short} burn was never over it at the same evaluation{some}"
    wait = f" (for_ {prose_duration(tier.for_)})" if tier.for_ > pd.Timedelta(0) else ""
    return (f", and both its windows were over it, but no alert of it began "
            f"{detection_span_words(grace)}{wait}")
