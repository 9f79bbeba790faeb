"""Outcome labels and success flags -> ``ok`` and the ``bucket`` categorical.

Labels are compared case-insensitively with surrounding blanks ignored, one distinct label at a
time (never a Python loop over rows). Messages list labels only where the caller must act on them,
with counts, and never labels that look like personal data.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from ..errors import ConfigError, OutcomeError
from ._columns import MISSING_LABELS, factorize, numpy_backed
from ._messages import row_numbers, show_labels
from .schema import SOLVE_ERROR, SUCCESS, TIMEOUT, bucket_dtype

__all__ = ["DEFAULT_OUTCOMES", "MISSING_LABELS", "check_outcomes", "map_outcomes", "parse_ok", "bucket_with_ok"]

#: Default outcome labels (case-insensitive, surrounding blanks ignored). Labels that are neither
#: listed here nor refused (numeric codes, truncated labels) are failures that keep their own
#: label as bucket.
DEFAULT_OUTCOMES: dict[str, str] = {
    "success": SUCCESS, "ok": SUCCESS, "true": SUCCESS, "1": SUCCESS, "solved": SUCCESS, "pass": SUCCESS,
    "passed": SUCCESS, "t": SUCCESS, "yes": SUCCESS, "y": SUCCESS,
    "timeout": TIMEOUT, "timed_out": TIMEOUT, "timedout": TIMEOUT, "connection_timeout": TIMEOUT,
    "network_timeout": TIMEOUT,
    "solve_error": SOLVE_ERROR, "error": SOLVE_ERROR, "fail": SOLVE_ERROR, "failure": SOLVE_ERROR,
    "failed": SOLVE_ERROR, "false": SOLVE_ERROR, "0": SOLVE_ERROR, "f": SOLVE_ERROR, "no": SOLVE_ERROR,
    "n": SOLVE_ERROR,
}
_TRUE = frozenset({"true", "1", "yes", "y", "t", "ok", "success"})
_FALSE = frozenset({"false", "0", "no", "n", "f", "fail", "failure"})
_MAX_LABELS = 1000


def check_outcomes(outcomes: Any) -> dict[str, str] | None:
    """Validate an ``outcomes`` mapping: normalized label -> ``"success"`` or a bucket name."""
    if outcomes is None:
        return None
    if not isinstance(outcomes, Mapping) or not outcomes:
        raise ConfigError("outcomes= takes a non-empty mapping of label -> 'success' or a failure bucket name, "
                          "e.g. {'success': 'success', 'timeout': 'timeout', 'captcha_unsolvable': 'solve_error'}.")
    table: dict[str, str] = {}
    for key, value in outcomes.items():
        if isinstance(key, bool) or not isinstance(key, (str, int, np.integer)):
            raise ConfigError(f"outcomes= keys are labels (strings or integers), got {type(key).__name__}.")
        if not isinstance(value, str) or not value.strip():
            raise ConfigError(f"outcomes[{key!r}] must be 'success' or a failure bucket name (a non-empty string).")
        norm = str(key).strip().lower()
        bucket = value.strip()
        bucket = SUCCESS if bucket.lower() == SUCCESS else bucket
        if norm in table and table[norm] != bucket:
            raise ConfigError(f"outcomes= maps label {key!r} twice (labels are compared case-insensitively).")
        table[norm] = bucket
    return table


def _labels(col: pd.Series) -> tuple[np.ndarray, list[str]]:
    """``(codes, normalized distinct labels)``; code -1 for missing values."""
    codes, uniques = factorize(col)
    if len(uniques) > _MAX_LABELS:
        raise OutcomeError(
            f"the outcome column has {len(uniques)} distinct labels (more than {_MAX_LABELS}); it does not look "
            "like an outcome column: check outcome= (or use ok= for a true/false column)."
        )
    if pd.api.types.is_float_dtype(uniques.dtype):
        vals = uniques.to_numpy()
        norm = [str(int(v)) if np.isfinite(v) and v == int(v) else str(v) for v in vals]
    else:
        norm = [str(u).strip().lower() for u in uniques]  # a loop over distinct labels (<= 1000)
    return codes, norm


def map_outcomes(labels: pd.Series, outcomes: Mapping[str, str] | None = None) -> tuple[np.ndarray, pd.Categorical]:
    """Map outcome labels to ``(ok, bucket)``.

    With ``outcomes=None`` the :data:`DEFAULT_OUTCOMES` apply (case-insensitive) and any other
    label is a failure that keeps its own label as bucket, except labels that are numeric codes
    (e.g. HTTP statuses: which are successes?) or look truncated (a strict prefix of a known label,
    as a half-written last line leaves): those raise :class:`OutcomeError`. A true/false or 1/0
    column is read as success flags. A given ``outcomes`` mapping is complete: labels it does not
    list raise :class:`OutcomeError` listing them with counts. A label mapped to ``"success"`` is
    a success; anything else names the failure bucket. Missing labels are refused.

    >>> ok, bucket = map_outcomes(pd.Series(["success", "TIMEOUT", "captcha_unsolvable"]))
    >>> ok.tolist(), list(bucket)
    ([True, False, False], ['success', 'timeout', 'captcha_unsolvable'])
    >>> map_outcomes(pd.Series(["200", "500", "200"]), {"200": "success", "500": "server_error"})[0].tolist()
    [True, False, True]
    """
    table = check_outcomes(outcomes)
    labels = numpy_backed(labels)
    dtype = labels.dtype
    if table is None and (pd.api.types.is_bool_dtype(dtype) or (
            pd.api.types.is_numeric_dtype(dtype) and not isinstance(dtype, pd.CategoricalDtype))):
        ok = parse_ok(labels, what="outcome")
        return ok, bucket_with_ok(None, ok)
    if pd.api.types.is_bool_dtype(dtype):
        labels = labels.astype(object).map({True: "true", False: "false"})
    codes, norm = _labels(labels)
    counts = np.bincount(codes[codes >= 0], minlength=len(norm))
    is_missing = np.array([u in MISSING_LABELS for u in norm], dtype=bool)
    missing_rows = (codes < 0) | (is_missing[np.maximum(codes, 0)] if len(norm) else False)
    if np.any(missing_rows):
        raise OutcomeError(f"{int(np.sum(missing_rows))} empty or missing outcome label(s) at "
                           f"{row_numbers(np.asarray(missing_rows))}; fill or drop those rows.")
    if table is None:
        numeric = [i for i, u in enumerate(norm) if u not in DEFAULT_OUTCOMES and _is_number(u) and counts[i]]
        if numeric:
            raise OutcomeError(
                f"outcome labels look like numeric codes: {show_labels([norm[i] for i in numeric], [int(counts[i]) for i in numeric])}; "
                "say which are successes with outcomes= (CLI: --outcomes 200=success,500=server_error,...)."
            )
        truncated = [i for i, u in enumerate(norm) if u not in DEFAULT_OUTCOMES and counts[i]
                     and any(k.startswith(u) for k in DEFAULT_OUTCOMES)]
        if truncated:
            rows = np.isin(codes, truncated)
            raise OutcomeError(
                f"outcome label(s) look truncated (a prefix of a known label such as 'success' or 'timeout') at "
                f"{row_numbers(rows)}; fix or drop those rows, or list every label with outcomes=."
            )
        mapped = [DEFAULT_OUTCOMES.get(u, u) for u in norm]
    else:
        unknown = [i for i, u in enumerate(norm) if u not in table and counts[i]]
        if unknown:
            raise OutcomeError(
                f"unknown outcome label(s): {show_labels([norm[i] for i in unknown], [int(counts[i]) for i in unknown])}; "
                "add them to outcomes= (label -> 'success' or a bucket name; CLI: --outcomes label=bucket,...)."
            )
        mapped = [table.get(u, SOLVE_ERROR) for u in norm]
    return _bucket_from_codes(codes, mapped)


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _bucket_from_codes(codes: np.ndarray, mapped: list[str]) -> tuple[np.ndarray, pd.Categorical]:
    """``ok`` and the bucket categorical from per-row codes into ``mapped`` (one entry per label)."""
    used = np.zeros(len(mapped), dtype=bool)
    used[codes] = True
    dtype = bucket_dtype({m for m, u in zip(mapped, used, strict=True) if u} - {SUCCESS})
    cat_pos = {c: i for i, c in enumerate(dtype.categories)}
    to_cat = np.asarray([cat_pos.get(m, 0) for m in mapped], dtype=np.int64)
    bucket_codes = to_cat[codes] if len(to_cat) else np.zeros(0, dtype=np.int64)
    ok = bucket_codes == cat_pos[SUCCESS]
    return ok, pd.Categorical.from_codes(bucket_codes, dtype=dtype)


def parse_ok(col: pd.Series, *, what: str = "success") -> np.ndarray:
    """A success column (true/false, 1/0, yes/no) as bool; anything else raises :class:`OutcomeError`."""
    col = numpy_backed(col)
    missing = col.isna().to_numpy()
    if pd.api.types.is_bool_dtype(col.dtype) and not isinstance(col.dtype, pd.CategoricalDtype):
        if missing.any():
            raise OutcomeError(f"{int(missing.sum())} empty {what} value(s) at {row_numbers(missing)}; fill or drop those rows.")
        return col.to_numpy(dtype=bool)
    if pd.api.types.is_complex_dtype(col.dtype):
        raise OutcomeError(f"the {what} column holds complex numbers; use true/false or 1/0.")
    if pd.api.types.is_numeric_dtype(col.dtype) and not isinstance(col.dtype, pd.CategoricalDtype):
        if missing.any():
            raise OutcomeError(f"{int(missing.sum())} empty {what} value(s) at {row_numbers(missing)}; fill or drop those rows.")
        v = col.to_numpy(dtype=float)
        bad = ~np.isin(v, [0.0, 1.0])
        if bad.any():
            raise OutcomeError(f"non-boolean {what} value(s) at {row_numbers(bad)}; use true/false or 1/0.")
        return np.asarray(v == 1.0)
    codes, uniques = factorize(col)
    norm = [str(u).strip().lower() for u in uniques] if len(uniques) <= 100_000 else None
    if norm is None:  # far too many distinct values for a true/false column: vectorized verdict
        raise OutcomeError(f"the {what} column has {len(uniques)} distinct values; use true/false or 1/0.")
    state = np.array([1 if u in _TRUE else 0 if u in _FALSE else -1 if u in MISSING_LABELS else -2
                      for u in norm] + [-1], dtype=np.int64)  # last entry: code -1 (missing)
    per_row = state[codes]
    if (per_row == -1).any():
        miss = per_row == -1
        raise OutcomeError(f"{int(miss.sum())} empty {what} value(s) at {row_numbers(miss)}; fill or drop those rows.")
    if (per_row == -2).any():
        raise OutcomeError(f"non-boolean {what} value(s) at {row_numbers(per_row == -2)}; use true/false or 1/0.")
    return np.asarray(per_row == 1)


def bucket_with_ok(col: pd.Series | None, ok: np.ndarray) -> pd.Categorical:
    """Failure kinds from a ``bucket`` column next to a success column (``ok`` decides); without
    a ``bucket`` column failures are ``solve_error``."""
    if col is None:
        return pd.Categorical.from_codes(np.where(ok, 0, 2).astype(np.int8), dtype=bucket_dtype())
    col = numpy_backed(col)
    if pd.api.types.is_bool_dtype(col.dtype):
        col = col.astype(object)
    codes, norm = _labels(col)
    mapped = [SOLVE_ERROR if u in MISSING_LABELS else DEFAULT_OUTCOMES.get(u, u) for u in norm]
    labels = [*mapped, SOLVE_ERROR, SUCCESS]  # then: a failure without a kind, a success row
    row = np.where(codes < 0, len(mapped), codes)
    says_success = np.asarray([m == SUCCESS for m in labels], dtype=bool)[row]
    contradiction = ~ok & says_success
    if contradiction.any():
        raise OutcomeError(
            f"{int(contradiction.sum())} row(s) are failures (ok is false) but their bucket says success, at "
            f"{row_numbers(contradiction)}; fix the ok or the bucket value."
        )
    row = np.where(ok, len(mapped) + 1, row)
    return _bucket_from_codes(row, labels)[1]

