"""Codes of a column and chunk-parallel Arrow kernels, shared by the readers
(:mod:`budgetlab.events`),
the personal-data guard (:mod:`budgetlab.privacy`) and the CLI."""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["factorize", "on_chunks", "PARALLEL_ROWS", "numpy_backed"]

#: Rows from which a chunked Arrow column is handed to several threads at once (Arrow's compute
#: kernels run without the GIL; one kernel call uses one core).
PARALLEL_ROWS = 1 << 20


def factorize(col: pd.Series) -> tuple[np.ndarray, pd.Index]:
    """``(codes, distinct values)`` of a column; code -1 for missing values. A categorical keeps
    its categories (unused ones included; only the codes say which are used).

    >>> codes, uniques = factorize(pd.Series(["b", None, "b", "a"]))
    >>> codes.tolist(), list(uniques)
    ([0, -1, 0, 1], ['b', 'a'])
    """
    if isinstance(col.dtype, pd.CategoricalDtype):
        return col.cat.codes.to_numpy().astype(np.int64), pd.Index(col.cat.categories)
    codes, uniques = pd.factorize(col, use_na_sentinel=True)
    return np.asarray(codes, dtype=np.int64), pd.Index(uniques)


def on_chunks(fn: Callable[[Any], Any], column: Any, *, rows: int | None = None) -> list[Any]:
    """``fn`` over consecutive groups of the chunks of an Arrow ChunkedArray, on up to four
    threads when the column has ``rows`` (default :data:`PARALLEL_ROWS`) rows or more; the
    results in column order (one per group: concatenate them).

    >>> import pyarrow as pa
    >>> col = pa.chunked_array([[1, 2], [3], [4, 5]])
    >>> parts = on_chunks(lambda part: part.combine_chunks(), col, rows=1)  # one per thread
    >>> [x for part in parts for x in part.to_pylist()]
    [1, 2, 3, 4, 5]
    """
    import pyarrow as pa

    threads = min(os.cpu_count() or 1, 4, column.num_chunks)
    if len(column) < (PARALLEL_ROWS if rows is None else rows) or threads < 2:
        return [fn(column)]
    bounds = np.linspace(0, column.num_chunks, threads + 1).astype(int)
    parts = [
        pa.chunked_array(column.chunks[lo:hi], type=column.type)
        for lo, hi in zip(bounds[:-1], bounds[1:], strict=True)
    ]
    with ThreadPoolExecutor(max_workers=threads) as pool:
        return list(pool.map(fn, parts))


def numpy_backed(col: pd.Series) -> pd.Series:
    """An Arrow-backed column (``pd.ArrowDtype``) as the NumPy-backed column pandas' own readers
    give: timestamps as datetime64, strings as ``str``, numbers as int64/float64, booleans as
    ``boolean``; other columns unchanged.

    >>> import pyarrow as pa
    >>> str(numpy_backed(pd.Series([1, None], dtype=pd.ArrowDtype(pa.int64()))).dtype)
    'float64'
    """
    if not isinstance(col.dtype, pd.ArrowDtype):
        return col
    import pyarrow as pa

    pa_type = col.dtype.pyarrow_dtype
    if pa.types.is_timestamp(pa_type):
        unit = pa_type.unit
        return pd.Series(col.astype(pd.DatetimeTZDtype(unit, "UTC") if pa_type.tz
                                    else np.dtype(f"datetime64[{unit}]")))
    if pa.types.is_string(pa_type) or pa.types.is_large_string(pa_type):
        return col.astype("str")
    if pa.types.is_integer(pa_type) or pa.types.is_floating(pa_type):
        return col.astype("float64" if col.isna().any() or pa.types.is_floating(pa_type)
                          else "int64")
    return col.astype("boolean" if pa.types.is_boolean(pa_type) else object)
