"""Parts of the readers' error messages that never show a data value.

Rows are named by number (1-based, counting data rows in input order), column names are hidden
when they look like data (the first row of a file without a header), labels only where the caller
must list them and only if they do not look like personal data.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .pii import scan_text

__all__ = ["MAX_ROWS_LISTED", "reading", "note_open_last_row", "row_numbers", "expand", "hidden_names",
           "shown_names", "show_labels"]

#: How many row numbers a message lists before it says "and N more".
MAX_ROWS_LISTED = 5

# set while one file is read: the row whose line has no line end (the file may be half-written)
_LAST_ROW_OPEN: contextvars.ContextVar[int | None] = contextvars.ContextVar("_LAST_ROW_OPEN", default=None)

_DATA_LIKE = r"[+-]?[0-9]+(?:[.,][0-9]+)?|.*[0-9]{4}-[0-9]{2}-[0-9]{2}.*|.*[0-9]{1,2}:[0-9]{2}.*"


@contextlib.contextmanager
def reading() -> Iterator[None]:
    """The scope of one read: :func:`note_open_last_row` holds until it ends."""
    token = _LAST_ROW_OPEN.set(None)
    try:
        yield
    finally:
        _LAST_ROW_OPEN.reset(token)


def note_open_last_row(row: int) -> None:
    """Row ``row`` (0-based) is the file's last and its line has no line end."""
    _LAST_ROW_OPEN.set(row)


def row_numbers(mask: np.ndarray) -> str:
    """First offending row numbers (1-based data rows), never the values."""
    idx = np.flatnonzero(mask)
    first = (idx[:MAX_ROWS_LISTED] + 1).tolist()
    more = len(idx) - len(first)
    text = ("row " if len(idx) == 1 else "rows ") + ", ".join(map(str, first))
    text += f" and {more} more" if more > 0 else ""
    last = _LAST_ROW_OPEN.get()
    if last is not None and len(idx) and idx[-1] == last:
        text += " (the last line has no line end: the file may be half-written)"
    return text + " (1-based)"


def expand(sub_mask: np.ndarray, where: np.ndarray) -> np.ndarray:
    """A mask over the rows selected by ``where`` as a mask over all rows."""
    full = np.zeros(len(where), dtype=bool)
    full[np.flatnonzero(where)[sub_mask]] = True
    return full


def hidden_names(names: Sequence[Any]) -> np.ndarray:
    """Which names look like data (numbers, times, personal data): a header-less file's first row."""
    series = pd.Series([str(n) for n in names], dtype="string[pyarrow]")
    hidden = series.str.fullmatch(_DATA_LIKE).fillna(False).to_numpy(dtype=bool)
    for mask in scan_text(series).values():
        hidden |= mask
    return hidden


def shown_names(names: Sequence[Any], limit: int = 20) -> str:
    """Column names for a message; names that look like data (a header-less file) are hidden."""
    texts = [str(n) for n in names]
    hidden = hidden_names(texts) if texts else np.zeros(0, dtype=bool)
    shown = ["<hidden: looks like data>" if h else repr(t[:60]) for t, h in zip(texts[:limit], hidden[:limit], strict=True)]
    more = len(texts) - limit
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def show_labels(labels: list[str], counts: list[int]) -> str:
    """Labels with counts for a message; labels that look like personal data are not shown."""
    hidden = np.zeros(len(labels), dtype=bool)
    if labels:
        for mask in scan_text(np.asarray(labels, dtype=object)).values():
            hidden |= mask
    shown = [f"{lab[:40]!r} ({c})" for lab, c, h in zip(labels, counts, hidden, strict=True) if not h][:20]
    n_hidden = int(hidden.sum())
    text = ", ".join(shown)
    if len(labels) - n_hidden > 20:
        text += f" and {len(labels) - n_hidden - 20} more"
    if n_hidden:
        text += (", and " if text else "") + f"{n_hidden} label(s) not shown because they look like personal data"
    return text
