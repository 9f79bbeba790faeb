"""Epoch numbers (``epoch=``) as int64 ns UTC: their units, the checks that refuse a unit that
cannot be right (units mixed in one column, instants before 2000 or from 2100 on), decimals
written as text converted exactly, and the look of a file's numbers (:func:`epoch_look`) that
tells files in different units apart."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._util.words import counted, noun_for, say
from ..errors import TimestampError
from ._messages import MISSING_LABELS, fill_or_drop, row_numbers

__all__ = ["EPOCH_UNITS", "NS_MAX", "UNIT_NAMES", "MISSING_TIME", "range_error", "epoch_look",
           "from_epoch", "epoch_text"]

#: Units of epoch numbers (``epoch=``) in nanoseconds.
EPOCH_UNITS = {"s": 10**9, "ms": 10**6, "us": 10**3, "ns": 1}
#: The units' names, for messages and the "how it was read" facts.
UNIT_NAMES = {"s": "seconds", "ms": "milliseconds", "us": "microseconds", "ns": "nanoseconds"}
#: pandas' Timestamp range in ns (int64 min is NaT).
NS_MAX = 2**63 - 1
#: The refusal's words for an empty or missing time.
MISSING_TIME = "empty or missing timestamp"
# epoch numbers must land in [2000-01-01, 2100-01-01): anything else is almost surely the wrong unit
_EPOCH_LOW_NS, _EPOCH_HIGH_NS = 946_684_800 * 10**9, 4_102_444_800 * 10**9
_RANGE = ("outside pandas' range 1677-09-21 .. 2262-04-11",  # the API's words, then the CLI's
          "outside the dates budgetlab can hold (1677-09-21 .. 2262-04-11)")


def range_error(bad: np.ndarray, fix: str) -> TimestampError:
    """The refusal of times (the rows ``bad``) outside pandas' range, with ``fix``."""
    return TimestampError(f"{noun_for(int(bad.sum()), 'timestamp')} {say(*_RANGE)} at "
                          f"{row_numbers(bad)}; {fix}.")


def _unit_of(magnitude: np.ndarray) -> np.ndarray:
    """The epoch unit each magnitude looks like (index into s, ms, us, ns)."""
    return np.searchsorted(np.array([1e11, 1e14, 1e17]), magnitude, side="right")


def epoch_look(col: pd.Series) -> tuple[str, int] | None:
    """The unit (an :data:`EPOCH_UNITS` key) and median's digits of the epoch numbers of ``col``,
    all of one unit; ``None``: not all plain numbers, or units mixed (:func:`_check_mixed`)."""
    text = col if pd.api.types.is_numeric_dtype(col.dtype) else col.astype("string").str.strip()
    values = np.abs(pd.to_numeric(text, errors="coerce").to_numpy(dtype=np.float64))
    kinds = np.unique(_unit_of(values))
    if len(values) == 0 or np.isnan(values).any() or len(kinds) != 1:
        return None
    return list(EPOCH_UNITS)[int(kinds[0])], len(str(int(np.median(values))))


def _check_mixed(values: np.ndarray) -> None:
    """Refuse epoch numbers of units mixed in one column (magnitudes 1000x apart), whatever
    ``epoch`` says: checked before the range, which one unit cannot hold for all of them."""
    units = list(EPOCH_UNITS)
    per_row = _unit_of(np.abs(np.asarray(values, dtype=np.float64)))
    kinds = np.unique(per_row)
    if len(kinds) > 1:
        parts = [f"{counted(int((per_row == k).sum()), 'looks', 'look')} like "
                 f"{UNIT_NAMES[units[k]]} "
                 f"({row_numbers(per_row == k)})" for k in kinds[:2]]
        raise TimestampError(
            f"the epoch numbers mix units (magnitudes 1000x apart): {'; '.join(parts)}; give "
            "every time in one unit (or write ISO-8601 like 2026-11-29T03:47:00Z).")


def _check_epoch(values: np.ndarray, out: np.ndarray, epoch: str) -> np.ndarray:
    """Refuse epoch numbers (their units not mixed: :func:`_check_mixed`) whose unit cannot be
    right: instants before 2000 or from 2100 on under ``epoch``; ``out`` is returned."""
    bad = (out < _EPOCH_LOW_NS) | (out >= _EPOCH_HIGH_NS)
    if bad.any():
        hint = _unit_hint(np.abs(np.asarray(values, dtype=np.float64)), epoch)
        raise TimestampError(
            f"with {say(f'epoch={epoch!r}', f'--epoch {epoch}')} ({UNIT_NAMES[epoch]}) "
            f"{counted(int(bad.sum()), 'timestamp')} {'falls' if bad.sum() == 1 else 'fall'} "
            "before 2000 or after 2100, at "
            f"{row_numbers(bad)}; {hint}.")
    return out


def _unit_hint(magnitude: np.ndarray, epoch: str) -> str:
    """The fix for epoch numbers (their absolute values) that do not fit ``epoch``: the unit most
    of them look like, else (that unit is ``epoch``, or cannot hold them either) a look at the
    time column."""
    guess = list(EPOCH_UNITS)[int(np.bincount(_unit_of(magnitude)).argmax())]
    if guess == epoch or bool((magnitude >= 2.0**63 / EPOCH_UNITS[guess]).any()):
        return "check the time column"
    return (f"these numbers look like {say(f'epoch={guess!r}', f'--epoch {guess}')} "
            f"({UNIT_NAMES[guess]})")


def from_epoch(values: np.ndarray, epoch: str | None) -> np.ndarray:
    """Epoch numbers in ``epoch`` units as int64 ns UTC (``None``: refused with the likely unit)."""
    if epoch is None:
        finite = values[np.isfinite(values)] if values.dtype.kind == "f" else values
        magnitude = float(np.median(np.abs(finite))) if len(finite) else 0.0
        guess = list(EPOCH_UNITS)[int(_unit_of(np.array([magnitude]))[0])]
        raise TimestampError(
            "the timestamps are plain numbers; say their unit with "
            + say(f"epoch='s', 'ms', 'us' or 'ns' (these look like epoch={guess!r})",
                  f"--epoch s|ms|us|ns (these look like --epoch {guess})")
            + ". For dates write ISO-8601 like 2026-11-29T03:47:00Z.")
    f = EPOCH_UNITS[epoch]
    if values.dtype.kind in "Obf":
        values = values.astype(np.float64)
        finite = np.isfinite(values)
        if not finite.all():
            raise fill_or_drop(TimestampError, "non-finite epoch timestamp", ~finite)
        _check_mixed(values)
        bad = (values <= -(2.0**63) / f) | (values >= 2.0**63 / f)
        if bad.any():
            raise range_error(bad, _unit_hint(np.abs(values[bad]), epoch))
        whole = np.floor(values)  # split so that the fraction keeps its precision
        out = whole.astype(np.int64) * f + np.round((values - whole) * f).astype(np.int64)
        return _check_epoch(values, out, epoch)
    _check_mixed(values)
    bad = (values > NS_MAX // f) | (values < -(NS_MAX // f))  # before the cast (uint64)
    if bad.any():
        raise range_error(bad, _unit_hint(np.abs(values[bad].astype(np.float64)), epoch))
    ints = values.astype(np.int64)
    return _check_epoch(ints, ints * f, epoch)


def _dates_words(bad: pd.Series) -> str:
    """Why a time that is no number was met under ``epoch=``, when it is written as a date: the
    one ``epoch=`` of a call covers every file it reads.

    >>> print(_dates_words(pd.Series(["2026-10-20T00:00:00Z"])).replace("one read", "one\\nread"))
    ; these are written as dates (2026-10-20T00:00:00Z), and epoch= applies to every file of one
    read: read the epoch file on its own, or write its times as dates too
    >>> _dates_words(pd.Series(["soon"]))
    ''
    """
    head = bad.head(5)
    dates = pd.to_datetime(head, errors="coerce", utc=True, format="ISO8601")
    if not len(head) or dates.isna().any():
        return ""
    return (f"; these are written as dates ({head.iloc[0]}), and epoch= applies to every file of "
            "one read: read the epoch file on its own, or write its times as dates too")


def epoch_text(s: pd.Series, na: np.ndarray, epoch: str) -> np.ndarray:
    """Epoch numbers written as text (``epoch=`` given): every value must be one; plain decimals
    are converted exactly (``"1780000000.1"`` s is 1780000000100000000 ns, no float rounding)."""
    text = s.str.strip()
    missing = na | text.str.lower().isin(list(MISSING_LABELS)).to_numpy(dtype=bool)
    if missing.any():
        raise fill_or_drop(TimestampError, MISSING_TIME, missing)
    if not bool(text.str.fullmatch(r"[+-]?[0-9]{1,19}(?:[.][0-9]*)?").fillna(False).all()):
        num = pd.to_numeric(text, errors="coerce")
        bad = num.isna().to_numpy()
        if bad.any():
            raise TimestampError(f"unparseable epoch {noun_for(int(bad.sum()), 'timestamp')} at "
                                 f"{row_numbers(bad)}; with epoch= every time must be a number"
                                 f"{_dates_words(text[bad])}.")
        return from_epoch(num.to_numpy(), epoch)
    f = EPOCH_UNITS[epoch]
    whole_text = text.str.replace(r"^[+-]?([0-9]+)(?:[.][0-9]*)?$", r"\1", regex=True)
    whole = pd.to_numeric(whole_text).to_numpy()
    _check_mixed(whole)
    if whole.dtype.kind != "i" or (whole > NS_MAX // f).any():
        magnitude = pd.to_numeric(whole_text).to_numpy(dtype=np.float64)
        bad = magnitude > NS_MAX // f
        raise range_error(bad, _unit_hint(magnitude[bad], epoch))
    out = whole.astype(np.int64) * f
    if digits := len(str(f)) - 1:
        frac = text.str.replace(r"^[+-]?[0-9]+(?:[.]([0-9]*))?$", r"\1", regex=True)
        frac = frac.str.slice(0, digits).str.pad(digits, side="right", fillchar="0")
        out += pd.to_numeric(frac).to_numpy().astype(np.int64)
    neg = text.str.startswith("-").fillna(False).to_numpy(dtype=bool)
    out[neg] = -out[neg]
    return _check_epoch(np.where(neg, -whole, whole), out, epoch)
