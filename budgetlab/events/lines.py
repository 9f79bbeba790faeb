"""Line-oriented logs read by a pattern: one event per line that matches (``pattern=``, CLI
``--pattern``), or a named preset (``preset=``, CLI ``--preset``; the ``access`` preset is what
:func:`budgetlab.read_access_log` reads).

The pattern is a regular expression in RE2 syntax, as Arrow's ``extract_regex`` takes it (no
lookaround, no backreferences); its named groups are the columns (``(?P<ts>...)`` for the time,
``(?P<outcome>...)`` for the label, any other name a column ``by=`` may keep). Blank lines are not
lines of the log (the share of unmatched lines says how many it left out). Files may be compressed
(gzip, bzip2, xz: recognised by their first bytes).
Lines are read by Arrow's CSV reader in blocks of :data:`BLOCK_BYTES` (memory bounded by a block
and the matched groups), one value per line; a line ends at LF, CRLF or a CR alone.

**Lines that are not events** (``on_error=``, one rule for every pattern and preset):

* ``"count"`` (the default): the pattern defines what an event is, so the lines it does not match
  are not events: they are counted and their share is stated in the "how it was read" block; a
  matched line whose time does not read is refused by its line (:mod:`.timeformat`).
* ``"raise"`` (CLI ``--on-error raise`` or ``--strict``; :func:`~budgetlab.read_access_log`'s
  default): every non-blank line must be an event. A line is not in the format when the
  pattern does not match it, its time does not match the ``time_format`` (with or without a
  year: a date that does not exist in the year read, ``Feb 29`` in 2015, is a matter of
  ``year=`` and refused by line once the years are known), or a group fails the preset's check
  (:attr:`LinePreset.checks`); such lines are refused together, named by file and line number
  (the first ten, then how many more).
* ``"skip"``: the same lines are left out with a warning that names them, and counted as read
  and skipped (``lines not in the format``).

In every mode a file in which no line is an event is refused, and so is a file whose last line,
without its line end, the pattern matches but is not a whole line of the preset's format
(:attr:`LinePreset.whole`: an access log cut inside its quotes; with ``"skip"`` it is skipped as a
line not in the format); a whole last line without a line end is an ordinary line. Every refusal
of an event (its time, its label) names it by file and line, as an editor counts lines: blank and
unmatched lines count (:func:`~._messages.reading_lines`).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pcsv

from .._util.inputs import register_input
from .._util.percent import measured_percent
from .._util.progress import progress_bar
from .._util.validation import utc_from_ns
from .._util.words import counted, noun_for, say
from ..errors import FileFormatError
from . import presets as formats
from ._compressed import read_head, read_input
from ._header_words import refuse_header_line
from ._messages import reading_lines
from ._text import CR_ONLY_NOTE, ISO_TIME, PROGRESS_BYTES, cr_only, text_problem
from .file_names import file_names
from .files import check_path, file_name, file_notes, refuse_copies
from .presets import PRESETS, LinePreset, check_pattern, only_groups, pattern_groups
from .timeformat import has_year, instants, matches_format

if TYPE_CHECKING:
    from .spec import ReadSpec

# PRESETS, LinePreset, check_pattern and pattern_groups live in .presets (imported from here too)
__all__ = ["LineScan", "LineRead", "NOT_IN_FORMAT", "read_lines", "scan_lines", "line_list",
           "PRESETS", "LinePreset", "check_pattern", "pattern_groups"]

MAX_LINES_LISTED = 10
#: The skip reason of lines that are not events (``on_error="skip"``) in ``how_read.skipped``.
NOT_IN_FORMAT = "lines not in the format"
#: Bytes of text Arrow's CSV reader parses at a time: memory is bounded by a block (and the events).
BLOCK_BYTES = 1 << 22
# the CSV reader's separator: a character text logs do not hold (one value per line)
_SEPARATOR = "\x1f"


class LineScan(NamedTuple):
    """What the lines of one file held: the named groups of the lines that match (``events``, as
    text) and their line numbers, the non-blank ``lines``, how many of those do not match
    (``unmatched``) with the first such line numbers, the reading notes (compression), and the
    file's last line when it has no line end (``open_last``: its number and text; ``None`` when
    the file ends with a line end, or in a blank line)."""

    name: str
    events: pa.Table
    numbers: np.ndarray
    lines: int
    unmatched: int
    first_unmatched: np.ndarray
    notes: tuple[str, ...]
    open_last: tuple[int, str] | None = None
    blank: int = 0  # the blank lines, not among ``lines``


def _source(path: Path, name: str) -> tuple[Any, int, list[str], bool]:
    """The file as an Arrow stream: plain text from disk, compressed text (recognised by its first
    bytes) decompressed under the ratio cap; its size, the notes on how it was read, and whether
    its text ends without a line end (LF or CR). A file named as compressed whose bytes are not is
    refused (:func:`read_head`)."""
    check_path(path)
    register_input(path)
    head, kind = read_head(path, name)
    notes: list[str] = []
    source: Any
    if kind is None:
        source, size = pa.OSFile(str(path)), path.stat().st_size
        with open(path, "rb") as fh:
            fh.seek(max(size - 1, 0))
            last = fh.read(1)
    else:
        data, notes = read_input(path, name, holds="log")
        head, source, size, last = data[:1 << 16], pa.BufferReader(data), len(data), data[-1:]
    if cr_only(head):  # Arrow's reader ends a line at CR too
        notes.append(CR_ONLY_NOTE)
    return source, size, notes, last not in (b"", b"\n", b"\r")


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
    source, size, notes, open_end = _source(path, name)
    found: list[pa.Array] = []
    numbers, first = [np.zeros(0, np.int64)], [np.zeros(0, np.int64)]
    at = blank = unmatched = 0
    last: str | None = None
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
                last = text[-1].as_py() if len(text) else last
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
                    np.concatenate(first)[:MAX_LINES_LISTED + 1], tuple(notes),
                    (at, last) if open_end and last is not None and last.strip() else None, blank)


def line_list(numbers: Sequence[int] | np.ndarray, total: int) -> str:
    """The first line numbers, then how many more there are of ``total``.

    >>> line_list([2, 4], 2), line_list(range(1, 12), 4000)
    ('2, 4', '1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 3,990 more')
    """
    shown = ", ".join(str(int(n)) for n in list(numbers)[:MAX_LINES_LISTED])
    more = total - min(len(numbers), MAX_LINES_LISTED)
    return shown + (f" and {more:,} more" if more > 0 else "")


class LineRead(NamedTuple):
    """What the lines of the files held: ``raw``, the declared groups of the events (the time as
    text, or as UTC instants when the format carries an offset and the lines were checked; the
    others as categoricals); the ``(name, rows)`` of each file (its events, or with ``on_error``
    ``"raise"``/``"skip"`` its lines); the reading notes; the lines that are not events and were
    skipped."""

    raw: pd.DataFrame
    files: list[tuple[str, int]]
    notes: list[str]
    skipped: int


class _FileEvents(NamedTuple):
    events: pa.Table
    lines: np.ndarray  # the line number of each event in its file
    ns: np.ndarray | None  # UTC instants of the events, when the lines were checked
    rows: int  # what the file counts for in how_read.files
    skipped: int
    notes: tuple[str, ...]  # the file's own (compression, line ends)
    share: tuple[str, ...]  # the share of the lines the pattern does not match


def _in_format(scan: LineScan, spec: ReadSpec,
               preset: LinePreset | None) -> tuple[np.ndarray, np.ndarray | None]:
    """Which matched lines are in the format (their time reads, in a format with a year; each
    checked group passes its check) and, for a format with an offset, their UTC instants."""
    good, ns, fmt = np.ones(len(scan.events), dtype=bool), None, spec.time_format
    if fmt is not None and has_year(fmt):
        ns, good = instants(scan.events.column(spec.time), fmt)
    elif fmt is not None:  # the years come later (the New Year rule): the format now
        good = matches_format(scan.events.column(spec.time), fmt)
    for group, check in (preset.checks if preset else {}).items():
        if group in scan.events.column_names:
            good &= np.asarray(pc.match_substring_regex(scan.events.column(group), check),
                               dtype=bool)
    return good, ns if fmt is not None and "%z" in fmt else None


def _not_events(scan: LineScan, good: np.ndarray, spec: ReadSpec,
                preset: LinePreset | None) -> tuple[str, ...]:
    """The lines of one file that are not events, as ``spec.on_error`` says (module docs):
    refused, skipped with a warning, or (``"count"``) stated as a share in the notes; a file
    without events is refused."""
    name, n_bad = scan.name, scan.unmatched + int((~good).sum())
    fmt = preset.format_name if preset and preset.format_name else "the format of the pattern" + (
        f" and the time format {spec.time_format!r}" if spec.time_format and not preset else "")
    listed = line_list(np.sort(np.concatenate([scan.first_unmatched,
                                               scan.numbers[~good][:MAX_LINES_LISTED]])), n_bad)
    what = f"{counted(n_bad, 'line')} not in {fmt} ({noun_for(n_bad, 'line')} {listed})"
    if n_bad and spec.on_error == "raise":
        them = "it" if n_bad == 1 else "them"
        fix = say(f"fix {them} or pass on_error='skip' to drop {them}",
                  f"fix {them}, or pass --on-error skip to drop {them} (with a warning)")
        raise FileFormatError(f"{name}: {what}; {fix}.")
    if not good.any():
        if preset and preset.kind:
            raise FileFormatError(f"{name}: no line in {fmt}; is this {preset.kind}?")
        none = "no line" if scan.lines else "no text (the file is empty)"
        raise FileFormatError(f"{name}: {none} matches the pattern, so there are no events; "
                              f"check {say('pattern= (or preset=)', '--pattern (or --preset)')} "
                              "against a few lines of the file.")
    if n_bad and spec.on_error == "skip":
        warnings.warn(f"{name}: skipped {what}.", UserWarning, stacklevel=6)
    share = measured_percent(n_bad / max(scan.lines, 1), 1)
    blank = f"; {counted(scan.blank, 'blank line')} left out" if scan.blank else ""
    return (f"{name}: {n_bad:,} of {scan.lines:,} {'non-blank ' if blank else ''}lines ({share}"
            f"{blank}) do not match the pattern and are not events",) if n_bad and \
        spec.on_error == "count" else ()


def _file_events(path: Path, spec: ReadSpec, columns: Sequence[str]) -> _FileEvents:
    """The events of one file and what counts of it (see the module docs for the lines that are
    not events)."""
    preset = PRESETS[spec.preset] if spec.preset is not None else None
    pattern = only_groups(spec.pattern or "", [*columns, *([formats.REPEATED] if preset else [])])
    fast = only_groups(preset.fast, columns) if preset and preset.fast else None
    scan = scan_lines(path, pattern, encoding=spec.encoding,
                      replace=bool(preset and preset.replace), fast=fast)
    count = spec.on_error == "count"
    good, ns = (np.ones(len(scan.events), dtype=bool), None) if count else \
        _in_format(scan, spec, preset)
    if formats.cut_last(scan, preset, spec.on_error):  # skipped as not in the format, or refused
        good[-1] = False
    if preset is None and len(good) and good[0]:  # a header as the first event: no time
        first = scan.events.slice(0, 1).to_pylist()[0]
        refuse_header_line(scan.name, int(scan.numbers[0]), first, spec.time)
    share = _not_events(scan, good, spec, preset)
    events = scan.events if good.all() else scan.events.filter(pa.array(good))
    lines, ns, kept = scan.numbers[good], None if ns is None else ns[good], len(events)
    repeated = formats.repeated_rows(events, scan.name)  # a line that stands for several events
    if repeated is not None:
        rows, said = repeated
        events, lines, ns, share = events.take(rows), lines[rows], ns if ns is None else \
            ns[rows], share + said
    return _FileEvents(events, lines, ns, len(events) if count else
                       scan.lines + len(events) - kept, 0 if count else scan.lines - kept,
                       scan.notes, share)


def read_lines(paths: Sequence[Path], spec: ReadSpec) -> LineRead:
    """The declared columns of the events in the lines of ``paths`` (``spec.pattern``; the lines
    that are not events as ``spec.on_error`` says), the ``(name, rows)`` of each file, the reading
    notes (compression, line ends, the share of unmatched lines) and the lines skipped.

    >>> import tempfile, pathlib
    >>> from budgetlab import ReadSpec
    >>> log = pathlib.Path(tempfile.mkdtemp()) / "app.log"
    >>> _ = log.write_text("10:00:01 ok fra\\nstarting\\n10:00:02 failed ams\\n")
    >>> spec = ReadSpec(pattern=r"^(?P<ts>\\S+) (?P<outcome>\\w+) (?P<region>\\w+)", by="region")
    >>> got = read_lines([log], spec)
    >>> got.raw["outcome"].tolist(), got.files, got.notes
    (['ok', 'failed'], [('app.log', 2)], ['app.log: 1 of 3 lines (33.3 %) do not match the pattern
    and are not events'])
    """
    columns = spec.columns
    got = [_file_events(path, spec, columns) for path in paths]
    names = file_names(paths) if len(paths) > 1 else [file_name(paths[0])]
    table = pa.concat_tables([g.events for g in got])  # one dictionary over the files below
    read = [g.ns for g in got if g.ns is not None]  # instants already: not read again
    time = utc_from_ns(np.concatenate(read), copy=False).array if len(read) == len(got) else \
        table.column(columns[0]).to_pandas()
    raw = pd.DataFrame({columns[0]: time, **{c: table.column(c).dictionary_encode().to_pandas()
                                             for c in columns[1:]}})
    if len(read) == len(got):
        raw.attrs[ISO_TIME] = f"text as written, format {spec.time_format!r} with UTC offsets"
    files = [(name, len(g.events)) for name, g in zip(names, got, strict=True)]
    reading_lines(names, [rows for _, rows in files], np.concatenate([g.lines for g in got]))
    stamps = formats.read_stamps(raw[columns[0]], spec.year) if spec.preset is not None and \
        formats.RFC3339 in (spec.pattern or "") else None
    if stamps is not None:  # RFC 3339 stamps: instants, with no year
        raw[columns[0]], raw.attrs[ISO_TIME] = utc_from_ns(stamps[0], copy=False).array, stamps[1]
    ends = np.cumsum([rows for _, rows in files])
    refuse_copies([raw.iloc[end - rows:end] for (_, rows), end in zip(files, ends, strict=True)],
                  files)
    return LineRead(raw, [(name, g.rows) for name, g in zip(names, got, strict=True)],
                    [*file_notes(names, [g.notes for g in got]),
                     *(note for g in got for note in g.share)],
                    sum(g.skipped for g in got))
