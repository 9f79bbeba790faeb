"""What ``replay``'s summary says of the evidence under each group's statuses: the time a status
was held because the window held fewer than ``min_events`` events (not evaluated: the seed
tracker keeps its previous status), the groups whose window never held ``min_events`` (their
status held from the start: no verdict), and the groups whose every window was too thin for a
verdict (fewer events than hold :data:`MIN_EXPECTED_FAILURES` expected failures under the
target: :func:`~budgetlab.cli.thin_lines.window_needs`, the rule of "thin windows" below the
transitions, lifted to a group: no window it had held enough). The statuses are the seed
tracker's, unchanged; what is said of them, and how the terminal ranks the groups, is here.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._util.percent import given_percent
from .._util.ratios import ratio
from .._util.units import HOUR_NS
from .._util.words import counted
from ..analyses.recalibration.rules import MIN_EXPECTED_FAILURES, events_for
from ..slo import SLO, PerGroup
from .prose import wrap
from .thin_lines import window_needs

__all__ = ["EVIDENCE_COLUMNS", "WITHHELD", "evidence_summary", "evidence_columns", "held_line",
           "evidenced_first"]

#: The columns :func:`evidence_columns` adds to the summary (before its ``note``).
EVIDENCE_COLUMNS = ("hours_held_low_traffic", "share_held_low_traffic", "window_events_max",
                    "status_evaluated", "thin_evidence")

#: The status cell of a group whose window never held ``min_events`` events.
WITHHELD = "withheld"


def _group_rows(frame: pd.DataFrame, summary: pd.DataFrame, by: list[str]) -> np.ndarray:
    """Per row of ``frame`` (the window's steps): the row of ``summary`` of its group."""
    if not by or len(frame) == 0:
        return np.zeros(len(frame), dtype=np.int64)
    index = pd.MultiIndex.from_frame(summary[by].astype(str))
    return np.asarray(index.get_indexer(pd.MultiIndex.from_frame(frame[by].astype(str))),
                      dtype=np.int64)


def _at_least(slo: SLO | PerGroup) -> str:
    """How a line names the events the rule needs: ``1,000 events`` or per group."""
    return (f"{events_for(slo.target):,} events (under {given_percent(slo.target)} they hold"
            if isinstance(slo, SLO) else "as many events as their group's target needs (they "
            "hold")


def evidence_summary(summary: pd.DataFrame, events: pd.DataFrame, slo: SLO | PerGroup,
                     by: list[str]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(summary with :func:`evidence_columns`, the window's steps)`` of a run over ``events``:
    the steps (:func:`budgetlab.status_spans` with ``steps=True``) serve the thin-window lines
    too."""
    from ..budget.spans import status_spans

    steps = status_spans(events, slo, by=by or None, steps=True)
    return evidence_columns(summary, steps, slo, by), steps


def evidence_columns(summary: pd.DataFrame, steps: pd.DataFrame, slo: SLO | PerGroup,
                     by: list[str]) -> pd.DataFrame:
    """``summary`` (:func:`budgetlab.replay_summary`) with :data:`EVIDENCE_COLUMNS` before its
    ``note``, read from the window's ``steps`` (:func:`budgetlab.status_spans` with
    ``steps=True`` of the same run): ``hours_held_low_traffic`` (of the time in a status, that
    while the window held at least one event but fewer than ``min_events``: the status held, not
    evaluated) and its ``share_`` of the observation, ``window_events_max`` (the most events the
    group's window held), ``status_evaluated`` (that reached ``min_events`` once: else the
    status was held from the start and ``final_status`` is no verdict) and ``thin_evidence``
    (it never reached the events that hold :data:`MIN_EXPECTED_FAILURES` expected failures under
    the target: too few for a verdict); the ``note`` says either in words."""
    need, held = window_needs(steps, slo, by)
    total = steps["total"].to_numpy(dtype=np.int64)
    ns = (steps["end"].array.asi8 - steps["start"].array.asi8).astype(np.float64)
    row, n = _group_rows(steps, summary, by), len(summary)
    low = (total > 0) & (total < held)
    held_hours = np.bincount(row, weights=np.where(low, ns, 0.0), minlength=n) / HOUR_NS
    most = np.zeros(n, dtype=np.int64)
    np.maximum.at(most, row, total)
    g_need, g_held = window_needs(summary, slo, by)
    observed = summary[[c for c in summary.columns if c.startswith("hours_")]].sum(axis=1)
    out = summary.drop(columns=["note"])
    out["hours_held_low_traffic"] = held_hours
    out["share_held_low_traffic"] = ratio(held_hours, observed.to_numpy(dtype=np.float64), np.nan)
    out["window_events_max"] = most
    out["status_evaluated"] = most >= g_held
    out["thin_evidence"] = most < g_need
    said = [_evidence_note(int(m), int(k), int(e), slo) for m, k, e in zip(most, g_held, g_need,
                                                                            strict=True)]
    out["note"] = ["; ".join(x for x in pair if x)
                   for pair in zip(said, summary["note"].astype(str), strict=True)]
    out.attrs = summary.attrs
    return out


def _evidence_note(most: int, min_events: int, need: int, slo: SLO | PerGroup) -> str:
    """A group's words on its evidence (empty when its window held enough).

    >>> _evidence_note(5, 1000, 1000, SLO(target=0.99))  # doctest: +NORMALIZE_WHITESPACE
    'status never evaluated: the window never held the 1,000 events of min_events (5 at most),
    so final_status is the status held from the start, no verdict'
    """
    if most < min_events:
        return (f"status never evaluated: the window never held the {min_events:,} events of "
                f"min_events ({most:,} at most), so final_status is the status held from the "
                "start, no verdict")
    if most < need:
        pct = f" under {given_percent(slo.target)}" if isinstance(slo, SLO) else ""
        return (f"thin evidence: the window never held {need:,} events ({most:,} at most; "
                f"fewer than {MIN_EXPECTED_FAILURES} expected failures{pct}): too few for a "
                "verdict, final_status and the time in each status are no verdict")
    return ""


def held_line(summary: pd.DataFrame, slo: SLO | PerGroup) -> str:
    """Below the summary table: how many groups' windows never held ``min_events`` (their
    status held from the start, their final status withheld) and how much of the time the
    table counts in a status was held, not evaluated. Empty when no status was held."""
    if "hours_held_low_traffic" not in summary.columns:
        return ""
    some = int((summary["hours_held_low_traffic"] > 0).sum())
    never = int((~summary["status_evaluated"]).sum())
    if not some and not never:
        return ""
    flag, n = ((f"--min-events {slo.min_events}", f"{slo.min_events:,} events")
               if isinstance(slo, SLO)
               else ("--min-events, or an --slo file's min_events", "their min_events"))
    groups = counted(len(summary), "group")
    first = (f"status held, never evaluated: {never:,} of {groups}' windows never held {n} "
             f"({flag}): their status was held from the start, so final_status reads "
             f"{WITHHELD} (no verdict). " if never else "")
    return wrap(f"{first}Time held, not evaluated: {some:,} of {groups} held a status for part "
                f"of their time while the window held fewer than {n}; that time counts in the "
                "status held, not as evaluated (the held column; hours_held_low_traffic in "
                "--summary-out).", indent="")


def evidenced_first(summary: pd.DataFrame, order: tuple[str, ...], most: str,
                    slo: SLO | PerGroup | None) -> tuple[pd.DataFrame, tuple[str, ...], str, str]:
    """The table, the order and its words for :func:`~budgetlab.cli.shown_groups.shown_groups`
    with the groups that have enough evidence first (``thin_evidence`` false) and the thin ones
    after them, and the line that counts the thin ones; as given without ``thin_evidence``."""
    if "thin_evidence" not in summary.columns or not summary["thin_evidence"].any():
        return summary, order, most, ""
    thin = int(summary["thin_evidence"].sum())
    at = (f"{_at_least(slo) if slo is not None else 'the events their target needs (they hold'}"
          f" fewer than {MIN_EXPECTED_FAILURES} expected failures: too few for a verdict)")
    if thin == len(summary):  # nothing to rank first: the order as it was
        return summary, order, most, (f"thin evidence: all {counted(thin, 'group')}' windows "
                                      f"never held {at} (the thin_evidence column of "
                                      "--summary-out).")
    table = summary.assign(evidenced=~summary["thin_evidence"].to_numpy(dtype=bool))
    line = (f"thin evidence: {thin:,} of {counted(len(summary), 'group')}' windows never held "
            f"{at}; ranked after the groups with enough evidence (the thin_evidence column of "
            "--summary-out).")
    return (table, ("evidenced", *order),
            f"the groups with enough evidence first; within each part, {most}", line)
