"""Outcome labels and success flags -> ``ok``, the ``bucket`` categorical and the rows to skip.

Labels are normalised and looked up one distinct label at a time (never a Python loop over rows)
in the vocabulary of :mod:`.vocabulary`.

**A label budgetlab cannot classify is never given a meaning.** Without ``outcomes=`` only the
built-in vocabulary (:data:`DEFAULT_OUTCOMES`) classifies labels; any other label is refused
with its count and the exact ``outcomes=`` / ``--outcomes`` to pass. A given ``outcomes=``
mapping is complete: it may send labels to ``"success"``, to a failure bucket of any name, or to
``"skip"`` (the rows are left out and counted), and HTTP status codes may be given as ranges
(``2xx``, ``50x``). Messages list labels with counts and never labels that look like personal data.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from .._util.codes import category_codes, factorize
from .._util.words import say
from ..errors import OutcomeError
from ..privacy import scan_text
from ._columns import (
    MISSING_LABELS,
    code_counts,
    numpy_backed,
    recode,
    small_int,
)
from ._messages import row_numbers, show_labels
from .schema import FAILURE, SKIP, SUCCESS, LabelReading, bucket_dtype
from .vocabulary import (
    DEFAULT_OUTCOMES,
    NON_FINAL_STATES,
    check_outcomes,
    lookup_label,
    normalize_label,
    parse_ok,
)

__all__ = ["DEFAULT_OUTCOMES", "SKIP", "NON_FINAL_STATES", "MISSING_LABELS", "LabelReading",
           "OutcomeReading",
           "normalize_label", "check_outcomes", "classify_outcomes", "map_outcomes", "parse_ok",
           "bucket_with_ok"]

_MAX_LABELS = 1000
_MAX_SUGGESTED = 30


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


def _normalized(col: pd.Series) -> tuple[np.ndarray, list[str]]:
    """``(codes, normalized distinct labels)``; code -1 for missing values."""
    if isinstance(col.dtype, pd.CategoricalDtype):  # its own small codes: no int64 copy of the rows
        codes, uniques = category_codes(col), pd.Index(col.cat.categories)
    else:
        codes, uniques = factorize(col)
    if len(uniques) > _MAX_LABELS:
        raise OutcomeError(
            f"the outcome column has {len(uniques)} distinct labels (more than {_MAX_LABELS}); it "
            "does not look "
            "like an outcome column: check outcome= (or use ok= for a true/false column)."
        )
    if pd.api.types.is_float_dtype(uniques.dtype):
        vals = uniques.to_numpy()
        norm = [str(int(v)) if np.isfinite(v) and v == int(v) else str(v) for v in vals]
    else:
        norm = [normalize_label(u) for u in uniques]  # a loop over distinct labels (<= 1000)
    merged = list(dict.fromkeys(norm))  # spellings of one label ("OK", "ok ") become one
    if len(merged) < len(norm):
        pos = {u: i for i, u in enumerate(merged)}
        remap = np.asarray([pos[u] for u in norm] + [-1], dtype=codes.dtype)
        codes, norm = remap[codes], merged
    return codes, norm


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _cli_label(label: str) -> str:
    return label if re.fullmatch(r"[^\s,=']+", label) else repr(label)


def _fix(known: dict[str, str], unknown: list[str]) -> str:
    """The exact ``--outcomes`` and ``outcomes=`` to pass: the labels already understood, then
    the unknown ones with ``?`` for the user to fill: always ``?``, never a guessed meaning
    (``accepted``
    is a success in an SSH log, a state that is not final in a job queue)."""
    pairs = list(known.items()) + [(u, "?") for u in unknown]
    more = len(pairs) - _MAX_SUGGESTED
    pairs = pairs[:_MAX_SUGGESTED]
    cli = ",".join(f"{_cli_label(k)}={v}" for k, v in pairs) + (",..." if more > 0 else "")
    api = "{" + ", ".join(f"{k!r}: {v!r}" for k, v in pairs) + (", ..." if more > 0 else "") + "}"
    return say(f"outcomes={api}", f"--outcomes {cli}")


def _refuse_unknown(norm: list[str], counts: np.ndarray, unknown: list[int], known: dict[str, str],
                    hidden: np.ndarray, mapping: bool) -> OutcomeError:
    shown = [i for i in unknown if not hidden[i]]
    listed = show_labels([norm[i] for i in unknown], [int(counts[i]) for i in unknown])
    states = [norm[i] for i in shown if norm[i] in NON_FINAL_STATES]
    skip_hint = (f" Labels such as {', '.join(map(repr, states[:3]))} look like states that are "
                 "not final: "
                 "if they are, map them to skip to leave those rows out." if states else "")
    where = ("outcomes= does not list "
             "them") if mapping else "the built-in vocabulary does not know them, and budgetlab " \
        "gives no label a meaning it cannot know"
    fix = _fix(known, [norm[i] for i in shown])
    todo = "; replace each ? by success, a failure bucket name, or skip" if "=?" in fix else ""
    return OutcomeError(f"unknown outcome label(s) ({where}): {listed}. Say what each means: "
                        f"{fix}{todo}.{skip_hint}")


def _hidden(norm: list[str]) -> np.ndarray:
    hidden = np.zeros(len(norm), dtype=bool)
    if norm:
        for mask in scan_text(np.asarray(norm, dtype=object)).values():
            hidden |= mask
    return hidden


def _vocabulary_checks(norm: list[str], counts: np.ndarray, codes: np.ndarray) -> None:
    """The refusals with a more specific fix than "unknown label": numeric codes, truncated
    labels."""
    numeric = [i for i,
               u in enumerate(norm) if u not in DEFAULT_OUTCOMES and _is_number(u) and counts[i]]
    if numeric:
        raise OutcomeError(
            "outcome labels look like numeric codes: "
            f"{show_labels([norm[i] for i in numeric], [int(counts[i]) for i in numeric])}; "
            "say which are successes with "
            + say("outcomes= (status ranges allowed: {'2xx': 'success', '3xx': 'success', '4xx': "
                  "'client_error', "
                  "'5xx': 'server_error'}, or '4xx': 'skip' to leave client errors out).",
                  "--outcomes (status ranges allowed: "
                  "2xx=success,3xx=success,4xx=client_error,5xx=server_error, "
                  "or 4xx=skip to leave client errors out).")
        )
    truncated = [i for i,
                 u in enumerate(norm) if u not in DEFAULT_OUTCOMES and counts[i] and len(u) >= 2
                 and any(k.startswith(u) and len(k) > len(u) for k in DEFAULT_OUTCOMES)]
    if truncated:
        raise OutcomeError(
            "outcome label(s) look truncated (a prefix of a known label such as 'success' or "
            "'timeout') at "
            f"{row_numbers(np.isin(codes, truncated))}; fix or drop those rows, or list every "
            "label with outcomes=."
        )


def _status_codes(col: pd.Series) -> bool:
    """A numeric column of codes, not 1/0 flags: some value is a whole number other than 0 and 1
    (HTTP statuses in a Parquet file). Read as labels, as the same codes are in a CSV file."""
    values = pd.unique(col.dropna().to_numpy())
    if pd.api.types.is_complex_dtype(values.dtype):
        return False
    values = np.asarray(values, dtype=np.float64)
    whole = np.isfinite(values) & (values == np.round(values))
    return bool(np.all(whole)) and bool(np.any((values != 0) & (values != 1)))


def classify_outcomes(labels: pd.Series, outcomes: Mapping[str, str] | None = None, *,
                      require_success: bool = True) -> OutcomeReading:
    """Read outcome labels: ``ok``, ``bucket``, rows to ``skip`` and what each label meant.

    Without ``outcomes`` the built-in vocabulary :data:`DEFAULT_OUTCOMES` classifies labels; a
    label it does not know is refused (:class:`OutcomeError` with the exact fix), and so is a
    column in which no label is a success (unless ``require_success=False``: one slice of a
    larger log, such as a Dask partition, may hold failures only). A true/false or 1/0 column (bool
    or numbers) is read
    as success flags; a numeric column with other whole numbers (HTTP statuses in Parquet) is read
    as labels, as
    the same codes in a CSV file are. A given ``outcomes`` is complete (unlisted labels are
    refused); its keys may
    be status ranges (``2xx``, ``50x``; an exact code wins over ``50x``, which wins over ``5xx``).
    Missing labels are refused.

    >>> r = classify_outcomes(pd.Series(["done", "pending", "failed", "done"]), {"done": "success",
    ...                       "pending": "skip", "failed": "crash"})
    >>> r.ok.tolist(), r.skip.tolist(), [str(b) for b in r.bucket]
    ([True, False, False, True], [False, True, False, False], ['success', 'nan', 'crash',
    'success'])
    >>> [(x.label, x.meaning, x.rows) for x in r.labels]
    [('done', 'success', 2), ('failed', 'crash', 1), ('pending', 'skip', 1)]
    """
    table = check_outcomes(outcomes)
    name = labels.name
    labels = numpy_backed(labels)
    dtype = labels.dtype
    if table is None and (pd.api.types.is_bool_dtype(dtype) or (
            pd.api.types.is_numeric_dtype(dtype) and not isinstance(dtype, pd.CategoricalDtype)
            and not _status_codes(labels))):
        ok = parse_ok(labels, what="outcome")
        return _flags_reading(ok, require_success)
    notes = _numbers_note(labels, name)
    if pd.api.types.is_bool_dtype(dtype):
        labels = labels.astype(object).map({True: "true", False: "false"})
    codes, norm = _normalized(labels)
    lowest = int(codes.min()) if len(codes) else 0
    counts = code_counts(codes, len(norm)) if lowest >= 0 else np.bincount(codes[codes >= 0],
                                                                           minlength=len(norm))
    is_missing = np.array([u in MISSING_LABELS for u in norm], dtype=bool)
    if lowest < 0 or bool((is_missing & (counts > 0)).any()):
        missing_rows = (codes < 0) | (is_missing[np.maximum(codes, 0)] if len(norm) else False)
        raise OutcomeError(f"{int(np.sum(missing_rows))} empty or missing outcome label(s) at "
                           f"{row_numbers(np.asarray(missing_rows))}; fill or drop those rows.")
    if table is None:
        _vocabulary_checks(norm, counts, codes)
    found = [lookup_label(u, DEFAULT_OUTCOMES if table is None else table) for u in norm]
    unknown = [i for i, f in enumerate(found) if f is None and counts[i]]
    hidden = _hidden(norm)
    if unknown:
        known = dict(table) if table is not None else \
            {norm[i]: f[0] for i,
             f in enumerate(found) if f is not None and counts[i] and not hidden[i]}
        raise _refuse_unknown(norm, counts, unknown, known, hidden, table is not None)
    meaning = [f[0] if f is not None else SKIP for f in found]
    if (
        table is None
        and require_success
        and not any(m == SUCCESS for m, c in zip(meaning, counts, strict=True) if c)
    ):
        shown = {norm[i]: meaning[i] for i in range(len(norm)) if counts[i] and not hidden[i]}
        raise OutcomeError(
            "no outcome label is a success under the built-in vocabulary (every row would be a "
            "failure); check "
            "outcome= names the outcome column, or, if no attempt succeeded, say so with an "
            "explicit mapping: "
            f"{_fix(shown, [])}."
        )
    reading = _reading(codes, meaning, counts > 0)
    rows = [LabelReading(None if hidden[i] else norm[i], meaning[i],
                         "vocabulary" if table is None else
                         (found[i] or ("", ""))[1],
                         int(counts[i])) for i in range(len(norm)) if counts[i]]
    rows.sort(key=lambda r: (r.meaning != SUCCESS, r.meaning == SKIP, r.meaning, -r.rows))
    return OutcomeReading(reading[0], reading[1], reading[2], tuple(rows),
                          "built-in" if table is None else "outcomes=", notes)


def _numbers_note(labels: pd.Series, name: Any) -> tuple[str, ...]:
    """The statement for a numeric column read as labels (HTTP statuses in Parquet, or codes an
    ``outcomes=`` mapping names); nothing for text, true/false or categorical columns."""
    dtype = labels.dtype
    if pd.api.types.is_bool_dtype(dtype) or isinstance(dtype, pd.CategoricalDtype) or \
            not pd.api.types.is_numeric_dtype(dtype) or pd.api.types.is_complex_dtype(dtype):
        return ()
    values = np.asarray(pd.unique(labels.dropna().to_numpy()), dtype=np.float64)
    whole = bool(np.all(np.isfinite(values) & (values == np.round(values))))
    what = f"column {name!r}" if isinstance(name, str) else "the outcome column"
    kind = "whole numbers" if whole else "numbers"
    http = (
        " (HTTP statuses)"
        if whole and len(values) and bool(np.all((values >= 100) & (values <= 599)))
        else ""
    )
    return (f"{what}: {kind}, read as labels{http}",)


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
                        dtype=small_int(len(dtype.categories)))
    bucket_codes = recode(to_cat, codes) if len(to_cat) else np.zeros(0, dtype=np.int8)
    ok = bucket_codes == cat_pos[SUCCESS]
    # validate=False: every code is -1 or a position in dtype.categories (to_cat is built so)
    return ok, pd.Categorical.from_codes(bucket_codes, dtype=dtype,
                                         validate=False), bucket_codes < 0


def _flags_reading(ok: np.ndarray, require_success: bool) -> OutcomeReading:
    n_ok = int(ok.sum())
    if n_ok == 0 and require_success:
        raise OutcomeError("no row of the outcome column is a success (every value is false or 0); "
                           "check outcome=, "
                           "or, if no attempt succeeded, say so "
                           "with " + say("outcomes={'0': 'failure'}", "--outcomes 0=failure") + ".")
    codes = np.where(ok, 0, 1).astype(np.int64)
    bucket = pd.Categorical.from_codes(codes,
                                       dtype=bucket_dtype([FAILURE] if n_ok < len(ok) else []))
    rows = [LabelReading("true", SUCCESS, "true/false column", n_ok)] if n_ok else []
    if n_ok < len(ok):
        rows.append(LabelReading("false", FAILURE, "true/false column", len(ok) - n_ok))
    return OutcomeReading(ok, bucket, np.zeros(len(ok), dtype=bool), tuple(rows), "true/false")


def map_outcomes(
    labels: pd.Series, outcomes: Mapping[str, str] | None = None
) -> tuple[np.ndarray, pd.Categorical]:
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


def bucket_with_ok(col: pd.Series | None, ok: np.ndarray) -> pd.Categorical:
    """Failure kinds from a ``bucket`` column next to a success column (``ok`` decides); failures
    without a kind (no ``bucket`` column, or an empty value) are ``failure``. Kinds are
    normalised; vocabulary words keep their vocabulary bucket (``timed out`` -> ``timeout``)."""
    if col is None:
        has_failures = bool((~ok).any())
        return pd.Categorical.from_codes(np.where(ok, 0, 1).astype(np.int8),
                                         dtype=bucket_dtype([FAILURE] if has_failures else []))
    col = numpy_backed(col)
    if pd.api.types.is_bool_dtype(col.dtype):
        col = col.astype(object)
    codes, norm = _normalized(col)
    mapped = [FAILURE if u in MISSING_LABELS else DEFAULT_OUTCOMES.get(u, u) for u in norm]
    labels = [*mapped, FAILURE, SUCCESS]  # then: a failure without a kind, a success row
    row = np.where(codes < 0, len(mapped), codes)
    says_success = np.asarray([m == SUCCESS for m in labels], dtype=bool)[row]
    contradiction = ~ok & says_success
    if contradiction.any():
        raise OutcomeError(
            f"{int(contradiction.sum())} row(s) are failures (ok is false) but their bucket says "
            "success, at "
            f"{row_numbers(contradiction)}; fix the ok or the bucket value."
        )
    row = np.where(ok, len(mapped) + 1, row)
    return _reading(row, labels)[1]
