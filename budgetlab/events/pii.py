"""Personal-data guard: refuse, drop or hash columns that look like personal data.

Only declared columns reach this point (see :func:`budgetlab.read_events`); every other column
is never loaded. A value looks like personal data when it holds, anywhere in it,

* an **e-mail address**: a local part (letters of any script, digits, ``.!#$%&'*+/=?^_`{|}~-``,
  or a quoted string such as ``"john doe"``), an at sign (``@``, the full-width ``＠`` or the
  URL-encoded ``%40``) and a domain of one or more labels (letters of any script, digits,
  hyphens) ending in a top-level domain of two or more letters or an ``xn--`` label: ``иван@почта.рф``,
  ``José.Müller@example.org``, ``USER+tag@mail.example.org``;
* an **IPv4 address**: four numbers 0-255 joined by dots, not part of a longer dotted number
  (``client=192.0.2.7;``). A version string of four such numbers (``1.2.3.4``) cannot be told
  from an address and counts as one; ``32.0.1700.77`` and ``1.2.3`` do not;
* an **IPv6 address**, full or compressed, with an IPv4 tail, zone, brackets or port, not inside
  a longer run of hex digits, letters or colons (``sess-2001:db8::1``, ``[fe80::1%eth0]:443``).
  ``::`` alone, ``a:b``, ``1:2:3`` and times such as ``12:30:45`` are not addresses;
* a **phone number**, decided by how it is written, never by a digit count alone: 8 to 15 digits
  after a ``+`` (``+79161234567``, ``+7 (916) 123-45-67``, ``call +44 20 7946 0958 now``,
  ``tel:+7…``); an area code in brackets followed by the local number (``(495) 123-45-67``,
  ``8 (495) 123-45-67``); a phone keyword (``tel:``, ``phone``, ``тел.``, ...) before digits; a
  whole value of digit groups joined by spaces, ``-``, ``.`` or ``/`` (8 to 15 digits, a first
  group of at most 5 digits, two separators or at least 9 digits: ``495-123-4567``,
  ``030 1234567``); inside text, groups joined by spaces or dashes (a first group of at most 5
  digits, then two to six groups of 2 to 5 digits, 9 to 15 digits in all: ``call 495-123-4567
  now``). Dates (``2026-11-30``, ``30.11.2026``), decimals (``12345678.5``), IPv4 addresses
  and versions with a one-digit part (``10.0.19041.1``) are not
  phone numbers, and **a bare run of digits never is** (a numeric session id of any length).
  A number written with spaces between thousands (``1 234 567 890``) is written like a phone
  number and counts as one;
* a **payment-card number**: 13 to 19 digits, first digit 2-6, Luhn-valid, as the whole value
  (bare or grouped by spaces or dashes) or inside text when grouped (``4111 1111 1111 1111``).

Opaque ids are not personal data: bare digit runs, UUIDs, ULIDs, hex and base64 tokens,
sitekeys, pod names, timestamps, durations, paths. Card numbers without separators are told from
numeric ids by the Luhn check over the column: random digit strings pass it one time in ten, so
at least half of a column's bare card-shaped values must pass (a lone Luhn-valid number cannot
be told from a card number); in a column of hexadecimal ids the all-digit ids are not card
numbers at all. ``tests/events/test_pii_corpus.py`` measures recall on a corpus of personal
values of every kind (100 %) and precision on a corpus of opaque ids (100 %);
``tests/events/test_id_false_positives.py`` on 100,000 generated ids of each format.

Findings name the column, the kind and how many rows matched, **never a value**: not in messages,
warnings or reprs. Only distinct values are scanned, with vectorized RE2 regular expressions
(pyarrow), so the cost grows with the number of distinct values, not with the rows.
"""

from __future__ import annotations

import hashlib
import warnings
from collections.abc import Iterable
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from .._util.validation import check_argument
from .._util.words import say
from ..errors import ConfigError, PersonalDataError, PersonalDataWarning
from ._columns import category_codes, factorize
from ._detect import KINDS, PLAIN_TEXT, arrow_text, as_text, candidates, scan

__all__ = ["KINDS", "PII_MODES", "scan_text", "scan_personal_data", "guard_personal_data", "hash_values",
           "describe_findings", "looks_personal", "shown", "guard_values"]

#: What a loader's ``pii=`` may do with a declared column that looks like personal data.
PII_MODES = ("error", "drop", "hash")

def scan_text(values: Any, *, numeric: bool = False) -> dict[str, np.ndarray]:
    """Boolean masks over ``values`` (distinct strings: an array, list or Series), one per kind found.

    ``numeric=True`` (the values of an integer column) looks for card numbers only. Kinds that
    match no value are left out; a value may match several kinds (an IPv4-mapped IPv6 address).

    >>> found = scan_text(["иван@почта.рф", "(495) 123-45-67", "sess-2001:db8::1", "sess-8f3a9c"])
    >>> {kind: mask.tolist() for kind, mask in found.items()}  # doctest: +NORMALIZE_WHITESPACE
    {'e-mail address': [True, False, False, False], 'IPv6 address': [False, False, True, False],
     'phone number': [False, True, False, False]}
    """
    return scan(arrow_text(values), numeric=numeric)


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


def _arrow_backed(column: pd.Series) -> bool:
    """A string column held by pyarrow (pandas' ``str`` or ``string[pyarrow]``): its chunks go to
    the RE2 kernels as they are, without a copy."""
    dtype = column.dtype
    return isinstance(dtype, pd.StringDtype) and dtype.storage == "pyarrow" and len(column) > 0


def _scan_column(column: pd.Series) -> tuple[dict[str, int], dict[str, int]]:
    """Rows and distinct values per kind found in ``column``.

    Categoricals are scanned through their (used) categories; other columns are first narrowed
    by one vectorized prefilter over all rows, and only the distinct candidates are scanned.
    """
    kind = _kind_of_column(column)
    if kind is None or len(column) == 0:
        return {}, {}
    column_text: pa.Array | None = None  # the whole column, for the card rule (when prefiltered)
    if isinstance(column.dtype, pd.CategoricalDtype):
        uniques = pd.Index(column.cat.categories)
        if not _any_candidate(uniques, kind):  # the rows are counted only when a category may be found
            return {}, {}
        codes = category_codes(column)  # small ints, as stored: no copy of the rows
        counts = np.bincount(codes[codes >= 0] if int(codes.min()) < 0 else codes, minlength=len(uniques))
        used = counts > 0
        uniques, counts = uniques[used], counts[used]
    elif kind == "numeric":
        values = column.dropna().to_numpy()
        big = np.abs(values.astype(np.float64)) >= 1e12  # a card number has 13 digits or more
        codes, uniq = pd.factorize(values[big])
        uniques, counts = pd.Index(uniq), np.bincount(codes, minlength=len(uniq))
    else:
        if _arrow_backed(column):
            text = pd.Series(column.array, copy=False).reset_index(drop=True)  # Arrow strings as they are
        elif pd.api.types.is_string_dtype(column.dtype) and not pd.api.types.is_object_dtype(column.dtype):
            text = as_text(column)
        else:
            try:
                text = as_text(column.astype(str).where(column.notna()))
            except UnicodeEncodeError:  # lone surrogates (surrogateescape) cannot be Arrow text: read as "?"
                text = as_text(column.map(lambda v: v.encode("utf-8", "replace").decode("utf-8")
                                          if isinstance(v, str) else v).astype(str).where(column.notna()))
        cand = candidates(text)  # plain-id chunks pass by one byte scan
        if not cand.any():
            return {}, {}
        column_text = arrow_text(text, chunked=True)
        cand_codes, cand_uniq = pd.factorize(text[cand], use_na_sentinel=True)
        uniques = pd.Index(cand_uniq)
        counts = np.bincount(cand_codes[cand_codes >= 0], minlength=len(cand_uniq))
    if len(uniques) == 0:
        return {}, {}
    masks = _scan_values(uniques, kind, column_text)
    rows = {k: int(counts[m].sum()) for k, m in masks.items()}
    distinct = {k: int(m.sum()) for k, m in masks.items()}
    return rows, distinct


def _as_scanned(uniques: pd.Index, kind: str) -> Any:
    """Distinct values as the scan reads them: text as it is, numbers and other values as text."""
    if kind == "numeric":
        return np.asarray(uniques).astype(str).astype(object)
    if pd.api.types.is_string_dtype(uniques.dtype) and not pd.api.types.is_object_dtype(uniques.dtype):
        return uniques
    return np.asarray(uniques.astype(str), dtype=object)


def _any_candidate(uniques: pd.Index, kind: str) -> bool:
    """Whether any of ``uniques`` passes the per-value prefilter of :func:`~budgetlab.events._detect.scan`
    (a superset of every rule; judged value by value, so a subset of them passes it no more)."""
    if kind == "numeric":
        values = np.asarray(uniques).astype(np.float64)
        return bool((np.abs(values[~np.isnan(values)]) >= 1e12).any())
    return bool(candidates(arrow_text(_as_scanned(uniques, kind))).any())


def _scan_values(uniques: pd.Index, kind: str, column_text: pa.Array | None = None) -> dict[str, np.ndarray]:
    """:func:`~budgetlab.events._detect.scan` over distinct values (numbers as their digits)."""
    return scan(arrow_text(_as_scanned(uniques, kind)), numeric=kind == "numeric", column=column_text)


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
    by_name: Iterable[str] = (),
) -> pd.DataFrame:
    """Apply the ``pii`` policy to ``columns`` of ``frame`` (returns a new frame if anything changed).

    ``"error"`` raises :class:`PersonalDataError`; ``"drop"`` drops the column with a
    :class:`PersonalDataWarning` naming it; ``"hash"`` replaces values by :func:`hash_values`.
    Columns in ``required`` (e.g. the outcome column) cannot be dropped or hashed: personal data
    there is always an error. Columns in ``by_name`` (group keys whose names denote people, see
    :func:`names_a_person`) are flagged by their name when their values look plain. Messages name
    the column, the kind and the count, never a value.

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
        raise ConfigError(say("pii='hash' needs salt='a secret string'", "--pii hash needs --salt S (a secret string)")
                          + " (keep it out of the data).")
    must = set(required)
    named = set(by_name)
    out = frame
    plain_text = frame.attrs.get(PLAIN_TEXT, frozenset())  # found plain while read: nothing to scan
    for col in dict.fromkeys([*must, *columns, *named]):
        if col not in out.columns or (col in plain_text and col not in named):
            continue
        rows, distinct = _scan_column(frame[col]) if col not in plain_text else ({}, {})
        if not rows and col not in named:
            continue
        what = describe_findings(rows, distinct) if rows else "its name denotes people or accounts"
        if not rows and pii == "error":
            raise PersonalDataError(
                f"group key {col!r} is named like personal data (people or accounts): groups must not identify "
                "people. Do not declare it, or pass "
                + say(f"pii='hash' with salt= to keep it as a keyed hash, or not_personal=[{col!r}] if it names no "
                      "person.", f"--pii hash --salt S to keep it as a keyed hash, or --not-personal {col} if it "
                      "names no person.")
            )
        if col in must:
            raise PersonalDataError(
                f"column {col!r} looks like personal data ({what}); it is declared as a required column "
                "(time/outcome/ok/bucket), so it cannot be dropped or hashed: check which column you declared."
            )
        if pii == "error":
            raise PersonalDataError(
                f"column {col!r} looks like personal data ({what}); personal data must not enter the "
                "budget log. Do not declare it, or pass "
                + say("pii='drop' to drop it or pii='hash' with a salt to keep it as a keyed hash.",
                      "--pii drop to drop it or --pii hash --salt S to keep it as a keyed hash.")
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


# --------------------------------------------------------------------------------------------
# one value, a few values: what messages and outputs may show
# --------------------------------------------------------------------------------------------
_NOT_SHOWN = "a value that looks like personal data (not shown)"


def looks_personal(value: Any) -> bool:
    """``True`` when one value (as text) looks like personal data to the detector.

    >>> looks_personal("иван@почта.рф"), looks_personal("(495) 123-45-67"), looks_personal("sess-2001:db8::1")
    (True, True, True)
    >>> looks_personal("turnstile"), looks_personal("4829301746521"), looks_personal("2026-11-30")
    (False, False, False)
    """
    return any(bool(mask[0]) for mask in scan_text([str(value)]).values())


def shown(value: Any, limit: int = 40) -> str:
    """A user value as a message may show it: quoted (``repr``, so on one line) and cut to
    ``limit`` characters when it passes the detector, else a placeholder that shows nothing of it.

    The shortened text is checked too: cutting ``192.0.2.71234`` after ``192.0.2.7`` would
    make an address, so such a value is not shown either.

    >>> shown("turnstile"), shown("ivan@example.org")
    ("'turnstile'", 'a value that looks like personal data (not shown)')
    >>> shown("x" * 50, limit=8)
    "'xxxxxxxx…'"
    >>> shown("192.0.2.71234", limit=9)
    'a value that looks like personal data (not shown)'
    """
    text = str(value)
    cut = text[:max(int(limit), 1)]
    if looks_personal(text) or (cut != text and looks_personal(cut)):
        return _NOT_SHOWN
    return repr(cut + ("…" if cut != text else ""))


def guard_values(values: Any, *, what: str) -> None:
    """Refuse user values (group keys, labels, names) that look like personal data, before they
    become a name, label or title of an output: :class:`PersonalDataError` that counts them per
    kind, never shows them. ``what`` names where they come from (e.g. "the 'group' column of
    rec.csv"); it is put into the message as given, so it must not hold a user value itself.

    >>> guard_values(["turnstile", "image"], what="group keys")
    >>> guard_values(["turnstile", "ivan@example.org", "иван@почта.рф", "+7 916 123-45-67"], what="group keys")
    Traceback (most recent call last):
    ...
    budgetlab.errors.PersonalDataError: group keys: 3 of 4 value(s) look like personal data (2 like an e-mail address, 1 like a phone number); ...
    """
    texts = [str(v) for v in values]
    found = scan_text(np.asarray(texts, dtype=object)) if texts else {}
    if not found:
        return
    flagged = np.zeros(len(texts), dtype=bool)
    for mask in found.values():
        flagged |= mask
    kinds = ", ".join(f"{int(mask.sum())} like {'an' if kind[0] in 'aeiouIE' else 'a'} {kind}"
                      for kind, mask in found.items())
    raise PersonalDataError(f"{what}: {int(flagged.sum())} of {len(texts)} value(s) look like personal data ({kinds}); "
                            "budgetlab does not write personal data into outputs or messages: replace them with "
                            "opaque ids (or hash them on load: read_events(..., pii='hash', salt=...), CLI --pii hash "
                            "--salt ...).")
