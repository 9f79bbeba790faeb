"""A streaming error-budget tracker with the seed's semantics, O(1) amortized per event.

The seed's ``ErrorBudgetTracker`` sums over its whole window on every ``record()`` (and, as
written, deadlocks: ``record()`` holds a non-reentrant ``threading.Lock`` that its properties take
again). :class:`Tracker` keeps running counters instead and gives the same figures bit for bit.
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
from ..slo import SLO
from ..windows.trailing import window_starts
from .figures import STATUSES, scalar_figures, seed_figures, seed_status_codes, status_code

__all__ = ["Tracker"]

_log = logging.getLogger(__name__)

Report = dict[str, Any]


def _to_ns(ts: Any) -> int:
    """An event time as int ns: numbers are seconds (like ``time.monotonic()``), anything else is
    read by :class:`pandas.Timestamp` (naive times are UTC)."""
    if isinstance(ts, bool):
        raise InputError("ts must be a time, not a bool.")
    if isinstance(ts, (int, float, np.integer, np.floating)):
        if not np.isfinite(ts):
            raise InputError("ts must be a finite number of seconds.")
        return int(round(float(ts) * 1e9))
    try:
        stamp = pd.Timestamp(ts)
    except (ValueError, TypeError, OverflowError):
        raise InputError("ts is not a time; give a datetime, a Timestamp, an ISO string or seconds.") from None
    if pd.isna(stamp):
        raise InputError("ts is NaT; give a time.")
    if stamp.tzinfo is None:
        stamp = stamp.tz_localize("UTC")
    return int(stamp.as_unit("ns").value)


_STATUS_CAT = pd.CategoricalDtype(list(STATUSES), ordered=True)


def _no_transitions() -> pd.DataFrame:
    return pd.DataFrame({"ts": np.empty(0, np.int64), "from_status": pd.Categorical([], dtype=_STATUS_CAT),
                         "to_status": pd.Categorical([], dtype=_STATUS_CAT)})


class Tracker:
    """Streaming rolling-window error-budget tracker (the seed's semantics, running counters).

    Parameters
    ----------
    slo : SLO
        Target, window, thresholds, ``min_events``.
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

    def __init__(self, slo: SLO | None = None, *, clock: Callable[[], int] = time.monotonic_ns) -> None:
        self.slo = slo if slo is not None else SLO()
        if not isinstance(self.slo, SLO):
            raise ConfigError("slo must be a budgetlab.SLO.")
        self._clock = clock
        self._lock = threading.RLock()
        self._callbacks: dict[str, list[Callable[[Report], Any]]] = {s: [] for s in STATUSES}
        self._t = np.empty(1024, dtype=np.int64)
        self._bad = np.empty(1024, dtype=bool)
        self._start = 0
        self._end = 0
        self._failures = 0
        self._sorted = True
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
                _log.warning("budgetlab Tracker callback for %s failed: %s", STATUSES[code], type(exc).__name__)

    def record(self, ok: bool, ts: Any = None) -> str:
        """Record one attempt; returns the status after it.

        ``ts`` is the event time (datetime, Timestamp, ISO string, or seconds); default: now.
        """
        now = self._clock() if ts is None else _to_ns(ts)
        with self._lock:
            if self._end > self._start and now < self._t[self._end - 1]:
                self._sorted = False
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
        ``ts`` must be non-decreasing and not earlier than the last recorded event.

        Returns
        -------
        DataFrame
            ``ts`` (int64 ns), ``from_status``, ``to_status`` of each status change, in order.
        """
        ok_arr = np.asarray(ok, dtype=bool)
        if np.ndim(ts) == 0:
            raise InputError("record_many() needs one ts per event.")
        ts_arr = np.asarray(ts)
        if ts_arr.dtype.kind == "M":  # datetime64 (naive = UTC): exact, no float detour
            t_new = ts_arr.astype("datetime64[ns]").view(np.int64)
        elif ts_arr.dtype.kind in "iuf":
            t_new = np.round(ts_arr.astype(np.float64) * 1e9).astype(np.int64)
        else:
            t_new = np.asarray(pd.to_datetime(pd.Series(ts_arr), utc=True).dt.as_unit("ns").to_numpy(dtype="datetime64[ns]").view(np.int64))
        if len(t_new) != len(ok_arr):
            raise InputError(f"record_many() got {len(ok_arr)} outcomes but {len(t_new)} times.")
        if len(t_new) == 0:
            return _no_transitions()
        with self._lock:
            last = self._t[self._end - 1] if self._end > self._start else None
            if (len(t_new) > 1 and bool((t_new[1:] < t_new[:-1]).any())) or (last is not None and t_new[0] < last):
                raise InputError("record_many() needs times in order, not before the last recorded event.")
            if not self._sorted:  # a window built out of order prunes like the seed's deque: one by one
                rows = []
                for o, t in zip(ok_arr.tolist(), t_new.tolist(), strict=True):
                    before = self._status
                    after = self.record(o, ts=pd.Timestamp(t, tz="UTC"))
                    if STATUSES.index(after) != before:
                        rows.append((t, STATUSES[before], after))
                return pd.DataFrame(rows, columns=["ts", "from_status", "to_status"]) if rows else _no_transitions()
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
            code = seed_status_codes(total, failures, self.slo.target, self.slo, initial=self._status)
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
            if len(change) == 0:
                return _no_transitions()
            return pd.DataFrame(
                {
                    "ts": t_new[change],
                    "from_status": pd.Categorical.from_codes(prev[change], dtype=_STATUS_CAT),
                    "to_status": pd.Categorical.from_codes(code[change], dtype=_STATUS_CAT),
                }
            )
