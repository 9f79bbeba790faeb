"""A true/false success column read value by value: ``true``/``false``, ``1``/``0``,
``yes``/``no`` and their spellings (:data:`~.vocabulary.TRUE_WORDS`), ``1.0``/``0.0`` as pandas
writes a float column; any other value refused by its rows, and a column of numbers none of whose
rows is a boolean called a metric series.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._util.codes import numpy_backed
from .._util.words import counted
from ..errors import OutcomeError
from ._messages import row_numbers
from ._series_words import non_boolean_error
from .schema import MISSING_LABELS
from .vocabulary import FALSE_WORDS, TRUE_WORDS, is_number, normalize_label

__all__ = ["parse_ok"]


def parse_ok(col: pd.Series, *, what: str = "success") -> np.ndarray:
    """A success column (true/false, 1/0, yes/no; ``1.0``/``0.0``, a float column as pandas writes
    it to text, are 1/0: :func:`normalize_label`) as bool, each value read on its own; anything
    else raises :class:`OutcomeError`.

    >>> parse_ok(pd.Series(["1.0", "0.0", "1"])).tolist()
    [True, False, True]
    """
    col = numpy_backed(col)
    if col.dtype == np.bool_:  # a NumPy bool column holds nothing else and no missing value
        return col.to_numpy(dtype=bool, copy=True)
    numeric = pd.api.types.is_numeric_dtype(col.dtype) and \
        not isinstance(col.dtype, pd.CategoricalDtype)
    if pd.api.types.is_complex_dtype(col.dtype):
        raise OutcomeError(f"the {what} column holds complex numbers; use true/false or 1/0.")
    if numeric or (pd.api.types.is_bool_dtype(col.dtype) and
                   not isinstance(col.dtype, pd.CategoricalDtype)):
        state, words = col.to_numpy(dtype=float, na_value=np.nan), []
        state = np.where(np.isnan(state), -1, np.where(np.isin(state, [0.0, 1.0]), state, -2))
    else:
        codes, uniques = pd.factorize(col)
        if len(uniques) > 100_000:  # far too many distinct values for a true/false column
            raise OutcomeError(f"the {what} column has {len(uniques)} distinct values; use "
                               "true/false or 1/0.")
        words = [normalize_label(u) for u in uniques]
        state = np.array([1 if u in TRUE_WORDS else 0 if u in FALSE_WORDS else
                          -1 if u in MISSING_LABELS else -2 for u in words] + [-1])[codes]
    if (state == -1).any():
        raise OutcomeError(f"{counted(int((state == -1).sum()), f'empty {what} value')} at "
                           f"{row_numbers(state == -1)}; fill or drop those rows.")
    if (state == -2).any():
        raise non_boolean_error(what, state == -2, numeric or all(map(is_number, words)))
    return np.asarray(state == 1)
