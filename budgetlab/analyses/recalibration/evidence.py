"""Steps 6-7 of :func:`~budgetlab.analyses.recalibration.recalibrate`: the evidence behind its
verdicts (figures per group over the evaluated span, thin evidence withheld, the bootstrap, the
verdict and the notes); the incidents it leaves out: :mod:`.incidents`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..._util.burns import expected_failures_words
from ..._util.percent import given_fraction
from ..._util.ratios import ratio
from ..._util.units import DAY_NS, HOUR_NS
from ..._util.words import days_words, prose_duration
from .bootstrap import bootstrap_interval, bootstrap_targets, group_seeds
from .candidates import USUAL_TARGETS
from .clock import evaluated_events
from .levels import Choice, limit_share_silent
from .no_target import explain_no_recommendation
from .options import Plan
from .rolling import weighted_quantiles
from .rules import cap_notes, capped_action, decided_miss, thin_evidence
from .thin_time import misses_in_time
from .verdict import judge_current
from .window_events import window_reasons, window_verdict_words

__all__ = ["MIN_HISTORY_DAYS", "Judged", "short_history", "history_words", "saved_history",
           "judge_groups", "warmup_words"]

#: Said after the reason of a group whose evidence is too thin for its current target but not for
#: a recommendation: the thin-evidence rule weighs the verdict at the current target and the
#: recommendation apart, at its own level, as a run without a current target does (a current
#: target given never hides a recommendation the evidence supports).
_VERDICT_ALONE = ("the verdict alone is withheld: the recommendation is judged at its own level, "
                  "as without a current target")

#: Histories shorter than this many days give provisional recommendations (the seed: 2-4 weeks).
MIN_HISTORY_DAYS = 14.0


@dataclass(frozen=True)
class Judged:
    """:func:`judge_groups`: per group."""

    evidence: dict[str, np.ndarray]
    recommended: np.ndarray
    rec_low: np.ndarray
    rec_high: np.ndarray
    boot: np.ndarray
    cur_share: np.ndarray
    cur_silent: np.ndarray  # the part of cur_share on a window held over a silence
    verdicts: list[Any]
    reasons: list[str]
    actions: list[str]
    notes: list[str]
    # the evidence is too thin for both a verdict and a recommendation (the reason in
    # ``reasons``): the figures over the evaluated time are withheld
    withheld: np.ndarray


def judge_groups(srt: Any, rolling: Any, c: Choice, current: np.ndarray, plan: Plan) -> Judged:
    """Thin evidence withheld (:func:`~budgetlab.analyses.recalibration.rules.thin_evidence`,
    the evaluated time included: no recommendation, no bootstrap, no verdict; evidence thin for
    the current target alone withholds the verdict alone, :func:`_thin_reasons`), the block
    bootstrap of the others, the verdict on the current target and the notes."""
    has_time, n_ev, lo_t = rolling.has_time, c.n_ev, c.lo_t
    evidence = _evidence(rolling, n_ev, c.time)
    given = np.isfinite(current)
    rec_thin, cur_thin = _thin_reasons(srt, rolling, c, current, plan,
                                       evidence["traffic_days"])
    rec_thin, thin_window = window_reasons(rec_thin, evidence, c, plan, _log_spans(srt, plan),
                                           rolling.w_group / HOUR_NS)
    judged = np.array([not x for x in rec_thin], dtype=bool)
    thin_for_current = np.array([bool(x) for x in cur_thin], dtype=bool)
    # the figures are withheld only where neither the verdict nor the recommendation stands
    withheld = ~judged & thin_for_current & ~thin_window  # a thin window's figures are measured
    recommended = np.where(judged, c.recommended, np.nan)
    boot = bootstrap_targets(c.time, plan.limit, c.grid, c.grid_idx, max_share=plan.max_share,
                             n_boot=plan.n_boot, block_days=plan.block_ns // DAY_NS,
                             seeds=group_seeds(plan.seed, srt.keys),
                             has_time=has_time & ~withheld & ~thin_window,
                             show_progress=plan.show_progress,
                             in_range=c.supported)
    rec_low, rec_high = bootstrap_interval(boot, has_time & ~withheld & ~thin_window,
                                           plan.confidence)
    capped = recommended < c.uncapped  # False where either is NaN (as recommended_capped)
    # too few events for a verdict, but the failures decide a miss all the same, where the
    # evaluated time allows a verdict (thin_time: else no verdict, the time's reason said)
    missed, cur_thin = misses_in_time([decided_miss(int(n), int(n - k), float(t)) if w else ""
                                       for n, k, t, w in zip(n_ev.tolist(), c.n_ok.tolist(),
                                                             current.tolist(), cur_thin,
                                                             strict=True)],
                                      cur_thin, has_time, rolling.w_group / HOUR_NS)
    silent = limit_share_silent(srt, rolling, c, current, plan)
    cur_share, verdicts, reasons, actions = judge_current(
        current, c.cands, c.lim_share, c.p10, recommended, rec_low, rec_high, cur_thin, capped,
        max_share=plan.max_share, limit_status=plan.limit_status, loose_burn=plan.loose_burn,
        bootstrapped=plan.n_boot > 0,
        window=f"{prose_duration(pd.Timedelta(plan.slo.window_ns, unit='ns'))} window",
        missed=missed, silent=(silent, rolling.w_group / HOUR_NS))
    reasons, actions = window_verdict_words(reasons, actions, thin_window)
    alone = given & judged & thin_for_current
    no_verdict = given & np.array([v is None for v in verdicts], dtype=bool)
    # the verdict's figure, withheld with it
    cur_share = np.where(alone | (thin_window & no_verdict), np.nan, cur_share)
    silent = np.where(np.isfinite(cur_share), silent, np.nan)  # withheld with it
    for g in np.flatnonzero(alone & ~np.array([bool(m) for m in missed])).tolist():
        reasons[g], actions[g] = _verdict_alone(cur_thin[g], int(n_ev[g]), float(recommended[g]))
    actions = [capped_action(a, v, int(n), cap) for a, v, n, cap in zip(
        actions, verdicts, n_ev.tolist(), capped.tolist(), strict=True)]
    notes = [x if not cap else f"{cap}; {x}" if x else cap for x, cap in zip(
        _notes(evidence, has_time, c, recommended, plan, rec_thin, srt,
               silent_lo=(limit_share_silent(srt, rolling, c, c.lo_t, plan),
                          rolling.w_group / HOUR_NS)),
        cap_notes(np.where(judged, c.uncapped, np.nan), recommended, n_ev, counted=alone),
        strict=True)]
    below = np.isfinite(recommended) & np.isnan(rec_low) & (plan.n_boot > 0)
    for g in np.flatnonzero(below).tolist():
        n_none = int(np.isnan(boot[:, g]).sum())
        notes[g] = "; ".join(x for x in (notes[g], (
            f"recommended_low is below the candidates' range: in {n_none} of {plan.n_boot} "
            f"resampled histories no candidate from {given_fraction(lo_t[g])} up met the "
            "rule")) if x)
    return Judged(evidence=evidence, recommended=recommended, rec_low=rec_low, rec_high=rec_high,
                  boot=boot,
                  cur_share=cur_share, cur_silent=silent, verdicts=verdicts, reasons=reasons,
                  actions=actions,
                  notes=notes, withheld=withheld)


def _verdict_alone(thin: str, events: int, rec: float) -> tuple[str, str]:
    """``(reason, action)`` of a group whose evidence is ``thin`` for its current target but
    not for a recommendation: the verdict alone is withheld, and the action names the
    recommendation ``rec`` as a run without a current target does (none where no target meets
    the rule: the recommendation note says why).

    >>> _verdict_alone("9,878 events ... (...)", 9878, 0.991)  # doctest: +NORMALIZE_WHITESPACE
    ('9,878 events ... (...); the verdict alone is withheld: the recommendation is judged at its
    own level, as without a current target (at 0.991 the 9,878 events hold 88.9 expected
    failures)', 'use 0.991')
    >>> _verdict_alone("...", 1_234_567, 0.99)[0].split("(at ")[1]  # 12,345.67: never 1.23e+04
    '0.99 the 1,234,567 events hold 12,346 expected failures)'
    """
    if not np.isfinite(rec):
        return f"{thin}; {_VERDICT_ALONE} (see the recommendation note)", ""
    held = expected_failures_words(events * (1 - rec))  # three significant digits, no exponent
    return (f"{thin}; {_VERDICT_ALONE} (at {given_fraction(rec)} the {events:,} events hold "
            f"{held})", f"use {given_fraction(rec)}")


def _thin_reasons(srt: Any, rolling: Any, c: Choice, current: np.ndarray, plan: Plan,
                  traffic_days: np.ndarray) -> tuple[list[str], list[str]]:
    """``(recommendation, verdict)``: per group, why its evidence is too thin for a
    recommendation, and for a verdict on its current target (:func:`thin_evidence`; empty where
    it is enough). The recommendation is weighed at its own level, as without a current target:
    the recommended target, else the lowest usual target (50 %: every candidate is at or above
    it, so fewer events than it needs can judge no target at all; never at the range's own start,
    99.99 % for a group without failures). The verdict is weighed at the current target (where
    none is given, it is the recommendation's)."""
    n_ev, rec, has_time = c.n_ev, c.recommended, rolling.has_time
    hours = rolling.w_group / HOUR_NS
    given = np.isfinite(current)
    ref = np.where(np.isfinite(rec), rec, USUAL_TARGETS[0])
    at = np.where(np.isfinite(rec), "recommended",
                  np.where(given, "lowest_for_rule", "lowest"))

    warm = _warmup_reasons(n_ev, srt, plan)

    def weigh(target: np.ndarray, judged_at: np.ndarray) -> list[str]:
        return [warm[g] or thin_evidence(
            int(n_ev[g]), float(target[g]), int(traffic_days[g]), bool(has_time[g]),
            hours=float(hours[g]), judged_at=str(judged_at[g]), bootstrap=plan.n_boot > 0)
            for g in range(srt.n_groups)]

    rec_thin = weigh(ref, at)
    cur_thin = weigh(np.where(given, current, ref), np.where(given, "current", at))
    return rec_thin, cur_thin


def _evidence(rolling: Any, n_ev: np.ndarray, time: Any) -> dict[str, np.ndarray]:
    """Per group, all over the evaluated span: its evaluated time in days (``history_days``,
    ``hours`` / 24: the history the rule on provisional recommendations counts), the days from
    its first evaluated instant to its last (``span_days``: silences and later warm-ups
    included), day blocks with traffic, events per day with traffic and the time-weighted median
    of the events in a window."""
    c = rolling.clock
    g_n = len(n_ev)
    timed = rolling.dt > 0
    first = np.full(g_n, np.nan)
    last = np.full(g_n, np.nan)
    np.fmin.at(first, c.seg[timed], rolling.eval_from[timed].astype(np.float64))
    np.fmax.at(last, c.seg[timed], rolling.eval_to[timed].astype(np.float64))
    span = np.where(np.isfinite(first), (last - first) / DAY_NS, 0.0)
    obs_days = rolling.w_group / DAY_NS
    per_day = ratio(n_ev, obs_days, 0.0)
    # NaN for a group without evaluated time (no weight)
    win = np.array([weighted_quantiles(c.total[s:e].astype(np.float64), rolling.dt[s:e],
                                       np.array([0.5]))[0]
                    for s, e in zip(c.bounds[:-1].tolist(), c.bounds[1:].tolist(), strict=True)],
                   dtype=np.float64)
    return {"history_days": obs_days, "span_days": span,
            "traffic_days": (time.w_day > 0).sum(axis=1),
            "events_per_day": per_day,
            "window_events": win}


def warmup_words(events: int, window: str, *, history: str = "") -> str:
    """Why a group has no event in the evaluated span when all of its ``events`` fell within a
    warm-up of the ``window`` (``history``: the span the events were counted in, when
    ``history`` cut the log), in words; the reason of :func:`budgetlab.recalibrate` for it. One
    event is "the group's one event", two are "both of the group's events" (never "all 2"), more
    are "all 5 of the group's events". The one wording of it: ``latency_recalibrate`` says it too.

    >>> warmup_words(5, "1 h")
    "0 events in the evaluated span: all 5 of the group's events fell within a warm-up (the first
    1 h of a stretch of traffic, which only fills the window); no verdict and no recommendation
    without events after it"
    >>> warmup_words(1, "24 h", history="the last 7 d").split(" (")[0]
    "0 events in the evaluated span: the group's one event in the last 7 d fell within a warm-up"
    >>> warmup_words(2, "1 h").split(" (")[0]
    "0 events in the evaluated span: both of the group's events fell within a warm-up"
    >>> warmup_words(1234, "1 h", history="the last 3 h").split(" (")[0]
    "0 events in the evaluated span: all 1,234 of the group's events in the last 3 h fell within a
    warm-up"
    """
    where = f" in {history}" if history else ""
    which = (f"the group's one event{where}" if events == 1
             else f"both of the group's events{where}" if events == 2
             else f"all {events:,} of the group's events{where}")
    return (f"0 events in the evaluated span: {which} fell within a warm-up (the first {window} "
            "of a stretch of traffic, which only fills the window); no verdict and no "
            "recommendation without events after it")


def _warmup_reasons(n_ev: np.ndarray, srt: Any, plan: Plan) -> list[str]:
    """Per group, the reason of a group without an evaluated event whose events (in the history,
    counted back from the log's last event) all fell within a warm-up, the first window of their
    stretch of traffic, said as that (:func:`warmup_words`), not as "too few events"; empty for
    every other group."""
    t = np.asarray(srt.t, dtype=np.int64)
    t_first, t_last = plan.log_times(t)
    lo = max(t_last - plan.history_ns, t_first)
    warm = (t >= lo) & ~evaluated_events(t, srt.bounds, plan.slo.window_ns, lo, t_last)
    n_warm = np.bincount(srt.seg[warm], minlength=srt.n_groups)
    window = prose_duration(pd.Timedelta(plan.slo.window_ns, unit="ns"))
    history = (f"the last {prose_duration(pd.Timedelta(plan.history_ns, unit='ns'))}"
               if lo > t_first else "")
    return [warmup_words(int(w), window, history=history) if n == 0 and w > 0 else ""
            for n, w in zip(n_ev.tolist(), n_warm.tolist(), strict=True)]


def short_history(days: float, span: float | None = None) -> str:
    """The caveat of a recommendation from fewer than :data:`MIN_HISTORY_DAYS` days of evaluated
    history (``days``: the group's time with traffic after warm-up, its ``hours`` / 24, so a log
    of 14 d 35 min under a 24 h window holds 13 d, and a silence holds none); empty with enough.
    ``span``: the days from its first evaluated instant to its last, said beside where they read
    otherwise (:func:`history_words`). Said by :func:`budgetlab.recalibrate` and
    :func:`budgetlab.latency_recalibrate` alike.

    >>> short_history(1.993)
    'provisional: 1 d 23 h of evaluated history, less than the 14 d a recommendation needs; re-run
    with more history'
    >>> short_history(14.0), short_history(14.0, span=30.0)
    ('', '')
    """
    if days >= MIN_HISTORY_DAYS:
        return ""
    return f"provisional: {history_words(days, span=span)}; re-run with more history"


def history_words(days: float, min_days: float = MIN_HISTORY_DAYS, *,
                  span: float | None = None) -> str:
    """The history rule in words, for ``days`` of evaluated history (time with traffic after
    warm-up) shorter than ``min_days``: the one wording of :func:`short_history`,
    :func:`budgetlab.target_verdicts`' caveat and ``export``'s line on provisional targets.
    Where ``span`` (days from the first evaluated instant to the last) reads otherwise, a
    silence or a later warm-up lies between: both are said, each named.

    >>> history_words(1.993)
    '1 d 23 h of evaluated history, less than the 14 d a recommendation needs'
    >>> history_words(6.5, span=8.99)  # doctest: +NORMALIZE_WHITESPACE
    '6 d 12 h of evaluated history (time with traffic after warm-up) in the 8 d 23 h from the
    first evaluated instant to the last, less than the 14 d a recommendation needs'
    """
    said = days_words(days)
    if span is not None and np.isfinite(span) and days_words(span) != said:
        said += (f" of evaluated history (time with traffic after warm-up) in the "
                 f"{days_words(span)} from the first evaluated instant to the last")
    else:
        said += " of evaluated history"
    return f"{said}, less than the {days_words(min_days)} a recommendation needs"


def saved_history(table: pd.DataFrame) -> tuple[pd.Series, pd.Series]:
    """``(history, span)`` in days of each row of a saved summary of
    :func:`budgetlab.recalibrate`: its ``history_days`` and ``span_days``; a table written
    before ``span_days``, whose ``history_days`` was the span from the first evaluated instant
    to the last (silences included), has its evaluated history read from ``hours`` / 24 and
    that span from ``history_days``.

    >>> old = pd.DataFrame({"hours": [119.5], "history_days": [14.99]})
    >>> [x.round(3).tolist() for x in saved_history(old)]
    [[4.979], [14.99]]
    """
    def number(name: str) -> pd.Series:
        return pd.to_numeric(table[name], errors="coerce")

    if "span_days" in table.columns:
        return number("history_days"), number("span_days")
    if "hours" in table.columns:
        return number("hours") / 24, number("history_days")
    return number("history_days"), number("history_days")


def _notes(ev: dict[str, np.ndarray], has_time: np.ndarray, c: Choice, recommended: np.ndarray,
           plan: Plan, thin: list[str], srt: Any,
           silent_lo: tuple[np.ndarray, np.ndarray]) -> list[str]:
    """Per group: why there is no recommendation (too ``thin`` evidence for one; or with figures
    and the way forward, a longer window weighed against the group's span in the log, ``srt``;
    ``silent_lo``: the part of the share at the lowest candidate on a window held over a silence
    and the evaluated hours), or the caveat of a short history; empty when neither applies."""
    log_days, log_events = _log_spans(srt, plan)
    out = []
    for g, lo in enumerate(c.lo_t.tolist()):
        days = float(ev["history_days"][g])
        if thin[g]:
            out.append(thin[g])
            continue
        if np.isfinite(recommended[g]):
            out.append(short_history(days, span=float(ev["span_days"][g])))
            continue
        at_lo = np.searchsorted(c.cands, lo)
        share_lo = float(c.lim_share[g, at_lo]) if np.isfinite(lo) else np.nan
        out.append(explain_no_recommendation(
            has_time=bool(has_time[g]), p1=float(c.base[g]), floor=float(c.floor[g]), lo=lo,
            share_lo=share_lo,
            events_per_day=float(ev["events_per_day"][g]),
            window_events=float(ev["window_events"][g]),
            window_ns=plan.slo.window_ns, history_days=days, max_share=plan.max_share,
            limit_status=plan.limit_status, min_days=MIN_HISTORY_DAYS,
            min_events=plan.slo.min_events, prob=c.base_prob,
            log_days=float(log_days[g]), log_events=int(log_events[g]),
            silent_lo=float(silent_lo[0][g]), hours=float(silent_lo[1][g])))
    return out


def _log_spans(srt: Any, plan: Plan) -> tuple[np.ndarray, np.ndarray]:
    """``(days, events)`` per group: the span from its first event to its last within the
    history (counted back from the log's last event), and its events there; what a longer
    window would evaluate (NaN days for a group without events there)."""
    cut = plan.log_times(srt.t)[1] - plan.history_ns
    days = np.full(srt.n_groups, np.nan)
    events = np.zeros(srt.n_groups, dtype=np.int64)
    for g, (s, e) in enumerate(zip(srt.bounds[:-1].tolist(), srt.bounds[1:].tolist(),
                                   strict=True)):
        t = srt.t[s:e]
        t = t[t >= cut]
        if len(t):
            days[g], events[g] = (int(t.max()) - int(t.min())) / DAY_NS, len(t)
    return days, events
