"""The thin evidence of :func:`budgetlab.latency_recalibrate`: why a group's events cannot judge a
candidate target (:func:`thin_reasons`, :func:`budgetlab.recalibrate`'s rule), and the miss their
failures decide all the same (:func:`say_missed`, the rule of
:func:`~budgetlab.analyses.recalibration.rules.decided_miss`), never for a group withheld for its
evaluated time (:func:`time_reasons`; the one rule of
:mod:`~budgetlab.analyses.recalibration.thin_time`, :func:`budgetlab.recalibrate`'s): no verdict
there, "missed" included, and no time share (``limit_share``).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._util.units import HOUR_NS
from .._util.words import given_duration, prose_duration
from .recalibration.evidence import warmup_words
from .recalibration.rules import decided_miss, thin_evidence, thin_kind
from .recalibration.thin_time import miss_in_time, time_kind, time_words

__all__ = ["thin_reasons", "time_reasons", "say_missed"]


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


def time_reasons(observed_ns: np.ndarray) -> tuple[list[str], list[str]]:
    """Per group, the words and kind of the evaluated time's rule for a verdict
    (:mod:`~budgetlab.analyses.recalibration.thin_time`, :func:`budgetlab.recalibrate`'s: no
    evaluated time, ``"no_time"``, or under 24 h of it, ``"too_little_time"``), whatever its
    events; empty where its time (``observed_ns``, the table's ``observed_time``) is enough.

    >>> time_reasons(np.array([0, 2 * 3_600e9, 30 * 3_600e9]))[1]
    ['no_time', 'too_little_time', '']
    """
    hours = [float(h) / HOUR_NS for h in observed_ns]
    kinds = [time_kind(h > 0, h) for h in hours]
    return [time_words(k, h) for k, h in zip(kinds, hours, strict=True)], kinds


def say_missed(summary: pd.DataFrame, frontier: pd.DataFrame, n_ev: np.ndarray,
               slow: np.ndarray, thr: list[int], cands: np.ndarray,
               kinds: np.ndarray, hours: np.ndarray) -> np.ndarray:
    """Where too few events withhold a candidate, a miss their failures decide all the same
    (:func:`decided_miss`, ``slow``: groups x thresholds, the evaluated events slower or failed)
    is said instead: in the summary's ``note`` where even the lowest candidate is missed at its
    threshold, in the frontier's where the target is missed at every threshold (at the longest,
    fewest fail), its ``withheld`` kind cleared (the evidence judged it); the kinds returned.
    Under a day of evaluated time the frontier's reason is the time's, few events or not (its
    ``withheld`` kind ``"too_little_time"``: 20 events would not do). A group withheld for its
    evaluated time (``hours``, per group: the rule of
    :func:`~budgetlab.analyses.recalibration.thin_time.miss_in_time`, one with
    :func:`budgetlab.recalibrate`'s) gets no verdict, "missed" included: where its failures
    would decide a miss, the time's reason is said (``withheld: only 2 h of evaluated time,
    ...``), its kind the ``withheld`` kind."""
    n_c = len(cands)
    failed = [f"slower than {given_duration(pd.Timedelta(t, unit='ns'))} or failed" for t in thr]
    said = summary["note"].tolist()
    for k, (g, i) in enumerate(np.ndindex(len(n_ev), len(thr))):
        missed = decided_miss(int(n_ev[g]), int(slow[g, i]), float(cands[0]), failed=failed[i])
        missed, _, why = miss_in_time(missed, bool(hours[g] > 0), float(hours[g]))
        if missed or why:  # withheld for time: no verdict, said why
            said[k] = missed or f"withheld: {why}"
    summary["note"] = said
    kinds = kinds.copy()
    notes = frontier["note"].tolist()
    for g, c in np.argwhere(kinds == "too_few_events").tolist():
        # under a day of evaluated time the time is the reason, whatever the events (thin_time)
        kind = time_kind(bool(hours[g] > 0), float(hours[g]))
        if kind:
            notes[g * n_c + c], kinds[g, c] = time_words(kind, float(hours[g])), kind
            continue
        missed = decided_miss(int(n_ev[g]), int(slow[g, -1]), float(cands[c]), failed=failed[-1])
        if missed:
            notes[g * n_c + c] = f"missed at every threshold: {missed.removeprefix('missed: ')}"
            kinds[g, c] = ""
    frontier["note"] = notes
    return kinds
