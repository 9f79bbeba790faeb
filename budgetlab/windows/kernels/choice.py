"""The one choice between a compiled kernel and its numpy twin: see
:mod:`budgetlab.windows.kernels`."""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np

__all__ = ["KERNELS", "compiled", "compiled_or", "kernel_codes", "read_only"]

F = TypeVar("F", bound=Callable[..., Any])

#: Each compiled kernel and the module (of this package) that defines it.
KERNELS = {
    "window_counts": "_events", "window_counts_one": "_events", "window_counts_sorted": "_events",
    "previous_in_group": "_events", "status_runs": "_events", "cells": "_cells",
           "tier_runs": "_tiers",
}

_FOUND: dict[str, Callable[..., Any] | None] = {}


def compiled(name: str) -> Callable[..., Any] | None:
    """The compiled kernel ``name`` (a key of :data:`KERNELS`), or ``None`` when numba is not
    importable or ``BUDGETLAB_KERNEL=numpy``; asked at each call, so the variable acts at once.

    >>> from unittest import mock
    >>> with mock.patch.dict(os.environ, {"BUDGETLAB_KERNEL": "numpy"}):
    ...     print(compiled("window_counts"))
    None
    """
    if os.environ.get("BUDGETLAB_KERNEL", "").lower() == "numpy":
        return None
    if name not in _FOUND:
        try:
            module = importlib.import_module(f"{__package__}.{KERNELS[name]}")
        except ImportError:  # numba is a declared dependency, but the numpy twins stay complete
            _FOUND[name] = None
        else:
            _FOUND[name] = getattr(module, name)
    return _FOUND[name]


def compiled_or(name: str, twin: F) -> F:
    """The compiled kernel ``name``, or ``twin`` (its numpy twin, same signature) when
    :func:`compiled` gives ``None``."""
    found = compiled(name)
    return twin if found is None else cast(F, found)


def read_only(array: Any) -> Any:
    """A read-only view of the array ``array`` (no copy), to pass to a compiled kernel. numba
    compiles a kernel once per type of its arguments, and a read-only array (pandas' categorical
    codes, a frame's column) is another type than a writable one: a first run that met both
    compiled the kernel twice (3-10 s each). Inputs that always come through here are one type.

    >>> import numpy as np
    >>> read_only(np.arange(3)).flags.writeable
    False
    """
    view = array.view()
    view.flags.writeable = False
    return view


def kernel_codes(codes: Any, ngroups: int) -> Any:
    """The group codes ``codes`` (each below ``ngroups``) as the compiled kernels take them:
    read-only int32 (int64 beyond 2**31 - 1 groups). numba compiles a kernel once per integer
    width, and the group codes come in the smallest width that holds them (int8 up to 127
    groups, then int16, int32): a first run that met two widths compiled the kernel twice. The
    copy costs 4 bytes per event (4 MB per million events) for int8 or int16 codes, held while
    the kernel runs; int32 codes are not copied.

    >>> kernel_codes(np.array([0, 2, 1], dtype=np.int8), 3).dtype
    dtype('int32')
    """
    dtype = np.int32 if ngroups <= np.iinfo(np.int32).max else np.int64
    return read_only(np.ascontiguousarray(codes, dtype=dtype))
