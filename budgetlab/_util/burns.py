"""A measured figure in text (a burn rate, the share of its budget a window spends, the expected
failures a count of events holds under a target): the one rule every sentence that prints one
follows, :func:`three_digits`.
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

__all__ = ["expected_failures_words", "three_digits"]


def three_digits(x: Any, *, missing: str = "n/a", significant: int = 3,
                 keep_zeros: bool = False) -> str:
    """A measured figure to three significant digits: trailing zeros dropped, a whole number never
    rounded into zeros and thousands separated, never an exponent; 0 is ``0``; ``missing`` where
    there is no figure (``None``, NaN, infinite).

    Two decimals said a burn of 0.004 as ``0.00`` and one of 1000 as ``1000.00``; ``.3g`` said
    0.00002 as ``2e-05`` and 1000 as ``1e+03``. Three significant digits keep what a burn is read
    for (how many budgets a window spends, or which small share of one) at every scale, and the
    workbook's thresholds as they are written (a burn of 14.4 never reads 14, under a page
    threshold it reached); expected failures read the same way (12,345.67 is ``12,346``, never
    ``1.23e+04``).

    >>> [three_digits(x) for x in (0.69, 0.8, 0.0456, 0.004, 0.00002, 0.09999, 1.0, 1.25)]
    ['0.69', '0.8', '0.0456', '0.004', '0.00002', '0.1', '1', '1.25']
    >>> [three_digits(x) for x in (14.4, 19.666, 206.54, 1000.0, 0.0, float("nan"))]
    ['14.4', '19.7', '207', '1,000', '0', 'n/a']

    ``significant`` digits other than three tell apart figures that three say alike (an
    estimate and its interval's bounds): ``three_digits(14.568, significant=4)`` is ``14.57``.
    ``keep_zeros`` keeps the trailing zeros, for the two ends of an interval said at one
    precision (``0.938 – 1.10``, never ``0.938 – 1.1``):

    >>> three_digits(1.1, keep_zeros=True), three_digits(14.0, keep_zeros=True)
    ('1.10', '14.0')
    >>> three_digits(0.99999, keep_zeros=True), three_digits(0.0999999, keep_zeros=True)
    ('1.00', '0.100')
    """
    if x is None or pd.isna(x) or not math.isfinite(float(x)):
        return missing
    value = float(x) + 0.0  # + 0.0: -0.0 prints as 0
    if value == 0:
        return "0"
    # the magnitude after rounding to ``significant`` digits: 0.99999 is 1.00, never 1.000
    rounded = float(f"{value:.{significant - 1}e}")
    digits = max(0, significant - 1 - math.floor(math.log10(abs(rounded))))
    text = f"{value:,.{digits}f}"
    return text.rstrip("0").rstrip(".") if "." in text and not keep_zeros else text


def expected_failures_words(expected: float) -> str:
    """``1 expected failure``, ``0.0667 expected failures``: the expected failures a count of
    events holds under a target, as :func:`three_digits` prints them, the noun in the number the
    printed figure takes (0.9996 prints ``1``: ``1 expected failure``).

    >>> expected_failures_words(1.0), expected_failures_words(0.0667)
    ('1 expected failure', '0.0667 expected failures')
    >>> expected_failures_words(0.9996), expected_failures_words(6.0)
    ('1 expected failure', '6 expected failures')
    """
    shown = three_digits(expected)  # the singular for the figure as printed, never the value's
    return f"{shown} expected failure{'' if shown == '1' else 's'}"
