"""Test-only oracle: budgetlab/alerts/scoring.py as of commit 1989377 (the dense SRE path),
docstrings removed, imports made absolute. Never edit: it is what the sparse path must equal."""
# ruff: noqa
# mypy: ignore-errors
from __future__ import annotations
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Unpack
import numpy as np
import pandas as pd
from budgetlab._util.validation import as_list, to_timedelta, utc_from_ns, utc_ns_column
from tests.alerts.oracle_burn import error_budgets, group_slos
from budgetlab.errors import ConfigError, InputError, SchemaError
from budgetlab.events.schema import parse_scope, scope_mask
from budgetlab.slo import SLO
from tests.alerts.oracle_bins import (
    BinGrid,
    BinsLike,
    ReadBinsOptions,
    exclusion_intervals,
    read_bins,
)
from tests.alerts.oracle_episodes import EPISODE_COLUMNS, alert_episodes
from budgetlab.alerts.policy import AlertPolicy
__all__ = ['incident_detections', 'score_alerts', 'compare_policies']
_DAY_NS = 86400 * 10 ** 9
_DEFAULT_PERIOD = '30D'
_NAT = np.iinfo(np.int64).min

def _episode_keys(episodes: pd.DataFrame) -> list[str]:
    attr = episodes.attrs.get('by')
    if isinstance(attr, list) and all((isinstance(k, str) and k in episodes.columns for k in attr)):
        return list(attr)
    return [str(c) for c in episodes.columns if str(c) not in EPISODE_COLUMNS]

def _tiers(episodes: pd.DataFrame, policy: AlertPolicy | None) -> list[tuple[str, str]]:
    if policy is not None:
        return [(t.name, t.severity) for t in policy.tiers]
    attr = episodes.attrs.get('tiers')
    if isinstance(attr, list) and attr:
        return [(str(a), str(b)) for a, b in attr]
    col = episodes['tier']
    names = (
        [str(c) for c in col.cat.categories]
        if isinstance(col.dtype, pd.CategoricalDtype)
        else sorted(col.astype(str).unique())
    )
    sev = dict(zip(col.astype(str), episodes['severity'].astype(str), strict=True))
    missing = [n for n in names if n not in sev]
    if missing:
        raise ConfigError('cannot tell the severity of tiers without episodes; pass policy=.')
    return [(n, sev[n]) for n in names]

def _merge_intervals(gi: np.ndarray, st: np.ndarray, en: np.ndarray) -> tuple[np.ndarray,
                                                                              np.ndarray,
                                                                              np.ndarray]:
    if len(gi) == 0:
        return (gi, st, en)
    order = np.lexsort((st, gi))
    gi, st, en = (gi[order], st[order], en[order])
    out_g, out_s, out_e = ([gi[0]], [st[0]], [en[0]])
    for g, s, e in zip(gi[1:].tolist(), st[1:].tolist(), en[1:].tolist(), strict=True):
        if g == out_g[-1] and s <= out_e[-1]:
            out_e[-1] = max(out_e[-1], e)
        else:
            out_g.append(g)
            out_s.append(s)
            out_e.append(e)
    return (
        np.array(out_g, dtype=np.int64),
        np.array(out_s, dtype=np.int64),
        np.array(out_e, dtype=np.int64),
    )

def _check_tables(episodes: Any, incidents: Any) -> None:
    if not isinstance(episodes, pd.DataFrame):
        raise InputError('episodes must be the DataFrame budgetlab.alert_episodes() returns.')
    for col in ('tier', 'severity', 'start', 'end'):
        if col not in episodes.columns:
            raise SchemaError(f'episodes has no column {col!r}; make it with '
                              'budgetlab.alert_episodes().')
    if not isinstance(incidents, pd.DataFrame):
        raise InputError('incidents must be a DataFrame with incident_id, start, end and scope '
                         'columns.')
    for col in ('incident_id', 'start', 'end'):
        if col not in incidents.columns:
            raise SchemaError(f'incidents has no column {col!r} (columns: incident_id, kind, '
                              'start, end, scope, severity).')

def _group_table(grid: BinGrid | None, by: list[str], episodes: pd.DataFrame) -> pd.DataFrame:
    if grid is not None:
        if sorted(grid.by) != sorted(by):
            raise ConfigError(f'bins are grouped by {grid.by} but episodes by {by}; use the bins '
                              'the episodes came from.')
        return grid.keys[by].astype(str).reset_index(drop=True) if by else grid.keys
    if by:
        return episodes[by].astype(str).drop_duplicates().sort_values(by).reset_index(drop=True)
    return pd.DataFrame(index=pd.RangeIndex(1))

def _episode_groups(episodes: pd.DataFrame, by: list[str], keys: pd.DataFrame) -> np.ndarray:
    if not by:
        return np.zeros(len(episodes), dtype=np.int64)
    lookup = {tuple(r): i for i, r in enumerate(keys[by].itertuples(index=False, name=None))}
    ep_keys = episodes[by].astype(str).itertuples(index=False, name=None)
    try:
        return np.array([lookup[tuple(k)] for k in ep_keys], dtype=np.int64)
    except KeyError:
        raise ConfigError('episodes hold groups that the bins do not have; use the bins the '
                          'episodes came from.') from None

def _span(grid: BinGrid | None, episodes: pd.DataFrame, incidents: pd.DataFrame,
          ep_start: np.ndarray, ep_end: np.ndarray) -> tuple[int, int]:
    if grid is not None:
        return (grid.start_ns, int(grid.bin_end_ns[-1]))
    if 'grid_start' in episodes.attrs and 'grid_end' in episodes.attrs:
        return (int(pd.Timestamp(episodes.attrs['grid_start']).as_unit('ns').value),
                int(pd.Timestamp(episodes.attrs['grid_end']).as_unit('ns').value))
    inc_s = utc_ns_column(incidents['start'], "incidents['start']")
    inc_e = utc_ns_column(incidents['end'], "incidents['end']")
    lo = np.concatenate([ep_start, inc_s])
    hi = np.concatenate([ep_end, inc_e])
    if len(lo) == 0:
        raise InputError('no episodes and no incidents: nothing to score.')
    return (int(lo.min()), int(hi.max()))

def _scored_incidents(incidents: pd.DataFrame, keys: pd.DataFrame, by: list[str],
                      windows: np.ndarray) -> tuple[pd.DataFrame, np.ndarray, np.ndarray,
                                                    np.ndarray]:
    inc = incidents.reset_index(drop=True)
    i_s = utc_ns_column(inc['start'], "incidents['start']")
    i_e = utc_ns_column(inc['end'], "incidents['end']")
    if bool(np.any(i_e <= i_s)):
        raise InputError("incidents has rows with end <= start; 'end' is exclusive and must be "
                         "after 'start'.")
    scopes = inc['scope'].tolist() if 'scope' in inc.columns else ['*'] * len(inc)
    match = np.zeros((len(inc), len(keys)), dtype=bool)
    for i, sc in enumerate(scopes):
        parse_scope(sc)
        match[i] = scope_mask(keys, sc) if by else True
    keep = match.any(axis=1)
    if len(windows):
        pos = np.searchsorted(windows[:, 0], i_s, side='right') - 1
        covered = (pos >= 0) & (i_e <= windows[np.maximum(pos, 0), 1])
        keep &= ~covered
    return (inc.iloc[np.flatnonzero(keep)].reset_index(drop=True), i_s[keep], i_e[keep],
            match[keep])

@dataclass(frozen=True)
class _Matches:
    incidents: np.ndarray
    detected: np.ndarray
    first: np.ndarray
    last: np.ndarray
    detection: np.ndarray
    reset: np.ndarray
    budget_pct: np.ndarray | None
    episodes: int
    true_episodes: int

class _Context:

    def __init__(self, episodes: pd.DataFrame, incidents: pd.DataFrame, *, grace: Any,
                 bins: BinsLike | None, target: Any, period: Any, policy: AlertPolicy | None,
                 options: ReadBinsOptions) -> None:
        _check_tables(episodes, incidents)
        self.grace_ns = int(to_timedelta(grace, name='grace', allow_zero=True).value)
        self.period_ns = None if period is None else int(to_timedelta(period, name='period').value)
        self.by = _episode_keys(episodes)
        self.tiers = _tiers(episodes, policy)
        tier_names = [t for t, _ in self.tiers]
        ep_tier = episodes['tier'].astype(str).to_numpy()
        if set(ep_tier) - set(tier_names):
            raise ConfigError('episodes hold tiers that the policy does not have; pass the policy '
                              'used for them.')
        self.ep_tier = np.array([tier_names.index(t) for t in ep_tier], dtype=np.int64)
        self.ep_start = utc_ns_column(episodes['start'], "episodes['start']")
        self.ep_end = utc_ns_column(episodes['end'], "episodes['end']")
        self.grid: BinGrid | None = None
        if bins is not None:
            if target is None:
                raise ConfigError('bins= needs target= too (for the budget consumed before the '
                                  'first alert).')
            self.grid = read_bins(bins, **options)
        elif (unknown := sorted(set(options) - ReadBinsOptions.__optional_keys__)):
            raise TypeError(f'unexpected keyword arguments {unknown}')
        self.keys = _group_table(self.grid, self.by, episodes)
        self.ep_group = _episode_groups(episodes, self.by, self.keys)
        self.span_start, self.span_end = _span(self.grid, episodes, incidents, self.ep_start,
                                               self.ep_end)
        self.span_ns = max(self.span_end - self.span_start, 1)
        windows = (
            self.grid.exclusions.windows
            if self.grid is not None
            else exclusion_intervals(options.get("exclude_windows"))
        )
        self.inc, self.inc_start, self.inc_end, self.inc_match = _scored_incidents(incidents,
                                                                                   self.keys,
                                                                                   self.by, windows)
        if self.grid is not None:
            g = self.grid
            self.cum_bad = np.zeros((g.n_groups, g.n_bins + 1), dtype=np.int64)
            np.cumsum(g.bad, axis=1, out=self.cum_bad[:, 1:])
            allowed = error_budgets(target, g) * g.total.sum(axis=1)
            self.period_budget = allowed * self._period_factor(target, g)

    def _period_factor(self, target: Any, grid: BinGrid) -> Any:
        if self.period_ns is not None:
            return self.period_ns / self.span_ns
        slos = group_slos(target, grid)
        if slos is not None:
            return np.array([int(s.period.value) / self.span_ns for s in slos], dtype=float)
        period = target.period if isinstance(target, SLO) else pd.Timedelta(_DEFAULT_PERIOD)
        return int(period.value) / self.span_ns

    def bad_between(self, groups: np.ndarray, lo_ns: int, hi_ns: int) -> float:
        g = self.grid
        if g is None:
            raise RuntimeError('bad_between needs bins')
        a = int(np.clip((lo_ns - g.start_ns) // g.freq_ns, 0, g.n_bins))
        b = int(np.clip(-(-(hi_ns - g.start_ns) // g.freq_ns), 0, g.n_bins))
        if b <= a or len(groups) == 0:
            return 0.0
        return float((self.cum_bad[groups, b] - self.cum_bad[groups, a]).sum())

    def match(self, groups: np.ndarray, tiers: list[int]) -> _Matches:
        sel = np.isin(self.ep_group, groups) & np.isin(self.ep_tier, tiers)
        gi, st, en = (self.ep_group[sel], self.ep_start[sel], self.ep_end[sel])
        if len(tiers) > 1:
            gi, st, en = _merge_intervals(gi, st, en)
        i_idx = np.flatnonzero(self.inc_match[:, groups].any(axis=1))
        i_s, i_e = (self.inc_start[i_idx], self.inc_end[i_idx])
        m = self.inc_match[i_idx][:, gi] if len(gi) else np.zeros((len(i_idx), 0), dtype=bool)
        overlap = m & (st[None, :] < (i_e + self.grace_ns)[:, None]) & (en[None, :] > i_s[:, None])
        n_ep = len(gi)
        detected = np.asarray(overlap.any(axis=1), dtype=bool)
        first = np.where(overlap, st[None, :],
                         np.iinfo(np.int64).max).min(axis=1) if n_ep else np.full(len(i_idx), _NAT)
        last = np.where(overlap, en[None, :],
                        np.iinfo(np.int64).min).max(axis=1) if n_ep else np.full(len(i_idx), _NAT)
        pct = None
        if self.grid is not None:
            pct = np.zeros(len(i_idx))
            for j in range(len(i_idx)):
                scope_groups = groups[self.inc_match[i_idx[j], groups]]
                hi = int(first[j]) if bool(detected[j]) else int(i_e[j])
                budget = float(self.period_budget[scope_groups].sum())
                used = self.bad_between(scope_groups, int(i_s[j]), hi)
                pct[j] = 100.0 * used / budget if budget > 0 else 0.0
        return _Matches(
            incidents=i_idx,
            detected=detected,
            first=np.where(detected, first, _NAT),
            last=np.where(detected, last, _NAT),
            detection=np.where(detected, np.maximum(first - i_s, 0), _NAT),
            reset=np.where(detected, last - i_e, _NAT),
            budget_pct=pct,
            episodes=n_ep,
            true_episodes=int(overlap.any(axis=0).sum()),
        )

    def summary(self, m: _Matches) -> dict[str, Any]:
        n_ep, true_ep, detected = (m.episodes, m.true_episodes, m.detected)
        row: dict[str, Any] = {'episodes': n_ep, 'true_episodes': true_ep,
                               'precision': true_ep / n_ep if n_ep else np.nan,
                               'incidents': len(m.incidents), 'detected': int(detected.sum()),
                               'recall': float(detected.mean()) if len(m.incidents) else np.nan}
        d = m.detection[detected]
        r = m.reset[detected]
        row['detection_median'] = pd.Timedelta(int(np.median(d)), unit='ns') if len(d) else pd.NaT
        row['detection_max'] = pd.Timedelta(int(d.max()), unit='ns') if len(d) else pd.NaT
        row['reset_median'] = pd.Timedelta(int(np.median(r)), unit='ns') if len(r) else pd.NaT
        row['reset_max'] = pd.Timedelta(int(r.max()), unit='ns') if len(r) else pd.NaT
        row['alerts_per_day'] = n_ep / (self.span_ns / _DAY_NS)
        row['false_alerts_per_week'] = (n_ep - true_ep) / (self.span_ns / (7 * _DAY_NS))
        if m.budget_pct is not None:
            p = m.budget_pct[detected]
            row['budget_before_alert_median'] = float(np.median(p)) if len(p) else np.nan
            row['budget_before_alert_max'] = float(p.max()) if len(p) else np.nan
        return row

    def incident_table(self, m: _Matches) -> pd.DataFrame:
        per = self.inc.iloc[m.incidents].reset_index(drop=True)
        table = pd.DataFrame(
            {
                "incident_id": per["incident_id"].to_numpy(),
                "kind": per["kind"].to_numpy()
                if "kind" in per.columns
                else np.full(len(per), "", dtype=object),
                "incident_start": utc_from_ns(self.inc_start[m.incidents]),
                "incident_end": utc_from_ns(self.inc_end[m.incidents]),
                "detected": m.detected,
                "first_alert": utc_from_ns(m.first),
                "detection_time": pd.to_timedelta(m.detection.view("timedelta64[ns]")),
                "last_alert_end": utc_from_ns(m.last),
                "reset_time": pd.to_timedelta(m.reset.view("timedelta64[ns]")),
            }
        )
        if m.budget_pct is not None:
            table['budget_before_alert_pct'] = m.budget_pct
        return table

    def selections(self) -> list[tuple[dict[str, str], str, str, np.ndarray, list[int]]]:
        n_groups = len(self.keys)
        group_sel: list[tuple[dict[str, str], np.ndarray]] = []
        if self.by:
            for gidx, rec in enumerate(self.keys[self.by].itertuples(index=False, name=None)):
                group_sel.append((dict(zip(self.by, map(str, rec), strict=True)), np.array([gidx])))
            group_sel.append(({k: '*' for k in self.by}, np.arange(n_groups)))
        else:
            group_sel.append(({}, np.arange(n_groups)))
        tier_sel: list[tuple[str, str, list[int]]] = [
            (name, sev, [j]) for j, (name, sev) in enumerate(self.tiers)
        ]
        severities = list(dict.fromkeys((sev for _, sev in self.tiers)))
        for sev in severities:
            tier_sel.append(('*', sev, [j for j, (_, s) in enumerate(self.tiers) if s == sev]))
        tier_sel.append(('*', '*', list(range(len(self.tiers)))))
        return [(labels, tname, sev, gidx, tidx) for labels, gidx in group_sel for tname, sev,
                tidx in tier_sel]

def incident_detections(episodes: pd.DataFrame, incidents: pd.DataFrame, *, grace: Any='1h',
                        bins: BinsLike | None=None, target: Any=None, period: Any=None,
                        policy: AlertPolicy | None=None,
                        **options: Unpack[ReadBinsOptions]) -> pd.DataFrame:
    ctx = _Context(episodes, incidents, grace=grace, bins=bins, target=target, period=period,
                   policy=policy, options=options)
    parts = []
    for labels, tname, sev, gidx, tidx in ctx.selections():
        table = ctx.incident_table(ctx.match(gidx, tidx))
        head = pd.DataFrame({**{k: [v] * len(table) for k, v in labels.items()},
                             'tier': [tname] * len(table), 'severity': [sev] * len(table)})
        parts.append(pd.concat([head, table], axis=1))
    return pd.concat(parts, ignore_index=True)

def score_alerts(episodes: pd.DataFrame, incidents: pd.DataFrame, *, grace: Any='1h',
                 bins: BinsLike | None=None, target: Any=None, period: Any=None,
                 policy: AlertPolicy | None=None,
                 **options: Unpack[ReadBinsOptions]) -> pd.DataFrame:
    ctx = _Context(episodes, incidents, grace=grace, bins=bins, target=target, period=period,
                   policy=policy, options=options)
    rows = []
    for labels, tname, sev, gidx, tidx in ctx.selections():
        rows.append({**labels, 'tier': tname, 'severity': sev, **ctx.summary(ctx.match(gidx,
                                                                                       tidx))})
    return pd.DataFrame(rows)

def compare_policies(bins: BinsLike, target: Any, policies: Mapping[str, AlertPolicy],
                     incidents: pd.DataFrame, *, by: str | Sequence[str] | None=None,
                     grace: Any='1h', **options: Unpack[ReadBinsOptions]) -> pd.DataFrame:
    if not isinstance(policies, Mapping) or not policies:
        raise ConfigError('policies must be a non-empty dict {name: AlertPolicy}.')
    grid = read_bins(bins, **options)
    if by is not None:
        grid = grid.regroup(as_list(by))
    parts = []
    for name, pol in policies.items():
        if not isinstance(pol, AlertPolicy):
            raise ConfigError(f'policies[{name!r}] is not an AlertPolicy.')
        ep = alert_episodes(grid, target, pol)
        sc = score_alerts(ep, incidents, grace=grace, bins=grid, target=target, period=pol.period,
                          policy=pol)
        sc.insert(0, 'policy', name)
        parts.append(sc)
    return pd.concat(parts, ignore_index=True)
