"""Recalibration: which SLO target would the last weeks of history have supported?

The seed's common problems, as one function call: a budget that "burns too fast" means the
target is stricter than the conditions allow (recompute it from 2-4 weeks of history); a budget
that "barely moves" means it is too loose. :func:`recalibrate` replays the seed tracker over the
history for a grid of candidate targets and reports, per group, what each would have done.

**Status is a function of the window's burn rate** (see :mod:`budgetlab.budget.figures`): exhausted
when the window's failures reach ``total * (1 - target)``, i.e. when the rolling success rate
is at or below the target. So the share of time a target would have been exhausted is (up to
the seed's float arithmetic, which is reproduced exactly) the share of time the rolling success
rate sat at or below it, and the recommendation below is about the ``max_share`` quantile of
the rolling success rate, rounded down to the candidate grid.

**Candidates on the scale of nines.** Per group, the usual targets
(:data:`~budgetlab.analyses.recalibration_steps.USUAL_TARGETS`: 90, 95, 97.5, 99, 99.5, 99.9, 99.95,
99.99 %, and 85, 80, 75, 50 % below) from the ``p1`` rolling-window success rate rounded down to a
usual target, up to the first usual target above the observed rate, plus fine steps (``step``,
refined to 0.002, 0.001, ... where two usual targets are closer) between them; nothing below that
range.

**Recommendation rule** (its one home: :func:`~budgetlab.analyses.recalibration_steps.recommend`).
``recommended_target`` is the highest candidate in the group's range whose status would have been
``limit_status`` or worse (default ``exhausted``) for at most ``max_share`` of the evaluated time
(default 1 %). When none qualifies, ``recommendation_note`` says why, with figures (events a day,
events in a window, how far one failure moves the rate), and what would make a recommendation
possible (a longer window, ``min_events``, more history); a history shorter than
:data:`MIN_HISTORY_DAYS` makes the recommendation provisional (said in the same column).
:mod:`budgetlab.analyses.verdicts` turns the summary into sentences with their evidence.

**The evaluated span** of a group is its time with traffic after warm-up, on the window's own
clock (:mod:`budgetlab.analyses.clock_counts`, the statuses of :func:`budgetlab.status_spans`):
between events the window keeps moving, an event leaves it 1 ns after ``ts + window``, an empty
window is no traffic (no time in any status, never "burn 0"), and after it one window is warm-up
again. Events, success rate, quantiles, time shares and rates per day all count that span.

**Thin evidence and the verdict** (:mod:`budgetlab.analyses.recalibration_rules`): no verdict
and no recommendation below 10 expected failures under the target in question or 2 day blocks
with traffic (the reason in words); never a recommendation above ``1 - 10 / events``; ``too_strict``
only when the whole bootstrap interval lies below the current target (and it spent more than
``max_share`` at ``limit_status``), ``too_loose`` only when it lies wholly above (and the window
burn rate exceeded only 10 % of the time, ``(1 - p10) / (1 - target)``, is below ``loose_burn``,
default 0.25); else ``ok``; ``action`` says it ("loosen to 0.93", "keep 0.97", "tighten to 0.976").

**Uncertainty.** ``ci_low``/``ci_high`` is the Wilson score interval of the overall success
rate: it only knows the binomial noise of independent events, so it is narrow for a million
events. Day-to-day variation is in ``recommended_low``/``recommended_high``: a percentile
interval of a block bootstrap over days with traffic (whole day blocks of the status series,
drawn with replacement, the rule recomputed on each sample; a silent day is never drawn). Its coverage, measured by simulation
(``tests/analyses/test_recalibrate.py``: 4 weeks of independent outcomes at a known rate, 50 histories,
nominal 95 %): 1 h window, 1 % limit: 45/50; 6 h, 5 %: 47/50; but 24 h, 1 %: 32/50 and 24 h,
5 %: 44/50. Four weeks hold only 28 independent 24 h windows, too few to see a 1 % tail: the
estimate is biased upwards and its interval too narrow. For a 24 h window, prefer
``max_share=0.05`` or more history; the point recommendation is still within a tenth of a
percentage point there, well below the usual ``step``.

**Steps.** :func:`recalibrate` checks its options and runs the steps of
:mod:`budgetlab.analyses.recalibration_steps` in order, each a plain function on arrays that
can be called (and is tested) on its own; then it lays their results out as tables.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any

import numpy as np
import pandas as pd

from .._util.progress import ProgressBar
from .._util.validation import (
    check_argument,
    check_fraction,
    check_number,
    check_whole,
    to_timedelta,
)
from ..alerts.policy import AlertPolicy, as_policy
from ..budget.figures import STATUSES
from ..errors import ConfigError
from ..events.schema import check_events
from ..slo import SLO, PerGroup, as_per_group, key_text, split_by_slo
from .recalibration_evidence import MIN_HISTORY_DAYS, incident_rows, judge_groups
from .recalibration_pages import page_counts
from .recalibration_rules import supported_targets, widen_to_support
from .recalibration_steps import (
    DAY_NS,
    HOUR_NS,
    candidate_levels,
    candidate_targets,
    display_targets,
    history_counts,
    recommend,
    rolling_rates,
    target_range,
    time_at_levels,
    transitions_per_day,
)
from .sorted_events import group_targets, sort_events

__all__ = ["Recalibration", "recalibrate", "wilson_interval", "incident_rows", "QUANTILE_LEVELS",
           "MIN_HISTORY_DAYS"]


#: Probabilities of the ``distribution`` table (time-weighted quantiles of the rolling rate).
QUANTILE_LEVELS: tuple[float, ...] = (0.001, 0.002, 0.005, *(k / 100 for k in range(1, 100)), 0.995, 0.998, 0.999)
_VERDICTS = pd.CategoricalDtype(["too_strict", "ok", "too_loose"], ordered=False)


@dataclass(frozen=True)
class Recalibration:
    """The result of :func:`recalibrate`: four tidy tables and the settings used.

    Attributes
    ----------
    summary : DataFrame
        One row per group (see :func:`recalibrate`).
    candidates : DataFrame
        One row per group and candidate target.
    distribution : DataFrame
        Time-weighted quantiles of the rolling-window success rate: group keys,
        ``probability``, ``success_rate`` (the smallest rate ``r`` with at least that share of
        the time at or below ``r``).
    bootstrap : DataFrame
        Group keys, ``sample``, ``recommended_target``: the rule on each bootstrap sample.
    settings : dict
        ``window``, ``history``, ``span_start``, ``span_end``, ``step``, ``max_share``,
        ``limit_status``, ``loose_burn``, ``confidence``, ``n_boot``, ``block``, ``seed``,
        ``policy``, ``by``.
    """

    summary: pd.DataFrame
    candidates: pd.DataFrame
    distribution: pd.DataFrame
    bootstrap: pd.DataFrame
    settings: dict[str, Any] = field(default_factory=dict)


def wilson_interval(successes: Any, n: Any, confidence: float = 0.95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval for a binomial proportion (Wilson 1927; Newcombe 1998, method 3).

    ``center = (p + z²/2n) / (1 + z²/n)``, ``half = z / (1 + z²/n) * sqrt(p(1-p)/n + z²/4n²)``
    with ``z`` the ``(1 + confidence) / 2`` normal quantile. NaN where ``n == 0``. Exact at the
    edges: the interval always contains the observed ``p = successes / n``, ``k == 0`` has a lower
    bound of exactly 0 and ``k == n`` an upper bound of exactly 1 (the closed form gives both
    analytically; floats alone would give 2.8e-17 and 0.9999999999999999).

    >>> lo, hi = wilson_interval(81, 263)
    >>> round(float(lo), 4), round(float(hi), 4)
    (0.2553, 0.3662)
    >>> [float(x) for x in wilson_interval(42, 42)], float(wilson_interval(0, 10)[0])
    ([0.9162..., 1.0], 0.0)
    """
    confidence = check_fraction("confidence", confidence)
    k = np.asarray(successes, dtype=np.float64)
    m = np.asarray(n, dtype=np.float64)
    z = NormalDist().inv_cdf((1 + confidence) / 2)
    lo = np.full(np.broadcast(k, m).shape, np.nan)
    hi = lo.copy()
    ok = np.broadcast_to(m > 0, lo.shape)
    mm = np.broadcast_to(m, lo.shape)[ok]
    kk = np.broadcast_to(k, lo.shape)[ok]
    p = kk / mm
    denom = 1 + z * z / mm
    center = (p + z * z / (2 * mm)) / denom
    half = z / denom * np.sqrt(np.maximum(p * (1 - p) / mm + z * z / (4 * mm * mm), 0.0))
    low = np.where(kk <= 0, 0.0, np.clip(center - half, 0.0, p))
    high = np.where(kk >= mm, 1.0, np.clip(center + half, p, 1.0))
    lo[ok] = low
    hi[ok] = high
    return lo, hi


def _check_candidates(candidates: Any) -> np.ndarray | None:
    if candidates is None:
        return None
    vals = np.atleast_1d(np.asarray(candidates, dtype=np.float64))
    if vals.size == 0 or not np.all(np.isfinite(vals)) or np.any((vals <= 0) | (vals >= 1)):
        raise ConfigError("candidates must be targets strictly between 0 and 1, e.g. [0.9, 0.93, 0.95].")
    return np.unique(vals)


def recalibrate(
    events: pd.DataFrame,
    *,
    window: Any = None,
    history: Any = "28D",
    by: str | Sequence[str] | None = None,
    target: Any = None,
    slo: SLO | PerGroup | Mapping[Any, Any] | None = None,
    step: float = 0.005,
    max_share: float = 0.01,
    limit_status: str = "exhausted",
    loose_burn: float = 0.25,
    candidates: Sequence[float] | None = None,
    policy: AlertPolicy | str | None = None,
    confidence: float = 0.95,
    n_boot: int = 200,
    block: Any = "1D",
    seed: int = 0,
    show_progress: bool | None = None,
    exclude_incidents: pd.DataFrame | None = None,
) -> Recalibration:
    """Recommend a target per group from history, with what each candidate would have done.

    Parameters
    ----------
    events : DataFrame
        Canonical event table.
    window : duration, optional
        The tracker's window (default ``slo.window`` with ``slo``, else ``"24h"``).
    history : duration
        How much history to use, counted back from the last event (default 28 days). Events
        before it only fill the window; the first ``window`` of data is warm-up when nothing
        earlier exists. Time shares cover ``[span_start, span_end]`` (see ``settings``).
    by : str or list of str, optional
        Group keys (e.g. ``"captcha_type"``); one recommendation per group.
    target : float, DataFrame, mapping or PerGroup, optional
        The current target per group (overrides ``slo.target``), for the verdict; see
        :func:`budgetlab.analyses.sorted_events.group_targets` (a :class:`~budgetlab.PerGroup`
        gives each group its SLO's target). Without ``target`` and ``slo`` the verdict is
        missing (``current_target`` NaN).
    slo : SLO or PerGroup, optional
        Current SLO: target, window, warning/critical thresholds and ``min_events``. Per group
        (a :class:`~budgetlab.PerGroup` or a mapping to SLOs), each group's rows equal the
        one-SLO run of the whole table under that group's SLO (the history is the table's for
        every group), put together in group order.
    step : float
        The fine step of the candidate grid near the recommendation (default 0.005, half a
        percentage point), refined to 0.002, 0.001, ... where two usual targets are closer.
        Candidates are the usual targets (:data:`~budgetlab.analyses.recalibration_steps.USUAL_TARGETS`:
        0.9, 0.95, 0.975, 0.99, 0.995, 0.999, 0.9995, 0.9999, and 0.85 ... 0.5 below) from the
        group's ``p1`` rounded down to a usual target up to the first usual target above its
        observed rate, plus the fine steps between them; nothing below that range.
    max_share : float
        Largest share of time the recommended target may have spent at ``limit_status`` or worse.
    limit_status : {"exhausted", "critical", "warning"}
        The status the rule limits.
    loose_burn : float
        The ``too_loose`` threshold on the 90th-percentile window burn rate.
    candidates : sequence of float, optional
        Targets to report in ``candidates`` (default: the usual targets in each group's range and
        the fine steps between the usual targets around its recommendation); the current and
        recommended targets are always included.
    policy : AlertPolicy, optional
        For ``pages_per_day`` (default :meth:`AlertPolicy.workbook` for the SLO's ``period``, 30
        days unless set): notifications of its ``page``/``critical`` tiers (all tiers if it has
        none), OR-ed per group. A given policy keeps its own period; a preset name such as
        ``"workbook"`` is built for the SLO's ``period``.
    confidence : float
        Level of both intervals (default 0.95).
    n_boot : int
        Bootstrap samples (0 skips the bootstrap: ``recommended_low``/``high`` are NaN).
    block : duration
        Bootstrap block length in whole days (default one day).
    seed : int
        Seed of the bootstrap's ``np.random.default_rng``.
    show_progress : bool, optional
        Progress bars: one over the steps (``recalibrate``) and the inner ones of the long steps
        (default: only on a terminal, as in the CLI; see :func:`budgetlab._util.progress.progress`).
    exclude_incidents : DataFrame, optional
        Labelled incidents (``start``, ``end``, optional ``scope``): the time of events inside an
        incident or within one window after its end, in the groups its scope covers, is left out
        of every time share, quantile and the rule (the windows still hold those events): the
        recommendation for normal operation.

    Returns
    -------
    Recalibration
        ``summary``: one row per group: group keys, ``events`` and ``failures`` (in the
        evaluated span: traffic after warm-up), ``success_rate`` (over those events), ``ci_low``,
        ``ci_high`` (Wilson score interval), ``hours`` (evaluated time), ``history_days`` (from
        the group's first evaluated instant to its last), ``traffic_days`` (day blocks with
        evaluated time), ``events_per_day`` (per day of evaluated time), ``window_events``
        (time-weighted median of the events in a window), ``p1``, ``p5``, ``p10``, ``p50`` (time-weighted quantiles of
        the rolling-window success rate), ``current_target``, ``current_share_limit`` (share of
        time at ``limit_status`` or worse under it), ``verdict`` (categorical ``too_strict``,
        ``ok``, ``too_loose``; missing without a current target or when withheld), ``verdict_reason``,
        ``action`` (``loosen to ...``, ``keep ...``, ``tighten to ...``, ``use ...`` without a
        current target; empty when withheld),
        ``recommended_target`` (NaN when no candidate meets the rule), ``recommended_low``,
        ``recommended_high`` (bootstrap interval), ``recommendation_note`` (why there is no
        recommendation and what would make one possible, with figures; the caveat of a history
        shorter than :data:`MIN_HISTORY_DAYS`; else empty).
        ``candidates``: one row per group and shown target: group keys, ``target``, ``is_current``,
        ``is_recommended``, ``share_healthy``, ``share_warning``, ``share_critical``,
        ``share_exhausted``, ``hours_exhausted``, ``transitions_per_day``, ``pages_per_day``.
        Plus ``distribution``, ``bootstrap`` and ``settings`` (see :class:`Recalibration`).
        NaN only where documented: groups without evaluated time, ``n_boot=0``, no target.

    Examples
    --------
    >>> from budgetlab import synth
    >>> events, _ = synth.generate("2026-10-05", 8, seed=1, rate=0.2, incidents=None, session_ids=False)
    >>> r = recalibrate(events, by="captcha_type", target={"recaptcha_v2": 0.95, "turnstile": 0.88,
    ...                 "image": 0.88}, n_boot=50)
    >>> r.summary[["captcha_type", "success_rate", "p1", "recommended_target", "verdict"]]
       captcha_type  success_rate        p1  recommended_target     verdict
    0  recaptcha_v2      0.941062  0.931053               0.930  too_strict
    1     turnstile      0.979925  0.973684               0.970   too_loose
    2         image      0.906780  0.888740               0.885          ok
    """
    per = as_per_group(slo)
    if per is not None:
        return _recalibrate_per_slo(events, per, dict(
            window=window, history=history, by=by, target=target, step=step, max_share=max_share,
            limit_status=limit_status, loose_burn=loose_burn, candidates=candidates, policy=policy,
            confidence=confidence, n_boot=n_boot, block=block, seed=seed, show_progress=show_progress,
            exclude_incidents=exclude_incidents))
    opts = _Options.check(slo=slo, window=window, history=history, step=step, max_share=max_share,
                          limit_status=limit_status, loose_burn=loose_burn, confidence=confidence, n_boot=n_boot,
                          block=block, policy=policy, candidates=candidates)
    with ProgressBar(4, desc="recalibrate", enabled=show_progress) as bar:
        return _recalibrate_one(events, opts, by=by, target=target, slo=slo, seed=seed,
                                limit_status=limit_status, show_progress=show_progress,
                                exclude_incidents=exclude_incidents, bar=bar)


def _recalibrate_one(events: pd.DataFrame, opts: _Options, *, by: Any, target: Any, slo: Any, seed: int,
                     limit_status: str, show_progress: bool | None, exclude_incidents: pd.DataFrame | None,
                     bar: ProgressBar) -> Recalibration:
    """:func:`recalibrate` under one SLO, its checked options ``opts``; ``bar`` advances a step at a time."""
    srt = sort_events(events, by)
    current = _current_targets(target, slo, srt)
    t_first, t_last = int(srt.t.min()), int(srt.t.max())
    hist_lo = t_last - opts.history_ns
    span_lo = max(hist_lo, t_first + opts.slo.window_ns)
    if span_lo >= t_last:
        raise ConfigError(
            "the history holds less than one window after its warm-up; give more history (history=, more "
            "data) or a shorter window."
        )

    probs = np.asarray(QUANTILE_LEVELS, dtype=np.float64)
    skip = None if exclude_incidents is None else incident_rows(srt, exclude_incidents, opts.slo.window_ns)
    rolling = rolling_rates(srt, opts.slo.window_ns, span_lo, t_last, np.r_[0.01, 0.05, 0.10, 0.50, probs], skip)
    bar.update(1)
    has_time = rolling.has_time
    n_ev, n_ok, rate = history_counts(srt, rolling)
    ci_low, ci_high = wilson_interval(n_ok, n_ev, opts.confidence)
    p1, p5, p10, p50 = (rolling.quantiles[:, k] for k in range(4))
    lo_t, hi_t = target_range(p1, rate)
    lo_t = widen_to_support(lo_t, n_ev)
    grid, cands, grid_idx, in_range = candidate_targets(opts.step, lo_t, hi_t, current, opts.requested)
    levels = candidate_levels(rolling, cands, opts.slo)
    time = time_at_levels(rolling, levels, len(cands))
    lim_share = time.share_ge[opts.limit - 1]
    bar.update(1)
    uncapped = recommend(lim_share, grid, grid_idx, opts.max_share, has_time, in_range)
    supported = supported_targets(n_ev, grid, in_range)
    recommended = recommend(lim_share, grid, grid_idx, opts.max_share, has_time, supported)
    j = judge_groups(srt=srt, rolling=rolling, time=time, n_ev=n_ev, current=current, lo_t=lo_t, p1=p1, p10=p10,
                     grid=grid, grid_idx=grid_idx, cands=cands, lim_share=lim_share, uncapped=uncapped,
                     recommended=recommended, supported=supported, opts=opts, seed=seed, limit_status=limit_status,
                     show_progress=show_progress)
    evidence, recommended, rec_low, rec_high, boot = j.evidence, j.recommended, j.rec_low, j.rec_high, j.boot
    cur_share, verdicts, reasons, actions, notes = j.cur_share, j.verdicts, j.reasons, j.actions, j.notes
    bar.update(1)

    key_cols = srt.keys.reset_index(drop=True) if srt.by else pd.DataFrame(index=pd.RangeIndex(1))
    summary = _with_columns(key_cols, {
        "events": n_ev.astype(np.int64), "failures": (n_ev - n_ok).astype(np.int64), "success_rate": rate,
        "ci_low": ci_low, "ci_high": ci_high, "hours": rolling.w_group / HOUR_NS,
        "history_days": evidence["history_days"], "traffic_days": evidence["traffic_days"].astype(np.int64),
        "events_per_day": evidence["events_per_day"],
        "window_events": evidence["window_events"], "p1": p1, "p5": p5, "p10": p10, "p50": p50,
        "current_target": current, "current_share_limit": cur_share,
        "verdict": pd.Categorical(verdicts, dtype=_VERDICTS), "verdict_reason": reasons, "action": actions,
        "recommended_target": recommended, "recommended_low": rec_low, "recommended_high": rec_high,
        "recommendation_note": notes})

    show_vals, shown = display_targets(grid, in_range, opts.requested, current, recommended)
    sidx = np.searchsorted(cands, show_vals)
    tr_day = transitions_per_day(rolling, levels, sidx, show_progress)
    pages = np.zeros((srt.n_groups, len(show_vals)))
    np.divide(page_counts(srt, opts.policy, rolling, show_vals, show_progress), (rolling.w_group / DAY_NS)[:, None],
              out=pages, where=has_time[:, None])
    ge = [s[:, sidx] for s in time.share_ge]
    shares = [1 - ge[0], ge[0] - ge[1], ge[1] - ge[2], ge[2]]
    per_target = {**{f"share_{s}": np.clip(x, 0.0, 1.0) for s, x in zip(STATUSES, shares, strict=True)},
                  "hours_exhausted": time.at_least[2].sum(axis=1)[:, sidx] / HOUR_NS,
                  "transitions_per_day": tr_day, "pages_per_day": pages}
    cand = _candidates_table(key_cols, srt.by, show_vals, shown, current, recommended, per_target)
    groups = np.arange(srt.n_groups)
    dist = _with_columns(_key_rows(key_cols, srt.by, np.repeat(groups, len(probs))), {
        "probability": np.tile(probs, srt.n_groups), "success_rate": rolling.quantiles[:, 4:].ravel()})
    bt = _with_columns(_key_rows(key_cols, srt.by, np.tile(groups, opts.n_boot)), {
        "sample": np.repeat(np.arange(opts.n_boot), srt.n_groups), "recommended_target": boot.ravel()})
    for frame in (summary, cand, dist, bt):
        frame.attrs["by"] = list(srt.by)
    bar.update(1)
    settings = opts.settings(span_start=span_lo, span_end=t_last, seed=seed, by=srt.by)
    return Recalibration(summary=summary, candidates=cand, distribution=dist, bootstrap=bt, settings=settings)


def _recalibrate_per_slo(events: pd.DataFrame, per: PerGroup, kw: dict[str, Any]) -> Recalibration:
    """:func:`recalibrate` once per set of groups sharing an SLO, the tables put together in group order."""
    keys = check_events(events, kw["by"])
    parts = split_by_slo(events, per, keys)
    if len(parts) == 1:
        return recalibrate(events, slo=parts[0][0], **kw)
    # each SLO runs over the whole table (the history span is the table's, as in a one-SLO run),
    # and keeps the rows of its own groups
    results = [recalibrate(events, slo=s, **kw) for s, _ in parts]
    mine = [{key_text(k) for k in events.iloc[pos][keys].drop_duplicates().itertuples(index=False, name=None)}
            for _, pos in parts]
    tables = {}
    for name in ("summary", "candidates", "distribution", "bootstrap"):
        picked = []
        for r, groups in zip(results, mine, strict=True):
            frame = getattr(r, name)
            rows = [key_text(k) in groups for k in frame[keys].itertuples(index=False, name=None)]
            picked.append(frame[np.asarray(rows, dtype=bool)])
        frame = pd.concat(picked, ignore_index=True)
        order = _group_sort(frame, keys, name)
        frame = frame.iloc[order].reset_index(drop=True)
        frame.attrs["by"] = list(keys)
        tables[name] = frame
    settings = dict(results[0].settings)
    settings.update(slo=per, window=None, span_start=min(r.settings["span_start"] for r in results),
                    span_end=max(r.settings["span_end"] for r in results))
    return Recalibration(summary=tables["summary"], candidates=tables["candidates"],
                         distribution=tables["distribution"], bootstrap=tables["bootstrap"], settings=settings)


def _group_sort(frame: pd.DataFrame, keys: Sequence[str], name: str) -> np.ndarray:
    """Row order of a table put together from parts: by group (the order ``sort_events`` gives:
    sorted key values), then the table's own order inside a group (stable)."""
    codes = frame.groupby(list(keys), sort=True, dropna=False, observed=True).ngroup().to_numpy()
    inner = frame["sample"].to_numpy() if name == "bootstrap" else np.zeros(len(frame), dtype=np.int64)
    return np.lexsort((np.arange(len(frame)), codes, inner) if name == "bootstrap"
                      else (np.arange(len(frame)), codes))


def _current_targets(target: Any, slo: Any, srt: Any) -> np.ndarray:
    """The current target of every group: ``target`` (number, table, mapping or :class:`PerGroup`),
    else ``slo`` (one SLO or per group), else NaN."""
    source = slo if target is None else target
    if source is None:
        return np.full(srt.n_groups, np.nan)
    per = as_per_group(source) if isinstance(source, PerGroup) else None
    if per is None and isinstance(source, Mapping) and any(isinstance(v, SLO) for v in source.values()):
        per = PerGroup(source)
    if per is not None:
        if not srt.by:
            raise ConfigError("per-group SLOs need group keys; pass by=... naming the columns they are keyed by.")
        return np.array([s.target for s in per.resolve(srt.keys[list(srt.by)])], dtype=np.float64)
    return group_targets(source, srt.keys, srt.by)


def _candidates_table(key_cols: pd.DataFrame, by: Sequence[str], targets: np.ndarray, shown: np.ndarray,
                      current: np.ndarray, recommended: np.ndarray, per_target: dict[str, np.ndarray]) -> pd.DataFrame:
    """One row per group and shown target (``shown``: groups x targets): the target, whether it
    is the group's current or recommended one, and the ``(groups, targets)`` arrays of ``per_target``."""
    rows, cols = np.nonzero(shown)
    cand = _with_columns(_key_rows(key_cols, by, rows), {
        "target": targets[cols], "is_current": targets[cols] == current[rows],
        "is_recommended": targets[cols] == recommended[rows]})
    for name, arr in per_target.items():
        cand[name] = arr[rows, cols]
    return cand


def _key_rows(key_cols: pd.DataFrame, by: Sequence[str], rows: np.ndarray) -> pd.DataFrame:
    """The group keys of the groups at ``rows`` (no columns without groups)."""
    if not by:
        return pd.DataFrame(index=pd.RangeIndex(len(rows)))
    return key_cols.iloc[rows].reset_index(drop=True)


def _with_columns(keys: pd.DataFrame, columns: dict[str, Any]) -> pd.DataFrame:
    """``keys`` with ``columns`` added in order."""
    out = keys.copy()
    for name, values in columns.items():
        out[name] = values
    return out


@dataclass(frozen=True)
class _Options:
    """:func:`recalibrate`'s options, checked (the SLO with the window replayed)."""

    slo: SLO
    history_ns: int
    step: float
    max_share: float
    limit: int
    loose_burn: float
    confidence: float
    n_boot: int
    block_ns: int
    policy: AlertPolicy
    requested: np.ndarray | None

    @classmethod
    def check(cls, *, slo: Any, window: Any, history: Any, step: float, max_share: float,
              limit_status: str, loose_burn: float, confidence: float, n_boot: int, block: Any,
              policy: AlertPolicy | str | None, candidates: Any) -> _Options:
        if slo is not None and not isinstance(slo, SLO):
            raise ConfigError("slo must be an SLO, e.g. SLO(target=0.95, window='24h').")
        if window is None:
            window_td = slo.window if slo is not None else to_timedelta("24h")
        else:
            window_td = to_timedelta(window, name="window")
            if slo is not None and window_td != slo.window:
                raise ConfigError("window= differs from slo.window; give one of them.")
        base = (slo if slo is not None else SLO()).with_(window=window_td)
        hist_ns = int(to_timedelta(history, name="history").value)
        step = check_fraction("step", step)
        if step > 0.1:
            raise ConfigError(f"step={step!r} is too coarse; use e.g. 0.005 or 0.001.")
        max_share = check_fraction("max_share", max_share, high_open=False)
        check_argument("limit_status", limit_status, STATUSES[1:])
        check_number("loose_burn", loose_burn, low=0.0, low_open=False)
        confidence = check_fraction("confidence", confidence)
        n_boot = check_whole("n_boot", n_boot)
        block_ns = int(to_timedelta(block, name="block").value)
        if block_ns % DAY_NS:
            raise ConfigError(f"block={block!r} must be a whole number of days (e.g. '1D', '2D').")
        policy = as_policy(policy, default=AlertPolicy.workbook(base.period), period=base.period)
        return cls(slo=base, history_ns=hist_ns, step=step, max_share=max_share, limit=STATUSES.index(limit_status),
                   loose_burn=float(loose_burn), confidence=confidence, n_boot=n_boot, block_ns=block_ns,
                   policy=policy, requested=_check_candidates(candidates))

    def settings(self, *, span_start: int, span_end: int, seed: int, by: Sequence[str]) -> dict[str, Any]:
        """:attr:`Recalibration.settings`."""
        return {
            "window": pd.Timedelta(self.slo.window), "history": pd.Timedelta(self.history_ns, unit="ns"),
            "span_start": pd.Timestamp(span_start, tz="UTC"), "span_end": pd.Timestamp(span_end, tz="UTC"),
            "step": self.step, "max_share": self.max_share, "limit_status": STATUSES[self.limit],
            "loose_burn": self.loose_burn, "confidence": self.confidence, "n_boot": self.n_boot,
            "block": pd.Timedelta(self.block_ns, unit="ns"), "seed": seed, "policy": self.policy, "by": list(by),
            "slo": self.slo,
        }
