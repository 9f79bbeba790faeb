"""Text from files: an input's bytes, decompressed in a stream under a ratio cap; the diagnosis of
bytes that are not the text they should be (UTF-16, binary, another compression); and CSV/TSV
text read by Arrow's own readers, whose messages never quote a row (Arrow's own do, so they are
never shown).

Compression is recognised by its magic bytes, whatever the name, and passed to Arrow's codec
explicitly (gzip, bzip2); the stdlib reads what Arrow cannot: xz, and gzip with NUL padding after
the last member. Beyond :data:`ALLOWANCE` the output may grow to :data:`MAX_RATIO` times the
compressed bytes read so far: a decompression bomb is refused after a few MiB, never held in
memory. CSV text up to :data:`STREAM_BYTES` is read whole by :func:`pyarrow.csv.read_csv`, more by
:func:`pyarrow.csv.open_csv` batch by batch with every column's type pinned.
"""

from __future__ import annotations

import codecs
import csv
import io
import lzma
import os
import re
import zlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from .._util.memory import check_memory, format_bytes, memory_limit
from .._util.progress import progress_bar
from .._util.words import say
from ..errors import BudgetlabError, ConfigError, FileFormatError
from ._messages import MAX_ROWS_LISTED, check_header, note_open_last_row

__all__ = ["ALLOWANCE", "CR_ONLY_NOTE", "ISO_TIME", "MAX_RATIO", "PROGRESS_BYTES", "RATIO_ENV",
           "STREAM_BYTES", "FileSpec", "check_text_encoding", "compression_of", "cr_only",
           "is_blank", "max_ratio", "plain_utf8", "read_csv_text", "read_input", "refuse_wide",
           "sniff", "text_problem", "utf8_family", "utf16_encoding"]

#: Default cap on decompressed bytes per compressed byte (gzip's own maximum is about 1032).
MAX_RATIO = 1000
#: The environment variable that overrides :data:`MAX_RATIO`.
RATIO_ENV = "BUDGETLAB_MAX_RATIO"
#: Decompressed bytes always allowed, whatever the ratio (small files of repeated lines).
ALLOWANCE = 16 * 1024**2
#: Inputs from this many bytes on (compressed bytes, or the sum of many files) show a progress
#: bar while they load, on a terminal only (:mod:`budgetlab._util.progress`).
PROGRESS_BYTES = 1 << 28
#: The "how it was read" statement for a file whose lines end in CR alone (read as line ends).
CR_ONLY_NOTE = "line endings: CR only (old Mac), read as line ends"
#: ``DataFrame.attrs`` key set when the time column was read as instants from ISO-8601 text with
#: a zone in every row.
ISO_TIME = "budgetlab.iso_time"
#: Text of more bytes than this is read by Arrow's streaming reader (``open_csv``), batch by batch.
STREAM_BYTES = 256 << 20
#: Arrow's block (one batch of the streaming reader; a longer field gets one block as large as
#: the input).
BLOCK_BYTES = 1 << 20

_CHUNK = 1 << 20  # decompressed bytes per piece
_IN = 1 << 14  # compressed bytes per read of the stdlib decompressors
_BZ2_BLOCK = (b"\x31\x41\x59\x26\x53\x59", b"\x17\x72\x45\x38\x50\x90")  # block or end magic
_BOM = b"\xef\xbb\xbf"
_HEAD = (1 << 20) + len(_BOM)  # the head block: the first MiB after a byte-order mark
_BLANK = re.compile(rb"[^ \t\r\n\x00\xef\xbb\xbf]")  # a byte that makes a file not empty


@dataclass(frozen=True)
class FileSpec:
    """What to read from each file: the declared ``columns``, those read as dictionaries
    (``categorical``: labels and keys), the ``format`` (``None``: by the name), the text
    ``encoding``, and ``iso_time``, a CSV/TSV time column first read as instants (``None``: as
    text)."""

    columns: tuple[str, ...]
    categorical: tuple[str, ...] = ()
    format: str | None = None
    encoding: str = "utf-8"
    iso_time: str | None = None


# ------------------------------------------------------------------------------------------
# bytes: compression under the ratio cap
# ------------------------------------------------------------------------------------------
def compression_of(head: bytes) -> str | None:
    """The compression a file's first bytes announce (``gzip``, ``bz2``, ``xz``, ``zstd``,
    ``lz4``), or ``None``.

    >>> import gzip
    >>> compression_of(gzip.compress(b"x")), compression_of(b"ts,outcome")
    ('gzip', None)
    """
    magic = {b"\x1f\x8b": "gzip", b"\xfd7zXZ\x00": "xz", b"\x28\xb5\x2f\xfd": "zstd",
             b"\x04\x22\x4d\x18": "lz4"}
    kind = next((k for m, k in magic.items() if head.startswith(m)), None)
    if kind is None and head[:3] == b"BZh" and head[3:4] in b"123456789" \
            and head[4:10] in _BZ2_BLOCK:
        return "bz2"
    return kind


def max_ratio() -> float:
    """The decompression ratio cap: ``$BUDGETLAB_MAX_RATIO`` if set, else :data:`MAX_RATIO`."""
    text = os.environ.get(RATIO_ENV, "").strip()
    if not text:
        return float(MAX_RATIO)
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not value >= 1:
        raise ConfigError(f"{RATIO_ENV}={text!r} must be a number >= 1 (decompressed bytes per "
                          "compressed byte).")
    return value


def _pieces(path: Path, kind: str, arrow: bool) -> Iterator[tuple[bytes, int]]:
    """Decompressed pieces of at most 1 MiB, each with the compressed bytes read so far: Arrow's
    codec, the compression passed explicitly (Arrow's ``detect`` goes by the name), or (xz; gzip
    with NUL padding, which Arrow refuses) the stdlib. Several members or streams one after the
    other are one file, as their tools read them; garbage after one is refused as corrupt."""
    if arrow and kind != "xz":
        import pyarrow as pa

        with pa.OSFile(str(path)) as raw, pa.CompressedInputStream(raw, kind) as stream:
            while piece := stream.read(_CHUNK):
                yield piece, raw.tell()
        return
    new = (lambda: zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)) if kind == "gzip" \
        else lzma.LZMADecompressor
    dec: Any = new()
    finished, pending = False, b""  # finished: a new member/stream starts only if more data comes
    with open(path, "rb") as fh:  # read-only
        while data := (pending or fh.read(_IN)):
            pending = b""
            if finished:
                if kind == "gzip" and not data.strip(b"\x00"):
                    continue
                dec, finished = new(), False
            while True:
                out = dec.decompress(data, _CHUNK)
                data = dec.unconsumed_tail if kind == "gzip" else b""
                if out:
                    yield out, fh.tell()
                if dec.eof:
                    finished, pending = True, dec.unused_data + data
                    break
                if not (data if kind == "gzip" else not dec.needs_input):
                    break
    if not finished:
        raise EOFError("truncated")


def _decompress(path: Path, kind: str, name: str, *, arrow: bool = True) -> bytes:
    if kind in ("zstd", "lz4"):
        raise FileFormatError(f"{name}: the file is {kind}-compressed, which budgetlab does not "
                              f"read; decompress it ({kind} -d) or save it as .csv.gz.")
    ratio, budget = max_ratio(), memory_limit()
    parts: list[bytes] = []
    total = 0
    with progress_bar(path.stat().st_size, desc=f"decompressing {name}",
                      min_total=PROGRESS_BYTES) as bar:
        try:
            for piece, done in _pieces(path, kind, arrow):
                bar.update(done - bar.done)
                total += len(piece)
                if total > ALLOWANCE and total > ratio * max(done, 1):
                    raise FileFormatError(
                        f"{name}: decompresses to over {ratio:g} times its compressed size (more "
                        f"than {format_bytes(total)} from {format_bytes(done)}): a decompression "
                        "bomb, or a file of one line repeated; if it is genuine, decompress it "
                        f"yourself or raise the cap ({RATIO_ENV}=10000).")
                if total > budget:
                    check_memory(total, f"{name} decompressed", ["decompress and split the file"])
                parts.append(piece)
        except BudgetlabError:
            raise
        except (OSError, EOFError, zlib.error, ValueError, lzma.LZMAError):
            if arrow and kind == "gzip":  # NUL padding after the last member, perhaps
                return _decompress(path, kind, name, arrow=False)
            raise FileFormatError(f"{name}: the {kind} stream is truncated or corrupt; copy or "
                                  "export the file again.") from None
    return b"".join(parts)


def read_input(path: Path, name: str) -> tuple[bytes, list[str]]:
    """The bytes of the file at ``path`` (opened read-only), decompressed when its first bytes
    announce a compression (streamed, under the ratio cap), and the reading note that says so."""
    try:
        with open(path, "rb") as fh:
            kind = compression_of(fh.read(16))
            if kind is None:
                fh.seek(0)
                return fh.read(), []
        suffix = path.suffix.lower()
        named = {".gz": "gzip", ".gzip": "gzip", ".bz2": "bz2", ".xz": "xz"}.get(suffix) == kind
        how = f"named {suffix}" if named else "recognised by content"
        return _decompress(path, kind, name), [f"compression: {kind} ({how})"]
    except OSError as exc:
        raise FileFormatError(f"{name}: cannot be read ({exc.strerror or type(exc).__name__}); "
                              "check its permissions.") from None


# ------------------------------------------------------------------------------------------
# bytes that are not the text they should be
# ------------------------------------------------------------------------------------------
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


def check_text_encoding(encoding: Any) -> str:
    """``encoding`` if it names a text encoding; non-text codecs (``hex``, ``base64``, ``rot13``,
    ``bz2``) and unknown names raise :class:`ConfigError`.

    >>> check_text_encoding("cp1251")
    'cp1251'
    """
    try:
        info = codecs.lookup(encoding)
    except (LookupError, TypeError, ValueError):
        raise ConfigError(f"encoding={encoding!r} is not a known text encoding; e.g. 'utf-8', "
                          "'latin-1', 'cp1251'.") from None
    if not getattr(info, "_is_text_encoding", True) \
            or info.name in ("rot-13", "punycode", "idna", "undefined"):
        raise ConfigError(f"encoding={encoding!r} is not a character encoding for text files; give "
                          "the file's encoding, e.g. 'utf-8', 'latin-1', 'cp1251', 'utf-16'.")
    return str(encoding)


def sniff(raw: bytes, name: str, kind: str) -> None:
    """Refuse data of another kind under a text name: compressed twice, Parquet, ZIP."""
    inner = compression_of(raw[:16])
    if inner is not None:
        raise FileFormatError(f"{name}: is {inner} data inside a compressed file (compressed "
                              "twice); decompress it once and save it as .csv or .csv.gz.")
    if raw[:4] == b"PAR1":
        raise FileFormatError(f"{name}: is a Parquet file, not {kind.upper()}; name it .parquet or "
                              "pass format='parquet'.")
    if raw[:4] == b"PK\x03\x04":
        raise FileFormatError(f"{name}: is a ZIP archive (or an Excel workbook), not "
                              f"{kind.upper()}; export it as CSV or unpack it.")


def as_lf(raw: bytes, encoding: str) -> bytes | None:
    """``raw`` with CR-only line ends as LF, or ``None`` when it has LF line ends (or none); judged
    on the decoded text when the encoding is not ASCII-compatible (UTF-16/32: a CR byte can be
    half of another character, e.g. U+010D)."""
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


# ------------------------------------------------------------------------------------------
# CSV/TSV text through Arrow
# ------------------------------------------------------------------------------------------
def plain_utf8(path: Path, encoding: str, packed: bool) -> bool:
    """Whether Arrow can read the file at ``path`` from its path: uncompressed UTF-8 text without
    CR-only line ends, not blank for a first MiB (else its bytes are read, decompressed or
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


def _open(source: Path | bytes) -> Any:
    return io.BytesIO(source) if isinstance(source, bytes) else open(source, "rb")  # read-only


def _quotes(source: Path | bytes, start: int, *, count: bool) -> int:
    """How many quote characters the text holds from ``start`` on (``count``), or whether it holds
    one (1 or 0): read into one reused buffer, never the whole text at once."""
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


def _header(data: bytes, name: str, sep: str, columns: Sequence[str]) -> tuple[list[str], int]:
    """The header of text ``data`` (its first MiB is enough; no BOM) and the byte just past its
    line end, or -1 when the header row may span lines (a quoted field)."""
    first_line = data[: data.find(b"\n") if b"\n" in data[: 1 << 20] else 1 << 20]
    err = text_problem(first_line, name, "utf-8")
    if err is not None:
        raise err
    try:
        reader = csv.reader(io.StringIO(data[: 1 << 20].decode("utf-8", errors="replace")),
                            delimiter=sep)
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


def _arrow_table(source: Path | bytes, start: int, sep: str, want: FileSpec, quoted: bool) -> Any:
    """Arrow's CSV reader over the text from byte ``start``: the declared columns as text, labels
    and keys as dictionaries, no value read as missing. ``quoted``: values may hold line ends
    (Arrow then finds row ends quote by quote). The time column is first read as UTC instants by
    Arrow's strict ISO-8601 parser, a zone required (the parser ``parse_time`` tries first, so
    the instants are the same); if any value does not parse so, the text is read again with the
    column as text, for the careful parser. A field (or header) longer than Arrow's block is read
    again with one block as large as the input."""
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
    """A CSV/TSV table read by Arrow from one stream: a file of plain UTF-8 text (see
    :func:`plain_utf8`; read from its path, never held in memory) or UTF-8 ``bytes``. The checks:
    byte-order mark, UTF-16/binary, the header, quotes (none after the header: values cannot hold
    line ends; an odd count: an unclosed quote is looked for), Arrow's own parse, whose failure
    is named without quoting a row. A time column that came as instants marks the frame with
    :data:`ISO_TIME`."""
    import pyarrow as pa

    with _open(source) as fh:
        head = fh.read(_HEAD)
    if not isinstance(source, bytes):
        sniff(head, name, kind)
        if is_blank(head):  # the whole file (a blank first MiB with more after it is read as bytes)
            raise FileFormatError(f"{name}: the file is empty; give a file with a header and rows.")
        refuse_wide(head, name)
    start = len(_BOM) if head[:3] == _BOM else 0
    sep = "\t" if kind == "tsv" else ","
    header, body = _header(head[start:], name, sep, want.columns)
    quoted = body < 0 or bool(_quotes(source, start + body, count=False))
    try:
        table = _arrow_table(source, start, sep, want, quoted)
    except (pa.ArrowException, ValueError, OSError, MemoryError) as exc:
        raise _parse_error(exc, _whole(source, start), name, kind, sep, len(header)) from None
    if quoted and _quotes(source, start, count=True) % 2:
        _check_quotes(_whole(source, start), name, sep)
    if table.num_rows == 0:
        raise FileFormatError(f"{name}: has a header but no rows; nothing to analyse.")
    frame = pd.DataFrame(table.to_pandas(ignore_metadata=True))
    if want.iso_time is not None and pa.types.is_timestamp(table.schema.field(want.iso_time).type):
        frame.attrs[ISO_TIME] = True
    del table
    if not _ends_with_line_end(source, start):
        note_open_last_row(len(frame) - 1)
    return frame


def _whole(source: Path | bytes, start: int) -> bytes:
    with _open(source) as fh:
        fh.seek(start)
        return bytes(fh.read())


def _parse_error(exc: BaseException, data: bytes, name: str, kind: str, sep: str,
                 width: int) -> FileFormatError:
    """The one-line error for Arrow's failure on ``data`` (Arrow's own text quotes rows)."""
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
                           "quoting and separators, or export the file again.")


def _check_quotes(data: bytes, name: str, sep: str) -> None:
    """An odd number of quote characters: find an unterminated quoted field, which would swallow
    every following line into one value (error path only: a Python loop over the rows)."""
    rows = 0
    try:
        reader = csv.reader(io.StringIO(data.decode("utf-8", errors="replace")), delimiter=sep,
                            strict=True)
        next(reader, None)
        for record in reader:
            rows += bool(record)
    except csv.Error:
        raise FileFormatError(f"{name}: a quoted field is never closed (from data row {rows + 1}, "
                              "1-based); it would swallow the rest of the file: fix the quote or "
                              "export the file again.") from None


def _ragged_message(data: bytes, name: str, sep: str, width: int) -> str:
    """Name the rows whose field count differs from the header's (error path only)."""
    rows: list[int] = []
    count = 0
    try:
        reader = csv.reader(io.StringIO(data.decode("utf-8", errors="replace")), delimiter=sep)
        next(reader, None)
        for i, record in enumerate(filter(None, reader), 1):  # blank lines skipped, as when read
            if len(record) != width:
                count += 1
                if len(rows) < MAX_ROWS_LISTED:
                    rows.append(i)
    except csv.Error:
        pass
    more = " and more" if count > len(rows) else ""
    where = f" (data rows {', '.join(map(str, rows))}{more}, 1-based)" if rows else ""
    half = "" if data.rstrip(b" \t").endswith((b"\n", b"\r")) else \
        "; the last line has no line end: the file may be half-written"
    counted = f"{count} row(s) have" if count else "some rows have"
    return (f"{name}: {counted} a different number of fields than the header{where}; a field may "
            f"hold an unquoted separator or quote{half}. Fix or drop those rows.")
