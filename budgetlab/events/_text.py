"""Text from files: bytes that are not the text they should be (UTF-16, binary, another
compression), named with the fix; and CSV/TSV text read by Arrow's own readers
(:func:`read_csv_text`), whose failures are told by :mod:`._csv_words`, never quoting a row.
"""

from __future__ import annotations

import codecs
import csv
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pandas as pd

from .._util.words import say
from ..errors import FileFormatError
from ._csv_words import check_quotes, parse_refusal
from ._joined_files import BOM_TEXT, refuse_repeated_header
from ._messages import note_open_last_row
from .schema import check_header
from .vocabulary import label_word

__all__ = ["CR_ONLY_NOTE", "ISO_TIME", "PROGRESS_BYTES", "STREAM_BYTES", "FileSpec",
           "as_pandas", "compression_of", "cr_only", "is_blank", "plain_head", "read_csv_text",
           "refuse_wide", "sniff", "text_problem", "utf8_family", "utf16_encoding"]

#: Inputs from this many bytes on (compressed, or many files together) show a progress bar.
PROGRESS_BYTES = 1 << 28
#: The "how it was read" statement for a file whose lines end in CR alone (read as line ends).
CR_ONLY_NOTE = "line endings: CR only (old Mac), read as line ends"
#: ``DataFrame.attrs`` key set when the time column came as instants (ISO-8601 with a zone, or
#: several files' times each by its own rule): how they were read.
ISO_TIME = "budgetlab.iso_time"
#: Text of more bytes than this is read by Arrow's streaming reader (``open_csv``) batch by batch;
#: below, by ``read_csv``, its parse on all cores (the same peak: docs/performance.md).
STREAM_BYTES = 1 << 30
#: Arrow's block (one batch; a field longer than a block gets one block as large as the input).
BLOCK_BYTES = 1 << 20

_BZ2_BLOCK = (b"\x31\x41\x59\x26\x53\x59", b"\x17\x72\x45\x38\x50\x90")  # block or end magic
_MAGIC = {b"\x1f\x8b": "gzip", b"\xfd7zXZ\x00": "xz", b"\x28\xb5\x2f\xfd": "zstd",
          b"\x04\x22\x4d\x18": "lz4"}
_BOM = b"\xef\xbb\xbf"
_HEAD = (1 << 20) + len(_BOM)  # the head block: the first MiB after a byte-order mark
_BLANK = re.compile(rb"[^ \t\r\n\x00\xef\xbb\xbf]")  # a byte that makes a file not empty
# a time ending in a UTC offset or Z (the form Arrow's ISO-8601 parser may take as an instant)
_ZONED_END = re.compile(
    r":[0-9]{2}(?:[.,][0-9]+)?[ \t]*(?:[Zz]|[+-][0-9]{2}(?::?[0-9]{2})?)[ \t]*$")


@dataclass(frozen=True)
class FileSpec:
    """What to read from each file: the declared ``columns``, those read as dictionaries
    (``categorical``), the ``format`` (``None``: by the name), the text ``encoding``,
    ``iso_time``, a CSV/TSV time column first read as instants (``None``: as text), and ``time``,
    the time column, which several files may hold in different forms: each file's times are then
    read by its own rule, with ``tz`` (``None``: not given, UTC) and ``epoch`` (``time`` ``None``:
    the column is kept as written)."""

    columns: tuple[str, ...]
    categorical: tuple[str, ...] = ()
    format: str | None = None
    encoding: str = "utf-8"
    iso_time: str | None = None
    time: str | None = None
    tz: str | None = None
    epoch: str | None = None


def compression_of(head: bytes) -> str | None:
    """The compression a file's first bytes announce (``gzip``, ``bz2``, ``xz``, ``zstd``,
    ``lz4``), or ``None``."""
    if head[:3] == b"BZh" and head[3:4] in b"123456789" and head[4:10] in _BZ2_BLOCK:
        return "bz2"
    return next((kind for magic, kind in _MAGIC.items() if head.startswith(magic)), None)


def utf16_encoding(raw: bytes) -> str | None:
    """The UTF-16/32 encoding of text with a byte-order mark (``utf-16``/``utf-32``) or, without
    one, of mostly-ASCII text whose every other byte is NUL (``utf-16-le``/``utf-16-be``)."""
    if raw[:4] in (b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff"):
        return "utf-32"
    if raw[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return "utf-16"
    head = raw[:4096]
    if len(head) >= 4 and len(head) % 2 == 0:
        even, odd = head[0::2], head[1::2]
        if odd.count(0) >= 0.9 * len(odd) and even.count(0) <= 0.1 * len(even):
            return "utf-16-le"
        if even.count(0) >= 0.9 * len(even) and odd.count(0) <= 0.1 * len(odd):
            return "utf-16-be"
    return None


def cr_only(data: bytes) -> bool:
    """Lines end with CR alone (old Mac files): CR present, LF nowhere."""
    return b"\r" in data and b"\n" not in data


def is_blank(raw: bytes) -> bool:
    """Only blanks, NULs and BOM bytes (what an empty export holds); found without a copy."""
    return _BLANK.search(raw) is None


def utf8_family(encoding: str) -> bool:
    return codecs.lookup(encoding).name in ("utf-8", "utf-8-sig")


def _wide(name: str, wide: str, what: str) -> FileFormatError:
    fix = say(f"encoding={wide!r}", f"--encoding {wide}")
    return FileFormatError(f"{name}: is {wide.upper()} text{what}; pass {fix} or save it as UTF-8.")


def _binary(name: str) -> FileFormatError:
    return FileFormatError(f"{name}: holds binary data (NUL bytes), not text: is it the right "
                           "file, or a format budgetlab does not read (Excel, an archive)? Export "
                           "it as CSV.")


def text_problem(raw: bytes, name: str, encoding: str) -> FileFormatError | None:
    """Why ``raw`` is not ``encoding`` text, naming the real cause (UTF-16, binary data) and its
    fix; ``None`` when it decodes."""
    try:
        codecs.decode(raw, encoding)
    except UnicodeError as exc:
        wide = utf16_encoding(raw)
        if wide is not None:
            return _wide(name, wide, f", not {encoding}")
        if b"\x00" in raw[:65536]:
            return _binary(name)
        return FileFormatError(
            f"{name}: not valid {encoding} text (first bad byte at offset "
            f"{getattr(exc, 'start', 0)}); pass the file's real encoding, e.g. "
            + say("encoding='latin-1' or 'cp1251'", "--encoding latin-1 or --encoding cp1251")
            + ".")
    return None


def refuse_wide(raw: bytes, name: str) -> None:
    """UTF-16/32 text read as UTF-8 (NUL bytes are valid UTF-8, so decoding alone misses it), or
    binary data (NUL bytes in the first 64 KiB of text that is not UTF-16)."""
    wide = utf16_encoding(raw)
    if wide is None and b"\x00" in raw[:65536]:
        raise _binary(name)
    if wide is not None:
        bom = ("it starts with a byte-order mark" if wide in ("utf-16", "utf-32")
               else "every other byte is NUL")
        raise _wide(name, wide, f" ({bom})")


def sniff(raw: bytes, name: str, kind: str) -> None:
    """Refuse data of another kind under a text name: compressed twice, Parquet, JSON Lines, ZIP."""
    inner = compression_of(raw[:16])
    if inner is not None:
        raise FileFormatError(f"{name}: is {inner} data inside a compressed file (compressed "
                              f"twice); decompress it once and save it as .{kind} or .{kind}.gz.")
    if raw[:4] == b"PAR1":
        raise FileFormatError(f"{name}: is a Parquet file, not {kind.upper()}; name it .parquet or "
                              "pass format='parquet'.")
    if kind != "jsonl" and raw.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] == b"{":  # by content
        raise FileFormatError(f"{name}: is a JSON Lines file, not {kind.upper()}; name it .jsonl "
                              "or pass format='jsonl'.")
    if raw[:4] == b"PK\x03\x04":
        raise FileFormatError(f"{name}: is a ZIP archive (or an Excel workbook), not "
                              f"{kind.upper()}; export it as CSV or unpack it.")


def plain_head(path: Path, encoding: str, packed: bool) -> bytes | None:
    """The first MiB of a file Arrow can read from its path (uncompressed UTF-8 text without
    CR-only line ends, a first MiB not blank), else ``None`` (its bytes are read and given)."""
    if packed or not utf8_family(encoding):
        return None
    try:
        with open(path, "rb") as fh:  # read-only
            head = fh.read(_HEAD)
    except OSError:
        return None  # read_input names it
    return None if (compression_of(head[:16]) or utf16_encoding(head) or cr_only(head[: 1 << 20])
                    or (is_blank(head) and len(head) == _HEAD)) else head


def _open(source: Path | bytes) -> Any:  # a file object over the text
    return io.BytesIO(source) if isinstance(source, bytes) else open(source, "rb")  # read-only


def _quotes(source: Path | bytes, start: int, *, count: bool) -> int:
    """How many quote characters the text holds from ``start`` on (``count``), or whether it holds
    one (1 or 0); read into one reused buffer."""
    total, buf = 0, bytearray(1 << 22)
    with _open(source) as fh:
        fh.seek(start)
        while n := fh.readinto(buf):
            if not count and buf.find(b'"', 0, n) >= 0:
                return 1
            total += buf.count(b'"', 0, n) if count else 0
    return total


def _ends_with_line_end(source: Path | bytes, start: int) -> bool:
    """Whether the text ends in a line end, trailing blanks and tabs aside (read backwards)."""
    with _open(source) as fh:
        end = fh.seek(0, io.SEEK_END)
        while end > start:
            lo = max(start, end - 4096)
            fh.seek(lo)
            block = fh.read(end - lo).rstrip(b" \t")
            if block:
                return bool(block.endswith((b"\n", b"\r")))
            end = lo
    return False


def _rows(data: bytes, sep: str) -> Any:  # a csv reader (its line_num is used)
    """A CSV reader over the first MiB of text ``data``, each line decoded (bad bytes replaced)
    when the reader reaches it: the header and the first row need their lines, not the whole MiB
    decoded."""
    lines = (line.decode("utf-8", errors="replace") for line in io.BytesIO(data[: 1 << 20]))
    return csv.reader(lines, delimiter=sep)


def _header(data: bytes, name: str, sep: str, columns: Sequence[str]) -> tuple[list[str], int]:
    """The header of text ``data`` (its first MiB is enough; no BOM) and the byte just past its
    line end, or -1 when the header row may span lines (a quoted field)."""
    first_line = data[: data.find(b"\n") if b"\n" in data[: 1 << 20] else 1 << 20]
    err = text_problem(first_line, name, "utf-8")
    if err is not None:
        raise err
    try:
        reader = _rows(data, sep)
        header: list[str] = next(reader, [])
    except csv.Error:
        raise FileFormatError(f"{name}: the header row is malformed; the first line must list the "
                              "column names.") from None
    if not header or not any(h.strip() for h in header):
        raise FileFormatError(f"{name}: the first line is blank; it must list the column names.")
    check_header(header, columns, name, rows=reader, words=label_word)
    end = data.find(b"\n", 0, 1 << 20)
    one_line = reader.line_num == 1 and end >= 0 and data.count(b'"', 0, end) % 2 == 0
    return header, end + 1 if one_line else -1


def _arrow_table(source: Path | bytes, start: int, sep: str, want: FileSpec, quoted: bool) -> Any:
    """Arrow's CSV reader from byte ``start``: the declared columns as text (labels and keys as
    dictionaries), no value missing; ``quoted``: values may hold line ends. The time column is
    first read as UTC instants by Arrow's ISO-8601 parser, zone required (the parser
    ``parse_time`` tries first), else again as text; a field longer than the block, again with
    one block as large as the input."""
    import pyarrow as pa
    import pyarrow.csv as pcsv

    size = (len(source) if isinstance(source, bytes) else source.stat().st_size) - start
    types = {c: pa.dictionary(pa.int32(), pa.string()) if c in want.categorical
             else pa.large_string() for c in want.columns}
    typed, block = want.iso_time, min(BLOCK_BYTES, STREAM_BYTES)
    while True:
        timed = {typed: pa.timestamp("ns", tz="UTC")} if typed is not None else {}
        options: dict[str, Any] = {
            "read_options": pcsv.ReadOptions(use_threads=True, block_size=block),
            "parse_options": pcsv.ParseOptions(delimiter=sep, newlines_in_values=quoted),
            "convert_options": pcsv.ConvertOptions(
                include_columns=list(want.columns), column_types={**types, **timed},
                null_values=[], strings_can_be_null=False, quoted_strings_can_be_null=False)}
        try:  # not pyarrow.csv's path opener: it decompresses by suffix
            with pa.BufferReader(source) if isinstance(source, bytes) \
                    else pa.OSFile(str(source)) as src:
                src.seek(start)
                if size <= STREAM_BYTES:
                    return pcsv.read_csv(src, **options)
                reader = pcsv.open_csv(src, **options)
                return pa.Table.from_batches(list(reader), schema=reader.schema)
        except pa.ArrowInvalid as exc:
            if typed is not None:  # a time Arrow's parser does not take, or another problem
                typed = None
                continue
            if block > size or not any(m in str(exc) for m in ("straddling",
                                                               "infer number of columns")):
                raise  # not a field or header longer than the block
            block = min(size + 1, (1 << 31) - 1)


def read_csv_text(source: Path | bytes, name: str, kind: str, want: FileSpec) -> pd.DataFrame:
    """A CSV/TSV table read by Arrow from a file of plain UTF-8 text (:func:`plain_head`; never
    held in memory) or from UTF-8 ``bytes``, after checks of the header and of quotes (none after
    the header: no value holds a line end; an odd count: an unclosed one is named). Arrow's
    failure is named without quoting a row."""
    import pyarrow as pa

    with _open(source) as fh:
        head = fh.read(_HEAD)
    start = len(_BOM) if head[:3] == _BOM else 0
    sep = "\t" if kind == "tsv" else ","
    header, body = _header(head[start:], name, sep, want.columns)
    if want.iso_time is not None and not _zoned_first(head[start:], sep, header, want.iso_time):
        want = replace(want, iso_time=None)  # read as text at once, not tried as instants first
    quoted = body < 0 or bool(_quotes(source, start + body, count=False))
    try:
        table = _arrow_table(source, start, sep, want, quoted)
    except (pa.ArrowException, ValueError, OSError, MemoryError) as exc:
        data = _whole(source, start)  # bytes that are no UTF-8 named first, then the CSV's faults
        utf8 = text_problem(data, name, "utf-8") if "UTF8" in str(exc) or "UTF-8" in str(exc) \
            else None
        raise utf8 or parse_refusal(exc, data, name, kind, sep, len(header)) from None
    if quoted and _quotes(source, start, count=True) % 2:
        check_quotes(_whole(source, start), name, sep)
    if table.num_rows == 0:  # refused or skipped by the file layer (files.read_files)
        return as_pandas(table)
    frame = as_pandas(table)
    if want.iso_time is not None and pa.types.is_timestamp(table.schema.field(want.iso_time).type):
        frame.attrs[ISO_TIME] = True
    if not any(isinstance(frame[c].dtype, pd.CategoricalDtype) and c not in frame[c].cat.categories
               and BOM_TEXT + c not in frame[c].cat.categories
               for c in frame.columns):  # a dictionary column holding its name: files joined?
        refuse_repeated_header(frame, name, kind)
    del table
    if not _ends_with_line_end(source, start):
        note_open_last_row(len(frame) - 1)
    return frame


def as_pandas(table: Any) -> pd.DataFrame:
    """An Arrow table as pandas, each dictionary column first made one array (its chunks'
    dictionaries unified at once): ``to_pandas`` of a column of a few hundred chunks unifies them
    chunk by chunk, about 2.5 times as long (34 ms against 13 ms for 5 M values in 291 blocks)."""
    import pyarrow as pa

    for i, field in enumerate(table.schema):
        if pa.types.is_dictionary(field.type):
            table = table.set_column(i, field, table.column(i).combine_chunks())
    return pd.DataFrame(table.to_pandas(ignore_metadata=True))


def _zoned_first(data: bytes, sep: str, header: list[str], column: str) -> bool:
    """Whether the first row's ``column`` ends in a time and a UTC offset or ``Z``: only then is
    the column tried as instants (a file of naive times is parsed once)."""
    try:
        rows = _rows(data, sep)
        first: list[str] = next(rows, []) and next(rows, [])
        at = header.index(column)
    except (csv.Error, ValueError):
        return True  # the typed read is tried, as before the check
    return len(first) > at and _ZONED_END.search(first[at]) is not None


def _whole(source: Path | bytes, start: int) -> bytes:
    with _open(source) as fh:
        fh.seek(start)
        return bytes(fh.read())
