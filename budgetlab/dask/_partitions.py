"""What every Dask twin checks first, and how a partition's error names the partition."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import dask.dataframe as dd
import numpy as np
import pandas as pd

from .._util.validation import as_list, require_columns
from ..errors import BudgetlabError, InputError, SchemaError
from ..events.schema import ROLE_COLUMNS, ts_error

__all__ = ["require_dask_frame", "partition_error", "partition_number", "check_dask_events"]


def require_dask_frame(obj: Any, what: str, pandas_name: str) -> dd.DataFrame:
    """``obj`` if it is a Dask DataFrame, else :class:`InputError` pointing to ``pandas_name``."""
    if isinstance(obj, dd.DataFrame):
        return obj
    if isinstance(obj, pd.DataFrame):
        raise InputError(
            f"{what} is a pandas DataFrame; use {pandas_name}() for pandas, or convert with "
            "dask.dataframe.from_pandas(...) to use budgetlab.dask."
        )
    raise InputError(f"{what} must be a dask DataFrame from budgetlab.dask.read_events(), got "
                     f"{type(obj).__name__}.")


def partition_error(exc: BudgetlabError, number: int | None) -> BudgetlabError:
    """The same error class, with the partition that raised it (row numbers count within it)."""
    where = "a partition" if number is None else f"partition {number}"
    return type(exc)(f"{where} of the Dask frame (rows counted within it): {exc}")


def partition_number(partition_info: Mapping[str, Any] | None) -> int:
    """The partition's number from Dask's ``partition_info`` (a plain call is partition 0)."""
    if partition_info is None:
        return 0
    return int(partition_info["number"])


def check_dask_events(events: Any, by: str | Sequence[str] | None, pandas_name: str) -> list[str]:
    """Schema checks on the Dask frame's metadata (no computation); returns the ``by`` keys."""
    frame = require_dask_frame(events, "events", pandas_name)
    keys = as_list(by)
    require_columns(pd.DataFrame(columns=list(frame.columns)), ["ts", "ok", *keys],
                    roles=ROLE_COLUMNS)
    dtypes = frame.dtypes
    if (error := ts_error(dtypes["ts"], "budgetlab.dask.read_events()")) is not None:
        raise error
    if dtypes["ok"] != np.dtype(bool):
        raise SchemaError("events['ok'] must be a bool column; load the data with "
                          "budgetlab.dask.read_events().")
    for col in [*keys, *(["bucket"] if "bucket" in frame.columns else [])]:
        dtype = dtypes[col]
        if isinstance(dtype, pd.CategoricalDtype) and not frame[col].cat.known:
            raise SchemaError(
                f"events[{col!r}] is a categorical with unknown categories, so partitions may "
                "disagree; "
                "load the data with budgetlab.dask.read_events() or call "
                f"events.categorize(columns=[{col!r}])."
            )
    if "bucket" in frame.columns and not isinstance(dtypes["bucket"], pd.CategoricalDtype):
        raise SchemaError(
            "events['bucket'] must be a categorical (every partition needs the same buckets); load "
            "the "
            "data with budgetlab.dask.read_events()."
        )
    return keys
