"""Division where the denominator may be zero: one spelling, one rule, for the whole package.

**The rule.** ``ratio(num, den, empty)`` is ``num / den`` in float64 (broadcast) wherever
``den > 0``, and ``empty`` wherever it is not (zero, negative or NaN: an empty window, a group
without traffic, no observed time). ``empty`` is what the caller's quantity means there, said
at the call: ``nan`` (the default: unknown, e.g. a rate per day over no observed time), ``0.0``
(nothing spent: a burn rate or a share of nothing), ``1.0`` (nothing failed: a success rate), or
an array broadcast to the result. No warning is raised and no ``inf`` is made.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["ratio"]


def ratio(num: Any, den: Any, empty: Any = np.nan) -> np.ndarray:
    """``num / den`` (broadcast, float64), ``empty`` where ``den`` is not above 0; no warning.

    >>> ratio(np.array([1, 3]), np.array([2, 0])).tolist(), ratio([3], [0], 0.0).tolist()
    ([0.5, nan], [0.0])
    """
    num, den = np.asarray(num, dtype=np.float64), np.asarray(den, dtype=np.float64)
    out = np.full(np.broadcast_shapes(num.shape, den.shape), empty, dtype=np.float64)
    np.divide(num, den, out=out, where=den > 0)
    return out
