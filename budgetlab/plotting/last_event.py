"""A group that stopped sending, marked on its timeline: a dashed line at its last event on
every panel, keyed in the top one's legend, whatever the window (at a 7 d window a group silent for
its last 2 days shows no empty window, and its lines run on to the end).

Which groups stopped is the rule of ``replay``'s "After their last event" line
(:func:`budgetlab.budget.sending.stopped_sending`): the last event more than a day before the
observation's end, or the window emptied after it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.lines import Line2D

from .._util.units import HOUR_NS
from ..budget.sending import stopped_sending
from ..events.schema import ts_ns
from ._common import utc_naive
from .timeline_marks import place_legends

__all__ = ["LAST_EVENT_GID", "stopped_at", "mark_last_event"]

#: The gid of the mark's lines and legend key.
LAST_EVENT_GID = "last_event"


def stopped_at(events: pd.DataFrame, spans: pd.DataFrame, by: list[str], key: tuple[Any, ...]
               ) -> pd.Timestamp | None:
    """The last event of the group ``key`` (values of ``by``) of ``events`` when it stopped
    sending before the end of ``spans``' observation (:func:`budgetlab.status_spans` of the run:
    its ``attrs["end"]``, its last span ``no_traffic`` when the window emptied), else ``None``."""
    mine = np.ones(len(events), dtype=bool)
    theirs = np.ones(len(spans), dtype=bool)
    for k, v in zip(by, key, strict=True):
        mine &= (events[k].astype(str) == str(v)).to_numpy()
        theirs &= (spans[k].astype(str) == str(v)).to_numpy()
    if not mine.any() or spans.attrs.get("end") is None:
        return None
    last = int(ts_ns(events)[mine].max())
    since = (pd.Timestamp(spans.attrs["end"]).value - last) / HOUR_NS
    emptied = bool(theirs.any()) and str(spans["status"].to_numpy()[theirs][-1]) == "no_traffic"
    return (pd.Timestamp(last, tz="UTC") if stopped_sending([since], [1.0 if emptied else 0.0])[0]
            else None)


def mark_last_event(panels: list[Axes], at: pd.Timestamp | None, label: str) -> None:
    """A dashed line at ``at`` on each of ``panels`` (nothing when ``at`` is ``None``), keyed
    ``label`` in the first panel's legend, not written beside the line: words drawn in the panel
    ran over a line at their height (a success rate at 100 %, the target); the panels' x limits
    kept. On a timeline's panels the key joins its legend entries (``legend_entries``: merged
    with other groups' by :func:`~budgetlab.plotting.timeline_marks.merge_legends`, once); on
    another Axes, its legend."""
    if at is None or not panels:
        return
    x = utc_naive([at])[0]
    for ax in panels:
        span = ax.get_xlim()
        ax.axvline(x, color="0.25", linestyle="--", linewidth=1.0, gid=LAST_EVENT_GID, zorder=4)
        ax.set_xlim(span)
    # a vertical tick: the line is vertical, apart from the dashed target beside it
    key = Line2D([], [], color="0.25", linestyle="none", marker="|", markersize=11,
                 markeredgewidth=1.0, label=label)
    key.set_gid(LAST_EVENT_GID)
    entries = getattr(panels[0], "legend_entries", None)
    if entries:
        entries[0].append(key)
        place_legends(panels, entries)
    else:
        handles = panels[0].get_legend_handles_labels()[0]
        panels[0].legend(handles=[*handles, key], fontsize="small")
