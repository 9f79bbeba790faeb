"""Issue 14, points 8 and 11, and the "how it was read" facts of point 4 on the API: many files in
one read (list, glob, folder; one schema; stable order; the file of a bad row named), latency as
part of success (``slow_above``), and ``attrs["how_read"]``. Expected values by hand."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from budgetlab import (
    ConfigError,
    InputError,
    SchemaError,
    TimestampError,
    how_read,
    read_access_log,
    read_events,
)

JOBS = Path(__file__).parents[1] / "fixtures" / "jobs" / "job_status.csv"
NON_FINAL = {"pending": "skip", "running": "skip", "cancelled": "skip"}


def write_days(folder: Path) -> None:
    folder.mkdir()
    (folder / "2026-01-02.csv").write_text(
        "ts,outcome\n2026-01-02T00:00:00Z,ok\n2026-01-01T12:00:00Z,failed\n"
    )
    (folder / "2026-01-01.csv").write_text(
        "ts,outcome\n2026-01-01T12:00:00Z,ok\n2026-01-01T00:00:00Z,ok\n"
    )
    (folder / "_SUCCESS").write_text("")


def test_folder_glob_and_list_read_as_one_table_in_stable_order(tmp_path):
    days = tmp_path / "days"
    write_days(days)
    by_folder = read_events(days)
    # files in name order (01 then 02); the 12:00 tie keeps file order: 01's 'ok' before 02's
    # 'failed'
    assert by_folder["ts"].dt.strftime("%d %H").tolist() == ["01 00", "01 12", "01 12", "02 00"]
    assert by_folder["ok"].tolist() == [True, True, False, True]
    assert how_read(by_folder).files == (("2026-01-01.csv", 2), ("2026-01-02.csv", 2))
    by_glob = read_events(days / "*.csv")
    pd.testing.assert_frame_equal(by_glob, by_folder)
    # a list keeps its order
    listed = read_events([days / "2026-01-02.csv", days / "2026-01-01.csv"])
    assert listed["ok"].tolist() == [True, False, True, True]  # the tie: 02's 'failed' first now


def test_one_schema_across_files_and_the_bad_row_named_by_file(tmp_path):
    a = tmp_path / "a.csv"
    a.write_text("ts,outcome\n2026-01-01T00:00:00Z,ok\n")
    b = tmp_path / "b.csv"
    b.write_text("ts,outcome\n2026-01-01T00:00:01Z,ok\nnot a time,ok\n")
    with pytest.raises(TimestampError, match="row 2 of b.csv"):
        read_events([a, b])
    c = tmp_path / "c.csv"
    c.write_text("time,outcome\n2026-01-01T00:00:00Z,ok\n")
    with pytest.raises(SchemaError, match="c.csv has no column 'ts'"):
        read_events([a, c])
    pq.write_table(pa.table({"ts": pa.array([1_780_000_000], pa.int64()), "outcome": ["ok"]}),
                   tmp_path / "d.parquet")
    # the time column is read file by file: with epoch= a.csv's ISO text is not an epoch number
    with pytest.raises(TimestampError,
                       match="unparseable epoch timestamp.* at row 1 of a.csv .*must be a number"):
        read_events([a, tmp_path / "d.parquet"], epoch="s")
    (tmp_path / "e.jsonl").write_text('{"ts": "2026-01-01T00:00:00Z", "outcome": "ok", "n": 1}\n')
    pq.write_table(pa.table({"ts": ["2026-01-01T00:00:00Z"], "outcome": ["ok"], "n": [True]}),
                   tmp_path / "f.parquet")  # other columns: still one schema (a CSV's text aside)
    with pytest.raises(SchemaError, match="column 'n' holds numbers in e.jsonl but true/false va"):
        read_events([tmp_path / "e.jsonl", tmp_path / "f.parquet"], keep=["n"])
    with pytest.raises(InputError, match="given twice"):
        read_events([a, a])
    with pytest.raises(Exception, match="matches no file"):
        read_events(tmp_path / "*.tsv")


@pytest.mark.parametrize("order", ["naive first", "zoned first"])
def test_files_mixing_zoned_and_naive_times_are_refused_naming_the_file(tmp_path, monkeypatch,
                                                                        order):
    # the result: refused, never instants from one file and local times from another; the cost:
    # Arrow parses, counted. A CSV whose first time ends in a zone is read with its times as
    # instants, any other at once as text: every file is parsed once (naive first: 1 + 1 + 1;
    # zoned first: 1 + 1)
    import pyarrow.csv as pcsv

    (tmp_path / "z.csv").write_text("ts,outcome\n2026-01-01T10:00:00Z,ok\n")
    for name, outcome in (("n1.csv", "ok"), ("n2.csv", "failed")):  # two logs, not a copy
        (tmp_path / name).write_text(f"ts,outcome\n2026-01-01 11:00:00,{outcome}\n")
    files = ["n1.csv", "n2.csv", "z.csv"] if order == "naive first" else ["z.csv", "n1.csv"]
    parses = []
    read_csv = pcsv.read_csv
    monkeypatch.setattr(pcsv, "read_csv", lambda *a, **k: parses.append(1) or read_csv(*a, **k))
    with pytest.raises(TimestampError, match="mixed naive and zone-aware timestamps"):
        read_events([tmp_path / f for f in files], tz="Europe/Berlin")
    assert len(parses) == (3 if order == "naive first" else 2)
    parses.clear()
    got = read_events([tmp_path / "n1.csv", tmp_path / "n2.csv"], tz="Europe/Berlin")
    assert got["ts"].dt.strftime("%H:%M").tolist() == ["10:00", "10:00"]  # 11:00 Berlin, UTC+1
    assert len(parses) == 2


def test_rotated_access_logs_in_a_folder_gzip_by_content(tmp_path):
    logs = tmp_path / "logs"
    logs.mkdir()
    line = '192.0.2.{h} - - [10/Oct/2026:13:55:{s:02d} +0200] "GET / HTTP/1.1" {st} 12\n'
    (logs / "access.log").write_text(line.format(h=1, s=3, st=200) + line.format(h=2, s=4, st=503))
    # gzip, no .gz
    (logs / "access.log.1").write_bytes(gzip.compress(line.format(h=3, s=1, st=404).encode()))
    (logs / "access.log.2.gz").write_bytes(gzip.compress(line.format(h=4, s=2, st=200).encode()))
    ev = read_access_log(logs, outcomes={"2xx": "success", "4xx": "skip", "5xx": "server_error"})
    assert ev["ts"].dt.second.tolist() == [2, 3, 4] and ev["ok"].tolist() == [True, True, False]
    how = how_read(ev)
    assert (
        how.rows_read == 4
        and how.rows_kept == 3
        and dict(how.skipped) == {"status '404' -> skip": 1}
    )
    (logs / "access.log.3").write_text("garbage\n")
    with pytest.raises(Exception, match="access.log.3: 1 line"):
        read_access_log(logs)


# point 11: latency -------------------------------------------------------------------------------
def test_slow_above_counts_slow_successes_as_failures():
    raw = pd.DataFrame({"ts": [f"2026-01-01T00:00:0{i}Z" for i in range(5)],
                        "outcome": ["ok", "ok", "ok", "failed", "ok"],
                        "ms": [1999, 2000, 2001, 9000, 150]})
    ev = read_events(raw, duration="ms", duration_unit="ms", slow_above="2s")
    # strictly above 2 s: only 2001 ms; the slow failure stays a failure of its own kind
    assert ev["bucket"].astype(str).tolist() == ["success", "success", "slow", "failure", "success"]
    assert ev["ok"].tolist() == [True, True, False, False, True]
    assert how_read(ev).slow_rows == 1 and how_read(ev).slow_above == "2s"
    text = read_events(raw.assign(ms=["1.999s", "2s", "2001ms", "9s", "150ms"]), duration="ms",
                       slow_above="2s")
    assert text["bucket"].astype(str).tolist() == ev["bucket"].astype(str).tolist()


def test_latency_options_are_checked():
    raw = pd.DataFrame({"ts": ["2026-01-01T00:00:00Z"], "outcome": ["ok"], "ms": [5]})
    with pytest.raises(InputError, match="duration_unit"):
        read_events(raw, duration="ms", slow_above="2s")
    with pytest.raises(ConfigError, match="needs duration="):
        read_events(raw, slow_above="2s")
    with pytest.raises(ConfigError, match="slow_above"):
        read_events(raw, duration="ms", duration_unit="ms", slow_above="soon")
    with pytest.raises(InputError, match="negative duration"):
        read_events(raw.assign(ms=[-1]), duration="ms", duration_unit="ms", slow_above="2s")


# the job-status fixture end to end (hand counts in tests/fixtures/jobs/README.md) ---------------
def test_job_status_log_against_its_hand_count():
    with pytest.raises(Exception) as info:
        read_events(JOBS, time="finished_at", outcome="state")
    # named, never guessed
    assert "'pending': '?'" in str(info.value) and "'running': '?'" in str(info.value)
    ev = read_events(JOBS, time="finished_at", outcome="state", outcomes={
        "succeeded": "success", "failed": "failure", "timed out": "timeout", **NON_FINAL})
    assert len(ev) == 180 and int(ev["ok"].sum()) == 160
    # GMT+0100 read with the ISO sign
    assert ev["ts"].iloc[0] == pd.Timestamp("2026-11-28T23:00:00Z")
    assert ev["ts"].iloc[-1] == pd.Timestamp("2026-11-29T08:57:00Z")
    how = how_read(ev)
    assert {x.label: x.rows for x in how.labels} == {"succeeded": 160, "failed": 12, "timed_out": 8,
                                                     "pending": 9,
                                                     "running": 6, "cancelled": 5}
    slow = read_events(JOBS, time="finished_at", outcome="state", duration="duration_ms",
                       duration_unit="ms",
                       slow_above="2s", outcomes={"succeeded": "success", "failed": "failure",
                                                  "timed_out": "timeout", **NON_FINAL})
    assert int(slow["ok"].sum()) == 113 and int((slow["bucket"] == "slow").sum()) == 47


def test_how_read_is_json_and_a_readable_block():
    ev = read_events(JOBS, time="finished_at", outcome="state", outcomes={
        "succeeded": "success", "failed": "failure", "timed out": "timeout", **NON_FINAL})
    how = how_read(ev)
    assert json.loads(json.dumps(how.as_dict()))["rows_kept"] == 180
    text = repr(how)
    assert text == str(how) and text.startswith("how it was read: job_status.csv (200 rows)")
    assert "200 read, 180 kept, 20 skipped" in text
    assert "'succeeded'  -> success  160" in text
    assert "2026-11-28T23:00:00Z .. 2026-11-29T08:57:00Z" in text


def test_a_csv_beside_a_parquet_file_with_numbers_is_one_table(tmp_path):
    """A CSV holds text: its numbers and true/false values beside a Parquet file's are read as
    one column of text, as one file would be (they were refused as two schemas). The expected
    counts are by hand: a row succeeds when value < 50 (45 and 40 do, 60 does not)."""
    (tmp_path / "a.csv").write_text("ts,value,ok\n2026-01-01T00:00:00Z,45.5,true\n"
                                    "2026-01-01T00:01:00Z,60,false\n")
    pq.write_table(pa.table({"ts": ["2026-01-01T00:02:00Z"], "value": [40.0], "ok": [True]}),
                   tmp_path / "b.parquet")
    both = [tmp_path / "a.csv", tmp_path / "b.parquet"]
    assert read_events(both, ok_when="value<50")["ok"].tolist() == [True, False, True]
    assert read_events(both, ok="ok")["ok"].tolist() == [True, False, True]


def test_a_copy_of_a_file_is_refused_not_counted_twice(tmp_path):
    """The .gz that ``gzip -k`` keeps beside its file, or a Parquet export of a CSV, repeats its
    rows: read together, every event would count twice. A file that differs in one row is read
    (3 + 3 rows)."""
    text = "ts,outcome\n2026-01-01T00:00:00Z,ok\n2026-01-01T00:01:00Z,failed\n" \
           "2026-01-01T00:02:00Z,ok\n"
    (tmp_path / "a.csv").write_text(text)
    (tmp_path / "a.csv.gz").write_bytes(gzip.compress(text.encode()))
    pq.write_table(pa.table({"ts": ["2026-01-01T00:00:00Z", "2026-01-01T00:01:00Z",
                                    "2026-01-01T00:02:00Z"], "outcome": ["ok", "failed", "ok"]}),
                   tmp_path / "a.parquet")
    for copy in ("a.csv.gz", "a.parquet"):
        with pytest.raises(InputError, match=f"{copy} holds the same 3 rows as a.csv, row for "
                                             "row: read both, every event would count twice"):
            read_events([tmp_path / "a.csv", tmp_path / copy])
    (tmp_path / "b.csv").write_text(text.replace("00:02:00Z,ok", "00:02:00Z,failed"))
    assert read_events([tmp_path / "a.csv", tmp_path / "b.csv"])["ok"].tolist() == [
        True, True, False, False, True, False]


def test_a_copy_of_a_text_log_is_refused_not_counted_twice(tmp_path):
    """The same rule for line-oriented logs (a pattern, a preset, an access log): an access log
    and its gzip copy; the log's two halves are read, 2 + 1 events in line order."""
    lines = ['192.0.2.1 - - [17/May/2015:10:05:03 +0000] "GET /a HTTP/1.1" 200 12\n',
             '192.0.2.2 - - [17/May/2015:10:05:04 +0000] "GET /b HTTP/1.1" 503 12\n',
             '192.0.2.3 - - [17/May/2015:10:05:05 +0000] "POST /c HTTP/1.1" 200 12\n']
    (tmp_path / "access.log").write_text("".join(lines))
    (tmp_path / "access.log.1.gz").write_bytes(gzip.compress("".join(lines).encode()))
    with pytest.raises(InputError, match="access.log.1.gz holds the same 3 rows as access.log, "
                                         "row for row"):
        read_access_log([tmp_path / "access.log", tmp_path / "access.log.1.gz"])
    with pytest.raises(InputError, match="holds the same 3 rows"):
        read_events([tmp_path / "access.log", tmp_path / "access.log.1.gz"], preset="access")
    (tmp_path / "h1.log").write_text("".join(lines[:2]))
    (tmp_path / "h2.log").write_text(lines[2])
    assert read_access_log([tmp_path / "h1.log", tmp_path / "h2.log"])["ok"].tolist() == [
        True, False, True]
