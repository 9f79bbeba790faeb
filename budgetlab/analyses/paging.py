"""After an alert, the pages: what each alert policy would have paged during the incident, and
whether waking the team was justified.

* :func:`page_table`: per alert policy, its first page during the incident (or its closest page
  tier);
* :func:`wake_verdict`: the rule "was it worth waking the team?", each reason judged with
  :func:`~budgetlab.analyses.count_verdicts.page_verdict` on the window that decided it.

The span under review and the tracker at the alert: :mod:`budgetlab.analyses.incident_review`.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from .._util.burns import three_digits
from .._util.validation import require_columns, to_timedelta
from ..alerts.tier import PAGE_SEVERITIES
from ..errors import ConfigError, InputError
from ..events.schema import scope_mask, ts_ns
from .count_verdicts import page_verdict
from .incident import IncidentReport
from .incident_budget_text import budget_sentence
from .incident_group_words import for_group
from .incident_review import BURN_BANDS_TEXT, BURN_LIMITS
from .incident_text import in_log_part
from .incident_tier_table import closest_tier
from .verdicts import Verdict

__all__ = ["page_table", "wake_verdict", "NOT_WAKING", "not_waking_words"]

#: What the seed's band of the tracker's peak burn (:data:`BURN_BANDS_TEXT`, the same limits)
#: leaves to do when waking the team was not justified; the last band does not wait for the
#: morning, which :func:`not_waking_words` says beside the verdict.
NOT_WAKING = tuple(zip(BURN_LIMITS, (
    "nothing was to be done, not even a ticket (the budget was spent slower than planned)",
    "watching the budget more closely was the right response, no ticket needed",
    "a ticket for the morning was the right response",
    "its reasons did not hold, but the seed's band 5 and above does not wait for the morning: "
    "pausing non-critical work at once was the right response"), strict=True))


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
        ``delay`` (from the incident's start; NaT without a page, or for a page
        already firing when the incident began: it did not detect it),
        ``caused_by_timeouts`` (every page tier
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
    if not isinstance(reports, Mapping):
        raise ConfigError(f"page_table() takes reports= as a mapping {{policy name: "
                          f"IncidentReport}}, not a {type(reports).__name__}: give e.g. "
                          "{'workbook': budgetlab.incident_report(...)}.")
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


def _window_counts(events: pd.DataFrame, when: pd.Timestamp, width: pd.Timedelta, *,
                   at_event: int | None = None) -> tuple[int, int]:
    """Failures and events in a window of ``events`` (sorted, table order kept among ties) ending
    at ``when``: ``when - width <= ts <= when`` for an alert tier's (``at_event`` ``None``). The
    tracker's window at its peak event (``at_event``: the events it held then, the tracker
    table's ``peak_burn_events``) is the seed's at that event, ``when - width <= ts <= when``
    up to that event: the rows after it that share its timestamp were not recorded yet (before
    stop 63 they were counted, one event too many at a tied peak)."""
    t = ts_ns(events)
    lo = int(np.searchsorted(t, when.value - width.value, "left"))
    if at_event is None:
        hi = int(np.searchsorted(t, when.value, "right"))
    else:
        hi = lo + at_event
        if not (lo < hi <= len(t) and t[hi - 1] == when.value):
            raise InputError(f"the tracker's peak at {when} held {at_event} events in its "
                             "window, which the events given do not: give wake_verdict() the "
                             "events the report was made from.")
    n = hi - lo
    return n - int(events["ok"].to_numpy(dtype=bool)[lo:hi].sum()), n


def _group_events(events: pd.DataFrame, scope: str | None, group: Mapping[str, object]
                  ) -> pd.DataFrame:
    """The ``events`` of the report's ``scope`` and of one ``group`` (its keys and values)."""
    mask = (scope_mask(events, scope) if scope and scope != "*"
            else np.ones(len(events), bool))
    for k, v in group.items():
        mask &= (events[k].astype(str) == str(v)).to_numpy()
    return events[mask]


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
    (:func:`~budgetlab.analyses.count_verdicts.page_verdict`). It is **not justified** when every
    such reason is refuted by its interval: the tracker's window at its peak is judged against
    ``wake_burn`` whether its burn lies above or below it (a peak of 0.9 on a hundred events may
    be one above 5), and refutes it only when its whole interval lies at or below. Otherwise the
    verdict is withheld: the windows held too few events to tell.

    Parameters
    ----------
    events : DataFrame
        The canonical events the reports were made from.
    reports : mapping of str to IncidentReport
        The same incident under each policy (:func:`budgetlab.incident_report`); the first
        report's tracker (its focus group) is the one judged; each policy's first page on the
        events of the group it paged for (named); the share of the budget over every group.
    wake_burn : float
        Tracker burn rate that justifies waking people on its own.

    Returns
    -------
    Verdict
        ``justified``, ``not_justified`` or withheld; the sentence lists every reason with its
        figures, the seed's burn-rate band of the tracker's peak and the incident's share of the
        error budget as the first report's summary says it (the period and the traffic's span
        named: ``0.2 % of a 30 d error budget at the traffic of ...``).

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
    scoped = _group_events(events, first.scope, first.focus())
    target = float(first.slo.target)
    tracker = first.tracker.iloc[0]
    peak = float(tracker["peak_burn"]) if pd.notna(tracker["peak_burn"]) else 0.0
    band = next(text for limit, text in BURN_BANDS_TEXT if peak < limit)
    judged: list[Verdict] = []
    if pd.notna(tracker["peak_burn_at"]):  # judged both ways: a peak below wake_burn on a
        # few events may be one above it (before, it was judged only when above: not justified)
        f, n = _window_counts(scoped, pd.Timestamp(tracker["peak_burn_at"]),
                              pd.Timedelta(first.slo.window),
                              at_event=int(tracker["peak_burn_events"]))
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
        f, n = _window_counts(  # the window of the group that paged, not the focus group's
            _group_events(events, rep.scope, {k: tier[k] for k in rep.by}),
            pd.Timestamp(tier["first_alert"]),
            to_timedelta(tier["long_window"], name="long_window"),
        )
        judged.append(page_verdict(f, n, target=target, threshold=float(tier["burn"]),
                                   subject=f"{name}'s {tier['tier']} page"
                                   f"{for_group(tier, list(rep.by))}"))
    reasons = [v.sentence for v in judged]
    reasons.append(f"The tracker's burn peaked at {three_digits(peak)}, in the seed's band "
                   f"\"{band}\".")
    if silent:
        reasons.append("No page tier fired "
                       "for " + "; ".join(silent) + " (peak long-window burn / threshold).")
    reasons.append(_spent_words(first))
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


def _spent_words(report: IncidentReport) -> str:
    """The incident's share of the period's error budget as the report's summary says it
    (:func:`~budgetlab.analyses.incident_budget_text.budget_sentence` over every group of its
    ``budget`` table, the part of the incident in the log named): the share of a period named
    (``0.2 % of a 30 d error budget``), at the traffic of the span named, in one rounding; withheld
    in its words when the whole log in scope holds under a day of time with traffic or the
    incident's events too few expected failures for a verdict, of all its groups together
    (before, the first group's row alone decided, beside a sentence of them all)."""
    part = in_log_part(report.start, report.end, report.data_start, report.data_end,
                       report.freq, report.tz)
    return budget_sentence(report.budget, report.slo, report.policy, report.end - report.start,
                           keys=report.by, scope=report.scope, tz=report.tz, in_log=part)
