"""Verdicts on counts (:class:`~budgetlab.analyses.verdicts.Verdict` objects, as
:mod:`budgetlab.analyses.verdicts` states them): was a page justified by the burn rate's interval
(:func:`page_verdict`), and did one failure bucket alone cause the alerts, pages or status
changes (:func:`cause_verdict`)."""

from __future__ import annotations

from typing import Any

from .._util.burns import three_digits
from .._util.percent import given_fraction, given_percent, measured_percent
from .._util.validation import check_fraction
from .._util.words import counted
from ..errors import ConfigError
from .recalibration.wilson import wilson_interval
from .verdicts import Verdict

__all__ = ["page_verdict", "cause_verdict", "bucket_phrase"]


def page_verdict(failures: int, events: int, *, target: float, threshold: float,
                 confidence: float = 0.95,
                 subject: str = "the page") -> Verdict:
    """Was a page justified? The window's burn rate ``failures / (events (1 - target))`` with the
    Wilson interval of its failure ratio: **justified** when the interval's lower bound lies above
    ``threshold``; **not justified** when its upper bound lies at or below it; else withheld (the
    window held too few events to tell).

    Parameters
    ----------
    failures, events : int
        Failures and events in the window that decided the page (e.g. the tracker's window at
        its peak, or a tier's long window when it fired).
    target : float
        The SLO target (the error budget is ``1 - target``).
    threshold : float
        The burn rate that justifies a page (a page tier's ``burn``; the seed's 5 for "melting").
    confidence : float
        Level of the interval (default 0.95).
    subject : str
        What the sentence talks about.

    Examples
    --------
    One failure among 4 requests is a burn of 5 on a 95 % target, but its interval is wide:

    >>> v = page_verdict(1, 4, target=0.95, threshold=5.0)
    >>> v.verdict, v.withheld
    (None, 'the burn interval 0.912 – 14.0 straddles the threshold 5: too few events (4) to tell')
    >>> page_verdict(300, 1000, target=0.95, threshold=5.0).verdict
    'justified'
    """
    check_fraction("target", target, low_open=True, high_open=True)
    confidence = check_fraction("confidence", confidence)
    _check_counts(failures, events, ("failures", "events"))
    n, f = int(events), int(failures)
    budget = 1 - target
    if n == 0:
        return Verdict(subject, None, f"No verdict on {subject}: the window held no events.",
                       "0 events",
                       withheld="the window held no events")
    lo_s, hi_s = wilson_interval(n - f, n, confidence)
    b_lo, b_hi = (1 - float(hi_s)) / budget, (1 - float(lo_s)) / budget
    burn = f / (n * budget)
    # both ends at three significant digits, zeros kept (0.938 – 1.10), never an exponent
    span = f"{three_digits(b_lo, keep_zeros=True)} – {three_digits(b_hi, keep_zeros=True)}"
    evidence = (f"{counted(f, 'failure')} in {counted(n, 'event')}: burn "
                f"{three_digits(burn)} ({given_percent(confidence)} interval {span}) against the "
                f"threshold {given_fraction(threshold)}")
    if b_lo > threshold:
        return Verdict(subject, "justified",
                       f"{subject[0].upper() + subject[1:]} was justified: {evidence}.", evidence)
    if b_hi <= threshold:
        return Verdict(subject, "not_justified",
                       f"{subject[0].upper() + subject[1:]} was not justified: {evidence}.",
                       evidence)
    why = (f"the burn interval {span} straddles the threshold {given_fraction(threshold)}: too "
           f"few events ({n:,}) to tell")
    return Verdict(subject, None, f"No verdict on {subject}: {why} ({evidence}).", evidence,
                   withheld=why)


def bucket_phrase(bucket: Any) -> str:
    """A failure bucket's name for prose, from the data: ``server_error`` -> ``server_error
    failures``, ``timeout`` -> ``timeout failures``.

    >>> bucket_phrase("server_error")
    'server_error failures'
    """
    return f"{bucket} failures"


def _check_counts(part: Any, whole: Any, names: tuple[str, str]) -> None:
    """Refuses counts that are not whole numbers (a bool included) with ``0 <= part <= whole``;
    ``names`` are the caller's keyword arguments."""
    if isinstance(part, bool) or isinstance(whole, bool) or int(part) != part \
            or int(whole) != whole or not 0 <= part <= whole:
        p, w = names
        raise ConfigError(f"{p} and {w} must be whole numbers with 0 <= {p} <= {w}.")


def cause_verdict(caused: int, total: int, *, bucket: Any, what: str = "pages",
                  min_total: int = 1) -> Verdict:
    """Did the failure bucket ``bucket`` alone cause ``caused`` of ``total`` alerts, pages or status
    changes (as :func:`budgetlab.bucket_breakdown` counts them)? The bucket is named as the data
    name it; withheld when fewer than ``min_total`` are there to attribute.

    >>> cause_verdict(3, 4, bucket="server_error").sentence
    'server_error failures alone caused 3 of the 4 pages (75 %).'
    >>> cause_verdict(0, 0, bucket="timeout").withheld
    'there were no pages to attribute'
    """
    _check_counts(caused, total, ("caused", "total"))
    name = bucket_phrase(bucket)
    subject = f"{what} caused by {name}"
    evidence = f"{int(caused):,} of {int(total):,} {what}"
    if total < max(min_total, 1):
        why = f"there were no {what} to attribute" if total == 0 else \
            f"only {int(total):,} {what}; attributing them needs at least {min_total:,}"
        return Verdict(subject, None, f"No verdict on the {subject}: {why}.", evidence,
                       withheld=why)
    share = caused / total
    sentence = (f"{name} alone caused {int(caused):,} of the {int(total):,} {what} "
                f"({measured_percent(share, 0)}).")
    return Verdict(subject, "caused" if caused else "not_caused", sentence, evidence)
