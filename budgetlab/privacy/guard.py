"""The personal-data guard: refuse, drop or hash declared columns (and refuse user values) that
look like personal data, or group keys whose names denote people or accounts. Findings name the
column, the kind and how many rows matched, never a value. Only distinct values are scanned, so
the cost grows with the number of distinct values, not with the rows.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterable
from typing import Any

import numpy as np
import pandas as pd

from .._util.codes import category_codes
from .._util.validation import check_argument
from .._util.words import say
from ..errors import ConfigError, PersonalDataError, PersonalDataWarning
from .detect import arrow_text, as_text, candidates, flagged, scan
from .hashing import hash_values

__all__ = ["PII_MODES", "PERSON_WORDS", "names_a_person", "scan_personal_data",
           "guard_personal_data", "describe_findings", "guard_values"]

#: What a loader's ``pii=`` may do with a declared column that looks like personal data.
PII_MODES = ("error", "drop", "hash")

#: Words of column names that denote people or accounts (English, German, French, Spanish,
#: Russian, as the phone keywords): a group key so named is refused unless hashed or declared
#: not personal.
PERSON_WORDS = frozenset("""
    user users username userid login logname account accounts email mail customer customers client
    clients person member owner employee patient firstname lastname fullname surname phone
    benutzer nutzer kunde konto vorname nachname utilisateur compte courriel prenom usuario cuenta
    cliente correo nombre apellido пользователь логин аккаунт клиент почта имя фамилия абонент
""".split())


def names_a_person(name: str) -> bool:
    """Whether a column name denotes people or accounts (by its words, or two words joined:
    ``user_id``, ``customerName``, ``first_name``, ``логин``); ``pod_name`` does not.

    >>> [names_a_person(n) for n in ("user", "customerId", "first_name", "Логин", "pod_name")]
    [True, True, True, True, False]
    """
    words = re.sub(r"(?<=[a-zа-яё])(?=[A-ZА-ЯЁ])", "_", str(name)).casefold()
    tokens = [t for t in re.split(r"[\W_0-9]+", words) if t]
    pairs = map("".join, zip(tokens, tokens[1:], strict=False))
    return not PERSON_WORDS.isdisjoint([*tokens, *pairs])


def _kind_of_column(column: pd.Series) -> str | None:
    """``"text"`` for string-like columns, ``"numeric"`` for integer columns, else ``None``."""
    cats = getattr(column.dtype, "categories", None)
    dtype = column.dtype if cats is None else cats.dtype
    if pd.api.types.is_integer_dtype(dtype):
        return "numeric"
    return "text" if pd.api.types.is_string_dtype(dtype) else None  # object columns too


def _distinct(column: pd.Series, kind: str) -> tuple[Any, np.ndarray, Any]:
    """The distinct values of ``column`` that may be personal data, their rows, and (text only)
    the whole column as text for the card rule: a categorical's used categories, an integer
    column's values of 13 digits or more, a text column's values that pass :func:`candidates`."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        cats = pd.Index(column.cat.categories)
        if not candidates(cats.astype(str)).any():  # rows are counted only where a value may be
            return cats[:0], np.zeros(0, dtype=np.int64), None
        codes = category_codes(column)  # small ints, as stored: no copy of the rows
        counts = np.bincount(codes[codes >= 0], minlength=len(cats))
        return cats[counts > 0], counts[counts > 0], None
    if kind == "numeric":
        values = column.dropna().to_numpy()
        found = pd.Series(values[np.abs(values.astype(np.float64)) >= 1e12]).value_counts()
        return found.index, found.to_numpy(), None
    text = as_text(column)  # a pyarrow-backed column as it is (no copy of its chunks)
    cand = candidates(text)
    found = (text[cand] if cand.any() else text[:0]).value_counts(sort=False)
    return found.index, found.to_numpy(), arrow_text(text, chunked=True) if cand.any() else None


def _scan_column(column: pd.Series) -> tuple[dict[str, int], dict[str, int]]:
    """Rows and distinct values per kind found in ``column``: string-like columns are checked for
    every kind, integer columns for card numbers only, other columns not at all."""
    kind = _kind_of_column(column)
    if kind is None or len(column) == 0:
        return {}, {}
    uniques, counts, whole = _distinct(column, kind)
    text = arrow_text(pd.Index(uniques).astype(str))  # numbers as their digits
    masks = scan(text, numeric=kind == "numeric", column=whole) if len(uniques) else {}
    return ({k: int(counts[m].sum()) for k, m in masks.items()},
            {k: int(m.sum()) for k, m in masks.items()})


def scan_personal_data(column: pd.Series, *, sample: int | None = None) -> dict[str, int]:
    """Count the rows of ``column`` whose values look like each kind of personal data.

    Every distinct value is scanned, whatever ``sample`` says (a sample could miss the one
    e-mail address among a million ids).

    >>> scan_personal_data(pd.Series(["a@b.org", "x", "10.0.0.1", "10.0.0.1"]))
    {'e-mail address': 1, 'IPv4 address': 2}
    >>> scan_personal_data(pd.Series(["sk_3f9a", "rc_v2", "fra"]))
    {}
    """
    return _scan_column(column)[0]


def _like(kind: str) -> str:
    return f"like {'an' if kind[0] in 'aeiouIE' else 'a'} {kind}"


def describe_findings(rows: dict[str, int], distinct: dict[str, int] | None = None) -> str:
    """Kinds and counts as text for messages (never values).

    >>> describe_findings({"IPv4 address": 10000}, {"IPv4 address": 1753})
    '10000 row(s) like an IPv4 address (1753 distinct values)'
    """
    return ", ".join(f"{n} row(s) {_like(kind)}" + (f" ({distinct[kind]} distinct values)"
                                                    if distinct and kind in distinct else "")
                     for kind, n in rows.items())


def _refusal(col: str, what: str, why: str) -> PersonalDataError:
    """The refusal of ``col``: its name denotes people (``why`` "named"), or it is required, or
    declared."""
    if why == "named":
        return PersonalDataError(
            f"group key {col!r} is named like personal data (people or accounts): groups must not "
            "identify people. Do not declare it, or pass "
            + say(f"pii='hash' with salt= to keep it as a keyed hash, or not_personal=[{col!r}] "
                  "if it names no person.", "--pii hash --salt S to keep it as a keyed hash, or "
                  f"--not-personal {col} if it names no person."))
    return PersonalDataError(f"column {col!r} looks like personal data ({what}); " + (
        "it is declared as a required column (time/outcome/ok/bucket), so it cannot be dropped or "
        "hashed: check which column you declared." if why == "required" else
        "personal data must not enter the budget log. Do not declare it, or pass "
        + say("pii='drop' to drop it or pii='hash' with a salt to keep it as a keyed hash.",
              "--pii drop to drop it or --pii hash --salt S to keep it as a keyed hash.")))


def guard_personal_data(
    frame: pd.DataFrame,
    columns: Iterable[str],
    *,
    pii: str = "error",
    salt: str | None = None,
    required: Iterable[str] = (),
    by_name: Iterable[str] = (),
) -> pd.DataFrame:
    """Apply the ``pii`` policy to ``columns`` of ``frame`` (a new frame if anything changed).

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
    budgetlab.errors.PersonalDataError: column 'user' looks like personal data (2 row(s) like an
    e-mail address (2 distinct values)); personal data must not enter the budget log. Do not
    declare it, or pass pii='drop' to drop it or pii='hash' with a salt to keep it as a keyed hash.
    >>> list(guard_personal_data(f, ["region", "user"], pii="hash", salt="k").columns)
    ['region', 'user']
    """
    check_argument("pii", pii, PII_MODES)
    if pii == "hash" and (not isinstance(salt, str) or not salt):
        raise ConfigError(say("pii='hash' needs salt='a secret string'",
                              "--pii hash needs --salt S (a secret string)")
                          + " (keep it out of the data).")
    must, named, out = set(required), set(by_name), frame
    for col in dict.fromkeys(c for c in [*must, *columns, *named] if c in frame.columns):
        rows, distinct = _scan_column(frame[col])
        if not rows and col not in named:
            continue
        what = describe_findings(rows, distinct) if rows else "its name denotes people or accounts"
        if col in must or pii == "error":
            why = "named" if not rows and pii == "error" else "required" if col in must else ""
            raise _refusal(col, what, why)
        if pii == "drop":
            warnings.warn(PersonalDataWarning(f"dropped column {col!r}: it looks like personal "
                                              f"data ({what})."), stacklevel=3)
            out = out.drop(columns=[col])
        else:
            out = out.copy(deep=False)
            out[col] = hash_values(frame[col], salt or "")
    return out


def guard_values(values: Iterable[Any], *, what: str) -> None:
    """Refuse user values (group keys, labels, names) that look like personal data, before they
    become a name, label or title of an output: :class:`PersonalDataError` that counts them per
    kind, never shows them. ``what`` names where they come from (e.g. "the 'group' column of
    rec.csv"); it is put into the message as given, so it must not hold a user value itself.

    >>> guard_values(["turnstile", "image"], what="group keys")
    >>> guard_values(["turnstile", "ivan@example.org", "+7 916 123-45-67"], what="group keys")
    Traceback (most recent call last):
    ...
    budgetlab.errors.PersonalDataError: group keys: 2 of 3 value(s) look like personal data (1 like
    an e-mail address, 1 like a phone number); ...
    """
    values = list(values)
    hit, found = flagged(values)
    if hit.any():
        kinds = ", ".join(f"{int(mask.sum())} {_like(kind)}" for kind, mask in found.items())
        raise PersonalDataError(
            f"{what}: {int(hit.sum())} of {len(values)} value(s) look like personal data "
            f"({kinds}); budgetlab does not write personal data into outputs or messages: replace "
            "them with opaque ids (or hash them on load: "
            + say("read_events(..., pii='hash', salt=...)).", "--pii hash --salt S)."))
