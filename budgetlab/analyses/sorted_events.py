"""Events in group order, sorted once and shared by every window of an analysis.

:func:`sort_events` validates an event table and puts each group's rows together (time order
kept inside a group) with one stable radix sort; the :class:`Sorted` arrays it returns feed the
window's clock (:mod:`budgetlab.analyses.window_clock`) or the calendar counts, and go back
to table order with :meth:`Sorted.scatter`. Window specs
(:func:`parse_window`), per-group targets (:func:`group_targets`) and the small per-row helpers
of the status model on these arrays (:func:`change_flags`) live here too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .._util.validation import duration_label, to_timedelta
from ..budget.burn import target_array
from ..errors import ConfigError, InputError
from ..events.schema import check_events, ts_ns
from ..slo import PerGroup, key_text
from ..slo_groups import warn_unused
from ..windows.bingrid import BinGrid
from ..windows.groups import group_order, segment_codes, table_order

__all__ = [
    "WindowSpec",
    "parse_window",
    "Sorted",
    "sort_events",
    "group_targets",
    "change_flags",
]

_CALENDAR_ALIASES = {"day": "day", "1d": "day", "24h": "day", "week": "week", "1w": "week",
                     "7d": "week",
                     "month": "month", "1m": "month"}


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
            raise ConfigError(f"window {spec!r}: use 'calendar:day', 'calendar:week' or "
                              "'calendar:month'.")
        return WindowSpec(f"calendar:{name}", "calendar", calendar=name)
    td = to_timedelta(spec, name="window")
    return WindowSpec(duration_label(td), "rolling", window_ns=int(td.value))


@dataclass(frozen=True)
class Sorted:
    """Events with each group's rows together (time order kept): the arrays every window uses."""

    by: list[str]
    order: np.ndarray | None
    bounds: np.ndarray
    t: np.ndarray
    bad: np.ndarray
    #: One row per group, its keys (index 0, 1, ...); no columns and one row without groups.
    keys: pd.DataFrame

    @property
    def n_groups(self) -> int:
        return len(self.bounds) - 1

    @property
    def seg(self) -> np.ndarray:
        """Group number (int64) of every (sorted) row."""
        return segment_codes(self.bounds, np.int64)

    def scatter(self, values: np.ndarray) -> np.ndarray:
        """Back to the order of the input table."""
        return table_order(values, self.order)


def sort_events(events: pd.DataFrame, by: str | Sequence[str] | None) -> Sorted:
    """Validate ``events`` and put each group's rows together (one stable radix sort)."""
    keys = check_events(events, by)
    if len(events) == 0:
        raise InputError("events is empty; there is nothing to replay.")
    order, bounds = group_order(events, keys)
    t = ts_ns(events)
    bad = ~events["ok"].to_numpy(dtype=bool)
    if order is not None:
        t = t[order]
        bad = bad[order]
        key_table = events[keys].iloc[order[bounds[:-1]]].reset_index(drop=True)
    else:
        key_table = pd.DataFrame(index=pd.RangeIndex(1))
    return Sorted(keys, order, bounds, t, bad, key_table)


def group_targets(target: Any, keys: pd.DataFrame, by: Sequence[str], *,
                  whole: bool = False) -> np.ndarray:
    """Per-group targets: a number, an :class:`SLO`, a DataFrame with group-key columns and
    ``target``, a mapping ``{key value: target}`` (keyed by the values of one group key, or by
    tuples of all keys) or a :class:`PerGroup`. ``whole``: ``keys`` holds every group of the log,
    so groups the table, mapping or ``PerGroup`` names beyond them are warned of as ``target=``
    (:func:`~budgetlab.slo_groups.warn_unused`); a per-SLO run sees a part of the groups only.

    >>> keys = pd.DataFrame({"captcha_type": ["image", "turnstile"]})
    >>> group_targets({"image": 0.9, "turnstile": 0.97}, keys, ["captcha_type"]).tolist()
    [0.9, 0.97]
    """
    if isinstance(target, PerGroup) and by:  # without by: target_array refuses
        if whole:
            warn_unused(target, keys[list(by)], option="target")
        return np.array([s.target for s in target.resolve(keys[list(by)])], dtype=np.float64)
    if isinstance(target, Mapping):
        if not target:
            raise ConfigError("target mapping is empty; give e.g. {'recaptcha_v2': 0.93}.")
        items = list(target.items())
        if all(isinstance(k, tuple) for k, _ in items):
            if not by or any(len(k) != len(by) for k, _ in items):
                raise ConfigError("target mapping keys must be tuples of the group keys "
                                  f"{list(by)}.")
            table = pd.DataFrame([list(k) for k, _ in items], columns=list(by))
        else:
            col = next((c for c in by if set(keys[c].astype(str)) <= {str(k) for k, _ in items}),
                       None)
            if col is None:
                raise ConfigError(
                    "target mapping must give a target for every value of one group key "
                    f"({list(by) or 'none'}); or pass a DataFrame with key columns and 'target'."
                )
            table = pd.DataFrame({col: [str(k) for k, _ in items]})
        table["target"] = [v for _, v in items]
        target = table
    none = np.empty(0, dtype=np.int64)
    grid = BinGrid(keys, list(by), 0, 1, 1, none, none, none, none)
    out = np.asarray(target_array(target, grid), dtype=np.float64)
    if whole and isinstance(target, pd.DataFrame):  # its columns checked by target_array
        on = [c for c in target.columns if c != "target"]
        warn_unused([key_text(k) for k in target[on].itertuples(index=False, name=None)],
                    keys[on], option="target")
    return out


def change_flags(code: np.ndarray, first: np.ndarray) -> np.ndarray:
    """True where a row's status differs from its group's previous row (rows in group order;
    ``first`` is True at each group's first row, compared with healthy)."""
    prev = np.zeros(len(code), dtype=code.dtype)
    prev[1:] = code[:-1]
    prev[first] = 0
    return np.asarray(code != prev)
