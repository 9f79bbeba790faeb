"""The Dask reader states how it read, from its first pass: rows read, kept and skipped, each
label with its meaning and rows, the time span, and the rows after the time of reading. The
oracle for every count is :func:`budgetlab.read_events`' block on the same Parquet files."""

from __future__ import annotations

from pathlib import Path

import dask.dataframe as dd
import numpy as np
import pandas as pd
import pytest

from budgetlab import how_read, read_events
from budgetlab.dask import read_events as dask_read_events

ELB = Path(__file__).parents[1] / "fixtures" / "nab" / "elb_request_count_8c0756.csv"
OUTCOMES = {"ok": "success", "slow": "timeout", "err": "solve_error", "pending": "skip"}


def _facts(how) -> dict:
    """The facts to compare: counts, span, labels (in any order), time of reading."""
    return {"rows": (how.rows_read, how.rows_kept), "skipped": sorted(how.skipped),
            "span": (how.first, how.last), "time": (how.time_column, how.time_reading),
            "labels": sorted((x.label, x.meaning, x.rows) for x in how.labels),
            "vocabulary": how.vocabulary, "threshold": how.ok_when,
            "late": (how.rows_after_reading, how.reading_time), "notes": how.notes}


@pytest.fixture
def parquet_files(tmp_path: Path) -> list[Path]:
    """Three Parquet files: labels that map to skip (the earliest and the latest row among them,
    so the span is of the kept rows), times in two days, one file of one label only."""
    rng = np.random.default_rng(29)
    paths = []
    for n, (day, labels) in enumerate([("2026-12-01", ["ok", "slow", "pending"]),
                                       ("2026-12-02", ["ok", "err", "pending"]),
                                       ("2026-12-03", ["ok"])]):
        ts = pd.Timestamp(f"{day}T00:00:00Z") + pd.to_timedelta(
            np.sort(rng.integers(1, 86_000, 300)), unit="s")
        outcome = rng.choice(labels, 300)
        if n == 0:
            outcome[0] = "pending"  # the first row of all is skipped
        frame = pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ"), "outcome": outcome})
        paths.append(tmp_path / f"part{n}.parquet")
        frame.to_parquet(paths[-1], index=False)
    return paths


def test_the_block_counts_as_read_events_on_the_same_files(parquet_files, monkeypatch):
    monkeypatch.setenv("BUDGETLAB_READING_TIME", "2026-12-02T12:00:00Z")  # half a log late
    pandas_how = how_read(read_events([str(p) for p in parquet_files], outcomes=OUTCOMES))
    how = how_read(dask_read_events([str(p) for p in parquet_files], outcomes=OUTCOMES))
    facts, oracle = _facts(how), _facts(pandas_how)
    assert oracle["late"][0] > 0 and oracle["skipped"]  # the case holds what it tests
    assert oracle["notes"]  # the note on rows after the time of reading
    for key in ("rows", "skipped", "span", "time", "labels", "vocabulary", "late", "notes"):
        assert facts[key] == oracle[key], key
    assert how.files == pandas_how.files == (("part0.parquet", 300), ("part1.parquet", 300),
                                             ("part2.parquet", 300))


def test_a_log_within_the_time_of_reading_has_no_note(parquet_files, monkeypatch):
    monkeypatch.setenv("BUDGETLAB_READING_TIME", "2026-12-06T00:00:00Z")
    how = how_read(dask_read_events(str(parquet_files[2])))
    oracle = how_read(read_events(str(parquet_files[2])))
    assert _facts(how)["late"] == _facts(oracle)["late"] == (0, None)
    assert how.notes == () and how.rows_read == how.rows_kept == 300


def test_a_threshold_read_in_partitions_states_as_pandas_does():
    raw = pd.read_csv(ELB, dtype=str)
    how = how_read(dask_read_events(dd.from_pandas(raw, npartitions=3, sort=False),
                                    time="timestamp", ok_when="value<50"))
    oracle = how_read(read_events(raw, time="timestamp", ok_when="value<50"))
    for key in ("rows", "skipped", "span", "time", "labels", "vocabulary", "threshold"):
        assert _facts(how)[key] == _facts(oracle)[key], key
    assert str(how).splitlines()[1:] == str(oracle).splitlines()[1:]  # all but the source's name


def test_a_time_a_partition_cannot_read_is_refused_by_the_first_pass():
    """The first pass parses the times (for the span): a bad one is refused when read_events is
    called, not at compute, naming the partition and the row (hand-built: row 2 of partition 1)."""
    from budgetlab.errors import TimestampError

    raw = pd.DataFrame({"ts": ["2026-11-29T02:00:00Z", "2026-11-29T01:00:00Z",
                               "2026-11-30T03:00:00Z", "2026-13-45T00:00:00Z"],
                        "outcome": ["success", "timeout", "success", "success"]})
    with pytest.raises(TimestampError, match=r"^partition 1 of the Dask frame \(rows counted "
                                             r"within it\): unparseable timestamp at row 2 "):
        dask_read_events(dd.from_pandas(raw, npartitions=2, sort=False))
