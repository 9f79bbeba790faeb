"""Reading an input file: format sniffing, opening, decompression and decoding, then only the
declared columns of a CSV/TSV, JSON Lines or Parquet file as a DataFrame of raw values.

Files are opened read-only and never modified. Every problem raises
:class:`~budgetlab.errors.FileFormatError` or :class:`~budgetlab.errors.SchemaError` with a
message that says what to fix and never contains a data value (Arrow's own messages quote rows,
so they are never shown).
"""

from __future__ import annotations

import codecs
import contextlib
import csv
import difflib
import io
import json
import re
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._util.files import register_input
from .._util.validation import check_argument
from .._util.words import say
from ..errors import BudgetlabError, FileFormatError, SchemaError
from ..privacy import shown
from ._arrow_read import ISO_TIME, arrow_csv, frame_of, parquet_table
from ._input import (
    COMPRESSED_SUFFIXES,
    CR_ONLY_NOTE,
    compression_of,
    cr_only,
    file_name,
    read_input,
    refuse_binary,
    text_problem,
    utf16_encoding,
)
from ._messages import MAX_ROWS_LISTED, hidden_names, note_open_last_row, row_numbers, shown_names

__all__ = ["FORMATS", "ISO_TIME", "check_header", "read_columns", "check_scalars", "check_path"]

#: The file formats :func:`read_columns` reads (``format=`` values).
FORMATS = ("csv", "tsv", "parquet", "jsonl")
_SUFFIXES = {".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".parquet": "parquet", ".pq": "parquet",
             ".jsonl": "jsonl", ".ndjson": "jsonl", ".json": "jsonl"}


def check_header(names: Sequence[object], columns: Sequence[str], what: str) -> None:
    """Refuse duplicated column names and declared ``columns`` missing from ``names``
    (:class:`SchemaError` suggesting the closest names; names that look like data are hidden)."""
    seen: dict[str, int] = {}
    for n in names:
        seen[str(n)] = seen.get(str(n), 0) + 1
    dups = [n for n, k in seen.items() if k > 1]
    if dups:
        raise SchemaError(f"{what}: duplicate column name(s) {shown_names(dups)}; rename them so each is unique.")
    have = list(seen)
    for col in columns:
        if col in seen:
            continue
        if have and hidden_names(have).any():  # a header-less file: its first row is data, never echoed
            raise SchemaError(f"{what} has no column {shown(col)}. The first line looks like data, not column names "
                              f"({len(have)} fields; not shown): does the file have a header row?")
        close = difflib.get_close_matches(col, have, n=3, cutoff=0.5)
        hint = f" Did you mean {shown_names(close)}?" if close else ""
        if len(have) == 1 and any(sep in have[0] for sep in (";", "\t", ",", "|")):
            sep = next(s for s in (";", "\t", ",", "|") if s in have[0])
            hint += (f" The header is one column holding {sep!r}: is that the separator? budgetlab reads ',' "
                     "(.csv) and tab (.tsv, or format='tsv').")
        raise SchemaError(f"{what} has no column {shown(col)}.{hint} Columns present: {shown_names(have)}.")


def _cr_only_as_lf(raw: bytes, encoding: str) -> bytes | None:
    """``raw`` with CR-only line ends as LF, or None when it has LF line ends (or none). Judged and
    converted on the decoded text when the encoding is not ASCII-compatible (UTF-16/32: a CR byte
    can be half of another character, e.g. U+010D)."""
    codec = utf16_encoding(raw) or encoding
    try:
        ascii_compatible = "\r\n".encode(codec) == b"\r\n"
    except (LookupError, UnicodeError):
        ascii_compatible = True
    if ascii_compatible:
        return raw.replace(b"\r", b"\n") if cr_only(raw[: 1 << 20]) and b"\n" not in raw else None
    try:
        text = raw.decode(codec)
    except (UnicodeDecodeError, LookupError):
        return None  # the reader names the encoding problem
    return text.replace("\r", "\n").encode(codec) if "\r" in text and "\n" not in text else None


def _detect_format(path: Path, fmt: str | None) -> tuple[str, bool]:
    suffixes = [s.lower() for s in path.suffixes]
    packed = bool(suffixes) and suffixes[-1] in COMPRESSED_SUFFIXES
    if fmt is not None:
        return check_argument("format", fmt, FORMATS), packed
    ext = suffixes[-2] if packed and len(suffixes) > 1 else (suffixes[-1] if suffixes and not packed else "")
    if ext not in _SUFFIXES:
        shown = "".join(path.suffixes[-2:]) or "(no extension)"
        shown = shown if file_name(shown) == shown else "(not shown)"
        raise FileFormatError(
            f"{file_name(path)}: unsupported file type {shown!r}; use .csv, .tsv, .parquet, .jsonl/.ndjson "
            "(text formats optionally .gz), or pass "
            + say("format='csv'|'tsv'|'parquet'|'jsonl'; a line-oriented text log is read with pattern= or preset=.",
                  "--format csv|tsv|parquet|jsonl; a line-oriented text log is read with --pattern REGEX or "
                  "--preset NAME.")
        )
    return _SUFFIXES[ext], packed


def check_path(path: Path, *, how: str = "a folder of files: pass the folder itself, a glob such as 'logs/*.csv' "
               "or a list of files to read_events (CLI: budgetlab replay logs/)") -> None:
    """Refuse a path that is not a readable regular file, naming what it is instead (a missing
    file, a folder and how to pass one, a special file); file names pass the personal-data check."""
    name = file_name(path)
    if not path.exists():
        hint = " (its folder does not exist either)" if not path.parent.exists() else ""
        raise FileFormatError(f"{name}: no such file{hint}; check the path.")
    if path.is_dir():
        raise FileFormatError(f"{name}: is a directory, not a file; for {how}.")
    if not path.is_file():
        raise FileFormatError(f"{name}: is not a regular file (a pipe or a device); give a CSV, Parquet or JSON "
                              "Lines file.")


def _utf8_family(encoding: str) -> bool:
    return codecs.lookup(encoding).name in ("utf-8", "utf-8-sig")


def _decode_error(raw: bytes, name: str, encoding: str) -> FileFormatError | None:
    return text_problem(raw, name, encoding)


def _sniff(raw: bytes, name: str, kind: str) -> None:
    inner = compression_of(raw[:16])
    if inner is not None:
        raise FileFormatError(f"{name}: is {inner} data inside a compressed file (compressed twice); decompress it "
                              "once and save it as .csv or .csv.gz.")
    if raw[:4] == b"PAR1":
        raise FileFormatError(f"{name}: is a Parquet file, not {kind.upper()}; name it .parquet or pass format='parquet'.")
    if raw[:4] == b"PK\x03\x04":
        raise FileFormatError(f"{name}: is a ZIP archive (or an Excel workbook), not {kind.upper()}; "
                              "export it as CSV or unpack it.")


_BOM = b"\xef\xbb\xbf"
_BLANK = re.compile(rb"[^ \t\r\n\x00\xef\xbb\xbf]")  # a byte that makes a file not empty
_HEAD = (1 << 20) + len(_BOM)  # the head block: the first MiB after a byte-order mark
_BLOCK = 1 << 23  # bytes per read when a whole file is scanned for one byte


def _is_blank(raw: bytes) -> bool:
    """Only blanks, NULs and BOM bytes (what an empty export holds); found without a copy."""
    return _BLANK.search(raw) is None


def _header(data: bytes, name: str, sep: str, columns: list[str]) -> tuple[list[str], int]:
    """The header of text ``data`` (its first MiB is enough; no BOM) and the byte just past its
    line end, or -1 when the header row may span lines (a quoted field)."""
    first_line = data[: data.find(b"\n") if b"\n" in data[: 1 << 20] else 1 << 20]
    err = _decode_error(first_line, name, "utf-8")
    if err is not None:
        raise err
    head = data[: 1 << 20].decode("utf-8", errors="replace")
    try:
        reader = csv.reader(io.StringIO(head), delimiter=sep)
        header = next(reader, [])
    except csv.Error:
        raise FileFormatError(f"{name}: the header row is malformed; the first line must list the column names.") from None
    if not header or not any(h.strip() for h in header):
        raise FileFormatError(f"{name}: the first line is blank; it must list the column names.")
    check_header(header, columns, name)
    end = data.find(b"\n", 0, 1 << 20)
    one_line = reader.line_num == 1 and end >= 0 and data.count(b'"', 0, end) % 2 == 0
    return header, end + 1 if one_line else -1


def _parse_error(exc: BaseException, data: bytes, name: str, kind: str, sep: str, width: int) -> FileFormatError:
    """The one-line error for Arrow's failure on ``data`` (Arrow's own text quotes rows: never shown)."""
    text = str(exc)
    if "UTF8" in text or "UTF-8" in text:
        err = _decode_error(data, name, "utf-8")
        if err is not None:
            return err
    if "Expected" in text and "columns" in text:
        if data.count(b'"') % 2:
            _check_quotes(data, name, sep)
        return FileFormatError(_ragged_message(data, name, sep, width))
    return FileFormatError(f"{name}: malformed {kind.upper()} ({type(exc).__name__}); check quoting and "
                           "separators, or export the file again.")


def _read_text_table(raw: bytes, name: str, kind: str, columns: list[str], encoding: str,
                     dict_columns: Sequence[str] = (), iso_time: str | None = None) -> pd.DataFrame:
    """A CSV/TSV table from its bytes in memory (decompressed input, another encoding, CR-only
    line ends): the same checks as :func:`_read_text_file`."""
    import pyarrow as pa

    if _utf8_family(encoding):
        _refuse_wide(raw, name)
        data = raw[3:] if raw[:3] == _BOM else raw
    else:
        err = _decode_error(raw, name, encoding)
        if err is not None:
            raise err
        data = raw.decode(encoding).lstrip("\ufeff").encode("utf-8")
    sep = "\t" if kind == "tsv" else ","
    header, body = _header(data, name, sep, columns)
    # a quote after the header line: values may hold line ends, which Arrow must then look for
    quoted = body < 0 or data.find(b'"', body) >= 0
    try:
        table = arrow_csv(lambda: pa.BufferReader(data), len(data), sep, columns, dict_columns, quoted=quoted,
                          iso_time=iso_time)
    except (pa.ArrowException, ValueError, OSError, MemoryError) as exc:
        raise _parse_error(exc, data, name, kind, sep, len(header)) from None
    if quoted and data.count(b'"') % 2:
        _check_quotes(data, name, sep)
    if table.num_rows == 0:
        raise FileFormatError(f"{name}: has a header but no rows; nothing to analyse.")
    frame = frame_of(table, iso_time)
    if not data.rstrip(b" \t").endswith((b"\n", b"\r")):
        note_open_last_row(len(frame) - 1)
    return frame


def _scan_file(path: Path, start: int, byte: bytes, *, count: bool) -> int:
    """How often ``byte`` occurs in the file from ``start`` on (``count``), or whether it does
    (1 or 0): read in blocks into one buffer, never the whole file at once."""
    # not a memory map: its pages would count in the process's resident memory as the file's size
    total = 0
    buf = bytearray(_BLOCK)
    with open(path, "rb") as fh:  # read-only
        fh.seek(start)
        while True:
            n = fh.readinto(buf)
            if not n:
                return total
            if count:
                total += buf.count(byte, 0, n)
            elif buf.find(byte, 0, n) >= 0:
                return 1


def _ends_with_line_end(path: Path, start: int, size: int) -> bool:
    """Whether the text from ``start`` on ends in a line end, trailing blanks and tabs aside
    (read backwards from the end in small blocks)."""
    end = size
    with open(path, "rb") as fh:  # read-only
        while end > start:
            lo = max(start, end - 4096)
            fh.seek(lo)
            block = fh.read(end - lo).rstrip(b" \t")
            if block:
                return block.endswith((b"\n", b"\r"))
            end = lo
    return False


def _read_text_file(path: Path, name: str, kind: str, columns: list[str], encoding: str,
                    dict_columns: Sequence[str], packed: bool, iso_time: str | None = None) -> pd.DataFrame | None:
    """An uncompressed UTF-8 CSV/TSV file read by Arrow from its path, the file never held in
    memory: the checks of :func:`_read_text_table` on a head block (blank file, byte-order mark,
    UTF-16/binary, header), a scan for quote characters (none after the header: values cannot
    hold line ends; else their count must be even) and Arrow's own parse. ``None`` when the head
    cannot decide (compressed or CR-only text, a blank first MiB, an odd quote count) or Arrow
    fails: the in-memory reader then reads the file and names the problem as it always has."""
    import pyarrow as pa

    if packed or not _utf8_family(encoding):
        return None
    try:
        size = path.stat().st_size
        with open(path, "rb") as fh:  # read-only
            head = fh.read(_HEAD)
    except OSError:
        return None  # read_input names it
    if compression_of(head[:16]) is not None or utf16_encoding(head) is not None or cr_only(head[: 1 << 20]):
        return None
    _sniff(head, name, kind)
    if _is_blank(head):
        if size <= len(head):
            raise FileFormatError(f"{name}: the file is empty; give a file with a header and rows.")
        return None
    _refuse_wide(head, name)
    start = len(_BOM) if head[:3] == _BOM else 0
    sep = "\t" if kind == "tsv" else ","
    header, body = _header(head[start:], name, sep, columns)

    @contextlib.contextmanager
    def opened() -> Iterator[Any]:
        with pa.OSFile(str(path)) as src:  # not pyarrow.csv's path opener: it decompresses by suffix
            src.seek(start)
            yield src

    try:
        quoted = body < 0 or bool(_scan_file(path, start + body, b'"', count=False))
        if quoted and _scan_file(path, start, b'"', count=True) % 2:
            return None  # an unclosed quote, perhaps: found and named by the in-memory reader
        table = arrow_csv(opened, size - start, sep, columns, dict_columns, quoted=quoted, iso_time=iso_time)
        frame = frame_of(table, iso_time)
        del table
    except (pa.ArrowException, ValueError, OSError, MemoryError):
        return None
    if len(frame) == 0:
        raise FileFormatError(f"{name}: has a header but no rows; nothing to analyse.")
    if not _ends_with_line_end(path, start, size):
        note_open_last_row(len(frame) - 1)
    return frame


def _check_quotes(data: bytes, name: str, sep: str) -> None:
    """An odd number of quote characters: find an unterminated quoted field, which would swallow
    every following line into one value (error path only: a Python loop over the rows)."""
    rows = 0
    try:
        reader = csv.reader(io.StringIO(data.decode("utf-8", errors="replace")), delimiter=sep, strict=True)
        next(reader, None)
        for record in reader:
            if record:
                rows += 1
    except csv.Error:
        raise FileFormatError(f"{name}: a quoted field is never closed (from data row {rows + 1}, 1-based); it "
                              "would swallow the rest of the file: fix the quote or export the file again.") from None


def _ragged_message(data: bytes, name: str, sep: str, width: int) -> str:
    """Name the rows whose field count differs from the header's (error path only)."""
    rows: list[int] = []
    count = 0
    try:
        reader = csv.reader(io.StringIO(data.decode("utf-8", errors="replace")), delimiter=sep)
        next(reader, None)
        i = 0
        for record in reader:
            if not record:  # blank lines are skipped, as when reading
                continue
            i += 1
            if len(record) != width:
                count += 1
                if len(rows) < MAX_ROWS_LISTED:
                    rows.append(i)
    except csv.Error:
        pass
    where = f" (data rows {', '.join(map(str, rows))}{' and more' if count > len(rows) else ''}, 1-based)" \
        if rows else ""
    tail = data.rstrip(b" \t")
    half = "" if tail.endswith((b"\n", b"\r")) else "; the last line has no line end: the file may be half-written"
    counted = f"{count} row(s) have" if count else "some rows have"
    return (f"{name}: {counted} a different number of fields than the header{where}; a field may "
            f"hold an unquoted separator or quote{half}. Fix or drop those rows.")


def _refuse_wide(raw: bytes, name: str) -> None:
    """UTF-16/32 text read as UTF-8 (NUL bytes are valid UTF-8, so decoding alone misses it), or
    binary data."""
    refuse_binary(raw, name)
    wide = utf16_encoding(raw)
    if wide is not None:
        bom = "it starts with a byte-order mark" if wide in ("utf-16", "utf-32") else "every other byte is NUL"
        raise FileFormatError(f"{name}: is {wide.upper()} text ({bom}); pass "
                              f"{say(f'encoding={wide!r}', f'--encoding {wide}')} or save it as UTF-8.")


def _read_jsonl(raw: bytes, name: str, columns: list[str], encoding: str) -> pd.DataFrame:
    if _utf8_family(encoding):
        _refuse_wide(raw, name)
    err = _decode_error(raw, name, encoding)
    if err is not None:
        raise err
    text = raw.decode(encoding).lstrip("\ufeff")
    array = text.lstrip().startswith("[")
    if not array:
        fast = _arrow_jsonl(text.encode("utf-8") if not _utf8_family(encoding) else raw.lstrip(b"\xef\xbb\xbf"),
                            name, columns)
        if fast is not None:
            if not text.rstrip(" \t").endswith(("\n", "\r")):
                note_open_last_row(len(fast) - 1)
            return fast
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if array:
                frame = pd.read_json(io.StringIO(text), orient="records", dtype=False)
            else:
                frame = pd.read_json(io.StringIO(text), lines=True, dtype=False)
    except (ValueError, TypeError, OverflowError, RecursionError, KeyError, AttributeError):
        if array:
            raise FileFormatError(f"{name}: not a valid JSON array of records; give one JSON object per line "
                                  "(JSON Lines) or an array of objects.") from None
        bad = []
        for i, line in enumerate(text.splitlines(), 1):  # only on the error path, to name the first bad lines
            if line.strip():
                try:
                    obj = json.loads(line)
                except (ValueError, RecursionError):
                    obj = None
                if not isinstance(obj, dict):
                    bad.append(i)
                    if len(bad) >= MAX_ROWS_LISTED:
                        break
        where = f" (first bad lines: {', '.join(map(str, bad))})" if bad else " (a number out of range?)"
        raise FileFormatError(f"{name}: not valid JSON Lines{where}; give one JSON object per line.") from None
    if not isinstance(frame, pd.DataFrame) or frame.empty:
        raise FileFormatError(f"{name}: no records; nothing to analyse.")
    check_header(list(frame.columns), columns, name)
    if not text.rstrip(" \t").endswith(("\n", "\r")) and not array:
        note_open_last_row(len(frame) - 1)
    return frame[columns]


def _arrow_jsonl(data: bytes, name: str, columns: list[str]) -> pd.DataFrame | None:
    """The common case fast: JSON Lines whose declared fields are all strings (Arrow's reader,
    no per-line Python). ``None`` when another type appears (pandas' reader takes over)."""
    import pyarrow as pa
    import pyarrow.json as pj

    schema = pa.schema([(c, pa.string()) for c in columns])
    try:
        table = pj.read_json(
            pa.BufferReader(data),
            parse_options=pj.ParseOptions(explicit_schema=schema, unexpected_field_behavior="ignore"),
        )
    except (pa.ArrowException, ValueError, OSError, MemoryError) as exc:
        twice = re.search(r"Column\(/(.*?)\) was specified twice", str(exc))
        if twice and twice.group(1) in columns:
            raise SchemaError(f"{name}: a record repeats the key {twice.group(1)!r}; each key once per line.") from None
        return None
    if table.num_rows == 0 or any(table.column(c).null_count == table.num_rows for c in columns):
        return None  # absent keys: the careful reader names them
    return pd.DataFrame(table.to_pandas())


def _read_parquet(path: Path, columns: list[str], dict_columns: Sequence[str] = (),
                  notes: list[str] | None = None) -> pd.DataFrame:
    import pyarrow as pa
    import pyarrow.parquet as pq

    name = file_name(path)
    try:
        with pa.OSFile(str(path)) as fh:  # read-only
            schema = pq.ParquetFile(fh).schema_arrow
            header = list(schema.names)
            check_header(header, columns, name)
            # label and key columns come back as categoricals (cheap codes instead of strings)
            as_dict = [c for c in dict_columns if pa.types.is_string(schema.field(c).type)
                       or pa.types.is_large_string(schema.field(c).type)]
            fh.seek(0)
            table = parquet_table(pq.ParquetFile(fh, read_dictionary=as_dict), columns)
            frame = _binary_as_text(table, name, notes).to_pandas(ignore_metadata=True)
    except (pa.ArrowException, OSError, ValueError, TypeError, KeyError, IndexError, EOFError,
            MemoryError, OverflowError, NotImplementedError) as exc:
        if isinstance(exc, BudgetlabError):
            raise
        if isinstance(exc, UnicodeError):
            raise FileFormatError(f"{name}: a text column of the Parquet file holds bytes that are not UTF-8; "
                                  "write it again with string (UTF-8) columns.") from None
        raise _not_parquet(path, name, exc) from None
    if len(frame) == 0:
        raise FileFormatError(f"{name}: has a schema but no rows; nothing to analyse.")
    return frame if isinstance(frame, pd.DataFrame) else pd.DataFrame(frame)


def _not_parquet(path: Path, name: str, exc: BaseException) -> FileFormatError:
    """Why a .parquet file does not read: another format under the name, or a damaged file."""
    head = _head(path)
    if head[:4] != b"PAR1":
        inner = compression_of(head)
        if inner is not None:
            return FileFormatError(f"{name}: is {inner}-compressed data, not Parquet; decompress it (Parquet "
                                   "compresses itself).")
        with open(path, "rb") as fh:
            text = fh.read(4096)
        try:
            sample = text.decode("utf-8")
        except UnicodeDecodeError as bad:
            sample = text[: bad.start].decode("utf-8") if bad.start > 64 else ""
        if sample.lstrip().startswith(("{", "[")):
            return FileFormatError(f"{name}: this .parquet file holds JSON text; rename it to .jsonl or pass "
                                   "--format jsonl (API: format='jsonl').")
        if sample and ("," in sample or "\t" in sample) and ("\n" in sample or "\r" in sample or len(text) < 4096):
            return FileFormatError(f"{name}: this .parquet file holds CSV text; rename it to .csv or pass --format csv "
                                   "(API: format='csv').")
    return FileFormatError(f"{name}: not a readable Parquet file ({type(exc).__name__}); it may be truncated or "
                           "corrupt: copy or export it again.")


def _binary_as_text(table: Any, name: str, notes: list[str] | None = None) -> Any:
    """Binary (bytes) columns as UTF-8 text, as CSV values are (stated in ``notes``); bytes that
    are not UTF-8 are refused by column (Arrow validates, no loop over rows)."""
    import pyarrow as pa

    for i, fld in enumerate(table.schema):
        if pa.types.is_binary(fld.type) or pa.types.is_large_binary(fld.type):
            try:
                table = table.set_column(i, fld.name, table.column(i).cast(pa.string()))
            except pa.ArrowInvalid:
                raise FileFormatError(f"{name}: column {fld.name!r} holds bytes that are not UTF-8 text; write it "
                                      "again as a string (UTF-8) column.") from None
            if notes is not None:
                notes.append(f"column {fld.name!r}: binary, decoded as UTF-8")
    return table


def read_columns(path: Path, columns: list[str], fmt: str | None, encoding: str,
                 dict_columns: Sequence[str] = (), notes: list[str] | None = None,
                 iso_time: str | None = None) -> pd.DataFrame:
    """The declared ``columns`` of the file at ``path`` as read (``dict_columns`` as categoricals
    where the format allows: cheap codes instead of strings for labels and keys). Each reading
    decision (compression recognised, CR-only line ends, binary columns decoded as UTF-8) is
    appended to ``notes`` for the "how it was read" facts. A CSV/TSV ``iso_time`` column whose
    every value is ISO-8601 text with a zone comes as instants (``datetime64[ns, UTC]``), the
    frame marked with :data:`ISO_TIME`; otherwise as text."""
    path = path.expanduser()
    check_path(path)
    kind, packed = _detect_format(path, fmt)
    register_input(path)
    name = file_name(path)
    if kind == "parquet":
        if packed:
            raise FileFormatError(f"{name}: compressed Parquet (.gz, .xz, ...) is not supported; Parquet compresses "
                                  "itself: decompress it.")
        return _read_parquet(path, columns, dict_columns, notes)
    if kind in ("csv", "tsv"):
        fast = _read_text_file(path, name, kind, columns, encoding, dict_columns, packed, iso_time)
        if fast is not None:
            return fast
    raw = read_input(path, name, notes)
    if packed and compression_of(_head(path)) is None:
        suffix = path.suffixes[-1].lower()
        kind_named = {".gz": "gzip", ".gzip": "gzip", ".bz2": "bz2", ".xz": "xz"}.get(suffix, suffix.lstrip("."))
        raise FileFormatError(f"{name}: is named {suffix} but is not {kind_named} data; the {kind_named} stream is "
                              "truncated or corrupt, or the file is misnamed: rename or export it again.")
    _sniff(raw, name, kind)
    lf = _cr_only_as_lf(raw, encoding)  # old Mac line ends: read as the lines they are
    if lf is not None:
        raw = lf
        if notes is not None:
            notes.append(CR_ONLY_NOTE)
    if _is_blank(raw):
        raise FileFormatError(f"{name}: the file is empty; give a file with a header and rows.")
    if kind in ("csv", "tsv"):
        return _read_text_table(raw, name, kind, columns, encoding, dict_columns, iso_time)
    return _read_jsonl(raw, name, columns, encoding)


def _head(path: Path) -> bytes:
    with open(path, "rb") as fh:  # read-only
        return fh.read(16)


def check_scalars(raw: pd.DataFrame, columns: Sequence[str]) -> None:
    """Refuse nested values (JSON objects/arrays, Parquet structs) in declared columns."""
    for col in columns:
        s = raw[col]
        if not pd.api.types.is_object_dtype(s.dtype):
            continue
        inferred = pd.api.types.infer_dtype(s, skipna=True)
        if inferred in ("mixed", "unknown-array"):
            nested = s.map(lambda v: isinstance(v, (dict, list, tuple, set, np.ndarray))).to_numpy(dtype=bool)
            if nested.any():
                raise SchemaError(f"column {col!r} holds nested values (objects or lists) at {row_numbers(nested)}; "
                                  "flatten it so each cell is one value.")

