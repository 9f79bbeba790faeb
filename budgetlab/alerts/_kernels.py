"""Compiled alert-replay kernel (numba), used when numba is importable; the numpy path otherwise.

:func:`episode_kernel` returns one pass over each group's non-empty bins that computes every
tier's window sums from one cumulative sum over those cells, its condition (at the bins where a
window sum changes only) and its firing runs (what ``episodes.grid_firing_runs`` does with
``(groups, bins)`` temporaries), without any array the size of the grid. ``BUDGETLAB_KERNEL=numpy`` forces the numpy path (as for the event kernels).
Both give identical results: same integer window sums, the same float division and comparison
(tests run both against the dense oracle).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

__all__ = ["episode_kernel"]

_CACHE: dict[str, Any] = {}


def _build() -> Callable[..., Any] | None:
    try:
        from ._episode_jit import tier_runs
    except ImportError:  # numba is a declared dependency, but the numpy path stays complete
        return None
    return tier_runs  # type: ignore[no-any-return]


def episode_kernel() -> Callable[..., Any] | None:
    """The compiled tier-runs kernel, or ``None`` without numba or with ``BUDGETLAB_KERNEL=numpy``."""
    if os.environ.get("BUDGETLAB_KERNEL", "").lower() == "numpy":
        return None
    if "tier_runs" not in _CACHE:
        _CACHE["tier_runs"] = _build()
    return _CACHE["tier_runs"]  # type: ignore[no-any-return]
