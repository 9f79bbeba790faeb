"""Text cells a spreadsheet would run as a formula, neutralised in every CSV budgetlab writes.

A spreadsheet opening a CSV runs a cell that begins with ``=``, ``+``, ``-`` or ``@`` as a
formula (``=HYPERLINK(...)``, ``=cmd|...``), and a leading tab or carriage return can hide such a
start. Group keys, incident ids and labels come from the user's data, so every CSV output
writes such a **text** cell with a leading ``'`` (the usual rule, OWASP's "CSV injection"):
``=1+2`` is written ``'=1+2``. Numbers, booleans and times are budgetlab's own and are written
as they are (``-0.5`` stays a number); a duration is written as text (``1h30m``), so a negative
one gets the ``'`` like any text (``'-8h56m``).

The rule is one-to-one, so budgetlab's own readers (incidents, recalibration tables, datasets)
read a neutralised file back to the very values written: the writer prefixes a ``'`` to any text
that, after its leading quotes, begins with one of those characters (``'=x`` becomes ``''=x``);
the reader removes one ``'`` from any text of that shape (:func:`restore`).
"""

from __future__ import annotations

import csv
import re
from typing import Any, Literal

import pandas as pd

__all__ = ["TRIGGERS", "neutralise", "quoting", "restore", "restore_frame"]

#: The first characters that make a spreadsheet read a cell as a formula.
TRIGGERS = "=+-@\t\r"
_WRITTEN = re.compile(r"^'*[=+\-@\t\r]")
_READ = re.compile(r"^'+[=+\-@\t\r]")


def _is_text(column: pd.Series) -> bool:
    dtype = column.dtype
    if isinstance(dtype, pd.CategoricalDtype):
        return _is_text(pd.Series(dtype.categories))
    return pd.api.types.is_object_dtype(dtype) or pd.api.types.is_string_dtype(dtype)


def _quote(value: Any) -> Any:
    return "'" + value if isinstance(value, str) and _WRITTEN.match(value) else value


def neutralise(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` with every text cell that a spreadsheet would run as a formula given a leading
    ``'`` (text columns only, the column names too; the input is not changed).

    >>> t = pd.DataFrame({"group": ["=HYPERLINK(1)", "fra", "-x", "'@y"], "rate": [-0.5, 1.0, 2.0,
    ...                                                                            3.0]})
    >>> neutralise(t)["group"].tolist(), neutralise(t)["rate"].tolist()
    (["'=HYPERLINK(1)", 'fra', "'-x", "''@y"], [-0.5, 1.0, 2.0, 3.0])
    """
    out = table.copy(deep=False)
    for name in out.columns:
        col = out[name]
        if not _is_text(col):
            continue
        if isinstance(col.dtype, pd.CategoricalDtype):
            cats = [_quote(c) for c in col.cat.categories]
            if cats != list(col.cat.categories):
                out[name] = col.cat.rename_categories(cats)
        else:
            out[name] = col.map(_quote, na_action="ignore").astype(col.dtype)
    out.columns = [_quote(c) for c in out.columns]
    return out


def quoting(table: pd.DataFrame) -> Literal[0, 2]:
    """The :mod:`csv` quoting that keeps ``table``'s rows whole: every text cell quoted
    (``QUOTE_NONNUMERIC``) when one holds a carriage return (with ``\\n`` line ends the csv module
    would write it bare, and readers would see a line break), else the usual minimal quoting.

    >>> quoting(pd.DataFrame({"k": ["a\\rb"]})) == csv.QUOTE_NONNUMERIC
    True
    """
    for name in table.columns:
        col = table[name]
        if _is_text(col):
            values = col.cat.categories if isinstance(col.dtype,
                                                      pd.CategoricalDtype) else col.dropna()
            if any("\r" in v for v in values if isinstance(v, str)):
                return csv.QUOTE_NONNUMERIC
    return csv.QUOTE_MINIMAL


def restore(value: Any) -> Any:
    """A cell as written before :func:`neutralise` (one leading ``'`` removed from a text of
    the neutralised shape); anything else unchanged.

    >>> restore("'=1+2"), restore("''@y"), restore("'quoted"), restore("fra"), restore(3)
    ('=1+2', "'@y", "'quoted", 'fra', 3)
    """
    return value[1:] if isinstance(value, str) and _READ.match(value) else value


def restore_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """Every text cell and column name of a CSV read back through :func:`restore` (the input is
    not changed).

    >>> restore_frame(pd.DataFrame({"'=a": ["'-1", "x"]})).to_dict("list")
    {'=a': ['-1', 'x']}
    """
    out = frame.copy(deep=False)
    for name in out.columns:
        if _is_text(out[name]):
            out[name] = out[name].map(restore, na_action="ignore").astype(out[name].dtype)
    out.columns = [restore(c) for c in out.columns]
    return out
