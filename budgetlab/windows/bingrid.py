"""The bin grid every SRE-model function computes on: non-empty ``(group, bin)`` cells plus the
span.

A :class:`BinGrid` holds the counts of the non-empty bins only (sorted by group, then bin), the
grid's span (``start_ns``, ``freq_ns``, ``n_bins``) and the key table of every group, so memory
grows with the non-empty bins, not with groups x bins. Absent cells are bins without events.
:meth:`BinGrid.dense` gives the ``(groups, bins)`` arrays of a chunk of groups;
:attr:`BinGrid.total`
and :attr:`BinGrid.bad` the arrays of the whole grid (refused when they would not fit the memory
limit).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from .._util.memory import check_cells
from .._util.validation import duration_label, utc_from_ns
from ..errors import ConfigError
from .exclusions import EXCLUSION_KEYS, Exclusions, exclusion_attrs
from .groups import group_key_codes

__all__ = ["BinGrid", "ranges"]


def ranges(starts: np.ndarray, lengths: np.ndarray) -> np.ndarray:
    """Concatenated ``arange(starts[i], starts[i] + lengths[i])``."""
    total = int(lengths.sum())
    if total == 0:
        return np.empty(0, dtype=np.int64)
    shift = np.repeat(starts - np.concatenate([[0], np.cumsum(lengths)[:-1]]), lengths)
    return np.asarray(np.arange(total, dtype=np.int64) + shift)


@dataclass(frozen=True, eq=False)
class BinGrid:
    """A bins table as sorted non-empty cells: ``cell_group``, ``cell_bin`` (positions), and their
    ``cell_total`` / ``cell_bad`` counts (int64, after ``exclusions``), sorted by group then bin,
    ``cell_total > 0``; ``keys`` holds one row per group (no columns when ungrouped), groups
    without any event included. Every SRE-model function takes a grid where it takes ``bins``
    and uses it as it is.

    >>> g = BinGrid.from_dense(pd.DataFrame(index=pd.RangeIndex(2)), [], 0, 60,
    ...                        np.array([[0, 3], [1, 0]]), np.array([[0, 1], [0, 0]]))
    >>> g.cell_group.tolist(), g.cell_bin.tolist(), g.total.tolist(), g.dense(1, 2)[1].tolist()
    ([0, 1], [1, 0], [[0, 3], [1, 0]], [[0, 0]])
    """

    keys: pd.DataFrame
    by: list[str]
    start_ns: int
    freq_ns: int
    n_bins: int
    cell_group: np.ndarray
    cell_bin: np.ndarray
    cell_total: np.ndarray
    cell_bad: np.ndarray
    exclusions: Exclusions = field(default_factory=Exclusions)
    #: the exclusion ``attrs`` of the table the grid was read from (applied before it was read)
    excluded_before: Mapping[str, Any] = field(default_factory=dict)
    _cache: dict[str, Any] = field(default_factory=dict, repr=False)

    @classmethod
    def from_dense(cls, keys: pd.DataFrame, by: Sequence[str], start_ns: int, freq_ns: int,
                   total: np.ndarray,
                   bad: np.ndarray, exclusions: Exclusions | None = None) -> BinGrid:
        """The grid of ``(groups, bins)`` count arrays."""
        total = np.asarray(total, dtype=np.int64)
        group, b = np.nonzero(total)
        return cls(keys, list(by), int(start_ns), int(freq_ns), int(total.shape[1]),
                   group.astype(np.int64),
                   b.astype(np.int64), total[group, b], np.asarray(bad, dtype=np.int64)[group, b],
                   exclusions if exclusions is not None else Exclusions())

    @property
    def n_groups(self) -> int:
        return len(self.keys)

    @property
    def bin_start_ns(self) -> np.ndarray:
        return self.start_ns + np.arange(self.n_bins, dtype=np.int64) * self.freq_ns

    @property
    def bin_end_ns(self) -> np.ndarray:
        return self.bin_start_ns + self.freq_ns

    @property
    def offsets(self) -> np.ndarray:
        """Cells of group ``g``: ``offsets[g]:offsets[g + 1]``."""
        if "offsets" not in self._cache:
            self._cache["offsets"] = np.searchsorted(self.cell_group, np.arange(self.n_groups + 1,
                                                                                dtype=np.int64))
        return self._cache["offsets"]  # type: ignore[no-any-return]

    def dense(self, g0: int, g1: int) -> tuple[np.ndarray, np.ndarray]:
        """``(total, bad)`` int64 arrays of shape ``(g1 - g0, n_bins)`` of the groups ``g0 <= g <
        g1``."""
        a, b = int(self.offsets[g0]), int(self.offsets[g1])
        total = np.zeros((g1 - g0, self.n_bins), dtype=np.int64)
        bad = np.zeros((g1 - g0, self.n_bins), dtype=np.int64)
        rows, cols = self.cell_group[a:b] - g0, self.cell_bin[a:b]
        total[rows, cols] = self.cell_total[a:b]
        bad[rows, cols] = self.cell_bad[a:b]
        return total, bad

    def _whole(self) -> tuple[np.ndarray, np.ndarray]:
        if "dense" not in self._cache:
            check_cells(self.n_groups, self.n_bins, 16.0, "the dense bin grid",
                        ["use a coarser freq=", "fewer groups (by=)",
                         "a shorter span (start=/end=)"])
            self._cache["dense"] = self.dense(0, self.n_groups)
        return self._cache["dense"]  # type: ignore[no-any-return]

    @property
    def total(self) -> np.ndarray:
        """Events per group and bin, ``(groups, bins)`` int64 (the whole grid, made once)."""
        return self._whole()[0]

    @property
    def bad(self) -> np.ndarray:
        """Failures per group and bin, ``(groups, bins)`` int64 (the whole grid, made once)."""
        return self._whole()[1]

    def group_totals(self) -> np.ndarray:
        """Events per group (int64)."""
        return np.bincount(self.cell_group, weights=self.cell_total,
                           minlength=self.n_groups).astype(np.int64)

    def chunks(self, cells_per_bin: int = 8, budget: int = 256 * 2**20) -> list[tuple[int, int]]:
        """``(g0, g1)`` ranges of groups whose dense arrays (``cells_per_bin`` float64 values per
        group and bin) stay within ``budget`` bytes."""
        step = max(1, budget // max(1, self.n_bins * 8 * cells_per_bin))
        return [(g0, min(g0 + step, self.n_groups)) for g0 in range(0, self.n_groups, step)]

    def keys_at(self, groups: np.ndarray) -> pd.DataFrame:
        """Group keys of the groups at positions ``groups``, one row each (no columns when
        ungrouped)."""
        if not self.by:
            return pd.DataFrame(index=pd.RangeIndex(len(groups)))
        return self.keys.iloc[groups].reset_index(drop=True)

    def long_keys(self, repeat: int) -> pd.DataFrame:
        """Group keys repeated ``repeat`` times per group (for long output tables)."""
        return self.keys_at(np.repeat(np.arange(self.n_groups), repeat))

    def _with_cells(self, keys: pd.DataFrame, by: list[str], group: np.ndarray, b: np.ndarray,
                    total: np.ndarray,
                    bad: np.ndarray) -> BinGrid:
        return BinGrid(keys, by, self.start_ns, self.freq_ns, self.n_bins, group, b, total, bad,
                       self.exclusions, self.excluded_before)

    def select(self, groups: Sequence[int] | np.ndarray) -> BinGrid:
        """The grid of the groups at positions ``groups`` only."""
        idx = np.asarray(groups, dtype=np.int64)
        off = self.offsets
        lengths = off[idx + 1] - off[idx]
        pos = ranges(off[idx], lengths)
        return self._with_cells(self.keys.iloc[idx].reset_index(drop=True), self.by,
                                np.repeat(np.arange(len(idx), dtype=np.int64), lengths),
                                self.cell_bin[pos],
                                self.cell_total[pos], self.cell_bad[pos])

    def regroup(self, by: Sequence[str]) -> BinGrid:
        """The grid summed over the groups that share the keys ``by`` (``[]``: one series).

        >>> from budgetlab.events.schema import as_events
        >>> from budgetlab.windows.binning import bin_events
        >>> from budgetlab.windows.bins import read_bins
        >>> ev = as_events(["2026-01-01 00:00", "2026-01-01 00:00", "2026-01-01 00:01"],
        ...                [True, False, True],
        ...                groups={"region": ["fra", "ams", "fra"]})
        >>> grid = read_bins(bin_events(ev, "1min", by="region"))
        >>> (grid.total.tolist(), grid.regroup([]).total.tolist(),
        ...  grid.select([1]).keys["region"].tolist())
        ([[1, 0], [1, 1]], [[2, 1]], ['fra'])
        """
        by = list(by)
        missing = [k for k in by if k not in self.by]
        if missing:
            raise ConfigError(f"by= names {missing} which are not group keys of the bins "
                              f"({self.by}).")
        codes, keys = group_key_codes(self.keys, by)
        flat = codes.astype(np.int64)[self.cell_group] * self.n_bins + self.cell_bin
        uniq, inv = np.unique(flat, return_inverse=True)
        total = np.bincount(inv, weights=self.cell_total, minlength=len(uniq)).astype(np.int64)
        bad = np.bincount(inv, weights=self.cell_bad, minlength=len(uniq)).astype(np.int64)
        return self._with_cells(keys, by, uniq // self.n_bins, uniq % self.n_bins, total, bad)

    def _rows(self, dense: bool) -> tuple[np.ndarray, np.ndarray]:
        """``(flat cell number of each table row, row of each non-empty cell)``."""
        flat = self.cell_group * self.n_bins + self.cell_bin
        if dense:
            check_cells(self.n_groups, self.n_bins, 8.0 * 8, "the dense bins table",
                        ["drop dense=True", "use a coarser freq=", "fewer groups (by=)"])
            return np.arange(self.n_groups * self.n_bins, dtype=np.int64), flat
        firsts = np.arange(self.n_groups, dtype=np.int64) * self.n_bins
        required = np.unique(np.concatenate([firsts, firsts + self.n_bins - 1]))
        pos = np.searchsorted(flat, required)
        present = np.zeros(len(required), dtype=bool)
        inside = pos < len(flat)
        present[inside] = flat[pos[inside]] == required[inside]
        missing = required[~present]
        at = pos[~present] + np.arange(len(missing), dtype=np.int64)  # where the zero rows go
        is_cell = np.ones(len(flat) + len(missing), dtype=bool)
        is_cell[at] = False
        rows = np.empty(len(is_cell), dtype=np.int64)
        rows[at] = missing
        cell_rows = np.flatnonzero(is_cell)
        rows[cell_rows] = flat
        return rows, cell_rows

    def to_table(self, extra: Mapping[str, np.ndarray] | None = None, *,
                 dense: bool = False) -> pd.DataFrame:
        """The bins table of the grid (``extra``: further count columns, one value per cell).

        Rows are the non-empty bins, plus a row of zeros at the first and at the last bin of the
        grid for every group that has none there (so the table records the span and every
        group); ``dense=True``: every bin of every group.
        """
        rows, cell_rows = self._rows(dense)

        def place(values: np.ndarray) -> np.ndarray:
            out = np.zeros(len(rows), dtype=np.int64)
            out[cell_rows] = values
            return out

        group = rows // self.n_bins
        data: dict[str, Any] = {k: self.keys[k].array.take(group) for k in self.by}
        data["bin_start"] = utc_from_ns(self.start_ns + (rows - group * self.n_bins) * self.freq_ns)
        total, bad = place(self.cell_total), place(self.cell_bad)
        data["total"] = total
        data["good"] = total - bad
        data["bad"] = bad
        for name, values in (extra or {}).items():
            data[name] = place(values)
        out = pd.DataFrame(data, copy=False)
        # exactly these two (not what pandas carried over from the events, e.g. their "how_read")
        out.attrs = {"freq": duration_label(pd.Timedelta(self.freq_ns, unit="ns")),
                     "by": list(self.by)}
        out.attrs.update(self.exclusion_attrs())
        return out

    def exclusion_attrs(self) -> dict[str, Any]:
        """What the counts leave out, earlier exclusions first
        (:func:`~budgetlab.windows.exclusions.exclusion_attrs`; empty when nothing is)."""
        return exclusion_attrs(self.exclusions, self.excluded_before)

    @staticmethod
    def excluded_in(attrs: Mapping[Any, Any]) -> dict[str, Any]:
        """The exclusion keys of a table's ``attrs`` (those :meth:`exclusion_attrs` writes)."""
        return {k: attrs[k] for k in EXCLUSION_KEYS if k in attrs}
