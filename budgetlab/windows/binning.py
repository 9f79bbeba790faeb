"""Binning: events counted per regular time bin and group, the bins table
(:func:`bin_events`; the table's contract is in :mod:`budgetlab.windows.bins`)."""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from typing import Any, Unpack

import numpy as np
import pandas as pd

from .._util.memory import check_cells
from .._util.validation import to_ns, utc_timestamp
from ..errors import ConfigError, InputError, OutcomeError
from ..events.schema import SOLVE_ERROR, SUCCESS, bucket_dtype, check_events, ts_ns
from .bingrid import BinGrid
from .exclusions import ExcludeOptions, Exclusions
from .groups import group_key_codes
from .kernels import event_cells

__all__ = ["COUNT_COLUMNS", "bin_events", "bucket_codes", "check_grid_cells", "grid_span",
           "span_ns"]

#: The count columns every bins table has (plus one ``bad_<bucket>`` per failure bucket).
COUNT_COLUMNS = ("total", "good", "bad")
# int64 values held per grid cell at the peak of bin_events: total, bad, good, bin_start and the
# bucket counts (a few buckets) in the table, plus the bincount arrays it is built from
_CELL_COLUMNS = 12


def bucket_codes(events: pd.DataFrame,
                 ok: np.ndarray | None = None) -> tuple[np.ndarray, list[str]]:
    """Bucket code of every event and the bucket names (``success`` first, as
    :func:`~budgetlab.events.schema.bucket_dtype`), checked against ``ok`` (``events["ok"]``
    unless given).

    Events without a ``bucket`` column count as ``success`` / ``solve_error`` by ``ok``. Raises
    :class:`~budgetlab.errors.OutcomeError` when ``ok`` and ``bucket`` disagree.

    >>> from budgetlab.events.schema import as_events
    >>> ev = as_events(["2026-01-01"] * 3, [True, False, False], ["success", "timeout",
    ...                                                           "solve_error"])
    >>> codes, names = bucket_codes(ev)
    >>> codes.tolist(), names
    ([0, 1, 2], ['success', 'timeout', 'solve_error'])
    """
    ok = events["ok"].to_numpy(dtype=bool) if ok is None else ok
    if "bucket" not in events.columns:
        names = list(bucket_dtype().categories)
        return np.where(ok, names.index(SUCCESS), names.index(SOLVE_ERROR)).astype(np.int64), names
    col = events["bucket"]
    if isinstance(col.dtype, pd.CategoricalDtype):
        cat = col.cat.set_categories(list(bucket_dtype([str(c) for c in
                                                        col.cat.categories]).categories))
    else:
        text = col.astype(str)
        cat = text.astype(bucket_dtype(pd.unique(text)))
    if cat.isna().any():
        raise OutcomeError("events['bucket'] has missing values; every event needs a bucket "
                           "(success, timeout, ...).")
    codes = cat.cat.codes.to_numpy().astype(np.int64)
    names = [str(c) for c in cat.cat.categories]
    is_success = codes == names.index(SUCCESS)
    if bool(np.any(ok & ~is_success)):
        raise OutcomeError("events' 'ok' and 'bucket' disagree: successful rows (ok=True) have a "
                           "failure bucket; fix the outcome mapping.")
    if bool(np.any(~ok & is_success)):
        raise OutcomeError("events' 'ok' and 'bucket' disagree: failed rows (ok=False) have the "
                           "bucket 'success'; fix the outcome mapping.")
    return codes, names


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


def span_ns(start: Any, end: Any) -> tuple[int | None, int | None]:
    """``start`` and ``end`` (either may be ``None``) in int64 ns UTC, refused unless
    ``end > start``."""
    lo_ns = int(utc_timestamp(start, name="start").value) if start is not None else None
    hi_ns = int(utc_timestamp(end, name="end").value) if end is not None else None
    if lo_ns is not None and hi_ns is not None and hi_ns <= lo_ns:
        raise ConfigError("end must be after start.")
    return lo_ns, hi_ns


def _event_span(t: np.ndarray, start: Any, end: Any, freq_ns: int) -> tuple[np.ndarray, int, int]:
    """``(keep, first_bin, n_bins)``: the events inside ``[start, end)`` and the grid covering
    them."""
    keep = np.ones(len(t), dtype=bool)
    lo_ns, hi_ns = span_ns(start, end)
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


def check_grid_cells(n_groups: int, n_bins: int, *, columns: int = _CELL_COLUMNS,
                     memory_limit: Any = None) -> None:
    """Refuse a dense bin grid whose arrays would not fit the memory budget
    (:func:`budgetlab._util.memory.memory_limit`: half of the physical memory, or
    ``$BUDGETLAB_MEMORY_LIMIT``): ``groups x bins x columns`` int64 values.

    >>> check_grid_cells(100, 1440, memory_limit="1GiB")
    >>> check_grid_cells(50_000, 525_600, memory_limit="8GiB")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: the bin grid (50,000 groups x 525,600 bins) would need about 2.3
    TiB, over the memory limit of 8.0 GiB; use a coarser freq=, fewer groups (by=), a shorter span
    (start=/end=), or raise the limit (BUDGETLAB_MEMORY_LIMIT=8GiB, default: half of the physical
    memory).
    """
    check_cells(n_groups, n_bins, 8.0 * columns, "the bin grid",
                ["use a coarser freq=", "fewer groups (by=)", "a shorter span (start=/end=)"],
                limit=memory_limit)


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
        ``bad_<bucket>`` column per failure bucket in bucket order; a row per non-empty bin (see
        ``dense``). ``attrs["freq"]`` holds the bin width label and ``attrs["by"]`` the group keys;
        when something is excluded, ``attrs`` names it (``exclude_buckets``, ``exclude_windows``
        as ``[start, end]`` ISO-8601 pairs, merged, and ``exclude_mode``:
        :func:`~budgetlab.windows.exclusions.exclusion_attrs`), and the SRE-model tables made
        of the bins carry it on.

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
    codes, categories = bucket_codes(events, ok)
    _check_bucket_names(exclusions.buckets, categories)
    group_code, key_table = group_key_codes(events, keys)
    keep, first_bin, n_bins = _event_span(t, start, end, freq_ns)
    keep, fail, codes = exclusions.apply_to_events(t, ~ok, codes, keep, categories)
    if dense:
        check_grid_cells(len(key_table), n_bins, columns=7 + 3 * len(categories))
    cell_group, cell_bin, total, bad, per_code = event_cells(group_code, t, fail, codes,
                                                             len(key_table), len(categories),
                                                             first_bin=first_bin, freq_ns=freq_ns,
                                                             keep=keep)
    grid = BinGrid(key_table, keys, first_bin, freq_ns, n_bins, cell_group, cell_bin, total, bad,
                   exclusions)
    per_name = {f"bad_{name}": per_code[:, code] for code, name in enumerate(categories)
                if name != SUCCESS and name not in exclusions.buckets}
    return grid.to_table(per_name, dense=dense)
