"""Outcome labels or success flags -> ``ok``, the ``bucket`` categorical and the rows to skip.
What a label means is the vocabulary's (:mod:`.vocabulary`); **a label it cannot classify is
never given a meaning** (see :func:`classify_outcomes`). Labels are looked up one distinct label
at a time, never in a Python loop over rows, and a message never shows one that looks like
personal data. The parts of one log (Dask partitions) are checked row by row each
(:func:`check_label_rows`) and their labels classified once, with their counts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from .._util.codes import numpy_backed
from .._util.words import counted
from ..errors import OutcomeError
from ._label_words import (
    numbers_note,
    numeric_labels_error,
    outcomes_fix,
    too_many_labels_error,
    unknown_labels_error,
)
from ._messages import personal_mask, row_numbers
from .how_read import LabelReading
from .schema import FAILURE, MISSING_LABELS, SKIP, SUCCESS, bucket_dtype, code_counts
from .vocabulary import (
    DEFAULT_OUTCOMES,
    Outcomes,
    check_outcomes,
    is_number,
    lookup_label,
    normalize_label,
    parse_ok,
)

__all__ = ["OutcomeReading", "classify_outcomes", "check_label_rows", "map_outcomes",
           "bucket_with_ok", "flags_reading"]

_MAX_LABELS = 1000


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
                      require_success: bool = True,
                      counts: np.ndarray | None = None) -> OutcomeReading:
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

    With ``counts`` (the rows each value of ``labels`` stands for), ``labels`` are the distinct
    values of the parts of one log (Dask partitions), each part's rows checked on its own by
    :func:`check_label_rows`, and counted together: the same rules read the labels of the whole
    log, and ``ok``, ``bucket`` and ``skip`` hold one entry per value. Empty and truncated labels
    are then counted, not named by row; values of a true/false column must have passed
    :func:`check_label_rows` (its refusals name rows, which counts cannot).

    >>> r = classify_outcomes(pd.Series(["done", "pending", "failed", "done"]),
    ...                       {"done": "success", "pending": "skip", "failed": "crash"})
    >>> r.ok.tolist(), r.skip.tolist(), [str(b) for b in r.bucket]
    ([True, False, False, True], [False, True, False, False], ['success', 'nan', 'crash',
    'success'])
    >>> [(x.label, x.meaning, x.rows) for x in r.labels]
    [('done', 'success', 2), ('failed', 'crash', 1), ('pending', 'skip', 1)]
    """
    table = check_outcomes(outcomes)
    prepared = _prepared(labels, table, require_success, rows=counts)
    if isinstance(prepared, OutcomeReading):  # success flags
        return prepared
    codes, norm, counts, notes = prepared
    found = [lookup_label(u, DEFAULT_OUTCOMES if table is None else table) if counts[i] else None
             for i, u in enumerate(norm)]
    hidden = _hidden(norm, counts)
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
    readings = sorted((LabelReading(None if hidden[i] else norm[i], meaning[i],
                                    "vocabulary" if table is None else (found[i] or ("", ""))[1],
                                    int(counts[i])) for i in range(len(norm)) if counts[i]),
                      key=lambda r: (r.meaning != SUCCESS, r.meaning == SKIP, r.meaning, -r.rows))
    return OutcomeReading(ok, bucket, skip, tuple(readings),
                          "built-in" if table is None else "outcomes=", notes)


def check_label_rows(labels: pd.Series, outcomes: Outcomes | None = None) -> None:
    """The refusals of :func:`classify_outcomes` that name rows, which only the rows of one part
    of a log can name (empty or missing labels, truncated labels; values of a true/false column
    that are not booleans): the refusals of the labels as a whole (unknown or numeric labels, no
    success) wait until the counts of every part are classified together (``counts=``).

    >>> check_label_rows(pd.Series(["success", "zeta"]))  # 'zeta': the whole log decides
    >>> check_label_rows(pd.Series(["success", "succ"]))
    Traceback (most recent call last):
    ...
    budgetlab.errors.OutcomeError: 1 truncated outcome label (a prefix of a known label such as
    'success' or 'timeout') at row 2 (1-based); fix or drop each such row, or list every label
    with outcomes=.
    """
    _prepared(labels, check_outcomes(outcomes), require_success=False, part=True)


def _prepared(labels: pd.Series, table: Outcomes | None, require_success: bool, *,
              rows: np.ndarray | None = None, part: bool = False,
              ) -> OutcomeReading | tuple[np.ndarray, list[str], np.ndarray, tuple[str, ...]]:
    """The reading of a true/false column, or the codes, normalized distinct labels, their rows
    and the notes of a label column, after the refusals that need no meaning (missing, numeric
    and truncated labels; ``part``: only those that name rows, see :func:`check_label_rows`)."""
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
    # codes, not 1/0 flags: some whole value other than 0 and 1 (HTTP statuses in a Parquet
    # file), read as labels, as the same codes are in a CSV file
    status_codes = values is not None and bool(np.any((values != 0) & (values != 1)))
    if table is None and (flags or (numbers and not status_codes)):
        return flags_reading(parse_ok(labels, what="outcome"), require_success, flags, rows)
    notes = numbers_note(dtype, values, name) if numbers else ()
    if flags:
        labels = labels.astype(object).map({True: "true", False: "false"})
    codes, norm = _normalized(*(distinct or _factorized(labels)))
    counts = _label_rows(codes, norm, rows)
    if table is None:
        _vocabulary_checks(norm, counts, codes, rows, numeric=not part)
    return codes, norm, counts, notes


def _label_rows(codes: np.ndarray, norm: list[str], rows: np.ndarray | None) -> np.ndarray:
    """The rows of each normalized label (``rows``: of each value, one per code), after the
    refusal of empty or missing labels."""
    lowest = int(codes.min()) if len(codes) else 0
    counts = code_counts(codes if lowest >= 0 else codes[codes >= 0], len(norm)) \
        if rows is None else np.bincount(codes[codes >= 0], weights=rows[codes >= 0],
                                         minlength=len(norm)).astype(np.int64)
    is_missing = np.array([u in MISSING_LABELS for u in norm] + [True], dtype=bool)
    if lowest < 0 or bool((is_missing[:-1] & (counts > 0)).any()):
        missing = is_missing[codes]
        n = int(missing.sum()) if rows is None else int(rows[missing].sum())
        where = f" at {row_numbers(missing)}" if rows is None else ""  # counts: n is the rows
        raise OutcomeError(f"{counted(n, 'empty or missing outcome label')}{where}; fill or "
                           "drop those rows.")
    return counts


def _hidden(norm: list[str], counts: np.ndarray) -> np.ndarray:
    """Which labels look like personal data, never shown. The built-in words never do
    (``tests/events/test_labels.py``): only other labels some row has are scanned, so a read
    whose labels are all built-in words never calls the scan."""
    hidden = np.zeros(len(norm), dtype=bool)
    other = np.array([c > 0 and u not in DEFAULT_OUTCOMES for u, c in zip(norm, counts,
                                                                          strict=True)], dtype=bool)
    if other.any():
        hidden[other] = personal_mask(np.asarray(norm, dtype=object)[other])
    return hidden


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


def _vocabulary_checks(norm: list[str], counts: np.ndarray, codes: np.ndarray,
                       rows: np.ndarray | None, *, numeric: bool = True) -> None:
    """The refusals with a more specific fix than "unknown label": numeric codes (a question on
    the labels as a whole: not ``numeric``, for one part of a log), truncated labels (named by
    row; counted values, ``rows`` of each, by how many)."""
    unknown = [i for i, u in enumerate(norm) if u not in DEFAULT_OUTCOMES and counts[i]]
    numbers = [i for i in unknown if is_number(norm[i])] if numeric else []
    if numbers:
        raise numeric_labels_error([norm[i] for i in numbers], [int(counts[i]) for i in numbers])
    truncated = [i for i in unknown if len(norm[i]) >= 2 and
                 any(k.startswith(norm[i]) and len(k) > len(norm[i]) for k in DEFAULT_OUTCOMES)]
    if truncated:
        mask = np.isin(codes, truncated)
        where = f"at {row_numbers(mask)}" if rows is None else \
            f"in {counted(int(rows[mask].sum()), 'row')}"
        raise OutcomeError(f"{counted(len(truncated), 'truncated outcome label')} (a prefix of a "
                           "known label such as 'success' or 'timeout') "
                           f"{where}; fix or drop each such row, "
                           "or list every label with outcomes=.")


def _whole_numbers(values: Any) -> np.ndarray | None:
    """The distinct values of a numeric column (missing ones left out) as floats when all are
    whole, else ``None``."""
    values = np.asarray(values)
    if pd.api.types.is_complex_dtype(values.dtype):
        return None
    values = np.asarray(values, dtype=np.float64)
    return values if bool(np.all(np.isfinite(values) & (values == np.round(values)))) else None


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


def flags_reading(ok: np.ndarray, require_success: bool, flags: bool = False,
                  rows: np.ndarray | None = None) -> OutcomeReading:
    """The reading of true/false success flags (``failure`` for the false ones, ``flags``: bool;
    ``rows``: the rows each flag stands for, one when not given)."""
    weights = np.ones(len(ok), dtype=np.int64) if rows is None else rows
    n_ok, n = int(weights[ok].sum()), int(weights.sum())
    f = "false" if flags else "0"  # the false label as outcomes= reads it
    if n_ok == 0 and require_success:
        raise OutcomeError(f"no row of the outcome column is a success (every value is {f}); check "
                           "outcome=, or, if no attempt succeeded, say so with "
                           f"{outcomes_fix({f: FAILURE}, [])}.")
    bucket = pd.Categorical.from_codes(np.where(ok, 0, 1).astype(np.int64),
                                       dtype=bucket_dtype([FAILURE] if n_ok < n else []))
    readings = [LabelReading("true", SUCCESS, "true/false column", n_ok)] if n_ok else []
    if n_ok < n:
        readings.append(LabelReading("false", FAILURE, "true/false column", n - n_ok))
    return OutcomeReading(ok, bucket, np.zeros(len(ok), dtype=bool), tuple(readings),
                          "true/false")


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
