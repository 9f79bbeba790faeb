"""Verdicts on targets under discussion (notebook 01's ``proposed``), judged as the current ones.

A proposal per group (``GROUP=TARGET,...``) is judged for the groups it names only: the others
keep their current targets, judged as current. Over one SLO of every event (``by=None``) there is
no group to name: one target (``0.97``) is judged for the whole log, and a proposal that names
groups is not judged, and the words say why and what to write instead (never silently dropped).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pandas as pd

from .._util.validation import check_fraction
from ..errors import ConfigError
from .history import target_table
from .recalibration import recalibrate
from .verdicts import target_verdicts

__all__ = ["proposed_verdicts"]


def _one_target(proposed: Any) -> float | None:
    """``proposed`` as one target (a number, or text that reads as one), ``None`` when it names
    groups (``GROUP:TARGET``, ``GROUP=TARGET``); anything else refused, naming ``proposed``."""
    if isinstance(proposed, str):
        if ":" in proposed or "=" in proposed:
            return None
        try:
            proposed = float(proposed)
        except ValueError:
            raise ConfigError(f"proposed={proposed!r} is neither one target nor GROUP:TARGET "
                              "pairs; write proposed = 0.97 (one SLO over every event) or "
                              "proposed = 'recaptcha_v2:0.93,turnstile:0.97' (with by).") from None
    if isinstance(proposed, bool) or not isinstance(proposed, (int, float)):
        raise ConfigError(f"proposed={proposed!r}: give a target (0.97), GROUP:TARGET pairs as "
                          "text, or None.")
    return check_fraction("proposed", proposed)


def _sentences(rec: Any, keep: Callable[[pd.DataFrame], Any] | None = None) -> list[str]:
    """The verdict sentences of ``rec`` (the rows ``keep`` picks), said of proposed targets."""
    said = target_verdicts(rec)
    if keep is not None:
        said = said[keep(said)]
    return said["sentence"].str.replace("The current", "The proposed", n=1).tolist()


def proposed_verdicts(events: pd.DataFrame, proposed: Any, *, current: float | pd.DataFrame,
                      **options: Any) -> str:
    """The verdicts on the ``proposed`` targets, as Markdown (``""`` without a proposal).

    Parameters
    ----------
    events : DataFrame
        Canonical events, as given to :func:`budgetlab.recalibrate`.
    proposed : str, float or None
        With ``by``: ``"GROUP:TARGET,..."`` (or ``=``), the groups it names judged under their
        proposed targets, the others' current targets kept for the run. Without ``by`` (one SLO
        over every event): one target (``0.97`` or ``"0.97"``), judged for the whole log; a
        proposal naming groups is not judged, and the text says so, and why.
    current : float or DataFrame
        The current target (``by=None``) or per-group targets (:func:`target_table`).
    **options
        The other keyword arguments of :func:`budgetlab.recalibrate`: ``by`` (one group column;
        ``None`` or left out: one SLO over every event), ``window``, ``history``, ``step``,
        ``max_share``, ``policy``, ...; the run draws no bootstrap (``n_boot=0``).

    Returns
    -------
    str
        One bullet per group judged, each the verdict sentence of
        :func:`budgetlab.target_verdicts` with "The proposed" for "The current"; or the reason no
        proposal was judged.
    """
    if proposed is None or (isinstance(proposed, str) and not proposed.strip()):
        return ""
    options = {**options, "n_boot": 0}
    by = options.get("by")
    if by is None:
        one = _one_target(proposed)
        if one is None:
            return (f"`proposed = {proposed!r}` names groups, but with `by = None` there is one "
                    "SLO over every event and no group to give their targets to: not judged. "
                    "Give one target (`proposed = 0.97`) to judge it for the whole log, or a "
                    "group column in `by`.")
        bullets = _sentences(recalibrate(events, target=one, **options))
        return "Proposed target (one SLO over every event):\n\n" + "\n".join(
            f"- {s}" for s in bullets)
    if not isinstance(current, pd.DataFrame):
        raise ConfigError(f"with by={by!r}, current is the table of per-group targets "
                          "(budgetlab.analyses.history.target_table).")
    named = target_table(events, by=by, target=None, overrides=proposed, name="proposed")
    rest = current[~current[by].isin(named[by])]  # their current targets, for the run
    rec = recalibrate(events, target=pd.concat([named, rest]), **options)
    bullets = _sentences(rec, lambda said: said[by].astype(str).isin(named[by]))
    return (f"Proposed targets (for {', '.join(named[by])}; the other groups were judged above "
            "on their current targets):\n\n" + "\n".join(f"- {s}" for s in bullets))
