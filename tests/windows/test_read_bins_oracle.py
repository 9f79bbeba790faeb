"""read_bins equals the dense implementation it replaced (tests/alerts/oracle_bins.py) on tables
in grid order (the fast path), shuffled, with missing rows, and refuses duplicates alike; and the
dense bin_events refuses an ok/bucket disagreement in the words of the current one."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab.errors import InputError, OutcomeError
from budgetlab.windows.binning import bin_events
from budgetlab.windows.bins import read_bins
from tests.alerts import oracle_bins
from tests.alerts.sre_oracle_data import make_events


def _same_grid(got, want):
    np.testing.assert_array_equal(got.total, want.total)
    np.testing.assert_array_equal(got.bad, want.bad)
    assert got.total.dtype == want.total.dtype and got.bad.dtype == want.bad.dtype
    pd.testing.assert_frame_equal(got.keys, want.keys)
    assert (got.by, got.start_ns, got.freq_ns) == (want.by, want.start_ns, want.freq_ns)
    assert (got.exclusions.buckets, got.exclusions.mode) == (want.exclusions.buckets,
                                                             want.exclusions.mode)
    np.testing.assert_array_equal(got.exclusions.windows, want.exclusions.windows)


@pytest.mark.parametrize("shape", ["ordered", "shuffled", "missing_rows"])
def test_read_bins_equals_the_oracle(shape):
    ev = make_events(300, seed=5, hours=3, per_group=20)
    bins = bin_events(ev, "1min", by="sitekey")
    if shape == "shuffled":
        bins = bins.sample(frac=1.0, random_state=1)
    if shape == "missing_rows":
        bins = bins[bins["total"].to_numpy() > 0]
    opts = {
        "exclude_buckets": "timeout",
        "exclude_windows": [
            (ev["ts"].min() + pd.Timedelta("30min"), ev["ts"].min() + pd.Timedelta("50min"))
        ],
    }
    for kw in ({}, opts, {**opts, "exclude_mode": "good"}):
        _same_grid(read_bins(bins, **kw), oracle_bins.read_bins(bins, **kw))


def test_read_bins_refuses_duplicated_rows_like_the_oracle():
    bins = bin_events(make_events(5, seed=6, hours=1, per_group=20), "1min", by="sitekey")
    doubled = pd.concat([bins, bins.iloc[[3]]], ignore_index=True)
    doubled.attrs = dict(bins.attrs)
    for fn in (read_bins, oracle_bins.read_bins):
        with pytest.raises(InputError, match="duplicated"):
            fn(doubled)


@pytest.mark.parametrize("ok, words", [
    (True, "events' 'ok' and 'bucket' disagree: successful rows (ok=True) have a failure bucket; "
           "fix the outcome mapping."),
    (False, "events' 'ok' and 'bucket' disagree: failed rows (ok=False) have the bucket "
            "'success'; fix the outcome mapping.")])
def test_bin_events_refuses_ok_and_bucket_that_disagree_in_the_same_words(ok, words):
    ev = make_events(5, seed=6, hours=1, per_group=20)
    row = ev.index[(ev["bucket"].astype(str) == "success") != ok][0]  # a row whose ok flips
    ev.loc[row, "ok"] = ok
    for fn in (bin_events, oracle_bins.bin_events):
        with pytest.raises(OutcomeError) as caught:
            fn(ev, "1min", by="sitekey")
        assert str(caught.value) == words, fn.__module__
