"""Time-grid bins: event counts per regular time bin and group (the SRE model's input).

The **bins table** is the contract every function of the SRE model (burn rates, period budgets,
alert policies, low-traffic diagnostics) reads. One row per group and non-empty bin:

==================  =========================  ===================================================
column              dtype                      meaning
==================  =========================  ===================================================
group keys          categorical (as in events) one column per ``by`` key, absent when ungrouped
``bin_start``       ``datetime64[ns, UTC]``    the bin covers ``[bin_start, bin_start + freq)``
``total``           int64                      events in the bin (after exclusions)
``good``            int64                      successes (``ok``)
``bad``             int64                      failures; ``total == good + bad``
``bad_<bucket>``    int64                      failures per bucket (``bad_timeout``, ...);
                                               they add up to ``bad``
``scrape_gap``      bool, optional             no scrape in the bin (``budgetlab backtest``'s
                                               ``bins.csv``): its 0 counts are not known; read as
                                               an empty bin, never a group key
==================  =========================  ===================================================

**Absent rows are bins with no events.** The table holds the non-empty bins, plus a row of zeros at
the first and at the last bin of the grid for every group that has no events there, so the table
itself records the grid's span and every group (a group without any event in the span has just those
rows). Rows are sorted by group keys, then ``bin_start``. Bins are aligned on the Unix epoch (a
``"1D"`` bin starts at 00:00 UTC). For every bin of every group (the table of earlier releases),
pass ``dense=True`` to :func:`~budgetlab.bin_events`, or use
``read_bins(bins).to_table(dense=True)``; every function that reads bins accepts both (zero rows are
empty bins too). ``bins.attrs["freq"]`` and ``bins.attrs["by"]`` record how the table was made, but
pandas operations may drop ``attrs``: every function that takes ``bins`` also takes ``freq=`` and
otherwise infers it from the ``bin_start`` spacing, and takes the group keys to be every column that
is not a count column.

**Read once.** Every SRE-model function starts with :func:`read_bins`, which validates the table,
applies the exclusions (:class:`~budgetlab.windows.exclusions.Exclusions`) and returns a
:class:`BinGrid`
(the non-empty cells, sorted, plus the span and the groups: memory grows with the non-empty bins,
not with groups x bins). A function that
calls another passes the grid on: a :class:`BinGrid` given as ``bins`` is used as it is, so the
table is read, and the exclusions applied, once.

**Time of evaluation.** A bin is evaluated at its end, ``bin_end = bin_start + freq``: everything
computed "at" a time ``t`` (burn rates, alert states, budgets) uses the events with ``ts < t``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, TypeAlias

import numpy as np
import pandas as pd

from .._util.validation import duration_label, to_ns, to_timedelta
from .._util.words import prose_duration
from ..errors import ConfigError, InputError, SchemaError
from .bingrid import BinGrid
from .binning import COUNT_COLUMNS
from .exclusions import ExcludeOptions, Exclusions, refuse_unknown
from .groups import group_key_codes

#: Columns of a bins table that flag bins and are never group keys (``scrape_gap``: a bin without
#: a scrape in ``budgetlab backtest``'s ``bins.csv``).
FLAG_COLUMNS = ("scrape_gap",)

__all__ = ["BinsLike", "ReadBinsOptions", "read_bins", "bin_keys", "window_bins"]


class ReadBinsOptions(ExcludeOptions, total=False):
    """The keywords every SRE-model function passes through to :func:`read_bins` unchanged."""

    freq: Any


#: What the SRE-model functions take as ``bins``: a bins table, or the grid :func:`read_bins` made
# of one.
BinsLike: TypeAlias = pd.DataFrame | BinGrid


def _count_columns(columns: Iterable[Any]) -> set[str]:
    cols = {str(c) for c in columns}
    return {c for c in cols if c in (*COUNT_COLUMNS, *FLAG_COLUMNS) or c == "bin_start"
            or c.startswith("bad_")}


def bin_keys(bins: pd.DataFrame) -> list[str]:
    """The group key columns of a bins table: ``attrs["by"]`` when valid, else every column
    that is not ``bin_start`` or a count column."""
    attr = bins.attrs.get("by")
    if isinstance(attr, list) and all(isinstance(k, str) and k in bins.columns for k in attr):
        return list(attr)
    counts = _count_columns(bins.columns)
    return [str(c) for c in bins.columns if str(c) not in counts]


def _check_table(bins: Any) -> None:
    if not isinstance(bins, pd.DataFrame):
        raise InputError("bins must be a DataFrame from budgetlab.bin_events(), got "
                         f"{type(bins).__name__}.")
    for col in ("bin_start", "total", "bad"):
        if col not in bins.columns:
            raise SchemaError(f"bins has no column {col!r}; make the table with "
                              "budgetlab.bin_events().")
    if len(bins) == 0:
        raise InputError("bins is empty; make it with budgetlab.bin_events() from a non-empty "
                         "event table.")


def _bin_offsets(bins: pd.DataFrame, freq: Any) -> tuple[int, int, np.ndarray]:
    """``(start_ns, freq_ns, offsets)`` of the ``bin_start`` column; ``freq`` defaults to
    ``attrs["freq"]``, else the greatest common spacing."""
    bs = bins["bin_start"]
    if not isinstance(bs.dtype, pd.DatetimeTZDtype):
        raise SchemaError("bins['bin_start'] must be datetime64[ns, UTC]; make the table with "
                          "budgetlab.bin_events().")
    if bs.isna().any():
        raise InputError("bins['bin_start'] has missing values.")
    b_ns = np.asarray(bs.dt.tz_convert("UTC").dt.as_unit("ns").array.asi8, dtype=np.int64)
    start_ns = int(b_ns.min())
    offsets = b_ns - start_ns
    if freq is not None:
        freq_ns = to_ns(freq, name="freq")
    elif isinstance(bins.attrs.get("freq"), str):
        freq_ns = to_ns(bins.attrs["freq"], name="bins.attrs['freq']")
    else:
        freq_ns = int(np.gcd.reduce(offsets))  # gcd of the spacings (0: a single bin_start)
        if freq_ns == 0:
            raise ConfigError("bins has a single bin_start; give freq= (e.g. freq='1min').")
    if bool(np.any(offsets % freq_ns)):
        raise InputError(
            "bins['bin_start'] is not on a regular grid of the given freq; pass the freq used by "
            "bin_events() (freq=...)."
        )
    return start_ns, freq_ns, offsets


def _count_column(bins: pd.DataFrame, name: str) -> np.ndarray:
    """A count column as int64, refusing missing, fractional and negative values."""
    col = bins[name]
    if (
        not pd.api.types.is_numeric_dtype(col.dtype)
        or pd.api.types.is_bool_dtype(col.dtype)
        or col.isna().any()
    ):
        raise SchemaError(f"bins[{name!r}] must hold whole numbers (int64) without missing values.")
    arr = col.to_numpy()
    if arr.dtype.kind == "f":
        if not bool(np.all(np.isfinite(arr))) or bool(np.any(arr != np.round(arr))):
            raise SchemaError(f"bins[{name!r}] must hold whole numbers.")
    arr = arr.astype(np.int64, copy=False)
    if bool(np.any(arr < 0)):
        raise InputError(f"bins[{name!r}] has negative counts.")
    return arr


def _row_counts(bins: pd.DataFrame, buckets: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """``(total, bad)`` per row, the ``bad_<bucket>`` columns of ``buckets`` subtracted."""
    total = _count_column(bins, "total")
    bad = _count_column(bins, "bad")
    if bool(np.any(bad > total)):
        raise InputError("bins has rows with bad > total.")
    for b in buckets:
        col = f"bad_{b}"
        if col not in bins.columns:
            present = sorted(str(c)[4:] for c in bins.columns if str(c).startswith("bad_"))
            raise ConfigError(
                f"bins has no column {col!r} to exclude (buckets present: "
                f"{', '.join(map(repr, present))}); "
                "it may have been excluded by bin_events() already."
            )
        sub = _count_column(bins, col)
        if bool(np.any(sub > bad)):
            raise InputError(f"bins[{col!r}] exceeds 'bad' in some rows.")
        total = total - sub
        bad = bad - sub
    return total, bad


def _as_read(grid: BinGrid, freq: Any, exclusions: Exclusions) -> BinGrid:
    if exclusions:
        raise ConfigError("bins is a BinGrid, whose exclusions were applied when it was read; give "
                          "exclude_buckets / exclude_windows to read_bins() (or bin_events()) "
                          "once, not again.")
    if freq is not None and to_ns(freq, name="freq") != grid.freq_ns:
        raise ConfigError(f"freq={freq!r} differs from the bin width of the BinGrid "
                          f"({prose_duration(pd.Timedelta(grid.freq_ns, unit='ns'))}).")
    return grid


def read_bins(
    bins: BinsLike,
    *,
    freq: Any = None,
    exclude_buckets: str | Sequence[str] | None = (),
    exclude_windows: Any = None,
    exclude_mode: str = "drop",
    **unknown: Any,
) -> BinGrid:
    """Validate a bins table and turn it into a :class:`BinGrid`, after exclusions.

    Every SRE-model function reads its ``bins`` here, once. ``freq`` defaults to
    ``bins.attrs["freq"]`` or the greatest common spacing of ``bin_start``. Rows missing from a
    group's grid count as empty bins; duplicated ``(group, bin_start)`` rows are an error.
    ``exclude_buckets`` subtracts the ``bad_<bucket>`` columns from ``bad`` and ``total``.
    ``exclude_windows`` works at bin resolution here: a bin is excluded when its ``bin_start``
    lies in a window ``[start, end)`` (exact when the windows are on the bin grid; use
    :func:`~budgetlab.bin_events` for event-exact exclusion). ``exclude_mode="drop"`` empties those
    bins,
    ``"good"`` turns their failures into successes. The grid spans from the first to the last
    ``bin_start`` of the table; its groups are those with a row.

    A :class:`BinGrid` is returned as it is: it was read once already, so exclusions (or a
    different ``freq``) given with it are an error.

    >>> from budgetlab.events.schema import as_events
    >>> from budgetlab.windows.binning import bin_events
    >>> b = bin_events(as_events(["2026-01-01 00:00:10", "2026-01-01 00:01:10"], [False, True],
    ...                          ["timeout", "success"]), "1min")
    >>> grid = read_bins(b, exclude_buckets="timeout")
    >>> grid.total.tolist(), grid.exclusions.buckets, read_bins(grid) is grid
    ([[0, 1]], ('timeout',), True)
    >>> read_bins(grid, exclude_buckets="timeout")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: bins is a BinGrid, whose exclusions were applied when it was read;
    ...
    """
    refuse_unknown(unknown, ReadBinsOptions.__optional_keys__)
    exclusions = Exclusions.of(exclude_buckets=exclude_buckets, exclude_windows=exclude_windows,
                               exclude_mode=exclude_mode)
    if isinstance(bins, BinGrid):
        return _as_read(bins, freq, exclusions)
    _check_table(bins)
    by = bin_keys(bins)
    start_ns, freq_ns, offsets = _bin_offsets(bins, freq)
    n_bins = int(offsets.max() // freq_ns) + 1
    codes, keys = group_key_codes(bins, by)
    cell_bin = offsets // freq_ns
    flat = codes * n_bins + cell_bin
    tot_rows, bad_rows = _row_counts(bins, exclusions.buckets)
    # not in grid order (what bin_events makes)
    if len(flat) > 1 and not bool(np.all(flat[1:] > flat[:-1])):
        order = np.argsort(flat, kind="stable")
        flat, tot_rows, bad_rows = flat[order], tot_rows[order], bad_rows[order]
        if bool(np.any(flat[1:] == flat[:-1])):
            raise InputError("bins has duplicated (group, bin_start) rows; each group needs one "
                             "row per bin.")
        codes, cell_bin = flat // n_bins, flat % n_bins
    if len(exclusions.windows):
        inside = exclusions.inside(start_ns + cell_bin * freq_ns)
        if exclusions.mode == "drop":
            tot_rows = np.where(inside, 0, tot_rows)
        bad_rows = np.where(inside, 0, bad_rows)
    nonzero = tot_rows > 0
    return BinGrid(keys, by, start_ns, freq_ns, n_bins, codes[nonzero], cell_bin[nonzero],
                   tot_rows[nonzero],
                   bad_rows[nonzero], exclusions, BinGrid.excluded_in(bins.attrs))


def window_bins(window: Any, freq_ns: int, *, name: str = "window") -> int:
    """Number of bins in ``window``; the window must be a whole number of bins.

    >>> window_bins("1h", 60 * 10**9)
    60
    """
    ns = to_ns(window, name=name)
    if ns % freq_ns:
        raise ConfigError(
            f"{name}={duration_label(to_timedelta(window, name=name))} is not a whole number of "
            f"bins of {prose_duration(pd.Timedelta(freq_ns, unit='ns'))}; bin the events with a "
            "freq that divides it."
        )
    return ns // freq_ns
