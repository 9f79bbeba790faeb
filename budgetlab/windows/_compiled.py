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

import numpy as np

__all__ = ["compiled_or"]

F = TypeVar("F", bound=Callable[..., Any])

_CACHE: dict[str, Any] = {}


def _build() -> dict[str, Callable[..., Any]] | None:
    try:
        import numba
    except ImportError:  # numba is a declared dependency, but the numpy paths stay complete
        return None

    @numba.njit(cache=True, nogil=True)  # type: ignore[misc]
    def window_counts(t: Any, bad: Any, codes: Any, ngroups: int, window_ns: int) -> Any:
        """Per event: events and failures of its group in ``[t - window, t]`` up to itself.

        The cut-off is that of ``trailing.window_starts`` (``t - window``, clamped at the int64
        floor, left edge closed), written again here because numba cannot call it."""
        n = t.shape[0]
        total = np.empty(n, np.int64)
        failures = np.empty(n, np.int64)
        nxt = np.empty(n, np.int64)  # next event of the same group
        last = np.full(ngroups, -1, np.int64)
        head = np.zeros(ngroups, np.int64)  # oldest event still in the group's window
        cnt = np.zeros(ngroups, np.int64)
        fl = np.zeros(ngroups, np.int64)
        floor = np.iinfo(np.int64).min + window_ns
        for i in range(n):
            g = codes[i]
            if last[g] >= 0:
                nxt[last[g]] = i
            else:
                head[g] = i
            last[g] = i
            cnt[g] += 1
            fl[g] += bad[i]
            ti = t[i]
            cut = ti - window_ns if ti >= floor else np.iinfo(np.int64).min  # no int64 wrap-around
            h = head[g]
            while t[h] < cut:
                cnt[g] -= 1
                fl[g] -= bad[h]
                h = nxt[h]
            head[g] = h
            total[i] = cnt[g]
            failures[i] = fl[g]
        return total, failures

    @numba.njit(cache=True, nogil=True)  # type: ignore[misc]
    def previous_in_group(values: Any, codes: Any, ngroups: int, initial: int) -> Any:
        """Per row: the value of the previous row of its group (``initial`` for a group's first)."""
        n = values.shape[0]
        prev = np.empty(n, values.dtype)
        last = np.full(ngroups, initial, values.dtype)
        for i in range(n):
            g = codes[i]
            prev[i] = last[g]
            last[g] = values[i]
        return prev

    return {"window_counts": window_counts, "previous_in_group": previous_in_group}


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
