"""budgetlab.dask.replay(columns=...) equals the pandas replay's columns (the pandas path is itself
tested equal to the full replay and, through it, to the seed tracker); compared exactly."""

from __future__ import annotations

import dask.dataframe as dd
import numpy as np
import pandas as pd
import pytest

import budgetlab.dask as bd
from budgetlab import SLO, as_events, replay
from budgetlab.errors import ConfigError, InputError

pytestmark = pytest.mark.dask


def sample(n=600, seed=3):
    rng = np.random.default_rng(seed)
    t = pd.Timestamp("2026-03-01", tz="UTC") + pd.to_timedelta(np.cumsum(rng.choice([0, 1, 30, 120],
                                                                                    size=n)),
                                                               unit="s")
    return as_events(t, rng.random(n) >= 0.08, groups={"region": rng.choice(["fra", "ams", "waw"],
                                                                            size=n)})


@pytest.mark.parametrize("by", [None, "region"])
def test_dask_column_subset_equals_pandas(by):
    ev = sample()
    slo = SLO(target=0.95, window="30min", min_events=3)
    cols = ["burn_rate", "status", "total"]
    got = bd.replay(dd.from_pandas(ev, npartitions=3, sort=False), slo, by=by,
                    columns=cols).compute()
    got = got.sort_index()
    want = replay(ev, slo, by=by, columns=cols)
    keys = [by] if by else []
    assert got.columns.tolist() == ["ts", *keys, "total", "burn_rate", "status"]
    for c in got.columns:
        np.testing.assert_array_equal(got[c].to_numpy(), want[c].to_numpy(), strict=True, err_msg=c)


def test_dask_transitions_need_the_figure_columns():
    ddf = dd.from_pandas(sample(), npartitions=2, sort=False)
    states = bd.replay(ddf, SLO(window="30min"), by="region", columns=["status"])
    with pytest.raises(InputError, match="without columns="):
        bd.transitions(states)


def test_dask_unknown_column_is_a_config_error():
    with pytest.raises(ConfigError, match="not a replay column"):
        bd.replay(dd.from_pandas(sample(), npartitions=2, sort=False), SLO(), columns=["nope"])
