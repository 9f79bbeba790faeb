"""Issue 20, point 3: ``read_access_log`` at Arrow speed reads every log exactly as before.

The oracle is the pre-change reader (one ``pyarrow.compute.extract_regex`` with the strict pattern,
``strptime``, pandas for other time texts; blocks of 16 MiB), kept below as it was; the new reader
(a one-pass pattern, fixed-width times read with numpy, the strict path for the other lines,
preallocated columns) must give the same frame, ``how_read``, skips, warnings and refusals, with
blocks small enough that block ends fall inside lines. The fixed-width time reading is also
compared with pandas' own ``pd.to_datetime(..., format="%d/%b/%Y:%H:%M:%S %z")``.
"""
# ruff: noqa: E501
from __future__ import annotations

import dataclasses
import gzip
import random
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from os import PathLike
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import budgetlab.events.lines as lines_mod
from budgetlab import how_read, read_access_log
from budgetlab._util.inputs import register_input
from budgetlab._util.progress import progress_bar
from budgetlab._util.validation import as_list, check_argument
from budgetlab.errors import BudgetlabError, ConfigError, FileFormatError, InputError
from budgetlab.events._compressed import read_input
from budgetlab.events._text import CR_ONLY_NOTE, PROGRESS_BYTES, compression_of, cr_only
from budgetlab.events.files import check_path, expand_sources, file_name, file_notes
from budgetlab.events.how_read import HowRead, skip_reasons
from budgetlab.events.outcomes import LabelReading, OutcomeReading, classify_outcomes
from budgetlab.events.schema import SUCCESS, bucket_dtype, time_span, ts_ns
from budgetlab.events.vocabulary import check_outcomes

# ------------------------------------------------------------------------------------------
# the pre-change implementation (budgetlab/events/accesslog.py before issue 20, point 3), as it was
# ------------------------------------------------------------------------------------------
SERVER_ERROR = "server_error"  # a failure with a 5xx status
CLIENT_ERROR = "client_error"  # a failure with a 4xx status (only if ``ok`` calls 4xx failures)
OTHER_ERROR = "other_error"  # a failure with any other status
#: Group keys :func:`read_access_log` can add with ``by=``; nothing personal.
ACCESS_LOG_KEYS = ("method", "status", "status_class")

# host ident user [time] "request" status size ["referrer" "user agent"] [more fields]
# Only time, method and status are captured (RE2 syntax, run by pyarrow over all lines at once).
_QUOTED = r'"(?:[^"\\]|\\.)*"'
# the canonical time (what Apache and nginx write): a real day of its month, a clock time and an
# offset under 24 h; it is read by Arrow's strptime. Any other text in the brackets ("other") is
# read by pandas, as it always was (then an impossible time makes the line malformed).
_MONTH_DAY = (
    r"(?:(?:0[1-9]|1[0-9]|2[0-8])/(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)"
    r"|(?:29|30)/(?:Jan|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)|31/(?:Jan|Mar|May|Jul|Aug|Oct|Dec))"
)
_CANONICAL_TIME = (_MONTH_DAY + r"/[0-9]{4}:(?:[01][0-9]|2[0-3]):[0-5][0-9]:(?:[0-5][0-9]|60) "
                   r"[+-](?:[01][0-9]|2[0-3])[0-5][0-9]")
#: The pattern of one line (RE2, also valid for Python's ``re``): groups ``time`` (the canonical
#: time) or ``other`` (any other bracketed text), ``method`` and ``status``.
LOG_PATTERN = (
    r"^[^ ]+ [^ ]+ (?:[^ "
    r"]+|" + _QUOTED + r") \[(?:(?P<time>" + _CANONICAL_TIME + r")|(?P<other>[^\]]+))\] "
    r'"(?P<method>[A-Za-z]*)(?:[^"\\]|\\.)*" (?P<status>[0-9]{3}) (?:[0-9]+|-)'
    r"(?: .*)?[\r]?$"
)
#: The time format of common/combined logs (``strptime``).
TIME_FORMAT = "%d/%b/%Y:%H:%M:%S %z"
_MAX_LINES_LISTED = 10
# : Bytes of log text parsed at a time (whole lines): memory stays bounded by the block, not the
# file.
BLOCK_BYTES = 1 << 24


def _line_list(numbers: np.ndarray, total: int) -> str:
    """The first line numbers, then how many more there are of ``total``."""
    shown = ", ".join(str(int(n)) for n in numbers[:_MAX_LINES_LISTED])
    more = total - min(len(numbers), _MAX_LINES_LISTED)
    return shown + (f" and {more:,} more" if more > 0 else "")


def _head(path: Path, size: int = 16) -> bytes:
    with open(path, "rb") as fh:  # read-only
        return fh.read(size)


def _file_blocks(path: Path) -> Iterator[bytes]:
    """The text of an uncompressed file in blocks of whole lines, each without the line end
    that follows it; the last block is the text after the last line end (perhaps empty)."""
    carry = b""
    with open(path, "rb") as fh:  # read-only
        while True:
            chunk = fh.read(BLOCK_BYTES)
            if not chunk:
                break
            data = carry + chunk if carry else chunk
            cut = data.rfind(b"\n")
            if cut < 0:
                carry = data
                continue
            yield data[:cut]
            carry = data[cut + 1:]
    yield carry


def _memory_blocks(raw: bytes) -> Iterator[bytes]:
    """:func:`_file_blocks` of text already in memory."""
    lo, n = 0, len(raw)
    while n - lo > BLOCK_BYTES:
        cut = raw.rfind(b"\n", lo, lo + BLOCK_BYTES)
        if cut < 0:
            cut = raw.find(b"\n", lo + BLOCK_BYTES)
            if cut < 0:
                break
        yield raw[lo:cut]
        lo = cut + 1
    yield raw[lo:]


def _read_text(path: Path, notes: list[str] | None = None) -> tuple[int, Iterator[bytes]]:
    """``(bytes of text, its blocks of whole lines)``: an uncompressed file is read block by
    block, never whole; compressed input (recognised by content) is decompressed as a stream
    under the ratio cap, and text with CR-only line ends is read whole and converted."""
    check_path(path)  # the readers' one refusal of a path that is not a regular file
    register_input(path)
    name = file_name(path)
    try:
        size = path.stat().st_size
        head = _head(path, 1 << 16)
    except OSError:
        size, head = 0, b""
    if head and compression_of(head[:16]) is None and b"\n" in head:
        if path.suffix.lower() == ".gz":  # the refusal's current wording, written out
            raise FileFormatError(f"{name}: is named .gz but is not gzip data; the gzip stream is "
                                  "truncated or corrupt, or the file is misnamed: rename or "
                                  "export it again.")
        return size, _file_blocks(path)
    # compressed by content too (a gzip named access.log.2, a .gz holding bzip2 data: read by
    # its bytes), streamed under a cap; a file named .gz whose bytes announce no compression is
    # refused by read_input
    raw, got = read_input(path, name)
    if notes is not None:
        notes.extend(got)
    if cr_only(raw):  # old Mac line ends: the lines they are
        raw = raw.replace(b"\r", b"\n")
        if notes is not None:
            notes.append(CR_ONLY_NOTE)
    return len(raw), _memory_blocks(raw)


def _ok_flags(ok: Callable[[int], Any], statuses: np.ndarray) -> np.ndarray:
    """``ok(status)`` for each distinct status (a loop over status codes, not over events)."""
    flags = np.empty(len(statuses), dtype=bool)
    for i, status in enumerate(statuses.tolist()):
        try:
            value = ok(int(status))
        except Exception as exc:
            raise ConfigError(f"ok({status}) raised {type(exc).__name__}; ok must map an int "
                              "status to True/False.") from None
        if not isinstance(value, (bool, np.bool_)):
            raise ConfigError(f"ok({status}) returned {type(value).__name__}, not a bool; e.g. "
                              "ok=lambda status: status < 500.")
        flags[i] = bool(value)
    return flags


def _text_array(block: bytes) -> Any:
    """``block`` as one Arrow string (no copy when it is valid UTF-8). Undecodable bytes can only
    sit in fields that are never extracted (paths, user agents), or make a line malformed;
    replacing them never alters a kept value."""
    import pyarrow as pa

    offsets = pa.py_buffer(np.array([0, len(block)], dtype=np.int64))
    arr = pa.Array.from_buffers(pa.large_string(), 1, [None, offsets, pa.py_buffer(block)])
    try:
        arr.validate(full=True)
    except pa.ArrowInvalid:
        return pa.array([block.decode("utf-8", errors="replace")], type=pa.large_string())
    return arr


def _slow_times(text: Any) -> tuple[np.ndarray, np.ndarray]:
    """``(ns, valid)`` of times that are not in the canonical form, read by pandas as they always
    were (an impossible time, or one outside 1677..2262, is invalid: the line is malformed)."""
    parsed = pd.to_datetime(pd.Series(text.to_pandas(), dtype="str"), format=TIME_FORMAT, utc=True,
                            errors="coerce")
    valid = np.array(parsed.notna(), dtype=bool)
    unit = parsed.dt.unit
    vals = np.asarray(parsed.dt.tz_localize(None).to_numpy()).view(np.int64)
    factor = {"s": 10**9, "ms": 10**6, "us": 10**3, "ns": 1}[unit]
    if factor > 1:
        limit = (2**63 - 1) // factor
        valid &= (vals >= -limit) & (vals <= limit)
        vals = np.where(valid, vals, 0) * factor
    return np.where(valid, vals, 0), valid


class _Lines:
    """What the good lines of one file hold (times in ns, statuses, methods), and where the bad
    ones are, gathered block by block."""

    def __init__(self, with_method: bool) -> None:
        self.ts: list[np.ndarray] = []
        self.status: list[np.ndarray] = []
        self.method: list[Any] = []
        self.with_method = with_method
        self.lines = 0
        self.bad: list[np.ndarray] = []  # line numbers of the first bad lines
        self.n_bad = 0

    def add(self, block: bytes) -> None:
        import pyarrow as pa
        import pyarrow.compute as pc

        lines = pc.split_pattern(_text_array(block), "\n").flatten()
        parts = pc.extract_regex(lines, LOG_PATTERN)
        matched = np.array(parts.is_valid(), dtype=bool)
        stamp = pc.strptime(pc.struct_field(parts, "time"), format=TIME_FORMAT, unit="ns",
                            error_is_null=True)
        fast = np.array(stamp.is_valid(), dtype=bool)
        ns = np.array(pc.fill_null(stamp.cast(pa.int64()), 0), dtype=np.int64)
        time_ok = fast.copy()
        slow = matched & ~fast
        if slow.any():
            rows = pa.array(slow)
            text = pc.binary_join_element_wise(pc.struct_field(parts, "time").filter(rows),
                                               pc.struct_field(parts, "other").filter(rows),
                                               pa.scalar("", pa.large_string()))
            ns[slow], time_ok[slow] = _slow_times(text)
        status = np.asarray(pc.fill_null(pc.cast(pc.struct_field(parts, "status"), pa.int32()), 0),
                            dtype=np.int64)
        good = matched & time_ok & (status >= 100) & (status <= 599)
        if not good.all():
            rest = np.flatnonzero(~good)
            blank = np.asarray(pc.match_substring_regex(lines.take(pa.array(rest)), r"^\s*$"),
                               dtype=bool)
            bad = rest[~blank]
            self.n_bad += len(bad)
            if sum(len(b) for b in self.bad) < _MAX_LINES_LISTED:
                self.bad.append(self.lines + 1 + bad[:_MAX_LINES_LISTED])
        self.ts.append(ns[good])
        self.status.append(status[good])
        if self.with_method:
            method = pc.utf8_upper(pc.struct_field(parts, "method").filter(pa.array(good)))
            self.method.append(pc.if_else(pc.equal(method, ""), "-", method))
        self.lines += len(lines)


def _parse_file(path: Path, on_error: str, notes: list[str], with_method: bool = False,
                ) -> tuple[np.ndarray, np.ndarray, Any, int]:
    """``(times in ns, statuses, methods or None, lines skipped)`` of the good lines of one file,
    read in blocks of whole lines (its reading decisions appended to ``notes``); a progress bar
    on a terminal for large files."""
    import pyarrow as pa

    size, blocks = _read_text(path, notes)
    got = _Lines(with_method)
    with progress_bar(size, desc=f"reading {file_name(path)}", min_total=PROGRESS_BYTES) as bar:
        for block in blocks:
            got.add(block)
            bar.update(len(block) + 1)
    n_bad = got.n_bad
    listed = _line_list(np.concatenate(got.bad) if got.bad else np.zeros(0, dtype=np.int64), n_bad)
    if n_bad and on_error == "raise":
        raise FileFormatError(
            f"{file_name(path)}: {n_bad:,} line{'' if n_bad == 1 else 's'} not in common/combined log "
            f"format ({'line' if n_bad == 1 else 'lines'} "
            f"{listed}); "
            f"fix {'it' if n_bad == 1 else 'them'} or pass on_error='skip' to drop "
            f"{'it' if n_bad == 1 else 'them'}."
        )
    ts = np.concatenate(got.ts)
    if not len(ts):
        raise FileFormatError(f"{file_name(path)}: no line in common/combined log format; is this "
                              "an access log?")
    if n_bad:
        warnings.warn(
            f"{file_name(path)}: skipped {n_bad:,} line{'' if n_bad == 1 else 's'} not in "
            f"common/combined log format ({'line' if n_bad == 1 else 'lines'} "
            f"{listed}).",
            UserWarning,
            stacklevel=3,
        )
    methods = pa.chunked_array(got.method, type=pa.large_string()) if with_method else None
    return ts, np.concatenate(got.status), methods, n_bad


def _distinct(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(codes, return_inverse=True)`` for HTTP statuses (100..599), by counting."""
    present = np.bincount(codes, minlength=600) > 0
    distinct = np.flatnonzero(present).astype(codes.dtype)
    lookup = np.zeros(len(present), dtype=np.int64)
    lookup[distinct] = np.arange(len(distinct))
    return distinct, lookup[codes]


def _default_reading(codes: np.ndarray, ok: Callable[[int], Any] | None) -> OutcomeReading:
    """Statuses through ``ok(status)`` (default: below 500 is a success); failures by class."""
    distinct, inverse = _distinct(codes)
    flags = _ok_flags(ok if ok is not None else (lambda status: status < 500), distinct)
    kinds = np.where(distinct >= 500, SERVER_ERROR, np.where((distinct >= 400) & (distinct < 500),
                                                             CLIENT_ERROR,
                                                            OTHER_ERROR))
    meaning = np.where(flags, SUCCESS, kinds)
    success = flags[inverse]
    dtype = bucket_dtype(set(meaning.tolist()) - {SUCCESS})
    counts = np.bincount(inverse, minlength=len(distinct))
    rule = "default: status < 500 is a success" if ok is None else "ok(status)"
    rows = sorted((LabelReading(str(c), str(m), rule, int(n)) for c, m, n in zip(distinct, meaning,
                                                                                 counts,
                                                                                 strict=True)),
                  key=lambda r: (r.meaning != SUCCESS, r.meaning, -r.rows))
    code_of = np.asarray(pd.Index(dtype.categories).get_indexer(meaning), dtype=np.int64)
    categorical = pd.Categorical.from_codes(code_of[inverse], dtype=dtype)
    return OutcomeReading(success, categorical, np.zeros(len(codes), dtype=bool),
                          tuple(rows), "HTTP status")


def _key_column(values: np.ndarray, labels: Callable[[np.ndarray], np.ndarray]) -> pd.Categorical:
    """``pd.Categorical(labels(values))`` built from the distinct statuses (no string per row)."""
    distinct, inverse = _distinct(values)
    names = labels(distinct)
    cats = pd.Categorical(names).categories
    return pd.Categorical.from_codes(np.asarray(cats.get_indexer(pd.Index(names)),
                                                dtype=np.int64)[inverse], categories=cats)


def _method_column(methods: Any) -> pd.Categorical:
    """``pd.Categorical`` of the request methods (Arrow's dictionary: no string per row)."""
    import pyarrow as pa

    enc = (
        methods.combine_chunks().dictionary_encode()
        if len(methods)
        else pa.array([], pa.large_string()).dictionary_encode()
    )
    names = np.asarray(enc.dictionary.to_pylist(), dtype=object)
    cats = pd.Categorical(names).categories
    remap = np.asarray(cats.get_indexer(pd.Index(names)), dtype=np.int64)
    return pd.Categorical.from_codes(remap[np.asarray(enc.indices, dtype=np.int64)],
                                     categories=cats)


def _events(t: np.ndarray, codes: np.ndarray, reading: OutcomeReading, keep: np.ndarray,
            keys: list[str],
            methods: list[Any]) -> pd.DataFrame:
    """The canonical events of the kept lines, sorted stably by time, the buckets only those the
    log has (what :func:`budgetlab.events.schema.as_events` gives, built from codes)."""
    import pyarrow as pa

    every = bool(keep.all())
    t, codes = (t, codes) if every else (t[keep], codes[keep])
    bucket = reading.bucket if every else reading.bucket[keep]
    present = pd.unique(pd.Series(bucket.categories)[np.unique(bucket.codes)].astype(str)).tolist()
    dtype = bucket_dtype(set(present) - {SUCCESS})
    cols: dict[str, Any] = {
        "ts": pd.DatetimeIndex(t.view("datetime64[ns]")).tz_localize("UTC").array,
        "ok": np.asarray(reading.ok if every else reading.ok[keep], dtype=bool),
        "bucket": pd.Categorical.from_codes(
            np.asarray(pd.Index(dtype.categories).get_indexer(bucket.categories),
                       dtype=np.int64)[bucket.codes],
            dtype=dtype),
    }
    for key in keys:
        if key == "method":
            chunks = pa.chunked_array([c for m in methods for c in m.chunks],
                                      type=pa.large_string())
            cols[key] = _method_column(chunks if every else chunks.filter(pa.array(keep)))
        elif key == "status":
            cols[key] = _key_column(codes, lambda d: d.astype(str))
        else:
            cols[key] = _key_column(codes, lambda d: np.char.add((d // 100).astype(str), "xx"))
    frame = pd.DataFrame(cols)
    if len(t) > 1 and bool((t[1:] < t[:-1]).any()):
        frame = frame.take(np.argsort(t, kind="stable")).reset_index(drop=True)
    return frame


def old_read_access_log(
    path: str | PathLike[str] | Sequence[str | PathLike[str]],
    *,
    ok: Callable[[int], bool] | None = None,
    outcomes: Mapping[str, str] | None = None,
    by: str | Sequence[str] | None = None,
    on_error: str = "raise",
) -> pd.DataFrame:
    """The pre-change reader, kept as the oracle."""
    keys = as_list(by)
    for key in keys:
        check_argument("by", key, ACCESS_LOG_KEYS)
    if len(set(keys)) != len(keys):
        raise ConfigError("by= names a key twice; give each key once.")
    check_argument("on_error", on_error, ("raise", "skip"))
    if ok is not None and not callable(ok):
        raise ConfigError("ok must be a function of the int HTTP status, e.g. ok=lambda status: "
                          "status < 500.")
    if ok is not None and outcomes is not None:
        raise ConfigError("give ok= (a function of the status) or outcomes= (a status mapping), "
                          "not both.")
    table = check_outcomes(outcomes)
    paths = expand_sources(path)
    per_file: list[list[str]] = [[] for _ in paths]
    parsed = [_parse_file(p, on_error, n, "method" in keys) for p, n in zip(paths, per_file,
                                                                            strict=True)]
    t = np.concatenate([x[0] for x in parsed])
    codes = np.concatenate([x[1] for x in parsed])
    n_bad = sum(x[3] for x in parsed)
    if table is None:
        reading = _default_reading(codes, ok)
    else:
        reading = classify_outcomes(pd.Series(codes.astype(str), dtype="str"), table)
        reading = dataclasses.replace(reading, vocabulary="status mapping outcomes=")
    keep = ~reading.skip
    if not keep.any():
        raise InputError("every line maps to skip; nothing is left to analyse: check outcomes=.")
    events = _events(t, codes, reading, keep, keys, [x[2] for x in parsed])
    first, last = time_span(ts_ns(events))
    skipped = skip_reasons(reading.labels, "status") + ((("lines not in the format", n_bad),
                                                         ) if n_bad else ())
    events.attrs["skipped_lines"] = n_bad
    events.attrs["how_read"] = HowRead(
        files=tuple((file_name(p), len(x[1]) + x[3]) for p, x in zip(paths, parsed, strict=True)),
        rows_read=len(codes) + n_bad, rows_kept=len(events), skipped=skipped, time_column="[time]",
        time_reading="access-log times with UTC offsets (each line its own instant)", first=first,
                                       last=last,
        outcome_column="status", vocabulary=reading.vocabulary, labels=reading.labels,
        notes=tuple(file_notes([file_name(p) for p in paths], per_file)),
    )
    return events


# ------------------------------------------------------------------------------------------
# generated logs
# ------------------------------------------------------------------------------------------
_MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
# texts in the brackets the canonical reading must not take, or must take exactly
EDGE_TIMES = [
    "29/Feb/2024:12:00:00 +0000", "29/Feb/2023:12:00:00 +0000", "31/Apr/2026:00:00:00 +0000",
    "30/Feb/2026:00:00:00 +0000", "00/Jan/2026:00:00:00 +0000", "10/Oct/2026:24:00:00 +0000",
    "10/Oct/2026:23:59:60 +0000", "31/Dec/2026:23:59:60 -0530", "10/Oct/2026:13:60:36 +0000",
    "10/Oct/2026:13:55:36 +2359", "10/Oct/2026:13:55:36 -2359", "10/Oct/2026:13:55:36 +2400",
    "10/Oct/2026:13:55:36 -0060", "01/Jan/1678:00:00:00 -2359", "01/Jan/1678:00:00:00 +2359",
    "31/Dec/2261:23:59:59 -2359", "21/Sep/1677:00:12:44 +0000", "22/Sep/1677:00:00:00 +0000",
    "11/Apr/2262:23:47:16 +0000", "12/Apr/2262:00:00:00 +0000", "01/Jan/0001:00:00:00 +0000",
    "31/Dec/9999:23:59:59 +0000", "01/Jan/1970:00:00:00 +0000", "31/Dec/1969:23:59:59 -0001",
    "01/Mar/2000:00:00:00 +0000", "28/Feb/1900:23:59:59 +0000", "01/Mar/2100:00:00:00 +0000",
    "10/oct/2026:13:55:36 +0200", "10/OCT/2026:13:55:36 +0200", "10/Oct/2026:13:55:36 0200",
    "10/Oct/2026 13:55:36 +0200", "10/Oct/2026:13:55:36", "1/Oct/2026:13:55:36 +0200",
    "10/Oct/2026:13:55:36 +02:00", "10/Oct/2026:13:55:36.123 +0200", "2026-10-10T13:55:36Z",
    "10/Oct/2026:13:55:36 Z", " 10/Oct/2026:13:55:36 +0200", "10/Oct/2026:13:55:36 +0200 ",
    "10/Okt/2026:13:55:36 +0200", "10/Oct/26:13:55:36 +0200", "1a/Oct/2026:13:55:36 +0200",
    "10/Oct/2026:13:55:36 ±0200", "10/Oct/2026:13:55:3 +02000",
]
USERS = ["-", "-", "-", "frank", '"a b"', '"x\\" [y]"', '"-"', "a[b", '"u [junk] "q" 200 1 x"']
REQUESTS = ['"GET /a HTTP/1.1"', '"POST /b?q=1 HTTP/2.0"', '"put /c"', '""', '"-"',
            '"GET /\\"q\\" HTTP/1.1"',
            '"GET /a" 200 1 "b HTTP/1.1"', '"DELETE"', '"get\\\\"']
TAILS = ["", ' "-" "Mozilla/5.0"', ' "https://e.example/" "curl/8 (x; y)"', " extra", "\r",
         ' "-" "ua"\r', "  "]


def _canonical(rng: random.Random) -> str:
    t = rng.randrange(-9_000_000_000, 9_000_000_000)  # 1684..2255
    off = rng.choice([0, 60, 120, -300, 330, -570, 345, -210, 840, -720, 525, 1439, -1439, 30, -30])
    local = pd.Timestamp(t * 10**9 + off * 60 * 10**9)
    sign = "-" if off < 0 else "+"
    return (
        f"{local.day:02d}/{_MONTHS[local.month - 1]}/{local.year:04d}:{local.strftime('%H:%M:%S')} "
        f"{sign}{abs(off) // 60:02d}{abs(off) % 60:02d}"
    )


def _line(rng: random.Random, weird: float) -> str:
    if rng.random() >= weird:  # the common line
        return (f'192.0.2.{rng.randrange(250)} - - [{_canonical(rng)}] "GET /api HTTP/1.1" '
                f'{rng.choice([200, 200, 200, 404, 503, 302])} {rng.randrange(9999)} "-" '
                '"Mozilla/5.0"')
    kind = rng.randrange(10)
    if kind == 0:
        return rng.choice(["", " ", "\t", "\r", "garbage", "- - - [x] \"\" 200 -",
                           "a b c [x] \"\" 100 -"])
    time = rng.choice(EDGE_TIMES) if kind in (1, 2, 3) else _canonical(rng)
    status = rng.choice(["200", "404", "503", "099", "600", "100", "599", "2000",
                         "20"]) if kind == 4 else "200"
    size = rng.choice(["512", "-", "12a", "", "0"]) if kind == 5 else "512"
    host = rng.choice(["192.0.2.8", "2001:db8::1", "[::1]", "h\xe9te"])
    return (f"{host} - {rng.choice(USERS)} [{time}] {rng.choice(REQUESTS)} {status} "
            f"{size}{rng.choice(TAILS)}")


def _log(n: int, seed: int, weird: float = 0.2, end: str = "\n") -> str:
    rng = random.Random(seed)
    # a CR is a line end wherever it stands (Arrow's reader; the oracle: only CR-only files), so a
    # line's own trailing CR goes before a CRLF end: "\r\r\n" is two line ends now, one before
    return end.join(
        _line(rng, weird).rstrip("\r") if end == "\r\n" else _line(rng, weird) for _ in range(n)
    )


def _run(fn: Callable[..., Any], path: Any, **kw: Any) -> tuple[Any, list[str]]:
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        try:
            out: Any = fn(path, **kw)
        except BudgetlabError as exc:
            out = f"{type(exc).__name__}: {exc}"
    return out, [str(w.message) for w in seen]


def _same_as_before(path: Any, **kw: Any) -> Any:
    (new, new_warned), (old, old_warned) = _run(read_access_log, path,
                                                **kw), _run(old_read_access_log, path, **kw)
    assert new_warned == old_warned
    if isinstance(old, str) or isinstance(new, str):
        assert new == old
        return new
    pd.testing.assert_frame_equal(new, old, check_exact=True)
    assert how_read(new) == how_read(old)
    assert new.attrs["skipped_lines"] == old.attrs["skipped_lines"]
    return new


@pytest.mark.parametrize(("block", "sizes"), [(400, [300, 1, 40]), (1000, [3000, 12000, 1, 40]),
                                             (1 << 21, [3000, 12000, 1, 40])])
@pytest.mark.parametrize("end", ["\n", "\r\n"])
def test_generated_logs_read_exactly_as_before(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                               block: int,
                                               sizes: list[int], end: str) -> None:
    # block ends inside lines (Arrow's blocks hold whole lines; the oracle: 16 MiB)
    monkeypatch.setattr(lines_mod, "BLOCK_BYTES", block)
    weirdness = {300: 0.3, 3000: 0.3, 12000: 0.02, 1: 0.0, 40: 1.0}
    for i, n in enumerate(sizes):
        weird = weirdness[n]
        text = _log(n, 100 * block + i, weird, end)
        path = tmp_path / f"access{i}.log"
        path.write_text(text, encoding="utf-8")  # the last line without a line end
        got = _same_as_before(path, on_error="skip", by=["method", "status", "status_class"])
        if n == 12000:
            assert not isinstance(got, str) and len(got) > 11500
        _same_as_before(path)  # on_error='raise': the same refusal, the same first line numbers
        path.write_text(text + end, encoding="utf-8")
        _same_as_before(path, on_error="skip", ok=lambda s: s < 400)
        _same_as_before(path, on_error="skip", outcomes={"2xx": "success", "3xx": "skip",
                                                         "4xx": "client",
                                                         "5xx": "server_error", "1xx": "skip"})


def test_every_edge_time_in_every_user_and_request_form_reads_as_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lines_mod, "BLOCK_BYTES", 2048)
    lines = [f"192.0.2.8 - {user} [{time}] {req} 200 "
             f"1{tail}" for time in EDGE_TIMES for user in USERS
             for req in REQUESTS[:4] for tail in TAILS[:2]]
    path = tmp_path / "edge.log"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    got = _same_as_before(path, on_error="skip", by="method")
    assert not isinstance(got, str) and len(got) > 1000


def test_undecodable_bytes_gzip_many_files_and_cr_only_read_as_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lines_mod, "BLOCK_BYTES", 3000)
    text = _log(5000, 7, 0.1)
    # invalid UTF-8 in a few user agents
    raw = text.encode("utf-8").replace(b"Mozilla", b"Moz\xffilla", 3)
    (tmp_path / "a.log").write_bytes(raw[: len(raw) // 2])
    (tmp_path / "b.log.gz").write_bytes(gzip.compress(raw[len(raw) // 2:]))
    # CR-only line ends
    (tmp_path / "c.log").write_bytes(text.replace("\r", "").replace("\n", "\r").encode())
    got = _same_as_before(tmp_path, on_error="skip", by=["method", "status"])
    assert not isinstance(got, str) and len(got) > 9000
    for name in ("a.log", "b.log.gz", "c.log"):
        _same_as_before(tmp_path / name, on_error="skip")


def test_a_misnamed_gz_is_refused_and_another_compression_read_as_before(tmp_path: Path) -> None:
    import bz2

    text = _log(300, 11, 0.1)
    plain = tmp_path / "access.log.gz"  # plain text named .gz
    plain.write_text(text, encoding="utf-8")
    assert _same_as_before(plain) == (
        "FileFormatError: access.log.gz: is named .gz but is not gzip data; the gzip stream is "
        "truncated or corrupt, or the file is misnamed: rename or export it again.")
    # bzip2 data named .gz: read by its bytes, stated in how_read's notes
    packed = tmp_path / "packed.log.gz"
    packed.write_bytes(bz2.compress(text.encode("utf-8")))
    got = _same_as_before(packed, on_error="skip")
    assert not isinstance(got, str) and len(got) > 250
    assert "compression: bz2 (recognised by content)" in how_read(got).notes


def test_unsorted_times_and_a_file_of_no_log_lines_read_as_before(tmp_path: Path) -> None:
    rng = random.Random(3)
    lines = [f'h - - [{_canonical(rng)}] "GET / HTTP/1.1" 200 1' for _ in range(3000)]
    lines += lines[:50]  # equal times: the stable order (file, then line) must hold
    (tmp_path / "u.log").write_text("\n".join(lines))
    _same_as_before(tmp_path / "u.log", by="status_class")
    (tmp_path / "none.log").write_text("not a log\n\n")
    assert _same_as_before(tmp_path / "none.log", on_error="skip").startswith("FileFormatError")
