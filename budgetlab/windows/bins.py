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
==================  =========================  ===================================================

**Absent rows are bins with no events.** The table holds the non-empty bins, plus a row of zeros
at the first and at the last bin of the grid for every group that has no events there, so the
table itself records the grid's span and every group (a group without any event in the span has
just those rows). Rows are sorted by group keys, then ``bin_start``. Bins are aligned on the Unix
epoch (a ``"1D"`` bin starts at 00:00 UTC). For every bin of every group (the table of earlier
releases), pass ``dense=True`` to :func:`bin_events`, or use ``read_bins(bins).to_table(dense=True)``;
every function that reads bins accepts both (zero rows are empty bins too).
``bins.attrs["freq"]`` and ``bins.attrs["by"]`` record how the table was made, but pandas
operations may drop ``attrs``: every function that takes ``bins`` also takes ``freq=`` and
otherwise infers it from the ``bin_start`` spacing, and takes the group keys to be every column
that is not a count column.

**Read once.** Every SRE-model function starts with :func:`read_bins`, which validates the table,
applies the exclusions (:class:`~budgetlab.windows.exclusions.Exclusions`) and returns a :class:`BinGrid`
(the non-empty cells, sorted, plus the span and the groups: memory grows with the non-empty bins,
not with groups x bins). A function that
calls another passes the grid on: a :class:`BinGrid` given as ``bins`` is used as it is, so the
table is read, and the exclusions applied, once.

**Time of evaluation.** A bin is evaluated at its end, ``bin_end = bin_start + freq``: everything
computed "at" a time ``t`` (burn rates, alert states, budgets) uses the events with ``ts < t``.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from typing import Any, TypeAlias, Unpack

import numpy as np
import pandas as pd

from .._util.memory import check_memory
from .._util.validation import duration_label, to_ns, to_timedelta, utc_timestamp
from ..errors import ConfigError, InputError, OutcomeError, SchemaError
from ..events.schema import SOLVE_ERROR, SUCCESS, bucket_dtype, check_events, ts_ns
from ._cell_kernels import event_cells
from .bingrid import BinGrid
from .exclusions import ExcludeOptions, Exclusions, exclusion_intervals
from .groups import group_key_codes

__all__ = [
    "COUNT_COLUMNS",
    "BinGrid",
    "grid_span",
    "check_grid_cells",
    "BinsLike",
    "ReadBinsOptions",
    "Exclusions",
    "ExcludeOptions",
    "bin_events",
    "key_codes",
    "read_bins",
    "bin_keys",
    "window_bins",
    "duration_label",
    "exclusion_intervals",
]

#: The count columns every bins table has (plus one ``bad_<bucket>`` per failure bucket).
COUNT_COLUMNS = ("total", "good", "bad")
# int64 values held per grid cell at the peak of bin_events: total, bad, good, bin_start and the
# bucket counts (a few buckets) in the table, plus the bincount arrays it is built from
_CELL_COLUMNS = 12


class ReadBinsOptions(ExcludeOptions, total=False):
    """The keywords every SRE-model function passes through to :func:`read_bins` unchanged."""

    freq: Any


def _bucket_codes(events: pd.DataFrame, ok: np.ndarray) -> tuple[np.ndarray, list[str]]:
    """Bucket code per event and the bucket names, checked against ``ok``."""
    if "bucket" in events.columns:
        col = events["bucket"]
        if isinstance(col.dtype, pd.CategoricalDtype):
            labels = [str(c) for c in col.cat.categories]
            dtype = bucket_dtype(labels)
            cat = col.cat.set_categories(list(dtype.categories))
        else:
            cat = col.astype(str).astype(bucket_dtype(pd.unique(col.astype(str))))
        if cat.isna().any():
            raise OutcomeError("events['bucket'] has missing values; every event needs a bucket (success, timeout, ...).")
        codes = cat.cat.codes.to_numpy().astype(np.int64)
        categories = [str(c) for c in cat.cat.categories]
    else:
        categories = list(bucket_dtype().categories)
        codes = np.where(ok, categories.index(SUCCESS), categories.index(SOLVE_ERROR)).astype(np.int64)
    success_code = categories.index(SUCCESS)
    if bool(np.any(ok & (codes != success_code))):
        raise OutcomeError("events has successful rows (ok=True) whose bucket is a failure bucket; fix the outcome mapping.")
    if bool(np.any(~ok & (codes == success_code))):
        raise OutcomeError("events has failed rows (ok=False) whose bucket is 'success'; fix the outcome mapping.")
    return codes, categories


def _check_bucket_names(excluded: Sequence[str], categories: Sequence[str]) -> None:
    failure_names = [c for c in categories if c != SUCCESS]
    for b in excluded:
        if b not in failure_names:
            close = difflib.get_close_matches(b, failure_names, n=2, cutoff=0.5)
            hint = f" Did you mean {', '.join(map(repr, close))}?" if close else ""
            raise ConfigError(
                f"exclude_buckets names unknown failure bucket {b!r}.{hint} Failure buckets: "
                f"{', '.join(map(repr, failure_names))}."
            )


def key_codes(frame: pd.DataFrame, by: Sequence[str]) -> tuple[np.ndarray, pd.DataFrame]:
    """Dense int64 group code per row (sorted key order) and the key table (one row per group,
    taken from the group's first row), in one pass: :func:`~budgetlab.windows.groups.group_key_codes`.

    >>> codes, keys = key_codes(pd.DataFrame({"region": ["fra", "ams", "fra"]}), ["region"])
    >>> codes.tolist(), keys["region"].tolist()
    ([1, 0, 1], ['ams', 'fra'])
    """
    return group_key_codes(frame, by)


def _event_span(t: np.ndarray, start: Any, end: Any, freq_ns: int) -> tuple[np.ndarray, int, int]:
    """``(keep, first_bin, n_bins)``: the events inside ``[start, end)`` and the grid covering them."""
    keep = np.ones(len(t), dtype=bool)
    lo_ns = int(utc_timestamp(start, name="start").value) if start is not None else None
    hi_ns = int(utc_timestamp(end, name="end").value) if end is not None else None
    if lo_ns is not None and hi_ns is not None and hi_ns <= lo_ns:
        raise ConfigError("end must be after start.")
    if lo_ns is not None:
        keep &= t >= lo_ns
    if hi_ns is not None:
        keep &= t < hi_ns
    in_span = t[keep]
    t_min, t_max = (int(in_span.min()), int(in_span.max())) if len(in_span) else (None, None)
    first_bin, n_bins = grid_span(lo_ns, hi_ns, t_min, t_max, freq_ns)
    return keep, first_bin, n_bins


def grid_span(lo_ns: int | None, hi_ns: int | None, t_min: int | None, t_max: int | None,
              freq_ns: int) -> tuple[int, int]:
    """``(first_bin, n_bins)`` of a bin grid: from ``start``/``end`` where given (``lo_ns``,
    ``hi_ns``, end exclusive), else from the first/last event time; bins aligned on the epoch.
    Refuses an empty span.

    >>> grid_span(None, None, 90, 250, 60)
    (60, 4)
    """
    if lo_ns is not None:
        first_bin = (lo_ns // freq_ns) * freq_ns
    elif t_min is not None:
        first_bin = (t_min // freq_ns) * freq_ns
    else:
        raise InputError("there are no events to bin (empty table, or none inside start/end).")
    if hi_ns is not None:
        last_bin = ((hi_ns - 1) // freq_ns) * freq_ns
    elif t_max is not None:
        last_bin = (t_max // freq_ns) * freq_ns
    else:
        raise InputError("there are no events to bin after start; give end= to span an empty grid.")
    if last_bin < first_bin:
        raise InputError("there are no events to bin inside start/end.")
    return first_bin, (last_bin - first_bin) // freq_ns + 1


def check_grid_cells(n_groups: int, n_bins: int, *, columns: int = _CELL_COLUMNS, memory_limit: Any = None) -> None:
    """Refuse a dense bin grid whose arrays would not fit the memory budget
    (:func:`budgetlab._util.memory.memory_limit`: half of the physical memory, or
    ``$BUDGETLAB_MEMORY_LIMIT``): ``groups x bins x columns`` int64 values.

    >>> check_grid_cells(100, 1440, memory_limit="1GiB")
    >>> check_grid_cells(50_000, 525_600, memory_limit="8GiB")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: the bin grid (50000 group(s) x 525600 bin(s)) would need about 2.3 TiB, over the memory limit of 8.0 GiB; use a coarser freq=, fewer groups (by=), a shorter span (start=/end=), or raise the limit (BUDGETLAB_MEMORY_LIMIT=8GiB, default: half of the physical memory).
    """
    check_memory(float(n_groups) * float(n_bins) * 8.0 * columns,
                 f"the bin grid ({n_groups} group(s) x {n_bins} bin(s))",
                 ["use a coarser freq=", "fewer groups (by=)", "a shorter span (start=/end=)"], limit=memory_limit)


def bin_events(
    events: pd.DataFrame,
    freq: Any = "1min",
    *,
    by: str | Sequence[str] | None = None,
    start: Any = None,
    end: Any = None,
    dense: bool = False,
    **exclude: Unpack[ExcludeOptions],
) -> pd.DataFrame:
    """Count events per regular time bin (and group): the bins table.

    Parameters
    ----------
    events : DataFrame
        Canonical event table (``ts``, ``ok``, ``bucket``, group keys).
    freq : str, Timedelta or float
        Bin width (``"1min"``, ``"10s"``, ``"1h"``; a number is seconds). Bins are aligned on
        the Unix epoch and cover ``[bin_start, bin_start + freq)``.
    by : str or list of str, optional
        Group keys. Every group observed in ``events`` is in the table (at least its rows at the
        first and last bin), with or without events in the span.
    start, end : timestamp, optional
        Restrict to events with ``start <= ts < end`` and extend the grid to cover that span
        (default: from the first to the last event's bin).
    dense : bool
        ``False`` (default): the non-empty bins only (absent rows are bins without events),
        plus zero rows at the grid's first and last bin for every group. ``True``: one row per
        group and bin, empty bins as zeros (refused when it would not fit the memory limit).
    exclude_buckets : str or sequence of str
        Failure buckets dropped from ``bad`` **and** ``total`` ("not the solver's fault"), e.g.
        ``("timeout",)``. Their ``bad_<bucket>`` columns are left out of the result.
    exclude_windows : DataFrame or list of (start, end), optional
        Maintenance windows ``[start, end)`` (naive times are UTC).
    exclude_mode : {"drop", "good"}
        ``"drop"`` (default): events inside an excluded window are removed. ``"good"``: they
        count as successes (``bucket`` becomes ``success``).

    Returns
    -------
    DataFrame
        The bins table: group keys, ``bin_start``, ``total``, ``good``, ``bad``, then one
        ``bad_<bucket>`` column per failure bucket in bucket order; a row per non-empty bin
        (see ``dense``). ``attrs["freq"]`` holds the
        bin width label and ``attrs["by"]`` the group keys.

    Examples
    --------
    >>> from budgetlab.events.schema import as_events
    >>> ev = as_events(["2026-01-01 00:00:10", "2026-01-01 00:00:20", "2026-01-01 00:02:05"],
    ...                [True, False, False], ["success", "timeout", "solve_error"])
    >>> b = bin_events(ev, "1min")
    >>> b[["bin_start", "total", "good", "bad", "bad_timeout", "bad_solve_error"]]
                      bin_start  total  good  bad  bad_timeout  bad_solve_error
    0 2026-01-01 00:00:00+00:00      2     1    1            1                0
    1 2026-01-01 00:02:00+00:00      1     0    1            0                1
    >>> bin_events(ev, "1min", exclude_buckets="timeout", dense=True)["total"].tolist()
    [1, 0, 1]
    """
    keys = check_events(events, by)
    freq_ns = to_ns(freq, name="freq")
    exclusions = Exclusions.of(**exclude)
    t = ts_ns(events)
    ok = events["ok"].to_numpy(dtype=bool)
    codes, categories = _bucket_codes(events, ok)
    _check_bucket_names(exclusions.buckets, categories)
    group_code, key_table = key_codes(events, keys)
    keep, first_bin, n_bins = _event_span(t, start, end, freq_ns)
    keep, fail, codes = exclusions.apply_to_events(t, ~ok, codes, keep, categories)
    if dense:
        check_grid_cells(len(key_table), n_bins, columns=7 + 3 * len(categories))
    cell_group, cell_bin, total, bad, per_code = event_cells(group_code, t, fail, codes, len(key_table), len(categories),
                                                             first_bin=first_bin, freq_ns=freq_ns, keep=keep)
    grid = BinGrid(key_table, keys, first_bin, freq_ns, n_bins, cell_group, cell_bin, total, bad, exclusions)
    per_name = {f"bad_{name}": per_code[:, code] for code, name in enumerate(categories)
                if name != SUCCESS and name not in exclusions.buckets}
    return grid.to_table(per_name, dense=dense)


#: What the SRE-model functions take as ``bins``: a bins table, or the grid :func:`read_bins` made of one.
BinsLike: TypeAlias = pd.DataFrame | BinGrid


def _count_columns(columns: Iterable[Any]) -> set[str]:
    cols = {str(c) for c in columns}
    return {c for c in cols if c in COUNT_COLUMNS or c == "bin_start" or c.startswith("bad_")}


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
        raise InputError(f"bins must be a DataFrame from budgetlab.bin_events(), got {type(bins).__name__}.")
    for col in ("bin_start", "total", "bad"):
        if col not in bins.columns:
            raise SchemaError(f"bins has no column {col!r}; make the table with budgetlab.bin_events().")
    if len(bins) == 0:
        raise InputError("bins is empty; make it with budgetlab.bin_events() from a non-empty event table.")


def _bin_offsets(bins: pd.DataFrame, freq: Any) -> tuple[int, int, np.ndarray]:
    """``(start_ns, freq_ns, offsets)`` of the ``bin_start`` column; ``freq`` defaults to
    ``attrs["freq"]``, else the greatest common spacing."""
    bs = bins["bin_start"]
    if not isinstance(bs.dtype, pd.DatetimeTZDtype):
        raise SchemaError("bins['bin_start'] must be datetime64[ns, UTC]; make the table with budgetlab.bin_events().")
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
    if not pd.api.types.is_numeric_dtype(col.dtype) or pd.api.types.is_bool_dtype(col.dtype) or col.isna().any():
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
                f"bins has no column {col!r} to exclude (buckets present: {', '.join(map(repr, present))}); "
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
                          "exclude_buckets / exclude_windows to read_bins() (or bin_events()) once, not again.")
    if freq is not None and to_ns(freq, name="freq") != grid.freq_ns:
        raise ConfigError(f"freq={freq!r} differs from the bin width of the BinGrid "
                          f"({duration_label(pd.Timedelta(grid.freq_ns, unit='ns'))}).")
    return grid


def read_bins(
    bins: BinsLike,
    *,
    freq: Any = None,
    exclude_buckets: str | Sequence[str] | None = (),
    exclude_windows: Any = None,
    exclude_mode: str = "drop",
) -> BinGrid:
    """Validate a bins table and turn it into a :class:`BinGrid`, after exclusions.

    Every SRE-model function reads its ``bins`` here, once. ``freq`` defaults to
    ``bins.attrs["freq"]`` or the greatest common spacing of ``bin_start``. Rows missing from a
    group's grid count as empty bins; duplicated ``(group, bin_start)`` rows are an error.
    ``exclude_buckets`` subtracts the ``bad_<bucket>`` columns from ``bad`` and ``total``.
    ``exclude_windows`` works at bin resolution here: a bin is excluded when its ``bin_start``
    lies in a window ``[start, end)`` (exact when the windows are on the bin grid; use
    :func:`bin_events` for event-exact exclusion). ``exclude_mode="drop"`` empties those bins,
    ``"good"`` turns their failures into successes. The grid spans from the first to the last
    ``bin_start`` of the table; its groups are those with a row.

    A :class:`BinGrid` is returned as it is: it was read once already, so exclusions (or a
    different ``freq``) given with it are an error.

    >>> from budgetlab.events.schema import as_events
    >>> b = bin_events(as_events(["2026-01-01 00:00:10", "2026-01-01 00:01:10"], [False, True],
    ...                          ["timeout", "success"]), "1min")
    >>> grid = read_bins(b, exclude_buckets="timeout")
    >>> grid.total.tolist(), grid.exclusions.buckets, read_bins(grid) is grid
    ([[0, 1]], ('timeout',), True)
    >>> read_bins(grid, exclude_buckets="timeout")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: bins is a BinGrid, whose exclusions were applied when it was read; ...
    """
    exclusions = Exclusions.of(exclude_buckets=exclude_buckets, exclude_windows=exclude_windows,
                               exclude_mode=exclude_mode)
    if isinstance(bins, BinGrid):
        return _as_read(bins, freq, exclusions)
    _check_table(bins)
    by = bin_keys(bins)
    start_ns, freq_ns, offsets = _bin_offsets(bins, freq)
    n_bins = int(offsets.max() // freq_ns) + 1
    codes, keys = key_codes(bins, by)
    cell_bin = offsets // freq_ns
    flat = codes * n_bins + cell_bin
    tot_rows, bad_rows = _row_counts(bins, exclusions.buckets)
    if len(flat) > 1 and not bool(np.all(flat[1:] > flat[:-1])):  # not in grid order (what bin_events makes)
        order = np.argsort(flat, kind="stable")
        flat, tot_rows, bad_rows = flat[order], tot_rows[order], bad_rows[order]
        if bool(np.any(flat[1:] == flat[:-1])):
            raise InputError("bins has duplicated (group, bin_start) rows; each group needs one row per bin.")
        codes, cell_bin = flat // n_bins, flat % n_bins
    if len(exclusions.windows):
        inside = exclusions.inside(start_ns + cell_bin * freq_ns)
        if exclusions.mode == "drop":
            tot_rows = np.where(inside, 0, tot_rows)
        bad_rows = np.where(inside, 0, bad_rows)
    nonzero = tot_rows > 0
    return BinGrid(keys, by, start_ns, freq_ns, n_bins, codes[nonzero], cell_bin[nonzero], tot_rows[nonzero],
                   bad_rows[nonzero], exclusions)


def window_bins(window: Any, freq_ns: int, *, name: str = "window") -> int:
    """Number of bins in ``window``; the window must be a whole number of bins.

    >>> window_bins("1h", 60 * 10**9)
    60
    """
    ns = to_ns(window, name=name)
    if ns % freq_ns:
        raise ConfigError(
            f"{name}={duration_label(to_timedelta(window, name=name))} is not a whole number of bins of "
            f"{duration_label(pd.Timedelta(freq_ns, unit='ns'))}; bin the events with a freq that divides it."
        )
    return ns // freq_ns
