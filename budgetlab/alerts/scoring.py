"""Score alert episodes against labelled incidents: precision, recall, detection and reset times.

**Matching rule.** An episode of group ``g`` *matches* an incident when the incident's ``scope``
covers ``g`` (:func:`budgetlab.events.schema.scope_mask`: a scope key the episodes are not grouped
by does not restrict) **and** the episode overlaps the incident's time span extended by ``grace``:
``episode.start < incident.end + grace`` and ``episode.end > incident.start``.

* **precision**: share of episodes that match at least one incident;
* **recall**: share of the incidents seen (whose scope covers at least one group of the row)
  matched by at least one episode. An incident no episode matched, during which the row's long
  window (merged tiers: the longest) held no event of its scope at any evaluation from its start
  to its end + ``grace``, is **unseen**: there was nothing to detect, so it is neither detected
  nor missed, counted in ``unseen`` and left out of recall (the rule of
  :func:`~budgetlab.compare_windows`' ``unseen``, :mod:`budgetlab.alerts.unseen`; needs
  ``bins``, without them traffic is unknown and none is unseen). Recall is NaN when every
  incident was unseen, and ``attrs["unseen_note"]`` names the unseen incidents of the all-groups
  rows and says why;
* **already firing**: an incident whose first matching episode began before it (the row's alert
  already fired when the incident began, so the incident did not cause it) is neither detected
  nor missed: counted in ``already_firing`` and left out of recall, of the detection times and
  of the budget before alert (its reset time is kept), the rule of
  :func:`~budgetlab.compare_windows`' ``already_at_alert``. ``incidents = detected + missed +
  unseen + already_firing``; recall is ``detected / (incidents - unseen - already_firing)``;
* **detection time**: first matching episode start − incident start, over the detected
  incidents (never negative: an alert firing before the start is ``already_firing``; one
  beginning at the start detects it in 0 s);
* **reset time**: end of the last matching episode − incident end (signed: negative when the
  alert stopped before the incident did, by that long). Withheld (NaT) when that episode was still
  firing at the last evaluation (``ongoing``: its ``end``, one step after that evaluation, is
  where the evaluation stopped, not a reset); a row's ``reset_median``/``reset_max`` are then
  withheld too (a median of the others would leave out the alert that never stopped);
* **alerts per day / false alerts per week**: the row's episodes (a ticket row's are tickets) per
  day, unmatched ones per week, over its **observed time** (``observed_days``): the bins at whose
  end the tier's long window holds an event (:mod:`budgetlab.alerts.observed`; merged tiers: the
  longest long window; ``"*"`` groups: any group's traffic). Silence is not counted.
  Without ``bins`` traffic is unknown: the evaluated span. Under a day of observed time both
  rates are withheld (NaN; ``rates_note`` says why): the rule of the replay's events per day,
  :func:`~budgetlab.analyses.window_clock.too_thin` (:mod:`budgetlab.alerts.observed`);
* **budget before alert**: failures in the incident's scope in the bins from the one holding its
  start to the last one that begins before the first alert (before its end when undetected; none
  when an alert already fired before that bin), in % of the period budget
  ``(1 - target) * events * period / span``: ``events`` the group's events in all the bins,
  ``span`` the bins' span (the first bin's start to the last one's end, the same for every
  group), i.e. the average traffic of the whole span scaled to ``period``; a ``"*"`` row sums
  the budgets of the incident's groups. One yardstick
  for every incident of the span, whatever the traffic just before it: not the traffic of the
  period before the alert, which the backtest's ``budget_spent_pct`` (the state of the rolling
  budget) divides by, and which would withhold every incident of the first period read. Needs
  ``bins`` and ``target``. Withheld (NaN) for a group whose period is longer than the bins'
  span, the rule of ``budget_spent_pct``: a few days' traffic scaled to a 30 d budget is an
  extrapolation, not the period's budget; ``attrs["budget_note"]`` says why (``""`` when
  nothing is withheld).

Rows: one per group (and ``"*"``, all groups together: an incident counts as detected when any
group's episode matches it) and per tier, plus per-severity (``tier="*"``, one severity) and
overall (``tier="*"``, ``severity="*"``) rows, where the episodes of the tiers involved are
merged per group (overlapping intervals are one notification, like an OR-ed alert rule).

**While the long window fills** (``filling="apart"``, the default). A tier evaluated less than its
long window after the grid's start (the first bin of the data, the same instant for every group)
judges minutes of history as if they were days: an episode *over* by
``grid start + long window`` (its ``end`` at or before it; merged rows: their longest long window;
per-group SLOs whose periods differ: each tier's longest over the groups, the episodes'
``tier_windows``) is scored apart, and so is an incident that *begins* before it (that tier cannot
detect it fairly). An episode begun earlier that still fires when the window is full is a page a
person gets: it is scored like any other (counted, matched on its whole span, in the rates). When
the window never filled before the span's end, every episode of the row is apart. Precision,
recall, detection and reset times, budget before alert, alerts per day and ``observed_days`` count
only what is scored (the observed time from ``grid start + long window`` on);
``episodes_filling``, ``true_episodes_filling`` (of those, the ones matching an incident) and
``incidents_filling`` count what was left out. An episode scored apart detects nothing: an
incident only it overlapped is missed (not detected, not already firing); whether it met an
incident is still counted (``true_episodes_filling``). On merged rows an episode made only of
pages apart on their own tier's row (after a silence shorter than the longest window) is apart
too (:mod:`budgetlab.alerts.merged_tiers`). ``filling="count"`` scores every
episode and incident alike (the earlier rule, without the ``*_filling`` columns).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Unpack

import numpy as np
import pandas as pd

from .._util.said_once import said_once
from .._util.validation import as_list
from ..errors import ConfigError
from ..windows.bins import BinsLike, ReadBinsOptions, read_bins
from .episodes import alert_episodes
from .policy import AlertPolicy
from .score_context import ScoringContext
from .score_table import score_attrs, score_table, stack_columns
from .unseen import row_name, unseen_note, unseen_rows

__all__ = ["incident_detections", "score_alerts", "compare_policies"]


def incident_detections(episodes: pd.DataFrame, incidents: pd.DataFrame, *, grace: Any = "1h",
                        bins: BinsLike | None = None, target: Any = None, period: Any = None,
                        policy: AlertPolicy | None = None, filling: str = "apart",
                        **options: Unpack[ReadBinsOptions]) -> pd.DataFrame:
    """Per incident, group and tier: was it detected, when, and when did the alert reset.

    Same rows and matching rules as :func:`score_alerts` (see the module docs), one row per
    incident in the row's scope.

    Returns
    -------
    DataFrame
        Group keys (str, ``"*"`` = all groups), ``tier``, ``severity``, ``incident_id``,
        ``kind``, ``incident_start``, ``incident_end``, ``detected`` (False when already
        firing), ``unseen`` (not detected,
        and the row's long window held no event of its scope from its start to its end + grace:
        neither detected nor missed, see the module docs), ``already_firing`` (the row's alert
        already fired when it began: neither detected nor missed, no detection time; its
        ``first_alert``, before the start, and reset kept), ``first_alert``,
        ``detection_time`` (NaT unless detected), ``last_alert_end`` (for an alert still
        firing at the last evaluation: that evaluation, the grid's end), ``reset_time`` (NaT
        when undetected or when the alert still fired at the last evaluation: no reset to
        count), with
        ``bins``: ``budget_before_alert_pct`` (failures up to the first alert, through the
        incident end when undetected, in % of the period budget of the span's average traffic;
        NaN when withheld, ``attrs["budget_note"]`` says why: see the module docs), and with
        ``filling="apart"``: ``filling`` (the incident began while the row's long window filled:
        :func:`score_alerts` scores it apart).
    """
    ctx = ScoringContext(episodes, incidents, grace=grace, bins=bins, target=target, period=period,
                         policy=policy, options=options, filling=filling)
    parts, star = [], []
    for labels, tname, sev, gidx, tidx in ctx.selections():
        m = ctx.match(gidx, tidx)
        if len(gidx) == len(ctx.keys) and (not ctx.by or all(v == "*" for v in labels.values())):
            star.append(((tname, sev), m))
        table = ctx.incident_table(m)
        head = pd.DataFrame({**{k: [v] * len(table) for k, v in labels.items()},
                             "tier": [tname] * len(table), "severity": [sev] * len(table)})
        parts.append(pd.concat([head, table], axis=1))
    out = pd.concat(parts, ignore_index=True)
    out.attrs = score_attrs(ctx, episodes, target)
    out.attrs["cannot_fire_note"] = episodes.attrs.get("cannot_fire_note", "")
    out.attrs["unseen_note"] = _unseen_note(ctx, [r for r, _ in star], [m for _, m in star])
    return out


def score_alerts(episodes: pd.DataFrame, incidents: pd.DataFrame, *, grace: Any = "1h",
                 bins: BinsLike | None = None, target: Any = None, period: Any = None,
                 policy: AlertPolicy | None = None, filling: str = "apart",
                 **options: Unpack[ReadBinsOptions]) -> pd.DataFrame:
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
        The bins (table or :class:`~budgetlab.windows.bingrid.BinGrid`) and target the episodes were
        computed from. ``bins`` gives every group a row (also groups that never alerted), the
        exact span for per-day rates, and the budget-before-alert columns. ``target`` is a
        number, an SLO, a target table or per-group SLOs (a :class:`~budgetlab.PerGroup` or a
        mapping, as for :func:`budgetlab.alert_episodes`).
    period : duration, optional
        Period of the budget the percentages refer to. Default: the period of ``policy`` when it
        is given (its burn thresholds are set for it, as :func:`compare_policies` scores it;
        a target whose SLO period differs from it is refused: give ``period``), else the SLO's
        ``period`` (each group's own with per-group SLOs), 30 days for a bare target or a
        table.
    policy : AlertPolicy, optional
        Tier names and severities (needed when some tier has no episode and ``attrs`` were lost),
        and the budget period (see ``period``).
    filling : {"apart", "count"}
        ``"apart"`` (default): episodes over, and incidents begun, while the row's long window
        filled (less than it after the grid's start) are counted in the ``*_filling`` columns and
        left out of the scores (an episode still firing when it filled is scored: see the module
        docs); it needs the grid's start and the tiers'
        long windows (``bins`` or the episodes' attrs, and ``policy`` without attrs).
        ``"count"``: every episode and incident is scored (the earlier rule).
    **options
        ``freq``, ``exclude_buckets``, ``exclude_windows``, ``exclude_mode``: applied to ``bins``
        by :func:`budgetlab.windows.bins.read_bins`. Incidents entirely inside an excluded window
        (given here, or recorded on a ``BinGrid``) are not scored, nor are incidents wholly
        outside the evaluated span (ending at or before its start, beginning at or after its end:
        the bins', else the episodes' ``grid_start``/``grid_end`` attrs); ``attrs
        ["incidents_outside"]`` counts the latter.

    Returns
    -------
    DataFrame
        One row per group (``"*"`` = all) and tier (``"*"`` = merged tiers of a ``severity``,
        or of all when ``severity == "*"``): group keys (str), ``tier``, ``severity``,
        ``episodes``, ``true_episodes``, ``precision`` (NaN without episodes), ``incidents``,
        ``detected``, ``unseen`` (incidents without traffic to detect them by: neither detected
        nor missed, see the module docs), ``already_firing`` (incidents that began while the
        row's alert already fired: neither detected nor missed, see the module docs), ``recall``
        (``detected / (incidents - unseen - already_firing)``; NaN without such an incident),
        ``detection_median``, ``detection_max`` (Timedelta over detected incidents, NaT if
        none), ``reset_median``, ``reset_max`` (over the detected and already firing ones; NaT
        if none, and when an alert still fired at the last evaluation: see the module docs),
        ``alerts_per_day``, ``false_alerts_per_week`` (over the observed time;
        withheld, NaN, under 24 h of it), ``observed_days`` (the observed time in days: the
        bins whose tier's long window holds traffic; the evaluated span without ``bins``),
        ``rates_note`` (why the rates are withheld, e.g. ``"withheld: only 5 h of observed
        time, ..."``; empty when they are given), and
        with ``bins``: ``budget_before_alert_median``, ``budget_before_alert_max`` (% of the
        period budget of the span's average traffic, detected incidents: see the module docs;
        NaN when withheld, ``attrs["budget_note"]`` says why), and with ``filling="apart"``:
        ``episodes_filling``, ``true_episodes_filling``, ``incidents_filling`` (left out of the
        other columns). With ``filling="apart"`` the counts, rates and ``observed_days`` are over
        the time after the row's long window filled. ``precision`` of a tier that never fired is NaN
        here (there is no share of zero pages); the CLI prints it as ``never fired``.
        ``attrs["cannot_fire_note"]`` (from the episodes' attrs) names the tiers that can never
        fire at their target (:mod:`budgetlab.alerts.reach`): their recall 0 is no verdict.
        ``attrs["unseen_note"]`` names the unseen incidents of the all-groups rows and why (``""``
        when none is); ``attrs["unseen_incidents"]`` says which they are: per all-groups row,
        ``{"tier", "severity", "rows"}``, ``rows`` the positions in ``incidents`` of those its
        ``unseen`` counts (``incidents.iloc[rows]``), and with ``filling="apart"``
        ``filling_rows``, the unseen ones begun while the long window filled (scored apart).
        ``attrs["scope_note"]`` says, as a :class:`~budgetlab.errors.BudgetlabWarning` does, how
        the scopes were read (``""``: as written): a scope key the episodes are not grouped by
        restricts nothing (the incident covers every group: give it to ``by=`` of the bins), and
        an incident whose scope matches no group is not scored (``budgetlab alerts``' rule and
        words: :func:`~budgetlab.alerts.score_inputs.scope_notes`).

    Examples
    --------
    >>> ep = pd.DataFrame({"tier": pd.Categorical(["page_1h", "page_1h"]),
    ...     "severity": ["page", "page"],
    ...     "start": pd.to_datetime(["2026-01-01 10:05", "2026-01-02 03:00"], utc=True),
    ...     "end": pd.to_datetime(["2026-01-01 11:00", "2026-01-02 03:10"], utc=True)})
    >>> inc = pd.DataFrame({"incident_id": ["i1", "i2"], "scope": ["*", "*"],
    ...     "start": pd.to_datetime(["2026-01-01 10:00", "2026-01-03 00:00"], utc=True),
    ...     "end": pd.to_datetime(["2026-01-01 10:30", "2026-01-03 01:00"], utc=True)})
    >>> s = score_alerts(ep, inc, grace="0s", filling="count")
    >>> s.loc[[0], ["tier", "episodes", "precision", "recall", "detection_median", "reset_median"]]
          tier  episodes  precision  recall detection_median    reset_median
    0  page_1h         2        0.5     0.5  0 days 00:05:00 0 days 00:30:00

    Evaluated from 10:00 with its 1 h long window (``attrs`` as ``alert_episodes`` sets them),
    the page of 10:05-11:00 was over when the window filled, and the incident at 10:00 began
    before:

    >>> ep.attrs.update(grid_start=pd.Timestamp("2026-01-01 10:00", tz="UTC"),
    ...                 tier_windows={"page_1h": 3_600_000_000_000})
    >>> s = score_alerts(ep, inc, grace="0s")
    >>> s.loc[[0], ["episodes", "precision", "recall", "episodes_filling", "incidents_filling"]]
       episodes  precision  recall  episodes_filling  incidents_filling
    0         1        0.0     0.0                 1                  1
    """
    ctx = ScoringContext(episodes, incidents, grace=grace, bins=bins, target=target, period=period,
                         policy=policy, options=options, filling=filling)
    tier_sel = ctx.tier_selections()
    every = np.arange(len(ctx.keys))
    matches = [ctx.match(every, tidx) for _, _, tidx in tier_sel]
    star = stack_columns([ctx.summary(m, ctx.observed_of(tidx)[1])
                          for m, (_, _, tidx) in zip(matches, tier_sel, strict=True)])
    if not ctx.by:
        table = score_table([], [], [(t, s) for t, s, _ in tier_sel], None, star)
    else:
        per_group = [ctx.group_columns(tidx) for _, _, tidx in tier_sel]
        labels = [ctx.keys[k].astype(str).to_numpy(dtype=object) for k in ctx.by]
        table = score_table(ctx.by, labels, [(t, s) for t, s, _ in tier_sel], per_group, star)
    table.attrs = score_attrs(ctx, episodes, target)
    table.attrs["cannot_fire_note"] = episodes.attrs.get("cannot_fire_note", "")
    rows = [(t, s) for t, s, _ in tier_sel]
    table.attrs["unseen_note"] = _unseen_note(ctx, rows, matches)
    table.attrs["unseen_incidents"] = unseen_rows(rows, matches, ctx.inc.index.to_numpy(),
                                                  apart=ctx.filling == "apart")
    return table


def _unseen_note(ctx: ScoringContext, rows: list[tuple[str, str]], matches: list[Any]) -> str:
    """The incidents each all-groups row left unseen (:func:`~budgetlab.alerts.unseen.
    unseen_note`), those begun while the window filled left out (scored apart)."""
    ids = ctx.inc["incident_id"].astype(str).to_numpy()
    said = [(row_name(t, s), ids[m.incidents[m.unseen & ~m.early]].tolist())
            for (t, s), m in zip(rows, matches, strict=True)]
    return unseen_note(said, pd.Timedelta(ctx.grace_ns, unit="ns"))


def compare_policies(bins: BinsLike, target: Any, policies: Mapping[str, AlertPolicy],
                     incidents: pd.DataFrame, *,
                     by: str | Sequence[str] | None = None, grace: Any = "1h",
                     filling: str = "apart",
                     **options: Unpack[ReadBinsOptions]) -> pd.DataFrame:
    """Replay several policies over the same bins and score them side by side.

    ``by`` re-aggregates the bins to those group keys first (``[]`` = one series); default:
    the bins' own groups. Each policy's budget percentages use its own ``period``. The bins are
    read once (``**options`` as for :func:`score_alerts`) and the grid is shared by every policy.
    ``filling`` as for :func:`score_alerts`. Every group is scored here, thin or not (the
    figures as before); :func:`~budgetlab.analyses.choices.judged_policy_scores` and
    ``budgetlab alerts`` keep the groups too thin for a verdict (under 10 expected failures) out.

    Returns
    -------
    DataFrame
        ``policy`` followed by the columns of :func:`score_alerts`, policies in the given order.
        ``attrs["unseen_incidents"]``: :func:`score_alerts`' records, each with its ``policy``.

    Examples
    --------
    >>> from budgetlab.events.schema import as_events
    >>> from budgetlab.windows.binning import bin_events
    >>> ts = pd.date_range("2026-01-01", periods=6 * 60, freq="1min")
    >>> ok = [not (120 <= i < 150) for i in range(len(ts))]  # 30 bad minutes
    >>> b = bin_events(as_events(ts, ok), "1min")
    >>> inc = pd.DataFrame({"incident_id": ["i1"], "scope": ["*"],
    ...     "start": pd.to_datetime(["2026-01-01 02:00"], utc=True),
    ...     "end": pd.to_datetime(["2026-01-01 02:30"], utc=True)})
    >>> pols = {"fast": AlertPolicy.single_window("5min", 10),
    ...         "slow": AlertPolicy.single_window("1h", 10)}
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
    with said_once():  # every policy meets the same incidents: their notes are said once
        for name, pol in policies.items():
            if not isinstance(pol, AlertPolicy):
                raise ConfigError(f"policies[{name!r}] is not an AlertPolicy.")
            ep = alert_episodes(grid, target, pol)
            sc = score_alerts(ep, incidents, grace=grace, bins=grid, target=target,
                              period=pol.period, policy=pol, filling=filling)
            sc.insert(0, "policy", name)
            parts.append(sc)
    out = pd.concat(parts, ignore_index=True)
    attrs: dict[Any, Any] = {k: v for k, v in parts[0].attrs.items()
                             if k not in ("tiers", "period")}
    # one grid and one set of incidents for all; each policy's own period and tiers
    attrs["policies"] = {name: {"period": p.attrs["period"], "tiers": p.attrs["tiers"]}
                         for name, p in zip(policies, parts, strict=True)}
    attrs["unseen_incidents"] = [{"policy": name, **r} for name, p in zip(policies, parts,
                                 strict=True) for r in p.attrs["unseen_incidents"]]
    attrs["budget_note"] = " ".join(dict.fromkeys(n for p in parts
                                                  if (n := p.attrs["budget_note"])))
    out.attrs = attrs
    for key in ("cannot_fire_note", "unseen_note"):  # each policy's, named
        out.attrs[key] = " ".join(f"{name}: {n}" for name, p in zip(policies, parts, strict=True)
                                  if (n := p.attrs[key]))
    return out
