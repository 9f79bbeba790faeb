"""Column plumbing of the readers."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

__all__ = ["MISSING_LABELS", "numpy_backed", "recode", "code_counts", "small_int"]

#: Values that mean "missing" in time, outcome and success columns (case-insensitive).
MISSING_LABELS = frozenset({"", "nan", "nat", "null", "none", "na", "n/a", "<na>", "-"})


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
        return pd.Series(col.astype(pd.DatetimeTZDtype(unit, "UTC") if pa_type.tz else np.dtype(f"datetime64[{unit}]")))
    if pa.types.is_string(pa_type) or pa.types.is_large_string(pa_type):
        return col.astype("str")
    if pa.types.is_integer(pa_type) or pa.types.is_floating(pa_type):
        return col.astype("float64" if col.isna().any() or pa.types.is_floating(pa_type) else "int64")
    if pa.types.is_boolean(pa_type):
        return col.astype("boolean")
    return col.astype(object)


def recode(table: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """``table[codes]`` for non-negative small-integer ``codes``, by Arrow's take: NumPy's fancy
    indexing first widens the indices to ``intp`` (about three times as long for int8 codes).
    The result is a NumPy array of its own (writable, as fancy indexing gives).

    >>> recode(np.array([5, 7], dtype=np.int8), np.array([1, 0, 1], dtype=np.int8)).tolist()
    [7, 5, 7]
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    if len(codes) == 0:
        return table[:0].copy()
    out = pc.take(pa.array(table), pa.array(codes))
    return np.array(out.to_numpy(zero_copy_only=True))  # a copy: Arrow's buffer would be read-only


def code_counts(codes: np.ndarray, n: int, *, step: int = 1 << 20) -> np.ndarray:
    """Rows per code ``0 .. n-1`` of non-negative ``codes``: for a few codes one comparison per
    code, else ``np.bincount`` ``step`` rows at a time (never a full-length ``intp`` copy of
    small-integer codes).

    >>> code_counts(np.array([2, 0, 2], dtype=np.int8), 4).tolist()
    [1, 0, 2, 0]
    >>> code_counts(np.array([20, 0, 20], dtype=np.int16), 21, step=2)[[0, 20]].tolist()
    [1, 2]
    """
    if n <= 16:
        return np.array([np.count_nonzero(codes == i) for i in range(n)], dtype=np.int64)
    counts = np.zeros(n, dtype=np.int64)
    for lo in range(0, len(codes), step):
        counts += np.bincount(codes[lo:lo + step], minlength=n)
    return counts


def small_int(n: int) -> type[np.signedinteger[Any]]:
    """The smallest signed integer type that holds codes ``-1 .. n-1``.

    >>> small_int(100).__name__, small_int(1000).__name__
    ('int8', 'int16')
    """
    return np.int8 if n < 2**7 else np.int16 if n < 2**15 else np.int32 if n < 2**31 else np.int64
