"""Multi-window burn rates on the bin grid (Google SRE Workbook, ch. 5).

**Window edge convention.** Evaluation happens at every bin end ``t = bin_start + freq``. A
window ``W`` at evaluation time ``t`` covers the bins whose start lies in ``[t - W, t)``, i.e.
the ``W / freq`` most recent bins *including the current one*, i.e. the events with
``t - W <= ts < t``. ``W`` must be a whole number of bins. This is what Prometheus's
``increase(requests_total[W])`` returns at ``t`` when the counter is sampled at every bin end
(``C(t) - C(t - W)``; the range ``[t - W, t]`` holds both samples). Bins before the first bin of
the grid count as empty (a window that reaches before the data is ``complete=False``).

**Units.** ``error_ratio = bad / total`` in the window; ``burn_rate = error_ratio / (1 - target)``:
1.0 spends the budget exactly at the allowed pace. A window without traffic has
``error_ratio = burn_rate = 0`` and ``no_traffic = True``: never inf, never NaN.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, Unpack

import numpy as np
import pandas as pd

from .._util.memory import check_cells, check_memory
from .._util.ratios import ratio
from .._util.validation import (
    check_argument,
    check_whole,
    duration_label,
    refuse_joined,
    to_timedelta,
    utc_from_ns,
)
from .._util.words import counted
from ..errors import ConfigError
from ..windows.bingrid import BinGrid
from ..windows.bins import BinsLike, ReadBinsOptions, read_bins, window_bins
from .burn_rows import BYTES_PER_ROW, plan_rows, sparse_table
from .grid_attrs import grid_attrs
from .targets import error_budgets, group_slos, target_array

__all__ = ["DEFAULT_WINDOWS", "burn_rates", "burn_rate_chunks", "group_slos", "split_groups",
           "target_array", "error_budgets", "rolling_sum"]

#: The windows :func:`burn_rates` reports by default.
DEFAULT_WINDOWS = ("5min", "30min", "1h", "6h", "1D", "3D")


def split_groups(values: Sequence[Any]) -> list[tuple[Any, np.ndarray]]:
    """Group positions per distinct value, in order of first appearance: ``[(value, positions),
    ...]``.

    >>> [(v, p.tolist()) for v, p in split_groups(["7D", "30D", "7D"])]
    [('7D', [0, 2]), ('30D', [1])]
    """
    seen: dict[Any, list[int]] = {}
    for i, v in enumerate(values):
        seen.setdefault(v, []).append(i)
    return [(v, np.asarray(p, dtype=np.int64)) for v, p in seen.items()]


def rolling_sum(x: np.ndarray, k: int) -> np.ndarray:
    """Trailing sum over the last ``k`` bins (current included) along axis 1, via cumulative sums
    (int64 for counts, float64 for floats).

    >>> rolling_sum(np.array([[1, 2, 3, 4]]), 2)
    array([[1, 3, 5, 7]])
    """
    n, k = x.shape[1], int(k)
    c: np.ndarray = np.empty((x.shape[0], n), dtype=np.float64 if x.dtype.kind == "f" else np.int64)
    np.cumsum(x, axis=1, out=c)
    # one cumulative sum, then slices: sum over (j - k, j] = c[j] - c[j - k] (c[j] alone for j < k)
    if k < n:
        np.subtract(c[:, k:], c[:, :n - k], out=c[:, k:])  # numpy buffers the overlapping operand
    return c


def _windows(windows: Any) -> list[Any]:
    refuse_joined(windows, "windows")
    if isinstance(windows, (str, pd.Timedelta)) or not isinstance(windows, Sequence):
        windows = [windows]
    out = list(windows)
    if not out:
        raise ConfigError("windows is empty; give e.g. windows=('5min', '1h').")
    return out


def _setup(bins: BinsLike, target: Any, windows: Any,
           options: ReadBinsOptions) -> tuple[BinGrid, np.ndarray, list[int], list[str]]:
    grid = read_bins(bins, **options)
    budget = error_budgets(target, grid)
    wins = _windows(windows)
    ks = [window_bins(w, grid.freq_ns) for w in wins]
    labels = [duration_label(to_timedelta(w)) for w in wins]
    if len(set(labels)) != len(labels):
        raise ConfigError("windows lists the same window twice.")
    return grid, budget, ks, labels


_FIXES = ["use a coarser freq=", "fewer windows",
          "burn_rate_chunks() (the table a chunk of groups at a time)",
          "budgetlab.scaleout (Dask) to bin histories larger than memory"]


def burn_rates(bins: BinsLike, target: Any, windows: Sequence[Any] | Any = DEFAULT_WINDOWS, *,
               fill: float | None = None, at: str = "traffic",
               **options: Unpack[ReadBinsOptions]) -> pd.DataFrame:
    """Error ratio and burn rate over trailing windows, at every bin end where the window holds
    traffic.

    Parameters
    ----------
    bins : DataFrame or BinGrid
        Bins table from :func:`budgetlab.bin_events` (or the grid
        :func:`~budgetlab.windows.bins.read_bins` made of it).
    target : float, SLO, DataFrame, PerGroup or mapping
        Success-rate target; per group with a table or per-group SLOs (a
        :class:`~budgetlab.PerGroup` or ``{group key: SLO or target}``), see :func:`target_array`.
        Per-group results equal each group's run with its own target exactly.
    windows : sequence of durations
        Window lengths; each must be a whole number of bins.
    fill : float, optional
        ``None`` (default): **sparse**, a row only where the window holds at least one event.
        A number: **dense**, a row for every group, bin end and window, the empty windows with
        ``error_ratio = burn_rate = fill`` and ``no_traffic = True``; ``fill=0.0`` is the table of
        earlier releases (int64 counts), and costs ~150 bytes per group x bin x window.
    at : {"traffic", "events"}
        Sparse rows at every bin end where the window holds traffic (``"traffic"``, default), or
        only at the ends of the bins that hold events (``"events"``: what a per-minute table of
        the engines' window functions gives; every window holds traffic there).
    **options
        ``freq`` (the bin width, if ``bins.attrs`` lost it and it cannot be inferred),
        ``exclude_buckets``, ``exclude_windows``, ``exclude_mode`` (exclusions at bin
        resolution): passed to :func:`budgetlab.windows.bins.read_bins`.

    Returns
    -------
    DataFrame
        One row per group, bin end and window where the window holds traffic (``at``), sorted by
        group, bin end, then window (in the order given): group keys, ``bin_end`` (evaluation time),
        ``window`` (ordered categorical label such as ``"1h"``), ``total``, ``bad`` (events and
        failures with ``bin_end - window <= ts < bin_end``; int32 when every group's total fits,
        else int64), ``error_ratio``, ``burn_rate`` (float64), ``no_traffic`` (window empty: only
        with ``fill``), ``complete`` (the window lies inside the grid). About 39 bytes per row; the
        values on a row equal those of the dense table. Absent rows are windows without traffic
        (burn rate 0 in the dense table). Refused with the fixes when the table would not fit the
        memory limit (:func:`budgetlab._util.memory.check_memory`). ``attrs``: ``slo`` (the SLO
        ``target`` stands for, :func:`~budgetlab.budget.grid_attrs.target_slo`), ``by``, ``freq``,
        the bin edges ``grid_start`` .. ``grid_end`` (the span counted, the end excluded),
        ``windows`` (labels), ``at`` and ``fill``.

    Examples
    --------
    >>> from budgetlab.events.schema import as_events
    >>> from budgetlab.windows.binning import bin_events
    >>> ev = as_events(["2026-01-01 00:00:10", "2026-01-01 00:02:10"], [False, True])
    >>> br = burn_rates(bin_events(ev, "1min"), 0.9, windows=["1min", "2min"])
    >>> br[["bin_end", "window", "total", "bad", "burn_rate"]]
                        bin_end window  total  bad  burn_rate
    0 2026-01-01 00:01:00+00:00     1m      1    1       10.0
    1 2026-01-01 00:01:00+00:00     2m      1    1       10.0
    2 2026-01-01 00:02:00+00:00     2m      1    1       10.0
    3 2026-01-01 00:03:00+00:00     1m      1    0        0.0
    4 2026-01-01 00:03:00+00:00     2m      1    0        0.0
    >>> len(burn_rates(bin_events(ev, "1min"), 0.9, windows=["1min", "2min"],
    ...                fill=0.0))  # 3 bins x 2 windows
    6
    """
    check_argument("at", at, ("traffic", "events"))
    grid, budget, ks, labels = _setup(bins, target, windows, options)
    if fill is not None:
        fill = _check_fill(fill)
        out = _dense(grid, budget, ks, labels, fill)
    else:
        plan = plan_rows(grid, ks, events_only=at == "events")
        per_row = BYTES_PER_ROW + (8 if plan.count_dtype is np.int64 else 0) + 4 * max(
            0, len(grid.by) - 1)
        check_memory(float(plan.n_rows) * per_row, f"the burn-rate table ({plan.n_rows:,} rows)",
                     _FIXES)
        out = sparse_table(grid, plan, labels, budget)
    out.attrs = _rates_attrs(grid, target, labels, at, fill)
    return out


def _rates_attrs(grid: BinGrid, target: Any, labels: list[str], at: str,
                 fill: float | None) -> dict[Any, Any]:
    """:func:`burn_rates`' ``attrs``: :func:`~budgetlab.budget.grid_attrs.grid_attrs` (``slo``,
    ``by``, ``freq``, the bin edges ``grid_start``/``grid_end``), ``windows`` (their labels, in
    the order given), ``at`` and ``fill`` (``None``: the sparse table)."""
    return {**grid_attrs(grid, target), "windows": list(labels), "at": at, "fill": fill}


def burn_rate_chunks(bins: BinsLike, target: Any, windows: Sequence[Any] | Any = DEFAULT_WINDOWS, *,
                     rows: int = 10_000_000, at: str = "traffic",
                     **options: Unpack[ReadBinsOptions]) -> Iterator[pd.DataFrame]:
    """The sparse :func:`burn_rates` table a chunk of whole groups at a time, for tables larger
    than memory: each chunk has about ``rows`` rows (more when one group has more), and the
    chunks concatenated equal ``burn_rates(bins, target, windows, at=at)``.

    Write them to Parquet one by one (``pyarrow.parquet.ParquetWriter``), or reduce each. Every
    chunk has the ``attrs`` of the whole table (``fill`` ``None``).

    >>> from budgetlab.events.schema import as_events
    >>> from budgetlab.windows.binning import bin_events
    >>> ev = as_events(["2026-01-01 00:00", "2026-01-01 00:02"], [False, True], groups={"t": ["a",
    ...                                                                                       "b"]})
    >>> [len(c) for c in burn_rate_chunks(bin_events(ev, "1min", by="t"), 0.9, ["1min"], rows=1)]
    [1, 1]
    """
    check_whole("rows", rows, low=1)
    check_argument("at", at, ("traffic", "events"))
    grid, budget, ks, labels = _setup(bins, target, windows, options)
    plan = plan_rows(grid, ks, events_only=at == "events")
    attrs = _rates_attrs(grid, target, labels, at, None)  # every chunk's: the whole table's
    ends = np.cumsum(plan.group_rows)
    g0 = 0
    while g0 < grid.n_groups:
        before = int(ends[g0 - 1]) if g0 else 0
        g1 = max(int(np.searchsorted(ends, before + rows, side="right")), g0 + 1)
        if before < int(ends[g1 - 1]):  # groups without any row make no chunk
            chunk = sparse_table(grid, plan, labels, budget, g0, g1)
            chunk.attrs = dict(attrs)
            yield chunk
        g0 = g1


def _check_fill(fill: Any) -> float:
    if isinstance(fill, bool) or not isinstance(fill, (int, float, np.integer, np.floating)):
        raise ConfigError(f"fill={fill!r} must be a number (0.0 gives the dense table of earlier "
                          "releases) or None.")
    return float(fill)


def _dense(grid: BinGrid, budget: np.ndarray, ks: list[int], labels: list[str],
           fill: float) -> pd.DataFrame:
    g, n, nw = grid.n_groups, grid.n_bins, len(ks)
    check_cells(g, n, 150.0 * nw, f"the dense burn-rate table of {counted(nw, 'window')}",
                ["drop fill= (the sparse table: rows where a window holds traffic)", *_FIXES])
    tot = np.empty((g, n, nw), dtype=np.int64)
    bad = np.empty((g, n, nw), dtype=np.int64)
    for g0, g1 in grid.chunks(2):  # the grid's arrays a chunk of groups at a time
        total, failed = grid.dense(g0, g1)
        for j, k in enumerate(ks):
            tot[g0:g1, :, j] = rolling_sum(total, k)
            bad[g0:g1, :, j] = rolling_sum(failed, k)
    er = ratio(bad, tot, 0.0)
    burn = er / budget[:, None, None]
    empty = tot == 0
    if fill != 0.0:
        er[empty] = fill
        burn[empty] = fill
    complete = np.broadcast_to((np.arange(n)[:, None] + 1) >= np.array(ks)[None, :], (g, n, nw))
    out = grid.long_keys(n * nw)
    out["bin_end"] = utc_from_ns(np.tile(np.repeat(grid.bin_end_ns, nw), g))
    out["window"] = pd.Categorical(np.tile(np.array(labels, dtype=object), g * n),
                                   categories=labels, ordered=True)
    out["total"] = tot.ravel()
    out["bad"] = bad.ravel()
    out["error_ratio"] = er.ravel()
    out["burn_rate"] = burn.ravel()
    out["no_traffic"] = empty.ravel()
    out["complete"] = np.ascontiguousarray(complete).ravel()
    return out
