"""Which words a message uses for an option: keyword arguments for the API (``pii='hash'``),
the command's own flags on the command line (``--pii hash``). The command line reads its input
inside :func:`cli_words`; a message built there names flags.
"""

from __future__ import annotations

import contextlib
import contextvars
import re
from collections.abc import Iterator

__all__ = ["cli_words", "say", "speak", "speaking_cli"]

_VALUE = re.compile(r"\b([a-z][a-z_]*)='([^']*)'")
_TRUE = re.compile(r"\b([a-z][a-z_]*)=True\b")
_BARE = re.compile(r"\b([a-z][a-z_]*)=(?=[\s,;.)/]|$)")

_CLI: contextvars.ContextVar[bool] = contextvars.ContextVar("_CLI", default=False)


@contextlib.contextmanager
def cli_words() -> Iterator[None]:
    """While it lasts, :func:`say` picks the command-line words."""
    token = _CLI.set(True)
    try:
        yield
    finally:
        _CLI.reset(token)


def speaking_cli() -> bool:
    """Whether messages are built for the command line now."""
    return _CLI.get()


def say(api: str, cli: str) -> str:
    """``api`` from the API, ``cli`` on the command line.

    >>> say("pass pii='hash' with salt=", "pass --pii hash --salt S")
    "pass pii='hash' with salt="
    >>> with cli_words():
    ...     say("pass pii='hash' with salt=", "pass --pii hash --salt S")
    'pass --pii hash --salt S'
    """
    return cli if _CLI.get() else api


def _shell(value: str) -> str:
    return f"'{value}'" if not value or re.search(r"[\s|&;<>()$`\\\"*?#~]", value) else value


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def speak(text: str) -> str:
    """A message written with keyword arguments, in the current words: on the command line
    ``name='value'`` becomes ``--name value``, ``name=True`` ``--name`` and a bare ``name=`` ``--name``.

    >>> msg = "time_format='%b %d' carries no year; give year= (or strict=True)."
    >>> speak(msg) == msg
    True
    >>> with cli_words():
    ...     speak(msg)
    "--time-format '%b %d' carries no year; give --year (or --strict)."
    """
    if not _CLI.get():
        return text
    text = _VALUE.sub(lambda m: f"{_flag(m.group(1))} {_shell(m.group(2))}", text)
    text = _TRUE.sub(lambda m: _flag(m.group(1)), text)
    return _BARE.sub(lambda m: _flag(m.group(1)), text)
