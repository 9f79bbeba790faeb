"""The span an analysis over a whole event table counts, as its tables state it in ``attrs``
(``start`` and ``end``, the keys :func:`budgetlab.status_spans` uses)."""

from __future__ import annotations

import pandas as pd

from .._util.attrs import time_text

__all__ = ["span_attrs"]


def span_attrs(ts: pd.Series) -> dict[str, str | None]:
    """``{"start": first event, "end": last event}`` (ISO-8601 text with the UTC offset, both
    included; ``None`` without events).

    >>> span_attrs(pd.Series(pd.to_datetime(["2026-01-02", "2026-01-01"], utc=True)))["start"]
    '2026-01-01T00:00:00+00:00'
    """
    if not len(ts):
        return {"start": None, "end": None}
    return {"start": time_text(ts.min()), "end": time_text(ts.max())}
