"""What ``budgetlab backtest --incidents`` scores of each policy: the incidents whose scope
covers a group read (:func:`in_scope`, :func:`incidents_to_score`), and the policy's scores and
per-incident detections on the groups with a verdict, those of the groups too thin for one apart
(:func:`score_backtest`: :func:`~budgetlab.cli.thin_scores.score_apart`, the rule ``alerts``
applies, notebook 02's)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pandas is imported when a command runs, not for --help
    import pandas as pd

    from ..analyses.choices.policy_thin import VerdictSplit
    from .thin_scores import PolicyScores, Scorer

__all__ = ["in_scope", "incidents_to_score", "score_backtest"]


def in_scope(incidents: pd.DataFrame | None, grid: Any, by: list[str]
             ) -> tuple[pd.DataFrame | None, str]:
    """The ``incidents`` whose scope covers a group of the bins read (those scored and named by
    the score notes; without ``by`` all of them), and the sentence naming the others, not
    scored (``""`` when there are none), said with how ``--incidents`` was read, as ``alerts``
    says it."""
    import numpy as np

    from ..alerts.score_inputs import scope_matches, unmatched_words

    if incidents is None or not by:
        return incidents, ""
    match = scope_matches(incidents, grid.keys[by].astype(str), by)
    covered = np.asarray(match.any(axis=1), dtype=bool)
    if covered.all():
        return incidents, ""
    ids = [str(v) for v in incidents["incident_id"].to_numpy()[~covered]]
    return (incidents.iloc[np.flatnonzero(covered)],
            unmatched_words(ids, len(incidents), by))


def incidents_to_score(incidents: pd.DataFrame | None, path: str | None, grid: Any,
                       by: list[str], target: Any) -> tuple[pd.DataFrame | None, Any]:
    """With ``--incidents`` (``incidents`` read from ``path``): how they were read, said (the
    series' labels are not all known: no columns), those in scope (:func:`in_scope`), and the
    groups of ``grid`` parted by the thin rule of ``alerts``
    (:func:`~budgetlab.analyses.choices.policy_thin.split_by_verdict` under ``target``);
    ``(None, None)`` without."""
    from ..analyses.choices.policy_thin import split_by_verdict
    from .incident_notes import print_incident_notes

    if incidents is None or path is None:
        return None, None
    covered, unmatched = in_scope(incidents, grid, by)
    print_incident_notes(incidents, path, by, None, indent="  ",
                         tz_reads="--start/--end and the plot", more=[unmatched])
    return covered, split_by_verdict(grid, target)


def score_backtest(name: str, episodes: pd.DataFrame, policy: Any, grid: Any, target: Any,
                   split: VerdictSplit, incidents: pd.DataFrame, grace: Any) -> PolicyScores:
    """The ``policy`` (``name``; ``episodes``: every group's, on ``grid`` under ``target``)
    scored against ``incidents`` with ``grace``, the thin groups of ``split`` apart: its
    ``scores`` (:func:`budgetlab.score_alerts`) and, in ``more["detections"]``, its
    :func:`budgetlab.incident_detections`, both at the policy's period."""
    from ..alerts.episodes import alert_episodes
    from ..alerts.scoring import incident_detections, score_alerts
    from .thin_scores import score_apart

    def replay(bins: Any, slo: Any) -> pd.DataFrame:
        return alert_episodes(bins, slo, policy)

    def scorer(how: Callable[..., pd.DataFrame]) -> Scorer:
        def score(ep: pd.DataFrame, inc: pd.DataFrame, bins: Any, slo: Any) -> pd.DataFrame:
            return how(ep, inc, grace=grace, bins=bins, target=slo, period=policy.period,
                       policy=policy)
        return score

    return score_apart(name, episodes, replay, scorer(score_alerts), grid, target, split,
                       incidents, more={"detections": scorer(incident_detections)})
