"""Exclusions: what the SRE model leaves out of the counts (failure buckets, maintenance windows).

Validated once into an :class:`Exclusions` and applied when the counts are made: at event level
(exact) by :func:`budgetlab.windows.binning.bin_events`, or at bin level by
:func:`budgetlab.windows.bins.read_bins`, which every SRE-model function calls once. A
:class:`~budgetlab.windows.bingrid.BinGrid` records
the exclusions it was read with.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypedDict

import numpy as np
import pandas as pd

from .._util.attrs import time_text
from .._util.validation import check_argument, utc_timestamp
from ..errors import ConfigError
from ..events.schema import SUCCESS

__all__ = ["EXCLUSION_KEYS", "ExcludeOptions", "Exclusions", "exclusion_attrs",
           "exclusion_intervals", "refuse_unknown"]

#: The ``attrs`` keys that say what a table's counts leave out (:func:`exclusion_attrs`).
EXCLUSION_KEYS = ("exclude_buckets", "exclude_windows", "exclude_mode")

_EXCLUDE_MODES = ("drop", "good")


class ExcludeOptions(TypedDict, total=False):
    """The exclusion keywords (see :class:`Exclusions`); defaults: nothing excluded, ``"drop"``."""

    exclude_buckets: str | Sequence[str] | None
    exclude_windows: Any
    exclude_mode: str


def refuse_unknown(unknown: Iterable[str], known: Iterable[str]) -> None:
    """Refuse the ``unknown`` keywords that a public function passed on in its ``**options``, by
    name and with the ``known`` ones (a ``TypeError``, as Python's own for an unknown keyword,
    which would name the internal function instead).

    >>> refuse_unknown(["denes"], ExcludeOptions.__optional_keys__)
    Traceback (most recent call last):
    ...
    TypeError: unexpected keyword argument 'denes'; besides its named arguments, the function takes
    exclude_buckets, exclude_mode, exclude_windows.
    """
    if names := sorted(unknown):
        raise TypeError(f"unexpected keyword {'argument' if len(names) == 1 else 'arguments'} "
                        f"{', '.join(map(repr, names))}; besides its named arguments, the "
                        f"function takes {', '.join(sorted(known))}.")


def exclusion_intervals(exclude_windows: Any) -> np.ndarray:
    """Maintenance windows as a sorted, merged ``(k, 2)`` int64 array of ``[start, end)`` in ns.

    ``exclude_windows`` is ``None``, a DataFrame with ``start`` and ``end`` columns, or an
    iterable of ``(start, end)`` pairs. Naive timestamps are read as UTC. Each window covers
    ``[start, end)``.

    >>> exclusion_intervals([("2026-01-01 00:00", "2026-01-01 00:01")]).tolist()
    [[1767225600000000000, 1767225660000000000]]
    """
    if exclude_windows is None:
        return np.empty((0, 2), dtype=np.int64)
    if isinstance(exclude_windows, pd.DataFrame):
        missing = [c for c in ("start", "end") if c not in exclude_windows.columns]
        if missing:
            raise ConfigError("exclude_windows as a table needs columns 'start' and 'end' (end "
                              "exclusive).")
        pairs: Iterable[Any] = zip(exclude_windows["start"], exclude_windows["end"], strict=True)
    elif isinstance(exclude_windows, (str, bytes)) or not isinstance(exclude_windows, Iterable):
        raise ConfigError(
            "exclude_windows takes a table with 'start'/'end' columns or a list of (start, end) "
            "pairs."
        )
    else:
        pairs = exclude_windows
    rows = []
    for pair in pairs:
        try:
            start, end = pair
        except (TypeError, ValueError):
            raise ConfigError("each exclude_windows item must be a (start, end) pair.") from None
        s = int(utc_timestamp(start, name="exclude_windows start").value)
        e = int(utc_timestamp(end, name="exclude_windows end").value)
        if e <= s:
            raise ConfigError("each exclude_windows item needs end > start (the window is [start, "
                              "end)).")
        rows.append((s, e))
    if not rows:
        return np.empty((0, 2), dtype=np.int64)
    arr = np.array(sorted(rows), dtype=np.int64)
    merged = [list(arr[0])]
    for s, e in arr[1:].tolist():
        if s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    return np.array(merged, dtype=np.int64)


@dataclass(frozen=True)
class Exclusions:
    """What the SRE model leaves out of the counts, validated once.

    ``buckets``: failure buckets dropped from ``bad`` **and** ``total`` ("not the solver's
    fault"). ``windows``: maintenance windows ``[start, end)``, merged, as a ``(k, 2)`` int64
    array of UTC ns (:func:`exclusion_intervals`). ``mode``: ``"drop"`` removes what lies inside
    a window, ``"good"`` counts it as successes. :meth:`of` reads the ``exclude_*`` keywords;
    :meth:`apply_to_events` applies them to events; :func:`~budgetlab.windows.bins.read_bins`
    applies them to a bins table (the windows to the cells whose bin starts inside one, the buckets
    by subtracting the ``bad_<bucket>`` columns); a :class:`~budgetlab.windows.bingrid.BinGrid`
    keeps the exclusions it was read with.

    >>> ex = Exclusions.of(exclude_buckets="timeout", exclude_windows=[("2026-01-01",
    ...                                                                 "2026-01-02")])
    >>> ex.buckets, ex.windows.shape, ex.mode
    (('timeout',), (1, 2), 'drop')
    """

    buckets: tuple[str, ...] = ()
    windows: np.ndarray = field(default_factory=lambda: np.empty((0, 2), dtype=np.int64))
    mode: str = "drop"

    def __post_init__(self) -> None:
        check_argument("exclude_mode", self.mode, _EXCLUDE_MODES)
        if not all(isinstance(b, str) for b in self.buckets):
            raise ConfigError("exclude_buckets takes bucket names (strings) such as 'timeout'.")

    @classmethod
    def of(cls, *, exclude_buckets: str | Sequence[str] | None = (), exclude_windows: Any = None,
           exclude_mode: str = "drop", **unknown: Any) -> Exclusions:
        """From the ``exclude_buckets``, ``exclude_windows`` and ``exclude_mode`` keywords
        (others are refused by name)."""
        refuse_unknown(unknown, ExcludeOptions.__optional_keys__)
        buckets = (exclude_buckets,) if isinstance(exclude_buckets,
                                                   str) else tuple(exclude_buckets or ())
        return cls(buckets, exclusion_intervals(exclude_windows), exclude_mode)

    def __bool__(self) -> bool:
        return bool(self.buckets) or len(self.windows) > 0

    def inside(self, t_ns: np.ndarray) -> np.ndarray:
        """Boolean mask: ``t_ns`` lies in one of the windows ``[start, end)``."""
        if len(self.windows) == 0:
            return np.zeros(len(t_ns), dtype=bool)
        pos = np.searchsorted(self.windows.ravel(), t_ns, side="right")
        return np.asarray((pos % 2) == 1, dtype=bool)

    def apply_to_events(self, t_ns: np.ndarray, fail: np.ndarray, codes: np.ndarray,
                        keep: np.ndarray,
                        categories: Sequence[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Event-level (exact) exclusion: the new ``(keep, fail, codes)`` of events with bucket
        ``codes`` into ``categories``; ``keep`` is updated in place."""
        if self.buckets:
            excl_codes = np.array([list(categories).index(b) for b in self.buckets], dtype=np.int64)
            keep &= ~(fail & np.isin(codes, excl_codes))
        if len(self.windows):
            inside = self.inside(t_ns)
            if self.mode == "drop":
                keep &= ~inside
            else:
                fail = fail & ~inside
                codes = np.where(inside, list(categories).index(SUCCESS), codes)
        return keep, fail, codes


def exclusion_attrs(exclusions: Exclusions, earlier: Mapping[Any, Any] | None = None
                    ) -> dict[str, Any]:
    """What the counts leave out, for ``attrs`` (JSON values; no key when nothing is left out):
    ``exclude_buckets`` (bucket names), ``exclude_windows`` (``[start, end]`` pairs, ISO-8601
    text with the UTC offset, ``end`` excluded) and ``exclude_mode`` (``"drop"`` or ``"good"``;
    a list, one per window, when the windows were applied in different modes). ``earlier``: the
    ``attrs`` of the table the counts were read from (the exclusions applied before, e.g. by
    :func:`~budgetlab.bin_events`), listed first.

    >>> ex = Exclusions.of(exclude_buckets="timeout", exclude_windows=[("2026-01-01 10:30",
    ...                                                                 "2026-01-01 11:30")])
    >>> exclusion_attrs(ex)  # doctest: +NORMALIZE_WHITESPACE
    {'exclude_buckets': ['timeout'],
     'exclude_windows': [['2026-01-01T10:30:00+00:00', '2026-01-01T11:30:00+00:00']],
     'exclude_mode': 'drop'}
    >>> exclusion_attrs(Exclusions(), {"freq": "1h"})
    {}
    """
    before = earlier or {}
    buckets = [*before.get("exclude_buckets", []), *exclusions.buckets]
    old = [list(w) for w in before.get("exclude_windows", [])]
    mode = before.get("exclude_mode", "drop")
    modes = list(mode) if isinstance(mode, list) else [mode] * len(old)
    new = [[time_text(pd.Timestamp(int(a), tz="UTC")), time_text(pd.Timestamp(int(b), tz="UTC"))]
           for a, b in exclusions.windows]
    modes += [exclusions.mode] * len(new)
    out: dict[str, Any] = {}
    if buckets:
        out["exclude_buckets"] = buckets
    if old or new:
        out["exclude_windows"] = old + new
        out["exclude_mode"] = modes[0] if len(set(modes)) == 1 else modes
    return out
