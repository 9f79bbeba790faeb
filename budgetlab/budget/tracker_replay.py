"""Seed-exact vectorized replay of the rolling-window tracker, and its status transitions.

Every figure is the one the seed's ``ErrorBudgetTracker`` holds right after ``record()`` of that
event, computed with the same float operations in the same order, so the results are
bit-identical (see ``tests/test_replay_oracle.py``).

Note the identity that follows from the seed's definitions: ``remaining_fraction`` equals
``max(0, 1 - burn_rate)`` (mathematically; floats may differ in the last bit), so the seed's status
is a function of the window burn rate alone: ``healthy`` while burn <= 1 - warning (0.5 by
default), ``warning`` above, ``critical`` above 1 - critical (0.9), ``exhausted`` at burn >= 1.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._util.progress import ProgressBar, progress_bar
from ..events.schema import check_events
from ..slo import SLO, PerGroup, as_per_group, as_slo, split_by_slo
from ..windows.groups import (
    first_in_group,
    group_codes,
    group_key_codes,
    group_order,
    previous_in_group,
)
from ..windows.trailing import event_window_counts
from .figures import (
    FIGURE_COLUMNS,
    STATUSES,
    hold_low_traffic,
    remaining_fraction,
    round_like_python,
    seed_figures,
    status_codes,
)

__all__ = ["STATUS_DTYPE", "STATUSES", "REPLAY_COLUMNS", "TRANSITION_COLUMNS", "replay", "replay_transitions",
           "transitions"]

#: Ordered categorical of tracker statuses: ``healthy < warning < critical < exhausted``.
STATUS_DTYPE = pd.CategoricalDtype(list(STATUSES), ordered=True)

REPLAY_COLUMNS = (
    "ts",
    "total",
    "successes",
    "failures",
    "success_rate",
    "budget_total",
    "budget_remaining",
    "remaining_fraction",
    "burn_rate",
    "status",
    "low_traffic",
)
#: The replay figures a transition reports (``get_report()`` of the seed at that moment).
_REPORTED = ("total", "successes", "failures", "success_rate", "budget_total", "budget_remaining",
             "remaining_fraction", "burn_rate")
_CHUNK = 1 << 18  # rows per chunk of the status computation (2 MiB of float64 temporaries)
#: Inputs of at least this many events show a progress bar on a terminal.
PROGRESS_EVENTS = 2_000_000

TRANSITION_COLUMNS = (
    "ts",
    "from_status",
    "to_status",
    "current_rate",
    "total_events",
    "successes",
    "failures",
    "budget_total",
    "budget_remaining",
    "budget_remaining_pct",
    "burn_rate",
)


def replay(events: pd.DataFrame, slo: SLO | PerGroup | Mapping[Any, Any], *,
           by: str | Sequence[str] | None = None, columns: Iterable[str] | None = None) -> pd.DataFrame:
    """Replay the seed's rolling-window tracker over every event, vectorized.

    Parameters
    ----------
    events : DataFrame
        Canonical event table (:func:`budgetlab.read_events`).
    slo : SLO, PerGroup or mapping
        Target, window, thresholds and ``min_events``; per group with a
        :class:`~budgetlab.PerGroup` (or a mapping ``{group key: SLO or target}``, keys a value
        or a tuple in ``by`` order): every group is then replayed with its own SLO, and the
        result equals replaying each group alone with its SLO, bit for bit (groups without an
        SLO are an error naming them, unless the ``PerGroup`` has a ``default``).
    by : str or list of str, optional
        Group keys; each group is replayed by its own tracker (required with per-group SLOs).
    columns : list of str, optional
        Only these replay columns (any of ``total``, ``successes``, ``failures``,
        ``success_rate``, ``budget_total``, ``budget_remaining``, ``remaining_fraction``,
        ``burn_rate``, ``status``, ``low_traffic``); ``ts`` and the group keys are always kept.
        The others are not computed: each 8-byte column costs ~0.1 s and 80 MB at 10 M events.
        The columns equal those of the full replay bit for bit. Default: all.
        For the status changes alone, :func:`replay_transitions` is cheaper still.

    Returns
    -------
    DataFrame
        One row per event, in the order of ``events`` (same index), with ``ts``, the group keys,
        ``total``, ``successes``, ``failures`` (int64: events in the window), ``success_rate``,
        ``budget_total`` (= total x (1 - target)), ``budget_remaining``, ``remaining_fraction``,
        ``burn_rate`` (float64, bit-identical to the seed tracker), ``status`` (ordered categorical
        ``healthy < warning < critical < exhausted``) and ``low_traffic`` (bool: the window held
        fewer than ``slo.min_events`` events, so the status kept its previous value); only
        those named in ``columns`` when given, in this order.
        Issues a :class:`~budgetlab.errors.PartialWindowWarning` when ``slo.window`` is longer
        than the data (allowed: every window is then partial).
        ``attrs["slo"]`` holds the SLO (the ``PerGroup`` with per-group SLOs), ``attrs["by"]``
        the group keys. Shows a progress bar on a terminal from :data:`PROGRESS_EVENTS` events.

    Examples
    --------
    >>> from budgetlab import SLO, as_events
    >>> ev = as_events(pd.date_range("2026-01-01", periods=20, freq="min"), [True] * 19 + [False])
    >>> last = replay(ev, SLO(target=0.95, window="1h")).iloc[-1]
    >>> last["budget_total"], last["status"]
    (np.float64(1.0000000000000009), 'critical')

    Only the columns you read:

    >>> replay(ev, SLO(target=0.95, window="1h"), columns=["burn_rate", "status"]).columns.tolist()
    ['ts', 'burn_rate', 'status']

    Per-group SLOs (93 % for one type, 97 % for the other):

    >>> ev = as_events(pd.date_range("2026-01-01", periods=4, freq="min"), [True, False, True, False],
    ...                groups={"captcha_type": ["recaptcha_v2", "turnstile"] * 2})
    >>> st = replay(ev, {"recaptcha_v2": 0.93, "turnstile": 0.97}, by="captcha_type")
    >>> st["budget_total"].round(2).tolist()
    [0.07, 0.03, 0.14, 0.06]
    """
    keys = check_events(events, by)
    wanted = _check_columns(columns)
    per_group = as_per_group(slo)
    with progress_bar(len(events), desc="replay", min_total=PROGRESS_EVENTS) as bar:
        if per_group is not None:
            return _replay_per_group(events, per_group, keys, wanted, bar)
        one = as_slo(slo)
        _warn_partial(events, one.window)
        out = _replay_one(events, one, keys, wanted, bar)
    out.attrs["slo"] = one
    out.attrs["by"] = keys
    return out


def _check_columns(columns: Iterable[str] | None) -> tuple[str, ...]:
    """The replay columns asked for (``ts`` implied), in the order of :data:`REPLAY_COLUMNS`."""
    if columns is None:
        return REPLAY_COLUMNS[1:]
    names = [columns] if isinstance(columns, str) else list(columns)
    for name in names:
        if name not in REPLAY_COLUMNS:
            from ..errors import ConfigError

            raise ConfigError(f"columns: {name!r} is not a replay column; use some of "
                              f"{', '.join(REPLAY_COLUMNS[1:])} (ts and the group keys are always kept).")
    return tuple(c for c in REPLAY_COLUMNS[1:] if c in names)


def _warn_partial(events: pd.DataFrame, window: pd.Timedelta, stacklevel: int = 3) -> None:
    if len(events) and window.value > events["ts"].iloc[-1].value - events["ts"].iloc[0].value:
        import warnings

        from .._util.validation import duration_label
        from ..errors import PartialWindowWarning

        span = events["ts"].iloc[-1] - events["ts"].iloc[0]
        warnings.warn(PartialWindowWarning(
            f"the window ({duration_label(window)}) is longer than the data "
            f"({duration_label(span)}); every window is partial."), stacklevel=stacklevel)


def _status(events: pd.DataFrame, slo: SLO, keys: list[str], total: np.ndarray, failures: np.ndarray,
            bar: ProgressBar, rf: np.ndarray | None = None) -> np.ndarray:
    """Seed status codes of every event (table order), the ``min_events`` hold included. The
    remaining fraction (``rf`` when the caller has it) is computed a chunk at a time (the same
    operations as ``seed_figures``), so that no 10 M-element float column is written only to be
    compared with the thresholds."""

    n = len(total)
    code = np.empty(n, dtype=np.int8)
    for c in range(0, n, _CHUNK):
        part = slice(c, c + _CHUNK)
        fraction = remaining_fraction(total[part], failures[part], slo.target) if rf is None else rf[part]
        code[part] = status_codes(fraction, slo)
        bar.update((min(c + _CHUNK, n) - c) // 2)
    if slo.min_events > 0:
        low = total < slo.min_events
        if low.any():
            order, bounds = group_order(events, keys)
            first = first_in_group(bounds)
            if order is None:
                code = hold_low_traffic(code, low, first)
            else:
                held = hold_low_traffic(code[order], low[order], first)
                code = np.empty_like(held)
                code[order] = held
    return code


def _replay_arrays(events: pd.DataFrame, slo: SLO, keys: list[str], wanted: Sequence[str],
                   bar: ProgressBar) -> dict[str, np.ndarray]:
    """The replay columns in ``wanted`` as arrays (status as int8 codes), in table order."""

    total, failures = event_window_counts(events, slo.window_ns, keys)
    bar.update(len(events) - len(events) // 2)
    out = seed_figures(total, failures, slo.target, columns=[c for c in wanted if c in FIGURE_COLUMNS])
    if "status" in wanted:
        out["status"] = _status(events, slo, keys, total, failures, bar, out.get("remaining_fraction"))
    else:
        bar.update(len(events) // 2)
    if "low_traffic" in wanted:
        out["low_traffic"] = total < slo.min_events
    return out


def _frame(events: pd.DataFrame, keys: list[str], arrays: dict[str, np.ndarray], wanted: Sequence[str]
           ) -> pd.DataFrame:
    cols: dict[str, object] = {"ts": events["ts"].array}
    for k in keys:
        cols[k] = events[k].array
    for name in wanted:
        values = arrays[name]
        cols[name] = pd.Categorical.from_codes(values, dtype=STATUS_DTYPE) if name == "status" else values
    return pd.DataFrame(cols, index=events.index, copy=False)


def _replay_one(events: pd.DataFrame, slo: SLO, keys: list[str], wanted: Sequence[str],
                bar: ProgressBar) -> pd.DataFrame:
    """The replay of ``events`` (checked, sorted) with one SLO; no attrs."""
    return _frame(events, keys, _replay_arrays(events, slo, keys, wanted, bar), wanted)


def _replay_per_group(events: pd.DataFrame, slos: PerGroup, keys: list[str], wanted: Sequence[str],
                      bar: ProgressBar) -> pd.DataFrame:
    """Replay with per-group SLOs: each distinct SLO once over its groups (groups never share a
    window, so this equals replaying every group alone), rows put back in the order of ``events``."""
    parts = split_by_slo(events, slos, keys)
    if parts:
        _warn_partial(events, max(s.window for s, _ in parts), stacklevel=4)
    n = len(events)
    arrays: dict[str, np.ndarray] = {}
    for s, pos in parts:
        part = _replay_arrays(events.iloc[pos], s, keys, wanted, bar)
        for name, values in part.items():
            if name not in arrays:
                arrays[name] = np.empty(n, dtype=values.dtype)
            arrays[name][pos] = values
    for name in wanted:  # no parts: no events
        if name not in arrays:
            dtype = np.int64 if name in ("total", "successes", "failures") else np.float64
            arrays[name] = np.zeros(n, dtype=np.int8 if name == "status" else bool if name == "low_traffic" else dtype)
    out = _frame(events, keys, arrays, wanted)
    out.attrs["slo"] = slos
    out.attrs["by"] = keys
    return out


def _transition_table(ts: Any, key_cols: dict[str, Any], from_code: np.ndarray, to_code: np.ndarray,
                      figs: Mapping[str, np.ndarray]) -> pd.DataFrame:
    """The transitions table: the figures of the seed's ``get_report()``, rounded as it rounds
    them (Python's ``round``, vectorized bit for bit)."""

    cols: dict[str, object] = {"ts": ts, **key_cols}
    cols["from_status"] = pd.Categorical.from_codes(from_code, dtype=STATUS_DTYPE)
    cols["to_status"] = pd.Categorical.from_codes(to_code, dtype=STATUS_DTYPE)
    cols["current_rate"] = round_like_python(figs["success_rate"], 4)
    cols["total_events"] = np.asarray(figs["total"], dtype=np.int64)
    cols["successes"] = np.asarray(figs["successes"], dtype=np.int64)
    cols["failures"] = np.asarray(figs["failures"], dtype=np.int64)
    cols["budget_total"] = round_like_python(figs["budget_total"], 1)
    cols["budget_remaining"] = round_like_python(figs["budget_remaining"], 1)
    cols["budget_remaining_pct"] = round_like_python(figs["remaining_fraction"] * 100, 1)
    cols["burn_rate"] = round_like_python(figs["burn_rate"], 2)
    return pd.DataFrame(cols)


def transitions(states: pd.DataFrame) -> pd.DataFrame:
    """The status changes of a replay: exactly the callbacks the seed tracker would fire.

    Parameters
    ----------
    states : DataFrame
        Output of :func:`replay` (group keys are the columns beyond the replay columns), with
        one SLO or per-group SLOs: each group's changes are those of its own SLO, and the table
        is in the order of the events either way. It needs ``status`` and either the eight
        figure columns or ``total`` and ``failures`` (a replay with
        ``columns=["total", "failures", "status"]``: the figures of the changed rows are then
        computed from them with ``attrs["slo"]``, bit for bit the same); to get the transitions
        without any per-event column, call :func:`replay_transitions`.

    Returns
    -------
    DataFrame
        One row per status change, in time order: ``ts``, the group keys, ``from_status``,
        ``to_status`` (ordered categoricals) and the figures of the seed's ``get_report()`` at
        that moment, rounded as it rounds them (bit for bit as Python's ``round``):
        ``current_rate`` (4 digits), ``total_events``, ``successes``, ``failures``,
        ``budget_total``, ``budget_remaining`` (1 digit), ``budget_remaining_pct`` (1 digit),
        ``burn_rate`` (2 digits).

    Examples
    --------
    >>> from budgetlab import SLO, as_events
    >>> ev = as_events(pd.date_range("2026-01-01", periods=20, freq="min"), [True] * 19 + [False])
    >>> tr = transitions(replay(ev, SLO(target=0.95, window="1h")))
    >>> tr[["from_status", "to_status", "budget_remaining_pct", "burn_rate"]].to_dict("records")
    [{'from_status': 'healthy', 'to_status': 'critical', 'budget_remaining_pct': 0.0, 'burn_rate': 1.0}]

    From the counts and statuses alone (what ``replay_summary`` needs too):

    >>> lean = replay(ev, SLO(target=0.95, window="1h"), columns=["total", "failures", "status"])
    >>> transitions(lean).equals(tr)
    True
    """
    from ..errors import InputError

    if not isinstance(states, pd.DataFrame) or "status" not in states.columns:
        raise InputError("transitions() takes the DataFrame returned by budgetlab.replay().")
    missing = [c for c in _REPORTED if c not in states.columns]
    slo = states.attrs.get("slo")
    recompute = bool(missing) and {"total", "failures"} <= set(states.columns) and isinstance(slo, (SLO, PerGroup))
    if missing and not recompute:
        raise InputError(f"transitions() needs the replay's figure columns ({', '.join(missing)} missing), or total "
                         "and failures; replay without columns=, or call budgetlab.replay_transitions(events, slo).")
    keys = [c for c in states.columns if c not in REPLAY_COLUMNS]
    code = states["status"].cat.codes.to_numpy()
    prev_code = previous_in_group(code, group_codes(states, keys, dense=False), 0)  # groups start healthy
    rows = np.flatnonzero(code != prev_code)
    key_cols = {k: states[k].array.take(rows) for k in keys}
    if recompute:  # the seed's figures of the changed rows only, from their counts and SLO
        target: Any = slo.target if isinstance(slo, SLO) else _row_targets(states.attrs["slo"], key_cols, keys,
                                                                           len(rows))
        figs = seed_figures(states["total"].to_numpy()[rows], states["failures"].to_numpy()[rows], target,
                            columns=_REPORTED)
    else:
        figs = {name: states[name].to_numpy()[rows] for name in _REPORTED}  # only the changed rows
    return _transition_table(states["ts"].array.take(rows), key_cols, prev_code[rows], code[rows], figs)


def _row_targets(slos: PerGroup, key_cols: dict[str, Any], keys: list[str], n: int) -> np.ndarray:
    """The target of each row's group (rows given by their key columns)."""
    if n == 0:
        return np.zeros(0, dtype=np.float64)
    codes, table = group_key_codes(pd.DataFrame(key_cols), keys)
    targets = np.array([s.target for s in slos.resolve(table)], dtype=np.float64)
    return np.asarray(targets[codes])


def replay_transitions(events: pd.DataFrame, slo: SLO | PerGroup | Mapping[Any, Any], *,
                       by: str | Sequence[str] | None = None) -> pd.DataFrame:
    """The status changes of a replay, without the per-event columns: ``transitions(replay(...))``
    at a fraction of its time and memory.

    Counts each event's window and its status, as :func:`replay` does, and computes the seed's
    figures only at the changes (their cost does not grow with their number beyond the rows
    themselves). Equal to ``transitions(replay(events, slo, by=by))``, bit for bit.

    Parameters
    ----------
    events : DataFrame
        Canonical event table (:func:`budgetlab.read_events`).
    slo : SLO, PerGroup or mapping
        As in :func:`replay` (per-group SLOs need ``by``).
    by : str or list of str, optional
        Group keys; each group is replayed by its own tracker.

    Returns
    -------
    DataFrame
        As :func:`transitions`: ``ts``, the group keys, ``from_status``, ``to_status``,
        ``current_rate``, ``total_events``, ``successes``, ``failures``, ``budget_total``,
        ``budget_remaining``, ``budget_remaining_pct``, ``burn_rate``; one row per change, in the
        order of the events.

    Examples
    --------
    >>> from budgetlab import SLO, as_events
    >>> ev = as_events(pd.date_range("2026-01-01", periods=20, freq="min"), [True] * 19 + [False])
    >>> tr = replay_transitions(ev, SLO(target=0.95, window="1h"))
    >>> tr[["from_status", "to_status", "total_events", "burn_rate"]].to_dict("records")
    [{'from_status': 'healthy', 'to_status': 'critical', 'total_events': 20, 'burn_rate': 1.0}]
    """
    keys = check_events(events, by)
    per_group = as_per_group(slo)
    if per_group is not None:
        parts: list[tuple[SLO, np.ndarray | None]] = list(split_by_slo(events, per_group, keys))
        if parts:
            _warn_partial(events, max(s.window for s, _ in parts))
    else:
        one = as_slo(slo)
        _warn_partial(events, one.window)
        parts = [(one, None)]
    found: list[tuple[np.ndarray, np.ndarray, np.ndarray, dict[str, np.ndarray]]] = []
    with progress_bar(len(events), desc="replay", min_total=PROGRESS_EVENTS) as bar:
        for s, pos in parts:
            found.append(_changes(events if pos is None else events.iloc[pos], s, keys, pos, bar))
    position = np.concatenate([f[0] for f in found]) if found else np.zeros(0, dtype=np.int64)
    order = np.argsort(position, kind="stable")
    position = position[order]

    def joined(k: int) -> np.ndarray:
        return np.concatenate([f[k] for f in found])[order] if found else np.zeros(0, dtype=np.int8)

    figs = {name: (np.concatenate([f[3][name] for f in found])[order] if found
                   else np.zeros(0, dtype=np.int64 if name in ("total", "successes", "failures") else np.float64))
            for name in _REPORTED}
    return _transition_table(events["ts"].array.take(position), {k: events[k].array.take(position) for k in keys},
                             joined(1), joined(2), figs)


def _changes(events: pd.DataFrame, slo: SLO, keys: list[str], pos: np.ndarray | None, bar: ProgressBar
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[str, np.ndarray]]:
    """Status changes of ``events`` under one SLO: positions (in the caller's table: ``pos``),
    from and to codes, and the seed's figures at those rows."""
    total, failures = event_window_counts(events, slo.window_ns, keys)
    bar.update(len(events) - len(events) // 2)
    code = _status(events, slo, keys, total, failures, bar)
    if keys:
        prev = previous_in_group(code, group_codes(events, keys, dense=False), 0)
        rows = np.flatnonzero(code != prev)
        from_code = prev[rows]
    else:  # one group: compare with the row before (healthy before the first)
        rows = np.flatnonzero(code[1:] != code[:-1])
        rows += 1
        if len(code) and code[0] != 0:
            rows = np.r_[0, rows]
        from_code = code[np.maximum(rows - 1, 0)]
        from_code[rows == 0] = 0
    figs = seed_figures(total[rows], failures[rows], slo.target, columns=_REPORTED)
    position = rows if pos is None else pos[rows]
    return np.asarray(position, dtype=np.int64), from_code, code[rows], figs
