"""Whether a file is an access log, by its first line (read by content, the compression by its
magic bytes): the one test that the readers and the refusals share, kept apart from the reader
so that a refusal can ask it without importing the reading path."""

from __future__ import annotations

import bz2
import gzip
import lzma
import re
import zlib
from os import PathLike
from pathlib import Path
from typing import Any

from ._text import compression_of
from .presets import PRESETS

__all__ = ["is_access_log"]


def is_access_log(path: str | PathLike[str]) -> bool:
    """Whether the file's first non-blank line is in common/combined log format (read by content:
    gzip, bzip2 and xz are recognised by their magic bytes, not by the name).

    >>> import pathlib, tempfile
    >>> log = pathlib.Path(tempfile.mkdtemp()) / "access.log.1"
    >>> _ = log.write_text(
    ...     '192.0.2.8 - - [10/Oct/2026:13:55:36 +0200] "GET / HTTP/1.1" 200 2326\\n')
    >>> is_access_log(log)
    True
    """
    p = Path(path).expanduser()
    if not p.is_file():
        return False
    try:
        with open(p, "rb") as fh:
            kind = compression_of(fh.read(16))
        opener: Any = {"gzip": gzip.open, "bz2": bz2.open, "xz": lzma.open}.get(kind or "", open)
        with opener(p, "rb") as fh:
            head = fh.read(1 << 16)
    except (OSError, EOFError, zlib.error, lzma.LZMAError):  # OSError: also a corrupt bzip2 stream
        return False
    lines = head.decode("utf-8", errors="replace").splitlines()
    for line in lines[:-1] or lines:  # the last line of the head may be cut
        if line.strip():
            return re.match(PRESETS["access"].pattern, line) is not None
    return False
