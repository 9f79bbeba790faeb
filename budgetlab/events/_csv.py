"""Reading CSV/TSV text with Arrow's own readers: the declared columns only, labels and keys as
dictionaries, a time column of ISO-8601 text with zones read as instants, and the checks around
it (header, quotes, ragged rows), whose messages never quote a row (Arrow's own do, so they are
never shown).

A file up to :data:`STREAM_BYTES` is read whole by :func:`pyarrow.csv.read_csv`; a larger one by
:func:`pyarrow.csv.open_csv` batch by batch with every column's type pinned (the batches are the
table; no buffer or thread of budgetlab's own). An uncompressed UTF-8 file is read from its path
(:func:`read_text_file`), never held in memory; decompressed or re-encoded text from its bytes
(:func:`read_text_table`).
"""

from __future__ import annotations

import contextlib
import csv
import io
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from ..errors import FileFormatError
from ._input import (
    compression_of,
    cr_only,
    is_blank,
    refuse_wide,
    sniff,
    text_problem,
    utf8_family,
    utf16_encoding,
)
from ._messages import MAX_ROWS_LISTED, check_header, note_open_last_row

__all__ = ["ISO_TIME", "STREAM_BYTES", "arrow_csv", "frame_of", "read_text_table", "read_text_file"]


#: ``DataFrame.attrs`` key set when the time column was read as instants from ISO-8601 text with
#: a zone in every row (see :func:`arrow_csv`).
ISO_TIME = "budgetlab.iso_time"


#: Text of more bytes than this is read by Arrow's streaming reader (``open_csv``), batch by batch.
STREAM_BYTES = 256 << 20


#: Arrow's block (one batch of the streaming reader; a longer field gets one block as large as the input).
BLOCK_BYTES = 1 << 20


def _convert_options(columns: list[str], dict_columns: Sequence[str], iso_time: str | None) -> Any:
    """Every declared column as text (labels and keys as dictionaries), ``iso_time`` as UTC
    instants; no value read as missing (an empty time fails the instant parse: the careful
    parser then names it)."""
    import pyarrow as pa
    import pyarrow.csv as pcsv

    types = {c: pa.dictionary(pa.int32(), pa.string()) if c in dict_columns else pa.large_string() for c in columns}
    if iso_time is not None:
        types[iso_time] = pa.timestamp("ns", tz="UTC")
    return pcsv.ConvertOptions(include_columns=columns, column_types=types, null_values=[],
                               strings_can_be_null=False, quoted_strings_can_be_null=False)


def _read(open_source: Any, size: int, sep: str, columns: list[str], dict_columns: Sequence[str], *,
          quoted: bool, typed: str | None, block: int) -> Any:
    import pyarrow as pa
    import pyarrow.csv as pcsv

    read_options = pcsv.ReadOptions(use_threads=True, block_size=block)
    parse_options = pcsv.ParseOptions(delimiter=sep, newlines_in_values=quoted)
    convert_options = _convert_options(columns, dict_columns, typed)
    with open_source() as src:
        if size <= STREAM_BYTES:
            return pcsv.read_csv(src, read_options=read_options, parse_options=parse_options,
                                 convert_options=convert_options)
        reader = pcsv.open_csv(src, read_options=read_options, parse_options=parse_options,
                               convert_options=convert_options)
        return pa.Table.from_batches(list(reader), schema=reader.schema)


def arrow_csv(open_source: Any, size: int, sep: str, columns: list[str], dict_columns: Sequence[str], *,
              quoted: bool, iso_time: str | None = None) -> Any:
    """Arrow's CSV reader over the text ``open_source()`` opens (a context manager giving an
    Arrow input stream at the first byte after a BOM), ``size`` bytes. ``quoted``: values may
    hold line ends (Arrow then finds row ends quote by quote; without quotes after the header no
    value can hold one). A field (or header) longer than Arrow's block is read again with one block as large
    as the input.

    ``iso_time`` names a time column first read as instants by Arrow's strict ISO-8601 parser
    with a zone required (the parser of the cast :func:`~budgetlab.events._times.parse_time`
    tries first, so the instants are the same); if any value does not parse so (naive times,
    other forms, blanks), the file is read again with the column as text, for the careful parser."""
    import pyarrow as pa

    typed, block = iso_time, min(BLOCK_BYTES, STREAM_BYTES)
    while True:
        try:
            return _read(open_source, size, sep, columns, dict_columns, quoted=quoted, typed=typed, block=block)
        except pa.ArrowInvalid as exc:
            if typed is not None:  # a time Arrow's parser does not take, or another problem: read the text
                typed = None
                continue
            if not any(m in str(exc) for m in ("straddling", "infer number of columns")) or block > size:
                raise  # not a field or header longer than the block
            block = min(size + 1, (1 << 31) - 1)


def frame_of(table: Any, iso_time: str | None) -> pd.DataFrame:
    """``table`` as a DataFrame, marked with :data:`ISO_TIME` when its time column came as instants."""
    import pyarrow as pa

    frame = pd.DataFrame(table.to_pandas(ignore_metadata=True))
    if iso_time is not None and pa.types.is_timestamp(table.schema.field(iso_time).type):
        frame.attrs[ISO_TIME] = True
    return frame


_BOM = b"\xef\xbb\xbf"
_HEAD = (1 << 20) + len(_BOM)  # the head block: the first MiB after a byte-order mark
_BLOCK = 1 << 23  # bytes per read when a whole file is scanned for one byte


def _header(data: bytes, name: str, sep: str, columns: list[str]) -> tuple[list[str], int]:
    """The header of text ``data`` (its first MiB is enough; no BOM) and the byte just past its
    line end, or -1 when the header row may span lines (a quoted field)."""
    first_line = data[: data.find(b"\n") if b"\n" in data[: 1 << 20] else 1 << 20]
    err = text_problem(first_line, name, "utf-8")
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
        err = text_problem(data, name, "utf-8")
        if err is not None:
            return err
    if "Expected" in text and "columns" in text:
        if data.count(b'"') % 2:
            _check_quotes(data, name, sep)
        return FileFormatError(_ragged_message(data, name, sep, width))
    return FileFormatError(f"{name}: malformed {kind.upper()} ({type(exc).__name__}); check quoting and "
                           "separators, or export the file again.")


def read_text_table(raw: bytes, name: str, kind: str, columns: list[str], encoding: str,
                     dict_columns: Sequence[str] = (), iso_time: str | None = None) -> pd.DataFrame:
    """A CSV/TSV table from its bytes in memory (decompressed input, another encoding, CR-only
    line ends): the same checks as :func:`read_text_file`."""
    import pyarrow as pa

    if utf8_family(encoding):
        refuse_wide(raw, name)
        data = raw[3:] if raw[:3] == _BOM else raw
    else:
        err = text_problem(raw, name, encoding)
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


def read_text_file(path: Path, name: str, kind: str, columns: list[str], encoding: str,
                    dict_columns: Sequence[str], packed: bool, iso_time: str | None = None) -> pd.DataFrame | None:
    """An uncompressed UTF-8 CSV/TSV file read by Arrow from its path, the file never held in
    memory: the checks of :func:`read_text_table` on a head block (blank file, byte-order mark,
    UTF-16/binary, header), a scan for quote characters (none after the header: values cannot
    hold line ends; else their count must be even) and Arrow's own parse. ``None`` when the head
    cannot decide (compressed or CR-only text, a blank first MiB, an odd quote count) or Arrow
    fails: the in-memory reader then reads the file and names the problem as it always has."""
    import pyarrow as pa

    if packed or not utf8_family(encoding):
        return None
    try:
        size = path.stat().st_size
        with open(path, "rb") as fh:  # read-only
            head = fh.read(_HEAD)
    except OSError:
        return None  # read_input names it
    if compression_of(head[:16]) is not None or utf16_encoding(head) is not None or cr_only(head[: 1 << 20]):
        return None
    sniff(head, name, kind)
    if is_blank(head):
        if size <= len(head):
            raise FileFormatError(f"{name}: the file is empty; give a file with a header and rows.")
        return None
    refuse_wide(head, name)
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
