"""The incident report's ``budget`` table: the incident's failures per group and their share of
the error budget of a period, that budget carried from the traffic of the whole log in the
report's scope (its first to its last event: :func:`log_traffic`), so that no display choice
(the report's ``context``) moves it: ``budgetlab demo`` and ``budgetlab incident`` give one
incident one share.

The traffic is read over each group's **sending time** (its "time with traffic"), the package's
one clock for events a day (:func:`budgetlab.replay_summary`'s ``events_per_day``,
:mod:`budgetlab.budget.sending`): from the group's first event to its last, less every gap between
two of its events longer than a day (a silence). The tracker's window does not enter it, so the
share is the same at a 1 h, 24 h or 7 d window: a scope silent for 60 h of 85 carries its 25 h of
traffic to the period, not 85 h of it.

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
from .._util.validation import utc_ns_column
from ..alerts.policy import AlertPolicy
from ..budget.sending import sending_time
from ..slo import SLO
from .bucket_variants import Groups
from .recalibration.rules import decided_miss, too_few_events

__all__ = ["budget_table", "log_traffic"]


def log_traffic(log: pd.DataFrame, groups: Groups) -> pd.DataFrame:
    """Per group of ``groups`` (in its order): its events in ``log`` (the whole log in the
    report's scope, sorted by time) and their sending time (``traffic_hours``: the group's first
    to its last event, less its gaps longer than a day, ``silences`` and ``silent_hours`` of
    them: :func:`~budgetlab.budget.sending.sending_time`, the clock of
    :func:`budgetlab.replay_summary`'s ``events_per_day``; no window in it: 4 events an hour
    apart are 4 events in 3 h at any window); ``attrs["start"]``, ``attrs["end"]``: the log's
    first to last event in ns (1 ns when the log is one instant); ``attrs["left_out_groups"]``,
    ``attrs["left_out_events"]``: the groups of ``log`` that ``groups`` does not hold (those of
    the scope that sent only outside the replayed span) and their events, left out.

    >>> from budgetlab import as_events
    >>> ev = as_events(pd.date_range("2026-01-01", periods=4, freq="h"), [True] * 4)
    >>> log_traffic(ev, Groups(ev, [])).to_dict("records")
    [{'events': 4, 'traffic_hours': 3.0, 'silences': 0, 'silent_hours': 0.0}]
    """
    t = utc_ns_column(log["ts"], "the log's ts")  # in ns whatever the unit (pandas 3: us)
    lo = int(t[0]) if len(t) else 0
    hi = max(int(t[-1]) if len(t) else 0, lo + 1)
    code = np.zeros(len(log), dtype=np.int64)
    if groups.keys and len(log):  # the log's groups matched to ``groups``' by their key values
        theirs = Groups(log, groups.keys)
        mine = pd.MultiIndex.from_frame(groups.key_table[groups.keys].astype(str))
        row = np.asarray(mine.get_indexer(pd.MultiIndex.from_frame(
            theirs.key_table[groups.keys].astype(str))), dtype=np.int64)
        code = row[theirs.code]
    keep = code >= 0  # an event of a group the report does not hold: none of its rows
    left = (int(np.unique(theirs.code[~keep]).size) if groups.keys and len(log) else 0)
    sent = sending_time(t[keep], code[keep], groups.n_groups)
    out = pd.DataFrame({"events": np.bincount(code[keep], minlength=groups.n_groups),
                        "traffic_hours": sent["sending_hours"].to_numpy(),
                        "silences": sent["pauses"].to_numpy(),
                        "silent_hours": sent["pause_hours"].to_numpy()})
    out["events"] = out["events"].astype(np.int64)
    out.attrs = {"start": lo, "end": hi, "left_out_groups": left,
                 "left_out_events": int((~keep).sum())}
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

    **Which groups.** The rows are the groups of ``groups_hist``, those sending during the
    replayed span (the incident, its context and the history before it): their traffic over the
    whole log in scope is carried to the period. A group of the scope that sent only outside
    that span (one that began sending after the incident) has no row and its traffic is left
    out: another incident of the same scope, whose span it sends in, counts it (stop 63: 1,456
    and 2,176 events a day for region=fra). ``attrs["left_out_groups"]`` and
    ``attrs["left_out_events"]`` (:func:`log_traffic`'s) count them, and the budget sentence
    names the groups it counts when any is left out.

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
    out.attrs["left_out_groups"] = int(traffic.attrs.get("left_out_groups", 0))
    out.attrs["left_out_events"] = int(traffic.attrs.get("left_out_events", 0))
    return out


def _note(out: pd.DataFrame, keys: list[str], thin: np.ndarray, few: list[str]) -> str:
    """Why the period's figures of some rows are withheld, in words (``""``: none is)."""
    said = []

    def whose(i: int) -> str:  # the row's group, when there are several
        return ("" if not keys or len(out) == 1 else
                " of " + ", ".join(f"{k}={out[k].iloc[i]}" for k in keys))

    for i in np.flatnonzero(thin).tolist():
        why = thin_words([out["log_traffic_hours"].iloc[i]], [out["log_events"].iloc[i]],
                         time="sending time in the whole log in scope",
                         figures="rates per day",
                         no_time="no sending time in the whole log in scope")[0]
        said.append(f"period_budget_pct, period_budget and period_events{whose(i)} withheld (the "
                    f"whole log's traffic in scope carried to the policy's period): {why}.")
    for i, why in enumerate(few):
        if why and not thin[i]:
            said.append(f"period_budget_pct{whose(i)} withheld: {why}.")
    return " ".join(said)
