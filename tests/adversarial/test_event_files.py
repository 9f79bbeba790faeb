"""The standing adversarial suite, event files (issue 15): hostile inputs to ``budgetlab replay``
and to ``read_events`` / ``read_access_log``, each run through the harness (exit 2, one line
naming the real cause, inputs byte-identical, nothing left behind, no personal value anywhere).
A few inputs the hardening made readable run through the CLI with exit 0 (the harness then checks
the inputs, the leftovers and the personal values)."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import re
import zlib
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from budgetlab import SLO, read_access_log, read_events
from budgetlab.cli import main
from budgetlab.errors import (
    ConfigError,
    FileFormatError,
    OutcomeError,
    PersonalDataError,
    SchemaError,
)
from tests.adversarial.harness import Case, run_case

ROWS = [("2026-11-29T00:00:00Z", "success"), ("2026-11-29T00:10:00Z", "timeout"),
        ("2026-11-29T00:20:00Z", "success"), ("2026-11-29T00:30:00Z", "success")]
CSV = ("ts,outcome\n" + "".join(f"{t},{o}\n" for t, o in ROWS)).encode()
JSONL = "".join(f'{{"ts": "{t}", "outcome": "{o}"}}\n' for t, o in ROWS)
EMAIL = "ivan.petrov@mail.ru"
ACCESS = b'192.0.2.8 - - [10/Oct/2026:13:55:36 +0200] "GET / HTTP/1.1" 200 2326\n'


def _bomb() -> bytes:
    """40 MiB of blank lines after a header, gzip level 9: 40 KiB on disk (1030:1)."""
    c = zlib.compressobj(9, zlib.DEFLATED, 31)
    parts = [c.compress(b"ts,outcome\n")] + [c.compress(b"\n" * (1 << 20)) for _ in range(40)]
    return b"".join([*parts, c.flush()])


def _parquet(**columns: object) -> bytes:
    buf = io.BytesIO()
    pq.write_table(pa.table(columns), buf)
    return buf.getvalue()


def _ints_parquet() -> bytes:
    buf = io.BytesIO()
    pd.DataFrame({"ts": [t for t, _ in ROWS], "status": [200, 503, 200, 404]}).to_parquet(buf)
    return buf.getvalue()


BAD_BINARY = _parquet(ts=[t for t, _ in ROWS], outcome=pa.array([b"success", b"\xff\xfe",
                                                                 b"success", b"ok"],
                                                                 pa.binary()))


def _api(name: str, **kw: object):
    return lambda d: read_events(d / name, **kw)


CASES = [
    Case(
        "gzip-bomb",
        ["replay", "{d}/bomb.csv.gz"],
        {"bomb.csv.gz": _bomb()},
        needles=("over 100 times its compressed size", "BUDGETLAB_MAX_RATIO"),
        api=_api("bomb.csv.gz"),
        api_error=FileFormatError,
    ),
    Case(
        "zstd-data",
        ["replay", "{d}/log.csv"],
        {"log.csv": b"\x28\xb5\x2f\xfd" + b"\x00" * 64},
        needles=("zstd-compressed", "save it as .csv.gz"),
        api=_api("log.csv"),
        api_error=FileFormatError,
    ),
    Case(
        "lz4-data",
        ["replay", "{d}/log.csv.lz4"],
        {"log.csv.lz4": b"\x04\x22\x4d\x18" + b"\x00" * 64},
        needles=("lz4-compressed",),
        api=_api("log.csv.lz4"),
        api_error=FileFormatError,
    ),
    Case(
        "truncated-xz",
        ["replay", "{d}/log.csv.xz"],
        {"log.csv.xz": lzma.compress(CSV)[:-9]},
        needles=("xz stream is truncated or corrupt",),
        api=_api("log.csv.xz"),
        api_error=FileFormatError,
    ),
    Case(
        "gz-name-plain-text",
        ["replay", "{d}/log.csv.gz"],
        {"log.csv.gz": CSV},
        needles=("not gzip data",),
        api=_api("log.csv.gz"),
        api_error=FileFormatError,
    ),
    Case(
        "utf16-jsonl",
        ["replay", "{d}/log.jsonl"],
        {"log.jsonl": JSONL.encode("utf-16")},
        needles=("UTF-16", "--encoding utf-16"),
        api=_api("log.jsonl"),
        api_error=FileFormatError,
        api_needles=("UTF-16", "encoding='utf-16'"),
    ),
    Case(
        "utf16le-no-bom-csv",
        ["replay", "{d}/log.csv"],
        {"log.csv": CSV.decode().encode("utf-16-le")},
        needles=("UTF-16-LE", "utf-16-le"),
        api=_api("log.csv"),
        api_error=FileFormatError,
    ),
    Case(
        "binary-data",
        ["replay", "{d}/log.csv"],
        {"log.csv": b"ts,outcome\n\x00\x01\x02\x03\xff" * 3},
        needles=("binary data",),
        api=_api("log.csv"),
        api_error=FileFormatError,
    ),
    Case(
        "csv-named-parquet",
        ["replay", "{d}/log.parquet"],
        {"log.parquet": CSV},
        needles=("holds CSV text", "--format csv"),
        api_needles=("holds CSV text", "format='csv'"),
        api=_api("log.parquet"),
        api_error=FileFormatError,
    ),
    Case(
        "jsonl-named-parquet",
        ["replay", "{d}/log.parquet"],
        {"log.parquet": JSONL.encode()},
        needles=("holds JSON text",),
        api=_api("log.parquet"),
        api_error=FileFormatError,
    ),
    Case(
        "parquet-int-statuses",
        ["replay", "{d}/log.parquet", "--outcome", "status"],
        {"log.parquet": _ints_parquet()},
        needles=("numeric codes", "--outcomes (status ranges allowed: 2xx=success"),
        api_needles=("numeric codes", "outcomes= (status ranges allowed: {'2xx': 'success'"),
        api=_api("log.parquet", outcome="status"),
        api_error=OutcomeError,
    ),
    Case(
        "parquet-non-utf8-binary",
        ["replay", "{d}/log.parquet"],
        {"log.parquet": BAD_BINARY},
        needles=("not UTF-8",),
        api=_api("log.parquet"),
        api_error=FileFormatError,
    ),
    *[
        Case(
            f"encoding-{enc}",
            ["replay", "{d}/log.csv", "--encoding", enc],
            {"log.csv": CSV},
            needles=(f"--encoding {enc} is not a character encoding",),
            api_needles=(f"encoding={enc!r} is not a character encoding",),
            api=_api("log.csv", encoding=enc),
            api_error=ConfigError,
        )
        for enc in ("hex", "base64", "rot13", "bz2", "punycode")
    ],
    Case(
        "window-out-of-range",
        ["replay", "{d}/log.csv", "--window", "100000D"],
        {"log.csv": CSV},
        needles=("out of range", "3660 days"),
        api=lambda d: SLO(target=0.95, window="100000D"),
        api_error=ConfigError,
    ),
    Case(
        "window-in-months",
        ["replay", "{d}/log.csv", "--window", "1M"],
        {"log.csv": CSV},
        needles=("no fixed length", "30D"),
        api=lambda d: SLO(target=0.95, window="1M"),
        api_error=ConfigError,
    ),
    Case(
        "personal-file-name",
        ["replay", f"{{d}}/{EMAIL}.csv"],
        {f"{EMAIL}.csv": b"ts,outcome\n"},
        needles=("not shown",),
        api=_api(f"{EMAIL}.csv"),
        api_error=FileFormatError,
        forbidden=(EMAIL, "petrov"),
    ),
    Case(
        "personal-file-name-gz-bomb",
        ["replay", f"{{d}}/{EMAIL}.csv.gz"],
        {f"{EMAIL}.csv.gz": _bomb()},
        needles=("over 100 times",),
        api=_api(f"{EMAIL}.csv.gz"),
        api_error=FileFormatError,
        forbidden=(EMAIL, "petrov"),
    ),
    Case(
        "personal-file-name-missing",
        ["replay", f"{{d}}/{EMAIL}.csv"],
        {},
        needles=("no such file",),
        api=_api(f"{EMAIL}.csv"),
        api_error=FileFormatError,
        forbidden=(EMAIL, "petrov"),
    ),
    Case(
        "header-less-personal-first-row",
        ["replay", "{d}/log.csv"],
        {"log.csv": f"2026-11-29T00:00:00Z,{EMAIL}\n2026-11-29T00:01:00Z,success\n".encode()},
        needles=("no column 'ts'",),
        api=_api("log.csv"),
        api_error=SchemaError,
        forbidden=(EMAIL, "petrov"),
    ),
    Case(
        "unknown-and-personal-labels",
        ["replay", "{d}/log.csv"],
        {"log.csv": CSV + f"2026-11-29T00:40:00Z,{EMAIL}\n2026-11-29T00:50:00Z,wobbly\n".encode()},
        needles=("personal data",),
        api=_api("log.csv"),
        api_error=PersonalDataError,
        forbidden=(EMAIL, "petrov"),
    ),
    Case(
        "access-log-empty-folder",
        ["replay", "{d}/logs"],
        {"logs/sub/x.txt": b""},
        needles=("logs: is a folder that holds no file to read; give a file or a folder of "
                 "files.",),
        api=lambda d: read_access_log(d / "logs"),
        api_error=FileFormatError,
    ),
    Case(
        "access-log-gzip-bomb",
        None,
        {"access.log.gz": _bomb()},
        needles=("over 100 times",),
        api=lambda d: read_access_log(d / "access.log.gz"),
        api_error=FileFormatError,
    ),
    # inputs the hardening made readable: exit 0, inputs untouched, nothing left behind
    Case(
        "cr-only-line-ends",
        ["replay", "{d}/mac.csv"],
        {"mac.csv": CSV.replace(b"\n", b"\r")},
        exit=0,
    ),
    Case(
        "xz-and-bz2",
        ["replay", "{d}/a.csv.xz", "{d}/b.csv.bz2"],
        {
            "a.csv.xz": lzma.compress(CSV),
            "b.csv.bz2": bz2.compress(CSV.replace(b"2026-11-29", b"2026-11-30")),
        },
        exit=0,
    ),
    Case(
        "a-field-of-8-mib",
        ["replay", "{d}/big.csv"],
        {
            "big.csv": b'ts,outcome,note\n2026-11-29T00:00:00Z,success,"'
            + b"x" * (8 << 20)
            + b'"\n'
            b"2026-11-29T00:01:00Z,timeout,y\n"
        },
        exit=0,
    ),
    Case(
        "window-in-weeks",
        ["replay", "{d}/log.csv", "--window", "1w"],
        {"log.csv": CSV},
        exit=0,
        forbidden=("deprecated", "Pandas4Warning"),
    ),
    Case(
        "access-log-cr-only-gzip",
        ["replay", "{d}/access.log.gz"],
        {"access.log.gz": gzip.compress((ACCESS * 3).replace(b"\n", b"\r"))},
        exit=0,
    ),
]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_event_file_case(case, tmp_path, capsys, monkeypatch):
    run_case(case, tmp_path, capsys, monkeypatch)


# The founding use case cites 152-FZ: Cyrillic e-mails are the expected case. These rely on the
# personal-data detector recognising them (budgetlab.privacy.looks_personal).
CYRILLIC = "иван@почта.рф"
CYRILLIC_CASES = [
    Case(
        "cyrillic-file-name",
        ["replay", f"{{d}}/{CYRILLIC}.csv"],
        {f"{CYRILLIC}.csv": b"ts,outcome\n"},
        needles=("not shown",),
        api=_api(f"{CYRILLIC}.csv"),
        api_error=FileFormatError,
        forbidden=(CYRILLIC, "иван"),
    ),
    Case(
        "cyrillic-unknown-label",
        ["replay", "{d}/log.csv"],
        {
            "log.csv": CSV
            + f"2026-11-29T00:40:00Z,{CYRILLIC}\n2026-11-29T00:50:00Z,wobbly\n".encode()
        },
        needles=("personal data",),
        api=_api("log.csv"),
        api_error=PersonalDataError,
        forbidden=(CYRILLIC, "иван"),
    ),
    Case(
        "cyrillic-header-less-first-row",
        ["replay", "{d}/log.csv"],
        {"log.csv": f"2026-11-29T00:00:00Z,{CYRILLIC}\n2026-11-29T00:01:00Z,success\n".encode()},
        needles=("no column 'ts'",),
        api=_api("log.csv"),
        api_error=SchemaError,
        forbidden=(CYRILLIC, "иван"),
    ),
]


@pytest.mark.parametrize("case", CYRILLIC_CASES, ids=str)
def test_cyrillic_personal_values_never_appear(case, tmp_path, capsys, monkeypatch):
    run_case(case, tmp_path, capsys, monkeypatch)


def test_an_id_like_by_key_warns_in_one_warning(tmp_path, capsys):
    n = 1200
    t = pd.Timestamp("2026-11-29", tz="UTC") + pd.to_timedelta(range(n), unit="min")
    frame = pd.DataFrame({"ts": t.strftime("%Y-%m-%dT%H:%M:%SZ"), "outcome": ["success"] * n,
                          "request_id": [f"req-{i:05d}" for i in range(n)]})
    frame.to_csv(tmp_path / "log.csv", index=False)
    assert main(["replay", str(tmp_path / "log.csv"), "--by", "request_id"]) == 0
    err = capsys.readouterr().err
    # a warning is filled to 100 columns, its lines after the first two spaces deeper
    warnings = [" ".join(w.split()) for w in re.split(r"\n(?! )", err)
                if w.startswith("budgetlab: warning:")]
    assert any("'request_id' has 1,200 distinct values over 1,200 rows "
               "(100 %)" in w and "looks like an id" in w
               and w.endswith("drop it from --by or group by a coarser key.")
               for w in warnings), err


def test_every_case_class_of_the_issue_is_covered():
    ids = {c.id for c in CASES}
    for needed in ("gzip-bomb", "zstd-data", "utf16-jsonl", "csv-named-parquet",
                   "parquet-int-statuses",
                   "parquet-non-utf8-binary", "encoding-hex", "encoding-punycode",
                   "window-out-of-range",
                   "cr-only-line-ends", "a-field-of-8-mib", "window-in-weeks", "personal-file-name",
                   "header-less-personal-first-row", "unknown-and-personal-labels",
                   "access-log-empty-folder"):
        assert needed in ids
    assert Path(__file__).name == "test_event_files.py"
