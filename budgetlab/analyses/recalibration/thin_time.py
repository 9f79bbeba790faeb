"""The evaluated time's rule for a verdict, one for :func:`budgetlab.recalibrate` and
:func:`budgetlab.latency_recalibrate`: a group with no evaluated time, or less than
:data:`~budgetlab._util.thin.MIN_EVALUATED_HOURS` (one day) of it, gets **no verdict**, "missed"
included, whatever its events; the reason is said in words (:func:`time_words`), its time shares
are withheld with the verdict (``current_share_limit``, ``limit_share``: NaN, the reason beside
them), and what is true as a count stays (events, failures, the evaluated time itself).

:func:`time_kind` decides it (the threshold is :func:`budgetlab._util.thin.too_thin`'s, the
package's one rule for time shares and rates per day); :func:`miss_in_time` applies it to a miss
the failures decide on few events
(:func:`~budgetlab.analyses.recalibration.rules.decided_miss`): 35 of 35 events failing in 6 h
40 min of evaluated time are no verdict, the same in 30 h are a miss.
"""

from __future__ import annotations

from typing import Any

from ..._util.thin import MIN_EVALUATED_HOURS, too_thin
from ..._util.words import some_hours_words

__all__ = ["NO_TIME", "TOO_LITTLE_TIME", "time_kind", "time_words", "miss_in_time",
           "misses_in_time"]

#: The kind of a group without evaluated time (its window held no traffic after warm-up).
NO_TIME = "no_time"
#: The kind of a group with less than :data:`~budgetlab._util.thin.MIN_EVALUATED_HOURS` of it.
TOO_LITTLE_TIME = "too_little_time"


def time_kind(has_time: bool, hours: float | None) -> str:
    """Which rule of the evaluated time withholds a verdict: :data:`NO_TIME`,
    :data:`TOO_LITTLE_TIME` (under :data:`~budgetlab._util.thin.MIN_EVALUATED_HOURS` of
    ``hours``, NaN included), or empty where the time allows one (``hours`` ``None``: a caller
    without the window's clock, the time rule left out).

    >>> time_kind(False, 0.0), time_kind(True, 6 + 2 / 3), time_kind(True, 30.0)
    ('no_time', 'too_little_time', '')
    """
    if not has_time:
        return NO_TIME
    if hours is not None and bool(too_thin(hours)):
        return TOO_LITTLE_TIME
    return ""


def time_words(kind: str, hours: float | None) -> str:
    """Why ``hours`` of evaluated time withhold a verdict (``kind``: :func:`time_kind`'s), in
    words; empty for an empty ``kind``.

    >>> time_words("too_little_time", 6 + 2 / 3)  # doctest: +NORMALIZE_WHITESPACE
    'only 6 h 40 min of evaluated time, too little for time shares and rates per day
    (at least 24 h)'
    >>> time_words("", 30.0)
    ''
    """
    if kind == NO_TIME:
        return ("no evaluated time: the group's window held no traffic after its warm-up in the "
                "evaluated span")
    if kind == TOO_LITTLE_TIME and hours is not None:
        return (f"only {some_hours_words(hours)} of evaluated time, too little for time shares "
                f"and rates per day (at least {MIN_EVALUATED_HOURS:g} h)")
    return ""


def miss_in_time(missed: str, has_time: bool, hours: float | None) -> tuple[str, str, str]:
    """``(missed, kind, words)``: a miss the failures decide (``missed``: the words of
    :func:`~budgetlab.analyses.recalibration.rules.decided_miss`, empty where they decide none)
    stands only where the evaluated time allows a verdict (:func:`time_kind`); where it does not,
    no "missed" is said, and the time's kind and words say why instead. ``("", "", "")``: no
    miss to say, the usual reasons stand.

    >>> miss_in_time("missed: 35 of 35 events failed ...", True, 30.0)
    ('missed: 35 of 35 events failed ...', '', '')
    >>> miss_in_time("missed: 35 of 35 events failed ...", True, 6 + 2 / 3)[1]
    'too_little_time'
    >>> miss_in_time("", True, 6 + 2 / 3)
    ('', '', '')
    """
    kind = time_kind(has_time, hours) if missed else ""
    if kind:
        return "", kind, time_words(kind, hours)
    return missed, "", ""


def misses_in_time(missed: list[str], reasons: list[str], has_time: Any,
                   hours: Any) -> tuple[list[str], list[str]]:
    """Per group, :func:`miss_in_time`: ``(missed, reasons)``, the misses that stand, and the
    verdict's ``reasons`` with the time's words where the time withholds a miss (the reason
    ``latency_recalibrate`` says there too); every other reason as it was.

    >>> misses_in_time(["missed: ...", "missed: ...", ""], ["too few", "too few", "too few"],
    ...                [True, True, True], [30.0, 2.0, 2.0])[1][1:]
    ['only 2 h of evaluated time, too little for time shares and rates per day (at least 24 h)',
     'too few']
    """
    said = [miss_in_time(m, bool(t), float(h))
            for m, t, h in zip(missed, has_time, hours, strict=True)]
    return [x[0] for x in said], [x[2] or r for x, r in zip(said, reasons, strict=True)]
