"""The incident figure's alert panel (:func:`~budgetlab.analyses.incident_plot.plot_report`),
drawn by :func:`~budgetlab.plotting.plot_alerts` and read as the tier table reads it: the focus
group's bins (:func:`focus_bins`), its tiers' rows shaded where their long window reaches before
the data's start (not evaluated there), ruled where it holds no event, and the incidents unseen by
every tier drawn hollow and dashed, as ``alerts --plot`` draws them (:func:`unseen_of`)."""

from __future__ import annotations

from typing import Any

__all__ = ["NOT_EVALUATED", "not_evaluated_attrs", "focus_bins", "on_report_keys", "unseen_of",
           "rule_silences", "key_not_evaluated"]


#: The alert panel's key of the spans where a tier's long window reaches before the data's start.
NOT_EVALUATED = "not evaluated: its long window\nreaches before the data's start"


def not_evaluated_attrs(attrs: dict[Any, Any], data_start: Any,
                         window_start: Any) -> dict[Any, Any]:
    """The alert episodes' ``attrs`` as the alert panel reads them: when the log starts late
    (``data_start``), the grid from the start of the bin of its first event, so that each tier's
    row is shaded from there over its long window: up to its first covered evaluation; the long
    windows (``tier_windows``) of the tiers whose shading reaches into the report window (from
    ``window_start``) only: no other is shaded nor keyed."""
    import pandas as pd

    # the panel shades where the window reaches before the data's start only (its key says
    # so), from the grid's start: not each group's refills after a silence (the attrs' stretches)
    attrs = {k: v for k, v in attrs.items() if k != "stretches"}
    if data_start is not None and "grid_start" in attrs and "freq_ns" in attrs:
        lo, step = pd.Timestamp(attrs["grid_start"]).value, int(attrs["freq_ns"])
        first_bin = lo + (data_start.value - lo) // step * step
        attrs = {**attrs, "grid_start": pd.Timestamp(first_bin, tz="UTC").isoformat()}
    if "grid_start" in attrs and "tier_windows" in attrs:
        filled = pd.Timestamp(attrs["grid_start"]).value
        attrs = {**attrs, "tier_windows": {t: w for t, w in attrs["tier_windows"].items()
                                           if filled + int(w) > window_start.value}}
    return attrs


def focus_bins(r: Any, focus: dict[str, Any], *, keyed: bool = False) -> Any:
    """The ``focus`` group's counts on ``r.alert_bins`` (the grid the tier table's ``unseen`` is
    read on), as one series (a ``BinGrid``; ``keyed``: still under its group keys, as the
    incidents' scopes are matched to it); ``None`` for a report without those bins."""
    from ..windows.bins import read_bins

    bins = getattr(r, "alert_bins", None)
    if bins is None:
        return None
    grid = read_bins(bins, freq=r.freq)
    if grid.by:  # the focus group's own counts, as one series
        own = [str(focus[k]) for k in grid.by]
        rows = grid.keys[grid.by].astype(str).itertuples(index=False, name=None)
        grid = grid.select([next(i for i, g in enumerate(rows) if list(g) == own)])
        grid = grid if keyed else grid.regroup([])
    return grid


def unseen_of(r: Any, ep: Any, incidents: Any, focus: dict[str, Any]) -> Any:
    """Per incident drawn, unseen by every tier of the ``focus`` group (``ep``, its episodes
    without its key columns), by the rule ``alerts --plot`` draws them by
    (:func:`~budgetlab.plotting.alert_blind.unseen_incidents`), read on its bins
    (:func:`focus_bins`, under its group keys: an incident's scope names them) and the episodes'
    attrs as scored: the tier table's ``unseen``. ``None`` without incidents or bins."""
    from ..plotting.alert_blind import unseen_incidents

    grid = None if incidents is None else focus_bins(r, focus, keyed=True)
    if grid is None:
        return None
    mine = ep.assign(**{k: str(focus[k]) for k in grid.by})
    mine.attrs = {**r.alerts.attrs, "by": list(grid.by)}
    return unseen_incidents(mine, on_report_keys(incidents, grid.by), grid, r.grace)


def on_report_keys(incidents: Any, by: Any) -> Any:
    """``incidents`` with the keys of their scopes that are neither the report's group keys
    ``by`` nor its scope's (``attrs["scope"]``) left out: such a key cannot pick among the
    report's groups (a breakdown column, say), so the incident is read over the group drawn, as
    the report reads its own; never a warning to give ``by=`` that key, which the report (a
    notebook) was not given. Unchanged without a ``scope`` column.

    >>> import pandas as pd
    >>> inc = pd.DataFrame({"scope": ["kind=a&region=ams", "region=fra", "*"]})
    >>> inc.attrs["scope"] = "region=ams"
    >>> list(on_report_keys(inc, [])["scope"])
    ['region=ams', 'region=fra', '*']
    """
    from ..events.scopes import parse_scope

    if "scope" not in incidents.columns:
        return incidents
    keep = {*by, *parse_scope(incidents.attrs.get("scope"))}
    out = incidents.assign(scope=["&".join(f"{k}={v}" for k, v in parse_scope(s).items()
                                           if k in keep) or "*"
                                  for s in incidents["scope"].to_numpy()])
    out.attrs = dict(incidents.attrs)
    return out


def rule_silences(r: Any, ax: Any, attrs: dict[Any, Any], grid: Any) -> None:
    """Rule each tier's row of the alert panel grey where its long window holds no event of the
    focus group (``grid``: :func:`focus_bins`), as the alerts chart does
    (:func:`~budgetlab.plotting.alert_blind.mark_silences`), keyed in its legend: from the
    window's start (the data's first bin when later: ``attrs``' ``grid_start``) to its end, or to
    the log's last event when it ends first (after it the windows empty with the data, not the
    traffic). A report without those bins (``grid`` ``None``) marks none."""
    import pandas as pd

    from ..plotting.alert_blind import mark_silences
    from ..plotting.alert_chart import add_alert_keys

    if grid is None:
        return
    lo = max(r.window_start.value, pd.Timestamp(attrs.get("grid_start", r.window_start)).value)
    hi = r.window_end.value if r.data_end is None else min(r.window_end.value, r.data_end.value)
    keys = mark_silences(ax, grid, r.alerts.attrs, [], [()],
                         [tuple(t) for t in attrs.get("tiers", [])], within=(lo, hi))
    if keys:
        add_alert_keys(ax, keys)


def key_not_evaluated(ax: Any) -> None:
    """The alert panel's key of the shaded spans in the incident's words (:data:`NOT_EVALUATED`):
    its tiers are not evaluated there, not scored apart."""
    from ..plotting.alert_chart import FILLING_LABELS

    legend = ax.get_legend()
    for text in legend.get_texts() if legend is not None else []:
        if text.get_text() == FILLING_LABELS["apart"]:
            text.set_text(NOT_EVALUATED)
