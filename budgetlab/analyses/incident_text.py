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

from .._util.burns import expected_failures_words, three_digits
from .._util.percent import measured_percent
from .._util.words import counted, duration_words, prose_duration
from ..alerts.policy import AlertPolicy
from ..events.schema import FAILURE, TIMEOUT
from ..slo import SLO
from .incident_budget_text import budget_sentence
from .incident_coverage import (
    all_unevaluated,
    late_from,
    not_known_words,
    partly_evaluated,
    partly_known_words,
    silent_others_words,
    unevaluated_words,
)
from .incident_end_words import clock_words, detection_span_words, grace_cut_words
from .incident_focus import focus_words
from .incident_group_words import all_groups, for_group, group_label
from .incident_tables import closest_tier
from .incident_tier_reach import reach_words
from .incident_tracker_text import between, tracker_sentence
from .recalibration.rules import MIN_EXPECTED_FAILURES, too_few_events

__all__ = ["between", "summary_text", "tracker_sentence", "bucket_sentence", "alert_sentence",
           "budget_sentence", "every"]


_clock = clock_words  # local time of day, with the date when not the day of the reference


def _sentence(text: str) -> str:
    return text[0].upper() + text[1:] + "."


def summary_text(*, start: pd.Timestamp, end: pd.Timestamp, tz: str, slo: SLO, by: Sequence[str],
                 breakdown_by: Sequence[str], scope: str, tracker: pd.DataFrame,
                 buckets: pd.DataFrame, tiers: pd.DataFrame, policy: AlertPolicy,
                 budget: pd.DataFrame, freq: Any = "1min",
                 data_end: pd.Timestamp | None = None, grace: Any = "0s",
                 data_start: pd.Timestamp | None = None) -> str:
    """The paragraph: :func:`tracker_sentence`, :func:`bucket_sentence`, :func:`alert_sentence`
    and :func:`budget_sentence` (when the incident had events). The tracker's burns are at its
    events; the policy's at the end of every bin of ``freq``, up to the data's end when the log
    (its last event: ``data_end``) ends before the incident does: each sentence says which. An
    alert detects the incident up to ``grace`` after its end (``budgetlab alerts``' rule).
    When the log (from its first event ``data_start``, when given, to ``data_end``) holds only
    part of the incident the budget sentence names that part; when it holds none of it, its
    failures are not known, never "no failures"."""
    # the policy's evaluations read data up to the end of the bin (epoch-aligned) of the log's
    # last event: said when that cuts the incident
    cut = data_end is not None and _bin_end(data_end, freq) < end
    # the failures the incident's events were allowed under each group's own target
    expected = float((budget["failures"] - budget["excess_failures"]).sum()) if len(budget) else 0.0
    outside = ((data_end is not None and data_end < start)
               or (data_start is not None and data_start >= end))
    parts = [tracker_sentence(start, end, tz, slo, by, scope, tracker,
                              data_end if data_end is not None and data_end < end else None)
             + ("" if outside else focus_words(tracker, budget, by)),
             "How many failures it had is not known either." if outside else
             bucket_sentence(buckets, breakdown_by, tracker, expected_failures=expected,
                             keys=by, scope=scope, groups=len(budget)),
             alert_sentence(tiers, policy, by, start, tz, freq=freq,
                            data_end=data_end if cut else None, target=slo.target,
                            end=end, grace=grace, last_event=data_end)]
    if len(budget) and int(budget["events"].sum()):
        parts.append(budget_sentence(budget, slo, policy, end - start, keys=by, scope=scope,
                                     tz=tz, in_log=_in_log(start, end, data_start, data_end,
                                                           freq, tz)))
    return " ".join(parts)


def _in_log(start: pd.Timestamp, end: pd.Timestamp, data_start: pd.Timestamp | None,
            data_end: pd.Timestamp | None, freq: Any, tz: str) -> tuple[pd.Timedelta, str] | None:
    """The part of the incident the log holds, its length and where the log cuts it (``"to
    21:59"``, ``"from 10:05"``, ``"from 10:05 to 11:00"``), when the log starts or ends inside it
    (``None``: it holds all of it). The log is read to the end of the bin of ``freq`` of its
    last event and from the start of its first's, as the policy's evaluations read it: a log a
    minute whose last event is at 01:59 holds an incident that ends at 02:00.

    >>> t = pd.Timestamp("2026-04-01 18:00", tz="UTC")
    >>> _in_log(t, t + pd.Timedelta("6h"), None, t + pd.Timedelta("119min"), "1min", "CET")
    (Timedelta('0 days 02:00:00'), 'to 21:59')
    """
    lo = start if data_start is None else max(start, data_start.floor(pd.Timedelta(freq)))
    hi = end if data_end is None else min(end, _bin_end(data_end, freq))
    if (lo, hi) == (start, end) or hi <= lo:
        return None
    said = [f"from {_clock(data_start, tz, start)}" if lo > start and data_start is not None
            else "", f"to {_clock(data_end, tz, start)}" if hi < end and data_end is not None
            else ""]
    return hi - lo, " ".join(w for w in said if w)


def bucket_sentence(buckets: pd.DataFrame, bkeys: Sequence[str], tracker: pd.DataFrame, *,
                    expected_failures: float, keys: Sequence[str] = (), scope: str = "*",
                    groups: int = 0) -> str:
    """The largest failure bucket, and what the incident would have been without timeouts.

    The success rate without timeouts is over every group of ``buckets`` together (said so when
    there are several, within the incident's ``scope`` when it has one); it is
    withheld, the reason in one clause, when those events are too thin for a verdict by the
    failure-buckets table's rule (:func:`~.recalibration.rules.too_few_events`: fewer than
    :data:`~.recalibration.rules.MIN_EXPECTED_FAILURES` expected failures;
    ``expected_failures`` is their sum under each group's own target, the budget table's
    ``failures - excess_failures``). The status changes timeouts caused are the replay of the
    tracker of ``tracker``'s first row (the group of ``keys`` it names), said either way. With
    ``groups`` (the report's groups of ``keys``, its budget table's rows) more than those of
    ``buckets`` (the groups with events in the incident), the groups are said as those with
    events in the incident (the budget sentence counts the events of all ``groups``)."""
    b = buckets
    of = groups if list(bkeys) == list(keys) else 0
    total_fail = int(b["failures"].sum()) if len(b) else 0
    if total_fail == 0:
        return "There were no failures during the incident."
    top = b.iloc[int(np.argmax(b["failures"].to_numpy()))]
    where = f" in {group_label(top, bkeys)}" if bkeys else ""
    if len(bkeys) == 1:
        where = f" in {top[bkeys[0]]}"
    kinds = set(b.loc[b["failures"] > 0, "bucket"].astype(str))
    if kinds == {FAILURE} and not where:  # one unnamed kind, one group: nothing to break down
        return "The log names no kind of failure, so there is no breakdown by kind."
    # the log's unnamed kind ("failure"): where they were, not "failures were failures"
    bucket = (("" if kinds == {FAILURE} else " unnamed failures") if str(top["bucket"]) == FAILURE
              else " " + str(top["bucket"]).replace("_", " ") + "s")
    txt = (f"{measured_percent(top['share_of_all_failures'], 0)} of the failures"
           f"{all_groups(b, bkeys, scope, mid=True, of=of)} were{bucket}{where}"
           f"{_of_its_group(top, bkeys, b, kinds)}")
    to = b[b["bucket"].astype(str) == TIMEOUT]
    n_to = int(to["failures"].sum()) if len(to) else 0
    if n_to:
        ev_g = (b.drop_duplicates(subset=list(bkeys) or None)["events"].sum() if bkeys
                else int(b["events"].iloc[0]))
        ok = int(ev_g) - total_fail
        sli = ok / ev_g
        sli_wo = ok / (ev_g - n_to) if ev_g > n_to else 1.0
        share = ("" if not bkeys and str(top["bucket"]) == TIMEOUT
                 else f" ({measured_percent(n_to / total_fail, 0)} of all failures)")
        # the rule of the table's note, over these events: their targets' mean, weighted by events
        thin = bool(too_few_events(int(ev_g), 1.0 - expected_failures / ev_g))
        together = all_groups(b, bkeys, scope, mid=True, of=of)
        if thin:
            # the words of the rule's own sentence (too_few_events), as the buckets' note says it
            txt += (f"; the success rate{together} without timeouts{share} is withheld (the "
                    f"incident's {counted(int(ev_g), 'event')} "
                    f"{'holds' if ev_g == 1 else 'hold'} "
                    f"{expected_failures_words(expected_failures)} under the target: too few for "
                    f"a verdict, one needs at least {MIN_EXPECTED_FAILURES})")
        else:
            txt += (f"; without timeouts{share} the success rate{together} would have"
                    f" been {measured_percent(sli_wo)} instead of {measured_percent(sli)}")
        caused = int(tracker["transitions_caused_by_timeouts"].iloc[0]) if len(tracker) else 0
        n_tr = int(tracker["transitions"].iloc[0]) if len(tracker) else 0
        if n_tr:
            change = f"change{'s' if n_tr != 1 else ''}"
            whose = (f"the {n_tr:,} status {change} of the "
                     f"tracker{for_group(tracker.iloc[0], keys)}"
                     if keys else f"the tracker's {n_tr:,} status {change}")
            if caused == 0:  # never "0 of the 4 would not have happened"
                every = "every one of " if n_tr > 1 else ""
                txt += (f"; {every}{whose} would have happened without timeouts too" if thin
                        else f", and {every}{whose} would have happened without them too")
            else:
                txt += (f"; without timeouts {caused} of {whose} would not have happened" if thin
                        else f", and {caused} of {whose} would not have happened")
    return _sentence(txt)


def _of_its_group(top: pd.Series, bkeys: Sequence[str], buckets: pd.DataFrame,
                  kinds: set[str]) -> str:
    """`` (75 % of fra's failures)``: the top bucket's share of its own group's failures, beside
    its share of every group's (the sentence's figure), when the incident had several groups and
    the log names kinds of failure (one unnamed kind is all of its group's failures)."""
    if not all_groups(buckets, bkeys) or kinds == {FAILURE}:
        return ""
    whose = f"{top[bkeys[0]]}'s" if len(bkeys) == 1 else "that group's"
    return f" ({measured_percent(top['share_of_failures'], 0)} of {whose} failures)"


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
                   last_event: pd.Timestamp | None = None) -> str:
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
    report knows it). "Would not have paged" (fired) is said only when every page tier (tier)
    that could fire was evaluated during the incident: when some were and others were not,
    whether it would have paged is not known, both named
    (:func:`~.incident_coverage.partly_known_words`)."""
    name = f"the {policy.name} policy" if policy.name else "the alert policy"
    fired = tiers[tiers["fired"]].sort_values("first_alert", kind="stable") if len(tiers) else tiers
    has_page = any(t.severity == "page" for t in policy.tiers)
    pages = fired[fired["severity"] == "page"] if len(fired) else fired

    def when(r: pd.Series, tier: str = "") -> str:
        return _when(r, tier, start, tz, end, grace)

    def others(rows: pd.DataFrame, verb: str) -> str:
        n = len(rows.drop_duplicates(subset=list(keys))) - 1 if keys else 0
        return f"; {n:,} other group{'s' if n > 1 else ''} {verb} too" if n > 0 else ""

    if has_page and len(pages):
        p = pages.iloc[0]
        txt = f"{name} would have paged{for_group(p, keys)} {when(p, str(p['tier']))}"
        txt += others(pages, "paged")
        if bool(pages["caused_by_timeouts"].all()):
            txt += ("; timeouts alone caused the page" if len(pages) == 1
                    else f"; timeouts alone caused all {len(pages):,} pages")
    elif not has_page and len(fired):
        r = fired.iloc[0]
        txt = (f"{name} would have fired {r['tier']} ({r['severity']}){for_group(r, keys)} "
               f"{when(r)}{others(fired, 'fired')}")
    elif data_end is not None and _bin_end(data_end, freq) <= start:
        return _sentence(f"the log ends before the incident, so what {name} would have done "
                         "during it is not known")
    elif all_unevaluated(tiers, "page" if has_page else None):  # every tier that could page
        txt = not_known_words(name, has_page, tiers)
        if has_page and len(fired):  # a ticket known to have fired is said, as below
            r = fired.iloc[0]
            txt += (f"; its {r['tier']} tier would have raised a {r['severity']}"
                    f"{for_group(r, keys)} {when(r)}{others(fired, 'raised one')}")
        txt += reach_words(tiers, policy, target, keys, grace=grace)
        # the other tiers not evaluated either (the page tiers are named above)
        return _sentence(txt + unevaluated_words(tiers[tiers["severity"] != "page"] if has_page
                                                 else tiers.iloc[:0], None))
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
            r = fired.iloc[0]
            txt += (f"; its {r['tier']} tier would have raised a {r['severity']}"
                    f"{for_group(r, keys)} {when(r)}{others(fired, 'raised one')}")
        elif has_page:  # of the tiers known silent only
            txt += silent_others_words(tiers, "; " if partly else " and ")
        # the unevaluated tiers that could page (fire) are named above when partly
        rest = tiers if not partly else (tiers[tiers["severity"] != "page"] if has_page
                                         else tiers.iloc[:0])
        txt += unevaluated_words(rest, None)
        if end is not None and (cut := grace_cut_words(tiers, end, grace, tz, last_event)):
            txt += f"; {cut}"  # not "did not page" through a grace the log does not hold
    return _sentence(txt + reach_words(tiers, policy, target, keys, grace=grace))


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
    if late_from(near, _bin_end(start, freq)):  # its window reached before the data until then
        upto = (f" from {_clock(near['evaluated_from'], tz, start)} (its first window "
                f"after the data's start){upto}")
    return (f" ({whose} {prose_duration(near['long_window'])} burn{for_group(near, keys)}, "
            f"evaluated {every(freq)}{upto}, peaked at {three_digits(near['peak_burn_long'])}, "
            f"its threshold is {near['burn']:g}{_why_silent(near, policy, grace)})")


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


def _why_silent(near: pd.Series, policy: AlertPolicy, grace: Any) -> str:
    """Why the tier of ``near`` (a tiers row) did not fire when its peak long-window burn was
    over its threshold (``""`` when it was not): its short window was never over it at the same
    evaluation, or both were but no alert began during the incident or its ``grace``
    (``for_``)."""
    if not near["peak_burn_long"] > near["burn"]:
        return ""
    tier = next(t for t in policy.tiers if t.name == near["tier"])
    if not near["condition_held"]:
        if tier.short_window is None:
            return ", but its alert condition never held"
        short = prose_duration(tier.short_window)
        if pd.isna(near.get("peak_burn_short", 0.0)):  # no traffic, not a burn of 0
            return f", but its {short} window held no event at any of those evaluations"
        n = int(near.get("short_window_empty", 0))
        some = (f" (at {counted(n, 'evaluation')} its {short} window held no event: no burn "
                f"{'there' if n > 1 else 'then'}, no traffic)" if n else "")
        return f", but its {short} burn was never over it at the same evaluation{some}"
    wait = f" (for_ {prose_duration(tier.for_)})" if tier.for_ > pd.Timedelta(0) else ""
    return (f", and both its windows were over it, but no alert of it began "
            f"{detection_span_words(grace)}{wait}")


def _bin_end(t: pd.Timestamp, freq: Any) -> pd.Timestamp:
    """The end of the bin of ``freq`` (aligned on the epoch, as the policy's) holding ``t``."""
    width = pd.Timedelta(freq)
    return t.floor(width) + width
