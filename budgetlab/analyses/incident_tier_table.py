"""The incident report's tier table: what each tier of the alert policy did during the incident,
per group (its alerts by ``score_alerts``' rule, its peaks over the incident's evaluations), and
the tier that came closest to its threshold (:func:`closest_tier`).
:func:`~budgetlab.analyses.incident_tables.alert_tables` replays the alerts it is made of."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .._util.validation import utc_ns_column
from ..alerts.group_scores import episode_matches
from ..alerts.policy import AlertPolicy
from .incident_tier_apart import apart_columns, scored_apart

__all__ = ["closest_tier", "overlapping", "tier_table"]


def overlapping(episodes: pd.DataFrame, lo: pd.Timestamp, hi: pd.Timestamp) -> pd.DataFrame:
    """The episodes that overlap ``[lo, hi)``."""
    starts, ends = (utc_ns_column(episodes[c], f"episodes['{c}']") for c in ("start", "end"))
    keep: np.ndarray = episode_matches(starts, ends, lo.value, hi.value)
    return episodes[keep]


def tier_table(episodes: pd.DataFrame, states: pd.DataFrame, group_rows: list[tuple[Any, ...]],
                policy: AlertPolicy, keys: list[str], start: pd.Timestamp,
                matched_to: pd.Timestamp, until: pd.Timestamp) -> pd.DataFrame:
    """Per group (``group_rows``: their keys) and tier: what the tier did during the incident
    (``states``: the tiers' states at its evaluations); an alert counts when it overlaps
    ``[start, matched_to)`` (the incident's end + grace: ``score_alerts``' rule) and began by
    ``until`` (the last evaluation whose windows hold data). An alert that began before
    ``start`` is ``already_firing``: no ``detection_delay`` (NaT), as ``score_alerts`` counts it.
    An alert over while its tier's long window filled (after the group's first event or a
    silence at least that long, read with the ``episodes``' ``attrs``:
    :func:`~.incident_tier_apart.scored_apart`) is scored apart and detects nothing: the tier
    reads its other alerts only, and ``apart_alert`` (``apart_filled``,
    ``apart_after_silence``) says the first one apart that overlapped the incident."""
    on = [*keys, "tier"]
    tiers = pd.DataFrame({
        "tier": [t.name for t in policy.tiers], "severity": [t.severity for t in policy.tiers],
        "burn": [t.burn for t in policy.tiers],
        "long_window": pd.to_timedelta([t.long_window for t in policy.tiers]).as_unit("ns"),
        "short_window": pd.to_timedelta([t.short_window for t in policy.tiers]).as_unit("ns")})
    plain = {"tier": str, **{k: object for k in keys}}  # joined on the values, not categories
    hit = overlapping(episodes, start, matched_to)
    hit = hit[utc_ns_column(hit["start"], "episodes['start']") <= until.value].astype(plain)
    hit = hit.assign(ongoing=hit["ongoing"] if "ongoing" in hit.columns else False)
    apart = scored_apart(hit, episodes.attrs)  # over while its long window filled: no detection
    away = apart_columns(hit[apart], episodes.attrs, on)
    hit = hit[~apart]
    fired = hit.groupby(on).agg(first_alert=("start", "min"), alert_end=("end", "max"),
                                ongoing=("ongoing", "any"),
                                caused_by_timeouts=("caused_by_timeouts", "all"),
                                may_have_fired_earlier=("may_have_fired_earlier", "first"))
    peaks = states.astype(plain).groupby(on)[["burn_long", "burn_short", "condition"]].max()
    out = pd.DataFrame(group_rows, columns=keys).merge(tiers, how="cross")
    out = out.join(fired, on=on).join(peaks.add_prefix("peak_"), on=on).join(away, on=on)
    out["condition_held"] = out.pop("peak_condition").eq(True)  # False: no evaluation
    empty = states.astype(plain).groupby(on)["short_empty"].sum().rename("short_window_empty")
    out = out.join(empty, on=on).fillna({"short_window_empty": 0})
    for c in ("first_alert", "alert_end", "apart_alert", "apart_filled"):
        out[c] = out[c].astype("datetime64[ns, UTC]")
    out["fired"] = out["first_alert"].notna().to_numpy()
    # an alert already firing when the incident began was not caused by it: no delay
    # (``score_alerts``' rule, :func:`~budgetlab.alerts.group_scores.already_firing`)
    out["already_firing"] = (out["first_alert"] < start).to_numpy(dtype=bool)
    out["detection_delay"] = (out["first_alert"] - start).mask(out["already_firing"])
    for c in ("ongoing", "caused_by_timeouts", "may_have_fired_earlier",  # False: none fired
              "apart_after_silence"):
        out[c] = out[c].eq(True)
    return out[[*on, "severity", "burn", "long_window", "short_window", "fired", "first_alert",
                "detection_delay", "already_firing", "alert_end", "ongoing", "caused_by_timeouts",
                "may_have_fired_earlier", "apart_alert", "apart_filled", "apart_after_silence",
                "peak_burn_long",
                "peak_burn_short", "short_window_empty", "condition_held"]].astype(
                    {"peak_burn_long": float, "peak_burn_short": float,
                     "short_window_empty": np.int64})


def closest_tier(tiers: pd.DataFrame) -> pd.Series | None:
    """The row of the tier whose peak long-window burn came closest to its threshold (``None``
    when no tier has a peak)."""
    ratio = (tiers["peak_burn_long"] / tiers["burn"]).to_numpy(dtype=float)
    return tiers.iloc[int(np.nanargmax(ratio))] if np.isfinite(ratio).any() else None
