"""Whether the alert policy is evaluated at all during an incident: its tiers are evaluated at
the end of each bin of the policy's ``freq`` (aligned on the epoch), so an incident shorter than
a bin, between two of those instants (12 s between two minute marks), holds no evaluation, however
long before it the data start; and the words the incident report gives for it
(:func:`~budgetlab.analyses.incident_coverage.tiers_note`, the summary's alert sentence)."""

from __future__ import annotations

from typing import Any

import pandas as pd

from .._util.words import prose_duration

__all__ = ["bin_end", "no_evaluation_inside", "no_evaluation_words", "no_tier_words"]


def bin_end(t: pd.Timestamp, freq: Any) -> pd.Timestamp:
    """The end of the bin of ``freq`` (aligned on the epoch, as the policy's) holding ``t``: the
    first evaluation after ``t``."""
    width = pd.Timedelta(freq)
    return t.floor(width) + width


def no_evaluation_inside(start: pd.Timestamp, end: pd.Timestamp, freq: Any) -> bool:
    """No evaluation of the policy (the end of a bin of ``freq``, aligned on the epoch) falls in
    ``(start, end]``, the incident's evaluations (a 12 s incident between two minute marks): no
    tier is evaluated during it, however long before it the data start.

    >>> t = pd.Timestamp("2026-01-01 18:00:20", tz="UTC")
    >>> no_evaluation_inside(t, t + pd.Timedelta("12s"), "1min")
    True
    >>> no_evaluation_inside(t, pd.Timestamp("2026-01-01 18:01", tz="UTC"), "1min")
    False
    """
    return bool(bin_end(start, freq) > end)


def no_evaluation_words(start: pd.Timestamp, end: pd.Timestamp, freq: Any) -> str:
    """Why no tier was evaluated during an incident :func:`no_evaluation_inside` says so of.

    >>> t = pd.Timestamp("2026-01-01 18:00:20", tz="UTC")
    >>> no_evaluation_words(t, t + pd.Timedelta("12s"), "1min")
    "no 1 min evaluation falls inside the incident's 12 s (the alert tiers are evaluated at the \
end of each 1 min bin)"
    """
    step = prose_duration(pd.Timedelta(freq))
    return (f"no {step} evaluation falls inside the incident's {prose_duration(end - start)} "
            f"(the alert tiers are evaluated at the end of each {step} bin)")


def no_tier_words(name: str, has_page: bool, start: pd.Timestamp, end: pd.Timestamp,
                  freq: Any) -> str:
    """The summary's words when :func:`no_evaluation_inside` holds: no tier of the policy
    ``name`` was evaluated, so whether it would have paged (fired, without page tiers) is not
    known (before stop 63 their windows were said to reach before the data's start)."""
    return (f"no tier of {name} was evaluated during the incident: "
            f"{no_evaluation_words(start, end, freq)}, so whether it would have "
            f"{'paged' if has_page else 'fired'} is not known")
