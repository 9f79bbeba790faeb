"""How the Dask reader read its input: the facts of :class:`~budgetlab.events.how_read.HowRead`,
gathered by the first (eager) pass of :func:`budgetlab.dask.read_events` and added up on the
driver, without a pass of their own.

Each partition yields, beside its label counts, the earliest and latest time and the rows after
the time of reading of each of its distinct labels (:func:`label_times`); the driver keeps the
labels that do not map to ``skip`` and combines them (:func:`dask_how_read`). The rows read,
kept and skipped, each label with its meaning and rows, the time column's form and span and the
note on rows after the time of reading are those :func:`budgetlab.read_events` states for the
same data. Left out: the notes of budgetlab's file layer (compression, encodings, line ends),
which Dask's Parquet reader does not go through.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..events.how_read import HowRead, LabelReading, after_reading_note, skip_reasons
from ..events.outcomes import OutcomeReading
from ..events.read import CLOCK_SKEW
from ..events.schema import time_span
from ..events.spec import ReadSpec
from ..events.timeformat import parse_formatted
from ..events.times import describe_time, parse_time

__all__ = ["label_times", "late_after", "partition_times", "dask_how_read"]


def partition_times(col: pd.Series, spec: ReadSpec) -> tuple[np.ndarray, str | None]:
    """A partition's time column as int64 ns UTC and how it was read, as
    :func:`budgetlab.read_events` reads a table's: with ``spec.time_format`` as written in that
    format, else by its form (``None``: no time to tell the form by). Refusals are those of the
    pandas reader (a time not in the format, by its row)."""
    if spec.time_format is not None:
        return parse_formatted(col, spec.time_format, year=spec.year, tz=spec.tz)
    t = parse_time(col, tz=spec.tz, epoch=spec.epoch)
    return t, describe_time(col, tz=spec.tz, epoch=spec.epoch) if col.notna().any() else None


def late_after(now: pd.Timestamp) -> int:
    """The time (int64 ns UTC) after which a row is later than the time of reading ``now`` by
    more than the clock skew allowed; the largest one for a time of reading at the end of time
    (where pandas' instants end).

    >>> late_after(pd.Timestamp("2026-12-06T07:00Z")) == pd.Timestamp("2026-12-06T08:00Z").value
    True
    """
    if now >= pd.Timestamp.max.tz_localize("UTC") - CLOCK_SKEW:
        return int(np.iinfo(np.int64).max)
    return int((now + CLOCK_SKEW).as_unit("ns").value)


def label_times(t: np.ndarray, codes: np.ndarray, n: int,
                late_after: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each of ``n`` labels (``codes``: each row's label, 0 to n - 1, every one present):
    the earliest and latest of the times ``t`` (int64 ns UTC) of its rows, and its rows later than
    ``late_after``.

    >>> lo, hi, late = label_times(np.array([5, 1, 9, 7]), np.array([0, 1, 0, 0]), 2, 6)
    >>> lo.tolist(), hi.tolist(), late.tolist()
    ([5, 1], [9, 1], [2, 0])
    """
    groups = pd.Series(t).groupby(codes, sort=True)
    return (groups.min().to_numpy(dtype=np.int64), groups.max().to_numpy(dtype=np.int64),
            np.bincount(codes[t > late_after], minlength=n))


def _kept_times(infos: Sequence[dict[str, Any]], skipped: set[Any],
                ) -> tuple[list[int], list[int], int]:
    """The earliest and latest time of each partition's rows that are kept, and the rows kept
    that are after the time of reading, over all partitions."""
    lows: list[int] = []
    highs: list[int] = []
    late = 0
    for info in infos:
        if not info["rows"]:
            continue
        lo, hi, after = info["times"]
        values = info["labels"][0] if info.get("labels") is not None else None
        keep = np.ones(len(lo), dtype=bool) if values is None else ~values.isin(skipped).to_numpy()
        lows.extend(lo[keep].tolist())
        highs.extend(hi[keep].tolist())
        late += int(after[keep].sum())
    return lows, highs, late


def _summed_readings(infos: Sequence[dict[str, Any]]) -> tuple[LabelReading, ...]:
    """A success column's (or threshold's) readings of every partition, rows added up per
    label, in the order met."""
    rows: dict[tuple[str | None, str, str], int] = {}
    for info in infos:
        for x in info.get("readings", ()):
            key = (x.label, x.meaning, x.rule)
            rows[key] = rows.get(key, 0) + x.rows
    return tuple(LabelReading(*key, n) for key, n in rows.items())


def dask_how_read(infos: Sequence[dict[str, Any]], spec: ReadSpec, name: str,
                  reading: OutcomeReading | None, now: pd.Timestamp,
                  files: Sequence[tuple[str, int]] | None = None,
                  file_notes: Sequence[str] = ()) -> HowRead:
    """The facts of a Dask read from the first pass's partition profiles ``infos`` (with
    ``rows``, ``times``, and ``labels`` or ``readings``), the outcome labels classified once
    (``reading``; ``None`` for a success column or a threshold) and the time of reading. The
    source is named by its ``files`` and their rows (Parquet paths: as the pandas reader names
    them) when they add up to the rows read, else as ``name`` (a Dask DataFrame); ``file_notes``
    (files without rows, skipped) come first, as the pandas reader's file notes do."""
    rows_read = sum(int(i["rows"]) for i in infos)
    if not files or sum(n for _, n in files) != rows_read:
        files = ((name, rows_read),)
    if reading is not None:
        values = pd.concat([i["labels"][0] for i in infos if i.get("labels") is not None],
                           ignore_index=True)
        uniques = pd.Series(pd.unique(values))  # classify_counts' order
        skipped_labels = set(uniques[reading.skip])
        labels, vocabulary = reading.labels, reading.vocabulary
        notes = reading.notes
    else:
        skipped_labels = set()
        labels = _summed_readings(infos)
        vocabulary = next((i["vocabulary"] for i in infos if i.get("vocabulary")), "true/false")
        notes = ()
    skipped = skip_reasons(labels)
    lows, highs, late = _kept_times(infos, skipped_labels)
    first, last = time_span(np.array([min(lows), max(highs)])) if lows else (None, None)
    at: str | None = None
    late_note: tuple[str, ...] = ()
    if last is not None and pd.Timestamp(last) - CLOCK_SKEW > now:  # read_events' rule
        at, late_note = after_reading_note(late, now, pd.Timestamp(last), CLOCK_SKEW,
                                           year=spec.year)
    return HowRead(
        files=tuple(files), rows_read=rows_read,
        rows_kept=rows_read - sum(r for _, r in skipped), skipped=skipped,
        time_column=spec.time,
        time_reading=next((i["time"] for i in infos if i.get("time")), "no times"),
        first=first, last=last, outcome_column=spec.label, vocabulary=vocabulary, labels=labels,
        notes=(*file_notes, *notes, *late_note), threshold=spec.threshold,
        rows_after_reading=late if at is not None else 0, reading_time=at)
