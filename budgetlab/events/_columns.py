"""Column plumbing of the readers, and one spelling of a key: group-key values are
Unicode-normalised (NFC) when read, and values holding invisible characters (format characters
such as zero-width spaces and joiners, bidirectional marks, control characters, line and
paragraph separators) are refused: ``Köln`` written composed or decomposed is one group, and no
two groups print the same. The checks run on the distinct values (Arrow's ``utf8_normalize`` and
RE2), never per row."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd

from .._util.codes import category_codes, factorize
from .._util.words import say
from ..errors import BudgetlabWarning, InputError
from ..privacy import shown
from ._messages import row_numbers

__all__ = ["MISSING_LABELS", "INVISIBLE", "numpy_backed", "recode", "code_counts", "small_int",
           "one_spelling",
           "group_key", "warn_id_like", "ID_LIKE_SHARE", "ID_LIKE_MIN_ROWS"]

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
        return pd.Series(
            col.astype(
                pd.DatetimeTZDtype(unit, "UTC") if pa_type.tz else np.dtype(f"datetime64[{unit}]")
            )
        )
    if pa.types.is_string(pa_type) or pa.types.is_large_string(pa_type):
        return col.astype("str")
    if pa.types.is_integer(pa_type) or pa.types.is_floating(pa_type):
        return col.astype(
            "float64" if col.isna().any() or pa.types.is_floating(pa_type) else "int64"
        )
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


#: RE2 class of the characters refused in keys: format (Cf: zero-width, bidi controls, BOM, soft
# hyphen),
#: control (Cc), line and paragraph separators.
INVISIBLE = r"[\p{Cf}\p{Cc}\p{Zl}\p{Zp}]"


def one_spelling(values: pd.Index) -> tuple[pd.Index, np.ndarray]:
    """``values`` (distinct strings) in NFC, and which of them hold an invisible character.

    >>> names, bad = one_spelling(pd.Index(["Ko\\u0308ln", "Köln", "fra\\u200b", "ams\\u200f"]))
    >>> list(names[:2]) == ["Köln", "Köln"], bad.tolist()
    (True, [False, False, True, True])
    """
    if len(values) == 0:
        return values, np.zeros(0, dtype=bool)
    import pyarrow as pa
    import pyarrow.compute as pc

    arr = pa.array(np.asarray(values, dtype=object), type=pa.string())
    bad = np.asarray(pc.match_substring_regex(arr, pattern=INVISIBLE).fill_null(False), dtype=bool)
    nfc = pc.utf8_normalize(arr, form="NFC")
    return pd.Index(nfc.to_pylist(), dtype="str"), bad


def group_key(col: pd.Series, name: str) -> pd.Categorical:
    """A declared group key as a categorical of stripped NFC strings (only used categories, sorted;
    values with invisible characters refused, see :func:`one_spelling`).
    A categorical column (labels and keys are read as Arrow dictionaries) keeps its small codes:
    only its categories are stripped and sorted, the rows are remapped through a lookup table."""
    if isinstance(col.dtype, pd.CategoricalDtype):
        codes = category_codes(col)
        uniques = pd.Index(col.cat.categories)
    else:
        codes, uniques = factorize(col)
    names = pd.Index(uniques.astype(str)).str.strip() if len(uniques) else pd.Index([], dtype="str")
    names, invisible = one_spelling(names)  # NFC: one spelling of each key (on the distinct values)
    if invisible.any():
        hidden = invisible[np.maximum(codes, 0)] & (codes >= 0)
        if hidden.any():
            raise InputError(f"group key {shown(name)} holds invisible characters (zero-width, "
                             "format, bidirectional "
                             f"or control characters) at {row_numbers(hidden)} "
                             f"({int(hidden.sum()):,} rows); they "
                             "would make groups that print alike: remove them from the data.")
    blank = np.asarray(names == "", dtype=bool)
    if len(codes) and (int(codes.min()) < 0 or (blank.any() and bool(blank[codes].any()))):
        missing = (codes < 0) | (blank[np.maximum(codes, 0)] if len(blank) else False)
        raise InputError(f"group key {name!r} is empty or missing at "
                         f"{row_numbers(np.asarray(missing))}; "
                         "fill or drop those rows.")
    used = code_counts(codes, len(names)) > 0 if len(codes) else np.zeros(len(names), dtype=bool)
    cats, inverse = np.unique(np.asarray(names, dtype=object)[used].astype(str),
                              return_inverse=True)
    small = small_int(len(cats))
    # validate=False below: the codes were checked non-negative, and each used code maps into cats
    if used.all() and np.array_equal(inverse, np.arange(len(names))) and codes.dtype == small:
        # as wanted (a copy: the raw column's codes are read-only, the caller's table may be written
        # to)
        return pd.Categorical.from_codes(codes.copy(), categories=pd.Index(cats, dtype="str"),
                                         validate=False)
    remap = np.full(len(names), -1, dtype=small)
    remap[np.flatnonzero(used)] = inverse
    return pd.Categorical.from_codes(recode(remap, codes), categories=pd.Index(cats, dtype="str"),
                                     validate=False)


#: A group key with more distinct values than this share of the rows (and at least
#: :data:`ID_LIKE_MIN_ROWS` rows) looks like an id: most groups would hold one or two events.
ID_LIKE_SHARE = 0.5
ID_LIKE_MIN_ROWS = 1000


def warn_id_like(name: str, key: pd.Categorical) -> None:
    """Warn when a group key looks like an id (distinct values per row, not a count: 50,000
    sitekeys over millions of events are normal groups)."""
    rows, distinct = len(key), len(key.categories)
    if rows >= ID_LIKE_MIN_ROWS and distinct > ID_LIKE_SHARE * rows:
        warnings.warn(BudgetlabWarning(
            f"group key {shown(name)} has {distinct:,} distinct values over {rows:,} rows "
            f"({distinct / rows:.0%}): it "
            "looks like an id, not a group, and each group would hold one or two events; drop it "
            "from "
            f"{say('by=', '--by')} or group by a coarser key."), stacklevel=3)
