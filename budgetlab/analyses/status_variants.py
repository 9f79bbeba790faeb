"""Two variants of the seed tracker's status: calendar windows and hysteresis.

* **Calendar windows** (:func:`replay_calendar`): the counts reset at local midnight in ``tz``.
  The seed's FAQ warns that a calendar day "hides a night of failures": failures up to 23:59
  vanish from the budget at 00:00, while a rolling 24 h window still holds them the next morning.
* **Hysteresis** (``min_dwell``, :func:`hysteresis`): escalation is immediate; a status may only
  improve (drop to a less severe one) once the current, worse status has been shown for at least
  ``min_dwell`` since it was entered. The drop happens at the first event at or after that moment,
  straight to the tracker's status of that event. Flapping is traded against recovery time.

:func:`budgetlab.analyses.window_lengths.compare_windows` puts both side by side with rolling
windows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._util.validation import check_tz, duration_label, to_timedelta
from ..budget.figures import STATUS_DTYPE, seed_figures, seed_status_codes
from ..budget.replay_status import REPLAY_COLUMNS, check_states
from ..errors import InputError
from ..events.schema import ts_ns, ts_utc
from ..slo import SLO, as_slo
from ..windows.calendar import calendar_counts, calendar_edges
from ..windows.groups import first_in_group, group_order, table_order
from .sorted_events import change_flags, parse_window, sort_events

__all__ = ["replay_calendar", "hysteresis", "dwell_codes", "dwell_records"]


def replay_calendar(
    events: pd.DataFrame,
    slo: SLO,
    *,
    calendar: str = "day",
    tz: str = "UTC",
    by: str | Sequence[str] | None = None,
) -> pd.DataFrame:
    """Replay the seed tracker with a calendar window that resets at local midnight.

    Like :func:`budgetlab.replay`, except that at each event the window holds the events of its
    group since the start of the current calendar ``day``, ``week`` (Monday) or ``month`` in
    ``tz`` instead of the trailing ``slo.window`` (which is ignored).

    Returns
    -------
    DataFrame
        The columns of :func:`budgetlab.replay` (so :func:`budgetlab.transitions` applies; time
        in each status on a calendar window: :func:`budgetlab.compare_windows` with
        ``windows=["calendar:day"]``, which :func:`budgetlab.replay_summary` leaves to it);
        ``attrs`` adds ``calendar`` and ``tz``.

    Examples
    --------
    >>> from budgetlab import as_events
    >>> ts = pd.to_datetime(["2026-01-01 23:00", "2026-01-01 23:30", "2026-01-02 00:10"], utc=True)
    >>> st = replay_calendar(as_events(ts, [False, True, True]), SLO(target=0.9))
    >>> st[["total", "failures", "status"]].to_dict("list")
    {'total': [1, 2, 1], 'failures': [1, 1, 0], 'status': ['exhausted', 'exhausted', 'healthy']}
    """
    slo = as_slo(slo, "replay_calendar")
    spec = parse_window(f"calendar:{calendar}")
    tz = check_tz(tz)
    srt = sort_events(events, by)
    total_s = fail_s = np.zeros(0, dtype=np.int64)
    if len(srt.t):
        edges = calendar_edges(int(srt.t.min()), int(srt.t.max()), str(spec.calendar), tz)
        total_s, fail_s = calendar_counts(srt.t, srt.bad, edges, srt.bounds)
    code_s = seed_status_codes(total_s, fail_s, slo.target, slo, first_in_group(srt.bounds))
    total, failures, code = srt.scatter(total_s), srt.scatter(fail_s), srt.scatter(code_s)
    cols: dict[str, object] = {"ts": ts_utc(events)}
    for k in srt.by:
        cols[k] = events[k].array
    cols.update(seed_figures(total, failures, slo.target))
    cols["status"] = pd.Categorical.from_codes(code, dtype=STATUS_DTYPE)
    cols["low_traffic"] = total < slo.min_events
    out = pd.DataFrame(cols, index=events.index, copy=False)
    out.attrs.update({"slo": slo.as_dict(), "by": srt.by, "calendar": spec.calendar, "tz": tz})
    return out


def hysteresis(states: pd.DataFrame, min_dwell: Any) -> pd.DataFrame:
    """Apply a minimum dwell time to the statuses of a replay.

    Escalation is immediate; a status may only drop to a less severe one after it has been
    shown for ``min_dwell`` (since it was entered). The drop happens at the first event at or
    after that moment, straight to the tracker's status at that event.

    Parameters
    ----------
    states : DataFrame
        Output of :func:`budgetlab.replay` or :func:`replay_calendar`.
    min_dwell : duration
        ``"15min"``, ``"1h"``, a Timedelta or seconds; ``0`` changes nothing.

    Returns
    -------
    DataFrame
        A copy of ``states`` with ``status`` replaced (all other columns unchanged);
        ``attrs["min_dwell"]`` records the dwell time (duration text, e.g. ``10m``).

    Examples
    --------
    >>> from budgetlab import SLO, as_events, replay
    >>> ts = pd.date_range("2026-01-01", periods=6, freq="5min")
    >>> st = replay(as_events(ts, [True, False, True, True, True, True]), SLO(target=0.5,
    ...                                                                       window="5min"))
    >>> st["status"].tolist()
    ['healthy', 'exhausted', 'exhausted', 'healthy', 'healthy', 'healthy']
    >>> hysteresis(st, "15min")["status"].tolist()
    ['healthy', 'exhausted', 'exhausted', 'exhausted', 'healthy', 'healthy']
    """
    check_states(states, "hysteresis")  # the columns it lacks named
    dwell_ns = int(to_timedelta(min_dwell, name="min_dwell", allow_zero=True).value)
    keys = [c for c in states.columns if c not in REPLAY_COLUMNS]
    order, bounds = group_order(states, keys)
    t = ts_ns(states)
    code = states["status"].cat.codes.to_numpy().astype(np.int8)
    if order is not None:
        t, code = t[order], code[order]
    if len(t) > 1:
        inside = np.ones(len(t) - 1, dtype=bool)
        inside[bounds[1:-1] - 1] = False  # pairs across groups
        if bool(np.any((t[1:] < t[:-1]) & inside)):
            raise InputError("states must be in time order within each group (as replay() returns "
                             "them).")
    shown = table_order(dwell_codes(t, code, bounds, dwell_ns), order)
    out = states.copy()
    out["status"] = pd.Categorical.from_codes(shown, dtype=STATUS_DTYPE)
    out.attrs["min_dwell"] = duration_label(pd.Timedelta(dwell_ns, unit="ns"))
    return out


def dwell_codes(t: np.ndarray, code: np.ndarray, bounds: np.ndarray,
                min_dwell_ns: int) -> np.ndarray:
    """Apply the minimum dwell time to status codes (sorted by group, then time).

    Escalation is immediate; a drop to a less severe status happens only once the shown status
    has been held for ``min_dwell_ns`` since it was entered (at the first event at or after
    that moment, to that event's status). Every group starts ``healthy``.
    """
    if min_dwell_ns <= 0 or len(code) == 0:
        return code
    rows, _ = dwell_records(t, t, code, bounds, min_dwell_ns, exact=False)
    shown = np.full(len(code), -1, dtype=np.int8)
    shown[first_in_group(bounds)] = 0
    shown[rows] = code[rows]
    idx = np.where(shown >= 0, np.arange(len(code)), 0)
    np.maximum.accumulate(idx, out=idx)
    return shown[idx]


def dwell_records(t: np.ndarray, key: np.ndarray, code: np.ndarray, bounds: np.ndarray,
                  min_dwell_ns: int, *, exact: bool) -> tuple[np.ndarray, np.ndarray]:
    """``(rows, times)`` where the shown status changes under the dwell rule, to ``code[row]``
    (rows sorted by group, then time ``t``; each group starts HEALTHY). One pass over the status
    changes, not over rows. A drop due at ``entered + min_dwell_ns`` happens per event
    (``exact=False``, ``key`` the event times) at the first row at or after it; on the clock
    (``exact=True``, ``key`` each segment's end) at that very instant, in the segment holding
    it. Either way no later than the next change, or not at all."""
    change = np.flatnonzero(change_flags(code, first_in_group(bounds)))
    grp = np.searchsorted(bounds, change, side="right") - 1
    rows: list[int] = []
    times: list[int] = []
    shown, entered, last = 0, 0, -1
    for k, i in enumerate(change.tolist()):
        s, g = int(code[i]), int(grp[k])
        if g != last:
            shown, last = 0, g
        due = entered + min_dwell_ns
        if s > shown or (s < shown and int(t[i]) >= due):
            shown, entered = s, int(t[i])
        elif s < shown:
            j = int(change[k + 1]) if k + 1 < len(change) and grp[k + 1] == g else int(
                bounds[g + 1])
            i += int(np.searchsorted(key[i:j], due, side="right" if exact else "left"))
            if i >= j:
                continue
            shown, entered = s, due if exact else int(t[i])
        else:
            continue
        rows.append(i)
        times.append(entered)
    return np.array(rows, dtype=np.int64), np.array(times, dtype=np.int64)
