"""Recalibration: which SLO target would the last weeks of history have supported?

The seed's common problems, as one function call: a budget that "burns too fast" means the
target is stricter than the conditions allow (recompute it from 2-4 weeks of history); a budget
that "barely moves" means it is too loose. :func:`recalibrate` replays the seed tracker over the
history for a grid of candidate targets and reports, per group, what each would have done.

**Status is a function of the window's burn rate** (see :mod:`budgetlab.replay`): exhausted
when the window's failures reach ``total * (1 - target)``, i.e. when the rolling success rate
is at or below the target. So the share of time a target would have been exhausted is (up to
the seed's float arithmetic, which is reproduced exactly) the share of time the rolling success
rate sat at or below it, and the recommendation below is about the ``max_share`` quantile of
the rolling success rate, rounded down to ``step``.

**Recommendation rule.** ``recommended_target`` is the highest multiple of ``step`` whose
status would have been ``limit_status`` or worse (default ``exhausted``) for at most
``max_share`` of the evaluated time (default 1 %).

**Verdict on the current target.** ``too_strict`` ("burns too fast") when the current target
would have been ``limit_status`` or worse for more than ``max_share`` of the time (it lies above
the recommendation); else ``too_loose`` ("budget barely moves") when even the window burn rate
exceeded only 10 % of the time, ``(1 - p10) / (1 - target)``, is below ``loose_burn`` (default
0.25: nine hours in ten the window spends less than a quarter of its budget); else ``ok``.

**Uncertainty.** ``ci_low``/``ci_high`` is the Wilson score interval of the overall success
rate: it only knows the binomial noise of independent events, so it is narrow for a million
events. Day-to-day variation is in ``recommended_low``/``recommended_high``: a percentile
interval of a block bootstrap over days (whole days of the replayed status series, drawn with
replacement, the rule recomputed on each sample). Its coverage, measured by simulation
(``tests/test_recalibrate.py``: 4 weeks of independent outcomes at a known rate, 50 histories,
nominal 95 %): 1 h window, 1 % limit: 45/50; 6 h, 5 %: 47/50; but 24 h, 1 %: 32/50 and 24 h,
5 %: 44/50. Four weeks hold only 28 independent 24 h windows, too few to see a 1 % tail: the
estimate is biased upwards and its interval too narrow. For a 24 h window, prefer
``max_share=0.05`` or more history; the point recommendation is still within a tenth of a
percentage point there, well below the usual ``step``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any

import numpy as np
import pandas as pd

from .._util.progress import progress
from .._util.validation import check_argument, check_fraction, to_timedelta
from ..alerts.episodes import firing_runs, tier_conditions
from ..alerts.policy import AlertPolicy
from ..budget.figures import STATUSES, remaining_fraction, status_codes
from ..errors import ConfigError
from ..slo import SLO
from ..windows.bins import BinGrid
from ..windows.trailing import trailing_counts
from .window_lengths import Sorted, change_flags, group_targets, sort_events, time_weights

__all__ = ["Recalibration", "recalibrate", "wilson_interval", "QUANTILE_LEVELS"]

_DAY_NS = 86_400 * 10**9
_HOUR_NS = 3_600 * 10**9
_MIN_NS = 60 * 10**9
#: Probabilities of the ``distribution`` table (time-weighted quantiles of the rolling rate).
QUANTILE_LEVELS: tuple[float, ...] = (0.001, 0.002, 0.005, *(k / 100 for k in range(1, 100)), 0.995, 0.998, 0.999)
_VERDICTS = pd.CategoricalDtype(["too_strict", "ok", "too_loose"], ordered=False)
_PAGE_SEVERITIES = ("page", "critical")
_MAX_DEFAULT_CANDIDATES = 60


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
    with ``z`` the ``(1 + confidence) / 2`` normal quantile. NaN where ``n == 0``.

    >>> lo, hi = wilson_interval(81, 263)
    >>> round(float(lo), 4), round(float(hi), 4)
    (0.2553, 0.3662)
    """
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float, np.floating)) or not 0 < confidence < 1:
        raise ConfigError(f"confidence={confidence!r} must lie in (0, 1) (e.g. 0.95).")
    k = np.asarray(successes, dtype=np.float64)
    m = np.asarray(n, dtype=np.float64)
    z = NormalDist().inv_cdf((1 + confidence) / 2)
    lo = np.full(np.broadcast(k, m).shape, np.nan)
    hi = lo.copy()
    ok = np.broadcast_to(m > 0, lo.shape)
    mm = np.broadcast_to(m, lo.shape)[ok]
    p = np.broadcast_to(k, lo.shape)[ok] / mm
    denom = 1 + z * z / mm
    center = (p + z * z / (2 * mm)) / denom
    half = z / denom * np.sqrt(np.maximum(p * (1 - p) / mm + z * z / (4 * mm * mm), 0.0))
    lo[ok] = np.maximum(center - half, 0.0)
    hi[ok] = np.minimum(center + half, 1.0)
    return lo, hi


# ----------------------------------------------------------------------------------------------
# candidate targets: the status of every event under every target in one pass


def _decimal_grid(step: float) -> np.ndarray:
    """Every multiple of ``step`` in (0, 1), each the double nearest to its decimal value."""
    k = np.arange(1, int(np.floor(1 / step + 1e-9)) + 1)
    grid = np.round(k * step, 10)
    return grid[(grid > 0) & (grid < 1)]


def status_thresholds(total: np.ndarray, failures: np.ndarray, cands: np.ndarray, slo: SLO) -> list[np.ndarray]:
    """For status levels 1, 2, 3 (warning, critical, exhausted): the index of the first
    candidate target (``cands`` sorted ascending) at which each event's status is at least that
    level; ``len(cands)`` when none. Exact: the seed's float arithmetic decides every case
    within 1e-9 of a boundary (status only worsens as the target rises)."""
    n_c = len(cands)
    f = failures.astype(np.float64)
    n = total.astype(np.float64)
    levels = []
    for level, frac, strict in ((1, slo.warning, True), (2, slo.critical, True), (3, 0.0, False)):
        if level == 2 and slo.critical <= 0:
            frac, strict = 0.0, False  # status_codes: without a critical band, critical == exhausted
        allowed = 1.0 - frac
        thr = np.ones(len(n))
        if allowed > 0:
            np.subtract(1.0, f / (n * allowed), out=thr, where=failures > 0)
        else:  # warning == 1: any failure is a warning
            thr = np.where(failures > 0, -np.inf, 1.0)
        idx = np.searchsorted(cands, thr, side="right" if strict else "left").astype(np.int64)
        near = np.zeros(len(n), dtype=bool)
        for j in (idx - 1, idx):
            jj = np.clip(j, 0, n_c - 1)
            near |= (j >= 0) & (j < n_c) & (np.abs(cands[jj] - thr) < 1e-9)
        sus = np.flatnonzero(near)
        if len(sus):
            ti, fi, ii = total[sus], failures[sus], idx[sus]
            for _ in range(n_c + 1):
                down = (ii > 0) & (status_codes(remaining_fraction(ti, fi, cands[np.maximum(ii - 1, 0)]), slo) >= level)
                up = (ii < n_c) & (status_codes(remaining_fraction(ti, fi, cands[np.minimum(ii, n_c - 1)]), slo) < level)
                if not (down.any() or up.any()):
                    break
                ii = ii - down + (up & ~down)
            idx[sus] = ii
        levels.append(idx)
    return levels


def _hold_thresholds(levels: list[np.ndarray], low: np.ndarray, bounds: np.ndarray, n_c: int) -> list[np.ndarray]:
    """``min_events``: a low-traffic row keeps the status of its group's last valid row (healthy
    at a group's start), under every candidate target at once."""
    n = len(low)
    first = np.zeros(n, dtype=bool)
    first[bounds[:-1][bounds[:-1] < n]] = True
    start_low = first & low
    valid = ~low | start_low
    pos = np.where(valid, np.arange(n), 0)
    np.maximum.accumulate(pos, out=pos)
    out = []
    for idx in levels:
        idx = idx.copy()
        idx[start_low] = n_c
        out.append(idx[pos])
    return out


def _weighted_quantiles(values: np.ndarray, weights: np.ndarray, probs: np.ndarray) -> np.ndarray:
    """Inverted-CDF quantiles: the smallest value whose cumulative weight reaches ``p`` x total."""
    keep = weights > 0
    v, w = values[keep], weights[keep]
    if len(v) == 0:
        return np.full(len(probs), np.nan)
    order = np.argsort(v, kind="stable")
    cum = np.cumsum(w[order])
    pos = np.searchsorted(cum, probs * cum[-1], side="left")
    return np.asarray(v[order][np.minimum(pos, len(v) - 1)])


def _block_weights(rng: np.random.Generator, n_boot: int, n_days: int, block: int) -> np.ndarray:
    """``(n_boot, n_days)`` multiplicities of a moving-block bootstrap with blocks of ``block``
    days (``block == 1``: whole days drawn with replacement)."""
    block = min(block, n_days)
    n_blocks = -(-n_days // block)
    starts = rng.integers(0, n_days - block + 1, size=(n_boot, n_blocks))
    days = (starts[:, :, None] + np.arange(block)).reshape(n_boot, -1)
    flat = (np.arange(n_boot)[:, None] * n_days + days).ravel()
    return np.bincount(flat, minlength=n_boot * n_days).reshape(n_boot, n_days).astype(np.float64)


# ----------------------------------------------------------------------------------------------
# pages under an alert policy


def _page_counts(srt: Sorted, policy: AlertPolicy, span_lo: int, span_hi: int, cand_values: np.ndarray,
                 show: bool | None) -> np.ndarray:
    """Page notifications per group and candidate target whose first firing evaluation lies in
    ``[span_lo, span_hi]``: episodes of the page tiers, OR-ed per group (touching episodes are one
    notification, as :func:`budgetlab.score_alerts` merges them)."""
    wins = [int(w.value) for w in policy.windows]
    freq = int(np.gcd.reduce(np.array([*wins, _MIN_NS], dtype=np.int64)))
    start = (int(srt.t.min()) // freq) * freq
    n_bins = int((int(srt.t.max()) - start) // freq) + 1
    g_n = srt.n_groups
    flat = srt.seg * n_bins + (srt.t - start) // freq
    total = np.bincount(flat, minlength=g_n * n_bins).reshape(g_n, n_bins).astype(np.int64)
    bad = np.bincount(flat[srt.bad], minlength=g_n * n_bins).reshape(g_n, n_bins).astype(np.int64)
    keys = srt.keys if srt.by else pd.DataFrame(index=pd.RangeIndex(1))
    grid = BinGrid(keys=keys, by=list(srt.by), start_ns=start, freq_ns=freq, total=total, bad=bad)
    tiers = [j for j, t in enumerate(policy.tiers) if t.severity in _PAGE_SEVERITIES]
    if not tiers:
        tiers = list(range(len(policy.tiers)))
    sub = AlertPolicy(tuple(policy.tiers[j] for j in tiers), period=policy.period)
    ends = grid.bin_end_ns
    in_span = (ends >= span_lo) & (ends <= span_hi)
    steps = [(-(-int(t.for_.value) // freq), -(-int(t.cooldown.value) // freq)) for t in sub.tiers]
    # The windows' error ratios do not depend on the target: with a budget of 1 the "burn rates"
    # tier_conditions returns are the error ratios themselves; a tier's condition under target T
    # is then ratio_long > burn * (1 - T) and ratio_short > burn * (1 - T), as tier_conditions
    # computes it (same float operations).
    ratios = [np.minimum(bl, bs) for _, bl, bs in tier_conditions(grid, np.ones(g_n), sub)]
    out = np.zeros((g_n, len(cand_values)), dtype=np.int64)
    for c, target in enumerate(progress(cand_values.tolist(), desc="pages per target", enabled=show)):
        budget = 1 - target
        for g in range(g_n):
            delta = np.zeros(n_bins + 1, dtype=np.int64)
            for tier, ratio, (k_for, k_cool) in zip(sub.tiers, ratios, steps, strict=True):
                first, stop, _ = firing_runs(ratio[g] > tier.burn * budget, k_for, k_cool)
                np.add.at(delta, first, 1)
                np.add.at(delta, stop, -1)
            firing = np.cumsum(delta[:-1]) > 0
            rise = firing.copy()
            rise[1:] &= ~firing[:-1]
            out[g, c] = int(np.count_nonzero(rise & in_span))
    return out


# ----------------------------------------------------------------------------------------------
# recalibrate


def _candidates(candidates: Any) -> np.ndarray | None:
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
    slo: SLO | None = None,
    step: float = 0.005,
    max_share: float = 0.01,
    limit_status: str = "exhausted",
    loose_burn: float = 0.25,
    candidates: Sequence[float] | None = None,
    policy: AlertPolicy | None = None,
    confidence: float = 0.95,
    n_boot: int = 200,
    block: Any = "1D",
    seed: int = 0,
    show_progress: bool | None = None,
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
    target : float, DataFrame or mapping, optional
        The current target per group (overrides ``slo.target``), for the verdict; see
        :func:`budgetlab.analyses.window_lengths.group_targets`. Without ``target`` and ``slo`` the verdict is
        missing (``current_target`` NaN).
    slo : SLO, optional
        Current SLO: target, window, warning/critical thresholds and ``min_events``.
    step : float
        Grid of candidate targets (multiples of ``step``); the recommendation is rounded down
        to it. Default 0.005 (half a percentage point).
    max_share : float
        Largest share of time the recommended target may have spent at ``limit_status`` or worse.
    limit_status : {"exhausted", "critical", "warning"}
        The status the rule limits.
    loose_burn : float
        The ``too_loose`` threshold on the 90th-percentile window burn rate.
    candidates : sequence of float, optional
        Targets to report in ``candidates`` (default: the ``step`` grid from a few steps below
        the lowest recommendation to just above the highest median rolling rate, thinned to at
        most 60 values); the current and recommended targets are always included.
    policy : AlertPolicy, optional
        For ``pages_per_day`` (default :meth:`AlertPolicy.workbook`, 30 days): notifications of
        its ``page``/``critical`` tiers (all tiers if it has none), OR-ed per group.
    confidence : float
        Level of both intervals (default 0.95).
    n_boot : int
        Bootstrap samples (0 skips the bootstrap: ``recommended_low``/``high`` are NaN).
    block : duration
        Bootstrap block length in whole days (default one day).
    seed : int
        Seed of the bootstrap's ``np.random.default_rng``.
    show_progress : bool, optional
        Progress bars (default: only on a terminal; see :func:`budgetlab._progress.progress`).

    Returns
    -------
    Recalibration
        ``summary``: one row per group: group keys, ``events`` (in the history),
        ``success_rate`` (over those events), ``ci_low``, ``ci_high`` (Wilson score interval),
        ``hours`` (evaluated time), ``p1``, ``p5``, ``p10``, ``p50`` (time-weighted quantiles of
        the rolling-window success rate), ``current_target``, ``current_share_limit`` (share of
        time at ``limit_status`` or worse under it), ``verdict`` (categorical ``too_strict``,
        ``ok``, ``too_loose``; missing without a current target), ``verdict_reason``,
        ``recommended_target``, ``recommended_low``, ``recommended_high`` (bootstrap interval).
        ``candidates``: one row per group and target: group keys, ``target``, ``is_current``,
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
    0  recaptcha_v2      0.940147  0.931053               0.930  too_strict
    1     turnstile      0.979760  0.973684               0.970   too_loose
    2         image      0.905316  0.888740               0.885          ok
    """
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
    limit = STATUSES.index(limit_status)
    if isinstance(loose_burn, bool) or not isinstance(loose_burn, (int, float, np.floating)) or not 0 <= loose_burn:
        raise ConfigError(f"loose_burn={loose_burn!r} must be a number >= 0 (e.g. 0.25).")
    confidence = check_fraction("confidence", confidence)
    if isinstance(n_boot, bool) or not isinstance(n_boot, (int, np.integer)) or n_boot < 0:
        raise ConfigError(f"n_boot={n_boot!r} must be a whole number >= 0 (e.g. 200).")
    block_ns = int(to_timedelta(block, name="block").value)
    if block_ns % _DAY_NS:
        raise ConfigError(f"block={block!r} must be a whole number of days (e.g. '1D', '2D').")
    block_days = block_ns // _DAY_NS
    policy = AlertPolicy.workbook() if policy is None else policy
    if not isinstance(policy, AlertPolicy):
        raise ConfigError("policy must be an AlertPolicy (e.g. AlertPolicy.workbook()).")
    display = _candidates(candidates)

    srt = sort_events(events, by)
    g_n = srt.n_groups
    current = (np.full(g_n, np.nan) if target is None and slo is None
               else group_targets(slo if target is None else target, srt.keys, srt.by))
    t, bounds, seg = srt.t, srt.bounds, srt.seg
    t_first, t_last = int(t.min()), int(t.max())
    hist_lo = t_last - hist_ns
    span_lo = max(hist_lo, t_first + int(window_td.value))
    if span_lo >= t_last:
        raise ConfigError(
            "the history holds less than one window after its warm-up; give more history (history=, more "
            "data) or a shorter window."
        )
    span_days = (t_last - span_lo) / _DAY_NS

    # events and overall success rate in the history
    in_hist = t >= hist_lo
    n_ev = np.bincount(seg[in_hist], minlength=g_n)
    n_ok = np.bincount(seg[in_hist & ~srt.bad], minlength=g_n)
    rate = np.full(g_n, np.nan)
    np.divide(n_ok, n_ev, out=rate, where=n_ev > 0)
    ci_low, ci_high = wilson_interval(n_ok, n_ev, confidence)

    # one kernel pass: window counts, time weights, rolling success rate
    total, failures = trailing_counts(t, srt.bad, int(window_td.value), bounds)
    dt = time_weights(t, bounds, span_lo)
    w_group = np.bincount(seg, weights=dt, minlength=g_n)
    has_time = w_group > 0
    roll = (total - failures) / total.astype(np.float64)
    probs = np.asarray(QUANTILE_LEVELS, dtype=np.float64)
    want = np.r_[0.01, 0.05, 0.10, 0.50, probs]
    quant = np.full((g_n, len(want)), np.nan)
    for g in range(g_n):
        s, e = int(bounds[g]), int(bounds[g + 1])
        quant[g] = _weighted_quantiles(roll[s:e], dt[s:e], want)
    p1, p5, p10, p50 = quant[:, 0], quant[:, 1], quant[:, 2], quant[:, 3]

    # candidate targets: the step grid, the current targets, the requested ones
    fine = _decimal_grid(step)
    extra = [current[np.isfinite(current)]]
    if display is not None:
        extra.append(display)
    cands = np.unique(np.concatenate([fine, *extra]))
    n_c = len(cands)
    fine_idx = np.searchsorted(cands, fine)
    levels = status_thresholds(total, failures, cands, base)
    if base.min_events > 0:
        levels = _hold_thresholds(levels, total < base.min_events, bounds, n_c)
    del roll

    # time at status >= level, per group, day and candidate (cumulative over candidates)
    n_days = max(1, -(-(t_last - span_lo) // _DAY_NS))
    day = np.minimum((np.maximum(t, span_lo) - span_lo) // _DAY_NS, n_days - 1)
    cell = (seg * n_days + day) * (n_c + 1)
    timed = dt > 0
    w_day = np.bincount((seg * n_days + day)[timed], weights=dt[timed], minlength=g_n * n_days).reshape(g_n, n_days)
    at_least = []
    for idx in levels:
        h = np.bincount((cell + idx)[timed], weights=dt[timed], minlength=g_n * n_days * (n_c + 1))
        at_least.append(np.cumsum(h.reshape(g_n, n_days, n_c + 1), axis=2)[:, :, :n_c])
    tot_time = w_day.sum(axis=1)
    share_ge = [np.full((g_n, n_c), np.nan) for _ in range(3)]
    for lv in range(3):
        np.divide(at_least[lv].sum(axis=1), tot_time[:, None], out=share_ge[lv], where=has_time[:, None])

    # the rule: highest step-grid target at limit_status or worse for at most max_share
    lim_share = share_ge[limit - 1]
    ok_fine = lim_share[:, fine_idx] <= max_share
    rec_pos = ok_fine.sum(axis=1) - 1  # shares rise with the target, so the ok ones come first
    recommended = np.where((rec_pos >= 0) & has_time, fine[np.maximum(rec_pos, 0)], np.nan)

    # block bootstrap over days
    rng = np.random.default_rng(seed)
    boot = np.full((n_boot, g_n), np.nan)
    if n_boot > 0:
        s_lim = at_least[limit - 1][:, :, fine_idx]  # (groups, days, fine)
        chunk = 25
        for b0 in progress(range(0, n_boot, chunk), total=-(-n_boot // chunk), desc="bootstrap", enabled=show_progress):
            m = _block_weights(rng, min(chunk, n_boot - b0), n_days, block_days)
            num = np.einsum("bd,gdc->bgc", m, s_lim)
            den = m @ w_day.T  # (b, groups)
            share_b = np.full(num.shape, np.inf)
            np.divide(num, den[:, :, None], out=share_b, where=den[:, :, None] > 0)
            pos = (share_b <= max_share).sum(axis=2) - 1
            boot[b0:b0 + len(m)] = np.where(pos >= 0, fine[np.maximum(pos, 0)], 0.0)
        boot[:, ~has_time] = np.nan
    alpha = 1 - confidence
    rec_low = np.full(g_n, np.nan)
    rec_high = np.full(g_n, np.nan)
    if n_boot > 0:
        for g in np.flatnonzero(has_time).tolist():
            rec_low[g] = np.quantile(boot[:, g], alpha / 2, method="lower")
            rec_high[g] = np.quantile(boot[:, g], 1 - alpha / 2, method="higher")

    # verdict on the current target
    cur_idx = np.searchsorted(cands, np.where(np.isfinite(current), current, 0.5))
    cur_share = np.where(np.isfinite(current) & has_time, lim_share[np.arange(g_n), np.minimum(cur_idx, n_c - 1)], np.nan)
    verdict: list[Any] = []
    reasons: list[str] = []
    for g in range(g_n):
        v, why = _verdict(current[g], cur_share[g], p10[g], recommended[g], rec_low[g], rec_high[g],
                          has_time[g], max_share, limit_status, loose_burn)
        verdict.append(v)
        reasons.append(why)

    key_cols = srt.keys.reset_index(drop=True) if srt.by else pd.DataFrame(index=pd.RangeIndex(1))
    summary = key_cols.copy()
    summary["events"] = n_ev.astype(np.int64)
    summary["success_rate"] = rate
    summary["ci_low"] = ci_low
    summary["ci_high"] = ci_high
    summary["hours"] = w_group / _HOUR_NS
    summary["p1"], summary["p5"], summary["p10"], summary["p50"] = p1, p5, p10, p50
    summary["current_target"] = current
    summary["current_share_limit"] = cur_share
    summary["verdict"] = pd.Categorical(verdict, dtype=_VERDICTS)
    summary["verdict_reason"] = reasons
    summary["recommended_target"] = recommended
    summary["recommended_low"] = rec_low
    summary["recommended_high"] = rec_high

    # the candidates table
    if display is None:
        finite_rec = recommended[np.isfinite(recommended)]
        lows = [x for x in (rec_low, finite_rec, current) if np.isfinite(x).any()]
        lo_v = min(float(np.nanmin(x)) for x in lows) if lows else float(np.nanmin(p1))
        hi_v = max(float(np.nanmax(p50)) if np.isfinite(p50).any() else lo_v,
                   float(np.nanmax(current)) if np.isfinite(current).any() else lo_v)
        show_vals = fine[(fine >= lo_v - 2.5 * step) & (fine <= hi_v + 1.5 * step)]
        if len(show_vals) > _MAX_DEFAULT_CANDIDATES:  # a fine step: show a coarser grid
            k = -(-len(show_vals) // _MAX_DEFAULT_CANDIDATES)
            show_vals = show_vals[np.round(show_vals / (k * step), 6) % 1 == 0]
    else:
        show_vals = display
    show_vals = np.unique(np.concatenate([show_vals, current[np.isfinite(current)],
                                          recommended[np.isfinite(recommended)]]))
    sidx = np.searchsorted(cands, show_vals)
    tr_day = np.zeros((g_n, len(show_vals)))
    in_span = t >= span_lo
    days_g = w_group / _DAY_NS
    for j, c in enumerate(progress(sidx.tolist(), desc="transitions per target", enabled=show_progress)):
        code = (levels[0] <= c).view(np.int8) + (levels[1] <= c).view(np.int8) + (levels[2] <= c).view(np.int8)
        n_tr = np.bincount(seg[change_flags(code, bounds) & in_span], minlength=g_n)
        np.divide(n_tr, days_g, out=tr_day[:, j], where=days_g > 0)
    pages = _page_counts(srt, policy, span_lo, t_last, show_vals, show_progress) / span_days

    rows = np.repeat(np.arange(g_n), len(show_vals))
    cols = np.tile(np.arange(len(show_vals)), g_n)
    cand = key_cols.iloc[rows].reset_index(drop=True) if srt.by else pd.DataFrame(index=pd.RangeIndex(len(rows)))
    cand["target"] = show_vals[cols]
    cand["is_current"] = cand["target"].to_numpy() == current[rows]
    cand["is_recommended"] = cand["target"].to_numpy() == recommended[rows]
    ge = [s[:, sidx] for s in share_ge]
    shares = {"share_healthy": 1 - ge[0], "share_warning": ge[0] - ge[1], "share_critical": ge[1] - ge[2],
              "share_exhausted": ge[2]}
    for name, arr in shares.items():
        cand[name] = np.clip(arr, 0.0, 1.0)[rows, cols]
    cand["hours_exhausted"] = (at_least[2].sum(axis=1)[:, sidx] / _HOUR_NS)[rows, cols]
    cand["transitions_per_day"] = tr_day[rows, cols]
    cand["pages_per_day"] = pages[rows, cols]

    dist = key_cols.iloc[np.repeat(np.arange(g_n), len(probs))].reset_index(drop=True) if srt.by \
        else pd.DataFrame(index=pd.RangeIndex(len(probs)))
    dist["probability"] = np.tile(probs, g_n)
    dist["success_rate"] = quant[:, 4:].ravel()
    bt = key_cols.iloc[np.tile(np.arange(g_n), n_boot)].reset_index(drop=True) if srt.by \
        else pd.DataFrame(index=pd.RangeIndex(n_boot * g_n))
    bt["sample"] = np.repeat(np.arange(n_boot), g_n)
    bt["recommended_target"] = boot.ravel()

    for frame in (summary, cand, dist, bt):
        frame.attrs["by"] = list(srt.by)
    settings = {
        "window": pd.Timedelta(window_td), "history": pd.Timedelta(hist_ns, unit="ns"),
        "span_start": pd.Timestamp(span_lo, tz="UTC"), "span_end": pd.Timestamp(t_last, tz="UTC"),
        "step": step, "max_share": max_share, "limit_status": limit_status, "loose_burn": float(loose_burn),
        "confidence": confidence, "n_boot": int(n_boot), "block": pd.Timedelta(block_ns, unit="ns"),
        "seed": seed, "policy": policy, "by": list(srt.by), "slo": base,
    }
    return Recalibration(summary=summary, candidates=cand, distribution=dist, bootstrap=bt, settings=settings)


def _pct(x: float) -> str:
    return f"{100 * x:.3g} %"


def _verdict(current: float, share: float, p10: float, rec: float, lo: float, hi: float, has_time: bool,
             max_share: float, limit_status: str, loose_burn: float) -> tuple[Any, str]:
    if not has_time:
        return None, "no evaluated time in the history for this group"
    rec_txt = "no step-grid target meets the rule" if not np.isfinite(rec) else f"recommended {rec:.4g}"
    if np.isfinite(lo):
        rec_txt += f" ({lo:.4g}-{hi:.4g})"
    if not np.isfinite(current):
        return None, f"no current target given (target= or slo=); {rec_txt}"
    if share > max_share:
        return "too_strict", (f"burns too fast: {limit_status} or worse {_pct(share)} of the time under "
                              f"{current:.4g} (limit {_pct(max_share)}); {rec_txt}")
    burn90 = (1 - p10) / (1 - current)
    if burn90 < loose_burn:
        return "too_loose", (f"budget barely moves: 9 hours in 10 the window burns under {burn90:.2f} of its "
                             f"budget (limit {loose_burn:g}) under {current:.4g}; {rec_txt}")
    return "ok", (f"{limit_status} or worse {_pct(share)} of the time (limit {_pct(max_share)}), window burn "
                  f"at p10 {burn90:.2f}; {rec_txt}")
