"""Column plumbing shared by the readers and the personal-data guard."""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["MISSING_LABELS", "numpy_backed", "factorize"]

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
