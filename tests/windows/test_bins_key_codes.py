"""bin_events / read_bins number groups in one pass (no sort, ``group_key_codes``): the same
codes as pandas' sorted group numbering (``groupby(..., sort=True).ngroup()``), the group's first
row as its key row, and the whole bins table equal to the dense oracle (tests/alerts/oracle_bins.py,
the previous code)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab.windows.binning import bin_events
from budgetlab.windows.groups import group_key_codes
from tests.alerts import oracle_bins


def _frame(seed: int, n: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    obj = np.array(["b", "a", None, "c", np.nan], dtype=object)[rng.integers(0, 5, n)]
    cat = pd.Categorical(rng.choice(["x", "y", "z"], n), categories=["z", "w", "y", "x"])
    cat[rng.random(n) < 0.1] = np.nan
    return pd.DataFrame({"o": obj, "c": cat, "i": rng.integers(-3, 3, n), "f": rng.choice([0.0,
                                                                                           -0.0,
                                                                                           1.5],
                                                                                          n)})


@pytest.mark.parametrize("by", [["o"], ["c"], ["i"], ["f"], ["o", "c"], ["c", "i", "f"]])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_key_codes_equal_the_sort_based_numbering(by, seed):
    frame = _frame(seed, 500)
    codes, keys = group_key_codes(frame, by)
    want_codes = frame.groupby(by, sort=True, dropna=False, observed=True).ngroup().to_numpy()
    np.testing.assert_array_equal(codes, want_codes)
    assert codes.dtype == np.int64 and len(keys) == want_codes.max() + 1
    # the key row is the group's first row, value for value (None stays None, -0.0 stays -0.0)
    first = np.array([np.flatnonzero(want_codes == g)[0] for g in range(len(keys))])
    for k in by:
        got = keys[k].tolist()
        exp = frame[k].iloc[first].tolist()
        assert [repr(v) for v in got] == [repr(v) for v in exp]


def test_key_codes_of_an_empty_frame_and_without_keys():
    frame = _frame(0, 10).iloc[:0]
    codes, keys = group_key_codes(frame, ["o"])
    assert len(codes) == 0 and len(keys) == 0
    codes, keys = group_key_codes(_frame(0, 4), [])
    assert codes.tolist() == [0, 0, 0, 0] and len(keys) == 1


@pytest.mark.parametrize("by", [["o"], ["o", "c"]])
def test_bin_events_table_equals_the_dense_oracle(by):
    frame = _frame(3, 3000)
    rng = np.random.default_rng(3)
    frame["ts"] = pd.Timestamp("2026-01-01", tz="UTC") + pd.to_timedelta(
        np.sort(rng.integers(0, 3 * 3600, 3000)), unit="s"
    )
    frame["ok"] = rng.random(3000) > 0.2
    frame["bucket"] = pd.Categorical(np.where(frame["ok"], "success", rng.choice(["timeout",
                                                                                  "solve_error"],
                                                                                 3000)))
    got = bin_events(frame, "5min", by=by, exclude_buckets="timeout", dense=True)
    want = oracle_bins.bin_events(frame, "5min", by=by, exclude_buckets="timeout")
    pd.testing.assert_frame_equal(got, want)
    # the oracle (a snapshot from before Stop 59) does not name its exclusions; the table does
    assert got.attrs == {**want.attrs, "exclude_buckets": ["timeout"]}
    # the default table: the oracle's non-empty rows plus each group's first and last bin
    sparse = bin_events(frame, "5min", by=by, exclude_buckets="timeout")
    n_bins = want["bin_start"].nunique()
    pos = np.arange(len(want)) % n_bins
    keep = (want["total"].to_numpy() > 0) | (pos == 0) | (pos == n_bins - 1)
    pd.testing.assert_frame_equal(sparse, want[keep].reset_index(drop=True))
