"""The groups too thin for a verdict on alert policies, and the policies scored without them.

A group of 30 events under a target of 88 % holds 3.6 expected failures: its pages say little of
how a policy pages, yet scored with the others they decide :func:`~.policies.choose_policy` (its
2 false pages tipped a policy over the limit of 2 a week). The rule is the one the window
comparison leaves a group row out by (:mod:`budgetlab.analyses.window_thin`, ``few`` and
``empty``): fewer events in the whole log than hold
:data:`~budgetlab.analyses.recalibration.rules.MIN_EXPECTED_FAILURES` expected failures under the
group's target. :func:`judged_policy_scores` scores the policies on the other groups (what
:func:`~.policies.choose_policy` decides on) and keeps the pages of the thin ones apart, to be
said separately, never summed with the evidence.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple, TypeVar, Unpack

import numpy as np
import pandas as pd

from ..._util.burns import expected_failures_words
from ..._util.percent import given_percent
from ..._util.validation import as_list
from ..._util.words import counted
from ...alerts.policy import AlertPolicy
from ...alerts.score_inputs import scope_matches
from ...alerts.scoring import compare_policies
from ...budget.targets import group_slos, target_array
from ...slo import PerGroup, as_per_group, key_text
from ...windows.bingrid import BinGrid
from ...windows.bins import ReadBinsOptions, read_bins
from ..recalibration.rules import MIN_EXPECTED_FAILURES, events_for
from .policies import policy_summary

__all__ = ["thin_policy_groups", "judged_policy_scores", "policy_episode_counts",
           "split_by_verdict", "VerdictSplit", "covering", "each_warning_once", "policy_pages"]

T = TypeVar("T")


def _grid(bins: Any, by: str | Sequence[str] | None, options: Any) -> BinGrid:
    grid = read_bins(bins, **options)
    return grid if by is None else grid.regroup(as_list(by))


def thin_policy_groups(bins: Any, target: Any, *, by: str | Sequence[str] | None = None,
                       **options: Unpack[ReadBinsOptions]) -> pd.DataFrame:
    """The groups of ``bins`` too thin for a verdict on alert policies: fewer events than hold
    :data:`~budgetlab.analyses.recalibration.rules.MIN_EXPECTED_FAILURES` expected failures
    under the group's ``target`` (as :func:`budgetlab.compare_policies` reads both; ``by`` and
    ``**options`` as there).

    Returns
    -------
    DataFrame
        One row per thin group, in the bins' order: its key columns, ``group`` (its name as a
        scope writes it, ``captcha_type=image``; ``all events`` for ungrouped bins),
        ``events``, ``target``, ``expected_failures`` and ``why`` (in words). Empty when none
        is thin. ``attrs["groups"]``: the groups in all.

    Examples
    --------
    >>> from budgetlab.events.schema import as_events
    >>> from budgetlab.windows.binning import bin_events
    >>> ev = as_events(pd.date_range("2026-01-01", periods=230, freq="1min"), [True] * 230,
    ...                groups={"t": ["a"] * 200 + ["b"] * 30})
    >>> thin_policy_groups(bin_events(ev, "1min", by="t"), {"a": 0.95, "b": 0.88})["why"].tolist()
    ['30 events: 3.6 expected failures under 88 %, under the 10 a verdict needs']
    """
    grid = _grid(bins, by, options)
    events = grid.group_totals()
    targets = target_array(target, grid)
    thin = np.array([n < events_for(t) for n, t in zip(events.tolist(), targets.tolist(),
                                                       strict=True)], dtype=bool)
    keys = grid.keys.reset_index(drop=True)[thin].reset_index(drop=True)
    names = [_name(grid.by, row) for row in keys.itertuples(index=False, name=None)]
    out = keys.assign(group=names, events=events[thin], target=targets[thin])
    out["expected_failures"] = out["events"] * (1 - out["target"])
    out["why"] = [f"{counted(int(n), 'event')}: {expected_failures_words(e)} under "
                  f"{given_percent(t)}, under the {MIN_EXPECTED_FAILURES} a verdict needs"
                  for n, e, t in zip(out["events"], out["expected_failures"], out["target"],
                                     strict=True)]
    out.attrs["groups"] = grid.n_groups
    out.attrs["by"] = list(grid.by)
    out.attrs["positions"] = np.flatnonzero(thin).tolist()
    return out


def _name(by: list[str], row: tuple[Any, ...]) -> str:
    """A group's name as a scope writes it (keys joined by ``&``)."""
    return "&".join(f"{k}={v}" for k, v in zip(by, row, strict=True)) if by else "all events"


class VerdictSplit(NamedTuple):
    """A grid's groups parted by :func:`thin_policy_groups`: ``thin`` its table; ``judged`` and
    ``judged_target`` the groups with a verdict, ``left`` and ``left_target`` the thin ones
    (both ``None`` when none is thin, and when all are: nothing is left to judge on)."""

    thin: pd.DataFrame
    judged: BinGrid | None
    judged_target: Any
    left: BinGrid | None
    left_target: Any


def split_by_verdict(bins: Any, target: Any, *, by: str | Sequence[str] | None = None,
                     **options: Unpack[ReadBinsOptions]) -> VerdictSplit:
    """The groups of ``bins`` with a verdict and those too thin for one
    (:func:`thin_policy_groups`, arguments as there), each with its own ``target`` (per-group
    SLOs cut to them, so that none of the others is said to be unused): what
    :func:`judged_policy_scores` and ``budgetlab alerts`` score apart."""
    grid = _grid(bins, by, options)
    thin = thin_policy_groups(grid, target)
    at = np.asarray(thin.attrs["positions"], dtype=np.int64)
    if not len(at) or len(at) == grid.n_groups:
        return VerdictSplit(thin, None, None, None, None)
    keep = np.setdiff1d(np.arange(grid.n_groups), at)
    return VerdictSplit(thin, grid.select(keep), _of(target, grid, keep), grid.select(at),
                        _of(target, grid, at))


def covering(incidents: pd.DataFrame, grid: BinGrid, *,
             whole: BinGrid | None = None) -> pd.DataFrame:
    """The rows of ``incidents`` (under their labels) whose scope covers a group of ``grid``
    (:func:`~budgetlab.alerts.score_inputs.scope_matches`): those the groups of one side of a
    :func:`split_by_verdict` are scored against. An incident of the thin groups only is no
    incident the others missed, nor one of theirs "whose scope matches no group of the log".
    With ``whole`` (the grid both sides come from), also those whose scope covers no group of
    it: that side's scoring says so (a typo in a scope is never dropped in silence)."""
    by = list(grid.by)
    if not by or not len(incidents):
        return incidents
    keep = _covers(incidents, grid, by)
    if whole is not None:
        keep |= ~_covers(incidents, whole, by)
    return incidents[keep]


def _covers(incidents: pd.DataFrame, grid: BinGrid, by: list[str]) -> np.ndarray:
    """Per incident, whether its scope covers a group of ``grid`` (the ``by`` keys)."""
    keys = grid.keys[by].astype(str).reset_index(drop=True)
    return np.asarray(scope_matches(incidents, keys, by).any(axis=1), dtype=bool)


def each_warning_once(score: Callable[[], T]) -> T:
    """``score()``, its warnings each said once: the judged groups and the thin ones are scored
    apart, and both scorings warn alike."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = score()
    for text, category in dict.fromkeys((str(w.message), w.category) for w in caught):
        warnings.warn(text, category, stacklevel=3)
    return out


def judged_policy_scores(bins: Any, target: Any, policies: Mapping[str, AlertPolicy],
                         incidents: pd.DataFrame, *, by: str | Sequence[str] | None = None,
                         grace: Any = "1h", filling: str = "apart",
                         **options: Unpack[ReadBinsOptions]) -> pd.DataFrame:
    """:func:`budgetlab.compare_policies` on the groups with a verdict (arguments as there), and
    the pages of the groups too thin for one (:func:`thin_policy_groups`) apart.

    Returns
    -------
    DataFrame
        The scores of the groups with a verdict (every group's when none is thin, and when all
        are: nothing is left to score on, and :func:`~.policies.choose_policy` withholds).
        ``attrs["groups_without_verdict"]``: ``{group: why}`` (empty when none is thin);
        ``attrs["groups_with_verdict"]``: how many groups the scores judge;
        ``attrs["left_out_pages"]``: per policy, the thin groups' ``[pages, false pages]``
        (as :func:`~.policies.policy_summary` counts them), which it shows apart.
    """
    grid = _grid(bins, by, options)
    split = split_by_verdict(grid, target)
    kw: dict[str, Any] = {"grace": grace, "filling": filling}
    if split.judged is None:
        scores = compare_policies(grid, target, policies, incidents, **kw)
        left = None  # none or all thin: the scores are every group's (no pages apart)
    else:
        judged, apart = split.judged, split.left
        assert apart is not None  # parted together
        scores, left = each_warning_once(lambda: (
            compare_policies(judged, split.judged_target, policies,
                             covering(incidents, judged, whole=grid), **kw),
            compare_policies(apart, split.left_target, policies, covering(incidents, apart),
                             **kw)))
    thin = split.thin
    scores.attrs["groups_without_verdict"] = dict(zip(thin["group"], thin["why"], strict=True))
    scores.attrs["groups_with_verdict"] = grid.n_groups - len(thin)
    scores.attrs["left_out_pages"] = {} if left is None else policy_pages(left)
    return scores


def _of(target: Any, grid: BinGrid, at: np.ndarray) -> Any:
    """``target`` for the groups of ``grid`` at ``at``: per-group SLOs cut to them (their own
    SLO each, so that none of the others is said to be unused), any other target as it is."""
    per = as_per_group(target)
    if per is None:
        return target
    slos = group_slos(per, grid)
    assert slos is not None  # per-group
    rows = list(grid.keys[list(grid.by)].itertuples(index=False, name=None))
    return PerGroup({key_text(rows[i]): slos[i] for i in at.tolist()}, base=per.base,
                    binding=per.binding)


def policy_pages(scores: pd.DataFrame) -> dict[str, list[int]]:
    """Per policy of a :func:`budgetlab.compare_policies` table, its pages over all groups and
    those of them that matched no incident (as :func:`~.policies.policy_summary` counts them)."""
    summary = policy_summary(scores)
    return {str(name): [int(r["pages"]), int(r["false_pages"])] for name, r in summary.iterrows()}


def policy_episode_counts(episodes: Mapping[str, pd.DataFrame], bins: Any, target: Any, *,
                          by: str | Sequence[str] | None = None,
                          **options: Unpack[ReadBinsOptions]) -> pd.DataFrame:
    """Per policy, its alert episodes (each :func:`budgetlab.alert_episodes` of ``bins`` under
    ``target``; ``by`` and ``**options`` as there) in the groups with a verdict, and apart those
    of the groups too thin for one (:func:`thin_policy_groups`): what the policies did, without
    incidents to score them against.

    Returns
    -------
    DataFrame
        One row per policy (index ``policy``, the given order): ``alert episodes`` (groups with a
        verdict) and ``left out: too thin for a verdict`` (never summed with them).
        ``attrs["groups_without_verdict"]``: ``{group: why}``.

    Examples
    --------
    >>> from budgetlab import AlertPolicy, alert_episodes
    >>> from budgetlab.events.schema import as_events
    >>> from budgetlab.windows.binning import bin_events
    >>> ts = pd.date_range("2026-01-01", periods=300, freq="1min")
    >>> ev = as_events(ts, [i % 50 != 1 for i in range(300)], groups={"t": ["a", "b"] * 150})
    >>> b = bin_events(ev, "1min", by="t")
    >>> ep = {"p": alert_episodes(b, {"a": 0.9, "b": 0.99}, AlertPolicy.single_window("5min", 1))}
    >>> policy_episode_counts(ep, b, {"a": 0.9, "b": 0.99}).to_dict("records")
    [{'alert episodes': 0, 'left out: too thin for a verdict': 6}]
    """
    thin = thin_policy_groups(bins, target, by=by, **options)
    keys = thin.attrs["by"]
    gone = {tuple(str(v) for v in row) for row in thin[keys].itertuples(index=False, name=None)}
    counts = {}
    for name, ep in episodes.items():
        if not keys:
            left = len(ep) if len(thin) else 0
        else:
            rows = ep[keys].astype(str).itertuples(index=False, name=None)
            left = sum(tuple(r) in gone for r in rows)
        counts[name] = (len(ep) - left, left)
    out = pd.DataFrame.from_dict(counts, orient="index", columns=[
        "alert episodes", "left out: too thin for a verdict"]).rename_axis("policy")
    out.attrs["groups_without_verdict"] = dict(zip(thin["group"], thin["why"], strict=True))
    return out
