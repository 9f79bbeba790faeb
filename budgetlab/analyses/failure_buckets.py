"""Timeout vs solve failures: what each failure bucket costs, per group and over time.

The seed's advice, "split the failures into a connection-timeout and a solve-error bucket before
lowering the SLO", as tables. Every figure is attributed to a failure ``bucket`` (``timeout``,
``solve_error``, ...) with one convention, written down here once:

* **Bucket burn rate.** ``burn_rate = failures_of_bucket / (events × (1 − target))``: the bucket's
  failures over the *same* denominator as the total burn, so the buckets' burn rates add up to the
  group's burn rate (``group_burn_rate``). 1.0 = the whole allowed pace.
* **Without a bucket.** The bucket's events are removed from good *and* total (the SRE model's
  ``exclude_buckets``): ``sli_without = good / (events − failures_of_bucket)``. A group whose
  events are all in that bucket has ``sli_without = 1.0`` and ``burn_rate_without = 0.0`` (the
  seed's zero-traffic rule).
* **Caused by a bucket alone.** The seed tracker is replayed twice per bucket, with and without
  it (exactly as :func:`budgetlab.replay` on the filtered events would). For each status level
  (``warning``, ``critical``, ``exhausted``) a *run* is a maximal time span during which the
  status is at or above that level, from the event that enters it to the event that leaves it
  (or the last event of the table), **closed** at both ends. A transition enters or leaves the
  runs of the levels between its two statuses; it is *caused by the bucket* when the run of its
  higher status overlaps no run of the same level and group in the replay without the bucket.
  Likewise an alert episode (tier, group) of the policy replayed on bins is caused by the bucket
  when ``[start, end]`` overlaps no episode of the same tier and group without it. Pages are the
  episodes of tiers whose severity is ``"page"``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._util.progress import progress
from .._util.validation import as_list
from ..alerts.episodes import alert_episodes
from ..alerts.policy import AlertPolicy, as_policy
from ..budget.figures import seed_status_codes
from ..errors import InputError, OutcomeError
from ..events.schema import SOLVE_ERROR, SUCCESS, bucket_dtype, check_events, ts_ns
from ..slo import SLO, PerGroup, as_per_group, as_slo
from ..windows.bins import bin_events
from ..windows.groups import group_codes, order_by_codes, segment_codes
from ..windows.trailing import trailing_counts
from .per_group import per_slo_rows

__all__ = ["BUCKET_COLUMNS", "OVER_TIME_COLUMNS", "bucket_breakdown", "bucket_burn_over_time", "bucket_counts"]

#: Columns of :func:`bucket_breakdown` after the group keys.
BUCKET_COLUMNS = (
    "bucket", "events", "failures", "share_of_failures", "share_of_all_failures", "failure_rate",
    "burn_rate", "group_burn_rate", "sli", "sli_without", "burn_rate_without",
    "transitions", "transitions_without", "transitions_caused",
    "alerts", "alerts_without", "alerts_caused", "pages", "pages_without", "pages_caused",
)
#: Columns of :func:`bucket_burn_over_time` after the group keys.
OVER_TIME_COLUMNS = ("bin_start", "bucket", "events", "failures", "burn_rate", "budget_spent")

_N_LEVELS = 3  # warning, critical, exhausted (status codes 1..3)


# ------------------------------------------------------------------------------------------------
# small shared pieces


def utc_ns(col: pd.Series) -> np.ndarray:
    """A tz-aware datetime column as int64 nanoseconds since the epoch (UTC)."""
    return np.asarray(col.dt.as_unit("ns").array.asi8, dtype=np.int64)  # type: ignore[attr-defined]


def bucket_codes(events: pd.DataFrame) -> tuple[np.ndarray, list[str]]:
    """Bucket code of every event and the bucket names (``success`` first, as :func:`bucket_dtype`).

    Events without a ``bucket`` column count as ``success`` / ``solve_error`` by ``ok``. Raises
    :class:`OutcomeError` when ``ok`` and ``bucket`` disagree.

    >>> from budgetlab.events.schema import as_events
    >>> ev = as_events(["2026-01-01"] * 3, [True, False, False], ["success", "timeout", "solve_error"])
    >>> codes, names = bucket_codes(ev)
    >>> codes.tolist(), names
    ([0, 1, 2], ['success', 'timeout', 'solve_error'])
    """
    ok = events["ok"].to_numpy(dtype=bool)
    if "bucket" not in events.columns:
        names = list(bucket_dtype().categories)
        return np.where(ok, names.index(SUCCESS), names.index(SOLVE_ERROR)).astype(np.int64), names
    col = events["bucket"]
    if isinstance(col.dtype, pd.CategoricalDtype):
        dtype = bucket_dtype([str(c) for c in col.cat.categories])
        cat = col.cat.set_categories(list(dtype.categories))
    else:
        text = col.astype(str)
        cat = text.astype(bucket_dtype(pd.unique(text)))
    if cat.isna().any():
        raise OutcomeError("events['bucket'] has missing values; every event needs a bucket (success, timeout, ...).")
    codes = cat.cat.codes.to_numpy().astype(np.int64)
    names = [str(c) for c in cat.cat.categories]
    is_success = codes == names.index(SUCCESS)
    if bool(np.any(ok != is_success)):
        raise OutcomeError("events has rows whose 'ok' and 'bucket' disagree (ok=True needs bucket 'success'); "
                           "fix the outcome mapping.")
    return codes, names


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
    out = np.zeros(len(a_group), dtype=bool)
    for g in np.unique(a_group).tolist():  # a loop over groups
        ia = np.flatnonzero(a_group == g)
        ib = np.flatnonzero(b_group == g)
        if len(ib) == 0:
            continue
        order = np.argsort(b_start[ib], kind="stable")
        bs, be = b_start[ib][order], b_end[ib][order]
        j = np.searchsorted(bs, a_end[ia], side="right") - 1
        hit = j >= 0
        out[ia[hit]] = be[j[hit]] >= a_start[ia][hit]
    return out


# ------------------------------------------------------------------------------------------------
# the tracker with and without a bucket, from one set of window bounds


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
        prev = np.zeros(len(rows), dtype=code.dtype)
        prev[1:] = code[:-1]
        prev[self._first_rows(rows)] = 0
        pos = np.flatnonzero(code != prev)
        return pos, prev[pos]

    def _first_rows(self, rows: np.ndarray) -> np.ndarray:
        """``True`` at the first of ``rows`` (positions in group order) in each group."""
        g = self.group[rows]
        first = np.ones(len(rows), dtype=bool)
        first[1:] = g[1:] != g[:-1]
        return first

    def caused(self, exclude: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Transitions of the full tracker and whether each one is caused by bucket ``exclude`` alone.

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
            matched = closed_overlap(ra["group"], ra["start"], ra["end"], rw["group"], rw["start"], rw["end"])
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
        """Status changes per group of the variant (what :func:`budgetlab.transitions` would list)."""
        rows, code = self.statuses(exclude)
        pos, _ = self.changes(rows, code)
        return np.bincount(self.group[rows[pos]], minlength=len(self.bounds) - 1)


# ------------------------------------------------------------------------------------------------
# alert episodes with and without a bucket


def episodes_caused(bins: pd.DataFrame, target: Any, policy: AlertPolicy, bucket: str,
                    *, freq: Any = None, episodes: pd.DataFrame | None = None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Episodes of ``policy`` on ``bins`` with all failures, each flagged ``caused`` when no
    episode of the same tier and group overlaps it (closed intervals) once ``bucket`` is excluded;
    and the episodes without the bucket. ``episodes``: the episodes with all failures, if known."""
    ep = alert_episodes(bins, target, policy, freq=freq) if episodes is None else episodes
    wo = alert_episodes(bins, target, policy, freq=freq, exclude_buckets=bucket)
    by = list(ep.attrs.get("by", []))
    tiers = [t.name for t in policy.tiers]

    def gid(frame: pd.DataFrame) -> np.ndarray:
        tier = frame["tier"].astype(str).map({n: i for i, n in enumerate(tiers)}).to_numpy(dtype=np.int64)
        if not by:
            return tier
        keys = (frame[by].astype(object).where(frame[by].notna(), "<NA>").astype(str).agg("\x1f".join, axis=1)
                if len(frame) else pd.Series([], dtype=str))
        return (keys + "\x1e" + pd.Series(tier, index=frame.index).astype(str)).to_numpy()

    a_id, b_id = gid(ep), gid(wo)
    codes, uniques = pd.factorize(np.concatenate([a_id, b_id]).astype(str))
    a_g, b_g = codes[: len(ep)].astype(np.int64), codes[len(ep):].astype(np.int64)
    matched = closed_overlap(a_g, utc_ns(ep["start"]), utc_ns(ep["end"]), b_g, utc_ns(wo["start"]),
                             utc_ns(wo["end"]))
    out = ep.copy()
    out["caused"] = ~matched
    return out, wo


def _episode_counts(ep: pd.DataFrame, keys: list[str], key_table: pd.DataFrame,
                    mask: np.ndarray | None = None) -> np.ndarray:
    """Episodes per group of ``key_table`` (rows of ``ep`` selected by ``mask``)."""
    sel = ep if mask is None else ep[mask]
    if not keys:
        return np.array([len(sel)], dtype=np.int64)
    lookup = {k: i for i, k in enumerate(key_table[keys].astype(str).itertuples(index=False, name=None))}
    idx = [lookup[k] for k in sel[keys].astype(str).itertuples(index=False, name=None)]  # episodes, not events
    return np.bincount(np.asarray(idx, dtype=np.int64), minlength=len(key_table))


# ------------------------------------------------------------------------------------------------
# public functions


def bucket_counts(events: pd.DataFrame, slo: SLO, keys: Sequence[str], *,
                  groups: Groups | None = None) -> pd.DataFrame:
    """The count part of :func:`bucket_breakdown` (no replays, no alerts): group keys,
    ``bucket``, ``events``, ``failures``, ``share_of_failures``, ``share_of_all_failures``,
    ``failure_rate``, ``burn_rate``, ``group_burn_rate``, ``sli``, ``sli_without``,
    ``burn_rate_without``. One row per observed group and failure bucket."""
    keys = list(keys)
    grp = Groups(events, keys) if groups is None else groups
    codes, names = bucket_codes(events)
    fail_names = [b for b in names if b != SUCCESS]
    n_groups = grp.n_groups
    group = grp.code
    key_table = grp.key_table
    nb = len(names)
    counts = np.bincount(group * nb + codes, minlength=n_groups * nb).reshape(n_groups, nb).astype(np.int64)
    events_g = counts.sum(axis=1)
    fail_idx = [names.index(b) for b in fail_names]
    fails = counts[:, fail_idx]  # (groups, failure buckets)
    fails_g = fails.sum(axis=1)
    eb = slo.error_budget
    all_fail = int(fails_g.sum())
    share = np.zeros(fails.shape)
    np.divide(fails, fails_g[:, None], out=share, where=fails_g[:, None] > 0)
    share_all = fails / all_fail if all_fail > 0 else np.zeros(fails.shape)
    denom = events_g[:, None] * eb
    burn = fails / denom  # events_g > 0 for every observed group
    rate = fails / events_g[:, None]
    group_burn = fails_g / (events_g * eb)
    sli = (events_g - fails_g) / events_g
    rest = events_g[:, None] - fails
    sli_wo = np.ones(fails.shape)
    np.divide(rest - (fails_g[:, None] - fails), rest, out=sli_wo, where=rest > 0)
    burn_wo = np.zeros(fails.shape)
    np.divide(fails_g[:, None] - fails, rest * eb, out=burn_wo, where=rest > 0)
    k = len(fail_names)
    out = key_table.iloc[np.repeat(np.arange(n_groups), k)].reset_index(drop=True) if keys \
        else pd.DataFrame(index=pd.RangeIndex(n_groups * k))
    out["bucket"] = pd.Categorical(np.tile(np.array(fail_names, dtype=object), n_groups),
                                   categories=fail_names, ordered=True)
    out["events"] = np.repeat(events_g, k)
    out["failures"] = fails.ravel()
    out["share_of_failures"] = share.ravel()
    out["share_of_all_failures"] = share_all.ravel()
    out["failure_rate"] = rate.ravel()
    out["burn_rate"] = burn.ravel()
    out["group_burn_rate"] = np.repeat(group_burn, k)
    out["sli"] = np.repeat(sli, k)
    out["sli_without"] = sli_wo.ravel()
    out["burn_rate_without"] = burn_wo.ravel()
    return out


def bucket_breakdown(
    events: pd.DataFrame,
    slo: SLO | PerGroup | Mapping[Any, Any],
    *,
    by: str | Sequence[str] | None = ("captcha_type", "region"),
    policy: AlertPolicy | str | None = None,
    freq: Any = "1min",
) -> pd.DataFrame:
    """What each failure bucket costs, per group: failures, burn, SLI without it, and the status
    transitions and alerts it alone caused.

    Parameters
    ----------
    events : DataFrame
        Canonical event table.
    slo : SLO or PerGroup
        Target (for burn rates and the policy) and the tracker's window and thresholds. Per
        group (a :class:`~budgetlab.PerGroup` or a mapping from group key to SLO or target):
        each group's rows equal those of the table computed with its own SLO for every group
        (``share_of_all_failures`` still counts every group's failures).
    by : str or list of str, optional
        Group keys (default ``captcha_type`` and ``region``); ``None`` for one row per bucket.
    policy : AlertPolicy, optional
        Alert policy replayed on bins of width ``freq`` (default :meth:`AlertPolicy.workbook` for
        the SLO's ``period``; a given policy keeps its own; a preset name such as ``"workbook"``
        is built for the SLO's ``period``).
    freq : duration
        Bin width for the policy; must divide its windows.

    Returns
    -------
    DataFrame
        One row per group and failure bucket (every failure bucket of the ``bucket`` dtype, in its
        order), sorted by group: group keys, ``bucket``, ``events`` (the group's events),
        ``failures`` (of the bucket), ``share_of_failures`` (of the group's failures; 0 without
        failures), ``share_of_all_failures`` (of all groups' failures), ``failure_rate``
        (failures / events), ``burn_rate`` (failures / (events × (1 − target)); the buckets add up
        to ``group_burn_rate``), ``group_burn_rate``, ``sli`` (the group's success ratio),
        ``sli_without`` and ``burn_rate_without`` (the bucket removed from good and total),
        ``transitions`` / ``transitions_without`` (status changes of the seed tracker with all
        events / without the bucket), ``transitions_caused`` (changes caused by the bucket alone,
        see the module doc), ``alerts`` / ``alerts_without`` / ``alerts_caused`` (episodes of every
        tier), ``pages`` / ``pages_without`` / ``pages_caused`` (episodes of ``"page"`` tiers).

    Examples
    --------
    >>> from budgetlab import SLO, as_events
    >>> bucket = ["success"] * 3 + ["timeout"] * 2 + ["success"] * 3  # one event a minute
    >>> ev = as_events(pd.date_range("2026-01-01", periods=8, freq="1min"),
    ...                [b == "success" for b in bucket], bucket)
    >>> t = bucket_breakdown(ev, SLO(target=0.5, window="1h"), by=None)
    >>> t[["bucket", "failures", "share_of_failures", "burn_rate", "sli", "sli_without"]]
            bucket  failures  share_of_failures  burn_rate   sli  sli_without
    0      timeout         2                1.0        0.5  0.75         1.00
    1  solve_error         0                0.0        0.0  0.75         0.75

    The second timeout makes the tracker WARNING (2 of 5 failed: burn 0.8), the eighth event
    HEALTHY again (2 of 8: burn 0.5); without timeouts it never moves:

    >>> t[["transitions", "transitions_without", "transitions_caused"]].to_dict("list")
    {'transitions': [2, 2], 'transitions_without': [0, 2], 'transitions_caused': [2, 0]}
    """
    per = as_per_group(slo)
    if per is not None:
        return per_slo_rows(events, per, by, lambda one: bucket_breakdown(events, one, by=by, policy=policy,
                                                                          freq=freq))
    slo = as_slo(slo)
    keys = check_events(events, by)
    pol = as_policy(policy, default=AlertPolicy.workbook(slo.period), period=slo.period)
    if len(events) == 0:
        raise InputError("events is empty; there is nothing to break down.")
    groups = Groups(events, keys)
    table = bucket_counts(events, slo, keys, groups=groups)
    fail_names = [str(c) for c in table["bucket"].cat.categories]
    variants = TrackerVariants(events, slo, groups)
    n_groups = groups.n_groups
    k = len(fail_names)
    tr_all = variants.transition_counts(None)
    bins = bin_events(events, freq, by=keys)
    page_tiers = [t.name for t in pol.tiers if t.severity == "page"]
    cols: dict[str, np.ndarray] = {c: np.zeros((n_groups, k), dtype=np.int64) for c in (
        "transitions_without", "transitions_caused", "alerts_without", "alerts_caused",
        "pages_without", "pages_caused")}
    ep_all = alert_episodes(bins, slo.target, pol, freq=freq)
    is_page = ep_all["tier"].astype(str).isin(page_tiers).to_numpy()
    kt = groups.key_table
    alerts = _episode_counts(ep_all, keys, kt)
    pages = _episode_counts(ep_all, keys, kt, is_page)
    for j, name in enumerate(progress(fail_names, desc="buckets")):  # a loop over buckets
        code = variants.names.index(name)
        cols["transitions_without"][:, j] = variants.transition_counts(code)
        _, grp, caused = variants.caused(code)
        cols["transitions_caused"][:, j] = np.bincount(grp[caused], minlength=n_groups)
        ep, wo = episodes_caused(bins, slo.target, pol, name, freq=freq, episodes=ep_all)
        wo_page = wo["tier"].astype(str).isin(page_tiers).to_numpy()
        cols["alerts_without"][:, j] = _episode_counts(wo, keys, kt)
        cols["alerts_caused"][:, j] = _episode_counts(ep, keys, kt, ep["caused"].to_numpy())
        cols["pages_without"][:, j] = _episode_counts(wo, keys, kt, wo_page)
        cols["pages_caused"][:, j] = _episode_counts(ep, keys, kt, is_page & ep["caused"].to_numpy())
    table["transitions"] = np.repeat(tr_all, k)
    table["transitions_without"] = cols["transitions_without"].ravel()
    table["transitions_caused"] = cols["transitions_caused"].ravel()
    table["alerts"] = np.repeat(alerts, k)
    table["alerts_without"] = cols["alerts_without"].ravel()
    table["alerts_caused"] = cols["alerts_caused"].ravel()
    table["pages"] = np.repeat(pages, k)
    table["pages_without"] = cols["pages_without"].ravel()
    table["pages_caused"] = cols["pages_caused"].ravel()
    table.attrs.update({"slo": slo, "by": list(keys), "policy": pol.name or "custom"})
    return table


def bucket_burn_over_time(
    events: pd.DataFrame,
    slo: SLO,
    *,
    freq: Any = "1h",
    by: str | Sequence[str] | None = None,
) -> pd.DataFrame:
    """Budget burn attributed to each failure bucket, per time bin (and group).

    Parameters
    ----------
    events : DataFrame
        Canonical event table.
    slo : SLO
        Its ``target`` sets the budget.
    freq : duration
        Bin width (bins aligned on the Unix epoch, as :func:`budgetlab.bin_events`).
    by : str or list of str, optional
        Group keys (default: one series).

    Returns
    -------
    DataFrame
        One row per group, bin and failure bucket, in that order: group keys, ``bin_start``
        (datetime64[ns, UTC]; the bin is ``[bin_start, bin_start + freq)``), ``bucket``,
        ``events`` (all events of the group in the bin), ``failures`` (of the bucket),
        ``burn_rate`` (failures / (events × (1 − target)); 0 in an empty bin; the buckets of a bin
        add up to its burn rate), ``budget_spent`` (failures / ((1 − target) × the group's events
        over the whole table): the share of the span's error budget this bucket spent in this
        bin; summed over bins it is the bucket's ``burn_rate`` in :func:`bucket_breakdown`).
        ``attrs`` holds ``freq``, ``by`` and ``target``.

    Examples
    --------
    >>> from budgetlab import SLO, as_events
    >>> ts = pd.to_datetime(["2026-01-01 00:10", "2026-01-01 00:20", "2026-01-01 01:30"])
    >>> ev = as_events(ts, [False, True, False], ["timeout", "success", "solve_error"])
    >>> t = bucket_burn_over_time(ev, SLO(target=0.5), freq="1h")
    >>> t[["bin_start", "bucket", "events", "failures", "burn_rate"]]
                      bin_start       bucket  events  failures  burn_rate
    0 2026-01-01 00:00:00+00:00      timeout       2         1        1.0
    1 2026-01-01 00:00:00+00:00  solve_error       2         0        0.0
    2 2026-01-01 01:00:00+00:00      timeout       1         0        0.0
    3 2026-01-01 01:00:00+00:00  solve_error       1         1        2.0
    >>> t["budget_spent"].round(4).tolist()  # 1 failure / (0.5 x 3 events in the table)
    [0.6667, 0.0, 0.0, 0.6667]
    """
    slo = as_slo(slo)
    keys = as_list(by)
    check_events(events, keys)
    if len(events) == 0:
        raise InputError("events is empty; there is nothing to bin.")
    _, names = bucket_codes(events)
    fail_names = [b for b in names if b != SUCCESS]
    # one row per group and bin (the table's contract): the full grid, sorted by group then bin_start
    bins = bin_events(events, freq, by=keys, dense=True)
    n_bins = int(bins["bin_start"].nunique())
    n_groups = len(bins) // n_bins
    total = bins["total"].to_numpy(dtype=np.int64).reshape(n_groups, n_bins)
    k = len(fail_names)
    fails = np.stack([bins[f"bad_{b}"].to_numpy(dtype=np.int64).reshape(n_groups, n_bins) for b in fail_names],
                     axis=2)  # (groups, bins, buckets); bins rows are sorted by group, then bin_start
    eb = slo.error_budget
    burn = np.zeros(fails.shape)
    np.divide(fails, (total * eb)[:, :, None], out=burn, where=total[:, :, None] > 0)
    span_events = total.sum(axis=1)
    spent = fails / (span_events * eb)[:, None, None]  # every group has events
    out = bins[keys].iloc[np.repeat(np.arange(0, len(bins), n_bins), n_bins * k)].reset_index(drop=True) \
        if keys else pd.DataFrame(index=pd.RangeIndex(n_groups * n_bins * k))
    starts = utc_ns(bins["bin_start"])
    out["bin_start"] = pd.DatetimeIndex(np.repeat(starts, k).view("datetime64[ns]")).tz_localize("UTC")
    out["bucket"] = pd.Categorical(np.tile(np.array(fail_names, dtype=object), n_groups * n_bins),
                                   categories=fail_names, ordered=True)
    out["events"] = np.repeat(total.ravel(), k)
    out["failures"] = fails.ravel()
    out["burn_rate"] = burn.ravel()
    out["budget_spent"] = spent.ravel()
    out.attrs.update({"freq": bins.attrs.get("freq"), "by": list(keys), "target": slo.target})
    return out
