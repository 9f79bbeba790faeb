"""What a message may show of a user or server value: :func:`shown` (one value, quoted or hidden)
and :func:`redact` (free text such as a server's error message, every personal-looking word
replaced)."""

from __future__ import annotations

from typing import Any

from .guard import scan_text

__all__ = ["shown", "redact"]


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
    if scan_text([text, cut]):
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
    masks = scan_text(words).values()
    kept = " ".join("[hidden: looks like personal data]" if any(m[i] for m in masks) else w
                    for i, w in enumerate(words))
    if len(kept) > limit:
        kept = kept[:limit].rsplit(" ", 1)[0] + " …"
    if scan_text([kept]):  # a phone number written over several words
        return "[the text is not shown: it looks like personal data]"
    return kept
