"""Issue 31: many files whose times are all instants in different forms (zoned text, zoned
datetimes, epochs under ``epoch=``) read as one table, each file by its own rule and parsed once;
naive times beside instants refused, naming the files and the fix. Expected instants by hand."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import dask.dataframe as dd
import pandas as pd
import pyarrow as pa
import pyarrow.csv as pcsv
import pyarrow.parquet as pq
import pytest
from dask import delayed

from budgetlab import TimestampError, how_read, read_events
from budgetlab.cli import main
from budgetlab.dask import read_events as dask_read_events

NEW_YORK = ZoneInfo("America/New_York")
# 2026-03-01 is before the US DST change (2026-03-08): New York is UTC-5 that day
CSV = "ts,outcome\n2026-03-01T10:00:00+02:00,ok\n2026-03-01T12:30:00+02:00,failed\n"
CSV_UTC = ["2026-03-01 08:00", "2026-03-01 10:30"]  # 10:00 and 12:30 at +02:00
NY_LOCAL = [dt.datetime(2026, 3, 1, 4, 0, tzinfo=NEW_YORK),
            dt.datetime(2026, 3, 1, 6, 15, tzinfo=NEW_YORK)]
NY_UTC = ["2026-03-01 09:00", "2026-03-01 11:15"]  # 04:00 and 06:15 at -05:00


def utc_text(frame: pd.DataFrame) -> list[str]:
    return frame["ts"].dt.strftime("%Y-%m-%d %H:%M").tolist()


@pytest.fixture
def files(tmp_path):
    (tmp_path / "plus2.csv").write_text(CSV)
    pq.write_table(pa.table({"ts": pa.array(NY_LOCAL, pa.timestamp("us", tz="America/New_York")),
                             "outcome": ["ok", "timeout"]}), tmp_path / "ny.parquet")
    (tmp_path / "naive.csv").write_text("ts,outcome\n2026-03-01 10:00:00,ok\n")
    return tmp_path


@pytest.mark.parametrize("first", ["csv", "parquet"])
def test_zoned_text_and_zoned_datetimes_read_together_as_their_utc_instants(files, monkeypatch,
                                                                            first):
    parses = []
    read_csv = pcsv.read_csv
    monkeypatch.setattr(pcsv, "read_csv", lambda *a, **k: parses.append(1) or read_csv(*a, **k))
    names = ["plus2.csv", "ny.parquet"] if first == "csv" else ["ny.parquet", "plus2.csv"]
    got = read_events([files / n for n in names])
    assert len(parses) == 1  # the CSV is parsed once, its times as instants by Arrow
    assert str(got["ts"].dtype) == "datetime64[ns, UTC]"
    assert utc_text(got) == sorted(CSV_UTC + NY_UTC)
    assert got["bucket"].astype(str).tolist() == ["success", "success", "failure", "timeout"]
    how = how_read(got)
    assert (how.rows_read, how.rows_kept) == (4, 4)
    assert dict(how.files) == {"plus2.csv": 2, "ny.parquet": 2}
    assert how.time_reading == "each file by its own rule (see the notes), as UTC instants"
    assert "plus2.csv: time: text with UTC offsets (each row its own instant)" in how.notes
    assert "ny.parquet: time: datetimes with their zones" in how.notes
    assert "note: ny.parquet: time: datetimes with their zones" in str(how)


def test_epoch_numbers_and_epoch_text_under_epoch_read_with_zoned_datetimes(tmp_path):
    # 2026-03-01T00:00Z is day 56 * 365 + 14 (leap days 1972..2024) + 31 + 28 = 20513 of the epoch
    midnight = 20513 * 86400
    pq.write_table(pa.table({"ts": pa.array([midnight + 9 * 3600], pa.int64()),
                             "outcome": ["ok"]}), tmp_path / "epoch.parquet")
    (tmp_path / "text.csv").write_text("ts,outcome\n1772330400,ok\n")  # midnight + 2 h
    pq.write_table(pa.table({"ts": pa.array(NY_LOCAL[:1], pa.timestamp("ms", tz="UTC")),
                             "outcome": ["failed"]}), tmp_path / "utc.parquet")  # not a copy
    got = read_events([tmp_path / n for n in ("epoch.parquet", "text.csv", "utc.parquet")],
                      epoch="s")
    assert utc_text(got) == ["2026-03-01 02:00", "2026-03-01 09:00", "2026-03-01 09:00"]


@pytest.mark.parametrize("naive_first", [True, False])
def test_naive_text_beside_instants_is_refused_naming_the_files_and_the_fix(files, naive_first):
    names = ["naive.csv", "ny.parquet"] if naive_first else ["ny.parquet", "naive.csv"]
    for tz in ("UTC", "Europe/Berlin"):  # tz= is the zone of files whose times are all naive
        with pytest.raises(TimestampError, match=r"mixed naive and zone-aware timestamps: "
                           r"naive.csv holds times without a UTC offset \(text without offsets, "
                           rf"read as local times in {tz} \(tz= given\)\), but ny.parquet holds "
                           r"instants "
                           r"\(datetimes with their zones\); give every time an offset, or none "
                           "and pass tz= for the local zone"):
            read_events([files / n for n in names], tz=tz)


def test_naive_datetimes_beside_zoned_text_are_refused_and_the_cli_says_tz(files, capsys):
    pq.write_table(pa.table({"ts": pa.array([dt.datetime(2026, 3, 1, 10)], pa.timestamp("us")),
                             "outcome": ["ok"]}), files / "wall.parquet")
    with pytest.raises(TimestampError, match=r"wall.parquet holds times without a UTC offset "
                                             r"\(naive datetimes, read as UTC \(the default; "
                                             r"pass tz= to choose a zone\)\), but plus2.csv"):
        read_events([files / "plus2.csv", files / "wall.parquet"])
    code = main(["replay", str(files / "plus2.csv"), str(files / "wall.parquet"),
                 "--target", "0.9", "--window", "1h"])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err
    assert "wall.parquet holds times without a UTC offset" in err and "pass --tz" in err


def test_naive_text_and_naive_datetimes_read_in_the_zone_given(files):
    # both are wall times: one meaning, read in tz= (10:00 and 10:30 in Berlin, UTC+1 in March)
    pq.write_table(pa.table({"ts": pa.array([dt.datetime(2026, 3, 1, 10, 30)], pa.timestamp("us")),
                             "outcome": ["ok"]}), files / "wall.parquet")
    got = read_events([files / "naive.csv", files / "wall.parquet"], tz="Europe/Berlin")
    assert utc_text(got) == ["2026-03-01 09:00", "2026-03-01 09:30"]
    notes = how_read(got).notes
    assert ("naive.csv: time: text without offsets, read as local times in Europe/Berlin "
            "(tz= given)") in notes
    assert ("wall.parquet: time: naive datetimes, read as local times in Europe/Berlin "
            "(tz= given)") in notes


def test_dask_partitions_of_zoned_text_and_zoned_datetimes_agree_with_pandas(files):
    text = pd.DataFrame({"ts": ["2026-03-01T10:00:00+02:00", "2026-03-01T12:30:00+02:00"],
                         "outcome": ["ok", "failed"]}, dtype=object)
    zoned = pd.DataFrame({"ts": pd.Series(NY_LOCAL).dt.tz_convert("America/New_York"),
                          "outcome": ["ok", "timeout"]})
    # one partition of text, one of zoned datetimes (as two Parquet exports would give)
    raw = dd.from_delayed([delayed(pd.DataFrame.copy)(text), delayed(pd.DataFrame.copy)(zoned)],
                          meta=text.iloc[:0], verify_meta=False)
    assert raw.npartitions == 2
    got = dask_read_events(raw).compute()
    assert utc_text(got) == CSV_UTC + NY_UTC  # each partition sorted on its own
    # naive beside instants: refused, as by the pandas reader
    naive = pd.DataFrame({"ts": ["2026-03-01 10:00:00"], "outcome": ["ok"]}, dtype=object)
    mixed = dd.from_delayed([delayed(pd.DataFrame.copy)(zoned), delayed(pd.DataFrame.copy)(naive)],
                            meta=text.iloc[:0], verify_meta=False)
    with pytest.raises(TimestampError, match=r"mixed naive and zone-aware timestamps: partition "
                                             r"0 .* but partition 1 .*pass tz="):
        dask_read_events(mixed, tz="Europe/Berlin").compute()


def test_a_bad_time_is_named_by_its_file_and_row_and_only_an_open_last_line_is_said(tmp_path):
    (tmp_path / "a.csv").write_text("ts,outcome\n2026-03-01T10:00:00+02:00,ok")  # no line end
    (tmp_path / "b.csv").write_text("ts,outcome\nnot a time,ok\n2026-03-01T10:00:00Z,ok\n")
    pq.write_table(pa.table({"ts": pa.array(NY_LOCAL, pa.timestamp("us", tz="America/New_York")),
                             "outcome": ["ok", "ok"]}), tmp_path / "ny.parquet")
    with pytest.raises(TimestampError) as err:
        read_events([tmp_path / n for n in ("a.csv", "ny.parquet", "b.csv")])
    assert "at row 1 of b.csv (1-based, after the header);" in str(err.value)
    assert "no line end" not in str(err.value)  # a.csv's last line is not b.csv's first row
    (tmp_path / "c.csv").write_text("ts,outcome\n2026-03-01T10:00:00Z,ok\nnot a time,ok")
    with pytest.raises(TimestampError, match=r"row 2 of c.csv \(1-based, after the header\) "
                                             r"\(the last line has no line end"):
        read_events([tmp_path / n for n in ("ny.parquet", "c.csv")])
