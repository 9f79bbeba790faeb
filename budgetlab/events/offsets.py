"""How a time written as text names its offset: the one detector of zone-aware text
(:func:`has_offset`, used by the event readers and by the incidents file's note on naive times)
and the rewriting of ``GMT+0100``-style offsets as ISO ones (:func:`iso_offsets`)."""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["has_offset", "iso_offsets"]

# an offset (or Z/UTC/GMT) ending the text, after hh:mm[:ss] or a T/space and hh[mm[ss]]
_OFFSET_AT_END = (r"(?:[0-9]:[0-9][0-9](?::[0-9][0-9](?:[.,][0-9]+)?)?|[T ][0-9]{2}"
                  r"(?:[0-9]{2}(?:[0-9]{2}(?:[.,][0-9]+)?)?)?)[ \t]*"
                  r"(?:[Zz]|UTC|GMT|[+-][0-9][0-9](?::?[0-9][0-9])?)[ \t]*$")
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
