"""The incident report's ``budget`` table: the incident's failures per group and their share of
the error budget of a period, that budget carried from the traffic of the whole log in the
report's scope (its first to its last event: :func:`log_traffic`), so that no display choice
(the report's ``context``) moves it: ``budgetlab demo`` and ``budgetlab incident`` give one
incident one share.

The traffic is read over the **time with traffic** of that span, the package's one clock for
rates per day (:func:`budgetlab.replay_summary`'s ``events_per_day`` of the scope's events):
the time the tracker's window holds at least one of the group's events
(:func:`budgetlab.status_spans`, :func:`~budgetlab.budget.spans.silences`). A silence (a gap
between two events longer than the window), and the time before the group's first event or after
its window emptied, are left out: a scope silent for 60 h of 85 carries its 25 h of traffic to
the period, not 85 h of it.

Two rules withhold the period's figures, each in words (``attrs["budget_note"]``): a rate per
day read over less than a day of time with traffic (:func:`budgetlab._util.thin.too_thin`), and
a share of the budget from an incident whose events hold fewer than
:data:`~.recalibration.rules.MIN_EXPECTED_FAILURES` expected failures under the target
(:func:`~.recalibration.rules.too_few_events`, the rule of the buckets' ``note``): one failure
in one event is no verdict on the budget; unless the failures decide a miss all the same
(:func:`~.recalibration.rules.decided_miss`: 78 of 180 events failing under 99 %), when the
share is a measured one and kept.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._util.ratios import ratio
from .._util.thin import thin_words, too_thin
from .._util.units import HOUR_NS
from ..alerts.policy import AlertPolicy
from ..budget.spans import silences, status_spans
from ..slo import SLO
from .bucket_variants import Groups
from .recalibration.rules import decided_miss, too_few_events

__all__ = ["budget_table", "log_traffic", "replayed_traffic"]


def replayed_traffic(ev: pd.DataFrame, slo: SLO, groups: Groups, lo_ns: int, hi_ns: int, *,
                     lead: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per group of ``groups`` (in its order): the time with traffic of the replayed span ``[lo_ns,
    hi_ns)`` (``traffic_hours``: the tracker's window holds at least one of the group's events),
    its ``silences`` (gaps longer than the window) and ``silent_hours`` (the time the window
    stood empty between two events), by :func:`~budgetlab.budget.spans.silences`. The window at
    ``lo_ns`` holds the events of ``lead`` (those of the window before it,
    :func:`~.incident_window.lead_events`): a sparse group's time before its first event of the
    span is traffic while its window holds an earlier one.

    >>> from budgetlab import as_events
    >>> ev = as_events(pd.to_datetime(["2026-01-01 00:00", "2026-01-01 05:00",
    ...                                "2026-01-01 05:30"], utc=True), [True] * 3)
    >>> t = replayed_traffic(ev, SLO(target=0.9, window="1h"), Groups(ev, []), 0,
    ...                      pd.Timestamp("2026-01-01 06:00", tz="UTC").value)
    >>> t.round(3).to_dict("records")  # 1 h + 1 ns after 00:00, 05:00 .. 06:00; 4 h silent
    [{'traffic_hours': 2.0, 'silences': 1, 'silent_hours': 4.0}]

    An event at 23:30 the day before, in the window at 00:00, is traffic to 00:30 + 1 ns:

    >>> lead = as_events(pd.to_datetime(["2025-12-31 23:30"], utc=True), [True])
    >>> t = replayed_traffic(ev, SLO(target=0.9, window="1h"), Groups(ev, []),
    ...                      pd.Timestamp("2026-01-01", tz="UTC").value,
    ...                      pd.Timestamp("2026-01-01 06:00", tz="UTC").value, lead=lead)
    >>> t.round(3).to_dict("records")  # 00:00 .. 01:00 + 1 ns, 05:00 .. 06:00
    [{'traffic_hours': 2.0, 'silences': 1, 'silent_hours': 4.0}]
    """
    out = pd.DataFrame({"traffic_hours": np.zeros(groups.n_groups),
                        "silences": np.zeros(groups.n_groups, dtype=np.int64),
                        "silent_hours": np.zeros(groups.n_groups)})
    if not len(ev):
        return out
    if lead is not None and len(lead):  # the window at lo_ns: earlier events, then the span's
        ev = pd.concat([lead[ev.columns], ev], ignore_index=True)
    spans = status_spans(ev, slo, by=groups.keys or None, start=pd.Timestamp(lo_ns, tz="UTC"),
                         end=pd.Timestamp(hi_ns, tz="UTC"))
    quiet = silences(spans)
    row = np.zeros(len(quiet), dtype=np.int64)
    if groups.keys:  # the codes of quiet's own groups: matched to groups' by the key values
        mine = pd.MultiIndex.from_frame(groups.key_table[groups.keys].astype(str))
        row = np.asarray(mine.get_indexer(pd.MultiIndex.from_frame(
            quiet[groups.keys].astype(str))), dtype=np.int64)
        quiet, row = quiet[row >= 0], row[row >= 0]  # a group of lead only: none of the span
    out.loc[row, "traffic_hours"] = quiet["observed_time"].array.asi8 / HOUR_NS
    out.loc[row, "silences"] = quiet["silences"].to_numpy(dtype=np.int64)
    out.loc[row, "silent_hours"] = quiet["silent_time"].array.asi8 / HOUR_NS
    return out


def log_traffic(log: pd.DataFrame, slo: SLO, groups: Groups) -> pd.DataFrame:
    """Per group of ``groups`` (in its order): its events in ``log`` (the whole log in the
    report's scope, sorted by time) and their time with traffic from the log's first to its last
    event (:func:`replayed_traffic` over ``[first, last)``, the observation of
    :func:`budgetlab.replay_summary`: 4 events an hour apart are 4 events in 3 h);
    ``attrs["start"]``, ``attrs["end"]``: that span in ns (1 ns when the log is one instant).

    >>> from budgetlab import as_events
    >>> ev = as_events(pd.date_range("2026-01-01", periods=4, freq="h"), [True] * 4)
    >>> t = log_traffic(ev, SLO(target=0.9, window="1h"), Groups(ev, []))
    >>> t.to_dict("records")
    [{'events': 4, 'traffic_hours': 3.0, 'silences': 0, 'silent_hours': 0.0}]
    """
    t = log["ts"].array.asi8
    lo = int(t[0]) if len(t) else 0
    hi = max(int(t[-1]) if len(t) else 0, lo + 1)
    out = replayed_traffic(log, slo, groups, lo, hi)
    events = np.zeros(groups.n_groups, dtype=np.int64)
    if groups.keys and len(log):  # the log's groups matched to ``groups``' by their key values
        theirs = Groups(log, groups.keys)
        mine = pd.MultiIndex.from_frame(groups.key_table[groups.keys].astype(str))
        row = np.asarray(mine.get_indexer(pd.MultiIndex.from_frame(
            theirs.key_table[groups.keys].astype(str))), dtype=np.int64)
        counts = np.bincount(theirs.code, minlength=theirs.n_groups)
        events[row[row >= 0]] = counts[row >= 0]
    elif len(log):
        events[:] = len(log)
    out.insert(0, "events", events)
    out.attrs = {"start": lo, "end": hi}
    return out


def budget_table(incident_group: np.ndarray, incident_ok: np.ndarray, groups_hist: Groups, slo: SLO,
                 policy: AlertPolicy, traffic: pd.DataFrame) -> pd.DataFrame:
    """Per group: failures during the incident and their share of the policy-period budget
    (``period``: the policy's) at the traffic of the whole log in the report's scope
    (``traffic``: :func:`log_traffic`; the columns ``log_start`` .. ``log_end``, ``log_events``,
    ``log_hours``), read over the group's time with traffic in it (``log_traffic_hours``, its
    ``log_silences`` and ``log_silent_hours`` left out); the period's figures are NaN when that
    time is under a day, ``period_budget_pct`` too when the incident's events of the group hold
    too few expected failures for a verdict and their failures decide no miss, and
    ``attrs["budget_note"]`` says why (``""`` when nothing is withheld).

    ``incident_group`` / ``incident_ok``: group code (of ``groups_hist``) and outcome of each event
    of the incident."""
    eb = slo.error_budget
    keys = groups_hist.keys
    hist_counts = traffic["events"].to_numpy(dtype=np.int64)
    n = np.bincount(incident_group, minlength=groups_hist.n_groups)
    bad = np.bincount(incident_group[~incident_ok], minlength=groups_hist.n_groups)
    out = groups_hist.key_table.copy() if keys else pd.DataFrame(
        index=pd.RangeIndex(groups_hist.n_groups))
    out["events"] = n
    out["failures"] = bad
    out["success_rate"] = ratio(n - bad, n, 1.0)
    out["burn_rate"] = ratio(bad, n * eb, 0.0)
    # to 1e-9 of a failure: 1 - 0.99 is 0.010000000000000009 in floats, so 200 events' allowance
    # is 2.0000000000000018 and 2 failures would be -1.8e-15 over it
    out["excess_failures"] = np.round(bad - eb * n, 9)
    lo, hi = int(traffic.attrs["start"]), int(traffic.attrs["end"])
    hours = traffic["traffic_hours"].to_numpy(dtype=np.float64)
    # the period's figures carry the traffic to the period, a rate per day of time with traffic:
    # withheld (NaN) under a day of it (too_thin), as the summary's words withhold them
    per_period = ratio(hist_counts * (policy.period.value / HOUR_NS), hours, np.nan)
    thin = too_thin(hours)
    # too few events, unless their failures decide a miss (a measured share of the budget)
    few = ["" if decided_miss(int(k), int(b), float(slo.target)) else
           too_few_events(int(k), slo.target, span="the group's incident")
           for k, b in zip(n.tolist(), bad.tolist(), strict=True)]
    out["period"] = policy.period  # the budget period of the three figures after it
    pct = ratio(100.0 * bad, eb * per_period, 0.0)
    out["period_budget_pct"] = np.where(thin | np.array([bool(f) for f in few]), np.nan, pct)
    out["period_budget"] = np.where(thin, np.nan, eb * per_period)
    out["period_events"] = np.where(thin, np.nan, per_period)
    out["log_start"] = pd.Timestamp(lo, tz="UTC")
    out["log_end"] = pd.Timestamp(hi, tz="UTC")
    out["log_events"] = hist_counts
    out["log_hours"] = max(hi - lo, 1) / HOUR_NS
    out["log_traffic_hours"] = hours
    out["log_silences"] = traffic["silences"].to_numpy(dtype=np.int64)
    out["log_silent_hours"] = traffic["silent_hours"].to_numpy(dtype=np.float64)
    out.attrs["budget_note"] = _note(out, keys, thin, few)
    return out


def _note(out: pd.DataFrame, keys: list[str], thin: np.ndarray, few: list[str]) -> str:
    """Why the period's figures of some rows are withheld, in words (``""``: none is)."""
    said = []

    def whose(i: int) -> str:  # the row's group, when there are several
        return ("" if not keys or len(out) == 1 else
                " of " + ", ".join(f"{k}={out[k].iloc[i]}" for k in keys))

    for i in np.flatnonzero(thin).tolist():
        why = thin_words([out["log_traffic_hours"].iloc[i]], [out["log_events"].iloc[i]],
                         time="time with traffic in the whole log in scope",
                         figures="rates per day",
                         no_time="no time with traffic in the whole log in scope")[0]
        said.append(f"period_budget_pct, period_budget and period_events{whose(i)} withheld (the "
                    f"whole log's traffic in scope carried to the policy's period): {why}.")
    for i, why in enumerate(few):
        if why and not thin[i]:
            said.append(f"period_budget_pct{whose(i)} withheld: {why}.")
    return " ".join(said)
