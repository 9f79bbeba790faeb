"""Stop 58: the Dask reader's first pass (categories, personal-data columns) reads every partition
with ``pii="drop"`` to see which columns look personal; it is told not to warn
(:func:`budgetlab.events.read.read_table` with ``warn=False``) instead of silencing warnings with
``warnings.catch_warnings``, whose filters are the whole process's: on the threaded scheduler
one partition restored another's filters and ``dropped column 'customer'`` reached a user whose
column was hashed (``pii="hash"``; measured before the fix: 17 runs of 20). Oracles: the rows
written below and the pandas reader's hash of the same column."""

from __future__ import annotations

import warnings

import dask
import pandas as pd
import pytest

from budgetlab import read_events
from budgetlab.dask import read_events as dask_read_events
from budgetlab.errors import PersonalDataWarning
from tests.filter_callers import filter_callers

SALT = "s3cret"
FILES = 8


def _files(tmp_path):
    """8 files of 4 rows each (one an hour), a customer e-mail column: 32 rows, 8 timeouts."""
    paths = []
    for f in range(FILES):
        times = [f"2026-11-29T{f * 2 + i // 2:02d}:{i % 2 * 30:02d}:00Z" for i in range(4)]
        pd.DataFrame({"ts": times, "outcome": ["success", "success", "timeout", "success"],
                      "region": ["fra", "ams", "fra", "ams"],
                      "customer": [f"user{f}{i}@example.org" for i in range(4)]}
                     ).to_parquet(tmp_path / f"part-{f}.parquet")
        paths.append(tmp_path / f"part-{f}.parquet")
    return paths


def test_the_first_pass_sets_no_process_wide_warnings_filter(tmp_path, monkeypatch):
    """The mechanism: no budgetlab code on the read path enters ``warnings.catch_warnings``
    (it would save and restore every thread's filters at once)."""
    callers = filter_callers(monkeypatch)
    with dask.config.set(scheduler="sync"):
        ev = dask_read_events(_files(tmp_path), by="region", keep=["customer"], pii="hash",
                              salt=SALT).compute()
    assert callers == []
    assert len(ev) == 4 * FILES and int((~ev["ok"]).sum()) == FILES


@pytest.mark.parametrize("attempt", range(3))
def test_a_hashed_column_never_warns_that_it_was_dropped_on_threads(tmp_path, attempt):
    paths = _files(tmp_path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with dask.config.set(scheduler="threads", num_workers=4):
            got = dask_read_events(paths, by="region", keep=["customer"], pii="hash",
                                   salt=SALT).compute()
    assert [str(w.message) for w in caught if "dropped column" in str(w.message)] == []
    want = read_events(paths, by="region", keep=["customer"], pii="hash", salt=SALT)
    # the customer column hashed as the pandas reader hashes it, not dropped
    assert sorted(got["customer"].astype(str)) == sorted(want["customer"].astype(str))
    assert len(set(got["customer"].astype(str))) == 4 * FILES


def test_pii_drop_still_warns_once_per_dropped_column(tmp_path):
    with pytest.warns(PersonalDataWarning, match="dropped column 'customer'") as caught, \
            dask.config.set(scheduler="threads", num_workers=4):
        got = dask_read_events(_files(tmp_path), by="region", keep=["customer"],
                               pii="drop").compute()
    # stop 59: with the findings, as the pandas reader says them (8 files x 4 rows, every
    # address user{f}{i}@example.org written once)
    assert [str(w.message) for w in caught if "dropped column" in str(w.message)] == [
        "dropped column 'customer': it looks like personal data (32 rows like an e-mail address "
        "(32 distinct values))."]
    assert "customer" not in got.columns and len(got) == 4 * FILES


def test_the_quiet_reading_is_the_same_table_without_its_warning():
    raw = pd.DataFrame({"ts": ["2026-11-29T01:00:00Z", "2026-11-29T02:00:00Z"],
                        "outcome": ["success", "timeout"], "customer": ["a@b.org", "c@d.org"]})
    from budgetlab.events.read import read_table
    from budgetlab.events.spec import ReadSpec

    spec = ReadSpec(keep=["customer"], pii="drop")
    with pytest.warns(UserWarning, match="dropped column 'customer'"):
        loud = read_events(raw, spec)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        quiet = read_table(raw, spec, warn=False)
    pd.testing.assert_frame_equal(quiet, loud)
    assert list(quiet.columns) == ["ts", "ok", "bucket"]
