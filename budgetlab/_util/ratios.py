"""Division where the denominator may be zero: one spelling for the whole package."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["ratio"]


def ratio(num: Any, den: Any, empty: float = np.nan) -> np.ndarray:
    """``num / den`` (broadcast, float64), ``empty`` where ``den`` is not above 0; no warning.

    >>> ratio(np.array([1, 3]), np.array([2, 0])).tolist(), ratio([3], [0], 0.0).tolist()
    ([0.5, nan], [0.0])
    """
    num, den = np.asarray(num, dtype=np.float64), np.asarray(den, dtype=np.float64)
    out = np.full(np.broadcast_shapes(num.shape, den.shape), empty, dtype=np.float64)
    np.divide(num, den, out=out, where=den > 0)
    return out
