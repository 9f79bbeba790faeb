"""The incident summary's failure-buckets sentence (:mod:`budgetlab.analyses.incident_text`):
the largest failure bucket, where it was, and what the incident would have been without
timeouts, over the groups the budget sentence counts (those without an event named)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from .._util.burns import expected_failures_words
from .._util.percent import measured_percent
from .._util.words import counted
from ..events.schema import FAILURE, TIMEOUT
from .incident_group_words import all_groups, for_group, group_label
from .recalibration.rules import MIN_EXPECTED_FAILURES, decided_miss, too_few_events

__all__ = ["as_sentence", "bucket_sentence"]


def as_sentence(text: str) -> str:
    """``text`` as a sentence: its first letter capital, a full stop after it.

    >>> as_sentence("the log ends")
    'The log ends.'
    """
    return text[0].upper() + text[1:] + "."


def bucket_sentence(buckets: pd.DataFrame, bkeys: Sequence[str], tracker: pd.DataFrame, *,
                    expected_failures: float, keys: Sequence[str] = (), scope: str = "*",
                    groups: int = 0, none: Sequence[str] = (), over: str = "") -> str:
    """The largest failure bucket, and what the incident would have been without timeouts.

    The success rate without timeouts is over every group of ``buckets`` together (said so when
    there are several, within the incident's ``scope`` when it has one); it is withheld, the
    reason in one clause, when those events are too thin for a verdict by the failure-buckets
    table's rule (:func:`~.recalibration.rules.too_few_events`: fewer than
    :data:`~.recalibration.rules.MIN_EXPECTED_FAILURES` expected failures; ``expected_failures``
    is their sum under each group's own target, the budget table's ``failures -
    excess_failures``), unless the failures left without timeouts decide a miss all the same
    over the events left (:func:`~.recalibration.rules.decided_miss`, the budget sentence's
    exception: then the rate is given, and why). The status changes timeouts caused are the
    replay of the tracker of ``tracker``'s first row (the group of ``keys`` it names), said
    either way. With ``groups`` (the report's groups of ``keys``, its budget table's rows) more
    than those of ``buckets`` (the groups with events in the incident), the failures are said of
    all ``groups``, those without an event named (``none``: their labels), as the budget
    sentence counts them (which then says "the same groups"). ``over``: the part of the incident
    the log holds when it cuts the incident (:func:`~.incident_budget_text.over_words`), said
    when there were no failures in it."""
    b = buckets
    of = groups if list(bkeys) == list(keys) else 0
    named = none if of else ()
    total_fail = int(b["failures"].sum()) if len(b) else 0
    if total_fail == 0:  # over the part of the incident in the log, when that is a part
        return f"{over} the incident saw no failures." if over else \
            "There were no failures during the incident."
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
           f"{all_groups(b, bkeys, scope, mid=True, of=of, none=named)} were{bucket}{where}"
           f"{_of_its_group(top, bkeys, b, kinds)}")
    to = b[b["bucket"].astype(str) == TIMEOUT]
    n_to = int(to["failures"].sum()) if len(to) else 0
    if n_to:
        ev_g = (b.drop_duplicates(subset=list(bkeys) or None)["events"].sum() if bkeys
                else int(b["events"].iloc[0]))
        share = ("" if not bkeys and str(top["bucket"]) == TIMEOUT
                 else f" ({measured_percent(n_to / total_fail, 0)} of all failures)")
        # the groups without an event named once, in the sentence's first count of them
        together = all_groups(b, bkeys, scope, mid=True, of=of, none=named, again=True)
        clause, thin = _rate_without(int(ev_g), total_fail, n_to, expected_failures,
                                     share, together)
        txt += clause
        caused = int(tracker["transitions_caused_by_timeouts"].iloc[0]) if len(tracker) else 0
        n_tr = int(tracker["transitions"].iloc[0]) if len(tracker) else 0
        if n_tr:
            change = f"change{'s' if n_tr != 1 else ''}"
            count = f"{n_tr:,}" if n_tr != 1 else "one"
            whose = (f"the {count} status {change} of the "
                     f"tracker{for_group(tracker.iloc[0], keys)}"
                     if keys else f"the tracker's {count} status {change}")
            if caused == 0:  # never "0 of the 4 would not have happened"
                every = "every one of " if n_tr > 1 else ""
                txt += (f"; {every}{whose} would have happened without timeouts too" if thin
                        else f", and {every}{whose} would have happened without them too")
            else:  # never "1 of the 1 status change", nor "3 of the 3"
                part = (whose if n_tr == 1 else f"{caused} of {whose}" if caused < n_tr
                        else _all_changes(n_tr, for_group(tracker.iloc[0], keys) if keys
                                          else None))
                txt += (f"; without timeouts {part} would not have happened" if thin
                        else f", and {part} would not have happened")
    return as_sentence(txt)


def _all_changes(n: int, group: str | None) -> str:
    """``all 3 status changes of the tracker for g=a`` (``group``: its words; ``None``: ``all 3
    of the tracker's status changes``); two are ``both``.

    >>> _all_changes(2, None), _all_changes(3, " for g=a")
    ("both of the tracker's status changes", 'all 3 status changes of the tracker for g=a')
    """
    every = "both" if n == 2 else f"all {n:,}"
    return (f"{every} of the tracker's status changes" if group is None
            else f"{every} status changes of the tracker{group}")


def _rate_without(events: int, failures: int, timeouts: int, expected_failures: float,
                  share: str, together: str) -> tuple[str, bool]:
    """The clause of the success rate without timeouts over ``events`` (``failures`` of them,
    ``timeouts`` among those), and whether it is withheld: by the rule of the buckets table's
    note, over these events (their targets' mean, weighted by events, from
    ``expected_failures``), unless the failures left without timeouts decide a miss all the
    same over the events left (the budget sentence's exception, ``decided_miss``)."""
    ok = events - failures
    mean_target = 1.0 - expected_failures / events
    thin = bool(too_few_events(events, mean_target))
    left, left_failed = events - timeouts, failures - timeouts
    decided = thin and bool(decided_miss(left, left_failed, mean_target))
    if thin and not decided:
        # the words of the rule's own sentence (too_few_events), as the buckets' note says it
        return (f"; the success rate{together} without timeouts{share} is withheld (the "
                f"incident's {counted(events, 'event')} {'holds' if events == 1 else 'hold'} "
                f"{expected_failures_words(expected_failures)} under the target: too few for "
                f"a verdict, one needs at least {MIN_EXPECTED_FAILURES})"), True
    rate = ok / left if left > 0 else 1.0
    return (f"; without timeouts{share} the success rate{together} would have been "
            f"{measured_percent(rate)} instead of {measured_percent(ok / events)}"
            + (_still_missed(left, left_failed) if decided else "")), False


def _still_missed(events: int, failures: int) -> str:
    """Why a rate of thin events is given: the failures left decide a miss all the same.

    >>> _still_missed(585, 45)
    ' (585 events, too few for a verdict, but their 45 failures decide a miss all the same)'
    """
    return (f" ({counted(events, 'event')}, too few for a verdict, but their "
            f"{counted(failures, 'failure')} decide a miss all the same)")


def _of_its_group(top: pd.Series, bkeys: Sequence[str], buckets: pd.DataFrame,
                  kinds: set[str]) -> str:
    """`` (75 % of fra's failures)``: the top bucket's share of its own group's failures, beside
    its share of every group's (the sentence's figure), when the incident had several groups and
    the log names kinds of failure (one unnamed kind is all of its group's failures)."""
    if not all_groups(buckets, bkeys) or kinds == {FAILURE}:
        return ""
    whose = f"{top[bkeys[0]]}'s" if len(bkeys) == 1 else "that group's"
    return f" ({measured_percent(top['share_of_failures'], 0)} of {whose} failures)"
