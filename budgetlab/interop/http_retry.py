"""The wait a 429 or 503 answer asks for in its ``Retry-After`` header (RFC 9110 §10.2.3:
whole seconds, or an HTTP date), and the rule the Prometheus client keeps with it.

The rule: a readable ``Retry-After`` on a 429 or 503 answer replaces the exponential backoff's
wait before the next retry (the retries are still at most ``retries=``, each within the read's
one deadline, ``timeout=`` / ``--timeout``). When the wait asked for does not end before that
deadline, the read is refused at once with the wait the server asked for: budgetlab neither
asks again sooner than the server said nor waits past the deadline. A ``Retry-After`` that is
neither (or on another status) is not a wait asked for: the backoff's wait is kept.
"""

from __future__ import annotations

import email.utils
import math
import time

from .._util.words import say
from .http_origin import DeadlineError

__all__ = ["RETRY_AFTER_STATUS", "retry_after", "asked_beyond_deadline"]

#: The statuses whose ``Retry-After`` is a wait before asking again (RFC 9110 §15.6.4, RFC 6585).
RETRY_AFTER_STATUS = (429, 503)


def retry_after(value: str | None, now: float | None = None) -> float | None:
    """Seconds the ``Retry-After`` header ``value`` asks to wait (an HTTP date counted from
    ``now``, the epoch seconds; a date already past is 0); ``None`` without one or when it is
    neither whole seconds nor an HTTP date.

    >>> retry_after("120"), retry_after(" 0 "), retry_after(None), retry_after("soon")
    (120.0, 0.0, None, None)
    >>> retry_after("Wed, 21 Oct 2015 07:28:00 GMT", now=1445412450.0)  # 07:27:30 GMT
    30.0
    >>> retry_after("-5"), retry_after("1.5")
    (None, None)
    """
    if value is None:
        return None
    text = value.strip()
    if text.isascii() and text.isdigit():
        return float(text)
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:  # an HTTP date is always GMT
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


def asked_beyond_deadline(where: str, status: int, asked: float, timeout: float,
                          left: float) -> DeadlineError:
    """The refusal of a read whose server asked (``Retry-After``) to wait ``asked`` seconds
    when ``left`` seconds remain of the ``timeout`` deadline.

    >>> print(asked_beyond_deadline("http://127.0.0.1:9090", 429, 120.0, 30.0, 29.54))
    Prometheus at http://127.0.0.1:9090 answered HTTP 429 and asked to wait 120 s before asking \
again (Retry-After), beyond the 30 s deadline of the whole read (29.5 s left); try again in \
120 s, or raise timeout= above the wait.
    """
    wait = f"{math.ceil(asked):,} s"
    flag = say("timeout=", "--timeout")
    return DeadlineError(f"Prometheus at {where} answered HTTP {status} and asked to wait {wait} "
                         f"before asking again (Retry-After), beyond the {timeout:g} s deadline "
                         f"of the whole read ({max(left, 0.0):.1f} s left); try again in {wait}, "
                         f"or raise {flag} above the wait.")
