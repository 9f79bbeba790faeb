"""Sparse burn rates (issue 31 point 1): bytes per output row, and the chunked form.

The suite's events of the first 14 days, at 200 and 2,000 groups (``bench_groups.with_groups``),
binned by minute; ``burn_rates(bins, 0.95, windows=("5min", "1h"))`` (the sparse default: a row
wherever a window holds traffic). Memory is the OS's view: the RSS the table holds once returned,
above the RSS before the call (the bins in memory; the C heap trimmed first), per output row,
target <= 48 B; the table's own bytes per row (``memory_usage(deep=True)``) beside it; and the
peak RSS of the call. Timed against ``bin_events`` of the same events (interleaved): what producing
the
table costs next to binning. ``burn_rate_chunks`` (chunks of 2 M rows, each reduced to its row
count and dropped) is reported with its peak RSS above the start: one chunk, not the table.
"""

from __future__ import annotations

from typing import Any

import pandas as pd

from benchmarks.bench_groups import with_groups
from benchmarks.harness import Result, peak_rss, status_kib, time_pair, trim_heap

GROUPS = (200, 2_000)
WINDOWS = ("5min", "1h")
TARGET_BYTES_PER_ROW = 48


def _held_rss(fn: Any) -> tuple[Any, int | None]:
    """``fn()`` and the RSS it holds once returned, above the RSS before the call (Linux; the heap
    trimmed first, so that memory freed earlier and kept by the allocator is not reused unseen)."""
    trim_heap()
    try:
        before: int | None = status_kib("VmRSS")
    except OSError:
        before = None
    out = fn()
    trim_heap()  # the call's freed temporaries are not the table's
    return out, None if before is None else (status_kib("VmRSS") - before) * 1024


def case(events: pd.DataFrame, repeat: int, groups: tuple[int, ...] = GROUPS) -> list[Result]:
    from budgetlab import bin_events, burn_rate_chunks, burn_rates

    ts = events["ts"]
    half = events[ts < ts.iloc[0] + pd.Timedelta("14D")]
    results = []
    for g in groups:
        ev = with_groups(half, g)
        bins = bin_events(ev, "1min", by="group")
        label = f"burn_rates sparse 5min+1h, 14 days, {g:,} groups"

        def sparse(bins: pd.DataFrame = bins) -> pd.DataFrame:
            return burn_rates(bins, 0.95, windows=WINDOWS)

        def chunked(bins: pd.DataFrame = bins) -> int:
            return sum(len(c) for c in burn_rate_chunks(bins, 0.95, windows=WINDOWS,
                                                        rows=2_000_000))

        def binning(ev: pd.DataFrame = ev) -> None:
            bin_events(ev, "1min", by="group")

        table, held = _held_rss(sparse)
        rows, own = len(table), int(table.memory_usage(deep=True).sum())
        del table
        peak, _, _ = peak_rss(sparse)
        t, b = time_pair(sparse, binning, repeat=max(1, repeat // 2), warmup=0)
        chunk_peak, _, _ = peak_rss(chunked)
        per_row = None if held is None or rows == 0 else held / rows
        extra: dict[str, Any] = {"rows": rows, "table_bytes_per_row": own / max(rows, 1)}
        if per_row is not None and peak is not None and chunk_peak is not None:
            extra |= {"held_rss_bytes_per_row": per_row, "peak_rss_mib": peak / 2**20,
                      "chunked_peak_rss_mib": chunk_peak / 2**20}
        results.append(Result(label, len(ev), t, "bin_events 1min of the same events", b, None,
                              f"<= {TARGET_BYTES_PER_ROW} B per row (RSS held)",
                              None if per_row is None else per_row <= TARGET_BYTES_PER_ROW, extra))
    return results
