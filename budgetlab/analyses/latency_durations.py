"""A duration the latency texts read from the data (the longest success, where a curve ends), said
as the package promises (docs/latency.md: at most four significant digits), never every digit of
its nanoseconds (``3.707315 s``); a bound the text advises giving back (``give --client-timeout
of at least ...``) rounded up, so that the advice, taken, works.
"""

from __future__ import annotations

import decimal
from typing import Any

import pandas as pd

from .._util.duration_text import DURATION_SCALES

__all__ = ["MOST_DIGITS", "data_duration"]

#: The most significant digits a duration of the data is said to (docs/latency.md).
MOST_DIGITS = 4


def data_duration(value: Any, *, up: bool = False) -> str:
    """``value`` (a duration, or nanoseconds) to :data:`MOST_DIGITS` significant digits, in the
    largest of ``s``, ``ms``, ``us``, ``ns`` not more than the rounded figure (999.96 ms is
    ``1 s``), trailing zeros dropped, thousands separated; rounded half-even, or up (``up``: a
    lower bound to give back, never below ``value``).

    >>> [data_duration(x) for x in ("3.707315s", "9.939577s", "757.1234ms", "60s", "12345.6s")]
    ['3.707 s', '9.94 s', '757.1 ms', '60 s', '12,350 s']
    >>> [data_duration(x, up=True) for x in ("9.939577s", "9.9391s", "3s", "999.96ms", "7ns")]
    ['9.94 s', '9.94 s', '3 s', '1 s', '7 ns']
    """
    ns = int(pd.Timedelta(value).value)
    mode = decimal.ROUND_CEILING if up else decimal.ROUND_HALF_EVEN
    # the largest unit the rounded figure reaches (999.96 ms rounds to 1,000 ms: 1 s)
    figure, unit = next((f, u) for f, u in ((_rounded(decimal.Decimal(ns) / size, mode), u)
                                            for size, u in DURATION_SCALES)
                        if abs(f) >= 1 or u == DURATION_SCALES[-1][1])
    text = f"{figure:,f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return f"{text} {unit}"


def _rounded(x: decimal.Decimal, mode: str) -> decimal.Decimal:
    """``x`` to :data:`MOST_DIGITS` significant digits, rounded by ``mode``."""
    if x == 0:
        return decimal.Decimal(0)
    exponent = x.adjusted() - MOST_DIGITS + 1
    return x.quantize(decimal.Decimal(1).scaleb(exponent), rounding=mode)
