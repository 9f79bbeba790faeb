"""Arrow's own readers as budgetlab uses them: the declared columns only, labels and keys as
dictionaries, a time column of ISO-8601 text with zones read as instants.

A CSV/TSV file up to :data:`STREAM_BYTES` is read whole by :func:`pyarrow.csv.read_csv`; a larger
one by :func:`pyarrow.csv.open_csv` batch by batch with every column's type pinned (the batches are
the table; no buffer or thread of budgetlab's own). A Parquet file is read by
:meth:`pyarrow.parquet.ParquetFile.iter_batches`.

The checks around it (empty file, byte-order mark, header, quotes, encodings, error messages)
are in :mod:`budgetlab.events._formats`; every function here raises Arrow's own exceptions, which
the callers turn into budgetlab's messages (never quoting a row).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd

__all__ = ["ISO_TIME", "STREAM_BYTES", "arrow_csv", "frame_of", "parquet_table"]

#: ``DataFrame.attrs`` key set when the time column was read as instants from ISO-8601 text with
#: a zone in every row (see :func:`arrow_csv`).
ISO_TIME = "budgetlab.iso_time"

#: Text of more bytes than this is read by Arrow's streaming reader (``open_csv``), batch by batch.
STREAM_BYTES = 256 << 20

#: Arrow's block (one batch of the streaming reader; a longer field gets one block as large as the input).
BLOCK_BYTES = 1 << 20


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


def _read(open_source: Any, size: int, sep: str, columns: list[str], dict_columns: Sequence[str], *,
          quoted: bool, typed: str | None, block: int) -> Any:
    import pyarrow as pa
    import pyarrow.csv as pcsv

    read_options = pcsv.ReadOptions(use_threads=True, block_size=block)
    parse_options = pcsv.ParseOptions(delimiter=sep, newlines_in_values=quoted)
    convert_options = _convert_options(columns, dict_columns, typed)
    with open_source() as src:
        if size <= STREAM_BYTES:
            return pcsv.read_csv(src, read_options=read_options, parse_options=parse_options,
                                 convert_options=convert_options)
        reader = pcsv.open_csv(src, read_options=read_options, parse_options=parse_options,
                               convert_options=convert_options)
        return pa.Table.from_batches(list(reader), schema=reader.schema)


def arrow_csv(open_source: Any, size: int, sep: str, columns: list[str], dict_columns: Sequence[str], *,
              quoted: bool, iso_time: str | None = None) -> Any:
    """Arrow's CSV reader over the text ``open_source()`` opens (a context manager giving an
    Arrow input stream at the first byte after a BOM), ``size`` bytes. ``quoted``: values may
    hold line ends (Arrow then finds row ends quote by quote; without quotes after the header no
    value can hold one). A field (or header) longer than Arrow's block is read again with one block as large
    as the input.

    ``iso_time`` names a time column first read as instants by Arrow's strict ISO-8601 parser
    with a zone required (the parser of the cast :func:`~budgetlab.events._times.parse_time`
    tries first, so the instants are the same); if any value does not parse so (naive times,
    other forms, blanks), the file is read again with the column as text, for the careful parser."""
    import pyarrow as pa

    typed, block = iso_time, min(BLOCK_BYTES, STREAM_BYTES)
    while True:
        try:
            return _read(open_source, size, sep, columns, dict_columns, quoted=quoted, typed=typed, block=block)
        except pa.ArrowInvalid as exc:
            if typed is not None:  # a time Arrow's parser does not take, or another problem: read the text
                typed = None
                continue
            if not any(m in str(exc) for m in ("straddling", "infer number of columns")) or block > size:
                raise  # not a field or header longer than the block
            block = min(size + 1, (1 << 31) - 1)


def frame_of(table: Any, iso_time: str | None) -> pd.DataFrame:
    """``table`` as a DataFrame, marked with :data:`ISO_TIME` when its time column came as instants."""
    import pyarrow as pa

    frame = pd.DataFrame(table.to_pandas(ignore_metadata=True))
    if iso_time is not None and pa.types.is_timestamp(table.schema.field(iso_time).type):
        frame.attrs[ISO_TIME] = True
    return frame


def parquet_table(parquet: Any, columns: list[str]) -> Any:
    """The declared ``columns`` of a :class:`pyarrow.parquet.ParquetFile`, batch by batch."""
    import pyarrow as pa

    batches = list(parquet.iter_batches(columns=columns))
    if not batches:
        return parquet.read(columns=columns)
    return pa.Table.from_batches(batches)
