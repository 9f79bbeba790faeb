"""What an outcome label means, and outcome labels or success flags -> ``ok``, the ``bucket``
categorical and the rows to skip. **A label budgetlab cannot classify is never given a meaning**
(see :func:`classify_outcomes`); labels are looked up one distinct label at a time, never in a
Python loop over rows, and a message never shows one that looks like personal data.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from .._util.codes import numpy_backed
from .._util.words import counted
from ..errors import ConfigError, OutcomeError
from ._messages import (
    non_boolean_error,
    numbers_note,
    numeric_labels_error,
    outcomes_fix,
    personal_mask,
    row_numbers,
    too_many_labels_error,
    unknown_labels_error,
)
from .schema import (
    FAILURE,
    MISSING_LABELS,
    SKIP,
    SOLVE_ERROR,
    SUCCESS,
    TIMEOUT,
    LabelReading,
    bucket_dtype,
    code_counts,
)

__all__ = ["DEFAULT_OUTCOMES", "OutcomeReading", "Outcomes", "normalize_label",
           "check_outcomes", "lookup_label", "classify_outcomes", "map_outcomes", "parse_ok",
           "bucket_with_ok", "flags_reading"]

_MAX_LABELS = 1000
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
_TRUE_WORDS = frozenset({"true", "1", "yes", "y", "t", "ok", "success"})
_FALSE_WORDS = frozenset({"false", "0", "no", "n", "f", "fail", "failure"})
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
    s = _BLANKS.sub("_", "".join(ch for ch in s if unicodedata.category(ch) != "Cf")
                    .casefold().strip())
    whole = _WHOLE_DECIMAL.fullmatch(s)
    return str(int(whole.group(1))) if whole else s


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


@dataclass(frozen=True)
class OutcomeReading:
    """What :func:`classify_outcomes` decided for every row: ``ok``, ``bucket`` (missing for
    skipped rows), ``skip`` (rows left out on purpose), one :class:`LabelReading` per label and
    the reading decisions to state (``notes``, e.g. numbers read as labels)."""

    ok: np.ndarray
    bucket: pd.Categorical
    skip: np.ndarray
    labels: tuple[LabelReading, ...]
    vocabulary: str
    notes: tuple[str, ...] = ()


def classify_outcomes(labels: pd.Series, outcomes: Outcomes | None = None, *,
                      require_success: bool = True) -> OutcomeReading:
    """Read outcome labels: ``ok``, ``bucket``, rows to ``skip`` and what each label meant.

    Without ``outcomes`` the built-in vocabulary :data:`DEFAULT_OUTCOMES` classifies labels; a
    label it does not know is refused (:class:`OutcomeError` with the exact fix), and so is a
    column in which no label is a success (unless ``require_success=False``: one slice of a
    larger log, such as a Dask partition, may hold failures only). A true/false or 1/0 column
    (bool or numbers) is read as success flags; a numeric column with other whole numbers (HTTP
    statuses in Parquet) is read as labels, as the same codes in a CSV file are. A given
    ``outcomes`` is complete (unlisted labels are refused); its keys may be status ranges
    (``2xx``, ``50x``; an exact code wins over ``50x``, which wins over ``5xx``); a function of
    the label is called once for each label some row has. Missing labels are refused.

    >>> r = classify_outcomes(pd.Series(["done", "pending", "failed", "done"]),
    ...                       {"done": "success", "pending": "skip", "failed": "crash"})
    >>> r.ok.tolist(), r.skip.tolist(), [str(b) for b in r.bucket]
    ([True, False, False, True], [False, True, False, False], ['success', 'nan', 'crash',
    'success'])
    >>> [(x.label, x.meaning, x.rows) for x in r.labels]
    [('done', 'success', 2), ('failed', 'crash', 1), ('pending', 'skip', 1)]
    """
    table = check_outcomes(outcomes)
    name = labels.name
    labels = numpy_backed(labels) if isinstance(labels.dtype, pd.ArrowDtype) else labels
    dtype = labels.dtype
    flags = pd.api.types.is_bool_dtype(dtype)
    numbers = pd.api.types.is_numeric_dtype(dtype) and not flags and \
        not isinstance(dtype, pd.CategoricalDtype)
    # a column of numbers: its distinct values found once, for the choice between flags and
    # labels, the note and the labels themselves
    distinct = _factorized(labels) if numbers else None
    values = None if distinct is None else _whole_numbers(distinct[1])
    if table is None and (flags or (numbers and not _status_codes(values))):
        return flags_reading(parse_ok(labels, what="outcome"), require_success, flags)
    notes = numbers_note(dtype, values, name) if numbers else ()
    if flags:
        labels = labels.astype(object).map({True: "true", False: "false"})
    codes, norm = _normalized(*(distinct or _factorized(labels)))
    lowest = int(codes.min()) if len(codes) else 0
    counts = code_counts(codes if lowest >= 0 else codes[codes >= 0], len(norm))
    is_missing = np.array([u in MISSING_LABELS for u in norm] + [True], dtype=bool)
    if lowest < 0 or bool((is_missing[:-1] & (counts > 0)).any()):
        missing = is_missing[codes]
        raise OutcomeError(f"{counted(int(missing.sum()), 'empty or missing outcome label')} at "
                           f"{row_numbers(missing)}; fill or drop those rows.")
    if table is None:
        _vocabulary_checks(norm, counts, codes)
    found = [lookup_label(u, DEFAULT_OUTCOMES if table is None else table) if counts[i] else None
             for i, u in enumerate(norm)]
    hidden = personal_mask(np.asarray(norm, dtype=object))  # never shown
    unknown = [i for i, f in enumerate(found) if f is None and counts[i]]
    if unknown:
        known = dict(table) if isinstance(table, Mapping) else \
            {norm[i]: f[0] for i, f in enumerate(found) if f and counts[i] and not hidden[i]}
        raise unknown_labels_error(norm, counts, unknown, known, hidden, table is not None)
    meaning = [f[0] if f is not None else SKIP for f in found]
    if table is None and require_success and \
            not any(m == SUCCESS for m, c in zip(meaning, counts, strict=True) if c):
        shown = {norm[i]: meaning[i] for i in range(len(norm)) if counts[i] and not hidden[i]}
        raise OutcomeError("no outcome label is a success under the built-in vocabulary (every "
                           "row would be a failure); check outcome= names the outcome column, or, "
                           "if no attempt succeeded, say so with an explicit mapping: "
                           f"{outcomes_fix(shown, [])}.")
    ok, bucket, skip = _reading(codes, meaning, counts > 0)
    rows = sorted((LabelReading(None if hidden[i] else norm[i], meaning[i],
                                "vocabulary" if table is None else (found[i] or ("", ""))[1],
                                int(counts[i])) for i in range(len(norm)) if counts[i]),
                  key=lambda r: (r.meaning != SUCCESS, r.meaning == SKIP, r.meaning, -r.rows))
    return OutcomeReading(ok, bucket, skip, tuple(rows),
                          "built-in" if table is None else "outcomes=", notes)


def map_outcomes(labels: pd.Series,
                 outcomes: Mapping[str, str] | None = None) -> tuple[np.ndarray, pd.Categorical]:
    """Map outcome labels to ``(ok, bucket)`` (see :func:`classify_outcomes` for the rules).

    Rows mapped to ``"skip"`` have ``ok`` false and a missing bucket; :func:`budgetlab.read_events`
    leaves them out.

    >>> ok, bucket = map_outcomes(pd.Series(["success", "TIMEOUT", "Succeeded\\u200b"]))
    >>> ok.tolist(), list(bucket)
    ([True, False, True], ['success', 'timeout', 'success'])
    >>> map_outcomes(pd.Series(["200", "503", "304"]), {"2xx": "success", "3xx": "success",
    ...                                                 "5xx": "server_error"})[0].tolist()
    [True, False, True]
    """
    reading = classify_outcomes(labels, outcomes)
    return reading.ok, reading.bucket


def _factorized(col: pd.Series) -> tuple[np.ndarray, Any]:
    """``(codes, distinct values)`` of a column, code -1 for missing values (one pass over the
    rows; a categorical column's own codes)."""
    if isinstance(col.dtype, pd.CategoricalDtype):  # its own small codes: no int64 copy of rows
        return np.asarray(col.array.codes), pd.Index(col.cat.categories)
    return pd.factorize(col)  # code -1: missing


def _normalized(codes: np.ndarray, uniques: Any) -> tuple[np.ndarray, list[str]]:
    """``(codes, normalized distinct labels)`` from :func:`_factorized`; code -1 for missing
    values."""
    if len(uniques) > _MAX_LABELS:
        raise too_many_labels_error(len(uniques), _MAX_LABELS)
    norm = [normalize_label(u) for u in uniques]  # a loop over distinct labels (<= 1000)
    merged = list(dict.fromkeys(norm))  # spellings of one label ("OK", "ok ") become one
    if len(merged) < len(norm):
        pos = {u: i for i, u in enumerate(merged)}
        codes = np.asarray([pos[u] for u in norm] + [-1], dtype=codes.dtype)[codes]
    return codes, merged


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _vocabulary_checks(norm: list[str], counts: np.ndarray, codes: np.ndarray) -> None:
    """The refusals with a more specific fix than "unknown label": numeric codes, truncated
    labels."""
    unknown = [i for i, u in enumerate(norm) if u not in DEFAULT_OUTCOMES and counts[i]]
    numeric = [i for i in unknown if _is_number(norm[i])]
    if numeric:
        raise numeric_labels_error([norm[i] for i in numeric], [int(counts[i]) for i in numeric])
    truncated = [i for i in unknown if len(norm[i]) >= 2 and
                 any(k.startswith(norm[i]) and len(k) > len(norm[i]) for k in DEFAULT_OUTCOMES)]
    if truncated:
        raise OutcomeError(f"{counted(len(truncated), 'truncated outcome label')} (a prefix of a "
                           "known label such as 'success' or 'timeout') at "
                           f"{row_numbers(np.isin(codes, truncated))}; fix or drop each such row, "
                           "or list every label with outcomes=.")


def _whole_numbers(values: Any) -> np.ndarray | None:
    """The distinct values of a numeric column (missing ones left out) as floats when all are
    whole, else ``None``."""
    values = np.asarray(values)
    if pd.api.types.is_complex_dtype(values.dtype):
        return None
    values = np.asarray(values, dtype=np.float64)
    return values if bool(np.all(np.isfinite(values) & (values == np.round(values)))) else None


def _status_codes(values: np.ndarray | None) -> bool:
    """A numeric column of codes, not 1/0 flags (``values``: its whole distinct values, or
    ``None``): some value is a whole number other than 0 and 1 (HTTP statuses in a Parquet
    file). Read as labels, as the same codes are in a CSV file."""
    return values is not None and bool(np.any((values != 0) & (values != 1)))


def _reading(codes: np.ndarray, mapped: list[str], used: np.ndarray | None = None,
             ) -> tuple[np.ndarray, pd.Categorical, np.ndarray]:
    """``ok``, the bucket categorical (missing where skipped) and the skip mask from per-row
    codes into ``mapped`` (one entry per distinct label; ``used`` marks those some row has,
    found from the codes when not given)."""
    if used is None:
        used = np.zeros(len(mapped), dtype=bool)
        used[codes] = True
    dtype = bucket_dtype({m for m, u in zip(mapped, used, strict=True) if u} - {SUCCESS, SKIP})
    cat_pos = {c: i for i, c in enumerate(dtype.categories)}
    to_cat = np.asarray([cat_pos.get(m, -1) for m in mapped],
                        dtype=np.int8 if len(cat_pos) < 128 else np.int16)
    bucket_codes = np.zeros(0, dtype=np.int8) if not len(to_cat) else np.array(  # Arrow's take:
        pc.take(pa.array(to_cat), pa.array(codes)).to_numpy(zero_copy_only=True))  # small codes
    # validate=False: every code is -1 or a position in dtype.categories (to_cat is built so)
    bucket = pd.Categorical.from_codes(bucket_codes, dtype=dtype, validate=False)
    return bucket_codes == cat_pos[SUCCESS], bucket, bucket_codes < 0


def flags_reading(ok: np.ndarray, require_success: bool, flags: bool = False) -> OutcomeReading:
    """The reading of true/false success flags (``failure`` for the false ones, ``flags``: bool)."""
    n_ok, f = int(ok.sum()), "false" if flags else "0"  # the false label as outcomes= reads it
    if n_ok == 0 and require_success:
        raise OutcomeError(f"no row of the outcome column is a success (every value is {f}); check "
                           "outcome=, or, if no attempt succeeded, say so with "
                           f"{outcomes_fix({f: FAILURE}, [])}.")
    bucket = pd.Categorical.from_codes(np.where(ok, 0, 1).astype(np.int64),
                                       dtype=bucket_dtype([FAILURE] if n_ok < len(ok) else []))
    rows = [LabelReading("true", SUCCESS, "true/false column", n_ok)] if n_ok else []
    if n_ok < len(ok):
        rows.append(LabelReading("false", FAILURE, "true/false column", len(ok) - n_ok))
    return OutcomeReading(ok, bucket, np.zeros(len(ok), dtype=bool), tuple(rows), "true/false")


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
        state = np.array([1 if u in _TRUE_WORDS else 0 if u in _FALSE_WORDS else
                          -1 if u in MISSING_LABELS else -2 for u in words] + [-1])[codes]
    if (state == -1).any():
        raise OutcomeError(f"{counted(int((state == -1).sum()), f'empty {what} value')} at "
                           f"{row_numbers(state == -1)}; fill or drop those rows.")
    if (state == -2).any():
        raise non_boolean_error(what, state == -2, numeric or all(map(_is_number, words)))
    return np.asarray(state == 1)


def bucket_with_ok(col: pd.Series | None, ok: np.ndarray) -> pd.Categorical:
    """Failure kinds from a ``bucket`` column next to a success column (``ok`` decides); failures
    without a kind (no ``bucket`` column, or an empty value) are ``failure``. Kinds are
    normalised; vocabulary words keep their vocabulary bucket (``timed out`` -> ``timeout``)."""
    if col is None:
        return pd.Categorical.from_codes(np.where(ok, 0, 1).astype(np.int8),
                                         dtype=bucket_dtype([] if ok.all() else [FAILURE]))
    col = numpy_backed(col)
    codes, norm = _normalized(*_factorized(col.astype(object)
                                           if pd.api.types.is_bool_dtype(col.dtype) else col))
    labels = [*(FAILURE if u in MISSING_LABELS else DEFAULT_OUTCOMES.get(u, u) for u in norm),
              FAILURE, SUCCESS]  # then: a failure without a kind, a success row
    row = np.where(codes < 0, len(norm), codes)
    contradiction = ~ok & np.asarray([m == SUCCESS for m in labels], dtype=bool)[row]
    if contradiction.any():
        raise OutcomeError(f"{counted(int(contradiction.sum()), 'failure')} (ok is false) whose "
                           f"bucket says success, at {row_numbers(contradiction)}; fix the ok or "
                           "the bucket value.")
    return _reading(np.where(ok, len(norm) + 1, row), labels)[1]
