"""How a time written as text names its offset: the one detector of zone-aware text
(:func:`has_offset`, used by the event readers and by the incidents file's note on naive times),
the rewriting of ``GMT+0100``-style offsets as ISO ones (:func:`iso_offsets`) and the zone
names pandas cannot read as an offset (:func:`unread_zone_names`)."""

from __future__ import annotations

import re
import time

import numpy as np
import pandas as pd
from dateutil.parser import parserinfo

__all__ = ["has_offset", "iso_offsets", "unread_zone_names"]

# AM/PM as dateutil (pandas' parser of month-name dates) reads it: am, pm, a, p, a.m., P.M.
_AMPM = r"[ \t]*[AaPp]\.?(?:[Mm]\.?)?"
# an offset (or Z/UTC/GMT) ending the text, after hh:mm[:ss] or a T/space and hh[mm[ss]], either
# perhaps followed by AM/PM (10:00 PM +0100), or after an hour and AM/PM (9 PM +0100)
_OFFSET_AT_END = (r"(?:(?:[0-9]:[0-9][0-9](?::[0-9][0-9](?:[.,][0-9]+)?)?|[T ][0-9]{2}"
                  rf"(?:[0-9]{{2}}(?:[0-9]{{2}}(?:[.,][0-9]+)?)?)?)(?:{_AMPM})?|[0-9]{_AMPM})"
                  r"[ \t]*(?:[Zz]|UTC|GMT|[+-][0-9][0-9](?::?[0-9][0-9])?)[ \t]*$")
# "GMT+0100", "UTC-05:00", "GMT+1" after any date style: an offset with the ISO sign (east is +;
# dateutil reads "GMT+1" the POSIX way, inverted), a trailing UTC/GMT as +00:00, and JavaScript's
# "(Central European Standard Time)" dropped
_ISO_OFFSETS = (
    (r"(?i)[ \t]*(?:GMT|UTC)[ \t]*([+-])([0-9]{2}):?([0-9]{2})(?![0-9])", r"\1\2:\3"),
    (r"(?i)[ \t]*(?:GMT|UTC)[ \t]*([+-])([0-9]{2})(?![0-9:])", r"\1\2:00"),
    (r"(?i)[ \t]*(?:GMT|UTC)[ \t]*([+-])([0-9])(?![0-9:])", r"\g<1>0\2:00"),
    (r"[ \t]*\([A-Za-z][^()]*\)[ \t]*$", ""),
    (r"(?i)[ \t]*(?:GMT|UTC)[ \t]*$", "+00:00"),
)


def has_offset(text: pd.Series) -> np.ndarray:
    """Which times written as text end with their offset (``Z``, ``+01:00``, ``-0500``, ``UTC``)
    after a time of day: the one detector of zone-aware text (a missing value has none).

    >>> has_offset(pd.Series(["2026-01-05T10:00Z", "20260108T1030+0200", "2026-01-05 10:00",
    ...                       "2026-01-05"])).tolist()
    [True, True, False, False]

    A 12-hour clock's AM/PM may stand between the time and its offset:

    >>> has_offset(pd.Series(["1 Mar 2026 10:00 PM +0100", "1 Mar 2026 9 p.m. -05:00",
    ...                       "1 Mar 2026 10:00 PM"])).tolist()
    [True, True, False]
    """
    return text.str.contains(_OFFSET_AT_END, regex=True).fillna(False).to_numpy(dtype=bool)


def iso_offsets(s: pd.Series) -> pd.Series:
    """``GMT+0100`` / ``UTC-05:00`` / ``GMT+1`` / a trailing ``UTC`` rewritten as ISO offsets
    (``+01:00``) and a trailing zone name in parentheses dropped, so every parser reads them."""
    if not bool(s.str.contains(r"(?i)(?:GMT|UTC)[ \t]*(?:[+-]|$)|\)[ \t]*$",
                               regex=True).fillna(False).any()):
        return s
    for pattern, repl in _ISO_OFFSETS:
        s = s.str.replace(pattern, repl, regex=True)
    return s


#: The words dateutil (pandas' parser of month-name dates) reads as no zone: month and day
#: names, AM/PM, "at", "of", hms letters.
_WORDS = parserinfo()


def _zone_word(word: str) -> bool:
    """Whether dateutil takes ``word`` (after a time of day) for a zone name that pandas does not
    read: up to 5 capitals, not UTC, GMT, Z or a name of the machine's own zone, no known word."""
    return (len(word) <= 5 and word.isascii() and word.isupper()
            and word not in ("UTC", "GMT", "Z", *time.tzname)
            and not (_WORDS.jump(word) or _WORDS.pertain(word)) and _WORDS.hms(word) is None
            and _WORDS.month(word) is None and _WORDS.weekday(word) is None
            and _WORDS.ampm(word) is None)


def unread_zone_names(s: pd.Series) -> np.ndarray:
    """Which times name their zone in letters pandas does not read as an offset (``10:00 CEST``,
    ``Sun Nov 29 10:00:00 EST 2026``). pandas 2 drops such a name with a ``FutureWarning`` (the
    wall time then read as UTC: a wrong instant), pandas 3 refuses it; the fallback parse leaves
    these rows unread (refused) before pandas sees them. So no warning is silenced: that would
    need ``warnings.catch_warnings``, which swaps the process-wide filters and is not safe on the
    worker threads of Dask's threaded scheduler.

    >>> unread_zone_names(pd.Series(["Sun Nov 29 10:00:00 CEST 2026", "29 Nov 2026 3:47 PM UTC",
    ...                              "Sun, 29 Nov 2026 03:47:00 +0100", "Nov 29 2026"])).tolist()
    [True, False, False, False]
    """
    tail = s.str.extract(r"[0-9]:[0-9]{2}([^+-]*)", expand=False)  # after the time, to an offset
    named = [t for t in tail.dropna().unique()
             if any(_zone_word(w) for w in re.findall(r"[A-Za-z]+", str(t)))]
    return tail.isin(named).fillna(False).to_numpy(dtype=bool)
