"""Reading CSV/TSV text with Arrow's own readers: the declared columns only, labels and keys as
dictionaries, a time column of ISO-8601 text with zones read as instants, and the checks around
it (header, quotes, ragged rows), whose messages never quote a row (Arrow's own do, so they are
never shown).

A file up to :data:`STREAM_BYTES` is read whole by :func:`pyarrow.csv.read_csv`; a larger one by
:func:`pyarrow.csv.open_csv` batch by batch with every column's type pinned (the batches are the
table; no buffer or thread of budgetlab's own). One stream whatever the source
(:func:`read_csv_text`): an uncompressed UTF-8 file from its path, never held in memory;
decompressed or re-encoded text from its bytes.
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
from ._messages import MAX_ROWS_LISTED, note_open_last_row
from .schema import check_header

__all__ = ["ISO_TIME", "STREAM_BYTES", "arrow_csv", "frame_of", "plain_utf8", "read_csv_text"]


#: ``DataFrame.attrs`` key set when the time column was read as instants from ISO-8601 text with
#: a zone in every row (see :func:`arrow_csv`).
ISO_TIME = "budgetlab.iso_time"


#: Text of more bytes than this is read by Arrow's streaming reader (``open_csv``), batch by batch.
STREAM_BYTES = 256 << 20


#: Arrow's block (one batch of the streaming reader; a longer field gets one block as large as the
# input).
BLOCK_BYTES = 1 << 20


def _convert_options(columns: list[str], dict_columns: Sequence[str], iso_time: str | None) -> Any:
    """Every declared column as text (labels and keys as dictionaries), ``iso_time`` as UTC
    instants; no value read as missing (an empty time fails the instant parse: the careful
    parser then names it)."""
    import pyarrow as pa
    import pyarrow.csv as pcsv

    types = {
        c: pa.dictionary(pa.int32(), pa.string()) if c in dict_columns else pa.large_string()
        for c in columns
    }
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


def arrow_csv(open_source: Any, size: int, sep: str, columns: list[str],
              dict_columns: Sequence[str], *,
              quoted: bool, iso_time: str | None = None) -> Any:
    """Arrow's CSV reader over the text ``open_source()`` opens (a context manager giving an
    Arrow input stream at the first byte after a BOM), ``size`` bytes. ``quoted``: values may
    hold line ends (Arrow then finds row ends quote by quote; without quotes after the header no
    value can hold one). A field (or header) longer than Arrow's block is read again with one block
    as large
    as the input.

    ``iso_time`` names a time column first read as instants by Arrow's strict ISO-8601 parser
    with a zone required (the parser of the cast :func:`~budgetlab.events._times.parse_time`
    tries first, so the instants are the same); if any value does not parse so (naive times,
    other forms, blanks), the file is read again with the column as text, for the careful parser."""
    import pyarrow as pa

    typed, block = iso_time, min(BLOCK_BYTES, STREAM_BYTES)
    while True:
        try:
            return _read(open_source, size, sep, columns, dict_columns, quoted=quoted, typed=typed,
                         block=block)
        except pa.ArrowInvalid as exc:
            # a time Arrow's parser does not take, or another problem: read the text
            if typed is not None:
                typed = None
                continue
            if not any(m in str(exc) for m in ("straddling",
                                               "infer number of columns")) or block > size:
                raise  # not a field or header longer than the block
            block = min(size + 1, (1 << 31) - 1)


def frame_of(table: Any, iso_time: str | None) -> pd.DataFrame:
    """``table`` as a DataFrame, marked with :data:`ISO_TIME` when its time column came as
    instants."""
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
        raise FileFormatError(f"{name}: the header row is malformed; the first line must list the "
                              "column names.") from None
    if not header or not any(h.strip() for h in header):
        raise FileFormatError(f"{name}: the first line is blank; it must list the column names.")
    check_header(header, columns, name)
    end = data.find(b"\n", 0, 1 << 20)
    one_line = reader.line_num == 1 and end >= 0 and data.count(b'"', 0, end) % 2 == 0
    return header, end + 1 if one_line else -1


def _parse_error(exc: BaseException, data: bytes, name: str, kind: str, sep: str,
                 width: int) -> FileFormatError:
    """The one-line error for Arrow's failure on ``data`` (Arrow's own text quotes rows: never
    shown)."""
    text = str(exc)
    if "UTF8" in text or "UTF-8" in text:
        err = text_problem(data, name, "utf-8")
        if err is not None:
            return err
    if "Expected" in text and "columns" in text:
        if data.count(b'"') % 2:
            _check_quotes(data, name, sep)
        return FileFormatError(_ragged_message(data, name, sep, width))
    return FileFormatError(f"{name}: malformed {kind.upper()} ({type(exc).__name__}); check "
                           "quoting and "
                           "separators, or export the file again.")


def plain_utf8(path: Path, encoding: str, packed: bool) -> bool:
    """Whether the file at ``path`` can be read by Arrow from its path: uncompressed UTF-8 text
    without CR-only line ends, not blank for a first MiB (else its bytes are read, decompressed or
    re-encoded, and given to :func:`read_csv_text`)."""
    if packed or not utf8_family(encoding):
        return False
    try:
        with open(path, "rb") as fh:  # read-only
            head = fh.read(_HEAD)
    except OSError:
        return False  # read_input names it
    return not (compression_of(head[:16]) or utf16_encoding(head) or cr_only(head[: 1 << 20])
                or (is_blank(head) and len(head) == _HEAD))


def _scan(opened: Any, offset: int, *, count: bool) -> int:
    """How many quote characters the text holds from ``offset`` on (``count``), or whether it
    holds one (1 or 0): read block by block, never the whole text at once."""
    total = 0
    with opened() as src:
        src.seek(src.tell() + offset)
        while block := src.read(_BLOCK):
            if not count and b'"' in block:
                return 1
            total += block.count(b'"') if count else 0
    return total


def _ends_with_line_end(opened: Any) -> bool:
    """Whether the text ends in a line end, trailing blanks and tabs aside (read backwards from
    the end in small blocks)."""
    with opened() as src:
        start, end = src.tell(), src.size()
        while end > start:
            lo = max(start, end - 4096)
            src.seek(lo)
            block = src.read(end - lo).rstrip(b" \t")
            if block:
                return bool(block.endswith((b"\n", b"\r")))
            end = lo
    return False


def _whole(opened: Any) -> bytes:
    with opened() as src:
        return bytes(src.read())


def read_csv_text(source: Path | bytes, name: str, kind: str, columns: list[str],
                  dict_columns: Sequence[str] = (), iso_time: str | None = None) -> pd.DataFrame:
    """A CSV/TSV table read by Arrow from one stream, whatever the source: a file of plain UTF-8
    text (:func:`plain_utf8`; read from its path, never held in memory) or UTF-8 ``bytes``
    (decompressed or re-encoded text). The checks: byte-order mark, UTF-16/binary, the header, a
    scan for quote characters (none after the header: values cannot hold line ends; an odd
    count: an unclosed quote is looked for), Arrow's own parse, whose failure is named without
    quoting a row."""
    import pyarrow as pa

    if isinstance(source, bytes):
        head, size = source[:_HEAD], len(source)
    else:
        size = source.stat().st_size
        with open(source, "rb") as fh:  # read-only
            head = fh.read(_HEAD)
        sniff(head, name, kind)
        if is_blank(head):  # the whole file (a blank first MiB with more after it is read as bytes)
            raise FileFormatError(f"{name}: the file is empty; give a file with a header and rows.")
        refuse_wide(head, name)
    start = len(_BOM) if head[:3] == _BOM else 0

    @contextlib.contextmanager
    def opened() -> Iterator[Any]:
        # not pyarrow.csv's path opener: it decompresses by suffix
        with pa.BufferReader(source) if isinstance(source,
                                                   bytes) else pa.OSFile(str(source)) as src:
            src.seek(start)
            yield src

    sep = "\t" if kind == "tsv" else ","
    header, body = _header(head[start:], name, sep, columns)
    quoted = body < 0 or bool(_scan(opened, body, count=False))
    try:
        table = arrow_csv(opened, size - start, sep, columns, dict_columns, quoted=quoted,
                          iso_time=iso_time)
    except (pa.ArrowException, ValueError, OSError, MemoryError) as exc:
        raise _parse_error(exc, _whole(opened), name, kind, sep, len(header)) from None
    if quoted and _scan(opened, 0, count=True) % 2:
        _check_quotes(_whole(opened), name, sep)
    if table.num_rows == 0:
        raise FileFormatError(f"{name}: has a header but no rows; nothing to analyse.")
    frame = frame_of(table, iso_time)
    del table
    if not _ends_with_line_end(opened):
        note_open_last_row(len(frame) - 1)
    return frame


def _check_quotes(data: bytes, name: str, sep: str) -> None:
    """An odd number of quote characters: find an unterminated quoted field, which would swallow
    every following line into one value (error path only: a Python loop over the rows)."""
    rows = 0
    try:
        reader = csv.reader(io.StringIO(data.decode("utf-8", errors="replace")), delimiter=sep,
                            strict=True)
        next(reader, None)
        for record in reader:
            if record:
                rows += 1
    except csv.Error:
        raise FileFormatError(f"{name}: a quoted field is never closed (from data row {rows + 1}, "
                              "1-based); it "
                              "would swallow the rest of the file: fix the quote or export the "
                              "file again.") from None


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
    where = (f" (data rows {', '.join(map(str, rows))}{' and more' if count > len(rows) else ''}, "
             "1-based)") \
        if rows else ""
    tail = data.rstrip(b" \t")
    half = "" if tail.endswith((b"\n",
                                b"\r")) else ("; the last line has no line end: the file may be "
                                              "half-written")
    counted = f"{count} row(s) have" if count else "some rows have"
    return (f"{name}: {counted} a different number of fields than the header{where}; a field may "
            f"hold an unquoted separator or quote{half}. Fix or drop those rows.")
