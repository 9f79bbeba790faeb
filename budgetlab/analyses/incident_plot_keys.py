"""The incident figure's keys for what its panels hold besides the focus group's timeline: the
shaded incident of ``--start``/``--end`` (keyed as the incidents the timeline draws are, in the
bucket panels too) and what the bucket panel counts (every group of the report's scope, not only
the group drawn above)."""

from __future__ import annotations

from typing import Any

__all__ = ["incident_key", "key_incident", "key_span_in_alerts", "key_span_in_buckets",
           "say_counted"]


def key_incident(last: list[Any]) -> None:
    """The shaded incident's key in the timeline's bottom legend (``last``), where the
    timeline keys the incidents it draws: before the status changes and bands."""
    from ..plotting.timeline_marks import handle_gid

    key = incident_key()
    after = ("transitions", "status_", "warmup")
    at = next((i for i, h in enumerate(last) if handle_gid(h).startswith(after)), len(last))
    last.insert(at, key)


def incident_key() -> Any:
    """The key of the incident shaded on every panel (``--start``/``--end``)."""
    from matplotlib.patches import Patch

    key = Patch(facecolor=(0.0, 0.0, 0.0, 0.04), edgecolor="0.3", label="incident")
    key.set_gid("incident")
    return key


def key_span_in_alerts(ax: Any) -> None:
    """The shaded incident's key in the alert panel's own legend (``ax``), after its keys, the
    not-evaluated spans said in the incident's words again (the legend is laid anew)."""
    from ..plotting.alert_chart import add_alert_keys
    from .incident_plot_alerts import key_not_evaluated

    add_alert_keys(ax, [incident_key()])
    key_not_evaluated(ax)


def key_span_in_buckets(ax: Any) -> None:
    """The shaded incident's key in a bucket panel's legend (``ax``), among the keys
    :func:`~budgetlab.plotting.plot_buckets` gave it (``ax.bucket_keys``) where it keys its own
    incidents (after the layers), under the title it
    has (:func:`say_counted`'s), the legend laid anew: the panel draws no incident of its own, so
    the shading of ``--start``/``--end`` is keyed there whatever the timeline keys."""
    from ..plotting.legends import legend_right
    from ..plotting.status_bands import LEGEND_HANDLERS
    from ..plotting.timeline_marks import handle_gid

    keys = list(getattr(ax, "bucket_keys", []))
    # where plot_buckets keys its incidents: after the layers, before the empty bins' keys
    at = sum(1 for h in keys if handle_gid(h) == "bucket")
    keys.insert(at, incident_key())
    ax.bucket_keys = keys
    old = ax.get_legend()
    title = old.get_title().get_text() if old is not None else ""
    legend_right(ax, keys, inches=0.45, handler_map=LEGEND_HANDLERS, title=title or None)


def say_counted(ax: Any, r: Any, target: Any) -> None:
    """The bucket panel's legend titled with what it counts when that is more than the group
    the title and timeline draw: every group of the report (in its scope; under ``target`` when
    the panels are one per target), by the breakdown's keys."""
    legend = ax.get_legend()
    if legend is None or len(r.tracker) < 2:
        return
    scope = "" if r.scope == "*" else f" in {r.scope}"
    under = "" if target is None else f" at target {target:.4g}"
    by = ", ".join(r.breakdown_by) if r.breakdown_by else "all"
    legend.set_title(f"every group{scope}{under},\nby {by}", prop={"size": "small"})
