"""The personal-data guard: the detection rules of ``docs/data-handling.md`` ("Personal data") as
RE2 patterns (pyarrow.compute) over distinct values, and the policy that refuses, drops or hashes
declared columns that match them or are named for people (user values bound for an output:
:mod:`.values`). Recall, precision: ``tests/events/test_pii_corpus.py``,
``test_id_false_positives.py``."""

from __future__ import annotations

import re
from collections.abc import Iterable
from itertools import pairwise
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from .._util.codes import on_chunks
from .._util.validation import check_argument
from .hashing import hash_values
from .refusals import column_refusal, dropped_key_refusal, findings, warn_dropped

__all__ = ["KINDS", "PII_MODES", "names_a_person", "scan_text", "looks_personal",
           "scan_personal_data", "guard_personal_data"]

#: The kinds of personal data the guard recognises, in the order findings are reported.
KINDS = ("e-mail address", "IPv4 address", "IPv6 address", "phone number", "payment-card number")
#: What a loader's ``pii=`` may do with a declared column that looks like personal data.
PII_MODES = ("error", "drop", "hash")
# Words of names for people or accounts (docs/data-handling.md, "Keys named for people")
_PERSON_WORDS = frozenset("""
    user users username userid login logname account accounts email mail customer customers client
    clients person member owner employee patient firstname lastname fullname surname phone uid usr
    uname nick nickname subscriber student cardholder policyholder
    benutzer nutzer kunde konto vorname nachname utilisateur compte courriel prenom usuario cuenta
    cliente correo nombre apellido пользователь логин аккаунт клиент почта имя фамилия абонент
""".split())

# RE2 has no look-around, so boundaries are matched characters.
_LN = r"\p{L}\p{M}\p{N}"  # letters of any script, their marks, digits
_AT = r"(?:[@\x{FF20}\x{FE6B}]|%40)"
_DOT = r"[.\x{3002}\x{FF0E}\x{FF61}]"
_LABEL = rf"[{_LN}](?:[{_LN}-]*[{_LN}])?"
_EMAIL = (rf"(?:\"[^\"\r\n]+\"|[{_LN}!#$%&'*+/=?^_`{{|}}~.-]+){_AT}"
          rf"(?:(?:{_LABEL}{_DOT})+(?:[\p{{L}}\p{{M}}]{{2,}}|xn--[A-Za-z0-9-]+)|\[[0-9A-Za-z:.]+\])")
_OCTET = r"(?:25[0-5]|2[0-4][0-9]|[01]?[0-9]{1,2})"
_IPV4 = rf"{_OCTET}(?:\.{_OCTET}){{3}}"
# an IPv4 address inside text: not part of a longer dotted number (versions like 32.0.1700.77)
_IPV4_IN_TEXT = rf"(?:^|[^0-9.]|(?:^|[^0-9])\.){_IPV4}(?:$|[^0-9.]|\.(?:$|[^0-9]))"
_H = r"[0-9A-Fa-f]{1,4}"
_IPV6_IN_TEXT = (rf"(?:^|[^0-9A-Fa-f:])(?:(?:{_H}:){{7}}{_H}"  # full, compressed (not "::"),
                 rf"|(?:{_H}:){{0,6}}{_H}::(?:(?:{_H}:){{0,6}}{_H})?|::(?:{_H}:){{0,6}}{_H}"
                 rf"|(?:{_H}:){{6}}{_IPV4}|(?:(?:{_H}:){{0,5}}{_H})?::(?:{_H}:){{0,4}}{_IPV4}"
                 r")(?:%[0-9A-Za-z_.-]+)?(?:$|[^0-9A-Za-z:])")  # IPv4 tail, zone
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
# a superset of every rule: an at sign, '%', '.', ':', '+', '(', a phone keyword, a short first
# digit group and a separator, two groups of 4 digits, or a whole value shaped like a card number
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
_HEX_ID = "[0-9A-Fa-f]*[A-Fa-f][0-9A-Fa-f]*"


def names_a_person(name: str) -> bool:
    """Whether a column name denotes people or accounts by its words (camelCase split) or two
    words joined (``user_id``, ``sAMAccountName``, ``first_name``); ``pod_name`` does not.

    >>> [names_a_person(n) for n in ("customerId", "sAMAccountName", "Логин", "pod_name")]
    [True, True, True, False]
    """
    words = re.sub(r"(?<=[a-zа-яё])(?=[A-ZА-ЯЁ])|(?=[A-ZА-ЯЁ][a-zа-яё])", "_", str(name))
    tokens = re.split(r"[\W_0-9]+", words.casefold())
    return not _PERSON_WORDS.isdisjoint([*tokens, *map("".join, pairwise(tokens))])


def _to_arrow(values: Any) -> Any:
    """Values as Arrow strings: Arrow arrays and pyarrow-backed text as they are (no copy), others
    as text (lone surrogates, from bytes decoded with ``surrogateescape``, become ``?``)."""
    if isinstance(values, (pa.Array, pa.ChunkedArray)):
        return values
    if isinstance(values, (pd.Series, pd.Index)) and pd.api.types.is_string_dtype(values.dtype) \
            and not pd.api.types.is_object_dtype(values.dtype):
        return pa.array(values.astype("string[pyarrow]").array)
    objs = np.asarray(values, dtype=object)
    try:
        return pa.array(pd.array(objs, dtype="string[pyarrow]"))
    except UnicodeEncodeError:
        return pa.array(pd.array([v.encode("utf-8", "replace").decode("utf-8")
                                  if isinstance(v, str) else v for v in objs], "string[pyarrow]"))


def arrow_text(values: Any, *, chunked: bool = False) -> Any:
    """Values as trimmed Arrow strings, missing ones empty: one array, or the chunks as they are."""
    arr = _to_arrow(values)
    if isinstance(arr, pa.ChunkedArray) and not (chunked and arr.num_chunks):
        arr = arr.combine_chunks()
    return pc.utf8_trim_whitespace(pc.fill_null(arr, ""))


def has(text: Any, pattern: str, *, full: bool = False, where: Any = None) -> np.ndarray:
    """Where ``pattern`` matches ``text`` (all of it with ``full``); with ``where``, only there
    (False elsewhere). A chunked array's chunks are matched on threads."""
    if where is not None:
        out = np.zeros(len(text), dtype=bool)
        if where.any():
            out[where] = has(text.filter(pa.array(where)), pattern, full=full)
        return out
    regex = f"^(?:{pattern})$" if full else pattern
    if isinstance(text, pa.ChunkedArray) and text.num_chunks:
        parts = on_chunks(lambda part: pc.match_substring_regex(part, regex).to_numpy(), text)
        return np.concatenate(parts)
    return np.asarray(pc.match_substring_regex(text, regex), dtype=bool)


def _ndigits(text: pa.Array) -> np.ndarray:
    """The number of ASCII digits in each value."""
    return np.asarray(pc.utf8_length(pc.replace_substring_regex(text, "[^0-9]", "")), np.int64)


def _may_match(chunk: pa.Array) -> np.ndarray:
    """Where a value may not be a plain id (bytes 0-9, a-f, A-F, ``_``; not 13-19 digits): every
    other alternative of :data:`CANDIDATE` needs another byte (a separator, ``@ % . : + (``, white
    space, a non-ASCII byte or a phone keyword's letter outside a-f)."""
    arr = pc.cast(chunk, pa.large_string())
    off = np.frombuffer(arr.buffers()[1], dtype=np.int64)[arr.offset:arr.offset + len(arr) + 1]
    body = np.frombuffer(arr.buffers()[2] or b"", dtype=np.uint8)[off[0]:off[-1]]
    # uint8 wraps: not a digit, not a-f of either case (bit 5 maps A-F onto a-f), not "_"
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
    """Exactly ``has(arrow_text(values), CANDIDATE)``, but plain ids are passed by a byte count
    (:func:`_may_match`, ``step`` values at a time) and only the others trimmed and matched."""
    arr = _to_arrow(values)
    chunks = getattr(arr, "chunks", [arr])
    parts = [_may_match(c.slice(lo, step)) for c in chunks for lo in range(0, len(c), step)]
    out = np.concatenate(parts) if parts else np.zeros(0, dtype=bool)
    if out.any():
        out[out] = has(arrow_text(arr if out.all() else arr.filter(pa.array(out)), chunked=True),
                       CANDIDATE)
    return out


def _luhn_ok(digits: pa.Array) -> np.ndarray:
    """The Luhn check over strings of ASCII digits, zero-padded on the left into one matrix."""
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


def _phones_in_text(text: pa.Array, pre: np.ndarray, rounds: int = 3) -> np.ndarray:
    """Digit groups inside text (9-15 digits, not a date), looking past up to ``rounds`` matches."""
    out = np.zeros(len(text), dtype=bool)
    idx = np.flatnonzero(has(text, _PHONE_IN_TEXT, where=pre))
    sub = pc.replace_substring_regex(text.take(pa.array(idx)), _DATE_TIME_IN_TEXT, " ")
    for _ in range(rounds):
        if len(idx) == 0:
            break
        got = pc.extract_regex(sub, _PHONE_IN_TEXT)  # the group m of the first match, or null
        found, span = np.asarray(got.is_valid(), dtype=bool), pc.struct_field(got, "m")
        span = pc.fill_null(span, "")
        nd = _ndigits(span)
        ok = found & (nd >= 9) & (nd <= 15) & ~has(span, _DATE_LIKE, full=True)
        out[idx[ok]] = True
        idx, keep = idx[found & ~ok], pa.array(found & ~ok)
        sub = pc.replace_substring_regex(sub.filter(keep), _PHONE_IN_TEXT, " ", max_replacements=1)
    return out


def _phones(text: pa.Array, cand: np.ndarray) -> np.ndarray:
    """Phone numbers among the values where ``cand`` holds."""
    cand = has(text, _PHONE_ANY, where=cand)
    phone = has(text, _PHONE_WRITTEN, where=cand)
    groups = has(text, _PHONE_GROUPS, full=True, where=cand & ~phone)
    if groups.any():
        sub = text.filter(pa.array(groups))
        nd = _ndigits(sub)
        nsep = np.asarray(pc.count_substring_regex(sub, "[ ./-]"), dtype=np.int64)
        phone[groups] = ((nd >= 8) & (nd <= 15) & ((nsep >= 2) | (nd >= 9))
                         & ~has(sub, _NOT_PHONE, full=True))
    phone |= _phones_in_text(text, cand & ~phone & ~groups)
    return np.asarray(phone & ~has(text, _DECIMAL, full=True, where=phone))  # a signed decimal


def _cards(text: pa.Array, nd: np.ndarray, column: Any, *, numeric: bool) -> np.ndarray:
    """Card numbers: whole values (bare digits judged over ``column``) and grouped in text."""
    out = np.zeros(len(text), dtype=bool)
    bare = np.asarray(pc.ascii_is_decimal(text), dtype=bool)  # digits only
    span = (nd >= 13) & (nd <= 19)
    whole = (span & bare) | has(text, _CARD, full=True, where=span & ~bare)
    if whole.any():
        sub = text.filter(pa.array(whole))
        bare = bare[whole]
        digits = sub if bare.all() else pc.replace_substring_regex(sub, "[^0-9]", "")
        cand = has(digits, "^[2-6]")
        if bare.any() and not numeric:  # in a column of hex ids, the all-digit ids are ids too
            hex_ids = has(column, _HEX_ID, full=True) & (np.asarray(pc.utf8_length(column)) >= 8)
            if int(hex_ids.sum()) > int(bare.sum()):
                cand &= ~bare
        valid = np.zeros(len(sub), dtype=bool)
        valid[cand] = _luhn_ok(digits.filter(pa.array(cand)))
        if int((valid & bare).sum()) * 2 < int((cand & bare).sum()):
            valid &= ~bare  # bare digits: cards only where mostly Luhn-valid (ids pass 1 in 10)
        out[whole] = valid
    idx = np.flatnonzero(has(text, _CARD_IN_TEXT, where=(nd >= 14) & ~whole & (not numeric)))
    if len(idx):
        got = pc.extract_regex(text.take(pa.array(idx)), _CARD_IN_TEXT)  # all match here
        digits = pc.replace_substring_regex(pc.struct_field(got, [0]), "[^0-9]", "")
        ok = has(digits, "^[2-6]")
        ok[ok] = _luhn_ok(digits.filter(pa.array(ok)))
        out[idx[ok]] = True
    return out


def scan_text(values: Any, *, numeric: bool = False, column: Any = None) -> dict[str, np.ndarray]:
    """Boolean masks over ``values`` (distinct strings: array, list or Series), one per kind found
    (a value may match several: an IPv4-mapped IPv6 address). ``numeric=True`` (an integer
    column's values) looks for card numbers only; hex ids are counted over ``column`` (default:
    the values) for the card rule.

    >>> found = scan_text(["иван@почта.рф", "(495) 123-45-67", "sess-2001:db8::1", "sess-8f3a9c"])
    >>> {kind: mask.tolist() for kind, mask in found.items()}  # doctest: +NORMALIZE_WHITESPACE
    {'e-mail address': [True, False, False, False], 'IPv6 address': [False, False, True, False],
     'phone number': [False, True, False, False]}
    """
    text = arrow_text(values)
    idx = np.flatnonzero(has(text, _CARD_WHOLE if numeric else CANDIDATE))
    if len(idx) == 0:
        return {}
    sub = text.take(pa.array(idx))
    nd = _ndigits(sub)
    found = {"payment-card number": _cards(sub, nd, text if column is None else column,
                                           numeric=numeric)}
    if not numeric:
        found["e-mail address"] = has(sub, _EMAIL, where=has(sub, _AT))
        dots, colons = (np.asarray(pc.match_substring(sub, c)) for c in ".:")
        found["IPv4 address"] = has(sub, _IPV4_IN_TEXT, where=dots & (nd >= 4))
        found["IPv6 address"] = has(sub, _IPV6_IN_TEXT, where=colons)
        bare = np.asarray(pc.ascii_is_decimal(sub), dtype=bool)
        found["phone number"] = _phones(sub, (nd >= 8) & ~bare) & ~found["payment-card number"]
    out = {k: np.zeros(len(text), dtype=bool) for k in KINDS if k in found and found[k].any()}
    for kind, mask in out.items():
        mask[idx] = found[kind]
    return out


def looks_personal(value: Any) -> bool:
    """``True`` when one value (as text) looks like personal data.

    >>> looks_personal("(495) 123-45-67"), looks_personal("sess-2001:db8::1")
    (True, True)
    >>> looks_personal("turnstile"), looks_personal("4829301746521"), looks_personal("2026-11-30")
    (False, False, False)
    """
    return bool(scan_text([str(value)]))


def _scan_column(column: pd.Series) -> tuple[dict[str, int], dict[str, int]]:
    """Rows and distinct values per kind found in ``column``: over the used categories, an
    integer column's values of 13 digits or more (cards only) or a text column's candidates."""
    dtype = getattr(column.dtype, "categories", column).dtype
    kind = "numeric" if pd.api.types.is_integer_dtype(dtype) else "text" \
        if pd.api.types.is_string_dtype(dtype) else None  # object columns are text too
    whole = None  # the whole text column, for the card rule
    if kind is None or len(column) == 0:
        return {}, {}
    if isinstance(column.dtype, pd.CategoricalDtype):
        uniques = pd.Index(column.cat.categories)
        if not candidates(uniques.astype(str)).any():  # count rows only where a value may be
            return {}, {}
        codes = np.asarray(column.array.codes)  # small ints, as stored: no copy of the rows
        counts: np.ndarray = np.bincount(codes[codes >= 0], minlength=len(uniques))
        uniques, counts = uniques[counts > 0].astype(str), counts[counts > 0]
    elif kind == "numeric":
        values = column.dropna().to_numpy()
        found = pd.Series(values[np.abs(values.astype(np.float64)) >= 1e12]).value_counts()
        uniques, counts = found.index.astype(str), found.to_numpy()
    else:
        text = _to_arrow(column)  # a pyarrow-backed column as it is (no copy of its chunks)
        cand = candidates(text)
        if not cand.any():
            return {}, {}
        found = pc.value_counts(text.filter(pa.array(cand)))
        uniques, counts = found.field("values"), np.asarray(found.field("counts"))
        whole = arrow_text(text, chunked=True)
    masks = scan_text(uniques, numeric=kind == "numeric", column=whole)
    return ({k: int(counts[m].sum()) for k, m in masks.items()},
            {k: int(m.sum()) for k, m in masks.items()})


def scan_personal_data(column: pd.Series) -> dict[str, int]:
    """Count the rows of ``column`` whose values look like each kind of personal data (every
    distinct value is scanned: a sample could miss the one e-mail address among a million ids).

    >>> scan_personal_data(pd.Series(["a@b.org", "x", "10.0.0.1", "10.0.0.1"]))
    {'e-mail address': 1, 'IPv4 address': 2}
    >>> scan_personal_data(pd.Series(["sk_3f9a", "rc_v2", "fra"]))
    {}
    """
    return _scan_column(column)[0]


def guard_personal_data(frame: pd.DataFrame, columns: Iterable[str], *, pii: str = "error",
                        salt: str | None = None, required: Iterable[str] = (),
                        by_name: Iterable[str] = (), warn: bool = True,
                        keys: Iterable[str] = ()) -> pd.DataFrame:
    """Apply the ``pii`` policy to ``columns`` of ``frame`` (a new frame if anything changed):
    ``"error"`` raises :class:`PersonalDataError`, ``"drop"`` drops the column with a
    :class:`PersonalDataWarning` (``warn=False``: silently), ``"hash"`` hashes its values
    (:func:`hash_values`). Personal data in ``required`` columns (the outcome) is always refused;
    ``by_name`` columns (keys named for people: :func:`names_a_person`) are flagged even if plain.
    A group key (``keys``, the reader's ``by=``) that ``"drop"`` would drop is refused: the
    grouping would silently be lost.

    >>> f = pd.DataFrame({"region": ["fra", "ams"], "user": ["a@b.org", "c@d.net"]})
    >>> guard_personal_data(f, ["region", "user"])
    Traceback (most recent call last):
    ...
    budgetlab.errors.PersonalDataError: column 'user' looks like personal data (2 rows like an
    e-mail address (2 distinct values)); personal data must not enter the budget log. Do not
    declare it, or pass pii='drop' to drop it or pii='hash' with a salt to keep it as a keyed hash.
    >>> list(guard_personal_data(f, ["region", "user"], pii="hash", salt="k").columns)
    ['region', 'user']
    """
    check_argument("pii", pii, PII_MODES)
    must, named, out = set(required), set(by_name), frame
    for col in dict.fromkeys(c for c in [*must, *columns, *named] if c in frame.columns):
        rows, distinct = _scan_column(frame[col])
        if not rows and col not in named:
            continue
        what = findings(rows, distinct)
        if col in must or pii == "error":
            why = "named" if not rows and pii == "error" else "required" if col in must else ""
            raise column_refusal(col, what, why)
        if pii == "drop" and col in set(keys):
            raise dropped_key_refusal(col)
        if pii == "drop" and warn:  # at the caller of read_events (through read_table)
            warn_dropped(col, what, stacklevel=4)  # the words the Dask reader says too
        if pii == "drop":
            out = out.drop(columns=[col])
        else:
            out = out.copy(deep=False)
            out[col] = hash_values(frame[col], salt or "")
    return out

