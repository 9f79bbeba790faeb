"""An input's bytes, decompressed in a stream under a ratio cap.

Compression is recognised by its magic bytes, whatever the name, and passed to Arrow's codec
explicitly (gzip, bzip2); the stdlib reads what Arrow cannot: xz, and gzip with NUL padding after
the last member. Beyond :data:`ALLOWANCE` the output may grow to :data:`MAX_RATIO` times the
compressed bytes read so far: a decompression bomb is refused after a few MiB, never held in
memory; ``BUDGETLAB_MAX_RATIO`` raises the cap for a genuine file.
"""

from __future__ import annotations

import gzip
import lzma
import os
import zlib
from collections.abc import Iterator
from pathlib import Path

from .._util.memory import check_memory, format_bytes, memory_limit
from .._util.progress import progress_bar
from ..errors import BudgetlabError, ConfigError, FileFormatError
from ._text import PROGRESS_BYTES, compression_of

__all__ = ["ALLOWANCE", "MAX_RATIO", "PACKED", "RATIO_ENV", "max_ratio", "read_head", "read_input"]

#: Default cap on decompressed bytes per compressed byte (the figures: docs/guarantees.md).
MAX_RATIO = 100
#: The environment variable that overrides :data:`MAX_RATIO`.
RATIO_ENV = "BUDGETLAB_MAX_RATIO"
#: Decompressed bytes always allowed, whatever the ratio (small files of repeated lines).
ALLOWANCE = 16 * 1024**2

#: Names of compressed files: the suffix and the compression it announces (a table's format is
#: the suffix before it).
PACKED = {".gz": "gzip", ".gzip": "gzip", ".bz2": "bz2", ".xz": "xz", ".zst": "zstd",
          ".zstd": "zstd", ".lz4": "lz4"}

_CHUNK, _IN = 1 << 20, 1 << 14  # bytes per decompressed piece, per compressed read (xz)


def max_ratio() -> float:
    """The decompression ratio cap: ``$BUDGETLAB_MAX_RATIO`` if set, else :data:`MAX_RATIO`."""
    text = os.environ.get(RATIO_ENV, "").strip() or str(MAX_RATIO)
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
    codec, told the compression (its ``detect`` goes by the name), or the stdlib where Arrow
    cannot (xz; gzip with NUL padding after the last member, as gzip reads it). Members or
    streams one after the other are one file; garbage after one is refused as corrupt."""
    if arrow and kind != "xz":
        import pyarrow as pa

        with pa.OSFile(str(path)) as raw, pa.CompressedInputStream(raw, kind) as stream:
            while piece := stream.read(_CHUNK):
                yield piece, raw.tell()
        return
    with open(path, "rb") as raw:  # read-only
        if kind == "gzip":
            with gzip.GzipFile(fileobj=raw) as stream:
                while piece := stream.read(_CHUNK):
                    yield piece, raw.tell()
            return
        dec = lzma.LZMADecompressor()  # not LZMAFile: it ignores garbage after a stream
        while True:
            if dec.eof:  # then another stream, garbage (LZMAError) or the end
                if not (data := dec.unused_data or raw.read(_IN)):
                    return
                dec = lzma.LZMADecompressor()
            elif dec.needs_input:
                if not (data := raw.read(_IN)):
                    raise EOFError("truncated")
            else:
                data = b""  # more output from the input already given
            if out := dec.decompress(data, _CHUNK):
                yield out, raw.tell()


def _decompress(path: Path, kind: str, name: str, *, arrow: bool = True,
                holds: str = "csv") -> bytes:
    if kind in ("zstd", "lz4"):  # the advice keeps what the file holds: a text log stays .log
        raise FileFormatError(f"{name}: the file is {kind}-compressed, which budgetlab does not "
                              f"read; decompress it ({kind} -d) or save it as .{holds}.gz.")
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


def _unreadable(name: str, exc: OSError) -> FileFormatError:
    return FileFormatError(f"{name}: cannot be read ({exc.strerror or type(exc).__name__}); "
                           "check its permissions.")


def _compression(path: Path, name: str, head: bytes) -> str | None:
    """The compression ``head`` (a file's first bytes) announces; refused when the file's name
    announces one (:data:`PACKED`) and its bytes none: a misnamed file, or a stream too corrupt to
    recognise, is never read as plain text. A different compression is read by its bytes."""
    kind = compression_of(head[:16])
    suffix = path.suffix.lower()
    if kind is None and suffix in PACKED:
        named = PACKED[suffix]
        raise FileFormatError(f"{name}: is named {suffix} but is not {named} data; the {named} "
                              "stream is truncated or corrupt, or the file is misnamed: rename or "
                              "export it again.")
    return kind


def read_head(path: Path, name: str, size: int = 1 << 16) -> tuple[bytes, str | None]:
    """The first ``size`` bytes of the file at ``path`` (opened read-only) and the compression
    they announce (``None``: plain), refused as :func:`read_input` refuses them."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(size)
    except OSError as exc:
        raise _unreadable(name, exc) from None
    return head, _compression(path, name, head)


def read_input(path: Path, name: str, *, holds: str = "csv") -> tuple[bytes, list[str]]:
    """The bytes of the file at ``path`` (opened read-only), decompressed when its first bytes
    announce a compression (streamed, under the ratio cap), and the reading note that says so.
    A file named as compressed (``.gz``, ``.bz2``, ``.xz``, ...) whose bytes are not is refused.
    ``holds`` is what the text is (``csv``, ``tsv``, ``jsonl``, ``log``: a line log), for the
    advice on a compression budgetlab does not read (``save it as .log.gz``)."""
    try:
        with open(path, "rb") as fh:
            kind = _compression(path, name, fh.read(16))
            if kind is None:
                fh.seek(0)
                return fh.read(), []
        suffix = path.suffix.lower()
        how = f"named {suffix}" if PACKED.get(suffix) == kind else "recognised by content"
        return _decompress(path, kind, name, holds=holds), [f"compression: {kind} ({how})"]
    except OSError as exc:
        raise _unreadable(name, exc) from None
