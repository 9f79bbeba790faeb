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
from .incident_plot_keys import key_incident, key_span_in_alerts, say_counted

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
    # empty
    top = plot_timeline(st, slo=r.slo, incidents=incidents, transitions=tr, ax=axes[0], tz=r.tz,
                        spans=sp.reset_index(drop=True) if sp is not None else None)
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
    _mark_spans(r, panels, list(axes[1:]))
    _mark_data_start(r, panels)
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
    if quiet:
        legend_right(ax, quiet, inches=0.45, handler_map=LEGEND_HANDLERS)


#: The keys of the hatched spans without data, in the timeline's top legend.
NO_DATA_BEGINS, NO_DATA_ENDS = "no data: the log begins", "no data: the log ends"


def _mark_spans(r: Any, panels: list[Any], rest: list[Any]) -> None:
    """Shade the incident on every panel (the timeline's ``panels`` and the ``rest``); where the
    window holds time without data, before the log's first event (``r.data_start`` after the
    window's start) or after its last (``r.data_end``), hatch every panel there and key it in the
    top panel's legend, whatever the span's width (words drawn on a narrow span would run past
    the axes): the log begins, the log ends (after the end no status nor alert is drawn: the
    report evaluates none there, :func:`~budgetlab.analyses.incident_replay.replay_tables`)."""
    axes = [*panels, *rest]
    for ax in axes:
        ax.axvspan(r.start.tz_convert(None), r.end.tz_convert(None), color="black", alpha=0.04,
                   lw=0)
    keys = []
    first = getattr(r, "data_start", None)
    if first is not None and first > r.window_start:  # the window begins before the log does
        keys.append(_no_data(axes, r.window_start, first, "before_data", NO_DATA_BEGINS))
    if getattr(r, "data_end", None) is not None:  # the log ends before the window does
        keys.append(_no_data(axes, r.data_end, r.window_end, "data_end", NO_DATA_ENDS))
    entries = getattr(panels[0], "legend_entries", None)
    unkeyed = False
    if entries and not len(r.incidents):  # the span of --start/--end alone: keyed as the
        key_incident(entries[-1])  # incidents the timeline draws are
        unkeyed = True
    if not len(r.incidents) and rest:  # and in the alert panel, whose legend is its own
        key_span_in_alerts(rest[0])
    if entries and (keys or unkeyed):
        from ..plotting.timeline_marks import place_legends

        entries[0].extend(keys)
        place_legends(panels, entries)


def _no_data(axes: list[Any], lo: Any, hi: Any, gid: str, words: str) -> Any:
    """Hatch ``[lo, hi)`` on every panel (``//``, grey); the legend key saying ``words`` (its
    gid ``GID_key``)."""
    from matplotlib.patches import Patch

    lo, hi = lo.tz_convert(None), hi.tz_convert(None)
    for ax in axes:
        ax.axvspan(lo, hi, facecolor="none", edgecolor="0.7", hatch="//", lw=0, gid=gid)
    key = Patch(facecolor="none", edgecolor="0.7", hatch="//", label=words)
    key.set_gid(f"{gid}_key")
    return key


#: The timeline's key of the span where the tracker's window reaches before the data's start.
NOT_COVERED = "window not yet covered by data:\nit reaches before the data's start"
#: Its hatching: the data end's (``//``) mirrored, so that the two read apart where they meet.
_START_HATCH = "\\\\"


def data_start_span(report: Any) -> tuple[Any, Any] | None:
    """Where the focus group's tracker window reaches before the data's start when the log starts
    late (``report.data_start``): from the data's start (the report window's start when that is
    later) to ``data_start + slo.window``, the tracker table's ``read_from`` when that falls in
    the incident; cut at the window's end and at the data's end (hatched apart). ``None`` when
    the window lies after the data's start all through the report's window.

    >>> from types import SimpleNamespace as NS
    >>> import pandas as pd
    >>> t = pd.Timestamp("2015-05-17 10:05", tz="UTC")
    >>> rep = NS(data_start=t, data_end=None, slo=NS(window=pd.Timedelta("1h")),
    ...          window_start=t - pd.Timedelta("35min"), window_end=t + pd.Timedelta("8h"))
    >>> [f"{x:%H:%M}" for x in data_start_span(rep)]
    ['10:05', '11:05']
    """
    start = getattr(report, "data_start", None)
    if start is None:
        return None
    lo = max(report.window_start, start)
    hi = min(report.window_end, start + report.slo.window)
    if getattr(report, "data_end", None) is not None:
        hi = min(hi, report.data_end)
    return (lo, hi) if hi > lo else None


def _mark_data_start(r: Any, panels: list[Any]) -> None:
    """Hatch the timeline's panels where the tracker's window reaches before the data's start
    (:func:`data_start_span`), as the data's end is hatched (mirrored: ``\\``): what is drawn
    there is read on less than a window of data, not what the tables read (they are read from
    ``read_from``); keyed once in the timeline's legend (:data:`NOT_COVERED`)."""
    from matplotlib.patches import Patch

    from ..plotting.timeline_marks import place_legends

    span = data_start_span(r)
    if span is None:
        return
    lo, hi = (t.tz_convert(None) for t in span)
    for ax in panels:
        ax.axvspan(lo, hi, facecolor="none", edgecolor="0.7", hatch=_START_HATCH, lw=0,
                   gid="data_start")
    entries = getattr(panels[0], "legend_entries", None)
    if entries:
        key = Patch(facecolor="none", edgecolor="0.7", hatch=_START_HATCH, label=NOT_COVERED)
        key.set_gid("data_start")
        entries[-1].append(key)
        place_legends(panels, entries)


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
