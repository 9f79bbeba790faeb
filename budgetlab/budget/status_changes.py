"""The status changes of a replay: exactly the callbacks the seed tracker would fire, from a
replay's table (:func:`transitions`) or straight from the events (:func:`replay_transitions`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, cast

import numpy as np
import pandas as pd

from .._util.attrs import span_attrs
from .._util.progress import ProgressBar, progress_bar
from ..events.schema import check_events, ts_utc
from ..slo import SLO, PerGroup, as_per_group, table_slo
from ..windows.groups import group_codes, group_key_codes, previous_in_group
from ..windows.trailing import event_window_counts
from .figures import STATUS_DTYPE, round_like_python, seed_figures
from .replay_status import (
    PROGRESS_EVENTS,
    REPLAY_COLUMNS,
    VARIANT_ATTRS,
    check_state_types,
    check_states,
    event_status,
    slo_parts,
)

__all__ = ["change_rows", "replay_transitions", "transitions", "unrounded_changes"]

#: The replay figures a transition reports (``get_report()`` of the seed at that moment).
_REPORTED = ("total", "successes", "failures", "success_rate", "budget_total", "budget_remaining",
             "remaining_fraction", "burn_rate")


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
        Output of :func:`~budgetlab.replay` (group keys are the columns beyond the replay columns),
        with one SLO or per-group SLOs: each group's changes are those of its own SLO, and the table
        is in the order of the events either way. It needs ``status`` and either the eight figure
        columns or ``total`` and ``failures`` (a replay with ``columns=["total", "failures",
        "status"]``: the figures of the changed rows are then computed from them with
        ``attrs["slo"]``, bit for bit the same); to get the transitions without any per-event
        column, call :func:`replay_transitions`. A ``ts`` that is not UTC times, or a ``status``
        that is not the replay's statuses in their order (a table read back from CSV), is refused
        (:class:`~budgetlab.errors.SchemaError`).

    Returns
    -------
    DataFrame
        One row per status change, in time order: ``ts``, the group keys, ``from_status``,
        ``to_status`` (ordered categoricals) and the figures of the seed's ``get_report()`` at
        that moment, rounded as it rounds them (bit for bit as Python's ``round``):
        ``current_rate`` (4 digits), ``total_events``, ``successes``, ``failures``,
        ``budget_total``, ``budget_remaining`` (1 digit), ``budget_remaining_pct`` (1 digit),
        ``burn_rate`` (2 digits). ``attrs``: the states' ``slo`` (when they hold one), ``by``,
        what a variant of the replay says (``calendar``, ``tz``, ``min_dwell``) and ``start`` ..
        ``end``, the first and the last event of ``states`` (the span counted).

    Examples
    --------
    >>> from budgetlab import SLO, as_events, replay
    >>> ev = as_events(pd.date_range("2026-01-01", periods=20, freq="min"), [True] * 19 + [False])
    >>> tr = transitions(replay(ev, SLO(target=0.95, window="1h")))
    >>> tr[["from_status", "to_status", "budget_remaining_pct", "burn_rate"]].to_dict("records")
    [{'from_status': 'healthy', 'to_status': 'critical', 'budget_remaining_pct': 0.0, 'burn_rate':
    1.0}]

    From the counts and statuses alone (what ``replay_summary`` needs too):

    >>> lean = replay(ev, SLO(target=0.95, window="1h"), columns=["total", "failures", "status"])
    >>> transitions(lean).equals(tr)
    True
    """
    from ..errors import InputError

    check_states(states, "transitions")
    check_state_types(states, "transitions")
    missing = [c for c in _REPORTED if c not in states.columns]
    slo = table_slo(states)
    recompute = (
        bool(missing)
        and {"total", "failures"} <= set(states.columns)
        and isinstance(slo, (SLO, PerGroup))
    )
    if missing and not recompute:
        raise InputError(f"transitions() needs the replay's figure columns ({', '.join(missing)} "
                         "missing), or total and failures; replay without columns=, or call "
                         "budgetlab.replay_transitions(events, slo).")
    keys = [c for c in states.columns if c not in REPLAY_COLUMNS]
    code = states["status"].cat.codes.to_numpy()
    rows, from_code = change_rows(code, states, keys)
    key_cols = {k: states[k].array.take(rows) for k in keys}
    if recompute:  # the seed's figures of the changed rows only, from their counts and SLO
        target: Any = slo.target if isinstance(slo, SLO) else _row_targets(cast(PerGroup, slo),
                                                                           key_cols, keys,
                                                                           len(rows))
        figs = seed_figures(states["total"].to_numpy()[rows], states["failures"].to_numpy()[rows],
                            target,
                            columns=_REPORTED)
    else:
        figs = {name: states[name].to_numpy()[rows] for name in _REPORTED}  # only the changed rows
    out = _transition_table(states["ts"].array.take(rows), key_cols, from_code, code[rows], figs)
    # what the states say of how they were made (no slo when they do not say it: read back
    # from a file without attrs), and the span of their events
    attrs: dict[Any, Any] = {**({} if slo is None else {"slo": slo.as_dict()}), "by": keys,
                             **{k: states.attrs[k] for k in VARIANT_ATTRS if k in states.attrs},
                             **span_attrs(states["ts"])}
    out.attrs = attrs
    return out


def change_rows(code: np.ndarray, frame: pd.DataFrame, keys: list[str]
                ) -> tuple[np.ndarray, np.ndarray]:
    """The rows (table order) where a group's status ``code`` differs from its previous row's
    (groups start healthy), and the codes before them."""
    prev = previous_in_group(code, group_codes(frame, keys, dense=False), 0)
    rows = np.flatnonzero(code != prev)
    return rows, prev[rows]


def _row_targets(slos: PerGroup, key_cols: dict[str, Any], keys: list[str], n: int) -> np.ndarray:
    """The target of each row's group (rows given by their key columns)."""
    if n == 0:
        return np.zeros(0, dtype=np.float64)
    codes, table = group_key_codes(pd.DataFrame(key_cols), keys)
    targets = np.array([s.target for s in slos.resolve(table)], dtype=np.float64)
    return np.asarray(targets[codes])


def unrounded_changes(changes: pd.DataFrame, slo: SLO | PerGroup) -> pd.DataFrame:
    """``changes`` (a :func:`transitions` table, extra columns kept) with its figures unrounded:
    ``current_rate``, ``budget_total``, ``budget_remaining``, ``budget_remaining_pct`` and
    ``burn_rate`` recomputed from each row's ``total_events`` and ``failures`` under its group's
    target in ``slo`` (the seed's float operations, :func:`~budgetlab.budget.figures.seed_figures`),
    where the table holds the seed's report rounding (a burn of 0.9989 reads 1.0 there, the
    EXHAUSTED pace, on a change to CRITICAL).

    >>> from budgetlab import SLO, as_events
    >>> slo = SLO(target=0.99, window="1h")
    >>> ts = pd.date_range("2026-01-01", periods=901, freq="s")
    >>> ev = as_events(ts, [True] * 892 + [False] * 9)
    >>> tr = replay_transitions(ev, slo).tail(1)  # 9 failures in 901 events: burn 9 / 9.01
    >>> tr["burn_rate"].tolist(), unrounded_changes(tr, slo)["burn_rate"].round(6).tolist()
    ([1.0], [0.99889])
    """
    keys = list(changes.columns[1:changes.columns.get_loc("from_status")])
    total = changes["total_events"].to_numpy(dtype=np.int64)
    failures = changes["failures"].to_numpy(dtype=np.int64)
    target: Any = (slo.target if isinstance(slo, SLO) else
                   _row_targets(slo, {k: changes[k].array for k in keys}, keys, len(changes)))
    figs = seed_figures(total, failures, target, columns=_REPORTED)
    out = changes.copy()
    out["current_rate"] = figs["success_rate"]
    out["budget_total"] = figs["budget_total"]
    out["budget_remaining"] = figs["budget_remaining"]
    out["budget_remaining_pct"] = figs["remaining_fraction"] * 100
    out["burn_rate"] = figs["burn_rate"]
    return out


def replay_transitions(events: pd.DataFrame, slo: SLO | PerGroup | Mapping[Any, Any], *,
                       by: str | Sequence[str] | None = None) -> pd.DataFrame:
    """The status changes of a replay, without the per-event columns: ``transitions(replay(...))``
    at a fraction of its time and memory.

    Counts each event's window and its status, as :func:`~budgetlab.replay` does, and computes the
    seed's figures only at the changes (their cost does not grow with their number beyond the rows
    themselves). Equal to ``transitions(replay(events, slo, by=by))``, bit for bit.

    Parameters
    ----------
    events : DataFrame
        Canonical event table (:func:`budgetlab.read_events`).
    slo : SLO, PerGroup or mapping
        As in :func:`~budgetlab.replay` (per-group SLOs need ``by``).
    by : str or list of str, optional
        Group keys; each group is replayed by its own tracker.

    Returns
    -------
    DataFrame
        As :func:`transitions`: ``ts``, the group keys, ``from_status``, ``to_status``,
        ``current_rate``, ``total_events``, ``successes``, ``failures``, ``budget_total``,
        ``budget_remaining``, ``budget_remaining_pct``, ``burn_rate``; one row per change, in the
        order of the events. ``attrs``: ``slo`` and ``by`` (as :func:`~budgetlab.replay`'s) and
        ``start`` .. ``end``, the first and the last event (the span counted).

    Examples
    --------
    >>> from budgetlab import SLO, as_events
    >>> ev = as_events(pd.date_range("2026-01-01", periods=20, freq="min"), [True] * 19 + [False])
    >>> tr = replay_transitions(ev, SLO(target=0.95, window="1h"))
    >>> tr[["from_status", "to_status", "total_events", "burn_rate"]].to_dict("records")
    [{'from_status': 'healthy', 'to_status': 'critical', 'total_events': 20, 'burn_rate': 1.0}]
    """
    keys = check_events(events, by)
    parts = slo_parts(events, slo, keys)
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
                   else np.zeros(0, dtype=np.int64 if name in ("total", "successes",
                                                               "failures") else np.float64))
            for name in _REPORTED}
    out = _transition_table(ts_utc(events).take(position),
                            {k: events[k].array.take(position) for k in keys},
                            joined(1), joined(2), figs)
    per_group = as_per_group(slo)
    attrs: dict[Any, Any] = {"slo": (parts[0][0] if per_group is None else per_group).as_dict(),
                             "by": keys, **span_attrs(events["ts"])}
    out.attrs = attrs
    return out


def _changes(events: pd.DataFrame, slo: SLO, keys: list[str], pos: np.ndarray | None,
             bar: ProgressBar
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[str, np.ndarray]]:
    """Status changes of ``events`` under one SLO: positions (in the caller's table: ``pos``),
    from and to codes, and the seed's figures at those rows."""
    total, failures = event_window_counts(events, slo.window_ns, keys)
    bar.update(len(events) - len(events) // 2)
    code = event_status(events, slo, keys, total, failures, bar)
    rows, from_code = change_rows(code, events, keys)
    figs = seed_figures(total[rows], failures[rows], slo.target, columns=_REPORTED)
    position = rows if pos is None else pos[rows]
    return np.asarray(position, dtype=np.int64), from_code, code[rows], figs
