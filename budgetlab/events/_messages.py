"""Parts of the readers' error messages that never show a data value.

Rows are named by number (1-based, counting data rows in input order), column names are hidden
when they look like data (the first row of a file without a header), labels only where the caller
must list them and only if they do not look like personal data.
"""

from __future__ import annotations

import contextlib
import contextvars
import difflib
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ..errors import SchemaError
from ..privacy import scan_text, shown

__all__ = ["MAX_ROWS_LISTED", "reading", "note_open_last_row", "row_numbers", "expand",
           "hidden_names",
           "shown_names", "show_labels", "reading_files", "file_offset", "check_header"]

#: How many row numbers a message lists before it says "and N more".
MAX_ROWS_LISTED = 5

# set while an input is read: the rows whose line has no line end (the file may be half-written)
_LAST_ROW_OPEN: contextvars.ContextVar[tuple[int, ...]] = contextvars.ContextVar("_LAST_ROW_OPEN",
                                                                                 default=())
# set while several files are read as one table: (file names, first row of each) and the offset
# of the file being read, so that a row is named by its file and its row there
_FILES: contextvars.ContextVar[tuple[tuple[str, ...],
                                     np.ndarray] | None] = contextvars.ContextVar("_FILES",
                                                                                  default=None)
_OFFSET: contextvars.ContextVar[int] = contextvars.ContextVar("_OFFSET", default=0)

_DATA_LIKE = r"[+-]?[0-9]+(?:[.,][0-9]+)?|.*[0-9]{4}-[0-9]{2}-[0-9]{2}.*|.*[0-9]{1,2}:[0-9]{2}.*"


@contextlib.contextmanager
def reading() -> Iterator[None]:
    """The scope of one read: :func:`note_open_last_row` holds until it ends."""
    token = _LAST_ROW_OPEN.set(())
    files = _FILES.set(None)
    try:
        yield
    finally:
        _LAST_ROW_OPEN.reset(token)
        _FILES.reset(files)


@contextlib.contextmanager
def file_offset(offset: int) -> Iterator[None]:
    """While one of several files is read: its first row is row ``offset`` of the whole table."""
    token = _OFFSET.set(offset)
    try:
        yield
    finally:
        _OFFSET.reset(token)


def reading_files(names: Sequence[str], rows: Sequence[int]) -> None:
    """From now on (within :func:`reading`), rows are named by file: ``names[k]`` holds ``rows[k]``
    rows."""
    starts = np.concatenate([[0], np.cumsum(np.asarray(rows,
                                                       dtype=np.int64))[:-1]]).astype(np.int64)
    _FILES.set((tuple(names), starts))


def note_open_last_row(row: int) -> None:
    """Row ``row`` (0-based, in the file being read) is the file's last and its line has no line
    end."""
    _LAST_ROW_OPEN.set((*_LAST_ROW_OPEN.get(), _OFFSET.get() + row))


def _by_file(idx: np.ndarray, more: int) -> str:
    files = _FILES.get()
    if files is None:
        text = ("row " if len(idx) == 1 else "rows ") + ", ".join(map(str, (idx + 1).tolist()))
        return text + (f" and {more} more" if more > 0 else "") + " (1-based)"
    names, starts = files
    which = np.searchsorted(starts, idx, side="right") - 1
    parts: list[str] = []
    for k in dict.fromkeys(which.tolist()):
        local = (idx[which == k] - starts[k] + 1).tolist()
        parts.append(
            ("row " if len(local) == 1 else "rows ")
            + ", ".join(map(str, local))
            + f" of {names[k]}"
        )
    return "; ".join(parts) + (f" and {more} more" if more > 0 else "") + " (1-based)"


def row_numbers(mask: np.ndarray) -> str:
    """First offending row numbers (1-based data rows, and their file when several are read),
    never the values."""
    idx = np.flatnonzero(mask)
    first = idx[:MAX_ROWS_LISTED]
    text = _by_file(first, len(idx) - len(first))
    if len(idx) and int(idx[-1]) in _LAST_ROW_OPEN.get():
        text += " (the last line has no line end: the file may be half-written)"
    return text


def expand(sub_mask: np.ndarray, where: np.ndarray) -> np.ndarray:
    """A mask over the rows selected by ``where`` as a mask over all rows."""
    full = np.zeros(len(where), dtype=bool)
    full[np.flatnonzero(where)[sub_mask]] = True
    return full


def hidden_names(names: Sequence[Any]) -> np.ndarray:
    """Which names look like data (numbers, times, personal data): a header-less file's first
    row."""
    series = pd.Series([str(n) for n in names], dtype="string[pyarrow]")
    hidden = series.str.fullmatch(_DATA_LIKE).fillna(False).to_numpy(dtype=bool)
    for mask in scan_text(series).values():
        hidden |= mask
    return hidden


def shown_names(names: Sequence[Any], limit: int = 20) -> str:
    """Column names for a message; names that look like data (a header-less file) are hidden."""
    texts = [str(n) for n in names]
    hidden = hidden_names(texts) if texts else np.zeros(0, dtype=bool)
    shown = ["<hidden: looks like data>" if h else repr(t[:60]) for t, h in zip(texts[:limit],
                                                                                hidden[:limit],
                                                                                strict=True)]
    more = len(texts) - limit
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def show_labels(labels: list[str], counts: list[int]) -> str:
    """Labels with counts for a message; labels that look like personal data are not shown."""
    hidden = np.zeros(len(labels), dtype=bool)
    if labels:
        for mask in scan_text(np.asarray(labels, dtype=object)).values():
            hidden |= mask
    shown = [f"{lab[:40]!r} ({c})" for lab, c, h in zip(labels, counts, hidden,
                                                        strict=True) if not h][:20]
    n_hidden = int(hidden.sum())
    text = ", ".join(shown)
    if len(labels) - n_hidden > 20:
        text += f" and {len(labels) - n_hidden - 20} more"
    if n_hidden:
        text += (", and " if text else "") + (f"{n_hidden} label(s) not shown because they look "
                                              "like personal data")
    return text


def check_header(names: Sequence[object], columns: Sequence[str], what: str) -> None:
    """Refuse duplicated column names and declared ``columns`` missing from ``names``
    (:class:`SchemaError` suggesting the closest names; names that look like data are hidden)."""
    seen: dict[str, int] = {}
    for n in names:
        seen[str(n)] = seen.get(str(n), 0) + 1
    dups = [n for n, k in seen.items() if k > 1]
    if dups:
        raise SchemaError(f"{what}: duplicate column name(s) {shown_names(dups)}; rename them so "
                          "each is unique.")
    have = list(seen)
    for col in columns:
        if col in seen:
            continue
        # a header-less file: its first row is data, never echoed
        if have and hidden_names(have).any():
            raise SchemaError(f"{what} has no column {shown(col)}. The first line looks like data, "
                              "not column names "
                              f"({len(have)} fields; not shown): does the file have a header row?")
        close = difflib.get_close_matches(col, have, n=3, cutoff=0.5)
        hint = f" Did you mean {shown_names(close)}?" if close else ""
        if len(have) == 1 and any(sep in have[0] for sep in (";", "\t", ",", "|")):
            sep = next(s for s in (";", "\t", ",", "|") if s in have[0])
            hint += (f" The header is one column holding {sep!r}: is that the separator? budgetlab "
                     "reads ',' "
                     "(.csv) and tab (.tsv, or format='tsv').")
        raise SchemaError(f"{what} has no column {shown(col)}.{hint} Columns present: "
                          f"{shown_names(have)}.")
