"""Stop 59: ``pii="error"`` on Dask refuses at ``read_events`` (the eager first pass scans every
group key, kept and session column), with the pandas reader's words and findings counted over
every partition, the input named when it is files. Before, the first pass skipped the scan: a
kept column was refused only at ``.compute()``, and the refusal came from building the metadata
on a few sample rows ("partition 0 ... 1 row like an e-mail address"). Oracles: the rows written
below, counted by hand, and :func:`budgetlab.read_events` on the same files."""

from __future__ import annotations

import dask.dataframe as dd
import pandas as pd
import pytest

import budgetlab as bl
import budgetlab.dask as bd
from budgetlab.errors import PersonalDataError

pytestmark = pytest.mark.dask

REFUSAL = ("column 'contact' looks like personal data ({}); personal data must not enter the "
           "budget log. Do not declare it, or pass pii='drop' to drop it or pii='hash' with a "
           "salt to keep it as a keyed hash.")


def _write(path, contacts, day):
    n = len(contacts)
    pd.DataFrame({"ts": [f"2026-11-{day}T00:{i:02d}:00Z" for i in range(n)],
                  "outcome": ["success" if i % 2 == 0 else "timeout" for i in range(n)],
                  "region": ["fra"] * n, "contact": contacts}).to_parquet(path, index=False)
    return path


def _refusal(read, source, **kw):
    with pytest.raises(PersonalDataError) as caught:
        read(source, keep=["contact"], **kw)  # no .compute(): refused at read time
    return str(caught.value)


def test_one_file_is_refused_with_its_true_counts(tmp_path):
    # 10 rows, every one an e-mail address: user0..user2, so 3 distinct values (by hand)
    path = _write(tmp_path / "one.parquet", [f"user{i % 3}@example.com" for i in range(10)], 29)
    what = "10 rows like an e-mail address (3 distinct values)"
    assert _refusal(bl.read_events, path) == REFUSAL.format(what)
    assert _refusal(bd.read_events, path) == "one.parquet: " + REFUSAL.format(what)


def test_personal_data_in_a_later_file_is_refused_at_read_time(tmp_path):
    # a.parquet holds no personal data; b.parquet 2 e-mail rows, a@b.org also in c.parquet:
    # 2 + 2 = 4 rows, 3 distinct values (a@b.org, e@f.io, g@h.net)
    a = _write(tmp_path / "a.parquet", ["team-a", "team-b", "team-a"], 27)
    b = _write(tmp_path / "b.parquet", ["a@b.org", "e@f.io"], 28)
    c = _write(tmp_path / "c.parquet", ["a@b.org", "g@h.net", "nobody"], 29)
    what = "4 rows like an e-mail address (3 distinct values)"
    assert _refusal(bl.read_events, [a, b, c]) == REFUSAL.format(what)
    assert _refusal(bd.read_events, [a, b, c]) == "3 files: " + REFUSAL.format(what)
    # a Dask DataFrame is not files: the pandas words as they are
    raw = dd.from_pandas(pd.concat([pd.read_parquet(p) for p in (a, b, c)], ignore_index=True),
                         npartitions=3, sort=False)
    assert _refusal(bd.read_events, raw) == REFUSAL.format(what)


def test_a_key_named_for_people_is_refused_once_for_the_input(tmp_path):
    path = _write(tmp_path / "one.parquet", ["x", "y"], 29)
    pd.read_parquet(path).rename(columns={"contact": "user"}).to_parquet(path, index=False)
    with pytest.raises(PersonalDataError) as pandas_error:
        bl.read_events(path, by=["user"])
    with pytest.raises(PersonalDataError) as dask_error:
        bd.read_events(path, by=["user"])
    assert str(pandas_error.value).startswith("group key 'user' is named like personal data")
    assert str(dask_error.value) == f"one.parquet: {pandas_error.value}"
