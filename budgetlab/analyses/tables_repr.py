"""The repr of a result made of tables (:class:`~budgetlab.LatencyProfile`,
:class:`~budgetlab.LatencyRecalibration`): each table's size and columns, one line each; the
tables themselves are the attributes (the dataclass default printed every one of them)."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from .._util.words import counted

__all__ = ["tables_repr"]

#: Columns a line names before it counts the rest.
_SHOWN = 8


def tables_repr(name: str, tables: Mapping[str, pd.DataFrame]) -> str:
    """``name``, then per table ``  .shares: 9 rows (captcha_type, period, ...)``.

    >>> t = pd.DataFrame({"a": [1, 2], "b": [3, 4]})
    >>> print(tables_repr("Result", {"one": t, "two": t.iloc[:1]}))
    Result, its tables:
      .one: 2 rows (a, b)
      .two: 1 row (a, b)
    """
    lines = [f"{name}, its tables:"]
    for key, table in tables.items():
        cols = [str(c) for c in table.columns]
        more = f", ... {len(cols) - _SHOWN} more" if len(cols) > _SHOWN else ""
        lines.append(f"  .{key}: {counted(len(table), 'row')} ({', '.join(cols[:_SHOWN])}{more})")
    return "\n".join(lines)
