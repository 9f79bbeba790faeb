"""The line parser of :mod:`budgetlab.events.accesslog`: blocks of log text to times, statuses and
methods, written into preallocated columns (memory bounded by the result, not by the text).

Each block is matched once by :data:`CAPTURE`, a one-pass RE2 pattern that is the strict
:data:`LOG_PATTERN` with an unquoted user field: on the lines it matches, the strict pattern
matches too and captures the same time text, method and status (the user alternative it prefers
is that one). Canonical times (``10/Oct/2026:13:55:36 +0200``, years 1678..2261, no leap second)
are read from their fixed-width bytes with numpy; every other line (a quoted user, a leap second,
an other time text, a malformed or blank line) goes through the strict pattern and the reading
that always applied (Arrow's ``strptime``, then pandas), on those lines only.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

_QUOTED = r'"(?:[^"\\]|\\.)*"'
# the canonical time (what Apache and nginx write): a real day of its month, a clock time and an
# offset under 24 h; it is read by Arrow's strptime. Any other text in the brackets ("other") is
# read by pandas, as it always was (then an impossible time makes the line malformed).
_MONTH_DAY = (r"(?:(?:0[1-9]|1[0-9]|2[0-8])/(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)"
              r"|(?:29|30)/(?:Jan|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)|31/(?:Jan|Mar|May|Jul|Aug|Oct|Dec))")
CANONICAL_TIME = (_MONTH_DAY + r"/[0-9]{4}:(?:[01][0-9]|2[0-3]):[0-5][0-9]:(?:[0-5][0-9]|60) "
                  r"[+-](?:[01][0-9]|2[0-3])[0-5][0-9]")
#: The pattern of one line (RE2, also valid for Python's ``re``): groups ``time`` (the canonical
#: time) or ``other`` (any other bracketed text), ``method`` and ``status``.
LOG_PATTERN = (
    r"^[^ ]+ [^ ]+ (?:[^ ]+|" + _QUOTED + r") \[(?:(?P<time>" + CANONICAL_TIME + r")|(?P<other>[^\]]+))\] "
    r'"(?P<method>[A-Za-z]*)(?:[^"\\]|\\.)*" (?P<status>[0-9]{3}) (?:[0-9]+|-)'
    r"(?: .*)?[\r]?$"
)
#: :data:`LOG_PATTERN` with the user field unquoted (its preferred alternative), the bracket text
#: in one group (``time`` or ``other`` there are the same text) and ``(?: .*)?[\r]?$`` as the
#: equivalent ``(?: |\r?$)``: one-pass, so RE2 extracts without backtracking.
CAPTURE = (r'^[^ ]+ [^ ]+ [^ ]+ \[(?P<time>[^\]]+)\] "{request}" (?P<status>[0-9]{3}) (?:[0-9]+|-)(?: |\r?$)')
_REQUEST = r'(?:[^"\\]|\\.)*'
#: The time format of common/combined logs (``strptime``).
TIME_FORMAT = "%d/%b/%Y:%H:%M:%S %z"
#: The shortest line :data:`LOG_PATTERN` matches (``a b c [x] "" 200 -``), with its line end.
MIN_LINE_BYTES = 19
_MAX_LINES_LISTED = 10
_DIGITS = np.array([0, 1, 7, 8, 9, 10, 12, 13, 15, 16, 18, 19, 22, 23, 24, 25])
_MONTH_NAMES = [b"Jan", b"Feb", b"Mar", b"Apr", b"May", b"Jun", b"Jul", b"Aug", b"Sep", b"Oct", b"Nov", b"Dec"]
_MONTH_KEYS = np.array([(m[0] << 16) | (m[1] << 8) | m[2] for m in _MONTH_NAMES], dtype=np.int64)
_KEY_ORDER = np.argsort(_MONTH_KEYS)
_LAST_DAY = np.array([0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31])  # 29/Feb is not canonical


def text_array(block: Any) -> Any:
    """``block`` (bytes or a view) as one Arrow string (no copy when it is valid UTF-8).
    Undecodable bytes can only sit in fields that are never extracted (paths, user agents), or
    make a line malformed; replacing them never alters a kept value."""
    import pyarrow as pa

    offsets = pa.py_buffer(np.array([0, len(block)], dtype=np.int64))
    arr = pa.Array.from_buffers(pa.large_string(), 1, [None, offsets, pa.py_buffer(block)])
    try:
        arr.validate(full=True)
    except pa.ArrowInvalid:
        return pa.array([bytes(block).decode("utf-8", errors="replace")], type=pa.large_string())
    return arr


def slow_times(text: Any) -> tuple[np.ndarray, np.ndarray]:
    """``(ns, valid)`` of times that are not in the canonical form, read by pandas as they always
    were (an impossible time, or one outside 1677..2262, is invalid: the line is malformed)."""
    parsed = pd.to_datetime(pd.Series(text.to_pandas(), dtype="str"), format=TIME_FORMAT, utc=True, errors="coerce")
    valid = np.array(parsed.notna(), dtype=bool)
    unit = parsed.dt.unit
    vals = np.asarray(parsed.dt.tz_localize(None).to_numpy()).view(np.int64)
    factor = {"s": 10**9, "ms": 10**6, "us": 10**3, "ns": 1}[unit]
    if factor > 1:
        limit = (2**63 - 1) // factor
        valid &= (vals >= -limit) & (vals <= limit)
        vals = np.where(valid, vals, 0) * factor
    return np.where(valid, vals, 0), valid


def _strings(arr: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(starts, lengths, bytes)`` of an Arrow (large) string array, without copying its text."""
    import pyarrow as pa

    bufs = arr.buffers()
    kind = np.int64 if pa.types.is_large_string(arr.type) else np.int32
    offsets = np.frombuffer(bufs[1], dtype=kind)[arr.offset:arr.offset + len(arr) + 1].astype(np.int64)
    data = np.frombuffer(bufs[2], dtype=np.uint8) if bufs[2] is not None and bufs[2].size else np.zeros(1, np.uint8)
    return offsets[:-1], np.diff(offsets), data


def canonical_ns(starts: np.ndarray, lengths: np.ndarray, data: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(ns, fast)``: the UTC instants of the time texts at ``starts`` that are canonical (the
    fixed-width form of :data:`CANONICAL_TIME`) with a year in 1678..2261 and no leap second,
    from their digits; ``fast`` is False for every other text (read the way it always was)."""
    ns = np.zeros(len(starts), dtype=np.int64)
    rows = np.flatnonzero(lengths == 26)
    first = int(starts[rows[0]]) if len(rows) else 0
    if len(rows) and int(starts[rows[-1]]) - first == 26 * (len(rows) - 1) and \
            bool((np.diff(starts[rows]) == 26).all()):  # the usual case: the texts one after another
        b = data[first:first + 26 * len(rows)].reshape(len(rows), 26)
    else:
        b = data[starts[rows, None] + np.arange(26)]
    d = b - np.uint8(48)  # a non-digit wraps to >= 208
    ok = (d[:, _DIGITS] <= 9).all(axis=1)
    ok &= (b[:, 2] == 47) & (b[:, 6] == 47) & (b[:, 11] == 58) & (b[:, 14] == 58) & (b[:, 17] == 58)
    ok &= (b[:, 20] == 32) & ((b[:, 21] == 43) | (b[:, 21] == 45))

    def num(*at: int) -> np.ndarray:
        out = d[:, at[0]].astype(np.int64)
        for i in at[1:]:
            out = out * 10 + d[:, i]
        return out

    key = (b[:, 3].astype(np.int64) << 16) | (b[:, 4].astype(np.int64) << 8) | b[:, 5]
    at = np.minimum(np.searchsorted(_MONTH_KEYS[_KEY_ORDER], key), 11)
    month = _KEY_ORDER[at] + 1
    ok &= _MONTH_KEYS[month - 1] == key
    day, year, hour, minute, second = num(0, 1), num(7, 8, 9, 10), num(12, 13), num(15, 16), num(18, 19)
    off_h, off_m = num(22, 23), num(24, 25)
    ok &= (day >= 1) & (day <= _LAST_DAY[month]) & (hour <= 23) & (minute <= 59) & (second <= 59)
    ok &= (off_h <= 23) & (off_m <= 59) & (year >= 1678) & (year <= 2261)
    off = off_h * 3600 + off_m * 60
    # days from the civil date (proleptic Gregorian; H. Hinnant's algorithm, years >= 0)
    y = year - (month <= 2)
    era, yoe = y // 400, y % 400
    doy = (153 * ((month + 9) % 12) + 2) // 5 + day - 1
    days = era * 146097 + yoe * 365 + yoe // 4 - yoe // 100 + doy - 719468
    secs = days * 86400 + hour * 3600 + minute * 60 + second - np.where(b[:, 21] == 45, -off, off)
    fast = np.zeros(len(starts), dtype=bool)
    fast[rows] = ok
    ns[rows[ok]] = secs[ok] * 10**9
    return ns, fast


def _strict(lines: Any, with_method: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, Any]:
    """``(matched, ns, time_ok, status, method)`` of ``lines`` by :data:`LOG_PATTERN`, read as
    it always was (Arrow's strptime for canonical times, pandas for any other)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    parts = pc.extract_regex(lines, LOG_PATTERN)
    matched = np.array(parts.is_valid(), dtype=bool)
    stamp = pc.strptime(pc.struct_field(parts, "time"), format=TIME_FORMAT, unit="ns", error_is_null=True)
    fast = np.array(stamp.is_valid(), dtype=bool)
    ns = np.array(pc.fill_null(stamp.cast(pa.int64()), 0), dtype=np.int64)
    time_ok = fast.copy()
    slow = matched & ~fast
    if slow.any():
        rows = pa.array(slow)
        text = pc.binary_join_element_wise(pc.struct_field(parts, "time").filter(rows),
                                           pc.struct_field(parts, "other").filter(rows),
                                           pa.scalar("", pa.large_string()))
        ns[slow], time_ok[slow] = slow_times(text)
    status = np.asarray(pc.fill_null(pc.cast(pc.struct_field(parts, "status"), pa.int32()), 0), dtype=np.int64)
    method = pc.struct_field(parts, "method") if with_method else None
    return matched, ns, time_ok, status, method


def _captured(lines: Any, with_method: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, Any]:
    """:func:`_strict` of ``lines``, by :data:`CAPTURE` and the fixed-width time reading where
    they apply, by :func:`_strict` on the other lines."""
    import pyarrow as pa
    import pyarrow.compute as pc

    request = f"(?P<request>{_REQUEST})" if with_method else _REQUEST
    parts = pc.extract_regex(lines, CAPTURE.replace("{request}", request))
    matched = np.array(parts.is_valid(), dtype=bool)
    rows = np.flatnonzero(matched)
    times = pc.struct_field(parts, "time")
    starts, lengths, data = _strings(times)
    ns, time_ok = canonical_ns(starts[rows], lengths[rows], data)
    later = np.flatnonzero(~time_ok)  # among rows: read the way it always was
    if len(later):
        text = times.take(pa.array(rows[later]))
        canonical = np.array(pc.match_substring_regex(text, "^(?:" + CANONICAL_TIME + ")$"), dtype=bool)
        stamp = pc.strptime(pc.if_else(pa.array(canonical), text, ""), format=TIME_FORMAT, unit="ns",
                            error_is_null=True)
        fast = np.array(stamp.is_valid(), dtype=bool)
        ns[later[fast]] = np.asarray(stamp.filter(pa.array(fast)).cast(pa.int64()), dtype=np.int64)
        time_ok[later[fast]] = True
        if not fast.all():
            at = later[~fast]
            ns[at], time_ok[at] = slow_times(text.filter(pa.array(~fast)))
    full_ns, full_ok = np.zeros(len(matched), dtype=np.int64), np.zeros(len(matched), dtype=bool)
    full_ns[rows], full_ok[rows] = ns, time_ok
    status = np.zeros(len(matched), dtype=np.int64)
    s_starts, _, s_data = _strings(pc.struct_field(parts, "status"))
    digits = s_data[s_starts[rows, None] + np.arange(3)].astype(np.int64) - 48
    status[rows] = digits[:, 0] * 100 + digits[:, 1] * 10 + digits[:, 2]
    method = None
    if with_method:
        method = pc.struct_field(pc.extract_regex(pc.struct_field(parts, "request"), "^(?P<m>[A-Za-z]*)"), "m")
    miss = np.flatnonzero(~matched)
    if len(miss):
        s_matched, s_ns, s_ok, s_status, s_method = _strict(lines.take(pa.array(miss)), with_method)
        matched[miss], full_ns[miss], full_ok[miss], status[miss] = s_matched, s_ns, s_ok, s_status
        if with_method:
            order = np.arange(len(matched))
            order[miss] = len(matched) + np.arange(len(miss))
            method = pa.concat_arrays([pc.fill_null(method, "").cast(pa.large_string()),
                                       pc.fill_null(s_method, "").cast(pa.large_string())]).take(pa.array(order))
    return matched, full_ns, full_ok, status, method


class LogColumns:
    """What the good lines of one text hold (times in ns, statuses, methods), written into
    columns preallocated for the most lines the text can hold (pages never written cost no
    memory; the columns are shrunk in place at the end), and where the bad lines are."""

    def __init__(self, text_bytes: int, with_method: bool) -> None:
        capacity = (text_bytes + 1) // MIN_LINE_BYTES + 1
        self.ts = np.empty(capacity, dtype=np.int64)
        self.status = np.empty(capacity, dtype=np.int16)
        self.rows = 0
        self.method: list[Any] = []
        self.with_method = with_method
        self.lines = 0
        self.bad: list[np.ndarray] = []  # line numbers of the first bad lines
        self.n_bad = 0

    def add(self, block: Any) -> None:
        """Parse one block of whole lines (without the line end after the last)."""
        import pyarrow as pa
        import pyarrow.compute as pc

        lines = pc.split_pattern(text_array(block), "\n").flatten()
        matched, ns, time_ok, status, method = _captured(lines, self.with_method)
        good = matched & time_ok & (status >= 100) & (status <= 599)
        if not good.all():
            rest = np.flatnonzero(~good)
            blank = np.asarray(pc.match_substring_regex(lines.take(pa.array(rest)), r"^\s*$"), dtype=bool)
            bad = rest[~blank]
            self.n_bad += len(bad)
            if sum(len(b) for b in self.bad) < _MAX_LINES_LISTED:
                self.bad.append(self.lines + 1 + bad[:_MAX_LINES_LISTED])
        kept = ns[good]
        end = self.rows + len(kept)
        if end > len(self.ts):  # never with the bound above; a file that grew while read
            self.ts, self.status = (np.concatenate([c[:self.rows], np.empty(end, c.dtype)])
                                    for c in (self.ts, self.status))
        self.ts[self.rows:end] = kept
        self.status[self.rows:end] = status[good]
        self.rows = end
        if self.with_method:
            upper = pc.utf8_upper(method.filter(pa.array(good)))
            self.method.append(pc.if_else(pc.equal(upper, ""), "-", upper))
        self.lines += len(lines)

    def columns(self) -> tuple[np.ndarray, np.ndarray]:
        """``(ts, status)`` of the good lines, shrunk in place (no copy)."""
        for col in (self.ts, self.status):
            col.resize(self.rows, refcheck=False)
        return self.ts, self.status
