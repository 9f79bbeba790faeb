"""The Dask reader and ``transitions`` say and accept what the pandas ones do on the same input:
the files named in "how it was read", ``time_format=`` on a Parquet text time column, and states
without ``ts`` or with ``ts``/``status`` the replay does not write. Oracles: hand-written files,
times and messages, and :func:`budgetlab.read_events` / :func:`budgetlab.transitions` on the same
input."""

from __future__ import annotations

from pathlib import Path

import dask.dataframe as dd
import pandas as pd
import pytest

import budgetlab as bl
import budgetlab.dask as bd
from budgetlab.errors import InputError, SchemaError, TimestampError

pytestmark = pytest.mark.dask

FORMAT = "%d/%m/%Y %H:%M"


@pytest.fixture
def two_files(tmp_path: Path) -> Path:
    """a.parquet (2 rows) and b.parquet (1 row), times as text in day/month/year."""
    folder = tmp_path / "logs"
    folder.mkdir()
    pd.DataFrame({"ts": ["05/10/2026 10:00", "05/10/2026 09:30"],
                  "outcome": ["success", "timeout"]}).to_parquet(folder / "a.parquet")
    pd.DataFrame({"ts": ["06/10/2026 08:00"], "outcome": ["success"]}).to_parquet(
        folder / "b.parquet")
    return folder


@pytest.mark.parametrize("form", ["list", "folder", "glob"])
def test_the_files_are_named_as_read_events_names_them(two_files, form):
    source = {"list": [two_files / "a.parquet", two_files / "b.parquet"], "folder": two_files,
              "glob": str(two_files / "*.parquet")}[form]
    how = bl.how_read(bd.read_events(source, time_format=FORMAT))
    oracle = bl.how_read(bl.read_events(source, time_format=FORMAT))
    assert how.files == oracle.files == (("a.parquet", 2), ("b.parquet", 1))
    first = "how it was read: 2 files: a.parquet, b.parquet (3 rows)"
    assert str(how).splitlines()[0] == str(oracle).splitlines()[0] == first


def test_one_file_in_a_folder_is_named_by_its_name(tmp_path):
    folder = tmp_path / "logs"
    folder.mkdir()
    pd.DataFrame({"ts": ["2026-10-05T10:00:00Z"], "outcome": ["success"]}).to_parquet(
        folder / "only.parquet")
    assert bl.how_read(bd.read_events(folder)).files == \
        bl.how_read(bl.read_events(folder)).files == (("only.parquet", 1),)


def test_files_count_the_rows_the_filters_keep(tmp_path):
    # hive days with 1, 2 and 3 rows, x = 0, 1, 2 in each: date >= 10-06 and x < 2 keeps 2 + 2
    for n, day in enumerate(["2026-10-05", "2026-10-06", "2026-10-07"], start=1):
        (tmp_path / f"date={day}").mkdir()
        pd.DataFrame({"ts": [f"{day}T0{j}:00:00Z" for j in range(n)], "outcome": ["success"] * n,
                      "x": range(n)}).to_parquet(tmp_path / f"date={day}" / "part.parquet")
    ev = bd.read_events(tmp_path, filters=[("date", ">=", "2026-10-06"), ("x", "<", 2)])
    how = bl.how_read(ev)
    assert how.files == (("date=2026-10-06/part.parquet", 2), ("date=2026-10-07/part.parquet", 2))
    assert how.rows_read == len(ev.compute()) == 4


def test_time_format_reads_parquet_text_times_as_read_events_does(two_files):
    files = [two_files / "a.parquet", two_files / "b.parquet"]
    ev = bd.read_events(files, time_format=FORMAT, tz="Europe/Berlin")
    got = ev.compute()
    oracle = bl.read_events(files, time_format=FORMAT, tz="Europe/Berlin")
    # by hand: Berlin is UTC+2 in October (CEST); each file sorted by time
    want = pd.DatetimeIndex(["2026-10-05T07:30Z", "2026-10-05T08:00Z", "2026-10-06T06:00Z"])
    assert list(got["ts"]) == list(oracle["ts"]) == list(want)
    assert got["ok"].tolist() == oracle["ok"].tolist() == [False, True, True]
    how, said = bl.how_read(ev), bl.how_read(oracle)
    assert how.time_reading == said.time_reading == (
        "text as written, format '%d/%m/%Y %H:%M', read as local times in Europe/Berlin "
        "(tz= given)")
    assert str(how) == str(said)


def test_a_time_not_in_the_format_is_refused_in_the_same_words(tmp_path):
    path = tmp_path / "bad.parquet"
    pd.DataFrame({"ts": ["05/10/2026 10:00", "2026-10-05 09:30"],
                  "outcome": ["success", "timeout"]}).to_parquet(path)
    words = ("the time at row 2 (1-based) does not match the time format '%d/%m/%Y %H:%M'; "
             "check time_format=, or fix it.")
    with pytest.raises(TimestampError) as pandas_err:
        bl.read_events(path, time_format=FORMAT)
    assert str(pandas_err.value) == words
    with pytest.raises(TimestampError) as dask_err:
        bd.read_events(path, time_format=FORMAT)
    assert str(dask_err.value) == "partition 0 of the Dask frame (rows counted within it): " + words


def test_a_format_without_its_year_is_refused_with_the_reader_that_reads_it(two_files):
    for year in ({}, {"year": 2026}):
        with pytest.raises(InputError, match=r"format '%d/%m %H:%M' has none, .*New Year rule.*"
                                             r"use budgetlab\.read_events\.$"):
            bd.read_events(two_files / "a.parquet", time_format="%d/%m %H:%M", **year)


# transitions: the states the pandas function refuses, refused by the Dask one in its words

def _states():
    ev = bl.as_events(pd.date_range("2026-01-01", periods=6, freq="10min", tz="UTC"),
                      [True, False, True, True, False, False],
                      groups={"region": ["fra", "ams"] * 3})
    slo = bl.SLO(target=0.9, window="1h")
    return (bl.replay(ev, slo, by="region"),
            bd.replay(dd.from_pandas(ev, npartitions=2, sort=False), slo, by="region"))


TS_WORDS = ("its ts column holds {held}, not UTC times (datetime64 in UTC, as the replay writes "
            "them); convert it, e.g. states.assign(ts=pd.to_datetime(states['ts'], utc=True)) "
            "for times in UTC.")
CHANGES = {
    "no ts": (lambda s: s.drop(columns="ts"), InputError, ": its ts column is missing."),
    "no status": (lambda s: s.drop(columns="status"), InputError,
                  ": its status column is missing."),
    "status and total only": (lambda s: s[["status", "total"]], InputError,
                              ": its ts column is missing."),
    "total only": (lambda s: s[["total"]], InputError, ": its ts and status columns are missing."),
    "naive ts": (lambda s: s.assign(ts=s["ts"].dt.tz_localize(None)), SchemaError,
                 ": " + TS_WORDS.format(held="times without a zone")),
    "text ts": (lambda s: s.assign(ts=s["ts"].astype(str)), SchemaError,
                ": " + TS_WORDS.format(held="str values")),
    "Berlin ts": (lambda s: s.assign(ts=s["ts"].dt.tz_convert("Europe/Berlin")), SchemaError,
                  ": its ts column is in Europe/Berlin, not UTC (the replay's times are UTC); "
                  "convert it, the instants stay the same: "
                  "states.assign(ts=states['ts'].dt.tz_convert('UTC'))."),
    "text status": (lambda s: s.assign(status=s["status"].astype(str)), SchemaError,
                    ": its status column holds str values, not the replay's statuses (a "
                    "categorical of healthy, warning, critical, exhausted, in that order); "
                    "convert it: states.assign(status=states['status'].astype("
                    "pd.CategoricalDtype(['healthy', 'warning', 'critical', 'exhausted'], "
                    "ordered=True)))."),
}


@pytest.mark.parametrize("change", list(CHANGES))
def test_transitions_refuses_what_the_pandas_function_refuses(change):
    alter, error, rest = CHANGES[change]
    pandas_states, dask_states = _states()
    with pytest.raises(error) as pandas_err:
        bl.transitions(alter(pandas_states))
    with pytest.raises(error) as dask_err:
        bd.transitions(alter(dask_states))
    assert type(pandas_err.value) is type(dask_err.value) is error
    assert str(pandas_err.value) == \
        "transitions() takes the DataFrame returned by budgetlab.replay()" + rest
    assert str(dask_err.value) == ("transitions() takes the dask DataFrame returned by "
                                   "budgetlab.dask.replay()" + rest)

