"""numba's ``njit`` as every kernel module uses it (imported only when numba is importable), and
the one array copy the kernels share."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numba

__all__ = ["jit", "jit_inline", "copy_columns"]

F = TypeVar("F", bound=Callable[..., Any])


def jit(fn: F) -> F:
    """``numba.njit(cache=True, nogil=True)``; without the cache when numba finds no writable
    place for it (``NUMBA_CACHE_DIR``, the package's ``__pycache__``, the user's cache folder, as
    for a read-only install run by a user without a writable home): compiled in every process
    then, instead of failing."""
    try:
        return cast(F, numba.njit(cache=True, nogil=True)(fn))
    except RuntimeError:  # numba: "cannot cache function ...: no locator available for file ..."
        return cast(F, numba.njit(nogil=True)(fn))


def jit_inline(fn: F) -> F:
    """:func:`jit` inlined into its callers at numba's level (no call). An inlined helper that
    takes several arrays (or a tuple of them) or returns one is still reference-counted at every
    call: in a hot loop, write such a helper out (in ``status_runs`` they cost 2-4.5x its
    time)."""
    try:
        return cast(F, numba.njit(cache=True, nogil=True, inline="always")(fn))
    except RuntimeError:
        return cast(F, numba.njit(nogil=True, inline="always")(fn))


@jit
def copy_columns(src: Any, dst: Any, m: int) -> None:
    """``dst[:, :m] = src[:, :m]`` written out: numba compiles an array-to-slice assignment with
    its shape-mismatch message (string formatting), about 10 s of the kernel's first compile."""
    for r in range(src.shape[0]):
        for j in range(m):
            dst[r, j] = src[r, j]
