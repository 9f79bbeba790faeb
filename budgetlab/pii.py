"""Personal-data guard: refuse, drop or hash columns that look like personal data.

Only declared columns reach this point (see :func:`budgetlab.read_events`). A string column is
flagged when values look like e-mail addresses, phone numbers, IPv4/IPv6 addresses or
payment-card numbers (Luhn-valid). Findings name the column, the kind and the count of matching
values, **never a value**.
"""

from __future__ import annotations

import hashlib
import hmac
import warnings
from collections.abc import Iterable

import numpy as np
import pandas as pd

from ._validation import check_argument
from .errors import ConfigError, PersonalDataError

__all__ = ["scan_personal_data", "guard_personal_data", "hash_values"]

_PATTERNS: dict[str, str] = {
    "e-mail address": r"[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}",
    "IPv4 address": r"(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)",
    "IPv6 address": r"(?:[0-9A-Fa-f]{1,4}:){2,7}[0-9A-Fa-f]{0,4}|(?:[0-9A-Fa-f]{0,4}:){0,6}:[0-9A-Fa-f]{1,4}",
    "phone number": r"\+?\d[\d ()./-]{7,}\d",
}
_CARD = r"(?:\d[ -]?){13,19}"


def _luhn_ok(digits: pd.Series) -> np.ndarray:
    """Vectorized Luhn check over strings of digits (no Python loop over values)."""
    if digits.empty:
        return np.zeros(0, dtype=bool)
    lengths = digits.str.len().to_numpy()
    width = int(lengths.max())
    padded = digits.str.zfill(width)
    arr = np.frombuffer("".join(padded.tolist()).encode("ascii"), dtype=np.uint8).reshape(-1, width) - 48
    arr = arr[:, ::-1].astype(np.int64)
    doubled = arr[:, 1::2] * 2
    doubled = np.where(doubled > 9, doubled - 9, doubled)
    total = arr[:, 0::2].sum(axis=1) + doubled.sum(axis=1)
    return np.asarray(total % 10 == 0)


def scan_personal_data(column: pd.Series, *, sample: int = 100_000) -> dict[str, int]:
    """Count the values of ``column`` that look like each kind of personal data.

    Only distinct values are scanned (at most ``sample`` of them, spread over the column).

    >>> scan_personal_data(pd.Series(["a@b.org", "x", "10.0.0.1"]))
    {'e-mail address': 1, 'IPv4 address': 1}
    >>> scan_personal_data(pd.Series(["sk_3f9a", "rc_v2"]))
    {}
    """
    if not (pd.api.types.is_string_dtype(column) or column.dtype == object or isinstance(column.dtype, pd.CategoricalDtype)):
        return {}
    values = pd.Series(pd.unique(column.dropna().astype(str)), dtype=object)
    if len(values) > sample:
        values = values.iloc[np.linspace(0, len(values) - 1, sample).astype(np.int64)]
    text = values.astype(str).str.strip()
    found: dict[str, int] = {}
    for kind, pattern in _PATTERNS.items():
        hits = int(text.str.fullmatch(pattern).sum()) if kind != "e-mail address" else int(text.str.contains(pattern).sum())
        if kind == "phone number":
            # a phone number has 8..15 digits; long digit runs are card numbers or ids
            digits = text.str.replace(r"\D", "", regex=True)
            m = text.str.fullmatch(pattern) & digits.str.len().between(8, 15) & ~text.str.fullmatch(r"\d{4}-\d\d-\d\d.*")
            hits = int(m.sum())
        if hits:
            found[kind] = hits
    cand = text[text.str.fullmatch(_CARD)]
    if len(cand):
        digits = cand.str.replace(r"\D", "", regex=True)
        digits = digits[digits.str.len().between(13, 19)]
        cards = int(_luhn_ok(digits).sum()) if len(digits) else 0
        if cards:
            found["payment-card number"] = cards
    return found


def hash_values(column: pd.Series, salt: str) -> pd.Series:
    """Keyed hash (HMAC-SHA256, first 16 hex digits) of each distinct value: ids stay joinable,
    the originals are not recoverable without the salt.

    >>> hash_values(pd.Series(["a", "a", "b"]), salt="s").nunique()
    2
    """
    if not isinstance(salt, str) or not salt:
        raise ConfigError("pii='hash' and hash_session need salt='a secret string' (keep it out of the data).")
    key = salt.encode()
    codes, uniques = pd.factorize(column.astype("string"), use_na_sentinel=True)
    hashed = np.array(
        [hmac.new(key, str(u).encode(), hashlib.sha256).hexdigest()[:16] for u in uniques], dtype=object
    )
    out = pd.Series(pd.NA, index=column.index, dtype="string")
    valid = codes >= 0
    out[valid] = hashed[codes[valid]]
    return out


def guard_personal_data(
    frame: pd.DataFrame, columns: Iterable[str], *, pii: str = "error", salt: str | None = None
) -> pd.DataFrame:
    """Apply the ``pii`` policy to ``columns`` of ``frame`` (returns a new frame).

    ``"error"`` raises :class:`PersonalDataError`; ``"drop"`` drops the column with a warning
    naming it; ``"hash"`` replaces values by :func:`hash_values`.
    """
    check_argument("pii", pii, ("error", "drop", "hash"))
    out = frame
    for col in columns:
        found = scan_personal_data(frame[col])
        if not found:
            continue
        what = ", ".join(f"{n} value(s) like {k}" for k, n in found.items())
        if pii == "error":
            raise PersonalDataError(
                f"column {col!r} looks like personal data ({what}); personal data must not enter the "
                "budget log. Do not declare it, or pass pii='drop' or pii='hash' with a salt."
            )
        if out is frame:
            out = frame.copy()
        if pii == "drop":
            warnings.warn(f"dropped column {col!r}: it looks like personal data ({what}).", UserWarning, stacklevel=3)
            out = out.drop(columns=[col])
        else:
            out[col] = hash_values(frame[col], salt if salt is not None else "")
    return out
