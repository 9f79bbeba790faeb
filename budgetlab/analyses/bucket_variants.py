"""The seed tracker and the alert policy with and without one failure bucket.

The pieces behind the "caused by a bucket alone" columns of
:func:`budgetlab.analyses.failure_buckets.bucket_breakdown` and of the incident report; the
convention (runs of a status level, closed intervals) is written down in
:mod:`budgetlab.analyses.failure_buckets`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._util.validation import utc_ns_column
from ..alerts.episodes import alert_episodes
from ..alerts.policy import AlertPolicy
from ..budget.figures import seed_status_codes
from ..events.schema import ts_ns
from ..slo import SLO
from ..windows.binning import bucket_codes
from ..windows.groups import group_codes, order_by_codes, segment_codes
from ..windows.trailing import trailing_counts
from .sorted_events import change_flags

__all__ = ["closed_overlap", "Groups", "TrackerVariants", "episodes_caused"]

_N_LEVELS = 3  # warning, critical, exhausted (status codes 1..3)


def closed_overlap(a_group: np.ndarray, a_start: np.ndarray, a_end: np.ndarray,
                   b_group: np.ndarray, b_start: np.ndarray, b_end: np.ndarray) -> np.ndarray:
    """For each interval ``a``: does ``[a_start, a_end]`` overlap (or touch) an interval ``b`` of
    the same group? The ``b`` intervals of one group must be disjoint (their ends then increase
    with their starts), as runs and episodes of one level or tier are.

    >>> g = np.zeros(3, dtype=np.int64)
    >>> closed_overlap(g, np.array([0, 10, 20]), np.array([5, 12, 25]),
    ...                g[:1], np.array([12]), np.array([15])).tolist()
    [False, True, False]
    """
    if not len(b_group):
        return np.zeros(len(a_group), dtype=bool)
    # one sort of the b intervals by (group, start) on one int64 key: the group's rank times the
    # number of distinct instants plus the instant's rank; for each a, the last b of its group
    # starting at or before a_end (the only one that can reach it) is one searchsorted away
    _, grp = np.unique(np.concatenate([b_group, a_group]), return_inverse=True)
    instants, at = np.unique(np.concatenate([b_start, a_end]), return_inverse=True)
    key = grp.astype(np.int64) * (len(instants) + 1) + at
    b_key, a_key = key[:len(b_group)], key[len(b_group):]
    order = np.argsort(b_key, kind="stable")
    j = np.searchsorted(b_key[order], a_key, side="right") - 1
    hit = j >= 0
    j = order[np.maximum(j, 0)]
    hit &= grp[j] == grp[len(b_group):]
    return hit & (np.asarray(b_end)[j] >= a_start)


class Groups:
    """The groups of an event table, found once (:mod:`budgetlab.windows.groups`): ``code`` per
    event (0..k-1 in the sorted order of the key values, categories in their own order, missing
    keys last), the stable ``order`` that puts each group's events together, the group
    ``bounds`` in that order and one ``key_table`` row per group."""

    def __init__(self, events: pd.DataFrame, keys: Sequence[str]) -> None:
        self.keys = list(keys)
        self.code = group_codes(events, self.keys)
        self.order, self.bounds = order_by_codes(self.code)
        self.code = self.code.astype(np.int64)
        self.n_groups = len(self.bounds) - 1
        first = self.order[self.bounds[:-1]]
        self.key_table = (events[self.keys].iloc[first].reset_index(drop=True) if self.keys
                          else pd.DataFrame(index=pd.RangeIndex(self.n_groups)))


class TrackerVariants:
    """Seed-exact tracker statuses of one event table with and without each failure bucket.

    The window of every event is found once, by the trailing-window kernel; a variant without
    bucket ``b`` only needs cumulative sums of the kept events, because a ``b``-free tracker at a
    kept event holds exactly the kept events of the full window. Statuses equal those of
    :func:`budgetlab.replay` on the filtered events (``tests/analyses/test_failure_buckets.py``
    checks this).
    """

    def __init__(self, events: pd.DataFrame, slo: SLO, groups: Groups) -> None:
        self.slo = slo
        self.keys = groups.keys
        n = len(events)
        self.order = groups.order
        bounds = self.bounds = groups.bounds
        t = ts_ns(events)[self.order]
        codes, names = bucket_codes(events)
        self.names = names
        self.codes = codes[self.order]
        self.bad = ~events["ok"].to_numpy(dtype=bool)[self.order]
        self.t = t
        self.t_end = int(t.max()) if n else 0
        self.group = segment_codes(bounds, np.int64)
        total, _ = trailing_counts(t, self.bad, slo.window_ns, bounds)
        # the window of (sorted) event i is rows lo[i]..i: total[i] = i + 1 - lo[i]
        self.lo = np.arange(1, n + 1, dtype=np.int64) - total
        self.key_table = groups.key_table
        self._cache: dict[int | None, tuple[np.ndarray, np.ndarray]] = {}
        self._runs: dict[int | None, list[dict[str, np.ndarray]]] = {}

    def statuses(self, exclude: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """``(rows, code)``: positions (in group order) of the events the variant's tracker records
        and its status code there, after the ``min_events`` hold."""
        if exclude in self._cache:
            return self._cache[exclude]
        keep = np.ones(len(self.t), dtype=bool) if exclude is None else self.codes != exclude
        ck = np.zeros(len(keep) + 1, dtype=np.int64)
        np.cumsum(keep, out=ck[1:])
        cf = np.zeros(len(keep) + 1, dtype=np.int64)
        np.cumsum(keep & self.bad, out=cf[1:])
        if exclude is None:
            rows = np.arange(len(keep), dtype=np.int64)
            lo = self.lo
        else:
            rows = np.flatnonzero(keep)
            lo = self.lo[rows]
        total = ck[rows + 1] - ck[lo]
        failures = cf[rows + 1] - cf[lo]
        code = seed_status_codes(total, failures, self.slo.target, self.slo, self._first_rows(rows))
        self._cache[exclude] = (rows, code)
        return rows, code

    def runs(self, rows: np.ndarray, code: np.ndarray) -> list[dict[str, np.ndarray]]:
        """Runs at or above each level 1..3: group, start/end times, start/end positions (the end
        position is the event that leaves the run; ``-1`` when the run lasts to the end)."""
        g = self.group[rows]
        new_group = self._first_rows(rows)
        last_of_group = np.ones(len(rows), dtype=bool)
        last_of_group[:-1] = new_group[1:]
        out = []
        for level in range(1, _N_LEVELS + 1):
            above = code >= level
            prev = np.zeros(len(rows), dtype=bool)
            prev[1:] = above[:-1]
            prev[new_group] = False
            starts = np.flatnonzero(above & ~prev)
            drops = np.flatnonzero(~above & prev)  # the event that leaves the run
            open_end = np.flatnonzero(above & last_of_group)  # runs that last to the group's end
            # starts and ends alternate inside a group: sort the ends (an open end just after its
            # group's last position) and pair them with the starts in order
            end_key = np.sort(np.concatenate([2 * drops, 2 * open_end + 1]))
            is_open = (end_key % 2) == 1
            end_pos = end_key // 2
            end_t = np.where(is_open, self.t_end, self.t[rows[end_pos]])
            out.append({
                "group": g[starts],
                "start": self.t[rows[starts]],
                "end": end_t,
                "start_pos": starts,
                "end_pos": np.where(is_open, -1, end_pos),
            })
        return out

    def changes(self, rows: np.ndarray, code: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Positions (into ``rows``) of status changes and the previous code there (healthy at a
        group's start), in group order."""
        first = self._first_rows(rows)
        pos = np.flatnonzero(change_flags(code, first))
        return pos, np.where(first[pos], 0, code[pos - 1]).astype(code.dtype)

    def _first_rows(self, rows: np.ndarray) -> np.ndarray:
        """``True`` at the first of ``rows`` (positions in group order) in each group."""
        g = self.group[rows]
        first = np.ones(len(rows), dtype=bool)
        first[1:] = g[1:] != g[:-1]
        return first

    def caused(self, exclude: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Transitions of the full tracker and whether each one is caused by bucket ``exclude``
        alone.

        Returns ``(event_row, group, caused)`` in the order of :func:`budgetlab.transitions`
        (time order; ``event_row`` indexes the event table).
        """
        rows, code = self.statuses(None)
        pos, prev = self.changes(rows, code)
        w_rows, w_code = self.statuses(exclude)
        if None not in self._runs:
            self._runs[None] = self.runs(rows, code)
        runs_all = self._runs[None]
        runs_wo = self.runs(w_rows, w_code)
        caused = np.zeros(len(pos), dtype=bool)
        cur = code[pos]
        top = np.maximum(cur, prev).astype(np.int64)
        up = cur > prev
        for level in range(1, _N_LEVELS + 1):
            ra, rw = runs_all[level - 1], runs_wo[level - 1]
            matched = closed_overlap(ra["group"], ra["start"], ra["end"], rw["group"], rw["start"],
                                     rw["end"])
            sel = np.flatnonzero(top == level)
            if len(sel) == 0:
                continue
            # an upward change starts a run of its level at pos; a downward one ends it there
            is_up = up[sel]
            k = np.empty(len(sel), dtype=np.int64)
            k[is_up] = np.searchsorted(ra["start_pos"], pos[sel[is_up]])
            closed_runs = np.flatnonzero(ra["end_pos"] >= 0)  # end positions increase with the runs
            k[~is_up] = closed_runs[np.searchsorted(ra["end_pos"][closed_runs], pos[sel[~is_up]])]
            caused[sel] = ~matched[k]
        event_row = self.order[rows[pos]]
        srt = np.argsort(event_row, kind="stable")
        return event_row[srt], self.group[rows[pos]][srt], caused[srt]

    def transition_counts(self, exclude: int | None = None) -> np.ndarray:
        """Status changes per group of the variant (what :func:`budgetlab.transitions` would
        list)."""
        rows, code = self.statuses(exclude)
        pos, _ = self.changes(rows, code)
        return np.bincount(self.group[rows[pos]], minlength=len(self.bounds) - 1)


def episodes_caused(bins: pd.DataFrame, target: Any, policy: AlertPolicy, bucket: str,
                    *, freq: Any = None,
                    episodes: pd.DataFrame | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Episodes of ``policy`` on ``bins`` with all failures, each flagged ``caused`` when no
    episode of the same tier and group overlaps it (closed intervals) once ``bucket`` is excluded;
    and the episodes without the bucket. ``episodes``: the episodes with all failures, if known."""
    ep = alert_episodes(bins, target, policy, freq=freq) if episodes is None else episodes
    wo = alert_episodes(bins, target, policy, freq=freq, exclude_buckets=bucket)
    on = [*ep.attrs.get("by", []), "tier"]
    # one number per group and tier over both tables (missing keys a group of their own)
    both = pd.concat([ep[on], wo[on]], ignore_index=True).astype(object)
    code = both.groupby(on, dropna=False, sort=False).ngroup().to_numpy(dtype=np.int64)
    a_g, b_g = code[:len(ep)], code[len(ep):]
    a_s, a_e, b_s, b_e = (utc_ns_column(f[c], f"episodes['{c}']")
                          for f in (ep, wo) for c in ("start", "end"))
    matched = closed_overlap(a_g, a_s, a_e, b_g, b_s, b_e)
    out = ep.copy()
    out["caused"] = ~matched
    return out, wo

