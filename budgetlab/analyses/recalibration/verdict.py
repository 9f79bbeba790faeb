"""The verdict of :func:`budgetlab.recalibrate` on the current target, and the action it implies
(:func:`verdict`, its rule; :func:`judge_current`, every group's)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from ..._util.burns import three_digits
from ..._util.percent import given_fraction, given_percent, share_percent
from ..._util.words import command_flag, hours_words, say
from .rules import NO_BOOTSTRAP, recommendation_name

__all__ = ["NO_CURRENT_TARGET", "WITHHELD", "VERDICTS", "verdict_given", "judge_current",
           "verdict", "silence_aside"]

#: How a verdict's reason begins when no current target was given (the recommendation follows).
NO_CURRENT_TARGET = "no current target given (target= or slo=)"

#: The verdict of a group without one (no current target, or evidence too thin for it), in the
#: summary of :func:`budgetlab.recalibrate` and the table of :func:`budgetlab.target_verdicts`
#: alike; the reason beside it (``verdict_reason``, ``withheld``) says why.
WITHHELD = "withheld"

#: Every verdict code of :func:`budgetlab.recalibrate`'s summary, :data:`WITHHELD` last.
VERDICTS = ("too_strict", "ok", "too_loose", WITHHELD)


def verdict_given(code: Any) -> bool:
    """Whether a summary's ``verdict`` is a conclusion: not :data:`WITHHELD`, nor missing (a
    table written by hand, or saved by an earlier budgetlab, said a withheld one so).

    >>> verdict_given("ok"), verdict_given("withheld"), verdict_given(None)
    (True, False, False)
    """
    try:
        missing = bool(pd.isna(code))
    except (TypeError, ValueError):
        missing = False
    return not missing and str(code) != WITHHELD


def silence_aside(silent: Any, share: Any, hours: Any) -> str:
    """What the time at the limit status (``share`` of the ``hours`` of evaluated time) owes to
    a window held over a silence (``silent``: ``current_share_limit_silent``, a part of it), in
    words to follow the share; empty under a second (or where a figure is missing). The figure
    itself stands: a window held over a silence keeps its status, and says so.

    >>> silence_aside(0.001, 0.001, 450.0).split(" (it")[0]
    ', all of it (27 min) on a window held over a silence'
    >>> silence_aside(0.0005, 0.001, 450.0).split(" (")[0], silence_aside(0.0, 0.001, 450.0)
    (', 13 min 30 s of it on a window held over a silence', '')
    """
    try:
        silent, share, hours = float(silent), float(share), float(hours)
    except (TypeError, ValueError):
        return ""
    held = silent * hours
    if not (np.isfinite(held) and np.isfinite(share)) or held * 3600 < 1:
        return ""
    part = (f"all of it ({hours_words(held)})" if (share - silent) * hours * 3600 < 1
            else f"{hours_words(held)} of it")
    return (f", {part} on a window held over a silence (it held only events from before a gap "
            "longer than the window)")


def judge_current(current: np.ndarray, cands: np.ndarray, lim_share: np.ndarray, p10: np.ndarray,
                  recommended: np.ndarray, rec_low: np.ndarray, rec_high: np.ndarray,
                  thin: list[str], capped: np.ndarray, *, max_share: float, limit_status: str,
                  loose_burn: float, bootstrapped: bool, window: str = "window",
                  missed: list[str] | None = None,
                  silent: tuple[np.ndarray, np.ndarray] | None = None,
                  ) -> tuple[np.ndarray, list[Any], list[str], list[str]]:
    """``(current_share_limit, verdicts, reasons, actions)`` per group: the share of time the
    current target spent at the limit status or worse, and :func:`verdict` on it (withheld with
    the ``thin`` reason where that is not empty, unless ``missed`` says the failures decide a
    miss all the same; ``capped`` where the evidence capped the recommendation); ``window``
    names the window a burn is over (``"24 h window"``); ``silent``: per group, the part of
    the share on a window held over a silence and the evaluated hours, said
    (:func:`silence_aside`)."""
    g_n, n_c = len(current), len(cands)
    cur_share = np.full(g_n, np.nan)  # NaN too where the group has no evaluated time
    if n_c:
        cur_idx = np.searchsorted(cands, np.where(np.isfinite(current), current, 0.5))
        at = lim_share[np.arange(g_n), np.minimum(cur_idx, n_c - 1)]
        cur_share = np.where(np.isfinite(current), at, np.nan)
    miss = missed if missed is not None else [""] * g_n
    held = [""] * g_n
    if silent is not None:
        held = [silence_aside(x, y, h) for x, y, h in zip(silent[0], cur_share, silent[1],
                                                          strict=True)]
    judged: list[tuple[Any, str, str]] = [(None, t, "") if t and not miss[g] else verdict(
        current[g], cur_share[g], p10[g], recommended[g], rec_low[g], rec_high[g],
        max_share=max_share, limit_status=limit_status, loose_burn=loose_burn,
        bootstrapped=bootstrapped, window=window, capped=bool(capped[g]), missed=miss[g],
        silent=held[g])
        for g, t in enumerate(thin)]
    verdicts, reasons, actions = ([x[i] for x in judged] for i in range(3))
    return cur_share, verdicts, reasons, actions


def verdict(current: float, share: float, p10: float, rec: float, lo: float, hi: float, *,
            max_share: float, limit_status: str, loose_burn: float, bootstrapped: bool = True,
            window: str = "window", capped: bool = False, missed: str = "", silent: str = "",
            spell: Callable[..., str] = given_fraction) -> tuple[Any, str, str]:
    """``(verdict, reason, action)`` of one group with evidence enough, or whose failures decide
    a miss of ``current`` on too few events (``missed``: the words of
    :func:`~budgetlab.analyses.recalibration.rules.decided_miss`): ``too_strict`` with those
    words, the time shares and the bootstrap aside (they are too thin).

    ``lo``/``hi`` is the bootstrap interval of the recommended target ``rec`` (NaN: below the
    candidates' range, i.e. below every target; ``rec`` NaN: no target meets the rule). Without
    the bootstrap (``bootstrapped=False``) the interval is the point ``rec`` and the reason says
    so, and what rests on it: the verdict, or the recommendation without a current target.
    ``too_strict`` when ``share`` exceeds ``max_share``: the current target breaks the rule on
    the whole history, whatever the interval (where the interval reaches ``current``, only
    resampled histories meet the rule there, and the reason says so; never "ok, keep" beside a
    share over the limit); ``too_loose`` when the interval lies wholly above ``current`` and the
    window burn at the rolling rate's 10th percentile, ``(1 - p10) / (1 - current)``, is below
    ``loose_burn``; else ``ok`` (the current target meets the rule on the history). ``None``
    without a current target (the action then names the recommendation).
    ``window`` names the window every burn in the reason is over (``"24 h window"``); ``rec``
    is named by :func:`recommendation_name` (``capped``: the evidence's ceiling). ``spell``
    says every target of the reason and the action in one form: :func:`given_fraction` (``0.95``,
    as ``--target`` takes it: the command's) or :func:`given_percent` (``95 %``: the sentences of
    :func:`budgetlab.target_verdicts`, whose figures are in percent). ``silent`` follows the
    share: how much of it a window held over a silence holds (:func:`silence_aside`).

    >>> verdict(0.95, 0.2, 0.93, 0.93, 0.92, 0.935, max_share=0.01, limit_status="exhausted",
    ...         loose_burn=0.25)[::2]
    ('too_strict', 'loosen to 0.93')
    >>> verdict(0.97, 0.0, 0.99, 0.976, 0.97, 0.98, max_share=0.01, limit_status="exhausted",
    ...         loose_burn=0.25)[::2]
    ('ok', 'keep 0.97')
    >>> verdict(0.95, 0.2, 0.93, 0.925, 0.92, 0.935, max_share=0.01, limit_status="exhausted",
    ...         loose_burn=0.25, spell=given_percent)[2]
    'loosen to 92.5 %'
    >>> verdict(0.95, 1.0, 0.0, float("nan"), float("nan"), float("nan"), max_share=0.01,
    ...         limit_status="exhausted", loose_burn=0.25, missed="missed: ...")[::2]
    ('too_strict', 'loosen (no target to use: see the recommendation note)')
    """
    if missed and np.isfinite(current):  # the failures decide it: the counts alone
        act = ("loosen (no target to use: see the recommendation note)" if not np.isfinite(rec)
               else f"loosen to {spell(rec)}" if rec < current else "loosen")
        return "too_strict", f"{missed}: {act}", act
    low = lo if bootstrapped else rec
    high = hi if bootstrapped else rec
    low_v = low if np.isfinite(low) else -np.inf
    high_v = high if np.isfinite(high) else -np.inf
    cur, rec_w = spell(current), spell(rec)
    low_w, high_w = (spell(x, missing="below every candidate") for x in (low, high))
    if np.isfinite(rec):
        rec_txt = f"{recommendation_name(capped)} {rec_w}"
        if bootstrapped:
            rec_txt += f" (bootstrap interval {low_w} .. {high_w})"
        else:
            # without a current target there is no verdict: the recommendation is what rests
            rests = "the verdict" if np.isfinite(current) else "the recommendation"
            rec_txt += f" ({NO_BOOTSTRAP}: {rests} rests on this point)"
    else:
        rec_txt = "no usual target meets the rule (see the recommendation note)"
    if not np.isfinite(current):
        return None, f"{NO_CURRENT_TARGET}; {rec_txt}", (f"use {rec_w}" if np.isfinite(rec) else "")
    burn90 = (1 - p10) / (1 - current)
    share_txt = (
        f"{limit_status.upper()} or worse {share_percent(share, max_share)} of the evaluated time "
        f"under {cur} (limit {given_percent(max_share)}){silent}"
    )
    if share > max_share:  # the current target breaks the rule on the history itself
        act = (f"loosen to {rec_w}" if np.isfinite(rec)
               else "loosen (no usual target meets the rule)")
        said = f"{rec_txt} lies below {cur}" if np.isfinite(rec) else rec_txt
        if high_v >= current:  # some resampled histories met the rule at the current target
            said += (", where only resampled histories meet the rule" if np.isfinite(rec) else
                     f"; only resampled histories meet it at {cur} (bootstrap interval {low_w} "
                     f".. {high_w})")
        # without a target the rule's words say why once: ": loosen", never the action's aside
        said += f": {act}" if np.isfinite(rec) else ": loosen"
        return "too_strict", f"burns too fast: {share_txt}; {said}", act
    limit = _loose_limit(loose_burn)
    if low_v > current and burn90 < loose_burn:
        act = f"tighten to {rec_w}"
        return "too_loose", (f"budget barely moves: under {cur}, 9 hours in 10 the {window} "
                             f"{_burn_words(burn90, 'at most ')} (limit: {limit}); "
                             f"{rec_txt} lies above {cur}: {act}"), act
    act = f"keep {cur}"
    if low_v > current:  # the burn is the reason: said once, in it
        return "ok", (f"{share_txt}; {rec_txt} lies above {cur}, but 9 hours in 10 the {window} "
                      f"{_burn_words(burn90, 'at most ')} (limit: {limit}): {act}"), act
    if high_v < current:  # within the limit all the same (a capped recommendation)
        below = f" lies below {cur}," if np.isfinite(rec) else ","
        why = f"{rec_txt}{below} but the current target stays within the limit"
    elif np.isfinite(rec):
        why = f"{rec_txt} does not separate from {cur}"
    else:  # resampled histories met the rule where the whole one did not
        why = (f"{rec_txt}, but its bootstrap interval {low_w} .. {high_w} does not separate "
               f"from {cur}")
    burn_txt = f"9 hours in 10 the {window} {_burn_words(burn90, 'at most ')}"
    return "ok", f"{share_txt}; {burn_txt}; {why}: {act}", act


def _burn_words(burn: float, bound: str = "") -> str:
    """What the window spends of its budget, ``burn`` (a fraction): "spends none of its budget"
    at zero (never "burns at most 0"), else "burns ``bound`` 0.8 of its budget", the burn by
    :func:`~budgetlab._util.burns.three_digits` (three significant digits: 0.004, never 0.00)."""
    if not burn > 0:
        return "spends none of its budget"
    return f"burns {bound}{three_digits(burn)} of its budget"


def _loose_limit(loose_burn: float) -> str:
    """The ``loose_burn`` limit, named by its keyword in the API and by its flag on a command
    that has one; a command without one (``recalibrate``) says the value only, naming no keyword
    its user cannot type."""
    value, flag = given_fraction(loose_burn), command_flag("loose_burn")
    return say(f"loose_burn {value}", f"{flag} {value}" if flag else value)
