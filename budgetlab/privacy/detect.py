"""The personal-data detector: RE2 patterns (pyarrow.compute) and the vectorized checks per kind.

The rules (what counts as an e-mail or IP address, a phone or a card number, and which opaque ids
do not) are stated in ``docs/data-handling.md``, "Personal data"; recall and precision are measured
in ``tests/events/test_pii_corpus.py`` and ``tests/events/test_id_false_positives.py``. The
patterns run only over the distinct values a caller passes.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from .._util.codes import on_chunks

__all__ = ["KINDS", "CANDIDATE", "as_text", "arrow_text", "candidates", "has", "scan", "scan_text",
           "flagged"]

#: The kinds of personal data the guard recognises, in the order findings are reported.
KINDS = ("e-mail address", "IPv4 address", "IPv6 address", "phone number", "payment-card number")

# The patterns are RE2 (pyarrow.compute): no look-around, so boundaries are matched characters.
_LN = r"\p{L}\p{M}\p{N}"  # letters of any script, their marks, digits
_AT = r"(?:[@\x{FF20}\x{FE6B}]|%40)"
_DOT = r"[.\x{3002}\x{FF0E}\x{FF61}]"
_LABEL = rf"[{_LN}](?:[{_LN}-]*[{_LN}])?"
_EMAIL = (
    rf"(?:\"[^\"\r\n]+\"|[{_LN}!#$%&'*+/=?^_`{{|}}~.-]+){_AT}"
    rf"(?:(?:{_LABEL}{_DOT})+(?:[\p{{L}}\p{{M}}]{{2,}}|xn--[A-Za-z0-9-]+)|\[[0-9A-Za-z:.]+\])"
)
_OCTET = r"(?:25[0-5]|2[0-4][0-9]|[01]?[0-9]{1,2})"
_IPV4 = rf"{_OCTET}(?:\.{_OCTET}){{3}}"
# an IPv4 address inside text: not part of a longer dotted number (versions like 32.0.1700.77)
_IPV4_IN_TEXT = rf"(?:^|[^0-9.]|(?:^|[^0-9])\.){_IPV4}(?:$|[^0-9.]|\.(?:$|[^0-9]))"
_H = r"[0-9A-Fa-f]{1,4}"
_IPV6_IN_TEXT = (
    rf"(?:^|[^0-9A-Fa-f:])(?:(?:{_H}:){{7}}{_H}"  # full form
    # compressed, not "::" alone
    rf"|(?:{_H}:){{0,6}}{_H}::(?:(?:{_H}:){{0,6}}{_H})?|::(?:{_H}:){{0,6}}{_H}"
    rf"|(?:{_H}:){{6}}{_IPV4}|(?:(?:{_H}:){{0,5}}{_H})?::(?:{_H}:){{0,4}}{_IPV4}"  # IPv4 tail
    r")(?:%[0-9A-Za-z_.-]+)?(?:$|[^0-9A-Za-z:])"
)
_PHONE_PLUS = rf"(?:^|[^\p{{N}}+])\+[1-9](?:[ ./()-]{{0,2}}[0-9]){{7,14}}(?:$|[^{_LN}_+/=-])"
_PHONE_BRACKETS = (rf"(?:^|[^\p{{N}}])(?:\+?[0-9]{{1,3}}[ .-]?)?\([0-9]{{2,5}}\)[ .-]?[0-9]"
                   rf"(?:[ .-]?[0-9]){{5,10}}(?:$|[^{_LN}_])")
_KEYWORD = "(?i:tel|phone|mobile|fax|тел|телефон|моб|факс)"
_PHONE_KEYWORD = rf"(?:^|[^\p{{L}}]){_KEYWORD}(?:[.:]\s*|\s+)\+?\(?[0-9][0-9 ()./-]{{6,}}[0-9]"
_PHONE_WRITTEN = f"{_PHONE_PLUS}|{_PHONE_BRACKETS}|{_PHONE_KEYWORD}"  # a phone number by its form
_PHONE_GROUPS = r"[0-9]{1,5}(?:[ ./-][0-9]+)+"  # a whole value of digit groups
_PHONE_IN_TEXT = (r"(?:^|[\s:;,=(\[<>\"'])(?P<m>[0-9]{1,5}(?:[ -][0-9]{2,5}){2,6})"
                  r"(?:$|[\s;,.!?)\]<>\"'&])")
_CARD = r"[0-9](?:[ -]?[0-9]){12,18}"
_CARD_WHOLE = rf"^(?:{_CARD})$"
# one pass finds the values that may hold personal data of some kind (a superset of every rule
# below: an at sign, '%', '.', ':', '+', '(', a phone keyword, a short first digit group and a
# separator, two groups of 4 digits, or a whole value shaped like a card number)
_PHONE_ANY = rf"[+(]|(?:^|[\s:;,=\[<>\"'])[0-9]{{1,5}}[ ./-][0-9]|{_KEYWORD}"
CANDIDATE = rf"[@\x{{FF20}}\x{{FE6B}}%.:]|{_PHONE_ANY}|[0-9]{{4}}[ -][0-9]{{4}}|{_CARD_WHOLE}"
_DATE_LIKE = (r"(?:[0-9]{4}[-/. ][0-9]{1,2}[-/. ][0-9]{1,2}"
              r"|[0-9]{1,2}[-/. ][0-9]{1,2}[-/. ][0-9]{4})(?:[^0-9].*)?")
_DATE_TIME_IN_TEXT = (r"[0-9]{4}[-/.][0-9]{1,2}[-/.][0-9]{1,2}"
                      r"(?:[T ][0-9]{1,2}:[0-9]{2}(?::[0-9]{2}(?:[.,][0-9]+)?)?)?"
                      r"|[0-9]{1,2}[-/.][0-9]{1,2}[-/.][0-9]{4}")
_DECIMAL = r"[+-]?[0-9]+\.[0-9]+"
_VERSION = r"[0-9]+(?:\.[0-9]+)*\.[0-9](?:\.[0-9]+)*"  # dotted, a one-digit part after the first
_NOT_PHONE = f"{_DATE_LIKE}|{_DECIMAL}|{_IPV4}|{_VERSION}"  # digit groups that are something else
_CARD_IN_TEXT = (rf"(?:^|[^{_LN}_])(?P<m>[0-9]{{4}}(?:[ -][0-9]{{4}}){{3}}(?:[ -]?[0-9]{{1,3}})?"
                 rf"|[0-9]{{4}}[ -][0-9]{{6}}[ -][0-9]{{4,5}})(?:$|[^{_LN}_])")


def as_text(values: Any) -> pd.Series:
    """Values as a pyarrow-backed string Series; lone surrogates (bytes decoded with
    ``surrogateescape``) become ``?`` so that the rest of the value is still read."""
    if isinstance(values, (pd.Series, pd.Index)) and pd.api.types.is_string_dtype(values.dtype) \
            and not pd.api.types.is_object_dtype(values.dtype):
        return pd.Series(values, copy=False).reset_index(drop=True).astype("string[pyarrow]")
    objs = np.asarray(values, dtype=object)
    try:
        return pd.Series(objs, dtype="string[pyarrow]")
    except UnicodeEncodeError:
        return pd.Series([v.encode("utf-8", "replace").decode("utf-8") if isinstance(v, str) else v
                          for v in objs], dtype="string[pyarrow]")


def _to_arrow(values: Any) -> Any:
    """Arrow strings as they are, or values as text (a pyarrow-backed column: its own chunks)."""
    return values if isinstance(values, (pa.Array, pa.ChunkedArray)) \
        else pa.array(as_text(values).array)


def arrow_text(values: Any, *, chunked: bool = False) -> Any:
    """Values as Arrow strings, missing values empty, surrounding white space trimmed: one array,
    or with ``chunked=True`` the chunks of a pyarrow-backed column as they are (no copy)."""
    arr = _to_arrow(values)
    if isinstance(arr, pa.ChunkedArray) and not (chunked and arr.num_chunks):
        arr = arr.combine_chunks() if arr.num_chunks else pa.array([], type=pa.large_string())
    return pc.utf8_trim_whitespace(pc.fill_null(arr, ""))


def has(text: Any, pattern: str, *, full: bool = False) -> np.ndarray:
    """Where ``pattern`` (RE2) matches ``text`` (anywhere, or the whole value); the chunks of a
    large chunked array on several threads."""
    regex = f"^(?:{pattern})$" if full else pattern
    if isinstance(text, pa.ChunkedArray) and text.num_chunks:
        parts = on_chunks(lambda part: pc.match_substring_regex(part, regex).to_numpy(), text)
        return np.concatenate(parts)
    return np.asarray(pc.match_substring_regex(text, regex), dtype=bool)


def _ndigits(text: pa.Array) -> np.ndarray:
    """The ASCII digits of each value."""
    digits = pc.replace_substring_regex(text, "[^0-9]", "")
    return np.asarray(pc.utf8_length(digits), dtype=np.int64)


def _may_match(chunk: pa.Array) -> np.ndarray:
    """Where a value of a string ``chunk`` may not be a plain id. Plain ids match no alternative of
    :data:`CANDIDATE` but a whole value of 13-19 digits (the card shape), as their bytes are ASCII
    digits, a-f of either case and ``_``: every other alternative needs another byte (a separator,
    ``@ % . : + (``, white space, a non-ASCII byte, or a phone keyword's letter outside a-f)."""
    arr = pc.cast(chunk, pa.large_string())
    off = np.frombuffer(arr.buffers()[1], dtype=np.int64)[arr.offset:arr.offset + len(arr) + 1]
    body = np.frombuffer(arr.buffers()[2] or b"", dtype=np.uint8)[off[0]:off[-1]]
    # NumPy comparisons (uint8 wraps): not a digit, not a-f of either case (bit 5 maps A-F
    # onto a-f), not "_"
    other = (body - np.uint8(48)) >= 10
    other &= ((body | np.uint8(32)) - np.uint8(97)) >= 6
    other &= body != 95
    out = np.zeros(len(arr), dtype=bool)
    where = np.flatnonzero(other) if other.any() else np.zeros(0, dtype=np.intp)
    if len(where) > len(arr):  # not a column of plain ids: the patterns decide for every value
        return ~out
    out[np.searchsorted(off[1:] - off[0], where, side="right")] = True
    lengths = np.diff(off)
    card = ~out & (lengths >= 13) & (lengths <= 19)
    if card.any():
        out[card] = np.asarray(pc.ascii_is_decimal(arr.filter(pa.array(card))), dtype=bool)
    return out


def candidates(values: Any, step: int = 1 << 16) -> np.ndarray:
    """Where :data:`CANDIDATE` matches the values trimmed, missing values as empty: exactly
    ``has(arrow_text(values), CANDIDATE)``, but plain ids (hex digits and ``_``, not a card
    number's digits) are passed by a count of their bytes (over ``step`` values at a time), and
    only the other values are trimmed and matched."""
    arr = _to_arrow(values)
    chunks = getattr(arr, "chunks", [arr])
    parts = [_may_match(c.slice(lo, step)) for c in chunks for lo in range(0, len(c), step)]
    out = np.concatenate(parts) if parts else np.zeros(0, dtype=bool)
    if out.any():
        out[out] = has(arrow_text(arr if out.all() else arr.filter(pa.array(out)), chunked=True),
                       CANDIDATE)
    return out


def _where(text: pa.Array, pre: np.ndarray, pattern: str, *, full: bool = False) -> np.ndarray:
    """:func:`has` evaluated only where ``pre`` holds (False elsewhere)."""
    out = np.zeros(len(text), dtype=bool)
    if pre.any():
        out[pre] = has(text.filter(pa.array(pre)), pattern, full=full)
    return out


def _luhn_ok(digits: pa.Array) -> np.ndarray:
    """Vectorized Luhn check over strings of ASCII digits: zero-padded on the left to one width
    (which leaves the check unchanged), their bytes are one (values x width) matrix."""
    if len(digits) == 0:
        return np.zeros(0, dtype=bool)
    width = int(pc.max(pc.utf8_length(digits)).as_py())
    arr = pc.cast(pc.utf8_lpad(digits, width=width, padding="0"), pa.large_string())
    start = int(np.frombuffer(arr.buffers()[1], dtype=np.int64)[arr.offset])
    body = np.frombuffer(arr.buffers()[2], dtype=np.uint8)[start:start + len(digits) * width]
    rev = body.reshape(len(digits), width)[:, ::-1].astype(np.int16) - 48  # the check digit first
    doubled = rev[:, 1::2] * 2
    total = rev[:, 0::2].sum(axis=1) + np.where(doubled > 9, doubled - 9, doubled).sum(axis=1)
    return np.asarray(total % 10 == 0)


def _extracted(text: pa.Array, pattern: str) -> tuple[np.ndarray, pa.Array]:
    """Where ``pattern`` (a group named ``m``) matches, and its first ``m`` span ('' elsewhere)."""
    got = pc.extract_regex(text, pattern)
    return np.asarray(got.is_valid(), dtype=bool), pc.fill_null(pc.struct_field(got, [0]), "")


def _phones_in_text(text: pa.Array, pre: np.ndarray, rounds: int = 3) -> np.ndarray:
    """Digit groups inside text (9-15 digits, not a date), looking past up to ``rounds`` matches."""
    out = np.zeros(len(text), dtype=bool)
    idx = np.flatnonzero(pre & _where(text, pre, _PHONE_IN_TEXT))
    sub = pc.replace_substring_regex(text.take(pa.array(idx)), _DATE_TIME_IN_TEXT, " ")
    for _ in range(rounds):
        if len(idx) == 0:
            break
        found, span = _extracted(sub, _PHONE_IN_TEXT)
        nd = _ndigits(span)
        ok = found & (nd >= 9) & (nd <= 15) & ~has(span, _DATE_LIKE, full=True)
        out[idx[ok]] = True
        idx, keep = idx[found & ~ok], pa.array(found & ~ok)
        sub = pc.replace_substring_regex(sub.filter(keep), _PHONE_IN_TEXT, " ", max_replacements=1)
    return out


def _phones(text: pa.Array, cand: np.ndarray) -> np.ndarray:
    """Phone numbers (the rules of data-handling.md) among the values where ``cand`` holds."""
    cand = _where(text, cand, _PHONE_ANY)
    phone = _where(text, cand, _PHONE_WRITTEN)
    groups = _where(text, cand & ~phone, _PHONE_GROUPS, full=True)
    if groups.any():
        sub = text.filter(pa.array(groups))
        nd = _ndigits(sub)
        nsep = np.asarray(pc.count_substring_regex(sub, "[ ./-]"), dtype=np.int64)
        phone[groups] = ((nd >= 8) & (nd <= 15) & ((nsep >= 2) | (nd >= 9))
                         & ~has(sub, _NOT_PHONE, full=True))
    phone |= _phones_in_text(text, cand & ~phone & ~groups)
    return np.asarray(phone & ~_where(text, phone, _DECIMAL, full=True))  # a signed decimal


def _hex_ids(column: Any) -> int:
    """How many values of ``column`` are hex ids (8 or more hex digits, a letter among them)."""
    hexy = has(column, "[0-9A-Fa-f]*[A-Fa-f][0-9A-Fa-f]*", full=True)
    return int((hexy & (np.asarray(pc.utf8_length(column)) >= 8)).sum())


def _cards(text: pa.Array, nd: np.ndarray, column: Any, *, numeric: bool) -> np.ndarray:
    """Payment-card numbers: whole values (bare digits judged over ``column``) and grouped in
    text; ``nd`` counts the digits of each value."""
    out = np.zeros(len(text), dtype=bool)
    bare = np.asarray(pc.ascii_is_decimal(text), dtype=bool)  # digits only
    span = (nd >= 13) & (nd <= 19)
    whole = (span & bare) | _where(text, span & ~bare, _CARD, full=True)
    if whole.any():
        sub = text.filter(pa.array(whole))
        bare = bare[whole]
        digits = sub if bare.all() else pc.replace_substring_regex(sub, "[^0-9]", "")
        cand = has(digits, "^[2-6]")
        if bare.any() and not numeric and _hex_ids(column) > int(bare.sum()):
            cand &= ~bare  # a column of hexadecimal ids: its all-digit ids are ids too, not numbers
        valid = np.zeros(len(sub), dtype=bool)
        valid[cand] = _luhn_ok(digits.filter(pa.array(cand)))
        if int((valid & bare).sum()) * 2 < int((cand & bare).sum()):
            valid &= ~bare  # bare digits: cards only where mostly Luhn-valid (ids pass 1 in 10)
        out[whole] = valid
    idx = np.flatnonzero(_where(text, (nd >= 14) & ~whole & (not numeric), _CARD_IN_TEXT))
    if len(idx):
        digits = pc.replace_substring_regex(_extracted(text.take(pa.array(idx)), _CARD_IN_TEXT)[1],
                                            "[^0-9]", "")
        ok = has(digits, "^[2-6]")
        ok[ok] = _luhn_ok(digits.filter(pa.array(ok)))
        out[idx[ok]] = True
    return out


def scan(text: pa.Array, *, numeric: bool, column: Any = None) -> dict[str, np.ndarray]:
    """:func:`scan_text` on prepared text (:func:`arrow_text`, one array); ``column`` (default
    ``text``) is the whole column, where hexadecimal ids are counted for the card rule."""
    idx = np.flatnonzero(has(text, _CARD_WHOLE if numeric else CANDIDATE))
    sub = text.take(pa.array(idx))
    nd = _ndigits(sub)
    column = text if column is None else column
    found = {"payment-card number": _cards(sub, nd, column, numeric=numeric)}
    if not numeric:
        found["e-mail address"] = _where(sub, has(sub, _AT), _EMAIL)
        found["IPv4 address"] = _where(sub, np.asarray(pc.match_substring(sub, ".")) & (nd >= 4),
                                       _IPV4_IN_TEXT)
        found["IPv6 address"] = _where(sub, np.asarray(pc.match_substring(sub, ":")), _IPV6_IN_TEXT)
        bare = np.asarray(pc.ascii_is_decimal(sub), dtype=bool)
        found["phone number"] = _phones(sub, (nd >= 8) & ~bare) & ~found["payment-card number"]
    out = {k: np.zeros(len(text), dtype=bool) for k in KINDS if k in found and found[k].any()}
    for kind, mask in out.items():
        mask[idx] = found[kind]
    return out


def scan_text(values: Any, *, numeric: bool = False) -> dict[str, np.ndarray]:
    """Boolean masks over ``values`` (distinct strings: array, list or Series), one per kind found.

    ``numeric=True`` (the values of an integer column) looks for card numbers only. Kinds that
    match no value are left out; a value may match several kinds (an IPv4-mapped IPv6 address).

    >>> found = scan_text(["иван@почта.рф", "(495) 123-45-67", "sess-2001:db8::1", "sess-8f3a9c"])
    >>> {kind: mask.tolist() for kind, mask in found.items()}  # doctest: +NORMALIZE_WHITESPACE
    {'e-mail address': [True, False, False, False], 'IPv6 address': [False, False, True, False],
     'phone number': [False, True, False, False]}
    """
    return scan(arrow_text(values), numeric=numeric)


def flagged(values: Any) -> tuple[np.ndarray, dict[str, np.ndarray]]:
    """Where any kind is found among ``values`` (as text), and the masks per kind.

    >>> flagged(["turnstile", "ivan@example.org"])[0].tolist()
    [False, True]
    """
    found = scan_text(np.asarray([str(v) for v in values], dtype=object))
    return np.logical_or.reduce([*found.values(), np.zeros(len(values), dtype=bool)]), found
