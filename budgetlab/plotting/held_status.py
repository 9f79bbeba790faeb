"""Where the timeline's status is held, not read: the window holds some events but fewer than the
SLO's ``min_events``, so the tracker keeps the status it showed before (the replay's
``low_traffic``; :func:`~budgetlab.budget.figures.hold_low_traffic`). There a band can read
``exhausted`` while the lines read 100 % and burn 0: the status band is hatched over those spans
(vertical grey rules, gid ``status_held``) and keyed "status held: window under N events
(min_events)" (``--min-events`` on the command line), so the band is not read as the lines'."""

from __future__ import annotations

from typing import Any, NamedTuple

import matplotlib.dates as mdates
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.patches import Patch

from .._util.runs import true_runs
from .._util.validation import utc_ns_column
from .._util.words import say

__all__ = ["HELD_STYLE", "Held", "held_spans", "draw_held", "held_patch"]

#: How a held span is drawn over the status band: no fill, dense vertical grey rules (apart from
#: the statuses' dots, diagonals and crosses, and from no traffic's horizontal rules).
HELD_STYLE: dict[str, Any] = {"facecolor": "none", "edgecolor": "0.35", "hatch": "||"}


class Held(NamedTuple):
    """The spans ``[start, end)`` (ns) over which the status is held, and the ``min_events``
    that holds it."""

    start: np.ndarray
    end: np.ndarray
    min_events: int


def held_spans(states: pd.DataFrame | None, spans: pd.DataFrame | None, slo: Any) -> Held:
    """The runs (:class:`Held`) over which the status is held: with ``spans`` (the
    window's steps) those whose window holds ``0 < total < slo.min_events``; else the rows of
    ``states`` marked ``low_traffic``, each from its event to the next. Empty without
    ``min_events`` (nothing is held) or without either column.

    >>> from budgetlab import SLO
    >>> t = pd.to_datetime(["2026-05-01 06:00", "2026-05-01 06:20", "2026-05-01 07:07",
    ...                     "2026-05-01 07:30"], utc=True)
    >>> st = pd.DataFrame({"ts": t, "low_traffic": [True, True, False, False]})
    >>> a, b, _ = held_spans(st, None, SLO(min_events=10))
    >>> [f"{x:%H:%M}-{y:%H:%M}" for x, y in zip(pd.to_datetime(a), pd.to_datetime(b))]
    ['06:00-07:07']
    """
    none = Held(np.zeros(0, np.int64), np.zeros(0, np.int64), 0)
    if slo is None or not getattr(slo, "min_events", 0):
        return none
    if spans is not None and len(spans) and "total" in spans.columns:
        total = spans["total"].to_numpy(dtype=float)
        low = (total > 0) & (total < slo.min_events)
        start = utc_ns_column(spans["start"], "spans['start']")
        end = utc_ns_column(spans["end"], "spans['end']")
    elif states is not None and len(states) > 1 and "low_traffic" in states.columns:
        t = utc_ns_column(states["ts"], "states['ts']")
        low, start, end = states["low_traffic"].to_numpy(dtype=bool)[:-1], t[:-1], t[1:]
    else:
        return none
    first, stop = true_runs(low)
    return Held(start[first], end[stop - 1], int(slo.min_events))


def draw_held(bottom: Axes, held: Held) -> None:
    """Hatch ``held`` (:func:`held_spans`) over the height of the status panel ``bottom``, over
    the status bands and under the lines (gid ``status_held``)."""
    start, end, _ = held
    if not len(start):
        return
    x0 = mdates.date2num(start.view("datetime64[ns]"))  # type: ignore[no-untyped-call]
    x1 = mdates.date2num(end.view("datetime64[ns]"))  # type: ignore[no-untyped-call]
    bottom.broken_barh(list(zip(x0, x1 - x0, strict=True)), (0, 1),
                       transform=bottom.get_xaxis_transform(), lw=0, zorder=0.6,
                       gid="status_held", **HELD_STYLE)


def held_patch(held: Held) -> Patch:
    """The legend entry of the held spans, naming their ``min_events`` and its flag."""
    flag = say("min_events", "--min-events")
    patch = Patch(**HELD_STYLE, lw=0, label=f"status held: window under\n{held.min_events} "
                                              f"events ({flag})")
    patch.set_gid("status_held")
    return patch
