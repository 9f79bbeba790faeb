"""The bins of :func:`~budgetlab.plotting.plot_buckets` that hold no event.

A bin without events has burn rate 0, as a bin with traffic and no failure has: drawn alike, a
reader cannot tell "nothing failed" from "nothing happened". So an empty bin is drawn as the
timeline draws a silence (:data:`~budgetlab.plotting.status_bands.NO_TRAFFIC`: no fill, sparse
grey horizontal rules, its legend entry an outlined box with one rule): over the panel's height
where no group drawn has an event, and, with several groups, in a lane of each group at the panel's
top where that group is silent and another is not.
"""

from __future__ import annotations

from typing import Any

import matplotlib.dates as mdates
import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from .._util.runs import true_runs
from ._common import utc_naive
from ._group_labels import group_gid
from .status_bands import WORDS_BOX, band_patch

__all__ = ["LANE", "bin_span", "clip_to_events", "mark_empty_bins", "no_failure_words",
           "say_what_is_missing"]

#: The height of a group's lane of silent bins at the panel's top, in axes fraction (the lane's
#: box takes 80 % of it: a gap between two lanes).
LANE = 0.05


def _bars(x: np.ndarray, mask: np.ndarray) -> list[tuple[float, float]]:
    """``(start, width)`` of each run of bins in ``mask``, on the axis' numbers ``x`` (the bin
    edges, one more than the bins)."""
    first, end = true_runs(mask)
    return [(float(x[a]), float(x[b] - x[a])) for a, b in zip(first, end, strict=True)]


def mark_empty_bins(ax: Axes, edges: np.ndarray, b_idx: np.ndarray, group: np.ndarray,
                    events: np.ndarray, colours: dict[Any, Any], *,
                    withheld: bool) -> tuple[list[Any], int]:
    """Mark the bins without events of the groups drawn; one row per group and bin: its bin
    (``b_idx``, an index into the bins between ``edges``), its ``group`` and its ``events``; a
    bin without a row of a group counts as holding none of its events.

    Where no group has an event: a ruled band over the panel's height (gid ``no_traffic``),
    named ``no traffic (bin empty)`` (``no traffic in the groups drawn (bin empty)`` when some
    groups are left out: ``withheld``). With ``colours`` (the groups' colours: several groups
    drawn), where a group has no event and another group has: a lane of that group at the panel's
    top (the first group's uppermost), one outlined box with a rule through its middle per run of
    such bins, in the group's colour (gids ``no_traffic:<group>``, ``no_traffic_rule:<group>``;
    the grey rest's, an :class:`~budgetlab.plotting._group_labels.OtherGroups` among the
    ``colours``' keys, ``no_traffic/others`` and ``no_traffic_rule/others``: no group's name
    gives them), named ``no traffic · <group>``; only the groups with such a bin have a lane.
    Returns the legend entries (none when no bin is empty) and the number of lanes.
    """
    names = list(colours) or list(dict.fromkeys(group.tolist()))
    n_bins = len(edges) - 1
    held = np.zeros((len(names), n_bins))
    codes = pd.Categorical(group, categories=names).codes.astype(np.int64)
    np.add.at(held, (codes, b_idx), events)
    empty = held == 0
    panel = empty.all(axis=0)
    x = mdates.date2num(edges)  # type: ignore[no-untyped-call]
    handles: list[Any] = []
    if panel.any():
        words = "no traffic in the groups drawn" if withheld else "no traffic"
        key = band_patch("no_traffic", f"{words} (bin empty)")
        ax.broken_barh(_bars(x, panel), (0, 1), transform=ax.get_xaxis_transform(),
                       facecolors=key.get_facecolor(), edgecolors=key.get_edgecolor(), lw=0,
                       hatch=key.get_hatch(), gid="no_traffic", zorder=0.5)
        handles.append(key)
    lanes = [(g, row) for g, row in zip(names, empty & ~panel, strict=True)
             if colours and row.any()]
    for i, (g, row) in enumerate(lanes):
        key = band_patch("no_traffic", f"no traffic · {g}")
        key.set_edgecolor(colours[g])
        top, bars = 1.0 - i * LANE, _bars(x, row)
        ax.broken_barh(bars, (top - 0.9 * LANE, 0.8 * LANE),
                       transform=ax.get_xaxis_transform(), facecolors="none",
                       edgecolors=colours[g], lw=0.8, gid=group_gid("no_traffic", g), zorder=2.5)
        ax.hlines([top - 0.5 * LANE] * len(bars), [a for a, _ in bars],
                  [a + w for a, w in bars], transform=ax.get_xaxis_transform(),
                  colors=colours[g], lw=1.0, gid=group_gid("no_traffic_rule", g), zorder=2.5)
        handles.append(key)
    return handles, len(lanes)


def bin_span(t: np.ndarray, step: int, attrs: dict[Any, Any]) -> tuple[int, int]:
    """The first and last bin :func:`plot_buckets` draws (ns): the rows', widened to the bins
    of ``attrs``' ``start`` and ``end`` when given (the span observed: the first and last event,
    or the time a figure shows); a bin in it without a row holds no event."""
    lo, hi = int(t.min()), int(t.max())
    if attrs.get("start") is None or attrs.get("end") is None:
        return lo, hi
    start, end = (int(x) for x in utc_naive([attrs["start"], attrs["end"]]).view(np.int64))
    return (min(lo, lo + (start - lo) // step * step), max(hi, lo + (end - lo) // step * step))


def clip_to_events(edges: np.ndarray, attrs: dict[Any, Any]) -> None:
    """``edges`` of :func:`plot_buckets`' bins cut, in place, to the events' span (``attrs``
    ``start`` and ``end``, the first and last event, when given): a bin longer than the log draws
    no burn over time it did not observe. A last event that opens its bin keeps the whole bin (a
    bar of no width would hide it)."""
    if attrs.get("start") is None or attrs.get("end") is None:
        return
    start, end = utc_naive([attrs["start"], attrs["end"]])
    edges[0] = max(edges[0], start)
    if end > edges[-2]:
        edges[-1] = min(edges[-1], end)


def no_failure_words(events: np.ndarray, *, withheld: bool = False) -> str:
    """What a bucket panel without a failure says, read off the ``events`` of its bins (of the
    groups drawn; ``withheld``: some groups are left out): no failure is not said of bins
    without events, nor of a panel without any.

    >>> no_failure_words(np.array([0, 0])), no_failure_words(np.array([3, 0]))
    ('no events in these bins', 'no failures in the bins with events')
    >>> no_failure_words(np.array([3, 2])), no_failure_words(np.array([3, 2]), withheld=True)
    ('no failures in these bins', 'no failures in the groups drawn')
    """
    held = np.asarray(events) > 0
    if not held.any():
        return "no events in the groups drawn" if withheld else "no events in these bins"
    if withheld:
        return "no failures in the groups drawn"
    return "no failures in these bins" if held.all() else "no failures in the bins with events"


def say_what_is_missing(ax: Axes, events: np.ndarray, burned: bool = False,
                        any_drawn: bool = True, withheld: bool = False,
                        grouped: bool = False) -> None:
    """A bucket panel's words when it holds no layer (as :func:`~.alert_chart.plot_alerts` says
    "no alert fired"), in its middle, on :data:`~.status_bands.WORDS_BOX` (legible over the
    ruled bins): every group left out (gid ``withheld``: not ``any_drawn``), or no failure in the
    groups drawn (gid ``no_failures``, :func:`no_failure_words` of the ``events`` of its bins);
    nothing when a layer is drawn (``burned``). The words of
    :func:`~budgetlab.plotting.plot_buckets` and of the incident figure's bucket panel."""
    if not any_drawn:
        text = "too thin for a verdict: not drawn"
        text, gid = ("every group " + text if grouped else text), "withheld"
    elif not burned:
        text, gid = no_failure_words(events, withheld=withheld), "no_failures"
    else:
        return
    ax.text(0.5, 0.5, text, transform=ax.transAxes, ha="center", va="center", color="0.3",
            gid=gid, bbox=WORDS_BOX)
