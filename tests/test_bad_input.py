"""Every kind of bad input of issue 10, one table, through the API and through the CLI.

Each row names the file to build, the loader options (API) and the matching CLI arguments, the
exception class expected and words its message must contain. For every row: the API raises
that class (a BudgetlabError), the CLI prints exactly one line on stderr and exits with 2, no
traceback escapes, no data value appears in any message (every file carries the sentinel
SECRET in an undeclared column, and the offending values are sentinels too), and the input
file is byte-identical afterwards. The last rows are the allowed cases (window longer than the
data, unsorted input): reported or sorted, never an error.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import subprocess
import sys
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from budgetlab import SLO, read_events, replay
from budgetlab._util.words import cli_words, speak
from budgetlab.cli import main
from budgetlab.errors import (
    BudgetlabError,
    ConfigError,
    FileFormatError,
    OutcomeError,
    PartialWindowWarning,
    PersonalDataError,
    SchemaError,
    TimestampError,
)

SECRET = "s3cr3t-value"  # must never appear in a message
HEADER = "ts,outcome,region,note"


def csv_text(rows: list[tuple[str, str, str]], header: str = HEADER) -> str:
    return header + "\n" + "".join(f"{t},{o},{r},{SECRET}\n" for t, o, r in rows)


GOOD_ROWS = [("2026-11-29T02:00:00Z", "success", "fra"), ("2026-11-29T02:10:00Z", "timeout", "ams"),
             ("2026-11-29T02:20:00Z", "success", "fra"), ("2026-11-29T02:30:00Z", "solve_error",
                                                          "ams")]
GOOD = csv_text(GOOD_ROWS)


def parquet_bytes() -> bytes:
    buf = io.BytesIO()
    pd.DataFrame({"ts": pd.date_range("2026-11-29", periods=50, freq="min", tz="UTC"),
                  "outcome": ["success"] * 50, "note": [SECRET] * 50}).to_parquet(buf, index=False)
    return buf.getvalue()


@dataclass
class Case:
    id: str
    name: str  # file name (None-like "" for the directory / missing cases, see make)
    content: bytes | str | None
    exc: type[BudgetlabError] | None
    needles: tuple[str, ...] = ()
    kw: dict[str, Any] = field(default_factory=dict)
    argv: tuple[str, ...] = ()
    api: Callable[[Path], Any] | None = None  # instead of read_events(path, **kw)


def _slo(**kw):
    return lambda path: replay(read_events(path), SLO(**kw))


CASES = [
    Case(
        "missing column",
        "log.csv",
        GOOD,
        SchemaError,
        # no "Did you mean" since g62nb: 'outcome' and 'note' were suggested for 'time'
        ("no column 'time'", "Columns present: 'ts'"),
        {"time": "time"},
        ("--time", "time"),
    ),
    Case(
        "misnamed column",
        "log.csv",
        GOOD.replace("outcome", "Outcome", 1),
        SchemaError,
        ("no column 'outcome'", "Did you mean 'Outcome'"),
    ),
    Case(
        "unparseable timestamps",
        "log.csv",
        csv_text([*GOOD_ROWS, (SECRET, "success", "fra")]),
        TimestampError,
        ("unparseable timestamp", "row 5", "ISO-8601"),
    ),
    Case(
        "empty timestamps",
        "log.csv",
        csv_text([*GOOD_ROWS, ("", "success", "fra")]),
        TimestampError,
        ("empty or missing timestamp", "row 5"),
    ),
    Case(
        "NaT timestamps",
        "log.csv",
        csv_text([("NaT", "success", "fra"), *GOOD_ROWS]),
        TimestampError,
        ("empty or missing timestamp", "row 1"),
    ),
    Case(
        "mixed naive and aware",
        "log.csv",
        csv_text([*GOOD_ROWS, ("2026-11-29 02:40:00", "success", "fra")]),
        TimestampError,
        ("mixed naive and zone-aware", "row 5", "tz="),
    ),
    Case(
        "unknown outcome labels",
        "log.csv",
        csv_text(
            [
                *GOOD_ROWS,
                ("2026-11-29T02:40:00Z", "weird", "fra"),
                ("2026-11-29T02:41:00Z", "weird", "fra"),
            ]
        ),
        OutcomeError,
        ("unknown outcome label", "'weird' (2)", "'solve_error' (1)"),
        {"outcomes": {"success": "success", "timeout": "timeout"}},
        ("--outcomes", "success=success,timeout=timeout"),
    ),
    Case(
        "non-boolean success values",
        "log.csv",
        "ts,ok,note\n"
        + "".join(
            f"2026-11-29T02:0{i}:00Z,{v},{SECRET}\n" for i, v in enumerate(["true", "0", SECRET])
        ),
        OutcomeError,
        ("non-boolean success value", "row 3", "true/false"),
        {"ok": "ok"},
        ("--ok", "ok"),
    ),
    Case(
        "duplicate column names",
        "log.csv",
        GOOD.replace("note", "region", 1),
        SchemaError,
        ("duplicate column name", "'region'"),
    ),
    Case("empty file", "log.csv", "", FileFormatError, ("empty",)),
    Case("header only", "log.csv", HEADER + "\n", FileFormatError, ("no rows",)),
    Case(
        "truncated Parquet",
        "log.parquet",
        parquet_bytes()[:-200],
        FileFormatError,
        ("not a readable Parquet file", "truncated or corrupt"),
    ),
    Case(
        "corrupt Parquet",
        "log.parquet",
        b"PAR1" + bytes(range(256)) * 4 + b"PAR1",
        FileFormatError,
        ("not a readable Parquet file",),
    ),
    Case(
        "truncated gzip",
        "log.csv.gz",
        gzip.compress(GOOD.encode())[:-12],
        FileFormatError,
        ("gzip stream is truncated or corrupt",),
    ),
    Case(
        "corrupt gzip",
        "log.csv.gz",
        b"\x1f\x8b\x08\x00" + b"\xff" * 64,
        FileFormatError,
        ("gzip stream is truncated or corrupt",),
    ),
    Case("a directory", "folder", None, FileFormatError, ("is a folder that holds no file",)),
    Case("missing file", "nope.csv", None, FileFormatError, ("no such file",)),
    Case(
        "unsupported extension",
        "log.xlsx",
        GOOD,
        FileFormatError,
        ("unsupported file type '.xlsx'", ".csv"),
    ),
    Case(
        "wrong encoding",
        "log.csv",
        csv_text([("2026-11-29T02:00:00Z", "success", "Köln")]).encode("cp1252"),
        FileFormatError,
        ("not valid utf-8", "encoding"),
        {"by": "region"},
        ("--by", "region"),
    ),
    Case(
        "UTF-16 text",
        "log.csv",
        b"\xff\xfe" + GOOD.encode("utf-16-le"),
        FileFormatError,
        ("UTF-16", "encoding='utf-16'"),
    ),
    Case(
        "timestamps outside pandas' range",
        "log.csv",
        csv_text([("1500-01-01T00:00:00Z", "success", "fra"), *GOOD_ROWS]),
        TimestampError,
        ("1677-09-21 .. 2262-04-11", "row 1"),
    ),
    Case(
        "epoch outside pandas' range",
        "log.csv",
        # one unit (seconds' magnitudes, below 1e11): milliseconds beside seconds are refused as
        # units mixed before the range is checked
        csv_text([("1780000000", "success", "fra"), ("99999999999", "success", "fra")]),
        TimestampError,
        ("1677-09-21 .. 2262-04-11", "row 2"),
        {"epoch": "s"},
        ("--epoch", "s"),
    ),
    Case(
        "invalid SLO: target >= 1",
        "log.csv",
        GOOD,
        ConfigError,
        ("target=1.5",),
        argv=("--target", "1.5"),
        api=_slo(target=1.5),
    ),
    Case(
        "invalid SLO: target <= 0",
        "log.csv",
        GOOD,
        ConfigError,
        ("target=0",),
        argv=("--target", "0"),
        api=_slo(target=0.0),
    ),
    Case(
        "invalid SLO: window <= 0",
        "log.csv",
        GOOD,
        ConfigError,
        ("window", "positive"),
        argv=("--window=-1h",),
        api=_slo(window="-1h"),
    ),
    Case(
        "invalid SLO: window unparseable",
        "log.csv",
        GOOD,
        ConfigError,
        ("not a duration",),
        argv=("--window", "soon"),
        api=_slo(window="soon"),
    ),
    Case(
        "invalid SLO: critical >= warning",
        "log.csv",
        GOOD,
        ConfigError,
        ("critical", "must be below"),
        argv=("--critical", "0.6", "--warning", "0.5"),
        api=_slo(critical=0.6, warning=0.5),
    ),
    # more ways a log goes wrong
    Case(
        "half-written last line",
        "log.csv",
        GOOD + "2026-11-29T02:40:00Z,succ",
        FileFormatError,
        ("different number of fields", "row", "half-written"),
    ),
    Case(
        "unquoted separator",
        "log.csv",
        GOOD + f"2026-11-29T02:40:00Z,success,fra,{SECRET},{SECRET}\n",
        FileFormatError,
        ("different number of fields", "data row 5"),
    ),
    Case(
        "unterminated quote",
        "log.csv",
        GOOD.replace(",success,fra", ',"success,fra', 1),
        FileFormatError,
        ("quoted field is never closed", "data row 1"),
    ),
    Case(
        "truncated outcome label",
        "log.csv",
        csv_text([*GOOD_ROWS, ("2026-11-29T02:40:00Z", "succ", "fra")]),
        OutcomeError,
        ("1 truncated outcome label", "row 5"),
    ),
    Case(
        "numeric outcome codes",
        "log.csv",
        csv_text([("2026-11-29T02:00:00Z", "200", "fra"), ("2026-11-29T02:01:00Z", "503", "fra")]),
        OutcomeError,
        ("numeric codes", "outcomes="),
    ),
    Case(
        "epoch without unit",
        "log.csv",
        csv_text([("1780000000", "success", "fra")]),
        TimestampError,
        ("plain numbers", "epoch='s'"),
    ),
    Case(
        "ambiguous local time (DST)",
        "log.csv",
        csv_text([("2026-10-25 02:30:00", "success", "fra")]),
        TimestampError,
        ("ambiguous at row 1", "happens twice"),
        {"tz": "Europe/Berlin"},
        ("--tz", "Europe/Berlin"),
    ),
    Case(
        "ambiguous day/month",
        "log.csv",
        csv_text([("01.02.2026 10:00", "success", "fra")]),
        TimestampError,
        ("day first (1 February) or month first (2 January)",
         "time_format='%d.%m.%Y %H:%M' (day first)"),
    ),
    Case(
        "invalid JSON Lines",
        "log.jsonl",
        '{"ts": "2026-11-29T02:00:00Z", "outcome": "success"}\n{"ts": "' + SECRET,
        FileFormatError,
        ("not valid JSON Lines", "first bad line: 2"),
    ),
    Case(
        "JSON record with a repeated key",
        "log.jsonl",
        '{"ts": "2026-11-29T02:00:00Z", "outcome": "success", "outcome": "timeout"}\n',
        SchemaError,
        ("repeats the key 'outcome'",),
    ),
    Case(
        "nested JSON values",
        "log.jsonl",
        '{"ts": "2026-11-29T02:00:00Z", "outcome": {"v": "' + SECRET + '"}}\n'
        '{"ts": "2026-11-29T02:01:00Z", "outcome": "success"}\n',
        SchemaError,
        ("nested values", "row 1"),
    ),
    Case(
        "personal data in a declared column",
        "log.csv",
        "ts,outcome,client\n2026-11-29T02:00:00Z,success,83.149.9.216\n2026-11-29T02:01:00Z,success,10.0.0.7\n",
        PersonalDataError,
        ("'client'", "IPv4 address", "2 rows"),
        {"by": "client"},
        ("--by", "client"),
    ),
    Case(
        "header-less file",
        "log.csv",
        "2026-11-29T02:00:00Z,success,83.149.9.216\n",
        SchemaError,
        ("no column 'ts'", "header row"),
    ),
    Case(
        "unknown time zone",
        "log.csv",
        GOOD,
        ConfigError,
        ("not a time zone",),
        {"tz": "Mars/Olympus"},
        ("--tz", "Mars/Olympus"),
    ),
    Case(
        "a Parquet file named .csv",
        "log.csv",
        parquet_bytes(),
        FileFormatError,
        ("is a Parquet file",),
    ),
    Case(
        "hash without a salt",
        "log.csv",
        GOOD,
        ConfigError,
        ("salt",),
        {"pii": "hash", "by": "region"},
        ("--pii", "hash", "--by", "region"),
    ),
]
ALLOWED = ["window longer than the data", "unsorted input"]


def make(case: Case, tmp_path: Path) -> Path:
    path = tmp_path / case.name
    if case.id == "a directory":
        path.mkdir()
    elif case.content is not None:
        path.write_bytes(case.content.encode() if isinstance(case.content, str) else case.content)
    return path


def digest(path: Path) -> str | None:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else None


def check_message(text: str, case: Case, *, cli: bool = False) -> None:
    for needle in case.needles:
        # the command line names its flags where the API names keywords (encoding='utf-16' ->
        # --encoding utf-16)
        if cli:
            with cli_words():
                needle = speak(needle)
        assert needle in text, (needle, text)
    assert SECRET not in text and "83.149.9.216" not in text and "10.0.0.7" not in text
    assert "Traceback" not in text


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_input_through_the_api(case, tmp_path):
    path = make(case, tmp_path)
    before = digest(path)
    with pytest.raises(case.exc) as info:
        if case.api is not None:
            case.api(path)
        else:
            read_events(path, **case.kw)
    assert isinstance(info.value, BudgetlabError)
    text = str(info.value)
    check_message(text + repr(info.value), case)
    assert "\n" not in text
    assert digest(path) == before


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_bad_input_through_the_cli(case, tmp_path, capsys):
    path = make(case, tmp_path)
    before = digest(path)
    out = tmp_path / "out.csv"
    rc = main(["replay", str(path), *case.argv, "--out", str(out)])
    captured = capsys.readouterr()
    assert rc == 2, captured
    assert captured.err.startswith("budgetlab: "
                                   "error: ") and captured.err.count("\n") == 1, captured.err
    check_message(captured.err + captured.out, case, cli=True)
    assert not out.exists()  # nothing half-done
    assert digest(path) == before


@pytest.mark.parametrize("case", [c for c in CASES if c.id in ("unparseable timestamps",
                                                               "corrupt Parquet")],
                         ids=lambda c: c.id)
def test_the_console_script_prints_one_line_without_traceback(case, tmp_path):
    path = make(case, tmp_path)
    proc = subprocess.run([sys.executable, "-m", "budgetlab.cli", "replay", str(path)],
                          capture_output=True,
                          text=True, check=False, cwd=Path(__file__).resolve().parents[1])
    assert proc.returncode == 2
    assert proc.stderr.startswith("budgetlab: error:") and proc.stderr.count("\n") == 1
    check_message(proc.stderr + proc.stdout, case, cli=True)


# the allowed rows -------------------------------------------------------------------------------
def test_window_longer_than_the_data_is_reported(tmp_path, capsys):
    path = tmp_path / "log.csv"
    path.write_text(GOOD)  # 30 minutes of data
    before = digest(path)
    events = read_events(path)
    with pytest.warns(PartialWindowWarning, match="longer than the data"):
        states = replay(events, SLO(window="24h"))
    assert len(states) == len(events)
    with warnings.catch_warnings():  # a window shorter than the data: no warning
        warnings.simplefilter("error", PartialWindowWarning)
        replay(events, SLO(window="10min"))
    assert main(["replay", str(path), "--window", "24h"]) == 0
    captured = capsys.readouterr()
    # issue 14: stderr holds the "how it was read" block, and nothing else (no warning line)
    assert "longer than the data" in captured.out and captured.err.startswith("how it was read")
    assert "budgetlab:" not in captured.err
    assert digest(path) == before


def test_unsorted_input_is_sorted_not_refused(tmp_path, capsys):
    rows = [GOOD_ROWS[2], GOOD_ROWS[0], GOOD_ROWS[3], GOOD_ROWS[1]]
    path = tmp_path / "log.csv"
    path.write_text(csv_text(rows))
    events = read_events(path)
    # hand: sorted times are GOOD_ROWS in order
    assert events["bucket"].astype(str).tolist() == ["success", "timeout", "success", "solve_error"]
    assert main(["replay", str(path), "--window", "10min"]) == 0
    # issue 14: the "how it was read" block only, no warning or error line
    err = capsys.readouterr().err
    assert err.startswith("how it was read") and "budgetlab:" not in err


def test_the_table_covers_every_row_of_the_issue():
    ids = {c.id for c in CASES} | set(ALLOWED)
    required = ["missing column", "misnamed column", "unparseable timestamps", "empty timestamps",
                "NaT timestamps",
                "mixed naive and aware", "unknown outcome labels", "non-boolean success values",
                "duplicate column names", "empty file", "header only", "truncated Parquet",
                "corrupt Parquet",
                "truncated gzip", "a directory", "missing file", "unsupported extension",
                "wrong encoding",
                "timestamps outside pandas' range", "invalid SLO: target >= 1",
                "invalid SLO: target <= 0",
                "invalid SLO: window <= 0", "invalid SLO: window unparseable",
                "invalid SLO: critical >= warning",
                "window longer than the data", "unsorted input"]
    assert not [r for r in required if r not in ids]


def test_dataframe_inputs_fail_the_same_way():
    df = pd.DataFrame({"ts": ["2026-11-29T02:00:00Z", SECRET], "outcome": ["success", "success"]})
    with pytest.raises(TimestampError, match="row 2") as info:
        read_events(df)
    assert SECRET not in str(info.value)
    dup = pd.DataFrame(np.zeros((1, 3)), columns=["ts", "outcome", "ts"])
    with pytest.raises(SchemaError, match="duplicate"):
        read_events(dup)
    with pytest.raises(BudgetlabError, match="no rows"):
        read_events(pd.DataFrame({"ts": [], "outcome": []}))
    mixed = pd.DataFrame({"ts": pd.Series([pd.Timestamp("2026-01-01", tz="UTC").to_pydatetime(),
                                           pd.Timestamp("2026-01-01").to_pydatetime()],
                                          dtype=object),
                          "outcome": ["ok", "ok"]})
    with pytest.raises(TimestampError, match="mixed naive and zone-aware"):
        read_events(mixed)
    with pytest.raises(BudgetlabError, match="source must be"):
        read_events(42)  # type: ignore[arg-type]
