"""How ``1.0``/``0.0`` are read never depends on how the input was cut: each value is read on its
own (``1.0`` is 1, ``200.0`` is 200), so a Dask partition holding only ``1.0``/``0.0`` is read as
the same rows are in one table. Two partitions built by hand, each differing from the other;
expected values written by hand and compared with the single-table reader."""

from __future__ import annotations

import dask.dataframe as dd
import pandas as pd
import pytest

from budgetlab import read_events
from budgetlab.dask import read_events as dask_read_events
from budgetlab.errors import OutcomeError

TS = [f"2026-11-29T0{h}:00:00Z" for h in range(6)]


def _two_partitions(first, second):
    """The whole table and the same rows as a Dask frame of exactly two partitions."""
    a = pd.DataFrame({"ts": TS[:3], "v": first})
    b = pd.DataFrame({"ts": TS[3:], "v": second}, index=range(3, 6))
    frame = dd.concat([dd.from_pandas(a, npartitions=1), dd.from_pandas(b, npartitions=1)])
    assert frame.npartitions == 2
    return pd.concat([a, b]), frame


def _dask(frame, **options):
    got = dask_read_events(frame, **options).compute()
    return got.sort_values("ts", kind="stable").reset_index(drop=True)


@pytest.mark.parametrize(("first", "second", "options", "ok", "bucket"), [
    # a success column as text: floats as pandas writes them in one partition, 1/0/true in the
    # other (dd.read_csv(..., dtype=str) of a file written in two goes)
    (["1.0", "0.0", "1.0"], ["1", "0", "true"], {"ok": "v"},
     [True, False, True, True, False, True],
     ["success", "failure", "success", "success", "failure", "success"]),
    # outcome labels as text: float flags in one partition, words in the other
    (["1.0", "0.0", "1.0"], ["success", "timeout", "failed"], {"outcome": "v"},
     [True, False, True, True, False, False],
     ["success", "failure", "success", "success", "timeout", "failure"]),
    # a float column: only 1.0/0.0 in one partition, HTTP statuses in the other
    ([1.0, 0.0, 1.0], [200.0, 503.0, 404.0],
     {"outcome": "v", "outcomes": {"1": "success", "0": "failure", "2xx": "success",
                                   "4xx": "client_error", "5xx": "server_error"}},
     [True, False, True, True, False, False],
     ["success", "failure", "success", "success", "server_error", "client_error"]),
    # the same statuses written by pandas to text (200.0) take the same ranges
    (["1.0", "0.0", "1.0"], ["200.0", "503.0", "404.0"],
     {"outcome": "v", "outcomes": {"1": "success", "0": "failure", "2xx": "success",
                                   "4xx": "client_error", "5xx": "server_error"}},
     [True, False, True, True, False, False],
     ["success", "failure", "success", "success", "server_error", "client_error"]),
])
def test_partitions_that_differ_read_as_one_table(first, second, options, ok, bucket):
    whole, frame = _two_partitions(first, second)
    want = read_events(whole, **options)
    assert want["ok"].tolist() == ok
    assert want["bucket"].astype(str).tolist() == bucket
    got = _dask(frame, **options)
    assert got["ok"].tolist() == ok
    assert got["bucket"].astype(str).tolist() == bucket


def test_a_float_column_with_other_numbers_is_refused_however_cut():
    # 1.0/0.0 alone in partition 0 would be flags; 2.0 in partition 1 is no outcome: the whole
    # column is refused by both readers, in the same words (the Dask one classifies the labels
    # of every partition at once)
    whole, frame = _two_partitions([1.0, 0.0, 1.0], [1.0, 2.0, 0.0])
    for read in (lambda: read_events(whole, outcome="v"), lambda: _dask(frame, outcome="v")):
        with pytest.raises(OutcomeError, match=r"^outcome labels look like numeric codes, not "
                                               r"HTTP statuses \(100 to 599\): '2' \(1\);"):
            read()
