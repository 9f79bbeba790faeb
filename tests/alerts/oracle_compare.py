"""Comparing a table with the oracle's (the verbatim copies of earlier implementations), where the
current API differs from them on purpose, each difference stated and checked."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pandas as pd

from budgetlab._util.validation import utc_from_ns
from budgetlab.alerts.score_table import DURATION_COLUMNS


def assert_same_as_oracle(got: pd.DataFrame, want: pd.DataFrame) -> None:
    """``got`` equals the oracle table ``want``: exactly, except (1) the score table's duration
    columns are always timedelta64[ns], (2) its rates per day are over observed time (checked here
    against the oracle's counts and ``observed_days``; observed_days itself by a loop in
    tests/alerts/test_observed_time.py) and withheld (NaN, a ``rates_note`` saying why) under one
    day of it, (3) the tables record more in attrs (:data:`ADDED_ATTRS`), (4) the score tables
    record ``incidents_outside`` in attrs (incidents wholly outside the grid, not scored; the oracle
    scored every incident, so the count must be 0 for the tables to be equal), (5) they record
    ``budget_note`` in attrs (why budget_before_alert is withheld, when the period is longer than
    the span; the oracle never withheld it, so the note must be empty), (7) they count apart the
    incidents no alert matched during which the long window held no traffic (``unseen``, stop 57:
    the oracle counted them missed): ``oracle_score_alerts`` and ``oracle_incident_detections``
    add them to the oracle's tables by a loop of their own (:func:`_with_unseen`), (8) they count
    apart the incidents whose first matching alert began before them (``already_firing``, f62:
    the oracle counted them detected in 0 s): :func:`_with_already` applies the rule to the
    oracle's own matches, (9) on a merged-tier row (tier ``*``) an incident is detected when a
    member tier not already firing at its start fires during it, by the first such alert (f62;
    the oracle read the merged episodes: an incident begun under a slow tier's long episode was
    already firing though a fast tier paged for it): :func:`_merged_by_tier`."""
    # the oracle built its table from dicts: a duration column without any detection came out as
    # all-NaT datetime64[s]; the columnar table keeps it timedelta64[ns] (NaT): the same values
    want = want.copy()
    for col in DURATION_COLUMNS:
        if col in want.columns and want[col].dtype.kind == "M" and bool(want[col].isna().all()):
            want[col] = pd.Series(pd.NaT, index=want.index, dtype="timedelta64[ns]")
    if "observed_days" in got.columns and "observed_days" not in want.columns:
        # rates per day are over observed time now (tests/alerts/test_observed_time.py checks
        # observed_days by a loop); the oracle's rates were over the whole span: rescaled here
        days = got["observed_days"].to_numpy()
        # under one day (24 h) of observed time a rate per day or week is withheld
        thin = ~(days >= 1.0)
        with np.errstate(divide="ignore", invalid="ignore"):
            rates = {
                "alerts_per_day": want["episodes"].to_numpy() / days,
                "false_alerts_per_week": (want["episodes"] - want["true_episodes"]).to_numpy()
                / (days / 7),
            }
        for col, values in rates.items():
            np.testing.assert_allclose(got[col].to_numpy(), np.where(thin, np.nan, values),
                                       rtol=1e-12, atol=0)
        np.testing.assert_array_equal(got["rates_note"].to_numpy() != "", thin)
        got = got.drop(columns=[*rates, "observed_days", "rates_note"])
        want = want.drop(columns=list(rates))
    pd.testing.assert_frame_equal(got, want, check_exact=True)
    assert got.attrs.get("incidents_outside", 0) == 0
    assert got.attrs.get("budget_note", "") == ""
    assert_oracle_attrs(got, want)


#: attrs keys the current tables record beyond the oracles': ``tier_windows``,
#: ``cannot_fire_note`` and ``cannot_fire`` (alert_episodes, carried on by the score tables),
#: ``incidents_outside`` and ``budget_note`` (the score tables), and what every table on the bin
#: grid records of how it was made (budgetlab/budget/grid_attrs.py; checked by hand in
#: tests/test_attrs_json.py): the SLO, group keys, bin width and edges, the options, and the
#: score tables' options and incidents' span (alerts/score_table.py score_attrs), and which
#: incidents the score tables left unseen (``unseen_incidents``, stop 59) and how they read the
#: incidents' scopes (``scope_note``, stop 59)
ADDED_ATTRS = ("tier_windows", "incidents_outside", "budget_note", "slo", "by", "freq",
               "grid_start", "grid_end", "freq_ns", "tiers", "windows", "at", "fill", "period",
               "calendar", "tz", "burn_window", "slice_window", "slice_target", "grace",
               "filling", "incidents_start", "incidents_end", "policies", "cannot_fire_note",
               "cannot_fire", "unseen_note", "unseen_incidents", "scope_note",
               # what the counts leave out (stop 59: the tables name their exclusions)
               "exclude_buckets", "exclude_windows", "exclude_mode",
               # where each group's long windows fill afresh (its traffic's stretches)
               "stretches")


def assert_oracle_attrs(got: pd.DataFrame, want: pd.DataFrame) -> None:
    """``got``'s attrs are the oracle's, but for keys of :data:`ADDED_ATTRS` the oracle lacks (a
    key the oracle has keeps its value)."""
    assert {k: v for k, v in got.attrs.items()
            if k not in ADDED_ATTRS or k in want.attrs} == want.attrs


def _resets_withheld(want: pd.DataFrame, episodes: pd.DataFrame, incidents: pd.DataFrame,
                     **kw) -> pd.DataFrame:
    """The oracle's table with difference (6): a reset is withheld (NaT) where the alert that
    detected an incident still fired at the last evaluation (its ``end`` is where the evaluation
    stopped: ``ongoing``); the oracle counted that end as the reset. Which
    incidents: the oracle's own detections whose last alert ends at or after the ongoing
    episodes' end; a score row with any of them withholds its reset_median and reset_max."""
    if "ongoing" not in episodes.columns or not bool(episodes["ongoing"].any()):
        return want
    # the oracle, which does not read `ongoing`, tells ongoing episodes apart by their end; on a
    # copy whose ongoing ends lie 1 ns later, no closed episode can share it (its matches are the
    # same: every scored incident starts before the grid's end)
    ongoing = episodes["ongoing"].to_numpy(dtype=bool)
    shifted = episodes.copy()
    end = shifted["end"].copy()
    end[ongoing] = end[ongoing] + pd.Timedelta(1, unit="ns")
    shifted["end"] = end
    open_end = shifted.loc[ongoing, "end"].min()
    want = want.copy()
    if "reset_time" in want.columns:  # the oracle's detections table itself: its rows, its order
        from tests.alerts import oracle_scoring

        marks = oracle_scoring.incident_detections(shifted, incidents, **kw)
        unknown = (marks["detected"] & (marks["last_alert_end"] >= open_end)).to_numpy(dtype=bool)
        want.loc[unknown, "reset_time"] = pd.NaT
        return want
    labels, rows = _rows_with_ongoing_detections(shifted, incidents, int(open_end.value), **kw)
    hit = np.array([r in rows for r in want[labels].astype(str).itertuples(index=False,
                                                                            name=None)],
                   dtype=bool)
    for col in ("reset_median", "reset_max"):
        want[col] = want[col].where(~hit, pd.NaT)
    return want


def _rows_with_ongoing_detections(episodes: pd.DataFrame, incidents: pd.DataFrame,
                                  open_end_ns: int, *, grace: Any = "1h",
                                  bins: Any = None, target: Any = None, period: Any = None,
                                  policy: Any = None,
                                  **options: Any) -> tuple[list[str], set[tuple[str, ...]]]:
    """The label columns of a score row (group keys, tier, severity) and the rows whose incidents
    include one detected by an alert ending at or after ``open_end_ns``: the oracle's own
    matches, group by group and tier by tier (``_Context.match``, what the oracle's
    ``incident_detections`` puts in a table, one DataFrame per group and tier: 250 s on 2,000
    groups, where the matches alone take seconds). The keyword defaults are the oracle's."""
    from tests.alerts import oracle_scoring

    ctx = oracle_scoring._Context(episodes, incidents, grace=grace, bins=bins, target=target,
                                  period=period, policy=policy, options=options)
    rows = set()
    for group, tier, severity, gidx, tidx in ctx.selections():
        m = ctx.match(gidx, tidx)
        if bool((m.detected & (m.last >= open_end_ns)).any()):
            rows.add((*group.values(), tier, severity))
    return [*ctx.by, "tier", "severity"], rows


def _unseen_flags(episodes: pd.DataFrame, incidents: pd.DataFrame, *, grace: Any = "1h",
                  bins: Any = None, target: Any = None, period: Any = None, policy: Any = None,
                  **options: Any) -> list[np.ndarray]:
    """Per row of the oracle's tables (its ``selections``, in order), per incident of the row: no
    episode matched it (the oracle's own matches) and at no evaluation ``t`` (bin end) whose
    status holds over ``[t, t + freq)`` overlapping ``[start, end + grace)`` did the row's long
    window (the longest of its tiers) hold an event of a group of the incident's scope: the rule
    of budgetlab/alerts/unseen.py, from the dense bins by plain sums. Without bins (or a long
    window unknown) none."""
    from tests.alerts import oracle_scoring

    ctx = oracle_scoring._Context(episodes, incidents, grace=grace, bins=bins, target=target,
                                  period=period, policy=policy, options=options)
    names = [t for t, _ in ctx.tiers]
    windows = ({t.name: int(t.long_window.value) for t in policy.tiers} if policy is not None
               else episodes.attrs.get("tier_windows") or {})
    out, cache = [], {}
    for _, _, _, gidx, tidx in ctx.selections():
        m = ctx.match(gidx, tidx)
        flags = np.zeros(len(m.incidents), dtype=bool)
        longs = [windows.get(names[t]) for t in tidx]
        if ctx.grid is not None and all(w for w in longs):
            g = ctx.grid
            k = -(-max(longs) // g.freq_ns)
            t_end = g.bin_end_ns
            if k not in cache:  # events in the k bins up to each bin end, per group
                run = np.zeros((g.n_groups, g.n_bins + 1))
                np.cumsum(g.total, axis=1, out=run[:, 1:])
                lo_bin = np.maximum(np.arange(g.n_bins) - k + 1, 0)
                cache[k] = run[:, 1:] - run[:, lo_bin] > 0
            held = cache[k]
            for n, i in enumerate(m.incidents.tolist()):
                lo, hi = ctx.inc_start[i], ctx.inc_end[i] + ctx.grace_ns
                at = (t_end < hi) & (t_end + g.freq_ns > lo)
                scope = gidx[ctx.inc_match[i, gidx]]
                flags[n] = not m.detected[n] and not held[np.ix_(scope, at)].any()
        out.append(flags)
    return out


def _with_unseen(want: pd.DataFrame, flags: list[np.ndarray]) -> pd.DataFrame:
    """The oracle's table with difference (7): an ``unseen`` column after ``detected`` (per row
    of a score table the count, and ``recall`` over the incidents seen; per incident of a
    detections table the flag)."""
    want = want.copy()
    if "reset_time" in want.columns:  # detections: one row per incident of each selection
        want.insert(int(want.columns.get_loc("detected")) + 1, "unseen",
                    np.concatenate(flags) if flags else np.zeros(0, dtype=bool))
        return want
    unseen = np.array([int(f.sum()) for f in flags], dtype=np.int64)
    want.insert(int(want.columns.get_loc("detected")) + 1, "unseen", unseen)
    seen = want["incidents"].to_numpy() - unseen
    with np.errstate(divide="ignore", invalid="ignore"):
        want["recall"] = np.where(seen > 0, want["detected"].to_numpy() / seen, np.nan)
    return want


def _already_matches(episodes: pd.DataFrame, incidents: pd.DataFrame, *, grace: Any = "1h",
                     bins: Any = None, target: Any = None, period: Any = None, policy: Any = None,
                     **options: Any) -> list[Any]:
    """Per row of the oracle's tables (its ``selections``, in order): the oracle's own matches
    (``_Context.match``) and its incidents' starts, for :func:`_with_already`."""
    from tests.alerts import oracle_scoring

    ctx = oracle_scoring._Context(episodes, incidents, grace=grace, bins=bins, target=target,
                                  period=period, policy=policy, options=options)
    out = []
    for _, _, _, gidx, tidx in ctx.selections():
        m = ctx.match(gidx, tidx)
        start = ctx.inc_start[m.incidents]
        if len(tidx) > 1:  # difference (9): a merged row per member tier
            m = _merged_by_tier(m, start, [ctx.match(gidx, [t]) for t in tidx])
        out.append((m, start))
    return out


def _merged_by_tier(m: Any, start: np.ndarray, per_tier: list[Any]) -> Any:
    """Difference (9): the oracle's match ``m`` of a merged-tier row, detected per member tier
    (the oracle's own matches of each tier, ``per_tier``): an incident some tier not already
    firing at its start (``first >= start``) fired during is detected by the first such tier
    alert (its first alert, detection time and budget before alert are that tier's); the others
    keep the merged episodes' first alert (before the start when already firing)."""
    never = np.iinfo(np.int64).max
    best = np.full(len(start), never, dtype=np.int64)
    pct = None if m.budget_pct is None else m.budget_pct.copy()
    for t in per_tier:
        take = t.detected & (t.first >= start) & (t.first < best)
        best = np.where(take, t.first, best)
        if pct is not None:
            pct = np.where(take, t.budget_pct, pct)
    fresh = best < never
    return dataclasses.replace(m, first=np.where(fresh, best, m.first),
                               detection=np.where(fresh, best - start, m.detection),
                               budget_pct=pct)


def _with_already(want: pd.DataFrame, matches: list[Any]) -> pd.DataFrame:
    """The oracle's table (with its ``unseen`` column) with difference (8): an incident the
    oracle detected by an episode that began before the incident's start (``first < start``) is
    ``already_firing``, not detected: per incident of a detections table ``detected`` False,
    ``detection_time`` NaT and an ``already_firing`` flag after ``unseen``; per row of a score
    table the count after ``unseen``, ``detected`` without them, ``recall`` over ``incidents -
    unseen - already_firing``, the detection median and max and the budget before alert over the
    others (the oracle's own values and medians); the resets as the oracle counts them (every
    detected incident)."""
    want = want.copy()
    flags = [m.detected & (m.first < start) for m, start in matches]
    if "reset_time" in want.columns:
        already = np.concatenate(flags) if flags else np.zeros(0, dtype=bool)
        want["detected"] = want["detected"].to_numpy() & ~already
        want["detection_time"] = want["detection_time"].where(~already, pd.NaT)
        want.insert(int(want.columns.get_loc("unseen")) + 1, "already_firing", already)
        if matches:  # difference (9) on merged rows: the first alert that detected it
            m_all = [m for m, _ in matches]
            want["first_alert"] = utc_from_ns(np.concatenate([m.first for m in m_all]))
            caused = want["detected"].to_numpy()
            detection = np.concatenate([m.detection for m in m_all])
            want["detection_time"] = pd.to_timedelta(
                np.where(caused, detection, np.iinfo(np.int64).min).view("timedelta64[ns]"))
            if "budget_before_alert_pct" in want.columns:
                want["budget_before_alert_pct"] = np.concatenate([m.budget_pct for m in m_all])
        return want
    n_already = np.array([int(f.sum()) for f in flags], dtype=np.int64)
    want.insert(int(want.columns.get_loc("unseen")) + 1, "already_firing", n_already)
    want["detected"] = want["detected"].to_numpy() - n_already
    counted = want["incidents"].to_numpy() - want["unseen"].to_numpy() - n_already
    with np.errstate(divide="ignore", invalid="ignore"):
        want["recall"] = np.where(counted > 0, want["detected"].to_numpy() / counted, np.nan)
    for row, ((m, _), already) in enumerate(zip(matches, flags, strict=True)):
        caused = m.detected & ~already
        d = m.detection[caused]
        at = want.index[row]
        want.at[at, "detection_median"] = (pd.Timedelta(int(np.median(d)), unit="ns") if len(d)
                                           else pd.NaT)
        want.at[at, "detection_max"] = pd.Timedelta(int(d.max()), unit="ns") if len(d) else pd.NaT
        if m.budget_pct is not None:
            p = m.budget_pct[caused]
            want.at[at, "budget_before_alert_median"] = float(np.median(p)) if len(p) else np.nan
            want.at[at, "budget_before_alert_max"] = float(p.max()) if len(p) else np.nan
    return want


def oracle_score_alerts(episodes: pd.DataFrame, incidents: pd.DataFrame, **kw) -> pd.DataFrame:
    """The oracle's score table, resets as the current rule withholds them (difference 6), with
    the unseen incidents apart (difference 7) and those already alerted on (difference 8)."""
    from tests.alerts import oracle_scoring

    want = _resets_withheld(oracle_scoring.score_alerts(episodes, incidents, **kw), episodes,
                            incidents, **kw)
    want = _with_unseen(want, _unseen_flags(episodes, incidents, **kw))
    return _with_already(want, _already_matches(episodes, incidents, **kw))


def oracle_incident_detections(episodes: pd.DataFrame, incidents: pd.DataFrame,
                               **kw) -> pd.DataFrame:
    """The oracle's detections, resets as the current rule withholds them (difference 6), with
    the unseen incidents marked (difference 7) and those already alerted on (difference 8)."""
    from tests.alerts import oracle_scoring

    want = _resets_withheld(oracle_scoring.incident_detections(episodes, incidents, **kw),
                            episodes, incidents, **kw)
    want = _with_unseen(want, _unseen_flags(episodes, incidents, **kw))
    return _with_already(want, _already_matches(episodes, incidents, **kw))


def oracle_alert_episodes(bins: Any, target: Any, policy: Any, **options: Any) -> pd.DataFrame:
    """The oracle's episodes (tests/alerts/oracle_episodes.py, a verbatim copy), as they are: an
    episode still firing at the last evaluation ends one step after it in both."""
    from tests.alerts import oracle_episodes

    return oracle_episodes.alert_episodes(bins, target, policy, **options)
