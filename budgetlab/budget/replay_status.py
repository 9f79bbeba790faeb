"""What every replay shares: its columns, the seed status of every event (the ``min_events``
hold included) and the partial-window warning."""

from __future__ import annotations

import datetime
from typing import Any

import numpy as np
import pandas as pd

from .._util.progress import ProgressBar
from ..errors import InputError, SchemaError
from ..slo import SLO, as_per_group, as_slo
from ..slo_groups import split_by_slo
from ..windows.groups import first_in_group, group_order, table_order
from .figures import STATUSES, hold_low_traffic, remaining_fraction, status_codes

__all__ = ["PROGRESS_EVENTS", "REPLAY_COLUMNS", "VARIANT_ATTRS", "check_states",
           "lacked_state_columns", "check_state_types", "event_status", "partial_window_note",
           "slo_parts"]

#: The columns of :func:`budgetlab.replay` (before the group keys).
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
#: What a variant of the replay (:func:`budgetlab.replay_calendar`, :func:`budgetlab.hysteresis`)
#: says in its ``attrs`` besides ``slo`` and ``by``: the tables made of its states keep it.
VARIANT_ATTRS = ("calendar", "tz", "min_dwell")
_CHUNK = 1 << 18  # rows per chunk of the status computation (2 MiB of float64 temporaries)
#: Inputs of at least this many events show a progress bar on a terminal.
PROGRESS_EVENTS = 2_000_000


def check_states(states: Any, caller: str, hint: str = "") -> None:
    """Refuse, for the public function ``caller``, a table that is not the output of
    :func:`budgetlab.replay` (the spans of :func:`budgetlab.status_spans` have a ``status`` too,
    but no ``ts``); ``hint`` ends the message."""
    if not isinstance(states, pd.DataFrame) or not {"ts", "status"} <= set(states.columns):
        lacks = lacked_state_columns(states.columns) if isinstance(states, pd.DataFrame) else ""
        raise InputError(f"{caller}() takes the DataFrame returned by budgetlab.replay()"
                         f"{lacks}{hint}.")


def lacked_state_columns(columns: Any, needed: tuple[str, ...] = ("ts", "status")) -> str:
    """What a refusal of states says of the ``needed`` columns (by default ``ts`` and ``status``,
    both written by the replay, whatever its ``columns=``) that ``columns`` lacks.

    >>> lacked_state_columns(["status", "total"]), lacked_state_columns(["total"])
    (': its ts column is missing', ': its ts and status columns are missing')
    >>> lacked_state_columns(["ts"], ("start", "end", "status"))
    ': its start, end and status columns are missing'
    """
    lacked = [c for c in needed if c not in set(columns)]
    if not lacked:
        return ""
    names = " and ".join([", ".join(lacked[:-1]), lacked[-1]] if len(lacked) > 1 else lacked)
    return f": its {names} column{'s are' if len(lacked) > 1 else ' is'} missing"


def check_state_types(states: pd.DataFrame, caller: str,
                      made_by: str = "the DataFrame returned by budgetlab.replay()") -> None:
    """Refuse, for the public function ``caller``, states (with ``ts`` and ``status``) whose
    ``ts`` is not UTC times or whose ``status`` is not the replay's statuses in their order (a
    table read back from CSV, or converted): their changes would be read from codes that mean
    other statuses, or stamped with times of no stated zone. Only dtypes are looked at, so
    ``states`` may be a Dask frame's empty meta; ``made_by`` names the function that makes them.

    >>> check_state_types(pd.DataFrame({"ts": ["2026-01-01"], "status": ["healthy"]}),
    ...                   "transitions")  # doctest: +NORMALIZE_WHITESPACE
    Traceback (most recent call last):
    ...
    budgetlab.errors.SchemaError: transitions() takes the DataFrame returned by budgetlab.replay():
    its ts column holds str values, not UTC times (datetime64 in UTC, as the replay writes them);
    convert it, e.g. states.assign(ts=pd.to_datetime(states['ts'], utc=True)) for times in UTC.
    """
    ts = states["ts"].dtype
    if not isinstance(ts, pd.DatetimeTZDtype):
        held = "times without a zone" if pd.api.types.is_datetime64_dtype(ts) else f"{ts} values"
        raise SchemaError(f"{caller}() takes {made_by}: its ts column holds {held}, not UTC times "
                          "(datetime64 in UTC, as the replay writes them); convert it, e.g. "
                          "states.assign(ts=pd.to_datetime(states['ts'], utc=True)) for times in "
                          "UTC.")
    # tzinfo.utcoffset(None) is the offset of a zone that has one fixed offset, else None
    if ts.tz.utcoffset(None) != datetime.timedelta(0):
        raise SchemaError(f"{caller}() takes {made_by}: its ts column is in {ts.tz}, not UTC (the "
                          "replay's times are UTC); convert it, the instants stay the same: "
                          "states.assign(ts=states['ts'].dt.tz_convert('UTC')).")
    status = states["status"].dtype
    if not isinstance(status, pd.CategoricalDtype) or list(status.categories) != list(STATUSES):
        held = "other categories" if isinstance(status, pd.CategoricalDtype) else f"{status} values"
        raise SchemaError(
            f"{caller}() takes {made_by}: its status column holds {held}, not the replay's "
            f"statuses (a categorical of {', '.join(STATUSES)}, in that order); convert it: "
            "states.assign(status=states['status'].astype(pd.CategoricalDtype("
            f"{list(STATUSES)}, ordered=True))).")


def partial_window_note(window: pd.Timedelta, span: pd.Timedelta) -> str:
    """The words for a window longer than the data's span (warned by the API, printed by the
    CLI), the span said as every log's length is (:func:`~budgetlab._util.words.length_words`).

    >>> partial_window_note(pd.Timedelta("36h"), pd.Timedelta("35h59min56s"))
    'the window (36 h) is longer than the data (1 d 11 h 59 min 56 s); every window is partial.'
    """
    from .._util.validation import window_words
    from .._util.words import length_words

    return (f"the window ({window_words(window)}) is longer than the data "
            f"({length_words(span)}); every window is partial.")


def slo_parts(events: pd.DataFrame, slo: Any, keys: list[str], *, warn: bool = True,
              warn_partial: bool = True) -> list[tuple[SLO, np.ndarray | None]]:
    """``[(slo, None)]`` for one SLO; for per-group SLOs each distinct SLO and the positions of
    its groups' rows (:func:`~budgetlab.slo_groups.split_by_slo`). ``warn``: a
    :class:`~budgetlab.errors.PartialWindowWarning` when the longest window is longer than the
    data (for the caller of the public function that calls this), and one when the per-group
    SLOs name groups ``events`` does not have (:func:`~budgetlab.slo_groups.warn_unused`);
    ``warn_partial=False``: not the first (a caller that says it in its own words)."""
    per_group = as_per_group(slo)
    parts: list[tuple[SLO, np.ndarray | None]]
    if per_group is None:
        parts = [(as_slo(slo), None)]
    else:
        parts = list(split_by_slo(events, per_group, keys, whole=warn))
    if warn and warn_partial and parts and len(events):
        window = max(s.window for s, _ in parts)
        first, last = events["ts"].iloc[0], events["ts"].iloc[-1]
        if window.value > last.value - first.value:  # ints: a span of centuries does not overflow
            import warnings

            from ..errors import PartialWindowWarning

            warnings.warn(PartialWindowWarning(partial_window_note(window, last - first)),
                          stacklevel=3)
    return parts


def event_status(events: pd.DataFrame, slo: SLO, keys: list[str], total: np.ndarray,
                 failures: np.ndarray,
            bar: ProgressBar, rf: np.ndarray | None = None) -> np.ndarray:
    """Seed status codes of every event (table order), the ``min_events`` hold included. The
    remaining fraction (``rf`` when the caller has it) is computed a chunk at a time (the same
    operations as ``seed_figures``), so that no 10 M-element float column is written only to be
    compared with the thresholds."""

    n = len(total)
    code = np.empty(n, dtype=np.int8)
    for c in range(0, n, _CHUNK):
        part = slice(c, c + _CHUNK)
        fraction = remaining_fraction(total[part], failures[part],
                                      slo.target) if rf is None else rf[part]
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
                code = table_order(hold_low_traffic(code[order], low[order], first), order)
    return code
