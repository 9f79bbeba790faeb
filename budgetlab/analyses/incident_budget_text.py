"""The incident summary's budget sentence (:mod:`budgetlab.analyses.incident_text`): the
incident's failures, its burn and its share of the error budget of a period, from the report's
``budget`` table.

The share is the failures over the budget of the period at the replayed span's traffic (each
row's ``period_budget``: ``(1 - target)`` x the events of a ``period`` at that traffic); over
several groups, their failures over the sum of their budgets. Groups whose budgets are of
different periods (per-group SLOs of 28 d and 7 d, a preset built for each) are never summed into
one period's: the share is said for each period, of its groups' failures. Read over less than a
day (``replayed_hours``, the one rule of :func:`budgetlab._util.thin.too_thin`) a share and its
events a day are withheld, in words; of several groups, when any of them is.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from .._util.burns import three_digits
from .._util.percent import measured_percent
from .._util.thin import MIN_EVALUATED_HOURS, too_thin
from .._util.words import counted, duration_words, hours_words, prose_duration
from ..alerts.policy import AlertPolicy
from ..slo import SLO
from .incident_group_words import all_groups, group_label

__all__ = ["budget_sentence"]

_NEEDS = f"a rate per day needs at least {MIN_EVALUATED_HOURS:g} h of observed time"


def budget_sentence(budget: pd.DataFrame, slo: SLO, policy: AlertPolicy,
                    duration: pd.Timedelta, *, keys: Sequence[str] = (), scope: str = "*") -> str:
    """Failures and events of the incident, its burn rate and its share of the period's budget,
    over every group of ``keys`` together (said so when there are several, within the ``scope``
    when it has one): each group's allowed failures under its own SLO are added up (``failures -
    excess_failures`` during the incident, ``period_budget`` over the period), so per-group SLOs
    are weighed by their own targets. The period is the table's ``period`` (else
    ``policy.period``); groups of different periods get a share each period (their groups'
    failures over their budgets), never one period's share of every group. The period's budget
    is the replayed span's traffic carried to the period: read over less than a day
    (``replayed_hours``) the share and the events a day are withheld, in words.

    >>> b = pd.DataFrame({"events": [40], "failures": [2], "excess_failures": [0.0],
    ...                   "period_budget": [1324.0], "period_events": [132_400.0],
    ...                   "replayed_events": [150], "replayed_hours": [47 / 60]})
    >>> print(budget_sentence(b, SLO(target=0.95, window="1h"), AlertPolicy.workbook("30D"),
    ...                       pd.Timedelta("20min")))  # doctest: +NORMALIZE_WHITESPACE
    Over its 20 min the incident saw 2 failures in 40 events (burn 1 over the incident); its
    share of a 30 d error budget is withheld, too thin to go by (that budget is the replayed
    span's traffic carried to 30 d, and a rate per day needs at least 24 h of observed time:
    the replayed span holds 150 events in 47 min).

    Two groups, 28 d and 7 d: 30 of ams's 403.2 allowed failures (0.01 x 40,320), 20 of fra's
    100.8 (0.01 x 10,080):

    >>> b = pd.DataFrame({"region": ["ams", "fra"], "events": [60, 60], "failures": [30, 20],
    ...                   "excess_failures": [29.4, 19.4],
    ...                   "period": pd.to_timedelta(["28D", "7D"]),
    ...                   "period_budget": [403.2, 100.8], "period_events": [40_320.0, 10_080.0],
    ...                   "replayed_events": [4_740, 1_788], "replayed_hours": [79.0, 29.8]})
    >>> print(budget_sentence(b, SLO(target=0.99, window="1h"), AlertPolicy.workbook("28D"),
    ...                       pd.Timedelta("1h"), keys=["region"]))
    ... # doctest: +NORMALIZE_WHITESPACE
    Over its 1 h the incident saw 50 failures in 120 events of both groups by region (burn 41.7
    over the incident); its share of the error budget is said per SLO period, each group's
    budget at its replayed span's traffic: 7.4 % of a 28 d budget for region=ams (1,440 events a
    day) and 19.8 % of a 7 d budget for region=fra (1,440 events a day).
    """
    n_ev = int(budget["events"].sum())
    n_bad = int(budget["failures"].sum())
    allowed = float((budget["failures"] - budget["excess_failures"]).sum())
    burn = (f"burn {three_digits(n_bad / allowed)} over the "
            "incident") if allowed > 0 else "no error budget to burn"
    failures = f"{n_bad:,} failure{'' if n_bad == 1 else 's'}"
    events = f"{n_ev:,} event{'' if n_ev == 1 else 's'}{all_groups(budget, keys, scope)}"
    head = f"Over its {duration_words(duration)} the incident saw {failures} in {events} ({burn})"
    periods = (pd.to_timedelta(budget["period"]).to_numpy() if "period" in budget.columns
               else np.full(len(budget), policy.period.to_timedelta64()))
    parts = [(pd.Timedelta(p), budget[periods == p]) for p in dict.fromkeys(periods)]
    if len(parts) == 1:
        share = _one_period(*parts[0], keys)
        return f"{head}{'; ' if share.startswith('its share') else ', '}{share}."
    clauses = [_of_period(p, rows, keys) for p, rows in parts]
    return (f"{head}; its share of the error budget is said per SLO period, each group's budget at "
            f"its replayed span's traffic: {', '.join(clauses[:-1])} and {clauses[-1]}.")


def _spent(rows: pd.DataFrame, period: pd.Timedelta) -> tuple[float, float]:
    """The rows' failures over their budgets of ``period`` (NaN: no budget) and their events a
    day at the replayed span's traffic."""
    budget = float(rows["period_budget"].sum())
    per_day = float(rows["period_events"].sum()) * (pd.Timedelta("1D") / period)
    return (int(rows["failures"].sum()) / budget if budget > 0 else float("nan")), per_day


def _thin_span(rows: pd.DataFrame, keys: Sequence[str]) -> str:
    """``the replayed span holds 150 events in 47 min`` when the rows' replayed span is under a
    day (of rows of several spans, the shortest: ``the shortest replayed span, region=fra's,
    holds ...``), else ``""``."""
    hours = rows["replayed_hours"].to_numpy(dtype=float)
    if not bool(too_thin(hours).any()):
        return ""
    low = float(hours.min())
    at = rows[hours == low]
    seen = counted(int(at["replayed_events"].sum()), "event")
    whose = "the replayed span"
    if len(set(hours.tolist())) > 1:  # spans of several SLOs' replays: the one too short
        who = (f"{group_label(at.iloc[0], keys)}'s" if len(at) == 1 and keys
               else f"of {counted(len(at), 'group')}")
        whose = f"the shortest replayed span ({who})"
    return f"{whose} holds {seen} in {hours_words(low)}"


def _one_period(period: pd.Timedelta, rows: pd.DataFrame, keys: Sequence[str]) -> str:
    """The share of one period's budget, of every row together, or why it is withheld."""
    words = prose_duration(period)
    thin = _thin_span(rows, keys)
    if thin:
        return (f"its share of a {words} error budget is withheld, too thin to go by (that budget "
                f"is the replayed span's traffic carried to {words}, and {_NEEDS}: {thin})")
    share, per_day = _spent(rows, period)
    if np.isnan(share):
        return f"no {words} error budget to compare with"
    return (f"{measured_percent(share, 1)} of a {words} error budget at the replayed span's "
            f"traffic ({per_day:,.0f} events a day)")


def _of_period(period: pd.Timedelta, rows: pd.DataFrame, keys: Sequence[str]) -> str:
    """One clause of several periods: ``7.4 % of a 28 d budget for region=ams (1,440 events a
    day)``, or why it is withheld."""
    words = prose_duration(period)
    label = group_label(rows.iloc[0], keys) if len(rows) == 1 else ""
    who = label or f"the {len(rows):,} groups whose SLO period is {words}"
    thin = _thin_span(rows, keys)
    if thin:
        whose = (f"{label}'s {words} budget" if label
                 else f"a {words} budget for the {len(rows):,} groups of that period")
        return f"the share of {whose} withheld, too thin to go by ({thin}, and {_NEEDS})"
    share, per_day = _spent(rows, period)
    if np.isnan(share):
        return f"no {words} error budget to compare with for {who}"
    return (f"{measured_percent(share, 1)} of a {words} budget for {who} ({per_day:,.0f} events "
            "a day)")
