"""Line-oriented logs read by a pattern: one event per line that matches (``pattern=``, CLI
``--pattern``), or a named preset (``preset=``, CLI ``--preset``).

The pattern is a regular expression in RE2 syntax, as Arrow's ``extract_regex`` takes it (no
lookaround, no backreferences); its named groups are the columns (``(?P<ts>...)`` for the time,
``(?P<outcome>...)`` for the label, any other name a column ``by=`` may keep). The pattern defines
what an event is: lines that do not match are counted, and their share is stated in the "how it
was read" block; a file in which no line matches is refused, and with ``strict=True`` (CLI
``--strict``) so is any line that does not match. Blank lines are not lines of the log. Files may
be compressed (gzip, bzip2, xz: recognised by their first bytes). Lines are read by Arrow's CSV
reader in blocks of :data:`BLOCK_BYTES` (memory bounded by a block and the matched groups), one
value per line; a line ends at LF, CRLF or a CR alone.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pcsv

from .._util.files import register_input
from .._util.progress import progress_bar
from .._util.words import say
from ..errors import ConfigError, FileFormatError, InputError
from ._compressed import read_head, read_input
from ._text import CR_ONLY_NOTE, PROGRESS_BYTES, cr_only, text_problem
from .files import check_path, file_name

__all__ = ["LinePreset", "LineScan", "PRESETS", "check_pattern", "pattern_groups", "read_lines",
           "scan_lines", "line_list"]

MAX_LINES_LISTED = 10
#: Bytes of text Arrow's CSV reader parses at a time: memory is bounded by a block (and the events).
BLOCK_BYTES = 1 << 22
# the CSV reader's separator: a character text logs do not hold (one value per line)
_SEPARATOR = "\x1f"
_GROUP = re.compile(r"\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>")
_UNSUPPORTED = re.compile(r"\(\?<?[=!]|\\[1-9]|\\k<")


@dataclasses.dataclass(frozen=True)
class LinePreset:
    """A documented example of a line format: its pattern, time format and label meanings."""

    pattern: str
    time_format: str
    outcomes: Mapping[str, str]
    about: str


_QUOTED = r'"(?:[^"\\]|\\.)*"'
#: Named presets (``preset=``, CLI ``--preset``), each tested on a real public sample
#: (``tests/fixtures/loghub/``). Their ``outcomes`` are used unless ``outcomes=`` is given.
PRESETS: dict[str, LinePreset] = {
    "sshd": LinePreset(
        pattern=r"^(?P<ts>[A-Z][a-z]{2} [ 0-9]?[0-9] [0-9]{2}:[0-9]{2}:[0-9]{2}) (?P<host>\S+) "
                r"sshd\[[0-9]+\]: "
                r"(?P<outcome>Accepted|Failed) \S+ for ",
        time_format="%b %d %H:%M:%S",
        outcomes={"accepted": "success", "failed": "failure"},
        about="OpenSSH authentication in a syslog file: 'Accepted ... for' is a success, "
              "'Failed ... for' a failure; every other line is not an event. Keys: host.",
    ),
    "proxifier": LinePreset(
        pattern=r"^\[(?P<ts>[0-9]{2}\.[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2})\] (?P<program>.+?) - "
                r"\S+ (?P<outcome>close|error)\b",
        time_format="%m.%d %H:%M:%S",
        outcomes={"close": "success", "error": "failure"},
        about="Proxifier connection log: a connection that closes is a success, one that ends "
              "in an error a failure; 'open through proxy' lines are not events. Keys: program.",
    ),
    "access": LinePreset(
        pattern=r"^[^ ]+ [^ ]+ (?:[^ ]+|" + _QUOTED + r") \[(?P<ts>[^\]]+)\] "
                r'"(?P<method>[A-Za-z]*)(?:[^"\\]|\\.)*" (?P<outcome>[0-9]{3}) (?:[0-9]+|-)(?: |$)',
        time_format="%d/%b/%Y:%H:%M:%S %z",
        outcomes={"1xx": "success", "2xx": "success", "3xx": "success", "4xx": "success",
                  "5xx": "server_error"},
        about="Apache/nginx access log, common or combined format: the HTTP status is the "
              "outcome (below 500 a success). Keys: method. The client address, user, path, "
              "referrer and agent are never read.",
    ),
}


def pattern_groups(pattern: str) -> list[str]:
    """The named groups of ``pattern``, in order.

    >>> pattern_groups(r"^(?P<ts>\\S+ \\S+) (?P<outcome>\\w+) (?<region>\\w+)")
    ['ts', 'outcome', 'region']
    """
    return _GROUP.findall(pattern)


def check_pattern(pattern: Any, needed: Sequence[str]) -> str:
    """Refuse a pattern Arrow cannot run (RE2 syntax: lookaround and backreferences are not part of
    it) or one without a named group for each ``needed`` column."""
    if not isinstance(pattern, str) or not pattern:
        raise ConfigError("pattern= takes a regular expression with named groups, e.g. "
                          r"'^(?P<ts>\S+ \S+) (?P<outcome>\w+)'.")
    if _UNSUPPORTED.search(pattern):
        raise ConfigError("pattern= uses lookaround or a backreference; patterns are RE2 syntax "
                          "(as Arrow's extract_regex reads them), which has neither: match the "
                          "text itself instead.")
    try:
        pc.extract_regex(pa.array([], type=pa.string()), pattern=pattern)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as exc:
        reason = str(exc).split(":", 1)[-1].strip()
        raise ConfigError(f"pattern= is not a valid RE2 regular expression ({reason}).") from None
    groups = pattern_groups(pattern)
    if len(set(groups)) != len(groups):
        raise ConfigError("pattern= names a group twice; give each named group its own name.")
    missing = [c for c in needed if c not in groups]
    if missing:
        have = ", ".join(groups) or "none"
        raise ConfigError(f"pattern= has no named group for {', '.join(map(repr, missing))} "
                          f"(named groups: {have}); write (?P<name>...) around the part of the "
                          "line that holds it.")
    return pattern


class LineScan(NamedTuple):
    """What the lines of one file held: the named groups of the lines that match (``events``, as
    text) and their line numbers, the non-blank ``lines``, how many of those do not match
    (``unmatched``) with the first such line numbers, and the reading notes (compression)."""

    name: str
    events: pa.Table
    numbers: np.ndarray
    lines: int
    unmatched: int
    first_unmatched: np.ndarray
    notes: tuple[str, ...]


def _source(path: Path, name: str) -> tuple[Any, int, list[str]]:
    """The file as an Arrow stream: plain text from disk, compressed text (recognised by its first
    bytes) decompressed under the ratio cap; its size, and the notes on how it was read. A file
    named as compressed whose bytes are not is refused (:func:`read_head`)."""
    check_path(path)
    register_input(path)
    head, kind = read_head(path, name)
    notes: list[str] = []
    source: Any
    if kind is None:
        source, size = pa.OSFile(str(path)), path.stat().st_size
    else:
        data, notes = read_input(path, name)
        head, source, size = data[:1 << 16], pa.BufferReader(data), len(data)
    if cr_only(head):  # Arrow's reader ends a line at CR too
        notes.append(CR_ONLY_NOTE)
    return source, size, notes


def _text(lines: pa.Array, name: str, encoding: str, replace: bool) -> pa.Array:
    """Lines read as bytes, as text; undecodable bytes replaced (``replace``) or refused."""
    try:
        return lines.cast(pa.string())
    except pa.ArrowInvalid:
        if replace:
            return pa.array([b.decode("utf-8", "replace") for b in lines.to_pylist()], pa.string())
        raise text_problem(b"\n".join(lines.to_pylist()), name, encoding) or FileFormatError(
            f"{name}: not valid {encoding} text.") from None


def _csv_options(encoding: str) -> dict[str, Any]:
    """Arrow's CSV reader set to give each line as one value of bytes (no quoting, a separator
    that text logs do not hold), a block at a time (its threads would read blocks ahead)."""
    arrow_encoding = "utf8" if encoding in ("utf-8", "utf8") else encoding
    return {"read_options": pcsv.ReadOptions(column_names=["line"], block_size=BLOCK_BYTES,
                                             use_threads=False, encoding=arrow_encoding),
            "parse_options": pcsv.ParseOptions(delimiter=_SEPARATOR, quote_char=False,
                                               escape_char=False, ignore_empty_lines=False),
            "convert_options": pcsv.ConvertOptions(column_types={"line": pa.binary()})}


def _match(text: pa.Array, patterns: Sequence[str]) -> tuple[pa.Array, np.ndarray]:
    """The groups of the lines that match and their rows: each line by the first of ``patterns``
    that matches it (a fast one-pass pattern, then a fuller one for the lines it misses)."""
    parts, rows, left = [], [], np.arange(len(text))
    for pattern in patterns:
        got = pc.extract_regex(text if len(left) == len(text) else text.take(left), pattern)
        hit = np.asarray(got.is_valid(), dtype=bool)
        parts.append(got.filter(hit))
        rows.append(left[hit])
        left = left[~hit]
        if not len(left):
            break
    if len(parts) == 1:
        return parts[0], rows[0]
    order = np.argsort(np.concatenate(rows), kind="stable")
    return pa.concat_arrays(parts).take(order), np.concatenate(rows)[order]


def scan_lines(path: Path, pattern: str, *, encoding: str = "utf-8", replace: bool = False,
               fast: str | None = None) -> LineScan:
    """The lines of the file at ``path`` matched by ``pattern`` (read by Arrow's CSV reader in
    blocks of :data:`BLOCK_BYTES`: memory is bounded by a block and the matched groups); ``fast``, a
    pattern with the same groups that matches a subset of those lines with the same groups, is
    tried first (RE2 extracts one-pass patterns several times faster).

    >>> import tempfile, pathlib
    >>> log = pathlib.Path(tempfile.mkdtemp()) / "app.log"
    >>> _ = log.write_text("10:00:01 ok\\nstarting\\n\\n10:00:02 failed\\n")
    >>> scan = scan_lines(log, r"^(?P<ts>\\S+) (?P<outcome>\\w+)$")
    >>> scan.events.column("outcome").to_pylist(), scan.numbers.tolist(), scan.lines, scan.unmatched
    (['ok', 'failed'], [1, 4], 3, 1)
    """
    name = file_name(path)
    source, size, notes = _source(path, name)
    found: list[pa.Array] = []
    numbers, first = [np.zeros(0, np.int64)], [np.zeros(0, np.int64)]
    at = blank = unmatched = 0
    with progress_bar(size, desc=f"reading {name}", min_total=PROGRESS_BYTES) as bar:
        try:
            for batch in pcsv.open_csv(source, **_csv_options(encoding)) if size else ():
                text = _text(batch.column(0), name, encoding, replace)
                parts, rows = _match(text, [pattern] if fast is None else [fast, pattern])
                found.append(parts)
                numbers.append(at + 1 + rows)
                miss = np.setdiff1d(np.arange(len(text)), rows, assume_unique=True)
                empty = np.asarray(pc.match_substring_regex(text.take(miss), r"^\s*$"), dtype=bool)
                blank, unmatched = blank + int(empty.sum()), unmatched + int((~empty).sum())
                first.append(at + 1 + miss[~empty][:MAX_LINES_LISTED + 1])
                at += len(text)
                bar.update(int(pc.sum(pc.binary_length(batch.column(0))).as_py() or 0) + len(text))
        except UnicodeError:
            fix = say("encoding='latin-1'", "--encoding latin-1")
            raise FileFormatError(f"{name}: not valid {encoding} text; pass the file's real "
                                  f"encoding, e.g. {fix}.") from None
        except pa.ArrowInvalid as exc:  # Arrow's message may quote the line: not shown
            why = "a line holds the control character U+001F" if "columns" in str(exc) else \
                f"a line is longer than {BLOCK_BYTES >> 20} MiB"
            raise FileFormatError(f"{name}: cannot be read as lines of text ({why}); is it "
                                  "the right file?") from None
    kind = pa.struct([(g, pa.string()) for g in pattern_groups(pattern)])
    events = pa.Table.from_struct_array(pa.chunked_array(found, type=kind))
    return LineScan(name, events, np.concatenate(numbers), at - blank, unmatched,
                    np.concatenate(first)[:MAX_LINES_LISTED + 1], tuple(notes))


def line_list(numbers: Sequence[int] | np.ndarray, total: int) -> str:
    """The first line numbers, then how many more there are of ``total``.

    >>> line_list([2, 4], 2), line_list(range(1, 12), 40)
    ('2, 4', '1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 30 more')
    """
    shown = ", ".join(str(int(n)) for n in list(numbers)[:MAX_LINES_LISTED])
    more = total - min(len(numbers), MAX_LINES_LISTED)
    return shown + (f" and {more} more" if more > 0 else "")


def _checked(scan: LineScan, strict: bool) -> list[str]:
    """The notes of one file's lines; a file without events is refused, and so is (``strict``) a
    file with lines that do not match."""
    name, n_lines, unmatched = scan.name, scan.lines, scan.unmatched
    if len(scan.events) == 0:
        what = "no line" if n_lines else "no text (the file is empty)"
        raise FileFormatError(f"{name}: {what} matches the pattern, so there are no events; "
                              f"check {say('pattern= (or preset=)', '--pattern (or --preset)')} "
                              "against a few lines of the file.")
    if unmatched and strict:
        raise InputError(f"{name}: {unmatched:,} line(s) do not match the pattern (line "
                         f"{line_list(scan.first_unmatched, unmatched)}); with "
                         f"{say('strict=True', '--strict')} every non-blank line must be an event.")
    share = (f"{name}: {unmatched:,} of {n_lines:,} lines ({unmatched / max(n_lines, 1):.1%}) "
             "do not match the pattern and are not events")
    return [*scan.notes, *([share] if unmatched else [])]


def read_lines(paths: Sequence[Path], pattern: str, columns: Sequence[str], *,
               encoding: str = "utf-8", strict: bool = False,
               ) -> tuple[pd.DataFrame, list[tuple[str, int]], list[str]]:
    """The named groups ``columns`` of the lines of ``paths`` that match ``pattern`` (the first
    column, the time, as text; the others as categoricals), the ``(name, events)`` of each file and
    the reading notes (unmatched lines and their share, compression).

    >>> import tempfile, pathlib
    >>> log = pathlib.Path(tempfile.mkdtemp()) / "app.log"
    >>> _ = log.write_text("10:00:01 ok fra\\nstarting\\n10:00:02 failed ams\\n")
    >>> raw, files, notes = read_lines([log], r"^(?P<ts>\\S+) (?P<outcome>\\w+) (?P<region>\\w+)",
    ...                                ["ts", "outcome", "region"])
    >>> raw["outcome"].tolist(), files, notes
    (['ok', 'failed'], [('app.log', 2)], ['app.log: 1 of 3 lines (33.3%) do not match the pattern
    and are not events'])
    """
    scans: list[LineScan] = []
    notes: list[str] = []
    for path in paths:
        scans.append(scan_lines(path, pattern, encoding=encoding))
        notes.extend(_checked(scans[-1], strict))
    table = pa.concat_tables([scan.events for scan in scans])  # one dictionary over the files below
    raw = pd.DataFrame({c: table.column(c).to_pandas() if c == columns[0] else
                        table.column(c).dictionary_encode().to_pandas() for c in columns})
    return raw, [(scan.name, len(scan.events)) for scan in scans], notes
