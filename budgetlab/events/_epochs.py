"""Epoch numbers (``epoch=`` seconds, milliseconds, microseconds or nanoseconds) to int64
nanoseconds UTC: exact for decimals written as text, refused when the unit cannot be right
(units mixed in one column, instants before 2000 or from 2100 on) or not given.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._util.words import say
from ..errors import TimestampError
from ._messages import row_numbers

__all__ = ["EPOCH_UNITS", "NS_MAX", "UNIT_NAMES", "from_epoch", "epoch_decimal_text"]

#: Units of epoch numbers (``epoch=``) in nanoseconds.
EPOCH_UNITS = {"s": 10**9, "ms": 10**6, "us": 10**3, "ns": 1}
#: pandas' Timestamp range in ns (int64 min is NaT).
NS_MAX = 2**63 - 1
# epoch numbers must land in [2000, 2100): anything else is almost surely the wrong unit
_EPOCH_LOW_NS = 946_684_800 * 10**9  # 2000-01-01T00:00:00Z
_EPOCH_HIGH_NS = 4_102_444_800 * 10**9  # 2100-01-01T00:00:00Z
#: The units' names, for messages and the "how it was read" facts.
UNIT_NAMES = {"s": "seconds", "ms": "milliseconds", "us": "microseconds", "ns": "nanoseconds"}


def _unit_of(magnitude: np.ndarray) -> np.ndarray:
    """The epoch unit each magnitude looks like (index into s, ms, us, ns)."""
    return np.searchsorted(np.array([1e11, 1e14, 1e17]), magnitude, side="right")


def _check_epoch(values: np.ndarray, out: np.ndarray, epoch: str) -> np.ndarray:
    """Refuse epoch numbers whose unit cannot be right: units mixed in one column (magnitudes
    1000x apart), or instants before 2000 or from 2100 on under ``epoch``; ``out`` is returned."""
    units = list(EPOCH_UNITS)
    magnitude = np.abs(np.asarray(values, dtype=np.float64))
    per_row = _unit_of(magnitude)
    kinds = np.unique(per_row)
    if len(kinds) > 1:
        parts = [f"{int((per_row == k).sum())} look like {UNIT_NAMES[units[k]]} "
                 f"({row_numbers(per_row == k)})"
                 for k in kinds[:2]]
        raise TimestampError(
            f"the epoch numbers mix units (magnitudes 1000x apart): {'; '.join(parts)}; give every "
            "time in one unit "
            "(or write ISO-8601 like 2026-11-29T03:47:00Z)."
        )
    bad = (out < _EPOCH_LOW_NS) | (out >= _EPOCH_HIGH_NS)
    if bad.any():
        guess = units[int(np.bincount(per_row).argmax())]
        hint = (f"these numbers look like {say(f'epoch={guess!r}', f'--epoch {guess}')} "
                f"({UNIT_NAMES[guess]})"
                if guess != epoch else "check the time column")
        raise TimestampError(
            f"with {say(f'epoch={epoch!r}', f'--epoch {epoch}')} ({UNIT_NAMES[epoch]}) "
            f"{int(bad.sum())} timestamp(s) "
            f"fall before 2000 or after 2100, at {row_numbers(bad)}; {hint}."
        )
    return out


def from_epoch(values: np.ndarray, epoch: str | None) -> np.ndarray:
    if epoch is None:
        finite = values[np.isfinite(values)] if values.dtype.kind == "f" else values
        v = float(np.median(np.abs(finite))) if len(finite) else 0.0
        guess = "ns" if v > 1e17 else "us" if v > 1e14 else "ms" if v > 1e11 else "s"
        raise TimestampError(
            "the timestamps are plain numbers; say their unit with "
            + say(f"epoch='s', 'ms', 'us' or 'ns' (these look like epoch={guess!r})",
                  f"--epoch s|ms|us|ns (these look like --epoch {guess})")
            + ". For dates write ISO-8601 like 2026-11-29T03:47:00Z."
        )
    f = EPOCH_UNITS[epoch]
    if values.dtype.kind in "Ob":
        values = values.astype(np.float64)
    if values.dtype.kind == "f":
        finite = np.isfinite(values)
        if not finite.all():
            raise TimestampError(f"non-finite epoch timestamp(s) at {row_numbers(~finite)}; fill "
                                 "or drop those rows.")
        bad = (values <= -(2.0**63) / f) | (values >= 2.0**63 / f)
        if bad.any():
            raise TimestampError("epoch timestamp(s) outside pandas' range 1677-09-21 .. "
                                 "2262-04-11 at "
                                 f"{row_numbers(bad)}; check epoch={epoch!r}.")
        whole = np.floor(values)  # split so that the fraction keeps its precision
        out = whole.astype(np.int64) * f
        frac = values - whole
        if frac.any():
            out += np.round(frac * f).astype(np.int64)
        return _check_epoch(values, np.asarray(out, dtype=np.int64), epoch)
    ints = (
        values.astype(np.int64)
        if values.dtype.kind in "iu" and values.dtype.itemsize <= 8
        else values
    )
    if ints.dtype.kind == "u":
        bad = ints > np.uint64(NS_MAX // f)
        ints = np.where(bad, 0, ints).astype(np.int64)
    else:
        bad = (ints < -(NS_MAX // f)) | (ints > NS_MAX // f)
    if bad.any():
        raise TimestampError("epoch timestamp(s) outside pandas' range 1677-09-21 .. 2262-04-11 "
                             "at "
                             f"{row_numbers(bad)}; check epoch={epoch!r}.")
    return _check_epoch(ints, np.asarray(ints, dtype=np.int64) * f, epoch)


def epoch_decimal_text(text: pd.Series, epoch: str) -> np.ndarray | None:
    """Epoch numbers written as plain decimals, converted exactly (no float rounding):
    ``"1780000000.1"`` s is 1780000000100000000 ns. ``None`` if some value has another form."""
    if not bool(text.str.fullmatch(r"[+-]?[0-9]{1,19}(?:[.][0-9]*)?").fillna(False).all()):
        return None
    f = EPOCH_UNITS[epoch]
    whole_text = text.str.replace(r"^[+-]?([0-9]+)(?:[.][0-9]*)?$", r"\1", regex=True)
    whole = pd.to_numeric(whole_text).to_numpy()
    if whole.dtype.kind != "i" or (whole > NS_MAX // f).any():
        bad = np.asarray(pd.to_numeric(whole_text).to_numpy(dtype=np.float64) > NS_MAX // f)
        raise TimestampError("epoch timestamp(s) outside pandas' range 1677-09-21 .. 2262-04-11 "
                             "at "
                             f"{row_numbers(bad)}; check epoch={epoch!r}.")
    out = whole.astype(np.int64) * f
    digits = len(str(f)) - 1
    if digits:
        frac = text.str.replace(r"^[+-]?[0-9]+(?:[.]([0-9]*))?$", r"\1", regex=True)
        frac = frac.str.slice(0, digits).str.pad(digits, side="right", fillchar="0")
        out += pd.to_numeric(frac).to_numpy().astype(np.int64)
    neg = text.str.startswith("-").fillna(False).to_numpy(dtype=bool)
    out[neg] = -out[neg]
    return _check_epoch(np.where(neg, -whole, whole), np.asarray(out, dtype=np.int64), epoch)
