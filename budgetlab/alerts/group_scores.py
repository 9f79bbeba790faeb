"""Scores of every single group at once (the per-group rows of
:func:`budgetlab.alerts.scoring.score_alerts`; its other rows, all groups or a group whose
episodes overlap, are :func:`summary_columns` of one value each).

Linear in episodes and in (incident, group) pairs: the episodes are sorted once by group and start;
an incident overlaps a contiguous range of a group's episodes when they are disjoint
(what :func:`~budgetlab.alerts.episodes.alert_episodes` returns, and what merging tiers makes),
found with two binary searches. Times are replaced by their ranks among all the times involved, so
that ``group * ranks + rank`` orders (group, time) pairs in one int64 without overflow. The failures
before an alert come from cumulative sums over the non-empty bins only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._util.ratios import ratio
from .._util.units import DAY_NS
from ..windows.bingrid import BinGrid
from .observed import rate_notes, thin_rates

__all__ = ["already_firing", "episode_matches", "merge_intervals", "BadCounts", "GroupScores",
           "group_scores", "segment_median_max", "summary_columns", "overlaps", "NAT"]


def merge_intervals(gi: np.ndarray, st: np.ndarray, en: np.ndarray) -> tuple[np.ndarray, np.ndarray,
                                                                             np.ndarray]:
    """Union of intervals ``[st, en)`` per group ``gi`` (overlapping or touching intervals become
    one), sorted by group and start; vectorized (a running maximum of the ends within each group).

    >>> [a.tolist() for a in merge_intervals(np.array([0, 0, 1, 0]), np.array([5, 0, 0, 2]),
    ...                                      np.array([9, 3, 4, 5]))]
    [[0, 1], [0, 0], [9, 4]]
    """
    gi, st, en = (np.asarray(a, dtype=np.int64) for a in (gi, st, en))
    if len(gi) == 0:
        return gi, st, en
    order = np.lexsort((st, gi))
    gi, st, en = gi[order], st[order], en[order]
    # ends before starts: the plain loop (a running max from each merged start)
    if bool(np.any(en < st)):
        return _merge_loop(gi, st, en)
    values, rank = np.unique(en, return_inverse=True)
    # group-major: the running max restarts with each group
    key = gi * len(values) + rank.astype(np.int64)
    reach = values[np.maximum.accumulate(key) - gi * len(values)]
    new = np.ones(len(gi), dtype=bool)
    new[1:] = (gi[1:] != gi[:-1]) | (st[1:] > reach[:-1])
    first = np.flatnonzero(new)
    last = np.append(first[1:] - 1, len(gi) - 1)
    return gi[first], st[first], reach[last]


def _merge_loop(gi: np.ndarray, st: np.ndarray, en: np.ndarray) -> tuple[np.ndarray, np.ndarray,
                                                                         np.ndarray]:
    out_g, out_s, out_e = [gi[0]], [st[0]], [en[0]]
    for g, s, e in zip(gi[1:].tolist(), st[1:].tolist(), en[1:].tolist(), strict=True):
        if g == out_g[-1] and s <= out_e[-1]:
            out_e[-1] = max(out_e[-1], e)
        else:
            out_g.append(g)
            out_s.append(s)
            out_e.append(e)
    return (
        np.array(out_g, dtype=np.int64),
        np.array(out_s, dtype=np.int64),
        np.array(out_e, dtype=np.int64),
    )


class BadCounts:
    """Failures of a grid's groups between two instants, from a cumulative sum over its non-empty
    cells only (memory grows with the non-empty bins, not groups x bins).

    >>> import pandas as pd
    >>> g = BinGrid.from_dense(pd.DataFrame(index=pd.RangeIndex(2)), [], 0, 60, np.full((2, 4), 9),
    ...                        np.array([[0, 2, 0, 1], [5, 0, 0, 0]]))
    >>> BadCounts(g).between(np.array([0, 0, 1]), np.array([0, 120, 0]),
    ...                      np.array([240, 181, 1])).tolist()
    [3, 1, 5]
    """

    def __init__(self, grid: BinGrid) -> None:
        self.start_ns, self.freq_ns, self.n_bins = grid.start_ns, grid.freq_ns, grid.n_bins
        nz = grid.cell_bad != 0
        self.key = grid.cell_group[nz].astype(np.int64) * (self.n_bins + 1) + grid.cell_bin[nz]
        self.cum = np.zeros(int(nz.sum()) + 1, dtype=np.int64)
        np.cumsum(grid.cell_bad[nz], out=self.cum[1:])

    def _upto(self, groups: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Failures of each group in the bins before index ``b`` (group-major cumulative count)."""
        return np.asarray(self.cum[np.searchsorted(self.key,
                                                   groups.astype(np.int64) * (self.n_bins + 1) + b,
                                                   side="left")])

    def between(self, groups: np.ndarray, lo_ns: np.ndarray, hi_ns: np.ndarray) -> np.ndarray:
        """Failures of group ``groups[i]`` in the bins from the one holding ``lo_ns[i]`` to the
        last one that begins before ``hi_ns[i]`` (0 when there is none)."""
        a = np.clip((lo_ns - self.start_ns) // self.freq_ns, 0, self.n_bins)
        b = np.clip(-(-(hi_ns - self.start_ns) // self.freq_ns), 0, self.n_bins)
        return np.where(b > a, self._upto(groups, b) - self._upto(groups, a), 0)


@dataclass(frozen=True)
class GroupScores:
    """Per (incident, group) pair and per group, what the per-group rows of a score table need.

    Pairs are ordered by group, then incident (``pair_group``, ``pair_incident``: positions in the
    scored incidents); ``first``/``last`` are valid where ``detected``. ``episodes`` and
    ``true_episodes`` count the episodes scored (:func:`group_scores`), the ``*_filling`` ones
    those scored apart.
    """

    pair_group: np.ndarray
    pair_incident: np.ndarray
    detected: np.ndarray
    first: np.ndarray
    last: np.ndarray
    episodes: np.ndarray  # per group
    true_episodes: np.ndarray  # per group
    episodes_filling: np.ndarray  # per group
    true_episodes_filling: np.ndarray  # per group


def group_scores(n_groups: int, inc_match: np.ndarray, inc_start: np.ndarray,
                 inc_end_grace: np.ndarray,
                 gi: np.ndarray, st: np.ndarray, en: np.ndarray, *,
                 apart: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
                 detecting: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None,
                 ) -> GroupScores | None:
    """Match every group's episodes (``gi``, ``[st, en)``) against the incidents covering it
    (``inc_match[incident, group]``, spans ``[inc_start, inc_end_grace)``), all groups at once.
    ``apart``: the episodes scored apart (``(group, start, end)``; over while the long window
    filled, :func:`~budgetlab.alerts.merged_tiers.split_rows`), counted in the ``*_filling``
    counts; they detect nothing. ``detecting``: the intervals whose overlap detects an incident
    (``first``, ``last``), when not the episodes themselves (a merged row's).

    ``None`` when some group's episodes (or the others given) are not disjoint (then a range
    search would be wrong; the caller matches that table pair by pair).
    """
    empty = np.zeros(0, dtype=np.int64)
    scored, away = _sorted_disjoint(gi, st, en), _sorted_disjoint(*(apart or (empty,) * 3))
    found = scored if detecting is None else _sorted_disjoint(*detecting)
    if scored is None or away is None or found is None:
        return None
    pair_group, pair_incident = np.nonzero(inc_match.T)
    pair_group = pair_group.astype(np.int64)
    q_lo, q_hi = inc_start[pair_incident], inc_end_grace[pair_incident]
    detected, first, last, hit = _ranges(*found, pair_group, q_lo, q_hi)
    if detecting is not None:
        hit = _ranges(*scored, pair_group, q_lo, q_hi)[3]
    hit_apart = _ranges(*away, pair_group, q_lo, q_hi)[3]

    def count(groups: np.ndarray) -> np.ndarray:
        return np.bincount(groups, minlength=n_groups)

    return GroupScores(pair_group, pair_incident.astype(np.int64), detected, first.astype(np.int64),
                       last.astype(np.int64), count(scored[0]), count(scored[0][hit]),
                       count(away[0]), count(away[0][hit_apart]))


def _sorted_disjoint(gi: np.ndarray, st: np.ndarray,
                     en: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The episodes sorted by group and start, ``None`` when a group's overlap."""
    order = np.lexsort((st, gi))
    gi, st, en = (np.asarray(a, dtype=np.int64)[order] for a in (gi, st, en))
    same = gi[1:] == gi[:-1]
    if bool(np.any(en < st)) or bool(np.any(same & (st[1:] < en[:-1]))):
        return None
    return gi, st, en


def _ranges(gi: np.ndarray, st: np.ndarray, en: np.ndarray, pair_group: np.ndarray,
            q_lo: np.ndarray, q_hi: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                         np.ndarray]:
    """``(detected, first, last)`` per pair (group ``pair_group``, span ``[q_lo, q_hi)``) and
    ``hit`` per episode (disjoint per group, sorted by group and start): the episodes of the
    pair's group overlapping its span, a contiguous range found with two binary searches."""
    times = np.unique(np.concatenate([st, en, q_lo, q_hi]))
    big = np.int64(len(times))

    def keyed(groups: np.ndarray, t: np.ndarray) -> np.ndarray:
        return groups * big + np.searchsorted(times, t)

    # episodes of a group overlapping [q_lo, q_hi): start < q_hi (a prefix) and end > q_lo (a
    # suffix)
    hi = np.searchsorted(keyed(gi, st), keyed(pair_group, q_hi), side="left")
    lo = np.searchsorted(keyed(gi, en), keyed(pair_group, q_lo), side="right")
    detected = hi > lo
    first = np.where(detected, st[np.minimum(lo, max(len(st) - 1, 0))] if len(st) else 0, 0)
    last = np.where(detected, en[np.maximum(hi - 1, 0)] if len(en) else 0, 0)
    delta = np.zeros(len(gi) + 1, dtype=np.int64)
    np.add.at(delta, lo[detected], 1)
    np.add.at(delta, hi[detected], -1)
    hit = np.cumsum(delta[:-1]) > 0
    return detected, first, last, hit


def segment_median_max(groups: np.ndarray, values: np.ndarray, n_groups: int) -> tuple[np.ndarray,
                                                                                       np.ndarray,
                                                                                       np.ndarray]:
    """Per group: ``(count, median, max)`` of ``values`` (float64 median as :func:`numpy.median`
    computes it: the middle value, or the mean of the two middle values; 0 where empty).

    >>> [a.tolist() for a in segment_median_max(np.array([1, 0, 1, 1]), np.array([4, 7, 1, 2]), 3)]
    [[1, 3, 0], [7.0, 2.0, 0.0], [7, 4, 0]]
    """
    order = np.lexsort((values, groups))
    v = values[order]
    count = np.bincount(groups, minlength=n_groups)
    start = np.zeros(n_groups, dtype=np.int64)
    np.cumsum(count[:-1], out=start[1:])
    has = count > 0
    mid = start + count // 2
    top = np.where(has, mid, 0)
    low = np.where(has, mid - 1 + count % 2, 0)  # the lower middle (the middle itself when odd)
    vf = v.astype(np.float64)
    if len(v) == 0:
        return count, np.zeros(n_groups), np.zeros(n_groups, dtype=v.dtype)
    median = np.where(count % 2 == 1, vf[top], (vf[low] + vf[top]) / 2.0)
    vmax = v[np.where(has, start + count - 1, 0)]
    return count, np.where(has, median, 0.0), np.where(has, vmax, 0)


def _durations(values: np.ndarray, has: np.ndarray) -> np.ndarray:
    """``timedelta64[ns]`` of ``values`` (truncated to whole ns as ``int()`` does), NaT where not
    ``has``."""
    ns = np.where(has, values, 0).astype(np.int64)
    ns[~has] = np.iinfo(np.int64).min
    return ns.view("timedelta64[ns]")


def summary_columns(gs: GroupScores, n_groups: int, inc_start: np.ndarray, inc_end: np.ndarray,
                    observed_ns: np.ndarray, open_ns: int, *, pct: np.ndarray | None = None,
                    early: np.ndarray | None = None,
                    unseen: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """The score columns of the rows of ``n_groups`` groups (the columns of
    :func:`~budgetlab.score_alerts` after the labels), one array per column with one value per
    group, from their matches ``gs``: built column by column, no per-group Python object. Rates
    are over each group's ``observed_ns``; an alert ending at or after ``open_ns`` still fired (no
    reset). Per (incident, group) pair of ``gs``: ``pct``, the budget spent before the alert (NaN:
    withheld; ``None`` without bins: no budget columns), and ``early``, the incident began while
    the long window filled (counted apart in the ``*_filling`` columns; ``None``: every incident
    scored, no such columns), and ``unseen``, no alert matched it and its window held no traffic
    (:mod:`budgetlab.alerts.unseen`: neither detected nor missed, left out of ``recall``;
    ``None``: none is). A pair whose first matching episode began before the incident (the row
    already fired when it began: :func:`already_firing`) is neither detected nor missed: counted
    in ``already_firing``, left out of ``recall``, the detection times and the budget before
    alert; its reset is kept."""
    g, inc = gs.pair_group, gs.pair_incident
    apart = np.zeros(len(g), dtype=bool) if early is None else early
    reached = gs.detected & ~apart  # an alert of the row overlapped it
    already = reached & already_firing(gs.first, inc_start[inc])
    det = reached & ~already
    n_inc = np.bincount(g[~apart], minlength=n_groups)
    silent = np.zeros(len(g), dtype=bool) if unseen is None else unseen & ~apart
    n_unseen = np.bincount(g[silent], minlength=n_groups)
    n_already = np.bincount(g[already], minlength=n_groups)
    n_det, d_med, d_max = segment_median_max(g[det], (gs.first - inc_start[inc])[det], n_groups)
    n_reached, r_med, r_max = segment_median_max(g[reached], (gs.last - inc_end[inc])[reached],
                                                 n_groups)
    has = n_det > 0
    # a reset is known where no incident's alert still fired at the last evaluation
    unknown = np.bincount(g[reached & (gs.last >= open_ns)], minlength=n_groups) > 0
    n_ep, true_ep = gs.episodes.astype(np.int64), gs.true_episodes.astype(np.int64)
    per_day = observed_ns / DAY_NS
    per_week = observed_ns / (7 * DAY_NS)
    thin = thin_rates(observed_ns)  # under a day of observed time: withheld
    cols: dict[str, np.ndarray] = {
        "episodes": n_ep,
        "true_episodes": true_ep,
        "precision": ratio(true_ep, n_ep),
        "incidents": n_inc.astype(np.int64),
        "detected": n_det.astype(np.int64),
        "unseen": n_unseen.astype(np.int64),
        "already_firing": n_already.astype(np.int64),
        # of the incidents seen and not already alerted on: NaN when none is
        "recall": ratio(n_det, n_inc - n_unseen - n_already),
        "detection_median": _durations(d_med, has),
        "detection_max": _durations(d_max, has),
        "reset_median": _durations(r_med, (n_reached > 0) & ~unknown),
        "reset_max": _durations(r_max, (n_reached > 0) & ~unknown),
        "alerts_per_day": np.where(thin, np.nan, ratio(n_ep, per_day)),
        "false_alerts_per_week": np.where(thin, np.nan, ratio(n_ep - true_ep, per_week)),
        "observed_days": np.asarray(per_day, dtype=np.float64),
        "rates_note": rate_notes(observed_ns),
    }
    if pct is not None:  # a group with a withheld incident (NaN) has none
        _, p_med, p_max = segment_median_max(g[det], pct[det], n_groups)
        known = has & ~(np.bincount(g[det], weights=np.isnan(pct[det]), minlength=n_groups) > 0)
        cols["budget_before_alert_median"] = np.where(known, p_med, np.nan).astype(np.float64)
        cols["budget_before_alert_max"] = np.where(known, p_max, np.nan).astype(np.float64)
    if early is not None:
        cols["episodes_filling"] = gs.episodes_filling.astype(np.int64)
        cols["true_episodes_filling"] = gs.true_episodes_filling.astype(np.int64)
        cols["incidents_filling"] = np.bincount(g[early], minlength=n_groups).astype(np.int64)
    return cols


NAT = np.iinfo(np.int64).min  #: NaT as int64 ns


def already_firing(first: Any, inc_start: Any) -> Any:
    """Elementwise: the first episode matching an incident began before it, so the alert already
    fired when the incident began (``first`` ns, ``inc_start`` ns; valid where it was matched).
    Such an alert was not caused by the incident: the incident is neither detected (no "0 s"
    detection) nor missed, the rule of :func:`~budgetlab.compare_windows`' ``already_at_alert``.
    An episode beginning at the incident's start detects it in 0 s.

    >>> already_firing(np.array([-60, 0, 60]), 0).tolist()
    [True, False, False]
    """
    return first < inc_start


def episode_matches(st: Any, en: Any, inc_start: Any, inc_end_grace: Any) -> Any:
    """The matching rule of :func:`budgetlab.score_alerts` in time, elementwise (broadcast): an
    episode ``[st, en)`` matches an incident when it overlaps ``[inc_start, inc_end_grace)``,
    the incident extended by ``grace`` (ns, or Timestamps alike). The incident report's tier
    table counts its alerts by it too.

    >>> episode_matches(np.array([60, 120, -60]), np.array([90, 180, 0]), 0, 60 + 60).tolist()
    [True, False, False]
    """
    return (st < inc_end_grace) & (en > inc_start)


def overlaps(inc_match: np.ndarray, i_idx: np.ndarray, i_s: np.ndarray, i_e_grace: np.ndarray,
             gi: np.ndarray,
              st: np.ndarray, en: np.ndarray, one_group: bool) -> tuple[np.ndarray, np.ndarray,
                                                                        np.ndarray, np.ndarray]:
    """``(detected, first, last)`` per incident and ``hit`` per episode: the episodes (group
    ``gi``, ``[st, en)``) overlapping each incident ``[i_s, i_e_grace)`` of ``i_idx`` whose scope
    covers their group, in chunks of incidents (a bounded incidents x episodes matrix)."""
    n_i, n_ep = len(i_idx), len(gi)
    detected = np.zeros(n_i, dtype=bool)
    first = np.full(n_i, NAT)
    last = np.full(n_i, NAT)
    hit = np.zeros(n_ep, dtype=bool)
    if n_ep == 0:
        return detected, first, last, hit
    step = max(1, 4_000_000 // n_ep)
    for lo in range(0, n_i, step):
        sl = slice(lo, lo + step)
        overlap = episode_matches(st[None, :], en[None, :], i_s[sl, None],
                                  i_e_grace[sl, None])
        if not one_group:  # one group: every incident of i_idx covers it
            overlap &= inc_match[i_idx[sl]][:, gi]
        detected[sl] = overlap.any(axis=1)
        first[sl] = np.where(overlap, st[None, :], np.iinfo(np.int64).max).min(axis=1)
        last[sl] = np.where(overlap, en[None, :], np.iinfo(np.int64).min).max(axis=1)
        hit |= overlap.any(axis=0)
    return detected, first, last, hit
