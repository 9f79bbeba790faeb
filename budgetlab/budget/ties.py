"""Ties: rows of one group that share a timestamp.

The per-event replay records rows in table order (the seed's ``record()`` order), so the status
after each row of a tie depends on that order when their outcomes differ; the transitions can
then differ between file order and any other order. The order-free reading is the window after
the last row of the instant: :func:`budgetlab.status_spans` (and every time figure of
:func:`budgetlab.replay_summary`) reads only that.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._util.validation import as_list
from ..events.schema import check_events, ts_ns
from ..windows.groups import group_codes

__all__ = ["Ties", "find_ties"]


@dataclass(frozen=True)
class Ties:
    """Rows sharing a timestamp with another row of their group.

    ``rows``: rows in ties; ``instants``: (group, time) pairs with more than one row; ``mixed``:
    those whose rows' outcomes differ; ``first_mixed``: the earliest such time (``None`` without).
    """

    rows: int
    instants: int
    mixed: int
    first_mixed: pd.Timestamp | None


def find_ties(events: pd.DataFrame, by: str | Sequence[str] | None = None) -> Ties:
    """Count the ties of ``events`` (per group of ``by``) and those with differing outcomes.

    Parameters
    ----------
    events : DataFrame
        Canonical event table (sorted by time, as :func:`budgetlab.read_events` returns it).
    by : str or list of str, optional
        Group keys (each group has its own tracker: rows of different groups never tie).

    Returns
    -------
    Ties

    Examples
    --------
    >>> from budgetlab import as_events
    >>> ts = pd.to_datetime(["2026-01-01 00:00", "2026-01-01 00:00", "2026-01-01 00:01",
    ...                      "2026-01-01 00:01"], utc=True)
    >>> find_ties(as_events(ts, [True, False, True, True]))
    Ties(rows=4, instants=2, mixed=1, first_mixed=Timestamp('2026-01-01 00:00:00+0000', tz='UTC'))
    """
    keys = check_events(events, by)
    t = ts_ns(events)
    ok = events["ok"].to_numpy(dtype=bool)
    if keys:
        order = np.lexsort((t, group_codes(events, as_list(keys), dense=False)))
        codes = group_codes(events, as_list(keys), dense=False)[order]
        t, ok = t[order], ok[order]
        same = (t[1:] == t[:-1]) & (codes[1:] == codes[:-1])
    else:
        same = t[1:] == t[:-1]
    if not bool(same.any()):
        return Ties(0, 0, 0, None)
    starts = np.flatnonzero(np.r_[True, ~same])  # first row of each (group, time) run
    size = np.diff(np.r_[starts, len(t)])
    oks = np.add.reduceat(ok.astype(np.int64), starts)
    tied = size > 1
    mixed = tied & (oks > 0) & (oks < size)
    first = pd.Timestamp(int(t[starts[mixed]].min()), tz="UTC") if bool(mixed.any()) else None
    return Ties(int(size[tied].sum()), int(tied.sum()), int(mixed.sum()), first)
