"""What the timeline's panels show besides the data: each line's label and colour, the target,
the burn rate's 1× and the alert policy's tiers, the budget thresholds (:func:`draw_levels`);
incidents shaded grey, status changes as dotted lines (a rug of ticks above
:data:`MAX_TRANSITION_LINES`), and one legend right of each panel naming what is drawn
(:func:`merge_legends`: one set for several timelines).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Collection
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

from .._util.percent import given_percent
from .._util.validation import require_columns
from ..budget.figures import STATUSES
from ._common import STATUS_COLORS, utc_naive
from ._pixels import rug_ticks
from .clock_lines import clock_values
from .held_status import held_patch
from .legends import legend_right
from .line_envelope import RANGE_GIDS, range_key
from .status_bands import LEGEND_HANDLERS, RUG, band_patch, warmup_patch

__all__ = ["ENTRY_ORDER", "LINE_COLORS", "LINE_LABELS", "MAX_TRANSITION_LINES", "draw_levels",
           "draw_marks", "handle_gid", "incident_patch", "joined_label", "legend_entries",
           "merge_legends", "place_legends", "shade_incidents"]

#: Transitions are drawn as full-height lines up to this many, as a rug below the data above it.
MAX_TRANSITION_LINES = 60


def draw_marks(panels: list[Axes], incidents: pd.DataFrame | None, transitions: pd.DataFrame | None,
               columns: int, rug: tuple[float, float] = RUG) -> None:
    if incidents is not None and len(incidents):
        require_columns(incidents, ["start", "end"], what="incidents")
        spans = list(zip(utc_naive(incidents["start"]), utc_naive(incidents["end"]), strict=True))
        for p in panels:
            for s, e in spans:
                p.axvspan(s, e, facecolor=(0.5, 0.5, 0.5, 0.18), edgecolor="0.3", lw=0.8,
                          gid="incident", zorder=0.6)
    if transitions is not None and len(transitions):
        require_columns(transitions, ["ts", "to_status"], what="transitions")
        t_tr = utc_naive(transitions["ts"])
        colors = [STATUS_COLORS[str(s)] for s in transitions["to_status"].astype(str)]
        if len(t_tr) <= MAX_TRANSITION_LINES:
            for p in panels:
                p.vlines(t_tr, 0, 1, transform=p.get_xaxis_transform(), colors=colors, lw=0.9,
                         ls=":",
                         gid="transitions", zorder=0.7)
        else:  # a rug, one tick per pixel column at most (its worst new status)
            if len(t_tr) > columns:
                keep = rug_ticks(t_tr.view(np.int64),
                                 transitions["to_status"].astype(str).to_numpy(), columns)
                t_tr, colors = t_tr[keep], [colors[i] for i in keep]
            panels[-1].vlines(t_tr, *rug, transform=panels[-1].get_xaxis_transform(),
                              colors=colors, lw=0.8,
                              gid="transitions", zorder=0.7)


#: Each line's legend text, top-down.
LINE_LABELS = (("success_rate", "success rate in window (%)"), ("burn_rate", "burn rate"),
               ("budget_remaining", "budget remaining (%)"))
#: Line colours (Okabe–Ito): success rate blue, burn rate reddish purple, budget remaining black,
#: one colour per line of the figure (the budget was blue as the success rate). Black stands
#: apart from the budget panel's grey thresholds and zero line by lightness too (WCAG 3 to 1
#: against ``0.35`` grey; blue has 1.4), so a budget at 0 still shows on the zero line in print.
LINE_COLORS = {"success_rate": "#0072B2", "burn_rate": "#CC79A7", "budget_remaining": "#000000"}


def draw_levels(panels: list[Axes], values: dict[str, np.ndarray], spans: pd.DataFrame | None,
                slo: Any, policy: Any) -> tuple[dict[str, Any], list[str], list[list[float]]]:
    """What the timeline's ``panels`` draw before the data: ``(lines, hidden, extras)``, each
    line (by gid) with its label and no points yet, the policy's tiers named in the legend only
    (:func:`_burn_levels`, from the highest burn rate the line will show: of ``values``, or with
    ``spans`` on the window's clock) and the levels each panel's y range holds (target, 1×, the
    tiers drawn, the budget thresholds)."""
    lines = {gid: p.plot([], [], drawstyle="steps-post", color=LINE_COLORS[gid], lw=1.1,
                         label=label, gid=gid)[0]
             for p, (gid, label) in zip(panels, LINE_LABELS, strict=False)}

    def burn() -> np.ndarray:  # read only for a policy's tiers: on the clock, a pass over steps
        return (clock_values(spans, "burn_rate")[1] if spans is not None and len(spans)
                else values["burn_rate"])

    hidden, shown = _burn_levels(panels[1], burn, policy)
    extras = [_target(panels[0], slo), shown]
    if len(panels) > 2:
        extras.append(_budget_levels(panels[2], slo))
    return lines, hidden, extras


def _target(ax: Axes, slo: Any) -> list[float]:
    """The success-rate panel's target line and label; the level its y range holds."""
    ax.set_ylabel("success\nrate (%)")
    if slo is None:
        return []
    ax.axhline(slo.target * 100, color="black", ls="--", lw=0.9,
               label=f"target {given_percent(slo.target, space=False)}", gid="target")
    return [slo.target * 100]


def _budget_levels(budget_ax: Axes, slo: Any) -> list[float]:
    """The budget panel's thresholds (dashed, named once in the legend; each status drawn names
    the one that starts it) and label; the levels its y range holds: always the whole 0-100 %
    scale, so that a budget at 0 throughout is read against the full scale, as in every other
    group, not on an axis stopping near the warning threshold."""
    levels = [0.0, 100.0]
    if slo is not None:
        levels += [slo.warning * 100, slo.critical * 100]
        drawn = [f for f in (slo.warning, slo.critical) if f > 0]
        label = "thresholds " + ", ".join(given_percent(f, space=False) for f in drawn)
        for k, f in enumerate(drawn):
            budget_ax.axhline(f * 100, color="0.35", ls="--", lw=0.8, gid="budget_threshold",
                              label=None if k else label)
    budget_ax.axhline(0.0, color="0.35", ls="-", lw=0.8, gid="budget_threshold")
    budget_ax.set_ylabel("budget\nleft (%)")
    return levels


def _burn_levels(burn_ax: Axes, burn: Callable[[], np.ndarray], policy: Any
                 ) -> tuple[list[str], list[float]]:
    """The burn-rate panel's 1× line, the ``policy``'s tier thresholds and label: ``(hidden,
    shown)``, the tiers above 1.5 times the highest burn rate ``burn()`` (named in the legend
    only, so that they do not squash the data) and the levels the y range holds."""
    burn_ax.axhline(1.0, color="black", ls=":", lw=0.9, label="1× = the allowed pace",
                    gid="burn_one")
    tiers = getattr(policy, "tiers", ()) or ()
    shown, hidden = [1.0], []
    if tiers:
        br = burn()
        finite = br[np.isfinite(br)]
        peak = max(float(finite.max()) if len(finite) else 0.0, 1.0)
    for tier in tiers:
        level = float(tier.burn)
        if level <= 1.5 * peak:
            burn_ax.axhline(level, color="#D55E00", ls="--", lw=0.9, gid="burn_threshold",
                            label=f"{tier.name}: burn {level:g}")
            shown.append(level)
        else:
            hidden.append(f"{tier.name}: burn {level:g} (above the axis)")
    burn_ax.set_ylabel("burn\nrate (×)")
    return hidden, shown


#: The order of the legend entries, by gid (an entry of another gid comes last).
ENTRY_ORDER = ("success_rate", "target", "burn_rate", "burn_one", "burn_threshold", "burn_hidden",
               "budget_remaining", "budget_threshold", "lone", "incident", "transitions",
               "transitions_rug", "status_no_traffic", "warmup", *(f"status_{s}" for s in STATUSES))


def handle_gid(handle: Any) -> str:
    """A legend handle's gid as text, ``"None"`` for a handle that has none: a container (of
    bars, error bars, stems) drawn with a label on the axes before the timeline is no Artist."""
    return str(getattr(handle, "get_gid", lambda: None)())


def shade_incidents(ax: Axes, incidents: pd.DataFrame | None) -> bool:
    """``incidents`` shaded on one chart's axes as :func:`draw_marks` shades them, within the
    x range the chart's data set (an incident outside it does not widen it); whether any was
    drawn, for the legend's :func:`incident_patch`."""
    if incidents is None or not len(incidents):
        return False
    span = ax.get_xlim()
    draw_marks([ax], incidents, None, 0)
    ax.set_xlim(span)
    return True


def incident_patch() -> Patch:
    """The legend entry of the incidents :func:`draw_marks` shades (gid ``incident``)."""
    patch = Patch(facecolor=(0.5, 0.5, 0.5, 0.18), edgecolor="0.3", label="incident")
    patch.set_gid("incident")
    return patch


def _proxy(kind: Any, gid: str, **style: Any) -> Any:
    proxy = kind(**style)
    proxy.set_gid(gid)
    return proxy


def legend_entries(panels: list[Axes], hidden: list[str], transitions: pd.DataFrame | None,
                   slo: Any, *, incidents: pd.DataFrame | None, lone: bool,
                   statuses: Collection[str], warmup: bool = False,
                   held: Any = None, envelope: bool = False) -> list[list[Any]]:
    """The legend handles of each panel, top-down: its labelled lines, and on the bottom panel
    what the panels draw besides (``lone``: events alone between breaks as dots, the
    ``incidents``, the ``transitions``, and each of the ``statuses`` whose band is drawn, named
    with the budget threshold that starts it; no traffic before the statuses, named as what it
    is: not one; then the ``warmup`` strip when drawn, and the spans where the status is ``held``
    on a thin window, :mod:`~budgetlab.plotting.held_status`). A line drawn over its range per
    pixel column (:mod:`~budgetlab.plotting.line_envelope`; with ``envelope``, before it is
    drawn) is keyed over a strip of that band. Made before the data are drawn too, to make the
    legends' room."""
    starts = {"warning": f" (< {given_percent(slo.warning, space=False)})",
              "critical": f" (< {given_percent(slo.critical, space=False)})",
              "exhausted": " (≤ 0)"} if slo is not None else {}
    entries = [list(p.get_legend_handles_labels()[0]) for p in panels]
    entries[1] += [_proxy(Line2D, "burn_hidden", xdata=[], ydata=[], color="none", label=h)
                   for h in hidden]
    for p, handles in zip(panels, entries, strict=True):
        if envelope or any(c.get_gid() in RANGE_GIDS.values() for c in p.collections):
            handles[:] = [range_key(h) if handle_gid(h) in RANGE_GIDS else h for h in handles]
    last = entries[-1]
    if lone:
        last.append(_proxy(Line2D, "lone", xdata=[], ydata=[], ls="", marker="o", ms=3,
                           color="0.3", label="lone event"))
    if incidents is not None and len(incidents):
        last.append(incident_patch())
    if transitions is not None and len(transitions):
        few = len(transitions) <= MAX_TRANSITION_LINES
        word = "status change" if len(transitions) == 1 else "status changes"
        last.append(_proxy(Line2D, "transitions" if few else "transitions_rug", xdata=[], ydata=[],
                           color="0.3", ls=":" if few else "-", lw=0.9,
                           label=f"{len(transitions):,} {word} at events"
                           + ("" if few else " (rug)")))
    for name in ("no_traffic", *STATUSES):
        if name in statuses:
            patch = band_patch(name, "no traffic (window empty)" if name == "no_traffic"
                               else name + starts.get(name, ""))
            patch.set_gid(f"status_{name}")
            last.append(patch)
        if name == "no_traffic" and warmup:
            last.append(warmup_patch())
    if held is not None and len(held.start):
        last.append(held_patch(held))
    return entries


def place_legends(panels: list[Axes], entries: list[list[Any]]) -> None:
    """One legend right of each panel (none where it has no entry), at the panel's top; the
    bottom one in two columns above six entries where the figure is wide enough. A legend taller
    than the room below its top is raised: from the bottom panel up, each ends at the bottom
    panel's foot or just above the legend below it, so none runs below the panels (beside the
    next drawing's title) or over another."""
    shown = [(p, handles, 2 if p is panels[-1] and len(handles) > 6 else 1)
             for p, handles in zip(panels, entries, strict=True) if handles]
    for p, handles, ncols in shown:
        legend_right(p, handles, ncols=ncols, handler_map=LEGEND_HANDLERS)
    renderer = getattr(panels[0].figure.canvas, "get_renderer", None)
    if renderer is None or not shown:
        return
    r = renderer()
    floor = panels[-1].get_window_extent(r).y0  # display units, as the boxes below
    for p, handles, ncols in reversed(shown):
        box = p.get_window_extent(r)
        height = p.get_legend().get_window_extent(r).height
        if box.y1 - height < floor:
            legend_right(p, handles, ncols=ncols, handler_map=LEGEND_HANDLERS,
                         y=(floor + height - box.y0) / box.height)
        floor = max(box.y1, floor + height) + LEGEND_GAP * p.figure.dpi


#: The gap between two legends stacked beside a timeline's panels, in inches.
LEGEND_GAP = 0.08


#: A number in a legend text (``93.0%``, ``1.5``, ``-2``): what differs between groups.
_NUMBER = re.compile(r"(-?\d+(?:\.\d+)?%?)")


def joined_label(labels: list[str]) -> str | None:
    """One legend text for an entry several drawings label with their own numbers (each group's
    target, thresholds): the words they share, each number that differs as the drawings' values
    in their order (``93% / 97.5%``), and ``(per group, in order)`` on a line of its own (the
    legend stays as narrow as one label); ``None`` when the labels differ in their words, not
    only in their numbers.

    >>> joined_label(["target 93%", "target 97.5%", "target 93%"])
    'target 93% / 97.5% / 93%\\n(per group, in order)'
    >>> joined_label(["thresholds 50%, 10%", "thresholds 40%, 10%"])
    'thresholds 50% / 40%, 10%\\n(per group, in order)'
    >>> joined_label(["target 95%", "target 95%"])
    'target 95%'
    >>> joined_label(["fast: burn 2", "slow: burn 2"]) is None  # two things, not one
    True
    """
    parts = [_NUMBER.split(label) for label in labels]
    if any(p[0::2] != parts[0][0::2] for p in parts):  # the words between the numbers differ
        return None
    slots = [" / ".join(v) if len(set(v)) > 1 else v[0]
             for v in zip(*(p[1::2] for p in parts), strict=True)]
    words = parts[0][0::2]
    text = "".join(w + n for w, n in zip(words, [*slots, ""], strict=True))
    return text if len(set(labels)) == 1 else f"{text}\n(per group, in order)"


def merge_legends(timelines: list[Axes]) -> None:
    """The legends of several :func:`~budgetlab.plotting.plot_timeline` drawings (their top
    panels) as one set, on the first one's panels: every thing any of them draws named once (one
    entry per gid and label) in :data:`ENTRY_ORDER`; the others' legends removed. What every
    drawing draws with its own numbers (each group's own target or thresholds) is one entry
    naming the numbers in the drawings' order (:func:`joined_label`). The status changes of
    several are named without a count (each drawing has its own). An Axes that is no timeline
    adds no entry."""
    panels: list[list[Axes]] = [getattr(top, "panels", [top]) for top in timelines]
    # per panel: gid -> (drawing, handle) of each entry
    seen: list[dict[str, list[tuple[int, Any]]]] = [{} for _ in panels[0]]
    for i, (top, own) in enumerate(zip(timelines, panels, strict=True)):
        for j, handles in enumerate(getattr(top, "legend_entries", [])[:len(seen)]):
            for h in handles:
                gid = handle_gid(h)
                if gid.startswith("transitions") and len(timelines) > 1:
                    h = _proxy(Line2D, gid, xdata=[], ydata=[], color=h.get_color(),
                               ls=h.get_linestyle(), lw=h.get_linewidth(),
                               label="status changes at events"
                               + (" (rug)" if gid.endswith("rug") else ""))
                seen[j].setdefault(gid, []).append((i, h))
        for legend in (p.get_legend() for p in own):
            if legend is not None:
                legend.remove()
    rank = {gid: k for k, gid in enumerate(ENTRY_ORDER)}
    merged = [[h for entries in m.values() for h in _once(entries, len(timelines))]
              for m in seen]
    place_legends(panels[0], [sorted(m, key=lambda h: rank.get(handle_gid(h), len(rank)))
                              for m in merged])


def _once(entries: list[tuple[int, Any]], drawings: int) -> list[Any]:
    """The legend entries of one gid, ``(drawing, handle)`` as the drawings made them: one per
    distinct label (the first drawing's), or one in all when every drawing has exactly one and
    they differ in their numbers only (:func:`joined_label`; on a copy of the first handle, so
    that the drawn artist keeps its own label)."""
    first: dict[str, Any] = {}
    for _, h in entries:
        first.setdefault(h.get_label(), h)
    if len(first) == 1 or sorted(i for i, _ in entries) != list(range(drawings)):
        return list(first.values())
    label = joined_label([h.get_label() for _, h in entries])
    if label is None:
        return list(first.values())
    one = copy.copy(entries[0][1])
    one.set_label(label)
    return [one]
