"""The alert episodes :func:`~budgetlab.analyses.failure_buckets.bucket_breakdown` leaves out:
those begun and ended while their tier's long window filled (from their group's first event, or
its return after a silence of at least that window), and the tiers
whose long window never filled (not evaluated), by the rule of ``budgetlab alerts``
(:mod:`budgetlab.alerts.filling`), with the words that say so."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._util.words import counted, length_words, prose_duration
from ..alerts.filling import filling_words, unfilled_tiers

__all__ = ["filling_attrs", "merge_filling", "pages_evaluated", "filling_note"]


def filling_attrs(episodes: pd.DataFrame, apart: np.ndarray, log_ns: int) -> dict[str, Any]:
    """``{"span_ns": ..., "log_ns": ..., "tiers": {name: {"severity", "long_window_ns",
    "episodes", "evaluated"}}}`` of a :func:`budgetlab.alert_episodes` table, tiers in policy
    order: ``span_ns`` the bins' span, ``log_ns`` the log's (first to last event: what the words
    say); ``episodes`` counts those of ``apart`` (over while their long window filled,
    :func:`~budgetlab.alerts.filling.episodes_filling`), ``evaluated`` is ``False`` for a tier
    whose long window never filled (:func:`~budgetlab.alerts.filling.unfilled_tiers`)."""
    attrs = episodes.attrs
    span = int(pd.Timestamp(attrs["grid_end"]).value - pd.Timestamp(attrs["grid_start"]).value)
    unfilled = unfilled_tiers(attrs)
    severity = {str(n): str(s) for n, s in attrs["tiers"]}
    names = episodes["tier"].astype(str).to_numpy()
    tiers = {str(n): {"severity": severity[str(n)], "long_window_ns": int(w),
                      "episodes": int((apart & (names == n)).sum()),
                      "evaluated": str(n) not in unfilled}
             for n, w in attrs["tier_windows"].items()}
    return {"span_ns": span, "log_ns": int(log_ns), "tiers": tiers}


def merge_filling(parts: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """:func:`filling_attrs` of several runs over the same bins (per-group SLOs): per tier the
    episodes added up, the longest window, evaluated when every run evaluated it."""
    tiers: dict[str, dict[str, Any]] = {}
    for part in parts:
        for name, t in part["tiers"].items():
            was = tiers.get(name)
            tiers[name] = dict(t) if was is None else {
                "severity": t["severity"],
                "long_window_ns": max(was["long_window_ns"], t["long_window_ns"]),
                "episodes": was["episodes"] + t["episodes"],
                "evaluated": was["evaluated"] and t["evaluated"]}
    return {"span_ns": max(int(p["span_ns"]) for p in parts),
            "log_ns": max(int(p["log_ns"]) for p in parts), "tiers": tiers}


def pages_evaluated(filling: Mapping[str, Any]) -> bool:
    """Whether the ``pages`` columns count anything the log could show: some page tier was
    evaluated, or the policy has no page tier (0 pages is then what it is)."""
    pages = [t for t in filling["tiers"].values() if t["severity"] == "page"]
    return not pages or any(t["evaluated"] for t in pages)


def filling_note(filling: Mapping[str, Any]) -> str:
    """What the alert columns leave out, in words (``""`` when nothing): the tiers not evaluated
    (their long window never filled) and the episodes begun and ended while a long window filled.

    >>> h = 3_600 * 10**9
    >>> def tier(window, n, evaluated):
    ...     return {"long_window_ns": window, "episodes": n, "evaluated": evaluated}
    >>> print(filling_note({"span_ns": 72 * h, "log_ns": 72 * h - 4 * 10**9,
    ...     "tiers": {"page_1h": tier(h, 2, True), "ticket_3d": tier(72 * h, 26, False)}}))
    ... # doctest: +NORMALIZE_WHITESPACE
    2 episodes of page_1h began and ended in the first 1 h of a group's traffic (or of its return
    after a silence that long), while its long window filled: not counted; ticket_3d (3 d) was
    not evaluated: its long window never filled, the log is 2 d 23 h 59 min 56 s long (26
    episodes not counted).

    The log's length is its first to last event, all its units truncated
    (:func:`~budgetlab._util.words.length_words`), never the bins' span (``3 d`` here), which
    would read as long as the window it falls short of.
    """
    said, unfilled, n_unfilled = [], [], 0
    for name, t in filling["tiers"].items():
        n = int(t["episodes"])
        long = prose_duration(pd.Timedelta(int(t["long_window_ns"]), unit="ns"))
        if not t["evaluated"]:
            unfilled.append(f"{name} ({long})")
            n_unfilled += n
        elif n:
            said.append(f"{counted(n, 'episode')} of {name} began and ended "
                        f"{filling_words(long)}, while its long window filled: not counted")
    if unfilled:
        one = len(unfilled) == 1
        span = length_words(pd.Timedelta(int(filling["log_ns"]), unit="ns"))
        said.append(f"{', '.join(unfilled)} {'was' if one else 'were'} not evaluated: "
                    f"{'its long window' if one else 'their long windows'} never filled, the "
                    f"log is {span} long"
                    + (f" ({counted(n_unfilled, 'episode')} not counted)" if n_unfilled else ""))
    return "; ".join(said) + "." if said else ""
