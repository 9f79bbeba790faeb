"""Stop 59: ``pii="drop"`` on Dask warns as the pandas reader does: a
:class:`~budgetlab.errors.PersonalDataWarning` naming the column and what it holds (rows and
distinct values per kind), the distinct values counted once over all partitions. Oracles: the
rows written below, counted by hand, and :func:`budgetlab.read_events` on the same CSV."""

from __future__ import annotations

import warnings

import dask
import dask.dataframe as dd
import pandas as pd
import pytest

import budgetlab as bl
import budgetlab.dask as bd
from budgetlab.errors import ConfigError, PersonalDataWarning

pytestmark = pytest.mark.dask

# 4 rows; contact: a@b.org twice (rows 1 and 4), c@d.net once, one plain word
CSV = ("ts,outcome,region,contact\n"
       "2026-11-29T00:00:00Z,success,fra,a@b.org\n"
       "2026-11-29T00:01:00Z,timeout,ams,c@d.net\n"
       "2026-11-29T00:02:00Z,success,ams,nobody\n"
       "2026-11-29T00:03:00Z,success,fra,a@b.org\n")
CONTACT = ("dropped column 'contact': it looks like personal data (3 rows like an e-mail address "
           "(2 distinct values)).")


def _dropped(read, source, **kw):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = read(source, pii="drop", **kw)
        if hasattr(got, "compute"):
            got = got.compute()
    return got, [w for w in caught if "dropped column" in str(w.message)]


@pytest.mark.parametrize("partitions", [1, 2, 4])
def test_the_dask_reader_warns_what_the_pandas_reader_warns(tmp_path, partitions):
    path = tmp_path / "log.csv"
    path.write_text(CSV, encoding="utf-8")
    frame = dd.from_pandas(pd.read_csv(path, dtype=str), npartitions=partitions)
    assert frame.npartitions == partitions
    _, want = _dropped(bl.read_events, path, by="region", keep=["contact"])
    with dask.config.set(scheduler="threads", num_workers=4):
        got, caught = _dropped(bd.read_events, frame, by="region", keep=["contact"])
    assert [type(w.message) for w in want] == [type(w.message) for w in caught] == \
        [PersonalDataWarning]
    # a@b.org sits in two partitions when split in 2 or 4: counted once
    assert [str(w.message) for w in want] == [str(w.message) for w in caught] == [CONTACT]
    assert "contact" not in got.columns and len(got) == 4


def test_the_csv_read_by_dask_read_csv_warns_the_same(tmp_path):
    path = tmp_path / "log.csv"
    path.write_text(CSV, encoding="utf-8")
    _, caught = _dropped(bd.read_events, dd.read_csv(path, dtype=str), keep=["contact"])
    assert [(type(w.message), str(w.message)) for w in caught] == [(PersonalDataWarning, CONTACT)]


def test_a_key_of_two_kinds_over_partitions_is_counted_per_kind(tmp_path):
    # client: 10.0.0.1 in rows 1, 3 and 5 (one distinct), b@c.org in rows 2 and 6, e@f.org in
    # row 4: 3 e-mail rows of 2 distinct values, 3 IPv4 rows of 1; the e-mail kind comes first
    rows = ["10.0.0.1", "b@c.org", "10.0.0.1", "e@f.org", "10.0.0.1", "b@c.org"]
    raw = pd.DataFrame({"ts": [f"2026-11-29T00:0{i}:00Z" for i in range(6)],
                        "outcome": ["success", "timeout"] * 3, "client": rows})
    want = ("dropped column 'client': it looks like personal data (3 rows like an e-mail address "
            "(2 distinct values), 3 rows like an IPv4 address (1 distinct value)).")
    _, pandas_caught = _dropped(bl.read_events, raw, keep=["client"])
    _, dask_caught = _dropped(bd.read_events, dd.from_pandas(raw, npartitions=3),
                              keep=["client"])
    # as a by= key it would be dropped and the grouping lost: refused by both readers alike
    refusal = ("by='client' names a column that pii='drop' removes as personal data; use "
               "pii='hash' with salt= to group by its hashed values.")
    for read, source in ((bl.read_events, raw), (bd.read_events, dd.from_pandas(raw, 3))):
        with pytest.raises(ConfigError) as info:
            _dropped(read, source, by="client")
        assert str(info.value) == refusal
    assert [str(w.message) for w in pandas_caught] == [str(w.message) for w in dask_caught] == \
        [want]
    assert [type(w.message) for w in dask_caught] == [PersonalDataWarning]
