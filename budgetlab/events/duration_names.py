"""The unit a duration column's name ends in (``duration_s``, ``latency_ms``, ``time (us)``), and
the refusal of a ``duration_unit`` that disagrees with it: ``duration_s`` read in ms makes a 10 s
timeout 10 ms and every threshold a different one, never a wrong number said as a right one.

The numbers' size is evidence too, but not proof (batch jobs run for minutes): when the median of
the durations read as numbers is over :data:`PLAUSIBLE_MEDIAN_NS` (60 s), the reading says so
with the unit one step smaller (:func:`unit_plausibility`): a stated reading, never a change.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from .._util.codes import numpy_backed
from .._util.words import given_duration, say
from ..errors import ConfigError
from .epochs import UNIT_NAMES

__all__ = ["unit_in_name", "check_unit_name", "PLAUSIBLE_MEDIAN_NS", "unit_plausibility"]

#: A median duration above this (60 s) makes the reading say the unit it read the numbers in.
PLAUSIBLE_MEDIAN_NS = 60 * 10**9
#: The unit one step smaller, which the reading suggests (``ns`` has none).
_SMALLER = {"s": "ms", "ms": "us", "us": "ns"}

#: The suffixes of each unit, after ``_``, ``-``, ``.`` or a space, or in parentheses or brackets
#: (case ignored).
_SUFFIXES = {
    "s": ("s", "sec", "secs", "second", "seconds"),
    "ms": ("ms", "msec", "msecs", "milli", "millis", "millisecond", "milliseconds"),
    "us": ("us", "µs", "μs", "usec", "usecs", "micro", "micros", "microsecond", "microseconds"),
    "ns": ("ns", "nsec", "nsecs", "nano", "nanos", "nanosecond", "nanoseconds"),
}
_PATTERN = re.compile(
    r"(?:[_\-. ]|[(\[])(" + "|".join(s for v in _SUFFIXES.values() for s in v) + r")[)\]]?\s*$",
    re.IGNORECASE)
_UNIT = {s: unit for unit, v in _SUFFIXES.items() for s in v}


def unit_in_name(name: str) -> tuple[str, str] | None:
    """The unit a column ``name`` ends in and that suffix as written; ``None`` without one.

    >>> unit_in_name("duration_s"), unit_in_name("Latency (MS)"), unit_in_name("t_usecs")
    (('s', '_s'), ('ms', '(MS)'), ('us', '_usecs'))
    >>> unit_in_name("duration"), unit_in_name("requests"), unit_in_name("status")
    (None, None, None)
    """
    m = _PATTERN.search(name)
    if m is None:
        return None
    return _UNIT[m.group(1).lower()], name[m.start():].rstrip()


def check_unit_name(duration: str, duration_unit: str) -> None:
    """Refuse a ``duration_unit`` that disagrees with the unit the column ``duration``'s name
    ends in (:func:`unit_in_name`), naming both and the fix; nothing when they agree or the name
    has no unit.

    >>> check_unit_name("duration_ms", "ms"), check_unit_name("took", "s")
    (None, None)
    >>> check_unit_name("duration_s", "ms")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: duration='duration_s' ends in '_s' (seconds) but \
duration_unit='ms' says milliseconds: pass duration_unit='s' if the column holds seconds, or \
rename the column if its name is wrong
    """
    found = unit_in_name(duration)
    if found is None or found[0] == duration_unit:
        return
    unit, suffix = found
    raise ConfigError(say(
        f"duration={duration!r} ends in {suffix!r} ({UNIT_NAMES[unit]}) but "
        f"duration_unit={duration_unit!r} says {UNIT_NAMES[duration_unit]}: pass "
        f"duration_unit={unit!r} if the column holds {UNIT_NAMES[unit]}, or rename the column "
        "if its name is wrong",
        f"--duration {duration} ends in {suffix!r} ({UNIT_NAMES[unit]}) but --duration-unit "
        f"{duration_unit} says {UNIT_NAMES[duration_unit]}: give --duration-unit {unit} if the "
        f"column holds {UNIT_NAMES[unit]}, or rename the column if its name is wrong"))


def unit_plausibility(col: pd.Series, durations: np.ndarray, unit: str | None) -> str | None:
    """The reading's words when the median of the durations read as numbers in ``unit`` (rows
    of the raw column ``col`` that are numbers; ``durations`` in ns, as read) is over
    :data:`PLAUSIBLE_MEDIAN_NS`; ``None`` otherwise, or without a smaller unit to suggest.

    >>> unit_plausibility(pd.Series([210, 403, 5000]), np.array([210, 403, 5000]) * 10**9, "s")
    "durations read as seconds (duration_unit='s'): median 403 s, over 60 s; if the column \
holds milliseconds, pass duration_unit='ms'"
    >>> unit_plausibility(pd.Series(["1.5", "90s"]), np.array([15, 900]) * 10**8, "s") is None
    True
    """
    col = numpy_backed(col)
    if isinstance(col.dtype, pd.CategoricalDtype):
        col = col.astype(col.dtype.categories.dtype)
    if unit not in _SMALLER or pd.api.types.is_timedelta64_dtype(col.dtype):
        return None
    numeric = (np.ones(len(col), dtype=bool) if pd.api.types.is_numeric_dtype(col.dtype) else
               pd.to_numeric(col.astype("str").str.strip(), errors="coerce").notna().to_numpy())
    if not numeric.any():
        return None
    median = float(np.median(np.asarray(durations)[numeric]))
    if median <= PLAUSIBLE_MEDIAN_NS:
        return None
    spelled = given_duration(pd.Timedelta(round(median), unit="ns"))
    smaller = _SMALLER[unit]
    read = f"durations read as {UNIT_NAMES[unit]} "
    return say(
        f"{read}(duration_unit={unit!r}): median {spelled}, over 60 s; if the column holds "
        f"{UNIT_NAMES[smaller]}, pass duration_unit={smaller!r}",
        f"{read}(--duration-unit {unit}): median {spelled}, over 60 s; if the column holds "
        f"{UNIT_NAMES[smaller]}, give --duration-unit {smaller}")
