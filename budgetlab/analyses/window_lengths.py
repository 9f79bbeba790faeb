"""Window-length experiments: the same history under several windows, side by side.

Each row of :func:`compare_windows` replays the seed tracker's status (see
:mod:`budgetlab.replay`) with one window and reports what an operator would have seen:
flapping, time in each status and, against labelled incidents, how fast the status reacted and
how long it took to recover. Two variants of the status model live here:

* **Calendar windows** (``"calendar:day"``, ``"calendar:week"``, ``"calendar:month"``): the
  counts reset at local midnight in ``tz`` (:func:`replay_calendar`). The seed's FAQ warns that
  a calendar day "hides a night of failures": failures up to 23:59 vanish from the budget at
  00:00, while a rolling 24 h window still holds them the next morning.
* **Hysteresis** (``min_dwell``, :func:`hysteresis`): escalation is immediate; a status may only
  improve (drop to a less severe one) once the current, worse status has been shown for at
  least ``min_dwell`` since it was entered. The drop happens at the first event at or after
  that moment, straight to the tracker's status of that event. Flapping is traded against
  recovery time.

**Time shares** are time-weighted as in :func:`budgetlab.replay_summary`: a status holds from
its event to the group's next event (the last event of a group adds no time).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .._util.progress import progress
from .._util.validation import check_tz, to_timedelta, utc_from_ns, utc_ns_column
from ..budget.burn import target_array
from ..budget.figures import STATUSES, hold_low_traffic, seed_figures, status_codes
from ..budget.tracker_replay import REPLAY_COLUMNS, STATUS_DTYPE
from ..errors import ConfigError, InputError, SchemaError
from ..events.schema import check_events, parse_scope, scope_mask, ts_ns
from ..slo import SLO
from ..windows.bins import BinGrid, duration_label
from ..windows.calendar import calendar_counts, calendar_edges
from ..windows.groups import group_order
from ..windows.trailing import trailing_counts

__all__ = [
    "compare_windows",
    "window_incidents",
    "replay_calendar",
    "hysteresis",
    "COMPARE_COLUMNS",
]

_DAY_NS = 86_400 * 10**9
_HOUR_NS = 3_600 * 10**9
_NAT = np.iinfo(np.int64).min
_CALENDAR_ALIASES = {"day": "day", "1d": "day", "24h": "day", "week": "week", "1w": "week", "7d": "week",
                     "month": "month", "1m": "month"}

#: Columns of :func:`compare_windows` after the group keys (the incident columns only with
#: ``incidents=``).
COMPARE_COLUMNS = (
    "window", "window_kind", "min_dwell", "events", "hours",
    "share_healthy", "share_warning", "share_critical", "share_exhausted", "hours_exhausted",
    "transitions", "transitions_per_day", "round_trips", "round_trips_per_day",
    "incidents", "detected", "missed", "detection_median", "detection_max",
    "recovery_median", "recovery_max", "unrecovered",
)


# ----------------------------------------------------------------------------------------------
# window specs


@dataclass(frozen=True)
class WindowSpec:
    """A parsed window: rolling (``window_ns``) or calendar (``calendar`` = day/week/month)."""

    label: str
    kind: str
    window_ns: int = 0
    calendar: str = ""


def parse_window(spec: Any) -> WindowSpec:
    """Parse ``"1h"``, ``"24h"``, ``"7D"`` (rolling) or ``"calendar:day"`` / ``"calendar:week"`` /
    ``"calendar:month"`` (``"calendar:1D"`` is the day).

    >>> parse_window("24h")
    WindowSpec(label='1d', kind='rolling', window_ns=86400000000000, calendar='')
    >>> parse_window("calendar:1D").label
    'calendar:day'
    """
    if isinstance(spec, WindowSpec):
        return spec
    if isinstance(spec, str) and spec.strip().lower().startswith("calendar"):
        _, _, rest = spec.strip().lower().partition(":")
        name = _CALENDAR_ALIASES.get(rest.strip() or "day")
        if name is None:
            raise ConfigError(f"window {spec!r}: use 'calendar:day', 'calendar:week' or 'calendar:month'.")
        return WindowSpec(f"calendar:{name}", "calendar", calendar=name)
    td = to_timedelta(spec, name="window")
    return WindowSpec(duration_label(td), "rolling", window_ns=int(td.value))



# ----------------------------------------------------------------------------------------------
# events in group order (sorted once, shared by every window)


@dataclass(frozen=True)
class Sorted:
    """Events with each group's rows together (time order kept): the arrays every window uses."""

    by: list[str]
    order: np.ndarray | None
    bounds: np.ndarray
    t: np.ndarray
    bad: np.ndarray
    keys: pd.DataFrame

    @property
    def n_groups(self) -> int:
        return len(self.bounds) - 1

    @property
    def seg(self) -> np.ndarray:
        """Group number of every (sorted) row."""
        return np.repeat(np.arange(self.n_groups, dtype=np.int64), np.diff(self.bounds))

    def counts(self, spec: WindowSpec, tz: str = "UTC") -> tuple[np.ndarray, np.ndarray]:
        """``(total, failures)`` of every (sorted) row for one window: one kernel pass."""
        if spec.kind == "rolling":
            return trailing_counts(self.t, self.bad, spec.window_ns, self.bounds)
        if len(self.t) == 0:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
        edges = calendar_edges(int(self.t.min()), int(self.t.max()), spec.calendar, tz)
        return calendar_counts(self.t, self.bad, edges, self.bounds)

    def scatter(self, values: np.ndarray) -> np.ndarray:
        """Back to the order of the input table."""
        if self.order is None:
            return values
        out = np.empty_like(values)
        out[self.order] = values
        return out


def _group_order(events: pd.DataFrame, keys: list[str]) -> tuple[np.ndarray | None, np.ndarray]:
    return group_order(events, keys)


def sort_events(events: pd.DataFrame, by: str | Sequence[str] | None) -> Sorted:
    """Validate ``events`` and put each group's rows together (one stable radix sort)."""
    keys = check_events(events, by)
    if len(events) == 0:
        raise InputError("events is empty; there is nothing to replay.")
    order, bounds = _group_order(events, keys)
    t = ts_ns(events)
    bad = ~events["ok"].to_numpy(dtype=bool)
    if order is not None:
        t = t[order]
        bad = bad[order]
        key_table = events[keys].iloc[order[bounds[:-1]]].reset_index(drop=True)
    else:
        key_table = pd.DataFrame(index=pd.RangeIndex(1))
    return Sorted(keys, order, bounds, t, bad, key_table)


def group_targets(target: Any, keys: pd.DataFrame, by: Sequence[str]) -> np.ndarray:
    """Per-group targets: a number, an :class:`SLO`, a DataFrame with group-key columns and
    ``target``, or a mapping ``{key value: target}`` (keyed by the values of one group key, or by
    tuples of all keys).

    >>> keys = pd.DataFrame({"captcha_type": ["image", "turnstile"]})
    >>> group_targets({"image": 0.9, "turnstile": 0.97}, keys, ["captcha_type"]).tolist()
    [0.9, 0.97]
    """
    if isinstance(target, Mapping):
        if not target:
            raise ConfigError("target mapping is empty; give e.g. {'recaptcha_v2': 0.93}.")
        items = list(target.items())
        if all(isinstance(k, tuple) for k, _ in items):
            if not by or any(len(k) != len(by) for k, _ in items):
                raise ConfigError(f"target mapping keys must be tuples of the group keys {list(by)}.")
            table = pd.DataFrame([list(k) for k, _ in items], columns=list(by))
        else:
            col = next((c for c in by if set(keys[c].astype(str)) <= {str(k) for k, _ in items}), None)
            if col is None:
                raise ConfigError(
                    f"target mapping must give a target for every value of one group key ({list(by) or 'none'}); "
                    "or pass a DataFrame with key columns and 'target'."
                )
            table = pd.DataFrame({col: [str(k) for k, _ in items]})
        table["target"] = [v for _, v in items]
        target = table
    grid = BinGrid(keys=keys, by=list(by), start_ns=0, freq_ns=1,
                   total=np.zeros((len(keys), 1), dtype=np.int64), bad=np.zeros((len(keys), 1), dtype=np.int64))
    return np.asarray(target_array(target, grid), dtype=np.float64)


# ----------------------------------------------------------------------------------------------
# the status model on sorted arrays


def remaining_fraction(total: np.ndarray, failures: np.ndarray, target: float) -> np.ndarray:
    """The seed's ``remaining_fraction`` for windows holding at least one event, with the same
    float operations in the same order as :func:`budgetlab.replay` (only this column)."""
    eb = 1 - target
    budget_total = total.astype(np.float64)
    budget_total *= eb
    rf = budget_total - failures
    np.maximum(rf, 0.0, out=rf)
    rf /= budget_total
    np.maximum(rf, 0.0, out=rf)
    return np.asarray(rf)


def seed_codes(total: np.ndarray, failures: np.ndarray, targets: np.ndarray, bounds: np.ndarray,
               slo: SLO) -> np.ndarray:
    """Seed status codes (0 healthy .. 3 exhausted) with one target per group, computed with the
    seed's float operations (as :func:`budgetlab.replay`), then ``slo.min_events`` applied."""
    code = np.empty(len(total), dtype=np.int8)
    for g, (s, e) in enumerate(zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True)):
        if e > s:
            code[s:e] = status_codes(remaining_fraction(total[s:e], failures[s:e], float(targets[g])), slo)
    if slo.min_events > 0:
        low = total < slo.min_events
        if low.any():
            first = np.zeros(len(total), dtype=bool)
            first[bounds[:-1][bounds[:-1] < len(total)]] = True
            code = hold_low_traffic(code, low, first)
    return code


def dwell_codes(t: np.ndarray, code: np.ndarray, bounds: np.ndarray, min_dwell_ns: int) -> np.ndarray:
    """Apply the minimum dwell time to status codes (sorted by group, then time).

    Escalation is immediate; a drop to a less severe status happens only once the shown status
    has been held for ``min_dwell_ns`` since it was entered (at the first event at or after
    that moment, to that event's status). Every group starts ``healthy``. One pass over the
    tracker's status changes, not over events.
    """
    n = len(code)
    if min_dwell_ns <= 0 or n == 0:
        return code
    starts = bounds[:-1][bounds[:-1] < n]
    prev = np.empty_like(code)
    prev[0] = 0
    prev[1:] = code[:-1]
    prev[starts] = 0
    change = np.flatnonzero(code != prev)
    shown = np.full(n, -1, dtype=np.int8)
    shown[starts] = 0
    if len(change):
        grp = np.searchsorted(bounds, change, side="right") - 1
        nxt = np.empty(len(change), dtype=np.int64)
        nxt[:-1] = change[1:]
        same_next = np.zeros(len(change), dtype=bool)
        same_next[:-1] = grp[1:] == grp[:-1]
        nxt = np.where(same_next, nxt, bounds[grp + 1])
        rec_i: list[int] = []
        rec_c: list[int] = []
        d = 0
        entered = 0
        last_g = -1
        for i, j, g, s in zip(change.tolist(), nxt.tolist(), grp.tolist(), code[change].tolist(), strict=True):
            if g != last_g:
                d, last_g = 0, g
            if s > d:
                d, entered = s, int(t[i])
                rec_i.append(i)
                rec_c.append(s)
            elif s < d:
                due = entered + min_dwell_ns
                e = i if t[i] >= due else i + int(np.searchsorted(t[i:j], due, side="left"))
                if e < j:
                    d, entered = s, int(t[e])
                    rec_i.append(e)
                    rec_c.append(s)
        shown[np.array(rec_i, dtype=np.int64)] = np.array(rec_c, dtype=np.int8)
    idx = np.where(shown >= 0, np.arange(n), 0)
    np.maximum.accumulate(idx, out=idx)
    return shown[idx]


def time_weights(t: np.ndarray, bounds: np.ndarray, lo_ns: int) -> np.ndarray:
    """ns each row's status holds inside ``[lo_ns, ...)``: until the group's next event (the
    last event of a group holds for no time), clipped at ``lo_ns``."""
    n = len(t)
    nxt = np.empty(n, dtype=np.int64)
    nxt[:-1] = t[1:]
    last = bounds[1:][bounds[1:] > 0] - 1
    nxt[last] = t[last]
    return np.asarray(np.maximum(nxt - np.maximum(t, lo_ns), 0))


def change_flags(code: np.ndarray, bounds: np.ndarray) -> np.ndarray:
    """True where a row's status differs from its group's previous row (first row: vs healthy)."""
    n = len(code)
    prev = np.zeros(n, dtype=code.dtype)
    if n:
        prev[1:] = code[:-1]
        prev[bounds[:-1][bounds[:-1] < n]] = 0
    return np.asarray(code != prev)


# ----------------------------------------------------------------------------------------------
# public status variants


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
        The columns of :func:`budgetlab.replay` (so :func:`budgetlab.transitions` and
        :func:`budgetlab.replay_summary` apply); ``attrs`` adds ``calendar`` and ``tz``.

    Examples
    --------
    >>> from budgetlab import as_events
    >>> ts = pd.to_datetime(["2026-01-01 23:00", "2026-01-01 23:30", "2026-01-02 00:10"], utc=True)
    >>> st = replay_calendar(as_events(ts, [False, True, True]), SLO(target=0.9))
    >>> st[["total", "failures", "status"]].to_dict("list")
    {'total': [1, 2, 1], 'failures': [1, 1, 0], 'status': ['exhausted', 'exhausted', 'healthy']}
    """
    if not isinstance(slo, SLO):
        raise ConfigError("slo must be an SLO, e.g. SLO(target=0.95).")
    spec = parse_window(f"calendar:{calendar}")
    tz = check_tz(tz)
    srt = sort_events(events, by)
    total_s, fail_s = srt.counts(spec, tz)
    code_s = seed_codes(total_s, fail_s, np.full(srt.n_groups, slo.target), srt.bounds, slo)
    total, failures, code = srt.scatter(total_s), srt.scatter(fail_s), srt.scatter(code_s)
    cols: dict[str, object] = {"ts": events["ts"].array}
    for k in srt.by:
        cols[k] = events[k].array
    cols.update(seed_figures(total, failures, slo.target))
    cols["status"] = pd.Categorical.from_codes(code, dtype=STATUS_DTYPE)
    cols["low_traffic"] = total < slo.min_events
    out = pd.DataFrame(cols, index=events.index, copy=False)
    out.attrs.update({"slo": slo, "by": srt.by, "calendar": spec.calendar, "tz": tz})
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
        ``attrs["min_dwell"]`` records the dwell time.

    Examples
    --------
    >>> from budgetlab import SLO, as_events, replay
    >>> ts = pd.date_range("2026-01-01", periods=6, freq="5min")
    >>> st = replay(as_events(ts, [True, False, True, True, True, True]), SLO(target=0.5, window="5min"))
    >>> st["status"].tolist()
    ['healthy', 'exhausted', 'exhausted', 'healthy', 'healthy', 'healthy']
    >>> hysteresis(st, "15min")["status"].tolist()
    ['healthy', 'exhausted', 'exhausted', 'exhausted', 'healthy', 'healthy']
    """
    if not isinstance(states, pd.DataFrame) or "status" not in states.columns or "ts" not in states.columns:
        raise InputError("hysteresis() takes the DataFrame returned by budgetlab.replay().")
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
            raise InputError("states must be in time order within each group (as replay() returns them).")
    shown = dwell_codes(t, code, bounds, dwell_ns)
    if order is not None:
        back = np.empty_like(shown)
        back[order] = shown
        shown = back
    out = states.copy()
    out["status"] = pd.Categorical.from_codes(shown, dtype=STATUS_DTYPE)
    out.attrs["min_dwell"] = pd.Timedelta(dwell_ns, unit="ns")
    return out


# ----------------------------------------------------------------------------------------------
# compare_windows


def _durations(value: Any, name: str) -> list[int]:
    if value is None:
        return [0]
    if isinstance(value, (str, pd.Timedelta, int, float, np.integer, np.floating)) or not isinstance(value, Sequence):
        value = [value]
    out = [int(to_timedelta(v, name=name, allow_zero=True).value) for v in value]
    if not out:
        raise ConfigError(f"{name} is empty; give e.g. {name}=('0min', '15min').")
    if len(set(out)) != len(out):
        raise ConfigError(f"{name} lists the same duration twice.")
    return out


def _specs(windows: Any) -> list[WindowSpec]:
    if isinstance(windows, (str, pd.Timedelta, WindowSpec)) or not isinstance(windows, Sequence):
        windows = [windows]
    specs = [parse_window(w) for w in windows]
    if not specs:
        raise ConfigError("windows is empty; give e.g. windows=('1h', '24h').")
    labels = [s.label for s in specs]
    if len(set(labels)) != len(labels):
        raise ConfigError("windows lists the same window twice.")
    return specs


class _Incidents:
    """Incident table parsed once: times in ns and which groups each scope covers."""

    def __init__(self, incidents: pd.DataFrame, srt: Sorted) -> None:
        if not isinstance(incidents, pd.DataFrame):
            raise InputError("incidents must be a DataFrame with incident_id, start, end and scope columns.")
        for col in ("incident_id", "start", "end"):
            if col not in incidents.columns:
                raise SchemaError(f"incidents has no column {col!r} (columns: incident_id, kind, start, end, scope, severity).")
        inc = incidents.reset_index(drop=True)
        self.table = inc
        self.start = utc_ns_column(inc["start"], "incidents['start']")
        self.end = utc_ns_column(inc["end"], "incidents['end']")
        if bool(np.any(self.end <= self.start)):
            raise InputError("incidents has rows with end <= start; 'end' is exclusive and must be after 'start'.")
        scopes = inc["scope"].tolist() if "scope" in inc.columns else ["*"] * len(inc)
        keys = srt.keys.astype(str) if srt.by else pd.DataFrame(index=pd.RangeIndex(1))
        self.match = np.zeros((len(inc), srt.n_groups), dtype=bool)
        for i, sc in enumerate(scopes):
            parse_scope(sc)
            self.match[i] = scope_mask(keys, sc)



def _incident_delays(t: np.ndarray, code: np.ndarray, s: int, e: int, start: int, end: int,
                     grace_ns: int, level: int) -> tuple[int, int]:
    """(detection delay, recovery time) in ns of one group ``[s, e)`` for one incident; ``_NAT``
    when missed / not recovered. Detection: status ``>= level``; recovery: ``< level``. The
    status holding at a time ``x`` is that of the group's last event before ``x`` (healthy
    before its first event)."""
    tg, cg = t[s:e], code[s:e]
    k = int(np.searchsorted(tg, start, side="left"))
    if k > 0 and cg[k - 1] >= level:
        det = 0
    else:
        hit = np.flatnonzero(cg[k:] >= level)
        det = int(tg[k + hit[0]] - start) if len(hit) and tg[k + hit[0]] < end + grace_ns else _NAT
    k = int(np.searchsorted(tg, end, side="left"))
    if k == 0 or cg[k - 1] < level:
        rec = 0
    else:
        ok = np.flatnonzero(cg[k:] < level)
        rec = int(tg[k + ok[0]] - end) if len(ok) else _NAT
    return det, rec


def _alert_level(alert_at: Any) -> int:
    if alert_at not in STATUSES[1:]:
        raise ConfigError(f"alert_at={alert_at!r} is not valid; use one of 'warning', 'critical', 'exhausted'.")
    return STATUSES.index(alert_at)


def _td(ns: np.ndarray) -> pd.TimedeltaIndex:
    return pd.to_timedelta(np.asarray(ns, dtype=np.int64).view("timedelta64[ns]"))


@dataclass
class _Run:
    """One window x dwell evaluated on the sorted events."""

    spec: WindowSpec
    dwell_ns: int
    code: np.ndarray


def _runs(srt: Sorted, slo: SLO, targets: np.ndarray, specs: list[WindowSpec], dwells: list[int], tz: str,
          show: bool | None, desc: str) -> list[_Run]:
    out = []
    for spec in progress(specs, desc=desc, enabled=show):
        total, failures = srt.counts(spec, tz)
        raw = seed_codes(total, failures, targets, srt.bounds, slo)
        del total, failures
        for d in dwells:
            out.append(_Run(spec, d, dwell_codes(srt.t, raw, srt.bounds, d)))
    return out


def _prepare(events: pd.DataFrame, slo: Any, windows: Any, by: Any, target: Any, tz: Any,
             min_dwell: Any) -> tuple[Sorted, SLO, np.ndarray, list[WindowSpec], list[int], str]:
    if not isinstance(slo, SLO):
        raise ConfigError("slo must be an SLO, e.g. SLO(target=0.95); its window is replaced by windows=.")
    specs = _specs(windows)
    dwells = _durations(min_dwell, "min_dwell")
    tz = check_tz(tz)
    srt = sort_events(events, by)
    targets = group_targets(slo if target is None else target, srt.keys, srt.by)
    return srt, slo, targets, specs, dwells, tz


def compare_windows(
    events: pd.DataFrame,
    slo: SLO,
    windows: Sequence[Any] | Any = ("1h", "6h", "24h", "7D"),
    *,
    incidents: pd.DataFrame | None = None,
    by: str | Sequence[str] | None = None,
    target: Any = None,
    tz: str = "UTC",
    min_dwell: Any = 0,
    round_trip: Any = "1h",
    alert_at: str = "critical",
    grace: Any = "1h",
    warmup: Any = 0,
    show_progress: bool | None = None,
) -> pd.DataFrame:
    """Replay the seed tracker under several windows (and dwell times) and compare them.

    Parameters
    ----------
    events : DataFrame
        Canonical event table.
    slo : SLO
        Target, thresholds and ``min_events``; its ``window`` is replaced by each of ``windows``.
    windows : sequence
        Rolling windows (``"1h"``, ``"24h"``, ``"7D"``) and/or calendar windows that reset at
        local midnight in ``tz`` (``"calendar:day"``, ``"calendar:week"``, ``"calendar:month"``).
    incidents : DataFrame, optional
        Labelled incidents (``incident_id``, ``start``, ``end`` exclusive, ``scope``) for the
        detection and recovery columns; an incident counts for the groups its scope covers
        (:func:`budgetlab.events.schema.scope_mask`).
    by : str or list of str, optional
        Group keys; each group has its own tracker and row.
    target : float, DataFrame or mapping, optional
        Per-group targets overriding ``slo.target`` (see :func:`group_targets`).
    tz : str
        Time zone of calendar windows.
    min_dwell : duration or sequence of durations
        Hysteresis (see :func:`hysteresis`); several values give one row each.
    round_trip : duration
        A ``healthy -> warning -> healthy`` round trip counts when the warning lasted at most this.
    alert_at : {"critical", "warning", "exhausted"}
        The status that counts as "the tracker noticed": an incident is detected when its
        group's status is at least this before ``end + grace``; it has recovered once the status
        is below it again.
    grace : duration
        How long after an incident's end a detection still counts.
    warmup : duration
        Time after the first event that is left out of the time shares and transition counts
        (the windows still see those events); incidents starting earlier are not scored.
    show_progress : bool, optional
        Progress bar over the windows (default: only on a terminal, see ``TQDM_DISABLE``).

    Returns
    -------
    DataFrame
        One row per window, dwell time and group (in that order): group keys, ``window``
        (ordered categorical label: ``"1h"``, ``"1d"``, ``"calendar:day"``), ``window_kind``
        (``rolling``/``calendar``), ``min_dwell`` (Timedelta), ``events`` (in the evaluated
        span), ``hours`` (evaluated time), ``share_healthy``, ``share_warning``,
        ``share_critical``, ``share_exhausted`` (time-weighted), ``hours_exhausted``,
        ``transitions`` and ``transitions_per_day`` (status changes), ``round_trips`` and
        ``round_trips_per_day`` (healthy -> warning -> healthy within ``round_trip``). With
        ``incidents``: ``incidents`` (in scope), ``detected``, ``missed``, ``detection_median``,
        ``detection_max`` (Timedelta from incident start to the first event with status at
        least ``alert_at``, i.e. critical or exhausted by default; 0 when already there; NaT if
        none detected), ``recovery_median``, ``recovery_max`` (from incident end until the
        status is below ``alert_at`` again; 0 when already below; NaT if none recovered),
        ``unrecovered`` (still at or above ``alert_at`` at the last event).

    Examples
    --------
    >>> from budgetlab import as_events
    >>> ts = pd.date_range("2026-01-01", periods=48 * 60, freq="1min")
    >>> ok = [not (20 * 60 <= i < 24 * 60) for i in range(len(ts))]  # every attempt fails 20:00-24:00
    >>> t = compare_windows(as_events(ts, ok), SLO(target=0.9), ["1h", "24h", "calendar:day"])
    >>> t[["window", "hours_exhausted", "transitions"]]  # the calendar day forgets at midnight
             window  hours_exhausted  transitions
    0            1h         4.800000            6
    1            1d        23.383333            6
    2  calendar:day         1.783333            4
    """
    srt, slo, targets, specs, dwells, tz = _prepare(events, slo, windows, by, target, tz, min_dwell)
    rt_ns = int(to_timedelta(round_trip, name="round_trip").value)
    level = _alert_level(alert_at)
    grace_ns = int(to_timedelta(grace, name="grace", allow_zero=True).value)
    lo_ns = int(srt.t.min()) + int(to_timedelta(warmup, name="warmup", allow_zero=True).value)
    inc = _Incidents(incidents, srt) if incidents is not None else None
    runs = _runs(srt, slo, targets, specs, dwells, tz, show_progress, "compare_windows")

    t, bounds, seg = srt.t, srt.bounds, srt.seg
    g_n = srt.n_groups
    dt = time_weights(t, bounds, lo_ns).astype(np.float64)
    span_ns = np.bincount(seg, weights=dt, minlength=g_n)
    days = span_ns / _DAY_NS
    in_span = t >= lo_ns
    n_events = np.bincount(seg[in_span], minlength=g_n)
    last_code_idx = bounds[1:] - 1
    parts = []
    for run in runs:
        code = run.code
        hours = np.bincount(seg * 4 + code, weights=dt, minlength=g_n * 4).reshape(g_n, 4)
        share = np.zeros_like(hours)
        np.divide(hours, span_ns[:, None], out=share, where=span_ns[:, None] > 0)
        no_time = span_ns <= 0  # one event (or none in the span): its status, as replay_summary
        share[no_time] = 0.0
        share[no_time, code[last_code_idx[no_time]]] = 1.0
        changed = change_flags(code, bounds) & in_span
        n_tr = np.bincount(seg[changed], minlength=g_n)
        # round trips: healthy -> warning followed directly by warning -> healthy within round_trip
        ci = np.flatnonzero(changed)
        prev_code = np.zeros(len(ci), dtype=np.int8)
        if len(ci):
            prev_idx = ci - 1
            first_of_group = np.isin(ci, bounds[:-1])
            prev_code = np.where(first_of_group, 0, code[np.maximum(prev_idx, 0)])
        up = (prev_code == 0) & (code[ci] == 1)
        down = (prev_code == 1) & (code[ci] == 0)
        pair = up[:-1] & down[1:] & (seg[ci[:-1]] == seg[ci[1:]]) & ((t[ci[1:]] - t[ci[:-1]]) <= rt_ns)
        n_rt = np.bincount(seg[ci[:-1][pair]], minlength=g_n) if len(ci) > 1 else np.zeros(g_n, dtype=np.int64)
        per_day = np.zeros(g_n)
        rt_day = np.zeros(g_n)
        np.divide(n_tr, days, out=per_day, where=days > 0)
        np.divide(n_rt, days, out=rt_day, where=days > 0)
        row: dict[str, Any] = {
            "window": [run.spec.label] * g_n,
            "window_kind": [run.spec.kind] * g_n,
            "min_dwell": [pd.Timedelta(run.dwell_ns, unit="ns")] * g_n,
            "events": n_events.astype(np.int64),
            "hours": span_ns / _HOUR_NS,
        }
        for j, st in enumerate(STATUSES):
            row[f"share_{st}"] = share[:, j]
        row["hours_exhausted"] = hours[:, 3] / _HOUR_NS
        row["transitions"] = n_tr.astype(np.int64)
        row["transitions_per_day"] = per_day
        row["round_trips"] = n_rt.astype(np.int64)
        row["round_trips_per_day"] = rt_day
        if inc is not None:
            row.update(_incident_columns(inc, t, code, bounds, lo_ns, grace_ns, level))
        frame = pd.DataFrame(row)
        if srt.by:
            frame = pd.concat([srt.keys.reset_index(drop=True), frame], axis=1)
        parts.append(frame)
    out = pd.concat(parts, ignore_index=True)
    out["window"] = pd.Categorical(out["window"], categories=[s.label for s in specs], ordered=True)
    out.attrs.update({"slo": slo, "by": srt.by, "tz": tz})
    return out


def _incident_rows(inc: _Incidents, t: np.ndarray, code: np.ndarray, bounds: np.ndarray, lo_ns: int,
                   grace_ns: int, level: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(group, incident index, detection ns, recovery ns) for every in-scope pair."""
    gs, ii, det, rec = [], [], [], []
    for i in range(len(inc.start)):
        if inc.start[i] < lo_ns:
            continue
        for g in np.flatnonzero(inc.match[i]).tolist():
            s, e = int(bounds[g]), int(bounds[g + 1])
            d, r = _incident_delays(t, code, s, e, int(inc.start[i]), int(inc.end[i]), grace_ns, level)
            gs.append(g)
            ii.append(i)
            det.append(d)
            rec.append(r)
    return (np.array(gs, dtype=np.int64), np.array(ii, dtype=np.int64), np.array(det, dtype=np.int64),
            np.array(rec, dtype=np.int64))


def _incident_columns(inc: _Incidents, t: np.ndarray, code: np.ndarray, bounds: np.ndarray, lo_ns: int,
                      grace_ns: int, level: int) -> dict[str, Any]:
    g_n = len(bounds) - 1
    gs, _, det, rec = _incident_rows(inc, t, code, bounds, lo_ns, grace_ns, level)
    n_inc = np.bincount(gs, minlength=g_n)
    hit = det != _NAT
    back = rec != _NAT
    n_det = np.bincount(gs[hit], minlength=g_n)
    n_back = np.bincount(gs[back], minlength=g_n)
    cols: dict[str, Any] = {"incidents": n_inc.astype(np.int64), "detected": n_det.astype(np.int64),
                            "missed": (n_inc - n_det).astype(np.int64)}
    for name, vals, ok in (("detection", det, hit), ("recovery", rec, back)):
        med = np.full(g_n, _NAT, dtype=np.int64)
        mx = np.full(g_n, _NAT, dtype=np.int64)
        for g in range(g_n):
            v = vals[(gs == g) & ok]
            if len(v):
                med[g] = int(np.median(v))
                mx[g] = int(v.max())
        cols[f"{name}_median"] = _td(med)
        cols[f"{name}_max"] = _td(mx)
    cols["unrecovered"] = (n_inc - n_back).astype(np.int64)
    return cols


def window_incidents(
    events: pd.DataFrame,
    slo: SLO,
    incidents: pd.DataFrame,
    windows: Sequence[Any] | Any = ("1h", "6h", "24h", "7D"),
    *,
    by: str | Sequence[str] | None = None,
    target: Any = None,
    tz: str = "UTC",
    min_dwell: Any = 0,
    alert_at: str = "critical",
    grace: Any = "1h",
    warmup: Any = 0,
    show_progress: bool | None = None,
) -> pd.DataFrame:
    """Per incident: when each window's status reached critical and when it was healthy again.

    Same parameters and rules as :func:`compare_windows` (which aggregates these rows).

    Returns
    -------
    DataFrame
        One row per window, dwell time, group and in-scope incident: group keys, ``window``,
        ``window_kind``, ``min_dwell``, ``incident_id``, ``incident_kind`` (the incident's ``kind``,
        empty when the table has none), ``incident_start``, ``incident_end``, ``detected``,
        ``detection`` (Timedelta from start to the first status at least ``alert_at``; NaT when
        missed), ``recovered``, ``recovery`` (Timedelta from end until the status is below
        ``alert_at``; NaT when it never is again).

    Examples
    --------
    >>> from budgetlab import as_events
    >>> ts = pd.date_range("2026-01-01", periods=6 * 60, freq="1min")
    >>> ok = [not (120 <= i < 150) for i in range(len(ts))]  # 02:00-02:30 every attempt fails
    >>> inc = pd.DataFrame({"incident_id": ["i1"], "scope": ["*"],
    ...     "start": pd.to_datetime(["2026-01-01 02:00"], utc=True),
    ...     "end": pd.to_datetime(["2026-01-01 02:30"], utc=True)})
    >>> w = window_incidents(as_events(ts, ok), SLO(target=0.9), inc, ["1h", "3h"])
    >>> w[["window", "detected", "detection", "recovery"]]
      window  detected       detection        recovery
    0     1h      True 0 days 00:05:00 0 days 00:55:00
    1     3h      True 0 days 00:11:00 0 days 02:44:00
    """
    srt, slo, targets, specs, dwells, tz = _prepare(events, slo, windows, by, target, tz, min_dwell)
    grace_ns = int(to_timedelta(grace, name="grace", allow_zero=True).value)
    level = _alert_level(alert_at)
    lo_ns = int(srt.t.min()) + int(to_timedelta(warmup, name="warmup", allow_zero=True).value)
    inc = _Incidents(incidents, srt)
    runs = _runs(srt, slo, targets, specs, dwells, tz, show_progress, "window_incidents")
    parts = []
    kinds = inc.table["kind"].astype(str).to_numpy() if "kind" in inc.table.columns else np.full(len(inc.table), "")
    for run in runs:
        gs, ii, det, rec = _incident_rows(inc, srt.t, run.code, srt.bounds, lo_ns, grace_ns, level)
        frame = srt.keys.iloc[gs].reset_index(drop=True) if srt.by else pd.DataFrame(index=pd.RangeIndex(len(gs)))
        frame["window"] = run.spec.label
        frame["window_kind"] = run.spec.kind
        frame["min_dwell"] = pd.Timedelta(run.dwell_ns, unit="ns")
        frame["incident_id"] = inc.table["incident_id"].to_numpy()[ii]
        frame["incident_kind"] = kinds[ii]
        frame["incident_start"] = utc_from_ns(inc.start[ii])
        frame["incident_end"] = utc_from_ns(inc.end[ii])
        frame["detected"] = det != _NAT
        frame["detection"] = _td(det)
        frame["recovered"] = rec != _NAT
        frame["recovery"] = _td(rec)
        parts.append(frame)
    out = pd.concat(parts, ignore_index=True)
    out["window"] = pd.Categorical(out["window"], categories=[s.label for s in specs], ordered=True)
    return out
