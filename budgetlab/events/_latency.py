"""Latency as part of success: a duration column and ``slow_above`` turn slow successes into
failures in the ``slow`` bucket (a latency SLI counted as events).

Durations are numbers in the unit ``duration_unit`` names (never guessed), timedeltas, or text
with a unit (``"350ms"``, ``"1.2s"``). A success is slow when its duration is strictly above
``slow_above``; a failure stays in its own bucket whatever its duration.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .._util.codes import numpy_backed
from .._util.validation import check_argument, to_ns
from .._util.words import counted, noun_for, say
from ..errors import ConfigError, InputError
from ._messages import row_numbers
from .schema import MISSING_LABELS, SLOW, bucket_dtype
from .times import EPOCH_UNITS  # the units of numbers in ns, as for epochs

__all__ = ["DURATION", "check_latency", "parse_durations", "apply_slow"]

#: The optional column of the canonical table that holds each attempt's duration (timedelta64[ns]).
DURATION = "duration"



def check_latency(duration: str | None, duration_unit: str | None, slow_above: Any) -> int | None:
    """``slow_above`` in ns (``None`` when not asked for); refuses half-given options.

    A ``duration`` alone is kept as the canonical table's optional ``duration`` column
    (timedelta64[ns]); ``duration_unit`` needs a ``duration``.
    """
    if duration_unit is not None:
        check_argument("duration_unit", duration_unit, tuple(EPOCH_UNITS))
        if duration is None:
            raise ConfigError(say("duration_unit= says the unit of duration=; name the duration "
                                  "column too.",
                                  "--duration-unit says the unit of --duration; name the duration "
                                  "column too."))
    if slow_above is None:
        return None
    if duration is None:
        raise ConfigError(say("slow_above= needs duration='<column of request durations>'.",
                              "--slow-above needs --duration COLUMN (the column of request "
                              "durations)."))
    return to_ns(slow_above, name="slow_above")


def parse_durations(col: pd.Series, unit: str | None) -> np.ndarray:
    """A duration column as int64 ns; missing, negative or unreadable values are refused by row."""
    col = numpy_backed(col)
    if isinstance(col.dtype, pd.CategoricalDtype):
        col = col.astype(col.dtype.categories.dtype)
    if pd.api.types.is_timedelta64_dtype(col.dtype):
        ns = pd.Series(col).to_numpy(dtype="timedelta64[ns]").view(np.int64)
        bad = pd.Series(col).isna().to_numpy()
    else:
        text = (
            col.astype("str").str.strip() if not pd.api.types.is_numeric_dtype(col.dtype) else None
        )
        numbers = pd.to_numeric(col if text is None else text, errors="coerce")
        if text is not None and numbers.isna().any():
            missing = text.str.lower().isin(list(MISSING_LABELS)).fillna(True).to_numpy(dtype=bool)
            if missing.any():
                raise InputError(f"{counted(int(missing.sum()), 'empty duration')} at "
                                 f"{row_numbers(missing)}; fill or drop those rows.")
            with_unit = pd.to_timedelta(text.where(numbers.isna()), errors="coerce")
            if with_unit[numbers.isna()].isna().any():
                unreadable = with_unit.isna().to_numpy() & numbers.isna().to_numpy()
                raise InputError(
                    f"unreadable {noun_for(int(unreadable.sum()), 'duration')} at "
                    f"{row_numbers(unreadable)}; "
                    "give numbers (with duration_unit=) or text with a unit such as "
                    "'350ms'."
                )
            if not numbers.isna().all() and unit is None:
                raise InputError("the duration column mixes numbers and text with units; say the "
                                 "unit of the numbers "
                                 f"with {say('duration_unit=', '--duration-unit')}.")
        if numbers.notna().any() and unit is None:
            raise InputError("the durations are plain numbers; say their unit with "
                             + say("duration_unit='s', 'ms', 'us' or 'ns'",
                                   "--duration-unit s|ms|us|ns")
                             + ", e.g. ms for nginx $upstream_response_time * 1000.")
        f = EPOCH_UNITS[unit] if unit is not None else 1
        values = numbers.to_numpy(dtype=np.float64)
        bad = ~np.isfinite(values) if text is None else np.zeros(len(values), dtype=bool)
        ns = np.where(np.isfinite(values), np.round(np.nan_to_num(values) * f), 0).astype(np.int64)
        if text is not None and numbers.isna().any():
            unit_ns = with_unit.to_numpy(dtype="timedelta64[ns]").view(np.int64)
            ns = np.where(numbers.isna().to_numpy(), unit_ns, ns)
    if bad.any():
        raise InputError(f"{counted(int(bad.sum()), 'empty duration')} at {row_numbers(bad)}; "
                         "fill or drop those rows.")
    ns = np.asarray(ns, dtype=np.int64)
    if (ns < 0).any():
        raise InputError(f"negative {noun_for(int((ns < 0).sum()), 'duration')} at "
                         f"{row_numbers(ns < 0)}; check the duration column.")
    return ns


def apply_slow(ok: np.ndarray, bucket: pd.Categorical, durations: np.ndarray,
               slow_ns: int) -> tuple[np.ndarray, pd.Categorical, int]:
    """Successes with ``duration > slow_ns`` become failures in the ``slow`` bucket:
    ``(ok, bucket, slow rows)``.

    >>> ok = np.array([True, True, False])
    >>> b = pd.Categorical(["success", "success", "error"], categories=["success", "error"],
    ...                    ordered=True)
    >>> ok2, b2, n = apply_slow(ok, b, np.array([1, 3, 9]) * 10**9, 2 * 10**9)
    >>> ok2.tolist(), list(b2), n
    ([True, False, False], ['success', 'slow', 'error'], 1)
    """
    slow = ok & (durations > slow_ns)
    n = int(slow.sum())
    if n == 0:
        return ok, bucket, 0
    labels = [str(c) for c in bucket.categories if str(c) != "success"]
    dtype = bucket_dtype([*labels, SLOW])
    out = pd.Categorical(np.asarray(bucket.astype(object)), dtype=dtype)
    codes = np.where(slow, list(dtype.categories).index(SLOW), out.codes).astype(np.int64)
    return ok & ~slow, pd.Categorical.from_codes(codes, dtype=dtype), n
