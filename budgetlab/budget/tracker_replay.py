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

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..events.schema import check_events
from ..slo import SLO, PerGroup, as_per_group, as_slo, split_by_slo
from ..windows.groups import first_in_group, group_codes, group_order, previous_in_group
from ..windows.trailing import event_window_counts
from .figures import STATUSES, hold_low_traffic, seed_figures, status_codes

__all__ = ["STATUS_DTYPE", "STATUSES", "REPLAY_COLUMNS", "TRANSITION_COLUMNS", "replay", "transitions", "replay_summary"]

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
           by: str | Sequence[str] | None = None) -> pd.DataFrame:
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

    Returns
    -------
    DataFrame
        One row per event, in the order of ``events`` (same index), with ``ts``, the group keys,
        ``total``, ``successes``, ``failures`` (int64: events in the window), ``success_rate``,
        ``budget_total`` (= total x (1 - target)), ``budget_remaining``, ``remaining_fraction``,
        ``burn_rate`` (float64, bit-identical to the seed tracker), ``status`` (ordered categorical
        ``healthy < warning < critical < exhausted``) and ``low_traffic`` (bool: the window held
        fewer than ``slo.min_events`` events, so the status kept its previous value).
        Issues a :class:`~budgetlab.errors.PartialWindowWarning` when ``slo.window`` is longer
        than the data (allowed: every window is then partial).
        ``attrs["slo"]`` holds the SLO (the ``PerGroup`` with per-group SLOs), ``attrs["by"]``
        the group keys.

    Examples
    --------
    >>> from budgetlab import SLO, as_events
    >>> ev = as_events(pd.date_range("2026-01-01", periods=20, freq="min"), [True] * 19 + [False])
    >>> last = replay(ev, SLO(target=0.95, window="1h")).iloc[-1]
    >>> last["budget_total"], last["status"]
    (np.float64(1.0000000000000009), 'critical')

    Per-group SLOs (93 % for one type, 97 % for the other):

    >>> ev = as_events(pd.date_range("2026-01-01", periods=4, freq="min"), [True, False, True, False],
    ...                groups={"captcha_type": ["recaptcha_v2", "turnstile"] * 2})
    >>> st = replay(ev, {"recaptcha_v2": 0.93, "turnstile": 0.97}, by="captcha_type")
    >>> st["budget_total"].round(2).tolist()
    [0.07, 0.03, 0.14, 0.06]
    """
    keys = check_events(events, by)
    per_group = as_per_group(slo)
    if per_group is not None:
        return _replay_per_group(events, per_group, keys)
    one = as_slo(slo)
    _warn_partial(events, one.window)
    out = _replay_one(events, one, keys)
    out.attrs["slo"] = one
    out.attrs["by"] = keys
    return out


def _warn_partial(events: pd.DataFrame, window: pd.Timedelta, stacklevel: int = 3) -> None:
    if len(events) and window.value > events["ts"].iloc[-1].value - events["ts"].iloc[0].value:
        import warnings

        from .._util.validation import duration_label
        from ..errors import PartialWindowWarning

        span = events["ts"].iloc[-1] - events["ts"].iloc[0]
        warnings.warn(PartialWindowWarning(
            f"the window ({duration_label(window)}) is longer than the data "
            f"({duration_label(span)}); every window is partial."), stacklevel=stacklevel)


def _replay_one(events: pd.DataFrame, slo: SLO, keys: list[str]) -> pd.DataFrame:
    """The replay of ``events`` (checked, sorted) with one SLO; no attrs."""
    window_ns = slo.window_ns
    total, failures = event_window_counts(events, window_ns, keys)
    figs = seed_figures(total, failures, slo.target)
    code = status_codes(figs["remaining_fraction"], slo)
    low = total < slo.min_events
    if slo.min_events > 0 and low.any():
        order, bounds = group_order(events, keys)
        first = first_in_group(bounds)
        if order is None:
            code = hold_low_traffic(code, low, first)
        else:
            held = hold_low_traffic(code[order], low[order], first)
            code = np.empty_like(held)
            code[order] = held
    cols: dict[str, object] = {"ts": events["ts"].array}
    for k in keys:
        cols[k] = events[k].array
    cols.update(figs)
    cols["status"] = pd.Categorical.from_codes(code, dtype=STATUS_DTYPE)
    cols["low_traffic"] = low
    return pd.DataFrame(cols, index=events.index, copy=False)


def _replay_per_group(events: pd.DataFrame, slos: PerGroup, keys: list[str]) -> pd.DataFrame:
    """Replay with per-group SLOs: each distinct SLO once over its groups (groups never share a
    window, so this equals replaying every group alone), rows put back in the order of ``events``."""
    parts = split_by_slo(events, slos, keys)
    if parts:
        _warn_partial(events, max(s.window for s, _ in parts), stacklevel=4)
    n = len(events)
    cols: dict[str, Any] = {"ts": events["ts"].array}
    for k in keys:
        cols[k] = events[k].array
    figures = ("total", "successes", "failures", "success_rate", "budget_total", "budget_remaining",
               "remaining_fraction", "burn_rate")
    arrays: dict[str, np.ndarray] = {}
    code = np.zeros(n, dtype=np.int8)
    low = np.zeros(n, dtype=bool)
    for s, pos in parts:
        part = _replay_one(events.iloc[pos], s, keys)
        for name in figures:
            values = part[name].to_numpy()
            if name not in arrays:
                arrays[name] = np.empty(n, dtype=values.dtype)
            arrays[name][pos] = values
        code[pos] = part["status"].cat.codes.to_numpy()
        low[pos] = part["low_traffic"].to_numpy()
    for name in figures:
        cols[name] = arrays.get(name, np.empty(0, dtype=np.int64 if name in figures[:3] else np.float64))
    cols["status"] = pd.Categorical.from_codes(code, dtype=STATUS_DTYPE)
    cols["low_traffic"] = low
    out = pd.DataFrame(cols, index=events.index, copy=False)
    out.attrs["slo"] = slos
    out.attrs["by"] = keys
    return out


def _py_round(values: np.ndarray, digits: int) -> list[float]:
    # Python's round() (correctly rounded, half-even on the exact binary value), as the seed's
    # get_report() uses; np.round can differ in the last digit. Only transition rows get here.
    return [round(v, digits) for v in values.tolist()]


def transitions(states: pd.DataFrame) -> pd.DataFrame:
    """The status changes of a replay: exactly the callbacks the seed tracker would fire.

    Parameters
    ----------
    states : DataFrame
        Output of :func:`replay` (group keys are the columns beyond the replay columns), with
        one SLO or per-group SLOs: each group's changes are those of its own SLO, and the table
        is in the order of the events either way.

    Returns
    -------
    DataFrame
        One row per status change, in time order: ``ts``, the group keys, ``from_status``,
        ``to_status`` (ordered categoricals) and the figures of the seed's ``get_report()`` at
        that moment, rounded as it rounds them: ``current_rate`` (4 digits), ``total_events``,
        ``successes``, ``failures``, ``budget_total``, ``budget_remaining`` (1 digit),
        ``budget_remaining_pct`` (1 digit), ``burn_rate`` (2 digits).

    Examples
    --------
    >>> from budgetlab import SLO, as_events
    >>> ev = as_events(pd.date_range("2026-01-01", periods=20, freq="min"), [True] * 19 + [False])
    >>> tr = transitions(replay(ev, SLO(target=0.95, window="1h")))
    >>> tr[["from_status", "to_status", "budget_remaining_pct", "burn_rate"]].to_dict("records")
    [{'from_status': 'healthy', 'to_status': 'critical', 'budget_remaining_pct': 0.0, 'burn_rate': 1.0}]
    """
    if not isinstance(states, pd.DataFrame) or "status" not in states.columns:
        from ..errors import InputError

        raise InputError("transitions() takes the DataFrame returned by budgetlab.replay().")
    keys = [c for c in states.columns if c not in REPLAY_COLUMNS]
    code = states["status"].cat.codes.to_numpy()
    prev_code = previous_in_group(code, group_codes(states, keys, dense=False), 0)  # groups start healthy
    rows = np.flatnonzero(code != prev_code)
    from_code = prev_code[rows]
    sub = states.iloc[rows]
    cols: dict[str, object] = {"ts": sub["ts"].array}
    for k in keys:
        cols[k] = sub[k].array
    cols["from_status"] = pd.Categorical.from_codes(from_code, dtype=STATUS_DTYPE)
    cols["to_status"] = pd.Categorical.from_codes(code[rows], dtype=STATUS_DTYPE)
    cols["current_rate"] = _py_round(sub["success_rate"].to_numpy(), 4)
    cols["total_events"] = sub["total"].to_numpy()
    cols["successes"] = sub["successes"].to_numpy()
    cols["failures"] = sub["failures"].to_numpy()
    cols["budget_total"] = _py_round(sub["budget_total"].to_numpy(), 1)
    cols["budget_remaining"] = _py_round(sub["budget_remaining"].to_numpy(), 1)
    cols["budget_remaining_pct"] = _py_round(sub["remaining_fraction"].to_numpy() * 100, 1)
    cols["burn_rate"] = _py_round(sub["burn_rate"].to_numpy(), 2)
    out = pd.DataFrame(cols)
    for c in ("current_rate", "budget_total", "budget_remaining", "budget_remaining_pct", "burn_rate"):
        out[c] = out[c].astype(np.float64)
    return out


def replay_summary(states: pd.DataFrame, events: pd.DataFrame) -> pd.DataFrame:
    """Per group: events, overall success rate, time in each status, transitions.

    Time in a status runs from an event to the group's next event (so the last event of a
    group adds no time).

    Parameters
    ----------
    states : DataFrame
        Output of :func:`replay`.
    events : DataFrame
        The events that were replayed (for each event's own outcome).

    Returns
    -------
    DataFrame
        One row per group (one row without groups): the group keys, ``events``,
        ``success_rate`` (over all events), ``hours_<status>`` and ``share_<status>`` for each
        status, ``transitions``, ``final_status``. After a replay with per-group SLOs
        (``states.attrs["slo"]`` a :class:`~budgetlab.PerGroup`), each group's ``target``
        follows the group keys, and its ``window`` too when the groups' windows differ.

    Examples
    --------
    >>> from budgetlab import SLO, as_events
    >>> ev = as_events(pd.date_range("2026-01-01", periods=4, freq="h"), [True, False, True, True])
    >>> s = replay_summary(replay(ev, SLO(target=0.9, window="1h")), ev)
    >>> s[["events", "success_rate", "hours_healthy", "hours_exhausted", "transitions"]].to_dict("records")
    [{'events': 4, 'success_rate': 0.75, 'hours_healthy': 1.0, 'hours_exhausted': 2.0, 'transitions': 2}]
    """
    keys = [c for c in states.columns if c not in REPLAY_COLUMNS]
    order, bounds = group_order(states, keys)
    idx = np.arange(len(states)) if order is None else order
    ngroups = len(bounds) - 1
    t = states["ts"].array.asi8[idx]
    code = states["status"].cat.codes.to_numpy().astype(np.int64)[idx]
    ok = events["ok"].to_numpy(dtype=bool)[idx]
    seg = np.repeat(np.arange(ngroups), np.diff(bounds))
    firsts = bounds[:-1][bounds[:-1] < len(t)]
    dt = np.zeros(len(t), dtype=np.float64)
    dt[:-1] = (t[1:] - t[:-1]) / 3.6e12
    dt[bounds[1:][bounds[1:] > 0] - 1] = 0.0
    hours = np.zeros((ngroups, len(STATUSES)))
    np.add.at(hours, (seg, code), dt)
    prev = np.r_[0, code[:-1]] if len(code) else code
    prev[firsts] = 0
    n = np.diff(bounds)
    changes = np.bincount(seg, weights=(code != prev).astype(np.float64), minlength=ngroups)
    ok_sum = np.bincount(seg, weights=ok.astype(np.float64), minlength=ngroups)
    out: dict[str, Any] = {k: [states[k].iloc[idx[s]] for s in bounds[:-1][n > 0]] for k in keys}
    out["events"] = n[n > 0]
    out["success_rate"] = ok_sum[n > 0] / n[n > 0]
    span = hours.sum(axis=1)
    last_code = code[bounds[1:][n > 0] - 1]
    for j, st in enumerate(STATUSES):
        out[f"hours_{st}"] = hours[n > 0, j]
    for j, st in enumerate(STATUSES):
        share = np.where(last_code == j, 1.0, 0.0)
        np.divide(hours[n > 0, j], span[n > 0], out=share, where=span[n > 0] > 0)
        out[f"share_{st}"] = share
    out["transitions"] = changes[n > 0].astype(np.int64)
    out["final_status"] = pd.Categorical.from_codes(last_code, dtype=STATUS_DTYPE)
    table = pd.DataFrame(out)
    per_group = states.attrs.get("slo")
    if isinstance(per_group, PerGroup) and keys:
        slos = per_group.resolve(table[keys])
        table.insert(len(keys), "target", np.array([s.target for s in slos], dtype=np.float64))
        if len({s.window for s in slos}) > 1:
            table.insert(len(keys) + 1, "window", pd.to_timedelta([s.window.value for s in slos], unit="ns"))
    return table
