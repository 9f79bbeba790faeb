"""What ``budgetlab alerts`` checks before it scores (:mod:`budgetlab.cli.incidents` runs it):
the flags it would not use, and the incidents whose scope covers no group of the log (named, or
the run refused when none does). Each check comes before the first line of results, so that a
refusal prints nothing first (as does :func:`~budgetlab.cli.policy_builds.run_builds`, every
policy built for every SRE budget period of the log's groups)."""

from __future__ import annotations

import argparse

import numpy as np
import pandas as pd

from .._util.words import counted, some_named
from ..errors import ConfigError
from ..privacy import shown
from .prose import path_label
from .unused_flags import TRACKER_FLAGS, refuse_unused

__all__ = ["refuse_unused_alert_flags", "scored_incidents"]


def refuse_unused_alert_flags(args: argparse.Namespace) -> None:
    """The SLO flags that shape the tracker only (``--window``, ``--warning``, ``--critical``,
    ``--min-events``), and ``--show-groups`` without ``--plot``: ``alerts`` uses none of them."""
    refuse_unused(args, TRACKER_FLAGS,
                  "alert policies read the SLO's target and budget period (--slo's timeWindow, "
                  "else 30 d) and alert over their own burn-rate windows")
    if not args.plot:
        refuse_unused(args, ["--show-groups"],
                      "it chooses the groups that --plot draws, and without --plot alerts prints "
                      "the rows of all groups merged (--out writes every group's scores)")


def scored_incidents(incidents: pd.DataFrame, events: pd.DataFrame, by: list[str],
                     path: str) -> tuple[pd.DataFrame, str]:
    """The incidents whose scope covers a group of the log (each under its label in
    ``incidents``: what ``--plot`` finds their scores' unseen ones by), and the sentence
    naming the others (``''`` when there are none): they are not scored. When no incident's
    scope covers a group, the run is refused: scoring would say "no incidents" of a table that
    holds some."""
    from ..alerts.score_inputs import scope_matches, unmatched_words

    if not by or not len(incidents):
        return incidents, ""
    keys = events[by].drop_duplicates().astype(str).reset_index(drop=True)
    covered = np.asarray(scope_matches(incidents, keys, by).any(axis=1), dtype=bool)
    if covered.all():
        return incidents, ""
    ids = [str(v) for v in incidents["incident_id"].to_numpy()[~covered]]
    if not covered.any():
        named = some_named([shown(i) for i in ids], 5)
        raise ConfigError(
            f"{path_label(path)}: the scope of {'its one incident' if len(ids) == 1 else 'every'}"
            f"{'' if len(ids) == 1 else ' incident'} ({named}) matches no group of the log (by "
            f"{', '.join(by)}; {counted(len(keys), 'group')}): nothing to score; check "
            f"{'its scope' if len(ids) == 1 else 'the scopes'} against the groups' values "
            "(a typo?).")
    return incidents.iloc[np.flatnonzero(covered)], unmatched_words(ids, len(incidents), by)
