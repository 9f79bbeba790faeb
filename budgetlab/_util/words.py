"""Which words a message uses for an option: keyword arguments for the API (``pii='hash'``),
the command's own flags on the command line (``--pii hash``). A command runs inside
:func:`cli_words` with its table of flags; every message it prints passes through :func:`speak`.
A duration in prose is spelled one way, in the units ``d``, ``h``, ``min`` and ``s``
(:mod:`budgetlab._util.duration_text`, whose functions are re-exported here: ``prose_duration``,
``duration_words``, ``hours_words``, ``some_hours_words``, ...). A count in prose takes the
number of its noun by :func:`counted` (``1 row``, ``2 rows``).
"""

from __future__ import annotations

import contextlib
import contextvars
import math
import re
from collections.abc import Iterator, Mapping, Sequence

from .duration_text import (
    DURATION_SCALES,
    UNDER_A_SECOND,
    days_words,
    duration_words,
    given_duration,
    hours_words,
    length_words,
    prose_duration,
    some_hours_words,
)

__all__ = ["DURATION_SCALES", "UNDER_A_SECOND", "about_counted", "about_words", "cli_words",
           "command_flag", "counted", "counted_of", "days_words", "duration_words", "flags_as",
           "given_duration", "hours_words", "length_words", "noun_for", "option_word",
           "prose_duration", "say", "some_hours_words", "some_named", "speak"]

# name='value', name=True, name=<number> and a bare name= (followed by a space, punctuation or the
# end)
_VALUE = re.compile(r"(?<![\w.-])([a-z][a-z_]*)='([^']*)'")
_TRUE = re.compile(r"(?<![\w.-])([a-z][a-z_]*)=True\b")
# a number as typed: 0.5, -1, 1e-3, 1E+3, and nan / inf (any case), never a float's repr alone
_NUMBER = re.compile(r"(?<![\w.-])([a-z][a-z_]*)="
                     r"([-+]?(?:\d[\d.]*(?:[eE][+-]?\d+)?|(?i:nan|inf(?:inity)?)))(?![\w'])")
_BARE = re.compile(r"(?<![\w.-])([a-z][a-z_]*)=(?=[\s,;.)/]|$)")
# a message about one option, which it names first: "timeout must be ...", "by: ..." (with a
# table of flags only: the name must be one of the command's)
_LEAD = re.compile(r"^([a-z][a-z_]*)(?=: | must | is )")
_TWICE = re.compile(r"(--[a-z][a-z-]*) \(\1\)")
#: a word that names a notebook's parameter (``alert_time``), not a flag or a phrase
_PARAMETER = re.compile(r"[a-z][a-z_]*")

#: None: not on the command line; else the running command's flags by keyword (empty: any keyword
#: is spelled as its flag).
_CLI: contextvars.ContextVar[Mapping[str, str] | None] = contextvars.ContextVar("_CLI",
                                                                                default=None)


@contextlib.contextmanager
def cli_words(flags: Mapping[str, str] | None = None) -> Iterator[None]:
    """While it lasts, :func:`say` and :func:`speak` pick the command-line words; ``flags`` maps
    the running command's keyword names to its flags (``{"slow_above": "--slow-above"}``), and
    :func:`speak` then rewrites those keywords only."""
    token = _CLI.set(dict(flags or {}))
    try:
        yield
    finally:
        _CLI.reset(token)


@contextlib.contextmanager
def flags_as(**flags: str) -> Iterator[None]:
    """On the command line, a message raised inside names these flags for these keywords (where
    the API's keyword is the command's other flag: ``compare-windows``' ``window=`` is an item of
    ``--windows``). A word that is a name, not a flag, is a notebook's parameter that gave the
    keyword: it renames the keyword wherever the message is read, the API included
    (``at='x'`` as ``alert_time='x'``, a bare ``at=`` as ``alert_time``).

    >>> from budgetlab.errors import ConfigError
    >>> with cli_words({"window": "--window"}), flags_as(window="--windows"):
    ...     raise ConfigError("window='x' is not a duration.")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: --windows x is not a duration.
    >>> with flags_as(start="incident_start", end="incident_end"):
    ...     raise ConfigError("give both start= and end=, or neither (end='x').")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: give both incident_start and incident_end, or neither \
(incident_end='x').
    """
    from ..errors import BudgetlabError

    outer = _CLI.get()
    table = flags if outer is not None else {k: v for k, v in flags.items()
                                             if _PARAMETER.fullmatch(v)}
    if not table:
        yield
        return
    try:
        yield
    except BudgetlabError as exc:
        token = _CLI.set({**(outer or {}), **table})
        try:
            raise type(exc)(speak(str(exc))) from None
        finally:
            _CLI.reset(token)


def say(api: str, cli: str) -> str:
    """``api`` from the API, ``cli`` on the command line.

    >>> say("pass pii='hash' with salt=", "pass --pii hash --salt S")
    "pass pii='hash' with salt="
    >>> with cli_words():
    ...     say("pass pii='hash' with salt=", "pass --pii hash --salt S")
    'pass --pii hash --salt S'
    """
    return api if _CLI.get() is None else cli


def option_word(name: str) -> str:
    """The word for option ``name`` in prose that gives its value (``min_events 5``): the running
    command's flag on the command line when it has one, else the API name (never ``name=``, which
    would read as a keyword to pass).

    >>> option_word("min_events")
    'min_events'
    >>> with cli_words({"min_events": "--min-events"}):
    ...     option_word("min_events"), option_word("loose_burn")
    ('--min-events', 'loose_burn')
    """
    flags = _CLI.get()
    if flags is None:
        return name
    return flags.get(name, name) if flags else "--" + name.replace("_", "-")


def command_flag(name: str) -> str | None:
    """The running command's flag for option ``name``, or ``None``: outside the command line, or
    when the command has no such flag (words that point to a flag name only the command's own).

    >>> command_flag("plot_groups") is None
    True
    >>> with cli_words({"plot_groups": "--plot-groups"}):
    ...     command_flag("plot_groups"), command_flag("gap")
    ('--plot-groups', None)
    """
    flags = _CLI.get()
    if flags is None:
        return None
    return flags.get(name) if flags else "--" + name.replace("_", "-")


def _shell(value: str) -> str:
    return f"'{value}'" if not value or re.search(r"[\s|&;<>()$`\\\"*?#~]", value) else value


def speak(text: str) -> str:
    """A message written with keyword arguments, in the current words: on the command line
    ``name='value'`` becomes ``--name value``, ``name=True`` ``--name``, ``name=0.5``
    ``--name 0.5`` and a bare ``name=`` ``--name`` (with a table of flags, only its keywords, and
    also the name a message begins with: ``max_series must ...``).

    >>> msg = "time_format='%b %d' carries no year; give year= (or strict=True)."
    >>> speak(msg) == msg
    True
    >>> with cli_words():
    ...     speak(msg)
    "--time-format '%b %d' carries no year; give --year (or --strict)."
    >>> with cli_words({"target": "--target", "max_series": "--max-series"}):
    ...     (speak("target=1.5 must lie in (0, 1); slo=None here."),
    ...      speak("max_series must be >= 1."))
    ('--target 1.5 must lie in (0, 1); slo=None here.', '--max-series must be >= 1.')
    >>> with cli_words({"max_share": "--max-share"}):
    ...     speak("max_share=nan must lie in (0, 1].")
    '--max-share nan must lie in (0, 1].'
    >>> with cli_words({"max_series": "--max-series"}):
    ...     speak("raise max_series= (--max-series).")
    'raise --max-series.'
    """
    flags = _CLI.get()
    if flags is None:
        return text

    def flag(m: re.Match[str]) -> str | None:
        name = m.group(1)
        return flags.get(name) if flags else "--" + name.replace("_", "-")

    def sub(pattern: re.Pattern[str], with_value: bool, s: str) -> str:
        def one(m: re.Match[str]) -> str:
            f = flag(m)
            if f is None:
                return m.group(0)
            if _PARAMETER.fullmatch(f):  # a notebook's parameter: its name, as it is set
                rest = m.group(0)[len(m.group(1)):]
                return f if rest == "=" else f + rest
            return f"{f} {_shell(m.group(2))}" if with_value else f
        return pattern.sub(one, s)

    for pattern, with_value in ((_VALUE, True), (_TRUE, False), (_NUMBER, True), (_BARE, False)):
        text = sub(pattern, with_value, text)
    lead = _LEAD.match(text)
    if flags and lead and lead.group(1) in flags:
        text = flags[lead.group(1)] + text[lead.end():]
    return _TWICE.sub(r"\1", text)  # "raise max_series= (--max-series)": the flag once


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """A count and its noun in the number the count takes (``1 row``, ``0 rows``, ``4,032
    rows``); ``plural`` where adding an ``s`` is not it.

    >>> counted(1, "row"), counted(0, "row"), counted(4032, "row"), counted(2, "match", "matches")
    ('1 row', '0 rows', '4,032 rows', '2 matches')
    """
    return f"{n:,} {noun_for(n, noun, plural)}"


def counted_of(n: int, total: int, noun: str, plural: str | None = None) -> str:
    """``n`` of ``total`` things (``2 of the 3 incidents``), all of them as ``all 3 incidents``
    and the only one as ``the one incident`` (never ``1 of the 1 incident``).

    >>> counted_of(2, 3, "incident"), counted_of(3, 3, "incident"), counted_of(1, 1, "incident")
    ('2 of the 3 incidents', 'all 3 incidents', 'the one incident')
    >>> counted_of(1, 1200, "match", "matches")
    '1 of the 1,200 matches'
    """
    if n == total:
        return "the one " + noun if n == 1 else "all " + counted(n, noun, plural)
    return f"{n:,} of the {counted(total, noun, plural)}"


def some_named(names: Sequence[str], most: int) -> str:
    """The first ``most`` of ``names``, then how many more: a list that stays short whatever the
    number of groups (a figure's note on 4,990 sitekeys names a few, never all).

    >>> some_named(["a", "b"], 3), some_named(["a", "b", "c", "d", "e"], 3)
    ('a, b', 'a, b, c and 2 more')
    """
    return ", ".join(names[:most]) + (f" and {len(names) - most:,} more" if len(names) > most
                                      else "")


def noun_for(n: int, noun: str, plural: str | None = None) -> str:
    """``noun`` in the number a count of ``n`` takes, without the count (where the message names
    the rows instead: ``timestamp at row 3``, ``timestamps at rows 3, 4``); ``plural`` where adding
    an ``s`` is not it.

    >>> noun_for(1, "timestamp"), noun_for(2, "timestamp"), noun_for(0, "match", "matches")
    ('timestamp', 'timestamps', 'matches')
    """
    return noun if n == 1 else plural or noun + "s"


def about_words(x: float) -> str:
    """A rough figure (``~20,900 events a day``) to three significant digits as prose writes it:
    thousands separated, never an exponent (``f"{x:.3g}"`` writes 20,896 as ``2.09e+04`` and
    0.00001234 as ``1.23e-05``). Below 100 by the package's one rule for measured figures,
    :func:`~budgetlab._util.burns.three_digits`; from 100 on rounded to three digits, as a rough
    figure reads (``~12,300``, where ``three_digits`` keeps a whole number whole).

    >>> [about_words(x) for x in (20_896.4, 1_234.5, 804.2, 40.0, 2.5, 0.125)]
    ['20,900', '1,230', '804', '40', '2.5', '0.125']
    >>> about_words(0.00001234), about_words(12_345.6)
    ('0.0000123', '12,300')
    """
    if not math.isfinite(x) or abs(x) < 100:
        from .burns import three_digits

        return three_digits(x)
    digits = 2 - int(math.floor(math.log10(abs(x))))
    return f"{round(x, digits):,.0f}"


def about_counted(x: float, noun: str, plural: str | None = None) -> str:
    """A rough count and its noun (``~40 events``) by :func:`about_words`, the noun in the number
    the figure as said takes (``~1 event``, never ``~1 events``; ``~1.5 events``); a count above
    0 and below 1 as ``under 1 event`` (never ``~0.4 events``), 0 as ``0 events``.

    >>> [about_counted(x, "event") for x in (40.0, 1.0, 1.5, 0.4, 0.0, 20_896.4)]
    ['~40 events', '~1 event', '~1.5 events', 'under 1 event', '0 events', '~20,900 events']
    """
    if x == 0:
        return counted(0, noun, plural)
    if 0 < x < 1:
        return f"under 1 {noun}"
    text = about_words(x)
    return f"~{text} {noun_for(1 if text == '1' else 2, noun, plural)}"
