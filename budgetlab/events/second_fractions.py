"""The fraction of a second of times ISO-8601 does not read (month names: ``29 Nov 2026
10:00:00.123456789 +0100``) kept to the nanosecond: pandas reads those through dateutil, which
keeps microseconds and silently drops the rest, so the fraction is split off before pandas sees
the text and added back exactly (:func:`split_fraction`, :func:`parse_form`)."""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["split_fraction", "parse_form"]

# a fraction after hh:mm:ss (a point or, as dateutil reads it, a comma)
_FRACTION = r"(?<=[0-9]:[0-9]{2}:[0-9]{2})[.,]([0-9]+)"


def split_fraction(s: pd.Series) -> tuple[pd.Series, np.ndarray]:
    """The times of ``s`` without the fraction of their seconds, and that fraction in int64 ns,
    read as written (digits past the ninth, below a nanosecond, are dropped, as pandas' ISO-8601
    parser drops them; no fraction: 0). The fraction is added to the instant read without it:
    a wall time and its instant differ by the offset, which the fraction does not change.

    >>> text, ns = split_fraction(pd.Series(["29 Nov 2026 10:00:00.123456789 +0100",
    ...                                      "Nov 29 2026 10:00:05,5 PM", "29 Nov 2026 10:00"]))
    >>> text.tolist()
    ['29 Nov 2026 10:00:00 +0100', 'Nov 29 2026 10:00:05 PM', '29 Nov 2026 10:00']
    >>> ns.tolist()
    [123456789, 500000000, 0]
    """
    digits = s.str.extract(_FRACTION, expand=False).fillna("")
    ns = digits.str.slice(0, 9).str.pad(9, side="right", fillchar="0")
    return (s.str.replace(_FRACTION, "", n=1, regex=True),
            ns.astype(np.int64).to_numpy(dtype=np.int64))


def parse_form(s: pd.Series, fmt: str) -> tuple[pd.Series, np.ndarray]:
    """The times of ``s`` read by pandas in format ``fmt`` (``"mixed"``: dateutil) without the
    fraction of their seconds (UTC; NaT where unread), and that fraction in int64 ns, to add."""
    text, fraction = split_fraction(s)
    return pd.to_datetime(text, format=fmt, utc=True, errors="coerce"), fraction
