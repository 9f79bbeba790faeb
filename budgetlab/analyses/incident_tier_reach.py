"""What an alert tier of the incident report could not do: see the incident, or fire at all.

A tier is **unseen** for a group when its long window held no event of the group at any of its
evaluations during the incident (the one rule of :func:`budgetlab.alerts.unseen.held_traffic`,
as ``budgetlab alerts --incidents`` scores it): it had nothing to detect, so it is neither
"not detected" nor a peak burn of 0 (its peaks are missing, said "no traffic"). A tier **can never
fire** at a target when its threshold ``burn x (1 - target)`` is 1 or more
(:func:`budgetlab.alerts.reach.can_never_fire`): its silence is no verdict on it. The tier
table's ``unseen`` and ``can_fire`` columns, and the words the table and the summary say them in.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._util.percent import given_fraction
from .._util.words import prose_duration
from ..alerts.policy import AlertPolicy
from ..alerts.reach import can_never_fire, cannot_fire_words
from ..alerts.unseen import held_traffic, traffic_spans
from ..budget.burn_rows import traffic_runs
from ..budget.targets import target_array
from ..windows.bingrid import BinGrid
from .incident_end_words import clock_words, detection_span_words, grace_cut_words

__all__ = ["UNSEEN_CELL", "peaks_span_note", "tier_reach", "without_empty_short", "silent_cells",
           "unseen_table_note", "tier_table_notes", "reach_words"]


def tier_reach(grid: BinGrid, tiers: pd.DataFrame, policy: AlertPolicy, keys: Sequence[str],
               target: Any, since: np.ndarray, until: pd.Timestamp, *,
               judged: tuple[np.ndarray, int] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Per row of ``tiers`` (the tier table: its group ``keys`` and ``tier``): ``(unseen,
    can_fire)``. ``unseen``: the tier's long window held no event of the row's group at any of
    its evaluations during the incident, from ``since`` (per tier of ``policy``, in ns: its first
    covered evaluation after the incident's start) to ``until`` (the last one read), included,
    or when ``judged`` is given, ``(lo, hi)`` in ns (``lo`` per tier), in ``[lo, hi)``: the
    incident's start to its end + grace, the span ``score_alerts`` judges an incident unseen on;
    ``False`` for a tier not evaluated at all (``since`` after ``until``: not known, not unseen).
    ``can_fire``: its threshold at the group's ``target`` is under 1."""
    index = {t.name: j for j, t in enumerate(policy.tiers)}
    tier = tiers["tier"].astype(str).map(index).to_numpy(dtype=np.int64)
    group = _grid_positions(grid, tiers, keys)
    evaluated = np.asarray(since, dtype=np.int64)[tier] <= until.value
    lo_t, hi = judged if judged is not None else (since, until.value + 1)
    lo = np.asarray(lo_t, dtype=np.int64)[tier]
    unseen = np.zeros(len(tiers), dtype=bool)
    for j, t in enumerate(policy.tiers):
        sel = (tier == j) & evaluated  # evaluated during the incident
        if sel.any():
            spans = traffic_spans(grid, int(t.long_window.value))
            unseen[sel] = ~held_traffic(*spans, group[sel], lo[sel],
                                        np.full(int(sel.sum()), hi))
    targets = target_array(target, grid)[group]
    can = np.array([not can_never_fire(policy.tiers[j], float(v))
                    for j, v in zip(tier, targets, strict=True)], dtype=bool)
    return unseen, can


def without_empty_short(grid: BinGrid, states: pd.DataFrame, policy: AlertPolicy,
                        keys: Sequence[str]) -> pd.DataFrame:
    """``states`` (:func:`~budgetlab.alerts.episodes.alert_states` rows of ``grid``'s groups)
    with ``burn_short`` missing where the tier's short window (its long one for a single-window
    tier) held no event of the row's group at that evaluation, and ``short_empty`` saying so: no
    traffic, not a burn of 0 (its peak is over the evaluations with traffic; none: missing)."""
    out = states.copy()
    if not len(out):
        out["short_empty"] = np.zeros(0, dtype=bool)
        return out
    tier = out["tier"].astype(str).map({t.name: j for j, t in enumerate(policy.tiers)})
    tier_j = tier.to_numpy(dtype=np.int64)
    group = _grid_positions(grid, out, keys)
    # the bin (a position in the grid) each evaluation ends
    pos = (out["bin_end"].array.asi8 - grid.start_ns) // grid.freq_ns - 1
    held = np.zeros(len(out), dtype=bool)
    for j, tr in enumerate(policy.tiers):
        sel = tier_j == j
        if sel.any():
            width = int((tr.short_window if tr.short_window is not None
                         else tr.long_window).value)
            runs = traffic_runs(grid, max(1, -(-width // grid.freq_ns)))
            held[sel] = held_traffic(*runs, group[sel], pos[sel], pos[sel] + 1)
    out["burn_short"] = out["burn_short"].where(held)
    out["short_empty"] = ~held
    return out


#: The tier table's cell for an unseen tier (its ``detection_delay``), explained once under the
#: table (:func:`unseen_table_note`).
UNSEEN_CELL = "unseen"


def silent_cells(rows: pd.DataFrame, target: Any) -> list[str]:
    """Per tier row, the table's words for a tier that did not fire: it can never fire at the
    ``target``, it saw no traffic (:data:`UNSEEN_CELL`), or it did not detect the incident.

    >>> t = pd.DataFrame({"long_window": pd.to_timedelta(["1h", "6h", "1D"]),
    ...                   "unseen": [False, True, False], "can_fire": [False, True, True]})
    >>> silent_cells(t, 0.9)
    ['can never fire at target 0.9', 'unseen', 'not detected']
    """
    never = (f"can never fire at target {given_fraction(target)}" if np.ndim(target) == 0
             else "can never fire at its target")
    can = rows.get("can_fire", pd.Series(True, index=rows.index))
    quiet = rows.get("unseen", pd.Series(False, index=rows.index))
    return [never if not c else UNSEEN_CELL if q else "not detected"
            for c, q in zip(can, quiet, strict=True)]


def unseen_table_note(rows: pd.DataFrame, cells: list[str], grace: Any = "0s") -> str:
    """The note under the tier table that says once what its ``unseen`` cells mean (``cells``:
    the table's cells, one per row of ``rows``, the tier table's rows shown), naming each such
    tier's long window and the span it was judged on (the incident and its ``grace``); ``""``
    when no cell says it.

    >>> t = pd.DataFrame({"tier": ["page_1h", "page_6h", "page_1h"],
    ...                   "long_window": pd.to_timedelta(["1h", "6h", "1h"])})
    >>> cells = ["unseen", "not detected", "unseen"]
    >>> print(unseen_table_note(t, cells))  # doctest: +NORMALIZE_WHITESPACE
    unseen: the tier's long window (page_1h: 1 h) held no event at any of its evaluations
    during the incident: it had nothing to detect (neither detected nor missed).
    """
    said = {str(t): prose_duration(w) for t, w, cell in zip(
        rows["tier"], rows["long_window"], cells, strict=True) if cell == UNSEEN_CELL}
    if not said:
        return ""
    windows = "; ".join(f"{t}: {w}" for t, w in said.items())
    return (f"{UNSEEN_CELL}: the tier's long window ({windows}) held no event at any of its "
            f"evaluations {detection_span_words(grace)}: it had nothing to detect (neither "
            "detected nor missed).")


def tier_table_notes(rows: pd.DataFrame, cells: list[str], report: Any,
                     grace_name: str = "grace") -> list[str]:
    """The notes under the tier table of ``report`` (an
    :class:`~budgetlab.analyses.incident.IncidentReport`; ``rows``: the rows shown, ``cells``:
    their ``detection_delay`` cells): what its ``unseen`` cells mean (:func:`unseen_table_note`),
    and where the log's end cut the grace (:func:`~.incident_end_words.grace_cut_words`), after
    ``grace_name`` (``--grace`` on the command line)."""
    cut = grace_cut_words(rows, report.end, report.grace, report.tz or "UTC", report.data_end)
    notes = [unseen_table_note(rows, cells, report.grace), f"{grace_name}: {cut}." if cut else ""]
    return [n for n in notes if n]


def peaks_span_note(rows: pd.DataFrame, tz: str, start: pd.Timestamp, grace: Any) -> str:
    """The note under the tier table when a tier (of ``rows``, the rows shown) first fired after
    the evaluations its peaks are read over (``evaluated_from`` .. ``evaluated_to``: the
    incident's), in the ``grace`` after the incident: its ``fired`` is ``budgetlab alerts``'
    rule (an alert overlapping the incident or its grace), its peaks the incident's own, so its
    peak may stay under its threshold; ``""`` when no such tier is shown.

    >>> t = pd.Timestamp
    >>> rows = pd.DataFrame({"tier": ["page_1h"], "fired": [True],
    ...                      "first_alert": [t("2026-03-02 06:41", tz="UTC")],
    ...                      "evaluated_from": [t("2026-03-02 06:01", tz="UTC")],
    ...                      "evaluated_to": [t("2026-03-02 06:30", tz="UTC")]})
    >>> print(peaks_span_note(rows, "UTC", t("2026-03-02 06:00", tz="UTC"), pd.Timedelta("1h")))
    ... # doctest: +NORMALIZE_WHITESPACE
    peak_burn_long is the peak over the tier's evaluations during the incident (page_1h: 06:01 to
    06:30); fired counts an alert overlapping the incident or its 1 h grace (the rule of budgetlab
    alerts): page_1h first fired after those evaluations, at 06:41, so its peak is not the burn it
    fired at.
    """
    if "evaluated_to" not in rows or not len(rows):
        return ""
    late = rows[rows["fired"].to_numpy(dtype=bool) & rows["evaluated_to"].notna()
                & (rows["first_alert"] > rows["evaluated_to"])].drop_duplicates("tier")
    if not len(late):
        return ""

    def at(ts: Any) -> str:
        return clock_words(pd.Timestamp(ts), tz, start)

    spans = "; ".join(dict.fromkeys(f"{r['tier']}: {at(r['evaluated_from'])} to "
                                    f"{at(r['evaluated_to'])}" for _, r in late.iterrows()))
    fired = ", ".join(f"{r['tier']} first fired after those evaluations, at "
                      f"{at(r['first_alert'])}" for _, r in late.iterrows())
    return (f"peak_burn_long is the peak over the tier's evaluations during the incident "
            f"({spans}); fired counts an alert overlapping the incident or its "
            f"{prose_duration(pd.Timedelta(grace))} grace (the rule of budgetlab alerts): "
            f"{fired}, so {'its peak is' if len(late) == 1 else 'their peaks are'} not the burn "
            f"{'it' if len(late) == 1 else 'they'} fired at.")


def reach_words(tiers: pd.DataFrame, policy: AlertPolicy, target: Any, keys: Sequence[str], *,
                grace: Any = "0s") -> str:
    """The summary's clauses on the tiers that could not do their part (``""``: none), each
    after ``"; "``: those that can never fire at the target (:func:`cannot_fire_words`), then
    those unseen (in every group, or in how many of them) during the incident or its ``grace``
    (the span an alert would have detected it in).

    >>> t = pd.DataFrame({"tier": ["page_1h", "page_6h"], "long_window":
    ...                   pd.to_timedelta(["1h", "6h"]), "unseen": [True, False],
    ...                   "can_fire": [False, True]})
    >>> print(reach_words(t, AlertPolicy.workbook(), 0.9, []))  # doctest: +NORMALIZE_WHITESPACE
    ; page_1h can never fire at target 0.9: it needs an error ratio above 14.4 x (1 - 0.9) =
    1.44, and an error ratio is at most 1 (every event failing); page_1h saw no traffic: its 1 h
    window held no event at any of its evaluations during the incident, so it is unseen (neither
    detected nor missed)
    """
    if not len(tiers) or "unseen" not in tiers or "can_fire" not in tiers:
        return ""
    out = ""
    never = [t for t in policy.tiers if t.name in set(tiers.loc[~tiers["can_fire"], "tier"])]
    if never and np.ndim(target) == 0 and isinstance(target, float | int):
        out += "; " + cannot_fire_words(never, float(target))
    elif never:  # no one target to name (per-group targets)
        out += "; " + " and ".join(t.name for t in never) + (
            " can never fire at the SLO's target (a threshold burn x (1 - target) of 1 or more, "
            "and an error ratio is at most 1)")
    n_groups = len(tiers.drop_duplicates(list(keys))) if keys else 1
    for name, rows in tiers[tiers["unseen"]].groupby("tier", sort=False, observed=True):
        n = len(rows)
        whose = "" if n == n_groups else f" for {n:,} of its {n_groups:,} groups"
        out += (f"; {name} saw no traffic{whose}: its "
                f"{prose_duration(rows['long_window'].iloc[0])} window held no event at any of "
                f"its evaluations {detection_span_words(grace)}, so it is unseen (neither "
                "detected nor missed)")
    return out


def _grid_positions(grid: BinGrid, rows: pd.DataFrame, keys: Sequence[str]) -> np.ndarray:
    """Each row's group: its position in ``grid``, matched by the ``keys`` as text (0 without
    keys: one group)."""
    if not keys:
        return np.zeros(len(rows), dtype=np.int64)
    at = {tuple(r): i for i, r in enumerate(
        grid.keys[list(keys)].astype(str).itertuples(index=False, name=None))}
    return np.array([at[tuple(r)] for r in rows[list(keys)].astype(str).itertuples(
        index=False, name=None)], dtype=np.int64)
