"""A partition whose every row maps to skip is a slice of a log with rows to analyse elsewhere:
the Dask reader keeps the rows the pandas reader keeps from the same table (the pandas reader is
the oracle), and refuses only an input whose every row maps to skip, in the pandas reader's
words."""

from __future__ import annotations

import dask.dataframe as dd
import pandas as pd
import pytest

from budgetlab import read_events
from budgetlab.dask import read_events as dask_read_events
from budgetlab.errors import InputError

MAPPING = {"pending": "skip", "success": "success", "timeout": "timeout"}


def _table(labels: list[str]) -> pd.DataFrame:
    return pd.DataFrame({"ts": pd.date_range("2026-01-01", periods=len(labels), freq="min",
                                             tz="UTC"), "outcome": labels})


@pytest.mark.parametrize("labels", [
    ["pending", "pending", "success", "timeout"],  # partition 0 all skip, its first row too
    ["success", "timeout", "pending", "pending"],  # the last partition all skip
    ["pending", "success", "pending", "pending", "timeout", "pending"],  # one in the middle
])
def test_a_partition_of_skipped_rows_loads_as_no_rows(labels):
    table = _table(labels)
    expected = read_events(table, outcomes=MAPPING)
    got = dask_read_events(dd.from_pandas(table, npartitions=len(labels) // 2, sort=False),
                           outcomes=MAPPING).compute()
    # hand-checked: the rows kept are the success and the timeout, in time order
    assert got["bucket"].astype(str).tolist() == ["success", "timeout"]
    pd.testing.assert_frame_equal(got.reset_index(drop=True), expected)


def test_an_input_whose_every_row_maps_to_skip_is_refused_as_one_table_is():
    table = _table(["pending"] * 4)
    with pytest.raises(InputError) as pandas_refusal:
        read_events(table, outcomes=MAPPING)
    with pytest.raises(InputError) as dask_refusal:
        dask_read_events(dd.from_pandas(table, npartitions=2, sort=False), outcomes=MAPPING)
    assert str(dask_refusal.value) == str(pandas_refusal.value) == (
        "every row maps to skip; nothing is left to analyse: check outcomes=.")
