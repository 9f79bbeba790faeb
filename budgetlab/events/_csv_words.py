"""What a CSV/TSV file that Arrow's reader cannot read is told (error paths only, so a clean
read never enters here): rows whose field count differs from the header's, named by number; a
quoted field never closed; else a malformed file. No message quotes a row."""

from __future__ import annotations

import csv
import io

from .._util.words import counted
from ..errors import FileFormatError
from ._messages import MAX_ROWS_LISTED

__all__ = ["parse_refusal", "check_quotes"]


def parse_refusal(exc: BaseException, data: bytes, name: str, kind: str, sep: str,
                  width: int) -> FileFormatError:
    """The one-line error for Arrow's failure on ``data`` (Arrow's own text quotes rows): rows of
    another field count than the header's ``width``, an unclosed quote, or a malformed file."""
    text = str(exc)
    if "Expected" in text and "columns" in text:
        if data.count(b'"') % 2:
            check_quotes(data, name, sep)
        return FileFormatError(_ragged_message(data, name, sep, width))
    return FileFormatError(f"{name}: malformed {kind.upper()} ({type(exc).__name__}); check "
                           "quoting and separators, or export the file again.")


def check_quotes(data: bytes, name: str, sep: str) -> None:
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
    which = "data row" if len(rows) == 1 and not more else "data rows"
    where = f" ({which} {', '.join(map(str, rows))}{more}, 1-based)" if rows else ""
    half = "" if data.rstrip(b" \t").endswith((b"\n", b"\r")) else \
        "; the last line has no line end: the file may be half-written"
    rows_have = (f"{counted(count, 'row')} {'has' if count == 1 else 'have'}" if count
                 else "some rows have")
    return (f"{name}: {rows_have} a different number of fields than the header{where}; a field may "
            f"hold an unquoted separator or quote{half}. Fix or drop those rows.")
