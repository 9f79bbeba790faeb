"""Which group the incident summary speaks of (:class:`~budgetlab.analyses.incident_result.
IncidentReport`'s focus: the tracker table's first row): the group with the evidence. Among the
groups whose window held enough events for a verdict at the tracker's worst figure (its peak
burn: :func:`thin_words`), under the one rule that withholds the budget share
(:func:`~.recalibration.rules.too_few_events`: ten expected failures), the worst status first,
then the most failures during the incident; then the thin groups (their status said with their
event counts, never as the headline unless every group is thin, said so); then those whose
status is not known (their window never lay after the data's start), by their events during the
incident. The words that say why."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ..budget.spans import SPAN_STATUS_DTYPE
from .incident_end_words import clock_words, moved_on_clock
from .incident_group_words import group_label
from .incident_tables import NO_TRAFFIC
from .recalibration.rules import decided_miss, too_few_events

__all__ = ["Targets", "focus_first", "focus_words", "target_of", "thin_groups",
           "thin_others_words", "thin_words"]


def _per_group(tracker: pd.DataFrame, budget: pd.DataFrame, keys: Sequence[str],
               col: str) -> np.ndarray:
    """Each tracker row's ``col`` of the budget table (0 for a group it does not hold)."""
    if not keys:
        return np.array([float(budget[col].sum()) if len(budget) else 0.0] * len(tracker))
    per = {tuple(str(v) for v in k): float(n) for k, n in zip(
        budget[list(keys)].itertuples(index=False, name=None), budget[col], strict=True)}
    return np.array([per.get(tuple(str(v) for v in k), 0.0) for k in
                     tracker[list(keys)].itertuples(index=False, name=None)], dtype=np.float64)


def _events(tracker: pd.DataFrame, budget: pd.DataFrame, keys: Sequence[str]) -> np.ndarray:
    """Each tracker row's events during the incident (the budget table's ``events``; 0 for a
    group it does not hold)."""
    return _per_group(tracker, budget, keys, "events").astype(np.int64)


#: A target, or each group's (its keys as text) under per-group SLOs.
Targets = float | dict[tuple[str, ...], float]


def target_of(row: pd.Series, keys: Sequence[str], target: Targets) -> float:
    """The target of the group of ``row``: ``target``, or its entry under per-group SLOs."""
    return target if isinstance(target, float) else target[tuple(str(row[k]) for k in keys)]


def thin_words(row: pd.Series, target: float) -> str:
    """Why the tracker's worst figure of ``row`` (a tracker row: its peak burn, read over
    ``peak_burn_events`` events in its window) rests on too few events for a verdict, under the
    rule that withholds the budget share (:func:`~.recalibration.rules.too_few_events`, unless
    the window's failures decide a miss all the same: :func:`~.recalibration.rules.
    decided_miss`); ``""`` when they are enough, or there is no event during the incident.

    >>> thin_words(pd.Series({"peak_burn": 1.5385, "peak_burn_events": 13.0}), 0.95)
    '13 events in its window at its peak burn: too few for a verdict (under 95 % they hold 0.65 \
expected failures; one needs at least 10, i.e. 200 events)'
    >>> thin_words(pd.Series({"peak_burn": 10.0, "peak_burn_events": 30.0}), 0.9)  # 30 of 30
    ''
    """
    n = row.get("peak_burn_events", np.nan)
    if not np.isfinite(n):
        return ""
    # the window's failures, from the burn the tracker computed over them (burn x n x (1 - t))
    failures = int(round(float(row["peak_burn"]) * n * (1 - target)))
    if decided_miss(int(n), failures, target):
        return ""
    return too_few_events(int(n), target, span="its window at its peak burn")


def thin_groups(tracker: pd.DataFrame, keys: Sequence[str],
                target: Targets) -> dict[tuple[str, ...], str]:
    """Each group of ``tracker`` (its keys as text) whose status is known and whose figures
    rest on too few events for a verdict, and why (:func:`thin_words`)."""
    out = {}
    for _, r in tracker.iterrows():
        words = "" if pd.isna(r["worst_status"]) else thin_words(r, target_of(r, keys, target))
        if words:
            out[tuple(str(r[k]) for k in keys)] = words
    return out


def thin_others_words(tracker: pd.DataFrame, tiers: pd.DataFrame, keys: Sequence[str],
                      thin: dict[tuple[str, ...], str], tz: str, start: pd.Timestamp) -> str:
    """The groups after the first whose figures rest on too few events for a verdict
    (``thin``, :func:`thin_groups`) and that were below HEALTHY, or paged: what each did, said
    with its event counts, as a sentence after the tracker's (whose count of the other groups
    below HEALTHY leaves them out); ``""`` when none.

    >>> t0 = pd.Timestamp("2026-01-01 14:00", tz="UTC")
    >>> tr = pd.DataFrame({"g": ["a", "b"], "worst_status": ["critical", "exhausted"],
    ...                    "worst_at": [t0, t0 + pd.Timedelta("17min")]})
    >>> ti = pd.DataFrame({"g": ["b"], "tier": ["page_1h"], "severity": ["page"],
    ...                    "fired": [True], "first_alert": [t0 + pd.Timedelta("18min")]})
    >>> thin_others_words(tr, ti, ["g"], {("b",): "1 event in its window: too few"}, "UTC", t0)
    ' The tracker for g=b reached EXHAUSTED at 14:17 and would have paged at 14:18 (page_1h), \
but on 1 event in its window: too few.'
    """
    said = []
    for _, r in tracker.iloc[1:].iterrows():
        key = tuple(str(r[k]) for k in keys)
        if key not in thin:
            continue
        mine = (tiers[(tiers["fired"]) & (tiers["severity"] == "page")
                      & (tiers[list(keys)].astype(str).agg(tuple, axis=1) == key)]
                .sort_values("first_alert", kind="stable") if len(tiers) else tiers)
        did = _status_words(r, tz, start)
        if len(mine):
            did.append(f"would have paged at {clock_words(mine['first_alert'].iloc[0], tz, start)}"
                       f" ({mine['tier'].iloc[0]})")
        if did:
            said.append(f" The tracker for {group_label(r, keys)} {' and '.join(did)}, but on "
                        f"{thin[key]}.")
    return "".join(said)


def _status_words(r: pd.Series, tz: str, start: pd.Timestamp) -> list[str]:
    """What the tracker row ``r`` did below HEALTHY during the incident: ``was already EXHAUSTED
    when the incident began and stayed so`` (below HEALTHY at the start, read there: never
    "reached" at the start), ``... and reached EXHAUSTED at 16:20`` when it got worse, ``reached
    EXHAUSTED at 16:20``; ``[]`` when it stayed HEALTHY (or had no traffic)."""
    worst, at_start = str(r["worst_status"]), str(r.get("status_at_start", "healthy"))
    if worst in ("healthy", "no_traffic"):
        return []
    reached = f"reached {worst.upper()} at {clock_words(r['worst_at'], tz, start)}"
    read_from = r.get("read_from", start)
    if at_start in ("healthy", "no_traffic", "nan") or pd.isna(read_from) or read_from > start:
        return [reached]
    txt = f"was already {at_start.upper()} when the incident began"
    if worst != at_start:
        return [f"{txt} and {reached}"]
    stayed = (int(r.get("transitions", 0)) == 0 and not moved_on_clock(r)
              and str(r.get("status_at_end", at_start)) == at_start)
    return [txt + (" and stayed so" if stayed else "")]


def _thin(tracker: pd.DataFrame, keys: Sequence[str], target: Targets) -> np.ndarray:
    return np.array([bool(thin_words(r, target_of(r, keys, target)))
                     for _, r in tracker.iterrows()], dtype=bool)


def _unknown(tracker: pd.DataFrame) -> np.ndarray:
    return np.asarray(tracker["worst_status"].isna().to_numpy(), dtype=bool)


def focus_first(tracker: pd.DataFrame, budget: pd.DataFrame, keys: Sequence[str],
                target: Targets) -> pd.DataFrame:
    """``tracker`` with the group the summary speaks of first: the groups whose status is known
    and whose window held enough events for a verdict under ``target`` (:func:`thin_words`),
    by worst status (``no_traffic`` below ``healthy``), then by failures during the incident
    (``budget``'s ``failures``), most first; then the thin ones, the same way; then those whose
    status is not known, by their events during the incident (``budget``'s ``events``), most
    first, equal counts by name. Ties keep the tracker's order (worst peak burn first).

    >>> t = pd.DataFrame({"g": ["a", "b", "c"], "worst_status": [None, None, None]})
    >>> b = pd.DataFrame({"g": ["a", "b", "c"], "events": [1, 34, 2], "failures": [0, 0, 0]})
    >>> list(focus_first(t, b, ["g"], 0.95)["g"])
    ['b', 'c', 'a']
    """
    if not keys or len(tracker) < 2 or "events" not in budget:
        return tracker
    unknown = _unknown(tracker)
    names = tracker[list(keys)].astype(str).agg("\x1f".join, axis=1).to_numpy()
    events = _events(tracker, budget, keys)
    # the unknown ones by name under their events; the known ones keep the tracker's order
    by_name = np.where(unknown, np.argsort(np.argsort(names, kind="stable")), 0)
    failures = (_per_group(tracker, budget, keys, "failures") if "failures" in budget
                else np.zeros(len(tracker)))
    level = np.full(len(tracker), -2.0)
    codes = pd.Categorical(tracker["worst_status"].astype(object),
                           dtype=SPAN_STATUS_DTYPE).codes
    level[~unknown] = np.where(codes[~unknown] == NO_TRAFFIC, -1.0, codes[~unknown])
    known_failures = np.where(unknown, 0.0, failures)
    order = np.lexsort((by_name, -np.where(unknown, events, 0), -known_failures, -level,
                        _thin(tracker, keys, target) & ~unknown, unknown))
    return tracker.iloc[order].reset_index(drop=True)


def focus_words(tracker: pd.DataFrame, budget: pd.DataFrame, keys: Sequence[str]) -> str:
    """Why the summary speaks of the tracker's first group when no group's status is known
    (:func:`focus_first` picked it by its events), as a sentence after the tracker's; ``""``
    when its status is known, or with one group.

    >>> t = pd.DataFrame({"g": ["b", "c", "a"], "worst_status": [None, None, None]})
    >>> b = pd.DataFrame({"g": ["a", "b", "c"], "events": [1, 34, 5]})
    >>> focus_words(t, b, ["g"])
    " No group's tracker status is known: the summary speaks of g=b, the group with the most \
events during the incident (34 of 40)."
    """
    if not keys or len(tracker) < 2 or not _unknown(tracker).all() or "events" not in budget:
        return ""
    events = _events(tracker, budget, keys)
    tie = int((events == events[0]).sum())
    first = f", the first by name of the {tie:,} with as many" if tie > 1 else ""
    return (f" No group's tracker status is known: the summary speaks of "
            f"{group_label(tracker.iloc[0], keys)}, the group with the most events during the "
            f"incident ({events[0]:,} of {int(budget['events'].sum()):,}{first}).")
