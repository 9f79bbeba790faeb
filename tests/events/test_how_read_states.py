"""Every reading decision a reader takes is stated in the "how it was read" facts (issue 15).

budgetlab's principle: what it cannot know it refuses, otherwise it states its reading; never a
silent decision. The readers accept CR-only line ends, compression recognised by content, Parquet
binary columns and numeric status columns by converting them: each test builds such an input,
reads it, and checks the hand-written statement is in ``str(how_read(events))``, in
``as_dict()["notes"]`` (the run record) and on the CLI's stderr, and that an ordinary file (LF
lines, not compressed, text columns) states none of them.
"""

from __future__ import annotations

import bz2
import gzip
import json
import lzma
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from budgetlab import how_read, read_events
from budgetlab.cli import main
from budgetlab.errors import InputError
from budgetlab.events import read_access_log

ROWS = [("2026-11-29T02:00:00Z", "success"), ("2026-11-29T02:05:00Z", "timeout"),
        ("2026-11-29T02:10:00Z", "success")]
CSV_LF = ("ts,outcome\n" + "".join(f"{t},{o}\n" for t, o in ROWS)).encode()
ACCESS_LF = (b'192.0.2.8 - - [10/Oct/2026:13:55:36 +0200] "GET / HTTP/1.1" 200 2326\n'
             b'192.0.2.9 - - [10/Oct/2026:13:55:40 +0200] "GET /a HTTP/1.1" 503 12\n')

CR = "line endings: CR only (old Mac), read as line ends"
STATUS = "column 'status': whole numbers, read as labels (HTTP statuses)"
BINARY = "column 'outcome': binary, decoded as UTF-8"


def _stated(events: pd.DataFrame) -> tuple[str, list[str]]:
    how = how_read(events)
    record = how.as_dict()
    json.dumps(record)  # the run record must stay JSON-able
    return str(how), record["notes"]


def _assert_states(events: pd.DataFrame, statement: str) -> None:
    text, notes = _stated(events)
    assert f"note: {statement}" in text
    assert statement in notes


def _assert_states_nothing(events: pd.DataFrame) -> None:
    text, notes = _stated(events)
    assert notes == []
    assert "note:" not in text
    for word in ("line endings", "compression", "decoded as UTF-8", "read as labels"):
        assert word not in text


def _ordinary(tmp_path: Path) -> pd.DataFrame:
    """An ordinary file (LF lines, not compressed, text columns): it states nothing."""
    path = tmp_path / "ordinary" / "log.csv"
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(CSV_LF)
    events = read_events(path)
    _assert_states_nothing(events)
    return events


def _ordinary_access_log(tmp_path: Path) -> None:
    log = tmp_path / "ordinary" / "access.log"
    log.parent.mkdir(exist_ok=True)
    log.write_bytes(ACCESS_LF)
    _assert_states_nothing(read_access_log(log))


# ---- CR-only line ends ---------------------------------------------------------------------------

def test_cr_only_line_ends_are_stated(tmp_path: Path) -> None:
    path = tmp_path / "log.csv"
    path.write_bytes(CSV_LF.replace(b"\n", b"\r"))
    events = read_events(path)
    assert len(events) == 3  # hand: three rows, read as the lines they are
    _assert_states(events, CR)
    _ordinary(tmp_path)
    crlf = tmp_path / "crlf.csv"  # CRLF is an ordinary line end: nothing to state
    crlf.write_bytes(CSV_LF.replace(b"\n", b"\r\n"))
    _assert_states_nothing(read_events(crlf))


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16"])
def test_a_quoted_cr_in_a_cr_only_file_stays_in_its_value(tmp_path: Path, encoding: str) -> None:
    # the oracle: the same rows with LF line ends, where a quoted CR is plainly part of a value
    rows = ["ts,outcome,session_id", "2026-11-29T02:00:00Z,success,a1",
            '2026-11-29T02:05:00Z,timeout,"b\r2026-11-29T02:06:00Z,success,x"',
            "2026-11-29T02:10:00Z,success,c3"]
    lf, mac = tmp_path / "lf.csv", tmp_path / "mac.csv"
    lf.write_bytes(("\n".join(rows) + "\n").encode(encoding))
    mac.write_bytes(("\r".join(rows) + "\r").encode(encoding))
    want = read_events(lf, session="session_id", encoding=encoding)
    assert want["session_id"].tolist() == ["a1", "b\r2026-11-29T02:06:00Z,success,x", "c3"]
    got = read_events(mac, session="session_id", encoding=encoding)
    pd.testing.assert_frame_equal(got, want)
    _assert_states(got, CR)


def test_a_quoted_cr_in_a_cr_only_file_is_refused_in_a_key_by_row(tmp_path: Path) -> None:
    path = tmp_path / "mac.csv"
    path.write_bytes(b'ts,outcome,region\r2026-11-29T02:00:00Z,success,fra\r'
                     b'2026-11-29T02:05:00Z,timeout,"am\rs"\r2026-11-29T02:10:00Z,success,fra\r')
    with pytest.raises(InputError, match=r"'region' holds invisible characters.* at row 2 "):
        read_events(path, by="region")


def test_cr_only_line_ends_are_stated_for_jsonl(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    path.write_bytes("".join(json.dumps({"ts": t, "outcome": o}) + "\r" for t, o in ROWS).encode())
    _assert_states(read_events(path), CR)
    lf = tmp_path / "lf.jsonl"
    lf.write_bytes(path.read_bytes().replace(b"\r", b"\n"))
    _assert_states_nothing(read_events(lf))


def test_cr_only_access_log_is_stated(tmp_path: Path) -> None:
    log = tmp_path / "access.log"
    log.write_bytes(ACCESS_LF.replace(b"\n", b"\r"))
    events = read_access_log(log)
    assert len(events) == 2
    _assert_states(events, CR)
    _ordinary_access_log(tmp_path)


# ---- compression ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("name", "pack", "statement"), [
    ("log.csv", lzma.compress, "compression: xz (recognised by content)"),
    ("log.csv", bz2.compress, "compression: bz2 (recognised by content)"),
    ("log.csv", gzip.compress, "compression: gzip (recognised by content)"),
    ("log.csv.gz", gzip.compress, "compression: gzip (named .gz)"),
    ("log.csv.xz", lzma.compress, "compression: xz (named .xz)"),
    ("log.csv.bz2", bz2.compress, "compression: bz2 (named .bz2)"),
])
def test_compression_is_stated(tmp_path: Path, name: str, pack: Any, statement: str) -> None:
    path = tmp_path / name
    path.write_bytes(pack(CSV_LF))
    events = read_events(path)
    assert events["bucket"].astype(str).tolist() == ["success", "timeout", "success"]
    _assert_states(events, statement)
    _ordinary(tmp_path)


def test_compressed_access_log_is_stated(tmp_path: Path) -> None:
    log = tmp_path / "access.log.2"  # a rotated log, gzip by content only
    log.write_bytes(gzip.compress(ACCESS_LF))
    _assert_states(read_access_log(log), "compression: gzip (recognised by content)")
    _ordinary_access_log(tmp_path)


def test_compressed_and_cr_only_states_both(tmp_path: Path) -> None:
    path = tmp_path / "log.csv"
    path.write_bytes(lzma.compress(CSV_LF.replace(b"\n", b"\r")))
    events = read_events(path)
    _assert_states(events, CR)
    _assert_states(events, "compression: xz (recognised by content)")


# ---- Parquet columns -----------------------------------------------------------------------------

def test_parquet_binary_column_is_stated(tmp_path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = tmp_path / "log.parquet"
    pq.write_table(pa.table({"ts": [t for t, _ in ROWS], "outcome": pa.array([o.encode() for _,
                                                                              o in ROWS],
                                                                          type=pa.binary())}), path)
    events = read_events(path)
    assert events["bucket"].astype(str).tolist() == ["success", "timeout", "success"]
    _assert_states(events, BINARY)
    text = tmp_path / "text.parquet"  # the same values in a string column: nothing to state
    pd.DataFrame({"ts": [t for t, _ in ROWS], "outcome": [o for _, o in ROWS]}).to_parquet(text)
    _assert_states_nothing(read_events(text))


def test_parquet_status_codes_are_stated(tmp_path: Path) -> None:
    path = tmp_path / "log.parquet"
    pd.DataFrame({"ts": [t for t, _ in ROWS], "status": [200, 503, 204]}).to_parquet(path)
    events = read_events(path, outcome="status", outcomes={"2xx": "success", "5xx": "server_error"})
    assert events["ok"].tolist() == [True, False, True]
    _assert_states(events, STATUS)
    text = tmp_path / "text.parquet"  # the same codes as text, as in a CSV file: nothing to state
    pd.DataFrame({"ts": [t for t, _ in ROWS], "status": ["200", "503", "204"]}).to_parquet(text)
    _assert_states_nothing(read_events(text, outcome="status", outcomes={"2xx": "success",
                                                                         "5xx": "server_error"}))


def test_numeric_codes_that_are_not_statuses_are_not_called_statuses() -> None:
    raw = pd.DataFrame({"ts": [t for t, _ in ROWS], "code": [7, 9, 7]})
    events = read_events(raw, outcome="code", outcomes={"7": "success", "9": "failure"})
    _assert_states(events, "column 'code': whole numbers, read as labels")
    assert "HTTP" not in str(how_read(events))
    # 1/0 read as flags: already said
    flags = pd.DataFrame({"ts": [t for t, _ in ROWS], "outcome": [1, 0, 1]})
    _assert_states_nothing(read_events(flags))


# ---- many files ----------------------------------------------------------------------------------

def test_many_files_name_the_file_each_statement_concerns(tmp_path: Path) -> None:
    (tmp_path / "a.csv").write_bytes(CSV_LF)
    # three logs, not copies (a copy is refused): the last rows differ
    (tmp_path / "b.csv").write_bytes(CSV_LF.replace(b"02:10", b"02:11").replace(b"\n", b"\r"))
    (tmp_path / "c.csv").write_bytes(lzma.compress(CSV_LF.replace(b"02:10", b"02:12")))
    events = read_events(tmp_path)
    assert len(events) == 9
    _assert_states(events, f"b.csv: {CR}")
    _assert_states(events, "c.csv: compression: xz (recognised by content)")
    assert len(how_read(events).notes) == 2
    plain = tmp_path / "plain"
    plain.mkdir()
    for name, last in (("a.csv", b"02:10"), ("b.csv", b"02:11")):
        (plain / name).write_bytes(CSV_LF.replace(b"02:10", last))
    _assert_states_nothing(read_events(plain))


def test_many_files_with_one_decision_say_every_file(tmp_path: Path) -> None:
    for name, last in (("a.csv", b"02:10"), ("b.csv", b"02:11")):  # two logs, not a copy
        (tmp_path / name).write_bytes(CSV_LF.replace(b"02:10", last).replace(b"\n", b"\r"))
    _assert_states(read_events(tmp_path), f"every file: {CR}")


def test_many_access_logs(tmp_path: Path) -> None:
    (tmp_path / "access.log").write_bytes(ACCESS_LF)
    # the rotated day before (a copy of access.log would be refused: every event twice)
    (tmp_path / "access.log.1").write_bytes(gzip.compress(ACCESS_LF.replace(b"10/Oct",
                                                                            b"09/Oct")))
    _assert_states(read_access_log(tmp_path),
                   "access.log.1: compression: gzip (recognised by content)")
    _ordinary_access_log(tmp_path)


# ---- the CLI: stderr and the run record --------------------------------------------------------

def test_cli_prints_and_records_the_statement(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "log.csv"
    path.write_bytes(lzma.compress(CSV_LF.replace(b"\n", b"\r")))
    out = tmp_path / "states.csv"
    assert main(["replay", str(path), "--window", "10min", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert f"note: {CR}" in err and "note: compression: xz (recognised by content)" in err
    record = json.loads(Path(f"{out}.run.json").read_text())
    assert record["how_read"]["notes"] == ["compression: xz (recognised by content)", CR]
    plain = tmp_path / "plain.csv"
    plain.write_bytes(CSV_LF)
    assert main(["replay", str(plain), "--window", "10min", "--out",
                 str(tmp_path / "plain_states.csv")]) == 0
    assert "note:" not in capsys.readouterr().err
    assert (
        json.loads((tmp_path / "plain_states.csv.run.json").read_text())["how_read"]["notes"] == []
    )


@pytest.mark.parametrize("kind", ["gzip", "bz2", "xz"])
def test_a_compressed_access_log_is_recognised_by_content_whatever_its_name(tmp_path, kind):
    """The CLI picks the access-log reader by content: gzip, bzip2 and xz logs under any name
    (before, only gzip was recognised, so an xz or bzip2 access log went to the table reader)."""
    from budgetlab.events.accesslog import is_access_log

    line = b'192.0.2.8 - - [10/Oct/2026:13:55:36 +0200] "GET / HTTP/1.1" 200 2326\n'
    pack = {"gzip": lambda b: gzip.compress(b, mtime=0), "bz2": bz2.compress,
            "xz": lzma.compress}[kind]
    log = tmp_path / "access.log.2"
    log.write_bytes(pack(line * 3))
    assert is_access_log(log)
    table = tmp_path / "table.log"
    table.write_bytes(pack(b"ts,outcome\n2026-11-29T00:00:00Z,success\n"))
    assert not is_access_log(table)


# ---- the zone of naive times: the default or a zone the user chose -------------------------------

NAIVE_CSV = ("ts,outcome\n2026-03-02 10:00:00,success\n2026-03-02 10:05:00,timeout\n"
             "2026-03-02 10:10:00,success\n")
DEFAULT_ZONE = "read as UTC (the default; pass tz= to choose a zone)"


def test_naive_times_read_in_the_default_zone_say_so_and_a_chosen_zone_says_given(tmp_path):
    # 10:00 without an offset: 10:00Z by default, 09:00Z in Berlin (CET, UTC+1 in March)
    path = tmp_path / "naive.csv"
    path.write_text(NAIVE_CSV)
    cases = [({}, f"text without offsets, {DEFAULT_ZONE}", "2026-03-02T10:00Z"),
             ({"tz": "Europe/Berlin"},
              "text without offsets, read as local times in Europe/Berlin (tz= given)",
              "2026-03-02T09:00Z"),
             # UTC chosen is said as chosen, though it is the default's zone
             ({"tz": "UTC"}, "text without offsets, read as local times in UTC (tz= given)",
              "2026-03-02T10:00Z"),
             # a fixed zone says its offset: POSIX Etc/GMT+5 is UTC-5, so 10:00 there is 15:00Z
             ({"tz": "Etc/GMT+5"}, "text without offsets, read as local times in Etc/GMT+5, "
              "UTC-05:00 all year (tz= given)", "2026-03-02T15:00Z")]
    for options, said, first in cases:
        events = read_events(path, **options)
        assert how_read(events).time_reading == said
        assert f"time: column 'ts', {said};" in str(how_read(events))
        assert events["ts"].iloc[0] == pd.Timestamp(first)
    # naive datetimes and a time format without a zone, the same two ways
    frame = pd.DataFrame({"ts": pd.to_datetime(["2026-03-02 10:00"]), "outcome": ["success"]})
    assert how_read(read_events(frame)).time_reading == f"naive datetimes, {DEFAULT_ZONE}"
    assert how_read(read_events(frame, tz="Europe/Berlin")).time_reading == \
        "naive datetimes, read as local times in Europe/Berlin (tz= given)"
    syslog = tmp_path / "auth.log"
    syslog.write_text("Mar  2 10:00:00 h sshd[1]: Accepted password for x\n")
    assert how_read(read_events(syslog, preset="sshd", year=2026)).time_reading == \
        f"text as written, format '%b %d %H:%M:%S', year 2026 given, {DEFAULT_ZONE}"


def test_the_cli_states_the_default_zone_apart_from_a_zone_given(tmp_path, capsys):
    path = tmp_path / "naive.csv"
    path.write_text(NAIVE_CSV)
    cases = [([], "read as UTC (the default; pass --tz to choose a zone); 2026-03-02T10:00:00Z"),
             (["--tz", "Europe/Berlin"],
              "read as local times in Europe/Berlin (--tz given); 2026-03-02T09:00:00Z"),
             (["--tz", "UTC"], "read as local times in UTC (--tz given); 2026-03-02T10:00:00Z")]
    for flags, said in cases:
        assert main(["replay", str(path), "--window", "10min", *flags]) == 0
        printed = capsys.readouterr()
        # the CLI fills the block's long lines to 100 columns: compared as one line
        assert f"time: column 'ts', text without offsets, {said} .. " in \
            " ".join((printed.out + printed.err).split())
