"""A window too thin for a recommendation of :func:`budgetlab.recalibrate`: one failure in it
moves the rolling rate past the group's own level (:func:`thin_windows`, the rule;
:func:`thin_window_words`, its sentence).

**The rule.** A window holding ``n`` events and one failure has the rate ``1 - 1 / n`` ("one
failure moves the rate ``100 / n`` points", the sentence of
:func:`~budgetlab.analyses.recalibration.no_target.explain_no_recommendation`); it is at
``limit_status`` or worse under every target from
:func:`~budgetlab.analyses.recalibration.levels.limit_floor` of that rate up (``1 - 1 / n``
itself at exhausted). With ``n`` the group's ``window_events`` (the time-weighted median of the
events in its window), the recommendation is **withheld** where one failure holds a window for
more than ``max_share`` of the evaluated time (the window's length over the group's ``hours``)
and that floor is at or below the recommended target (one failure in a typical window would
break the rule of the target recommended), or, where windows holding a failure took more than
the rule's share of the time (``p1``, the quantile the rule starts from, below 1), at or below
its ``ci_low`` (the low end of the Wilson interval of its success rate: a target at the group's own
level). At exhausted: ``window / hours > max_share`` and ``window_events <= 1 / (1 -
recommended_target)``, or ``p1 < 1`` and ``window_events <= 1 / (1 - ci_low)``.

The group's own level is weighed as well as the recommendation because, with such windows, the
recommendation on such a window is no measure of the group: the failure's window sits at ``1 -
1 / n`` for up to a window's length, more than ``max_share`` of the time, so the rule lands just
below it, where one failure, by construction, stays within the limit (``0.665`` for a sitekey at
98 % whose 24 h window holds ~4 events). Weighing the recommendation alone could never withhold
it. ``ci_low`` is the lowest success rate the group's events allow (at ``confidence``), so a
group is withheld only where even that level is beyond one failure. Without them (``p1`` 1)
the recommendation is the rule's highest target or the evidence's ceiling (``1 - 10 /
events``), weighed as it is.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..._util.percent import given_percent, measured_percent, share_percent
from ..._util.ratios import ratio
from ..._util.units import HOUR_NS
from ..._util.words import prose_duration
from .levels import limit_floor
from .no_target import LogSpan, window_fix, window_sentence

__all__ = ["WINDOW_WITHHELD", "one_failure_floor", "thin_windows", "thin_window_words",
           "window_reasons", "window_verdict_words"]

#: Float tolerance of the rule: a target at the floor itself is at the limit status.
_TOL = 1e-9


def one_failure_floor(window_events: np.ndarray, slo: Any, level: int) -> np.ndarray:
    """Per group, the target from which a window of ``window_events`` events holding one failure
    (rate ``1 - 1 / n``; ``n`` at least 1) is at status ``level`` or worse
    (:func:`~budgetlab.analyses.recalibration.levels.limit_floor`); NaN without a count.

    >>> from budgetlab import SLO
    >>> one_failure_floor(np.array([4.0, 1000.0, np.nan]), SLO(), 3).tolist()
    [0.75, 0.999, nan]
    """
    n = np.asarray(window_events, dtype=np.float64)
    ok = np.isfinite(n) & (n > 0)
    rate = np.where(ok, 1.0 - 1.0 / np.maximum(np.where(ok, n, 1.0), 1.0), np.nan)
    return np.asarray(limit_floor(rate, slo, level))


def thin_windows(window_events: np.ndarray, recommended: np.ndarray, ci_low: np.ndarray,
                 slo: Any, level: int, *, p1: np.ndarray, held: np.ndarray,
                 max_share: float) -> np.ndarray:
    """Per group, whether its window is too thin for its recommendation (the module's rule): a
    recommendation exists, one failure holds a window for more than ``max_share`` of the
    evaluated time (``held``: the window's length over the group's evaluated time), and a
    typical window holding one failure is at the limit status (:func:`one_failure_floor`) under
    the recommendation, or, for a group whose rolling rate's quantile ``p1`` (the rule's, at
    ``max_share`` or 1 %) is below 1 (windows holding a failure took more than that share of
    the time), under a target at ``ci_low``: those windows put the rule below that floor, a
    figure of the window's size.

    >>> from budgetlab import SLO
    >>> thin_windows(np.array([4.0, 1000.0, 4.0, 4.0, 4.0]),
    ...              np.array([0.665, 0.98, np.nan, 0.665, 0.82]),
    ...              np.array([0.905, 0.981, 0.9, 0.905, 0.935]), SLO(), 3,
    ...              p1=np.array([0.75, 0.98, 0.75, 0.75, 1.0]),
    ...              held=np.array([0.077, 0.077, 0.077, 0.005, 0.077]), max_share=0.01).tolist()
    [True, False, False, False, True]
    """
    rec = np.asarray(recommended, dtype=np.float64)
    low = np.asarray(ci_low, dtype=np.float64)
    floor = one_failure_floor(window_events, slo, level) - _TOL
    with np.errstate(invalid="ignore"):
        hit = (rec >= floor) | ((np.asarray(p1, dtype=np.float64) < 1) & (low >= floor))
        return np.asarray(np.isfinite(rec) & np.isfinite(floor) & hit
                          & (np.asarray(held, dtype=np.float64) > max_share))


def thin_window_words(*, events_per_day: float, history_days: float, window_ns: int,
                      window_events: float, recommended: float, ci_low: float, floor: float,
                      limit_status: str, max_share: float, min_events: int, log: LogSpan) -> str:
    """Why the recommendation of a group whose window is too thin (:func:`thin_windows`) is
    withheld, in words: the sentence of
    :func:`~budgetlab.analyses.recalibration.no_target.explain_no_recommendation` (events a day,
    in a window, how far one failure moves the rate), the target from which one failure puts
    such a window at ``limit_status`` (``floor``), the target weighed, and the advice on the
    window of that note (:func:`~budgetlab.analyses.recalibration.no_target.window_fix`).

    >>> log = LogSpan.of(14.0, 56, 13.0, 4.0)
    >>> print(thin_window_words(events_per_day=4.0, history_days=13.0, window_ns=86_400 * 10**9,
    ...       window_events=4.0, recommended=0.665, ci_low=0.905, floor=0.75,
    ...       limit_status="exhausted", max_share=0.01, min_events=0,
    ...       log=log))  # doctest: +NORMALIZE_WHITESPACE
    too few events in a window for a recommendation: ~4 events a day with traffic (per 24 h of
    its 13 d of evaluated time): a 24 h window holds ~4 events, so one failure moves the rate 25
    points: such a window holding one failure is EXHAUSTED or worse under every target from
    75.00 % up, a target at the group's own level among them (90.50 %, ci_low: the low end of
    its success rate's interval), and one failure stays in the window 24 h (7.69 % of the
    evaluated time; limit 1 %); a recommendation would measure the window, not the group; no
    window length fixes this: too little traffic (a window at 90.5 % needs 106 events to allow
    10 failures; at ~4 events a day over the group's 14 d in the log that is a 26 d 12 h window,
    longer than the group's 14 d in the log and the 7 d maximum)
    """
    sentence = window_sentence(events_per_day, history_days, window_ns, window_events)
    win = prose_duration(pd.Timedelta(window_ns, unit="ns"))
    held = window_ns / HOUR_NS / (history_days * 24)
    if recommended >= floor - _TOL or recommended >= ci_low:
        ref, weighed = recommended, f"{given_percent(recommended)}, the rule's target, among them"
    else:
        ref = ci_low
        weighed = (f"a target at the group's own level among them ({measured_percent(ci_low)}, "
                   "ci_low: the low end of its success rate's interval)")
    # the advice weighs a written target: ci_low rounded down to 0.1 point (never above it)
    at = ref if ref == recommended else round(float(np.floor(ref * 1000 + 1e-9)) / 1000, 3)
    return "; ".join([
        f"too few events in a window for a recommendation: {sentence}: such a window holding "
        f"one failure is {limit_status.upper()} or worse under every target from "
        f"{measured_percent(floor)} up, {weighed}, and one failure stays in the window "
        f"{win} ({share_percent(held, max_share)} of the evaluated time; limit "
        f"{given_percent(max_share)})",
        "a recommendation would measure the window, not the group",
        *window_fix(at, window_events, min_events, log)])


def window_reasons(rec_thin: list[str], evidence: dict[str, np.ndarray], c: Any, plan: Any,
                   log_spans: tuple[np.ndarray, np.ndarray], hours: np.ndarray
                   ) -> tuple[list[str], np.ndarray]:
    """``(reasons, thin)``: the recommendation's thin-evidence reasons of
    :func:`budgetlab.recalibrate` (``rec_thin``) with the window's rule added
    (:func:`thin_windows`, said by :func:`thin_window_words`) where the evidence is otherwise
    enough for the recommendation ``c.recommended``, and the groups it withheld. The figures
    over the evaluated time stay (they are measured; only the recommendation would measure the
    window). ``evidence``: the step's figures per group (``window_events``,
    ``events_per_day``, ``history_days``); ``hours``: each group's evaluated time;
    ``log_spans``: the days and events of each group's span in the log, against which a longer
    window is weighed."""
    n_win = evidence["window_events"]
    held = ratio(np.full(len(n_win), plan.slo.window_ns / HOUR_NS), hours, np.inf)
    thin = thin_windows(n_win, c.recommended, c.ci_low, plan.slo, plan.limit,
                        p1=c.base, held=held, max_share=plan.max_share)
    thin &= ~np.array([bool(x) for x in rec_thin], dtype=bool)
    floor = one_failure_floor(n_win, plan.slo, plan.limit)
    out = list(rec_thin)
    for g in np.flatnonzero(thin).tolist():
        days = float(evidence["history_days"][g])
        per_day = float(evidence["events_per_day"][g])
        out[g] = thin_window_words(
            events_per_day=per_day, history_days=days, window_ns=plan.slo.window_ns,
            window_events=float(n_win[g]), recommended=float(c.recommended[g]),
            ci_low=float(c.ci_low[g]), floor=float(floor[g]), limit_status=plan.limit_status,
            max_share=plan.max_share, min_events=plan.slo.min_events,
            log=LogSpan.of(float(log_spans[0][g]), int(log_spans[1][g]), days, per_day))
    return out, thin


#: What the verdict's words say of a missing recommendation (:mod:`.verdict`), and what they say
#: instead where this module's rule withheld it (:func:`window_verdict_words`).
_NO_RULE = "no usual target meets the rule"
WINDOW_WITHHELD = "the recommendation is withheld: too few events in a window"


def window_verdict_words(reasons: list[str], actions: list[str], thin: np.ndarray
                         ) -> tuple[list[str], list[str]]:
    """The verdict's ``reasons`` and ``actions`` of the groups whose recommendation the window's
    rule withheld (``thin``), saying so (:data:`WINDOW_WITHHELD`) where the verdict's words
    would say no usual target meets the rule (some do: the window is too thin to say which).

    >>> window_verdict_words(["x; no usual target meets the rule (see the recommendation note)"],
    ...                      ["loosen (no usual target meets the rule)"], np.array([True]))[1]
    ['loosen (the recommendation is withheld: too few events in a window)']
    """
    out_r, out_a = list(reasons), list(actions)
    for g in np.flatnonzero(thin).tolist():
        out_r[g] = out_r[g].replace(_NO_RULE, WINDOW_WITHHELD)
        out_a[g] = out_a[g].replace(_NO_RULE, WINDOW_WITHHELD)
    return out_r, out_a
