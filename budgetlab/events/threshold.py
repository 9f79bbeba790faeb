"""Numbers read against a threshold the user states: a metric series read as outcomes
(``ok_when``), and latency as part of success (``slow_above``).

A metric series is read as outcomes by a threshold the user states (``ok_when="value<300"``, CLI
``--ok-when 'value<300'``): one measured value per row (NAB's ``timestamp,value`` files, a CPU
or latency series), each row a success when the comparison holds and a failure (bucket
``failure``, as an ``ok=`` column's failures) when it does not.

The threshold is the user's: budgetlab never proposes one. The expression is a column name, one
of :data:`OPERATORS` and a finite number, with whitespace allowed around each; anything else is
refused with the accepted forms. A row whose value is missing or not a number is refused with
the count and the first rows (drop or fill them): it is never silently good or bad. Each row is
one measured interval, not a request, and the "how it was read" block says so: every figure of
the run counts rows.

Latency: a duration column and ``slow_above`` turn slow successes into failures in the ``slow``
bucket (a latency SLI counted as events). Durations are numbers in the unit ``duration_unit``
names (never guessed), timedeltas, or text with a unit (``"350ms"``, ``"1.2s"``). A success is
slow when its duration is strictly above ``slow_above``; a failure stays in its own bucket
whatever its duration.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from .._util.codes import numpy_backed
from .._util.validation import check_argument, is_one_duration, to_ns
from .._util.words import counted, noun_for, say
from ..errors import ConfigError, InputError, OutcomeError
from ._messages import fill_or_drop, row_numbers
from .duration_names import check_unit_name, unit_plausibility
from .epochs import EPOCH_UNITS  # the units of numbers in ns, as for epochs
from .schema import MISSING_LABELS, SLOW, bucket_dtype

__all__ = ["OPERATORS", "Threshold", "parse_ok_when", "check_ok_when", "both_given_error",
           "read_threshold", "DURATION", "check_latency", "parse_durations", "apply_slow",
           "duration_note", "duration_notes"]

#: The optional column of the canonical table that holds each attempt's duration (timedelta64[ns]).
DURATION = "duration"
#: The comparisons ``ok_when`` takes: a row is a success when ``value OP number`` holds.
OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
    "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge}
#: COLUMN OP NUMBER, whitespace allowed around each (the longest operator first: ``<=``, not
#: ``<`` followed by ``=...``).
_EXPRESSION = re.compile(r"^\s*(?P<column>.*?)\s*(?P<op><=|>=|<|>)\s*(?P<number>.*?)\s*$",
                         re.DOTALL)
#: A finite decimal number (``300``, ``-2.5``, ``.5``, ``1e3``); not ``nan``, ``inf`` or ``1_000``.
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


class Threshold(NamedTuple):
    """A parsed ``ok_when``: the column, the operator and the number (as written and as a
    float)."""

    column: str
    op: str
    text: str
    value: float

    def __str__(self) -> str:
        """The canonical spelling, which ``ok_when`` reads back: ``value < 300``."""
        return f"{self.column} {self.op} {self.text}"


def _forms() -> str:
    """The accepted forms, in the words of the API or the command line."""
    ops = ", ".join(OPERATORS)
    return (say("ok_when= takes COLUMN OP NUMBER (e.g. ok_when=\"value<300\")",
                "--ok-when takes COLUMN OP NUMBER (e.g. --ok-when 'value<300')")
            + f": OP one of {ops} and a finite NUMBER you choose, spaces allowed around each")


def parse_ok_when(text: Any) -> Threshold:
    """``ok_when`` as a :class:`Threshold`; anything but COLUMN OP NUMBER refused with the
    accepted forms.

    >>> parse_ok_when(" value <= 2.5e2 ")
    Threshold(column='value', op='<=', text='2.5e2', value=250.0)
    >>> str(parse_ok_when("latency>1"))
    'latency > 1'
    >>> parse_ok_when("value == 300")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: ok_when= got 'value == 300'; ok_when= takes COLUMN OP NUMBER \
(e.g. ok_when="value<300"): OP one of <, <=, >, >= and a finite NUMBER you choose, spaces allowed \
around each.
    """
    if not isinstance(text, str):
        raise ConfigError(f"{_forms()}; got {type(text).__name__}.")
    m = _EXPRESSION.match(text)
    # a column ending in = or ! is an operator mistyped (=<, !<), not a name
    if m is None or not m["column"] or m["column"][-1] in "=!" or \
            not _NUMBER.fullmatch(m["number"]) or not np.isfinite(float(m["number"])):
        raise ConfigError(f"{say('ok_when=', '--ok-when')} got {text!r}; {_forms()}.")
    return Threshold(m["column"], m["op"], m["number"], float(m["number"]))


def check_ok_when(spec: Any) -> str:
    """The ``ok_when`` of a :class:`~budgetlab.events.spec.ReadSpec` checked, in its canonical
    spelling: a threshold reads the success itself, so the other ways of saying it (``ok``,
    ``outcomes``, an ``outcome`` column other than the default, ``bucket``) are refused naming
    both options."""
    threshold = parse_ok_when(spec.ok_when)
    given = [name for name, value in (("ok", spec.ok), ("outcomes", spec.outcomes),
                                      ("bucket", spec.bucket)) if value is not None]
    if spec.outcome not in ("outcome", None):  # the default, or no label column
        given.append("outcome")
    if given:
        raise both_given_error(given[0])
    return str(threshold)


def both_given_error(other: str) -> ConfigError:
    """The refusal of ``ok_when`` beside the ``other`` option that also says what a success is,
    naming both (the flags on the command line).

    >>> print(both_given_error("ok"))
    ok_when= and ok= both say what a success is; ok_when= reads it from a number by your
    threshold: give one of them.
    """
    return ConfigError(say(f"ok_when= and {other}= both say what a success is; ok_when= reads "
                           "it from a number by your threshold: give one of them.",
                           f"--ok-when and --{other} both say what a success is; --ok-when "
                           "reads it from a number by your threshold: give one of them."))


def read_threshold(col: pd.Series, threshold: Threshold) -> np.ndarray:
    """Success (bool) of each row of the metric column ``col``: the comparison holds. Missing
    values and values that are not numbers are refused with their count and first rows.

    >>> read_threshold(pd.Series(["299", "300", "301.5"]), parse_ok_when("v<300")).tolist()
    [True, False, False]
    """
    if pd.api.types.is_numeric_dtype(col.dtype) and \
            not isinstance(col.dtype, pd.CategoricalDtype) and \
            not pd.api.types.is_bool_dtype(col.dtype):
        values = col.to_numpy(dtype=float, na_value=np.nan)
        missing, not_number = np.isnan(values), np.zeros(len(values), dtype=bool)
    else:
        text = col.astype("string").str.strip()
        missing = np.asarray(text.isna() | text.str.lower().isin(MISSING_LABELS), dtype=bool)
        values = pd.to_numeric(text.where(~missing), errors="coerce").to_numpy(
            dtype=float, na_value=np.nan)
        not_number = np.isnan(values) & ~missing
    bad = missing | not_number
    if bad.any():
        raise OutcomeError(
            f"column {threshold.column!r}: {counted(int(bad.sum()), 'row')} missing or not a "
            f"number ({int(missing.sum()):,} missing, {int(not_number.sum()):,} not a number) at "
            f"{row_numbers(bad)}; {say('ok_when=', '--ok-when')} compares numbers and will not "
            "call such a row good or bad: drop those rows or fill them, then read again.")
    return np.asarray(OPERATORS[threshold.op](values, threshold.value), dtype=bool)


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
        check_unit_name(duration, duration_unit)  # duration_s read in ms: refused
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
                raise fill_or_drop(InputError, "empty duration", missing)
            _refuse_several(text.where(numbers.isna()))
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
                             + ", e.g. s for nginx's $request_time or "
                             "$upstream_response_time (seconds, such as 0.125), us for "
                             "Apache's %D (microseconds).")
        f = EPOCH_UNITS[unit] if unit is not None else 1
        values = numbers.to_numpy(dtype=np.float64)
        bad = ~np.isfinite(values) if text is None else np.zeros(len(values), dtype=bool)
        ns = np.where(np.isfinite(values), np.round(np.nan_to_num(values) * f), 0).astype(np.int64)
        if text is not None and numbers.isna().any():
            unit_ns = with_unit.to_numpy(dtype="timedelta64[ns]").view(np.int64)
            ns = np.where(numbers.isna().to_numpy(), unit_ns, ns)
    if bad.any():
        raise fill_or_drop(InputError, "empty duration", bad)
    ns = np.asarray(ns, dtype=np.int64)
    if (ns < 0).any():
        raise InputError(f"negative {noun_for(int((ns < 0).sum()), 'duration')} at "
                         f"{row_numbers(ns < 0)}; check the duration column.")
    return ns


def duration_note(name: str, col: pd.Series, unit: str | None) -> str:
    """How :func:`parse_durations` read column ``name`` (already read), in words: numbers in
    ``unit``, text with units, or both with their rows; a ``unit`` no cell used is said so.

    >>> duration_note("d", pd.Series(["250ms", "2s"]), "s")
    "durations: column 'd', text with units (duration_unit='s' not used), kept as the 'duration' \
column"
    >>> duration_note("d", pd.Series(["250", "2s"]), "ms")
    "durations: column 'd', numbers in ms (1 row) and text with units (1 row), kept as the \
'duration' column"
    """
    col = numpy_backed(col)
    if isinstance(col.dtype, pd.CategoricalDtype):
        col = col.astype(col.dtype.categories.dtype)
    flag = say(f"duration_unit={unit!r}", f"--duration-unit {unit}")
    unused = "" if unit is None else f" ({flag} not used)"
    if pd.api.types.is_timedelta64_dtype(col.dtype):
        how = f"durations (timedelta){unused}"
    elif pd.api.types.is_numeric_dtype(col.dtype):
        how = f"numbers in {unit}"
    else:
        numbers = int(pd.to_numeric(col.astype("str").str.strip(), errors="coerce").notna().sum())
        text = len(col) - numbers
        how = (f"text with units{unused}" if not numbers else f"numbers in {unit}" if not text
               else f"numbers in {unit} ({counted(numbers, 'row')}) and text with units "
               f"({counted(text, 'row')})")
    return f"durations: column {name!r}, {how}, kept as the 'duration' column"


def duration_notes(name: str, col: pd.Series, durations: np.ndarray,
                   unit: str | None) -> tuple[str, ...]:
    """The reading's notes on column ``name`` read as ``durations`` (ns): :func:`duration_note`,
    then :func:`~budgetlab.events.duration_names.unit_plausibility` when it has words."""
    plausible = unit_plausibility(col, durations, unit)
    return (duration_note(name, col, unit), *(() if plausible is None else (plausible,)))


def _refuse_several(text: pd.Series) -> None:
    """Refuse cells that hold several durations, which pandas adds up (``"1,5s"`` is 15 s)."""
    values = text.dropna().unique()
    several = {v for v in values.tolist() if not is_one_duration(v)}
    if several:
        where = text.isin(list(several)).to_numpy(dtype=bool)
        first = text[where].iloc[0]
        raise InputError(f"{noun_for(int(where.sum()), 'duration')} at {row_numbers(where)} "
                         f"{'is' if where.sum() == 1 else 'are'} not one duration ({first!r}): "
                         "write a decimal with a point ('1.5s'), one duration per cell.")


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
