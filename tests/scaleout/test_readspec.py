"""Issue 29 point 1: the Dask twin takes the same ReadSpec as budgetlab.read_events."""

from __future__ import annotations

import dask.dataframe as dd
import pandas as pd
import pytest

from budgetlab import ReadSpec, read_events
from budgetlab.dask import read_events as dask_read_events
from budgetlab.errors import InputError, PersonalDataError

RAW = pd.DataFrame({"ts": [f"2026-11-29T0{h}:00:00Z" for h in range(6)],
                    "outcome": ["success", "timeout", "success", "success", "failed", "success"],
                    "region": ["fra", "ams", "fra", "ams", "fra", "fra"],
                    "client": ["web", "app", "web", "web", "app", "web"]})


def test_the_same_spec_reads_the_same_events():
    spec = ReadSpec(by=["region", "client"], not_personal=["client"])
    want = read_events(RAW, spec)
    got = dask_read_events(dd.from_pandas(RAW, npartitions=2, sort=False), spec).compute()
    got = got.sort_values("ts", kind="stable").reset_index(drop=True)
    pd.testing.assert_frame_equal(got[want.columns].astype({"region": "str", "client": "str"}),
                                  want.astype({"region": "str", "client": "str"}))


def test_keywords_override_the_spec_and_the_name_rule_holds():
    spec = ReadSpec(by=["region", "client"], not_personal=["client"])
    with pytest.raises(PersonalDataError, match="named like personal data"):
        dask_read_events(dd.from_pandas(RAW, npartitions=2, sort=False), spec,
                         not_personal=[]).compute()
    with pytest.raises(InputError, match="pattern= is for budgetlab.read_events"):
        dask_read_events(dd.from_pandas(RAW, npartitions=1), ReadSpec(preset="sshd", year=2015))
