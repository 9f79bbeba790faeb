"""Latency recalibration: which (threshold, target) pairs would the history have supported?

For each threshold ``t`` the latency SLI counts an attempt good when it succeeded within ``t`` (a
success slower than ``t`` is a failure, as ``read_events(..., slow_above=t)`` makes it). For each
candidate target the seed tracker runs on the window's own clock (:func:`budgetlab.status_spans`),
and the **rule** is the one of :func:`budgetlab.recalibrate` read on time: the share of observed
time after warm-up (no-traffic time and each traffic stretch's first window left out) during which
the status was ``limit_status`` or worse (default ``critical``: critical or exhausted). A target is
supported when that share is at most ``max_share``; the **supported target** of a threshold is the
highest supported candidate. Its interval is a day-block bootstrap: the group's whole days (24 h
blocks from the log's first event, not UTC midnights) with observed time (their status time; a
day of warm-up or silence holds no evidence and is never drawn) drawn with replacement, the rule
recomputed on each sample, percentiles of the supported target (a sample that supports no
candidate counts as below the grid), taken as :func:`budgetlab.recalibrate` takes them: each
bound is a candidate, never a value between two. A supported target from under 14 days of
evaluated history (observed time after warm-up: a silence holds none) is provisional, said in
``note`` as :func:`budgetlab.recalibrate` says it.

**Thin evidence** is withheld, in words, by :func:`budgetlab.recalibrate`'s rule
(:func:`~budgetlab.analyses.recalibration.rules.thin_evidence`): a candidate under which the
group's events in the evaluated span hold fewer than 10 expected failures is never supported;
a group with fewer than 2 of those days with traffic (with a bootstrap: ``n_boot=0`` leaves that
rule out, as :func:`budgetlab.recalibrate` does), or under 24 h of observed time after warm-up
(its ``observed_time``, the evaluated time :func:`budgetlab.recalibrate` counts; the one rule of
:func:`budgetlab._util.thin.too_thin`), gets no supported target, the reason in ``note``. Under
24 h (or none) no verdict at all, "missed" included, and no ``limit_share``: one rule with
:func:`budgetlab.recalibrate`, :mod:`~budgetlab.analyses.recalibration.thin_time`.

**Frontier**: for each candidate target, the smallest threshold the history supports.

**At or above the client timeout** (the timeout in force, as in
:func:`~budgetlab.analyses.latency_profile.group_timeouts`) the latency SLI equals
availability (every success ended before the timeout): said in ``note``. What a *longer*
timeout would have done is not in the data (the cut attempts' durations are unknown beyond it):
see :func:`~budgetlab.analyses.timeout_tradeoff.timeout_tradeoff`, which refuses it.

**Per-group SLOs** (a :class:`~budgetlab.PerGroup` or a mapping), as in
:func:`budgetlab.recalibrate`: one run per set of groups sharing an SLO, on those groups' rows;
the history span, its days and the default thresholds are the whole table's, and each group
draws its bootstrap samples from its own generator, so a group's rows equal those of a run over
the whole table under its SLO. ``summary`` says each group's ``window`` and ``current_target``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from .._util.attrs import span_attrs
from .._util.durations import duration_label, to_ns
from .._util.ratios import ratio
from .._util.units import DAY_NS, HOUR_NS
from .._util.validation import as_list, check_argument, check_fraction, check_whole
from ..budget.figures import STATUSES
from ..budget.spans import status_spans
from ..errors import ConfigError
from ..events.schema import check_events, ts_ns
from ..slo import SLO, PerGroup, as_per_group, as_slo
from .latency_clock import (
    caveat_short_history,
    day_times,
    evaluated_group_events,
    history_days,
    no_time_instants,
)
from .latency_profile import (
    NO_TIMEOUT,
    attempt_durations,
    group_timeouts,
    parse_thresholds,
    timeouts_in_force,
)
from .latency_supported import frontier_table, support_note, supported_targets, withhold_thin
from .latency_thin import say_missed, thin_reasons, time_reasons
from .per_group import need_group_keys, rows_by_slo
from .recalibration.bootstrap import block_weights, bootstrap_interval, group_seeds
from .recalibration.candidates import USUAL_TARGETS
from .tables_repr import tables_repr

__all__ = ["LatencyRecalibration", "latency_recalibrate", "DEFAULT_QUANTILES",
           "default_thresholds"]

#: The success-duration quantiles that make the default thresholds.
DEFAULT_QUANTILES = (0.5, 0.75, 0.9, 0.95, 0.99)


@dataclass(frozen=True)
class LatencyRecalibration:
    """What :func:`latency_recalibrate` returns: ``table``, ``summary``, ``frontier``."""

    table: pd.DataFrame
    summary: pd.DataFrame
    frontier: pd.DataFrame

    def __repr__(self) -> str:
        return tables_repr("LatencyRecalibration", {"table": self.table, "summary": self.summary,
                                                    "frontier": self.frontier})


def latency_recalibrate(events: pd.DataFrame, *, slo: SLO | PerGroup | Mapping[Any, Any],
                        thresholds: Any = None,
                        by: str | Sequence[str] | None = None,
                        candidates: Sequence[float] | None = None,
                        max_share: float = 0.01, limit_status: str = "critical",
                        client_timeout: Any = None,
                        confidence: float = 0.95, n_boot: int = 200,
                        seed: int = 0) -> LatencyRecalibration:
    """The supported target of each latency threshold, and the frontier (see the module doc).

    Parameters
    ----------
    events : DataFrame
        Canonical events with a ``duration`` column.
    slo : SLO, PerGroup or mapping
        Its window, status thresholds and ``min_events`` (its target is the ``current_target``
        reported, not a candidate). Per group: a :class:`~budgetlab.PerGroup` or a mapping of
        group keys to SLOs or targets (needs ``by``); each group is judged under its own SLO.
    thresholds : list of durations, optional
        Default: the :data:`DEFAULT_QUANTILES` of the successes' durations, rounded up to 0.1 s.
    by : str or list of str, optional
        Group keys.
    candidates : list of float, optional
        Candidate targets; default
        :data:`~budgetlab.analyses.recalibration.candidates.USUAL_TARGETS`
        up to 99.9 %.
    max_share, limit_status, confidence, n_boot, seed
        The rule and its bootstrap interval. Each group draws from its own
        ``np.random.default_rng``, seeded by ``seed`` and the group's key values
        (:func:`~budgetlab.analyses.recalibration.bootstrap.group_seeds`), so its interval does
        not depend on the other groups of the table. ``n_boot=0`` skips the bootstrap, as in
        :func:`budgetlab.recalibrate`: ``supported_low`` and ``supported_high`` are NaN.
    client_timeout : duration, optional
        The timeout in force when the log does not show it.

    Returns
    -------
    LatencyRecalibration
        ``table``: the group keys, ``threshold`` (timedelta64[ns]), ``target`` (float64),
        ``limit_share`` (float64: share of observed time after warm-up at ``limit_status`` or
        worse; NaN for a group with no observed time or under 24 h of it, withheld with the
        verdict as :func:`budgetlab.recalibrate`'s ``current_share_limit``: the frontier's
        ``withheld`` ``"no_time"`` / ``"too_little_time"`` and the notes say why),
        ``observed_time`` (timedelta64[ns]),
        ``supported`` (bool). ``summary``: the group
        keys, ``threshold``, ``supported_target``, ``supported_low``, ``supported_high`` (float64;
        NaN when below the grid, said in ``note``; a ``supported_high`` beside no supported
        target is what some resampled histories support, also said there),
        ``equals_availability`` (bool), ``note`` (str;
        a supported target from under 14 days of evaluated history is "provisional: ...", in
        :func:`budgetlab.recalibrate`'s words),
        ``window`` (timedelta64[ns]) and ``current_target`` (float64): the group's SLO.
        ``frontier``: the group keys, ``target``, ``smallest_threshold`` (timedelta64[ns]; NaT when
        no threshold supports it, said in ``note``), ``note``, ``withheld`` (str: which rule of
        the thin evidence keeps the target off the frontier,
        :func:`~budgetlab.analyses.recalibration.rules.thin_kind`'s ``"too_few_events"``,
        ``"too_few_days"``, ``"too_little_time"``, ``"no_time"``; empty where the evidence can
        judge it) and ``events`` (int64: the group's events in the evaluated span).
        The three tables' ``attrs``: ``slo`` (as given; :func:`budgetlab.table_slo` rebuilds
        it), ``by``, ``start`` and ``end`` (the log's first and last event), ``max_share``,
        ``limit_status``, ``confidence``, ``n_boot``, ``seed``, ``candidates`` and
        ``client_timeout`` (duration text; ``None``: read from the log).
    """
    keys = check_events(events, as_list(by))
    per = as_per_group(slo)
    if per is None and not isinstance(slo, SLO):
        raise ConfigError("slo= must be an SLO, a PerGroup or a mapping of group keys to SLOs, "
                          f"not {type(slo).__name__}.")
    check_argument("limit_status", limit_status, STATUSES[1:])
    if per is not None:
        keys = need_group_keys(keys)
    rule = _Rule(max_share=check_fraction("max_share", max_share),
                 limit=list(STATUSES[STATUSES.index(limit_status):]),
                 confidence=check_fraction("confidence", confidence),
                 n_boot=check_whole("n_boot", n_boot),  # recalibrate's rule: 0 is none
                 cands=_candidates(candidates), seed=seed, client_timeout=client_timeout)
    dur = attempt_durations(events)
    thr = default_thresholds(events) if thresholds is None else parse_thresholds(thresholds)
    t = ts_ns(events)
    span = (int(t[0]), int(t[-1])) if len(t) else (0, 0)  # the log's first and last event
    if per is None:
        out = _recalibrate(events, as_slo(slo), keys, dur, thr, span, rule)
    else:
        if client_timeout is not None:  # refused for the whole log's successes, as in one run
            group_timeouts(events, keys, dur, client_timeout)
        out = LatencyRecalibration(**rows_by_slo(events, per, keys, lambda one, rows: vars(
            _recalibrate(rows, one, keys, attempt_durations(rows), thr, span, rule))))
    attrs = _attrs(as_slo(slo) if per is None else per, keys, events, rule)
    for table in (out.table, out.summary, out.frontier):
        table.attrs = dict(attrs)
    return out


def _attrs(slo: SLO | PerGroup, keys: list[str], events: pd.DataFrame,
           rule: _Rule) -> dict[Any, Any]:
    """The tables' ``attrs``: ``slo``, ``by``, the span counted (``start`` .. ``end``, the log's
    first and last event) and the rule's options (``client_timeout`` as duration text)."""
    given = (None if rule.client_timeout is None else
             duration_label(pd.Timedelta(to_ns(rule.client_timeout, name="client_timeout"))))
    return {"slo": slo.as_dict(), "by": list(keys), **span_attrs(events["ts"]),
            "max_share": rule.max_share, "limit_status": rule.limit[0],
            "confidence": rule.confidence, "n_boot": rule.n_boot, "seed": rule.seed,
            "candidates": [float(c) for c in rule.cands], "client_timeout": given}


@dataclass(frozen=True)
class _Rule:
    """The checked options of :func:`latency_recalibrate` besides the SLO and the thresholds."""

    max_share: float
    limit: list[str]
    confidence: float
    n_boot: int
    cands: np.ndarray
    seed: int
    client_timeout: Any


def _recalibrate(events: pd.DataFrame, slo: SLO, keys: list[str], dur: np.ndarray, thr: list[int],
                 span: tuple[int, int], rule: _Rule) -> LatencyRecalibration:
    """:func:`latency_recalibrate` under one SLO, ``dur`` the events' durations (ns); ``thr``
    (ns) and ``span`` (the log's first and last event, ns: the status spans' observation and the
    day grid) are the whole log's, so that a run over some of its groups gives them the rows of
    a run over the whole log."""
    cands = rule.cands
    censoring, current, gcodes, row_to = timeouts_in_force(events, keys, dur, rule.client_timeout)
    in_time = (row_to == NO_TIMEOUT) | (dur <= row_to)
    base = events[["ts", *keys]].copy()
    ok = events["ok"].to_numpy(dtype=bool) & in_time
    t0 = span[0]
    n_days = max(1, -(-(span[1] - t0 + 1) // DAY_NS)) if len(events) else 1
    start, end = (pd.Timestamp(x, tz="UTC") for x in span)
    days = span_days = np.zeros(len(censoring))
    instants = no_time_instants(events, gcodes, len(censoring), slo.window_ns, span)
    bad = np.zeros((len(censoring), len(thr), len(cands), n_days))
    obs = np.zeros_like(bad)
    for i, t in enumerate(thr):  # a loop over thresholds x candidates, each a vectorized replay
        base["ok"] = ok & (dur <= t)
        for j, c in enumerate(cands):
            spans = status_spans(base, replace(slo, target=float(c)), by=keys or None, start=start,
                                 end=end)
            b, o = day_times(spans, rule.limit, t0, n_days, keys, censoring, instants)
            if i == j == 0:  # the evaluated span does not depend on the threshold or target
                days, span_days = history_days(spans, keys, censoring, instants)
            bad[:, i, j], obs[:, i, j] = b, o
    n_ev = evaluated_group_events(events, gcodes, len(censoring), slo.window_ns)
    # per threshold, the evaluated events it fails (slower, or failed): a miss they decide
    slow = np.stack([evaluated_group_events(events, gcodes, len(censoring), slo.window_ns,
                                            counted=~(ok & (dur <= t))) for t in thr], axis=-1)
    # the observed time after warm-up does not depend on the threshold or target either
    days_on, held = (obs[:, 0, 0] > 0).sum(-1), obs[:, 0, 0].sum(-1)
    why, kinds = thin_reasons(n_ev, days_on, held, cands,
                              bootstrap=rule.n_boot > 0, window_ns=slo.window_ns,
                              logged=np.bincount(gcodes, minlength=len(censoring)))
    out = _tables(censoring, keys, thr, bad, obs, current, rule, np.asarray(kinds == "",
                                                                              dtype=bool))
    withhold_thin(out, why, n_ev, cands, rule.max_share)
    kinds = say_missed(out.summary, out.frontier, n_ev, slow, thr, cands, kinds, held / HOUR_NS)
    # no verdict under a day of evaluated time, and no time share either (recalibrate's rule,
    # thin_time): the frontier's ``withheld`` and ``note`` say why; observed_time stays
    timed = np.repeat(np.array(time_reasons(held)[1]) != "", len(thr) * len(cands))
    out.table["limit_share"] = out.table["limit_share"].where(~timed)
    # the thin evidence's kind and figure, for a caller that says a run of targets at once
    out.frontier["withheld"] = kinds.ravel()
    out.frontier["events"] = np.repeat(np.asarray(n_ev, dtype=np.int64), len(cands))
    caveat_short_history(out.summary, days, span_days)
    out.summary["window"] = pd.to_timedelta(np.full(len(out.summary), slo.window_ns,
                                                    dtype=np.int64), unit="ns")
    out.summary["current_target"] = float(slo.target)
    return out


def _candidates(candidates: Sequence[float] | None) -> np.ndarray:
    """The candidate targets, sorted and checked (default: the usual targets up to 99.9 %)."""
    given = candidates if candidates is not None else [t for t in USUAL_TARGETS if t <= 0.999]
    # each checked as given: "candidates=0 must lie in (0, 1)", not np.float64(0.0)
    return np.array(sorted(check_fraction("candidates", c) for c in given))


def default_thresholds(events: pd.DataFrame) -> list[int]:
    """The default threshold grid (ns), of :func:`latency_recalibrate` and ``budgetlab latency``
    without ``--thresholds``: the :data:`DEFAULT_QUANTILES` of the successes' durations, each
    rounded up to 0.1 s, duplicates merged; refused for a log without a success."""
    from .._util.words import say

    dur = attempt_durations(events)
    ok = events["ok"].to_numpy(dtype=bool)
    if not ok.any():
        raise ConfigError("no successes to take default thresholds from; "
                          + say("give thresholds=['10s', ...].", "give --thresholds 10s,20s,30s."))
    q = np.quantile(dur[ok], DEFAULT_QUANTILES)
    return sorted({int(-(-int(x) // 10**8) * 10**8) for x in q})


def _tables(censoring: pd.DataFrame, keys: Sequence[str], thr: list[int], bad: np.ndarray,
            obs: np.ndarray, current: np.ndarray, rule: _Rule,
            judgeable: np.ndarray) -> LatencyRecalibration:
    cands, max_share, n_boot = rule.cands, rule.max_share, rule.n_boot
    tot_obs = obs.sum(-1)
    share = ratio(bad.sum(-1), tot_obs, 1.0)
    supported = supported_targets(share[..., None], cands, max_share,
                                  judgeable)[..., 0]  # (groups, thr)
    # multiplicities of each group's days with observed time, each group drawing from its own
    # generator as in recalibrate's bootstrap (group_seeds: not from the groups beside it): a day
    # without observed time (warm-up, silence) holds no evidence and is never drawn
    seeds = group_seeds(rule.seed, censoring[list(keys)])
    weights = np.zeros((len(censoring), n_boot, obs.shape[-1]))
    for g in range(len(censoring)):
        days = np.flatnonzero(obs[g].sum(axis=(0, 1)) > 0)
        if len(days) and n_boot:  # n_boot=0: no samples, no interval
            weights[g][:, days] = block_weights(np.random.default_rng(seeds[g]), n_boot,
                                                len(days), 1)
    b_obs = np.einsum("gtcd,gbd->gtcb", obs, weights)
    b_share = ratio(np.einsum("gtcd,gbd->gtcb", bad, weights), b_obs, 1.0)
    # recalibrate's percentiles: each bound is one of the samples' candidates, never a value
    # between two of them; a sample below the grid (NaN) ranks below every candidate
    b_sup = supported_targets(b_share, cands, max_share, judgeable)
    lo, hi = bootstrap_interval(np.moveaxis(b_sup, -1, 0), np.ones(b_sup.shape[:-1], dtype=bool),
                                rule.confidence)
    key_table = censoring[list(keys)]
    g_i, t_i, c_i = np.indices((len(censoring), len(thr), len(cands))).reshape(3, -1)
    table = key_table.iloc[g_i].reset_index(drop=True)
    table["threshold"] = pd.to_timedelta(np.array(thr, dtype=np.int64)[t_i],
                                         unit="ns").as_unit("ns")
    table["target"] = cands[c_i]
    # no observed time after warm-up: no share to state (never the fallback 1.0); the reason is
    # the frontier's ``withheld`` ("no_time") and the notes'
    table["limit_share"] = np.where(tot_obs > 0, share, np.nan)[g_i, t_i, c_i]
    table["observed_time"] = pd.to_timedelta(np.round(tot_obs[g_i, t_i, c_i]).astype(np.int64),
                                             unit="ns")
    table["supported"] = (share[g_i, t_i, c_i] <= max_share) & judgeable[g_i, c_i]
    g_s, t_s = np.indices((len(censoring), len(thr))).reshape(2, -1)
    summary = key_table.iloc[g_s].reset_index(drop=True)
    summary["threshold"] = table["threshold"].iloc[::len(cands)].to_numpy()
    summary["supported_target"] = supported[g_s, t_s]
    summary["supported_low"] = lo[g_s, t_s]
    summary["supported_high"] = hi[g_s, t_s]
    at_to = (current[g_s] != NO_TIMEOUT) & (np.array(thr, dtype=np.int64)[t_s] >= current[g_s])
    summary["equals_availability"] = at_to
    summary["note"] = [support_note(s, h, a, cands) for s, h, a in
                       zip(summary["supported_target"], summary["supported_high"], at_to,
                           strict=True)]
    frontier = frontier_table(table, keys, cands)
    return LatencyRecalibration(table, summary, frontier)


