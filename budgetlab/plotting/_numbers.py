"""Tick labels of numbers (rates, percents, burns) that read the values themselves
(:func:`plain_numbers`); the date ticks are :mod:`budgetlab.plotting._dates`."""

from __future__ import annotations

from matplotlib.axis import Axis
from matplotlib.ticker import ScalarFormatter

__all__ = ["plain_numbers"]


def plain_numbers(*axes: Axis) -> None:
    """Tick labels that read the values themselves on each of ``axes`` (a rate, a percent, a
    burn): no offset and no power of ten written apart at the axis' end (matplotlib wrote
    ``0.001 .. 0.010`` under ``+9.999e1`` for 99.991 .. 100 %), with as many decimals as tell
    the ticks apart (``99.991``, ``100.000``).

    >>> import matplotlib.pyplot as plt
    >>> ax = plt.figure().gca()
    >>> _ = ax.set_yticks([99.991, 99.994, 99.997, 100.0])
    >>> plain_numbers(ax.yaxis)
    >>> ax.figure.canvas.draw()
    >>> [t.get_text() for t in ax.get_yticklabels()], ax.yaxis.get_offset_text().get_text()
    (['99.991', '99.994', '99.997', '100.000'], '')
    >>> plt.close("all")
    """
    for axis in axes:
        formatter = ScalarFormatter(useOffset=False)
        formatter.set_scientific(False)
        axis.set_major_formatter(formatter)
