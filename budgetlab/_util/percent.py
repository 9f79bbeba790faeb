"""A fraction in text (a percentage, or a given fraction as a fraction): the one home of
budgetlab's two meanings.

* A **measured** fraction (a success rate, a share of time or of failures, a quantile of the
  rolling rate) is printed to a fixed number of decimals, by :func:`measured_percent`; a value
  that is not exactly 0 or 1 is never printed as ``0.00 %`` or ``100.00 %``: decimals are added
  until it is not (``0.99999`` is ``99.999 %``).
* A **given** fraction (a target, a threshold, a limit or a confidence level the user typed, a
  target from the recommender's grid of decimal steps) is printed as written, by
  :func:`given_percent`: no digit rounded away, none added (``0.9125`` is ``91.25 %``, ``0.9`` is
  ``90 %``); a given fraction printed as a fraction, by :func:`given_fraction`, likewise
  (``0.99995`` is ``0.99995``, never ``1``).

Text says ``93.80 %`` (a space before the sign, as in every sentence and table budgetlab prints);
a figure's legend says ``target 91.25%`` (``space=False``), the compact form of a legend entry.
A figure that does not exist is said in words (``missing``: ``n/a`` unless the caller says
better), never ``nan %``.

A measured share of time in a table's cell is printed by :func:`time_share_percent`: at most one
decimal more than the column's, a share that those decimals would print as 0 % or 100 % read as
a bound (``< 0.01 %``: a status held for a few nanoseconds, a tie on the window's clock).

A measured share printed against a given limit (the share of time at the limit status or worse
beside ``max_share``) is printed by :func:`share_percent`: on the limit's side of it, never
rounded onto it (``1.0038 %`` is ``1.004 %`` beside a 1 % limit, never ``1.00 %``).
"""

from __future__ import annotations

import decimal
import math
from typing import Any

import pandas as pd

__all__ = ["fraction_to_percent", "given_fraction", "given_percent", "measured_percent",
           "share_percent", "time_share_percent"]


def measured_percent(x: Any, digits: int = 2, *, missing: str = "n/a") -> str:
    """A measured fraction in percent with ``digits`` decimals (``0.938044`` is ``93.80 %``);
    ``missing`` where there is no figure (``None``, NaN, infinite).

    A value other than exactly 0 and 1 never reads as 0 % or 100 %: where ``digits`` decimals
    would round it there, decimals are added one at a time until they do not. Of the two honest
    ways (more digits, or a bound such as ``> 99.99 %``) this is the one that keeps the figure:
    ``99.999 %`` and ``99.9999 %`` (one failure in 100,000 and in 1,000,000 attempts) are the
    nines an SLO is written in, and a bound would print both as ``> 99.99 %``. The same holds
    outside [0, 1] (``1.00001`` is ``100.001 %``, a budget just overspent) and for ``-0.0``
    (``0.00 %``). The digits are those of the double ``x * 100``, correctly rounded (as
    ``f"{x * 100:.2f}"`` wrote them before: every other output is unchanged).

    >>> measured_percent(0.938044), measured_percent(0.01, 0), measured_percent(1.0)
    ('93.80 %', '1 %', '100.00 %')
    >>> measured_percent(0.99999), measured_percent(0.00001)  # doctest: -NUMBER
    ('99.999 %', '0.001 %')
    >>> measured_percent(0.996, 0), measured_percent(float("nan"))  # doctest: -NUMBER
    ('99.6 %', 'n/a')
    """
    if x is None or pd.isna(x):
        return missing
    value = float(x)
    if not math.isfinite(value):
        return missing
    value = value * 100 + 0.0  # + 0.0: -0.0 prints as 0
    text = f"{value:.{digits}f}"
    # a nonzero double prints nonzero with at most ~1,100 decimals; a count-based fraction
    # (n <= 2**63 events) needs at most 17
    while float(text) in (0.0, 100.0) and value not in (0.0, 100.0):
        digits += 1
        text = f"{value:.{digits}f}"
    return f"{text} %"


def time_share_percent(x: Any, digits: int = 1, *, missing: str = "n/a") -> str:
    """A measured share of time (a status's share of the evaluated hours) in a table's cell:
    :func:`measured_percent`'s figure with ``digits`` decimals and, where those round it to 0 %
    or 100 %, one more; a share that even ``digits + 1`` decimals round there reads as a bound,
    ``< 0.01 %`` or ``> 99.99 %`` (``digits=1``), never ``0 %`` or ``100 %`` and never the 13
    decimals of a status held for a few nanoseconds (a tie on the window's clock: 3 ns of 24 h
    is 0.0000000000035 %). Exactly 0 and 1, and a value outside them, read as
    :func:`measured_percent` reads them.

    >>> time_share_percent(0.1234), time_share_percent(0.0004), time_share_percent(3e-14)
    ... # doctest: -NUMBER
    ('12.3 %', '0.04 %', '< 0.01 %')
    >>> time_share_percent(1 - 3e-14), time_share_percent(0.0), time_share_percent(None, missing="")
    ... # doctest: -NUMBER
    ('> 99.99 %', '0.0 %', '')
    """
    text = measured_percent(x, digits, missing=missing)
    if text == missing or not 0 < float(x) < 1:
        return text
    places = len(text.removesuffix(" %").partition(".")[2])
    if places <= digits + 1:
        return text
    unit = 10.0 ** -(digits + 1)  # one unit of the last decimal a cell shows
    bound = unit if float(x) < 0.5 else 100 - unit
    return f"{'<' if float(x) < 0.5 else '>'} {bound:.{digits + 1}f} %"


def share_percent(share: Any, limit: float, digits: int = 2, *, missing: str = "n/a") -> str:
    """A measured share printed beside a given ``limit`` (``max_share``: the rule is a share *at
    most* the limit, judged on the floats as the rule judges it): :func:`measured_percent`'s
    figure, with decimals added one at a time until the figure reads on the side of the limit, as
    :func:`given_percent` writes it, that the share is on. A share over the limit never reads as
    equal to it or below (``0.010038`` beside 1 % is ``1.004 %``, never ``1.00 %``, which reads as
    a rule met), one under never as equal or over (``0.00999`` is ``0.999 %``); a share equal to
    the limit reads as it, with at least ``digits`` decimals (``1.00 %``; a limit of ``0.00125``
    read at ``0.125 %``, never ``0.13 %``). The added digits are those of the share's exact value.

    >>> share_percent(0.010038, 0.01), share_percent(0.00999, 0.01), share_percent(0.01, 0.01)
    ('1.004 %', '0.999 %', '1.00 %')
    >>> share_percent(0.0047, 0.01), share_percent(0.00125, 0.00125), share_percent(None, 0.01)
    ('0.47 %', '0.125 %', 'n/a')
    >>> share_percent(0.0100004, 0.01, 1)  # doctest: -NUMBER
    '1.00004 %'
    """
    text = measured_percent(share, digits, missing=missing)
    if share is None or pd.isna(share) or not math.isfinite(float(share)):
        return missing
    value, bound = float(share) + 0.0, float(limit)
    with decimal.localcontext() as ctx:
        ctx.prec = 2000  # exact: a double has at most 1,074 decimals
        written = decimal.Decimal(repr(bound)) * 100  # the limit as given_percent prints it
        if value == bound:  # at the limit: the rule is met there, and the figure reads so
            places = max(digits, -int(written.normalize().as_tuple().exponent))
            return f"{written.quantize(decimal.Decimal(1).scaleb(-places)):f} %"
        exact = decimal.Decimal(value) * 100
        shown = decimal.Decimal(text.removesuffix(" %"))
        places = -int(shown.as_tuple().exponent)  # measured_percent's, digits added or not
        # exact lies strictly on the rule's side of written (the limit's double is the nearest
        # to its decimal), so a few more decimals always reach that side
        while shown == written or (shown > written) != (value > bound):
            places += 1
            shown = exact.quantize(decimal.Decimal(1).scaleb(-places),
                                   rounding=decimal.ROUND_HALF_EVEN)
            text = f"{shown:f} %"
    return text


def given_percent(x: Any, *, space: bool = True, missing: str = "n/a") -> str:
    """A given fraction (a target, a threshold) in percent as written: the decimal digits of its
    shortest text (``repr``), no digit rounded away and none added; ``space=False`` for a figure's
    legend (``91.25%``); ``missing`` where there is none (``None``, NaN, infinite: a
    recommendation that could not be made).

    A value computed in floats prints every digit its double holds
    (``0.1 + 0.2`` is ``30.000000000000004 %``): this function rounds nothing, so pass it the
    values that were written (typed, read from a file, or a grid step rounded to its decimal).

    >>> given_percent(0.9125), given_percent(0.9), given_percent(0.9995)  # doctest: -NUMBER
    ('91.25 %', '90 %', '99.95 %')
    >>> given_percent(0.99999), given_percent(0.975, space=False)  # doctest: -NUMBER
    ('99.999 %', '97.5%')
    """
    if x is None or pd.isna(x) or not math.isfinite(float(x)):
        return missing
    return fraction_to_percent(float(x)) + (" %" if space else "%")


def given_fraction(x: Any, *, missing: str = "n/a") -> str:
    """A given fraction (a target: current, recommended, candidate, supported; a limit, a
    threshold) as a fraction, as written: ``0.99995`` is ``0.99995`` (never ``1``, as four
    significant digits print it), ``0.9125`` is ``0.9125``, a target from the recommender's grid
    is the grid's decimal; ``missing`` where there is none (``None``, NaN, infinite).

    The rule: the number's decimal digits to 15 significant digits, trailing zeros dropped, in
    positional notation. Every decimal of up to 15 significant digits is a distinct double that
    prints back as written (the precision a double guarantees), so a typed target is never
    rounded; what lies beyond is a computation's float noise, dropped
    (``0.9999000000000001`` is ``0.9999``). A written value therefore prints as
    :func:`given_percent` prints it in percent.

    >>> given_fraction(0.99995), given_fraction(0.95), given_fraction(0.9125)  # doctest: -NUMBER
    ('0.99995', '0.95', '0.9125')
    >>> given_fraction(0.9999000000000001), given_fraction(1e-05), given_fraction(1.0)
    ... # doctest: -NUMBER
    ('0.9999', '0.00001', '1')
    >>> given_fraction(float("nan"), missing="below every candidate")
    'below every candidate'
    """
    if x is None or pd.isna(x) or not math.isfinite(float(x)):
        return missing
    d = decimal.Decimal(f"{float(x) + 0.0:.15g}")  # + 0.0: -0.0 is 0
    return format(d.normalize(), "f")


def fraction_to_percent(value: float) -> str:
    """The shortest decimal text of ``value * 100`` as the fraction's decimal text means it
    (``0.999`` -> ``'99.9'``, never ``'99.90000000000001'``), without the sign: the number a
    file that holds percentages is written with (an OpenSLO ``targetPercent``).

    >>> fraction_to_percent(0.999), fraction_to_percent(0.95), fraction_to_percent(0.9995)
    ('99.9', '95', '99.95')
    """
    d = decimal.Decimal(repr(float(value) + 0.0)) * 100  # + 0.0: -0.0 is 0
    return format(d.normalize(), "f")
