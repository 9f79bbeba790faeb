"""docs/dask.md, "The summary": with files not in time order (a log split in file order), the
Dask event table is sorted within each partition only. Sorted stably by ts, states and events
give exactly the summary of the pandas read of the same files; unsorted, replay_summary refuses
them with that spelling."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import budgetlab as bl
import budgetlab.dask as bd
from budgetlab.errors import InputError

SLO = bl.SLO(target=0.9, window="1h")
#: replay_summary's refusal of row-matched events not in time order (docs/dask.md, its spelling)
REFUSAL = ("events must be sorted by 'ts' (a Dask event table is sorted within each partition "
           "only: files not in time order); sort the states and the events alike (of a Dask "
           "replay: budgetlab.dask.replay(...).compute().sort_index().sort_values('ts', "
           "kind='stable'), with events.compute().sort_values('ts', kind='stable')).")


@pytest.fixture
def files_out_of_order(tmp_path):
    """A log of 400 events over 10 h (ties included: two events a minute, 3 a.m. twice), split in
    file order into 4 files whose times overlap (the rows of each file shuffled, seed fixed)."""
    rng = np.random.default_rng(61)
    ts = pd.date_range("2026-01-01", periods=200, freq="3min", tz="UTC").repeat(2)
    log = pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ"),
                        "outcome": rng.choice(["success"] * 9 + ["timeout"], size=len(ts)),
                        "grp": rng.choice(["a", "b"], size=len(ts))})
    log = log.iloc[rng.permutation(len(log))].reset_index(drop=True)
    paths = []
    for i in range(4):
        paths.append(str(tmp_path / f"p{i}.parquet"))
        log.iloc[i * 100:(i + 1) * 100].to_parquet(paths[-1], index=False)
    return paths


def test_the_documented_spelling_gives_the_pandas_summary(files_out_of_order):
    events = bd.read_events(files_out_of_order, by="grp")
    computed = events.compute()
    assert not computed["ts"].is_monotonic_increasing  # the case: partitions overlap in time
    states = bd.replay(events, SLO, by="grp").compute()
    got = bl.replay_summary(states.sort_index().sort_values("ts", kind="stable"),
                            computed.sort_values("ts", kind="stable"))
    # the oracle: the pandas path on the same files
    same = bl.read_events(files_out_of_order, by="grp")
    want = bl.replay_summary(bl.replay(same, SLO, by="grp"), same)
    pd.testing.assert_frame_equal(got, want, check_exact=True)
    assert got.attrs == want.attrs


def test_the_old_spelling_is_refused_with_the_one_that_works(files_out_of_order):
    events = bd.read_events(files_out_of_order, by="grp")
    states = bd.replay(events, SLO, by="grp").compute()
    with pytest.raises(InputError) as err:
        bl.replay_summary(states.sort_index(), events.compute())
    assert str(err.value) == REFUSAL


def test_events_sorted_alone_are_refused_with_the_spelling_for_both(files_out_of_order):
    events = bd.read_events(files_out_of_order, by="grp")
    states = bd.replay(events, SLO, by="grp").compute()
    with pytest.raises(InputError) as err:
        bl.replay_summary(states.sort_index(), events.compute().sort_values("ts", kind="stable"))
    assert str(err.value) == (
        "states are not the replay of events row for row (the events' times are not the "
        "states'); give the states of budgetlab.replay(events, slo) (of a Dask replay: "
        "budgetlab.dask.replay(...).compute().sort_index().sort_values('ts', kind='stable'), "
        "with events.compute().sort_values('ts', kind='stable')).")
