"""Memory guards stated in bytes: one budget for every dense allocation budgetlab sizes from its
input (bin grids, decompressed files).

The budget is half of the machine's physical memory by default; ``BUDGETLAB_MEMORY_LIMIT``
(e.g. ``"8GiB"``, ``"512MB"``, ``"2000000000"``) or a ``limit=`` argument overrides it. A guard
refuses the work before allocating, with a :class:`~budgetlab.errors.ConfigError` that states the
estimated bytes, the limit and the fixes.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from typing import Any

from ..errors import ConfigError
from .words import counted

__all__ = ["MEMORY_ENV", "parse_bytes", "format_bytes", "physical_memory", "memory_limit",
           "check_memory", "check_cells"]

#: The environment variable that overrides the default memory budget.
MEMORY_ENV = "BUDGETLAB_MEMORY_LIMIT"

_UNITS = {"": 1, "b": 1, "k": 1000, "kb": 1000, "m": 1000**2, "mb": 1000**2, "g": 1000**3,
          "gb": 1000**3,
          "t": 1000**4, "tb": 1000**4, "kib": 1024, "mib": 1024**2, "gib": 1024**3, "tib": 1024**4}
_FALLBACK = 8 * 1024**3  # physical memory unknown (no sysconf): assume a small machine


def parse_bytes(value: Any, *, name: str = "memory_limit") -> int:
    """A size in bytes from an int or a text such as ``"8GiB"``, ``"512 MB"``, ``"1.5G"``.

    >>> parse_bytes("8GiB"), parse_bytes("512MB"), parse_bytes(1024)
    (8589934592, 512000000, 1024)
    >>> parse_bytes("lots")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: memory_limit='lots' is not a size; give bytes or e.g. '8GiB',
    '512MB'.
    """
    if isinstance(value, bool):
        raise ConfigError(f"{name}={value!r} is not a size; give bytes or e.g. '8GiB', '512MB'.")
    if isinstance(value, int):
        size = value
    else:
        m = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([A-Za-z]*)\s*", str(value))
        unit = m.group(2).lower() if m else ""
        if m is None or unit not in _UNITS:
            raise ConfigError(f"{name}={value!r} is not a size; give bytes or e.g. '8GiB', "
                              "'512MB'.")
        size = int(float(m.group(1)) * _UNITS[unit])
    if size <= 0:
        raise ConfigError(f"{name}={value!r} must be a positive size; e.g. '8GiB'.")
    return size


def format_bytes(n: float) -> str:
    """A byte count for a message, in binary units.

    >>> format_bytes(53 * 1024**3), format_bytes(1536), format_bytes(12)
    ('53.0 GiB', '1.5 KiB', '12 B')
    """
    for unit, size in (("TiB", 1024**4), ("GiB", 1024**3), ("MiB", 1024**2), ("KiB", 1024)):
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{int(n)} B"


def physical_memory() -> int:
    """The machine's physical memory in bytes (``os.sysconf``; a fixed 8 GiB when unknown)."""
    try:
        pages = os.sysconf("SC_PHYS_PAGES")
        page = os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, ValueError, OSError):  # not POSIX (Windows): no sysconf
        return _FALLBACK
    return int(pages * page) if pages > 0 and page > 0 else _FALLBACK


def memory_limit(limit: Any = None) -> int:
    """The memory budget in bytes: ``limit`` if given, else ``$BUDGETLAB_MEMORY_LIMIT``, else
    half of the physical memory.

    >>> memory_limit("2GiB")
    2147483648
    >>> memory_limit() > 0
    True
    """
    if limit is not None:
        return parse_bytes(limit)
    env = os.environ.get(MEMORY_ENV, "").strip()
    if env:
        return parse_bytes(env, name=MEMORY_ENV)
    return physical_memory() // 2


def check_memory(nbytes: float, what: str, fixes: Sequence[str] = (), *, limit: Any = None) -> None:
    """Refuse work estimated at ``nbytes`` over the budget (:func:`memory_limit`): a
    :class:`ConfigError` naming ``what``, the estimate, the limit, the ``fixes`` and the override.

    >>> check_memory(1024, "the bin grid", limit="1GiB")
    >>> check_memory(2 * 1024**3, "the bin grid", ["use a coarser freq="], limit="1GiB")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: the bin grid would need about 2.0 GiB, over the memory limit of
    1.0 GiB; use a coarser freq=, or raise the limit (BUDGETLAB_MEMORY_LIMIT=8GiB, default: half of
    the physical memory).
    """
    cap = memory_limit(limit)
    if nbytes <= cap:
        return
    ways = [*fixes, f"or raise the limit ({MEMORY_ENV}=8GiB, default: half of the physical memory)"]
    raise ConfigError(f"{what} would need about {format_bytes(nbytes)}, over the memory limit "
                      f"of {format_bytes(cap)}; {', '.join(ways)}.")


def check_cells(n_groups: int, n_bins: int, bytes_per_cell: float, what: str,
                fixes: Sequence[str] = (), *,
                limit: Any = None) -> None:
    """:func:`check_memory` for work that allocates ``bytes_per_cell`` per group x time bin
    (estimated before the work): the message names the grid's shape.

    >>> check_cells(50_000, 40_320, 150, "the dense burn-rate table", ["use a coarser freq="],
    ...             limit="8GiB")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: the dense burn-rate table (50,000 groups x 40,320 bins) would
    need about 281.6 GiB, over the memory limit of 8.0 GiB; use a coarser freq=, or raise the limit
    (BUDGETLAB_MEMORY_LIMIT=8GiB, default: half of the physical memory).
    """
    check_memory(float(n_groups) * float(n_bins) * float(bytes_per_cell),
                 f"{what} ({counted(n_groups, 'group')} x {counted(n_bins, 'bin')})", fixes,
                 limit=limit)
