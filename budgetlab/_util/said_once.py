"""Each warning said once over a loop that repeats it: a function that scores or draws several
policies over the same incidents warns the same words for each; :func:`said_once` lets the loop
warn as it goes and says each distinct warning once when it ends, where it was first raised.

Not a filter (``warnings.filterwarnings("once")`` does not hold: every ``catch_warnings`` that a
library enters in between resets what was already said), and a warning that the caller's filters
would hide or raise as an error still is: it is said again through them.
"""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Iterator

__all__ = ["said_once"]


@contextlib.contextmanager
def said_once() -> Iterator[None]:
    """Record the warnings of the ``with`` body, then say each distinct one (message text and
    category) once, at the place of its first occurrence.

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     with said_once():
    ...         for _ in range(3):
    ...             warnings.warn("same words", UserWarning)
    >>> [str(w.message) for w in caught]
    ['same words']
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            yield
        finally:
            said = list(caught)
    first: dict[tuple[str, type[Warning]], warnings.WarningMessage] = {}
    for w in said:
        first.setdefault((str(w.message), w.category), w)
    for w in first.values():
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno, source=w.source)
