"""The incident report's alerts still firing where its replay stops, followed to their reset.

The report replays the alert tiers up to the end of its span (the window, or the incident's end
and grace when later). An alert still firing there has not stopped: its ``end`` there is where
the replay stopped, not where the alert reset. :func:`follow_ongoing` follows only those alerts,
replaying only their groups from the same start over a span that doubles until each of them has
reset or the span reaches the log's last event, so that ``end`` is the alert's reset and
``ongoing`` means what ``budgetlab alerts`` means by it: still firing at the log's end.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._util.validation import utc_ns_column
from ..events.schema import scope_mask, ts_ns

__all__ = ["LogRest", "follow_ongoing"]


@dataclass(frozen=True)
class LogRest:
    """The log the report's alerts are read from, past the report's span: ``events`` (the whole
    log, sorted by time) and the ``scope`` of the report (``"*"``: all). The alerts are read
    from the log's first event, as :func:`~.incident_window.alerted_events` reads them."""

    events: pd.DataFrame
    scope: str

    @property
    def stop(self) -> pd.Timestamp:
        """Just after the log's last event, whatever the scope: nothing is evaluated past its
        bin (``budgetlab alerts`` evaluates no bin there)."""
        return pd.Timestamp(int(ts_ns(self.events)[-1]) + 1, unit="ns", tz="UTC")

    def until(self, stop: pd.Timestamp, keys: list[str], groups: pd.DataFrame) -> pd.DataFrame:
        """The scope's events of ``groups`` (rows of values of ``keys``) before ``stop``."""
        out = self.events.iloc[:int(np.searchsorted(ts_ns(self.events), stop.value, "left"))]
        if self.scope != "*":
            out = out[scope_mask(out, self.scope)]
        if not keys:
            return out
        wanted = pd.MultiIndex.from_frame(groups[keys].astype(object))
        return out[pd.MultiIndex.from_frame(out[keys].astype(object)).isin(wanted)]


def follow_ongoing(episodes: pd.DataFrame, last_ns: int, rest: LogRest, keys: list[str],
                   replay: Callable[[pd.DataFrame, pd.Timestamp], pd.DataFrame],
                   step: pd.Timedelta) -> pd.DataFrame:
    """``episodes`` (replayed up to the evaluation ``last_ns``) with those still firing there
    (``ongoing``) followed in the log (``rest``) until they reset or the log ends: their groups
    replayed (``replay(events, stop)``: the episodes of ``events`` up to ``stop``, from the same
    start) to ``step`` past the replay's stop, then twice as far each time, up to the log's
    last event. Only the episodes that began by ``last_ns`` are kept (the others lie past the
    replay's span); an episode that had ended by then is the same in every longer replay."""
    stop, log_stop = pd.Timestamp(last_ns, unit="ns", tz="UTC"), rest.stop
    on = episodes[episodes["ongoing"].to_numpy(dtype=bool)]
    while len(on) and stop < log_stop:
        stop = min(log_stop, stop + step)
        step = step * 2
        groups = on[keys].drop_duplicates()
        again = replay(rest.until(stop, keys, groups), stop)
        again = again[utc_ns_column(again["start"], "episodes['start']") <= last_ns]
        others = _others(episodes, groups, keys)
        episodes = pd.concat([others, again], ignore_index=True) if len(others) else again
        on = again[again["ongoing"].to_numpy(dtype=bool)]
    return episodes


def _others(episodes: pd.DataFrame, groups: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """The rows of ``episodes`` outside ``groups`` (none when there are no ``keys``: one
    group)."""
    if not keys:
        return episodes.iloc[0:0]
    mine = pd.MultiIndex.from_frame(episodes[keys].astype(object))
    return episodes[~mine.isin(pd.MultiIndex.from_frame(groups[keys].astype(object)))]
