"""Score alert episodes against labelled incidents: precision, recall, detection and reset times.

**Matching rule.** An episode of group ``g`` *matches* an incident when the incident's ``scope``
covers ``g`` (:func:`budgetlab.events.schema.scope_mask`: a scope key the episodes are not grouped by
does not restrict) **and** the episode overlaps the incident's time span extended by ``grace``:
``episode.start < incident.end + grace`` and ``episode.end > incident.start``.

* **precision**: share of episodes that match at least one incident;
* **recall**: share of incidents (whose scope covers at least one group of the row) matched by at
  least one episode;
* **detection time**: first matching episode start − incident start, clipped at 0 (an alert
  already firing when the incident starts detects it at once);
* **reset time**: end of the last matching episode − incident end (signed: negative when the
  alert stopped before the incident did);
* **pages per day / false pages per week**: episodes (notifications) of the row per day, and
  unmatched ones per week, over the row's **observed time** (``observed_days``): the bins at whose
  end the tier's long window holds at least one event (:mod:`budgetlab.alerts.observed`; merged
  tiers: the longest long window; ``"*"`` groups: traffic of any group). Silence is not counted.
  Without ``bins`` traffic is unknown: the evaluated span;
* **budget before alert**: failures in the incident's scope from the bin holding its start up to
  the first alert (up to its end when undetected), in % of the period budget
  ``(1 - target) * events per period`` (the average traffic of the grid scaled to ``period``).
  Needs ``bins`` and ``target``.

Rows: one per group (and ``"*"``, all groups together: an incident counts as detected when any
group's episode matches it) and per tier, plus per-severity (``tier="*"``, one severity) and
overall (``tier="*"``, ``severity="*"``) rows, where the episodes of the tiers involved are
merged per group (overlapping intervals are one notification, like an OR-ed alert rule).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Unpack

import numpy as np
import pandas as pd

from .._util.validation import as_list, to_timedelta, utc_from_ns, utc_ns_column
from ..budget.burn import error_budgets, group_slos
from ..errors import ConfigError, InputError, SchemaError
from ..events.schema import parse_scope, scope_mask
from ..slo import SLO
from ..windows.bins import BinGrid, BinsLike, ReadBinsOptions, exclusion_intervals, read_bins
from .episodes import EPISODE_COLUMNS, alert_episodes
from .group_scores import (
    BadCounts,
    ScoreSpan,
    group_scores,
    merge_intervals,
    overlaps,
    summary_columns,
)
from .observed import ObservedTime
from .policy import AlertPolicy
from .score_table import rows_to_columns, score_table

__all__ = ["incident_detections", "score_alerts", "compare_policies"]

_DAY_NS = 86_400 * 10**9
_DEFAULT_PERIOD = "30D"
_NAT = np.iinfo(np.int64).min


def _episode_keys(episodes: pd.DataFrame) -> list[str]:
    attr = episodes.attrs.get("by")
    if isinstance(attr, list) and all(isinstance(k, str) and k in episodes.columns for k in attr):
        return list(attr)
    return [str(c) for c in episodes.columns if str(c) not in EPISODE_COLUMNS]


def _tiers(episodes: pd.DataFrame, policy: AlertPolicy | None) -> list[tuple[str, str]]:
    if policy is not None:
        return [(t.name, t.severity) for t in policy.tiers]
    attr = episodes.attrs.get("tiers")
    if isinstance(attr, list) and attr:
        return [(str(a), str(b)) for a, b in attr]
    col = episodes["tier"]
    names = [str(c) for c in col.cat.categories] if isinstance(col.dtype, pd.CategoricalDtype) else sorted(col.astype(str).unique())
    sev = dict(zip(col.astype(str), episodes["severity"].astype(str), strict=True))
    missing = [n for n in names if n not in sev]
    if missing:
        raise ConfigError("cannot tell the severity of tiers without episodes; pass policy=.")
    return [(n, sev[n]) for n in names]


def _tier_window(attr: Any, name: str) -> int | None:
    """A tier's long window in ns from the episodes' ``tier_windows`` attrs (``None``: unknown)."""
    value = attr.get(name) if isinstance(attr, dict) else None
    return int(value) if isinstance(value, (int, np.integer)) and value > 0 else None


def _check_tables(episodes: Any, incidents: Any) -> None:
    if not isinstance(episodes, pd.DataFrame):
        raise InputError("episodes must be the DataFrame budgetlab.alert_episodes() returns.")
    for col in ("tier", "severity", "start", "end"):
        if col not in episodes.columns:
            raise SchemaError(f"episodes has no column {col!r}; make it with budgetlab.alert_episodes().")
    if not isinstance(incidents, pd.DataFrame):
        raise InputError("incidents must be a DataFrame with incident_id, start, end and scope columns.")
    for col in ("incident_id", "start", "end"):
        if col not in incidents.columns:
            raise SchemaError(f"incidents has no column {col!r} (columns: incident_id, kind, start, end, scope, severity).")


def _group_table(grid: BinGrid | None, by: list[str], episodes: pd.DataFrame) -> pd.DataFrame:
    """One row per group scored: the groups of the bins, else those of the episodes."""
    if grid is not None:
        if sorted(grid.by) != sorted(by):
            raise ConfigError(f"bins are grouped by {grid.by} but episodes by {by}; use the bins the episodes came from.")
        return grid.keys[by].astype(str).reset_index(drop=True) if by else grid.keys
    if by:
        return episodes[by].astype(str).drop_duplicates().sort_values(by).reset_index(drop=True)
    return pd.DataFrame(index=pd.RangeIndex(1))


def _episode_groups(episodes: pd.DataFrame, by: list[str], keys: pd.DataFrame) -> np.ndarray:
    """Row of ``keys`` of every episode."""
    if not by:
        return np.zeros(len(episodes), dtype=np.int64)
    def index(frame: pd.DataFrame) -> pd.Index:
        cols = [frame[k].astype(str).to_numpy(dtype=object) for k in by]
        return pd.MultiIndex.from_arrays(cols) if len(cols) > 1 else pd.Index(cols[0])

    pos = np.asarray(index(keys).get_indexer(index(episodes)), dtype=np.int64)
    if bool(np.any(pos < 0)):
        raise ConfigError("episodes hold groups that the bins do not have; use the bins the episodes came from.")
    return pos


def _span(grid: BinGrid | None, episodes: pd.DataFrame, incidents: pd.DataFrame, ep_start: np.ndarray,
          ep_end: np.ndarray) -> tuple[int, int]:
    """``(start, end)`` in ns of the evaluated grid: the bins', else the episodes' attrs, else
    what the episodes and incidents cover."""
    if grid is not None:
        return grid.start_ns, int(grid.bin_end_ns[-1])
    if "grid_start" in episodes.attrs and "grid_end" in episodes.attrs:
        return (int(pd.Timestamp(episodes.attrs["grid_start"]).as_unit("ns").value),
                int(pd.Timestamp(episodes.attrs["grid_end"]).as_unit("ns").value))
    inc_s = utc_ns_column(incidents["start"], "incidents['start']")
    inc_e = utc_ns_column(incidents["end"], "incidents['end']")
    lo = np.concatenate([ep_start, inc_s])
    hi = np.concatenate([ep_end, inc_e])
    if len(lo) == 0:
        raise InputError("no episodes and no incidents: nothing to score.")
    return int(lo.min()), int(hi.max())


def _scored_incidents(incidents: pd.DataFrame, keys: pd.DataFrame, by: list[str],
                      windows: np.ndarray) -> tuple[pd.DataFrame, np.ndarray, np.ndarray, np.ndarray]:
    """``(incidents, start_ns, end_ns, match)`` of the incidents to score: those whose scope
    covers a group (``match[i, g]``) and that do not lie entirely in an excluded window."""
    inc = incidents.reset_index(drop=True)
    i_s = utc_ns_column(inc["start"], "incidents['start']")
    i_e = utc_ns_column(inc["end"], "incidents['end']")
    if bool(np.any(i_e <= i_s)):
        raise InputError("incidents has rows with end <= start; 'end' is exclusive and must be after 'start'.")
    scopes = inc["scope"].tolist() if "scope" in inc.columns else ["*"] * len(inc)
    match = np.zeros((len(inc), len(keys)), dtype=bool)
    for i, sc in enumerate(scopes):
        parse_scope(sc)  # validates
        match[i] = scope_mask(keys, sc) if by else True
    keep = match.any(axis=1)
    if len(windows):
        pos = np.searchsorted(windows[:, 0], i_s, side="right") - 1
        covered = (pos >= 0) & (i_e <= windows[np.maximum(pos, 0), 1])
        keep &= ~covered
    return inc.iloc[np.flatnonzero(keep)].reset_index(drop=True), i_s[keep], i_e[keep], match[keep]


@dataclass(frozen=True)
class _Matches:
    """How the episodes of one row matched its incidents: arrays with one value per incident."""

    incidents: np.ndarray  # positions in _Context.inc
    detected: np.ndarray
    first: np.ndarray  # first matching episode start (ns; NaT when undetected)
    last: np.ndarray  # last matching episode end
    detection: np.ndarray  # ns, clipped at 0
    reset: np.ndarray  # ns, signed
    budget_pct: np.ndarray | None  # budget spent before the alert, with bins
    episodes: int
    true_episodes: int


class _Context:
    """Everything the scoring of one episodes table needs, parsed once."""

    def __init__(self, episodes: pd.DataFrame, incidents: pd.DataFrame, *, grace: Any, bins: BinsLike | None,
                 target: Any, period: Any, policy: AlertPolicy | None, options: ReadBinsOptions) -> None:
        _check_tables(episodes, incidents)
        self.grace_ns = int(to_timedelta(grace, name="grace", allow_zero=True).value)
        self.period_ns = None if period is None else int(to_timedelta(period, name="period").value)
        self.by = _episode_keys(episodes)
        self.tiers = _tiers(episodes, policy)
        tier_names = [t for t, _ in self.tiers]
        ep_tier = episodes["tier"].astype(str).to_numpy()
        if set(ep_tier) - set(tier_names):
            raise ConfigError("episodes hold tiers that the policy does not have; pass the policy used for them.")
        self.ep_tier = np.array([tier_names.index(t) for t in ep_tier], dtype=np.int64)
        self.ep_start = utc_ns_column(episodes["start"], "episodes['start']")
        self.ep_end = utc_ns_column(episodes["end"], "episodes['end']")
        self.grid: BinGrid | None = None
        if bins is not None:
            if target is None:
                raise ConfigError("bins= needs target= too (for the budget consumed before the first alert).")
            self.grid = read_bins(bins, **options)
        elif unknown := sorted(set(options) - ReadBinsOptions.__optional_keys__):
            raise TypeError(f"unexpected keyword arguments {unknown}")  # read_bins() says so when bins are given
        self.keys = _group_table(self.grid, self.by, episodes)
        self.ep_group = _episode_groups(episodes, self.by, self.keys)
        self.span_start, self.span_end = _span(self.grid, episodes, incidents, self.ep_start, self.ep_end)
        self.span_ns = max(self.span_end - self.span_start, 1)
        windows = (self.grid.exclusions.windows if self.grid is not None
                   else exclusion_intervals(options.get("exclude_windows")))
        self.inc, self.inc_start, self.inc_end, self.inc_match = _scored_incidents(incidents, self.keys, self.by,
                                                                                   windows)
        # episodes sorted once by (group, tier), table order kept inside: the episodes of group g and
        # tier t are self.ep_order[self.ep_bounds[g * T + t]:self.ep_bounds[g * T + t + 1]]
        n_tiers = len(self.tiers)
        cell = self.ep_group * n_tiers + self.ep_tier
        self.ep_order = np.argsort(cell, kind="stable")
        self.ep_bounds = np.zeros(len(self.keys) * n_tiers + 1, dtype=np.int64)
        np.cumsum(np.bincount(cell, minlength=len(self.keys) * n_tiers), out=self.ep_bounds[1:])
        if self.grid is not None:
            g = self.grid
            self.bad_counts = BadCounts(g.cell_group, g.cell_bin, g.cell_bad, g.n_bins)
            allowed = error_budgets(target, g) * g.group_totals()
            self.period_budget = allowed * self._period_factor(target, g)
        windows_attr = episodes.attrs.get("tier_windows")
        long_ns: list[int | None] = ([int(t.long_window.value) for t in policy.tiers] if policy is not None else
                                     [_tier_window(windows_attr, name) for name in tier_names])
        self.observed = ObservedTime(self.grid, long_ns, span_ns=self.span_ns, n_groups=len(self.keys))

    def _period_factor(self, target: Any, grid: BinGrid) -> Any:
        """Budget period / evaluated span: ``period`` if given, else the SLO's period (per group
        with per-group SLOs), else 30 days."""
        if self.period_ns is not None:
            return self.period_ns / self.span_ns
        slos = group_slos(target, grid)
        if slos is not None:
            return np.array([int(s.period.value) / self.span_ns for s in slos], dtype=float)
        period = target.period if isinstance(target, SLO) else pd.Timedelta(_DEFAULT_PERIOD)
        return int(period.value) / self.span_ns

    def _selected(self, groups: np.ndarray, tiers: list[int]) -> np.ndarray:
        """Positions of the episodes of ``tiers`` in ``groups`` (one group or all of them), in table order."""
        if len(groups) == 1:
            g, n_tiers = int(groups[0]), len(self.tiers)
            parts = [self.ep_order[self.ep_bounds[g * n_tiers + t]:self.ep_bounds[g * n_tiers + t + 1]] for t in tiers]
            return np.sort(np.concatenate(parts)) if len(parts) > 1 else parts[0]
        if len(groups) == len(self.keys):
            return np.flatnonzero(np.isin(self.ep_tier, tiers))
        return np.flatnonzero(np.isin(self.ep_group, groups) & np.isin(self.ep_tier, tiers))  # pragma: no cover

    def _one_group_pct(self, g: int, lo_ns: np.ndarray, hi_ns: np.ndarray) -> np.ndarray:
        """Budget spent between ``lo_ns`` and ``hi_ns`` (per incident) in group ``g``, in % of its period
        budget: :meth:`bad_between` for one group, vectorized over incidents."""
        grid = self.grid
        if grid is None:  # pragma: no cover - callers check
            raise RuntimeError("needs bins")
        a = np.clip((lo_ns - grid.start_ns) // grid.freq_ns, 0, grid.n_bins)
        b = np.clip(-(-(hi_ns - grid.start_ns) // grid.freq_ns), 0, grid.n_bins)
        used = self.bad_counts.between(np.full(len(a), g, dtype=np.int64), a, b).astype(float)
        budget = float(self.period_budget[g])
        return np.full(len(used), 100.0) * used / budget if budget > 0 else np.zeros(len(used))

    def bad_between(self, groups: np.ndarray, lo_ns: int, hi_ns: int) -> float:
        g = self.grid
        if g is None:  # pragma: no cover - callers check
            raise RuntimeError("bad_between needs bins")
        a = int(np.clip((lo_ns - g.start_ns) // g.freq_ns, 0, g.n_bins))
        b = int(np.clip(-(-(hi_ns - g.start_ns) // g.freq_ns), 0, g.n_bins))
        if b <= a or len(groups) == 0:
            return 0.0
        n = len(groups)
        return float(self.bad_counts.between(groups, np.full(n, a), np.full(n, b)).sum())

    def match(self, groups: np.ndarray, tiers: list[int]) -> _Matches:
        """Match the episodes of ``tiers`` in ``groups`` (merged when several tiers) to the
        incidents whose scope covers one of ``groups``."""
        sel = self._selected(groups, tiers)
        gi, st, en = self.ep_group[sel], self.ep_start[sel], self.ep_end[sel]
        if len(tiers) > 1:
            gi, st, en = merge_intervals(gi, st, en)
        one = len(groups) == 1
        i_idx = np.flatnonzero(self.inc_match[:, groups[0]] if one else self.inc_match[:, groups].any(axis=1))
        i_s, i_e = self.inc_start[i_idx], self.inc_end[i_idx]
        n_ep = len(gi)
        detected, first, last, hit = overlaps(self.inc_match, i_idx, i_s, i_e + self.grace_ns, gi, st, en, one)
        pct = None
        if self.grid is not None and one:
            pct = self._one_group_pct(int(groups[0]), i_s, np.where(detected, first, i_e))
        elif self.grid is not None:
            pct = np.zeros(len(i_idx))
            for j in range(len(i_idx)):
                scope_groups = groups[self.inc_match[i_idx[j], groups]]
                hi = int(first[j]) if bool(detected[j]) else int(i_e[j])
                budget = float(self.period_budget[scope_groups].sum())
                used = self.bad_between(scope_groups, int(i_s[j]), hi)
                pct[j] = 100.0 * used / budget if budget > 0 else 0.0  # used > 0 implies budget > 0
        return _Matches(
            incidents=i_idx,
            detected=detected,
            first=np.where(detected, first, _NAT),
            last=np.where(detected, last, _NAT),
            detection=np.where(detected, np.maximum(first - i_s, 0), _NAT),
            reset=np.where(detected, last - i_e, _NAT),
            budget_pct=pct,
            episodes=n_ep,
            true_episodes=int(hit.sum()),
        )

    def group_columns(self, tiers: list[int]) -> dict[str, np.ndarray]:
        """:meth:`summary` of every single group's row for ``tiers``, all groups at once, one array
        per column (row by row when some group's episodes overlap each other)."""
        sel = np.flatnonzero(np.isin(self.ep_tier, tiers))
        gi, st, en = self.ep_group[sel], self.ep_start[sel], self.ep_end[sel]
        if len(tiers) > 1:
            gi, st, en = merge_intervals(gi, st, en)
        n_groups = len(self.keys)
        gs = group_scores(n_groups, self.inc_match, self.inc_start, self.inc_end + self.grace_ns, gi, st, en)
        observed = self.observed.of(tiers)[0]
        if gs is None:
            return rows_to_columns([self.summary(self.match(np.array([g]), tiers), float(observed[g]))
                                    for g in range(n_groups)])
        span = ScoreSpan(observed, _DAY_NS)
        if self.grid is not None:
            span = ScoreSpan(observed, _DAY_NS, self.grid.start_ns, self.grid.freq_ns, self.grid.n_bins,
                             self.bad_counts, np.broadcast_to(np.asarray(self.period_budget, dtype=float), (n_groups,)))
        return summary_columns(gs, n_groups, self.inc_start, self.inc_end, span)

    def summary(self, m: _Matches, observed_ns: float) -> dict[str, Any]:
        """The scores of one row (the columns of :func:`score_alerts` after the labels), its rates
        over ``observed_ns`` (:class:`~budgetlab.alerts.observed.ObservedTime`)."""
        n_ep, true_ep, detected = m.episodes, m.true_episodes, m.detected
        row: dict[str, Any] = {
            "episodes": n_ep,
            "true_episodes": true_ep,
            "precision": true_ep / n_ep if n_ep else np.nan,
            "incidents": len(m.incidents),
            "detected": int(detected.sum()),
            "recall": float(detected.mean()) if len(m.incidents) else np.nan,
        }
        d = m.detection[detected]
        r = m.reset[detected]
        row["detection_median"] = pd.Timedelta(int(np.median(d)), unit="ns") if len(d) else pd.NaT
        row["detection_max"] = pd.Timedelta(int(d.max()), unit="ns") if len(d) else pd.NaT
        row["reset_median"] = pd.Timedelta(int(np.median(r)), unit="ns") if len(r) else pd.NaT
        row["reset_max"] = pd.Timedelta(int(r.max()), unit="ns") if len(r) else pd.NaT
        row["pages_per_day"] = n_ep / (observed_ns / _DAY_NS) if observed_ns > 0 else np.nan
        row["false_pages_per_week"] = (n_ep - true_ep) / (observed_ns / (7 * _DAY_NS)) if observed_ns > 0 else np.nan
        row["observed_days"] = observed_ns / _DAY_NS
        if m.budget_pct is not None:
            p = m.budget_pct[detected]
            row["budget_before_alert_median"] = float(np.median(p)) if len(p) else np.nan
            row["budget_before_alert_max"] = float(p.max()) if len(p) else np.nan
        return row

    def incident_table(self, m: _Matches) -> pd.DataFrame:
        """One row per incident of the match (the columns of :func:`incident_detections` after the labels)."""
        per = self.inc.iloc[m.incidents].reset_index(drop=True)
        table = pd.DataFrame({
            "incident_id": per["incident_id"].to_numpy(),
            "kind": per["kind"].to_numpy() if "kind" in per.columns else np.full(len(per), "", dtype=object),
            "incident_start": utc_from_ns(self.inc_start[m.incidents]),
            "incident_end": utc_from_ns(self.inc_end[m.incidents]),
            "detected": m.detected,
            "first_alert": utc_from_ns(m.first),
            "detection_time": pd.to_timedelta(m.detection.view("timedelta64[ns]")),
            "last_alert_end": utc_from_ns(m.last),
            "reset_time": pd.to_timedelta(m.reset.view("timedelta64[ns]")),
        })
        if m.budget_pct is not None:
            table["budget_before_alert_pct"] = m.budget_pct
        return table

    def tier_selections(self) -> list[tuple[str, str, list[int]]]:
        """(tier label, severity label, tier indices) per tier selection: each tier, each
        severity's tiers merged, all tiers merged."""
        tier_sel: list[tuple[str, str, list[int]]] = [(name, sev, [j]) for j, (name, sev) in enumerate(self.tiers)]
        severities = list(dict.fromkeys(sev for _, sev in self.tiers))
        for sev in severities:
            tier_sel.append(("*", sev, [j for j, (_, s) in enumerate(self.tiers) if s == sev]))
        tier_sel.append(("*", "*", list(range(len(self.tiers)))))
        return tier_sel

    def selections(self) -> list[tuple[dict[str, str], str, str, np.ndarray, list[int]]]:
        """(group labels, tier label, severity label, group indices, tier indices) per row."""
        n_groups = len(self.keys)
        group_sel: list[tuple[dict[str, str], np.ndarray]] = []
        if self.by:
            for gidx, rec in enumerate(self.keys[self.by].itertuples(index=False, name=None)):
                group_sel.append((dict(zip(self.by, map(str, rec), strict=True)), np.array([gidx])))
            group_sel.append(({k: "*" for k in self.by}, np.arange(n_groups)))
        else:
            group_sel.append(({}, np.arange(n_groups)))
        return [(labels, tname, sev, gidx, tidx) for labels, gidx in group_sel for tname, sev, tidx in self.tier_selections()]


def incident_detections(episodes: pd.DataFrame, incidents: pd.DataFrame, *, grace: Any = "1h",
                        bins: BinsLike | None = None, target: Any = None, period: Any = None,
                        policy: AlertPolicy | None = None, **options: Unpack[ReadBinsOptions]) -> pd.DataFrame:
    """Per incident, group and tier: was it detected, when, and when did the alert reset.

    Same rows and matching rules as :func:`score_alerts` (see the module docs), one row per
    incident in the row's scope.

    Returns
    -------
    DataFrame
        Group keys (str, ``"*"`` = all groups), ``tier``, ``severity``, ``incident_id``,
        ``kind``, ``incident_start``, ``incident_end``, ``detected``, ``first_alert``,
        ``detection_time``, ``last_alert_end``, ``reset_time`` (NaT when undetected), and with
        ``bins``: ``budget_before_alert_pct`` (through the incident end when undetected).
    """
    ctx = _Context(episodes, incidents, grace=grace, bins=bins, target=target, period=period, policy=policy,
                   options=options)
    parts = []
    for labels, tname, sev, gidx, tidx in ctx.selections():
        table = ctx.incident_table(ctx.match(gidx, tidx))
        head = pd.DataFrame({**{k: [v] * len(table) for k, v in labels.items()},
                             "tier": [tname] * len(table), "severity": [sev] * len(table)})
        parts.append(pd.concat([head, table], axis=1))
    return pd.concat(parts, ignore_index=True)


def score_alerts(episodes: pd.DataFrame, incidents: pd.DataFrame, *, grace: Any = "1h",
                 bins: BinsLike | None = None, target: Any = None, period: Any = None,
                 policy: AlertPolicy | None = None, **options: Unpack[ReadBinsOptions]) -> pd.DataFrame:
    """Precision, recall, detection / reset times and alert load of replayed alert episodes.

    Parameters
    ----------
    episodes : DataFrame
        From :func:`budgetlab.alert_episodes`.
    incidents : DataFrame
        Ground truth: ``incident_id``, ``start``, ``end`` (exclusive), optional ``scope``
        (``"region=fra"``; ``"*"`` = everything) and ``kind``.
    grace : duration
        How long after an incident's end an alert still counts as detecting it (default 1 h).
    bins, target : optional
        The bins (table or :class:`~budgetlab.windows.bins.BinGrid`) and target the episodes were
        computed from. ``bins`` gives every group a row (also groups that never alerted), the
        exact span for per-day rates, and the budget-before-alert columns. ``target`` is a
        number, an SLO, a target table or per-group SLOs (a :class:`~budgetlab.PerGroup` or a
        mapping, as for :func:`budgetlab.alert_episodes`).
    period : duration, optional
        Period of the budget the percentages refer to. Default: the SLO's ``period`` (each
        group's own with per-group SLOs), 30 days for a bare target or a table.
    policy : AlertPolicy, optional
        Tier names and severities (needed when some tier has no episode and ``attrs`` were lost).
    **options
        ``freq``, ``exclude_buckets``, ``exclude_windows``, ``exclude_mode``: applied to ``bins``
        by :func:`budgetlab.windows.bins.read_bins`. Incidents entirely inside an excluded window
        (given here, or recorded on a ``BinGrid``) are not scored.

    Returns
    -------
    DataFrame
        One row per group (``"*"`` = all) and tier (``"*"`` = merged tiers of a ``severity``,
        or of all when ``severity == "*"``): group keys (str), ``tier``, ``severity``,
        ``episodes``, ``true_episodes``, ``precision`` (NaN without episodes), ``incidents``,
        ``detected``, ``recall`` (NaN without incidents), ``detection_median``,
        ``detection_max``, ``reset_median``, ``reset_max`` (Timedelta over detected incidents,
        NaT if none), ``pages_per_day``, ``false_pages_per_week`` (over the observed time; NaN
        when the window never held traffic), ``observed_days`` (the observed time in days: the
        bins whose tier's long window holds traffic; the evaluated span without ``bins``), and
        with ``bins``: ``budget_before_alert_median``, ``budget_before_alert_max`` (% of the
        period budget, detected incidents). ``precision`` of a tier that never fired is NaN
        here (there is no share of zero pages); the CLI prints it as ``never fired``.

    Examples
    --------
    >>> ep = pd.DataFrame({"tier": pd.Categorical(["page_1h", "page_1h"]), "severity": ["page", "page"],
    ...     "start": pd.to_datetime(["2026-01-01 10:05", "2026-01-02 03:00"], utc=True),
    ...     "end": pd.to_datetime(["2026-01-01 11:00", "2026-01-02 03:10"], utc=True)})
    >>> inc = pd.DataFrame({"incident_id": ["i1", "i2"], "scope": ["*", "*"],
    ...     "start": pd.to_datetime(["2026-01-01 10:00", "2026-01-03 00:00"], utc=True),
    ...     "end": pd.to_datetime(["2026-01-01 10:30", "2026-01-03 01:00"], utc=True)})
    >>> s = score_alerts(ep, inc, grace="0s")
    >>> s.loc[[0], ["tier", "episodes", "precision", "recall", "detection_median", "reset_median"]]
          tier  episodes  precision  recall detection_median    reset_median
    0  page_1h         2        0.5     0.5  0 days 00:05:00 0 days 00:30:00
    """
    ctx = _Context(episodes, incidents, grace=grace, bins=bins, target=target, period=period, policy=policy,
                   options=options)
    tier_sel = ctx.tier_selections()
    every = np.arange(len(ctx.keys))
    star = rows_to_columns([ctx.summary(ctx.match(every, tidx), ctx.observed.of(tidx)[1]) for _, _, tidx in tier_sel])
    if not ctx.by:
        return score_table([], [], [(t, s) for t, s, _ in tier_sel], None, star)
    per_group = [ctx.group_columns(tidx) for _, _, tidx in tier_sel]
    labels = [ctx.keys[k].astype(str).to_numpy(dtype=object) for k in ctx.by]
    return score_table(ctx.by, labels, [(t, s) for t, s, _ in tier_sel], per_group, star)


def compare_policies(bins: BinsLike, target: Any, policies: Mapping[str, AlertPolicy], incidents: pd.DataFrame, *,
                     by: str | Sequence[str] | None = None, grace: Any = "1h",
                     **options: Unpack[ReadBinsOptions]) -> pd.DataFrame:
    """Replay several policies over the same bins and score them side by side.

    ``by`` re-aggregates the bins to those group keys first (``[]`` = one series); default:
    the bins' own groups. Each policy's budget percentages use its own ``period``. The bins are
    read once (``**options`` as for :func:`score_alerts`) and the grid is shared by every policy.

    Returns
    -------
    DataFrame
        ``policy`` followed by the columns of :func:`score_alerts`, policies in the given
        order.

    Examples
    --------
    >>> from budgetlab.events.schema import as_events
    >>> from budgetlab.windows.bins import bin_events
    >>> ts = pd.date_range("2026-01-01", periods=6 * 60, freq="1min")
    >>> ok = [not (120 <= i < 150) for i in range(len(ts))]  # 30 bad minutes
    >>> b = bin_events(as_events(ts, ok), "1min")
    >>> inc = pd.DataFrame({"incident_id": ["i1"], "scope": ["*"],
    ...     "start": pd.to_datetime(["2026-01-01 02:00"], utc=True),
    ...     "end": pd.to_datetime(["2026-01-01 02:30"], utc=True)})
    >>> pols = {"fast": AlertPolicy.single_window("5min", 10), "slow": AlertPolicy.single_window("1h", 10)}
    >>> t = compare_policies(b, 0.99, pols, inc)
    >>> t.loc[(t["tier"] == "*") & (t["severity"] == "*"), ["policy", "recall", "detection_median"]]
      policy  recall detection_median
    2   fast     1.0  0 days 00:01:00
    5   slow     1.0  0 days 00:07:00
    """
    if not isinstance(policies, Mapping) or not policies:
        raise ConfigError("policies must be a non-empty dict {name: AlertPolicy}.")
    grid = read_bins(bins, **options)
    if by is not None:
        grid = grid.regroup(as_list(by))
    parts = []
    for name, pol in policies.items():
        if not isinstance(pol, AlertPolicy):
            raise ConfigError(f"policies[{name!r}] is not an AlertPolicy.")
        ep = alert_episodes(grid, target, pol)
        sc = score_alerts(ep, incidents, grace=grace, bins=grid, target=target, period=pol.period, policy=pol)
        sc.insert(0, "policy", name)
        parts.append(sc)
    return pd.concat(parts, ignore_index=True)
