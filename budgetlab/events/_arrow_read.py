"""Arrow's CSV and Parquet readers as budgetlab uses them: the declared columns only, labels and
keys as dictionaries, a time column of ISO-8601 text with zones read as instants, and a large
unquoted CSV file (segment by segment) or a Parquet file of text columns (row group by row group)
read into compact columns: the memory of a few segments, not of the whole table as Arrow holds it.
A segment is read and parsed on a worker thread while the previous one is made compact; the text
columns are checked for plain ids as they come (the personal-data guard then skips them).

The checks around it (empty file, byte-order mark, header, quotes, encodings, error messages)
are in :mod:`budgetlab.events._formats`; every function here raises Arrow's own exceptions,
which the callers turn into budgetlab's messages (never quoting a row).
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._util.validation import utc_from_ns
from ._columns import small_int
from ._detect import PLAIN_TEXT, plain

__all__ = ["ISO_TIME", "SEGMENT_BYTES", "QuotesFound", "arrow_csv", "frame_of", "read_segments", "read_row_groups"]

#: ``DataFrame.attrs`` key set when the time column was read as instants from ISO-8601 text with
#: a zone in every row (see :func:`arrow_csv`).
ISO_TIME = "budgetlab.iso_time"

#: Bytes of an unquoted file read at a time by :func:`read_segments` (whole lines; a longer line
#: gets a larger segment). Files up to twice this size are read in one piece.
SEGMENT_BYTES = 16 << 20

#: Arrow's block within a segment (its unit of parallel parsing, one chunk of each column): a few
#: per segment keep both cores busy with little work per chunk.
BLOCK_BYTES = 4 << 20

#: Parts of Parquet row groups (each text column, the dictionary columns together) decoded at
#: once, on as many threads.
PARTS_AHEAD = 2

_BOM = b"\xef\xbb\xbf"


def _convert_options(columns: list[str], dict_columns: Sequence[str], iso_time: str | None) -> Any:
    """Every declared column as text (labels and keys as dictionaries), ``iso_time`` as UTC
    instants; no value read as missing (an empty time fails the instant parse: the careful
    parser then names it)."""
    import pyarrow as pa
    import pyarrow.csv as pcsv

    types = {c: pa.dictionary(pa.int32(), pa.string()) if c in dict_columns else pa.large_string() for c in columns}
    if iso_time is not None:
        types[iso_time] = pa.timestamp("ns", tz="UTC")
    return pcsv.ConvertOptions(include_columns=columns, column_types=types, null_values=[],
                               strings_can_be_null=False, quoted_strings_can_be_null=False)


def arrow_csv(data: Any, size: int, sep: str, columns: list[str], dict_columns: Sequence[str], *,
              quoted: bool, source: Path | None = None, iso_time: str | None = None) -> Any:
    """Arrow's CSV reader over ``data`` (a buffer, or an open file at the first byte after a BOM,
    ``source`` its path), ``size`` bytes. ``quoted``: values may hold line ends (Arrow then finds
    row ends quote by quote, which costs parallelism; without quotes after the header no value
    can hold one). A field longer than Arrow's 1 MiB block (a long text value) is read again
    with one block as large as the input.

    ``iso_time`` names a time column first read as instants by Arrow's strict ISO-8601 parser
    with a zone required (the parser of the cast :func:`~budgetlab.events._times.parse_time`
    tries first, so the instants are the same), which spares holding ~32 bytes of text per row;
    if any value does not parse so (naive times, other forms, blanks), the file is read again with
    the column as text, for the careful parser."""
    import pyarrow as pa
    import pyarrow.csv as pcsv

    def rewind() -> None:
        if source is not None:  # the open file is spent: Arrow reads it again from the first byte after the BOM
            data.seek(0)
            data.seek(len(_BOM) if data.read(3) == _BOM else 0)

    def read(block: int | None, typed: bool) -> Any:
        src = data if not isinstance(data, pa.Buffer) else pa.BufferReader(data)
        return pcsv.read_csv(
            src,
            read_options=pcsv.ReadOptions(use_threads=True, block_size=block),
            parse_options=pcsv.ParseOptions(delimiter=sep, newlines_in_values=quoted),
            convert_options=_convert_options(columns, dict_columns, iso_time if typed else None),
        )

    typed = iso_time is not None
    while True:
        try:
            return read(None, typed)
        except pa.ArrowInvalid as exc:
            if typed:  # a time Arrow's parser does not take, or another problem: read the text
                typed = False
                rewind()
                continue
            if "straddling" not in str(exc) or size < (1 << 20):
                raise
            break
    rewind()
    return read(min(size + 1, (1 << 31) - 1), False)


def frame_of(table: Any, iso_time: str | None) -> pd.DataFrame:
    """``table`` as a DataFrame, marked with :data:`ISO_TIME` when its time column came as instants."""
    import pyarrow as pa

    frame = pd.DataFrame(table.to_pandas())
    if iso_time is not None and pa.types.is_timestamp(table.schema.field(iso_time).type):
        frame.attrs[ISO_TIME] = True
    return frame


def _release() -> None:
    """Give the memory Arrow's pool keeps after a segment back to the system: the next segment
    would reuse it, but the compact columns grow meanwhile (this bounds the peak)."""
    import pyarrow as pa

    pa.default_memory_pool().release_unused()


class _TimeNotIso(Exception):
    """A segment's time column is not ISO-8601 text with zones: read every segment's as text."""


class _Grow:
    """A column filled segment by segment: capacity from an estimate (untouched pages cost no
    memory), grown or shrunk in place with ``ndarray.resize`` (a ``realloc``: no second copy)."""

    def __init__(self, dtype: Any, capacity: int) -> None:
        self.values = np.empty(max(capacity, 1), dtype=dtype)
        self.n = 0

    def slot(self, k: int) -> np.ndarray:
        """The next ``k`` places, to be filled by the caller (``out=`` of a NumPy function)."""
        if self.n + k > len(self.values):
            self.values.resize(max(2 * len(self.values), self.n + k), refcheck=False)
        self.n += k
        return self.values[self.n - k:self.n]

    def put(self, part: np.ndarray) -> None:
        self.slot(len(part))[:] = part

    def widen(self, dtype: Any) -> None:
        """Codes that outgrew their integer type (rare: more labels than it holds)."""
        wider = np.empty(len(self.values), dtype=dtype)
        wider[:self.n] = self.values[:self.n]
        self.values = wider

    def done(self) -> np.ndarray:
        self.values.resize(self.n, refcheck=False)
        return self.values


class _Text:
    """A text column filled segment by segment as one Arrow ``large_string`` array: its bytes and
    offsets copied out of each segment's chunks, so that nothing of a segment outlives it (the
    chunks themselves would pin Arrow's memory for every segment read)."""

    def __init__(self) -> None:
        self.data: _Grow | None = None
        self.ends: _Grow | None = None
        self.size = 0
        self.plain = True  # every chunk so far passes the guard's byte scan (see _detect.plain)

    def put(self, chunk: Any, capacity: int, data_capacity: int) -> None:
        if self.data is None or self.ends is None:
            self.data, self.ends = _Grow(np.uint8, data_capacity), _Grow(np.int64, capacity + 1)
            self.ends.put(np.zeros(1, dtype=np.int64))  # the offsets start at 0
        import pyarrow as pa

        bufs = chunk.buffers()
        n = len(chunk)
        width = np.int64 if pa.types.is_large_string(chunk.type) else np.int32
        if n == 0:
            return
        self.plain = self.plain and plain(chunk)  # here, while other threads decode the next part
        offsets = np.frombuffer(bufs[1], dtype=width)[chunk.offset:chunk.offset + n + 1]
        lo, hi = int(offsets[0]), int(offsets[-1])
        if hi > lo:
            self.data.put(np.frombuffer(bufs[2], dtype=np.uint8)[lo:hi])
        np.add(offsets[1:], self.size - lo, out=self.ends.slot(n), dtype=np.int64)  # int32 offsets widen
        self.size += hi - lo

    def array(self) -> Any:
        import pyarrow as pa

        offsets = self.ends.done() if self.ends is not None else np.zeros(1, dtype=np.int64)
        data = self.data.done() if self.data is not None else np.zeros(0, dtype=np.uint8)
        return pa.LargeStringArray.from_buffers(len(offsets) - 1, pa.py_buffer(offsets), pa.py_buffer(data))


class _Columns:
    """The declared columns of the segments read so far, in their final compact form: instants
    as int64, labels and keys as small codes into categories in order of first appearance (as
    Arrow's dictionary unification orders them), other text as Arrow chunks."""

    def __init__(self, columns: list[str], dict_columns: Sequence[str], iso_time: str | None) -> None:
        self.columns, self.iso_time = columns, iso_time
        self.dicts = [c for c in columns if c in dict_columns and c != iso_time]
        self.cats: dict[str, dict[str, int]] = {c: {} for c in self.dicts}
        self.codes: dict[str, _Grow] = {}
        self.times: _Grow | None = None
        self.texts: dict[str, _Text] = {c: _Text() for c in columns if c not in self.dicts and c != iso_time}

    def add(self, table: Any, capacity: int, byte_share: float) -> None:
        """Append a segment's ``table``; ``capacity`` estimates the file's rows, ``byte_share``
        the file's bytes per byte of this segment (for the text columns' capacity). A table may
        hold some of the columns (a Parquet row group is read in parts)."""
        import pyarrow as pa
        import pyarrow.compute as pc

        names = set(table.column_names)
        if self.iso_time is not None and self.iso_time in names:
            if self.times is None:
                self.times = _Grow(np.int64, capacity)
            for chunk in table.column(self.iso_time).chunks:  # no missing values: the buffer as it is
                self.times.put(np.frombuffer(chunk.buffers()[1], dtype=np.int64)[chunk.offset:chunk.offset + len(chunk)])
        for c in self.dicts:
            if c not in names:
                continue
            cats = self.cats[c]
            column = table.column(c).unify_dictionaries()  # one dictionary for the segment's chunks
            if column.num_chunks == 0:
                continue
            small = small_int(len(cats) + len(column.chunk(0).dictionary))
            to_global = np.array([cats.setdefault(v, len(cats)) for v in column.chunk(0).dictionary.to_pylist()],
                                 dtype=small)
            grow = self.codes.setdefault(c, _Grow(small, capacity))
            if np.dtype(small).itemsize > grow.values.dtype.itemsize:
                grow.widen(small)
            mapping = pa.array(to_global)
            for chunk in column.chunks:  # Arrow's take: NumPy's would first widen the indices to int64
                if len(chunk):  # rows, so a dictionary (no value is missing)
                    codes = pc.take(mapping, chunk.indices)
                    grow.put(np.frombuffer(codes.buffers()[1], dtype=small)[codes.offset:codes.offset + len(codes)])
        for c, text in self.texts.items():
            if c not in names:
                continue
            for chunk in table.column(c).chunks:
                text.put(chunk, capacity, int(table.column(c).nbytes * byte_share * 1.05) + 4096)

    def frame(self) -> pd.DataFrame:
        import pyarrow as pa

        data: dict[str, Any] = {}
        for c in self.columns:
            if c == self.iso_time and self.times is not None:
                data[c] = pd.Series(utc_from_ns(self.times.done(), copy=False).array)
            elif c in self.cats:
                codes = self.codes[c].done() if c in self.codes else np.zeros(0, dtype=np.int8)
                data[c] = pd.Series(pd.Categorical.from_codes(codes, categories=pd.Index(list(self.cats[c]), dtype="str")))
            else:
                data[c] = pa.chunked_array([self.texts[c].array()]).to_pandas()
        frame = pd.DataFrame(data, copy=False)
        if self.iso_time is not None:
            frame.attrs[ISO_TIME] = True
        frame.attrs[PLAIN_TEXT] = frozenset(c for c, text in self.texts.items() if text.plain)
        return frame


def _segment(data: Any, header: list[str], sep: str, columns: list[str], dict_columns: Sequence[str],
             iso_time: str | None) -> Any:
    """One segment of whole lines as an Arrow table (raises :class:`_TimeNotIso` when only the
    instant parse of the time column fails). A line longer than Arrow's block is read with one
    block as large as the segment."""
    import pyarrow as pa
    import pyarrow.csv as pcsv

    block = BLOCK_BYTES

    def read(typed: bool) -> Any:
        return pcsv.read_csv(
            pa.BufferReader(data),
            read_options=pcsv.ReadOptions(use_threads=True, column_names=header, block_size=block),
            parse_options=pcsv.ParseOptions(delimiter=sep, newlines_in_values=False),
            convert_options=_convert_options(columns, dict_columns, iso_time if typed else None),
        )

    while True:
        try:
            return read(True)
        except pa.ArrowInvalid as exc:
            if "straddling" in str(exc) and block <= len(data):
                block = min(len(data) + 1, (1 << 31) - 1)
                continue
            if iso_time is None:
                raise
            read(False)  # another problem raises here
            raise _TimeNotIso from None


class QuotesFound(Exception):
    """:func:`read_segments` met a quote character: values may hold line ends, so the file must
    be read whole (Arrow then finds row ends quote by quote)."""


def _fill(fh: Any, buf: bytearray, carry: bytes, pos: int, size: int) -> tuple[bytearray, int, int, bool, bool]:
    """``carry`` then the file's bytes from ``pos`` into ``buf`` (or a larger buffer when one line
    does not fit), up to the last line end: ``(buffer, end of the last whole line, next file
    position, end of file reached, a quote character among the lines)``."""
    buf[:len(carry)] = carry
    filled = len(carry)
    while True:
        want = min(len(buf) - filled, size - pos)
        with memoryview(buf) as view:
            n = fh.readinto(view[filled:filled + want]) if want > 0 else 0
        pos += n
        filled += n
        eof = pos >= size or (want > 0 and n == 0)
        end = filled if eof else buf.rfind(b"\n", 0, filled) + 1
        if end or eof:
            return buf, end, pos, eof, buf.find(b'"', 0, end) >= 0
        buf = buf + bytearray(len(buf))  # a line longer than the buffer


def _read_all(path: Path, begin: int, size: int, header: list[str], sep: str, columns: list[str],
              dict_columns: Sequence[str], iso_time: str | None, segment: int) -> pd.DataFrame:
    """Segments of whole lines read and parsed on a worker thread (Arrow parses on its own threads
    too) while this thread turns the previous segment into compact columns: two buffers in turn,
    the bytes after a segment's last line end carried to the next."""
    import pyarrow as pa

    def step(buf: bytearray, carry: bytes, pos: int) -> tuple[Any, bytearray, bytes, int, bool, int] | None:
        buf, end, pos, eof, quote = _fill(fh, buf, carry, pos, size)
        if quote:
            raise QuotesFound
        if end == 0:
            return None
        with memoryview(buf) as view:  # Arrow copies what it keeps: the buffer is free again after
            table = _segment(pa.py_buffer(view[:end]), header, sep, columns, dict_columns, iso_time)
        return table, buf, bytes(buf[end:]), pos, eof, end

    out = _Columns(columns, dict_columns, iso_time)
    capacity = 0
    buffers = [bytearray(segment), bytearray(segment)]
    with open(path, "rb") as fh, ThreadPoolExecutor(max_workers=1) as pool:  # read-only
        fh.seek(begin)
        job = pool.submit(step, buffers[0], b"", begin)
        turn = 0
        while True:
            got = job.result()
            if got is None:
                break
            table, buffers[turn], carry, pos, eof, end = got
            if not eof:  # the next segment is read and parsed meanwhile
                turn ^= 1
                job = pool.submit(step, buffers[turn], carry, pos)
            share = (size - begin) / end
            if not capacity:  # rows of the whole file, estimated from the first segment (grown if short)
                capacity = int(table.num_rows * share * 1.05) + 1024
            out.add(table, capacity, share)
            del table
            _release()
            if eof:
                break
    return out.frame()


def read_segments(path: Path, begin: int, size: int, header: list[str], sep: str, columns: list[str],
                  dict_columns: Sequence[str], iso_time: str | None, segment: int = SEGMENT_BYTES,
                  ) -> pd.DataFrame | None:
    """The rows of an unquoted CSV/TSV file (no quote after the header, so a line end always ends
    a row) from byte ``begin`` (the first data row) to ``size``, read ``segment`` bytes of whole
    lines at a time, each segment's columns turned into their final form before the next is read.
    The result equals :func:`frame_of` of :func:`arrow_csv` over the same bytes (the same Arrow
    conversions; categories in order of first appearance). ``None`` when Arrow refuses a segment
    for another reason than the time column (the careful reader then names the problem). Raises
    :class:`QuotesFound` at a quote character."""
    import pyarrow as pa

    try:
        try:
            return _read_all(path, begin, size, header, sep, columns, dict_columns, iso_time, segment)
        except _TimeNotIso:  # not every time is ISO text with a zone: every segment's as text
            return _read_all(path, begin, size, header, sep, columns, dict_columns, None, segment)
    except (pa.ArrowException, ValueError, OSError, MemoryError):
        return None


def _typed_group(table: Any, iso_time: str | None) -> Any:
    """A Parquet row group with its time column as UTC instants (the cast of
    :func:`~budgetlab.events._times.parse_time`'s first try; raises :class:`_TimeNotIso` when a
    value does not parse so or is missing)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if iso_time is None:
        return table
    at = table.schema.get_field_index(iso_time)
    try:
        typed = pc.cast(table.column(at), pa.timestamp("ns", tz="UTC"))
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        raise _TimeNotIso from None
    if typed.null_count:
        raise _TimeNotIso
    return table.set_column(at, iso_time, typed)


class _Readers:
    """One :class:`pyarrow.parquet.ParquetFile` per thread (a reader is not safe to share between
    threads), all on the one open file."""

    def __init__(self, parquet: Any, source: Any, dict_columns: Sequence[str]) -> None:
        import threading

        self.parquet, self.source, self.dict_columns = parquet, source, list(dict_columns)
        self.local = threading.local()

    def get(self) -> Any:
        """This thread's reader: on the file already open (positioned reads, safe from several
        threads; the same file even if its path is replaced meanwhile) with its metadata."""
        import pyarrow.parquet as pq

        reader = getattr(self.local, "reader", None)
        if reader is None:
            reader = self.local.reader = pq.ParquetFile(self.source, metadata=self.parquet.metadata,
                                                        read_dictionary=self.dict_columns)
        return reader


def _group_part(readers: _Readers, i: int, part: list[str], iso_time: str | None) -> Any:
    """Columns ``part`` of row group ``i``, the time as instants; ``None`` at a missing value."""
    table = readers.get().read_row_group(i, columns=part)
    if any(table.column(c).null_count for c in part):
        return None
    return _typed_group(table, iso_time if iso_time in part else None)


def _all_groups(parquet: Any, source: Any, columns: list[str], dict_columns: Sequence[str], iso_time: str | None,
                read_dictionary: Sequence[str]) -> pd.DataFrame | None:
    out = _Columns(columns, dict_columns, iso_time)
    rows = parquet.metadata.num_rows
    # text columns one by one, the dictionary columns together, two parts decoded at once on two
    # threads: a row group's text (the time's above all) is made compact before more is decoded
    texts = [[c] for c in columns if c not in dict_columns]
    parts = [*texts, [c for c in columns if c in dict_columns]]
    jobs = [(i, part) for i in range(parquet.num_row_groups) for part in parts if part]
    if not jobs:
        return out.frame()
    ahead = PARTS_AHEAD
    return _decode_parts(_Readers(parquet, source, read_dictionary), jobs, out, rows, iso_time, ahead)


def _decode_parts(readers: _Readers, jobs: list[tuple[int, list[str]]], out: _Columns, rows: int,
                  iso_time: str | None, ahead: int) -> pd.DataFrame | None:
    with ThreadPoolExecutor(max_workers=ahead) as pool:  # the next parts are decoded while this one is kept
        pending = [pool.submit(_group_part, readers, *job, iso_time) for job in jobs[:ahead]]
        for k in range(len(jobs)):
            table = pending.pop(0).result()
            if table is None:
                return None  # missing values: read whole (text columns keep them as missing)
            if k + ahead < len(jobs):
                pending.append(pool.submit(_group_part, readers, *jobs[k + ahead], iso_time))
            out.add(table, rows, rows / max(table.num_rows, 1))
            del table
            _release()
    return out.frame()


def read_row_groups(parquet: Any, source: Any, columns: list[str], dict_columns: Sequence[str],
                    iso_time: str | None) -> pd.DataFrame | None:
    """The declared columns of a Parquet file (``parquet``, its :class:`pyarrow.parquet.ParquetFile`
    on the open Arrow file ``source``; each reading thread makes its own reader on it) with
    ``dict_columns`` read as dictionaries, row group by row group into compact columns, as
    :func:`read_segments` does for text files: the memory of one row group, not of the whole
    table as Arrow holds it. ``None`` unless every declared column is text without missing values
    (other files are read whole); a time column that is not ISO text with zones in every row
    stays text."""
    import pyarrow as pa

    def text(kind: Any) -> bool:
        if pa.types.is_dictionary(kind):
            kind = kind.value_type
        return bool(pa.types.is_string(kind) or pa.types.is_large_string(kind))

    schema = parquet.schema_arrow
    if parquet.num_row_groups == 0 or not all(text(schema.field(c).type) for c in columns):
        return None
    # a column stored as a dictionary comes as one too (a categorical, as pandas reads it)
    dicts = [c for c in columns if c in dict_columns or pa.types.is_dictionary(schema.field(c).type)]
    try:
        return _all_groups(parquet, source, columns, dicts, iso_time, dict_columns)
    except _TimeNotIso:
        return _all_groups(parquet, source, columns, dicts, None, dict_columns)
