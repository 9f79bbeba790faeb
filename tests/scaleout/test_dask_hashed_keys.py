"""Stop 57: under ``pii="hash"`` the Dask reader spells a group key (stripped, NFC) before the
keyed hash, as the pandas reader does, and every partition shares the hashed categories: ``Köln``
written composed in one file and decomposed in another is one hashed group (before: the hashed
key's categories were those of one sample row, and every row of the key came back missing).
Oracles: the groups and their counts by hand from the rows written below; the pandas reader for
the hashed values."""

from __future__ import annotations

import warnings

import pandas as pd
import pytest

from budgetlab import read_events
from budgetlab.dask import read_events as dask_read_events

COMPOSED, DECOMPOSED = "K\u00f6ln", "Ko\u0308ln"
SALT = "s3cret"


def _file(path, values, outcomes, start, key="customer"):
    times = [f"2026-11-29T0{start + i}:00:00Z" for i in range(len(values))]
    pd.DataFrame({"ts": times, "outcome": outcomes, key: values}).to_parquet(path)
    return path


def _groups(ev, key="customer"):
    """(events, failures) per hashed key, by counting the rows."""
    frame = pd.DataFrame({"key": ev[key].astype(str), "fail": ~ev["ok"]})
    assert not ev[key].isna().any()
    return {k: (len(g), int(g["fail"].sum())) for k, g in frame.groupby("key")}


def _both(paths, key="customer"):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        got = dask_read_events(paths, by=key, pii="hash", salt=SALT).compute()
        want = read_events(paths, by=key, pii="hash", salt=SALT)
    return got.reset_index(drop=True), want


def test_nfc_and_nfd_files_are_one_hashed_group_as_in_pandas(tmp_path):
    # a.parquet: Köln composed, 1 success and 1 timeout; b.parquet: Köln decomposed, 2 successes
    # and 1 timeout. By hand: one group of 2 + 3 = 5 events, 1 + 1 = 2 failures
    a = _file(tmp_path / "a.parquet", [COMPOSED] * 2, ["success", "timeout"], 1)
    b = _file(tmp_path / "b.parquet", [DECOMPOSED] * 3, ["success", "success", "timeout"], 3)
    got, want = _both([a, b])
    assert list(_groups(got).values()) == [(5, 2)]
    assert _groups(got) == _groups(want)
    # the hashed key is the pandas reader's of the composed spelling, read alone
    alone = read_events(_file(tmp_path / "c.parquet", [COMPOSED], ["success"], 1),
                        by="customer", pii="hash", salt=SALT)
    assert set(got["customer"].astype(str)) == {str(alone["customer"].iloc[0])}
    assert list(got["customer"].dtype.categories) == list(want["customer"].dtype.categories)


def test_several_hashed_keys_keep_their_rows(tmp_path):
    # a: Köln (composed) success, fra timeout; b: Köln (decomposed) timeout, ams success, fra
    # success. By hand: Köln 2 events 1 failure, fra 2 events 1 failure, ams 1 event 0 failures
    a = _file(tmp_path / "a.parquet", [COMPOSED, "fra"], ["success", "timeout"], 1)
    b = _file(tmp_path / "b.parquet", [DECOMPOSED, "ams", "fra "],
              ["timeout", "success", "success"], 3)
    got, want = _both([a, b])
    assert sorted(_groups(got).values()) == [(1, 0), (2, 1), (2, 1)]
    assert _groups(got) == _groups(want)


@pytest.mark.parametrize("second", [DECOMPOSED, COMPOSED])
def test_a_key_personal_in_one_file_only_is_hashed_in_both(tmp_path, second):
    # only a.parquet holds an e-mail address in "site" (a name that denotes no person): the
    # column is hashed in both partitions, b's Köln spelled first as a's is.
    # By hand: the address 1 event 0 failures; Köln 1 + 2 = 3 events, 1 failure
    a = _file(tmp_path / "a.parquet", ["ann@example.org", COMPOSED], ["success", "success"], 1,
              "site")
    b = _file(tmp_path / "b.parquet", [second, second], ["timeout", "success"], 3, "site")
    got, want = _both([a, b], "site")
    assert sorted(_groups(got, "site").values()) == [(1, 0), (3, 1)]
    assert _groups(got, "site") == _groups(want, "site")
