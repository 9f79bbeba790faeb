"""The words of :func:`budgetlab.target_verdicts` beside its verdicts: why a verdict is
withheld, the verdict's reason and action with every target in percent (the form of those
sentences), and the sentence on the recommended target, which says a capped recommendation is
capped and, where the verdict keeps the current target although the rule's lies elsewhere, the
reason that joins the two; and the evaluated time of a recalibration's groups in a label.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .._util.burns import expected_failures_words
from .._util.percent import given_percent
from .._util.validation import window_words
from .._util.words import days_words
from .recalibration.rules import capped_action, capped_words, decided_miss, too_few_events
from .recalibration.verdict import silence_aside, verdict

__all__ = ["evaluated_words", "evaluated_per_group", "verdict_withheld", "verdict_in_percent",
           "recommendation_sentence"]


def evaluated_words(hours: Any) -> str:
    """The time a summary row's counts are over, its ``hours`` of evaluated time (time with
    traffic after warm-up), in words; a row without it says so rather than name another span.

    >>> evaluated_words(5.02), evaluated_words(647.5), evaluated_words(None)
    ('5 h 1 min of evaluated time', '26 d 23 h of evaluated time', 'an unrecorded evaluated time')
    """
    h = float("nan") if hours is None else float(hours)
    return f"{days_words(h / 24)} of evaluated time" if np.isfinite(h) else \
        "an unrecorded evaluated time"


def evaluated_per_group(names: list[str], hours: Any) -> str:
    """The evaluated time (time with traffic after warm-up, never the calendar span around a
    silence) of groups ``names`` with their summary's ``hours``, for a label: one figure where
    every group's reads alike, else each group's (up to 3), else the range; empty without any.

    >>> evaluated_per_group(["a", "b"], [167.9, 167.95])
    '6 d 23 h of evaluated time'
    >>> evaluated_per_group(["v2", "turnstile"], [156.0, 119.8])
    'evaluated time v2 6 d 12 h, turnstile 4 d 23 h'
    >>> evaluated_per_group(list("abcd"), [156.0, 119.8, 24.0, 30.0])
    '1 d .. 6 d 12 h of evaluated time per group'
    """
    h = np.asarray(hours, dtype=np.float64)
    keep = np.isfinite(h)
    said = [days_words(x / 24) for x in h[keep]]
    if not said:
        return ""
    if len(set(said)) == 1:
        return f"{said[0]} of evaluated time"
    if len(said) <= 3:
        named = [str(n) for n, k in zip(names, keep.tolist(), strict=True) if k]
        return "evaluated time " + ", ".join(f"{n} {w}" for n, w in zip(named, said, strict=True))
    return (f"{days_words(h[keep].min() / 24)} .. {days_words(h[keep].max() / 24)} of evaluated "
            "time per group")


def verdict_withheld(r: pd.Series) -> str:
    """Why :func:`budgetlab.recalibrate` withheld the verdict of its summary row ``r``: its
    ``verdict_reason``, except where the evidence is too thin for the current target alone (the
    figures over the evaluated time kept: ``p50``). There the reason is the rule at the current
    target (:func:`~budgetlab.analyses.recalibration.rules.too_few_events`, the one rule of
    ``thin_evidence`` that depends on the target: fewer events withhold both) and the
    recommendation's standing with its expected failures, said once: recalibrate's "the verdict
    alone is withheld ... as without a current target (at 0.98 the 10,400 events hold 208 expected
    failures)" repeats the target and events the ``recommendation`` column names."""
    n, cur, rec = int(r["events"]), float(r["current_target"]), float(r["recommended_target"])
    thin = too_few_events(n, cur)
    if not thin or pd.isna(r["p50"]):  # too thin for both, or not the rule of the events
        return str(r["verdict_reason"])
    if not np.isfinite(rec):  # no target meets the rule: the recommendation says why
        return f"{thin}; the recommendation is judged at its own level"
    return (f"{thin}; the recommendation is judged at its own level, where they hold "
            f"{expected_failures_words(n * (1 - rec))}")


def verdict_in_percent(r: pd.Series, settings: dict[str, Any]) -> tuple[str, str]:
    """``(reason, action)`` of the verdict of one summary row ``r`` with every target in percent,
    as these sentences spell their figures (``loosen to 92.5 %``, never ``0.925`` among
    percentages): :func:`~budgetlab.analyses.recalibration.verdict.verdict` on the row's own
    figures, the one rule (the summary's ``action`` spells targets as ``--target`` takes them)."""
    window = f"{window_words(r['window'])} window" if "window" in r.index else "window"
    capped = bool(r.get("recommended_capped", False))
    code, reason, action = verdict(
        float(r["current_target"]), float(r["current_share_limit"]), float(r["p10"]),
        float(r["recommended_target"]), float(r["recommended_low"]),
        float(r["recommended_high"]), max_share=float(settings.get("max_share", 0.01)),
        limit_status=str(settings.get("limit_status", "exhausted")),
        loose_burn=float(settings.get("loose_burn", 0.25)),
        bootstrapped=int(settings.get("n_boot", 0)) > 0, window=window, capped=capped,
        missed=decided_miss(int(r["events"]), int(r["failures"]), float(r["current_target"])),
        silent=silence_aside(r.get("current_share_limit_silent"), r["current_share_limit"],
                             r.get("hours")),
        spell=given_percent)
    if code != r["verdict"]:  # a table from elsewhere: its own words
        return str(r["verdict_reason"]), str(r.get("action", "") or "")
    return reason, capped_action(action, code, int(r["events"]), capped)  # as recalibrate's


def recommendation_sentence(r: pd.Series, group: str, caveat: str, min_events: int, *,
                    kept: str = "") -> str:
    """The sentence on the recommended target of one summary row ``r``, or why there is none;
    a capped one says so (:func:`~budgetlab.analyses.recalibration.rules.capped_words`, as the
    figure's legend does); ``kept``: the reason of a verdict that keeps the current target
    although the recommendation differs, said with it, so that both read as one."""
    n, rec_t = int(r["events"]), float(r["recommended_target"])
    if not np.isfinite(rec_t):  # recalibrate's rule, in its words
        return f"No recommendation for {group}: {r['recommendation_note']}."
    if n < min_events:
        return (f"No recommendation for {group}: only {n:,} events in the history; a "
                f"recommendation needs at least {min_events:,}.")
    lo, hi = float(r["recommended_low"]), float(r["recommended_high"])
    text = f"Recommended for {group}: {given_percent(rec_t)}"
    if bool(r.get("recommended_capped", False)):
        text += f" ({capped_words(n)})"
    if np.isfinite(lo) and np.isfinite(hi):
        text += f" (bootstrap interval {given_percent(lo)} – {given_percent(hi)})"
    text += f", from {n:,} events over {evaluated_words(r.get('hours'))}"
    if kept:
        text += (f"; the verdict keeps the current {given_percent(r['current_target'])} all the "
                 f"same: {kept}")
    return text + (f"; {caveat}." if caveat else ".")
