"""The words of the readers' refusals, which never show a data value: rows are named by number
(1-based data rows in input order, after the header in a CSV/TSV file; by file and row there when
several files are read; a line-oriented text log's events by file and line), a header-less file's
first row is not shown (:mod:`._header_words`), and neither is any text that looks like personal
data (:func:`personal_mask`, the one rule the label words use too).

Where rows are is noted as a read goes (:data:`ROWS`, one state per read: :func:`file_offset` and
:func:`reading_files` when several files are read, :func:`reading_lines` for text logs,
:func:`note_open_last_row`); the words are built only when refusing. The words about outcome
labels are in :mod:`._label_words` (unknown labels and the fix to paste, numeric labels, metric
series), those about times in :mod:`._time_words` (numeric dates, DST changes), those about a
header in :mod:`._header_words` (a missing or duplicated column; a header-less file's first row).
Files without rows: :data:`SKIPPED` among others, :func:`no_rows_refusal` when no file has one.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator, Sequence
from typing import Any, TypeVar

import numpy as np
import pandas as pd

from .._util.words import counted, say
from ..errors import FileFormatError
from ..privacy import scan_text

__all__ = ["MAX_ROWS_LISTED", "ROWS", "reading_files", "reading_lines", "file_offset",
           "note_open_last_row", "row_numbers", "expand", "personal_mask",
           "number_dtypes", "threshold_words", "fill_or_drop", "SKIPPED", "no_rows_refusal",
           "MISSING_LABELS"]

_E = TypeVar("_E", bound=Exception)

#: Values that mean "missing" in time, outcome and success columns (case-insensitive); here, not
#: in ``schema``, so that the time parser (which ``schema.as_events`` uses) does not import it.
MISSING_LABELS = frozenset({"", "nan", "nat", "null", "none", "na", "n/a", "<na>", "-"})

#: How many row numbers a message lists before it says "and N more".
MAX_ROWS_LISTED = 5

#: The state of one read for its messages, a dict of its own set by the reader: ``files`` (names,
#: first row of each) when several are read, ``offset`` (first row of the file being read),
#: ``open`` (rows whose line has no line end: the file may be half-written), ``header`` (rows are
#: counted after a header line: a CSV/TSV file), ``lines`` (the line number of each row of a text
#: log: :func:`reading_lines`).
ROWS: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar("ROWS", default=None)


def _state() -> dict[str, Any]:
    state = ROWS.get()
    if state is None:  # outside a read: a state for this context
        state = {}
        ROWS.set(state)
    return state


@contextlib.contextmanager
def file_offset(offset: int) -> Iterator[None]:
    """While one of several files is read: its first row is row ``offset`` of the whole table."""
    state = _state()
    before, state["offset"] = state.get("offset", 0), offset
    try:
        yield
    finally:
        state["offset"] = before


def reading_files(names: Sequence[str], rows: Sequence[int]) -> None:
    """From now on (in this read), rows are named by file: ``names[k]`` holds ``rows[k]`` rows."""
    _state()["files"] = (tuple(names), np.concatenate([[0], np.cumsum(rows, dtype=np.int64)[:-1]]))


def reading_lines(names: Sequence[str], rows: Sequence[int], lines: np.ndarray) -> None:
    """From now on (in this read), rows are the events of line-oriented text logs, named by file
    and line: ``names[k]`` holds ``rows[k]`` events, and row ``i`` is line ``lines[i]`` (1-based,
    blank and unmatched lines counted) of its file. Noted in a read's state only (a call outside
    a read leaves no numbering behind for later messages)."""
    if ROWS.get() is not None:
        reading_files(names, rows)
        _state()["lines"] = lines


def note_open_last_row(row: int) -> None:
    """Row ``row`` (0-based, in the file being read) is the last and its line has no line end."""
    state = _state()
    state["open"] = (*state.get("open", ()), state.get("offset", 0) + row)


def row_numbers(mask: np.ndarray) -> str:
    """The first offending row numbers (1-based data rows, with their file when several are
    read; the file's line numbers for a text log's events: :func:`reading_lines`), never the
    values.

    >>> row_numbers(np.array([False, True, True]))
    'rows 2, 3 (1-based)'
    """
    idx = np.flatnonzero(mask)
    first, more = idx[:MAX_ROWS_LISTED], len(idx) - MAX_ROWS_LISTED
    state = ROWS.get() or {}
    files, lines = state.get("files"), state.get("lines")
    word = "line" if lines is not None else "row"
    if files is None:
        parts = [("row " if len(first) == 1 else "rows ") + ", ".join(map(str, first + 1))]
    else:
        which = np.searchsorted(files[1], first, side="right") - 1
        numbers = first - files[1][which] + 1 if lines is None else lines[first]
        parts = [word + (" " if (which == k).sum() == 1 else "s ")
                 + ", ".join(map(str, numbers[which == k]))
                 + f" of {files[0][k]}" for k in dict.fromkeys(which.tolist())]
    text = "; ".join(parts) + (f" and {more:,} more" if more > 0 else "")
    if lines is None:
        text += " (1-based, after the header)" if state.get("header") else " (1-based)"
    if len(idx) and int(idx[-1]) + state.get("offset", 0) in state.get("open", ()):
        text += " (the last line has no line end: the file may be half-written)"
    return text


def fill_or_drop(error: type[_E], what: str, mask: np.ndarray) -> _E:
    """The refusal of the rows of ``mask``, whose ``what`` is empty: how many, where, the fix.

    >>> print(fill_or_drop(ValueError, "empty duration", np.array([False, True])))
    1 empty duration at row 2 (1-based); fill or drop those rows.
    """
    return error(f"{counted(int(mask.sum()), what)} at {row_numbers(mask)}; fill or drop those "
                 "rows.")


def expand(sub_mask: np.ndarray, where: np.ndarray) -> np.ndarray:
    """A mask over the rows selected by ``where`` as a mask over all rows."""
    full = np.zeros(len(where), dtype=bool)
    full[np.flatnonzero(where)[sub_mask]] = True
    return full


def personal_mask(texts: Any) -> np.ndarray:
    """Which of ``texts`` (distinct strings) look like personal data, and so are never shown.

    >>> personal_mask(["timeout", "ivan@example.org"]).tolist()
    [False, True]
    """
    hidden = np.zeros(len(texts), dtype=bool)
    for mask in scan_text(texts).values() if len(texts) else ():
        hidden |= mask
    return hidden


def number_dtypes(frame: pd.DataFrame) -> list[str]:
    """The columns of ``frame`` that hold numbers by their dtype (booleans are no numbers).

    >>> number_dtypes(pd.DataFrame({"t": ["x"], "v": [1.5], "ok": [True]}))
    ['v']
    """
    return [str(c) for c in frame.columns if pd.api.types.is_numeric_dtype(frame[c].dtype)
            and not pd.api.types.is_bool_dtype(frame[c].dtype)]


def threshold_words(column: str) -> str:
    """A threshold on ``column`` to read a metric series by, the threshold left to the user, in
    the words of the API or the command line.

    >>> threshold_words("value")
    'ok_when="value<THRESHOLD" (or <=, >, >=; the threshold is yours: budgetlab never proposes \
one)'
    """
    return (say(f'ok_when="{column}<THRESHOLD"', f"--ok-when '{column}<THRESHOLD'")
            + " (or <=, >, >=; the threshold is yours: budgetlab never proposes one)")


#: The note of a file without rows among files with rows (``how_read``, after its name), in
#: both readers (:func:`~budgetlab.events.files.read_files`, :func:`budgetlab.dask.read_events`).
SKIPPED = "no rows, skipped"


def no_rows_refusal(names: Sequence[str], why: str) -> FileFormatError:
    """The refusal of files none of which has a row, in the words of both readers: one file by
    its name and ``why`` (``has a schema but no rows; nothing to analyse.``), several counted.

    >>> print(no_rows_refusal(["a.parquet", "b.parquet"], ""))
    2 files have no rows; nothing to analyse.
    """
    if len(names) == 1:
        return FileFormatError(f"{names[0]}: {why}")
    return FileFormatError(f"{counted(len(names), 'file')} have no rows; nothing to analyse.")
