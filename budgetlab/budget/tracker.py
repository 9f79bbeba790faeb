"""Streaming error-budget trackers: :class:`Tracker` follows one stream (:mod:`.stream`),
:class:`KeyedTracker` one stream per group key, each with its group's SLO.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from ..errors import ConfigError, InputError
from ..privacy import shown
from ..slo import as_per_group, key_text
from .event_times import (
    batch_kinds,
    batch_ns,
    batch_outcomes,
    event_time,
    one_outcome,
    time_kind,
)
from .figures import STATUS_DTYPE, STATUSES
from .stream import Report, Tracker

__all__ = ["KeyedTracker"]


class KeyedTracker:
    """Streaming trackers with per-group SLOs: one :class:`Tracker` per group key, created at the
    group's first event with the group's SLO from a :class:`~budgetlab.PerGroup`.

    Each group's tracker is exactly a :class:`Tracker` with that group's SLO (target, window,
    thresholds, ``min_events``): its figures and statuses equal :func:`budgetlab.replay` with the
    same per-group SLOs, group by group, bit for bit.

    Parameters
    ----------
    slos : PerGroup or mapping
        Group key (a value, or a tuple for several keys) -> SLO or target. A group without an
        SLO (and no ``default``) is refused at its first event, with an error naming it.
    clock : callable, optional
        As for :class:`Tracker`, shared by every group.

    Notes
    -----
    Callbacks registered with :meth:`on_status_change` apply to every group (also groups
    created later); the report they get is the group's :meth:`Tracker.report` plus ``group``,
    the key as first recorded. Keys are matched as :class:`~budgetlab.PerGroup` matches them
    (by their text: ``200`` and ``"200"`` are one group).

    Examples
    --------
    >>> kt = KeyedTracker({"recaptcha_v2": 0.93, "turnstile": 0.97})
    >>> fired = []
    >>> kt.on_status_change("exhausted", fired.append)
    >>> kt.record("turnstile", False, ts="2026-01-01 00:00")
    'exhausted'
    >>> kt.record("recaptcha_v2", True, ts="2026-01-01 00:01")
    'healthy'
    >>> [(r["group"], r["slo_target"]) for r in fired]
    [('turnstile', 0.97)]
    >>> kt.tracker("turnstile").slo.target
    0.97
    """

    def __init__(self, slos: Any, *, clock: Callable[[], int] = time.monotonic_ns) -> None:
        per_group = as_per_group(slos)
        if per_group is None:
            raise ConfigError("KeyedTracker takes per-group SLOs: a PerGroup or a mapping {group "
                              "key: SLO or target}; for one SLO use Tracker(slo).")
        self.slos = per_group
        self._clock = clock
        self._lock = threading.RLock()
        self._trackers: dict[tuple[str, ...], Tracker] = {}
        self._keys: dict[tuple[str, ...], Any] = {}
        self._callbacks: list[tuple[str, Callable[[Report], Any]]] = []

    def on_status_change(self, status: str, callback: Callable[[Report], Any]) -> None:
        """Call ``callback(report)`` whenever any group's status changes *to* ``status``."""
        key = getattr(status, "value", status)
        if key not in STATUSES:
            raise ConfigError(f"status={status!r} is not one of {', '.join(STATUSES)}.")
        with self._lock:
            self._callbacks.append((key, callback))
            for norm, trk in self._trackers.items():
                trk.on_status_change(key, self._with_group(callback, self._keys[norm]))

    @staticmethod
    def _with_group(callback: Callable[[Report], Any], key: Any) -> Callable[[Report], Any]:
        def call(report: Report) -> Any:
            return callback({"group": key, **report})

        return call

    def _tracker_for(self, key: Any) -> Tracker:
        norm = key_text(key)
        trk = self._trackers.get(norm)
        if trk is None:
            trk = Tracker(self.slos.slo_for(key), clock=self._clock)
            for status, cb in self._callbacks:
                trk.on_status_change(status, self._with_group(cb, key))
            self._trackers[norm] = trk
            self._keys[norm] = key
        return trk

    def _forget_groups_but(self, known: set[tuple[str, ...]]) -> None:
        """Drop the groups made since ``known`` was taken (by a batch then refused)."""
        for norm in set(self._trackers) - known:
            del self._trackers[norm], self._keys[norm]

    def tracker(self, key: Any) -> Tracker:
        """The tracker of group ``key`` (:class:`ConfigError` if the group has no event yet)."""
        norm = key_text(key)
        if norm not in self._trackers:
            raise ConfigError(f"no event recorded yet for group {shown(key)}; record() one "
                              "first (the groups so far: the groups property).")
        return self._trackers[norm]

    @property
    def groups(self) -> list[Any]:
        """The group keys seen so far, in order of their first event."""
        return list(self._keys.values())

    def status(self, key: Any) -> str:
        """The current status of group ``key``."""
        return self.tracker(key).status

    def record(self, key: Any, ok: bool, ts: Any = None) -> str:
        """Record one attempt of group ``key``; returns that group's status after it."""
        one_outcome(ok)  # refused before the group is made: a refused event adds no group
        if ts is not None:
            event_time(ts)
        with self._lock:
            return self._tracker_for(key).record(ok, ts=ts)

    def record_many(self, keys: Any, ok: Any, ts: Any) -> pd.DataFrame:
        """Record a batch of attempts of several groups; returns the transitions they caused.

        ``keys`` holds one group key per event (a sequence of values or tuples, or a DataFrame
        whose rows are the keys). Each group's events go through its :meth:`Tracker.record_many`
        (times non-decreasing per group), so callbacks fire group by group.

        Returns
        -------
        DataFrame
            ``group`` (the key as given), ``ts`` (int64 ns), ``from_status``, ``to_status``
            of each status change, in the order of the events.
        """
        if isinstance(keys, pd.DataFrame):
            key_list = list(keys.itertuples(index=False, name=None))
            key_list = [k[0] if len(k) == 1 else k for k in key_list]
        else:
            key_list = list(keys)
        ok_arr = batch_outcomes(ok)
        kinds = batch_kinds(ts)
        time_kind(kinds)  # a mixed batch: before pandas reads (or refuses) it
        t_all = batch_ns(ts)
        if not (len(key_list) == len(ok_arr) == len(t_all)):
            raise InputError(f"record_many() got {len(key_list)} keys (keys=), {len(ok_arr)} "
                             f"outcomes (ok=) and {len(t_all)} times (ts=); give one of each per "
                             "event.")
        rows: dict[tuple[str, ...], list[int]] = {}
        for i, k in enumerate(key_list):
            rows.setdefault(key_text(k), []).append(i)
        where: list[np.ndarray] = []
        before: list[np.ndarray] = []
        after: list[np.ndarray] = []
        with self._lock:
            batches = []
            known = set(self._trackers)  # a refused batch adds no group either
            # check every group first: a refused batch records nothing
            for idx_list in rows.values():
                idx = np.asarray(idx_list, dtype=np.int64)
                trk = self._tracker_for(key_list[idx_list[0]])
                t_g = t_all[idx]
                try:
                    if not trk.in_order(t_g):
                        raise InputError("record_many() needs the times of each group in order, "
                                         "not before that group's last recorded event.")
                    trk.check_time_kind(kinds, keep=False)
                except InputError:
                    self._forget_groups_but(known)
                    raise
                batches.append((idx, trk))
            for idx, trk in batches:
                trk.check_time_kind(kinds)
                change, b, a = trk.record_batch(ok_arr[idx], t_all[idx])
                where.append(idx[change])
                before.append(b)
                after.append(a)
        pos = np.concatenate(where) if where else np.empty(0, dtype=np.int64)
        order = np.argsort(pos, kind="stable")
        pos = pos[order]
        b_all = np.concatenate(before)[order] if before else np.empty(0, dtype=np.int8)
        a_all = np.concatenate(after)[order] if after else np.empty(0, dtype=np.int8)
        return pd.DataFrame({
            "group": pd.Series([key_list[i] for i in pos.tolist()], dtype=object),
            "ts": t_all[pos],
            "from_status": pd.Categorical.from_codes(b_all, dtype=STATUS_DTYPE),
            "to_status": pd.Categorical.from_codes(a_all, dtype=STATUS_DTYPE),
        })
