"""The alert chart: :func:`plot_alerts`, the episodes of each tier (and group) of an alert
policy against the incidents, and what sits behind and below its episode bars: each tier row's
span while its long window fills (what scoring counts apart by default), and the incidents (their
own row, shaded across the rows of their scope: :mod:`budgetlab.plotting.alert_incidents`)."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any

import matplotlib.dates as mdates
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.patches import Patch, Rectangle

from .._util.validation import check_argument, check_tz, require_columns
from .._util.words import counted, some_named
from ._common import FILLING_ALPHA, FILLING_COLOR, display_names, time_axis, utc_naive
from .alert_bars import SEVERITY_COLORS, bars_column_wide, row_bars
from .alert_blind import blind_rows, unseen_incidents, unseen_patch
from .alert_incidents import incident_row
from .legends import legend_right, room_for_y_labels, x_label_clear
from .status_bands import LEGEND_HANDLERS, WORDS_BOX

#: The legend's line when the episodes have group keys but the evaluated groups are not given
#: (``groups=``): only those with an episode have rows; the others are not known to the chart.
QUIET_NOT_DRAWN = "groups without an alert, if any:\nnot drawn (pass groups=)"
#: What a chart without any episode says (a text of gid ``no_alert``).
NO_ALERT = "no alert fired"
#: The legend entry of those spans, by the rule the episodes were scored with
#: (:func:`budgetlab.score_alerts`' ``filling``): ``"apart"`` (its default) leaves what begins
#: there out of the scores, ``"count"`` scores it as any other episode or incident.
FILLING_LABELS = {"apart": "long window filling: scored apart",
                  "count": "long window filling: scored with the rest"}


def plot_alerts(episodes: pd.DataFrame, *, incidents: pd.DataFrame | None = None,
                ax: Axes | None = None, tz: str | None = None, filling: str = "apart",
                groups: pd.DataFrame | None = None, bins: Any = None,
                grace: Any = "1h", unseen: Any = None) -> Axes:
    """Alert episodes per tier (one row each, and per group) against the incidents.

    Parameters
    ----------
    episodes : DataFrame
        Output of :func:`budgetlab.alert_episodes`. Every tier of the policy gets a row, also
        tiers that never fired (from ``episodes.attrs["tiers"]`` or the ``tier`` categories), in
        every group with an episode.
    groups : DataFrame, optional
        The evaluated groups' key columns, one row per group (a ``BinGrid``'s ``keys``: what
        :func:`budgetlab.bin_events` binned), or the bins table itself (its key columns are read,
        once per group): those without any episode are named in one line of
        the legend, "no alert in N groups: a, b, c and 2 more" (gid ``quiet``), so the figure
        shows they were evaluated without a row per tier of each. Without it, a chart of grouped
        episodes says in that line that groups without an alert, if any, are not drawn.
    incidents : DataFrame, optional
        Incident table: drawn as the last row (hatched; incidents that overlap in lanes of it, the
        first free lane from the top, each named by its ``incident_id`` beside its end) and shaded
        across the rows of its ``scope`` (``method=GET``: the GET rows and its own; no scope,
        ``*`` or a chart without group keys: all rows). A scope whose groups have no row (no
        alert there) is shaded on the incident row only, and a line of the legend says so
        by id (gid ``no_row``: "no row for the scope of" then "I2: method=GET"; without ids,
        the name does: ``(method=GET: no row)``). The names are laid out when drawn in lanes of
        the row, never over each other (one no lane has room for is not drawn).
    ax : Axes, optional
        Where to draw (default ``plt.gca()``).
    tz : str, optional
        Time zone of the tick labels (default UTC), named in the x label.
    bins : DataFrame or BinGrid, optional
        The bins the episodes were computed from (other bins: a
        :class:`~budgetlab.errors.ConfigError`). With them the chart says what the score table
        says of silences (:mod:`budgetlab.plotting.alert_blind`): a light grey ruled band (gid
        ``no_traffic``) on a tier row over the evaluations its long window holds no event of the
        group at, and an incident unseen by every tier (:func:`budgetlab.incident_detections`'
        ``unseen`` on every tier's row) is drawn hollow and dashed (gid ``incident_unseen``),
        keyed "unseen: no traffic in any tier's long window". Without them traffic is unknown:
        no silence is marked, no incident is called unseen.
    grace : str or Timedelta
        The scoring's ``grace`` (:func:`budgetlab.score_alerts`' default), read with ``bins``.
    unseen : array of bool, optional
        Per row of ``incidents``, unseen by every tier, read by the caller (the incident figure: on
        its focus group's bins; ``alerts --plot``: off its scores): drawn so, even with ``bins=``.
    filling : {"apart", "count"}
        The rule the episodes were scored with (:func:`budgetlab.score_alerts`' ``filling``, the
        same default), said in the filling spans' legend entry.

    Returns
    -------
    Axes
        One ``BarContainer`` per row in ``ax.containers`` (label: the row's name, ``<tier>`` or
        ``<group> · <tier>``; ``incidents`` for the incident row); each bar spans an episode
        ``[start, end)`` in matplotlib date numbers, edged in its colour, one shorter than a
        pixel column of the axes as laid out widened to one column from its start
        (:mod:`~budgetlab.plotting.alert_bars`): an episode of a minute in days still shows.
        The x range is the evaluated span (``attrs["grid_start"]``..``attrs["grid_end"]``) when
        known. With those attrs and
        ``attrs["tier_windows"]`` (as :func:`budgetlab.alert_episodes` sets them) each tier row is
        shaded light sky blue over its long window from the start of each stretch of its group's
        traffic (``attrs["stretches"]``; the grid's start without them; clipped to the axis; a
        ``Rectangle`` of gid ``filling`` each), keyed by what scoring did with the episodes
        there: "long window filling: scored apart" (``filling="apart"``: the episodes over in
        it; the incidents scored apart are those begun in the first long window from the grid's
        start), "long window filling: scored with the rest" (``"count"``). The row of a tier
        that can never fire at its group's target (``attrs["cannot_fire"]``) says so in short,
        clipped to the axes, the rule in the legend (both gid ``cannot_fire``). Without any
        episode the panel says "no alert fired" (a text, gid ``no_alert``; a legend line of that
        gid when a row says it can never fire, centred there too). Incidents wholly outside the
        evaluated span are not drawn (:func:`drawn_incidents`; no incident row when none is
        left); a line of the legend says how many (gid ``outside``: "not drawn: 1 incident
        wholly outside the span evaluated"). The legend keys the severities of the episodes
        drawn (not those of tiers that never fired), the filling spans, the incidents and the
        groups without an alert, each when there are any; its entries are ``ax.alert_keys``
        (more: :func:`add_alert_keys`).

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from budgetlab import AlertPolicy, alert_episodes, as_events, bin_events
    >>> ts = pd.date_range("2026-01-01", periods=120, freq="1min")
    >>> b = bin_events(as_events(ts, [not (30 <= i < 40) for i in range(120)]), "1min")
    >>> ax = plot_alerts(alert_episodes(b, 0.9, AlertPolicy.single_window("10min", burn=4.5)))
    >>> [(c.get_label(), len(c.patches)) for c in ax.containers]
    [('page_10m', 1)]
    >>> plt.close("all")
    """
    ax = plt.gca() if ax is None else ax
    tz = check_tz(tz)
    key = filling_key(filling)
    keys, tiers, rows_of, quiet = _row_plan(episodes, groups)
    start = utc_naive(episodes["start"])
    end = utc_naive(episodes["end"])
    # the episodes by row (stable: each row's in the table's order), and where each row's begin
    row = _row_codes(episodes, keys, rows_of, tiers)
    order = np.argsort(row, kind="stable")
    bounds = np.searchsorted(row[order], np.arange(len(rows_of) * len(tiers) + 1))
    rows: list[str] = []
    y, shaded, fired, bars = 0, False, set(), []
    for g in rows_of:  # a loop over groups and tiers
        for name, severity in tiers:
            sel = order[bounds[y]:bounds[y + 1]]
            label = " · ".join([*g, str(name)])
            bars.append(row_bars(ax, y, start[sel], end[sel], str(severity), label))
            fired |= {str(severity)} if len(sel) else set()
            rows.append(f"{label} ({severity})" if severity else label)
            shaded = filling_span(ax, episodes.attrs, str(name), y, g) or shaded
            y += 1
    # keyed: the severities of the bars drawn, in the tiers' order
    handles: list[Any] = [Patch(color=SEVERITY_COLORS.get(sev, "#0072B2"), label=sev)
                          for sev in dict.fromkeys(str(sev) for _, sev in tiers) if sev in fired]
    if shaded:
        handles.append(Patch(facecolor=FILLING_COLOR, alpha=FILLING_ALPHA, label=key))
    handles += blind_rows(ax, episodes.attrs, bins, keys, rows_of, tiers)
    if not len(episodes):
        handles += _no_alert(ax)
    lo, hi = episodes.attrs.get("grid_start"), episodes.attrs.get("grid_end")
    if lo is not None and hi is not None:  # before the incidents: their names placed within it
        ax.set_xlim(utc_naive([lo])[0], utc_naive([hi])[0])
    incidents = None if incidents is None else incidents.reset_index(drop=True)
    drawn, outside = drawn_incidents(episodes.attrs, incidents)
    if len(drawn):
        rows.append("incidents")
        seen = None if unseen is None else np.asarray(unseen, dtype=bool)[drawn.index]
        handles += _incident_marks(ax, episodes, drawn, y, pd.DataFrame(rows_of, columns=keys)
                                   if keys and rows_of != [()] else None, bins, grace, seen)
    if outside:  # a line of text in the key, without a mark
        handles.append(Patch(facecolor="none", edgecolor="none", gid="outside",
                             label=f"not drawn: {counted(outside, 'incident')} wholly\n"
                                   "outside the span evaluated"))
    line = _quiet_line(quiet) if _groups_given(keys, groups) else QUIET_NOT_DRAWN if keys else ""
    if line:  # a line of text in the key, without a mark
        handles.append(Patch(facecolor="none", edgecolor="none", label=line, gid="quiet"))
    ax.set_yticks(np.arange(len(rows)), rows, fontsize="small")
    ax.set_ylim(-0.7, len(rows) - 0.3)
    ax.invert_yaxis()
    ax.set_ylabel("alert tier")
    time_axis(ax, tz)
    ax.alert_keys = []  # type: ignore[attr-defined]
    add_alert_keys(ax, handles)
    room_for_y_labels(ax)  # the tier names, kept whole on a plain figure
    x_label_clear(ax)  # the axis as narrow as the legend and tier names leave it
    bars_column_wide(ax, bars)  # a one-minute page in two days: a pixel column at least
    return ax


def add_alert_keys(ax: Axes, handles: list[Any]) -> None:
    """Key ``handles`` after the entries of the chart on ``ax`` (``ax.alert_keys``), laid again."""
    keys = [*getattr(ax, "alert_keys", []), *handles]
    ax.alert_keys = keys  # type: ignore[attr-defined]
    if keys:
        legend_right(ax, keys, handler_map=LEGEND_HANDLERS)


def _no_alert(ax: Axes) -> list[Any]:
    """:data:`NO_ALERT` said in the middle of the panel (not by an empty key), or, when a row
    says it can never fire (its words centred there too), as a line of the legend: returned."""
    if any(t.get_gid() == "cannot_fire" for t in ax.texts):
        return [Patch(facecolor="none", edgecolor="none", label=NO_ALERT, gid="no_alert")]
    ax.text(0.5, 0.5, NO_ALERT, transform=ax.transAxes, ha="center", va="center", color="0.3",
            gid="no_alert", bbox=WORDS_BOX)  # legible over a tier's ruled silence
    return []


def _incident_marks(ax: Axes, episodes: pd.DataFrame, drawn: pd.DataFrame, y: int,
                    groups: pd.DataFrame | None, bins: Any, grace: Any,
                    unseen: np.ndarray | None = None) -> list[Any]:
    """:func:`plot_alerts`' incident row (:func:`incident_row`; the unseen ones drawn apart when
    ``unseen`` marks them, else read on ``bins``) and its legend entries: the incidents seen, the
    unseen ones, the line naming those whose scope has no row, each when there are any."""
    if bins is not None and unseen is None:
        unseen = unseen_incidents(episodes, drawn, bins, grace)
    rowless = incident_row(ax, drawn, y, groups=groups, unseen=unseen)
    handles: list[Any] = []
    if unseen is None or not unseen.all():
        handles.append(Patch(facecolor="none", edgecolor="grey", hatch="//", label="incident"))
    if unseen is not None and unseen.any():
        handles.append(unseen_patch())
    if rowless:  # a line of text in the key, without a mark
        handles.append(Patch(facecolor="none", edgecolor="none", label=rowless, gid="no_row"))
    return handles


def alert_rows(episodes: pd.DataFrame, *, groups: pd.DataFrame | None = None,
               incidents: pd.DataFrame | None = None) -> int:
    """How many rows :func:`plot_alerts` draws for these arguments: one per tier in every group
    with an episode (one set of tiers without group keys or without any episode; the groups of
    ``groups`` without one are named in the legend instead), plus the incident row when
    ``incidents`` has any within the evaluated span (:func:`drawn_incidents`). What a figure
    sizes its panel by.

    >>> from budgetlab import AlertPolicy, alert_episodes, as_events, bin_events
    >>> ts = pd.date_range("2026-01-01", periods=120, freq="1min")
    >>> fra_fails = [not (i % 2 == 0 and 30 <= i // 2 < 40) for i in range(240)]
    >>> b = bin_events(as_events(ts.repeat(2), fra_fails, groups={"region": ["fra", "ams"] * 120}),
    ...                "1min", by=["region"])
    >>> ep = alert_episodes(b, 0.9, AlertPolicy.single_window("10min", burn=4.5))
    >>> ep["region"].astype(str).tolist(), alert_rows(ep, groups=b[["region"]].drop_duplicates())
    (['fra'], 1)
    """
    _, tiers, rows_of, _ = _row_plan(episodes, groups)
    return len(rows_of) * len(tiers) + int(len(drawn_incidents(episodes.attrs, incidents)[0]) > 0)


def drawn_incidents(attrs: Mapping[Hashable, Any], incidents: pd.DataFrame | None
                    ) -> tuple[pd.DataFrame, int]:
    """The incidents :func:`plot_alerts` draws, and how many it leaves out: those wholly outside
    the evaluated span (``attrs["grid_start"]``..``attrs["grid_end"]``, the episodes' attrs; the
    rule by which :func:`budgetlab.score_alerts` leaves them unscored), which its x range does
    not show. All are drawn when the span is not known.

    >>> inc = pd.DataFrame({"start": pd.to_datetime(["2026-10-07", "2026-11-02"], utc=True),
    ...                     "end": pd.to_datetime(["2026-10-08", "2026-11-03"], utc=True)})
    >>> span = {"grid_start": "2026-11-01 00:00:00+00:00", "grid_end": "2026-11-15 00:00:00+00:00"}
    >>> shown, outside = drawn_incidents(span, inc)
    >>> shown["start"].dt.day.tolist(), outside
    ([2], 1)
    """
    from ..alerts.score_inputs import outside_span  # the alerts package: loaded when drawn

    if incidents is None:
        return pd.DataFrame(columns=["start", "end"]), 0
    lo, hi = attrs.get("grid_start"), attrs.get("grid_end")
    if lo is None or hi is None or not len(incidents):
        return incidents, 0
    require_columns(incidents, ["start", "end"], what="incidents")
    span = utc_naive([lo, hi]).view(np.int64)
    out = outside_span(utc_naive(incidents["start"]).view(np.int64),
                       utc_naive(incidents["end"]).view(np.int64), (int(span[0]), int(span[1])))
    return incidents[~out], int(out.sum())


def _row_plan(episodes: pd.DataFrame, groups: pd.DataFrame | None
              ) -> tuple[list[str], list[tuple[str, str]], list[tuple[str, ...]],
                         list[tuple[str, ...]]]:
    """The group key columns, the tiers (name, severity), the groups whose rows
    :func:`plot_alerts` draws (those with an episode, their keys as text, sorted; one empty tuple
    without keys or without any episode) and the quiet ones: those of ``groups`` without an
    episode, sorted. The keys are the ones :func:`budgetlab.score_alerts` scores by; the tiers
    its own when the attrs name them, else the table's in display order, a tier without an
    episode of unknown severity drawn without one (scoring refuses it: it needs a policy)."""
    from ..alerts.score_inputs import episode_keys  # the alerts package: loaded when drawn

    require_columns(episodes, ["tier", "severity", "start", "end"], what="episodes")
    keys = episode_keys(episodes)
    tiers = episodes.attrs.get("tiers")
    if not (isinstance(tiers, list) and tiers):
        sev = dict(zip(episodes["tier"].astype(str), episodes["severity"].astype(str), strict=True))
        tiers = [(n, sev.get(n, "")) for n in display_names(episodes["tier"])]
    seen = set(episodes[keys].astype(str).itertuples(index=False, name=None)) if keys else set()
    quiet: set[tuple[str, ...]] = set()
    if groups is not None and _groups_given(keys, groups):
        evaluated = groups[keys].drop_duplicates().astype(str)  # the bins themselves will do
        quiet = set(evaluated.itertuples(index=False, name=None)) - seen
    return keys, tiers, sorted(seen) or [()], sorted(quiet)


def _row_codes(episodes: pd.DataFrame, keys: list[str], rows_of: list[tuple[str, ...]],
               tiers: list[tuple[str, str]]) -> np.ndarray:
    """The row of each episode in :func:`plot_alerts`' order (``rows_of``' groups, each with
    every tier: row ``i * len(tiers) + j`` is group ``i``'s tier ``j``), -1 for an episode of a
    tier not drawn; one lookup of the episodes' (keys as text, tier) in the rows' index.

    >>> ep = pd.DataFrame({"k": ["b", "a", "b"], "tier": ["t2", "t1", "t1"]})
    >>> _row_codes(ep, ["k"], [("a",), ("b",)], [("t1", "page"), ("t2", "ticket")]).tolist()
    [3, 0, 2]
    """
    if not len(episodes):
        return np.zeros(0, dtype=np.intp)
    drawn = pd.MultiIndex.from_tuples([(*g, str(name)) for g in rows_of for name, _ in tiers])
    own = pd.MultiIndex.from_arrays([*(episodes[k].astype(str) for k in keys),
                                     episodes["tier"].astype(str)])
    return np.asarray(drawn.get_indexer(own), dtype=np.intp)


def _quiet_line(quiet: list[tuple[str, ...]], most: int = 3) -> str:
    """The legend's line naming the evaluated groups without an episode (the first ``most``, then
    how many more), ``""`` without any.

    >>> print(_quiet_line([("GET",), ("HEAD",), ("POST",), ("PUT",)]))
    no alert in 4 groups:
    GET, HEAD, POST and 1 more
    """
    if not quiet:
        return ""
    return (f"no alert in {counted(len(quiet), 'group')}:\n"
            + some_named([" · ".join(g) for g in quiet], most))


def _groups_given(keys: list[str], groups: pd.DataFrame | None) -> bool:
    """Whether ``groups`` names the evaluated groups by the episodes' key columns ``keys``."""
    return bool(keys) and groups is not None and set(keys) <= set(groups.columns)


def filling_key(filling: str) -> str:
    """The legend entry of the filling spans of episodes scored with ``filling``
    (:data:`FILLING_LABELS`); another rule is a :class:`~budgetlab.errors.ConfigError`.

    >>> filling_key("count")
    'long window filling: scored with the rest'
    """
    return FILLING_LABELS[check_argument("filling", filling, FILLING_LABELS)]


def filling_span(ax: Axes, attrs: Mapping[Hashable, Any], tier: str, y: int,
                 group: tuple[str, ...] = ()) -> bool:
    """Shade row ``y`` (``group``'s, its key values as text) where ``tier``'s long window filled
    for that group: from the start of each stretch of its traffic (its first event, and its first
    after a silence longer than the window) to the start plus the window, clipped to the grid's
    end (:func:`~budgetlab.alerts.filling.filling_spans`; from the grid's start when the attrs
    hold no stretches): the episodes over there and the incidents that begin there are scored
    apart by :func:`budgetlab.score_alerts` with ``filling="apart"`` (its default), with the rest
    with ``filling="count"``. ``attrs`` are the episodes' (from :func:`budgetlab.alert_episodes`);
    without ``grid_start``, ``grid_end`` or the tier's entry in ``tier_windows`` nothing is drawn.
    One :class:`~matplotlib.patches.Rectangle` (gid ``filling``) per span, 0.9 rows high, behind
    the bars; returns whether one was drawn."""
    from ..alerts.filling import filling_spans  # the alerts package: loaded when drawn

    spans = filling_spans(attrs, group, tier)
    for lo, hi in spans:
        x0, x1 = mdates.date2num(utc_naive(  # type: ignore[no-untyped-call]
            [pd.Timestamp(lo, unit="ns"), pd.Timestamp(hi, unit="ns")]))
        ax.add_patch(Rectangle((x0, y - 0.45), x1 - x0, 0.9, facecolor=FILLING_COLOR,
                               alpha=FILLING_ALPHA, lw=0, gid="filling", zorder=0.5))
    return bool(spans)
