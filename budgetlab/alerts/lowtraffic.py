"""Low-traffic diagnostics: what one failure does to each alert tier (SRE Workbook, ch. 5).

The workbook's remark: at 10 requests per hour a single failure is a 10 % hourly error ratio,
which at a 99.9 % target is a burn of 0.1 / 0.001 = 100 and 13.9 % of a 30-day budget. (The
workbook's text says "1,000x"; its own figures, 10 % over a 0.1 % budget, give 100x.) And
the ceiling: the burn rate can never exceed ``1 / (1 - target)`` (every event failing), so at a
90 % target a tier with ``burn >= 10`` (the 2 %/1 h page, 14.4) can never fire.
"""

from __future__ import annotations

from typing import Any, Unpack

import numpy as np
import pandas as pd

from ..budget.burn import error_budgets, rolling_sum
from ..windows.bingrid import BinGrid
from ..windows.bins import BinsLike, ReadBinsOptions, read_bins, window_bins
from .episodes import in_group_order, policy_attrs, policy_parts
from .firing import check_policy_bins
from .policy import AlertPolicy
from .tier import AlertTier

__all__ = ["low_traffic"]

#: Bytes of window sums one chunk of groups may hold.
_CHUNK_BYTES = 128 * 2**20


def low_traffic(bins: BinsLike, target: Any, policy: AlertPolicy | str,
                **options: Unpack[ReadBinsOptions]) -> pd.DataFrame:
    """Per group and tier: the burn a single failure causes at typical and quietest traffic.

    ``bins``, ``target``, ``policy`` and ``**options`` as for
    :func:`budgetlab.alerts.episodes.alert_episodes`
    (``target`` may be per-group SLOs: each group's rows then use its own target, and a preset
    ``policy`` name its own ``period``; equal to running each group alone, exactly).

    Window traffic is the number of events in the tier's window at each evaluation (bin end) whose
    window lies fully inside the grid (all evaluations if none does: then ``windows_complete`` is
    False). *Typical* is the median, *quietest* the minimum. One failure among ``n`` events burns
    ``1 / (max(n, 1) * (1 - target))`` (a lone failure in an empty window is the maximum burn).

    Returns
    -------
    DataFrame
        Group keys, ``tier``, ``severity``, ``burn`` (threshold), ``max_burn`` (``1 / (1 -
        target)``), ``can_fire`` (``max_burn > burn``: the tier can fire at all), for ``w`` in
        ``long``/``short`` (single-window tiers repeat the long window): ``events_typical_<w>``,
        ``events_quietest_<w>``, ``one_failure_burn_typical_<w>``,
        ``one_failure_burn_quietest_<w>``; then ``one_failure_fires_quietest`` (one failure at the
        quietest traffic exceeds ``burn`` in both windows: a page for one failed request),
        ``min_failures_typical`` (failures needed to fire at typical traffic; ``<NA>`` when
        impossible), ``one_failure_budget_pct`` (one failure in % of the policy-period budget at the
        group's average traffic, capped at 100), ``windows_complete``. ``attrs`` as
        :func:`~budgetlab.alert_episodes`'.

    Examples
    --------
    >>> from budgetlab.events.schema import as_events
    >>> from budgetlab.windows.binning import bin_events
    >>> ts = pd.date_range("2026-01-01", periods=10 * 24 * 4,
    ...                    freq="6min")  # 10 requests / hour, 4 days
    >>> lt = low_traffic(bin_events(as_events(ts, [True] * len(ts)), "1min"), 0.999,
    ...                  AlertPolicy.workbook())
    >>> lt.loc[:1, ["tier", "events_typical_long", "one_failure_burn_typical_long"]].round(1)
          tier  events_typical_long  one_failure_burn_typical_long
    0  page_1h                 10.0                          100.0
    1  page_6h                 60.0                           16.7
    >>> lt.loc[:1, ["tier", "can_fire", "one_failure_budget_pct"]].round(1)
          tier  can_fire  one_failure_budget_pct
    0  page_1h      True                    13.9
    1  page_6h      True                    13.9
    """
    grid = read_bins(bins, **options)
    parts = policy_parts(grid, target, policy)
    out = in_group_order([(idx, *_low_traffic(sub, tgt, pol)) for idx, sub, tgt, pol in parts])
    out.attrs = policy_attrs(grid, target, parts)
    return out


def _window_traffic(grid: BinGrid, k: int) -> tuple[np.ndarray, np.ndarray, bool]:
    """Per group: the median and the smallest event count of its trailing windows of ``k`` bins
    (complete windows only, when the grid holds one), and whether the grid holds one."""
    n = grid.n_bins
    complete = k <= n
    typical, quietest = np.empty(grid.n_groups), np.empty(grid.n_groups)
    for g0, g1 in grid.chunks(2, _CHUNK_BYTES):  # chunks of groups: memory bounded, same rows
        sums = rolling_sum(grid.dense(g0, g1)[0], k)
        use = sums[:, k - 1:] if complete else sums
        typical[g0:g1] = np.median(use, axis=1).astype(float)
        quietest[g0:g1] = use.min(axis=1).astype(float)
    return typical, quietest, complete


def _low_traffic(grid: BinGrid, target: Any, pol: AlertPolicy) -> tuple[pd.DataFrame, np.ndarray]:
    """The table of :func:`low_traffic` for one policy over ``grid`` and the group of each row."""
    check_policy_bins(pol, grid.freq_ns)
    budget = error_budgets(target, grid)
    n = grid.n_bins
    span_ns = n * grid.freq_ns
    period_events = grid.group_totals() * (pol.period.value / span_ns)
    period_budget = budget * period_events
    one_pct = np.where(period_budget > 0, 100.0 / np.where(period_budget > 0, period_budget, 1.0),
                       100.0)
    one_pct = np.minimum(one_pct, 100.0)
    cache: dict[int, tuple[np.ndarray, np.ndarray, bool]] = {}

    def stats(window: pd.Timedelta) -> tuple[np.ndarray, np.ndarray, bool]:
        k = window_bins(window, grid.freq_ns)
        if k not in cache:
            cache[k] = _window_traffic(grid, k)
        return cache[k]

    rows: list[pd.DataFrame] = []
    for tier in pol.tiers:
        long = stats(tier.long_window)
        short = stats(tier.short_window) if tier.short_window is not None else long
        rows.append(_tier_rows(tier, budget, long, short, one_pct).assign(_t=len(rows)))
    table = pd.concat(rows, ignore_index=True).sort_values(["_g", "_t"],
                                                           kind="stable").reset_index(drop=True)
    groups = table["_g"].to_numpy()
    out = pd.concat([grid.keys_at(groups), table.drop(columns=["_g", "_t"])], axis=1)
    out["tier"] = pd.Categorical(out["tier"], categories=[t.name for t in pol.tiers], ordered=True)
    return out, groups.astype(np.int64)


def _tier_rows(tier: AlertTier, budget: np.ndarray, long: tuple[np.ndarray, np.ndarray, bool],
               short: tuple[np.ndarray, np.ndarray, bool], one_pct: np.ndarray) -> pd.DataFrame:
    """One tier's rows of :func:`low_traffic`, one per group (column ``_g``), from the traffic of
    its long and short windows (:func:`_window_traffic`) and each group's ``budget``."""
    typ_l, quiet_l, comp_l = long
    typ_s, quiet_s, comp_s = short
    thr = tier.burn * budget
    k_l = np.floor(thr * typ_l) + 1
    k_s = np.floor(thr * typ_s) + 1
    feasible = (k_l <= typ_l) & (k_s <= typ_s)
    min_fail = pd.array(np.where(feasible, np.maximum(k_l, k_s), 0).astype(np.int64),
                        dtype="Int64")
    min_fail[~feasible] = pd.NA

    def burn_of(cnt: np.ndarray) -> np.ndarray:
        return np.asarray(1.0 / (np.maximum(cnt, 1.0) * budget))

    return pd.DataFrame({
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
        "one_failure_fires_quietest": ((1.0 / np.maximum(quiet_l, 1.0) > thr)
                                       & (1.0 / np.maximum(quiet_s, 1.0) > thr)),
        "min_failures_typical": min_fail,
        "one_failure_budget_pct": one_pct,
        "windows_complete": comp_l and comp_s,
        "_g": np.arange(len(one_pct)),
    })
