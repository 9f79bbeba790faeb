"""What a message may show of a user or server value: :func:`shown` (one value, quoted or hidden)
and :func:`redact` (free text such as a server's error message, every personal-looking word
replaced)."""

from __future__ import annotations

import re
import unicodedata
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


#: What stands for a word (or a run of words, a phone number) that looks like personal data.
HIDDEN = "[hidden: looks like personal data]"
#: A terminal's escape sequences (colours, cursor moves, titles: CSI ``ESC [ ... m`` and OSC
#: ``ESC ] ... BEL``), left out of text a message shows.
_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]"  # CSI
                      r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # OSC, to BEL or ST
                      r"|\x9b[0-?]*[ -/]*[@-~]")  # CSI as one C1 character


def _printable(text: str) -> str:
    """``text`` without terminal escape sequences, every other control or format character
    (C0, DEL, C1, bidirectional overrides, zero-width) a space: a server's words cannot colour,
    move or rewrite the user's terminal."""
    text = _ESCAPES.sub("", text)
    return "".join(" " if unicodedata.category(c) in ("Cc", "Cf") else c for c in text)


#: The longest run of words one finding may span (a phone number in digit groups with its
#: keyword: "tel. +7 (495) 123 45 67" is 6 words).
_RUN_WORDS = 8
#: A word of digits and a phone number's signs only, taken into the run it touches.
_DIGIT_GROUP = re.compile(r"[0-9+()./-]*[0-9][0-9+()./-]*")


def redact(text: Any, limit: int = 300) -> str:
    """Free text (a server's error message, a URL) as a message may show it: on one line, at most
    ``limit`` characters, every word that looks like personal data replaced by a placeholder, and
    every shortest run of words that does together (a phone number over several words) by one;
    when the words kept still look like personal data, nothing of the text is shown. Terminal
    escape sequences are left out and other control characters read as spaces.

    >>> print(redact("parse error:\\n unexpected 'bob@example.org' at char 7"))
    parse error: unexpected [hidden: looks like personal data] at char 7
    >>> redact("call +49 30 1234567 now")
    'call [hidden: looks like personal data] now'
    >>> redact("bad\x1b[31mRED\x1b[0m end\x07")
    'badRED end'
    """
    words = _printable(str(text)[:4 * limit]).split()
    masks = scan_text(words).values()
    kept = [HIDDEN if any(m[i] for m in masks) else w for i, w in enumerate(words)]
    kept = _hide_runs(kept)
    said = " ".join(kept)
    if len(said) > limit:
        said = said[:limit].rsplit(" ", 1)[0] + " …"
    if scan_text([said]):  # a finding longer than the runs looked at
        return "[the text is not shown: it looks like personal data]"
    return said


def _hide_runs(words: list[str]) -> list[str]:
    """``words`` with each shortest run (2 to :data:`_RUN_WORDS` words, the leftmost first) that
    looks like personal data, and the digit groups beside it (a country code, the last group of
    a number), as one placeholder, until none does."""
    while len(words) > 1 and scan_text([" ".join(words)]):
        for n in range(2, min(_RUN_WORDS, len(words)) + 1):
            runs = [" ".join(words[i:i + n]) for i in range(len(words) - n + 1)]
            found = [i for m in scan_text(runs).values() for i in m.nonzero()[0].tolist()]
            if found:
                i, j = min(found), min(found) + n
                while i > 0 and _DIGIT_GROUP.fullmatch(words[i - 1]):  # "+1" of "+1 415 ..."
                    i -= 1
                while j < len(words) and _DIGIT_GROUP.fullmatch(words[j]):
                    j += 1
                words = [*words[:i], HIDDEN, *words[j:]]
                break
        else:
            return words  # no run of those lengths: the caller hides the whole text
    return words
