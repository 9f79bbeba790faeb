"""What :func:`budgetlab.compare_windows`' time figures rest on: a window held over a silence,
and the events rule for its time shares.

**Held over a silence.** A silence is a gap between two events of a group longer than the
window (the package's rule: :func:`budgetlab.silences`), for a calendar window longer than the
period that holds the earlier event (a day, a week, that month). A group that stops sending
before the log ends went silent by the same rule: its last event is the last before a silence
when the log (its last event, of any group) goes on longer than that after it. On the window's
clock the status still holds after the last event before a silence, until the window empties:
one window for a rolling window, up to the period's reset for a calendar one, a month for
``calendar:month``. That time is status time (the window still holds those events), but it
rests on no new event: :func:`silence_hold` counts it per group (``hours_silent_window``, and
``hours_exhausted_silent`` for its EXHAUSTED part), so a month EXHAUSTED from one failure and
eight months of silence says so.

**Quiet gaps.** A gap shorter than that, of an hour or more, leaves the window holding its
status with no new event: status time by the definition, said apart (:func:`quiet_hold`,
``hours_quiet_in_window``; the rule: :mod:`budgetlab.budget.quiet_gaps`).

**Too few events.** Time shares are judged against the target like every verdict of the package:
a row whose evaluated events hold fewer than
:data:`~budgetlab.analyses.recalibration.rules.MIN_EXPECTED_FAILURES` expected failures under its
group's target (:func:`~budgetlab.analyses.recalibration.rules.too_few_events`, the rule of
``buckets`` and ``recalibrate``) has its shares and rates per day withheld, its ``note`` saying
why (:func:`events_notes`).
"""

from __future__ import annotations

import numpy as np

from .._util.units import HOUR_NS
from ..budget.quiet_gaps import QUIET_COLUMNS, next_gaps, quiet_gaps, quiet_starts
from ..windows.calendar import calendar_edges
from .recalibration.clock import ClockCounts, evaluated_time
from .recalibration.rules import too_few_events
from .sorted_events import Sorted, WindowSpec

__all__ = ["held_over_silence", "silence_hold", "quiet_hold", "events_notes"]

_MONTH_NS = 32 * 86_400 * 10**9


def _limits(srt: Sorted, spec: WindowSpec, tz: str) -> np.ndarray:
    """Per event: the longest gap after it that is no silence (ns): the window, for a calendar
    window the length of the period that holds the event."""
    t = srt.t
    if spec.kind == "rolling":
        return np.full(len(t), spec.window_ns, dtype=np.int64)
    lo, hi = (int(t.min()), int(t.max())) if len(t) else (0, 0)
    edges = calendar_edges(lo, hi + _MONTH_NS, str(spec.calendar), tz)
    k = np.clip(np.searchsorted(edges, t, side="right"), 1, len(edges) - 1)
    return np.asarray(edges[k] - edges[k - 1], dtype=np.int64)


def _silence_starts(srt: Sorted, limit: np.ndarray, hi_ns: int) -> np.ndarray:
    """Per event: whether it is the last event before a silence: the group's next event, or the
    log's end ``hi_ns`` after the group's last event, comes more than ``limit`` after it."""
    gap = next_gaps(srt.t, srt.bounds)
    last = gap < 0
    gap[last] = hi_ns - srt.t[last]
    return gap > limit


def _held_after(srt: Sorted, c: ClockCounts, starts: np.ndarray) -> np.ndarray:
    """Per clock segment of ``c``: whether its group's last event at the segment's start is one
    of ``starts`` (per event)."""
    over = np.zeros(len(c.start), dtype=bool)
    for g in range(len(srt.bounds) - 1):
        s, e = int(srt.bounds[g]), int(srt.bounds[g + 1])
        a, b = int(c.bounds[g]), int(c.bounds[g + 1])
        if e <= s or b <= a:
            continue
        last = np.searchsorted(srt.t[s:e], c.start[a:b], side="right") - 1
        over[a:b] = (last >= 0) & starts[s:e][np.maximum(last, 0)]
    return over


def held_over_silence(srt: Sorted, spec: WindowSpec, tz: str, c: ClockCounts,
                      hi_ns: int) -> np.ndarray:
    """Per clock segment of ``c``: whether the window holds only events from before a silence
    (its group's last event at the segment's start is the last before a silence: the next one,
    or the log's end ``hi_ns``, comes more than the window after it). The one rule of
    :func:`silence_hold` and of :func:`budgetlab.recalibrate`'s ``current_share_limit_silent``."""
    return _held_after(srt, c, _silence_starts(srt, _limits(srt, spec, tz), hi_ns))


def quiet_hold(srt: Sorted, spec: WindowSpec, tz: str, clock: tuple[ClockCounts, np.ndarray],
               lo_ns: int, hi_ns: int) -> dict[str, np.ndarray]:
    """Per group: its quiet gaps under the window (:func:`~budgetlab.budget.quiet_gaps.quiet_gaps`:
    at least an hour, no silence), and ``hours_quiet_in_window``: the evaluated hours inside them
    (the window held its status with no new event; a calendar window's part after its reset is
    no traffic, left out)."""
    c, _ = clock
    limit = _limits(srt, spec, tz)
    over = _held_after(srt, c, quiet_starts(next_gaps(srt.t, srt.bounds), limit))
    x, y = evaluated_time(c, lo_ns, hi_ns)
    dt = np.where(over, y - x, 0).astype(np.float64)
    out = {"hours_quiet_in_window": np.bincount(c.seg, weights=dt,
                                                minlength=srt.n_groups) / HOUR_NS}
    gaps = quiet_gaps(srt.t, srt.bounds, limit)
    out.update({name: gaps[name].to_numpy() for name in QUIET_COLUMNS})
    return out


def silence_hold(srt: Sorted, spec: WindowSpec, tz: str, clock: tuple[ClockCounts, np.ndarray],
                 lo_ns: int, hi_ns: int) -> tuple[np.ndarray, np.ndarray]:
    """Per group: the evaluated hours after the last event before a silence (the window holds
    only events from before it, until it empties; a group's last event too, when the log's end
    ``hi_ns`` comes more than the window after it), and the EXHAUSTED part of them. ``clock``
    is the run's segments and shown status codes (:func:`~.window_clock.shown_clock`)."""
    c, code = clock
    over = held_over_silence(srt, spec, tz, c, hi_ns)
    x, y = evaluated_time(c, lo_ns, hi_ns)
    dt = np.where(over, y - x, 0).astype(np.float64)
    n = len(srt.bounds) - 1
    held = np.bincount(c.seg, weights=dt, minlength=n) / HOUR_NS
    gone = np.bincount(c.seg, weights=np.where(code == 3, dt, 0.0), minlength=n) / HOUR_NS
    return held, gone


def events_notes(notes: list[str], events: np.ndarray, targets: np.ndarray) -> list[str]:
    """``notes`` (one per group) with the rows whose evaluated ``events`` hold too few expected
    failures under the group's target (:func:`too_few_events`) noted, where no other reason is
    given already.

    >>> events_notes(["", ""], np.array([20, 4000]), np.array([0.95, 0.95]))[0].split(" (")[0]
    '20 events in the evaluated span: too few for a verdict'
    """
    out = list(notes)
    for g, (n, tgt) in enumerate(zip(np.asarray(events).tolist(),
                                     np.asarray(targets, dtype=np.float64).tolist(), strict=True)):
        if not out[g] and n > 0:
            out[g] = too_few_events(int(n), float(tgt))
    return out

