"""The rules of :func:`budgetlab.recalibrate` (said in the package's doc): when the evidence is too
thin (:func:`thin_evidence`), when a miss is decided all the same (:func:`decided_miss`) and how
far the events support a target (:func:`supported_targets`). Which window would do and why no
target meets the rule: :mod:`~budgetlab.analyses.recalibration.no_target`; the verdict on the
current target: :mod:`~budgetlab.analyses.recalibration.verdict`.
"""

from __future__ import annotations

import decimal
import math
from typing import Any

import numpy as np

from ..._util.burns import expected_failures_words
from ..._util.percent import given_fraction, given_percent, measured_percent
from ..._util.words import counted
from .candidates import USUAL_TARGETS
from .thin_time import NO_TIME, time_kind, time_words

__all__ = ["MIN_EXPECTED_FAILURES", "MIN_TRAFFIC_DAYS", "thin_evidence",
           "thin_kind", "events_for", "MISS_LEVEL", "LEVEL_NOISE", "failure_tail", "decided_miss",
           "beyond_evidence", "too_few_events", "supported_targets", "widen_to_support",
           "cap_notes", "recommendation_name", "capped_words", "capped_action", "NO_BOOTSTRAP",
           "NO_INTERVAL"]

#: Fewest expected failures (events x (1 - target)) in the evaluated span for a verdict.
MIN_EXPECTED_FAILURES = 10

#: At this probability or below a miss is decided on few events (:func:`decided_miss`): the chance
#: that a service meeting the target fails as often as observed.
MISS_LEVEL = 0.001

#: The relative float noise of :func:`failure_tail` (its ``lgamma`` terms hold ~1e-8 at ten million
#: events) within which a tail is read as :data:`MISS_LEVEL` itself: ``0.1 ** 3`` is 0.1 %.
LEVEL_NOISE = 1e-6

#: Fewest day blocks with traffic in the evaluated span for the day-block bootstrap.
MIN_TRAFFIC_DAYS = 2


def events_for(target: float) -> int:
    """The fewest events that hold :data:`MIN_EXPECTED_FAILURES` expected failures under
    ``target``, with a relative tolerance for the float rounding of ``1 - target`` (10 / (1 -
    0.9999) is 100000.00000001 in floats: 100,000 events, not 100,001).

    >>> events_for(0.95), events_for(0.9999)
    (200, 100000)
    """
    return int(np.ceil(MIN_EXPECTED_FAILURES / (1 - target) * (1 - 1e-9)))


def thin_evidence(events: int, target: float, traffic_days: int, has_time: bool, *,
                  hours: float | None = None, judged_at: str = "current",
                  bootstrap: bool = True) -> str:
    """Why one group's evidence is too thin for a verdict, in words; empty when it is enough.

    ``target`` is the one the expected failures are counted under, and ``judged_at`` says which
    it is, so that the words name it: ``"current"`` (the current target), ``"recommended"`` (no
    current target: the one the rule would recommend) or ``"lowest"`` (neither: the lowest
    usual target, :data:`~.candidates.USUAL_TARGETS`' 50 %, at or below every candidate);
    ``"lowest_for_rule"`` weighs the recommendation alone at 50 % where a current target was
    given (and judged apart), and says "too few for a recommendation". A NaN
    ``target`` is counted at 50 % too, and the words say so. ``hours`` is the evaluated time: under
    :data:`~budgetlab._util.thin.MIN_EVALUATED_HOURS` its time shares and rates per day are too
    thin (``None``, for a caller without the window's clock, leaves that rule out; the rule and
    its words: :mod:`~budgetlab.analyses.recalibration.thin_time`). The day
    blocks count for the day-block bootstrap only: without one (``bootstrap=False``, ``n_boot=0``)
    that rule is left out, and the reason is the one that applies (a history of an hour is too
    little time, never "too few for the day-block bootstrap" that nobody asked for).

    >>> thin_evidence(5, 0.95, 1, True)
    '5 events in the evaluated span: too few for a verdict (under 95 % they hold 0.25 expected
    failures; one needs at least 10, i.e. 200 events)'
    >>> thin_evidence(5, 0.5, 1, True, judged_at="lowest")
    '5 events in the evaluated span: too few for a verdict (no target given and none to
    recommend: at 50 %, the lowest usual target, they hold 2.5 expected failures; one
    needs at least 10, i.e. 20 events)'
    >>> thin_evidence(5, 0.5, 1, True, judged_at="lowest_for_rule")
    '5 events in the evaluated span: too few for a recommendation (at 50 %, the lowest usual
    target, they hold 2.5 expected failures; one needs at least 10, i.e. 20 events)'
    >>> thin_evidence(5000, 0.95, 1, True)
    '1 day with traffic in the evaluated span: too few for the day-block bootstrap (at least 2)'
    >>> thin_evidence(5000, 0.95, 1, True, hours=1.0, bootstrap=False)
    'only 1 h of evaluated time, too little for time shares and rates per day (at least 24 h)'
    >>> thin_evidence(5000, 0.95, 2, True, hours=5.0)
    'only 5 h of evaluated time, too little for time shares and rates per day (at least 24 h)'
    >>> thin_evidence(5000, 0.95, 9, True, hours=200.0)
    ''
    """
    kind = thin_kind(events, target, traffic_days, has_time, hours=hours, bootstrap=bootstrap)
    if kind == "too_few_events":
        return too_few_events(events, target, judged_at=judged_at)
    if kind == "too_few_days":
        return (f"{counted(traffic_days, 'day')} with traffic in the evaluated span: too few for "
                f"the day-block bootstrap (at least {MIN_TRAFFIC_DAYS})")
    return time_words(kind, hours)  # the evaluated time's rule (thin_time), or none


def thin_kind(events: int, target: float, traffic_days: int, has_time: bool, *,
              hours: float | None = None, bootstrap: bool = True) -> str:
    """Which rule of :func:`thin_evidence` withholds a verdict (its arguments as there), the first
    that applies: ``"no_time"``, ``"too_few_events"`` (fewer than :func:`events_for` ``target``),
    ``"too_little_time"`` (under a day of evaluated time: the more basic reason, given before
    the days), ``"too_few_days"`` (with ``bootstrap`` only); empty when the evidence
    is enough. The kind a caller groups reasons by, their figures apart (never the words parsed
    back).

    >>> thin_kind(12, 0.5, 1, True), thin_kind(107, 0.9, 1, True), thin_kind(0, 0.5, 0, False)
    ('too_few_events', 'too_few_days', 'no_time')
    """
    time = time_kind(has_time, hours)  # the evaluated time's rule, one for every verdict
    if time == NO_TIME:
        return time
    if not _holds_enough(events, target if np.isfinite(target) else USUAL_TARGETS[0]):
        return "too_few_events"
    if time:  # the basic reason: days need that time first
        return time
    if bootstrap and traffic_days < MIN_TRAFFIC_DAYS:
        return "too_few_days"
    return ""


def beyond_evidence(events: int, target: float) -> str:
    """Why ``target`` is above what ``events`` in the evaluated span can judge, in words (the
    rule stops below it: :func:`thin_evidence` withholds it).

    >>> beyond_evidence(288, 0.999)
    '99.9 % would need 10,000 events in the evaluated span (10 expected failures); it holds 288'
    """
    return (f"{given_percent(target)} would need {events_for(target):,} events in the evaluated "
            f"span ({MIN_EXPECTED_FAILURES} expected failures); it holds {events:,}")


def too_few_events(events: int, target: float, *, judged_at: str = "current",
                   span: str = "the evaluated span") -> str:
    """The first rule of :func:`thin_evidence`: fewer ``events`` in ``span`` than hold
    :data:`MIN_EXPECTED_FAILURES` expected failures under ``target`` (``judged_at`` as there), in
    words; empty when there are enough. The one rule for every figure judged against a target
    (:func:`budgetlab.bucket_breakdown` uses it per group with ``span="the group"``).

    >>> too_few_events(1, 0.95, span="the group")
    '1 event in the group: too few for a verdict (under 95 % it holds 0.05 expected failures; one
    needs at least 10, i.e. 200 events)'
    >>> too_few_events(200, 0.95)
    ''
    >>> too_few_events(2, 0.5).split("; ")[0]
    '2 events in the evaluated span: too few for a verdict (under 50 % they hold 1 expected failure'
    >>> too_few_events(1, 0.99999).split("; ")[0]  # 0.00001, never 1e-05
    '1 event in the evaluated span: too few for a verdict (under 99.999 % it holds 0.00001 expected
    failures'
    """
    if not np.isfinite(target):
        target, judged_at = USUAL_TARGETS[0], "usual"
    expected = events * (1 - target)
    if _holds_enough(events, target):
        return ""
    need = events_for(target)
    # weighed for the recommendation alone (a current target was given, and judged apart)
    what = "a recommendation" if judged_at == "lowest_for_rule" else "a verdict"
    return (f"{counted(events, 'event')} in {span}: too few for {what} "
            f"({_judged_at(target, judged_at)} {'it holds' if events == 1 else 'they hold'} "
            f"{expected_failures_words(expected)}; "
            f"one needs at least {MIN_EXPECTED_FAILURES}, i.e. {need:,} events)")


def failure_tail(failures: int, events: int, rate: float) -> float:
    """``P(X >= failures)`` for ``X ~ Binomial(events, rate)``: the one-sided exact tail, its first
    term in log space (``math.lgamma``), each next one by the ratio ``(n - k) / (k + 1) * rate /
    (1 - rate)``, summed until the rest cannot change it.

    >>> round(failure_tail(3, 10, 0.01), 8), failure_tail(0, 5, 0.5), failure_tail(6, 5, 0.5)
    (0.00011385, 1.0, 0.0)
    """
    if failures <= 0:
        return 1.0
    if failures > events or rate <= 0:
        return 0.0
    if rate >= 1:
        return 1.0
    first = (math.lgamma(events + 1) - math.lgamma(failures + 1)
             - math.lgamma(events - failures + 1) + failures * math.log(rate)
             + (events - failures) * math.log1p(-rate))
    total, term, odds = 0.0, 1.0, rate / (1 - rate)
    for k in range(failures, events + 1):  # terms relative to the first
        total += term
        term *= (events - k) / (k + 1) * odds
        if term <= total * 1e-17:  # past the mode: the rest adds nothing a double holds
            break
    return math.exp(first) * total


def decided_miss(events: int, failures: int, target: float, *, failed: str = "failed") -> str:
    """A verdict of **missed** despite too few events for a verdict (:func:`too_few_events`), in
    words, where the failures decide it: a service meeting ``target`` (failing at ``1 -
    target``) would fail ``failures`` times or more in ``events`` with probability at most
    :data:`MISS_LEVEL` (:func:`failure_tail`), said ``< 0.1 %`` below it and ``0.1 %`` at it
    (within :data:`LEVEL_NOISE`: 3 of 3 at 90 % is 0.1 ** 3); empty otherwise: where the events
    are enough for a verdict (the usual rules judge), or too few and the failures decide nothing
    (withheld as ever). A caller with the window's clock says it only where the evaluated time
    allows a verdict (:func:`~budgetlab.analyses.recalibration.thin_time.miss_in_time`: under a
    day of it, no "missed" either). "Met" is never given on thin evidence: few events cannot
    show a 99 % service is 99 %. ``failed`` says what failing is (latency: ``"slower than 1 s
    or failed"``).

    >>> decided_miss(66, 65, 0.95)  # doctest: +NORMALIZE_WHITESPACE
    'missed: 65 of 66 events failed (98.48 %); even with 66 events, a service at 95 % would fail
    this often with probability < 0.1 %'
    >>> decided_miss(66, 10, 0.95), decided_miss(200, 190, 0.95)  # P(X >= 10) = 0.0016; enough
    ('', '')
    """
    if not np.isfinite(target) or _holds_enough(events, target):
        return ""
    tail = failure_tail(failures, events, 1 - target)
    if not tail <= MISS_LEVEL * (1 + LEVEL_NOISE):
        return ""
    below = "< " if tail < MISS_LEVEL * (1 - LEVEL_NOISE) else ""
    return (f"missed: {failures:,} of {counted(events, 'event')} {failed} "
            f"({measured_percent(failures / events)}); even with {counted(events, 'event')}, "
            f"a service at {given_percent(target)} would fail this often with probability "
            f"{below}{given_percent(MISS_LEVEL)}")


def _holds_enough(events: int, target: float) -> bool:
    """Whether ``events`` hold :data:`MIN_EXPECTED_FAILURES` expected failures under ``target``
    (with the float tolerance of :func:`events_for`)."""
    return bool(events * (1 - target) >= MIN_EXPECTED_FAILURES * (1 - 1e-9))


def _judged_at(target: float, judged_at: str) -> str:
    """The target :func:`thin_evidence` counted under, named as what it is."""
    if judged_at == "current":
        return f"under {given_percent(target)}"
    if judged_at == "recommended":
        return f"no target given: at {given_percent(target)}, the target the rule would recommend,"
    if judged_at == "lowest_for_rule":
        return f"at {given_percent(target)}, the lowest usual target,"
    what = ("the lowest usual target" if judged_at == "lowest"
            else "the lowest target the candidates start from")
    return f"no target given and none to recommend: at {given_percent(target)}, {what},"


def supported_targets(events: np.ndarray, grid: np.ndarray, in_range: np.ndarray) -> np.ndarray:
    """``in_range`` (groups x grid) without the targets the evidence cannot support: those under
    which a group's evaluated events hold fewer than :data:`MIN_EXPECTED_FAILURES` expected failures
    (``events * (1 - target) < 10``). Zero failures in 4,000 events support 99.5 %, not 99.99 %.

    >>> supported_targets(np.array([4000, 100]), np.array([0.9, 0.995, 0.9999]),
    ...                   np.ones((2, 3), bool)).tolist()
    [[True, True, False], [True, False, False]]
    """
    return np.asarray(in_range & (grid[None, :] <= _ceiling(events)[:, None] + 1e-12))


def _ceiling(events: Any) -> np.ndarray:
    """The highest target under which ``events`` hold :data:`MIN_EXPECTED_FAILURES` expected
    failures."""
    return 1.0 - MIN_EXPECTED_FAILURES / np.maximum(np.asarray(events, dtype=np.float64), 1.0)


def widen_to_support(lo: np.ndarray, events: np.ndarray) -> np.ndarray:
    """Each group's lowest candidate ``lo``, lowered to the highest usual target the evidence
    supports (:func:`supported_targets`) where the whole range lies above it: then a target the
    rule accepts exists below the range (a lower target is never more often exhausted).

    >>> widen_to_support(np.array([0.9999, 0.9]), np.array([4000, 4000])).tolist()
    [0.995, 0.9]
    """
    usual = np.asarray(USUAL_TARGETS)
    below = [usual[usual <= t + 1e-12] for t in _ceiling(events).tolist()]
    cap = np.array([b[-1] if len(b) else np.nan for b in below])
    return np.where(np.isfinite(lo) & np.isfinite(cap) & (cap < lo), cap, lo)


def cap_notes(uncapped: np.ndarray, recommended: np.ndarray, events: np.ndarray, *,
              counted: np.ndarray | None = None) -> list[str]:
    """Per group, a note where :func:`supported_targets` lowered (or removed) the recommendation.
    The target above which the events hold too few failures, ``1 - 10 / events``, is said rounded
    up (to 3 significant digits of ``10 / events``): above it the words stay true. ``counted``:
    the groups whose verdict reason, said before the note, already gives the expected failures
    at the recommendation (a verdict withheld alone): their note says the cap without the figure
    again, and its ceiling only where that is not the recommendation itself.

    >>> cap_notes(np.array([0.999]), np.array([0.998]), np.array([6000]))  # doctest: -NUMBER
    ['the rule alone gives 0.999, but above 0.99834 the 6,000 events of the evaluated span hold
    fewer than 10 expected failures: it stops at 0.998']
    >>> cap_notes(np.array([0.9999, 0.999]), np.array([0.995, 0.998]), np.array([2000, 6000]),
    ...           counted=np.array([True, True]))  # doctest: -NUMBER
    ['the rule alone gives 0.9999, more than the 2,000 events of the evaluated span can judge: it
    stops at 0.995', 'the rule alone gives 0.999, more than the 6,000 events of the evaluated span
    can judge (none above 0.99834): it stops at 0.998']
    """
    said = np.zeros(len(uncapped), dtype=bool) if counted is None else np.asarray(counted)
    out = []
    for u, r, n, c in zip(uncapped.tolist(), recommended.tolist(), np.asarray(events).tolist(),
                          said.tolist(), strict=True):
        if np.isfinite(u) and not (np.isfinite(r) and r >= u):
            with decimal.localcontext(prec=3, rounding=decimal.ROUND_FLOOR):
                share = decimal.Decimal(MIN_EXPECTED_FAILURES) / max(n, 1)
            top = format((1 - share).normalize(), "f")
            stop = f"it stops at {given_fraction(r)}" if np.isfinite(r) else \
                "no usual target is left"
            if c and np.isfinite(r):  # the reason gave the figure at r: not said twice
                above = "" if top == given_fraction(r) else f" (none above {top})"
                out.append(f"the rule alone gives {given_fraction(u)}, more than the {n:,} events "
                           f"of the evaluated span can judge{above}: {stop}")
                continue
            out.append(f"the rule alone gives {given_fraction(u)}, but above {top} the {n:,} "
                       "events of the evaluated span "
                       f"hold fewer than {MIN_EXPECTED_FAILURES} expected failures: {stop}")
        else:
            out.append("")
    return out


#: What a recommendation's interval is said as without the bootstrap (``n_boot=0``: no
#: interval), by ``recalibrate`` and ``latency_recalibrate`` alike.
NO_BOOTSTRAP = "no bootstrap, n_boot=0"
#: The one line a command prints above its targets without the bootstrap: ``recalibrate`` and
#: ``latency`` alike, whether or not a verdict's reason says it too.
NO_INTERVAL = f"{NO_BOOTSTRAP}: no target below comes with a confidence interval"


def recommendation_name(capped: bool) -> str:
    """What set a recommended target, said before it: the rule, or the evidence's ceiling where the
    rule alone gives more than the events can judge (``recommended_capped``; :func:`cap_notes`)."""
    return "the evidence's ceiling" if capped else "the rule's target"


def capped_words(events: int) -> str:
    """What a capped recommendation (``recommended_capped``) is, said beside it, in the same words
    in a sentence and in a figure's legend.

    >>> capped_words(28), capped_words(1)
    ('capped: as high as 28 events can judge', 'capped: as high as 1 event can judge')
    """
    return f"capped: as high as {counted(events, 'event')} can judge"


def capped_action(action: str, verdict: Any, events: int, capped: bool) -> str:
    """``action`` with :func:`capped_words` beside it where it names a recommendation the evidence
    ``capped`` (the rule alone gives more: :func:`cap_notes` says why), so that "use 0.64" for a
    group without a failure in 28 events does not read as the service's level. An ``ok``
    verdict's action keeps the current target and names no recommendation (told by the verdict,
    never by the action's words).

    >>> capped_action("use 0.64", None, 28, True), capped_action("keep 0.95", "ok", 4000, True)
    ('use 0.64 (capped: as high as 28 events can judge)', 'keep 0.95')
    >>> capped_action("use 0.93", None, 900, False)
    'use 0.93'
    """
    return f"{action} ({capped_words(events)})" if capped and verdict != "ok" else action
