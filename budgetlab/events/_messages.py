"""The words of the readers' refusals, which never show a data value: rows are named by number
(1-based data rows in input order; by file and row there when several files are read), column
names that look like data (a header-less file's first row) are hidden, and so is any text that
looks like personal data (:func:`personal_mask`, the one rule the label words use too).

Where rows are is noted as a read goes (:data:`ROWS`, one state per read: :func:`file_offset` and
:func:`reading_files` when several files are read, :func:`note_open_last_row`); the words are
built only when refusing. The words about outcome labels are in :mod:`._label_words` (unknown
labels and the fix to paste) and :mod:`._series_words` (numeric labels, metric series).
"""

from __future__ import annotations

import contextlib
import contextvars
import difflib
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._util.words import counted, noun_for, option_word, say
from ..errors import SchemaError
from ..privacy import scan_text, shown

__all__ = ["MAX_ROWS_LISTED", "ROWS", "reading_files", "file_offset", "note_open_last_row",
           "row_numbers", "expand", "personal_mask", "header_error"]

#: How many row numbers a message lists before it says "and N more".
MAX_ROWS_LISTED = 5

#: The state of one read for its messages, a dict of its own set by the reader: ``files`` (names,
#: first row of each) when several are read, ``offset`` (first row of the file being read),
#: ``open`` (rows whose line has no line end: the file may be half-written).
ROWS: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar("ROWS", default=None)
#: A column name that looks like data (a number, a date, a clock time): a header-less file's row.
_DATA_LIKE = r"[+-]?[0-9]+(?:[.,][0-9]+)?|.*[0-9]{4}-[0-9]{2}-[0-9]{2}.*|.*[0-9]{1,2}:[0-9]{2}.*"


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


def note_open_last_row(row: int) -> None:
    """Row ``row`` (0-based, in the file being read) is the last and its line has no line end."""
    state = _state()
    state["open"] = (*state.get("open", ()), state.get("offset", 0) + row)


def row_numbers(mask: np.ndarray) -> str:
    """The first offending row numbers (1-based data rows, with their file when several are
    read), never the values.

    >>> row_numbers(np.array([False, True, True]))
    'rows 2, 3 (1-based)'
    """
    idx = np.flatnonzero(mask)
    first, more = idx[:MAX_ROWS_LISTED], len(idx) - MAX_ROWS_LISTED
    state = ROWS.get() or {}
    files = state.get("files")
    if files is None:
        parts = [("row " if len(first) == 1 else "rows ") + ", ".join(map(str, first + 1))]
    else:
        which = np.searchsorted(files[1], first, side="right") - 1
        parts = [("row " if (which == k).sum() == 1 else "rows ")
                 + ", ".join(map(str, first[which == k] - files[1][k] + 1))
                 + f" of {files[0][k]}" for k in dict.fromkeys(which.tolist())]
    text = "; ".join(parts) + (f" and {more:,} more" if more > 0 else "") + " (1-based)"
    if len(idx) and int(idx[-1]) + state.get("offset", 0) in state.get("open", ()):
        text += " (the last line has no line end: the file may be half-written)"
    return text


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


def _hidden_names(names: Sequence[str]) -> np.ndarray:
    """Which names look like data (numbers, times, personal data): a header-less file's first
    row."""
    series = pd.Series(names, dtype="string[pyarrow]")
    hidden = personal_mask(series)
    hidden |= series.str.fullmatch(_DATA_LIKE).fillna(False).to_numpy(dtype=bool)
    return hidden


def _shown_names(names: Sequence[str], limit: int = 20) -> str:
    hidden = _hidden_names(names) if names else np.zeros(0, dtype=bool)
    out = ["<hidden: looks like data>" if h else repr(t[:60])
           for t, h in zip(names[:limit], hidden[:limit], strict=True)]
    return ", ".join(out) + (f" and {len(names) - limit} more" if len(names) > limit else "")


def header_error(names: Sequence[str], columns: Sequence[str], what: str) -> SchemaError:
    """The refusal of a header with duplicated names or without a declared column: the closest
    names suggested, names that look like data hidden (a header-less file is never echoed)."""
    seen = Counter(names)
    dups = [n for n, k in seen.items() if k > 1]
    if dups:
        return SchemaError(f"{what}: duplicate column {noun_for(len(dups), 'name')} "
                           f"{_shown_names(dups)}; rename them so each is unique.")
    have = list(seen)
    col = next(c for c in columns if c not in seen)
    if have and _hidden_names(have).any():
        return SchemaError(f"{what} has no column {shown(col)}. The first line looks like data, "
                           f"not column names ({counted(len(have), 'field')}; not shown): does the "
                           "file have a header row?")
    close = difflib.get_close_matches(col, have, n=3, cutoff=0.5)
    options = (_state().get("roles") or {}).get(col, ())
    declared = f" ({'; '.join(map(_declared_by, options))})" if options else ""
    hint = f" Did you mean {_shown_names(close)}?" if close else ""
    sep = next((s for s in (";", "\t", ",", "|") if len(have) == 1 and s in have[0]), None)
    if sep is not None:
        hint += (f" The header is one column holding {sep!r}: is that the separator? budgetlab "
                 "reads ',' (.csv) and tab (.tsv, or " + say("format='tsv'", "--format tsv")
                 + ").")
    return SchemaError(f"{what} has no column {shown(col)}{declared}.{hint} Columns present: "
                       f"{_shown_names(have)}.")


#: What a column declared by each option holds, for :func:`_declared_by`.
_ROLES = {"time": "the time column", "outcome": "the outcome-label column",
          "ok": "the true/false success column", "bucket": "the failure-kind column",
          "session": "the session column", "duration": "the request-duration column",
          "ok_when": "the metric column of the threshold"}


def _declared_by(option: str) -> str:
    """Which option declared a missing column, and how to name the right one, in the words of
    the API or the command line (``the time column: name it with --time``)."""
    def flag(name: str) -> str:
        return say(f"{name}=", option_word(name))

    if option in ("by", "keep"):
        return f"declared in {flag(option)}: give the name the file uses"
    text = f"{_ROLES[option]}: name the right one with {flag(option)}"
    if option == "outcome":
        text += f", or give a true/false success column with {flag('ok')}"
    return text
