"""Which words a message uses for an option: keyword arguments for the API (``pii='hash'``),
the command's own flags on the command line (``--pii hash``). A command runs inside
:func:`cli_words` with its table of flags; every message it prints passes through :func:`speak`.
A duration in prose is spelled one way, in the units ``d``, ``h``, ``min`` and ``s``: a given
length (window, period) exactly by :func:`prose_duration` (``24 h``, ``3.5 h``, ``3601 s``), an
elapsed time (detection, episode, dwell) by :func:`duration_words` in its two largest units,
truncated (``6 h 10 min``), or by :func:`hours_words` and :func:`days_words` from hours or days
held as a float. A count in prose takes the number of its
noun by :func:`counted` (``1 row``, ``2 rows``).
"""

from __future__ import annotations

import contextlib
import contextvars
import math
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

__all__ = ["about_counted", "about_words", "cli_words", "command_flag", "counted", "counted_of",
           "days_words", "duration_words", "flags_as", "hours_words", "noun_for", "option_word",
           "prose_duration", "say", "some_named", "speak"]

# name='value', name=True, name=<number> and a bare name= (followed by a space, punctuation or the
# end)
_VALUE = re.compile(r"(?<![\w.-])([a-z][a-z_]*)='([^']*)'")
_TRUE = re.compile(r"(?<![\w.-])([a-z][a-z_]*)=True\b")
_NUMBER = re.compile(r"(?<![\w.-])([a-z][a-z_]*)=(-?\d[\d.]*(?:e[+-]?\d+)?)(?![\w'])")
_BARE = re.compile(r"(?<![\w.-])([a-z][a-z_]*)=(?=[\s,;.)/]|$)")
# a message about one option, which it names first: "timeout must be ...", "by: ..." (with a
# table of flags only: the name must be one of the command's)
_LEAD = re.compile(r"^([a-z][a-z_]*)(?=: | must | is )")
_TWICE = re.compile(r"(--[a-z][a-z-]*) \(\1\)")

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
    ``--windows``).

    >>> from budgetlab.errors import ConfigError
    >>> with cli_words({"window": "--window"}), flags_as(window="--windows"):
    ...     raise ConfigError("window='x' is not a duration.")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: --windows x is not a duration.
    """
    from ..errors import BudgetlabError

    outer = _CLI.get()
    if outer is None:
        yield
        return
    try:
        yield
    except BudgetlabError as exc:
        token = _CLI.set({**outer, **flags})
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


def prose_duration(value: Any) -> str:
    """A given duration (a window, a period, a bin) for prose, exactly as long as it is: in the
    largest unit that holds it a whole number of times (``d`` from two days up, ``h``, ``min``),
    in half hours above two hours (``3.5 h``); from two hours up a whole number of minutes that
    neither holds is said in its parts (``16 h 48 min``, with its days from two days up:
    ``30 d 1 h 1 min``), never ``1008 min``; else in seconds with every digit
    (:func:`given_duration`): ``3,601 s``, never ``1.00 h``. One day is ``24 h`` and ``1 d 6 h`` is
    ``30 h``; an elapsed time, rounded to its two largest units, is :func:`duration_words`'.

    >>> [prose_duration(x) for x in ("30D", "24h", "210min", "90min", "45s")]
    ['30 d', '24 h', '3.5 h', '90 min', '45 s']
    >>> [prose_duration(x) for x in ("1008min", "386min", "30D61min", "2D31min", "121min")]
    ['16 h 48 min', '6 h 26 min', '30 d 1 h 1 min', '2 d 31 min', '2 h 1 min']
    >>> [prose_duration(x) for x in ("3600s", "3601s", "1D6h", "0.5s", "7201.5s", "100000.5h")]
    ... # doctest: -NUMBER
    ['1 h', '3,601 s', '30 h', '500 ms', '7,201.5 s', '100,000.5 h']
    """
    import pandas as pd

    td = pd.Timedelta(value)
    if pd.isna(td):
        raise ValueError("prose_duration needs a duration, not NaT")
    ns, minute, hour, day = td.value, 60 * 10**9, 3600 * 10**9, 86400 * 10**9
    if ns >= 2 * day and ns % day == 0:
        return f"{ns // day:,} d"
    if ns >= hour and (ns % hour == 0 or ns % (hour // 2) == 0 and ns > 2 * hour):
        return f"{ns // hour:,}{'.5' if ns % hour else ''} h"
    if ns >= 2 * hour and ns % minute == 0:  # in its parts, never "1008 min"
        d, rest = divmod(ns, day) if ns >= 2 * day else (0, ns)
        parts = zip((d, rest // hour, rest % hour // minute), ("d", "h", "min"), strict=True)
        return " ".join(f"{n:,} {unit}" for n, unit in parts if n)
    if ns >= minute and ns % minute == 0:
        return f"{ns // minute} min"
    return given_duration(td)


def given_duration(value: Any, *, grouped: bool = True) -> str:
    """A given duration (a latency threshold, a client timeout) as written: in the largest of
    ``s``, ``ms``, ``us``, ``ns`` that is not more than it, with every digit of its whole
    nanoseconds and none added, where four significant digits would say a threshold of 12.345 s
    is ``12.35 s`` and seconds alone would say a 40 ms threshold is ``0.04 s``; thousands
    separated as every count in words (``10,000 s``), none with ``grouped=False`` (a value
    to pass back, such as ``client_timeout='10000 s'``).

    >>> [given_duration(x) for x in ("12345ms", "60s", "40ms", "1.5ms", "500us", "1h", "7ns")]
    ... # doctest: -NUMBER
    ['12.345 s', '60 s', '40 ms', '1.5 ms', '500 us', '3,600 s', '7 ns']
    >>> given_duration("10000s"), given_duration("10000s", grouped=False)  # doctest: -NUMBER
    ('10,000 s', '10000 s')
    """
    import decimal

    import pandas as pd

    ns = pd.Timedelta(value).value
    size, unit = next(((size, unit) for size, unit in DURATION_SCALES if abs(ns) >= size),
                      (1, "ns"))
    return f"{format((decimal.Decimal(ns) / size).normalize(), ',f' if grouped else 'f')} {unit}"


#: The units :func:`given_duration` (and :func:`~budgetlab._util.durations.measured_duration`)
#: says a duration in, largest first, with their nanoseconds.
DURATION_SCALES = ((10**9, "s"), (10**6, "ms"), (10**3, "us"), (1, "ns"))


def duration_words(value: Any, *, days: bool = True) -> str:
    """An elapsed duration in its two largest units: ``6 h 10 min``, ``2 d 2 h``, ``45 min``,
    ``20 s``. It truncates, never rounds: what lies past the second unit is dropped (``6 h 10 min
    59 s`` is ``6 h 10 min``, ``2 d 23 h 59 min`` is ``2 d 23 h``, ``20.7 s`` is ``20 s``), so the
    words never say more time than elapsed. A given window or period is not elapsed time: it is
    said exactly, by :func:`prose_duration`, whose units these are. With ``days=False`` hours past
    a day stay hours (``50 h``, for a line whose figures beside it count hours). A negative
    duration (a signed figure such as an alert's reset time, which is negative when the alert
    stopped before the incident ended) is its sign, then its magnitude's words.

    >>> [duration_words(x) for x in ("6h10min", "50h", "45min", "316s", "90s", "20.7s", "0s")]
    ['6 h 10 min', '2 d 2 h', '45 min', '5 min 16 s', '1 min 30 s', '20 s', '0 s']
    >>> [duration_words(x) for x in ("6h10min59s", "2D23h59min")]
    ['6 h 10 min', '2 d 23 h']
    >>> duration_words("106524s", days=False)  # 29.59 h
    '29 h 35 min'
    >>> [duration_words(x) for x in ("-90min", "-20.7s", "-0.5s")]
    ['-1 h 30 min', '-20 s', '0 s']

    Days and hours of four digits or more have their thousands separated, as counts are:

    >>> duration_words("1234D5h"), duration_words("4293911451s", days=False)
    ('1,234 d 5 h', '1,192,753 h 10 min')
    """
    import pandas as pd

    secs = int(pd.Timedelta(value).total_seconds())  # truncated toward 0: -20.7 s is -20 s
    sign, secs = ("-" if secs < 0 else ""), abs(secs)
    d, rest = divmod(secs, 86400) if days else (0, secs)
    h, rest = divmod(rest, 3600)
    m, s = divmod(rest, 60)
    if d:
        return sign + (f"{d:,} d {h} h" if h else f"{d:,} d")
    if h:
        return sign + (f"{h:,} h {m} min" if m else f"{h:,} h")
    if m:
        return sign + (f"{m} min {s} s" if s else f"{m} min")
    return sign + f"{s} s"


def hours_words(hours: float) -> str:
    """Hours held as a float (the ``hours_*`` columns of a replay summary: ns / 3.6e12) in
    :func:`duration_words`' spelling, hours past a day kept as hours (for a line beside figures
    that count hours). The float is read back to the nearest millisecond first: 65 min as hours,
    times 3.6e12, falls 1 ns short of 65 min, which whole-second truncation would read as
    ``1 h 4 min``.

    >>> hours_words(65 * 60e9 / 3.6e12), hours_words(718.8333333333334), hours_words(0.0)
    ('1 h 5 min', '718 h 50 min', '0 s')
    >>> hours_words(1186505 + 11 / 60), hours_words(1000.0)
    ('1,186,505 h 11 min', '1,000 h')
    """
    import pandas as pd

    return duration_words(pd.Timedelta(hours=hours).round("ms"), days=False)


def days_words(days: float) -> str:
    """Days held as a float (a history's length: ns / 8.64e13) in :func:`duration_words`'
    spelling, read back to the nearest millisecond first (as :func:`hours_words`).

    >>> days_words(7.0), days_words(2.9993), days_words(0.5)
    ('7 d', '2 d 23 h', '12 h')
    """
    import pandas as pd

    return duration_words(pd.Timedelta(days=days).round("ms"))


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
