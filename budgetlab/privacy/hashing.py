"""Keyed hashing of values (``pii="hash"``, ``hash_session``): equal values stay equal, the originals
cannot be recomputed without the salt."""

from __future__ import annotations

import hashlib

import numpy as np
import pandas as pd

from .._util.codes import factorize
from ..errors import ConfigError

__all__ = ["hash_values"]

_HEX = np.frombuffer(b"0123456789abcdef", dtype=np.uint8)


def _siphash_key(salt: str) -> str:
    """A 16-byte SipHash key derived from the salt (SHA-256, 7 bits per byte: 112 bits)."""
    digest = hashlib.sha256(b"budgetlab.pii/v1\x00" + salt.encode("utf-8")).digest()[:16]
    return bytes(b & 0x7F for b in digest).decode("ascii")


def _hex64(values: np.ndarray, valid: np.ndarray | None = None) -> pd.api.extensions.ExtensionArray:
    """uint64 values as a string array of 16 lower-case hex digits each (vectorized, built
    directly as an Arrow buffer); rows where ``valid`` is False are missing."""
    import pyarrow as pa

    n = len(values)
    b = values.astype(">u8").view(np.uint8).reshape(-1, 8)
    nib = np.empty((n, 16), dtype=np.uint8)
    nib[:, 0::2] = b >> 4
    nib[:, 1::2] = b & 15
    chars = np.ascontiguousarray(_HEX[nib])
    large = 16 * n >= 2**31
    offsets = np.arange(0, 16 * (n + 1), 16, dtype=np.int64 if large else np.int32)
    bitmap = None if valid is None or valid.all() else pa.py_buffer(np.packbits(valid, bitorder="little"))
    arr = pa.Array.from_buffers(pa.large_string() if large else pa.string(), n,
                                [bitmap, pa.py_buffer(offsets), pa.py_buffer(chars)])
    out: pd.api.extensions.ExtensionArray = pd.array(arr.cast(pa.string()) if large else arr,
                                                      dtype=pd.StringDtype("pyarrow"))
    return out


def _mostly_distinct(column: pd.Series, probe: int = 20_000) -> bool:
    """Whether most values of ``column`` are distinct, judged on its first ``probe`` values."""
    head = column.iloc[:probe].dropna()
    return len(head) > 0 and head.nunique() > 0.5 * len(head)


def hash_values(column: pd.Series, salt: str) -> pd.Series:
    """Keyed hash of each value: 16 hex digits of SipHash-2-4 (a keyed pseudo-random function,
    via :func:`pandas.util.hash_array`) with a key derived from ``salt``.

    Equal values get equal hashes, so ids stay joinable; without the salt the originals cannot be
    recomputed from a guess (an unkeyed hash of an IPv4 address is reversed by trying all 2**32).
    Missing values stay missing; a categorical stays categorical. Vectorized over distinct values.

    >>> h = hash_values(pd.Series(["a", "a", "b", None]), salt="s")
    >>> h.nunique(), h.isna().tolist()
    (2, [False, False, False, True])
    >>> len(h[0])
    16
    """
    if not isinstance(salt, str) or not salt:
        raise ConfigError("pii='hash' and hash_session need salt='a secret string' (keep it out of the data).")
    key = _siphash_key(salt)
    if not isinstance(column.dtype, pd.CategoricalDtype) and _mostly_distinct(column):
        # ids: hashing every row costs less than finding the distinct values first
        valid = column.notna().to_numpy()
        strs = np.asarray(column.astype(str).where(valid, ""), dtype=object)
        hashed_rows = _hex64(pd.util.hash_array(strs, hash_key=key, categorize=False), valid)
        return pd.Series(hashed_rows, index=column.index, name=column.name)
    codes, uniques = factorize(column)
    strs = np.asarray(uniques.astype(str), dtype=object)
    hashed = _hex64(pd.util.hash_array(strs, hash_key=key, categorize=False) if len(strs) else
                    np.zeros(0, dtype=np.uint64))
    if isinstance(column.dtype, pd.CategoricalDtype):
        cats, inverse = np.unique(np.asarray(hashed, dtype=object).astype(str), return_inverse=True)
        new_codes = np.where(codes >= 0, inverse[np.maximum(codes, 0)] if len(inverse) else -1, -1)
        return pd.Series(pd.Categorical.from_codes(new_codes, categories=pd.Index(cats, dtype="str")),
                         index=column.index, name=column.name)
    out = hashed.take(codes, allow_fill=True)
    return pd.Series(out, index=column.index, name=column.name)
