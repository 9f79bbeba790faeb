"""Line-oriented logs read by a pattern: one event per line that matches (``pattern=``, CLI
``--pattern``), or a named preset (``preset=``, CLI ``--preset``).

The pattern is a regular expression in RE2 syntax, as Arrow's ``extract_regex`` takes it (no
lookaround, no backreferences); its named groups are the columns (``(?P<ts>...)`` for the time,
``(?P<outcome>...)`` for the label, any other name a column ``by=`` may keep). The pattern defines
what an event is: lines that do not match are counted, and their share is stated in the "how it
was read" block; a file in which no line matches is refused, and with ``strict=True`` (CLI
``--strict``) so is any line that does not match. Blank lines are not lines of the log. Files may
be compressed (gzip, bzip2, xz: recognised by their first bytes).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from .._util.words import say
from ..errors import ConfigError, FileFormatError, InputError
from ._formats import check_path
from ._input import file_name, read_input, text_problem

__all__ = ["LinePreset", "PRESETS", "check_pattern", "pattern_groups", "read_lines"]

_MAX_LINES_LISTED = 10
_GROUP = re.compile(r"\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>")
_UNSUPPORTED = re.compile(r"\(\?<?[=!]|\\[1-9]|\\k<")


@dataclasses.dataclass(frozen=True)
class LinePreset:
    """A documented example of a line format: its pattern, time format and label meanings."""

    pattern: str
    time_format: str
    outcomes: Mapping[str, str]
    about: str


#: Named presets (``preset=``, CLI ``--preset``), each tested on a real public sample
#: (``tests/fixtures/loghub/``). Their ``outcomes`` are used unless ``outcomes=`` is given.
PRESETS: dict[str, LinePreset] = {
    "sshd": LinePreset(
        pattern=r"^(?P<ts>[A-Z][a-z]{2} [ 0-9]?[0-9] [0-9]{2}:[0-9]{2}:[0-9]{2}) (?P<host>\S+) sshd\[[0-9]+\]: "
                r"(?P<outcome>Accepted|Failed) \S+ for ",
        time_format="%b %d %H:%M:%S",
        outcomes={"accepted": "success", "failed": "failure"},
        about="OpenSSH authentication in a syslog file: 'Accepted ... for' is a success, 'Failed ... for' a "
              "failure; every other line is not an event. Keys: host.",
    ),
    "proxifier": LinePreset(
        pattern=r"^\[(?P<ts>[0-9]{2}\.[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2})\] (?P<program>.+?) - \S+ "
                r"(?P<outcome>close|error)\b",
        time_format="%m.%d %H:%M:%S",
        outcomes={"close": "success", "error": "failure"},
        about="Proxifier connection log: a connection that closes is a success, one that ends in an error a "
              "failure; 'open through proxy' lines are not events. Keys: program.",
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
        raise ConfigError("pattern= uses lookaround or a backreference; patterns are RE2 syntax (as Arrow's "
                          "extract_regex reads them), which has neither: match the text itself instead.")
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
        raise ConfigError(f"pattern= has no named group for {', '.join(map(repr, missing))} (named groups: {have}); "
                          "write (?P<name>...) around the part of the line that holds it.")
    return pattern


def _lines(raw: bytes, name: str, encoding: str) -> pa.Array:
    """The lines of a text file (line ends LF, CRLF or CR alone), blank lines as null."""
    problem = text_problem(raw, name, encoding)
    if problem is not None:
        raise problem
    text = raw.decode(encoding).removeprefix("\ufeff")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    parts = pc.list_flatten(pc.split_pattern(pa.array([text], type=pa.large_string()), pattern="\n"))
    parts = pc.cast(parts, pa.string())
    return pc.if_else(pc.equal(pc.utf8_trim_whitespace(parts), ""), pa.scalar(None, pa.string()), parts)


def _line_list(numbers: Sequence[int]) -> str:
    shown = ", ".join(str(n) for n in numbers[:_MAX_LINES_LISTED])
    more = len(numbers) - _MAX_LINES_LISTED
    return shown + (f" and {more} more" if more > 0 else "")


def _read_one(path: Path, pattern: str, columns: Sequence[str], encoding: str, strict: bool,
              notes: list[str]) -> pd.DataFrame:
    name = file_name(path)
    check_path(path)
    lines = _lines(read_input(path, name, notes), name, encoding)
    found = pc.extract_regex(lines, pattern=pattern)
    matched = pc.is_valid(found)
    n_lines = len(lines) - lines.null_count
    n_events = pc.sum(matched).as_py() or 0
    if n_events == 0:
        what = "no line" if n_lines else "no text (the file is empty)"
        raise FileFormatError(f"{name}: {what} matches the pattern, so there are no events; check "
                              f"{say('pattern= (or preset=)', '--pattern (or --preset)')} against a few lines of the "
                              "file.")
    unmatched = n_lines - n_events
    if unmatched and strict:
        miss = pc.and_(pc.is_valid(lines), pc.invert(matched))
        numbers = [i + 1 for i in pc.indices_nonzero(miss).to_pylist()[:_MAX_LINES_LISTED + 1]]
        raise InputError(f"{name}: {unmatched:,} line(s) do not match the pattern (line {_line_list(numbers)}); "
                         f"with {say('strict=True', '--strict')} every non-blank line must be an event.")
    if unmatched:
        notes.append(f"{name}: {unmatched:,} of {n_lines:,} lines ({unmatched / n_lines:.1%}) do not match the "
                     "pattern and are not events")
    events = pc.filter(found, matched)
    out = {}
    for c in columns:
        values = pc.struct_field(events, c)
        out[c] = values.dictionary_encode().to_pandas() if c != columns[0] else values.to_pandas()
    return pd.DataFrame(out)


def read_lines(paths: Sequence[Path], pattern: str, columns: Sequence[str], *, encoding: str = "utf-8",
               strict: bool = False) -> tuple[pd.DataFrame, list[tuple[str, int]], list[str]]:
    """The named groups ``columns`` of the lines of ``paths`` that match ``pattern`` (the first
    column, the time, as text; the others as categoricals), the ``(name, events)`` of each file and
    the reading notes (unmatched lines and their share, compression).

    >>> import tempfile, pathlib
    >>> log = pathlib.Path(tempfile.mkdtemp()) / "app.log"
    >>> _ = log.write_text("10:00:01 ok fra\\nstarting\\n10:00:02 failed ams\\n")
    >>> raw, files, notes = read_lines([log], r"^(?P<ts>\\S+) (?P<outcome>\\w+) (?P<region>\\w+)",
    ...                                ["ts", "outcome", "region"])
    >>> raw["outcome"].tolist(), files, notes
    (['ok', 'failed'], [('app.log', 2)], ['app.log: 1 of 3 lines (33.3%) do not match the pattern and are not events'])
    """
    frames: list[pd.DataFrame] = []
    files: list[tuple[str, int]] = []
    notes: list[str] = []
    for path in paths:
        frame = _read_one(path, pattern, columns, encoding, strict, notes)
        frames.append(frame)
        files.append((file_name(path), len(frame)))
    if len(frames) == 1:
        return frames[0], files, notes
    raw = pd.concat(frames, ignore_index=True)
    for c in columns[1:]:  # one dictionary over the files
        raw[c] = raw[c].astype("str").astype("category")
    return raw, files, notes
