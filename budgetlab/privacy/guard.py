"""The personal-data guard: refuse, drop or hash declared columns (and refuse user values) that look like
personal data.

Only declared columns reach this point (see :func:`budgetlab.read_events`); every other column is never
loaded. What looks like personal data is stated in :mod:`budgetlab.privacy.detect`. Findings name the
column, the kind and how many rows matched, never a value. Only distinct values are scanned, so the cost
grows with the number of distinct values, not with the rows.
"""

from __future__ import annotations

import warnings
from collections.abc import Iterable
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa

from .._util.codes import category_codes
from .._util.validation import check_argument
from .._util.words import say
from ..errors import ConfigError, PersonalDataError, PersonalDataWarning
from .detect import arrow_text, as_text, candidates, scan, scan_text
from .hashing import hash_values
from .prefilter import PLAIN_TEXT

__all__ = ["PII_MODES", "scan_personal_data", "guard_personal_data", "describe_findings", "guard_values"]

#: What a loader's ``pii=`` may do with a declared column that looks like personal data.
PII_MODES = ("error", "drop", "hash")


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
    """Whether any of ``uniques`` passes the per-value prefilter of :func:`~budgetlab.privacy.detect.scan`
    (a superset of every rule; judged value by value, so a subset of them passes it no more)."""
    if kind == "numeric":
        values = np.asarray(uniques).astype(np.float64)
        return bool((np.abs(values[~np.isnan(values)]) >= 1e12).any())
    return bool(candidates(arrow_text(_as_scanned(uniques, kind))).any())


def _scan_values(uniques: pd.Index, kind: str, column_text: pa.Array | None = None) -> dict[str, np.ndarray]:
    """:func:`~budgetlab.privacy.detect.scan` over distinct values (numbers as their digits)."""
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
