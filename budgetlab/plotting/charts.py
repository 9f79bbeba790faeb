"""Failure buckets over time (:func:`plot_buckets`); the alert chart is
:mod:`budgetlab.plotting.alert_chart`."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.font_manager import FontProperties
from matplotlib.lines import Line2D
from matplotlib.ticker import FixedLocator

from .._util.percent import given_percent
from .._util.ratios import ratio
from .._util.validation import as_list, check_fraction, check_tz, require_columns, to_timedelta
from .._util.words import prose_duration, some_named
from ..budget.figures import BURN_BANDS
from ..errors import ConfigError, InputError
from ._common import (
    OTHER_COLOR,
    display_names,
    group_colors,
    time_axis,
    utc_naive,
)
from ._group_labels import OtherGroups
from ._numbers import plain_numbers
from .bucket_layers import bucket_layers, drawn_groups, withheld_groups
from .empty_bins import LANE, bin_span, clip_to_events, mark_empty_bins, say_what_is_missing
from .legends import legend_right
from .status_bands import LEGEND_HANDLERS
from .timeline_marks import incident_patch, shade_incidents

#: Fill colours of failure buckets (Okabe–Ito); other buckets cycle through the rest (no yellow:
#: 1.3 to 1 against white, a layer drawn in it hardly showed; Paul Tol's wine in its place).
BUCKET_COLORS = {"timeout": "#56B4E9", "solve_error": "#E69F00"}
_EXTRA_COLORS = ("#CC79A7", "#009E73", "#882255", "#0072B2", "#D55E00", "#999999")


def _freq_ns(frame: pd.DataFrame, column: str) -> int:
    freq = frame.attrs.get("freq")
    if isinstance(freq, str):
        return int(pd.Timedelta(to_timedelta(freq, name="freq")).value)
    uniq = np.unique(utc_naive(frame[column]).view(np.int64))
    if len(uniq) < 2:
        raise ConfigError(f"cannot tell the bin width from a single {column}; keep the table's "
                          "attrs['freq'].")
    return int(np.gcd.reduce(np.diff(uniq)))


#: :func:`plot_buckets`' legend title with several groups: a layer is not the group's own burn.
SHARE_TITLE = ("each layer: its share of the\ncombined burn: its failures over\n"
               "the budget of all groups drawn")
#: Hatching of the failure buckets when :func:`plot_buckets` colours its layers by group (the
#: display order's first bucket solid), drawn in white over the group's colour.
BUCKET_HATCHES = ("", "///", "..", "xx", "\\\\\\", "++")


def plot_buckets(over_time: pd.DataFrame, *, by: str | Sequence[str] | None = None,
                 ax: Axes | None = None, tz: str | None = None,
                 bands: Sequence[float] = BURN_BANDS,
                 breakdown: pd.DataFrame | None = None, target: float | None = None,
                 incidents: pd.DataFrame | None = None) -> Axes:
    """Burn rate over time, stacked by failure bucket (and, with ``by``, by group).

    Parameters
    ----------
    over_time : DataFrame
        Output of :func:`budgetlab.bucket_burn_over_time`, or the rows drawn alone
        (:func:`~budgetlab.plotting.bucket_drawn.drawn_burn_over_time`: rows whose ``others``
        column is ``True`` are ``attrs["others"]`` groups already added up, drawn as "other").
    by : str or list of str, optional
        Group keys of ``over_time`` to keep apart in the stack (``"region"``: one layer per
        bucket and region); the other groups are added up.
    ax : Axes, optional
        Where to draw (default ``plt.gca()``).
    tz : str, optional
        Time zone of the tick labels (default UTC), named in the x label.
    bands : sequence of float
        Burn rates of the reference lines (default :data:`BURN_BANDS`, the seed's bands).
        Burn 1 (when given) is always drawn, another band only up to 1.5 times the highest
        stacked burn (one above would squash the data); each line drawn is labelled
        ``burn <band>`` at the right edge, and only those are named.
    breakdown : DataFrame, optional
        :func:`budgetlab.bucket_breakdown` of the same events by the same ``by``: the groups whose
        figures it withholds (a ``withheld:`` note: too thin for a verdict) are left out of the
        stack, as its table leaves them blank, and named in the legend.
    target : float, optional
        The target every row's burn rate is measured against, named in the y label (``(1 =
        allowed pace, target 93%)``). Burn rates under different targets are not one unit and do not
        add up: draw the groups of each target on their own axes (as the incident report's
        figure does with per-group SLOs).
    incidents : DataFrame, optional
        Incident table; each ``[start, end)`` is shaded grey, as on the timeline (gid
        ``incident``, "incident" in the legend), within the time axis the bins set.

    Returns
    -------
    Axes
        One filled step patch per layer that holds a failure (``StepPatch``, gid ``bucket``, label
        ``<bucket>`` or ``<bucket> · <group>``): its ``get_data()`` gives the bin edges (the first
        and the last cut to the first and the last event, ``over_time.attrs["start"]`` and
        ``["end"]``: a bin longer than the log is drawn over the time it observed; the bins
        drawn run from the one of ``start`` to the one of ``end``, those without a row empty), the
        layer's
        top (``values``) and bottom (``baseline``); ``values - baseline`` is the layer's
        share of the bin's burn rate: its failures over all the events of the bin (of every group
        drawn) × (1 − target), so the stack's top is the bin's burn rate. With several groups a
        layer is not its group's own burn (28 failures in 2,753 of the bin's 4,558 events at 95 %:
        0.12, not 0.20): the y label says ``combined burn rate``, the legend's title
        (:data:`SHARE_TITLE`) what a layer is. The y label states the bin width
        (``burn rate per 1 h bin``); the y range runs from 0 to 1.08 times the higher of the
        stack's top and the highest band drawn, so the burn-1 line is inside the frame, never on
        it. The bands drawn are horizontal lines (gid ``band``), each with its label. Layers
        without a failure are neither drawn nor in the legend. The legend sits right of the
        plot area; on a figure without a layout engine the subplots are narrowed to make room for
        it, so a plain ``savefig`` keeps it whole.
        Without ``by`` (or with one group) the buckets have their colours
        (:data:`BUCKET_COLORS`); with several groups each group has its colour (by the rule of
        every figure, :func:`~budgetlab.plotting._common.group_colors`) and each bucket its hatching
        (:data:`BUCKET_HATCHES`), buckets stacked in their order. With more groups than
        :data:`MAX_GROUPS`, the ``MAX_GROUPS - 1`` that burn the most keep their layers and the
        others are added up, ``<bucket> · other (N groups)`` in grey. The groups left out as too
        thin are named in the legend (``not drawn, too thin for a verdict: ...``). Without a
        failure in any bin drawn the panel says so (a text on a white box, gid ``no_failures``:
        "no failures in these bins", "... in the bins with events" when some bins hold none, or
        "... in the groups drawn" when some are left out); when every group is
        left out, it says that (gid ``withheld``). A bin without events (burn 0 as a bin without
        failures) is marked as the timeline marks no traffic
        (:func:`~budgetlab.plotting.empty_bins.mark_empty_bins`): ruled grey over the panel's
        height where no group drawn has an event (gid ``no_traffic``), and with several groups, a
        lane per group at the panel's top, in its colour, where it is silent and another group
        is not (gid ``no_traffic:<group>``, the grey rest's ``no_traffic/others``, whatever the
        groups are named; the y range grows by :data:`~budgetlab.plotting.empty_bins.LANE` of the
        axes per lane, a grey line, gid ``lanes_floor``, under them, the y ticks below it); each
        keyed in the legend, none when every bin holds events.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from budgetlab import SLO, as_events, bucket_burn_over_time
    >>> ts = pd.date_range("2026-01-01", periods=240, freq="1min")
    >>> bucket = ["timeout" if i % 10 == 0 else "solve_error" if i % 25 == 0 else "success"
    ...           for i in range(240)]
    >>> ot = bucket_burn_over_time(as_events(ts, [b == "success" for b in bucket], bucket),
    ...                            SLO(target=0.9))
    >>> ax = plot_buckets(ot)  # 6 timeouts an hour at 60 events: 6 / (60 x 0.1) = burn 1
    >>> [(p.get_label(),
    ...   (p.get_data().values - p.get_data().baseline).round(2).tolist()) for p in ax.patches]
    [('timeout', [1.0, 1.0, 1.0, 1.0]), ('solve_error', [0.17, 0.17, 0.33, 0.17])]
    >>> ax.get_ylabel()
    'burn rate per 1 h bin\\n(1 = allowed pace)'
    >>> plt.close("all")
    """
    ax = plt.gca() if ax is None else ax
    tz = check_tz(tz)
    at = ("" if target is None
          else f", target {given_percent(check_fraction('target', target), space=False)}")
    require_columns(over_time, ["bin_start", "bucket", "events", "burn_rate"], what="over_time")
    keys = as_list(by)
    require_columns(over_time, keys, what="over_time")
    if len(over_time) == 0:
        raise InputError("over_time is empty; make it with budgetlab.bucket_burn_over_time().")
    step = _freq_ns(over_time, "bin_start")
    t = utc_naive(over_time["bin_start"]).view(np.int64)
    t0, t1 = bin_span(t, step, over_time.attrs)
    n_bins = int((t1 - t0) // step) + 1
    edges = (t0 + np.arange(n_bins + 1, dtype=np.int64) * step).view("datetime64[ns]")
    clip_to_events(edges, over_time.attrs)
    withheld = withheld_groups(breakdown, keys)
    drawn, groups = drawn_groups(over_time, keys, withheld)
    rows = over_time[drawn]
    b_idx = (t[drawn] - t0) // step
    names = display_names(over_time["bucket"])
    # events per bin: every group's events counted once (they repeat on each bucket row)
    first = str(rows["bucket"].iloc[0]) if len(rows) else ""
    first_bucket = (rows["bucket"].astype(str) == first).to_numpy()
    events = np.bincount(b_idx[first_bucket],
                         weights=rows["events"].to_numpy(dtype=float)[first_bucket],
                         minlength=n_bins)
    weighted = rows["burn_rate"].to_numpy(dtype=float) * rows["events"].to_numpy(dtype=float)
    layer, order = bucket_layers(rows, groups, weighted, names)
    several = len({g for _, g in order}) > 1  # layers of several groups: shares of their burn
    styles = _layer_styles(order, names, several=several)
    bottom = _draw_stack(ax, edges, (b_idx, layer, weighted), events, order, styles,
                         grouped=bool(keys))
    colours = {g: s["facecolor"] for (_, g), s in zip(order, styles, strict=True)
               if "facecolor" in s}  # several groups: each group's colour
    group_of = np.array([g for _, g in order], dtype=object)[layer]  # each row's group drawn
    quiet, lanes = ([], 0) if not len(rows) else mark_empty_bins(
        ax, edges, b_idx[first_bucket], group_of[first_bucket],
        rows["events"].to_numpy(dtype=float)[first_bucket], colours, withheld=bool(withheld))
    levels = _draw_bands(ax, bands, float(bottom.max()))
    highest = max(float(bottom.max()), max(levels, default=0.0))
    if not (bottom > 0).any():  # no layer drawn: the time axis still spans the bins
        ax.set_xlim(edges[0], edges[-1])
    say_what_is_missing(ax, events, bool((bottom > 0).any()), bool(len(rows)), bool(withheld),
                        bool(keys))
    # headroom over the stack and the bands: the burn-1 line inside the frame, never on it
    ax.set_ylim(0, highest * 1.08 or 1.0)  # 1: nothing drawn at all
    if lanes:
        _room_for_lanes(ax, lanes)
    _label_bands(ax, levels)  # the y range set: names that would touch merged
    ax.set_ylabel(f"{'combined ' * several}burn rate per {prose_duration(pd.Timedelta(step))}"
                  f" bin\n(1 = allowed pace{at})")
    plain_numbers(ax.yaxis)  # the burns themselves: no offset, no power apart
    time_axis(ax, tz)
    _incidents_and_legend(ax, incidents, quiet,
                          _withheld_words(withheld, keys) if withheld else None,
                          SHARE_TITLE if several else None)
    return ax


def _incidents_and_legend(ax: Axes, incidents: pd.DataFrame | None, quiet: list[Any],
                          withheld: str | None, title: str | None) -> None:
    """:func:`plot_buckets`' ``incidents`` shaded, and its legend (under ``title``): the layers
    top-down like the stack, then the incidents, the ``quiet`` keys of the empty bins and the
    ``withheld`` groups' line."""
    marked = shade_incidents(ax, incidents)  # within the bins' span
    handles: list[Any] = [p for p in ax.patches if p.get_gid() == "bucket"][::-1]
    handles += [incident_patch()] * marked + quiet
    if withheld:
        handles.append(Line2D([], [], ls="none", label=withheld))
    ax.bucket_keys = handles  # type: ignore[attr-defined]  # for a figure that keys more
    if handles:
        legend_right(ax, handles, inches=0.45,  # clear of the band labels
                     handler_map=LEGEND_HANDLERS, title=title)


def _draw_stack(ax: Axes, edges: np.ndarray, rows: tuple[np.ndarray, np.ndarray, np.ndarray],
                events: np.ndarray, order: list[tuple[str, str | OtherGroups]],
                styles: list[dict[str, Any]], *, grouped: bool) -> np.ndarray:
    """:func:`plot_buckets`' layers, stacked in ``order``: each row's bin, layer and failures
    (``burn_rate`` × ``events``) in ``rows``, over the ``events`` of each bin. Returns the
    stack's top per bin."""
    b_idx, layer, weighted = rows
    bottom = np.zeros(len(edges) - 1)
    for i, (b, g) in enumerate(order):
        sel = layer == i
        if not (weighted[sel] > 0).any():  # no failure: not drawn, not in the legend
            continue
        top = bottom + ratio(np.bincount(b_idx[sel], weights=weighted[sel],
                                         minlength=len(bottom)), events, 0.0)
        ax.stairs(top, edges, baseline=bottom.copy(), fill=True, lw=0, gid="bucket",
                  label=f"{b} · {g}" if grouped else b, **styles[i])
        bottom = top
    return bottom


def _room_for_lanes(ax: Axes, lanes: int) -> None:
    """Above the y range set, room for ``lanes`` lanes of empty bins (:data:`LANE` of the axes
    each), ruled off from the burn rates by a thin grey line (gid ``lanes_floor``); the y ticks
    stay on the burn rates, none beside the lanes."""
    floor = ax.get_ylim()[1]
    ticks = [t for t in ax.get_yticks() if 0 <= t <= floor]
    ax.set_ylim(0, floor / (1 - lanes * LANE))
    ax.yaxis.set_major_locator(FixedLocator(ticks))
    ax.axhline(floor, color="0.8", lw=0.6, gid="lanes_floor")


def _withheld_words(withheld: list[str], keys: list[str], most: int = 6) -> str:
    """The legend's words on the groups :func:`plot_buckets` leaves out, named (the first
    ``most``, then how many more)."""
    if not keys:
        return "not drawn: the table is too thin for a verdict"
    return textwrap.fill(f"not drawn, too thin for a verdict: {some_named(withheld, most)}", 36)


def _layer_styles(order: list[tuple[str, str | OtherGroups]], names: list[str],
                  several: bool) -> list[dict[str, Any]]:
    """The fill of each layer of :func:`plot_buckets`: the bucket's colour with one group; with
    ``several`` groups the group's colour (grey for "other") and the bucket's hatching in white."""
    extra = iter(_EXTRA_COLORS * 10)
    shades: dict[str, str] = {}
    colours = group_colors([g for g in dict.fromkeys(g for _, g in order)
                            if not isinstance(g, OtherGroups)])
    out: list[dict[str, Any]] = []
    for b, g in order:
        if not several:
            out.append({"color": BUCKET_COLORS.get(b) or shades.setdefault(b, next(extra))})
            continue
        k = names.index(b) if b in names else len(names)
        colour = (None if isinstance(g, OtherGroups) else colours.get(g)) or OTHER_COLOR
        out.append({"facecolor": colour, "edgecolor": "white",
                    "hatch": BUCKET_HATCHES[k % len(BUCKET_HATCHES)] or None})
    return out


def _draw_bands(ax: Axes, bands: Sequence[float], peak: float) -> list[float]:
    """:func:`plot_buckets`' reference lines: burn 1 always, the others up to 1.5 times the
    stack's ``peak``; returns those drawn (named by :func:`_label_bands`)."""
    drawn = [band for band in bands if band == 1.0 or band <= 1.5 * peak]
    for band in drawn:
        ax.axhline(band, color="black", lw=0.8, ls="--" if band == 1.0 else ":", gid="band")
    return drawn


def _label_bands(ax: Axes, drawn: list[float]) -> None:
    """The ``drawn`` bands named on the right, each beside its line (gid ``band_label``), as the
    y range now places them; lines closer than 1.5 heights of a name share one at their middle
    (``burn 1, 2, 5`` under a top of 1,000: three names printed over each other)."""
    height = 1.5 * FontProperties(size="x-small").get_size_in_points() * ax.figure.dpi / 72
    ys = [float(ax.transData.transform((0.0, band))[1]) for band in drawn]
    runs: list[list[float]] = []
    for y, band in sorted(zip(ys, drawn, strict=True)):
        if runs and y - ax.transData.transform((0.0, runs[-1][-1]))[1] < height:
            runs[-1].append(band)
        else:
            runs.append([band])
    for run in runs:
        ax.annotate("burn " + ", ".join(f"{band:g}" for band in run),
                    xy=(1.0, (run[0] + run[-1]) / 2), xycoords=("axes fraction", "data"),
                    xytext=(2, 0), textcoords="offset points", va="center", fontsize="x-small",
                    gid="band_label")
