"""Keyed hashing of values (``pii="hash"``, ``hash_session``): equal values stay equal, the
originals cannot be recomputed without the salt."""

from __future__ import annotations

import hashlib

import numpy as np
import pandas as pd
import pyarrow as pa

from .._util.codes import factorize
from ..errors import ConfigError

__all__ = ["hash_values"]


def _hashed(strs: np.ndarray, key: str,
            valid: np.ndarray | None = None) -> pd.api.extensions.ExtensionArray:
    """SipHash-2-4 of strings as 16 lower-case hex digits (one Arrow buffer, written by
    :meth:`bytes.hex`); rows where ``valid`` is False are missing."""
    values = pd.util.hash_array(strs, hash_key=key, categorize=False)
    bitmap = None if valid is None or valid.all() \
        else pa.py_buffer(np.packbits(valid, bitorder="little"))
    offsets = pa.py_buffer(np.arange(0, 16 * len(values) + 1, 16, dtype=np.int64))
    chars = pa.py_buffer(values.astype(">u8").tobytes().hex().encode("ascii"))
    arr = pa.Array.from_buffers(pa.large_string(), len(values), [bitmap, offsets, chars])
    out: pd.api.extensions.ExtensionArray = pd.array(arr, dtype=pd.StringDtype("pyarrow"))
    return out


def hash_values(column: pd.Series, salt: str) -> pd.Series:
    """Keyed hash of each value: 16 hex digits of SipHash-2-4 (a keyed pseudo-random function,
    via :func:`pandas.util.hash_array`) with a key derived from ``salt`` (SHA-256, 7 bits per
    byte: 112 bits).

    Equal values get equal hashes, so ids stay joinable; without the salt the originals cannot be
    recomputed from a guess (an unkeyed hash of an IPv4 address is reversed by trying all 2**32).
    Missing values stay missing; a categorical stays categorical. Mostly distinct values (ids,
    judged on the first 20,000) are hashed row by row, others once per distinct value.

    >>> h = hash_values(pd.Series(["a", "a", "b", None]), salt="s")
    >>> h.nunique(), h.isna().tolist()
    (2, [False, False, False, True])
    >>> len(h[0])
    16
    """
    if not isinstance(salt, str) or not salt:
        raise ConfigError("pii='hash' and hash_session need salt='a secret string' (keep it out "
                          "of the data).")
    digest = hashlib.sha256(b"budgetlab.pii/v1\x00" + salt.encode("utf-8")).digest()[:16]
    key = bytes(b & 0x7F for b in digest).decode("ascii")
    head = column.iloc[:20_000].dropna()
    if not isinstance(column.dtype, pd.CategoricalDtype) and head.nunique() > 0.5 * len(head) > 0:
        valid = column.notna().to_numpy()
        rows = _hashed(np.asarray(column.astype(str).where(valid, ""), dtype=object), key, valid)
        return pd.Series(rows, index=column.index, name=column.name)
    codes, uniques = factorize(column)
    hashed = _hashed(np.asarray(uniques.astype(str), dtype=object), key)
    if not isinstance(column.dtype, pd.CategoricalDtype):
        return pd.Series(hashed.take(codes, allow_fill=True), index=column.index, name=column.name)
    cats, inverse = np.unique(np.asarray(hashed, dtype=object).astype(str), return_inverse=True)
    codes = np.append(inverse, -1)[codes]  # code -1 (missing) stays -1
    return pd.Series(pd.Categorical.from_codes(codes, categories=pd.Index(cats, dtype="str")),
                     index=column.index, name=column.name)
