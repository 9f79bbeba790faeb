"""Compiled single-pass kernels (numba), used when numba is importable; numpy twins otherwise.

Pure numpy needs a stable sort, a gather and a scatter of 10 M-element arrays to give each group
its own trailing window (``windows.trailing``); these kernels walk the events once in table order
with a per-group window front instead (O(1) amortized per event), so 20 groups cost what one does.

Each kernel has a numpy twin with the same signature next to its one caller
(``trailing._numpy_window_counts``, ``groups._numpy_previous_in_group``); :func:`compiled_or`
picks one of the two, at call time, so that ``BUDGETLAB_KERNEL=numpy`` forces the numpy twins.
Both give identical integers (tests run both against the seed tracker).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar, cast

__all__ = ["compiled_or"]

F = TypeVar("F", bound=Callable[..., Any])

_CACHE: dict[str, Any] = {}


def _build() -> dict[str, Callable[..., Any]] | None:
    try:
        from . import _numba_kernels as kernels
    except ImportError:  # numba is a declared dependency, but the numpy paths stay complete
        return None
    return {name: getattr(kernels, name) for name in kernels.__all__}


def _kernels() -> dict[str, Callable[..., Any]] | None:
    """The compiled kernels, or ``None`` (numba missing, or ``BUDGETLAB_KERNEL=numpy``)."""
    if os.environ.get("BUDGETLAB_KERNEL", "").lower() == "numpy":
        return None
    if "k" not in _CACHE:
        _CACHE["k"] = _build()
    return _CACHE["k"]  # type: ignore[no-any-return]


def compiled_or(name: str, fallback: F) -> F:
    """The compiled kernel ``name``, or ``fallback`` (its numpy twin, same signature) when numba
    is missing or ``BUDGETLAB_KERNEL=numpy``; asked at call time, so the variable acts at once."""
    found = _kernels()
    return fallback if found is None else cast(F, found[name])
