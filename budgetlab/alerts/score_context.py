"""One episodes table matched to its incidents: every row of the scores, parsed once
(the matching rule is in :mod:`budgetlab.alerts.scoring`)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np
import pandas as pd

from .._util.validation import (
    check_argument,
    to_timedelta,
    utc_from_ns,
    utc_ns_column,
)
from ..budget.burn import error_budgets
from ..errors import ConfigError
from ..windows.bingrid import BinGrid
from ..windows.bins import BinsLike, ReadBinsOptions, read_bins
from ..windows.exclusions import exclusion_intervals, refuse_unknown
from .filling import Stretches
from .group_scores import (
    BadCounts,
    GroupScores,
    already_firing,
    group_scores,
    overlaps,
    summary_columns,
)
from .merged_tiers import merged_first, merged_scores, split_rows
from .observed import ObservedTime
from .policy import AlertPolicy
from .score_inputs import (
    OPEN,
    budget_before_alert_note,
    budget_periods,
    check_tables,
    episode_groups,
    episode_keys,
    evaluated_span,
    group_table,
    open_ends,
    policy_period,
    scored_incidents,
    tier_labels,
    tier_window,
)
from .score_table import stack_columns
from .unseen import Silences

__all__ = ["Matches", "ScoringContext", "policy_period"]

_DEFAULT_PERIOD = "30D"
_NAT = np.iinfo(np.int64).min


@dataclass(frozen=True)
class Matches:
    """How the episodes of one row matched its incidents: arrays with one value per incident."""

    incidents: np.ndarray  # positions in ScoringContext.inc
    detected: np.ndarray
    unseen: np.ndarray  # undetected, no traffic in its scope's window (alerts.unseen)
    # first matching episode start (ns; NaT when undetected); merged tiers: the first alert of a
    # tier not already firing at the incident's start, when there is one (alerts.merged_tiers)
    first: np.ndarray
    last: np.ndarray  # last matching episode end
    already: np.ndarray  # matched by an alert already firing when it began (not detected)
    detection: np.ndarray  # ns; NaT when undetected or already firing
    reset: np.ndarray  # ns, signed
    budget_pct: np.ndarray | None  # budget spent before the alert, with bins
    episodes: int  # scored: still firing when the row's long window filled, or begun later
    true_episodes: int
    early: np.ndarray  # per incident: began while the row's long window filled (scored apart)
    episodes_filling: int  # begun and over while it filled (scored apart)
    true_episodes_filling: int


class ScoringContext:
    """Everything the scoring of one episodes table needs, parsed once."""

    def __init__(self, episodes: pd.DataFrame, incidents: pd.DataFrame, *, grace: Any,
                 bins: BinsLike | None,
                 target: Any, period: Any, policy: AlertPolicy | None,
                 options: ReadBinsOptions, filling: str = "apart") -> None:
        check_tables(episodes, incidents)
        self.filling = check_argument("filling", filling, ("apart", "count"))
        self.grace_ns = int(to_timedelta(grace, name="grace", allow_zero=True).value)
        self.period_ns = policy_period(period, policy)
        self.period_of_policy = period is None and isinstance(policy, AlertPolicy)
        self.by = episode_keys(episodes)
        self.tiers = tier_labels(episodes, policy)
        tier_names = [t for t, _ in self.tiers]
        ep_tier = episodes["tier"].astype(str).to_numpy()
        if set(ep_tier) - set(tier_names):
            raise ConfigError("episodes hold tiers that the policy does not have; pass the policy "
                              "used for them.")
        self.ep_tier = np.array([tier_names.index(t) for t in ep_tier], dtype=np.int64)
        self.ep_start = utc_ns_column(episodes["start"], "episodes['start']")
        self.ep_end = utc_ns_column(episodes["end"], "episodes['end']")
        self.grid: BinGrid | None = None
        if bins is not None:
            if target is None:
                raise ConfigError("bins= needs target= too (for the budget consumed before the "
                                  "first alert).")
            self.grid = read_bins(bins, **options)
        else:  # read_bins() says so when bins are given
            refuse_unknown(set(options) - ReadBinsOptions.__optional_keys__,
                           ReadBinsOptions.__optional_keys__)
        self.keys = group_table(self.grid, self.by, episodes)
        self.ep_group = episode_groups(episodes, self.by, self.keys)
        self.span_start, self.span_end = evaluated_span(self.grid, episodes, incidents,
                                                        self.ep_start, self.ep_end)
        self.span_ns = max(self.span_end - self.span_start, 1)
        # an alert still firing when the evaluation stopped has no reset time (withheld): its end
        # is open_ns inside, shown as the table's (where the evaluation stopped)
        self.ep_end, self.open_shown = open_ends(episodes, self.ep_end)
        self.open_ns = OPEN
        windows = (self.grid.exclusions.windows if self.grid is not None
                   else exclusion_intervals(options.get("exclude_windows")))
        (self.inc, self.inc_start, self.inc_end, self.inc_match, self.incidents_outside,
         self.scope_note) = scored_incidents(incidents, self.keys, self.by, windows,
                                             (self.span_start, self.span_end))
        # episodes sorted once by (group, tier), table order kept inside: the episodes of group g
        # and tier t are self.ep_order[self.ep_bounds[g * T + t]:self.ep_bounds[g * T + t + 1]]
        n_tiers = len(self.tiers)
        cell = self.ep_group * n_tiers + self.ep_tier
        self.ep_order = np.argsort(cell, kind="stable")
        self.ep_bounds = np.zeros(len(self.keys) * n_tiers + 1, dtype=np.int64)
        np.cumsum(np.bincount(cell, minlength=len(self.keys) * n_tiers), out=self.ep_bounds[1:])
        if self.grid is not None:
            g = self.grid
            self.bad_counts = BadCounts(g)
            allowed = error_budgets(target, g) * g.group_totals()
            periods = budget_periods(target, g, self.period_ns, self.period_of_policy)
            self.period_budget = allowed * (periods / self.span_ns)  # the order of the oracle
            # budget_spent_pct's rule (cli/backtest.py): a share of a period's budget needs a
            # whole period read; a shorter span's traffic would be extrapolated to the period
            self.budget_withheld = periods > self.span_ns
            self.budget_note = budget_before_alert_note(periods[self.budget_withheld], self.span_ns,
                                                    len(periods))
        else:
            self.budget_withheld = np.zeros(len(self.keys), dtype=bool)
            self.budget_note = ""
        self._tier_windows(episodes, policy, tier_names)

    def _tier_windows(self, episodes: pd.DataFrame, policy: AlertPolicy | None,
                      tier_names: list[str]) -> None:
        """The tiers' long windows (the policy's, else the episodes' attrs), the observed time,
        and when the windows filled (refused with ``filling='apart'`` when unknown)."""
        windows_attr = episodes.attrs.get("tier_windows")
        long_ns: list[int | None] = (
            [int(t.long_window.value) for t in policy.tiers]
            if policy is not None
            else [tier_window(windows_attr, name) for name in tier_names]
        )
        self.long_ns = long_ns
        self.observed = ObservedTime(self.grid, long_ns, span_ns=self.span_ns,
                                     n_groups=len(self.keys), span_start_ns=self.span_start)
        self.silences = Silences(self.grid, long_ns)
        self.grid_start = self._grid_start(episodes)
        self.stretches = Stretches.of(self.keys, self.by, episodes.attrs, self.grid,
                                      self.grid_start, min((w or 0) for w in long_ns))
        if self.filling == "apart" and (self.grid_start is None or None in long_ns):
            raise ConfigError(
                "filling='apart' scores apart the episodes and incidents that began while a "
                "tier's long window filled, and needs to know when that was: pass the bins "
                "(bins=) or episodes from budgetlab.alert_episodes (their attrs), and policy= for "
                "episodes without attrs; or pass filling='count' to score them all.")

    def _grid_start(self, episodes: pd.DataFrame) -> int | None:
        """Start of the evaluated grid in ns (the bins', else the episodes' attrs), or None."""
        if self.grid is not None:
            return self.grid.start_ns
        if "grid_start" in episodes.attrs:
            return int(pd.Timestamp(episodes.attrs["grid_start"]).as_unit("ns").value)
        return None

    def cutoff(self, tiers: list[int]) -> int | None:
        """When the long window of the row of ``tiers`` is first full (ns; the longest window when
        tiers are merged, counted from the grid's start): what begins earlier is scored apart.
        ``None`` with ``filling='count'``."""
        if self.filling == "count" or self.grid_start is None:
            return None
        return self.grid_start + max(int(self.long_ns[t] or 0) for t in tiers)

    def filled(self, tiers: list[int], group: np.ndarray, start: np.ndarray) -> np.ndarray | None:
        """Per episode (its group, its start) of the row of ``tiers``: it is scored apart when it
        ends at or before this (ns), the long window (the longest when tiers are merged) filled
        in the stretch of its group's traffic it began in, or ``OPEN`` when that never filled
        before the span's end (:class:`~budgetlab.alerts.filling.Stretches`)."""
        if self.filling == "count" or self.stretches is None:
            return None
        long_ns = max(int(self.long_ns[t] or 0) for t in tiers)
        return self.stretches.filled(group, start, long_ns, self.span_end)

    def observed_of(self, tiers: list[int]) -> tuple[np.ndarray, float]:
        """Observed time (per group, all groups) of the row of ``tiers`` after its
        :meth:`cutoff`."""
        return self.observed.of(tiers, from_ns=self.cutoff(tiers))

    def _selected(self, groups: np.ndarray, tiers: list[int]) -> np.ndarray:
        """Positions of the episodes of ``tiers`` in ``groups`` (one group or all of them), in table
        order."""
        if len(groups) == 1:
            g, n_tiers = int(groups[0]), len(self.tiers)
            parts = [
                self.ep_order[self.ep_bounds[g * n_tiers + t] : self.ep_bounds[g * n_tiers + t + 1]]
                for t in tiers
            ]
            return np.sort(np.concatenate(parts)) if len(parts) > 1 else parts[0]
        if len(groups) == len(self.keys):
            return np.flatnonzero(np.isin(self.ep_tier, tiers))
        return np.flatnonzero(np.isin(self.ep_group, groups) & np.isin(self.ep_tier,
                                                                       tiers))  # pragma: no cover

    def _episodes(self, sel: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(group, start, end)`` of the episodes at positions ``sel``."""
        return self.ep_group[sel], self.ep_start[sel], self.ep_end[sel]

    def _budget_pct(self, groups: np.ndarray, i_idx: np.ndarray, lo_ns: np.ndarray,
                    hi_ns: np.ndarray) -> np.ndarray:
        """Per incident of ``i_idx``: the failures from ``lo_ns`` to ``hi_ns`` in the groups of
        its scope among ``groups``, in % of their period budget (0 without a budget)."""
        scope = self.inc_match[np.ix_(i_idx, groups)]
        inc, col = np.nonzero(scope)
        bad = self.bad_counts.between(groups[col], lo_ns[inc], hi_ns[inc])
        used = np.bincount(inc, weights=bad, minlength=len(i_idx))
        budget = np.array([float(self.period_budget[groups[row]].sum()) for row in scope])
        return np.where(budget > 0, 100.0 * used / np.where(budget > 0, budget, 1.0), 0.0)

    def match(self, groups: np.ndarray, tiers: list[int]) -> Matches:
        """Match the episodes of ``tiers`` in ``groups`` (merged when several tiers) to the
        incidents whose scope covers one of ``groups``."""
        sel = self._selected(groups, tiers)
        (gi, st, en), apart, found, members = split_rows(*self._episodes(sel),
                                                         self.ep_tier[sel], tiers, self.filled)
        one = len(groups) == 1
        i_idx = np.flatnonzero(
            self.inc_match[:, groups[0]] if one else self.inc_match[:, groups].any(axis=1)
        )
        i_s, i_e = self.inc_start[i_idx], self.inc_end[i_idx]
        spans = partial(overlaps, self.inc_match, i_idx, i_s, i_e + self.grace_ns)
        # an episode scored apart detects nothing; whether it met an incident is still counted
        detected, first, last, hit = spans(*found, one)
        hit = spans(gi, st, en, one)[3] if len(tiers) > 1 else hit  # merged: counted apart
        hit_apart = spans(*apart, one)[3]
        if len(tiers) > 1:  # detected by a tier not already firing at its start (merged_tiers)
            first = merged_first(first, i_s, [spans(*m, one)[:2] for m in members])
        cut = self.cutoff(tiers)
        inc_early = np.zeros(len(i_s), dtype=bool) if cut is None else i_s < cut
        pct = None
        if self.grid is not None:  # withheld (NaN) when a group of its scope read too little
            pct = self._budget_pct(groups, i_idx, i_s, np.where(detected, first, i_e))
            scope = self.inc_match[np.ix_(i_idx, groups)] & self.budget_withheld[groups]
            pct = np.where(scope.any(axis=1), np.nan, pct)
        seen = self.silences.seen_any(tiers, self.inc_match[np.ix_(i_idx, groups)], groups, i_s,
                                      i_e + self.grace_ns)
        return Matches(
            incidents=i_idx,
            detected=detected,
            unseen=~detected & ~seen,
            first=np.where(detected, first, _NAT),
            last=np.where(detected, last, _NAT),
            already=detected & already_firing(first, i_s),
            detection=np.where(detected & ~already_firing(first, i_s), first - i_s, _NAT),
            reset=np.where(detected & (last < self.open_ns), last - i_e, _NAT),
            budget_pct=pct,
            episodes=len(gi),
            true_episodes=int(hit.sum()),
            early=inc_early,
            episodes_filling=len(apart[0]),
            true_episodes_filling=int(hit_apart.sum()),
        )

    def group_columns(self, tiers: list[int]) -> dict[str, np.ndarray]:
        """:meth:`summary` of every single group's row for ``tiers``, all groups at once, one array
        per column (row by row when some group's episodes overlap each other)."""
        sel = np.flatnonzero(np.isin(self.ep_tier, tiers))
        (gi, st, en), apart, found, members = split_rows(*self._episodes(sel),
                                                         self.ep_tier[sel], tiers, self.filled)
        n_groups = len(self.keys)
        cut = self.cutoff(tiers)
        pairs = (n_groups, self.inc_match, self.inc_start, self.inc_end + self.grace_ns)
        gs = group_scores(*pairs, gi, st, en, apart=apart, detecting=found)
        if gs is not None and len(tiers) > 1:  # per member tier (merged_tiers), none apart
            gs = merged_scores(gs, self.inc_start, [group_scores(*pairs, *m) for m in members])
        observed = self.observed_of(tiers)[0]
        if gs is None:
            return stack_columns([self.summary(self.match(np.array([g]), tiers),
                                               float(observed[g]))
                                  for g in range(n_groups)])
        g, inc = gs.pair_group, gs.pair_incident
        pct = None
        if self.grid is not None:  # withheld (NaN) for the groups that read less than their period
            used = self.bad_counts.between(g, self.inc_start[inc],
                                           np.where(gs.detected, gs.first, self.inc_end[inc]))
            allowed = self.period_budget[g]
            pct = np.where(allowed > 0, 100.0 * used / np.where(allowed > 0, allowed, 1.0), 0.0)
            pct = np.where(self.budget_withheld[g], np.nan, pct)
        early = None if cut is None else self.inc_start[inc] < cut
        unseen = ~gs.detected & ~self.silences.seen(tiers, g, self.inc_start[inc],
                                                    self.inc_end[inc] + self.grace_ns)
        return summary_columns(gs, n_groups, self.inc_start, self.inc_end, observed, self.open_ns,
                               pct=pct, early=early, unseen=unseen)

    def summary(self, m: Matches, observed_ns: float) -> dict[str, np.ndarray]:
        """The scores of one row (:func:`~budgetlab.alerts.group_scores.summary_columns` of one
        value each), its rates over ``observed_ns``
        (:class:`~budgetlab.alerts.observed.ObservedTime`)."""
        n = len(m.incidents)
        gs = GroupScores(np.zeros(n, dtype=np.int64), m.incidents, m.detected,
                         np.where(m.detected, m.first, 0), np.where(m.detected, m.last, 0),
                         *(np.array([v]) for v in (m.episodes, m.true_episodes,
                                                   m.episodes_filling, m.true_episodes_filling)))
        return summary_columns(gs, 1, self.inc_start, self.inc_end, np.array([observed_ns]),
                               self.open_ns, pct=m.budget_pct,
                               early=None if self.filling == "count" else m.early,
                               unseen=m.unseen)

    def incident_table(self, m: Matches) -> pd.DataFrame:
        """One row per incident of the match (the columns of :func:`~budgetlab.incident_detections`
        after the labels)."""
        per = self.inc.iloc[m.incidents].reset_index(drop=True)
        table = pd.DataFrame({
            "incident_id": per["incident_id"].to_numpy(),
            "kind": per["kind"].to_numpy() if "kind" in per.columns else np.full(len(per), "",
                                                                                 dtype=object),
            "incident_start": utc_from_ns(self.inc_start[m.incidents]),
            "incident_end": utc_from_ns(self.inc_end[m.incidents]),
            "detected": m.detected & ~m.already,
            "unseen": m.unseen,
            "already_firing": m.already,
            "first_alert": utc_from_ns(m.first),
            "detection_time": pd.to_timedelta(m.detection.view("timedelta64[ns]")),
            "last_alert_end": utc_from_ns(np.where(m.last == OPEN, self.open_shown, m.last)),
            "reset_time": pd.to_timedelta(m.reset.view("timedelta64[ns]")),
        })
        if m.budget_pct is not None:
            table["budget_before_alert_pct"] = m.budget_pct
        if self.filling == "apart":
            table["filling"] = m.early
        return table

    def tier_selections(self) -> list[tuple[str, str, list[int]]]:
        """(tier label, severity label, tier indices) per tier selection: each tier, each
        severity's tiers merged, all tiers merged."""
        tier_sel: list[tuple[str, str, list[int]]] = [
            (name, sev, [j]) for j, (name, sev) in enumerate(self.tiers)
        ]
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
        return [(labels, tname, sev, gidx, tidx) for labels, gidx in group_sel for tname, sev,
                tidx in self.tier_selections()]
