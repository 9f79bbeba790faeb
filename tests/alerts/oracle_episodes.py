"""Test-only oracle: budgetlab/alerts/episodes.py as of commit 1989377 (the dense SRE path),
docstrings removed, imports made absolute. Never edit: it is what the sparse path must equal."""
# ruff: noqa
# mypy: ignore-errors
from __future__ import annotations
from dataclasses import dataclass
from typing import Any, Unpack
import numpy as np
import pandas as pd
from budgetlab._util.validation import utc_from_ns
from tests.alerts.oracle_burn import error_budgets, group_slos, ratio, rolling_sum, split_groups
from budgetlab.slo import SLO
from tests.alerts.oracle_bins import BinGrid, BinsLike, ReadBinsOptions, read_bins, window_bins
from budgetlab.alerts.policy import AlertPolicy, as_policy
__all__ = ['alert_states', 'alert_episodes', 'tier_conditions', 'firing_runs', 'policy_parts',
           'in_group_order', 'EPISODE_COLUMNS']
EPISODE_COLUMNS = ('tier', 'severity', 'start', 'end', 'duration', 'ongoing')

def _steps(duration: pd.Timedelta, freq_ns: int) -> int:
    return int(-(-int(duration.value) // freq_ns))

def tier_conditions(grid: BinGrid, budget: np.ndarray,
                    policy: AlertPolicy) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    cache: dict[int, np.ndarray] = {}

    def burn_of(window: pd.Timedelta) -> tuple[np.ndarray, np.ndarray]:
        k = window_bins(window, grid.freq_ns)
        if k not in cache:
            cache[k] = ratio(rolling_sum(grid.bad, k), rolling_sum(grid.total, k))
        return (cache[k], cache[k] / budget[:, None])
    out = []
    for tier in policy.tiers:
        thr = (tier.burn * budget)[:, None]
        er_long, burn_long = burn_of(tier.long_window)
        cond = er_long > thr
        if tier.short_window is not None:
            er_short, burn_short = burn_of(tier.short_window)
            cond = cond & (er_short > thr)
        else:
            burn_short = burn_long
        out.append((cond, burn_long, burn_short))
    return out

def firing_runs(cond: np.ndarray, for_steps: int=0, cooldown_steps: int=0) -> tuple[np.ndarray,
                                                                                    np.ndarray,
                                                                                    np.ndarray]:
    n = len(cond)
    padded = np.zeros(n + 2, dtype=np.int8)
    padded[1:-1] = cond
    d = np.diff(padded)
    rs = np.flatnonzero(d == 1)
    re = np.flatnonzero(d == -1) - 1
    empty = np.empty(0, dtype=np.int64)
    if len(rs) == 0:
        return (empty, empty, np.empty(0, dtype=bool))
    qualifies = re - rs + 1 >= for_steps + 1
    new_cluster = np.ones(len(rs), dtype=bool)
    new_cluster[1:] = rs[1:] - re[:-1] - 1 > cooldown_steps
    cstart = np.flatnonzero(new_cluster)
    cend = np.append(cstart[1:] - 1, len(rs) - 1)
    cand = np.where(qualifies, np.arange(len(rs)), len(rs))
    first_q = np.minimum.reduceat(cand, cstart)
    has = first_q < len(rs)
    first = rs[first_q[has]] + for_steps
    reach = re[cend[has]] + cooldown_steps
    stop = np.minimum(reach, n - 1) + 1
    return (first.astype(np.int64), stop.astype(np.int64), reach >= n - 1)

@dataclass(frozen=True)
class _TierReplay:
    condition: np.ndarray
    burn_long: np.ndarray
    burn_short: np.ndarray
    runs: list[tuple[np.ndarray, np.ndarray, np.ndarray]]

def _replay(grid: BinGrid, target: Any, pol: AlertPolicy) -> list[_TierReplay]:
    replays = []
    for tier, (cond, burn_long, burn_short) in zip(pol.tiers, tier_conditions(grid,
                                                                              error_budgets(target,
                                                                                            grid),
                                                                              pol), strict=True):
        k_for = _steps(tier.for_, grid.freq_ns)
        k_cool = _steps(tier.cooldown, grid.freq_ns)
        runs = [firing_runs(cond[g], k_for, k_cool) for g in range(grid.n_groups)]
        replays.append(_TierReplay(cond, burn_long, burn_short, runs))
    return replays
_Part = tuple[np.ndarray | None, BinGrid, Any, AlertPolicy]

def policy_parts(grid: BinGrid, target: Any, policy: Any) -> list[_Part]:
    slos = group_slos(target, grid)
    if slos is None:
        return [
            (
                None,
                grid,
                target,
                as_policy(policy, period=target.period if isinstance(target, SLO) else None),
            )
        ]
    targets = np.array([s.target for s in slos], dtype=float)
    periods = [s.period for s in slos]
    if isinstance(policy, str) and len(set(periods)) > 1:
        return [(idx, grid.select(idx), targets[idx], as_policy(policy, period=p)) for p,
                idx in split_groups(periods)]
    return [(None, grid, targets, as_policy(policy, period=periods[0]))]

def in_group_order(tables: list[tuple[np.ndarray | None, pd.DataFrame,
                                      np.ndarray]]) -> pd.DataFrame:
    if len(tables) == 1 and tables[0][0] is None:
        return tables[0][1]
    whole = pd.concat([t for _, t, _ in tables], ignore_index=True)
    groups = np.concatenate([gi if idx is None else idx[gi] for idx, _, gi in tables])
    return whole.iloc[np.argsort(groups, kind='stable')].reset_index(drop=True)

def _tier_columns(out: pd.DataFrame, policy: AlertPolicy, codes: np.ndarray) -> None:
    out['tier'] = pd.Categorical.from_codes(codes,
                                            categories=pd.Index([t.name for t in policy.tiers]),
                                            ordered=True)
    out['severity'] = np.array([t.severity for t in policy.tiers], dtype=object)[codes]

def alert_episodes(bins: BinsLike, target: Any, policy: AlertPolicy | str,
                   **options: Unpack[ReadBinsOptions]) -> pd.DataFrame:
    grid = read_bins(bins, **options)
    parts = policy_parts(grid, target, policy)
    out = in_group_order([(idx, *_episodes(sub, tgt, pol)) for idx, sub, tgt, pol in parts])
    tiers = list(dict.fromkeys(((t.name, t.severity) for _, _, _, pol in parts for t in pol.tiers)))
    # attrs are JSON values (DataFrame.to_parquet stores json.dumps(attrs)): times as ISO-8601
    # text with their offset, pairs as lists
    out.attrs.update({'grid_start': utc_from_ns(np.array([grid.start_ns]))[0].isoformat(),
                      'grid_end': utc_from_ns(np.array([grid.bin_end_ns[-1]]))[0].isoformat(),
                      'freq_ns': grid.freq_ns, 'by': list(grid.by),
                      'tiers': [list(t) for t in tiers]})
    return out

def _episodes(grid: BinGrid, target: Any, pol: AlertPolicy) -> tuple[pd.DataFrame, np.ndarray]:
    replays = _replay(grid, target, pol)
    end_ns = grid.bin_end_ns
    rows = [(np.full(len(first), g), np.full(len(first), j), end_ns[first],
             end_ns[stop - 1] + grid.freq_ns, ongoing) for j, rep in enumerate(replays) for g,
            (first, stop, ongoing) in enumerate(rep.runs) if len(first)]
    if rows:
        gi, ti, st, en, og = (np.concatenate(col) for col in zip(*rows, strict=True))
    else:
        gi = ti = st = en = np.empty(0, dtype=np.int64)
        og = np.empty(0, dtype=bool)
    order = np.lexsort((ti, st, gi))
    gi, ti, st, en, og = (gi[order], ti[order], st[order], en[order], og[order])
    out = grid.keys_at(gi)
    _tier_columns(out, pol, ti.astype(np.int64))
    out['start'] = utc_from_ns(st)
    out['end'] = utc_from_ns(en)
    out['duration'] = out['end'] - out['start']
    out['ongoing'] = og.astype(bool)
    return (out, gi.astype(np.int64))

def alert_states(bins: BinsLike, target: Any, policy: AlertPolicy | str,
                 **options: Unpack[ReadBinsOptions]) -> pd.DataFrame:
    grid = read_bins(bins, **options)
    return in_group_order([(idx, *_states(sub, tgt, pol)) for idx, sub, tgt,
                           pol in policy_parts(grid, target, policy)])

def _states(grid: BinGrid, target: Any, pol: AlertPolicy) -> tuple[pd.DataFrame, np.ndarray]:
    replays = _replay(grid, target, pol)
    n, g_n, t_n = (grid.n_bins, grid.n_groups, len(pol.tiers))
    fire_all = np.zeros((g_n, t_n, n), dtype=bool)
    for j, rep in enumerate(replays):
        for g, (first, stop, _) in enumerate(rep.runs):
            if len(first):
                delta = np.zeros(n + 1, dtype=np.int64)
                np.add.at(delta, first, 1)
                np.add.at(delta, stop, -1)
                fire_all[g, j] = np.cumsum(delta[:-1]) > 0
    out = grid.long_keys(t_n * n)
    _tier_columns(out, pol, np.tile(np.repeat(np.arange(t_n), n), g_n))
    out['bin_end'] = utc_from_ns(np.tile(grid.bin_end_ns, g_n * t_n))
    out['burn_long'] = np.stack([rep.burn_long for rep in replays], axis=1).ravel()
    out['burn_short'] = np.stack([rep.burn_short for rep in replays], axis=1).ravel()
    out['condition'] = np.stack([rep.condition for rep in replays], axis=1).ravel()
    out['firing'] = fire_all.ravel()
    return (out, np.repeat(np.arange(g_n, dtype=np.int64), t_n * n))
