"""Replay alert policies over binned history: per-evaluation states and firing episodes.

Evaluation happens at every bin end (see :mod:`budgetlab.budget.burn` for the window edges). At an
evaluation time ``t`` a tier's **condition** holds when the error ratio over its long window and
over its short window both exceed ``burn * (1 - target)`` (strictly; a window without traffic
has ratio 0 and never satisfies it). The tier **fires** like a Prometheus alerting rule:

* ``for_``: the condition must hold at every evaluation from ``t0`` to ``t`` with
  ``t - t0 >= for_`` (pending in between); ``for_ = 0`` fires at the first evaluation.
* ``cooldown`` (``keep_firing_for``): once firing, the alert keeps firing at evaluations ``t``
  where the condition has been false since ``t_f`` and ``t - t_f < cooldown``; if the condition
  holds again meanwhile, the alert goes on firing without a new ``for_``.

An **episode** runs from its first firing evaluation (``start``) to the first evaluation at which
it no longer fires (``end``, exclusive; ``end - start`` is a whole number of steps). An episode
still firing at the last evaluation has ``ongoing=True`` and ``end`` one step after it: the last
evaluation's firing holds until the next evaluation, as Prometheus's rule engine counts it (its
firing minutes are the episodes' ``[start, end)``); ``end`` is then where the evaluation stopped
plus one step, not where the alert did.
"""

from __future__ import annotations

from typing import Any, Unpack

import numpy as np
import pandas as pd

from .._util.memory import check_cells
from .._util.validation import utc_from_ns
from .._util.words import counted
from ..budget.burn import error_budgets, group_slos, split_groups
from ..budget.grid_attrs import grid_attrs
from ..slo import SLO
from ..windows.bingrid import BinGrid
from ..windows.bins import BinsLike, ReadBinsOptions, read_bins
from .firing import grid_firing_runs, policy_runs, tier_conditions, tier_steps
from .period_tiers import check_tier_names
from .policy import AlertPolicy, as_policy
from .reach import cannot_fire_note, cannot_fire_rows
from .stretches import stretch_attrs

__all__ = ["alert_states", "alert_episodes", "policy_parts", "policy_attrs", "in_group_order",
           "EPISODE_COLUMNS"]

#: Columns of an episodes table after the group keys.
EPISODE_COLUMNS = ("tier", "severity", "start", "end", "duration", "ongoing")


#: One part of a run: (group positions or None for all, the grid of those groups, their target, the
# policy).
_Part = tuple[np.ndarray | None, BinGrid, Any, AlertPolicy]


def policy_parts(grid: BinGrid, target: Any, policy: Any) -> list[_Part]:
    """The groups of ``grid`` with the policy each runs: one part, or with per-group SLOs and a
    preset name (:data:`~budgetlab.alerts.policy.PRESET_NAMES`) one part per distinct SLO
    ``period`` (the preset is built for each period, in order of the groups' first appearance;
    refused when the builds' tier names differ, :mod:`~budgetlab.alerts.period_tiers`).

    A preset name is built for the SLO's ``period`` (30 days for a bare target or a table); an
    :class:`AlertPolicy` is used as given.
    """
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
        split = split_groups(periods)
        parts: list[_Part] = [(idx, grid.select(idx), targets[idx], as_policy(policy, period=p))
                              for p, idx in split]
        check_tier_names(policy.strip(), [(pd.Timedelta(p), part[3])
                                          for (p, _), part in zip(split, parts, strict=True)])
        return parts
    return [(None, grid, targets, as_policy(policy, period=periods[0]))]


def in_group_order(tables: list[tuple[np.ndarray | None, pd.DataFrame,
                                      np.ndarray]]) -> pd.DataFrame:
    """Tables of group subsets ``(group positions or None, table, group of each row in the
    subset)`` as one table, rows in the order of the groups (stable within a group)."""
    if len(tables) == 1 and tables[0][0] is None:
        return tables[0][1]
    whole = pd.concat([t for _, t, _ in tables], ignore_index=True)
    groups = np.concatenate([gi if idx is None else idx[gi] for idx, _, gi in tables])
    return whole.iloc[np.argsort(groups, kind="stable")].reset_index(drop=True)


def _tier_columns(out: pd.DataFrame, policy: AlertPolicy, codes: np.ndarray) -> None:
    """Add ``tier`` (ordered categorical, policy order) and ``severity`` for tier ``codes``."""
    out["tier"] = pd.Categorical.from_codes(codes,
                                            categories=pd.Index([t.name for t in policy.tiers]),
                                            ordered=True)
    out["severity"] = np.array([t.severity for t in policy.tiers], dtype=object)[codes]


def alert_episodes(bins: BinsLike, target: Any, policy: AlertPolicy | str,
                   **options: Unpack[ReadBinsOptions]) -> pd.DataFrame:
    """Replay ``policy`` over the bins: one row per firing episode.

    Parameters
    ----------
    bins : DataFrame or BinGrid
        Bins table (:func:`budgetlab.bin_events`), or the grid
        :func:`~budgetlab.windows.bins.read_bins` made of it.
    target : float, SLO, DataFrame, PerGroup or mapping
        Success-rate target, per group with a table or per-group SLOs (a
        :class:`~budgetlab.PerGroup` or ``{group key: SLO or target}``, keys a value or a tuple in
        the bins' ``by`` order; see :func:`budgetlab.budget.burn.target_array`). Each group's
        rows equal a run of that group alone with its own SLO, exactly.
    policy : AlertPolicy or str
        Tiers to replay; each tier's windows must be whole numbers of bins. An
        :class:`AlertPolicy` is used as given (its own ``period``); a preset name
        (``"workbook"``, ``"sloth"``, ``"pyrra"``, ``"single_window"``) is built for the SLO's
        ``period`` (30 days for a bare target or a table), and with per-group SLOs whose periods
        differ, for each group's period (groups of one period run together); refused when the
        builds' tier names differ (``"pyrra"``: its names follow its windows, so one name would
        mean two tiers; :mod:`~budgetlab.alerts.period_tiers`).
    **options
        ``freq``, ``exclude_buckets``, ``exclude_windows``, ``exclude_mode``: passed to
        :func:`budgetlab.windows.bins.read_bins` (exclusions at bin resolution).

    Returns
    -------
    DataFrame
        Group keys, ``tier`` (categorical, policy order), ``severity``, ``start``, ``end``
        (datetime64[ns, UTC]; ``end`` exclusive: the first evaluation no longer firing; for an
        ``ongoing`` episode one step after the last evaluation), ``duration`` (Timedelta),
        ``ongoing`` (still firing at the last evaluation). Sorted by
        group keys, ``start``, tier. ``attrs`` holds ``slo`` (the SLO ``target`` stands for,
        :func:`~budgetlab.budget.grid_attrs.target_slo`), ``by``, ``freq``,
        ``grid_start``/``grid_end`` (the span the policy was evaluated over: the bin edges, the
        end excluded), ``freq_ns``, ``tiers`` (name, severity) and ``tier_windows`` (tier name:
        its long window in ns; the longest one when per-group SLOs build a preset for several
        periods) and ``cannot_fire_note``: the tiers that can never fire at their group's target
        (``burn x (1 - target) >= 1``: an error ratio is at most 1), named with their
        thresholds, ``""`` when every tier can fire (:mod:`budgetlab.alerts.reach`), and
        ``cannot_fire``: the same as ``[tier, burn, target, groups]`` entries, ``groups`` the
        keys of the groups at that target (``None``: all), what the alert chart says them by.

    Examples
    --------
    >>> from budgetlab.events.schema import as_events
    >>> from budgetlab.windows.binning import bin_events
    >>> ts = pd.date_range("2026-01-01", periods=120, freq="1min")
    >>> ok = [not (30 <= i < 40) for i in range(120)]  # ten bad minutes
    >>> b = bin_events(as_events(ts, ok), "1min")
    >>> pol = AlertPolicy.single_window("10min",
    ...                                 burn=4.5)  # fires while 5+ of the last 10 bins are bad
    >>> alert_episodes(b, 0.9, pol)[["tier", "start", "end", "ongoing"]]
           tier                     start                       end  ongoing
    0  page_10m 2026-01-01 00:35:00+00:00 2026-01-01 00:46:00+00:00    False
    """
    grid = read_bins(bins, **options)
    parts = policy_parts(grid, target, policy)
    out = in_group_order([(idx, *_episodes(sub, tgt, pol)) for idx, sub, tgt, pol in parts])
    out.attrs = policy_attrs(grid, target, parts)
    return out


def policy_attrs(grid: BinGrid, target: Any, parts: list[_Part]) -> dict[Any, Any]:
    """The ``attrs`` of a table of alert tiers over ``grid`` (:func:`alert_episodes`,
    :func:`alert_states`, :func:`~budgetlab.low_traffic`): ``slo``, ``by``, ``freq``, the bin
    edges ``grid_start``/``grid_end`` (:func:`~budgetlab.budget.grid_attrs.grid_attrs`),
    ``freq_ns``, ``tiers`` ([name, severity] in policy order), ``tier_windows`` (tier name:
    its long window in ns; the longest one when per-group SLOs build a preset for several
    periods), ``cannot_fire_note`` (:func:`~budgetlab.alerts.reach.cannot_fire_note`) and
    ``cannot_fire``, the same tiers as data (:func:`~budgetlab.alerts.reach.cannot_fire_rows`),
    and ``stretches``: where each group's traffic begins a stretch whose long window fills afresh
    (:func:`~budgetlab.alerts.filling.stretch_attrs`)."""
    tiers = list(dict.fromkeys((t.name, t.severity) for _, _, _, pol in parts for t in pol.tiers))
    long_ns: dict[str, int] = {}
    for _, _, _, pol in parts:
        for t in pol.tiers:
            long_ns[t.name] = max(long_ns.get(t.name, 0), int(t.long_window.value))
    return {**grid_attrs(grid, target), "freq_ns": grid.freq_ns,
            "tiers": [list(t) for t in tiers], "tier_windows": long_ns,
            "cannot_fire_note": cannot_fire_note(grid, parts),
            "cannot_fire": cannot_fire_rows(grid, parts),
            "stretches": stretch_attrs(grid, min(long_ns.values(), default=0))}


def _episodes(grid: BinGrid, target: Any, pol: AlertPolicy) -> tuple[pd.DataFrame, np.ndarray]:
    """The episodes table of one policy over ``grid`` (no attrs) and the group of each row."""
    runs = policy_runs(grid, target, pol)
    end_ns = grid.bin_end_ns
    gi = np.concatenate([r[0] for r in runs])
    ti = np.repeat(np.arange(len(runs), dtype=np.int64), [len(r[0]) for r in runs])
    st = end_ns[np.concatenate([r[1] for r in runs])]
    en = end_ns[np.concatenate([r[2] for r in runs]) - 1] + grid.freq_ns
    og = np.concatenate([r[3] for r in runs])
    order = np.lexsort((ti, st, gi))
    gi, ti, st, en, og = gi[order], ti[order], st[order], en[order], og[order]
    out = grid.keys_at(gi)
    _tier_columns(out, pol, ti.astype(np.int64))
    out["start"] = utc_from_ns(st)
    out["end"] = utc_from_ns(en)
    out["duration"] = out["end"] - out["start"]
    out["ongoing"] = og.astype(bool)
    return out, gi.astype(np.int64)


def alert_states(bins: BinsLike, target: Any, policy: AlertPolicy | str,
                 **options: Unpack[ReadBinsOptions]) -> pd.DataFrame:
    """Per-evaluation state of every tier: burn rates, condition and firing.

    Same parameters as :func:`alert_episodes`.

    Returns
    -------
    DataFrame
        One row per group, tier and bin end (in that order): group keys, ``tier``
        (categorical), ``severity``, ``bin_end``, ``burn_long``, ``burn_short`` (single-window
        tiers repeat ``burn_long``), ``condition`` (both burns above the threshold),
        ``firing`` (after ``for_`` and ``cooldown``; what Prometheus would report as firing).
        ``attrs`` as :func:`alert_episodes`'.

    Examples
    --------
    >>> from budgetlab.events.schema import as_events
    >>> from budgetlab.windows.binning import bin_events
    >>> b = bin_events(as_events(pd.date_range("2026-01-01", periods=4, freq="1min"),
    ...                          [True, False, False, True]), "1min")
    >>> st = alert_states(b, 0.9, AlertPolicy.single_window("1min", burn=1.0, for_="1min"))
    >>> st[["bin_end", "burn_long", "condition", "firing"]]
                        bin_end  burn_long  condition  firing
    0 2026-01-01 00:01:00+00:00        0.0      False   False
    1 2026-01-01 00:02:00+00:00       10.0       True   False
    2 2026-01-01 00:03:00+00:00       10.0       True    True
    3 2026-01-01 00:04:00+00:00        0.0      False   False
    """
    grid = read_bins(bins, **options)
    parts = policy_parts(grid, target, policy)
    tiers = max(len(pol.tiers) for _, _, _, pol in parts)
    windows = max(len({w for t in pol.tiers for w in t.windows}) for _, _, _, pol in parts)
    # per group x bin: ~56 B per tier (the table's row and its stacked columns), ~24 B per window
    # (rolling sums, ratio, burn rate); measured 372 B for the workbook's 4 tiers and 7 windows
    check_cells(grid.n_groups, grid.n_bins, 56.0 * tiers + 24.0 * windows,
                f"alert_states of {counted(tiers, 'tier')}",
                ["use alert_episodes (the episodes only, sparse)", "a coarser freq=",
                 "fewer groups (by=)",
                 "a shorter span (start=/end= in bin_events)"])
    out = in_group_order([(idx, *_states(sub, tgt, pol)) for idx, sub, tgt, pol in parts])
    out.attrs = policy_attrs(grid, target, parts)
    return out


def _states(grid: BinGrid, target: Any, pol: AlertPolicy) -> tuple[pd.DataFrame, np.ndarray]:
    """The states table of one policy over ``grid`` and the group of each row."""
    conditions = tier_conditions(grid, error_budgets(target, grid), pol)
    n, g_n, t_n = grid.n_bins, grid.n_groups, len(pol.tiers)
    fire_all = np.zeros((g_n, t_n, n), dtype=bool)
    for j, (tier, (cond, _, _)) in enumerate(zip(pol.tiers, conditions, strict=True)):
        group, first, stop, _ = grid_firing_runs(cond, *tier_steps(tier, grid.freq_ns))
        delta = np.zeros((g_n, n + 1), dtype=np.int64)
        np.add.at(delta, (group, first), 1)
        np.add.at(delta, (group, stop), -1)
        fire_all[:, j] = np.cumsum(delta[:, :-1], axis=1) > 0
    out = grid.long_keys(t_n * n)
    _tier_columns(out, pol, np.tile(np.repeat(np.arange(t_n), n), g_n))
    out["bin_end"] = utc_from_ns(np.tile(grid.bin_end_ns, g_n * t_n))
    out["burn_long"] = np.stack([burn for _, burn, _ in conditions], axis=1).ravel()
    out["burn_short"] = np.stack([burn for _, _, burn in conditions], axis=1).ravel()
    out["condition"] = np.stack([cond for cond, _, _ in conditions], axis=1).ravel()
    out["firing"] = fire_all.ravel()
    return out, np.repeat(np.arange(g_n, dtype=np.int64), t_n * n)
