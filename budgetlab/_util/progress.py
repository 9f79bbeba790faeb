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
from typing import Any, TypeVar

__all__ = ["progress", "progress_enabled", "ProgressBar", "progress_bar"]

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


class ProgressBar:
    """A bar advanced by hand (:meth:`update`), for work that is not a Python loop over items
    (e.g. a compiled pass over events, then a chunked one). Silent unless enabled; use it as a
    context manager so that the bar is closed on error too.

    >>> with ProgressBar(10, desc="replay", enabled=False) as bar:
    ...     bar.update(4)
    ...     bar.update(6)
    >>> bar.done
    10
    """

    def __init__(self, total: int, *, desc: str | None = None, enabled: bool | None = None) -> None:
        self.total = int(total)
        self.done = 0
        show = progress_enabled() if enabled is None else bool(enabled)
        self._bar: Any = None
        if show:
            from tqdm import tqdm

            self._bar = tqdm(total=self.total, desc=desc, leave=False, file=sys.stderr,
                             disable=False,
                             unit_scale=True)

    def update(self, n: int) -> None:
        """Advance by ``n`` units (never past ``total``)."""
        n = max(0, min(int(n), self.total - self.done))
        self.done += n
        if self._bar is not None and n:
            self._bar.update(n)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
            self._bar = None

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def progress_bar(total: int, *, desc: str | None = None, min_total: int = 0) -> ProgressBar:
    """A :class:`ProgressBar` of ``total`` units, shown only when :func:`progress_enabled` and
    ``total >= min_total`` (small inputs finish before a bar would be read).

    >>> with progress_bar(5, desc="rows", min_total=1_000_000) as bar:
    ...     bar.update(5)
    >>> bar.done
    5
    """
    return ProgressBar(total, desc=desc, enabled=None if total >= min_total else False)
