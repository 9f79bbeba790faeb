"""Personal-data guard: refuse, drop or hash columns that look like personal data.

Only declared columns reach this point (see :func:`budgetlab.read_events`); every other column
is never loaded. A declared column is flagged when its values look like

* e-mail addresses (anywhere in the value),
* IPv4 addresses (anywhere in the value) or IPv6 addresses (the whole value),
* phone numbers (the whole value: 8 to 15 digits written the way phone numbers are written, with
  a leading ``+`` or with separators such as spaces, ``-``, ``()`` or ``.``; never a bare run of
  digits, and never an IPv4 address),
* payment-card numbers (the whole value: 13 to 19 digits, Luhn-valid, first digit 2-6).

Opaque ids are not personal data: a run of digits without separators (a numeric session id of
any length), UUIDs, hex and base64 tokens and sitekeys are never phone numbers. Card numbers
without separators are told from numeric ids by the Luhn check over the column: random digit
strings pass it one time in ten, so at least half of a column's bare card-shaped values must
pass; in a column of hexadecimal ids the all-digit ids are not card numbers at all.
``tests/events/test_id_false_positives.py`` measures this on 100,000 generated ids of each format.

Findings name the column, the kind and how many rows matched, **never a value**: not in messages,
warnings or reprs. Only distinct values are scanned (vectorized string operations), so the cost
grows with the number of distinct values, not with the rows.
"""

from __future__ import annotations

import hashlib
import warnings
from collections.abc import Iterable
from typing import Any

import numpy as np
import pandas as pd

from .._util.validation import check_argument
from ..errors import ConfigError, PersonalDataError, PersonalDataWarning
from ._columns import factorize

__all__ = ["KINDS", "PII_MODES", "scan_personal_data", "guard_personal_data", "hash_values", "describe_findings",
           "looks_personal", "shown", "guard_values"]

#: The kinds of personal data the guard recognises, in the order findings are reported.
KINDS = ("e-mail address", "IPv4 address", "IPv6 address", "phone number", "payment-card number")
#: What a loader's ``pii=`` may do with a declared column that looks like personal data.
PII_MODES = ("error", "drop", "hash")

_EMAIL = r"[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}"
_OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])"
_IPV4 = rf"{_OCTET}(?:\.{_OCTET}){{3}}"
# an IPv4 address inside text: not part of a longer dotted number (versions like 32.0.1700.77)
_IPV4_IN_TEXT = rf"(?:^|[^0-9.]|(?:^|[^0-9])\.){_IPV4}(?:$|[^0-9.]|\.(?:$|[^0-9]))"
_H = r"[0-9A-Fa-f]{1,4}"
_IPV6 = (
    rf"\[?(?:(?:{_H}:){{7}}{_H}"  # full form
    rf"|(?:(?:{_H}:){{0,6}}{_H})?::(?:(?:{_H}:){{0,6}}{_H})?"  # compressed
    rf"|(?:(?:{_H}:){{6}}|(?:(?:{_H}:){{0,5}}{_H})?::(?:(?:{_H}:){{0,4}})?){_IPV4}"  # IPv4 tail
    r")(?:%[0-9A-Za-z_.-]+)?\]?(?::[0-9]{1,5})?"
)
_IPV6_FULL_IN_TEXT = rf"(?:^|[^0-9A-Za-z:])(?:{_H}:){{7}}{_H}(?:$|[^0-9A-Za-z:])"
_PHONE = r"\+?[0-9][0-9 ()./-]{6,}[0-9]"
_DATE_LIKE = r"[0-9]{4}[-/.][0-9]{1,2}[-/.][0-9]{1,2}.*|[0-9]{1,2}[-/.][0-9]{1,2}[-/.][0-9]{4}.*"
_DECIMAL = r"[+-]?[0-9]+\.[0-9]+"
_CARD = r"[0-9](?:[ -]?[0-9]){12,18}"


def _as_text(values: Any) -> pd.Series:
    """Values as a pyarrow-backed string Series (vectorized regex through RE2)."""
    if isinstance(values, (pd.Series, pd.Index)) and pd.api.types.is_string_dtype(values.dtype):
        return pd.Series(values, copy=False).reset_index(drop=True).astype("string[pyarrow]")
    return pd.Series(np.asarray(values, dtype=object), dtype="string[pyarrow]")


def _luhn_ok(digits: pd.Series) -> np.ndarray:
    """Vectorized Luhn check over strings of digits (no Python loop over values)."""
    if digits.empty:
        return np.zeros(0, dtype=bool)
    width = int(digits.str.len().max())
    padded = digits.str.zfill(width)
    arr = np.frombuffer("".join(padded.tolist()).encode("ascii"), dtype=np.uint8).reshape(-1, width)
    digits_arr = arr[:, ::-1].astype(np.int64) - 48
    doubled = digits_arr[:, 1::2] * 2
    doubled = np.where(doubled > 9, doubled - 9, doubled)
    total = digits_arr[:, 0::2].sum(axis=1) + doubled.sum(axis=1)
    return np.asarray(total % 10 == 0)


def scan_text(values: Any, *, numeric: bool = False) -> dict[str, np.ndarray]:
    """Boolean masks (one per kind found) over ``values``, distinct strings (array or Series)."""
    text = _as_text(values).str.strip()
    n = len(text)
    found: dict[str, np.ndarray] = {}
    if n == 0:
        return found

    def subset_mask(pre: pd.Series, pattern: str, *, full: bool) -> np.ndarray:
        mask = np.zeros(n, dtype=bool)
        pre_arr = pre.fillna(False).to_numpy(dtype=bool)
        if pre_arr.any():
            sub = text[pre_arr]
            hit = sub.str.fullmatch(pattern) if full else sub.str.contains(pattern, regex=True)
            mask[pre_arr] = hit.fillna(False).to_numpy(dtype=bool)
        return mask

    if not numeric:
        found["e-mail address"] = subset_mask(text.str.contains("@", regex=False), _EMAIL, full=False)
        found["IPv4 address"] = subset_mask(text.str.contains(".", regex=False), _IPV4_IN_TEXT, full=False)
        colon = text.str.contains(":", regex=False)
        ipv6 = subset_mask(colon, _IPV6, full=True) | subset_mask(colon, _IPV6_FULL_IN_TEXT, full=False)
        ipv6 &= (text != "::").fillna(False).to_numpy(dtype=bool)
        found["IPv6 address"] = ipv6
    numberish = text.str.fullmatch(r"\+?[0-9 ()./-]{8,}").fillna(False).to_numpy(dtype=bool)
    if numberish.any():
        sub = text[numberish]
        digits = sub.str.replace(r"[^0-9]", "", regex=True)
        ndig = digits.str.len().to_numpy()
        plain = (sub == digits).to_numpy(dtype=bool)  # only digits, no + or separators
        if plain.any() and not numeric:
            # a column of hexadecimal ids: its all-digit ids are ids too, not numbers
            hexy = text.str.fullmatch(r"[0-9A-Fa-f]{8,}") & text.str.contains(r"[A-Fa-f]", regex=True)
            if int(hexy.fillna(False).sum()) > int(plain.sum()):
                plain_ok = ~plain
            else:
                plain_ok = np.ones(len(sub), dtype=bool)
        else:
            plain_ok = np.ones(len(sub), dtype=bool)
        if not numeric:
            phone = sub.str.fullmatch(_PHONE).to_numpy(dtype=bool) & (ndig >= 8) & (ndig <= 15) & ~plain
            phone &= ~sub.str.fullmatch(_DATE_LIKE).to_numpy(dtype=bool)
            phone &= ~sub.str.fullmatch(_DECIMAL).to_numpy(dtype=bool)
            phone &= ~sub.str.fullmatch(_IPV4).to_numpy(dtype=bool)
            phone &= plain_ok
            mask = np.zeros(n, dtype=bool)
            mask[numberish] = phone
            found["phone number"] = mask
        cand = sub.str.fullmatch(_CARD).to_numpy(dtype=bool) & (ndig >= 13) & (ndig <= 19) & plain_ok
        cand &= digits.str.slice(0, 1).isin(["2", "3", "4", "5", "6"]).to_numpy(dtype=bool)
        if cand.any():
            valid = np.zeros(len(sub), dtype=bool)
            valid[cand] = _luhn_ok(digits[cand])
            bare = cand & plain
            # bare digits: a card number only where the column is mostly Luhn-valid (ids pass 1 in 10)
            if int((valid & bare).sum()) * 2 < int(bare.sum()):
                valid &= ~bare
            mask = np.zeros(n, dtype=bool)
            mask[numberish] = valid
            found["payment-card number"] = mask
    return {k: found[k] for k in KINDS if k in found and found[k].any()}


def _kind_of_column(column: pd.Series) -> str | None:
    """``"text"`` for string-like columns, ``"numeric"`` for integer columns, else ``None``."""
    dtype = column.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        dtype = dtype.categories.dtype
    if pd.api.types.is_bool_dtype(dtype):
        return None
    if pd.api.types.is_integer_dtype(dtype):
        return "numeric"
    if pd.api.types.is_string_dtype(dtype) or pd.api.types.is_object_dtype(dtype):
        return "text"
    return None


# a value can only be personal data of some kind if it holds @, '.', ':' or a run of 8 digit-ish chars
_PREFILTER = r"[@.:]|[0-9 ()/+-]{8}"


def _scan_column(column: pd.Series) -> tuple[dict[str, int], dict[str, int]]:
    """Rows and distinct values per kind found in ``column``.

    Categoricals are scanned through their (used) categories; other columns are first narrowed
    by one vectorized prefilter over all rows, and only the distinct candidates are scanned.
    """
    kind = _kind_of_column(column)
    if kind is None or len(column) == 0:
        return {}, {}
    if isinstance(column.dtype, pd.CategoricalDtype):
        codes, uniques = factorize(column)
        counts = np.bincount(codes[codes >= 0], minlength=len(uniques))
        used = counts > 0
        uniques, counts = uniques[used], counts[used]
    elif kind == "numeric":
        values = column.dropna().to_numpy()
        big = np.abs(values.astype(np.float64)) >= 1e12  # a card number has 13 digits or more
        codes, uniq = pd.factorize(values[big])
        uniques, counts = pd.Index(uniq), np.bincount(codes, minlength=len(uniq))
    else:
        text = _as_text(column if pd.api.types.is_string_dtype(column.dtype) and
                        not pd.api.types.is_object_dtype(column.dtype) else column.astype(str).where(column.notna()))
        cand = text.str.contains(_PREFILTER, regex=True).fillna(False).to_numpy(dtype=bool)
        cand_codes, cand_uniq = pd.factorize(text[cand], use_na_sentinel=True)
        uniques = pd.Index(cand_uniq)
        counts = np.bincount(cand_codes[cand_codes >= 0], minlength=len(cand_uniq))
    if len(uniques) == 0:
        return {}, {}
    values_any: Any
    if kind == "numeric":
        values_any = np.asarray(uniques).astype(str).astype(object)
    elif pd.api.types.is_string_dtype(uniques.dtype) and not pd.api.types.is_object_dtype(uniques.dtype):
        values_any = uniques
    else:
        values_any = np.asarray(uniques.astype(str), dtype=object)
    masks = scan_text(values_any, numeric=kind == "numeric")
    rows = {k: int(counts[m].sum()) for k, m in masks.items()}
    distinct = {k: int(m.sum()) for k, m in masks.items()}
    return rows, distinct


def scan_personal_data(column: pd.Series, *, sample: int | None = None) -> dict[str, int]:
    """Count the rows of ``column`` whose values look like each kind of personal data.

    Every distinct value is scanned, whatever ``sample`` says (a sample could miss the one
    e-mail address among a million ids).
    String-like columns are checked for every kind, integer columns for card numbers only.

    >>> scan_personal_data(pd.Series(["a@b.org", "x", "10.0.0.1", "10.0.0.1"]))
    {'e-mail address': 1, 'IPv4 address': 2}
    >>> scan_personal_data(pd.Series(["sk_3f9a", "rc_v2", "fra"]))
    {}
    """
    return _scan_column(column)[0]


def describe_findings(rows: dict[str, int], distinct: dict[str, int] | None = None) -> str:
    """Kinds and counts as text for messages (never values).

    >>> describe_findings({"IPv4 address": 10000}, {"IPv4 address": 1753})
    '10000 row(s) like an IPv4 address (1753 distinct values)'
    """
    parts = []
    for kind, n in rows.items():
        article = "an" if kind[0] in "aeiouIE" else "a"
        extra = f" ({distinct[kind]} distinct values)" if distinct and kind in distinct else ""
        parts.append(f"{n} row(s) like {article} {kind}{extra}")
    return ", ".join(parts)


# --------------------------------------------------------------------------------------------
# keyed hashing
# --------------------------------------------------------------------------------------------
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


# --------------------------------------------------------------------------------------------
# the guard
# --------------------------------------------------------------------------------------------
def guard_personal_data(
    frame: pd.DataFrame,
    columns: Iterable[str],
    *,
    pii: str = "error",
    salt: str | None = None,
    required: Iterable[str] = (),
) -> pd.DataFrame:
    """Apply the ``pii`` policy to ``columns`` of ``frame`` (returns a new frame if anything changed).

    ``"error"`` raises :class:`PersonalDataError`; ``"drop"`` drops the column with a
    :class:`PersonalDataWarning` naming it; ``"hash"`` replaces values by :func:`hash_values`.
    Columns in ``required`` (e.g. the outcome column) cannot be dropped or hashed: personal data
    there is always an error. Messages name the column, the kind and the count, never a value.

    >>> f = pd.DataFrame({"region": ["fra", "ams"], "user": ["a@b.org", "c@d.net"]})
    >>> guard_personal_data(f, ["region", "user"])
    Traceback (most recent call last):
    ...
    budgetlab.errors.PersonalDataError: column 'user' looks like personal data (2 row(s) like an e-mail address (2 distinct values)); personal data must not enter the budget log. Do not declare it, or pass pii='drop' to drop it or pii='hash' with a salt to keep it as a keyed hash.
    >>> list(guard_personal_data(f, ["region", "user"], pii="hash", salt="k").columns)
    ['region', 'user']
    """
    check_argument("pii", pii, PII_MODES)
    if pii == "hash" and (not isinstance(salt, str) or not salt):
        raise ConfigError("pii='hash' needs salt='a secret string' (keep it out of the data).")
    must = set(required)
    out = frame
    for col in dict.fromkeys([*must, *columns]):
        if col not in out.columns:
            continue
        rows, distinct = _scan_column(frame[col])
        if not rows:
            continue
        what = describe_findings(rows, distinct)
        if col in must:
            raise PersonalDataError(
                f"column {col!r} looks like personal data ({what}); it is declared as a required column "
                "(time/outcome/ok/bucket), so it cannot be dropped or hashed: check which column you declared."
            )
        if pii == "error":
            raise PersonalDataError(
                f"column {col!r} looks like personal data ({what}); personal data must not enter the "
                "budget log. Do not declare it, or pass pii='drop' to drop it or pii='hash' with a salt "
                "to keep it as a keyed hash."
            )
        if out is frame:
            out = frame.copy(deep=False)
        if pii == "drop":
            warnings.warn(PersonalDataWarning(f"dropped column {col!r}: it looks like personal data ({what})."),
                          stacklevel=3)
            out = out.drop(columns=[col])
        else:
            out[col] = hash_values(frame[col], salt if salt is not None else "")
    return out


def looks_personal(value: Any) -> bool:
    """``True`` when one value (text) looks like personal data to the detector.

    >>> looks_personal("ivan@example.org"), looks_personal("turnstile")
    (True, False)
    """
    found = scan_text(np.asarray([str(value)], dtype=object))
    return any(bool(mask[0]) for mask in found.values())


def shown(value: Any, limit: int = 40) -> str:
    """A user value as a message may show it: quoted and truncated when it passes the detector,
    else a placeholder (the value is never shown).

    >>> shown("turnstile"), shown("ivan@example.org")
    ("'turnstile'", 'a value that looks like personal data (not shown)')
    """
    text = str(value)
    if looks_personal(text):
        return "a value that looks like personal data (not shown)"
    return repr(text[:limit] + ("…" if len(text) > limit else ""))


def guard_values(values: Any, *, what: str) -> None:
    """Refuse user values (group keys, labels, names) that look like personal data, before they
    become a name, label or title of an output: :class:`PersonalDataError` that counts them, never
    shows them. ``what`` names where they come from (e.g. "the 'group' column of rec.csv").

    >>> guard_values(["turnstile", "image"], what="group keys")
    >>> guard_values(["turnstile", "ivan@example.org"], what="group keys")
    Traceback (most recent call last):
    ...
    budgetlab.errors.PersonalDataError: group keys: 1 value(s) look like personal data (e-mail address); ...
    """
    arr = np.asarray([str(v) for v in values], dtype=object)
    found = {k: int(m.sum()) for k, m in scan_text(arr).items() if m.any()}
    if found:
        kinds = ", ".join(sorted(found))
        n = int(sum(found.values()))
        raise PersonalDataError(f"{what}: {n} value(s) look like personal data ({kinds}); budgetlab does not write "
                                "personal data into outputs: replace them with opaque ids (or hash them with "
                                "read_events(..., pii='hash')).")
