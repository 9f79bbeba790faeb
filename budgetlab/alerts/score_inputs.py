"""What the scoring of alert episodes reads: the episodes' group keys and tiers, the groups
scored, the incidents in scope and the evaluated span (see :mod:`budgetlab.alerts.scoring`)."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd

from .._util.validation import duration_label, to_timedelta, utc_ns_column
from .._util.words import counted_of, noun_for, prose_duration, say, some_named
from ..budget.burn import group_slos
from ..errors import BudgetlabWarning, ConfigError, InputError, SchemaError
from ..events.schema import parse_scope, scope_mask
from ..privacy import shown
from ..slo import SLO
from ..windows.bingrid import BinGrid
from .episodes import EPISODE_COLUMNS
from .incidents_file import check_incidents
from .policy import AlertPolicy

__all__ = ["OPEN", "budget_periods", "check_tables", "episode_groups", "episode_keys",
           "evaluated_span", "group_table", "open_ends", "outside_span", "policy_period",
           "scope_matches", "scope_notes", "scored_incidents", "tier_labels", "tier_window",
           "unmatched_words"]


def episode_keys(episodes: pd.DataFrame) -> list[str]:
    attr = episodes.attrs.get("by")
    if isinstance(attr, list) and all(isinstance(k, str) and k in episodes.columns for k in attr):
        return list(attr)
    return [str(c) for c in episodes.columns if str(c) not in EPISODE_COLUMNS]


def tier_labels(episodes: pd.DataFrame, policy: AlertPolicy | None) -> list[tuple[str, str]]:
    if policy is not None:
        return [(t.name, t.severity) for t in policy.tiers]
    attr = episodes.attrs.get("tiers")
    if isinstance(attr, list) and attr:
        return [(str(a), str(b)) for a, b in attr]
    col = episodes["tier"]
    names = (
        [str(c) for c in col.cat.categories]
        if isinstance(col.dtype, pd.CategoricalDtype)
        else sorted(col.astype(str).unique())
    )
    sev = dict(zip(col.astype(str), episodes["severity"].astype(str), strict=True))
    missing = [n for n in names if n not in sev]
    if missing:
        raise ConfigError("cannot tell the severity of tiers without episodes; pass policy=.")
    return [(n, sev[n]) for n in names]


def tier_window(attr: Any, name: str) -> int | None:
    """A tier's long window in ns from the episodes' ``tier_windows`` attrs (``None``: unknown)."""
    value = attr.get(name) if isinstance(attr, dict) else None
    return int(value) if isinstance(value, (int, np.integer)) and value > 0 else None


def check_tables(episodes: Any, incidents: Any) -> None:
    if not isinstance(episodes, pd.DataFrame):
        raise InputError("episodes must be the DataFrame budgetlab.alert_episodes() returns.")
    for col in ("tier", "severity", "start", "end"):
        if col not in episodes.columns:
            raise SchemaError(f"episodes has no column {col!r}; make it with "
                              "budgetlab.alert_episodes().")
    check_incidents(incidents)


def group_table(grid: BinGrid | None, by: list[str], episodes: pd.DataFrame) -> pd.DataFrame:
    """One row per group scored: the groups of the bins, else those of the episodes."""
    if grid is not None:
        if sorted(grid.by) != sorted(by):
            raise ConfigError(f"bins are grouped by {grid.by} but episodes by {by}; use the bins "
                              "the episodes came from.")
        return grid.keys[by].astype(str).reset_index(drop=True) if by else grid.keys
    if by:
        return episodes[by].astype(str).drop_duplicates().sort_values(by).reset_index(drop=True)
    return pd.DataFrame(index=pd.RangeIndex(1))


def episode_groups(episodes: pd.DataFrame, by: list[str], keys: pd.DataFrame) -> np.ndarray:
    """Row of ``keys`` of every episode."""
    if not by:
        return np.zeros(len(episodes), dtype=np.int64)
    def index(frame: pd.DataFrame) -> pd.Index:
        cols = [frame[k].astype(str).to_numpy(dtype=object) for k in by]
        return pd.MultiIndex.from_arrays(cols) if len(cols) > 1 else pd.Index(cols[0])

    pos = np.asarray(index(keys).get_indexer(index(episodes)), dtype=np.int64)
    if bool(np.any(pos < 0)):
        raise ConfigError("episodes hold groups that the bins do not have; use the bins the "
                          "episodes came from.")
    return pos


def evaluated_span(grid: BinGrid | None, episodes: pd.DataFrame, incidents: pd.DataFrame,
                   ep_start: np.ndarray,
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


def outside_span(start: np.ndarray, end: np.ndarray, span: tuple[int, int]) -> np.ndarray:
    """Which incidents (``start``, ``end`` in ns, ``end`` exclusive) lie wholly outside the
    evaluated ``span`` ``(start, end)`` in ns: they end at or before its start or begin at or
    after its end. The log cannot have seen them: scoring leaves them out, the alert chart does
    not draw them.

    >>> outside_span(np.array([0, 5, 10]), np.array([5, 10, 15]), (5, 10)).tolist()
    [True, False, True]
    """
    return np.asarray((end <= span[0]) | (start >= span[1]))


def scored_incidents(incidents: pd.DataFrame, keys: pd.DataFrame, by: list[str],
                     windows: np.ndarray, span: tuple[int, int]
                     ) -> tuple[pd.DataFrame, np.ndarray, np.ndarray, np.ndarray, int, str]:
    """``(incidents, start_ns, end_ns, match, outside, note)`` of the incidents to score: those
    whose scope covers a group (``match[i, g]``), that do not lie entirely in an excluded window
    and that overlap the evaluated ``span`` ``(start, end)`` in ns, indexed by their positions in
    ``incidents``; ``outside`` counts the incidents left out because they end at or before its
    start or begin at or after its end (the log cannot have seen them: neither detected nor
    missed); ``note``: :func:`scope_notes` joined, each also warned."""
    inc = incidents.reset_index(drop=True)
    i_s = utc_ns_column(inc["start"], "incidents['start']")
    i_e = utc_ns_column(inc["end"], "incidents['end']")
    backwards = i_e <= i_s
    if bool(np.any(backwards)):
        ids = [shown(v) for v in inc["incident_id"].to_numpy()[backwards]]
        one = len(ids) == 1
        raise InputError(say("incidents", "--incidents") + f": {noun_for(len(ids), 'incident')} "
                         f"{some_named(ids, 5)} {'ends' if one else 'end'} at or before "
                         f"{'it starts' if one else 'they start'}; 'end' is exclusive and must "
                         "be after 'start'.")
    match = scope_matches(inc, keys, by)
    keep = np.asarray(match.any(axis=1), dtype=bool)
    notes = scope_notes(inc, keep, by)
    for note in notes:  # the command line's notes (a typo?), never a silent reading
        warnings.warn(BudgetlabWarning(note), stacklevel=4)
    if len(windows):
        pos = np.searchsorted(windows[:, 0], i_s, side="right") - 1
        covered = (pos >= 0) & (i_e <= windows[np.maximum(pos, 0), 1])
        keep &= ~covered
    outside = outside_span(i_s, i_e, span)
    n_outside = int((keep & outside).sum())
    keep &= ~outside
    return (inc.iloc[np.flatnonzero(keep)], i_s[keep], i_e[keep], match[keep], n_outside,
            " ".join(notes))


def scope_notes(incidents: pd.DataFrame, covered: np.ndarray, by: list[str]) -> list[str]:
    """What the scoring says of the scopes of ``incidents`` against the group keys ``by``
    (``covered``: per incident, whether its scope covers a group scored): the keys that are not
    ``by`` keys, which do not restrict, so the incident covers every group
    (:func:`~budgetlab.alerts.incident_scopes.ungrouped_scope_words`), and the incidents whose
    scope covers no group, not scored (:func:`unmatched_words`). One rule for
    :func:`~budgetlab.score_alerts` (warned, and in ``attrs["scope_note"]``) and ``budgetlab
    alerts`` (printed), in the words of each. The scoring has no events, only their bins or
    episodes: a key's advice as a group key holds if the events have that column.

    >>> inc = pd.DataFrame({"incident_id": ["a", "b"], "scope": ["svc=late", "*"]})
    >>> print(" ".join(scope_notes(inc, np.array([True, True]), [])))
    ... # doctest: +NORMALIZE_WHITESPACE
    incident scopes name svc, not a by= key: it does not restrict which groups' alerts match an
    incident; if the events have a column svc, give by=['svc'] to match each incident to its own
    groups only.
    """
    from .incident_scopes import ungrouped_scope_words

    scopes = incidents["scope"] if "scope" in incidents.columns else pd.Series([], dtype=object)
    notes = [ungrouped_scope_words(scopes, by)]
    if not covered.all():
        ids = [str(v) for v in incidents["incident_id"].to_numpy()[~covered]]
        notes.append(unmatched_words(ids, len(incidents), by))
    return [n for n in notes if n]


def scope_matches(incidents: pd.DataFrame, keys: pd.DataFrame, by: list[str]) -> np.ndarray:
    """Which groups (rows of ``keys``, the ``by`` columns) each incident's scope covers
    (:func:`~budgetlab.events.schema.scope_mask`), one row per incident; without ``by`` every
    scope covers the one group.

    >>> inc = pd.DataFrame({"scope": ["region=fra", "region=nowhere", "*"]})
    >>> scope_matches(inc, pd.DataFrame({"region": ["ams", "fra"]}), ["region"]).tolist()
    [[False, True], [False, False], [True, True]]
    """
    scopes = incidents["scope"].tolist() if "scope" in incidents.columns else ["*"] * len(incidents)
    match = np.zeros((len(incidents), len(keys)), dtype=bool)
    for i, sc in enumerate(scopes):
        parse_scope(sc)  # validates
        match[i] = scope_mask(keys, sc) if by else True
    return match


def unmatched_words(ids: list[str], total: int, by: list[str], of: str = "the episodes") -> str:
    """The incidents (``ids`` of ``total``) whose scope covers no group of the ``by`` keys: not
    scored (neither detected nor missed); in the words of the API (the groups ``of`` what) or of
    the command line (the log's).

    >>> print(unmatched_words(["I1"], 3, ["svc"]))
    ... # doctest: +NORMALIZE_WHITESPACE
    1 of the 3 incidents of incidents= ('I1') has a scope that matches no group of the
    episodes (by svc): not scored, neither detected nor missed; check its scope.
    """
    one = len(ids) == 1
    named = some_named([shown(i) for i in ids], 5)
    return (f"{counted_of(len(ids), total, 'incident')} of "
            f"{say('incidents=', '--incidents')} ({named}) "
            f"{'has a scope that matches' if one else 'have scopes that match'} no group of "
            f"{say(of, 'the log')} (by {', '.join(by)}): not scored, neither "
            f"detected nor missed; check {'its scope' if one else 'their scopes'}.")


def budget_before_alert_note(withheld_ns: np.ndarray, span_ns: int, n_groups: int) -> str:
    """Why ``budget_before_alert_*`` is withheld: the periods (ns) of the groups whose period
    is longer than the evaluated span (``""`` when none is). The tables keep it in
    ``attrs["budget_note"]``.

    >>> day = 86_400 * 10**9
    >>> print(budget_before_alert_note(np.array([30.0 * day]), 4 * day, 1))
    ... # doctest: +NORMALIZE_WHITESPACE
    budget_before_alert withheld: the bins span 4 d, less than the 30 d budget period, and a
    share of the 30 d budget needs a whole period of traffic (4 d would be scaled to 30 d);
    read at least 30 d.
    """
    from .._util.words import duration_words, prose_duration

    if len(withheld_ns) == 0:
        return ""
    longest = prose_duration(pd.Timedelta(int(withheld_ns.max()), unit="ns"))
    periods = " / ".join(prose_duration(pd.Timedelta(int(p), unit="ns"))
                         for p in sorted(set(withheld_ns.tolist())))
    span = duration_words(pd.Timedelta(span_ns, unit="ns"))
    which = (f" for {len(withheld_ns)} of the {n_groups} groups"
             if len(withheld_ns) < n_groups else "")
    return (f"budget_before_alert withheld{which}: the bins span {span}, less than the {periods} "
            f"budget period, and a share of the {periods} budget needs a whole period of traffic "
            f"({span} would be scaled to {periods}); read at least {longest}.")


#: The end (ns) of an alert still firing at the last evaluation, inside the scoring: after every
#: instant, so an alert end at it is where the evaluation stopped, not where the alert reset.
OPEN = int(np.iinfo(np.int64).max)


def open_ends(episodes: pd.DataFrame, ep_end: np.ndarray) -> tuple[np.ndarray, int]:
    """``(ends, shown)``: the episodes' ends ``ep_end`` (ns) with those of the episodes still
    firing at the last evaluation (``ongoing``) at :data:`OPEN`, and the end the tables show for
    them: the table's (one step after the last evaluation, where the evaluation stopped; ``OPEN``
    when none is ongoing).

    >>> ep = pd.DataFrame({"ongoing": [False, True]})
    >>> ends, shown = open_ends(ep, np.array([5, 9]))
    >>> ends.tolist() == [5, OPEN], shown
    (True, 9)
    """
    ongoing = (episodes["ongoing"].to_numpy(dtype=bool) if "ongoing" in episodes.columns
               else np.zeros(len(episodes), dtype=bool))
    shown = int(ep_end[ongoing].max()) if ongoing.any() else OPEN
    return np.where(ongoing, OPEN, ep_end).astype(np.int64), shown


def policy_period(period: Any, policy: AlertPolicy | None) -> int | None:
    """The budget period (ns) the scores' percentages use when it is one for every group:
    ``period`` when given (the period the user names, also with a policy given for its tier names
    only), else the period of an :class:`AlertPolicy` given (its burn thresholds are set for it,
    and :func:`~budgetlab.alerts.episodes.alert_episodes` runs it so); None: the SLO's.

    >>> policy_period(None, AlertPolicy.workbook("7D")) == 7 * 86_400 * 10**9
    True
    >>> policy_period("1D", AlertPolicy.workbook("7D")) == 86_400 * 10**9
    True
    """
    if period is not None:
        return int(to_timedelta(period, name="period").value)
    return int(policy.period.value) if isinstance(policy, AlertPolicy) else None


_DEFAULT_PERIOD = "30D"


def budget_periods(target: Any, grid: BinGrid, period_ns: int | None,
                   of_policy: bool) -> np.ndarray:
    """Budget period in ns per group: ``period_ns`` if given (``of_policy``: it is the policy's),
    else the SLO's period (each group's own with per-group SLOs), else 30 days. The policy's
    period and the SLOs' that differ from it are refused (which one the scores mean, budgetlab
    cannot know: the episodes may come from a preset built for each SLO's period)."""
    slos = group_slos(target, grid)
    if slos is not None:  # each group's SLO's own
        own = np.array([float(s.period.value) for s in slos])
    else:  # one SLO's for every group, else the default's
        period = target.period if isinstance(target, SLO) else pd.Timedelta(_DEFAULT_PERIOD)
        own = np.full(grid.n_groups, float(period.value))
    if period_ns is None:
        return own
    if of_policy and (slos is not None or isinstance(target, SLO)) \
            and bool((own != period_ns).any()):
        said = " / ".join(prose_duration(pd.Timedelta(int(p), unit="ns"))
                          for p in sorted(set(own.tolist())))
        mine = pd.Timedelta(period_ns, unit="ns")
        label = f"{mine.days}D" if mine % pd.Timedelta(days=1) == pd.Timedelta(0) else (
            duration_label(mine))
        raise ConfigError(f"the target's budget period ({said}) differs from the period of "
                          f"policy= ({prose_duration(mine)}); pass "
                          f"period={label!r} to score against the "
                          "policy's, or leave out policy= (alert_episodes' episodes name "
                          "their tiers) to use the target's.")
    return np.full(grid.n_groups, float(period_ns))
