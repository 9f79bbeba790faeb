"""The plain-language summary of :func:`budgetlab.analyses.incident.incident_report`.

One sentence per table of the report (tracker, failure buckets, alert tiers, budget), each
composed from that table (the buckets' sentence also names the tracker's status changes timeouts
caused, and withholds its success rate without timeouts by the budget table's allowed failures
when the evidence is thin); times in the report's time zone; a length (window, period) spelled
as a length (``1 h``, ``30 d``), an elapsed time (the incident's span, an alert's delay, the time
its window was empty) in its two largest units (``5 h 36 min``, ``36 min``), as the tables beside
it spell them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._util.burns import three_digits
from .._util.words import counted, duration_words, prose_duration
from ..alerts.policy import AlertPolicy
from ..slo import SLO
from .incident_bucket_text import as_sentence, bucket_sentence
from .incident_budget_text import budget_sentence, over_words
from .incident_coverage import (
    all_unevaluated,
    late_from,
    not_known_words,
    partly_evaluated,
    partly_known_words,
    silent_others_words,
    unevaluated_words,
)
from .incident_end_words import clock_words, grace_cut_words
from .incident_evaluations import bin_end, no_evaluation_inside, no_tier_words
from .incident_focus import focus_words, thin_others_words
from .incident_group_words import for_group, no_event_labels, no_event_words
from .incident_silent_words import why_silent
from .incident_tier_apart import apart_words
from .incident_tier_reach import reach_words
from .incident_tier_table import closest_tier
from .incident_tracker_text import between, tracker_sentence

__all__ = ["between", "summary_text", "tracker_sentence", "bucket_sentence", "alert_sentence",
           "budget_sentence", "every", "in_log_part"]


_clock = clock_words  # local time of day, with the date when not the day of the reference


def summary_text(*, start: pd.Timestamp, end: pd.Timestamp, tz: str, slo: SLO, by: Sequence[str],
                 breakdown_by: Sequence[str], scope: str, tracker: pd.DataFrame,
                 buckets: pd.DataFrame, tiers: pd.DataFrame, policy: AlertPolicy,
                 budget: pd.DataFrame, freq: Any = "1min",
                 data_end: pd.Timestamp | None = None, grace: Any = "0s",
                 data_start: pd.Timestamp | None = None,
                 thin: dict[tuple[str, ...], str] | None = None,
                 steps: pd.DataFrame | None = None) -> str:
    """The paragraph: :func:`tracker_sentence`, :func:`bucket_sentence`, :func:`alert_sentence`
    and :func:`budget_sentence` (when the incident had events). The tracker's burns are at its
    events; the policy's at the end of every bin of ``freq``, up to the data's end when the log
    (its last event: ``data_end``) ends before the incident does: each sentence says which. An
    alert detects the incident up to ``grace`` after its end (``budgetlab alerts``' rule).
    When the log (from its first event ``data_start``, when given, to ``data_end``) holds only
    part of the incident the budget sentence names that part; when it holds none of it, its
    failures are not known, never "no failures". ``thin``: each group (its keys as text) whose
    window's events behind its figures are too few for a verdict, and why
    (:func:`~.incident_focus.thin_words`): its status and page are said with those words, and
    a group with the evidence is spoken of first. ``steps``: the window's clock, as the figure
    draws it (its held peak said beside the peak at events when they differ)."""
    thin = thin or {}
    # the policy's evaluations read data up to the end of the bin (epoch-aligned) of the log's
    # last event: said when that cuts the incident
    cut = data_end is not None and bin_end(data_end, freq) < end
    # the failures the incident's events were allowed under each group's own target
    expected = float((budget["failures"] - budget["excess_failures"]).sum()) if len(budget) else 0.0
    outside = ((data_end is not None and data_end < start)
               or (data_start is not None and data_start >= end))
    part = in_log_part(start, end, data_start, data_end, freq, tz)  # the part the log holds
    first = thin.get(_key(tracker.iloc[0], by), "") if len(tracker) else ""
    known = tracker[tracker["worst_status"].notna()] if len(tracker) else tracker
    parts = [tracker_sentence(start, end, tz, slo, by, scope, tracker,
                              data_end if data_end is not None and data_end < end else None,
                              thin=first, all_thin=bool(first) and all(
                                  _key(r, by) in thin for _, r in known.iterrows()),
                              steps=steps, apart=set(thin))
             + ("" if outside else focus_words(tracker, budget, by)
                + thin_others_words(tracker, tiers, by, thin, tz, start)),
             "How many failures it had is not known either." if outside else
             bucket_sentence(buckets, breakdown_by, tracker, expected_failures=expected,
                             keys=by, scope=scope, groups=len(budget),
                             none=no_event_labels(budget, by),
                             over=over_words(end - start, part) if part else ""),
             alert_sentence(tiers, policy, by, start, tz, freq=freq,
                            data_end=data_end if cut else None, target=slo.target,
                            end=end, grace=grace, last_event=data_end, thin=thin,
                            order=[_key(r, by) for _, r in tracker.iterrows()])]
    if len(budget) and int(budget["events"].sum()):
        # the groups without an event named once: by the bucket sentence when it did
        seen = len(budget[budget["events"] > 0]) if by else len(budget)
        named = no_event_words(seen, len(budget), no_event_labels(budget, by)) if by else ""
        parts.append(budget_sentence(budget, slo, policy, end - start, keys=by, scope=scope,
                                     tz=tz, in_log=part,
                                     groups_said=bool(named) and named in parts[1]))
    return " ".join(parts)


def _key(row: pd.Series, keys: Sequence[str]) -> tuple[str, ...]:
    return tuple(str(row[k]) for k in keys)


def in_log_part(start: pd.Timestamp, end: pd.Timestamp, data_start: pd.Timestamp | None,
            data_end: pd.Timestamp | None, freq: Any, tz: str) -> tuple[pd.Timedelta, str] | None:
    """The part of the incident the log holds, its length and where the log cuts it (``"to
    21:59"``, ``"from 10:05"``, ``"from 10:05 to 11:00"``), when the log starts or ends inside it
    (``None``: it holds all of it). The log is read to the end of the bin of ``freq`` of its
    last event and from the start of its first's, as the policy's evaluations read it: a log a
    minute whose last event is at 01:59 holds an incident that ends at 02:00.

    >>> t = pd.Timestamp("2026-04-01 18:00", tz="UTC")
    >>> in_log_part(t, t + pd.Timedelta("6h"), None, t + pd.Timedelta("119min"), "1min", "CET")
    (Timedelta('0 days 02:00:00'), 'to 21:59')
    """
    lo = start if data_start is None else max(start, data_start.floor(pd.Timedelta(freq)))
    hi = end if data_end is None else min(end, bin_end(data_end, freq))
    if (lo, hi) == (start, end) or hi <= lo:
        return None
    said = [f"from {_clock(data_start, tz, start)}" if lo > start and data_start is not None
            else "", f"to {_clock(data_end, tz, start)}" if hi < end and data_end is not None
            else ""]
    return hi - lo, " ".join(w for w in said if w)


def every(freq: Any) -> str:
    """How often a policy on bins of ``freq`` is evaluated, in words.

    >>> every("1min"), every("1h"), every("5min"), every("30s")
    ('every minute', 'every hour', 'every 5 min', 'every 30 s')
    """
    one = {pd.Timedelta(seconds=1): "second", pd.Timedelta(minutes=1): "minute",
           pd.Timedelta(hours=1): "hour", pd.Timedelta(days=1): "day"}
    td = pd.Timedelta(freq)
    return f"every {one[td]}" if td in one else f"every {prose_duration(td)}"


def alert_sentence(tiers: pd.DataFrame, policy: AlertPolicy, keys: Sequence[str],
                   start: pd.Timestamp, tz: str, *, freq: Any = "1min",
                   data_end: pd.Timestamp | None = None, target: Any = None,
                   end: pd.Timestamp | None = None, grace: Any = "0s",
                   last_event: pd.Timestamp | None = None,
                   thin: dict[tuple[str, ...], str] | None = None,
                   order: Sequence[tuple[str, ...]] | None = None) -> str:
    """Whether and when the policy would have paged (or fired, without page tiers); if not, how
    close its page tiers came: a tier's peak burn is over its evaluations, at the end of every
    bin of ``freq`` (the tracker's burn moves at every event, so its peak can differ), up to the
    data's end (``data_end``, the log's last event, when the end of its bin comes before the
    incident's: after it the windows empty with the data); a peak over the threshold comes with
    why the tier did not fire. With group ``keys`` each figure names its group, and how many
    other groups paged (fired) is said. A tier that can never fire at the ``target``, or whose
    long window held no traffic during the incident (``unseen``), is never the one that came
    closest: it is said apart (:func:`~.incident_tier_reach.reach_words`). A tier fired when an
    alert of it overlapped the incident or its ``grace`` after its ``end`` (the tier table's
    ``fired``, ``budgetlab alerts``' rule): one that began after the end says so, and a silent
    tier's words name that span, and where the log's end cuts the grace
    (:func:`~.incident_end_words.grace_cut_words`, naming the log's ``last_event`` when the
    report knows it). When no evaluation (a bin end of ``freq``) falls inside the incident, no
    tier was evaluated, and that is the reason given (before stop 63 their windows were said to
    reach before the data's start). "Would not have paged" (fired) is said only when every page
    tier (tier) that could fire was evaluated during the incident: when some were and others
    were not, whether it would have paged is not known, both named
    (:func:`~.incident_coverage.partly_known_words`). A page of a group in ``thin`` (too few
    events in its window for a verdict, and why) comes after those of the others (the thin ones
    in ``order``, the groups as the summary speaks of them), said with its count when it is the
    one named."""
    name = f"the {policy.name} policy" if policy.name else "the alert policy"
    thin = thin or {}
    fired = tiers[tiers["fired"]].sort_values("first_alert", kind="stable") if len(tiers) else tiers
    fired = _evidence_first(fired, keys, thin, order)
    has_page = any(t.severity == "page" for t in policy.tiers)
    pages = fired[fired["severity"] == "page"] if len(fired) else fired

    def when(r: pd.Series, tier: str = "") -> str:
        return _when(r, tier, start, tz, end, grace)

    if has_page and len(pages):
        p = pages.iloc[0]
        txt = (f"{name} would have paged{for_group(p, keys)} {when(p, str(p['tier']))}"
               f"{_thin_page(p, keys, thin)}{_others(pages, keys, 'paged')}"
               f"{_by_timeouts(pages)}"
               f"{_already_words(fired[fired['severity'] != 'page'], p, keys, start, tz)}")
    elif not has_page and len(fired):
        r = fired.iloc[0]
        txt = (f"{name} would have fired {r['tier']} ({r['severity']}){for_group(r, keys)} "
               f"{when(r)}{_others(fired, keys, 'fired')}")
    elif data_end is not None and bin_end(data_end, freq) <= start:
        return as_sentence(f"the log ends before the incident, so what {name} would have done "
                         "during it is not known")
    elif (missed := end is not None and no_evaluation_inside(start, end, freq)) or all_unevaluated(
            tiers, "page" if has_page else None):  # no tier that could page was evaluated
        txt = (no_tier_words(name, has_page, start, end, freq) if missed and end is not None
               else not_known_words(name, has_page, tiers))
        txt += _ticket_words(fired, keys, when) if has_page else ""  # a ticket that fired
        txt += reach_words(tiers, policy, target, keys, grace=grace)
        # the other tiers not evaluated either (the page tiers are named above; every tier when
        # no evaluation falls inside the incident)
        return as_sentence(txt + unevaluated_words(tiers[tiers["severity"] != "page"] if has_page
                                                 and not missed else tiers.iloc[:0], None))
    else:
        sev = "page" if has_page else None
        partly = partly_evaluated(tiers, sev)  # a silent tier beside one that was not evaluated
        able = tiers[tiers["can_fire"]] if "can_fire" in tiers else tiers
        near = closest_tier(able[able["severity"] == "page"] if has_page else able)
        peak = "" if near is None else _peak_words(
            near, keys, freq, start, tz, data_end, policy, grace,
            whose="its" if partly and _one_evaluated(able, sev) else f"{near['tier']}'s")
        txt = (partly_known_words(name, has_page, tiers, peak) if partly
               else f"{name} would not have {'paged' if has_page else 'fired'}{peak}")
        if has_page and len(fired):
            txt += _ticket_words(fired, keys, when)
        elif has_page:  # of the tiers known silent only
            txt += silent_others_words(tiers, "; " if partly else " and ")
        txt += apart_words(tiers, keys, tz, start)  # an alert that detected nothing
        # the unevaluated tiers that could page (fire) are named above when partly
        rest = tiers if not partly else (tiers[tiers["severity"] != "page"] if has_page
                                         else tiers.iloc[:0])
        txt += unevaluated_words(rest, None)
        if end is not None and (cut := grace_cut_words(tiers, end, grace, tz, last_event)):
            txt += f"; {cut}"  # not "did not page" through a grace the log does not hold
    return as_sentence(txt + reach_words(tiers, policy, target, keys, grace=grace))


def _ticket_words(fired: pd.DataFrame, keys: Sequence[str], when: Any) -> str:
    """``; its ticket_1d tier would have raised a ticket ...``: the first tier of ``fired`` (no
    page among them), when it is said; ``""`` when none fired."""
    if not len(fired):
        return ""
    r = fired.iloc[0]
    return (f"; its {r['tier']} tier would have raised a {r['severity']}{for_group(r, keys)} "
            f"{when(r)}{_others(fired, keys, 'raised one')}")


def _evidence_first(fired: pd.DataFrame, keys: Sequence[str], thin: dict[tuple[str, ...], str],
                    order: Sequence[tuple[str, ...]] | None) -> pd.DataFrame:
    """``fired`` (by time) with the groups with the evidence first, by time; then those in
    ``thin``, in the order of ``order`` (the tracker's: the group spoken of first)."""
    if not len(fired) or not thin or not keys:
        return fired
    rank = {k: i for i, k in enumerate(order or [])}
    last = np.array([rank.get(_key(r, keys), len(rank)) if _key(r, keys) in thin else -1
                     for _, r in fired.iterrows()])
    return fired.iloc[np.lexsort((np.arange(len(fired)), last))]


def _by_timeouts(pages: pd.DataFrame) -> str:
    """``; timeouts alone caused the page`` (``all N pages``) when they did; ``""`` else."""
    if not bool(pages["caused_by_timeouts"].all()):
        return ""
    return ("; timeouts alone caused the page" if len(pages) == 1
            else f"; timeouts alone caused all {len(pages):,} pages")


def _others(rows: pd.DataFrame, keys: Sequence[str], verb: str) -> str:
    """``; 2 other groups paged too`` (``verb``): the groups of ``rows`` but the first's."""
    n = len(rows.drop_duplicates(subset=list(keys))) - 1 if keys else 0
    return f"; {n:,} other group{'s' if n > 1 else ''} {verb} too" if n > 0 else ""


def _already_words(rest: pd.DataFrame, p: pd.Series, keys: Sequence[str], start: pd.Timestamp,
                   tz: str) -> str:
    """``; ticket_1d (since 12:36) and ticket_3d (since 08:48) were already firing there when
    the incident began: not raised by it``: the tiers of ``rest`` (fired, not pages) of the
    group of the page ``p`` whose alert began before ``start`` (``score_alerts``' rule), and
    how many other groups had one; ``""`` when none."""
    early = rest[rest["first_alert"] < start] if len(rest) else rest
    if not len(early):
        return ""
    mine = early[early[list(keys)].astype(str).agg(tuple, axis=1) == _key(p, keys)] if keys \
        else early
    n = len(early.drop_duplicates(subset=list(keys))) - (1 if len(mine) else 0) if keys else 0
    said = [f"{r['tier']} (since {_clock(r['first_alert'], tz, start)})"
            for _, r in mine.sort_values("first_alert", kind="stable").iterrows()]
    txt = ("; " + " and ".join([", ".join(said[:-1]), said[-1]] if len(said) > 1 else said)
           + f" {'was' if len(said) == 1 else 'were'} already firing"
           + (" there" if keys else "") + " when the incident began: not raised by it"
           if said else "")
    if n > 0:
        txt += (f"{'; so were' if said else '; '} tiers of {counted(n, 'other group')}"
                + ("" if said else " were already firing when the incident began"))
    return txt


def _thin_page(p: pd.Series, keys: Sequence[str], thin: dict[tuple[str, ...], str]) -> str:
    """``, on 2 events in its window at its peak burn: too few for a verdict`` when the group
    of the page ``p`` is in ``thin`` (the count alone: its words are in the tracker's
    sentences); ``""`` otherwise."""
    if not keys or _key(p, keys) not in thin:
        return ""
    return f", on {thin[_key(p, keys)].split(' (')[0]}"


def _one_evaluated(able: pd.DataFrame, severity: str | None) -> bool:
    """One tier (of ``severity``; all when ``None``) of ``able`` was evaluated."""
    rows = able if severity is None else able[able["severity"] == severity]
    return rows.loc[rows["evaluated_from"].notna(), "tier"].nunique() == 1


def _peak_words(near: pd.Series, keys: Sequence[str], freq: Any, start: pd.Timestamp, tz: str,
                data_end: pd.Timestamp | None, policy: AlertPolicy, grace: Any, *,
                whose: str) -> str:
    """`` (page_1h's 1 h burn, evaluated every minute, peaked at 10, its threshold is 14.4)``:
    how close the tier of ``near`` came (``whose``: its name's possessive, or ``its``)."""
    upto = "" if data_end is None else f" up to the data's end at {_clock(data_end, tz, start)}"
    if late_from(near, bin_end(start, freq)):  # its window reached before the data until then
        upto = (f" from {_clock(near['evaluated_from'], tz, start)} (its first window "
                f"after the data's start){upto}")
    return (f" ({whose} {prose_duration(near['long_window'])} burn{for_group(near, keys)}, "
            f"evaluated {every(freq)}{upto}, peaked at {three_digits(near['peak_burn_long'])}, "
            f"its threshold is {near['burn']:g}{why_silent(near, policy, grace)})")


def _when(r: pd.Series, tier: str, start: pd.Timestamp, tz: str, end: pd.Timestamp | None,
          grace: Any) -> str:
    """``at 10:36, 36 min after the start (TIER)``; ``already at the start (TIER, firing since
    09:19)``; an alert that began at or after the incident's ``end`` counted in its ``grace``:
    ``at 10:01, 1 min after the start, after the incident's end but within its 1 h grace``."""
    # its condition held from its first evaluation after the data's start: maybe earlier
    early = ("; it may have fired earlier, its condition holding from its first evaluation "
             "after the data's start" if r.get("may_have_fired_earlier", False) else "")
    if r["first_alert"] <= start:
        return (f"already at the start ({tier + ', ' if tier else ''}firing since "
                f"{_clock(r['first_alert'], tz, start)}{early})")
    delay = duration_words(r["detection_delay"]) + " after the start"
    if end is not None and r["first_alert"] >= end:  # counted in the grace
        delay += f", after the incident's end but within its {prose_duration(grace)} grace"
    return (f"at {_clock(r['first_alert'], tz, start)}, {delay}"
            + (f" ({tier}{early})" if tier else f" ({early[2:]})" if early else "")
            + (", still firing at the log's end" if r.get("ongoing", False) else ""))
