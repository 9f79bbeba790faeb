"""Drawing an incident report: the timeline and the alert episodes of the group the summary talks
about, and the stacked bucket burn, on one time axis."""

from __future__ import annotations

from typing import Any

from .incident_end_words import in_repeated_hour
from .incident_group_words import scope_group_words
from .incident_plot_alerts import (
    focus_bins,
    key_not_evaluated,
    not_evaluated_attrs,
    rule_silences,
    unseen_of,
)
from .incident_plot_keys import say_counted
from .incident_plot_spans import data_start_span, mark_data_start, mark_spans

__all__ = ["bucket_tables", "changes_words", "data_start_span", "span_title", "plot_report"]


def plot_report(report: Any, *, fig: Any = None) -> Any:
    """Timeline (focus group), alert episodes (focus group) and stacked bucket burn of an
    :class:`~budgetlab.analyses.incident.IncidentReport` (typed ``Any``: that module draws through
    this one), sharing the time axis; returns the matplotlib Figure.

    The title names the scope and the focus group, so the alert panel's rows are named by tier alone
    (``page_1h (page)``), with a left margin as wide as the longest name needs. The bucket panel
    leaves out the groups ``report.window_buckets`` notes as too thin for a verdict and names them
    in its legend, as :func:`~budgetlab.plotting.plot_buckets` does with ``breakdown=``. The
    panels' y labels stand in one column (``fig.align_ylabels``), left of the widest tick
    labels. Where the log ends inside the window every panel is hatched after its last event;
    where the tracker's window reaches before the data's start the timeline's panels are hatched
    the other way (:func:`data_start_span`), keyed in its legend."""
    import matplotlib.pyplot as plt

    from ..plotting import plot_alerts, plot_buckets, plot_timeline

    # a manual layout: constrained layout would align the timeline's own panels (a grid inside
    # the first row) apart from the rows below, so that their time axes no longer line up
    r = report
    tables = bucket_tables(r)  # one bucket panel per target: burns under two do not add up
    fig = plt.figure(figsize=(12.5, 12 + 2.2 * (len(tables) - 1))) if fig is None else fig
    fig.set_layout_engine("none")
    # inches: 1.5 left (the y labels; more when the alert tiers' names need it, below), 3.9 right
    # (the timeline's fullest legend, two columns): neither is cut
    width = fig.get_figwidth()
    right = max(0.5, 1 - 3.9 / width)
    fig.subplots_adjust(left=min(0.25, 1.5 / width), right=right, top=0.94, bottom=0.05,
                        hspace=0.16)
    axes = fig.subplots(2 + len(tables), 1, sharex=True,
                        height_ratios=[4.5, 1.6, *[2.0] * len(tables)])
    focus = r.focus()
    st, sp, tr, ep = r.states, r.steps, r.transitions, r.alerts
    for k, v in focus.items():
        st, tr, ep = st[st[k] == v], tr[tr[k] == v], ep[ep[k] == v]
        sp = sp[sp[k] == v] if sp is not None else None
    st = st.drop(columns=list(r.by))
    st.attrs["slo"] = r.slo.as_dict()
    incidents = r.incidents if len(r.incidents) else None
    # the alert panel first: its rows are named by tier alone (the group is the title's), and the
    # left margin is made wide enough for the longest name before the other panels are drawn
    ep = ep.drop(columns=list(focus))
    # the incidents unseen by every tier: hollow, as alerts draws them
    unseen = unseen_of(r, ep, incidents, focus)
    grid = focus_bins(r, focus)
    # a tier's row is shaded where its long window reaches before the data's start: not
    # evaluated there (the tiers' evaluated_from), so no alert is drawn there
    attrs = not_evaluated_attrs(dict(r.alerts.attrs), getattr(r, "data_start", None),
                                 r.window_start)
    ep.attrs = {**attrs, "by": [k for k in r.by if k not in focus]}
    plot_alerts(ep, incidents=incidents, ax=axes[1], tz=r.tz, unseen=unseen)
    rule_silences(r, axes[1], attrs, grid)
    key_not_evaluated(axes[1])
    # in two lines as every other panel's: the margin measured here holds them all, aligned
    axes[1].set_ylabel("alert\ntier")
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    used = (axes[1].bbox.x0 - axes[1].get_tightbbox(renderer).x0) / fig.dpi  # inches
    fig.subplots_adjust(left=min(right - 0.2, max(fig.subplotpars.left, (used + 0.15) / width)))
    # on the window's clock (its steps): the bands and the exact lines, broken only where it was
    # empty; the status strip reduced to the pixel columns of the window shown (the worst status
    # of each: seconds of critical keep a column)
    top = plot_timeline(st, slo=r.slo, incidents=incidents, transitions=tr, ax=axes[0], tz=r.tz,
                        spans=_shown(sp, r))
    panels = list(getattr(top, "panels", [top]))
    _say_changes(top, panels, r, tr)
    for ax, (target, over_time, breakdown) in zip(axes[2:], tables, strict=True):
        if len(over_time):  # the groups too thin for a verdict left out, named in the legend
            plot_buckets(_over_window(r, over_time), by=list(r.breakdown_by) or None, ax=ax,
                         tz=r.tz,
                         breakdown=breakdown, target=target)
            say_counted(ax, r, target if len(tables) > 1 else None)
        else:  # the log has no failure bucket at all: said in the panel, as plot_buckets says it
            _no_failure_panel(ax, r)
        ax.set_xlabel("")
    axes[-1].set_xlabel(f"time ({r.tz})")  # the time axis, once at the bottom
    mark_spans(r, panels, list(axes[1:]))
    mark_data_start(r, panels)
    axes[1].set_xlabel("")  # the time axis is labelled once, at the bottom
    for ax in [*panels, axes[1]]:  # the rows below share axes[1]'s time axis
        ax.set_xlim(r.window_start.tz_convert(None), r.window_end.tz_convert(None))
    where = scope_group_words(r.scope, focus)  # what every panel is about
    fig.suptitle(f"Incident {span_title(r.start, r.end, r.tz)}"
                 + (f", {where}" if where else ""))
    # one column of y labels, as the timeline aligns its own panels: left of the widest tick
    # labels of any panel (the alert tiers' names, mostly)
    fig.align_ylabels([*panels, *axes[1:]])
    return fig


def _shown(steps: Any, r: Any) -> Any:
    """The focus group's ``steps`` (``None``: none) as the timeline draws them here: with
    ``attrs["shown"]``, the report's window, the time axis the panels are given (wider than
    the steps where the log begins or ends inside it), so that the status strip is reduced to
    its pixel columns (:func:`~budgetlab.plotting.status_bands.draw_spans`)."""
    if steps is None:
        return None
    drawn = steps.reset_index(drop=True)
    drawn.attrs = {**steps.attrs, "shown": (r.window_start, r.window_end)}
    return drawn


def _over_window(r: Any, over_time: Any) -> Any:
    """``over_time`` as the bucket panel draws it: over the report's window where the log has
    data (from its first event, to its last when it ends first; ``attrs`` ``start``, ``end``), so
    that its bins without events are ruled as such (:func:`~budgetlab.plotting.plot_buckets`),
    not left blank, nor said to hold no failures."""
    import pandas as pd

    first = getattr(r, "data_start", None)
    lo = r.window_start if first is None else max(r.window_start, first)
    hi = r.window_end if r.data_end is None else min(r.window_end, r.data_end + pd.Timedelta(1))
    drawn = over_time.copy()
    drawn.attrs = {**over_time.attrs, "start": lo, "end": hi - pd.Timedelta(1)}
    return drawn


def _no_failure_panel(ax: Any, r: Any) -> None:
    """The bucket panel of a window without a failure bucket (``over_time`` empty): its bins
    (those :func:`_over_window` draws) without events ruled and keyed as
    :func:`~budgetlab.plotting.plot_buckets` rules them, and its words
    (:func:`~budgetlab.plotting.empty_bins.say_what_is_missing`): "no failures in these bins",
    "... in the bins with events" or "no events in these bins", read off the events of the
    window (``r.states``: one row per event)."""
    import numpy as np
    import pandas as pd

    from ..plotting.empty_bins import clip_to_events, mark_empty_bins, say_what_is_missing
    from ..plotting.legends import legend_right
    from ..plotting.status_bands import LEGEND_HANDLERS
    from .incident_window import nice_freq

    step = pd.Timedelta(nice_freq(r.window_end.value - r.window_start.value)).value
    seen = _over_window(r, r.over_time).attrs  # the bins drawn: where the log has data
    lo, last = seen["start"].value, seen["end"].value
    t0 = lo // step * step
    edges = (t0 + np.arange((last // step * step - t0) // step + 2) * step).view("datetime64[ns]")
    clip_to_events(edges, {"start": seen["start"], "end": seen["end"]})
    t = r.states["ts"].to_numpy(dtype="datetime64[ns]").view(np.int64)
    t = t[(t >= lo) & (t <= last)]
    events = np.bincount((t - t0) // step, minlength=len(edges) - 1).astype(float)
    quiet, _ = mark_empty_bins(ax, edges, np.arange(len(events)), np.zeros(len(events)),
                               events, {}, withheld=False)
    say_what_is_missing(ax, events)
    ax.set_yticks([])
    ax.bucket_keys = quiet  # as plot_buckets keeps them, for the incident's key after them
    if quiet:
        legend_right(ax, quiet, inches=0.45, handler_map=LEGEND_HANDLERS)


def _say_changes(top: Any, panels: list[Any], report: Any, tr: Any) -> None:
    """The timeline's legend entry of the status changes drawn (``tr``: the focus group's
    changes at events in the reported window): those during the incident (at an event in its
    ``[start, end)``, as the summary counts them, whatever the log's start: a change drawn before
    the tracker's figures are read, in the hatched span, is during it too) over the incident's
    span, and those of the context drawn beside them (:func:`changes_words`); the legends placed
    again."""
    from ..plotting.timeline_marks import place_legends
    from .incident_window import between

    entries = getattr(top, "legend_entries", [])
    drawn = len(tr)
    during = int(between(tr["ts"], report.start, report.end).sum()) if drawn else 0
    span = span_title(report.start, report.end, report.tz)
    for handle in (h for handles in entries for h in handles):
        gid = str(handle.get_gid())
        if gid.startswith("transitions"):
            handle.set_label(changes_words(during, drawn, span, rug=gid.endswith("rug")))
            place_legends(panels, entries)


def changes_words(during: int, drawn: int, span: str, *, rug: bool = False) -> str:
    """The incident figure's legend words for the status changes drawn (``drawn`` of them in the
    reported window): how many the tracker made during the incident, the number its summary
    says ("it changed status N times"), over the incident's ``span``, and how many more the
    context before or after it holds.

    >>> print(changes_words(1, 2, "2026-02-02 03:30–10:00 (UTC)"))
    1 status change at events
    during the incident,
    2026-02-02 03:30–10:00 (UTC);
    1 more before or after it
    >>> print(changes_words(0, 3, "2026-02-02 03:30–10:00 (UTC)", rug=True))
    no status change at events
    during the incident,
    2026-02-02 03:30–10:00 (UTC);
    3 before or after it (rug)
    """
    head = (f"{during} status change{'s' if during != 1 else ''}" if during
            else "no status change")
    text = f"{head} at events\nduring the incident,\n{span}"
    if drawn > during:
        text += f";\n{drawn - during}{' more' if during else ''} before or after it"
    return text + (" (rug)" if rug else "")


def bucket_tables(report: Any) -> list[tuple[float, Any, Any]]:
    """The bucket panels of :func:`plot_report`: ``(target, over_time, window_buckets)`` per
    target, the rows of the report's tables of the groups measured against it, the highest target
    first. A burn of 2 under 99 % and one under 90 % are not one unit and do not add up, so with
    per-group SLOs (``report.slos``) each target's groups are stacked on their own panel; else
    one panel, the report's SLO's target. Groups under SLOs of the same target share a panel.

    >>> import pandas as pd
    >>> from budgetlab import PerGroup, SLO, as_events, incident_report
    >>> ts = pd.date_range("2026-01-01", periods=240, freq="1min", tz="UTC")
    >>> ev = as_events(ts.repeat(2), [i % 10 != 0 for i in range(480)],
    ...                groups={"kind": ["a", "b"] * 240})
    >>> rep = incident_report(ev, PerGroup({"a": 0.99, "b": 0.9}), ts[60], ts[180], by="kind")
    >>> [(t, sorted(set(o["kind"]))) for t, o, _ in bucket_tables(rep)]
    [(0.99, ['a']), (0.9, ['b'])]
    """
    import numpy as np

    from ..slo_groups import split_by_slo

    over_time, breakdown, per = report.over_time, report.window_buckets, report.slos
    if per is None or not len(over_time):
        return [(report.slo.target, over_time, breakdown)]

    def rows(table: Any) -> dict[float, Any]:  # the row positions of each target's groups
        parts: dict[float, list[Any]] = {}
        for slo, pos in split_by_slo(table, per, list(report.by)):
            parts.setdefault(slo.target, []).append(pos)
        return {t: np.sort(np.concatenate(p)) for t, p in parts.items()}

    drawn = rows(over_time)
    kept = rows(breakdown) if breakdown is not None else {}
    none = np.zeros(0, dtype=np.int64)
    return [(t, over_time.iloc[drawn[t]],
             None if breakdown is None else breakdown.iloc[kept.get(t, none)])
            for t in sorted(drawn, reverse=True)]


def span_title(start: Any, end: Any, tz: str) -> str:
    """The incident's ``[start, end)`` in ``tz`` as a title says it: the end's date too when it
    falls on another day; across a change of the clocks each end with its own zone, and the
    zone after both when an end lies in the hour the clocks go back over (``02:30`` alone would
    be either), as the summary says them
    (:func:`~budgetlab.analyses.incident_tracker_text.between`).

    >>> import pandas as pd
    >>> t = pd.Timestamp("2015-05-18", tz="UTC")
    >>> span_title(t, t + pd.Timedelta("6h"), "UTC")
    '2015-05-18 00:00–06:00 (UTC)'
    >>> span_title(t, t + pd.Timedelta("24h"), "UTC")
    '2015-05-18 00:00 – 2015-05-19 00:00 (UTC)'
    >>> a = pd.Timestamp("2026-10-25 00:15", tz="UTC")  # 02:15 CEST; the clocks go back at 01:00
    >>> span_title(a, a + pd.Timedelta("90min"), "Europe/Berlin")
    '2026-10-25 02:15 CEST – 02:45 CET (Europe/Berlin)'
    >>> span_title(a, a + pd.Timedelta("30min"), "Europe/Berlin")
    '2026-10-25 02:15–02:45 CEST (Europe/Berlin)'
    """
    lo, hi = start.tz_convert(tz), end.tz_convert(tz)
    one_day = lo.date() == hi.date()
    dash, to = ("–", f"{hi:%H:%M}") if one_day else (" – ", f"{hi:%Y-%m-%d %H:%M}")
    if f"{lo:%Z}" != f"{hi:%Z}":  # across a change of the clocks: each end its own zone
        return f"{lo:%Y-%m-%d %H:%M} {lo:%Z} – {to} {hi:%Z} ({tz})"
    zone = f" {hi:%Z}" if in_repeated_hour(lo) or in_repeated_hour(hi) else ""
    return f"{lo:%Y-%m-%d %H:%M}{dash}{to}{zone} ({tz})"
