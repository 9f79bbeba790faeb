"""``budgetlab alerts`` on the groups with a verdict: the rule of notebook 02's policy choice
(:func:`~budgetlab.analyses.choices.policy_thin.thin_policy_groups`, fewer events than hold 10
expected failures under the group's target). A group of 20 events whose one failure pages is no
evidence of how a policy pages: its alerts are scored apart, kept out of the all-groups rows'
precision and recall, and said in one line; ``--out`` keeps its own rows, ``left_out`` saying
why. When every group is thin, nothing is left to judge on: precision and recall are withheld
in words."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pandas is imported when a command runs, not for --help
    import pandas as pd

    from ..analyses.choices.policy_thin import VerdictSplit

__all__ = ["PolicyScores", "score_policy", "ALL_THIN"]

#: The ``left_out`` of the all-groups rows when every group is too thin for a verdict.
ALL_THIN = "every group is too thin for a verdict"


@dataclass(frozen=True)
class PolicyScores:
    """One policy as ``alerts`` prints, writes and draws it: ``episodes`` (every group's),
    ``scores`` (of the groups with a verdict; every group's when none or all are thin),
    ``table`` (the ``--out`` rows: ``scores``, then the thin groups' own rows, ``left_out``
    saying why a row is no evidence, ``""`` for the others), ``scored`` (the incidents
    ``scores`` is of: those covering a group with a verdict), ``line`` (the thin groups' pages in
    words; ``None`` when none is thin) and ``withheld`` (every group thin: precision and recall
    withheld, in these words)."""

    episodes: pd.DataFrame
    scores: pd.DataFrame
    table: pd.DataFrame
    scored: pd.DataFrame
    line: str | None
    withheld: str


def score_policy(name: str, bins: Any, slo: Any, split: VerdictSplit, scored: pd.DataFrame,
                 grace: Any) -> PolicyScores:
    """The preset ``name`` replayed on ``bins`` under ``slo`` (each group's policy built for its
    SLO's period) and scored against the ``scored`` incidents: the groups with a verdict and the
    thin ones of ``split`` (:func:`~budgetlab.analyses.choices.policy_thin.split_by_verdict`)
    apart (:func:`~budgetlab.analyses.choices.policy_thin.each_warning_once`)."""
    import pandas as pd

    from ..alerts.episodes import alert_episodes
    from ..alerts.scoring import score_alerts
    from ..analyses.choices.policy_thin import covering, each_warning_once, policy_pages

    episodes = alert_episodes(bins, slo, name)
    thin = split.thin
    why = _whys(thin)
    theirs = 0  # the incidents of the thin groups only
    if split.judged is None:  # none thin, or all: every group's scores
        scores = score_alerts(episodes, scored, grace=grace, bins=bins, target=slo)
        left, apart = (scores, scores) if len(thin) else (None, None)
    else:
        judged, apart_grid = split.judged, split.left
        assert apart_grid is not None  # parted together
        ours = covering(scored, judged)
        theirs = len(scored) - len(ours)

        def both() -> tuple[pd.DataFrame, pd.DataFrame]:
            return (score_alerts(alert_episodes(judged, split.judged_target, name), ours,
                                 grace=grace, bins=judged, target=split.judged_target),
                    score_alerts(alert_episodes(apart_grid, split.left_target, name),
                                 covering(scored, apart_grid), grace=grace, bins=apart_grid,
                                 target=split.left_target))

        scores, apart = each_warning_once(both)
        scored = ours
        left = apart[~_all_groups_rows(apart, thin.attrs["by"])]
    every = split.judged is None and left is not None
    table = scores.assign(left_out=_left_out(scores, thin.attrs["by"], why, every))
    if left is not None and not every:
        table = pd.concat([table, left.assign(left_out=_left_out(left, thin.attrs["by"], why,
                                                                 False))], ignore_index=True)
        table.attrs = dict(scores.attrs)
    line = None
    if apart is not None:
        pages, false = policy_pages(apart.assign(policy=name))[name]
        line = _line(pages, false, why, every, theirs)
    return PolicyScores(episodes, scores, table, scored, line, ALL_THIN if every else "")


def _whys(thin: pd.DataFrame) -> dict[tuple[str, ...], tuple[str, str]]:
    """Per thin group (its key values as text), its name and why it is thin."""
    keys = thin.attrs["by"]
    return {tuple(str(v) for v in row): (g, w) for row, g, w in zip(
        thin[keys].itertuples(index=False, name=None), thin["group"], thin["why"], strict=True)}


def _all_groups_rows(scores: pd.DataFrame, by: list[str]) -> Any:
    """The rows of a score table that sum every group (``*`` in each key column)."""
    import numpy as np

    out = np.ones(len(scores), dtype=bool)
    for k in by:
        out &= (scores[k].astype(str) == "*").to_numpy()
    return out


def _left_out(scores: pd.DataFrame, by: list[str], why: dict[tuple[str, ...], tuple[str, str]],
              every: bool) -> list[str]:
    """Per score row, why it is no evidence for the policy: a thin group's own why; with
    ``every`` group thin, :data:`ALL_THIN` on the rows that sum them; ``""`` for the others."""
    rows = (scores[by].astype(str).itertuples(index=False, name=None) if by
            else [()] * len(scores))
    star = _all_groups_rows(scores, by) if by else [every] * len(scores)
    return [why[tuple(r)][1] if tuple(r) in why else ALL_THIN if every and s else ""
            for r, s in zip(rows, star, strict=True)]


def _line(pages: int, false: int, why: dict[tuple[str, ...], tuple[str, str]],
          every: bool, theirs: int) -> str:
    """The thin groups' pages, left out, in words (``every``: all groups thin, so precision
    and recall are withheld; ``theirs``: the incidents that cover only them, not scored)."""
    from .._util.words import counted
    from ..analyses.choices.policies import thin_named

    named = thin_named(dict(why.values()))
    sent = f"{counted(pages, 'page')} ({false:,} false)"
    groups = counted(len(why), "thin group")
    if every:
        return (f"{sent} on {groups} left out: {named}; {ALL_THIN}, precision and recall "
                "withheld (too thin)")
    only = (f"; {counted(theirs, 'incident')} {'covers' if theirs == 1 else 'cover'} only "
            f"{'it' if len(why) == 1 else 'them'}, not in the rows above" if theirs else "")
    return (f"{sent} on {groups} left out: {named}; the rows above score the other groups "
            f"(precision, recall and every count){only}")
