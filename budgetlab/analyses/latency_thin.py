"""The thin evidence of :func:`budgetlab.latency_recalibrate`: why a group's events cannot judge a
candidate target (:func:`thin_reasons`, :func:`budgetlab.recalibrate`'s rule), and the miss their
failures decide all the same (:func:`say_missed`, the rule of
:func:`~budgetlab.analyses.recalibration.rules.decided_miss`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._util.units import HOUR_NS
from .._util.words import given_duration, prose_duration
from .recalibration.evidence import warmup_words
from .recalibration.rules import decided_miss, thin_evidence, thin_kind

__all__ = ["thin_reasons", "say_missed"]


def thin_reasons(n_ev: np.ndarray, traffic_days: np.ndarray, observed_ns: np.ndarray,
                 cands: np.ndarray, *, bootstrap: bool, logged: np.ndarray | None = None,
                 window_ns: int = 0) -> tuple[list[list[str]], np.ndarray]:
    """Per group and candidate: why the evidence cannot judge it (:func:`thin_evidence`'s words
    for the group's events in the evaluated span, its days with traffic and its observed time
    after warm-up, ``observed_ns``, the table's ``observed_time``; empty when it can), and which
    rule that is (:func:`thin_kind`, groups x candidates; empty where it can judge it). The day
    blocks count for the day-block bootstrap only, as in :func:`budgetlab.recalibrate`: without
    one (``bootstrap=False``, ``n_boot=0``) that rule is left out, and the reason is the one
    that applies. A group without an evaluated event whose ``logged`` events (per group, the
    log's) all fell within a warm-up of the ``window_ns`` window says so, in
    :func:`budgetlab.recalibrate`'s words (:func:`warmup_words`), not "too few events"."""
    args = [[(int(n), float(c), int(d), bool(d), float(h) / HOUR_NS) for c in cands]
            for n, d, h in zip(n_ev, traffic_days, observed_ns, strict=True)]
    why = [[thin_evidence(*a[:4], hours=a[4], bootstrap=bootstrap) for a in row] for row in args]
    if logged is not None:
        window = prose_duration(pd.Timedelta(window_ns, unit="ns"))
        for g in np.flatnonzero((np.asarray(n_ev) == 0) & (np.asarray(logged) > 0)).tolist():
            why[g] = [warmup_words(int(logged[g]), window)] * len(cands)
    kinds = np.array([[thin_kind(*a[:4], hours=a[4], bootstrap=bootstrap) for a in row]
                      for row in args],
                     dtype=object).reshape(len(n_ev), len(cands))
    return why, kinds


def say_missed(summary: pd.DataFrame, frontier: pd.DataFrame, n_ev: np.ndarray,
               slow: np.ndarray, thr: list[int], cands: np.ndarray,
               kinds: np.ndarray) -> np.ndarray:
    """Where too few events withhold a candidate, a miss their failures decide all the same
    (:func:`decided_miss`, ``slow``: groups x thresholds, the evaluated events slower or failed)
    is said instead: in the summary's ``note`` where even the lowest candidate is missed at its
    threshold, in the frontier's where the target is missed at every threshold (at the longest,
    fewest fail), its ``withheld`` kind cleared (the evidence judged it); the kinds returned."""
    n_c = len(cands)
    failed = [f"slower than {given_duration(pd.Timedelta(t, unit='ns'))} or failed" for t in thr]
    said = [decided_miss(int(n_ev[g]), int(slow[g, i]), float(cands[0]), failed=failed[i])
            for g in range(len(n_ev)) for i in range(len(thr))]
    summary["note"] = [m or n for m, n in zip(said, summary["note"], strict=True)]
    kinds = kinds.copy()
    notes = frontier["note"].tolist()
    for g, c in np.argwhere(kinds == "too_few_events").tolist():
        missed = decided_miss(int(n_ev[g]), int(slow[g, -1]), float(cands[c]), failed=failed[-1])
        if missed:
            notes[g * n_c + c] = f"missed at every threshold: {missed.removeprefix('missed: ')}"
            kinds[g, c] = ""
    frontier["note"] = notes
    return kinds
