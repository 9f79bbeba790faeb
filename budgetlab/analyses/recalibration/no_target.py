"""Why no target meets the rule of :func:`budgetlab.recalibrate` for a group, with figures
(:func:`explain_no_recommendation`), and the window that would hold the events a target needs
(:func:`suggest_window`). The thin-evidence rules they count with live in
:mod:`~budgetlab.analyses.recalibration.rules`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..._util.burns import three_digits
from ..._util.percent import given_fraction, given_percent, measured_percent
from ..._util.words import about_words, days_words, prose_duration
from .candidates import USUAL_TARGETS
from .rules import events_for

__all__ = ["MAX_WINDOW_DAYS", "suggest_window", "explain_no_recommendation"]

#: The longest window :func:`suggest_window` suggests (a week, the longest usual tracker window).
MAX_WINDOW_DAYS = 7.0


def suggest_window(need_events: int, events_per_day: float, history_days: float) -> str | None:
    """The shortest window that holds ``need_events`` at ``events_per_day`` (events a day with
    traffic), or ``None`` when it would be longer than the history or :data:`MAX_WINDOW_DAYS`.

    >>> suggest_window(100, 40.0, 28.0), suggest_window(100, 0.179, 30.0)
    ('3D', None)
    """
    if not events_per_day > 0:
        return None
    days = need_events / events_per_day
    if days > min(history_days, MAX_WINDOW_DAYS) + 1e-9:
        return None
    if days >= 1:  # whole days from one day on, else whole hours
        return f"{int(np.ceil(days - 1e-9))}D"
    return f"{max(1, int(np.ceil(days * 24 - 1e-9)))}h"


def _floor_words(p1: float, floor: float, limit_status: str) -> str:
    """The floor of the candidates' range in the note: at exhausted the rolling rate's 1 %
    quantile, else the target above which a window at that quantile is at the limit status or
    worse (:func:`~budgetlab.analyses.recalibration.levels.limit_floor`), an apposition."""
    quantile = f"the rolling rate's 1 % quantile ({measured_percent(p1)})"
    if limit_status == "exhausted":
        return quantile
    return (f"{measured_percent(floor)}, the target above which a window at {quantile} is "
            f"{limit_status.upper()} or worse")


def explain_no_recommendation(*, has_time: bool, p1: float, floor: float, lo: float,
                              share_lo: float, events_per_day: float,
                              window_events: float, window_ns: int, history_days: float,
                              max_share: float, limit_status: str, min_days: float = 14.0,
                              min_events: int = 0) -> str:
    """Why no target meets the rule for one group, with figures, and what would make one possible
    (a longer window, ``min_events`` above the current one, more history, a looser
    ``max_share``). ``floor``: the floor of the candidates' range before it is rounded down to
    ``lo`` (:func:`~budgetlab.analyses.recalibration.levels.limit_floor`; ``p1`` at exhausted).

    >>> print(explain_no_recommendation(has_time=True, p1=0.78, floor=0.78, lo=0.75,
    ...       share_lo=0.003, events_per_day=40, window_events=40, window_ns=86_400 * 10**9,
    ...       history_days=28, max_share=0.001,
    ...       limit_status="exhausted"))  # doctest: +NORMALIZE_WHITESPACE
    no target meets the rule: even 75 %, the lowest usual target at or below the rolling rate's
    1 % quantile (78.00 %), is EXHAUSTED or worse 0.30 % of the time (limit 0.1 %); ~40 events a
    day with traffic: a 24 h window holds ~40 events, so one failure moves the rate 2.5 points; to
    allow 10 failures a window at 90 % it must hold 100 events: use a longer window (window='3D') or
    min_events=100 (the status holds while the window has fewer events)
    """
    if not has_time:
        return "no evaluated time in the history for this group"
    win_txt = prose_duration(pd.Timedelta(window_ns, unit="ns"))
    name = _floor_words(p1, floor, limit_status)
    sep = "" if limit_status == "exhausted" else ","  # after the apposition
    if np.isfinite(lo) and lo <= floor + 1e-12:
        head = (f"no target meets the rule: even {given_percent(lo)}, the lowest usual target at "
                f"or below {name}, is "
                f"{limit_status.upper()} or worse {measured_percent(share_lo)} of the time (limit "
                f"{given_percent(max_share)})")
    elif np.isfinite(lo):
        below = (f"the rolling rate's 1 % quantile, {measured_percent(p1)}, is below every "
                 "usual target" if limit_status == "exhausted" else
                 f"{name}, is below every usual target")
        why = below if floor < USUAL_TARGETS[0] else f"min_events={min_events} holds the status"
        head = (f"no target meets the rule: even {given_percent(lo)}, the lowest usual target, is "
                f"{limit_status.upper()} or worse {measured_percent(share_lo)} of the time (limit "
                f"{given_percent(max_share)}; {why})")
    else:
        head = (f"no target meets the rule: {name}{sep} is below every usual target (lowest "
                "50 %)")
    parts = [head]
    if np.isfinite(window_events) and window_events > 0:
        parts.append(f"~{about_words(events_per_day)} events a day with traffic: a {win_txt} "
                     f"window holds ~{about_words(window_events)} events, so one failure moves "
                     f"the rate {three_digits(100 / window_events)} points")
    ref = lo if np.isfinite(lo) and lo >= 0.9 else 0.9
    need = events_for(ref)
    fixes = []
    if np.isfinite(window_events) and window_events < need:
        w = suggest_window(need, events_per_day, history_days)
        if w is None:
            fixes.append("no window length fixes this: too little traffic (a window "
                         f"at {given_percent(ref)} needs {need} events to allow 10 failures; at "
                         f"~{about_words(events_per_day)} events a day that is longer than "
                         f"the {days_words(history_days)} of history or the "
                         f"{days_words(MAX_WINDOW_DAYS)} maximum)")
        else:
            hold = (f" or min_events={need} (the status holds while the window has fewer "
                    "events)") if min_events < need else ""
            fixes.append(f"to allow 10 failures a window at {given_percent(ref)} it must hold "
                         f"{need} events: use a longer window (window='{w}'){hold}")
    if history_days < min_days:
        fixes.append(f"give more history ({days_words(history_days)}; at least "
                     f"{days_words(min_days)})")
    if not fixes:
        fixes.append("the rate itself dips this low: allow more time at the limit "
                     f"(max_share={given_fraction(max(0.05, 2 * max_share))}) "
                     "or leave labelled incidents out (exclude_incidents=)")
    return "; ".join(parts + fixes)
