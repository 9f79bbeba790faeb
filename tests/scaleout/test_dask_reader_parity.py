"""Stop 60: loose ends of the Dask reader against :func:`budgetlab.read_events` (same input, same
table, same refusals in the same words). Personal data in the bucket or outcome column is refused
at read time with the whole input's counts (before: per partition, "partition 0 ... 1 row", or
as unknown outcome labels); a file given twice is refused (before: read twice); a file with rows
that ``filters=`` empties is skipped and said, input they empty refused naming the filters
(before: kept as a file of 0 rows, silently; "has no rows"); a hashed session column is not read
by the first pass. Oracles: the rows written below, counted by hand, and the pandas reader's
message on the same files."""

from __future__ import annotations

import dask.dataframe as dd
import pandas as pd
import pytest

import budgetlab as bl
import budgetlab.dask as bd
from budgetlab.errors import FileFormatError, InputError, PersonalDataError

pytestmark = pytest.mark.dask

REQUIRED = ("column {!r} looks like personal data ({}); it is declared as a required column "
            "(time/outcome/ok/bucket), so it cannot be dropped or hashed: check which column "
            "you declared.")


def _write(path, times, **columns):
    pd.DataFrame({"ts": [f"2026-11-29T{h:02d}:00:00Z" for h in times], **columns}
                 ).to_parquet(path, index=False)
    return path


def _message(read, *args, error=PersonalDataError, **kw):
    with pytest.raises(error) as caught:
        read(*args, **kw)  # no .compute(): refused at read time
    return str(caught.value)


@pytest.fixture
def reasons(tmp_path):
    # a.parquet: 1 e-mail row (a@b.org); b.parquet: 2 (c@d.net, a@b.org): 3 rows, 2 distinct
    a = _write(tmp_path / "a.parquet", [1, 2, 3], ok=["true", "false", "false"],
               reason=["", "a@b.org", "timeout"])
    b = _write(tmp_path / "b.parquet", [4, 5], ok=["false", "false"],
               reason=["c@d.net", "a@b.org"])
    return a, b


def test_personal_data_in_the_bucket_column_is_refused_with_the_whole_input_counts(reasons):
    want = REQUIRED.format("reason", "3 rows like an e-mail address (2 distinct values)")
    files = list(reasons)
    assert _message(bl.read_events, files, ok="ok", bucket="reason") == want
    # files are named, as a key holding personal data is (stop 59)
    assert _message(bd.read_events, files, ok="ok", bucket="reason") == "2 files: " + want
    frame = dd.from_pandas(pd.concat([pd.read_parquet(p) for p in files], ignore_index=True),
                           npartitions=2, sort=False)
    assert _message(bd.read_events, frame, ok="ok", bucket="reason") == want


def test_personal_data_among_outcome_labels_is_refused_as_personal_data():
    # 4 rows over 2 partitions; e-mail addresses in rows 2 and 4, both x@y.org: 2 rows, 1 value
    raw = pd.DataFrame({"ts": [f"2026-11-29T0{i}:00:00Z" for i in range(4)],
                        "outcome": ["success", "x@y.org", "timeout", "x@y.org"]})
    want = REQUIRED.format("outcome", "2 rows like an e-mail address (1 distinct value)")
    assert _message(bl.read_events, raw) == want
    assert _message(bd.read_events, dd.from_pandas(raw, npartitions=2, sort=False)) == want


def test_a_file_given_twice_is_refused_in_the_pandas_words(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    _write(tmp_path / "a.parquet", [1, 2], outcome=["success", "timeout"])
    want = "a.parquet is given twice; give each file once."
    for given in (["a.parquet", "a.parquet"], ["a.parquet", str(tmp_path / "a.parquet")],
                  ["a.parquet", "*.parquet"]):
        assert _message(bl.read_events, given, error=InputError) == want
        assert _message(bd.read_events, given, error=InputError) == want


@pytest.fixture
def days(tmp_path):
    # a.parquet: 2 rows of day 29 (1 success, 1 timeout); b.parquet: 1 row of day 30;
    # c.parquet: a schema, no rows
    _write(tmp_path / "a.parquet", [1, 2], outcome=["success", "timeout"], day=["29", "29"])
    _write(tmp_path / "b.parquet", [3], outcome=["success"], day=["30"])
    pd.DataFrame({c: pd.Series([], dtype=str) for c in ("ts", "outcome", "day")}
                 ).to_parquet(tmp_path / "c.parquet", index=False)
    return tmp_path


def test_a_file_the_filters_empty_is_skipped_and_said(days):
    ev = bd.read_events(days, filters=[("day", "==", "29")])
    got, how = ev.compute(), bl.how_read(ev)
    assert len(got) == 2 and int((~got["ok"]).sum()) == 1  # by hand: a.parquet's 2 rows
    assert how.files == (("a.parquet", 2),)
    assert how.notes == ("b.parquet: no rows kept by filters=, skipped",
                         "c.parquet: no rows, skipped")


def test_input_the_filters_empty_is_refused_naming_the_filters(days):
    files = [days / "a.parquet", days / "b.parquet"]
    assert _message(bd.read_events, files, filters=[("day", "==", "31")], error=InputError) \
        == "2 files: filters= leave no rows; nothing to analyse: check filters=."
    # files without rows of their own: the pandas reader's refusal, filters or not
    empty = days / "c.parquet"
    want = _message(bl.read_events, empty, error=FileFormatError)
    assert want == "c.parquet: has a schema but no rows; nothing to analyse."
    assert _message(bd.read_events, empty, filters=[("day", "==", "29")],
                    error=FileFormatError) == want


def test_the_first_pass_does_not_read_a_hashed_session_column():
    # the session column is computed by a function that counts the rows it is given: the first
    # pass (read_events) reads none; the load (.compute()) all 6, in 2 partitions of 3
    read = []

    def sessions(part):
        read.append(len(part))
        return part

    raw = pd.DataFrame({"ts": [f"2026-11-29T0{i}:00:00Z" for i in range(6)],
                        "outcome": ["success", "timeout"] * 3,
                        "sid": ["r1", "r2", "r1", "r3", "r2", "r1"]})
    frame = dd.from_pandas(raw, npartitions=2, sort=False)
    frame = frame.assign(session=frame["sid"].map_partitions(sessions, meta=("sid", "object")))
    ev = bd.read_events(frame, session="session", hash_session=True, salt="k")
    assert read == []
    got = ev.compute()
    assert sorted(read) == [3, 3]
    # by hand: r1 in rows 0, 2, 5, r2 in 1, 4, r3 in 3: 3 hashes, equal ids equal hashes
    sid = got["session_id"].tolist()
    assert len(set(sid)) == 3 and sid[0] == sid[2] == sid[5] and sid[1] == sid[4]
