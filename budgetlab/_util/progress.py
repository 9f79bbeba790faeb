"""A tiny progress helper: a tqdm bar on an interactive terminal, silent otherwise.

Every analysis that sweeps many windows, targets, groups or bootstrap samples wraps its loop in
:func:`progress`. The bar is written to stderr only when stderr is a terminal and the environment
variable ``TQDM_DISABLE`` is unset (or empty/``0``), so logs, CI and notebooks stay clean unless a
caller asks for it with ``enabled=True``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from typing import TypeVar

__all__ = ["progress", "progress_enabled"]

T = TypeVar("T")


def progress_enabled() -> bool:
    """Whether a bar would be shown by default: stderr is a TTY and ``TQDM_DISABLE`` is not set.

    >>> import os
    >>> os.environ["TQDM_DISABLE"] = "1"
    >>> progress_enabled()
    False
    >>> del os.environ["TQDM_DISABLE"]
    """
    flag = os.environ.get("TQDM_DISABLE", "").strip().lower()
    if flag not in ("", "0", "false", "no"):
        return False
    stream = sys.stderr
    try:
        return bool(stream is not None and stream.isatty())
    except (AttributeError, ValueError):  # closed or replaced stream
        return False


def progress(
    iterable: Iterable[T],
    *,
    total: int | None = None,
    desc: str | None = None,
    enabled: bool | None = None,
) -> Iterator[T]:
    """Iterate over ``iterable``, showing a tqdm bar on stderr when enabled.

    Parameters
    ----------
    iterable : the items to loop over (yielded unchanged, in order).
    total : number of items, for the bar when ``iterable`` has no ``len``.
    desc : short label shown in front of the bar.
    enabled : ``True`` forces the bar, ``False`` silences it, ``None`` (default) shows it only
        when :func:`progress_enabled` says so.

    Returns
    -------
    An iterator over the same items.

    >>> list(progress(range(3), desc="targets"))
    [0, 1, 2]
    """
    show = progress_enabled() if enabled is None else bool(enabled)
    if not show:
        return iter(iterable)
    from tqdm import tqdm  # plain text bar (tqdm.auto would need ipywidgets in notebooks)

    if total is None:
        try:
            total = len(iterable)  # type: ignore[arg-type]
        except TypeError:
            total = None
    return iter(tqdm(iterable, total=total, desc=desc, leave=False, file=sys.stderr, disable=False))
