"""Status episodes: the time a group spent at a status or worse, on the window's clock or per event.

From :func:`budgetlab.status_spans` (the window's clock): an episode is a run of spans at
``at_least`` or worse; it ends when the status drops below it or the window empties (no traffic),
and one still open at the observation's end is ``ongoing``. A status held for one instant only
(a span with ``instant``, docs/conventions.md) is no episode of its own: it is folded into the
span before it (that status goes on through the instant), as the status changes on the clock
read it. From a replay and its transitions (the
per-event clock, what the seed's callbacks saw): an episode starts when a group's status reaches
``at_least`` (from below) and ends when it drops below it again at an event; one still open at the
group's last event ends there and is ``ongoing``.
Episodes less than ``gap`` apart (from one's end to the next one's start) are merged into one, so
a flap between WARNING and CRITICAL is no new CRITICAL episode. One vectorized pass over the
transitions (:func:`budgetlab.transitions`); the CLI's story (``budgetlab demo``) prints them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._util.validation import as_list, duration_label, require_columns, to_timedelta
from ..errors import ConfigError, InputError
from .blips import blips_folded
from .figures import STATUS_DTYPE, STATUSES
from .spans import SPAN_STATUS_DTYPE

__all__ = ["status_episodes"]


def _group_index(frame: pd.DataFrame, by: list[str], keys: pd.MultiIndex) -> np.ndarray:
    """Row -> position of its group in ``keys`` (text keys), one pass."""
    if not by:
        return np.zeros(len(frame), dtype=np.int64)
    if len(frame) == 0:
        return np.zeros(0, dtype=np.int64)
    return np.asarray(keys.get_indexer(pd.MultiIndex.from_frame(frame[by].astype(str))),
                      dtype=np.int64)


def _status_codes(column: pd.Series, name: str) -> np.ndarray:
    """A status column (ordered categorical or text) as codes ``healthy=0 .. exhausted=3``."""
    if column.dtype == STATUS_DTYPE:
        return np.asarray(column.cat.codes, dtype=np.int64)
    codes = np.asarray(pd.Index(STATUSES).get_indexer(pd.Index(column.astype(str))), dtype=np.int64)
    if (codes < 0).any():
        raise InputError(f"transitions column {name!r} holds values that are no status; give the "
                         "table "
                         f"returned by budgetlab.transitions() (statuses {', '.join(STATUSES)}).")
    return codes


def status_episodes(states: pd.DataFrame, transitions: pd.DataFrame | None = None,
                    by: str | Sequence[str] | None = None, *, at_least: str = "critical",
                    gap: Any = "30min"
                    ) -> pd.DataFrame:
    """Episodes at ``at_least`` or worse per group, from the spans (time) or a replay's transitions.

    An episode starts when the status reaches ``at_least`` and ends when it drops below it;
    episodes less than ``gap`` apart are merged into one (a flap between WARNING and CRITICAL is
    no new episode).

    Parameters
    ----------
    states : DataFrame
        Output of :func:`budgetlab.status_spans` (the window's clock: an episode also ends when
        the window empties, and a status held for one instant only is folded into the one
        before it; ``transitions`` and ``by`` are then not given, the spans know their
        groups), or of :func:`budgetlab.replay` (the per-event clock: its ``ts`` and group keys;
        each group's last event ends an episode still open there).
    transitions : DataFrame
        Output of :func:`budgetlab.transitions` for a replay's ``states``.
    by : str or list of str, optional
        Group keys (those of the replay); without them, one group. Spans: their own.
    at_least : {"warning", "critical", "exhausted"}
        The status an episode is at, or worse (default ``"critical"``).
    gap : duration
        Episodes that start less than this after the previous one ended are merged (default
        30 minutes; ``0`` merges none).

    Returns
    -------
    DataFrame
        Group keys, ``start``, ``end`` (the drop below ``at_least`` or, on the window's clock, the
        window emptying; when still there: the observation's end, or per event the group's last
        event, and ``ongoing``), ``duration``, ``ongoing``, ``merged`` (how many raw episodes it
        holds), sorted by group keys and ``start``; ``attrs`` holds ``at_least``, ``gap`` (duration
        text, e.g. ``30m``) and ``by``.

    Examples
    --------
    >>> from budgetlab import SLO, as_events, replay, transitions
    >>> ok = [True] * 10 + [False] * 3 + [True] * 30 + [False] * 2 + [True] * 40
    >>> st = replay(as_events(pd.date_range("2026-01-01", periods=len(ok), freq="min"), ok),
    ...             SLO(target=0.9, window="10min"))
    >>> ep = status_episodes(st, transitions(st), gap="5min")
    >>> ep[["start", "duration", "merged"]].astype(str).values.tolist()
    [['2026-01-01 00:10:00+00:00', '0 days 00:13:00', '1'], ['2026-01-01 00:43:00+00:00', '0 days
    00:12:00', '1']]

    By hand: the first failure (00:10) leaves 1 of 11 events failed in the window, budget 1.1:
    CRITICAL; the last of the three (00:12) leaves the window at 00:23. The two episodes are
    20 min apart, so a 30 min gap merges them:

    >>> status_episodes(st, transitions(st), gap="30min")[["duration",
    ...                                                    "merged"]].astype(str).values.tolist()
    [['0 days 00:45:00', '2']]

    On the window's clock the first episode lasts until the 00:12 failure leaves the window
    (00:22 + 1 ns), not until the next event's status. It starts 1 ns after 00:10: at the
    00:10 arrival 00:00 is still in the window (critical for that instant only, a blip folded
    into the status before it); 1 ns later 00:00 leaves and one failure of 10 exhausts the
    budget:

    >>> from budgetlab import status_spans
    >>> ev = as_events(pd.date_range("2026-01-01", periods=len(ok), freq="min"), ok)
    >>> sp = status_episodes(status_spans(ev, SLO(target=0.9, window="10min")), gap="5min")
    >>> sp[["start", "duration"]].astype(str).values.tolist()
    [['2026-01-01 00:10:00.000000001+00:00', '0 days 00:12:00'], ['2026-01-01
    00:43:00.000000001+00:00', '0 days 00:11:00']]
    """
    if at_least not in STATUSES[1:]:
        raise ConfigError(f"at_least={at_least!r} must be one of {', '.join(STATUSES[1:])}.")
    gap_ns = int(to_timedelta(gap, name="gap", allow_zero=True).value)
    if (
        isinstance(states, pd.DataFrame)
        and "status" in states.columns
        and states["status"].dtype == SPAN_STATUS_DTYPE
    ):
        if transitions is not None:
            raise InputError("status_episodes(spans) reads the spans alone; give no transitions "
                             "with them.")
        return _span_episodes(states, STATUSES.index(at_least), gap_ns, at_least)
    if transitions is None:
        raise InputError("status_episodes() takes the spans of budgetlab.status_spans(), or a "
                         "replay and its transitions (budgetlab.transitions(states)).")
    return _event_episodes(states, transitions, as_list(by), STATUSES.index(at_least), gap_ns,
                           at_least)


def _replayed_groups(states: pd.DataFrame, transitions: pd.DataFrame, by: list[str]
                     ) -> tuple[pd.MultiIndex, pd.DataFrame, np.ndarray]:
    """The groups of a replay (checked with its transitions): their keys as text, the key
    table, and each group's last event time (int64 ns)."""
    for frame, what, cols in ((states, "states", ["ts", *by]),
                              (transitions, "transitions", ["ts", "from_status", "to_status",
                                                            *by])):
        if not isinstance(frame, pd.DataFrame):
            raise InputError(f"status_episodes() takes the DataFrames of budgetlab.replay() and "
                             f"transitions(); {what} is a {type(frame).__name__}.")
        require_columns(frame, cols, what=what)
    if by:
        last = states.groupby(by, observed=True, sort=True, dropna=False)["ts"].max()
        keys = pd.MultiIndex.from_frame(last.index.to_frame(index=False).astype(str))
        key_frame = last.index.to_frame(index=False)
    else:
        last = pd.Series([states["ts"].max()])
        keys = pd.MultiIndex.from_tuples([("",)])
        key_frame = pd.DataFrame(index=pd.RangeIndex(1))
    return keys, key_frame, last.to_numpy(dtype="datetime64[ns]").view(np.int64)


def _event_episodes(states: pd.DataFrame, transitions: pd.DataFrame, by: list[str], level: int,
                    gap_ns: int,
                    at_least: str) -> pd.DataFrame:
    """Episodes on the per-event clock, from a replay and its transitions."""
    keys, key_frame, last_ns = _replayed_groups(states, transitions, by)
    tr = transitions
    g = _group_index(tr, by, keys)
    if (g < 0).any():
        raise InputError("transitions hold groups that states do not; give the transitions of the "
                         "same replay.")
    f = _status_codes(tr["from_status"], "from_status") >= level
    t = _status_codes(tr["to_status"], "to_status") >= level
    ts = (
        tr["ts"].to_numpy(dtype="datetime64[ns]").view(np.int64)
        if len(tr)
        else np.zeros(0, dtype=np.int64)
    )
    up, down = ~f & t, f & ~t
    s_rows, e_rows = np.flatnonzero(up), np.flatnonzero(down)
    s_order = np.lexsort((ts[s_rows], g[s_rows]))
    e_order = np.lexsort((ts[e_rows], g[e_rows]))
    s_g, s_t = g[s_rows][s_order], ts[s_rows][s_order]
    e_g, e_t = g[e_rows][e_order], ts[e_rows][e_order]
    n_groups = len(keys)
    e_first = np.searchsorted(e_g, np.arange(n_groups))
    e_count = np.bincount(e_g, minlength=n_groups)
    s_first = np.searchsorted(s_g, np.arange(n_groups))
    # the k-th start of a group pairs with its k-th end (groups start healthy: starts and ends
    # alternate)
    rank = np.arange(len(s_g)) - s_first[s_g] if len(s_g) else np.zeros(0, dtype=np.int64)
    has_end = rank < e_count[s_g] if len(s_g) else np.zeros(0, dtype=bool)
    end = np.where(has_end, e_t[np.minimum(e_first[s_g] + rank, max(len(e_t) - 1,
                                                                    0))] if len(e_t) else 0,
                   last_ns[s_g] if len(s_g) else 0)
    return _merged(s_g, s_t, end, ~has_end, key_frame, s_g, gap_ns, at_least, by)


def _span_episodes(spans: pd.DataFrame, level: int, gap_ns: int, at_least: str) -> pd.DataFrame:
    """Episodes from spans (group then time order, tiling each group's observation)."""
    keys = list(spans.attrs.get("by", []))
    require_columns(spans, ["start", "end", "instant"], what="spans")
    n = len(spans)
    gid = (spans.groupby(keys, sort=False, observed=True,
                         dropna=False).ngroup().to_numpy() if keys and n
           else np.zeros(n, dtype=np.int64))
    code = blips_folded(spans, gid)
    bad = (code >= level) & (code < len(STATUSES))
    s = spans["start"].array.asi8
    e = spans["end"].array.asi8
    prev_bad = np.zeros(n, dtype=bool)
    prev_bad[1:] = bad[:-1] & (gid[1:] == gid[:-1])
    next_bad = np.zeros(n, dtype=bool)
    next_bad[:-1] = bad[1:] & (gid[1:] == gid[:-1])
    first, last = np.flatnonzero(bad & ~prev_bad), np.flatnonzero(bad & ~next_bad)  # raw episodes
    group_last = np.ones(n, dtype=bool)
    group_last[:-1] = gid[1:] != gid[:-1]
    return _merged(gid[first], s[first], e[last], group_last[last], spans[keys], first, gap_ns,
                   at_least, keys)


def _merged(g: np.ndarray, start: np.ndarray, end: np.ndarray, ongoing_raw: np.ndarray,
            key_table: pd.DataFrame, key_rows: np.ndarray, gap_ns: int, at_least: str,
            by: list[str]) -> pd.DataFrame:
    """The episodes table of the raw episodes (group ``g``, sorted by group then ``start``; their
    keys: rows ``key_rows`` of ``key_table``), those less than ``gap_ns`` apart merged."""
    new = np.ones(len(g), dtype=bool)
    new[1:] = (g[1:] != g[:-1]) | (start[1:] - end[:-1] >= gap_ns)
    ep_id = np.cumsum(new) - 1
    n_ep = int(ep_id[-1]) + 1 if len(ep_id) else 0
    ends = np.zeros(n_ep, dtype=np.int64)
    np.maximum.at(ends, ep_id, end)
    ongoing = np.zeros(n_ep, dtype=bool)
    np.logical_or.at(ongoing, ep_id, ongoing_raw)
    out = (
        key_table.iloc[key_rows[new]].reset_index(drop=True)
        if by
        else pd.DataFrame(index=pd.RangeIndex(n_ep))
    )
    out["start"] = pd.to_datetime(start[new], unit="ns", utc=True)
    out["end"] = pd.to_datetime(ends, unit="ns", utc=True)
    out["duration"] = out["end"] - out["start"]
    out["ongoing"] = ongoing
    out["merged"] = np.bincount(ep_id, minlength=n_ep).astype(np.int64)
    out.attrs.update({"at_least": at_least, "gap": duration_label(pd.Timedelta(gap_ns, unit="ns")),
                      "by": list(by)})
    return out
