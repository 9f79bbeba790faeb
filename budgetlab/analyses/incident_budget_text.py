"""The incident summary's budget sentence (:mod:`budgetlab.analyses.incident_text`): the
incident's failures, its burn and its share of the error budget of a period, from the report's
``budget`` table (:mod:`budgetlab.analyses.incident_budget`).

The share is the failures over the budget of the period at the traffic of the whole log in the
report's scope (each row's ``period_budget``: ``(1 - target)`` x the events of a ``period`` at
that traffic, read over the log's time with traffic: its silences left out), which no display
choice (the report's context) moves; over several groups, their failures over the sum of their
budgets. The sentence names the span (``log_start`` .. ``log_end``), the hours with traffic the
events a day are read over and what they leave out. Groups whose
budgets are of different periods (per-group SLOs of 28 d and 7 d, a preset built for each) are
never summed into one period's: the share is said for each period, of its groups' failures. A
share is withheld, in words, when the incident's events hold too few expected failures for a
verdict (the rule of the buckets' ``note``, as the summary's rate without timeouts), and the burn
over the incident with it, for the same reason (both are judged against the target: 1 failure in
229 events under 99.9 % is no burn of 4.37 to go by); and with its events a day when they are
read over less than a day of time with traffic (``log_traffic_hours``, the one rule of
:func:`budgetlab._util.thin.too_thin`); of several groups, when any of them is.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from .._util.burns import expected_failures_words, three_digits
from .._util.percent import given_fraction, measured_percent
from .._util.thin import MIN_EVALUATED_HOURS, too_thin
from .._util.words import counted, duration_words, hours_words, prose_duration
from ..alerts.policy import AlertPolicy
from ..budget.sending import SENDING_WORDS
from ..slo import SLO
from .incident_group_words import all_groups, group_label, no_event_labels
from .recalibration.rules import MIN_EXPECTED_FAILURES, decided_miss, too_few_events

__all__ = ["LOG_SPAN", "budget_sentence", "over_words"]

#: The columns that say a row's time with traffic and what it leaves out of the log in scope.
_TRAFFIC = ("log_traffic_hours", "log_silences", "log_silent_hours")

#: What the budget's traffic is read over: the whole log in the report's scope, first to last
#: event, whatever the report's context.
LOG_SPAN = "the whole log in scope"

_NEEDS = f"a rate per day needs at least {MIN_EVALUATED_HOURS:g} h of sending time"


def budget_sentence(budget: pd.DataFrame, slo: SLO, policy: AlertPolicy,
                    duration: pd.Timedelta, *, keys: Sequence[str] = (), scope: str = "*",
                    tz: str = "UTC", in_log: tuple[pd.Timedelta, str] | None = None,
                    groups_said: bool = False) -> str:
    """Failures and events of the incident, its burn rate and its share of the period's budget,
    over every group of ``keys`` together (said so when there are several, within the ``scope``
    when it has one): each group's allowed failures under its own SLO are added up (``failures -
    excess_failures`` during the incident, ``period_budget`` over the period), so per-group SLOs
    are weighed by their own targets. The period is the table's ``period`` (else
    ``policy.period``); groups of different periods get a share each period (their groups'
    failures over their budgets), never one period's share of every group. The period's budget
    is the traffic of the whole log in scope carried to the period, over its time with traffic:
    read over less than a day of it (``log_traffic_hours``) the share and the events a day are
    withheld, in words; the share and the burn over the incident when the incident's events hold
    fewer than 10 expected failures, said once with that reason (``tz``: the clock the span is
    said on). The events and failures are counted over the part of the incident in the log:
    ``in_log`` (its length and where the log cuts it: ``"to 21:59"``) when the log starts or ends
    inside the incident, said so (``Over the 2 h of its 6 h in the log (to 21:59)``).
    ``groups_said``: an earlier sentence named the groups without an event (they are "the same"
    groups here). The traffic is of the table's groups, those sending during the replayed span:
    when the scope holds others (``attrs["left_out_groups"]``: they sent only outside it) the
    sentence names the groups it counts and the ones left out (before stop 63 it did not, and
    two incidents of one scope read 1,456 and 2,176 events a day unexplained).

    >>> b = pd.DataFrame({"events": [229], "failures": [1], "excess_failures": [0.771],
    ...                   "period_budget": [43.2], "period_events": [43_200.0],
    ...                   "log_events": [229], "log_hours": [30.0],
    ...                   "log_traffic_hours": [30.0]})
    >>> print(budget_sentence(b, SLO(target=0.999, window="1h"), AlertPolicy.workbook("30D"),
    ...                       pd.Timedelta("2h")))  # doctest: +NORMALIZE_WHITESPACE
    Over its 2 h the incident saw 1 failure in 229 events; its burn over the incident and its
    share of a 30 d error budget are withheld (the incident's 229 events hold 0.229 expected
    failures under the target: too few for a verdict, one needs at least 10).

    >>> b = pd.DataFrame({"events": [400], "failures": [20], "excess_failures": [0.0],
    ...                   "period_budget": [6620.0], "period_events": [132_400.0],
    ...                   "log_events": [450], "log_hours": [47 / 60],
    ...                   "log_traffic_hours": [47 / 60]})
    >>> print(budget_sentence(b, SLO(target=0.95, window="1h"), AlertPolicy.workbook("30D"),
    ...                       pd.Timedelta("20min")))  # doctest: +NORMALIZE_WHITESPACE
    Over its 20 min the incident saw 20 failures in 400 events (burn 1 over the incident); its
    share of a 30 d error budget is withheld, too thin to go by (that budget is the traffic of
    the whole log in scope carried to 30 d, and a rate per day needs at least 24 h of sending
    time: the whole log in scope holds 450 events in 47 min of sending time).

    Two groups, 28 d and 7 d, target 80 %: 30 of ams's 8,064 allowed failures (0.2 x 40,320), 20
    of fra's 2,016 (0.2 x 10,080); the incident's 120 events hold 24 expected failures:

    >>> t = pd.Timestamp("2026-01-08 07:00", tz="UTC")
    >>> b = pd.DataFrame({"region": ["ams", "fra"], "events": [60, 60], "failures": [30, 20],
    ...                   "excess_failures": [18.0, 8.0],
    ...                   "period": pd.to_timedelta(["28D", "7D"]),
    ...                   "period_budget": [8_064.0, 2_016.0],
    ...                   "period_events": [40_320.0, 10_080.0],
    ...                   "log_start": [t - pd.Timedelta("79h")] * 2, "log_end": [t, t],
    ...                   "log_events": [4_740, 1_788], "log_hours": [79.0, 79.0],
    ...                   "log_traffic_hours": [79.0, 29.8],
    ...                   "log_silences": [0, 0], "log_silent_hours": [0.0, 0.0]})
    >>> print(budget_sentence(b, SLO(target=0.8, window="1h"), AlertPolicy.workbook("28D"),
    ...                       pd.Timedelta("1h"), keys=["region"]))
    ... # doctest: +NORMALIZE_WHITESPACE
    Over its 1 h the incident saw 50 failures in 120 events of both groups by region (burn 2.08
    over the incident); its share of the error budget is said per SLO period: 0.4 % of a 28 d
    budget for region=ams at the traffic of the whole log in scope, 2026-01-05 00:00 ..
    2026-01-08 07:00 UTC (1,440 events a day over its 79 h of sending time, first to last event
    less gaps over 24 h) and 1.0 % of a 7 d budget for region=fra at the traffic of the whole log
    in scope, 2026-01-05 00:00 .. 2026-01-08 07:00 UTC (1,440 events a day over its 29 h 48 min
    of sending time, first to last event less gaps over 24 h; 49 h 12 min before its first event
    or after its last left out).
    """
    n_ev = int(budget["events"].sum())
    n_bad = int(budget["failures"].sum())
    allowed = float((budget["failures"] - budget["excess_failures"]).sum())
    failures = f"{n_bad:,} failure{'' if n_bad == 1 else 's'}"
    # every group of the report, those without an event in the incident named
    seen = budget[budget["events"] > 0] if keys else budget
    groups = all_groups(seen, keys, scope, of=len(budget), none=no_event_labels(budget, keys),
                        again=groups_said)
    events = f"{n_ev:,} event{'' if n_ev == 1 else 's'}{groups}"
    head = f"{over_words(duration, in_log)} the incident saw {failures} in {events}"
    periods = (pd.to_timedelta(budget["period"]).to_numpy() if "period" in budget.columns
               else np.full(len(budget), policy.period.to_timedelta64()))
    parts = [(pd.Timedelta(p), budget[periods == p]) for p in dict.fromkeys(periods)]
    # the burn is judged against the target as the share is: withheld by the same rule, in the
    # same words (too few expected failures: every period's share is withheld too)
    few = _few_failures(budget, slo.target) if allowed > 0 else ""
    if few:
        whose = (f"a {prose_duration(parts[0][0])} error budget" if len(parts) == 1
                 else "the error budget")
        return f"{head}; its burn over the incident and its share of {whose} are withheld ({few})."
    burn = (f"burn {three_digits(n_bad / allowed)} over the incident" if allowed > 0
            else "no error budget to burn")
    # one bracket, not two in a row, after the groups without an event
    head = f"{head[:-1]}; {burn})" if head.endswith(")") else f"{head} ({burn})"
    decided = (_decided(budget) if allowed > 0 else "") + _left_out_words(budget)
    if len(parts) == 1:
        share = _one_period(*parts[0], keys, slo.target, tz)
        return f"{head}{'; ' if share.startswith('its share') else ', '}{share}{decided}."
    clauses = [_of_period(p, rows, keys, slo.target, tz) for p, rows in parts]
    return (f"{head}; its share of the error budget is said per SLO period: "
            f"{', '.join(clauses[:-1])} and {clauses[-1]}{decided}.")


def _left_out_words(budget: pd.DataFrame) -> str:
    """``; that traffic is of the 2 groups sending during the replayed span, ...``: the groups
    the budget counts when the scope holds groups that sent only outside it (``""``: none)."""
    left = int(budget.attrs.get("left_out_groups", 0))
    if not left:
        return ""
    events = counted(int(budget.attrs.get("left_out_events", 0)), "event")
    return (f"; that traffic is of the {counted(len(budget), 'group')} sending during the "
            f"replayed span (the incident, its context and history), {counted(left, 'other group')}"
            f" of the scope, sending only outside it ({events}), left out")


def over_words(duration: pd.Timedelta, in_log: tuple[pd.Timedelta, str] | None) -> str:
    """``Over its 6 h``; when the log holds only part of the incident (``in_log``: that part's
    length, and where the log cuts it), that part, said so.

    >>> over_words(pd.Timedelta("6h"), (pd.Timedelta("2h"), "to 21:59"))
    'Over the 2 h of its 6 h in the log (to 21:59)'
    """
    if in_log is None:
        return f"Over its {duration_words(duration)}"
    return (f"Over the {duration_words(in_log[0])} of its {duration_words(duration)} in the log "
            f"({in_log[1]})")


def _thin_span(rows: pd.DataFrame, keys: Sequence[str]) -> str:
    """``the whole log in scope holds 150 events in 47 min with traffic`` when the rows' time
    with traffic is under a day (of rows of several, the shortest: ``the whole log in scope of
    region=fra (the least time with traffic) holds ...``), else ``""``."""
    hours = _traffic_hours(rows)
    if not bool(too_thin(hours).any()):
        return ""
    low = float(hours.min())
    at = rows[hours == low]
    seen = counted(int(at["log_events"].sum()), "event")
    whose = LOG_SPAN
    if len(set(hours.tolist())) > 1:  # several groups' times with traffic: the one too short
        who = (group_label(at.iloc[0], keys) if len(at) == 1 and keys
               else counted(len(at), 'group'))
        whose = f"{LOG_SPAN} of {who} (the least sending time)"
    return f"{whose} holds {seen} in {hours_words(low)} of sending time"


def _withheld(rows: pd.DataFrame, keys: Sequence[str], target: float, span: str,
              words: str) -> str:
    """Why the rows' share of the budget is withheld, in words: too few expected failures in the
    incident's events, or under a day of time with traffic in ``span`` to carry to the period
    (``""``: neither)."""
    few = _few_failures(rows, target)
    if few:
        return f"({few})"
    thin = _thin_span(rows, keys)
    if thin:
        return (f"too thin to go by (that budget is the traffic of {span} carried to {words}, "
                f"and {_NEEDS}: {thin})")
    return ""


def _comma(why: str) -> str:
    """``","`` before a reason in words, ``""`` before one in parentheses."""
    return "" if why.startswith("(") else ","


def _one_period(period: pd.Timedelta, rows: pd.DataFrame, keys: Sequence[str], target: float,
                tz: str) -> str:
    """The share of one period's budget, of every row together, or why it is withheld."""
    words = prose_duration(period)
    why = _withheld(rows, keys, target, _span_words(rows, tz), words)
    if why:
        return f"its share of a {words} error budget is withheld{_comma(why)} {why}"
    share, per_day = _spent(rows, period)
    if np.isnan(share):
        return f"no {words} error budget to compare with"
    return (f"{measured_percent(share, 1)} of a {words} error budget at "
            f"{_traffic_words(rows, per_day, tz)}")


def _of_period(period: pd.Timedelta, rows: pd.DataFrame, keys: Sequence[str], target: float,
               tz: str) -> str:
    """One clause of several periods: ``7.4 % of a 28 d budget for region=ams at the traffic of
    ... (1,440 events a day ...)``, or why it is withheld."""
    words = prose_duration(period)
    label = group_label(rows.iloc[0], keys) if len(rows) == 1 else ""
    who = label or f"the {len(rows):,} groups whose SLO period is {words}"
    why = _withheld(rows, keys, target, _span_words(rows, tz), words)
    if why:
        whose = (f"{label}'s {words} budget" if label
                 else f"a {words} budget for the {len(rows):,} groups of that period")
        return f"the share of {whose} withheld{_comma(why)} {why}"
    share, per_day = _spent(rows, period)
    if np.isnan(share):
        return f"no {words} error budget to compare with for {who}"
    return (f"{measured_percent(share, 1)} of a {words} budget for {who} at "
            f"{_traffic_words(rows, per_day, tz)}")


def _spent(rows: pd.DataFrame, period: pd.Timedelta) -> tuple[float, float]:
    """The rows' failures over their budgets of ``period`` (NaN: no budget) and their events a
    day at the traffic of the whole log in scope (each row's over its time with traffic)."""
    budget = float(rows["period_budget"].sum())
    per_day = float(rows["period_events"].sum()) * (pd.Timedelta("1D") / period)
    return (int(rows["failures"].sum()) / budget if budget > 0 else float("nan")), per_day


def _traffic_hours(rows: pd.DataFrame) -> np.ndarray:
    """Each row's time with traffic in the whole log in scope, in hours (a table made by hand
    without ``log_traffic_hours``: its ``log_hours``)."""
    col = "log_traffic_hours" if "log_traffic_hours" in rows.columns else "log_hours"
    return rows[col].to_numpy(dtype=float)


def _decided(rows: pd.DataFrame) -> str:
    """``; the incident's 180 events hold 1.8 expected failures under the target, too few for a
    verdict, but the failures decide it: missed: ...`` when the rows' events are too few and their
    failures decide a miss (:func:`~.recalibration.rules.decided_miss`, under their targets' mean
    weighted by events); ``""`` otherwise."""
    n = int(rows["events"].sum())
    expected = float((rows["failures"] - rows["excess_failures"]).sum())
    miss = decided_miss(n, int(rows["failures"].sum()), _mean_target(n, expected)) if n else ""
    if not miss:
        return ""
    return (f"; the incident's {counted(n, 'event')} {'holds' if n == 1 else 'hold'} "
            f"{expected_failures_words(expected)} under the target, too few for a verdict, but "
            f"the failures decide it: {miss}")


def _mean_target(events: int, expected: float) -> float:
    """The rows' targets' mean weighted by their ``events``, from the failures they allow
    (``expected``: ``(1 - target)`` x events summed), as written: the float noise of ``1 - (1 -
    target)`` dropped (:func:`~budgetlab._util.percent.given_fraction`), so that 680 events under
    0.999 are said "a service at 99.9 %", never 99.90000000000001 %.

    >>> _mean_target(680, 0.68 + 1e-16), _mean_target(200, 0.1 * 100 + 0.05 * 100)
    (0.999, 0.925)
    """
    return float(given_fraction(1.0 - expected / events))


def _few_failures(rows: pd.DataFrame, target: float) -> str:
    """Why the rows' incident events are too few for a verdict on their share (the rule of the
    buckets' note, :func:`~.recalibration.rules.too_few_events`, under their targets' mean
    weighted by events, as the bucket sentence's), in its words; ``""`` when they are enough, or
    when their failures decide a miss all the same (:func:`_decided`)."""
    n = int(rows["events"].sum())
    expected = float((rows["failures"] - rows["excess_failures"]).sum())
    if not too_few_events(n, _mean_target(n, expected) if n else target) or _decided(rows):
        return ""
    return (f"the incident's {counted(n, 'event')} {'holds' if n == 1 else 'hold'} "
            f"{expected_failures_words(expected)} under the target: too few for a verdict, "
            f"one needs at least {MIN_EXPECTED_FAILURES}")


def _span_words(rows: pd.DataFrame, tz: str) -> str:
    """``the whole log in scope, 2026-10-04 00:00 .. 2026-10-11 07:00 UTC``: the rows' log span
    (:data:`LOG_SPAN`, ``log_start`` .. ``log_end``, its first to its last event: no display
    choice moves it) on the clock of ``tz`` to the minute (its end without the date on the same
    day; :data:`LOG_SPAN` alone when the rows have several, or none is said)."""
    if not {"log_start", "log_end"} <= set(rows.columns):
        return LOG_SPAN
    ends = rows[["log_start", "log_end"]].drop_duplicates()
    if len(ends) != 1:
        return LOG_SPAN
    lo, hi = (pd.Timestamp(t).tz_convert(tz) for t in ends.iloc[0])
    zones = [f"{t:%Z}" for t in (lo, hi)]
    first = f"{lo:%Y-%m-%d %H:%M}" + ("" if zones[0] == zones[1] else f" {zones[0]}")
    last = f"{hi:%H:%M}" if hi.date() == lo.date() else f"{hi:%Y-%m-%d %H:%M}"
    return f"{LOG_SPAN}, {first} .. {last} {zones[1]}"


def _left_out(rows: pd.DataFrame) -> str:
    """What the rows' time with traffic leaves out of the log in scope, in words: ``a 59 h
    silence``, ``3 silences (61 h in all)``, the time before the first event or after the
    last (``""``: none of it)."""
    left = float(rows["log_hours"].iloc[0] - rows["log_traffic_hours"].iloc[0])
    silent = (float(rows["log_silent_hours"].iloc[0]) if "log_silent_hours" in rows.columns
              else 0.0)
    n = int(rows["log_silences"].iloc[0]) if "log_silences" in rows.columns else 0
    said = ([f"a {hours_words(silent)} silence" if n == 1 else
             f"{n:,} silences ({hours_words(silent)} in all)"] if n else [])
    if left - silent >= 1 / 60:  # a minute or more before the first event or after the last
        said.append(f"{hours_words(left - silent)} before its first event or after its last")
    return " and ".join(said)


def _traffic_words(rows: pd.DataFrame, per_day: float, tz: str) -> str:
    """``the traffic of <span> (7,085 events a day over its 25 h with traffic; a 60 h silence
    left out)``: the rows' events a day and the time they are read over."""
    a_day = f"{counted(int(round(per_day)), 'event')} a day"
    span = _span_words(rows, tz)
    hours = _traffic_hours(rows)
    if "log_traffic_hours" not in rows.columns:
        return f"the traffic of {span} ({a_day})"
    if len(rows[[c for c in _TRAFFIC if c in rows.columns]].drop_duplicates()) > 1:
        n = int(rows["log_silences"].sum()) if "log_silences" in rows.columns else 0
        left = f"; {counted(n, 'silence')} left out" if n else ""
        least, most = hours_words(float(hours.min())), hours_words(float(hours.max()))
        over = least if least == most else f"{least} to {most}"  # seconds apart: said once
        return (f"the traffic of {span} ({a_day}, each group's over its own {SENDING_WORDS}: "
                f"{over}{left})")
    left = _left_out(rows)
    over = f"over its {hours_words(float(hours[0]))}"
    return (f"the traffic of {span} ({a_day} {over} of {SENDING_WORDS}; {left} left out)" if left
            else f"the traffic of {span} ({a_day} {over} of {SENDING_WORDS})")
