"""The Dask reader reads a metric series by the user's threshold (``ok_when``) as
:func:`budgetlab.read_events` does: the NAB fixture in three partitions, counted apart with the
csv module; a partition whose rows all pass still shares the ``failure`` bucket; a missing value
is refused by its partition."""

from __future__ import annotations

import csv
from pathlib import Path

import dask.dataframe as dd
import pandas as pd
import pytest

from budgetlab.dask import read_events as dask_read_events
from budgetlab.errors import OutcomeError

ELB = Path(__file__).parents[1] / "fixtures" / "nab" / "elb_request_count_8c0756.csv"


def test_every_partition_is_read_by_the_same_threshold():
    with open(ELB, newline="", encoding="utf-8") as f:
        values = [float(row["value"]) for row in csv.DictReader(f)]
    good = sum(1 for v in values if v >= 100)
    raw = pd.read_csv(ELB, dtype=str)
    ev = dask_read_events(dd.from_pandas(raw, npartitions=3, sort=False), time="timestamp",
                          ok_when="value >= 100").compute()
    assert (int(ev["ok"].sum()), int((~ev["ok"]).sum())) == (good, len(values) - good)
    assert list(ev["bucket"].cat.categories) == ["success", "failure"]


def test_a_partition_of_successes_only_shares_the_failure_bucket():
    raw = pd.DataFrame({"ts": [f"2026-01-01T00:0{i}:00Z" for i in range(4)],
                        "value": ["1", "2", "9", "3"]})
    ev = dask_read_events(dd.from_pandas(raw, npartitions=2, sort=False), ok_when="value<5")
    parts = [p.compute() for p in ev.to_delayed()]
    assert [p["ok"].tolist() for p in parts] == [[True, True], [False, True]]
    assert all(list(p["bucket"].cat.categories) == ["success", "failure"] for p in parts)


def test_a_missing_value_is_refused():
    raw = pd.DataFrame({"ts": ["2026-01-01T00:00:00Z", "2026-01-01T00:01:00Z"],
                        "value": ["1", None]})
    with pytest.raises(OutcomeError, match="1 row missing or not a number"):
        dask_read_events(dd.from_pandas(raw, npartitions=1, sort=False),
                         ok_when="value<5").compute()
