"""The streaming error-budget tracker of one stream, with the seed's semantics, O(1) amortized
per event.

The seed's ``ErrorBudgetTracker`` sums over its whole window on every ``record()`` (and, as
written, deadlocks: ``record()`` holds a non-reentrant ``threading.Lock`` that its properties take
again). :class:`Tracker` keeps running counters instead and gives the same figures bit for bit.
Its event times (:mod:`~budgetlab.budget.event_times`) are int64 ns: numbers are seconds (like
``time.monotonic()``), naive times UTC. The seed reads ``time.monotonic()`` itself, so its times
never go back; a :class:`Tracker` given times refuses one earlier than the last it recorded (its
window would count the wrong events), and naive times after aware ones or the reverse.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from ..errors import ConfigError, InputError
from ..slo import SLO, as_per_group
from ..windows.trailing import window_starts
from .event_times import (
    batch_kinds,
    batch_ns,
    batch_outcomes,
    event_time,
    one_outcome,
    time_kind,
)
from .figures import (
    STATUS_DTYPE,
    STATUSES,
    scalar_figures,
    seed_figures,
    seed_status_codes,
    status_code,
)

__all__ = ["Report", "Tracker"]

_log = logging.getLogger(__name__)

#: What a callback gets: the seed's ``get_report()`` (and ``group`` from a KeyedTracker).
Report = dict[str, Any]


def _no_transitions() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "ts": np.empty(0, np.int64),
            "from_status": pd.Categorical([], dtype=STATUS_DTYPE),
            "to_status": pd.Categorical([], dtype=STATUS_DTYPE),
        }
    )


class Tracker:
    """Streaming rolling-window error-budget tracker (the seed's semantics, running counters).

    Parameters
    ----------
    slo : SLO
        Target, window, thresholds, ``min_events``. One tracker follows one stream (one group);
        per-group SLOs are :class:`~budgetlab.budget.tracker.KeyedTracker`'s (one ``Tracker`` per
        group key).
    clock : callable, optional
        Returns the current time in ns when :meth:`record` gets no ``ts``
        (default :func:`time.monotonic_ns`, as the seed uses ``time.monotonic()``).

    Notes
    -----
    Per event: append, drop events with ``ts < now - window`` from the front (an event exactly at
    the cut-off stays), recompute; callbacks registered for a status fire only when the status
    changes to it, with :meth:`report` as argument. An exception in a callback is logged and
    does not stop the others (the seed prints it).

    Examples
    --------
    >>> t = Tracker(SLO(target=0.95, window="1h"))
    >>> fired = []
    >>> t.on_status_change("critical", fired.append)
    >>> for i in range(19):
    ...     _ = t.record(True, ts=f"2026-01-01 00:{i:02d}")
    >>> t.record(False, ts="2026-01-01 00:19")
    'critical'
    >>> fired[0]["budget_remaining_pct"], fired[0]["burn_rate"]
    (0.0, 1.0)
    """

    def __init__(self, slo: SLO | None = None, *, clock: Callable[[],
                                                                  int] = time.monotonic_ns) -> None:
        self.slo = slo if slo is not None else SLO()
        if not isinstance(self.slo, SLO):
            if as_per_group(self.slo) is not None:
                raise ConfigError("Tracker takes one SLO; for per-group SLOs use "
                                  "KeyedTracker(slos), one Tracker per group key with its own SLO.")
            raise ConfigError("slo must be a budgetlab.SLO.")
        self._clock = clock
        self._lock = threading.RLock()
        self._callbacks: dict[str, list[Callable[[Report], Any]]] = {s: [] for s in STATUSES}
        self._t = np.empty(1024, dtype=np.int64)
        self._bad = np.empty(1024, dtype=bool)
        self._start = 0
        self._end = 0
        self._failures = 0
        self._kind: str | None = None  # "naive" or "aware": the times recorded so far
        self._status = 0
        self._figs: dict[str, Any] = scalar_figures(0, 0, self.slo.target)

    # -- registration ---------------------------------------------------------------------
    def on_status_change(self, status: str, callback: Callable[[Report], Any]) -> None:
        """Call ``callback(report)`` whenever the status changes *to* ``status``."""
        key = getattr(status, "value", status)
        if key not in self._callbacks:
            raise ConfigError(f"status={status!r} is not one of {', '.join(STATUSES)}.")
        self._callbacks[key].append(callback)

    # -- state ------------------------------------------------------------------------------
    @property
    def status(self) -> str:
        """The current status (``healthy``, ``warning``, ``critical`` or ``exhausted``)."""
        return STATUSES[self._status]

    @property
    def total(self) -> int:
        """Events in the window."""
        return self._end - self._start

    @property
    def failures(self) -> int:
        """Failures in the window."""
        return self._failures

    def state(self) -> dict[str, Any]:
        """Full-precision figures after the last event (the columns of :func:`budgetlab.replay`)."""
        with self._lock:
            out = dict(self._figs)
            out["status"] = self.status
            out["low_traffic"] = self.total < self.slo.min_events
            return out

    def report(self) -> Report:
        """The seed's ``get_report()``: rounded figures and the status."""
        with self._lock:
            f = self._figs
            return {
                "status": self.status,
                "slo_target": self.slo.target,
                "current_rate": round(f["success_rate"], 4),
                "total_events": f["total"],
                "successes": f["successes"],
                "failures": f["failures"],
                "budget_total": round(f["budget_total"], 1),
                "budget_remaining": round(f["budget_remaining"], 1),
                "budget_remaining_pct": round(f["remaining_fraction"] * 100, 1),
                "burn_rate": round(f["burn_rate"], 2),
            }

    # -- recording ------------------------------------------------------------------------------
    def _append(self, t: np.ndarray, bad: np.ndarray) -> None:
        n = len(t)
        live = self._end - self._start
        if self._end + n > len(self._t):
            cap = max(1024, 2 * (live + n))
            nt = np.empty(cap, dtype=np.int64)
            nb = np.empty(cap, dtype=bool)
            nt[:live] = self._t[self._start : self._end]
            nb[:live] = self._bad[self._start : self._end]
            self._t, self._bad, self._start, self._end = nt, nb, 0, live
        self._t[self._end : self._end + n] = t
        self._bad[self._end : self._end + n] = bad
        self._end += n

    def _fire(self, code: int) -> None:
        report = self.report()
        for cb in self._callbacks[STATUSES[code]]:
            try:
                cb(report)
            except Exception as exc:  # the seed keeps going after a failing callback
                _log.warning("budgetlab Tracker callback for %s failed: %s", STATUSES[code],
                             type(exc).__name__)

    def record(self, ok: bool, ts: Any = None) -> str:
        """Record one attempt; returns the status after it.

        ``ts`` is the event time (datetime, Timestamp, ISO string, or seconds); default: now. It
        must not be earlier than the last recorded event, and naive (read as UTC) only if the
        times before were naive, aware only if they were aware (:class:`InputError` otherwise; the
        tracker is then unchanged).
        """
        ok = one_outcome(ok)
        now, kind = (self._clock(), None) if ts is None else event_time(ts)
        with self._lock:
            if self._end > self._start and now < self._t[self._end - 1]:
                last = pd.Timestamp(int(self._t[self._end - 1]), tz="UTC")
                raise InputError(f"record() needs times in order, not before the last recorded "
                                 f"event ({last}); sort the events by time first.")
            self.check_time_kind({kind})
            self._append(np.array([now], dtype=np.int64), np.array([not ok]))
            self._failures += int(not ok)
            cutoff = now - self.slo.window_ns
            t, bad = self._t, self._bad
            while self._start < self._end and t[self._start] < cutoff:
                self._failures -= int(bad[self._start])
                self._start += 1
            total = self._end - self._start
            self._figs = scalar_figures(total, self._failures, self.slo.target)
            if total >= self.slo.min_events:
                new = status_code(self._figs["remaining_fraction"], self.slo)
                if new != self._status:
                    self._status = new
                    self._fire(new)
            return self.status

    def record_many(self, ok: Any, ts: Any) -> pd.DataFrame:
        """Record a batch of attempts (vectorized); returns the transitions they caused.

        Same result as calling :meth:`record` for each event in order, callbacks included.
        ``ok`` holds one outcome per event: True (a success) or False, or 1 and 0; text and
        missing values are refused (:class:`InputError`). ``ts`` must be non-decreasing and not
        earlier than the last recorded event.

        Returns
        -------
        DataFrame
            ``ts`` (int64 ns), ``from_status``, ``to_status`` of each status change, in order.
        """
        ok_arr = batch_outcomes(ok)
        kinds = batch_kinds(ts)
        self.check_time_kind(kinds, keep=False)  # before pandas reads (or refuses) a mixed batch
        t_new = batch_ns(ts)
        if len(t_new) != len(ok_arr):
            raise InputError(f"record_many() got {len(ok_arr)} outcomes (ok=) but {len(t_new)} "
                             "times (ts=); give one time per outcome.")
        if len(t_new) == 0:
            return _no_transitions()
        with self._lock:  # checked and recorded at once
            if not self.in_order(t_new):
                raise InputError("record_many() needs times in order, not before the last "
                                 "recorded event.")
            self.check_time_kind(kinds)
            change, before, after = self.record_batch(ok_arr, t_new)
        if len(change) == 0:
            return _no_transitions()
        return pd.DataFrame({
            "ts": t_new[change],
            "from_status": pd.Categorical.from_codes(before, dtype=STATUS_DTYPE),
            "to_status": pd.Categorical.from_codes(after, dtype=STATUS_DTYPE),
        })

    def check_time_kind(self, kinds: set[str | None], *, keep: bool = True) -> None:
        """:func:`time_kind` of ``kinds`` after the times recorded so far; with ``keep``, the
        tracker remembers it."""
        kind = time_kind(kinds, self._kind)
        if keep:
            self._kind = kind

    def in_order(self, t_ns: np.ndarray) -> bool:
        """Whether the int64 ns times ``t_ns`` are non-decreasing and not before the last recorded
        event (what :meth:`record_many` and :meth:`record_batch` need)."""
        with self._lock:
            if len(t_ns) > 1 and bool((t_ns[1:] < t_ns[:-1]).any()):
                return False
            return bool(self._end == self._start or len(t_ns) == 0
                        or t_ns[0] >= self._t[self._end - 1])

    def record_batch(self, ok_arr: np.ndarray, t_new: np.ndarray) -> tuple[np.ndarray, np.ndarray,
                                                                           np.ndarray]:
        """:meth:`record_many` of a non-empty batch given as arrays (bool outcomes, int64 ns times
        for which :meth:`in_order` holds), for callers that build the table themselves
        (:class:`~budgetlab.budget.tracker.KeyedTracker`): ``(rows, from codes, to codes)`` of its
        status changes, codes into :data:`~budgetlab.budget.figures.STATUSES`."""
        with self._lock:
            m = self._end - self._start
            self._append(t_new, ~ok_arr)
            t_all = self._t[self._start : self._end]
            bad_all = self._bad[self._start : self._end]
            lo = window_starts(t_all, t_new, self.slo.window_ns)
            cum = np.empty(len(t_all) + 1, dtype=np.int64)
            cum[0] = 0
            np.cumsum(bad_all, out=cum[1:])
            total = np.arange(m + 1, len(t_all) + 1, dtype=np.int64)
            total -= lo
            failures = cum[m + 1 :]
            failures -= cum[lo]
            lo_last = int(lo[-1])
            del lo
            # only what the status needs, per event (the min_events hold continues from the status
            # the tracker shows before the batch); the full figures only where callbacks fire
            code = seed_status_codes(total, failures, self.slo.target, self.slo,
                                     initial=self._status)
            prev = np.empty_like(code)
            prev[0] = self._status
            prev[1:] = code[:-1]
            change = np.flatnonzero(code != prev)
            self._start += lo_last  # prune to the window of the last event
            self._failures = int(failures[-1])
            rows = np.r_[change, len(code) - 1]
            figs = seed_figures(total[rows], failures[rows], self.slo.target)
            for k, i in enumerate(change.tolist()):
                if self._callbacks[STATUSES[code[i]]]:  # build a report only for a listener
                    self._status = int(code[i])
                    self._figs = {name: v[k].item() for name, v in figs.items()}
                    self._fire(self._status)
            self._status = int(code[-1])
            self._figs = {name: v[-1].item() for name, v in figs.items()}
            return change, prev[change], code[change]
