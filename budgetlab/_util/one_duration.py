"""One duration, not several: text that pandas would add up (``"1h,6h"`` is 7 h, ``"1,5h"``
15 h, ``"1 30min"`` 130 min) refused with the fix (:func:`check_one_duration`), a cell of a
duration column checked (:func:`is_one_duration`), and a list of durations given as one string
(``windows='1h,6h,24h'``) refused with the list (:func:`refuse_joined`); unit spellings pandas
deprecates written as it asks (:func:`pandas_units`)."""

from __future__ import annotations

import re
from typing import Any

import pandas as pd

from ..errors import ConfigError

__all__ = ["check_one_duration", "is_one_duration", "refuse_joined", "pandas_units"]

#: ``str(datetime.timedelta)``: the one duration text with a comma (``1 day, 2:00:00``)
_PY_TIMEDELTA = re.compile(r"-?[0-9]+ days?, [0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?")
_DECIMAL_COMMA = re.compile(r"([0-9]+),([0-9]+)\s*([A-Za-z]+)")
#: a number and its unit; text made of several is a compound duration (``1h30min``)
_PART = re.compile(r"\s*([0-9]*\.?[0-9]+)\s*([A-Za-z]+)\s*")
_PARTS = re.compile(f"(?:{_PART.pattern})+")
#: unit spellings pandas reads with a deprecation warning -> the spelling it asks for (same unit)
_DEPRECATED = {"d": "D", "H": "h", "MIN": "min", "S": "s", "MS": "ms", "US": "us", "NS": "ns",
               "w": "W"}
if int(pd.__version__.split(".")[0]) < 3:  # pandas 2 still reads these (warning); 3 refuses them
    _DEPRECATED.update(T="min", L="ms", U="us", N="ns")
_UNIT_AFTER_NUMBER = re.compile(r"(?<=[0-9.])(\s*)([A-Za-z]+)")
#: a number without its unit before another (pandas reads ``"1 30min"`` as 130 min)
_NUMBERS_APART = re.compile(r"[0-9.]\s+[0-9.]")


def check_one_duration(text: str, name: str, value: Any) -> None:
    """Refuse text that holds several durations, which pandas would add up: ``"1h,6h"`` (7 h),
    ``"1,5h"`` (15 h), ``"1h 6h"``, ``"5min 1h"``, ``"1 30min"`` (130 min). A compound duration
    whose units get smaller (``"1h30min"``, ``"1 day 2 hours"``) is one duration."""
    if "," in text and not _PY_TIMEDELTA.fullmatch(text):
        comma = _DECIMAL_COMMA.fullmatch(text)
        if comma:
            raise ConfigError(f"{name}={value!r} has a comma: write a decimal with a point "
                              f"('{comma.group(1)}.{comma.group(2)}{comma.group(3)}'), "
                              "and give one duration.")
        first = text.split(",")[0].strip() or "1h"
        raise ConfigError(f"{name}={value!r} is several durations separated by commas; give one, "
                          f"e.g. {name}={first!r}.")
    if _NUMBERS_APART.search(text):
        raise ConfigError(f"{name}={value!r} has a number without its unit before another; "
                          "give one duration, each number with its unit (e.g. '1h30min').")
    if not _PARTS.fullmatch(text):
        return  # one number and unit, or pandas' own forms ("1 days 02:00:00", "PT1H30M")
    parts = _PART.findall(text)
    sizes = [_unit_ns(unit) for _, unit in parts]
    if len(parts) > 1 and all(sizes) and any(a <= b for a, b in zip(sizes, sizes[1:],
                                                                    strict=False)):
        said = ", ".join(repr(f"{n}{u}") for n, u in parts)
        raise ConfigError(f"{name}={value!r} is several durations ({said}); give one, e.g. "
                          f"{name}={parts[0][0] + parts[0][1]!r} (a compound duration goes from "
                          "the largest unit down: '1h30min').")


def is_one_duration(text: str) -> bool:
    """Whether ``text`` is at most one duration, as :func:`to_timedelta` reads text (a cell of a
    duration column: pandas would add up ``"1,5s"`` to 15 s).

    >>> is_one_duration("1.5s"), is_one_duration("1,5s"), is_one_duration("1s 2s")
    (True, False, False)
    """
    try:
        check_one_duration(text.strip(), "duration", text)
    except ConfigError:
        return False
    return True


def refuse_joined(value: Any, name: str) -> None:
    """Refuse one string that joins several durations with commas where option ``name`` takes a
    list of them (``windows='1h,6h,24h'``, as the command line spells it): the fix is the list.

    >>> refuse_joined("1h,6h,24h", "windows")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: windows='1h,6h,24h' is one string; pass a list: windows=['1h',
    '6h', '24h'].
    """
    if not isinstance(value, str) or "," not in value:
        return
    text = value.strip()
    if _PY_TIMEDELTA.fullmatch(text) or _DECIMAL_COMMA.fullmatch(text):
        return  # one duration, or a decimal comma that to_timedelta explains
    items = [part.strip() for part in text.split(",") if part.strip()]
    raise ConfigError(f"{name}={value!r} is one string; pass a list: {name}={items!r}.")


def pandas_units(text: str) -> str:
    """``text`` (numbers with their units, ``"1H30MIN"``) with the unit spellings pandas deprecates
    written as it asks (``"1h30min"``): the same duration, read without a warning. The warning is
    avoided at its source, not filtered: ``warnings.catch_warnings`` swaps the process-wide filters
    and is not safe on threads (durations are read inside Dask partitions). Other text (ISO
    ``"PT1H"``, ``"1 days 02:00:00"``) is returned as it is.

    >>> pandas_units("1H30MIN"), pandas_units("2 d 3 S"), pandas_units("PT1H")
    ('1h30min', '2 D 3 s', 'PT1H')
    """
    if not _PARTS.fullmatch(text.lstrip("+-")):
        return text
    return _UNIT_AFTER_NUMBER.sub(lambda m: m.group(1) + _DEPRECATED.get(m.group(2), m.group(2)),
                                  text)


def _unit_ns(unit: str) -> int:
    """The nanoseconds of one ``unit`` as pandas reads it (``d`` is days); 0 if it is none."""
    try:
        return int(pd.Timedelta(f"1{_DEPRECATED.get(unit, unit)}").value)
    except ValueError:
        return 0
