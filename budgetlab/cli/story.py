"""The pieces of a story told from a replay: status episodes condensed from the transitions (flaps
closer than a gap merged into one episode), one line per group, and the prose helpers the demo
uses for incidents and verdicts.

:func:`status_episodes` is a computation (vectorized, one pass over the transitions); it lives
here until a library home takes it (``budget/``, next to :func:`budgetlab.transitions`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .._util.validation import duration_label, to_timedelta
from ..budget.figures import STATUSES
from ..errors import ConfigError

__all__ = ["status_episodes", "episode_lines", "duration_words"]


def duration_words(value: Any) -> str:
    """A duration as ``6 h 10 m``, ``3 d 2 h``, ``45 m`` or ``20 s``.

    >>> duration_words(pd.Timedelta("6h10min")), duration_words(pd.Timedelta("50h")), duration_words(pd.Timedelta(0))
    ('6 h 10 m', '2 d 2 h', '0 s')
    """
    secs = int(pd.Timedelta(value).total_seconds())
    d, rest = divmod(secs, 86400)
    h, rest = divmod(rest, 3600)
    m, s = divmod(rest, 60)
    if d:
        return f"{d} d {h} h" if h else f"{d} d"
    if h:
        return f"{h} h {m} m" if m else f"{h} h"
    if m:
        return f"{m} m"
    return f"{s} s"


def _group_index(frame: pd.DataFrame, by: list[str], keys: pd.MultiIndex) -> np.ndarray:
    """Row -> position of its group in ``keys`` (text keys), one pass."""
    if not by:
        return np.zeros(len(frame), dtype=np.int64)
    if len(frame) == 0:
        return np.zeros(0, dtype=np.int64)
    return np.asarray(keys.get_indexer(pd.MultiIndex.from_frame(frame[by].astype(str))), dtype=np.int64)


def status_episodes(states: pd.DataFrame, transitions: pd.DataFrame, by: list[str], *, at_least: str = "critical",
                    gap: Any = "30min") -> pd.DataFrame:
    """Episodes at ``at_least`` or worse per group, from the transitions: an episode starts when
    the status reaches ``at_least`` and ends when it drops below it; episodes less than ``gap``
    apart are merged into one (a flap between WARNING and CRITICAL is no new episode).

    Returns
    -------
    DataFrame
        Group keys, ``start``, ``end`` (the drop below ``at_least``, or the group's last event when
        still there: ``ongoing``), ``duration``, ``ongoing``, ``merged`` (how many raw episodes it
        holds), sorted by group keys and ``start``.

    Examples
    --------
    >>> from budgetlab import SLO, as_events, replay, transitions
    >>> ok = [True] * 10 + [False] * 3 + [True] * 30 + [False] * 2 + [True] * 40
    >>> st = replay(as_events(pd.date_range("2026-01-01", periods=len(ok), freq="min"), ok),
    ...             SLO(target=0.9, window="10min"))
    >>> ep = status_episodes(st, transitions(st), [], gap="5min")
    >>> ep[["start", "duration", "merged"]].astype(str).values.tolist()
    [['2026-01-01 00:10:00+00:00', '0 days 00:13:00', '1'], ['2026-01-01 00:43:00+00:00', '0 days 00:12:00', '1']]

    By hand: the first failure (00:10) leaves 1 of 11 events failed in the window, budget 1.1:
    CRITICAL; the last of the three (00:12) leaves the window at 00:23. The two episodes are
    20 min apart, so a 30 min gap merges them:

    >>> status_episodes(st, transitions(st), [], gap="30min")[["duration", "merged"]].astype(str).values.tolist()
    [['0 days 00:45:00', '2']]
    """
    if at_least not in STATUSES[1:]:
        raise ConfigError(f"at_least={at_least!r} must be one of {', '.join(STATUSES[1:])}.")
    gap_ns = int(to_timedelta(gap, name="gap", allow_zero=True).value)
    level = STATUSES.index(at_least)
    if by:
        last = states.groupby(by, observed=True, sort=True, dropna=False)["ts"].max()
        keys = pd.MultiIndex.from_frame(last.index.to_frame(index=False).astype(str))
        key_frame = last.index.to_frame(index=False)
    else:
        last = pd.Series([states["ts"].max()])
        keys = pd.MultiIndex.from_tuples([("",)])
        key_frame = pd.DataFrame(index=pd.RangeIndex(1))
    last_ns = last.to_numpy(dtype="datetime64[ns]").view(np.int64)
    tr = transitions
    g = _group_index(tr, by, keys)
    f = tr["from_status"].cat.codes.to_numpy() >= level
    t = tr["to_status"].cat.codes.to_numpy() >= level
    ts = tr["ts"].to_numpy(dtype="datetime64[ns]").view(np.int64) if len(tr) else np.zeros(0, dtype=np.int64)
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
    rank = np.arange(len(s_g)) - s_first[s_g] if len(s_g) else np.zeros(0, dtype=np.int64)
    has_end = rank < e_count[s_g] if len(s_g) else np.zeros(0, dtype=bool)
    end = np.where(has_end, e_t[np.minimum(e_first[s_g] + rank, max(len(e_t) - 1, 0))] if len(e_t) else 0,
                   last_ns[s_g] if len(s_g) else 0)
    new = np.ones(len(s_g), dtype=bool)
    if len(s_g) > 1:
        new[1:] = (s_g[1:] != s_g[:-1]) | (s_t[1:] - end[:-1] >= gap_ns)
    ep_id = np.cumsum(new) - 1
    n_ep = int(ep_id[-1]) + 1 if len(ep_id) else 0
    starts = s_t[new]
    ends = np.zeros(n_ep, dtype=np.int64)
    np.maximum.at(ends, ep_id, end)
    ongoing = np.zeros(n_ep, dtype=bool)
    np.logical_or.at(ongoing, ep_id, ~has_end)
    out = key_frame.iloc[s_g[new]].reset_index(drop=True) if by else pd.DataFrame(index=pd.RangeIndex(n_ep))
    out["start"] = pd.to_datetime(starts, unit="ns", utc=True)
    out["end"] = pd.to_datetime(ends, unit="ns", utc=True)
    out["duration"] = out["end"] - out["start"]
    out["ongoing"] = ongoing
    out["merged"] = np.bincount(ep_id, minlength=n_ep).astype(np.int64)
    out.attrs.update({"at_least": at_least, "gap": pd.Timedelta(gap_ns, unit="ns"), "by": list(by)})
    return out


def episode_lines(summary: pd.DataFrame, episodes: pd.DataFrame, by: list[str]) -> list[str]:
    """One line per group of ``replay_summary`` rows: time at ``at_least`` or worse, how many
    episodes (and the status changes they hold), the longest with its start."""
    at_least = episodes.attrs.get("at_least", "critical")
    level = STATUSES.index(at_least)
    worse = STATUSES[level:]
    lines = []
    for _, row in summary.iterrows():
        label = ", ".join(str(row[k]) for k in by) or "all events"
        ep = episodes
        for k in by:
            ep = ep[ep[k].astype(str) == str(row[k])]
        hours = sum(float(row[f"hours_{s}"]) for s in worse)
        share = sum(float(row[f"share_{s}"]) for s in worse)
        head = f"{label}: {at_least.upper()} or worse {share * 100:.0f} % of the time ({hours:.1f} h)"
        if ep.empty:
            lines.append(f"{head}; no episode.")
            continue
        longest = ep.iloc[int(np.argmax(ep["duration"].to_numpy()))]
        ongoing = " (still there at the end)" if bool(longest["ongoing"]) else ""
        n = len(ep)
        lines.append(f"{head}; {n} episode{'s' if n != 1 else ''} ({int(ep['merged'].sum())} before merging), "
                     f"longest {duration_words(longest['duration'])} from {longest['start']:%Y-%m-%d %H:%M}{ongoing}")
    gap = episodes.attrs.get("gap")
    if gap is not None:
        lines.append(f"(an episode runs from reaching {at_least.upper()} to dropping below it; episodes less than "
                     f"{duration_label(gap)} apart are merged into one)")
    return lines
