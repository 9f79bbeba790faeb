"""Web-server access logs (Apache/nginx common or combined log format) as canonical events.

Only the time, the HTTP status and (if asked for with ``by=``) the request method or status are
read. The client address, identity and user fields, the request path, the referrer and the user
agent are personal data or may hold it: they are matched by the pattern but never extracted.
"""

from __future__ import annotations

import dataclasses
import re
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from os import PathLike
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._util.files import register_input
from .._util.progress import progress_bar
from .._util.validation import as_list, check_argument, utc_from_ns
from ..errors import ConfigError, FileFormatError, InputError
from ._accesslog_parse import LOG_PATTERN, TIME_FORMAT, LogColumns
from ._columns import code_counts, small_int
from ._formats import check_path
from ._input import CR_ONLY_NOTE, PROGRESS_BYTES, compression_of, cr_only, file_name, read_input
from .outcomes import LabelReading, OutcomeReading, check_outcomes, classify_outcomes
from .schema import SUCCESS, HowRead, bucket_dtype, skip_reasons, time_span, ts_ns
from .sources import expand_sources, file_notes

__all__ = ["read_access_log", "is_access_log", "ACCESS_LOG_KEYS", "SERVER_ERROR", "CLIENT_ERROR", "OTHER_ERROR",
           "LOG_PATTERN", "TIME_FORMAT"]

SERVER_ERROR = "server_error"  # a failure with a 5xx status
CLIENT_ERROR = "client_error"  # a failure with a 4xx status (only if ``ok`` calls 4xx failures)
OTHER_ERROR = "other_error"  # a failure with any other status
#: Group keys :func:`read_access_log` can add with ``by=``; nothing personal.
ACCESS_LOG_KEYS = ("method", "status", "status_class")

_MAX_LINES_LISTED = 10
#: Bytes of log text parsed at a time (whole lines): memory stays bounded by the block, not the file
#: (2 MiB: Arrow's temporaries of a block, which its pool keeps for reuse, stay a few MiB).
BLOCK_BYTES = 1 << 21
_CHUNK = 1 << 20  # rows per step of the lookups by status (their index copies stay small)


def _line_list(numbers: np.ndarray, total: int) -> str:
    """The first line numbers, then how many more there are of ``total``."""
    shown = ", ".join(str(int(n)) for n in numbers[:_MAX_LINES_LISTED])
    more = total - min(len(numbers), _MAX_LINES_LISTED)
    return shown + (f" and {more} more" if more > 0 else "")


def _head(path: Path, size: int = 16) -> bytes:
    with open(path, "rb") as fh:  # read-only
        return fh.read(size)


def _file_blocks(path: Path) -> Iterator[bytes | memoryview]:
    """The text of an uncompressed file in blocks of whole lines, each without the line end
    that follows it; the last block is the text after the last line end (perhaps empty). Each
    block is read into a buffer of its own (no copy but the line cut at its end)."""
    carry = b""
    with open(path, "rb") as fh:  # read-only
        while True:
            buf = bytearray(len(carry) + BLOCK_BYTES)
            buf[:len(carry)] = carry
            view, filled = memoryview(buf), len(carry)
            while filled < len(buf):
                got = fh.readinto(view[filled:])
                if not got:
                    break
                filled += got
            if filled == len(carry):
                break
            cut = buf.rfind(b"\n", 0, filled)
            if cut < 0:
                carry = bytes(view[:filled])
                continue
            yield view[:cut]
            carry = bytes(view[cut + 1:filled])
    yield carry


def _memory_blocks(raw: bytes) -> Iterator[bytes | memoryview]:
    """:func:`_file_blocks` of text already in memory (views of it, not copies)."""
    lo, n, view = 0, len(raw), memoryview(raw)
    while n - lo > BLOCK_BYTES:
        cut = raw.rfind(b"\n", lo, lo + BLOCK_BYTES)
        if cut < 0:
            cut = raw.find(b"\n", lo + BLOCK_BYTES)
            if cut < 0:
                break
        yield view[lo:cut]
        lo = cut + 1
    yield view[lo:]


def _read_text(path: Path, notes: list[str] | None = None) -> tuple[int, Iterator[bytes | memoryview]]:
    """``(bytes of text, its blocks of whole lines)``: an uncompressed file is read block by
    block, never whole; compressed input (recognised by content) is decompressed as a stream
    under the ratio cap, and text with CR-only line ends is read whole and converted."""
    check_path(path, how="a folder of logs: pass the folder to read_access_log as a list of its files or a glob "
               "such as 'logs/access.log*' (CLI: budgetlab replay logs/)")
    register_input(path)
    name = file_name(path)
    try:
        size = path.stat().st_size
        head = _head(path, 1 << 16)
    except OSError:
        size, head = 0, b""
    if head and compression_of(head[:16]) is None and b"\n" in head:
        if path.suffix.lower() == ".gz":
            raise FileFormatError(f"{name}: is named .gz but is not gzip data; the gzip stream is truncated or "
                                  "corrupt, or the file is misnamed.")
        return size, _file_blocks(path)
    raw = read_input(path, name, notes)  # compressed by content too (a gzip named access.log.2), streamed under a cap
    if path.suffix.lower() == ".gz" and compression_of(_head(path)) != "gzip":
        raise FileFormatError(f"{name}: is named .gz but is not gzip data; the gzip stream is truncated or corrupt, "
                              "or the file is misnamed.")
    if cr_only(raw):  # old Mac line ends: the lines they are
        raw = raw.replace(b"\r", b"\n")
        if notes is not None:
            notes.append(CR_ONLY_NOTE)
    return len(raw), _memory_blocks(raw)


def is_access_log(path: str | PathLike[str]) -> bool:
    """Whether the file's first non-blank line is in common/combined log format (read by content:
    gzip, bzip2 and xz are recognised by their magic bytes, not by the name).

    >>> import pathlib, tempfile
    >>> log = pathlib.Path(tempfile.mkdtemp()) / "access.log.1"
    >>> _ = log.write_text('192.0.2.8 - - [10/Oct/2026:13:55:36 +0200] "GET / HTTP/1.1" 200 2326\\n')
    >>> is_access_log(log)
    True
    """
    p = Path(path).expanduser()
    if not p.is_file():
        return False
    try:
        with open(p, "rb") as fh:
            head = fh.read(1 << 16)
        kind = compression_of(head)
        if kind in ("gzip", "bz2", "xz"):
            import bz2
            import gzip
            import lzma
            import zlib

            opener: Any = {"gzip": gzip.open, "bz2": bz2.open, "xz": lzma.open}[kind]
            try:
                with opener(p, "rb") as fh:
                    head = fh.read(1 << 16)
            except (EOFError, zlib.error, lzma.LZMAError):
                return False
    except OSError:  # also a corrupt bzip2 stream
        return False
    lines = head.decode("utf-8", errors="replace").splitlines()
    for line in lines[:-1] or lines:  # the last line of the head may be cut
        if line.strip():
            return re.match(LOG_PATTERN, line) is not None
    return False


def _ok_flags(ok: Callable[[int], Any], statuses: np.ndarray) -> np.ndarray:
    """``ok(status)`` for each distinct status (a loop over status codes, not over events)."""
    flags = np.empty(len(statuses), dtype=bool)
    for i, status in enumerate(statuses.tolist()):
        try:
            value = ok(int(status))
        except Exception as exc:
            raise ConfigError(f"ok({status}) raised {type(exc).__name__}; ok must map an int status to True/False.") from None
        if not isinstance(value, (bool, np.bool_)):
            raise ConfigError(f"ok({status}) returned {type(value).__name__}, not a bool; e.g. ok=lambda status: status < 500.")
        flags[i] = bool(value)
    return flags


def _parse_file(path: Path, on_error: str, notes: list[str], with_method: bool = False,
                ) -> tuple[np.ndarray, np.ndarray, Any, int]:
    """``(times in ns, statuses, methods or None, lines skipped)`` of the good lines of one file,
    read in blocks of whole lines (its reading decisions appended to ``notes``); a progress bar
    on a terminal for large files."""
    import pyarrow as pa

    size, blocks = _read_text(path, notes)
    got = LogColumns(size, with_method)
    with progress_bar(size, desc=f"reading {file_name(path)}", min_total=PROGRESS_BYTES) as bar:
        for block in blocks:
            got.add(block)
            bar.update(len(block) + 1)
    pa.default_memory_pool().release_unused()  # the blocks' Arrow temporaries, kept by the pool for reuse
    n_bad = got.n_bad
    listed = _line_list(np.concatenate(got.bad) if got.bad else np.zeros(0, dtype=np.int64), n_bad)
    if n_bad and on_error == "raise":
        raise FileFormatError(
            f"{file_name(path)}: {n_bad} line(s) not in common/combined log format (line {listed}); "
            "fix them or pass on_error='skip' to drop them."
        )
    ts, status = got.columns()
    if not len(ts):
        raise FileFormatError(f"{file_name(path)}: no line in common/combined log format; is this an access log?")
    if n_bad:
        warnings.warn(
            f"{file_name(path)}: skipped {n_bad} line(s) not in common/combined log format (line {listed}).",
            UserWarning,
            stacklevel=3,
        )
    methods = pa.chunked_array(got.method, type=pa.large_string()) if with_method else None
    return ts, status, methods, n_bad


def _take(table: np.ndarray, index: np.ndarray) -> np.ndarray:
    """``table[index]`` a million rows at a time (never a full-length copy of ``index`` as intp)."""
    out = np.empty(len(index), dtype=table.dtype)
    for lo in range(0, len(index), _CHUNK):
        np.take(table, index[lo:lo + _CHUNK], out=out[lo:lo + _CHUNK])
    return out


def _as_small(codes: np.ndarray) -> np.ndarray:
    """Category codes in the smallest integer type that holds them (what pandas stores)."""
    return codes.astype(small_int(len(codes)))


def _distinct(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(codes, return_counts=True)`` for HTTP statuses (100..599), by counting."""
    counts = code_counts(codes, 600)
    distinct = np.flatnonzero(counts > 0)
    return distinct, counts[distinct]


def _per_row(distinct: np.ndarray, values: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """``values[i]`` for each row whose status is ``distinct[i]`` (a lookup by status)."""
    table = np.zeros(600, dtype=values.dtype)
    table[distinct] = values
    return _take(table, codes)


def _default_reading(codes: np.ndarray, ok: Callable[[int], Any] | None) -> OutcomeReading:
    """Statuses through ``ok(status)`` (default: below 500 is a success); failures by class."""
    distinct, counts = _distinct(codes)
    flags = _ok_flags(ok if ok is not None else (lambda status: status < 500), distinct)
    kinds = np.where(distinct >= 500, SERVER_ERROR, np.where((distinct >= 400) & (distinct < 500), CLIENT_ERROR,
                                                            OTHER_ERROR))
    meaning = np.where(flags, SUCCESS, kinds)
    success = _per_row(distinct, flags, codes)
    dtype = bucket_dtype(set(meaning.tolist()) - {SUCCESS})
    rule = "default: status < 500 is a success" if ok is None else "ok(status)"
    rows = sorted((LabelReading(str(c), str(m), rule, int(n)) for c, m, n in zip(distinct, meaning, counts, strict=True)),
                  key=lambda r: (r.meaning != SUCCESS, r.meaning, -r.rows))
    code_of = _as_small(np.asarray(pd.Index(dtype.categories).get_indexer(meaning)))
    categorical = pd.Categorical.from_codes(_per_row(distinct, code_of, codes), dtype=dtype)
    return OutcomeReading(success, categorical, np.zeros(len(codes), dtype=bool),
                          tuple(rows), "HTTP status")


def _key_column(values: np.ndarray, labels: Callable[[np.ndarray], np.ndarray]) -> pd.Categorical:
    """``pd.Categorical(labels(values))`` built from the distinct statuses (no string per row)."""
    distinct, _ = _distinct(values)
    names = labels(distinct)
    cats = pd.Categorical(names).categories
    return pd.Categorical.from_codes(_per_row(distinct, _as_small(np.asarray(cats.get_indexer(pd.Index(names)))), values),
                                     categories=cats)


def _method_column(methods: Any) -> pd.Categorical:
    """``pd.Categorical`` of the request methods (Arrow's dictionary: no string per row)."""
    import pyarrow as pa

    enc = methods.combine_chunks().dictionary_encode() if len(methods) else pa.array([], pa.large_string()).dictionary_encode()
    names = np.asarray(enc.dictionary.to_pylist(), dtype=object)
    cats = pd.Categorical(names).categories
    remap = np.asarray(cats.get_indexer(pd.Index(names)), dtype=np.int64)
    return pd.Categorical.from_codes(remap[np.asarray(enc.indices, dtype=np.int64)], categories=cats)


def _events(t: np.ndarray, codes: np.ndarray, reading: OutcomeReading, keep: np.ndarray | None, keys: list[str],
            methods: list[Any]) -> pd.DataFrame:
    """The canonical events of the kept lines (``keep``; None: every line), sorted stably by time,
    the buckets only those the log has (what :func:`budgetlab.events.schema.as_events` gives, built from codes)."""
    import pyarrow as pa

    ok, bucket = reading.ok, reading.bucket
    if keep is not None:
        t, codes, ok, bucket = t[keep], codes[keep], ok[keep], bucket[keep]
    used = np.flatnonzero(code_counts(bucket.codes, len(bucket.categories)))
    present = pd.unique(pd.Series(bucket.categories)[used].astype(str)).tolist()
    dtype = bucket_dtype(set(present) - {SUCCESS})
    recode = np.asarray(pd.Index(dtype.categories).get_indexer(bucket.categories))
    same = bool((recode == np.arange(len(recode))).all()) and len(recode) == len(dtype.categories)
    cols: dict[str, Any] = {
        "ts": utc_from_ns(t, copy=False).array,  # the reader's own column: no copy
        "ok": np.asarray(ok, dtype=bool),
        "bucket": pd.Categorical.from_codes(bucket.codes if same else _take(_as_small(recode), bucket.codes), dtype=dtype),
    }
    for key in keys:
        if key == "method":
            chunks = pa.chunked_array([c for m in methods for c in m.chunks], type=pa.large_string())
            cols[key] = _method_column(chunks if keep is None else chunks.filter(pa.array(keep)))
        elif key == "status":
            cols[key] = _key_column(codes, lambda d: d.astype(str))
        else:
            cols[key] = _key_column(codes, lambda d: np.char.add((d // 100).astype(str), "xx"))
    frame = pd.DataFrame(cols, copy=False)
    if len(t) > 1 and bool((t[1:] < t[:-1]).any()):
        frame = frame.take(np.argsort(t, kind="stable")).reset_index(drop=True)
    return frame


def read_access_log(
    path: str | PathLike[str] | Sequence[str | PathLike[str]],
    *,
    ok: Callable[[int], bool] | None = None,
    outcomes: Mapping[str, str] | None = None,
    by: str | Sequence[str] | None = None,
    on_error: str = "raise",
) -> pd.DataFrame:
    """Read access logs in common or combined log format into canonical events.

    Parameters
    ----------
    path : str or path, or a list of them
        The log file (gzip is recognised by its content, whatever the name), a list of files, a
        glob (``"logs/access.log*"``) or a folder (rotated or daily logs: files sorted by name).
        Lines may be in any order; blank lines are ignored.
    ok : callable, optional
        ``ok(status) -> bool`` for an int HTTP status; default: anything below 500 is a success.
        Failures are ``server_error`` (5xx), ``client_error`` (4xx) or ``other_error``.
    outcomes : mapping, optional
        Instead of ``ok``: a complete status mapping, with ranges, e.g. ``{"2xx": "success",
        "3xx": "success", "4xx": "skip", "5xx": "server_error"}`` (an exact code such as
        ``"404"`` wins over ``"40x"``, which wins over ``"4xx"``; ``skip`` leaves the rows out).
        A status it does not cover is refused with its count.
    by : str or list, optional
        Group keys to keep, from :data:`ACCESS_LOG_KEYS`: ``method`` (``GET``, ... ; ``-`` when the
        request line has none), ``status`` (``"200"``), ``status_class`` (``"2xx"``).
    on_error : {'raise', 'skip'}
        Lines not in the format (or with an impossible time or status): ``'raise'`` a
        :class:`~budgetlab.errors.FileFormatError` naming their file and line numbers, or
        ``'skip'`` them with a warning; the count is in ``events.attrs["skipped_lines"]``.

    Returns
    -------
    DataFrame
        Canonical events sorted stably by time (file order, then line order, among equal
        times): ``ts`` (datetime64[ns, UTC]), ``ok``, ``bucket`` (``success`` then the failure
        buckets present), then the ``by`` keys (categoricals). ``attrs["how_read"]`` says how it
        was read (lines, skips, each status -> meaning with its count).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> log = pathlib.Path(tempfile.mkdtemp()) / "access.log"
    >>> _ = log.write_text(
    ...     '192.0.2.7 - frank [10/Oct/2026:13:55:40 +0200] "GET /a HTTP/1.1" 503 12\\n'
    ...     '192.0.2.8 - - [10/Oct/2026:13:55:36 +0200] "POST /b HTTP/1.1" 200 2326 "-" "curl/8"\\n')
    >>> events = read_access_log(log, by="method")
    >>> events.astype({"ts": str}).to_dict("list")
    {'ts': ['2026-10-10 11:55:36+00:00', '2026-10-10 11:55:40+00:00'], 'ok': [True, False], 'bucket': ['success', 'server_error'], 'method': ['POST', 'GET']}
    >>> read_access_log(log, outcomes={"2xx": "success", "5xx": "skip"})["ok"].tolist()
    [True]
    """
    keys = as_list(by)
    for key in keys:
        check_argument("by", key, ACCESS_LOG_KEYS)
    if len(set(keys)) != len(keys):
        raise ConfigError("by= names a key twice; give each key once.")
    check_argument("on_error", on_error, ("raise", "skip"))
    if ok is not None and not callable(ok):
        raise ConfigError("ok must be a function of the int HTTP status, e.g. ok=lambda status: status < 500.")
    if ok is not None and outcomes is not None:
        raise ConfigError("give ok= (a function of the status) or outcomes= (a status mapping), not both.")
    table = check_outcomes(outcomes)
    paths = expand_sources(path)
    per_file: list[list[str]] = [[] for _ in paths]
    parsed = [_parse_file(p, on_error, n, "method" in keys) for p, n in zip(paths, per_file, strict=True)]
    t, codes = (parsed[0][0], parsed[0][1]) if len(parsed) == 1 else (np.concatenate([x[0] for x in parsed]),
                                                                       np.concatenate([x[1] for x in parsed]))
    files = tuple((file_name(p), len(x[1]) + x[3]) for p, x in zip(paths, parsed, strict=True))
    methods = [x[2] for x in parsed]
    n_bad = sum(x[3] for x in parsed)
    del parsed  # one copy of the columns, not two
    if table is None:
        reading = _default_reading(codes, ok)
    else:
        reading = classify_outcomes(pd.Series(codes.astype(str), dtype="str"), table)
        reading = dataclasses.replace(reading, vocabulary="status mapping outcomes=")
    keep = ~reading.skip if reading.skip.any() else None
    if keep is not None and not keep.any():
        raise InputError("every line maps to skip; nothing is left to analyse: check outcomes=.")
    events = _events(t, codes, reading, keep, keys, methods)
    first, last = time_span(ts_ns(events))
    skipped = skip_reasons(reading.labels, "status") + ((("lines not in the format", n_bad),) if n_bad else ())
    events.attrs["skipped_lines"] = n_bad
    events.attrs["how_read"] = HowRead(
        files=files,
        rows_read=len(codes) + n_bad, rows_kept=len(events), skipped=skipped, time_column="[time]",
        time_reading="access-log times with UTC offsets (each line its own instant)", first=first, last=last,
        outcome_column="status", vocabulary=reading.vocabulary, labels=reading.labels,
        notes=tuple(file_notes([file_name(p) for p in paths], per_file)),
    )
    return events
