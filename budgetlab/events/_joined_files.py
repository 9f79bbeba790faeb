"""A CSV/TSV file whose rows repeat its header: several files joined with ``cat``, each with its
header line (and, from Windows, each with its byte-order mark), refused in its own words
(:func:`refuse_repeated_header`), not as the unparseable time its repeated ``ts`` cell became."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..errors import FileFormatError
from ._messages import row_numbers

__all__ = ["BOM_TEXT", "refuse_repeated_header"]

#: The byte-order mark as text: a file's first name keeps it when files are joined with ``cat``.
BOM_TEXT = "\ufeff"


def refuse_repeated_header(frame: pd.DataFrame, name: str, kind: str) -> None:
    """Refuse a CSV/TSV file (``frame``, its declared columns as read) whose rows repeat its
    header: every declared column holds its own name (``cat a.csv b.csv``, each with a header
    line). Looked for in the distinct values of a dictionary column (labels, keys) when there is
    one, so that a file without such a row costs no pass over its rows; a column of numbers or
    times holds no name.

    >>> refuse_repeated_header(pd.DataFrame({"ts": ["1", "ts"], "region": ["fra", "region"]}),
    ...                        "c.csv", "csv")
    Traceback (most recent call last):
    ...
    budgetlab.errors.FileFormatError: c.csv: row 2 (1-based) repeats the header: the file looks
    like several CSV files joined, each with its header line; keep only the first header line,
    or give the files themselves (several paths, a glob or a folder are read as one log).
    """
    cols = [frame[c] for c in frame.columns]
    if not len(frame) or any(not isinstance(c.dtype, pd.CategoricalDtype)
                             and not pd.api.types.is_string_dtype(c.dtype) for c in cols):
        return
    cats = [c for c in cols if isinstance(c.dtype, pd.CategoricalDtype)]
    if any(c.name not in c.cat.categories and BOM_TEXT + str(c.name) not in c.cat.categories
           for c in cats):
        return  # a dictionary column never holds its name: no row repeats the header
    # a repeated header's first name keeps its file's byte-order mark (Windows exports joined)
    mask = np.logical_and.reduce([np.asarray(c.isin([c.name, BOM_TEXT + str(c.name)]),
                                             dtype=bool) for c in cols])
    if mask.any():
        raise FileFormatError(
            f"{name}: {row_numbers(mask)} repeats the header: the file looks like several "
            f"{kind.upper()} files joined, each with its header line; keep only the first header "
            "line, or give the files themselves (several paths, a glob or a folder are read as "
            "one log).")
