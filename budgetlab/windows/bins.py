"""Time-grid bins: event counts per regular time bin and group (the SRE model's input).

The **bins table** is the contract every function of the SRE model (burn rates, period budgets,
alert policies, low-traffic diagnostics) reads. One row per group and bin:

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

Every group spans the same full regular grid, from the first to the last bin of the whole input;
empty bins are rows with zeros (traffic gaps are data). Rows are sorted by group keys, then
``bin_start``. Bins are aligned on the Unix epoch (a ``"1D"`` bin starts at 00:00 UTC).
``bins.attrs["freq"]`` and ``bins.attrs["by"]`` record how the table was made, but pandas
operations may drop ``attrs``: every function that takes ``bins`` also takes ``freq=`` and
otherwise infers it from the ``bin_start`` spacing, and takes the group keys to be every column
that is not a count column.

**Time of evaluation.** A bin is evaluated at its end, ``bin_end = bin_start + freq``: everything
computed "at" a time ``t`` (burn rates, alert states, budgets) uses the events with ``ts < t``.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .._util.validation import check_argument, duration_label, to_ns, to_timedelta, utc_from_ns
from ..errors import ConfigError, InputError, OutcomeError, SchemaError
from ..events.schema import SOLVE_ERROR, SUCCESS, bucket_dtype, check_events, ts_ns
from .groups import group_key_codes

__all__ = [
    "COUNT_COLUMNS",
    "BinGrid",
    "bin_events",
    "read_bins",
    "bin_keys",
    "window_bins",
    "duration_label",
    "exclusion_intervals",
]

#: The count columns every bins table has (plus one ``bad_<bucket>`` per failure bucket).
COUNT_COLUMNS = ("total", "good", "bad")
_EXCLUDE_MODES = ("drop", "good")


def _utc_ns(value: Any, name: str) -> int:
    try:
        ts = pd.Timestamp(value)
    except (ValueError, TypeError):
        raise ConfigError(f"{name} is not a timestamp; give e.g. '2026-01-01 00:00' (UTC) or a Timestamp.") from None
    if pd.isna(ts):
        raise ConfigError(f"{name} is missing (NaT); give a timestamp.")
    ts = ts.tz_localize("UTC") if ts.tzinfo is None else ts.tz_convert("UTC")
    return int(ts.as_unit("ns").value)


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
            raise ConfigError("exclude_windows as a table needs columns 'start' and 'end' (end exclusive).")
        pairs: Iterable[Any] = zip(exclude_windows["start"], exclude_windows["end"], strict=True)
    elif isinstance(exclude_windows, (str, bytes)) or not isinstance(exclude_windows, Iterable):
        raise ConfigError(
            "exclude_windows takes a table with 'start'/'end' columns or a list of (start, end) pairs."
        )
    else:
        pairs = exclude_windows
    rows = []
    for pair in pairs:
        try:
            start, end = pair
        except (TypeError, ValueError):
            raise ConfigError("each exclude_windows item must be a (start, end) pair.") from None
        s, e = _utc_ns(start, "exclude_windows start"), _utc_ns(end, "exclude_windows end")
        if e <= s:
            raise ConfigError("each exclude_windows item needs end > start (the window is [start, end)).")
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


def _inside(t: np.ndarray, intervals: np.ndarray) -> np.ndarray:
    """Boolean mask: ``t`` lies in one of the merged ``[start, end)`` intervals."""
    if len(intervals) == 0:
        return np.zeros(len(t), dtype=bool)
    pos = np.searchsorted(intervals.ravel(), t, side="right")
    return np.asarray((pos % 2) == 1, dtype=bool)


def _check_mode(exclude_mode: str) -> str:
    return str(check_argument("exclude_mode", exclude_mode, _EXCLUDE_MODES))


def _bucket_names(value: str | Sequence[str] | None, *, name: str = "exclude_buckets") -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    out = list(value)
    for b in out:
        if not isinstance(b, str):
            raise ConfigError(f"{name} takes bucket names (strings) such as 'timeout'.")
    return out


def bin_events(
    events: pd.DataFrame,
    freq: Any = "1min",
    *,
    by: str | Sequence[str] | None = None,
    exclude_buckets: str | Sequence[str] | None = (),
    exclude_windows: Any = None,
    exclude_mode: str = "drop",
    start: Any = None,
    end: Any = None,
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
        Group keys. Every group observed in ``events`` gets the full grid.
    exclude_buckets : str or sequence of str
        Failure buckets dropped from ``bad`` **and** ``total`` ("not the solver's fault"), e.g.
        ``("timeout",)``. Their ``bad_<bucket>`` columns are left out of the result.
    exclude_windows : DataFrame or list of (start, end), optional
        Maintenance windows ``[start, end)`` (naive times are UTC).
    exclude_mode : {"drop", "good"}
        ``"drop"``: events inside an excluded window are removed. ``"good"``: they count as
        successes (``bucket`` becomes ``success``).
    start, end : timestamp, optional
        Restrict to events with ``start <= ts < end`` and extend the grid to cover that span
        (default: from the first to the last event's bin).

    Returns
    -------
    DataFrame
        The bins table: group keys, ``bin_start``, ``total``, ``good``, ``bad``, then one
        ``bad_<bucket>`` column per failure bucket in bucket order. ``attrs["freq"]`` holds the
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
    1 2026-01-01 00:01:00+00:00      0     0    0            0                0
    2 2026-01-01 00:02:00+00:00      1     0    1            0                1
    >>> bin_events(ev, "1min", exclude_buckets="timeout")["total"].tolist()
    [1, 0, 1]
    """
    keys = check_events(events, by)
    freq_ns = to_ns(freq, name="freq")
    mode = _check_mode(exclude_mode)
    excluded = _bucket_names(exclude_buckets)
    t = ts_ns(events)
    ok = events["ok"].to_numpy(dtype=bool)

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
    failure_names = [c for c in categories if c != SUCCESS]
    for b in excluded:
        if b not in failure_names:
            close = difflib.get_close_matches(b, failure_names, n=2, cutoff=0.5)
            hint = f" Did you mean {', '.join(map(repr, close))}?" if close else ""
            raise ConfigError(
                f"exclude_buckets names unknown failure bucket {b!r}.{hint} Failure buckets: "
                f"{', '.join(map(repr, failure_names))}."
            )

    group_code, key_table = group_key_codes(events, keys)

    keep = np.ones(len(t), dtype=bool)
    lo_ns = _utc_ns(start, "start") if start is not None else None
    hi_ns = _utc_ns(end, "end") if end is not None else None
    if lo_ns is not None and hi_ns is not None and hi_ns <= lo_ns:
        raise ConfigError("end must be after start.")
    if lo_ns is not None:
        keep &= t >= lo_ns
    if hi_ns is not None:
        keep &= t < hi_ns
    in_span = t[keep]
    if lo_ns is not None:
        first_bin = (lo_ns // freq_ns) * freq_ns
    elif len(in_span):
        first_bin = (int(in_span.min()) // freq_ns) * freq_ns
    else:
        raise InputError("there are no events to bin (empty table, or none inside start/end).")
    if hi_ns is not None:
        last_bin = ((hi_ns - 1) // freq_ns) * freq_ns
    elif len(in_span):
        last_bin = (int(in_span.max()) // freq_ns) * freq_ns
    else:
        raise InputError("there are no events to bin after start; give end= to span an empty grid.")
    if last_bin < first_bin:
        raise InputError("there are no events to bin inside start/end.")
    n_bins = (last_bin - first_bin) // freq_ns + 1
    n_groups = len(key_table)
    if n_groups * n_bins > 500_000_000:
        raise ConfigError("the bin grid would exceed 500 million cells; use a coarser freq= or a shorter span.")

    # exclusions (event level: exact)
    fail = ~ok
    if excluded:
        excl_codes = np.array([categories.index(b) for b in excluded], dtype=np.int64)
        keep &= ~(fail & np.isin(codes, excl_codes))
    intervals = exclusion_intervals(exclude_windows)
    if len(intervals):
        inside = _inside(t, intervals)
        if mode == "drop":
            keep &= ~inside
        else:
            fail = fail & ~inside
            codes = np.where(inside, success_code, codes)

    idx = group_code[keep] * n_bins + (t[keep] - first_bin) // freq_ns
    f_keep = fail[keep]
    size = n_groups * n_bins
    total = np.bincount(idx, minlength=size).astype(np.int64)
    bad = np.bincount(idx[f_keep], minlength=size).astype(np.int64)
    n_cat = len(categories)
    per_bucket = np.bincount(idx[f_keep] * n_cat + codes[keep][f_keep], minlength=size * n_cat)
    per_bucket = per_bucket.astype(np.int64).reshape(size, n_cat)

    starts = first_bin + np.arange(n_bins, dtype=np.int64) * freq_ns
    out = key_table.iloc[np.repeat(np.arange(n_groups), n_bins)].reset_index(drop=True) if keys else pd.DataFrame()
    out["bin_start"] = utc_from_ns(np.tile(starts, n_groups))
    out["total"] = total
    out["good"] = total - bad
    out["bad"] = bad
    for code, name in enumerate(categories):
        if name == SUCCESS or name in excluded:
            continue
        out[f"bad_{name}"] = per_bucket[:, code]
    out.attrs["freq"] = duration_label(pd.Timedelta(freq_ns, unit="ns"))
    out.attrs["by"] = list(keys)
    return out


@dataclass(frozen=True)
class BinGrid:
    """A bins table as dense ``(groups, bins)`` arrays (what the vectorized kernels use).

    ``keys`` holds one row per group (no columns when ungrouped); ``total`` and ``bad`` are
    int64 arrays of shape ``(len(keys), n_bins)`` after exclusions.
    """

    keys: pd.DataFrame
    by: list[str]
    start_ns: int
    freq_ns: int
    total: np.ndarray
    bad: np.ndarray

    @property
    def n_groups(self) -> int:
        return int(self.total.shape[0])

    @property
    def n_bins(self) -> int:
        return int(self.total.shape[1])

    @property
    def bin_start_ns(self) -> np.ndarray:
        return self.start_ns + np.arange(self.n_bins, dtype=np.int64) * self.freq_ns

    @property
    def bin_end_ns(self) -> np.ndarray:
        return self.bin_start_ns + self.freq_ns

    def long_keys(self, repeat: int) -> pd.DataFrame:
        """Group keys repeated ``repeat`` times per group (for long output tables)."""
        if not self.by:
            return pd.DataFrame(index=pd.RangeIndex(self.n_groups * repeat))
        return self.keys.iloc[np.repeat(np.arange(self.n_groups), repeat)].reset_index(drop=True)


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


def read_bins(
    bins: pd.DataFrame,
    *,
    freq: Any = None,
    exclude_buckets: str | Sequence[str] | None = (),
    exclude_windows: Any = None,
    exclude_mode: str = "drop",
) -> BinGrid:
    """Validate a bins table and turn it into a :class:`BinGrid` (after exclusions).

    ``freq`` defaults to ``bins.attrs["freq"]`` or the greatest common spacing of
    ``bin_start``. Rows missing from a group's grid count as empty bins; duplicated
    ``(group, bin_start)`` rows are an error. ``exclude_buckets`` subtracts the
    ``bad_<bucket>`` columns from ``bad`` and ``total``. ``exclude_windows`` works at bin
    resolution here: a bin is excluded when its ``bin_start`` lies in a window ``[start, end)``
    (exact when the windows are on the bin grid; use :func:`bin_events` for event-exact
    exclusion). ``exclude_mode="drop"`` empties those bins, ``"good"`` turns their failures
    into successes.
    """
    if not isinstance(bins, pd.DataFrame):
        raise InputError(f"bins must be a DataFrame from budgetlab.bin_events(), got {type(bins).__name__}.")
    for col in ("bin_start", "total", "bad"):
        if col not in bins.columns:
            raise SchemaError(f"bins has no column {col!r}; make the table with budgetlab.bin_events().")
    if len(bins) == 0:
        raise InputError("bins is empty; make it with budgetlab.bin_events() from a non-empty event table.")
    mode = _check_mode(exclude_mode)
    excluded = _bucket_names(exclude_buckets)
    by = bin_keys(bins)
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
    n_bins = int(offsets.max() // freq_ns) + 1
    codes, keys = group_key_codes(bins, by)
    n_groups = len(keys)
    flat = codes * n_bins + offsets // freq_ns
    if int(np.bincount(flat, minlength=n_groups * n_bins).max()) > 1:
        raise InputError("bins has duplicated (group, bin_start) rows; each group needs one row per bin.")

    def _ints(name: str) -> np.ndarray:
        col = bins[name]
        if not pd.api.types.is_numeric_dtype(col.dtype) or pd.api.types.is_bool_dtype(col.dtype) or col.isna().any():
            raise SchemaError(f"bins[{name!r}] must hold whole numbers (int64) without missing values.")
        arr = col.to_numpy()
        if arr.dtype.kind == "f":
            if not bool(np.all(np.isfinite(arr))) or bool(np.any(arr != np.round(arr))):
                raise SchemaError(f"bins[{name!r}] must hold whole numbers.")
        arr = arr.astype(np.int64)
        if bool(np.any(arr < 0)):
            raise InputError(f"bins[{name!r}] has negative counts.")
        return arr

    tot_rows = _ints("total")
    bad_rows = _ints("bad")
    if bool(np.any(bad_rows > tot_rows)):
        raise InputError("bins has rows with bad > total.")
    for b in excluded:
        col = f"bad_{b}"
        if col not in bins.columns:
            present = sorted(str(c)[4:] for c in bins.columns if str(c).startswith("bad_"))
            raise ConfigError(
                f"bins has no column {col!r} to exclude (buckets present: {', '.join(map(repr, present))}); "
                "it may have been excluded by bin_events() already."
            )
        sub = _ints(col)
        if bool(np.any(sub > bad_rows)):
            raise InputError(f"bins[{col!r}] exceeds 'bad' in some rows.")
        tot_rows = tot_rows - sub
        bad_rows = bad_rows - sub
    total_flat = np.zeros(n_groups * n_bins, dtype=np.int64)
    bad_flat = np.zeros(n_groups * n_bins, dtype=np.int64)
    total_flat[flat] = tot_rows
    bad_flat[flat] = bad_rows
    total = total_flat.reshape(n_groups, n_bins)
    bad = bad_flat.reshape(n_groups, n_bins)
    intervals = exclusion_intervals(exclude_windows)
    if len(intervals):
        inside = _inside(start_ns + np.arange(n_bins, dtype=np.int64) * freq_ns, intervals)
        if mode == "drop":
            total[:, inside] = 0
        bad[:, inside] = 0
    return BinGrid(keys=keys, by=by, start_ns=start_ns, freq_ns=freq_ns, total=total, bad=bad)


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
