"""Stop 59: ``budgetlab.dask.replay`` tells the pandas kernel of each partition not to warn (a
window longer than the partition's span, SLO groups the partition lacks: a partition's facts,
not the log's) instead of entering ``warnings.catch_warnings``, whose filters are the whole
process's and are swapped under other threads on Dask's threaded scheduler. Oracle:
:func:`budgetlab.replay` of the same events, bit for bit."""

from __future__ import annotations

import warnings

import dask
import dask.dataframe as dd
import pandas as pd
import pytest

import budgetlab.dask as bd
from budgetlab import SLO, as_events, replay
from tests.filter_callers import filter_callers

pytestmark = pytest.mark.dask


def test_partitions_are_replayed_without_a_warnings_filter_and_without_warnings(monkeypatch):
    # 40 events a minute apart in 2 groups, a 1-day window: longer than every partition's span
    # (and the log's); the per-group SLOs name a group 'gone' that no event has
    ev = as_events(pd.date_range("2026-11-29", periods=40, freq="min", tz="UTC"),
                   [i % 7 != 0 for i in range(40)], groups={"region": ["fra", "ams"] * 20})
    slo = {"fra": SLO(target=0.9, window="1D"), "ams": SLO(target=0.95, window="1D"),
           "gone": SLO(target=0.99, window="1D")}
    callers = filter_callers(monkeypatch)
    real = warnings.catch_warnings
    with real(record=True) as caught:
        warnings.simplefilter("always")
        with dask.config.set(scheduler="threads", num_workers=4):
            got = bd.replay(dd.from_pandas(ev, npartitions=4, sort=False), slo,
                            by="region").compute()
    # budgetlab.dask's own code (the SLO windows' parsing in _util, run on the driver too, is
    # another matter)
    assert [c for c in callers if c.startswith("dask")] == []
    assert [str(w.message) for w in caught] == []
    with real():
        warnings.simplefilter("ignore")  # the oracle's own warnings are the log's, not tested
        want = replay(ev, slo, by="region")
    pd.testing.assert_frame_equal(got.sort_index().reset_index(drop=True)[want.columns],
                                  want.reset_index(drop=True), check_categorical=False)
