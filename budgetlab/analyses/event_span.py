"""The span an analysis over a whole event table counts, as its tables state it in ``attrs``
(``start`` and ``end``, the keys :func:`budgetlab.status_spans` uses)."""

from __future__ import annotations

import pandas as pd

__all__ = ["span_attrs"]


def span_attrs(ts: pd.Series) -> dict[str, pd.Timestamp | None]:
    """``{"start": first event, "end": last event}`` (UTC Timestamps, both included; ``None``
    without events).

    >>> span_attrs(pd.Series(pd.to_datetime(["2026-01-02", "2026-01-01"], utc=True)))["start"]
    Timestamp('2026-01-01 00:00:00+0000', tz='UTC')
    """
    if not len(ts):
        return {"start": None, "end": None}
    return {"start": pd.Timestamp(ts.min()), "end": pd.Timestamp(ts.max())}
