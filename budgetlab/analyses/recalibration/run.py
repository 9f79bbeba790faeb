"""The run of :func:`recalibrate`: its options checked once (:class:`RecalibrationOptions`), then
the steps in order, each in its own module of this package:

1. :mod:`.rolling`: the window's clock (:mod:`.clock`), the evaluated time, the rolling rate's
   quantiles;
2-5. :mod:`.levels` (with :mod:`.candidates` and :mod:`.rules`): events in the
   evaluated span, the candidate targets, the time at each status under each, the rule;
6-7. :mod:`.evidence` (with :mod:`.bootstrap` and :mod:`.rules`): thin evidence withheld, the
   block bootstrap, the verdict on the current target and the notes;
8. :mod:`.tables` (with :mod:`.pages`): the four tables.

Per-group SLOs run once per SLO, on its groups' rows (:func:`recalibrate_per_slo`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np
import pandas as pd

from ..._util.progress import ProgressBar
from ..._util.validation import options_object
from ..._util.words import duration_words, prose_duration
from ...alerts.policy import AlertPolicy
from ...errors import ConfigError
from ...events.schema import check_events, ts_ns
from ...slo import SLO, PerGroup, as_per_group
from ..per_group import need_group_keys, rows_by_slo
from ..sorted_events import Sorted, group_targets, sort_events
from .evidence import judge_groups
from .incidents import excluded_said, incident_rows, incidents_left_out, merged_said
from .levels import choose_targets, limit_quantiles
from .options import Plan, RecalibrationOptions
from .rolling import rolling_rates
from .tables import (
    QUANTILE_LEVELS,
    Recalibration,
    candidates_table,
    recalibration_attrs,
    sample_tables,
    summary_table,
)

__all__ = ["recalibrate"]


def recalibrate(
    events: pd.DataFrame,
    *,
    window: Any = None,
    history: Any = "28D",
    by: str | Sequence[str] | None = None,
    target: Any = None,
    slo: SLO | PerGroup | Mapping[Any, Any] | None = None,
    step: float = 0.005,
    max_share: float = RecalibrationOptions.max_share,
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
    options: RecalibrationOptions | None = None,
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
        Candidates are the usual targets
        (:data:`~budgetlab.analyses.recalibration.candidates.USUAL_TARGETS`:
        0.9, 0.95, 0.975, 0.99, 0.995, 0.999, 0.9995, 0.9999, and 0.85 ... 0.5 below) from the
        target at which a window at the group's ``p1`` (its ``max_share`` quantile for a
        ``max_share`` under 1 %) reaches ``limit_status`` (``p1`` itself at exhausted,
        ``1 - (1 - p1) / (1 - warning)`` at warning, with ``critical`` at critical;
        :func:`~budgetlab.analyses.recalibration.levels.limit_floor`) rounded down to
        the usual target strictly below it (from the lowest, 0.5, when it is at or below every
        one or with ``min_events``, whose hold makes the status no function of the rate) up to
        the first usual target above its observed rate, plus the fine steps between them;
        nothing below that range.
    max_share : float
        Largest share of time the recommended target may have spent at ``limit_status`` or worse
        (default 0.01, :class:`RecalibrationOptions`'s: the command's and notebook 01's too).
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
        Seed of the bootstrap: each group draws from its own ``np.random.default_rng``, seeded
        by ``seed`` and the group's key values
        (:func:`~budgetlab.analyses.recalibration.bootstrap.group_seeds`), so its samples do not
        depend on the other groups of the table.
    show_progress : bool, optional
        Progress bars: one over the steps (``recalibrate``) and the inner ones of the long steps
        (default: only on a terminal, as in the CLI; see :func:`budgetlab._util.progress.progress`).
    exclude_incidents : DataFrame, optional
        Labelled incidents (``start``, ``end``, optional ``scope``): the time of events inside an
        incident or within one window after its end, in the groups its scope covers, is left out
        of every time share, quantile and the rule (the windows still hold those events): the
        recommendation for normal operation. ``settings`` counts those that left out any.
    options : RecalibrationOptions, optional
        All of ``window`` ... ``show_progress`` as one checked object
        (:class:`~budgetlab.analyses.recalibration.RecalibrationOptions`); with it, leave those
        keywords at their defaults (a keyword given as well is refused, never silently dropped).

    Returns
    -------
    Recalibration
        ``summary``: one row per group: group keys, ``events`` and ``failures`` (in the evaluated
        span: traffic after warm-up), ``success_rate`` (over those events), ``ci_low``, ``ci_high``
        (Wilson score interval), ``hours`` (evaluated time), ``history_days`` (the same
        evaluated time in days, ``hours`` / 24: the history a recommendation needs
        :data:`MIN_HISTORY_DAYS` of; a silence holds none), ``span_days`` (calendar days from the
        group's first evaluated instant to its last, silences and later warm-ups included),
        ``traffic_days`` (day blocks with evaluated time),
        ``events_per_day`` (per 24 h of evaluated time, ``events`` / ``history_days``; not per
        day block of ``traffic_days``), ``window_events`` (time-weighted median of
        the events in a window), ``p1``, ``p5``, ``p10``, ``p50`` (time-weighted quantiles of the
        rolling-window success rate), ``window`` (the tracker window the group's targets were
        judged under, its own SLO's with per-group SLOs, as duration text that ``window=`` reads
        back exactly: ``1h``, ``1d``, ``7d``, ``1m30s``; a saved table keeps it for
        :func:`~budgetlab.slos_from_recalibration`),
        ``current_target``, ``current_share_limit`` (share of time at
        ``limit_status`` or worse under it), ``current_share_limit_silent`` (its part on a
        window held over a silence: :mod:`~budgetlab.analyses.window_silence`), ``verdict``
        (categorical ``too_strict``, ``ok``, ``too_loose``, ``withheld``: no current target, or
        evidence too thin), ``verdict_reason``,
        ``action`` (``loosen to ...``, ``keep ...``, ``tighten to ...``, ``use ...`` without a
        current target or where the verdict alone is withheld; empty when the recommendation is
        withheld too), ``recommended_target`` (NaN when no candidate meets
        the rule), ``recommended_low``, ``recommended_high`` (bootstrap interval),
        ``recommended_capped`` (True where the evidence capped the recommendation: the rule alone
        gives a higher target than the evaluated span's events can judge; the note says which),
        ``recommendation_note`` (why there is no recommendation and what would make one possible,
        with figures; the caveat of an evaluated history under :data:`MIN_HISTORY_DAYS`; or empty).
        ``candidates``: one row per group and shown target: group keys, ``target``, ``is_current``,
        ``is_recommended``, ``share_healthy``, ``share_warning``, ``share_critical``,
        ``share_exhausted``, ``hours_exhausted``, ``transitions_per_day``, ``pages_per_day``. Plus
        ``distribution``, ``bootstrap`` and ``settings`` (see :class:`Recalibration`). NaN only
        where documented: groups without evaluated time, ``n_boot=0``, no target, a verdict
        withheld (evidence too thin for the current target: its ``current_share_limit``; the
        recommendation is judged apart, at its own level, as without ``target``), and a group
        whose evidence is too thin for both (``verdict_reason`` says why): its figures over
        the evaluated time (:data:`~budgetlab.analyses.recalibration.tables.ESTIMATES`), its
        candidates' figures and its distribution are withheld; its counts and ``success_rate``
        (with its Wilson interval) stay.

    Examples
    --------
    >>> from budgetlab import synth
    >>> events, _ = synth.generate("2026-10-05", 8, seed=1, rate=0.2, incidents=None,
    ...                            session_ids=False)
    >>> r = recalibrate(events, by="captcha_type", target={"recaptcha_v2": 0.95, "turnstile": 0.88,
    ...                 "image": 0.88}, n_boot=50)
    >>> r.summary[["captcha_type", "success_rate", "p1", "recommended_target", "verdict"]]
       captcha_type  success_rate        p1  recommended_target     verdict
    0  recaptcha_v2      0.941062  0.931053               0.930  too_strict
    1     turnstile      0.979925  0.973684               0.970   too_loose
    2         image      0.906780  0.888740               0.885          ok
    >>> opts = RecalibrationOptions(n_boot=50)
    >>> same = recalibrate(events, by="captcha_type",
    ...                    target={"recaptcha_v2": 0.95, "turnstile": 0.88, "image": 0.88},
    ...                    options=opts)
    >>> same.summary.equals(r.summary)
    True
    """
    opts = options_object(RecalibrationOptions, options, {
        "window": window, "history": history, "step": step, "max_share": max_share,
        "limit_status": limit_status, "loose_burn": loose_burn, "candidates": candidates,
        "policy": policy, "confidence": confidence, "n_boot": n_boot, "block": block,
        "seed": seed, "show_progress": show_progress}, "RecalibrationOptions(n_boot=0)")

    def run(one: Any, rows: pd.DataFrame,
            log_span: tuple[int, int] | None = None) -> Recalibration:
        return _run(rows, replace(opts.plan(one), log_span=log_span), slo=one, by=by,
                    target=target, exclude_incidents=exclude_incidents)

    per = as_per_group(slo)
    return run(slo, events) if per is None else recalibrate_per_slo(events, per, by, run, target)


def _run(events: pd.DataFrame, plan: Plan, *, slo: Any, by: Any, target: Any,
         exclude_incidents: pd.DataFrame | None) -> Recalibration:
    """:func:`recalibrate` under one SLO (``plan``), a progress bar advancing a step at a time."""
    with ProgressBar(4, desc="recalibrate", enabled=plan.options.show_progress) as bar:
        srt = sort_events(events, by)
        current = current_targets(target, slo, srt, whole=plan.log_span is None)
        span_lo, span_hi = _evaluated_span(srt, plan)
        skip = None if exclude_incidents is None else incident_rows(srt, exclude_incidents,
                                                                    plan.slo.window_ns)
        probs = np.r_[0.01, 0.05, 0.10, 0.50, np.asarray(QUANTILE_LEVELS, dtype=np.float64)]
        rolling = rolling_rates(srt, plan.slo.window_ns, span_lo, span_hi, probs, skip)
        bar.update(1)
        c = choose_targets(srt, rolling, current, plan)
        bar.update(1)
        j = judge_groups(srt, rolling, c, current, plan)
        bar.update(1)
        key_cols = srt.keys
        summary = summary_table(key_cols, rolling, c, j, current, plan.slo.window)
        cand = candidates_table(key_cols, srt, rolling, c, j, current, plan)
        limit_q = limit_quantiles(rolling, plan.slo, plan.limit,
                                  np.asarray(QUANTILE_LEVELS, dtype=np.float64))
        dist, bt = sample_tables(key_cols, srt, rolling, j, limit_q)
        bar.update(1)
    settings = plan.settings(span_start=span_lo, span_end=span_hi, by=srt.by)
    settings["exclude_incidents"] = None if exclude_incidents is None else excluded_said(
        exclude_incidents, incidents_left_out(srt, exclude_incidents, plan.slo.window_ns,
                                              rolling, (span_lo, span_hi)))
    # no current target (no target=, no slo=): None, as an SLO would judge every group again
    settings["slo"] = (slo_used([plan.slo] * srt.n_groups, srt.keys, current)
                       if np.isfinite(current).any() else None)
    attrs = recalibration_attrs(settings, summary, plan.requested)
    for frame in (summary, cand, dist, bt):
        frame.attrs = dict(attrs)
    return Recalibration(summary=summary, candidates=cand, distribution=dist, bootstrap=bt,
                         settings=settings)


def _evaluated_span(srt: Sorted, plan: Plan) -> tuple[int, int]:
    """``(span_lo, span_hi)``: the history counted back from the last event, after the first
    window."""
    t_first, t_last = plan.log_times(srt.t)
    span_lo = max(t_last - plan.history_ns, t_first + plan.slo.window_ns)
    if span_lo >= t_last:  # the log is no longer than a window (history is always positive)
        first, last = (pd.Timestamp(t, tz="UTC") for t in (t_first, t_last))
        until = f"{last:%H:%M:%S}" if last.date() == first.date() else f"{last:%Y-%m-%d %H:%M:%S}"
        since = f"{first:%Y-%m-%d %H:%M:%S}"
        raise ConfigError(
            f"the events span {duration_words(pd.Timedelta(t_last - t_first))} ({since} .. "
            f"{until} UTC), no longer than the {prose_duration(plan.slo.window)} "
            "window: its first window is warm-up, which leaves nothing to evaluate; give a "
            "longer log or a shorter window=."
        )
    return span_lo, t_last


def recalibrate_per_slo(events: pd.DataFrame, per: PerGroup, by: Any,
                        run: Callable[..., Recalibration], target: Any = None) -> Recalibration:
    """``run`` (:func:`recalibrate` under one SLO) once per set of groups sharing an SLO, on those
    groups' rows, the tables put together in group order. Each run counts the log's time span
    (its first and last event, :meth:`~.options.Plan.log_times`) and a group's bootstrap draws
    depend on its own key (:func:`~.bootstrap.group_seeds`), so every group's rows equal those
    of a run over the whole table under its SLO. ``target`` (as in :func:`recalibrate`) is
    checked against every group here, as each run sees a part of them."""
    keys = check_events(events, by)
    if target is not None:
        current_targets(target, None, sort_events(events, keys), whole=True)
    t = ts_ns(events)
    log_span = (int(t.min()), int(t.max()))
    results: list[Recalibration] = []

    def tables(one: SLO, rows: pd.DataFrame) -> dict[str, pd.DataFrame]:
        results.append(run(one, rows, log_span))
        return {name: getattr(results[-1], name)
                for name in ("summary", "candidates", "distribution", "bootstrap")}

    merged = rows_by_slo(events, per, keys, tables)
    if len(results) == 1:
        return results[0]
    # by group, as sort_events orders them (rows_by_slo); the bootstrap by sample first
    boot = merged["bootstrap"]
    merged["bootstrap"] = boot.iloc[np.argsort(boot["sample"].to_numpy(), kind="stable")
                                    ].reset_index(drop=True)
    settings = dict(results[0].settings)
    # one window when every SLO has the same (targets differ per group), else none
    windows = {r.settings["window"] for r in results}
    summary = merged["summary"]
    used = per if target is None else slo_used(per.resolve(summary[list(keys)]),
                                               summary[list(keys)],
                                               summary["current_target"].to_numpy(float))
    settings.update(slo=used, window=windows.pop() if len(windows) == 1 else None,
                    exclude_incidents=merged_said([r.settings["exclude_incidents"]
                                                   for r in results]),
                    span_start=min(r.settings["span_start"] for r in results),
                    span_end=max(r.settings["span_end"] for r in results))
    attrs = recalibration_attrs(settings, summary, results[0].summary.attrs["candidates"])
    for frame in merged.values():
        frame.attrs = dict(attrs)
    return Recalibration(**merged, settings=settings)


def slo_used(slos: Sequence[SLO], keys: pd.DataFrame, current: np.ndarray) -> SLO | PerGroup:
    """The SLO the groups (``keys``, one row each) were judged under: each group's SLO
    (``slos``) with its current target (``target=`` overrides the SLO's), one :class:`SLO` when
    every group has the same, else a :class:`PerGroup`, so that ``settings["slo"]`` records what
    was used: ``recalibrate(events, slo=settings["slo"], ...)`` gives the same tables. Every
    group has a current target (``target=`` gives every group one, or is refused); a group
    without one is refused, never recorded under a target that judged nothing (:func:`_run`
    records ``None`` where no group has one).

    >>> keys = pd.DataFrame({"g": ["a", "b"]})
    >>> slo_used([SLO()] * 2, keys, np.array([0.999, 0.999])).target
    0.999
    >>> per = slo_used([SLO()] * 2, keys, np.array([0.99, 0.9]))
    >>> per.slo_for("a").target, per.slo_for("b").target
    (0.99, 0.9)
    """
    if not np.isfinite(np.asarray(current, dtype=np.float64)).all():
        raise ValueError("slo_used: a group without a current target")
    used = [s.with_(target=float(t)) for s, t in zip(slos, current, strict=True)]
    if len(set(used)) == 1:
        return used[0]
    return PerGroup({tuple(k): s for k, s in zip(keys.itertuples(index=False, name=None), used,
                                                 strict=True)}, base=slos[0])


def current_targets(target: Any, slo: Any, srt: Sorted, *, whole: bool = False) -> np.ndarray:
    """The current target of every group: ``target`` (number, table, mapping or :class:`PerGroup`),
    else ``slo`` (one SLO or per group), else NaN. ``whole``: ``srt`` is the whole log, so a
    ``target`` naming groups it does not have is warned of (:func:`group_targets`)."""
    source = slo if target is None else target
    if source is None:
        return np.full(srt.n_groups, np.nan)
    if isinstance(source, Mapping) and any(isinstance(v, SLO) for v in source.values()):
        source = PerGroup(source)
    if isinstance(source, PerGroup):
        need_group_keys(srt.by)
    return group_targets(source, srt.keys, srt.by, whole=whole and target is not None)
