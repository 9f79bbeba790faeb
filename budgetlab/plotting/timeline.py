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

from .._util.validation import check_tz, require_columns
from ..errors import ConfigError
from ..slo import PerGroup, table_slo
from ._common import one_group, piece_starts, split_axes, step_line, time_axis
from ._numbers import plain_numbers
from ._pixels import merge_breaks, pixel_columns
from .clock_lines import clock_lines, require_steps
from .held_status import draw_held, held_spans
from .line_envelope import enveloped, line_envelopes
from .status_bands import draw_spans, draw_status, draw_warmup, rug_band, warmup_spans
from .timeline_marks import (
    LINE_COLORS,
    MAX_TRANSITION_LINES,
    draw_levels,
    draw_marks,
    handle_gid,
    legend_entries,
    place_legends,
)
from .timeline_rows import event_rows, line_breaks, lone_rows, observed_ends

#: The lines (gid) top-down and the replay column each draws.
_LINES = (("success_rate", "success_rate"), ("burn_rate", "burn_rate"),
          ("budget_remaining", "remaining_fraction"))
#: Each line's y range padding (:func:`_limits`): the burn rate's from below 0, so that a burn
#: of 0 (no failure) lies above the bottom spine, not hidden in it.
_PADS: dict[str, dict[str, float]] = {"success_rate": {}, "burn_rate": {"floor": 0.0},
                                      "budget_remaining": {"pad": 0.06}}


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


def plot_timeline(states: pd.DataFrame | None = None, *, slo: Any = None,
                  incidents: pd.DataFrame | None = None,
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
    states : DataFrame, optional
        One group's output of :func:`budgetlab.replay` (filter groups first). Optional with
        ``spans``: the lines, the bands and the time axis are then the spans', and of
        ``states`` only the rows outside the spans' observation ``[start, end)`` change the
        figure (the time axis reaches them; those at or after its end, after a silence, are
        the dots). So ``None`` draws the same figure as the whole replay when no event lies
        there, and those rows alone always do.
    slo : SLO, optional
        Draws the target line and the warning/critical thresholds (default:
        ``states.attrs["slo"]``, else ``spans.attrs["slo"]``, when present).
    incidents : DataFrame, optional
        Incident table; each ``[start, end)`` is shaded grey on every panel.
    transitions : DataFrame, optional
        Output of :func:`budgetlab.transitions`: up to 60 changes are marked with dotted lines
        across the panels, more with a rug of short ticks at the bottom, coloured by the new status.
    ax : Axes, optional
        Where to draw (default ``plt.gca()``): its area is split into the panels.
    max_points : int, optional
        Each line keeps all its steps up to this many; beyond, each line is its time-weighted
        mean in each of ``max_points // 4`` time columns over a light band of the range it spans
        there (gids ``success_range``, ``burn_range``, ``budget_range``; keyed with the line;
        :mod:`~budgetlab.plotting.line_envelope`). Default: 4 × the panel's width in pixels
        (without a layout engine, the width left by the legends). Beyond that many, what is
        drawn is reduced to the columns, its cost bounded: the bands show the status each column
        held longest, the strip the worst it touched (a one-pixel exhausted stays visible), the
        no-traffic rules cover every column holding any, gaps shorter than a column merge (a gap
        of a column or more always breaks), a rug of transitions keeps one tick per column.
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
        events, 2 % of the span drawn)``, at most the SLO's window (after a longer silence the
        window held no event: no status to draw); ignored with ``spans`` (the lines break
        where the window held no event).
    spans : DataFrame, optional
        The group's window steps, :func:`budgetlab.status_spans` with ``steps=True`` (the
        window's clock; other spans are refused): the status bands are its runs of one status,
        ``no_traffic`` drawn as such (no fill, grey rules, outlined, a column wide at least:
        unlike any status; its own legend entry; a status held for one instant drawn as the one
        before it), and the time axis covers them. The warm-up, each first window of a traffic
        stretch (from the group's first event, or refilling after a silence longer than the
        window: what :func:`budgetlab.replay_summary` counts in ``warmup_hours``), is a sky blue
        strip along the bottom panel's foot (gid ``warmup``), "warm-up (window filling)" in the
        legend; reduced to the pixel columns as the bands, a one-pixel warm-up stays visible.
        The lines are drawn on the same clock, exact
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
        and exhausted), ``warmup``, ``incident``, ``transitions``. The legends name
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
    slo = _check(states, spans, slo, budget=budget, max_points=max_points)
    t, values, status, order = event_rows(states, _LINES[:3 if budget else 2])
    labels_below = bool(ax.xaxis.get_tick_params(which="major").get("labelbottom", True))
    panels = split_axes(ax, 3 if budget else 2)
    lines, hidden, extras = draw_levels(panels, values, spans, slo, policy)
    breaks, lone = line_breaks(t, spans, gap, slo)
    warm = warmup_spans(spans)
    facts: dict[str, Any] = {"hidden": hidden, "transitions": transitions,
                             "slo": slo if budget else None, "incidents": incidents,
                             "warmup": len(warm[0]) > 0, "held": held_spans(states, spans, slo)}
    placed = None
    if max_points is None:
        # the legends' room made before the lines are thinned to the panels' pixel columns (a
        # figure without a layout engine narrows the panels for it), from what they will name
        # (a status the columns hide, or a dot merged away, keeps its room)
        statuses = spans["status"] if spans is not None and len(spans) else status
        placed = legend_entries(panels, lone=len(lone) > 0, **facts,
                                statuses={str(v) for v in pd.unique(statuses)},
                                envelope=enveloped(t, spans, panels[-1]))
        place_legends(panels, placed)
    columns = pixel_columns(panels[-1]) if max_points is None else max(1, max_points // 4)
    drawing: dict[str, Any] = {"t": t, "values": values, "status": status,
                               "order": order, "spans": spans, "breaks": breaks, "lone": lone,
                               "max_points": max_points, "extras": extras, "placed": placed,
                               "warm": warm}
    _draw(panels, lines, columns, facts, **drawing)
    _finish(ax, panels, labels_below, tz)
    _set_xlim(ax, t, spans)
    return ax


def _draw(panels: list[Axes], lines: dict[str, Any], columns: int, facts: dict[str, Any], *,
          t: np.ndarray, values: dict[str, np.ndarray], status: pd.Series,
          order: np.ndarray | None, spans: pd.DataFrame | None, breaks: np.ndarray,
          lone: np.ndarray, max_points: int | None, extras: list[list[float]],
          placed: list[list[Any]] | None, warm: tuple[np.ndarray, np.ndarray]) -> None:
    """What :func:`plot_timeline` draws on its ``panels``, thinned to ``columns``: the lines' points
    and y ranges, the status bands and the ``warm`` warm-up strip, the marks and the legends
    (those ``placed`` before the data kept when they name what is drawn, else placed anew)."""
    max_points = 4 * columns if max_points is None else max_points
    if len(t) > max_points and not (spans is not None and len(spans)):
        breaks = merge_breaks(t, breaks, int(t[0]), int(t[-1]), columns)
        lone = lone_rows(len(t), breaks)
    points, starts, ranges = _line_points(dict(zip(lines, panels, strict=True)), t, values,
                                          spans, breaks, columns, max_points)
    tr = facts["transitions"]  # a rug of status changes over a warm-up strip: a band each
    rug, room = rug_band(len(warm[0]) > 0, tr is not None and len(tr) > MAX_TRANSITION_LINES)
    for p, (gid, line), extra in zip(panels, lines.items(), extras, strict=True):
        scale = 1.0 if gid == "burn_rate" else 100.0  # a positive scale keeps the extremes
        x, v = points[gid][0], points[gid][1] * scale
        line.set_data(x, v)
        if len(lone):  # an event alone between breaks (or after the spans) draws no step: a dot
            p.plot(t[lone].view("datetime64[ns]"), values[gid][lone] * scale, ls="",
                   marker="o", ms=3, color=LINE_COLORS[gid], gid=f"{gid}_lone")
        lim = _limits(np.r_[v, ranges.get(gid, v[:0]) * scale], extra,  # the band's range too
                      **{**_PADS[gid], **(room if p is panels[-1] else {})})
        if lim is not None:
            p.set_ylim(*lim)
    bottom = panels[-1]
    if spans is not None and len(spans):
        shown = draw_spans(bottom, spans, t, columns)
        lo, hi = (int(v) for v in observed_ends(t, spans))
        draw_warmup(bottom, warm, lo, hi, columns)
    else:
        shown = draw_status(bottom, status, order, t, starts, breaks)
    draw_held(bottom, facts["held"])  # the status held on a thin window: hatched, keyed
    draw_marks(panels, facts["incidents"], tr, columns, rug)
    entries = legend_entries(panels, lone=len(lone) > 0, statuses=shown, **facts)
    if placed is not None and _names(placed) == _names(entries):
        entries = placed  # the legends placed to make their room name what is drawn: kept
    else:
        place_legends(panels, entries)
    panels[0].legend_entries = entries  # type: ignore[attr-defined]


def _names(entries: list[list[Any]]) -> list[list[tuple[str, str, str]]]:
    """What legend ``entries`` name, per panel: each handle's gid, label and kind (a handle's
    look follows from them: a line's is its panel's, a proxy's its gid's)."""
    return [[(handle_gid(h), str(h.get_label()), type(h).__name__) for h in hs] for hs in entries]


def _line_points(panels: dict[str, Axes], t: np.ndarray, values: dict[str, np.ndarray],
                 spans: pd.DataFrame | None, breaks: np.ndarray, columns: int, max_points: int
                 ) -> tuple[dict[str, tuple[np.ndarray, np.ndarray]], np.ndarray, Any]:
    """``(points, starts, ranges)``: each line's ``(x, y)`` (the per-event ``values`` at ``t``
    broken after ``breaks``, or on the window's clock with ``spans``; beyond ``max_points``, the
    means per column over the ranges drawn on ``panels``: :func:`line_envelopes`), the pieces."""
    starts = piece_starts(t, columns, breaks) if len(t) > max_points else np.arange(len(t),
                                                                                    dtype=np.int64)
    points, ranges = line_envelopes(panels, t, values, spans, breaks, columns, max_points)
    if not points and spans is not None and len(spans):
        points = clock_lines(spans, list(values), columns=columns, max_points=max_points)
    elif not points:  # every event: no more than max_points
        points = {gid: step_line(t, v, starts, breaks) for gid, v in values.items()}
    return points, starts, ranges


def _check(states: pd.DataFrame | None, spans: pd.DataFrame | None, slo: Any, *, budget: bool,
           max_points: Any) -> Any:
    """Refuse what :func:`plot_timeline` cannot draw; the SLO drawn (a per-group one: the
    group's, read from the group keys of ``states``, or of ``spans`` when ``states`` has no
    row)."""
    from ..budget.replay_status import REPLAY_COLUMNS
    from ..budget.spans import SPAN_COLUMNS

    if spans is not None:
        require_steps(spans)
        one_group(spans, SPAN_COLUMNS, "spans")
    if states is None:
        if spans is None or not len(spans):
            raise ConfigError("plot_timeline draws states (budgetlab.replay's output of one "
                              "group), or without them spans= with rows: the window's steps, "
                              "budgetlab.status_spans(events, slo, steps=True).")
    else:
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
    known = [(f, c) for f, c in ((states, REPLAY_COLUMNS), (spans, SPAN_COLUMNS)) if f is not None]
    slo = slo if slo is not None else next((table_slo(f) for f, _ in known if "slo" in f.attrs),
                                           None)
    # a per-group replay: the SLO of the group drawn (the key columns of its first row)
    if isinstance(slo, PerGroup):
        frame, columns = next(((f, c) for f, c in known if len(f)), (None, ()))
        keys = [] if frame is None else [k for k in frame.columns if k not in columns]
        slo = None if frame is None else slo.slo_for(tuple(frame[keys].iloc[0]))
    return slo


def _finish(ax: Axes, panels: list[Axes], labels_below: bool, tz: str) -> None:
    """Ticks, the time axis under the bottom panel, aligned labels; the panels on the top one."""
    for p in panels:
        p.yaxis.set_major_locator(MaxNLocator(nbins=4))
        plain_numbers(p.yaxis)  # 99.99 .. 100 read as such: no offset over the panel
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


def _set_xlim(ax: Axes, t: np.ndarray, spans: pd.DataFrame | None) -> None:
    """The time axis: the events (and the spans' observation when given), padded; a lone
    instant gets half an hour each side (else the axis has no time ticks to show)."""
    ends = t[[0, -1]] if len(t) else t
    if spans is not None and len(spans):
        ends = observed_ends(t, spans)
    if len(ends):
        lo_x, hi_x = mdates.date2num(ends.view("datetime64[ns]"))  # type: ignore[no-untyped-call]
        span = hi_x - lo_x  # days
        pad_x = max(span * 0.01, 1 / 86400) if span > 0 else 30 / 1440
        ax.set_xlim(lo_x - pad_x, hi_x + pad_x)


