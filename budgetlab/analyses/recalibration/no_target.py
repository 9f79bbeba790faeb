"""Why no target meets the rule of :func:`budgetlab.recalibrate` for a group, with figures
(:func:`explain_no_recommendation`), and the window that would hold the events a target needs
(:func:`suggest_window`). The thin-evidence rules they count with live in
:mod:`~budgetlab.analyses.recalibration.rules`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..._util.burns import three_digits
from ..._util.percent import given_fraction, given_percent, measured_percent, share_percent
from ..._util.words import about_counted, about_words, command_flag, days_words, prose_duration, say
from .candidates import USUAL_TARGETS, target_range
from .rules import events_for
from .verdict import silence_aside

__all__ = ["MAX_WINDOW_DAYS", "LogSpan", "suggest_window", "explain_no_recommendation",
           "window_sentence", "window_fix"]

#: The longest window :func:`suggest_window` suggests (a week, the longest usual tracker window).
MAX_WINDOW_DAYS = 7.0


@dataclass(frozen=True)
class LogSpan:
    """The span a longer window is weighed against: the group's span in the log (first event
    to last) and its events a day over it, silences included (what a long window holds); without
    it, the evaluated history and the events a day with traffic. ``over`` and ``span_words``
    name them in the note."""

    days: float
    per_day: float
    over: str
    span_words: str

    @property
    def rate(self) -> str:
        """The rate a window is weighed at, named: over the group's span in the log (silences
        included), or, without it, per 24 h of evaluated time (the note's events a day with
        traffic)."""
        if self.over:
            return f"~{about_words(self.per_day)} events a day {self.over} (silences included)"
        return f"~{about_words(self.per_day)} events a day with traffic"

    @classmethod
    def of(cls, log_days: float, log_events: int, history_days: float,
           events_per_day: float) -> LogSpan:
        if np.isfinite(log_days) and log_days > 0 and log_events > 0:
            said = days_words(log_days)
            return cls(log_days, log_events / log_days, f"over the group's {said} in the log",
                       f"the group's {said} in the log")
        return cls(history_days, events_per_day, "",
                   f"the {days_words(history_days)} of evaluated history")


def suggest_window(need_events: int, events_per_day: float, history_days: float) -> str | None:
    """The shortest window that holds ``need_events`` at ``events_per_day`` (events a day with
    traffic), or ``None`` when it would be longer than the evaluated history (``history_days``:
    time with traffic after warm-up) or :data:`MAX_WINDOW_DAYS`.

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


def _floor_words(p1: float, floor: float, limit_status: str, prob: float = 0.01) -> str:
    """The floor of the candidates' range in the note: at exhausted the rolling rate's ``prob``
    quantile (1 %, or ``max_share`` where it is smaller:
    :func:`~budgetlab.analyses.recalibration.levels.floor_prob`), else the target above which a
    window at that quantile is at the limit status or worse
    (:func:`~budgetlab.analyses.recalibration.levels.limit_floor`), an apposition."""
    quantile = f"the rolling rate's {given_percent(prob)} quantile ({measured_percent(p1)})"
    if limit_status == "exhausted":
        return quantile
    return (f"{measured_percent(floor)}, the target above which a window at {quantile} is "
            f"{limit_status.upper()} or worse")


def _lowest_words(lo: float, floor: float, name: str, min_events: int) -> str:
    """What ``lo``, the lowest candidate, is in the note (an apposition): with the ``min_events``
    hold the lowest usual target, where the candidates start; else the highest usual target
    strictly below the floor (:func:`~budgetlab.analyses.recalibration.candidates.target_range`),
    or, where the evidence lowered the range (``widen_to_support``), a candidate below that."""
    if min_events > 0:
        return "the lowest usual target, where min_events starts the candidates"
    start = float(target_range(np.array([floor]), np.array([floor]))[0][0])
    if lo == start:
        return f"the highest usual target below {name}, where the candidates start"
    return f"the lowest candidate, below {name}"


def explain_no_recommendation(*, has_time: bool, p1: float, floor: float, lo: float,
                              share_lo: float, events_per_day: float,
                              window_events: float, window_ns: int, history_days: float,
                              max_share: float, limit_status: str, min_days: float = 14.0,
                              min_events: int = 0, prob: float = 0.01,
                              log_days: float = float("nan"), log_events: int = 0,
                              silent_lo: float = float("nan"), hours: float = float("nan")
                              ) -> str:
    """Why no target meets the rule for one group, with figures, and what would make one possible
    (a longer window, ``min_events`` above the current one, more history, a looser
    ``max_share``). ``p1``: the rolling rate's ``prob`` quantile the range starts from (1 %, or
    ``max_share`` where it is smaller); ``floor``: the floor of the candidates' range before it
    is rounded down to ``lo`` (:func:`~budgetlab.analyses.recalibration.levels.limit_floor`;
    ``p1`` at exhausted); ``history_days``: the evaluated history (time with traffic after
    warm-up, the summary's ``hours`` / 24), never the calendar span around its silences;
    ``log_days``/``log_events``: the group's span in the log (first event to last) and its events
    there, against which a longer window is weighed (:class:`LogSpan`: a longer window evaluates
    more of a sparse log, whose short evaluated history is then no reason to ask for more).
    ``silent_lo``: the part of ``share_lo`` on a window held over a silence, of the ``hours`` of
    evaluated time (:func:`~budgetlab.analyses.recalibration.levels.limit_share_silent` at
    ``lo``), said after the share (:func:`~budgetlab.analyses.recalibration.verdict.silence_aside`;
    nothing under a second).

    Where that floor is 50 %, the lowest usual target, itself, a window at the quantile is at the
    limit status there: only targets below 50 % meet the rule, and the usual targets stop at 50 %
    (:data:`~budgetlab.analyses.recalibration.candidates.USUAL_TARGETS`): the note says so,
    never that 50 % is "below" the quantile.

    >>> print(explain_no_recommendation(has_time=True, p1=0.78, floor=0.78, lo=0.75,
    ...       share_lo=0.003, events_per_day=40, window_events=40, window_ns=86_400 * 10**9,
    ...       history_days=28, max_share=0.001,
    ...       limit_status="exhausted"))  # doctest: +NORMALIZE_WHITESPACE
    no target meets the rule: even 75 %, the highest usual target below the rolling rate's 1 %
    quantile (78.00 %), where the candidates start, is EXHAUSTED or worse 0.30 % of the time (limit
    0.1 %); ~40 events a day with traffic (per 24 h of its 28 d of evaluated time): a 24 h window
    holds ~40 events, so one failure moves the rate 2.5 points; to allow 10 failures a window at
    90 % it must hold 100 events: use a longer window (window='3D') or min_events=100 (the status
    holds while the window has fewer events), counted at ~40 events a day with traffic

    A share over the limit reads over it, never rounded onto it
    (:func:`~budgetlab._util.percent.share_percent`), and a window of about one event holds
    ``~1 event``:

    >>> print(explain_no_recommendation(has_time=True, p1=0.9, floor=0.9, lo=0.85,
    ...       share_lo=0.010038, events_per_day=24, window_events=1, window_ns=3_600 * 10**9,
    ...       history_days=28, max_share=0.01,
    ...       limit_status="exhausted"))  # doctest: +NORMALIZE_WHITESPACE
    no target meets the rule: even 85 %, the highest usual target below the rolling rate's 1 %
    quantile (90.00 %), where the candidates start, is EXHAUSTED or worse 1.004 % of the time
    (limit 1 %); ~24 events a day with traffic (per 24 h of its 28 d of evaluated time): a 1 h
    window holds ~1 event, so one failure moves the rate 100 points; to allow 10 failures a window
    at 90 % it must hold 100 events: use a longer window (window='5D') or min_events=100 (the
    status holds while the window has fewer events), counted at ~24 events a day with traffic
    """
    if not has_time:
        return "no evaluated time in the history for this group"
    name = _floor_words(p1, floor, limit_status, prob)
    sep = "" if limit_status == "exhausted" else ","  # after the apposition
    shown = (f"{limit_status.upper()} or worse {share_percent(share_lo, max_share)} of the time "
             f"(limit {given_percent(max_share)}")
    lowest = USUAL_TARGETS[0]
    if min_events == 0 and lo == lowest and abs(floor - lowest) <= 1e-9:
        head = (f"no usual target meets the rule: even {given_percent(lo)}, the lowest usual "
                f"target, is {shown}); {name}{sep} is {given_percent(lo)} itself: only a target "
                f"below {given_percent(lo)}, where the usual targets stop, would meet the rule")
    elif np.isfinite(lo) and lo <= floor + 1e-12:
        what = _lowest_words(lo, floor, name, min_events)
        head = f"no target meets the rule: even {given_percent(lo)}, {what}, is {shown})"
    elif np.isfinite(lo):
        below = (f"the rolling rate's {given_percent(prob)} quantile, {measured_percent(p1)}, "
                 "is below every usual target" if limit_status == "exhausted" else
                 f"{name}, is below every usual target")
        why = below if floor < USUAL_TARGETS[0] else f"min_events={min_events} holds the status"
        head = (f"no target meets the rule: even {given_percent(lo)}, the lowest usual target, is "
                f"{shown}; {why})")
    else:
        head = (f"no target meets the rule: {name}{sep} is below every usual target (lowest "
                "50 %)")
    parts = [head]
    aside = silence_aside(silent_lo, share_lo, hours) if np.isfinite(lo) else ""
    if aside:  # the share's time at lo that rests on no new event
        parts.append(f"the {share_percent(share_lo, max_share)} at {given_percent(lo)}{aside}")
    if np.isfinite(window_events) and window_events > 0:
        parts.append(window_sentence(events_per_day, history_days, window_ns, window_events))
    log = LogSpan.of(log_days, log_events, history_days, events_per_day)
    fixes = window_fix(lo, window_events, min_events, log)
    if history_days < min_days:  # a window suggested evaluates more of a longer log
        windowed = bool(fixes) and not fixes[0].startswith("no window")
        fixes.append(_history_fix(history_days, min_days, log, windowed=windowed))
    if not fixes:
        # a command without a flag for incidents names none (never the API's keyword)
        leave = " or leave labelled incidents out (exclude_incidents=)"
        leave = say(leave, leave if command_flag("exclude_incidents") else "")
        fixes.append("the rate itself dips this low: allow more time at the limit "
                     f"(max_share={given_fraction(max(0.05, 2 * max_share))}){leave}")
    return "; ".join(parts + fixes)


def window_sentence(events_per_day: float, history_days: float, window_ns: int,
                    window_events: float) -> str:
    """How far one failure moves the rolling rate: the group's events a day with traffic, the
    events its window typically holds (``window_events``, the summary's time-weighted median)
    and ``100 / window_events`` points, in words; the one sentence of
    :func:`explain_no_recommendation` and of a window too thin for a recommendation
    (:mod:`~budgetlab.analyses.recalibration.window_events`).

    >>> window_sentence(4.0, 13.0, 86_400 * 10**9, 4.0)  # doctest: +NORMALIZE_WHITESPACE
    '~4 events a day with traffic (per 24 h of its 13 d of evaluated time): a 24 h window holds
    ~4 events, so one failure moves the rate 25 points'
    """
    # a window with traffic holds at least one event: one failure moves it 100 points at most
    win_txt = prose_duration(pd.Timedelta(window_ns, unit="ns"))
    return (f"{about_counted(events_per_day, 'event')} a day with traffic (per 24 h of its "
            f"{days_words(history_days)} of evaluated time): a {win_txt} window holds "
            f"{about_counted(window_events, 'event')}, so one failure moves the rate "
            f"{three_digits(100 / max(window_events, 1.0))} points")


def window_fix(lo: float, window_events: float, min_events: int, log: LogSpan) -> list[str]:
    """The advice on the window of :func:`explain_no_recommendation` at ``lo`` (the target
    weighed; 90 % below it): :func:`_window_fix` for the :func:`events_for` of that target."""
    ref = lo if np.isfinite(lo) and lo >= 0.9 else 0.9
    return _window_fix(events_for(ref), ref, window_events, min_events, log)


def _window_fix(need: int, ref: float, window_events: float, min_events: int,
                log: LogSpan) -> list[str]:
    """The longer window that would hold the ``need`` events a window at ``ref`` needs, counted
    at the group's rate over its span in the log (a long window holds the log's silences too),
    or why none would (named with the length it would take); empty when the window holds enough
    already."""
    if not (np.isfinite(window_events) and window_events < need):
        return []
    w = suggest_window(need, log.per_day, log.days)
    if w is not None:
        hold = (f" or min_events={need} (the status holds while the window has fewer "
                "events)") if min_events < need else ""
        return [f"to allow 10 failures a window at {given_percent(ref)} it must hold {need} "
                f"events: use a longer window (window='{w}'){hold}, counted at {log.rate}"]
    days = need / log.per_day if log.per_day > 0 else np.inf
    beyond = [said for said, d in ((log.span_words, log.days),
                                   (f"the {days_words(MAX_WINDOW_DAYS)} maximum", MAX_WINDOW_DAYS))
              if not days <= d + 1e-9]
    long = f"a {days_words(days)} window, longer than " if np.isfinite(days) else "longer than "
    over = f" {log.over}" if log.over else ""
    return ["no window length fixes this: too little traffic (a window "
            f"at {given_percent(ref)} needs {need} events to allow 10 failures; at "
            f"~{about_words(log.per_day)} events a day{over} that is {long}"
            f"{' and '.join(beyond)})"]


def _history_fix(history_days: float, min_days: float, log: LogSpan, *, windowed: bool) -> str:
    """What a short evaluated history (``history_days`` under ``min_days``) needs: more history
    where the group's span in the log is short too; else (silences and warm-ups under this window
    took the rest) the longer window of the advice before it (``windowed``), or the words that
    say where the time went."""
    said = f"{days_words(history_days)} of evaluated history"
    if not log.days >= min_days:
        return f"give more history ({said}; at least {days_words(min_days)})"
    where = (f"{said} in the group's {days_words(log.days)} in the log: its window is empty or "
             "warming up the rest of the time")
    if windowed:
        return f"a longer window also evaluates more of the log ({where})"
    return f"{where}; a recommendation needs at least {days_words(min_days)} of evaluated history"
