"""After an alert: what the tracker showed at that moment, which span to review, what each alert
policy would have paged, and whether waking the team was justified.

These functions sit on top of :func:`budgetlab.replay` and :func:`budgetlab.incident_report`:

* :func:`tracker_at`: the replayed tracker's row at a moment (the last event at or before it);
* :func:`incident_span`: the span under review: the given one, else the labelled incidents around
  the alert, else the tracker's CRITICAL-or-worse episode around it, else one window either side;
* :func:`page_table`: per alert policy, its first page during the incident (or its closest page
  tier);
* :func:`wake_verdict`: the rule "was it worth waking the team?", each reason judged with
  :func:`~budgetlab.analyses.verdicts.page_verdict` on the window that decided it.

Times may be given as text; naive times are read in ``tz``. Returned times are UTC.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from .._util.burns import three_digits
from .._util.percent import measured_percent
from .._util.thin import MIN_EVALUATED_HOURS, too_thin
from .._util.validation import (
    check_tz,
    require_columns,
    to_timedelta,
    utc_ns_column,
    utc_timestamp,
)
from .._util.words import counted, duration_words, hours_words
from ..alerts.score_inputs import outside_span
from ..alerts.tier import PAGE_SEVERITIES
from ..budget.episodes import status_episodes
from ..budget.figures import BURN_BANDS
from ..budget.status_changes import transitions
from ..errors import ConfigError, InputError
from ..events.schema import scope_mask, ts_ns
from ..slo import table_slo
from .incident import IncidentReport
from .incident_tables import closest_tier
from .verdicts import Verdict, page_verdict

#: ``duration_words``: an elapsed time as the CLI says it (``1 h 40 min``), for the notebook's
#: page delays (:func:`budgetlab._util.words.duration_words`)
__all__ = ["tracker_at", "incident_span", "page_table", "wake_verdict", "BURN_BANDS_TEXT",
           "duration_words"]

#: The upper limits of the seed's burn-rate bands (:data:`~budgetlab.budget.figures.BURN_BANDS`).
_UPPER = (*BURN_BANDS, np.inf)
#: The seed's burn-rate table: (upper limit, what to do).
BURN_BANDS_TEXT = tuple(zip(_UPPER, (
    "below 1: slower than planned, nothing to do",
    "1 to 2: just makes it, watch more closely",
    "2 to 5: gone in half the window, investigate and slow down changes",
    "5 and above: melting, pause non-critical work"), strict=True))

#: What the seed's band of the tracker's peak burn (:data:`BURN_BANDS_TEXT`, the same limits)
#: leaves to do when waking the team was not justified; the last band does not wait for the
#: morning, which :func:`not_waking_words` says beside the verdict.
NOT_WAKING = tuple(zip(_UPPER, (
    "nothing was to be done, not even a ticket (the budget was spent slower than planned)",
    "watching the budget more closely was the right response, no ticket needed",
    "a ticket for the morning was the right response",
    "its reasons did not hold, but the seed's band 5 and above does not wait for the morning: "
    "pausing non-critical work at once was the right response"), strict=True))


def tracker_at(states: pd.DataFrame, at: Any = None, *, tz: str | None = None) -> pd.Series:
    """The tracker's state at ``at``: the replayed row of the last event at or before it.

    Parameters
    ----------
    states : DataFrame
        One group's :func:`budgetlab.replay` output.
    at : time, optional
        The moment (text or Timestamp; naive times are read in ``tz``). ``None``, or a moment
        outside the log's span: the worst moment of the log (lowest success rate once the first
        window is full); ``note`` says so, and also when the window was not yet full at ``at``.
    tz : str, optional
        Time zone of a naive ``at`` (default UTC).

    Returns
    -------
    Series
        The replay row (``ts``, ``total``, ``failures``, ``success_rate``, ``burn_rate``,
        ``remaining_fraction``, ``status``, ...) plus ``at`` (the moment used, UTC), ``row``
        (its position in ``states``) and ``note`` (empty, or why the worst moment was used).

    Examples
    --------
    >>> from budgetlab import SLO, as_events, replay
    >>> ev = as_events(pd.date_range("2026-01-01", periods=120, freq="1min"),
    ...                [i < 60 for i in range(120)])
    >>> st = replay(ev, SLO(target=0.9, window="30min"))
    >>> r = tracker_at(st, "2026-01-01 01:00:30")
    >>> str(r["ts"]), int(r["failures"]), str(r["status"])
    ('2026-01-01 01:00:00+00:00', 1, 'healthy')
    """
    require_columns(states, ["ts", "success_rate"], what="states")
    if not len(states):
        raise InputError("the replay holds no events; there is no tracker state to read.")
    tz = check_tz(tz)
    slo = table_slo(states)
    window = pd.Timedelta(getattr(slo, "window", pd.Timedelta(0)))
    first, last = states["ts"].iloc[0], states["ts"].iloc[-1]
    note = ""
    when = None if at is None else utc_timestamp(at, name="at", tz=tz)
    if when is not None and not first <= when <= last:
        note = "the given moment is outside the log's span; the worst moment is used instead"
        when = None
    if when is None:
        full = (states["ts"] >= first + window).to_numpy()
        pool = np.flatnonzero(full) if full.any() else np.arange(len(states))
        row = int(pool[int(np.argmin(states["success_rate"].to_numpy()[pool]))])
        when = states["ts"].iloc[row]
        note = note or "no moment given: the worst moment of the log is used"
    else:
        row = int(np.searchsorted(ts_ns(states), when.value, "right")) - 1
        if when < first + window:
            note = ("the tracker's window was not yet full at that moment (the log starts less "
                    "than a window before)")
    out = states.iloc[row].copy()
    out["at"], out["row"], out["note"] = when, row, note
    return out


def incident_span(states: pd.DataFrame, *, at: Any, incidents: pd.DataFrame | None = None,
                  start: Any = None,
                  end: Any = None, tz: str | None = None) -> dict[str, Any]:
    """The span of an incident to review around the alert at ``at``.

    **Rule**, first that applies: ``start`` and ``end`` as given; else the labelled incidents
    that overlap the tracker's window before the alert ``[at - window, at]`` (from the earliest
    start to the latest end); else the tracker's CRITICAL-or-worse episode that holds ``at``
    (:func:`budgetlab.status_episodes`, flaps within 30 minutes merged); else one window either
    side of ``at``.

    Parameters
    ----------
    states : DataFrame
        One group's :func:`budgetlab.replay` output (its ``attrs["slo"]`` gives the window).
    at : time
        The alert.
    incidents : DataFrame, optional
        Incident table (``incident_id``, ``start``, ``end``).
    start, end : time, optional
        The span, when known (both or neither).
    tz : str, optional
        Time zone of naive times (default UTC).

    Returns
    -------
    dict
        ``start``, ``end`` (UTC Timestamps, ``end > start``) and ``reason`` (a phrase).

    Examples
    --------
    >>> from budgetlab import SLO, as_events, replay
    >>> ok = [not 40 <= i < 70 for i in range(180)]
    >>> st = replay(as_events(pd.date_range("2026-01-01", periods=180, freq="1min"), ok),
    ...             SLO(target=0.9, window="30min"))
    >>> span = incident_span(st, at="2026-01-01 00:50")
    >>> str(span["start"]), str(span["end"]), span["reason"]
    ('2026-01-01 00:42:00+00:00', '2026-01-01 01:38:00+00:00', "the tracker's critical-or-worse
    episode around the alert")
    """
    require_columns(states, ["ts", "status"], what="states")
    tz = check_tz(tz)
    when = utc_timestamp(at, name="at", tz=tz)
    slo = table_slo(states)
    window = pd.Timedelta(getattr(slo, "window", pd.Timedelta("1h")))
    if (start is None) != (end is None):
        raise ConfigError("give both incident_start and incident_end, or neither.")
    if start is not None:
        lo, hi = utc_timestamp(start, name="start", tz=tz), utc_timestamp(end, name="end", tz=tz)
        if hi <= lo:
            raise ConfigError("incident_end must come after incident_start.")
        return {"start": lo, "end": hi, "reason": "as given"}
    if incidents is not None and len(incidents):
        require_columns(incidents, ["start", "end"], what="incidents")
        i_s = utc_ns_column(incidents["start"], "incidents['start']")
        i_e = utc_ns_column(incidents["end"], "incidents['end']")
        # scoring's overlap rule on [at - window, at] (+ 1 ns: an incident starting at the alert)
        near = incidents[~outside_span(i_s, i_e, (when.value - window.value, when.value + 1))]
        if len(near):
            noun = "incident" if len(near) == 1 else "incidents"
            which = (f"the labelled {noun} " + ", ".join(near["incident_id"].astype(str))
                     if "incident_id" in near.columns else counted(len(near), "labelled incident"))
            return {"start": near["start"].min(), "end": near["end"].max(),
                    "reason": f"{which} around the alert"}
    episodes = status_episodes(states, transitions(states), at_least="critical")
    hold = episodes[((episodes["start"] <= when) & (episodes["end"] >= when)).to_numpy()]
    if len(hold) and hold["end"].iloc[0] > hold["start"].iloc[0]:
        return {"start": hold["start"].iloc[0], "end": hold["end"].iloc[0],
                "reason": "the tracker's critical-or-worse episode around the alert"}
    return {"start": when - window, "end": when + window,
            "reason": "one window either side of the alert (the tracker was not critical then)"}


def _fired(tiers: pd.DataFrame) -> pd.DataFrame:
    """The tiers that fired, first alert first."""
    return tiers[tiers["fired"].to_numpy(dtype=bool)].sort_values("first_alert", kind="stable")


def _closest(tiers: pd.DataFrame) -> str:
    r = closest_tier(tiers)
    return "–" if r is None else f"{r['tier']}: {three_digits(r['peak_burn_long'])} / {r['burn']:g}"


def page_table(
    reports: Mapping[str, IncidentReport], *, severities: tuple[str, ...] = PAGE_SEVERITIES
) -> pd.DataFrame:
    """Per alert policy: did it page during the incident, when, and how close its page tiers came.

    Parameters
    ----------
    reports : mapping of str to IncidentReport
        :func:`budgetlab.incident_report` of the same incident under each policy, by name.
    severities : tuple of str
        Severities that page.

    Returns
    -------
    DataFrame
        One row per policy (index ``policy``): ``paged``, ``first_page`` (UTC; NaT), ``tier``,
        ``delay`` (from the incident's start; NaT), ``caused_by_timeouts`` (every page tier
        that fired was caused by timeouts alone; NA without a page), ``closest`` (the page
        tier whose peak long-window burn came closest to its threshold: ``tier: peak /
        threshold``) and ``other_alerts`` (tiers of other severities that fired).

    Examples
    --------
    >>> from budgetlab import AlertPolicy, SLO, datasets, incident_report
    >>> ev = datasets.load("demo")
    >>> rep = incident_report(ev, SLO(target=0.95, window="1h"),
    ...                       "2026-10-06 01:00", "2026-10-06 05:00",
    ...                       scope="captcha_type=recaptcha_v2", policy=AlertPolicy.workbook("30D"))
    >>> list(page_table({"workbook": rep}).columns)
    ['paged', 'first_page', 'tier', 'delay', 'caused_by_timeouts', 'closest', 'other_alerts']
    """
    rows = []
    for name, rep in reports.items():
        if not isinstance(rep, IncidentReport):
            raise ConfigError("page_table() takes {name: IncidentReport} from "
                              "budgetlab.incident_report().")
        page = rep.tiers["severity"].astype(str).isin(severities)
        pages, others = _fired(rep.tiers[page]), _fired(rep.tiers[~page])
        rows.append({
            "policy": name, "paged": bool(len(pages)),
            "first_page": pages["first_alert"].iloc[0] if len(pages) else pd.NaT,
            "tier": str(pages["tier"].iloc[0]) if len(pages) else "–",
            "delay": pages["detection_delay"].iloc[0] if len(pages) else pd.NaT,
            "caused_by_timeouts": bool(pages["caused_by_timeouts"].all()) if len(pages) else pd.NA,
            "closest": _closest(rep.tiers[page]),
            "other_alerts": ", ".join(str(t) for t in others["tier"]) or "–",
        })
    return pd.DataFrame(rows).set_index("policy")


def _window_counts(events: pd.DataFrame, when: pd.Timestamp, width: pd.Timedelta) -> tuple[int,
                                                                                           int]:
    """Failures and events with ``when - width <= ts <= when`` (the seed's window; events
    sorted)."""
    t = ts_ns(events)
    lo, hi = np.searchsorted(t, when.value - width.value, "left"), np.searchsorted(t, when.value,
                                                                                   "right")
    n = int(hi - lo)
    return n - int(events["ok"].to_numpy(dtype=bool)[lo:hi].sum()), n


def not_waking_words(peak: float) -> str:
    """What was to be done instead of waking the team, by the seed's band of the tracker's
    ``peak`` burn (:data:`NOT_WAKING`; a band holds its lower limit: 1 is "1 to 2").

    >>> not_waking_words(0.189)
    'nothing was to be done, not even a ticket (the budget was spent slower than planned)'
    >>> not_waking_words(2.0)
    'a ticket for the morning was the right response'
    """
    return next(text for limit, text in NOT_WAKING if peak < limit)


def wake_verdict(events: pd.DataFrame, reports: Mapping[str, IncidentReport], *,
                 wake_burn: float = 5.0) -> Verdict:
    """Was it worth waking the team? Judged with evidence, on the window that decided each reason.

    **Rule.** Waking people is **justified** when, during the incident, a page tier of one of the
    policies fired or the tracker's burn rate exceeded ``wake_burn`` (the seed: above 5 the budget
    "melts almost instantly"), *and* the burn interval of the window that decided it (the tier's
    long window when it first fired; the tracker's window at its peak) lies above the threshold
    (:func:`~budgetlab.analyses.verdicts.page_verdict`). It is **not justified** when every such
    reason is refuted by its interval, or when there is no such reason at all. Otherwise the
    verdict is withheld: the windows held too few events to tell.

    Parameters
    ----------
    events : DataFrame
        The canonical events the reports were made from.
    reports : mapping of str to IncidentReport
        The same incident under each policy (:func:`budgetlab.incident_report`); the first
        report's tracker (its focus group) is the one judged.
    wake_burn : float
        Tracker burn rate that justifies waking people on its own.

    Returns
    -------
    Verdict
        ``justified``, ``not_justified`` or withheld; the sentence lists every reason with its
        figures and the seed's burn-rate band of the tracker's peak.

    Examples
    --------
    One event a minute, an hour of failures: at its peak the tracker's hour holds 60 failures in
    61 events (``t - 1h <= ts <= t``), burn 60 / 61 / 0.05 = 19.67 (19.7 to three significant
    digits), well above 5.

    >>> from budgetlab import AlertPolicy, SLO, as_events, incident_report
    >>> ts = pd.date_range("2026-01-01", periods=1440, freq="1min", tz="UTC")
    >>> ev = as_events(ts, ~((ts >= "2026-01-01 02:00") & (ts < "2026-01-01 03:00")))
    >>> rep = incident_report(ev, SLO(target=0.95, window="1h"), "2026-01-01 02:00",
    ...                       "2026-01-01 03:00", policy=AlertPolicy.single_window("1h", 0.9))
    >>> v = wake_verdict(ev, {"seed": rep})
    >>> v.verdict
    'justified'
    >>> v.evidence.split(" (95 %")[0]
    "The tracker's peak burn was justified: 60 failures in 61 events: burn 19.7"
    """
    if not reports or not all(isinstance(r, IncidentReport) for r in reports.values()):
        raise ConfigError("wake_verdict() takes {name: IncidentReport} from "
                          "budgetlab.incident_report().")
    if isinstance(wake_burn, bool) or not wake_burn > 0:
        raise ConfigError("wake_burn must be a number > 0 (the seed uses 5).")
    first = next(iter(reports.values()))
    require_columns(events, ["ts", "ok"], what="events")
    mask = (scope_mask(events, first.scope) if first.scope and first.scope != "*"
            else np.ones(len(events), bool))
    for k, v in first.focus().items():
        mask &= (events[k].astype(str) == str(v)).to_numpy()
    scoped = events[mask]
    target = float(first.slo.target)
    tracker = first.tracker.iloc[0]
    peak = float(tracker["peak_burn"]) if pd.notna(tracker["peak_burn"]) else 0.0
    band = next(text for limit, text in BURN_BANDS_TEXT if peak < limit)
    judged: list[Verdict] = []
    if pd.notna(tracker["peak_burn_at"]) and peak > wake_burn:
        f, n = _window_counts(scoped, pd.Timestamp(tracker["peak_burn_at"]),
                              pd.Timedelta(first.slo.window))
        judged.append(page_verdict(f, n, target=target, threshold=wake_burn,
                                   subject="the tracker's peak burn"))
    silent = []
    for name, rep in reports.items():
        tiers = rep.tiers[rep.tiers["severity"].astype(str).isin(PAGE_SEVERITIES)]
        fired = _fired(tiers)
        if not len(fired):
            silent.append(f"{name} ({_closest(tiers)})")
            continue
        tier = fired.iloc[0]
        f, n = _window_counts(
            scoped,
            pd.Timestamp(tier["first_alert"]),
            to_timedelta(tier["long_window"], name="long_window"),
        )
        judged.append(page_verdict(f, n, target=target, threshold=float(tier["burn"]),
                                   subject=f"{name}'s {tier['tier']} page"))
    reasons = [v.sentence for v in judged]
    reasons.append(f"The tracker's burn peaked at {three_digits(peak)}, in the seed's band "
                   f"\"{band}\".")
    if silent:
        reasons.append("No page tier fired "
                       "for " + "; ".join(silent) + " (peak long-window burn / threshold).")
    reasons.append(_spent_words(first.budget.iloc[0]))
    evidence = " ".join(reasons)
    if any(v.verdict == "justified" for v in judged):
        return Verdict("waking the team", "justified", f"Waking the team was justified. {evidence}",
                       evidence)
    if all(v.verdict == "not_justified" for v in judged):
        return Verdict("waking the team", "not_justified",
                       f"Waking the team was not justified: {not_waking_words(peak)}. {evidence}",
                       evidence)
    why = "the windows that would justify it held too few events to tell"
    return Verdict("waking the team", None, f"No verdict on waking the team: {why}. {evidence}",
                   evidence, withheld=why)


def _spent_words(budget: pd.Series) -> str:
    """The incident's share of the period's error budget (a ``budget`` row of
    :func:`budgetlab.incident_report`); withheld, and why, when the replayed span it is carried
    from is under a day (:func:`budgetlab._util.thin.too_thin`, as the summary's)."""
    hours = float(budget["replayed_hours"])
    if bool(too_thin(hours)):
        return (f"The incident's share of the period's error budget is withheld: the replayed span "
                f"holds {counted(int(budget['replayed_events']), 'event')} in "
                f"{hours_words(hours)}, and a rate per day needs at least "
                f"{MIN_EVALUATED_HOURS:g} h of observed time.")
    spent = measured_percent(float(budget["period_budget_pct"]) / 100)  # a column in percent
    return f"The incident spent {spent} of the period's error budget."
