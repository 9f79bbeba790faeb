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
from ..events.schema import check_events, ts_utc
from ..slo import SLO, PerGroup, as_per_group
from ..windows.trailing import event_window_counts
from .figures import (
    FIGURE_COLUMNS,
    STATUS_DTYPE,
    seed_figures,
)
from .replay_status import PROGRESS_EVENTS, REPLAY_COLUMNS, event_status, slo_parts

__all__ = ["replay", "replay_table"]


def replay(events: pd.DataFrame, slo: SLO | PerGroup | Mapping[Any, Any], *,
           by: str | Sequence[str] | None = None,
           columns: Iterable[str] | None = None) -> pd.DataFrame:
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
        ``attrs["slo"]`` holds the SLO (the ``PerGroup`` with per-group SLOs) as its plain
        ``as_dict()`` (:func:`budgetlab.table_slo` rebuilds it), ``attrs["by"]`` the group keys.
        Shows a progress bar on a terminal from :data:`PROGRESS_EVENTS` events.

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

    >>> ev = as_events(pd.date_range("2026-01-01", periods=4, freq="min"),
    ...                [True, False, True, False],
    ...                groups={"captcha_type": ["recaptcha_v2", "turnstile"] * 2})
    >>> st = replay(ev, {"recaptcha_v2": 0.93, "turnstile": 0.97}, by="captcha_type")
    >>> st["budget_total"].round(2).tolist()
    [0.07, 0.03, 0.14, 0.06]
    """
    return replay_table(events, slo, by=by, columns=columns)


def replay_table(events: pd.DataFrame, slo: SLO | PerGroup | Mapping[Any, Any], *,
                 by: str | Sequence[str] | None = None, columns: Iterable[str] | None = None,
                 warn: bool = True, warn_partial: bool = True) -> pd.DataFrame:
    """:func:`replay`; ``warn=False``: without its warnings (a window longer than the data, SLO
    groups the events lack), for a part of a log whose span and groups are not the log's (a Dask
    partition, on a worker thread: told not to warn, as a ``warnings.catch_warnings`` filter is
    the whole process's and not safe across threads); ``warn_partial=False``: without the
    :class:`~budgetlab.errors.PartialWindowWarning` of a window longer than the data alone, for
    a caller that says it in its own words (the command line's header, a report's notes)."""
    keys = check_events(events, by, output=REPLAY_COLUMNS)
    wanted = _check_columns(columns)
    per_group = as_per_group(slo)
    parts = slo_parts(events, slo, keys, warn=warn, warn_partial=warn_partial)
    with progress_bar(len(events), desc="replay", min_total=PROGRESS_EVENTS) as bar:
        if per_group is None:
            arrays = _replay_arrays(events, parts[0][0], keys, wanted, bar)
        else:
            arrays = _per_group_arrays(events, parts, keys, wanted, bar)
    out = _frame(events, keys, arrays, wanted)
    out.attrs["slo"] = (parts[0][0] if per_group is None else per_group).as_dict()
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
                              f"{', '.join(REPLAY_COLUMNS[1:])} (ts and the group keys are always "
                              "kept).")
    return tuple(c for c in REPLAY_COLUMNS[1:] if c in names)


def _replay_arrays(events: pd.DataFrame, slo: SLO, keys: list[str], wanted: Sequence[str],
                   bar: ProgressBar) -> dict[str, np.ndarray]:
    """The replay columns in ``wanted`` as arrays (status as int8 codes), in table order."""

    total, failures = event_window_counts(events, slo.window_ns, keys)
    bar.update(len(events) - len(events) // 2)
    out = seed_figures(total, failures, slo.target,
                       columns=[c for c in wanted if c in FIGURE_COLUMNS])
    if "status" in wanted:
        out["status"] = event_status(events, slo, keys, total, failures, bar,
                                     out.get("remaining_fraction"))
    else:
        bar.update(len(events) // 2)
    if "low_traffic" in wanted:
        out["low_traffic"] = total < slo.min_events
    return out


def _frame(events: pd.DataFrame, keys: list[str], arrays: dict[str, np.ndarray],
           wanted: Sequence[str]
           ) -> pd.DataFrame:
    cols: dict[str, object] = {"ts": ts_utc(events)}
    for k in keys:
        cols[k] = events[k].array
    for name in wanted:
        values = arrays[name]
        cols[name] = pd.Categorical.from_codes(values,
                                               dtype=STATUS_DTYPE) if name == "status" else values
    return pd.DataFrame(cols, index=events.index, copy=False)


def _per_group_arrays(events: pd.DataFrame, parts: Sequence[tuple[SLO, Any]], keys: list[str],
                      wanted: Sequence[str], bar: ProgressBar) -> dict[str, np.ndarray]:
    """The replay arrays with per-group SLOs: each distinct SLO once over its groups (``parts``;
    groups never share a window, so this equals replaying every group alone), rows put back in
    the order of ``events``."""
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
            arrays[name] = np.zeros(
                n, dtype=np.int8 if name == "status" else bool if name == "low_traffic" else dtype
            )
    return arrays
