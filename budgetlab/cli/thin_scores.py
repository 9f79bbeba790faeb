"""``budgetlab alerts`` and ``budgetlab backtest`` on the groups with a verdict: the rule of
notebook 02's policy choice (:func:`~budgetlab.analyses.choices.policy_thin.thin_policy_groups`,
fewer events than hold 10 expected failures under the group's target). A group of 20 events whose
one failure pages is no evidence of how a policy pages: its alerts are scored apart, kept out of
the all-groups rows' precision and recall, and said in one line; ``--out`` keeps its own rows,
``left_out`` saying why. When every group is thin, nothing is left to judge on: precision and
recall are withheld in words. :func:`score_apart` is the rule, once, for both commands (each
replays and scores a policy its own way); :func:`score_policy` is ``alerts``' use of it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pandas is imported when a command runs, not for --help
    import pandas as pd

    from ..analyses.choices.policy_thin import VerdictSplit

__all__ = ["PolicyScores", "score_apart", "score_policy", "ALL_THIN", "Replay", "Scorer"]

#: The ``left_out`` of the all-groups rows when every group is too thin for a verdict.
ALL_THIN = "every group is too thin for a verdict"

#: The columns of a verdict: withheld from ``--out`` too when every group is too thin for one.
_VERDICTS = ("precision", "recall")

#: A policy replayed on some groups' bins under their target: its episodes.
Replay = Callable[[Any, Any], "pd.DataFrame"]
#: A table of episodes scored against incidents on the bins and target they were replayed on
#: (``(episodes, incidents, bins, target)``): rows per group key, ``*`` for all groups.
Scorer = Callable[["pd.DataFrame", "pd.DataFrame", Any, Any], "pd.DataFrame"]


@dataclass(frozen=True)
class PolicyScores:
    """One policy as ``alerts`` and ``backtest`` print, write and draw it: ``episodes`` (every
    group's), ``scores`` (of the groups with a verdict; every group's when none or all are thin),
    ``table`` (the ``--out`` rows: ``scores``, then the thin groups' own rows, ``left_out``
    saying why a row is no evidence, ``""`` for the others), ``scored`` (the incidents
    ``scores`` is of: those covering a group with a verdict), ``line`` (the thin groups' pages in
    words; ``None`` when none is thin), ``withheld`` (every group thin: precision and recall
    withheld, in these words) and ``more`` (each other table of :func:`score_apart`, as
    ``table``)."""

    episodes: pd.DataFrame
    scores: pd.DataFrame
    table: pd.DataFrame
    scored: pd.DataFrame
    line: str | None
    withheld: str
    more: Mapping[str, pd.DataFrame] = field(default_factory=dict)


def score_apart(name: str, episodes: pd.DataFrame, replay: Replay, score: Scorer, bins: Any,
                slo: Any, split: VerdictSplit, scored: pd.DataFrame, *,
                more: Mapping[str, Scorer] | None = None) -> PolicyScores:
    """The policy ``name`` (``episodes``: every group's, on ``bins`` under ``slo``) scored
    against the ``scored`` incidents by ``score`` (and each of ``more``): the groups with a
    verdict and the thin ones of ``split``
    (:func:`~budgetlab.analyses.choices.policy_thin.split_by_verdict`) apart, each side replayed
    on its own bins (``replay``) against its incidents (:func:`_sides`), its warnings said once
    (:func:`~budgetlab.analyses.choices.policy_thin.each_warning_once`)."""
    from ..analyses.choices.policy_thin import each_warning_once, policy_pages

    scorers = {"scores": score, **(more or {})}
    thin = split.thin
    by = thin.attrs["by"]
    why = _whys(thin)
    theirs = 0  # the incidents of the thin groups only
    left: dict[str, pd.DataFrame] | None
    if split.judged is None:  # none thin, or all: every group's scores
        got = {k: f(episodes, scored, bins, slo) for k, f in scorers.items()}
        left = apart = got if len(thin) else None
    else:
        judged, apart_grid = split.judged, split.left
        assert apart_grid is not None  # parted together
        ours, mine, theirs = _sides(scored, judged, apart_grid)

        def both() -> tuple[dict[str, pd.DataFrame], dict[str, pd.DataFrame]]:
            a = replay(judged, split.judged_target)
            b = replay(apart_grid, split.left_target)
            return ({k: f(a, ours, judged, split.judged_target) for k, f in scorers.items()},
                    {k: f(b, mine, apart_grid, split.left_target) for k, f in scorers.items()})

        got, apart = each_warning_once(both)
        scored = ours
        left = {k: t[~_all_groups_rows(t, by)] for k, t in apart.items()}
    every = split.judged is None and left is not None
    tables = {k: _table(t, None if every or left is None else left[k], by, why, every)
              for k, t in got.items()}
    line = None
    if apart is not None:
        pages, false = policy_pages(apart["scores"].assign(policy=name))[name]
        line = _line(_thin_episodes(episodes, by, why), pages, false, why, every, theirs)
    return PolicyScores(episodes, got["scores"], tables.pop("scores"), scored, line,
                        ALL_THIN if every else "", tables)


def _sides(incidents: pd.DataFrame, judged: Any, thin: Any
           ) -> tuple[pd.DataFrame, pd.DataFrame, int]:
    """The ``incidents`` each side of a split is scored against: all but those that cover
    only ``thin`` groups (one whose scope covers no group stays, to be said as such by the
    scoring), those that cover a ``thin`` group; and how many cover only thin groups."""
    import numpy as np

    from ..analyses.choices.policy_thin import covering

    at = incidents.reset_index(drop=True)  # positions, whatever the index
    mine = covering(at, thin).index
    only = mine.difference(covering(at, judged).index)
    keep = ~np.isin(np.arange(len(at)), only.to_numpy())
    return incidents[keep], incidents.iloc[mine.to_numpy()], len(only)


def score_policy(name: str, bins: Any, slo: Any, split: VerdictSplit, scored: pd.DataFrame,
                 grace: Any) -> PolicyScores:
    """The preset ``name`` replayed on ``bins`` under ``slo`` (each group's policy built for its
    SLO's period) and scored against the ``scored`` incidents (:func:`score_apart`): what
    ``budgetlab alerts`` prints of a policy."""
    from ..alerts.episodes import alert_episodes
    from ..alerts.scoring import score_alerts

    def replay(grid: Any, target: Any) -> pd.DataFrame:
        return alert_episodes(grid, target, name)

    def score(ep: pd.DataFrame, incidents: pd.DataFrame, grid: Any, target: Any
              ) -> pd.DataFrame:
        return score_alerts(ep, incidents, grace=grace, bins=grid, target=target)

    return score_apart(name, replay(bins, slo), replay, score, bins, slo, split, scored)


def _table(rows: pd.DataFrame, left: pd.DataFrame | None, by: list[str],
           why: dict[tuple[str, ...], tuple[str, str]], every: bool) -> pd.DataFrame:
    """The ``--out`` rows of a table: ``rows`` (the groups with a verdict, or every group), then
    the thin groups' own rows ``left``, each with ``left_out``."""
    import pandas as pd

    table = rows.assign(left_out=_left_out(rows, by, why, every))
    if every:  # withheld as the terminal withholds them ("too thin"), left_out saying why
        table = table.assign(**{c: float("nan") for c in _VERDICTS if c in table.columns})
    if left is None:
        return table
    out = pd.concat([table, left.assign(left_out=_left_out(left, by, why, False))],
                    ignore_index=True)
    out.attrs = dict(rows.attrs)
    return out


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


def _thin_episodes(episodes: pd.DataFrame, by: list[str],
                   why: dict[tuple[str, ...], tuple[str, str]]) -> int:
    """How many of ``episodes`` (every group's, as the policy's header counts them: one per
    tier's episode) are of the thin groups ``why`` names."""
    if not by or episodes.empty:
        return len(episodes) if why else 0
    keys = episodes[by].astype(str).itertuples(index=False, name=None)
    return sum(tuple(k) in why for k in keys)


def _line(episodes: int, pages: int, false: int, why: dict[tuple[str, ...], tuple[str, str]],
          every: bool, theirs: int) -> str:
    """The thin groups' alert ``episodes`` (as the policy's header counts them) and ``pages``
    (as the rows of tier ``*`` count them), left out, in words (``every``: all groups thin, so
    the rows above are theirs, precision and recall withheld; ``theirs``: the incidents that
    cover only them, not scored).

    >>> why = {("tiny",): ("g=tiny", "20 events")}
    >>> _line(8, 2, 2, why, False, 0).split(": g=")[0]
    '8 alert episodes on 1 thin group left out (2 pages as the rows of tier * count them, 2 false)'
    >>> _line(3, 0, 0, why, True, 0).split("; ")[1]
    'the rows above are its own (3 alert episodes, no page as the rows of tier * count them)'
    """
    from .._util.words import counted
    from ..analyses.choices.policies import thin_named

    named = thin_named(dict(why.values()))
    sent = (f"{counted(pages, 'page')} as the rows of tier * count them, {false:,} false"
            if pages else "no page as the rows of tier * count them")
    if every:
        return (f"{ALL_THIN}: {named}; the rows above are {'its' if len(why) == 1 else 'their'}"
                f" own ({counted(episodes, 'alert episode')}, {sent}); precision and recall "
                "withheld (too thin)")
    only = (f"; {counted(theirs, 'incident')} {'covers' if theirs == 1 else 'cover'} only "
            f"{'it' if len(why) == 1 else 'them'}, not in the rows above" if theirs else "")
    return (f"{counted(episodes, 'alert episode')} on {counted(len(why), 'thin group')} left "
            f"out ({sent}): {named}; the rows above score the other groups (precision, recall "
            f"and every count){only}")
