"""The calendar window's steps on its own clock, as :func:`budgetlab.status_spans` gives a rolling
window's: what :func:`budgetlab.plotting.plot_timeline` draws with ``spans=``.

A calendar window holds the events since the start of the current calendar period (local midnight
in ``tz``; weeks from Monday): its status holds from each event until the next one, and at the
period's reset the window empties: **no traffic** until the next event, drawn as the rolling
timeline draws it (no fill, grey rules), not left blank. The counts are those of
:func:`budgetlab.compare_windows` for ``calendar:day`` (one clock:
:func:`~budgetlab.analyses.window_clock.clock_codes`), the status the seed's rule (the
``min_events`` hold restarting at each traffic stretch).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .._util.attrs import time_text
from .._util.validation import check_tz, utc_from_ns, utc_timestamp
from ..budget.figures import seed_figures
from ..budget.spans import SPAN_STATUS_DTYPE
from ..errors import ConfigError
from ..slo import SLO, as_slo
from .sorted_events import parse_window, sort_events
from .window_clock import clock_codes

__all__ = ["calendar_spans"]

_NO_TRAFFIC = SPAN_STATUS_DTYPE.categories.get_loc("no_traffic")


def calendar_spans(events: pd.DataFrame, slo: SLO, *, calendar: str = "day", tz: str = "UTC",
                   start: Any = None, end: Any = None) -> pd.DataFrame:
    """The calendar window's steps of one group's events over ``[start, end)``.

    Parameters
    ----------
    events : DataFrame
        Canonical events of one group (select a group first).
    slo : SLO
        Target, thresholds and ``min_events`` (its ``window`` is not used).
    calendar : {"day", "week", "month"}
        The period whose start empties the window (as :func:`budgetlab.replay_calendar`).
    tz : str
        Time zone of the periods' local midnight.
    start, end : time, optional
        The observation (default: the first and the last event). Events before ``start`` count
        in their period, as they would in the tracker.

    Returns
    -------
    DataFrame
        The columns of :func:`budgetlab.status_spans` with ``steps=True`` (``start``, ``end``,
        ``status``, ``total``, ``failures``, ``burn_rate``, ``remaining_fraction``,
        ``warmup_end``, ``instant``), tiling the observation: one row per change of the window
        (an event, a reset), ``no_traffic`` from each reset to the next event (a calendar window
        has no warm-up: ``warmup_end`` is the stretch's first event). ``attrs``: ``slo``,
        ``by`` (``[]``), ``start``, ``end``, ``steps`` (True), ``calendar``, ``tz``.

    Examples
    --------
    >>> from budgetlab import as_events
    >>> ts = pd.to_datetime(["2026-01-01 22:00", "2026-01-01 23:00", "2026-01-02 06:00"], utc=True)
    >>> sp = calendar_spans(as_events(ts, [False, True, True]), SLO(target=0.9))
    >>> [(f"{r.start:%d %H:%M}", r.status, r.total) for r in sp.itertuples()]
    [('01 22:00', 'exhausted', 1), ('01 23:00', 'exhausted', 2), ('02 00:00', 'no_traffic', 0)]
    """
    slo = as_slo(slo, "calendar_spans")
    spec = parse_window(f"calendar:{calendar}")
    tz = check_tz(tz)
    srt = sort_events(events, None)
    lo = int(srt.t.min()) if start is None else utc_timestamp(start, name="start").value
    hi = int(srt.t.max()) if end is None else utc_timestamp(end, name="end").value
    if hi < lo:
        raise ConfigError(f"end ({utc_from_ns(np.array([hi]))[0]}) is before start "
                          f"({utc_from_ns(np.array([lo]))[0]}); give end at or after start.")
    c, code = clock_codes(srt, spec, slo, np.array([slo.target]), tz, hi)
    keep = (c.end > lo) & (c.start < hi)
    s, e = np.maximum(c.start[keep], lo), np.minimum(c.end[keep], hi)
    # the gaps between the segments with traffic (and before and after them): no traffic
    edges = np.r_[lo, e]
    gap = np.r_[s, hi] > edges
    cols = {"start": np.r_[s, edges[gap]], "end": np.r_[e, np.r_[s, hi][gap]],
            "status": np.r_[code[keep], np.full(int(gap.sum()), _NO_TRAFFIC, np.int8)],
            "total": np.r_[c.total[keep], np.zeros(int(gap.sum()), np.int64)],
            "failures": np.r_[c.failures[keep], np.zeros(int(gap.sum()), np.int64)],
            "warmup_end": np.r_[c.warmup_end[keep], edges[gap]],
            "instant": np.r_[c.instant[keep], np.zeros(int(gap.sum()), bool)]}
    order = np.argsort(cols["start"], kind="stable")
    cols = {k: v[order] for k, v in cols.items()}
    figs = seed_figures(cols["total"], cols["failures"], slo.target,
                        columns=["burn_rate", "remaining_fraction"])
    out = pd.DataFrame({
        "start": utc_from_ns(cols["start"]), "end": utc_from_ns(cols["end"]),
        "status": pd.Categorical.from_codes(cols["status"].astype(np.int8),
                                            dtype=SPAN_STATUS_DTYPE),
        "total": cols["total"], "failures": cols["failures"], "burn_rate": figs["burn_rate"],
        "remaining_fraction": figs["remaining_fraction"],
        "warmup_end": utc_from_ns(cols["warmup_end"]), "instant": cols["instant"]})
    out.attrs.update(slo=slo.as_dict(), by=[], start=time_text(pd.Timestamp(lo, tz="UTC")),
                     end=time_text(pd.Timestamp(hi, tz="UTC")), steps=True,
                     calendar=spec.calendar, tz=tz)
    return out
