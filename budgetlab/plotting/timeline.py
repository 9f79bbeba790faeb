"""The replay timeline: success rate, burn rate and budget remaining, stacked on one time axis."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import matplotlib.dates as mdates
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.ticker import MaxNLocator

from .._util.percent import given_percent
from .._util.validation import check_tz, require_columns, to_timedelta, utc_ns_column
from ..errors import ConfigError
from ..slo import PerGroup
from ._common import (
    extreme_rows,
    gap_breaks,
    gap_threshold,
    one_group,
    piece_starts,
    split_axes,
    step_line,
    time_axis,
)
from ._pixels import merge_breaks, pixel_columns
from .clock_lines import clock_lines, require_steps
from .status_bands import draw_spans, draw_status
from .timeline_marks import draw_marks, legend_entries, place_legends

#: The lines (gid) top-down and the replay column each draws.
_LINES = (("success_rate", "success_rate"), ("burn_rate", "burn_rate"),
          ("budget_remaining", "remaining_fraction"))
#: Line colours (Okabe–Ito): success rate blue, burn rate reddish purple, budget remaining black.
LINE_COLORS = {"success_rate": "#0072B2", "burn_rate": "#CC79A7", "budget_remaining": "#0072B2"}


def _limits(values: np.ndarray, extra: Sequence[float], *, pad: float = 0.08,
            floor: float | None = None,
            flat: float = 0.5) -> tuple[float, float] | None:
    """A padded y range holding the finite ``values`` and the ``extra`` levels."""
    v = values[np.isfinite(values)]
    pts = [float(v.min()), float(v.max())] if len(v) else []
    pts += [float(e) for e in extra]
    if not pts:
        return None
    lo, hi = min(pts), max(pts)
    if floor is not None:
        lo = min(lo, floor)
    d = (hi - lo) * pad if hi > lo else flat
    return lo - d, hi + d


def plot_timeline(states: pd.DataFrame, *, slo: Any = None, incidents: pd.DataFrame | None = None,
                  transitions: pd.DataFrame | None = None, ax: Axes | None = None,
                  max_points: int | None = None,
                  tz: str | None = None, budget: bool = True, policy: Any = None, gap: Any = None,
                  spans: pd.DataFrame | None = None) -> Axes:
    """Success rate, burn rate and budget remaining over time: stacked panels on one time axis.

    Each line is drawn as steps (the replay's state holds from one event to the next) and breaks
    where no events came for longer than ``gap`` (with ``spans``: on the window's clock). The
    status bands sit behind the bottom panel; each warning, critical or exhausted stretch is also
    marked by a solid strip in its colour along the panel's top, over the lines (a stretch one
    pixel column wide stays visible).

    Parameters
    ----------
    states : DataFrame
        One group's output of :func:`budgetlab.replay` (filter groups first).
    slo : SLO, optional
        Draws the target line and the warning/critical thresholds (default:
        ``states.attrs["slo"]`` when present).
    incidents : DataFrame, optional
        Incident table; each ``[start, end)`` is shaded grey on every panel.
    transitions : DataFrame, optional
        Output of :func:`budgetlab.transitions`: up to 60 changes are marked with dotted lines
        across the panels, more with a rug of short ticks at the bottom, coloured by the new status.
    ax : Axes, optional
        Where to draw (default ``plt.gca()``): its area is split into the panels.
    max_points : int, optional
        Each line keeps all its events up to this many; beyond, the first, last, lowest and
        highest event of each of ``max_points // 4`` time columns and of each piece between gaps
        (:func:`~budgetlab.plotting.thin_minmax`): what the pixels can show, extremes kept.
        Default: 4 × the panel's width in pixels (one column per pixel). Beyond that many
        events, what is drawn is reduced to the columns, so its cost does not grow with the
        events: the status bands show the worst status of each column (and the no-traffic
        rules over every column holding any, so a one-pixel span stays visible), breaks
        closer than a column merge (a gap of a column or more always breaks), and a rug of
        transitions keeps one tick per column (its worst new status).
    tz : str, optional
        Time zone of the tick labels (default UTC), named in the x label; the data stay UTC.
    budget : bool
        Draw the budget-remaining panel (``remaining_fraction`` in %).
    policy : AlertPolicy, optional
        Its tiers' burn thresholds are drawn on the burn-rate panel (those above 1.5 times the
        highest burn rate are named in the legend only, so they do not squash the data).
    gap : duration, optional
        Lines break where consecutive events are further apart than this. Default
        (:func:`~budgetlab.plotting.gap_threshold`): ``max(20 × the median spacing of the
        events, 2 % of the span drawn)``; ignored with ``spans`` (the lines break where the
        window held no event).
    spans : DataFrame, optional
        The group's window steps, :func:`budgetlab.status_spans` with ``steps=True`` (the
        window's clock; other spans are refused): the status bands are its runs of one status,
        ``no_traffic`` drawn as such (no fill, grey horizontal rules: unlike any status; its own
        legend entry; a status held for one instant only drawn as the one before it), and the
        time axis covers them. The lines are drawn on the same clock, exact
        (:func:`~budgetlab.plotting.clock_lines.clock_values`): a step at every instant where the
        window changes, each event and each expiry (``1 - failures / total``, ``burn_rate``,
        ``remaining_fraction`` there), held to the observation's end, NaN exactly over
        ``no_traffic`` (an event after a silence at the observation's end, which no step holds,
        is a dot).

    Returns
    -------
    Axes
        The top panel (success rate, %); ``ax.burn_ax`` is the burn-rate panel and
        ``ax.budget_ax`` the budget panel (``None`` with ``budget=False``); ``ax.panels`` lists
        them top-down. Y ranges follow the data (and the target and thresholds; the burn
        rate's include 0), padded on both sides: a line at 0 (no failure) lies above the bottom
        spine, never hidden in it.
        Artists carry gids: ``success_rate``, ``burn_rate``, ``budget_remaining`` (step lines,
        NaN at gaps), ``target``, ``burn_one``, ``burn_threshold``, ``budget_threshold``,
        ``status_<name>`` (band collections), ``<name>_strip`` (the strip of warning, critical
        and exhausted), ``incident``, ``transitions``. The legends name
        what is drawn (a status band only when drawn); ``ax.legend_entries`` holds their
        handles per panel (:func:`~budgetlab.plotting.timeline_marks.merge_legends` joins those
        of several timelines into one set).

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> plt.close("all")  # a new figure: plot_timeline draws on the current axes
    >>> from budgetlab import SLO, as_events, replay
    >>> ev = as_events(pd.date_range("2026-01-01", periods=60, freq="1min"),
    ...                [i % 7 != 0 for i in range(60)])
    >>> ax = plot_timeline(replay(ev, SLO(target=0.9, window="10min")), tz="Europe/Berlin")
    >>> ax.budget_ax.get_xlabel(), ax.burn_ax.get_ylabel(), ax.get_lines()[0].get_drawstyle()
    ('time (Europe/Berlin)', 'burn\\nrate (×)', 'steps-post')
    >>> plt.close("all")
    """
    ax = plt.gca() if ax is None else ax
    tz = check_tz(tz)
    slo = _check(states, slo, budget=budget, max_points=max_points)
    if spans is not None:
        require_steps(spans)
    t = utc_ns_column(states["ts"], "states['ts']")
    order = None if len(t) < 2 or bool((t[1:] >= t[:-1]).all()) else np.argsort(t, kind="stable")
    if order is not None:
        t = t[order]
    labels_below = bool(ax.xaxis.get_tick_params(which="major").get("labelbottom", True))
    panels = split_axes(ax, 3 if budget else 2)
    values = {gid: states[name].to_numpy(dtype=float) for gid, name in _LINES[:len(panels)]}
    drawing = {"t": t, "values": values if order is None else {g: v[order] for g, v in
                                                                values.items()},
               "status": states["status"], "order": order, "spans": spans, "gap": gap,
               "max_points": max_points, "slo": slo, "policy": policy, "budget": budget,
               "incidents": incidents, "transitions": transitions}
    columns = pixel_columns(panels[-1]) if max_points is None else max(1, max_points // 4)
    _draw(panels, columns, **drawing)
    if max_points is None and pixel_columns(panels[-1]) < columns:
        # room made beside the panels for the legends (a figure without a layout engine): drawn
        # again, thinned to the narrower panels' pixel columns
        for p in panels:
            for a in [*p.lines, *p.collections, *p.patches]:
                a.remove()
        _draw(panels, pixel_columns(panels[-1]), **drawing)
    _finish(ax, panels, labels_below, tz)
    _set_xlim(ax, t, spans)
    return ax


def _draw(panels: list[Axes], columns: int, *, t: np.ndarray, values: dict[str, np.ndarray],
          status: pd.Series, order: np.ndarray | None, spans: pd.DataFrame | None, gap: Any,
          max_points: int | None, slo: Any, policy: Any, budget: bool,
          incidents: pd.DataFrame | None, transitions: pd.DataFrame | None) -> None:
    """What :func:`plot_timeline` draws on its ``panels``, thinned to ``columns``: the lines and
    levels, the status bands, the marks and the legends."""
    ax = panels[0]
    max_points = 4 * columns if max_points is None else max_points
    points, starts, breaks, lone = _line_points(t, values, spans, gap, columns, max_points)

    def line(target: Axes, gid: str, label: str, scale: float = 1.0) -> np.ndarray:
        x, v = points[gid]
        v = v * scale  # after thinning: only the drawn points (a positive scale keeps extremes)
        target.plot(x, v, drawstyle="steps-post", color=LINE_COLORS[gid], lw=1.1, label=label,
                    gid=gid)
        if len(lone):  # an event alone between breaks (or after the spans) draws no step: a dot
            target.plot(t[lone].view("datetime64[ns]"), values[gid][lone] * scale, ls="",
                        marker="o", ms=3, color=LINE_COLORS[gid], gid=f"{gid}_lone")
        return v

    # (a) success rate and the target; (b) burn rate, 1x and the alert thresholds
    _success_panel(ax, line(ax, "success_rate", "success rate in window (%)", 100.0), slo)
    hidden = _burn_levels(panels[1], line(panels[1], "burn_rate", "burn rate"), policy)
    # (c) budget remaining with the thresholds; the status bands behind the bottom panel
    if budget:
        _budget_panel(panels[2], line(panels[2], "budget_remaining", "budget remaining (%)",
                                      100.0), slo)
    bottom = panels[-1]
    if spans is not None and len(spans):
        draw_spans(bottom, spans, t, columns)
    else:
        draw_status(bottom, status, order, t, starts, breaks)
    draw_marks(panels, incidents, transitions, columns)
    entries = legend_entries(panels, hidden, transitions, slo if budget else None)
    place_legends(panels, entries)
    ax.legend_entries = entries  # type: ignore[attr-defined]


def _line_points(t: np.ndarray, values: dict[str, np.ndarray], spans: pd.DataFrame | None,
                 gap: Any, columns: int, max_points: int
                 ) -> tuple[dict[str, tuple[np.ndarray, np.ndarray]], np.ndarray, np.ndarray,
                            np.ndarray]:
    """``(points, starts, breaks, lone)``: each line's ``(x, y)`` to draw (of the per-event
    ``values`` at ``t``, or with ``spans`` on the window's clock: :func:`clock_lines`), the start
    rows of the per-event pieces, the rows the per-event lines break after, and the rows drawn
    as dots (:func:`_breaks`)."""
    breaks, lone = _breaks(t, spans, gap, columns if len(t) > max_points else 0)
    starts = piece_starts(t, columns, breaks) if len(t) > max_points else np.arange(len(t),
                                                                                    dtype=np.int64)
    if spans is not None and len(spans):
        return clock_lines(spans, list(values), columns=columns,
                           max_points=max_points), starts, breaks, lone
    points = {gid: step_line(t, v, extreme_rows(v, starts) if len(t) > max_points else starts,
                             breaks) for gid, v in values.items()}
    return points, starts, breaks, lone


def _check(states: pd.DataFrame, slo: Any, *, budget: bool, max_points: Any) -> Any:
    """Refuse what :func:`plot_timeline` cannot draw; the SLO drawn (a per-group one: the
    group's)."""
    from ..budget.replay_status import REPLAY_COLUMNS

    need = ["ts", "success_rate", "burn_rate",
            "status"] + (["remaining_fraction"] if budget else [])
    require_columns(states, need, what="states")
    one_group(states, REPLAY_COLUMNS, "states")
    if max_points is not None and (
        isinstance(max_points, bool)
        or not isinstance(max_points, (int, np.integer))
        or max_points < 4
    ):
        raise ConfigError("max_points must be a whole number >= 4 (or None: 4 per pixel column).")
    slo = slo if slo is not None else states.attrs.get("slo")
    # a per-group replay: the SLO of the group drawn (its key columns)
    if isinstance(slo, PerGroup):
        keys = states[[c for c in states.columns if c not in REPLAY_COLUMNS]]
        slo = slo.slo_for(tuple(keys.iloc[0])) if len(states) else None
    return slo


def _success_panel(ax: Axes, sr: np.ndarray, slo: Any) -> None:
    """The success-rate panel's target line, y range and label."""
    extra = []
    if slo is not None:
        ax.axhline(slo.target * 100, color="black", ls="--", lw=0.9,
                   label=f"target {given_percent(slo.target, space=False)}",
                   gid="target")
        extra.append(slo.target * 100)
    lim = _limits(sr, extra)
    if lim is not None:
        ax.set_ylim(*lim)
    ax.set_ylabel("success\nrate (%)")


def _budget_panel(budget_ax: Axes, rf: np.ndarray, slo: Any) -> None:
    """The budget panel's thresholds (dashed, named once in the legend; each status drawn names
    the one that starts it), y range and label. The range is always the whole 0-100 % scale
    (padded): a budget at 0 throughout is read against the full scale, as in every other group,
    not on an axis stopping near the warning threshold."""
    levels = [0.0, 100.0]
    if slo is not None:
        levels += [slo.warning * 100, slo.critical * 100]
        drawn = [f for f in (slo.warning, slo.critical) if f > 0]
        label = "thresholds " + ", ".join(given_percent(f, space=False) for f in drawn)
        for k, f in enumerate(drawn):
            budget_ax.axhline(f * 100, color="0.35", ls="--", lw=0.8, gid="budget_threshold",
                              label=None if k else label)
    budget_ax.axhline(0.0, color="0.35", ls="-", lw=0.8, gid="budget_threshold")
    lim = _limits(rf, levels, pad=0.06)
    if lim is not None:
        budget_ax.set_ylim(*lim)
    budget_ax.set_ylabel("budget\nleft (%)")


def _finish(ax: Axes, panels: list[Axes], labels_below: bool, tz: str) -> None:
    """Ticks, the time axis under the bottom panel, aligned labels; the panels on the top one."""
    for p in panels:
        p.yaxis.set_major_locator(MaxNLocator(nbins=4))
    for p in panels[:-1]:
        p.tick_params(labelbottom=False)
    bottom = panels[-1]
    bottom.tick_params(labelbottom=labels_below)
    time_axis(bottom, tz)
    if not labels_below:
        bottom.set_xlabel("")
    fig = ax.figure
    fig.align_ylabels(panels)
    ax.burn_ax = panels[1]  # type: ignore[attr-defined]
    ax.budget_ax = panels[2] if len(panels) > 2 else None  # type: ignore[attr-defined]
    ax.panels = panels  # type: ignore[attr-defined]
    fig.sca(ax)  # hand back the top panel as the current axes


def _burn_levels(burn_ax: Axes, br: np.ndarray, policy: Any) -> list[str]:
    """The burn-rate panel's 1× line and the ``policy``'s tier thresholds (those above 1.5 times
    the highest burn rate named in the legend only: returned), its y range and label."""
    burn_ax.axhline(1.0, color="black", ls=":", lw=0.9, label="1× = the allowed pace",
                    gid="burn_one")
    finite = br[np.isfinite(br)]
    peak = max(float(finite.max()) if len(finite) else 0.0, 1.0)
    shown, hidden = [1.0], []
    for tier in getattr(policy, "tiers", ()) or ():
        level = float(tier.burn)
        if level <= 1.5 * peak:
            burn_ax.axhline(level, color="#D55E00", ls="--", lw=0.9, gid="burn_threshold",
                            label=f"{tier.name}: burn {level:g}")
            shown.append(level)
        else:
            hidden.append(f"{tier.name}: burn {level:g} (above the axis)")
    # from below 0, padded as the other panels: a burn of 0 (no failure) lies above the bottom
    # spine, not hidden in it
    lim = _limits(br, shown, floor=0.0)
    if lim is not None:
        burn_ax.set_ylim(*lim)
    burn_ax.set_ylabel("burn\nrate (×)")
    return hidden


def _breaks(t: np.ndarray, spans: pd.DataFrame | None, gap: Any,
            columns: int) -> tuple[np.ndarray, np.ndarray]:
    """Rows after which the per-event lines break (after a gap; with ``columns``, those the
    columns can show: :func:`merge_breaks`), and the rows alone between breaks (drawn as dots: a
    step needs two points). With ``spans`` the lines are the spans' (:func:`clock_lines`): no
    break, and a dot for the events at the spans' end."""
    if spans is not None and len(spans):
        return np.zeros(0, dtype=np.int64), _after_spans(t, spans)
    gap_ns = gap_threshold(t) if gap is None else int(pd.Timedelta(to_timedelta(gap,
                                                                                name="gap")).value)
    breaks = gap_breaks(t, gap_ns)
    if columns and len(t):
        breaks = merge_breaks(t, breaks, int(t[0]), int(t[-1]), columns)
    # cut[i]: a break before row i (row 0 and the end included)
    cut = np.zeros(len(t) + 1, dtype=bool)
    cut[0] = cut[-1] = True
    cut[breaks + 1] = True
    return breaks, np.flatnonzero(cut[:-1] & cut[1:])


def _after_spans(t: np.ndarray, spans: pd.DataFrame) -> np.ndarray:
    """After a silence, the last row of each event time at or after the spans' end (the
    observation's last instant, which no span ``[start, end)`` holds): drawn as dots."""
    if str(spans["status"].iloc[-1]) != "no_traffic":  # the last step runs up to that instant
        return np.zeros(0, dtype=np.int64)
    rows = np.flatnonzero(t >= utc_ns_column(spans["end"], "spans['end']")[-1])
    return rows[np.r_[t[rows][1:] != t[rows][:-1], True]] if len(rows) else rows


def _set_xlim(ax: Axes, t: np.ndarray, spans: pd.DataFrame | None) -> None:
    """The time axis: the events (and the spans' observation when given), padded; a lone
    instant gets half an hour each side (else the axis has no time ticks to show)."""
    ends = t[[0, -1]] if len(t) else t
    if spans is not None and len(spans):
        lo, hi = spans["start"].iloc[0].value, spans["end"].iloc[-1].value
        ends = np.array([min(lo, *t[:1]), max(hi, *t[-1:])], dtype=np.int64)
    if len(ends):
        lo_x, hi_x = mdates.date2num(ends.view("datetime64[ns]"))  # type: ignore[no-untyped-call]
        span = hi_x - lo_x  # days
        pad_x = max(span * 0.01, 1 / 86400) if span > 0 else 30 / 1440
        ax.set_xlim(lo_x - pad_x, hi_x + pad_x)
