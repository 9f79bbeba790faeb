"""Test-only oracle: budgetlab/alerts/lowtraffic.py as of commit 1989377 (the dense SRE path),
docstrings removed, imports made absolute. Never edit: it is what the sparse path must equal."""
# ruff: noqa
# mypy: ignore-errors
from __future__ import annotations
from typing import Any, Unpack
import numpy as np
import pandas as pd
from tests.alerts.oracle_burn import error_budgets, rolling_sum
from tests.alerts.oracle_bins import BinGrid, BinsLike, ReadBinsOptions, read_bins, window_bins
from tests.alerts.oracle_episodes import in_group_order, policy_parts
from budgetlab.alerts.policy import AlertPolicy
__all__ = ['low_traffic']

def low_traffic(bins: BinsLike, target: Any, policy: AlertPolicy | str,
                **options: Unpack[ReadBinsOptions]) -> pd.DataFrame:
    grid = read_bins(bins, **options)
    return in_group_order([(idx, *_low_traffic(sub, tgt, pol)) for idx, sub, tgt,
                           pol in policy_parts(grid, target, policy)])

def _low_traffic(grid: BinGrid, target: Any, pol: AlertPolicy) -> tuple[pd.DataFrame, np.ndarray]:
    budget = error_budgets(target, grid)
    n = grid.n_bins
    span_ns = n * grid.freq_ns
    period_events = grid.total.sum(axis=1) * (pol.period.value / span_ns)
    period_budget = budget * period_events
    one_pct = np.where(period_budget > 0, 100.0 / np.where(period_budget > 0, period_budget, 1.0),
                       100.0)
    one_pct = np.minimum(one_pct, 100.0)
    cache: dict[int, tuple[np.ndarray, np.ndarray, bool]] = {}

    def stats(window: pd.Timedelta) -> tuple[np.ndarray, np.ndarray, bool]:
        k = window_bins(window, grid.freq_ns)
        if k not in cache:
            sums = rolling_sum(grid.total, k)
            complete = k <= n
            use = sums[:, k - 1:] if complete else sums
            cache[k] = (np.median(use, axis=1).astype(float), use.min(axis=1).astype(float),
                        complete)
        return cache[k]
    rows: list[pd.DataFrame] = []

    def burn_of(cnt: np.ndarray) -> np.ndarray:
        return np.asarray(1.0 / (np.maximum(cnt, 1.0) * budget))
    for tier in pol.tiers:
        typ_l, quiet_l, comp_l = stats(tier.long_window)
        typ_s, quiet_s, comp_s = (
            stats(tier.short_window) if tier.short_window is not None else (typ_l, quiet_l, comp_l)
        )
        thr = tier.burn * budget
        k_l = np.floor(thr * typ_l) + 1
        k_s = np.floor(thr * typ_s) + 1
        feasible = (k_l <= typ_l) & (k_s <= typ_s)
        min_fail = pd.array(np.where(feasible, np.maximum(k_l, k_s), 0).astype(np.int64),
                            dtype='Int64')
        min_fail[~feasible] = pd.NA
        rows.append(
            pd.DataFrame(
                {
                    "tier": tier.name,
                    "severity": tier.severity,
                    "burn": tier.burn,
                    "max_burn": 1.0 / budget,
                    "can_fire": 1.0 > thr,
                    "events_typical_long": typ_l,
                    "events_quietest_long": quiet_l,
                    "one_failure_burn_typical_long": burn_of(typ_l),
                    "one_failure_burn_quietest_long": burn_of(quiet_l),
                    "events_typical_short": typ_s,
                    "events_quietest_short": quiet_s,
                    "one_failure_burn_typical_short": burn_of(typ_s),
                    "one_failure_burn_quietest_short": burn_of(quiet_s),
                    "one_failure_fires_quietest": (1.0 / np.maximum(quiet_l, 1.0) > thr)
                    & (1.0 / np.maximum(quiet_s, 1.0) > thr),
                    "min_failures_typical": min_fail,
                    "one_failure_budget_pct": one_pct,
                    "windows_complete": comp_l and comp_s,
                    "_g": np.arange(grid.n_groups),
                    "_t": len(rows),
                }
            )
        )
    table = pd.concat(rows, ignore_index=True).sort_values(['_g', '_t'],
                                                           kind='stable').reset_index(drop=True)
    groups = table['_g'].to_numpy()
    out = pd.concat([grid.keys_at(groups), table.drop(columns=['_g', '_t'])], axis=1)
    out['tier'] = pd.Categorical(out['tier'], categories=[t.name for t in pol.tiers], ordered=True)
    return (out, groups.astype(np.int64))
