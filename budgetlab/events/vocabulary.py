"""The outcome vocabulary: what a label means. Labels are compared in one spelling
(:func:`normalize_label`); the built-in words (:data:`DEFAULT_OUTCOMES`) name successes, timeouts
and failures, and an ``outcomes=`` mapping (or function) says what any other label means, status
ranges included (:func:`check_outcomes`, :func:`lookup_label`). **A label no rule names is never
given a meaning**: :mod:`.outcomes` refuses it. A true/false success column is read value by value
by its words (:func:`parse_ok`): any other value is refused by its rows, and a column of numbers
none of whose rows is a boolean is called a metric series.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import pandas as pd

from .._util.codes import numpy_backed
from ..errors import ConfigError, OutcomeError
from ._label_words import non_boolean_error
from ._messages import fill_or_drop
from .schema import FAILURE, MISSING_LABELS, SKIP, SOLVE_ERROR, SUCCESS, TIMEOUT

__all__ = ["DEFAULT_OUTCOMES", "TRUE_WORDS", "FALSE_WORDS", "Outcomes", "normalize_label",
           "label_word", "is_number", "check_outcomes", "lookup_label", "parse_ok"]

_SUCCESS_WORDS = ("success", "successful", "successfully", "succeeded", "succeed", "ok", "okay",
                  "true", "1", "yes", "y", "t", "pass", "passed", "solved", "completed",
                  "complete", "done", "finished", "good", "\u2713", "\u2714", "\u2611")
_FAILURE_WORDS = ("failure", "failed", "fail", "error", "errored", "false", "0", "no", "n", "f",
                  "bad", "\u2717", "\u2718", "\u274c")
_TIMEOUT_WORDS = ("timeout", "timed_out", "timedout", "connection_timeout", "network_timeout",
                  "deadline_exceeded")
#: The built-in vocabulary (normalised label -> ``success`` or failure bucket). English words,
#: ``1``/``0``, ``true``/``false`` and check marks; ``solve_error`` keeps its bucket. Every other
#: label is refused unless ``outcomes=`` says what it means.
DEFAULT_OUTCOMES: dict[str, str] = {**{w: SUCCESS for w in _SUCCESS_WORDS},
                                    **{w: TIMEOUT for w in _TIMEOUT_WORDS},
                                    SOLVE_ERROR: SOLVE_ERROR,
                                    **{w: FAILURE for w in _FAILURE_WORDS}}
#: The words of a true/false (``ok=``) column, normalised.
TRUE_WORDS = frozenset({"true", "1", "yes", "y", "t", "ok", "success"})
FALSE_WORDS = frozenset({"false", "0", "no", "n", "f", "fail", "failure"})
_STATUS = re.compile(r"[1-5][0-9][0-9]")
_BLANKS = re.compile(r"[\s\-]+")
#: A whole number as pandas writes a float column to text (``200.0``, ``1.0``, ``-0.0``).
_WHOLE_DECIMAL = re.compile(r"(-?[0-9]+)\.0+")


def normalize_label(text: Any) -> str:
    """A label as budgetlab compares it: NFKC, format characters (zero-width spaces, soft
    hyphens, BOMs) removed, case-folded, trimmed, runs of blanks and hyphens as one ``_``; a whole
    number with a decimal zero (``200.0``, ``1.0``: a float column, in a DataFrame or as pandas
    writes it to text) as the whole number, so the float ``1.0`` and the texts ``1.0`` and ``1``
    are one label, whatever the source.

    >>> normalize_label(" Success\\u200b"), normalize_label("ＯＫ"), normalize_label("Timed out")
    ('success', 'ok', 'timed_out')
    >>> normalize_label(200.0), normalize_label("1.0"), normalize_label("0.5")
    ('200', '1', '0.5')
    """
    s = unicodedata.normalize("NFKC", str(text))
    s = "".join(ch for ch in s if unicodedata.category(ch) != "Cf")
    s = _BLANKS.sub("_", s.casefold().strip())
    whole = _WHOLE_DECIMAL.fullmatch(s)
    return str(int(whole.group(1))) if whole else s


def label_word(text: str) -> str | None:
    """What a built-in word says as a label: ``"true/false"``, ``"outcome"`` (another outcome
    word), or ``None`` (any other text); tells a header-less file's first row from a header."""
    label = normalize_label(text)
    return None if label not in DEFAULT_OUTCOMES else "true/false" \
        if label in TRUE_WORDS | FALSE_WORDS else "outcome"


def is_number(text: str) -> bool:
    """A label that reads as a number (``200``, ``0.5``, ``nan``): a code or a measured value."""
    try:
        float(text)
    except ValueError:
        return False
    return True


#: What ``outcomes=`` takes: a mapping, or a function of the normalised label (called once per
#: distinct label), each giving ``"success"``, ``"skip"`` or a failure bucket name.
Outcomes = Mapping[str, str] | Callable[[str], str]


def check_outcomes(outcomes: Any) -> dict[str, str] | Callable[[str], str] | None:
    """Validate an ``outcomes`` mapping: label (or status range ``2xx``) -> ``"success"``,
    ``"skip"`` or a failure bucket name; keys are normalised like the labels. A function of the
    label is kept as it is (its answers are checked when it is called, see
    :func:`lookup_label`)."""
    if outcomes is None or (callable(outcomes) and not isinstance(outcomes, Mapping)):
        return outcomes
    if not isinstance(outcomes, Mapping) or not outcomes:
        raise ConfigError("outcomes= takes a non-empty mapping of label -> 'success', 'skip' or a "
                          "failure bucket name, e.g. {'succeeded': 'success', 'pending': 'skip', "
                          "'crashed': 'crash'}.")
    table: dict[str, str] = {}
    for key, value in outcomes.items():
        if isinstance(key, bool) or not isinstance(key, (str, int, np.integer)):
            raise ConfigError("outcomes= keys are labels (strings or integers), got "
                              f"{type(key).__name__}.")
        if not isinstance(value, str) or not value.strip() or value.strip() == "?":
            raise ConfigError(f"outcomes[{key!r}] must be 'success', 'skip' or a failure bucket "
                              "name (a non-empty string other than '?').")
        norm = normalize_label(key)
        if not norm:
            raise ConfigError("outcomes= has an empty label; missing labels are refused, not "
                              "mapped.")
        bucket = _meaning(value)
        if table.get(norm, bucket) != bucket:
            raise ConfigError(f"outcomes= maps label {key!r} twice (labels are compared "
                              "case-insensitively).")
        table[norm] = bucket
    return table


def _meaning(value: str) -> str:
    bucket = value.strip()
    return {SUCCESS: SUCCESS, SKIP: SKIP}.get(bucket.casefold(), bucket)


def lookup_label(label: str, table: Outcomes) -> tuple[str, str] | None:
    """``(meaning, rule)`` of one normalised label: the exact key, else a status range
    (``404`` -> ``40x`` -> ``4xx``); or what the function ``table`` says of it."""
    if callable(table) and not isinstance(table, Mapping):
        value = table(label)
        if not isinstance(value, str) or not value.strip() or value.strip() == "?":
            raise ConfigError(f"outcomes({label!r}) returned {value!r}; the function must return "
                              "'success', 'skip' or a failure bucket name.")
        return _meaning(value), "outcomes= function"
    keys = (label, label[:2] + "x", label[0] + "xx") if _STATUS.fullmatch(label) else (label,)
    return next(((table[k], k) for k in keys if k in table), None)


def parse_ok(col: pd.Series, *, what: str = "success") -> np.ndarray:
    """A success column (true/false, 1/0, yes/no; ``1.0``/``0.0``, a float column as pandas writes
    it to text, are 1/0: :func:`normalize_label`) as bool, each value read on its own; anything
    else raises :class:`OutcomeError`.

    >>> parse_ok(pd.Series(["1.0", "0.0", "1"])).tolist()
    [True, False, True]
    """
    col = numpy_backed(col)
    if col.dtype == np.bool_:  # a NumPy bool column holds nothing else and no missing value
        return col.to_numpy(dtype=bool, copy=True)
    numeric = pd.api.types.is_numeric_dtype(col.dtype) and \
        not isinstance(col.dtype, pd.CategoricalDtype)
    if pd.api.types.is_complex_dtype(col.dtype):
        raise OutcomeError(f"the {what} column holds complex numbers; use true/false or 1/0.")
    if numeric or (pd.api.types.is_bool_dtype(col.dtype) and
                   not isinstance(col.dtype, pd.CategoricalDtype)):
        state, words = col.to_numpy(dtype=float, na_value=np.nan), []
        state = np.where(np.isnan(state), -1, np.where(np.isin(state, [0.0, 1.0]), state, -2))
    else:
        codes, uniques = pd.factorize(col)
        if len(uniques) > 100_000:  # far too many distinct values for a true/false column
            raise OutcomeError(f"the {what} column has {len(uniques)} distinct values; use "
                               "true/false or 1/0.")
        words = [normalize_label(u) for u in uniques]
        state = np.array([1 if u in TRUE_WORDS else 0 if u in FALSE_WORDS else
                          -1 if u in MISSING_LABELS else -2 for u in words] + [-1])[codes]
    if (state == -1).any():
        raise fill_or_drop(OutcomeError, f"empty {what} value", state == -1)
    if (state == -2).any():
        raise non_boolean_error(what, state == -2, numeric or all(map(is_number, words)))
    return np.asarray(state == 1)
