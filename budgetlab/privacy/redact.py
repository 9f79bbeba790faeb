"""What a message may show of a user or server value: :func:`shown` (one value, quoted or hidden),
:func:`looks_personal` (one value) and :func:`redact` (free text such as a server's error message:
every word that looks like personal data replaced)."""

from __future__ import annotations

from typing import Any

from .detect import flagged

__all__ = ["looks_personal", "shown", "redact"]


def looks_personal(value: Any) -> bool:
    """``True`` when one value (as text) looks like personal data to the detector.

    >>> [looks_personal(v) for v in ("иван@почта.рф", "(495) 123-45-67", "sess-2001:db8::1")]
    [True, True, True]
    >>> looks_personal("turnstile"), looks_personal("4829301746521"), looks_personal("2026-11-30")
    (False, False, False)
    """
    return bool(flagged([value])[0][0])


def shown(value: Any, limit: int = 40) -> str:
    """A user value as a message may show it: quoted (``repr``, so on one line) and cut to
    ``limit`` characters when it passes the detector, else a placeholder that shows nothing of it.

    The shortened text is checked too: cutting ``192.0.2.71234`` after ``192.0.2.7`` would
    make an address, so such a value is not shown either.

    >>> shown("turnstile"), shown("ivan@example.org")
    ("'turnstile'", 'a value that looks like personal data (not shown)')
    >>> shown("x" * 50, limit=8)
    "'xxxxxxxx…'"
    >>> shown("192.0.2.71234", limit=9)
    'a value that looks like personal data (not shown)'
    """
    text = str(value)
    cut = text[:max(int(limit), 1)]
    if flagged([text, cut])[0].any():
        return "a value that looks like personal data (not shown)"
    return repr(cut + ("…" if cut != text else ""))


def redact(text: Any, limit: int = 300) -> str:
    """Free text (a server's error message, a URL) as a message may show it: on one line, at most
    ``limit`` characters, every word that looks like personal data replaced by a placeholder; when
    the words kept still look like personal data together (a phone number over several words),
    nothing of the text is shown.

    >>> print(redact("parse error:\\n unexpected 'bob@example.org' at char 7"))
    parse error: unexpected [hidden: looks like personal data] at char 7
    >>> redact("call +49 30 1234567 now")
    '[the text is not shown: it looks like personal data]'
    """
    words = str(text)[:4 * limit].split()
    hidden = flagged(words)[0].tolist()
    kept = " ".join("[hidden: looks like personal data]" if h else w
                    for w, h in zip(words, hidden, strict=True))
    if len(kept) > limit:
        kept = kept[:limit].rsplit(" ", 1)[0] + " …"
    if flagged([kept])[0][0]:  # a phone number written over several words
        return "[the text is not shown: it looks like personal data]"
    return kept
