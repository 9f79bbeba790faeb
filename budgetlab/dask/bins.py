"""``bin_events`` on Dask: partitions binned on the workers, partial counts summed in a tree."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Unpack

import dask.dataframe as dd
import numpy as np
import pandas as pd
from dask.delayed import delayed

from .._util.validation import check_whole, to_ns
from ..errors import BudgetlabError
from ..events.schema import SUCCESS, bucket_dtype, ts_ns
from ..windows.bingrid import BinGrid
from ..windows.binning import bin_events as pandas_bin_events
from ..windows.binning import grid_span, span_ns
from ..windows.exclusions import ExcludeOptions, Exclusions
from ._partitions import check_dask_events, partition_error, partition_number

__all__ = ["bin_events"]


@dataclass
class _Partial:
    """Partial bin counts of some partitions: nonzero bins only, plus what fixes the grid."""

    groups: pd.DataFrame  # unique key rows seen (before start/end); no columns when ungrouped
    rows: int  # events seen
    t_min: int | None  # first/last event time inside start/end (ns)
    t_max: int | None
    counts: pd.DataFrame | None  # keys, "bin" (int64 bin number since the epoch), count columns


def _bin_partition(part: pd.DataFrame, partition_info: Mapping[str, Any] | None = None, *,
                   keys: list[str],
                   freq_ns: int, lo: int | None, hi: int | None,
                   exclude: ExcludeOptions) -> _Partial:
    number = partition_number(partition_info)
    groups = part[keys].drop_duplicates(ignore_index=True) if keys else pd.DataFrame()
    if len(part) == 0:
        return _Partial(groups, 0, None, None, None)
    if not part["ts"].is_monotonic_increasing:
        part = part.sort_values("ts", kind="stable")
    t = ts_ns(part)
    inside = np.ones(len(t), dtype=bool)
    if lo is not None:
        inside &= t >= lo
    if hi is not None:
        inside &= t < hi
    t_in = t[inside]
    if len(t_in) == 0:
        return _Partial(groups, len(t), None, None, None)
    # clamp start/end to this partition: same events kept, grid limited to the partition's span
    start = None if lo is None else pd.Timestamp(max(lo, int(t[0])), tz="UTC")
    end = None if hi is None else pd.Timestamp(min(hi, int(t[-1]) + 1), tz="UTC")
    try:
        b = pandas_bin_events(part, pd.Timedelta(freq_ns, unit="ns"), by=keys, start=start, end=end,
                              **exclude)
    except BudgetlabError as exc:
        raise partition_error(exc, number) from None
    b = b[b["total"].to_numpy() != 0]
    b = b.assign(bin=np.asarray(b["bin_start"].array.asi8,
                                dtype=np.int64) // freq_ns).drop(columns="bin_start")
    return _Partial(groups, len(t), int(t_in[0]), int(t_in[-1]), b.reset_index(drop=True))


def _merge_partials(parts: list[_Partial], keys: list[str]) -> _Partial:
    groups = pd.DataFrame()
    if keys:
        groups = pd.concat([p.groups for p in parts],
                           ignore_index=True).drop_duplicates(ignore_index=True)
    mins = [p.t_min for p in parts if p.t_min is not None]
    maxs = [p.t_max for p in parts if p.t_max is not None]
    frames = [p.counts for p in parts if p.counts is not None and len(p.counts)]
    counts = None
    if frames:
        counts = pd.concat(frames, ignore_index=True)
        if len(frames) > 1:
            counts = counts.groupby([*keys, "bin"], sort=False, observed=True,
                                    dropna=False).sum().reset_index()
    return _Partial(groups, sum(p.rows for p in parts), min(mins) if mins else None,
                    max(maxs) if maxs else None,
                    counts)


def _bins_table(total: _Partial, keys: list[str], bucket_cols: list[str], first_bin: int,
                n_bins: int,
                freq_ns: int, dense: bool, exclusions: Exclusions) -> pd.DataFrame:
    """The bins table (non-empty bins, see :func:`budgetlab.bin_events`) from the merged nonzero
    bins, after ``exclusions`` (named in its ``attrs``)."""
    if keys:
        order = total.groups.groupby(keys, sort=True, observed=True,
                                     dropna=False).ngroup().to_numpy()
        key_table = total.groups.iloc[np.argsort(order, kind="stable")].reset_index(drop=True)
    else:
        key_table = pd.DataFrame(index=pd.RangeIndex(1))
    n_groups = len(key_table)
    counts = total.counts
    if counts is None or not len(counts):
        counts = pd.DataFrame({c: np.empty(0, dtype=np.int64) for c in ("bin", "total", "bad",
                                                                        *bucket_cols)})
        codes: np.ndarray = np.empty(0, dtype=np.int64)
    elif keys:
        both = pd.concat([key_table[keys], counts[keys]], ignore_index=True)
        codes = both.groupby(keys, sort=True, observed=True,
                             dropna=False).ngroup().to_numpy()[n_groups:]
    else:
        codes = np.zeros(len(counts), dtype=np.int64)
    flat = codes.astype(np.int64) * n_bins + (
        counts["bin"].to_numpy(dtype=np.int64) - first_bin // freq_ns
    )
    order = np.argsort(flat, kind="stable")
    flat = flat[order]
    col = {c: counts[c].to_numpy(dtype=np.int64)[order] for c in ("total", "bad", *bucket_cols)}
    grid = BinGrid(key_table, list(keys), first_bin, freq_ns, n_bins, flat // n_bins, flat % n_bins,
                   col["total"],
                   col["bad"], exclusions)
    return grid.to_table({c: col[c] for c in bucket_cols}, dense=dense)


def bin_events(
    events: dd.DataFrame,
    freq: Any = "1min",
    *,
    by: str | Sequence[str] | None = None,
    start: Any = None,
    end: Any = None,
    dense: bool = False,
    split_every: int = 8,
    **exclude: Unpack[ExcludeOptions],
) -> pd.DataFrame:
    """Count events per regular time bin (and group) on Dask; the bins table comes back as pandas.

    Each partition is binned on the workers with :func:`budgetlab.windows.binning.bin_events`
    (bins aligned on the Unix epoch, so partial counts add up), only nonzero bins travel, and
    partials are summed in a tree of ``split_every`` at a time. The result equals pandas
    ``bin_events`` on the whole table (non-empty bins, the zero rows at the grid's first and last
    bin, every bin with ``dense=True``, the ``bad_<bucket>`` columns), so every SRE-model
    analysis (``burn_rates``, ``period_budget``, ``alert_episodes``, ...) runs on it unchanged.

    Parameters
    ----------
    events : dask DataFrame
        From :func:`read_events` (``bucket`` and group keys with known categories).
    freq, by, start, end, dense, exclude_buckets, exclude_windows, exclude_mode
        As in :func:`budgetlab.windows.binning.bin_events`.
    split_every : int
        Partials merged per step of the reduction tree.

    Returns
    -------
    DataFrame
        The bins table (pandas): group keys, ``bin_start``, ``total``, ``good``, ``bad``,
        ``bad_<bucket>``, a row per non-empty bin (absent rows are bins without events);
        ``attrs["freq"]``, ``attrs["by"]`` and the exclusions as in the pandas function.

    Examples
    --------
    >>> import dask.dataframe as dd
    >>> from budgetlab.events.schema import as_events
    >>> ev = as_events(["2026-01-01 00:00:10", "2026-01-01 00:00:20", "2026-01-01 00:02:05"],
    ...                [True, False, False], ["success", "timeout", "solve_error"])
    >>> b = bin_events(dd.from_pandas(ev, npartitions=2, sort=False), "1min")
    >>> b[["bin_start", "total", "bad", "bad_timeout", "bad_solve_error"]]
                      bin_start  total  bad  bad_timeout  bad_solve_error
    0 2026-01-01 00:00:00+00:00      2    1            1                0
    1 2026-01-01 00:02:00+00:00      1    1            0                1
    """
    keys = check_dask_events(events, by, "budgetlab.bin_events")
    freq_ns = to_ns(freq, name="freq")
    exclusions = Exclusions.of(**exclude)  # bad options fail here, before any work
    check_whole("split_every", split_every, low=2)
    lo, hi = span_ns(start, end)

    columns = ["ts", "ok", *(["bucket"] if "bucket" in events.columns else []), *keys]
    parts = events[list(dict.fromkeys(columns))].to_delayed()
    tasks = [delayed(_bin_partition)(p, {"number": n}, keys=keys, freq_ns=freq_ns, lo=lo, hi=hi,
                                     exclude=exclude)
             for n, p in enumerate(parts)]
    while len(tasks) > 1:
        tasks = [delayed(_merge_partials)(tasks[i:i + split_every], keys)
                 for i in range(0, len(tasks), split_every)]
    total: _Partial = tasks[0].compute()  # one partition's partial is already merged
    first_bin, n_bins = grid_span(lo, hi, total.t_min, total.t_max, freq_ns)

    labels = (
        [str(c) for c in events._meta["bucket"].cat.categories]
        if "bucket" in events.columns
        else []
    )
    categories = [str(c) for c in bucket_dtype(labels).categories]
    bucket_cols = [f"bad_{c}" for c in categories if c != SUCCESS and c not in exclusions.buckets]
    return _bins_table(total, keys, bucket_cols, first_bin, n_bins, freq_ns, dense, exclusions)
