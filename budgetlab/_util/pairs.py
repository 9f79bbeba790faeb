"""Items ``KEY=VALUE,KEY=VALUE`` as ``--outcomes``, ``--target`` and the notebooks' parameters
write them: the one splitter, and the one way to write a key back so that it splits again.

A key in quotes (``'err,conn'=failure`` or ``"a=b"=failure``; a quote inside written twice,
``'it''s'``) may hold ``,``, ``=`` and ``:``; a key without quotes is split at its item's last
separator (a value never holds one, a key may: ``=eq=0.78`` is the key ``=eq``).
"""

from __future__ import annotations

import re

__all__ = ["split_items", "write_key", "needs_quotes"]

_QUOTES = "'\""


def _quoted(text: str, i: int) -> tuple[str, int] | None:
    """The quoted key starting at ``text[i]`` (a quote) and the index after its closing quote;
    ``None`` when it is never closed."""
    q, i = text[i], i + 1
    out: list[str] = []
    while i < len(text):
        if text[i] == q:
            if text[i + 1:i + 2] != q:
                return "".join(out), i + 1
            i += 1  # a doubled quote is one quote of the key
        out.append(text[i])
        i += 1
    return None


def split_items(text: str, seps: str = "=") -> list[tuple[str, str, str]]:
    """``(key, separator, value)`` per comma-separated item of ``text``, stripped; the separator
    is ``""`` when the item is not ``KEY<sep>VALUE`` (a quote never closed, something between a
    quoted key and its separator). ``seps``: the separators, the first preferred in an unquoted
    item that holds several kinds.

    >>> split_items("ok=success, 'err,conn'=failure,\\"a=b\\"=failure,=eq=0.78")
    [('ok', '=', 'success'), ('err,conn', '=', 'failure'), ('a=b', '=', 'failure'), \
('=eq', '=', '0.78')]
    >>> split_items("'it''s'=skip,'open=x")
    [("it's", '=', 'skip'), ('', '', "'open=x")]
    """
    items: list[tuple[str, str, str]] = []
    i = 0
    while i <= len(text):
        start = i
        while i < len(text) and text[i].isspace():
            i += 1
        if i < len(text) and text[i] in _QUOTES:
            quoted = _quoted(text, i)
            end = text.find(",", quoted[1]) if quoted else -1
            end = len(text) if end < 0 else end
            rest = text[quoted[1]:end].strip() if quoted else ""
            if quoted and rest[:1] and rest[0] in seps:
                items.append((quoted[0], rest[0], rest[1:].strip()))
            else:
                end = len(text) if quoted is None else end
                items.append(("", "", text[start:end].strip()))
        else:
            end = text.find(",", i)
            end = len(text) if end < 0 else end
            part = text[i:end]
            sep = next((s for s in seps if s in part), seps[0])
            key, sep, value = part.rpartition(sep)
            items.append((key.strip(), sep, value.strip()) if sep else ("", "", part.strip()))
        i = end + 1
    return items


def needs_quotes(key: str) -> bool:
    """Whether ``key`` must be quoted to split back as one key: it holds ``,`` or ``=``, starts
    with a quote or has blanks at either end."""
    return bool(re.search(r"[,=]|^['\"]|^\s|\s$", key))


def write_key(key: str) -> str:
    """``key`` as :func:`split_items` reads it back: bare when it can be, else in double quotes.

    >>> write_key("5xx"), write_key("err,conn"), write_key('say "hi", ok')
    ('5xx', '"err,conn"', '"say ""hi"", ok"')
    """
    return '"' + key.replace('"', '""') + '"' if needs_quotes(key) else key
