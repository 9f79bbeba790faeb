"""An input file's bytes, decompressed in a stream under a ratio cap, and the diagnosis of bytes
that are not the text they should be (UTF-16, binary, another compression, CR-only lines).

Compression is recognised by its magic bytes, whatever the name, and passed to Arrow's codec
explicitly (gzip, bzip2: ``pa.CompressedInputStream``), in 1 MiB steps; the stdlib reads only
what Arrow cannot: xz (no codec in pyarrow) and gzip with NUL padding after the last member (as
gzip reads it; Arrow refuses it). zstd, lz4 and ZIP are refused with the fix. While decompressing,
the
output may grow to a small allowance (:data:`ALLOWANCE`) and beyond it to at most
:data:`MAX_RATIO` times the compressed bytes read so far: a "zip bomb" (a few MiB that expand to
gigabytes, such as a file of blank lines) is refused after a few MiB, never held in memory.
``BUDGETLAB_MAX_RATIO`` raises the cap for a genuine file; the decompressed size must also fit
the memory budget (:func:`budgetlab._util.memory.memory_limit`).
"""

from __future__ import annotations

import codecs
import os
import re
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .._util.memory import check_memory, format_bytes, memory_limit
from .._util.progress import progress_bar
from .._util.words import say
from ..errors import BudgetlabError, ConfigError, FileFormatError

__all__ = ["MAX_RATIO", "RATIO_ENV", "ALLOWANCE", "COMPRESSED_SUFFIXES", "compression_of",
           "read_input", "refuse_binary",
           "max_ratio", "text_problem", "utf16_encoding", "cr_only", "check_text_encoding",
           "file_name",
           "CR_ONLY_NOTE", "compression_note", "PROGRESS_BYTES", "utf8_family", "sniff", "is_blank",
           "refuse_wide"]

#: Default cap on decompressed bytes per compressed byte (gzip's own maximum is about 1032).
MAX_RATIO = 1000
#: The environment variable that overrides :data:`MAX_RATIO`.
RATIO_ENV = "BUDGETLAB_MAX_RATIO"
#: Decompressed bytes always allowed, whatever the ratio (small files of repeated lines).
ALLOWANCE = 16 * 1024**2
#: Name suffixes of compressed files (the format is the suffix before them).
COMPRESSED_SUFFIXES = (".gz", ".gzip", ".bz2", ".xz", ".zst", ".zstd", ".lz4")

#: Inputs from this many bytes on (compressed bytes for compressed input, the sum of the files for
#: many files) show a progress bar while they load, on a terminal only
# (:mod:`budgetlab._util.progress`).
PROGRESS_BYTES = 1 << 28

#: The "how it was read" statement for a file whose lines end in CR alone (read as line ends).
CR_ONLY_NOTE = "line endings: CR only (old Mac), read as line ends"

try:
    import lzma
except ImportError:  # a Python built without liblzma
    lzma = None  # type: ignore[assignment]
_LZMA_ERROR = OSError if lzma is None else lzma.LZMAError

_CHUNK = 1 << 20
_IN = 1 << 14
# block or end-of-stream magic
_BZ2_BLOCK = (b"\x31\x41\x59\x26\x53\x59", b"\x17\x72\x45\x38\x50\x90")


def file_name(path: str | os.PathLike[str]) -> str:
    """A file's name for a message: as given, unless it looks like personal data (then not shown).

    >>> file_name("logs/day1.csv"), file_name("ivan.petrov@mail.ru.csv")
    ('day1.csv', 'a file whose name looks like personal data (not shown)')
    """
    from ..privacy import looks_personal

    name = Path(path).name or str(path)
    return ("a file whose name looks like personal data (not "
            "shown)") if looks_personal(name) else name


def compression_of(head: bytes) -> str | None:
    """The compression a file's first bytes announce (``gzip``, ``bz2``, ``xz``, ``zstd``,
    ``lz4``), or ``None``.

    >>> import gzip
    >>> compression_of(gzip.compress(b"x")), compression_of(b"ts,outcome")
    ('gzip', None)
    """
    if head[:2] == b"\x1f\x8b":
        return "gzip"
    if head[:6] == b"\xfd7zXZ\x00":
        return "xz"
    if head[:4] == b"\x28\xb5\x2f\xfd":
        return "zstd"
    if head[:4] == b"\x04\x22\x4d\x18":
        return "lz4"
    if head[:3] == b"BZh" and head[3:4] in b"123456789" and head[4:10] in _BZ2_BLOCK:
        return "bz2"
    return None


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


def _arrow_pieces(path: Path, kind: str) -> Iterator[tuple[bytes, int]]:
    """Decompressed pieces of at most 1 MiB, each with the compressed bytes read so far: Arrow's
    own codec (``pa.CompressedInputStream``), the compression passed explicitly (budgetlab found it
    by content; Arrow's ``detect`` goes by the name). Several gzip members or bzip2 streams one
    after the other are one file, as their tools read them."""
    import pyarrow as pa

    with pa.OSFile(str(path)) as raw, pa.CompressedInputStream(raw, kind) as stream:  # read-only
        while piece := stream.read(_CHUNK):
            yield piece, raw.tell()


def _stdlib_pieces(path: Path, kind: str, name: str) -> Iterator[tuple[bytes, int]]:
    """The stdlib fallback, only where Arrow cannot: xz (pyarrow has no xz codec) and gzip with NUL
    padding after the last member (which gzip ignores and Arrow refuses). Garbage after a
    member or stream is refused as corrupt, as Arrow refuses it."""
    if kind == "xz" and lzma is None:
        raise FileFormatError(f"{name}: the file is xz-compressed and this Python has no xz "
                              "support; decompress "
                              "it (xz -d) or save it as .csv.gz.")
    new = (
        (lambda: zlib.decompressobj(wbits=16 + zlib.MAX_WBITS))
        if kind == "gzip"
        else lzma.LZMADecompressor
    )
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
                              "read; decompress it "
                              f"({kind} -d) or save it as .csv.gz.")
    ratio, budget = max_ratio(), memory_limit()
    parts: list[bytes] = []
    total = 0
    pieces = _arrow_pieces(path, kind) if arrow and kind != "xz" else _stdlib_pieces(path, kind,
                                                                                     name)
    with progress_bar(path.stat().st_size, desc=f"decompressing {name}",
                      min_total=PROGRESS_BYTES) as bar:
        try:
            for piece, done in pieces:
                bar.update(done - bar.done)
                total += len(piece)
                if total > ALLOWANCE and total > ratio * max(done, 1):
                    raise FileFormatError(
                        f"{name}: decompresses to over {ratio:g} times its compressed size (more "
                        "than "
                        f"{format_bytes(total)} from {format_bytes(done)}): a decompression bomb, "
                        "or a file of "
                        "one line repeated; if it is genuine, decompress it yourself or raise the "
                        "cap "
                        f"({RATIO_ENV}=10000).")
                if total > budget:
                    check_memory(total, f"{name} decompressed", ["decompress and split the file"])
                parts.append(piece)
        except BudgetlabError:
            raise
        except (OSError, EOFError, zlib.error, ValueError, _LZMA_ERROR):
            # NUL padding after the last member, perhaps: the stdlib reads it
            if arrow and kind == "gzip":
                return _decompress(path, kind, name, arrow=False)
            raise FileFormatError(f"{name}: the {kind} stream is truncated or corrupt; copy or "
                                  "export the file "
                                  "again.") from None
    return b"".join(parts)


def compression_note(path: Path, kind: str) -> str:
    """The "how it was read" statement for a file decompressed as ``kind``: named by its suffix,
    or recognised by its content alone.

    >>> compression_note(Path("log.csv.xz"), "xz"), compression_note(Path("log.csv"), "gzip")
    ('compression: xz (named .xz)', 'compression: gzip (recognised by content)')
    """
    suffix = path.suffix.lower()
    named = {".gz": "gzip", ".gzip": "gzip", ".bz2": "bz2", ".xz": "xz"}.get(suffix)
    return (f"compression: {kind} "
            f"({f'named {suffix}' if named == kind else 'recognised by content'})")


def read_input(path: Path, name: str, notes: list[str] | None = None) -> bytes:
    """The bytes of the file at ``path`` (opened read-only), decompressed when its first bytes
    announce a compression (streamed, under the ratio cap; the compression is stated in
    ``notes``)."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(16)
        kind = compression_of(head)
        if kind is not None:
            data = _decompress(path, kind, name)
            if notes is not None:
                notes.append(compression_note(path, kind))
            return data
        with open(path, "rb") as fh:
            return fh.read()
    except OSError as exc:
        raise FileFormatError(f"{name}: cannot be read ({exc.strerror or type(exc).__name__}); "
                              "check its permissions.") from None


def utf16_encoding(raw: bytes) -> str | None:
    """The UTF-16/32 encoding of text with a byte-order mark (``utf-16``/``utf-32``) or, without
    one, of mostly-ASCII text whose every other byte is NUL (``utf-16-le``/``utf-16-be``).

    >>> (utf16_encoding("ts,outcome\\n".encode("utf-16")),
    ...  utf16_encoding("ts\\n".encode("utf-16-be")))
    ('utf-16', 'utf-16-be')
    """
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


def _binary(name: str) -> FileFormatError:
    return FileFormatError(f"{name}: holds binary data (NUL bytes), not text: is it the right "
                           "file, or a format "
                           "budgetlab does not read (Excel, an archive)? Export it as CSV.")


def refuse_binary(raw: bytes, name: str) -> None:
    """NUL bytes in the first 64 KiB of text that is not UTF-16: binary data, never a log."""
    if b"\x00" in raw[:65536] and utf16_encoding(raw) is None:
        raise _binary(name)


def text_problem(raw: bytes, name: str, encoding: str) -> FileFormatError | None:
    """Why ``raw`` is not ``encoding`` text, naming the real cause (UTF-16, binary data, another
    compression) and its fix; ``None`` when it decodes."""
    try:
        codecs.decode(raw, encoding)
    except UnicodeError as exc:
        wide = utf16_encoding(raw)
        if wide is not None:
            return FileFormatError(f"{name}: is {wide.upper()} text, not {encoding}; pass "
                                   f"{say(f'encoding={wide!r}', f'--encoding {wide}')} or save it "
                                   "as UTF-8.")
        if b"\x00" in raw[:65536]:
            return _binary(name)
        return FileFormatError(
            f"{name}: not valid {encoding} text (first bad byte at offset "
            f"{getattr(exc, 'start', 0)}); pass the file's real "
            "encoding, e.g. " + say("encoding='latin-1' or 'cp1251'",
                                    "--encoding latin-1 or --encoding cp1251") + "."
        )
    return None


def check_text_encoding(encoding: Any) -> str:
    """``encoding`` if it names a text encoding; non-text codecs (``hex``, ``base64``, ``rot13``,
    ``bz2``) and unknown names raise :class:`ConfigError`.

    >>> check_text_encoding("cp1251")
    'cp1251'
    >>> check_text_encoding("hex")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: encoding='hex' is not a character encoding for text files; give
    the file's encoding, e.g. 'utf-8', 'latin-1', 'cp1251', 'utf-16'.
    """
    try:
        info = codecs.lookup(encoding)
    except (LookupError, TypeError, ValueError):
        raise ConfigError(f"encoding={encoding!r} is not a known text encoding; e.g. 'utf-8', "
                          "'latin-1', "
                          "'cp1251'.") from None
    if not getattr(info, "_is_text_encoding", True) or info.name in ("rot-13", "punycode", "idna",
                                                                     "undefined"):
        raise ConfigError(f"encoding={encoding!r} is not a character encoding for text files; give "
                          "the "
                          "file's encoding, e.g. 'utf-8', 'latin-1', 'cp1251', 'utf-16'.")
    return str(encoding)


def utf8_family(encoding: str) -> bool:
    return codecs.lookup(encoding).name in ("utf-8", "utf-8-sig")


def sniff(raw: bytes, name: str, kind: str) -> None:
    inner = compression_of(raw[:16])
    if inner is not None:
        raise FileFormatError(f"{name}: is {inner} data inside a compressed file (compressed "
                              "twice); decompress it "
                              "once and save it as .csv or .csv.gz.")
    if raw[:4] == b"PAR1":
        raise FileFormatError(f"{name}: is a Parquet file, not {kind.upper()}; name it .parquet or "
                              "pass format='parquet'.")
    if raw[:4] == b"PK\x03\x04":
        raise FileFormatError(f"{name}: is a ZIP archive (or an Excel workbook), not "
                              f"{kind.upper()}; "
                              "export it as CSV or unpack it.")


_BLANK = re.compile(rb"[^ \t\r\n\x00\xef\xbb\xbf]")  # a byte that makes a file not empty


def is_blank(raw: bytes) -> bool:
    """Only blanks, NULs and BOM bytes (what an empty export holds); found without a copy."""
    return _BLANK.search(raw) is None


def refuse_wide(raw: bytes, name: str) -> None:
    """UTF-16/32 text read as UTF-8 (NUL bytes are valid UTF-8, so decoding alone misses it), or
    binary data."""
    refuse_binary(raw, name)
    wide = utf16_encoding(raw)
    if wide is not None:
        bom = (
            "it starts with a byte-order mark"
            if wide in ("utf-16", "utf-32")
            else "every other byte is NUL"
        )
        raise FileFormatError(f"{name}: is {wide.upper()} text ({bom}); pass "
                              f"{say(f'encoding={wide!r}', f'--encoding {wide}')} or save it as "
                              "UTF-8.")
