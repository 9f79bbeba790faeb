"""The outcome vocabulary: what a label means before any row is read.

Labels are normalised before they are compared (:func:`normalize_label`: Unicode NFKC, format
characters such as zero-width spaces removed, case-folded, trimmed, inner blanks and hyphens as
``_``). The built-in words (:data:`DEFAULT_OUTCOMES`), the words of a true/false column, the
states that look non-final, and a user's ``outcomes=`` mapping (:func:`check_outcomes`), whose
keys may be HTTP status ranges (:func:`lookup_label`: ``404`` -> ``40x`` -> ``4xx``); a
success column of true/false words or 1/0 (:func:`parse_ok`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from .._util.codes import factorize
from ..errors import ConfigError, OutcomeError
from ._columns import MISSING_LABELS, numpy_backed
from ._messages import row_numbers
from .schema import FAILURE, SKIP, SOLVE_ERROR, SUCCESS, TIMEOUT

__all__ = ["DEFAULT_OUTCOMES", "NON_FINAL_STATES", "normalize_label", "check_outcomes",
           "lookup_label",
           "parse_ok"]

_SUCCESS_WORDS = ("success", "successful", "successfully", "succeeded", "succeed", "ok", "okay",
                  "true", "1",
                  "yes", "y", "t", "pass", "passed", "solved", "completed", "complete", "done",
                  "finished",
                  "good", "\u2713", "\u2714", "\u2611")
_FAILURE_WORDS = ("failure", "failed", "fail", "error", "errored", "false", "0", "no", "n", "f",
                  "bad",
                  "\u2717", "\u2718", "\u274c")
_TIMEOUT_WORDS = ("timeout", "timed_out", "timedout", "connection_timeout", "network_timeout",
                  "deadline_exceeded")

#: The built-in vocabulary (normalised label -> ``success`` or failure bucket). English words,
#: ``1``/``0``, ``true``/``false`` and check marks; ``solve_error`` keeps its bucket. Every other
#: label is refused unless ``outcomes=`` says what it means.
DEFAULT_OUTCOMES: dict[str, str] = {
    **{w: SUCCESS for w in _SUCCESS_WORDS},
    **{w: TIMEOUT for w in _TIMEOUT_WORDS},
    SOLVE_ERROR: SOLVE_ERROR,
    **{w: FAILURE for w in _FAILURE_WORDS},
}
#: Labels that often name states that are not final (a job still running): the refusal says so, the
#: suggestion stays ``label=?`` (the user chooses).
NON_FINAL_STATES = frozenset({"pending", "processing", "queued", "running", "in_progress",
                              "started", "scheduled",
                              "waiting", "retrying", "cancelled", "canceled", "created",
                              "submitted", "accepted",
                              "active", "new", "open", "in_queue"})
#: The words of a true/false column (normalised), for ``ok=`` columns.
_TRUE_WORDS = frozenset({"true", "1", "yes", "y", "t", "ok", "success"})
_FALSE_WORDS = frozenset({"false", "0", "no", "n", "f", "fail", "failure"})
_STATUS = re.compile(r"[1-5][0-9][0-9]")
_BLANKS = re.compile(r"[\s\-]+")


def normalize_label(text: Any) -> str:
    """A label as budgetlab compares it: NFKC, format characters (zero-width spaces, soft
    hyphens, BOMs) removed, case-folded, trimmed, runs of blanks and hyphens as one ``_``.

    >>> normalize_label(" Success\\u200b"), normalize_label("ＯＫ"), normalize_label("Timed out")
    ('success', 'ok', 'timed_out')
    """
    s = unicodedata.normalize("NFKC", str(text))
    s = "".join(ch for ch in s if unicodedata.category(ch) != "Cf")
    return _BLANKS.sub("_", s.casefold().strip())


def check_outcomes(outcomes: Any) -> dict[str, str] | None:
    """Validate an ``outcomes`` mapping: label (or status range ``2xx``) -> ``"success"``,
    ``"skip"`` or a failure bucket name; keys are normalised like the labels."""
    if outcomes is None:
        return None
    if not isinstance(outcomes, Mapping) or not outcomes:
        raise ConfigError("outcomes= takes a non-empty mapping of label -> 'success', 'skip' or a "
                          "failure bucket "
                          "name, e.g. {'succeeded': 'success', 'pending': 'skip', 'crashed': "
                          "'crash'}.")
    table: dict[str, str] = {}
    for key, value in outcomes.items():
        if isinstance(key, bool) or not isinstance(key, (str, int, np.integer)):
            raise ConfigError("outcomes= keys are labels (strings or integers), got "
                              f"{type(key).__name__}.")
        if not isinstance(value, str) or not value.strip() or value.strip() == "?":
            raise ConfigError(f"outcomes[{key!r}] must be 'success', 'skip' or a failure bucket "
                              "name "
                              "(a non-empty string other than '?').")
        norm = normalize_label(key)
        if not norm:
            raise ConfigError("outcomes= has an empty label; missing labels are refused, not "
                              "mapped.")
        bucket = value.strip()
        low = bucket.casefold()
        bucket = SUCCESS if low == SUCCESS else SKIP if low == SKIP else bucket
        if norm in table and table[norm] != bucket:
            raise ConfigError(f"outcomes= maps label {key!r} twice (labels are compared "
                              "case-insensitively).")
        table[norm] = bucket
    return table


def lookup_label(label: str, table: Mapping[str, str]) -> tuple[str, str] | None:
    """``(meaning, rule)`` of one normalised label: the exact key, else a status range
    (``404`` -> ``40x`` -> ``4xx``)."""
    if label in table:
        return table[label], label
    if _STATUS.fullmatch(label):
        for key in (label[:2] + "x", label[0] + "xx"):
            if key in table:
                return table[key], key
    return None


def parse_ok(col: pd.Series, *, what: str = "success") -> np.ndarray:
    """A success column (true/false, 1/0, yes/no) as bool; anything else raises
    :class:`OutcomeError`."""
    col = numpy_backed(col)
    missing = col.isna().to_numpy()
    if pd.api.types.is_bool_dtype(col.dtype) and not isinstance(col.dtype, pd.CategoricalDtype):
        if missing.any():
            raise OutcomeError(f"{int(missing.sum())} empty {what} value(s) at "
                               f"{row_numbers(missing)}; fill or drop those rows.")
        return col.to_numpy(dtype=bool)
    if pd.api.types.is_complex_dtype(col.dtype):
        raise OutcomeError(f"the {what} column holds complex numbers; use true/false or 1/0.")
    if pd.api.types.is_numeric_dtype(col.dtype) and not isinstance(col.dtype, pd.CategoricalDtype):
        if missing.any():
            raise OutcomeError(f"{int(missing.sum())} empty {what} value(s) at "
                               f"{row_numbers(missing)}; fill or drop those rows.")
        v = col.to_numpy(dtype=float)
        bad = ~np.isin(v, [0.0, 1.0])
        if bad.any():
            raise OutcomeError(f"non-boolean {what} value(s) at {row_numbers(bad)}; use true/false "
                               "or 1/0.")
        return np.asarray(v == 1.0)
    codes, uniques = factorize(col)
    norm = [normalize_label(u) for u in uniques] if len(uniques) <= 100_000 else None
    if norm is None:  # far too many distinct values for a true/false column: vectorized verdict
        raise OutcomeError(f"the {what} column has {len(uniques)} distinct values; use true/false "
                           "or 1/0.")
    state = np.array(
        [
            1 if u in _TRUE_WORDS else 0 if u in _FALSE_WORDS else -1 if u in MISSING_LABELS else -2
            for u in norm
        ]
        + [-1],
        dtype=np.int64,
    )  # last entry: code -1 (missing)
    per_row = state[codes]
    if (per_row == -1).any():
        miss = per_row == -1
        raise OutcomeError(f"{int(miss.sum())} empty {what} value(s) at {row_numbers(miss)}; fill "
                           "or drop those rows.")
    if (per_row == -2).any():
        raise OutcomeError(f"non-boolean {what} value(s) at {row_numbers(per_row == -2)}; use "
                           "true/false or 1/0.")
    return np.asarray(per_row == 1)
