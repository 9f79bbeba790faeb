"""Arrow's CSV and Parquet readers as budgetlab uses them: the declared columns only, labels and
keys as dictionaries, a time column of ISO-8601 text with zones read as instants, and a large
unquoted CSV file (segment by segment) or a Parquet file of text columns (row group by row group)
read into compact columns (instants as int64, labels and keys as small codes; text keeps Arrow's
own chunks): the memory of a few segments, not of the whole table as Arrow holds it. A segment is
parsed on a worker thread while this thread reads the next one and keeps the previous one; the
text columns are checked for plain ids as they come (the personal-data guard then skips them).

The checks around it (empty file, byte-order mark, header, quotes, encodings, error messages)
are in :mod:`budgetlab.events._formats`; every function here raises Arrow's own exceptions (and
``UnicodeDecodeError`` for a label that is not UTF-8), which the callers turn into budgetlab's
messages (never quoting a row).
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from .._util.validation import utc_from_ns
from ..privacy.prefilter import PLAIN_TEXT, plain
from ._columns import small_int

__all__ = ["ISO_TIME", "SEGMENT_BYTES", "QuotesFound", "arrow_csv", "frame_of", "read_segments", "read_row_groups"]

#: ``DataFrame.attrs`` key set when the time column was read as instants from ISO-8601 text with
#: a zone in every row (see :func:`arrow_csv`).
ISO_TIME = "budgetlab.iso_time"

#: Bytes of an unquoted file read at a time by :func:`read_segments` (whole lines; a longer line
#: gets a larger segment). Files up to twice this size are read in one piece.
SEGMENT_BYTES = 8 << 20

#: Arrow's block within a segment (its unit of parallel parsing, one chunk of each column): a few
#: per segment keep both cores busy with little work per chunk.
BLOCK_BYTES = 2 << 20

#: Parts of Parquet row groups (each text column, the dictionary columns together) asked for ahead
#: of the one being kept, decoded on :data:`PARTS_THREADS` threads: more parts than threads, so
#: that a short part that is done does not hold a thread's place while a long one before it decodes.
PARTS_AHEAD = 4
PARTS_THREADS = 2

#: Values of a dictionary from which its codes are looked up by Arrow instead of one Python step
#: per value (see ``_Columns._to_global``).
_LOOKUP_VALUES = 64

_BOM = b"\xef\xbb\xbf"


def _convert_options(columns: list[str], dict_columns: Sequence[str], iso_time: str | None, *,
                     byte_dicts: bool = False) -> Any:
    """Every declared column as text (labels and keys as dictionaries), ``iso_time`` as UTC
    instants; no value read as missing (an empty time fails the instant parse: the careful
    parser then names it). ``byte_dicts``: the dictionaries' values as bytes, not checked as
    UTF-8 row by row (a tenth of the parse); the caller decodes the few distinct values."""
    import pyarrow as pa
    import pyarrow.csv as pcsv

    label = pa.binary() if byte_dicts else pa.string()
    types = {c: pa.dictionary(pa.int32(), label) if c in dict_columns else pa.large_string() for c in columns}
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
    would reuse it, but the compact columns grow meanwhile (this bounds the peak). Measured, it
    is also the faster way: a load that never releases took a fifth longer (more user time in
    Arrow's parse on the reused memory than the page faults of fresh memory cost)."""
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
    """A text column filled segment by segment: the segments' own Arrow chunks, kept as they are
    (each owns exactly its values' bytes and offsets, so keeping them costs what a compact copy
    would, without the copy; pandas gives ``string`` chunks, as some Parquet files have, new
    8-byte offsets), checked for plain ids as they come."""

    def __init__(self) -> None:
        self.chunks: list[Any] = []
        self.plain = True  # every chunk so far passes the guard's byte scan (see _detect.plain)

    def put(self, chunk: Any) -> None:
        if len(chunk):
            self.plain = self.plain and plain(chunk)  # here, while other threads decode the next part
            self.chunks.append(chunk)

    def series(self) -> pd.Series:
        """The column as pandas' ``str`` (Arrow-backed: ``large_string`` chunks are not copied)."""
        import pyarrow as pa

        kind = self.chunks[0].type if self.chunks else pa.large_string()
        return pd.Series(pa.chunked_array(self.chunks, type=kind).to_pandas(), copy=False)


class _Columns:
    """The declared columns of the segments read so far, in their final compact form: instants
    as int64, labels and keys as small codes into categories in order of first appearance (as
    Arrow's dictionary unification orders them), other text as Arrow chunks."""

    def __init__(self, columns: list[str], dict_columns: Sequence[str], iso_time: str | None) -> None:
        self.columns, self.iso_time = columns, iso_time
        self.dicts = [c for c in columns if c in dict_columns and c != iso_time]
        self.cats: dict[str, dict[str, int]] = {c: {} for c in self.dicts}
        self.known: dict[str, Any] = {}  # the categories as an Arrow array, for lookups (see _to_global)
        self.codes: dict[str, _Grow] = {}
        self.times: _Grow | None = None
        self.texts: dict[str, _Text] = {c: _Text() for c in columns if c not in self.dicts and c != iso_time}

    def add(self, table: Any, capacity: int) -> None:
        """Append a segment's ``table``; ``capacity`` estimates the file's rows. A table may hold
        some of the columns (a Parquet row group is read in parts)."""
        names = set(table.column_names)
        if self.iso_time is not None and self.iso_time in names:
            if self.times is None:
                self.times = _Grow(np.int64, capacity)
            for chunk in table.column(self.iso_time).chunks:  # no missing values: the buffer as it is
                self.times.put(np.frombuffer(chunk.buffers()[1], dtype=np.int64)[chunk.offset:chunk.offset + len(chunk)])
        for c in self.dicts:
            if c not in names:
                continue
            column = table.column(c)
            chunks = [chunk for chunk in column.chunks if len(chunk)]  # rows, so dictionaries (no value missing)
            if sum(len(chunk.dictionary) for chunk in chunks) > _LOOKUP_VALUES:  # many labels: one lookup
                chunks = [chunk for chunk in column.unify_dictionaries().chunks if len(chunk)]
                to_global = self._to_global(c, chunks[0].dictionary)
                for chunk in chunks:
                    self._put_codes(c, chunk, to_global, capacity)
            else:  # a few labels: each chunk's own (no unification pass over the rows)
                for chunk in chunks:
                    self._put_codes(c, chunk, self._to_global(c, chunk.dictionary), capacity)
        for c, text in self.texts.items():
            if c not in names:
                continue
            for chunk in table.column(c).chunks:
                text.put(chunk)

    def _to_global(self, c: str, dictionary: Any) -> np.ndarray:
        """The codes of ``dictionary``'s values in the categories of column ``c`` (new values are
        added in the dictionary's order, as Arrow's unification orders them). A segment's labels
        come as bytes (see :func:`_convert_options`) and are decoded strictly: invalid UTF-8
        raises, and the careful reader then names the problem. Up to :data:`_LOOKUP_VALUES`
        values one Python step each; more (thousands of sitekeys) are looked up by Arrow among
        the categories so far, and only the new ones are stepped through."""
        import pyarrow as pa
        import pyarrow.compute as pc

        cats = self.cats[c]
        if len(dictionary) <= _LOOKUP_VALUES or not cats:
            values = [v.decode("utf-8") if isinstance(v, bytes) else v for v in dictionary.to_pylist()]
            return np.array([cats.setdefault(v, len(cats)) for v in values], dtype=np.int64)
        text = dictionary if pa.types.is_string(dictionary.type) else pc.cast(dictionary, pa.string())  # checks UTF-8
        known = self.known.get(c)
        if known is None or len(known) != len(cats):
            known = pa.array(list(cats), type=pa.string())
        found = pc.fill_null(pc.index_in(text, value_set=known), -1)
        codes = np.asarray(found.to_numpy(zero_copy_only=False), dtype=np.int64)
        new = np.flatnonzero(codes < 0)
        if len(new):
            added = text.take(pa.array(new))
            for v in added.to_pylist():
                cats[v] = len(cats)
            codes[new] = np.arange(len(cats) - len(new), len(cats))
            known = pa.concat_arrays([known, added])
        self.known[c] = known
        return codes

    def _put_codes(self, c: str, chunk: Any, to_global: np.ndarray, capacity: int) -> None:
        """Append a dictionary chunk's rows as codes into the categories of column ``c``
        (``to_global``: the codes of the chunk's dictionary values)."""
        import pyarrow as pa
        import pyarrow.compute as pc

        small = small_int(len(self.cats[c]))
        grow = self.codes.setdefault(c, _Grow(small, capacity))
        if np.dtype(small).itemsize > grow.values.dtype.itemsize:
            grow.widen(small)
        small = grow.values.dtype.type
        indices = chunk.indices
        if np.array_equal(to_global, np.arange(len(to_global))):  # the chunk's order is the global one
            index = np.frombuffer(indices.buffers()[1], dtype=indices.type.to_pandas_dtype())
            np.copyto(grow.slot(len(chunk)), index[indices.offset:indices.offset + len(chunk)], casting="unsafe")
            return
        # Arrow's take: NumPy's would widen the indices to int64
        codes = pc.take(pa.array(to_global.astype(small)), indices)
        grow.put(np.frombuffer(codes.buffers()[1], dtype=small)[codes.offset:codes.offset + len(codes)])

    def frame(self) -> pd.DataFrame:

        data: dict[str, Any] = {}
        for c in self.columns:
            if c == self.iso_time and self.times is not None:
                data[c] = pd.Series(utc_from_ns(self.times.done(), copy=False).array, copy=False)
            elif c in self.cats:
                codes = self.codes[c].done() if c in self.codes else np.zeros(0, dtype=np.int8)
                data[c] = pd.Series(pd.Categorical.from_codes(  # codes made here: all within the categories
                    codes, categories=pd.Index(list(self.cats[c]), dtype="str"), validate=False), copy=False)
            else:
                data[c] = self.texts[c].series()
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
            convert_options=_convert_options(columns, dict_columns, iso_time if typed else None, byte_dicts=True),
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


def _fill(fh: Any, buf: bytearray, carry: bytes, pos: int, size: int
          ) -> tuple[bytearray, int, bytes, int, bool, bool]:
    """``carry`` then the file's bytes from ``pos`` into ``buf`` (or a larger, new buffer when
    the carried bytes or one line do not fit), up to the last line end: ``(buffer, end of the
    last whole line, the bytes after it, next file position, end of file reached, a quote
    character among the lines)``. ``buf`` is written over but never resized in place: Arrow
    may hold it for a moment after its segment is parsed (a resize would then fail)."""
    if len(carry) >= len(buf):
        buf = bytearray(2 * len(carry))
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
            return buf, end, bytes(buf[end:filled]), pos, eof, buf.find(b'"', 0, end) >= 0
        buf = buf + bytearray(len(buf))  # a line longer than the buffer (a new buffer)


def _read_all(path: Path, begin: int, size: int, header: list[str], sep: str, columns: list[str],
              dict_columns: Sequence[str], iso_time: str | None, segment: int) -> pd.DataFrame:
    """Segments of whole lines parsed on a worker thread (Arrow parses on its own threads too)
    while this thread reads the next one from the file and turns the previous one into compact
    columns: two buffers in turn (Arrow copies what it keeps, so a buffer's bytes may be written
    over once its segment is parsed; see :func:`_fill`), the bytes after a segment's last line
    end carried to the next."""
    import pyarrow as pa

    def parse(buf: bytearray, end: int) -> Any:
        with memoryview(buf) as view:
            return _segment(pa.py_buffer(view[:end]), header, sep, columns, dict_columns, iso_time)

    out = _Columns(columns, dict_columns, iso_time)
    bufs = [bytearray(segment), bytearray(segment)]
    carry, pos, eof = b"", begin, False
    with open(path, "rb") as fh, ThreadPoolExecutor(max_workers=1) as pool:  # read-only

        def read(i: int) -> int:
            """The next segment into buffer ``i``: its length (0: the file is done)."""
            nonlocal carry, pos, eof
            if eof:
                return 0
            bufs[i], end, carry, pos, eof, quote = _fill(fh, bufs[i], carry, pos, size)
            if quote:
                raise QuotesFound
            return end

        fh.seek(begin)
        i, end, capacity = 0, read(0), 0
        job = pool.submit(parse, bufs[0], end) if end else None
        while job is not None:
            following = read(1 - i)  # while segment i is parsed
            table = job.result()  # buffer i may be written over again
            job = pool.submit(parse, bufs[1 - i], following) if following else None
            if not capacity:  # rows of the whole file, estimated from the first segment (grown if short)
                capacity = int(table.num_rows * (size - begin) / end * 1.05) + 1024
            out.add(table, capacity)
            del table
            _release()
            i, end = 1 - i, following
    return out.frame()


def read_segments(path: Path, begin: int, size: int, header: list[str], sep: str, columns: list[str],
                  dict_columns: Sequence[str], iso_time: str | None, segment: int = SEGMENT_BYTES,
                  ) -> pd.DataFrame | None:
    """The rows of an unquoted CSV/TSV file (no quote after the header, so a line end always ends
    a row) from byte ``begin`` (the first data row) to ``size``, read ``segment`` bytes of whole
    lines at a time, each segment's columns turned into their final form while the next one is
    parsed.
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
    groups = range(parquet.num_row_groups)
    # parts: each text column, the dictionary columns together. The time's parts come first, for
    # every row group: the longest (decoded text, then parsed), they overlap each other instead of
    # ending the read one after the other, and their text is parsed while the columns kept are
    # still small (a lower peak)
    first = [c for c in columns if c == iso_time and c not in dict_columns]
    parts = [[c] for c in columns if c not in dict_columns and c not in first]
    parts.append([c for c in columns if c in dict_columns])
    jobs = [(i, first) for i in groups if first] + [(i, part) for i in groups for part in parts if part]
    if not jobs:
        return out.frame()
    return _decode_parts(_Readers(parquet, source, read_dictionary), jobs, out, parquet.metadata.num_rows, iso_time,
                         PARTS_AHEAD)


def _decode_parts(readers: _Readers, jobs: list[tuple[int, list[str]]], out: _Columns, rows: int,
                  iso_time: str | None, ahead: int) -> pd.DataFrame | None:
    with ThreadPoolExecutor(max_workers=PARTS_THREADS) as pool:  # the next parts are decoded while one is kept
        pending = [pool.submit(_group_part, readers, *job, iso_time) for job in jobs[:ahead]]
        for k in range(len(jobs)):
            table = pending.pop(0).result()
            if table is None:
                return None  # missing values: read whole (text columns keep them as missing)
            if k + ahead < len(jobs):
                pending.append(pool.submit(_group_part, readers, *jobs[k + ahead], iso_time))
            out.add(table, rows)
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
