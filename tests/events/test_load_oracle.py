"""The loaders read at Arrow speed (issue 20, point 3) and give exactly what they gave before.

The oracle is the previous implementation, kept only here: the CSV reader that held the whole
file in memory and always let Arrow look for line ends inside quotes, the group-key coding, the
personal-data column scan, and the access-log reader that parsed times with ``pd.to_datetime``.
``read_events`` with these patched in is the reader as it was; every file below is read both ways
and must give the same frame, the same "how it was read" facts, or the same one-line error.
"""

from __future__ import annotations

import csv
import gzip
import io
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

import budgetlab.events.read as read_mod
import budgetlab.privacy.guard as pii_mod
from budgetlab import how_read, read_access_log, read_events
from budgetlab._util.codes import factorize
from budgetlab._util.inputs import register_input
from budgetlab.errors import BudgetlabError, FileFormatError, InputError
from budgetlab.events import _csv_words as csv_words
from budgetlab.events import _text as I
from budgetlab.events import _text as arrow_read
from budgetlab.events import files as F
from budgetlab.events import schema as M
from budgetlab.events._compressed import read_input
from budgetlab.events._messages import note_open_last_row, row_numbers
from budgetlab.events._structured import _binary_as_text
from budgetlab.events._text import CR_ONLY_NOTE, compression_of, cr_only
from budgetlab.events.accesslog import _ok_flags
from budgetlab.events.files import FileSpec, expand_sources, file_name, file_notes
from budgetlab.events.how_read import HowRead, skip_reasons
from budgetlab.events.outcomes import LabelReading, OutcomeReading, classify_outcomes
from budgetlab.events.schema import (
    SUCCESS,
    as_events,
    bucket_dtype,
    time_span,
    ts_ns,
)
from budgetlab.events.vocabulary import check_outcomes
from budgetlab.privacy.guard import CANDIDATE, arrow_text, has, scan_text


# ------------------------------------------------------------------------------------------
# the oracle: the previous CSV reader (whole file in memory, newlines_in_values always on)
# ------------------------------------------------------------------------------------------
def _old_arrow_csv(data: bytes, sep: str, columns: list[str], dict_columns: Any) -> Any:
    import pyarrow.csv as pcsv

    def read(block: int | None) -> Any:
        return pcsv.read_csv(
            pa.BufferReader(data),
            read_options=pcsv.ReadOptions(use_threads=True, block_size=block),
            parse_options=pcsv.ParseOptions(delimiter=sep, newlines_in_values=True),
            convert_options=pcsv.ConvertOptions(
                include_columns=columns,
                column_types={c: pa.dictionary(pa.int32(),
                                               pa.string()) if c in dict_columns else pa.string()
                              for c in columns},
                strings_can_be_null=False, quoted_strings_can_be_null=False))

    try:
        return read(None)
    except pa.ArrowInvalid as exc:
        if "straddling" not in str(exc) or len(data) < (1 << 20):
            raise
    return read(min(len(data) + 1, (1 << 31) - 1))


def _old_text_table(raw: bytes, name: str, kind: str, columns: list[str], encoding: str,
                    dict_columns: Any) -> Any:
    if I.utf8_family(encoding):
        I.refuse_wide(raw, name)
        data = raw[3:] if raw[:3] == b"\xef\xbb\xbf" else raw
        first_line = data[: data.find(b"\n") if b"\n" in data[: 1 << 20] else 1 << 20]
        err = I.text_problem(first_line, name, "utf-8")
        if err is not None:
            raise err
    else:
        err = I.text_problem(raw, name, encoding)
        if err is not None:
            raise err
        data = raw.decode(encoding).lstrip("\ufeff").encode("utf-8")
    sep = "\t" if kind == "tsv" else ","
    head = data[: 1 << 20].decode("utf-8", errors="replace")
    try:
        header = next(csv.reader(io.StringIO(head), delimiter=sep), [])
    except csv.Error:
        raise FileFormatError(f"{name}: the header row is malformed; the first line must list the "
                              "column names.") from None
    if not header or not any(h.strip() for h in header):
        raise FileFormatError(f"{name}: the first line is blank; it must list the column names.")
    M.check_header(header, columns, name)
    try:
        table = _old_arrow_csv(data, sep, columns, dict_columns)
    except (pa.ArrowException, ValueError, OSError, MemoryError) as exc:
        text = str(exc)
        if "UTF8" in text or "UTF-8" in text:
            err = I.text_problem(data, name, "utf-8")
            if err is not None:
                raise err from None
        if "Expected" in text and "columns" in text:
            if data.count(b'"') % 2:
                csv_words.check_quotes(data, name, sep)
            raise FileFormatError(csv_words._ragged_message(data, name, sep,
                                                            len(header))) from None
        raise FileFormatError(f"{name}: malformed {kind.upper()} ({type(exc).__name__}); check "
                              "quoting and "
                              "separators, or export the file again.") from None
    if data.count(b'"') % 2:
        csv_words.check_quotes(data, name, sep)
    if table.num_rows == 0:
        raise FileFormatError(f"{name}: has a header but no rows; nothing to analyse.")
    frame = table.to_pandas()
    if not data.rstrip(b" \t").endswith((b"\n", b"\r")):
        note_open_last_row(len(frame) - 1)
    return pd.DataFrame(frame)


def old_read_file(path: Path, want: FileSpec) -> tuple[pd.DataFrame, list[str]]:
    # today's per-file interface over the previous reader (its time column always as text)
    notes: list[str] = []
    frame = old_read_columns(path, list(want.columns), want.format, want.encoding,
                             want.categorical, notes)
    return frame, notes


def old_read_columns(path: Path, columns: list[str], fmt: Any, encoding: str,
                     dict_columns: Any, notes: list[str]) -> pd.DataFrame:
    path = path.expanduser()
    F.check_path(path)
    kind, packed = F._detect_format(path, fmt)
    if kind == "parquet":
        return _old_parquet(path, columns, dict_columns, notes)
    if kind not in ("csv", "tsv"):
        frame, got = F.read_file(path, FileSpec(tuple(columns), tuple(dict_columns), fmt,
                                                encoding))
        notes.extend(got)
        return frame
    register_input(path)
    name = file_name(path)
    raw, got = read_input(path, name)
    notes.extend(got)
    if packed and compression_of(path.read_bytes()[:16]) is None:
        raise FileFormatError("misnamed")
    I.sniff(raw, name, kind)
    lf = F.as_lf(raw, encoding, quoted=kind != "jsonl")
    if lf is not None:
        raw = lf
        notes.append(CR_ONLY_NOTE)
    if not raw.strip(b" \t\r\n\x00\xef\xbb\xbf"):
        raise FileFormatError(f"{name}: the file is empty; give a file with a header and rows.")
    return _old_text_table(raw, name, kind, columns, encoding, dict_columns)


def _old_parquet(path: Path, columns: list[str], dict_columns: Any, notes: Any) -> pd.DataFrame:
    """The previous Parquet reader: the whole table read at once, then to pandas."""
    import pyarrow.parquet as pq

    register_input(path)
    with open(path, "rb") as fh:
        schema = pq.ParquetFile(fh).schema_arrow
        M.check_header(list(schema.names), columns, file_name(path))
        as_dict = [c for c in dict_columns if pa.types.is_string(schema.field(c).type)
                   or pa.types.is_large_string(schema.field(c).type)]
        fh.seek(0)
        table, got = _binary_as_text(
            pq.ParquetFile(fh, read_dictionary=as_dict).read(columns=columns), file_name(path))
        notes.extend(got)
        frame = pd.DataFrame(table.to_pandas(ignore_metadata=True))
    if len(frame) == 0:
        raise FileFormatError(f"{file_name(path)}: has a schema but no rows; nothing to analyse.")
    return frame


def old_group_key(col: pd.Series, name: str) -> pd.Categorical:
    codes, uniques = factorize(col)
    names = pd.Index(uniques.astype(str)).str.strip() if len(uniques) else pd.Index([], dtype="str")
    blank = np.asarray(names == "", dtype=bool)
    missing = (codes < 0) | (blank[np.maximum(codes, 0)] if len(blank) else False)
    if np.any(missing):
        raise InputError(f"group key {name!r} is empty or missing at "
                         f"{row_numbers(np.asarray(missing))}; "
                         "fill or drop those rows.")
    used = np.zeros(len(names), dtype=bool)
    used[codes] = True
    cats, inverse = np.unique(np.asarray(names, dtype=object)[used].astype(str),
                              return_inverse=True)
    remap = np.full(len(names), -1, dtype=np.int64)
    remap[np.flatnonzero(used)] = inverse
    return pd.Categorical.from_codes(remap[codes], categories=pd.Index(cats, dtype="str"))


def as_text(values: Any) -> pd.Series:
    """Values as a pyarrow-backed string Series, lone surrogates as ``?`` (the scan's text before
    it read Arrow directly)."""
    if isinstance(values, (pd.Series, pd.Index)) and pd.api.types.is_string_dtype(values.dtype) \
            and not pd.api.types.is_object_dtype(values.dtype):
        return pd.Series(values, copy=False).reset_index(drop=True).astype("string[pyarrow]")
    objs = np.asarray(values, dtype=object)
    try:
        return pd.Series(objs, dtype="string[pyarrow]")
    except UnicodeEncodeError:
        return pd.Series([v.encode("utf-8", "replace").decode("utf-8") if isinstance(v, str) else v
                          for v in objs], dtype="string[pyarrow]")


def old_scan_column(column: pd.Series) -> tuple[dict[str, int], dict[str, int]]:
    cats = getattr(column.dtype, "categories", None)
    dtype = column.dtype if cats is None else cats.dtype
    kind = ("numeric" if pd.api.types.is_integer_dtype(dtype)
            else "text" if pd.api.types.is_string_dtype(dtype) else None)
    if kind is None or len(column) == 0:
        return {}, {}
    column_text = None
    if isinstance(column.dtype, pd.CategoricalDtype):
        codes, uniques = factorize(column)
        counts = np.bincount(codes[codes >= 0], minlength=len(uniques))
        used = counts > 0
        uniques, counts = uniques[used], counts[used]
    elif kind == "numeric":
        values = column.dropna().to_numpy()
        big = np.abs(values.astype(np.float64)) >= 1e12
        codes, uniq = pd.factorize(values[big])
        uniques, counts = pd.Index(uniq), np.bincount(codes, minlength=len(uniq))
    else:
        if pd.api.types.is_string_dtype(column.dtype) and not pd.api.types.is_object_dtype(
            column.dtype
        ):
            text = as_text(column)
        else:
            text = as_text(column.astype(str).where(column.notna()))
        column_text = arrow_text(text)
        cand = has(column_text, CANDIDATE)
        cand_codes, cand_uniq = pd.factorize(text[cand], use_na_sentinel=True)
        uniques = pd.Index(cand_uniq)
        counts = np.bincount(cand_codes[cand_codes >= 0], minlength=len(cand_uniq))
    if len(uniques) == 0:
        return {}, {}
    if kind == "numeric":
        values_any: Any = np.asarray(uniques).astype(str).astype(object)
    elif pd.api.types.is_string_dtype(uniques.dtype) and not pd.api.types.is_object_dtype(
        uniques.dtype
    ):
        values_any = uniques
    else:
        values_any = np.asarray(uniques.astype(str), dtype=object)
    masks = scan_text(values_any, numeric=kind == "numeric", column=column_text)
    return ({k: int(counts[m].sum()) for k, m in masks.items()}, {k: int(m.sum()) for k,
                                                                  m in masks.items()})


def _as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(F, "read_file", old_read_file)
    monkeypatch.setattr(read_mod, "group_key", old_group_key)
    monkeypatch.setattr(pii_mod, "_scan_column", old_scan_column)


def _both(monkeypatch: pytest.MonkeyPatch, source: Any, **kw: Any) -> tuple[Any, Any]:
    """``(new, old)``: the frame (or the error text) of today's reader and of the oracle."""
    def run() -> Any:
        try:
            with warnings.catch_warnings(record=True):
                warnings.simplefilter("always")
                return read_events(source, **kw)
        except BudgetlabError as exc:
            return f"{type(exc).__name__}: {exc}"

    new = run()
    with monkeypatch.context() as m:
        _as_before(m)
        old = run()
    return new, old


def _same(new: Any, old: Any) -> None:
    if isinstance(old, str) or isinstance(new, str):
        assert new == old
        return
    pd.testing.assert_frame_equal(new, old)
    assert how_read(new) == how_read(old)


# ------------------------------------------------------------------------------------------
# files
# ------------------------------------------------------------------------------------------
HEADER = "ts,outcome,region,session\n"
ROWS = ["2026-11-29T00:00:00Z,success,fra,s1", "2026-11-29T00:01:00+01:00,timeout,ams,s2",
        "2026-11-29T00:02:00-05:30,success, fra ,s3", "2026-11-29T00:03:00Z,solve_error,ams,s4"]


def _body(rows: list[str], end: str = "\n") -> str:
    return HEADER.replace("\n", end) + "".join(r + end for r in rows)


def _big_quoted(n: int) -> str:
    """More than Arrow's 1 MiB block, with line ends inside quoted values across the file."""
    rng = np.random.default_rng(3)
    out = [HEADER.replace("session", "note")]
    for i in range(n):
        note = f'"line a {i}\nline, b"' if rng.random() < 0.3 else f"n{i}"
        out.append(
            f"2026-11-29T{i // 3600 % 24:02d}:{i // 60 % 60:02d}:{i % 60:02d}Z,success,fra,{note}\n"
        )
    return "".join(out)


CASES: dict[str, tuple[bytes, dict[str, Any]]] = {
    "plain": (_body(ROWS).encode(), {}),
    "quoted fields": (
        (
            '"ts","outcome","region","session"\n'
            + "".join(",".join(f'"{v}"' for v in r.split(",")) + "\n" for r in ROWS)
        ).encode(),
        {},
    ),
    "quoted header only": (
        ('"ts","outcome","region","session"\n' + "".join(r + "\n" for r in ROWS)).encode(),
        {},
    ),
    "separator and newline in quotes": (
        _body(['2026-11-29T00:00:00Z,success,"fr,a","s\n1"', ROWS[1]]).encode(),
        {},
    ),
    "escaped quotes": (
        _body(['2026-11-29T00:00:00Z,success,"fra ""x""",s1', ROWS[1]]).encode(),
        {},
    ),
    "quote inside a plain field": (
        _body(['2026-11-29T00:00:00Z,success,fr"a,s1', ROWS[1]]).encode(),
        {},
    ),
    "unclosed quote": (_body(['2026-11-29T00:00:00Z,success,"fra,s1', ROWS[1]]).encode(), {}),
    "bom": (b"\xef\xbb\xbf" + _body(ROWS).encode(), {}),
    "two boms": (b"\xef\xbb\xbf\xef\xbb\xbf" + _body(ROWS).encode(), {}),
    "crlf": (_body(ROWS, "\r\n").encode(), {}),
    "cr only": (_body(ROWS, "\r").encode(), {}),
    "no final line end": (_body(ROWS).encode().rstrip(b"\n"), {}),
    "trailing blanks": (_body(ROWS).encode() + b"  \t", {}),
    "blank lines": (_body(ROWS).replace("\n", "\n\n", 2).encode(), {}),
    "empty": (b"", {}),
    "blanks only": (b" \n\r\n\t", {}),
    "header only": (HEADER.encode(), {}),
    "header without line end": (HEADER.strip().encode(), {}),
    "ragged": (_body([*ROWS, "2026-11-29T00:04:00Z,success"]).encode(), {}),
    "ragged with odd quotes": (_body([*ROWS, '2026-11-29T00:04:00Z,"success']).encode(), {}),
    "missing column": (b"ts,outcome\n2026-11-29T00:00:00Z,success\n", {}),
    "epochs": (
        b"ts,outcome,region,session\n1780000000,success,fra,s1\n1780000060,timeout,ams,s2\n",
        {"epoch": "s"},
    ),
    "epoch ms": (
        b"ts,outcome,region,session\n1780000000000,success,fra,s1\n1780000060500,failed,ams,s2\n",
        {"epoch": "ms"},
    ),
    "naive in a zone": (
        _body(
            [r.replace("Z", "").replace("+01:00", "").replace("-05:30", "") for r in ROWS]
        ).encode(),
        {"tz": "Europe/Berlin"},
    ),
    "latin-1": (
        _body(["2026-11-29T00:00:00Z,success,Köln,s1", ROWS[1]]).encode("latin-1"),
        {"encoding": "latin-1"},
    ),
    "not utf-8": (
        _body(["2026-11-29T00:00:00Z,success,K\xf6ln,s1", ROWS[1]]).encode("latin-1"),
        {},
    ),
    # a label of bytes that are not UTF-8 after segments of good ones (labels are read as bytes,
    # decoded per value)
    "not utf-8 later": (
        _body([*ROWS, "2026-11-29T00:04:00Z,K\xf6ln,ams,s5"]).encode("latin-1"),
        {},
    ),
    "utf-16": (_body(ROWS).encode("utf-16"), {}),
    "binary": (b"\x00\x01\x02" * 100, {}),
    "personal session": (
        _body(["2026-11-29T00:00:00Z,success,fra,ivan@example.org", ROWS[1]]).encode(),
        {},
    ),
    "personal region": (
        _body(["2026-11-29T00:00:00Z,success,+7 916 123-45-67,s1", ROWS[1]]).encode(),
        {},
    ),
    "empty group key": (_body(["2026-11-29T00:00:00Z,success, ,s1", ROWS[1]]).encode(), {}),
    "big quoted": (_big_quoted(40_000).encode(), {"session": "note"}),
    "big plain": (
        _big_quoted(40_000).replace('"line a', "line a").replace('\nline, b"', " line b").encode(),
        {"session": "note"},
    ),
    # thousands of group keys in random order (sitekeys): dictionaries of more than _LOOKUP_VALUES
    # values, looked up by Arrow among the categories so far; new keys keep arriving to the end
    "big many groups": (
        _body(
            [
                f"2026-11-29T{i // 3600 % 24:02d}:{i // 60 % 60:02d}:{i % 60:02d}Z,"
                f"{'timeout' if i % 7 == 0 else 'success'},k{k},s{i}"
                for i, k in enumerate(
                    np.random.default_rng(8).integers(0, 3000, 30_000) + np.arange(30_000) // 20
                )
            ]
        ).encode(),
        {},
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_csv_reads_as_before(case, tmp_path, monkeypatch):
    raw, kw = CASES[case]
    path = tmp_path / "log.csv"
    path.write_bytes(raw)
    options = {"by": "region", "session": "session", **kw}
    new, old = _both(monkeypatch, path, **options)
    _same(new, old)
    if case in ("plain", "quoted fields", "big quoted", "bom", "crlf",
                "separator and newline in quotes"):
        assert not isinstance(new, str)  # the cases that must load do load


@pytest.mark.parametrize("case", sorted(CASES))
def test_csv_read_in_batches_reads_as_before(case, tmp_path, monkeypatch):
    # a large file is read by Arrow's streaming reader (open_csv above STREAM_BYTES, 1 GiB): here
    # above 64 bytes, in blocks of a few lines (4 KiB for the 40,000-row files), so that every case
    # crosses batch ends
    import pyarrow.csv as pcsv

    raw, kw = CASES[case]
    path = tmp_path / "log.csv"
    path.write_bytes(raw)
    monkeypatch.setattr(arrow_read, "STREAM_BYTES", 64)
    # lines over a block
    monkeypatch.setattr(arrow_read, "BLOCK_BYTES", 4096 if case.startswith("big") else 32)
    calls: list[int] = []
    open_csv = pcsv.open_csv

    def spy(*args: Any, **kwargs: Any) -> Any:
        calls.append(kwargs["read_options"].block_size)
        return open_csv(*args, **kwargs)

    monkeypatch.setattr(pcsv, "open_csv", spy)
    new, old = _both(monkeypatch, path, **{"by": "region", "session": "session", **kw})
    _same(new, old)
    if case in ("plain", "big plain", "big many groups", "crlf", "bom", "no final line end"):
        assert calls  # these were read by the streaming reader


MORE_TIMES = {
    # forms Arrow's ISO parser does not take, after rows it does: the whole column is read as text
    "an offset after the date style": ["2026-11-29T00:00:00Z,success,fra,s1",
                                       "2026-11-29 00:01:00 GMT+0100,timeout,ams,s2"],
    "naive then aware": ["2026-11-29T00:00:00,success,fra,s1",
                         "2026-11-29T00:01:00Z,timeout,ams,s2"],
    "aware then naive": ["2026-11-29T00:00:00Z,success,fra,s1",
                         "2026-11-29T00:01:00,timeout,ams,s2"],
    "a blank time": ["2026-11-29T00:00:00Z,success,fra,s1", ",timeout,ams,s2"],
    "a missing word": ["2026-11-29T00:00:00Z,success,fra,s1", "NULL,timeout,ams,s2"],
    "a padded time": ["2026-11-29T00:00:00Z,success,fra,s1",
                      " 2026-11-29T00:01:00Z ,timeout,ams,s2"],
    "a leap second": ["2026-11-29T00:00:00Z,success,fra,s1", "2016-12-31T23:59:60Z,timeout,ams,s2"],
    "nanoseconds and compact offsets": ["2026-11-29T00:00:00.123456789+0530,success,fra,s1",
                                        "2026-11-29T00:01:00.5-02,timeout,ams,s2"],
    "unsorted": [ROWS[3], ROWS[0], ROWS[2], ROWS[1]],
}


@pytest.mark.parametrize("segment", [None, 64])
@pytest.mark.parametrize("case", sorted(MORE_TIMES))
def test_times_read_as_instants_or_as_text_as_before(case, segment, tmp_path, monkeypatch):
    # the time column is first read as instants by Arrow (ISO text with zones); any other form in
    # any row makes it text for the careful parser: either way the frame and facts are as before
    rows = MORE_TIMES[case] * 40  # more rows than one segment of 64 bytes holds
    path = tmp_path / "log.csv"
    path.write_bytes(_body(rows).encode())
    if segment is not None:
        monkeypatch.setattr(arrow_read, "STREAM_BYTES", segment)
    new, old = _both(monkeypatch, path, by="region", session="session")
    _same(new, old)


@pytest.mark.parametrize("kw", [{"keep": ["time"]}, {"by": ["region", "time"]}])
def test_a_time_column_also_kept_or_grouped_by_is_read_as_written(kw, tmp_path, monkeypatch):
    # kept or a key, the time column is the text as written (from a file as from a DataFrame)
    path = tmp_path / "log.csv"
    path.write_bytes(CASES["plain"][0].replace(b"ts,", b"time,", 1))
    options = {"time": "time", "by": "region", **kw}
    new, old = _both(monkeypatch, path, **options)
    _same(new, old)
    from_frame = read_events(pd.read_csv(path, dtype=str, keep_default_na=False), **options)
    pd.testing.assert_frame_equal(new, from_frame, check_like=True)
    assert "2026-11-29T00:01:00+01:00" in set(new["time"].astype(str))  # hand-read: as written


def test_a_parquet_file_without_row_groups_has_no_rows(tmp_path, monkeypatch):
    import pyarrow.parquet as pq

    path = tmp_path / "log.parquet"
    pq.ParquetWriter(path, pa.schema([(c, pa.string()) for c in ("ts", "outcome", "region",
                                                                 "session")])).close()
    new, old = _both(monkeypatch, path, by="region", session="session")
    assert new == old and "has a schema but no rows" in new


def test_files_with_and_without_instant_times_read_as_before(tmp_path, monkeypatch):
    # one file read as instants, the next as text (naive times): one form for both, as before
    (tmp_path / "a.csv").write_bytes(CASES["plain"][0])
    (tmp_path / "b.csv").write_bytes(_body(MORE_TIMES["an offset after the date style"]).encode())
    (tmp_path / "c.csv").write_bytes(CASES["naive in a zone"][0])
    for names in (("a.csv", "b.csv"), ("b.csv", "a.csv"), ("a.csv", "c.csv")):
        new, old = _both(monkeypatch, [tmp_path / n for n in names], by="region", session="session")
        _same(new, old)
        if names != ("a.csv", "c.csv"):
            assert not isinstance(new, str)  # offsets in two forms: both load
    # hand-read: the how-read text says text with offsets, whatever the reader did
    events = read_events(tmp_path / "a.csv", by="region", session="session")
    assert "text with UTC offsets" in str(how_read(events))
    assert events["ts"].dtype == "datetime64[ns, UTC]"
    # sorted by time: 00:01+01:00 is 23:01Z the day before; 00:02-05:30 is 05:32Z
    assert events["ts"].tolist() == [pd.Timestamp(t) for t in ("2026-11-28T23:01:00Z",
                                                               "2026-11-29T00:00:00Z",
                                                                "2026-11-29T00:03:00Z",
                                                               "2026-11-29T05:32:00Z")]


def _parquet_cases() -> dict[str, tuple[pa.Table, dict[str, Any]]]:
    rng = np.random.default_rng(8)
    n = 3000
    base = pd.Timestamp("2026-11-29T00:00:00Z")
    ts = [
        (base + pd.Timedelta(seconds=int(s))).strftime("%Y-%m-%dT%H:%M:%S")
        for s in np.sort(rng.integers(0, 86400, n))
    ]
    zones = np.array(["Z", "+01:00", "-05:30", "+0200"])[rng.integers(0, 4, n)]
    outcome = np.array(["success", "timeout", "solve_error", "OK"])[rng.integers(0, 4, n)]
    region = np.array(["fra", "ams", " fra "])[rng.integers(0, 3, n)]
    session = [f"{x:012x}" for x in rng.integers(0, 2**48, n)]
    aware = [t + z for t, z in zip(ts, zones, strict=True)]

    def table(**cols: Any) -> pa.Table:
        return pa.table({"ts": aware, "outcome": outcome, "region": region, "session": session,
                         **cols})

    return {
        "zones": (table(), {}),
        "large strings": (
            table(
                ts=pa.array(aware, pa.large_string()), session=pa.array(session, pa.large_string())
            ),
            {},
        ),
        "naive in a zone": (table(ts=ts), {"tz": "Europe/Berlin"}),
        "one naive": (table(ts=[*aware[:-1], ts[-1]]), {}),
        "a missing session": (table(session=[*session[:-1], None]), {}),
        "a missing time": (table(ts=[*aware[:-1], None]), {}),
        "binary session": (table(session=pa.array([s.encode() for s in session], pa.binary())), {}),
        "status codes": (
            table(outcome=pa.array(rng.choice([200, 503, 404], n), pa.int64())),
            {"outcomes": {"2xx": "success", "4xx": "skip", "5xx": "server_error"}},
        ),
        "timestamps": (table(ts=pa.array(pd.to_datetime(aware, format="ISO8601", utc=True))), {}),
        "categories": (table(region=pa.array(region).dictionary_encode()), {}),
        "a categorical session and time": (
            table(
                session=pa.array(session).dictionary_encode(),
                ts=pa.array(aware).dictionary_encode(),
            ),
            {},
        ),
        "epochs as text": (table(ts=[str(1780000000 + i) for i in range(n)]), {"epoch": "s"}),
        "personal session": (table(session=[*session[:-1], "ivan@example.org"]), {}),
    }


@pytest.mark.parametrize("groups", [1, 7])
@pytest.mark.parametrize("case", sorted(_parquet_cases()))
def test_parquet_reads_as_before(case, groups, tmp_path, monkeypatch):
    # text columns are read row group by row group into compact columns, the time as instants;
    # every other file whole: either way the frame and the facts are what the whole read gave
    import pyarrow.parquet as pq

    table, kw = _parquet_cases()[case]
    path = tmp_path / "log.parquet"
    pq.write_table(table, path, row_group_size=-(-table.num_rows // groups))
    new, old = _both(monkeypatch, path, **{"by": "region", "session": "session", **kw})
    _same(new, old)
    if case in ("zones", "large strings", "naive in a zone", "categories", "timestamps"):
        assert not isinstance(new, str)


@pytest.mark.parametrize("case", ["plain", "quoted fields", "big quoted", "cr only", "bom"])
def test_compressed_and_tab_separated_read_as_before(case, tmp_path, monkeypatch):
    raw, kw = CASES[case]
    (tmp_path / "log.csv.gz").write_bytes(gzip.compress(raw))
    (tmp_path / "log.tsv").write_bytes(raw.replace(b",", b"\t"))
    for name in ("log.csv.gz", "log.tsv"):
        new, old = _both(monkeypatch, tmp_path / name, by="region", session=kw.get("session",
                                                                                   "session"))
        _same(new, old)


def test_many_files_read_as_before(tmp_path, monkeypatch):
    for i, case in enumerate(("plain", "quoted fields", "crlf")):
        (tmp_path / f"{i}.csv").write_bytes(CASES[case][0])
    new, old = _both(monkeypatch, tmp_path, by="region", session="session")
    _same(new, old)


@pytest.mark.parametrize("case", ["plain", "quoted fields", "quoted header only", "big quoted",
                                  "big plain", "bom",
                                  "crlf", "header only", "empty"])
def test_plain_files_are_never_read_whole(case, tmp_path, monkeypatch):
    # Arrow opens the path itself: the whole-file reader is not used (it would raise here)
    def whole(*args: Any, **kw: Any) -> bytes:
        raise AssertionError("the file was read into memory")

    raw, kw = CASES[case]
    path = tmp_path / "log.csv"
    path.write_bytes(raw)
    monkeypatch.setattr(F, "read_input", whole)
    if case in ("header only", "empty"):
        with pytest.raises(FileFormatError, match="no rows|is empty"):
            read_events(path, by="region", session=kw.get("session", "session"))
        return
    assert len(read_events(path, by="region", session=kw.get("session", "session"))) > 0


def test_the_quoted_case_is_read_quote_by_quote(tmp_path):
    # hand-read: the 40,000 rows of "big quoted" each keep their note, line ends included
    path = tmp_path / "log.csv"
    path.write_bytes(CASES["big quoted"][0])
    events = read_events(path, session="note")
    assert len(events) == 40_000
    notes = events["session_id"].astype(str)
    assert notes.str.contains("\n").sum() == CASES["big quoted"][0].count(b"\nline, b")


# ------------------------------------------------------------------------------------------
# the personal-data scan over Arrow chunks equals the previous scan
# ------------------------------------------------------------------------------------------
def _columns() -> dict[str, pd.Series]:
    rng = np.random.default_rng(11)
    ids = [f"{x:012x}" for x in rng.integers(0, 2**48, 3000)]
    personal = ["ivan@example.org", "+7 916 123-45-67", "192.0.2.7", "4111 1111 1111 1111",
                "2001:db8::1"]
    mixed = ids[:2000] + personal * 3 + [" padded@example.org ", "", "4111111111111111",
                                         "4929804463622139"]
    chunked = pa.chunked_array(
        [pa.array(mixed[:1000], pa.large_string()), pa.array(mixed[1000:], pa.large_string())]
    )
    return {
        "ids str": pd.Series(ids, dtype="str"),
        "mixed str": pd.Series(mixed, dtype="str"),
        "mixed chunked": pd.Series(pd.arrays.ArrowStringArray(chunked)),
        "mixed object": pd.Series(mixed, dtype=object),
        "with missing": pd.Series([*mixed, None, None], dtype="str"),
        "categorical": pd.Series(pd.Categorical([*mixed, *mixed[:50]])),
        "categorical unused": pd.Series(pd.Categorical(mixed[:10], categories=sorted(set(mixed)))),
        "bare cards": pd.Series(["4111111111111111", "5500005555555559", "4929804463622139",
                                 "12"] * 5, dtype="str"),
        "numeric": pd.Series([4111111111111111, 5500005555555559, 12, 4929804463622139]),
    }


@pytest.mark.parametrize("name", sorted(_columns()))
def test_the_column_scan_finds_what_it_found(name):
    column = _columns()[name]
    assert pii_mod._scan_column(column) == old_scan_column(column)


def test_plain_chunks_skip_the_patterns_and_find_what_they_find():
    # oracle: the candidate pattern over every trimmed value; chunks of plain ids are passed by a
    # byte scan, so each kind of chunk is here: plain hex ids, plain ids with one all-digit value
    # of card length (13-19 digits: a candidate), a phone keyword, a separator, missing values
    from budgetlab.privacy.guard import candidates

    rng = np.random.default_rng(5)
    hexes = [f"{x:016x}" for x in rng.integers(0, 2**62, 500)]
    chunks = [
        hexes[:200],
        [*hexes[200:300], "4111111111111111", "1234567890123", "12345678901234567890",
         "123456789012"],
        [*hexes[300:400], "tel0123456789", "fax", "ABCDEF_0123"],
        [*hexes[400:450], "a-b", " padded ", "ä", None, ""],
        ["0" * 19, "0" * 12, "_" * 13],
        [None, None],
    ]
    column = pa.chunked_array([pa.array(c, pa.large_string()) for c in chunks])
    want = has(arrow_text(pd.Series(pd.arrays.ArrowStringArray(column))), CANDIDATE)
    got = candidates(pd.Series(pd.arrays.ArrowStringArray(column)))
    assert got.tolist() == want.tolist()
    # hand-read: rows 300-303 are 16 and 13 digits (card length), 20 and 12 digits (not)
    assert got[300:304].tolist() == [True, True, False, False]
    assert not got[:300].any()  # hex ids
    sliced = column.slice(150, 300)  # chunks that start inside their buffers
    assert candidates(pd.Series(pd.arrays.ArrowStringArray(sliced))).tolist() == \
        has(arrow_text(pd.Series(pd.arrays.ArrowStringArray(sliced))), CANDIDATE).tolist()


@pytest.mark.parametrize("first", ["fra", "ams"])  # keys remapped to sorted order, or already in it
def test_the_frame_read_is_the_callers_to_write_to(first, tmp_path):
    # the bucket and key columns are built from the reader's codes: writable, as before (sorted
    # rows, none skipped: the frame is not copied on the way out)
    path = tmp_path / "log.csv"
    other = "ams" if first == "fra" else "fra"
    path.write_bytes(_body([f"2026-11-29T00:00:00Z,timeout,{first},s1",
                            f"2026-11-29T00:01:00Z,success,{other},s2",
                            f"2026-11-29T00:02:00Z,success,{first},s3"]).encode())
    ev = read_events(path, by="region", session="session")
    ev.loc[1, "bucket"] = "timeout"
    ev.loc[1, "region"] = first
    assert ev["bucket"].tolist() == ["timeout", "timeout", "success"]
    assert ev["region"].tolist() == [first, first, first]


def test_the_plain_byte_count_takes_exactly_hex_digits_and_underscores():
    # oracle: membership in the set the rule names (0-9, a-f, A-F, _), for every byte value, at
    # the start, inside and at the end of a value, in a value after plain ones and in the last one
    from budgetlab.privacy.guard import _may_match

    allowed = set(b"0123456789abcdefABCDEF_")
    offsets = pa.py_buffer(np.arange(0, 17, 4, dtype=np.int64))  # four values of four bytes
    for value in range(256):
        for at in (0, 5, 7, 12, 15):
            body = bytearray(b"a0F_" * 4)
            body[at] = value
            got = _may_match(
                pa.Array.from_buffers(
                    pa.large_string(), 4, [None, offsets, pa.py_buffer(bytes(body))]
                )
            )
            assert got.tolist() == [i == at // 4 and value not in allowed for i in range(4)], (
                value,
                at,
            )


def test_a_large_chunked_column_is_scanned_on_threads_as_in_one(monkeypatch):
    import budgetlab._util.codes as columns

    column = _columns()["mixed chunked"]
    want = old_scan_column(column)
    # force the threaded path on this small column
    monkeypatch.setattr(columns, "PARALLEL_ROWS", 10)
    assert pii_mod._scan_column(column) == want
    assert want[0]["e-mail address"] == 4  # hand-count: 3 plain + 1 padded


# ------------------------------------------------------------------------------------------
# access logs: the previous reader (pd.to_datetime with %z), kept only here
# ------------------------------------------------------------------------------------------
_OLD_PATTERN = (r"^[^ ]+ [^ ]+ (?:[^ ]+|" + r'"(?:[^"\\]|\\.)*"' + r") \[(?P<time>[^\]]+)\] "
                r'"(?P<method>[A-Za-z]*)(?:[^"\\]|\\.)*" (?P<status>[0-9]{3}) (?:[0-9]+|-)(?: '
                r'.*)?[\r]?$')


def _old_parse_file(path: Path, on_error: str, notes: list[str]) -> Any:
    import pyarrow.compute as pc

    F.check_path(path)
    register_input(path)
    raw, got = read_input(path, file_name(path))
    notes.extend(got)
    if cr_only(raw):
        raw = raw.replace(b"\r", b"\n")
        notes.append(CR_ONLY_NOTE)
    lines = pc.split_pattern(pa.array([raw.decode("utf-8", errors="replace")],
                                      type=pa.large_string()), "\n").flatten()
    number = np.arange(1, len(lines) + 1)
    blank = np.asarray(pc.match_substring_regex(lines, r"^\s*$"), dtype=bool)
    parts = pc.extract_regex(lines, _OLD_PATTERN)
    matched = np.asarray(parts.is_valid(), dtype=bool)
    ts = pd.to_datetime(pd.Series(parts.field("time").to_pandas(), dtype="str"),
                        format="%d/%b/%Y:%H:%M:%S %z",
                        utc=True, errors="coerce")
    status = pd.to_numeric(pd.Series(parts.field("status").to_pandas(), dtype="str"),
                           errors="coerce")
    good = matched & np.asarray(ts.notna(), dtype=bool) & np.asarray(status.between(100, 599),
                                                                     dtype=bool)
    bad = ~good & ~blank
    n_bad = int(bad.sum())
    shown = ", ".join(str(int(n)) for n in number[bad][:10])
    more = n_bad - min(n_bad, 10)
    listed = shown + (f" and {more:,} more" if more > 0 else "")
    them = "it" if n_bad == 1 else "them"
    if n_bad and on_error == "raise":
        raise FileFormatError(f"{file_name(path)}: {n_bad:,} line{'' if n_bad == 1 else 's'} not "
                              "in common/combined log "
                              f"format ({'line' if n_bad == 1 else 'lines'} {listed}); "
                              f"fix {them} or pass on_error='skip' to drop {them}.")
    if not good.any():
        raise FileFormatError(f"{file_name(path)}: no line in common/combined log format; is this "
                              "an access log?")
    method = pd.Series(parts.field("method").to_pandas(), dtype="str")[good].str.upper()
    return (ts[good].reset_index(drop=True), status.to_numpy()[good].astype(np.int64),
            method.mask(method == "", "-").reset_index(drop=True), n_bad)


def old_read_access_log(path: Any, *, ok: Any = None, outcomes: Any = None, by: Any = (),
                        on_error: str = "raise") -> Any:
    keys = [by] if isinstance(by, str) else list(by or ())
    table = check_outcomes(outcomes)
    paths = expand_sources(path)
    per_file: list[list[str]] = [[] for _ in paths]
    parsed = [_old_parse_file(p, on_error, n) for p, n in zip(paths, per_file, strict=True)]
    ts = pd.concat([x[0] for x in parsed], ignore_index=True) if len(parsed) > 1 else parsed[0][0]
    codes = np.concatenate([x[1] for x in parsed])
    n_bad = sum(x[3] for x in parsed)
    if table is None:
        distinct, inverse = np.unique(codes, return_inverse=True)
        flags = _ok_flags(ok if ok is not None else (lambda status: status < 500), distinct)
        kinds = np.where(distinct >= 500, "server_error",
                         np.where((distinct >= 400) & (distinct < 500), "client_error",
                                  "other_error"))
        meaning = np.where(flags, SUCCESS, kinds)
        counts = np.bincount(inverse, minlength=len(distinct))
        rule = "default: status < 500 is a success" if ok is None else "ok(status)"
        rows = sorted((LabelReading(str(c), str(m), rule, int(n)) for c, m, n in zip(distinct,
                                                                                     meaning,
                                                                                     counts,
                                                                                     strict=True)),
                      key=lambda r: (r.meaning != SUCCESS, r.meaning, -r.rows))
        reading = OutcomeReading(flags[inverse], pd.Categorical(np.asarray(meaning[inverse],
                                                                           dtype=object),
                                 dtype=bucket_dtype(set(meaning.tolist()) - {SUCCESS})),
                                 np.zeros(len(codes), dtype=bool), tuple(rows), "HTTP status")
    else:
        import dataclasses

        reading = classify_outcomes(pd.Series(codes.astype(str), dtype="str"), table)
        reading = dataclasses.replace(reading, vocabulary="status mapping outcomes=")
    keep = ~reading.skip
    groups: dict[str, Any] = {}
    for key in keys:
        if key == "method":
            groups[key] = pd.concat([x[2] for x in parsed], ignore_index=True).to_numpy()[keep]
        elif key == "status":
            groups[key] = codes[keep].astype(str)
        else:
            groups[key] = np.char.add((codes[keep] // 100).astype(str), "xx")
    events = as_events(ts[keep].reset_index(drop=True), reading.ok[keep],
                       np.asarray(reading.bucket.astype(str))[keep], groups=groups)
    events["bucket"] = events["bucket"].cat.set_categories(
        list(bucket_dtype(set(events["bucket"].astype(str)) - {SUCCESS}).categories))
    first, last = time_span(ts_ns(events))
    skipped = skip_reasons(reading.labels, "status") + ((("lines not in the format", n_bad),
                                                         ) if n_bad else ())
    events.attrs["skipped_lines"] = n_bad
    events.attrs["how_read"] = HowRead(
        files=tuple((file_name(p), len(x[1]) + x[3]) for p, x in zip(paths, parsed, strict=True)),
        rows_read=len(codes) + n_bad, rows_kept=len(events), skipped=skipped, time_column="[time]",
        time_reading="access-log times with UTC offsets (each line its own instant)", first=first,
                                       last=last,
        outcome_column="status", vocabulary=reading.vocabulary, labels=reading.labels,
        notes=tuple(file_notes([file_name(p) for p in paths], per_file)))
    return events


def _log_lines(n: int, seed: int) -> list[str]:
    """Lines in every offset style servers write: both signs, half-hour and 45-minute zones."""
    rng = np.random.default_rng(seed)
    base = pd.Timestamp("2026-10-25T00:00:00Z").value
    t = base + np.sort(rng.integers(0, 3 * 86400 * 10**9, n)) // 10**9 * 10**9
    offsets = rng.choice([0, 60, 120, -300, 330, -570, 345, -210, 840, -720, 525], n)
    status = rng.choice([200, 201, 304, 404, 500, 503, 302], n)
    method = rng.choice(["GET", "POST", "put", ""], n)
    out = []
    for ti, off, st, me in zip(t.tolist(), offsets.tolist(), status.tolist(), method.tolist(),
                               strict=True):
        local = pd.Timestamp(ti + off * 60 * 10**9)
        sign = "-" if off < 0 else "+"
        out.append(f'192.0.2.{ti % 250} - - [{local.strftime("%d/%b/%Y:%H:%M:%S")} '
                   f'{sign}{abs(off) // 60:02d}'
                   f'{abs(off) % 60:02d}] "{me} /p HTTP/1.1" {st} 12 "-" "agent"')
    return out


def _both_logs(monkeypatch: pytest.MonkeyPatch, source: Any, **kw: Any) -> tuple[Any, Any]:
    def run(fn: Any) -> Any:
        try:
            with warnings.catch_warnings(record=True):
                warnings.simplefilter("always")
                return fn(source, **kw)
        except BudgetlabError as exc:
            return f"{type(exc).__name__}: {exc}"

    return run(read_access_log), run(old_read_access_log)


LOGS: dict[str, tuple[str, dict[str, Any]]] = {
    "canonical": ("\n".join(_log_lines(3000, 1)) + "\n", {"by": ["method", "status",
                                                                 "status_class"]}),
    "unsorted, no final line end": ("\n".join(_log_lines(500, 2)[::-1]), {"by": "method"}),
    "crlf and blank lines": ("\r\n".join(_log_lines(200, 3)) + "\r\n\r\n", {}),
    "odd time forms": ("\n".join([
        '192.0.2.1 - - [10/oct/2026:13:55:36 +0200] "GET / HTTP/1.1" 200 1',
        '192.0.2.1 - - [1/Oct/2026:13:55:36 -0530] "GET / HTTP/1.1" 503 1',
        '192.0.2.1 - - [10/Oct/2026:13:55:36 +02:00] "GET / HTTP/1.1" 200 1',
        '192.0.2.1 - - [29/Feb/2028:13:55:36 +0000] "GET / HTTP/1.1" 200 1',
        '192.0.2.1 - - [10/Oct/2026:1:2:3 +0200] "GET / HTTP/1.1" 200 1']) + "\n", {}),
    "impossible times skipped": ("\n".join([
        '192.0.2.1 - - [31/Feb/2026:13:55:36 +0200] "GET / HTTP/1.1" 200 1',
        '192.0.2.1 - - [10/Oct/2026:25:55:36 +0200] "GET / HTTP/1.1" 200 1',
        '192.0.2.1 - - [10/Oct/2026:13:55:36 +2400] "GET / HTTP/1.1" 200 1',
        '192.0.2.1 - - [10/Oct/2026:13:55:36 +0200] "GET / HTTP/1.1" 200 1', "not a log line", "",
        *_log_lines(20, 4)]) + "\n", {"on_error": "skip"}),
    "impossible times raise": ('192.0.2.1 - - [31/Feb/2026:13:55:36 +0200] "GET / HTTP/1.1" 200 1\n'
                               + "\n".join(_log_lines(20, 5)), {}),
    "outcomes mapping": ("\n".join(_log_lines(300, 6)) + "\n",
                         {"outcomes": {"2xx": "success", "3xx": "success", "4xx": "skip",
                                       "5xx": "server_error"},
                          "by": ["method", "status_class"]}),
    "ok function": ("\n".join(_log_lines(300, 7)) + "\n", {"ok": lambda s: s < 400}),
    "cr only": ("\r".join(_log_lines(50, 8)) + "\r", {}),
    "empty": ("", {}),
}


@pytest.mark.parametrize("case", sorted(LOGS))
def test_access_logs_read_as_before(case, tmp_path, monkeypatch):
    text, kw = LOGS[case]
    path = tmp_path / "access.log"
    path.write_bytes(text.encode())
    new, old = _both_logs(monkeypatch, path, **kw)
    _same(new, old)
    if not isinstance(new, str):
        assert new.attrs["skipped_lines"] == old.attrs["skipped_lines"]


def test_access_logs_in_blocks_gzip_and_many_files_read_as_before(tmp_path, monkeypatch):
    import budgetlab.events.lines as lines_mod

    lines = _log_lines(4000, 9)
    (tmp_path / "a.log").write_text("\n".join(lines[:2500]) + "\n")
    (tmp_path / "b.log.gz").write_bytes(gzip.compress(("\n".join(lines[2500:]) + "\n").encode()))
    # many blocks: lines cut at block ends must not break
    monkeypatch.setattr(lines_mod, "BLOCK_BYTES", 4096)
    new, old = _both_logs(monkeypatch, tmp_path, by="method")
    _same(new, old)
    assert len(new) == 4000


def test_chunked_arrow_iso_times_are_the_instants_of_one_pandas_pass():
    # a text column of several Arrow chunks (as a multi-block CSV read gives) reads to the
    # instants pandas gives for the whole column at once
    from budgetlab.events.times import parse_time

    offsets = ["Z", "+01:00", "-05:30", "+05:45"]
    texts = [
        f"2026-11-{1 + i % 28:02d}T{i % 24:02d}:{i % 60:02d}:00{offsets[i % 4]}"
        for i in range(3000)
    ]
    chunked = pa.chunked_array(
        [pa.array(texts[:1000], pa.large_string()), pa.array(texts[1000:], pa.large_string())]
    )
    column = pd.Series(pd.arrays.ArrowStringArray(chunked))
    assert pa.array(column.array).num_chunks == 2  # the input under test is chunked
    want = pd.to_datetime(pd.Series(texts), format="ISO8601", utc=True).dt.as_unit("ns").array.asi8
    np.testing.assert_array_equal(parse_time(column, tz="UTC", epoch=None), want)


def test_strptime_gives_the_instants_pandas_gives():
    # the same instants as pd.to_datetime(..., format="%d/%b/%Y:%H:%M:%S %z"), offsets of both signs
    import pyarrow.compute as pc

    from budgetlab.events.accesslog import TIME_FORMAT

    times = [line.split("[")[1].split("]")[0] for line in _log_lines(5000, 10)]
    arrow = np.asarray(pc.strptime(pa.array(times), format=TIME_FORMAT, unit="ns").cast(pa.int64()))
    want = pd.to_datetime(pd.Series(times), format=TIME_FORMAT,
                          utc=True).dt.as_unit("ns").array.asi8
    np.testing.assert_array_equal(arrow, want)
    # hand-computed: 13:55:36 at -05:30 is 19:25:36 UTC, at +05:45 08:10:36 UTC
    got = pc.strptime(pa.array(["10/Oct/2026:13:55:36 -0530", "10/Oct/2026:13:55:36 +0545"]),
                      format=TIME_FORMAT,
                      unit="ns").cast(pa.int64()).to_pylist()
    assert got == [pd.Timestamp("2026-10-10T19:25:36Z").value,
                   pd.Timestamp("2026-10-10T08:10:36Z").value]


def test_a_year_outside_pandas_range_is_a_malformed_line(tmp_path):
    # the previous reader crashed here (pandas' OutOfBoundsDatetime); now the line is malformed
    path = tmp_path / "access.log"
    path.write_text('192.0.2.8 - - [10/Oct/0001:13:55:36 +0200] "GET / HTTP/1.1" 200 1\n'
                    '192.0.2.8 - - [10/Oct/2026:13:55:36 +0200] "GET / HTTP/1.1" 200 1\n')
    with pytest.raises(FileFormatError,
                       match=r"1 line not in common/combined log format \(line 1\)"):
        read_access_log(path)
    with pytest.warns(UserWarning, match="skipped 1 line"):
        assert len(read_access_log(path, on_error="skip")) == 1
