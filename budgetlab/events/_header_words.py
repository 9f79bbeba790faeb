"""The words about a header: the refusal of a file whose header lacks a declared column or
repeats a name (:func:`header_error`: the closest names suggested, the columns present named),
and whether a text file's first line is its header or a row of data of a header-less file, told
from the rows below it (:func:`_unusual`): a row of data is never shown, nor a name that looks
like data or like personal data (:func:`~budgetlab.events._messages.personal_mask`); a log's
first line that a pattern matches but that is a header (:func:`refuse_header_line`). A CSV's
rows that repeat its header (files joined) are :mod:`._joined_files`'.
"""

from __future__ import annotations

import contextlib
import csv
import functools
import itertools
import re
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence

import numpy as np
import pandas as pd

from .._util.validation import close_names
from .._util.words import command_flag, counted, noun_for, option_word, say
from ..errors import SchemaError, TimestampError
from ..privacy import shown
from ._messages import MISSING_LABELS, ROWS, personal_mask, threshold_words

__all__ = ["header_error", "numbers_in_rows", "refuse_header_line", "SAMPLE_ROWS"]

#: How many of the first rows, already read with the header, a refusal looks at to tell a
#: metric series (columns of numbers beside the time) from an outcome log, and data from a header.
SAMPLE_ROWS = 100

#: A number, and a time (a date or a clock time): the kinds of cell a column of data may hold
#: throughout, which a header's name does not.
_NUMBER = r"[+-]?[0-9]+(?:[.,][0-9]+)?"
_TIME = r".*[0-9]{4}-[0-9]{2}-[0-9]{2}.*|.*[0-9]{1,2}:[0-9]{2}.*"
#: A column name that looks like data (a number, a date, a clock time): a header-less file's row.
_DATA_LIKE = f"{_NUMBER}|{_TIME}"
#: Words of usual column names: of a text file's first line, only names with one are shown.
_COLUMN_WORDS = frozenset("""
    ts time timestamp date datetime when at created updated start end outcome result status state
    ok success error bucket kind type code reason region zone site dc host hostname server node
    pod service app endpoint route path url uri method op operation job task name id key session
    request duration latency elapsed ms value count cpu mem memory bytes size level env cluster
    tenant version label message metric user email login client customer account ip addr agent
""".split())

#: What a header calls its time column: a log's first line whose time is one of these words, or
#: the name of one of the pattern's groups, is a header, not an event.
_TIME_NAMES = frozenset({"ts", "time", "timestamp", "@timestamp", "date", "datetime"})


def refuse_header_line(name: str, line: int, values: Mapping[str, str | None], time: str) -> None:
    """Refuse the first line of the log ``name`` that a pattern matched (line ``line``), with the
    ``values`` of its groups, when it is a header (its time, group ``time``, is a column name:
    no time, which the reading would refuse as unparseable), with the fix: a pattern that does
    not match it (budgetlab has no option to skip a header line). No value of the file is shown.

    >>> refuse_header_line("app.log", 1, {"ts": "ts", "outcome": "outcome"}, "ts")
    Traceback (most recent call last):
    ...
    budgetlab.errors.TimestampError: unparseable timestamp at line 1 of app.log: the line looks
    like a header, not an event (its values are the names of the pattern's groups: ts, outcome);
    write pattern= so that it does not match that line (e.g. with a time group that begins with
    a digit, \\d, when the times do).
    """
    said = {group: str(value or "").strip().strip("\"'").casefold()
            for group, value in values.items()}
    if said[time] not in _TIME_NAMES | {group.casefold() for group in said}:
        return
    why = (f"its values are the names of the pattern's groups: {', '.join(said)}"
           if all(value == group.casefold() for group, value in said.items()) else
           "its time is a column name such as timestamp, time or ts, not a time")
    raise TimestampError(
        f"unparseable timestamp at line {line} of {name}: the line looks like a header, not an "
        f"event ({why}); write {say('pattern=', '--pattern')} so that it does not match that "
        "line (e.g. with a time group that begins with a digit, \\d, when the times do).")


def _hidden_names(names: Sequence[str]) -> np.ndarray:
    """Which names look like data (numbers, times, personal data): a header-less file's row."""
    series = pd.Series(names, dtype="string[pyarrow]")
    hidden = personal_mask(series)
    hidden |= series.str.fullmatch(_DATA_LIKE).fillna(False).to_numpy(dtype=bool)
    return hidden


def _shown_names(names: Sequence[str], limit: int = 20, unusual: Collection[str] = ()) -> str:
    """The names, those that look like data as a placeholder; ``unusual`` ones only counted."""
    seen = [n for n in names if n not in unusual]
    hidden = _hidden_names(seen) if seen else np.zeros(0, dtype=bool)
    out = ["<hidden: looks like data>" if h else repr(t[:60])
           for t, h in zip(seen[:limit], hidden[:limit], strict=True)]
    text = ", ".join(out) + (f" and {len(seen) - limit} more" if len(seen) > limit else "")
    if len(seen) < len(names):
        n = len(names) - len(seen)
        text += (f" and {counted(n, 'other name')}" if seen else counted(n, "name")) + (
            " not shown (without a usual column word: the first line may be data)")
    return text


def _shape(row: Sequence[str]) -> list[str]:  # letters as "a", digits as "9"
    return [re.sub(r"[^\W\d_]+", "a", re.sub(r"[0-9]+", "9", c)) for c in row]


def _kind(cell: str, words: Callable[[str], str | None]) -> str | None:
    """What a cell holds: ``"time"``, ``"number"``, what ``words`` says (``"outcome"``,
    ``"true/false"``), ``"missing"`` (empty or a missing-value word), else ``None`` (text)."""
    text = cell.strip()
    if text.casefold() in MISSING_LABELS:
        return "missing"
    if re.fullmatch(_TIME, text):
        return "time"
    return "number" if re.fullmatch(_NUMBER, text) else words(text)


def _like_rows(names: Sequence[str], below: list[Sequence[str]],
               words: Callable[[str], str | None]) -> bool:
    """Whether a first line (``names``) looks like the rows ``below`` it: a name comes back in
    its column, or a name is of the kind its column holds throughout (an outcome word above
    outcome words not all true/false, a time above times, a number above numbers); and no name
    sits above times or numbers without being one (a header's name over a column of data).

    >>> _like_rows(["ts", "error"], [["2026-01-01T00:00:00Z", "timeout"]], {"error": "outcome",
    ...            "timeout": "outcome"}.get)
    False
    """
    alike = False
    for j, name in enumerate(names):
        cells = [r[j] for r in below if len(r) > j and r[j].strip()]
        kinds = {_kind(c, words) for c in cells} - {"missing"}
        kind = _kind(name, words)
        if len(kinds) == 1 and kinds <= {"time", "number"} and kind not in kinds | {"missing"}:
            return False  # times or numbers below a name that is neither: a header
        if name.strip() and name in cells:  # the name comes back in its column
            alike = True
        elif kind in ("time", "number"):
            alike |= kinds == {kind}
        elif kind not in (None, "missing"):  # a word above outcome words, not all true/false
            alike |= kinds - {"true/false"} == {"outcome"}
    return alike


def _unusual(names: Sequence[str], columns: Sequence[str], below: list[Sequence[str]],
             words: Callable[[str], str | None]) -> list[str] | None:
    """A text file's first line (``names``) and rows ``below`` it: ``None`` when it is a row of
    data (it looks like the rows below, :func:`_like_rows`, and names no declared column; or no
    name is a usual column word and a row has its shape), else the names not declared and
    without a usual column word (:data:`_COLUMN_WORDS`), which are not shown: none when it names
    a declared column (a header, shown whole) unless it also looks like the rows below.

    >>> _unusual(["jsmith", "ok"], [], [["mjones", "failed"]], {"ok": "x", "failed": "outcome"}.get)
    >>> _unusual(["ts", "ok", "jsmith"], [], [["2026-01-01", "true", "x"]], lambda w: None)
    ['jsmith']
    """
    below = [r for r in below if list(r) != list(names)]  # a header repeated: not data
    alike, declared = _like_rows(names, below, words), bool(set(columns) & set(names))
    if alike and not declared:
        return None
    unusual = [n for n in names if n not in columns and _COLUMN_WORDS.isdisjoint(re.split(
        r"[\W_0-9]+", re.sub(r"(?<=[a-z])(?=[A-Z])", "_", n).casefold()))]
    if declared:  # a header, shown whole; like the rows below, only its usual names shown
        return unusual if alike else []
    shaped = len(unusual) == len(names) and _shape(names) in map(_shape, below)
    return None if shaped else unusual


def numbers_in_rows(header: Sequence[str], rows: Iterable[Sequence[str]]) -> list[str]:
    """The columns of ``header`` whose cells in ``rows`` (a sample of the first) are all numbers,
    empty cells aside; a column without a number is not one.

    >>> numbers_in_rows(["ts", "value", "host"], [["2014-03-07 03:41", "45.8", "a"],
    ...                                           ["2014-03-07 03:46", "", "b"]])
    ['value']
    """
    seen: set[str] = set()
    other: set[str] = set()
    for row in rows:
        for name, cell in zip(header, row, strict=False):
            if not cell.strip():
                continue
            try:
                float(cell)
            except ValueError:
                other.add(name)
            else:
                seen.add(name)
    return [name for name in header if name in seen and name not in other]


def _series_hint(option: str, have: Sequence[str], numbers: Callable[[], Collection[str]] | None,
                 ) -> str:
    """Where the outcome column is missing and every column besides the time column holds
    numbers (``numbers``: those the reader has seen hold numbers), the way to read a metric
    series: a threshold on the first of them whose name ``ok_when`` reads back; empty
    otherwise."""
    if option != "outcome" or numbers is None:
        return ""
    roles = (ROWS.get() or {}).get("roles") or {}
    others = [n for n in have if "time" not in roles.get(n, ())]
    held = set(numbers())
    if not others or not all(n in held for n in others):
        return ""
    named = [n for n in others if n == n.strip() and n and not set(n) & set("<>=!'\"")]
    if not named:
        return ""
    if all("duration" in roles.get(n, ()) for n in others):  # the numbers are the durations
        return _durations_only(others, named[0])
    which = (f"Its other column, {_shown_names(others)}, holds numbers: read a metric series by "
             "a threshold you choose, " if len(others) == 1 else
             f"Its other columns, {_shown_names(others)}, hold numbers: read a metric series by "
             "a threshold you choose on one of them, ")
    return f" {which}{threshold_words(named[0])}."


def _durations_only(others: Sequence[str], column: str) -> str:
    """The words of :func:`_series_hint` where the numbers besides the time are the duration
    column's: no threshold shares that column with the duration, and no reading makes a log of
    attempts of a metric series; what the series can be read as instead."""
    flag = say("duration=", "--duration")
    return (f" Its other column, {_shown_names(others)}, is the {flag} column: a latency SLO needs "
            "an outcome per attempt, and a metric series of durations (one value per interval, "
            "such as an average) is not a log of attempts. To judge the series itself by a "
            f"threshold you choose, read it without {flag}: {threshold_words(column)}.")


def header_error(names: Sequence[str], columns: Sequence[str], what: str,
                 numbers: Callable[[], Collection[str]] | None = None,
                 rows: Iterable[Sequence[str]] | None = None,
                 words: Callable[[str], str | None] = lambda w: None) -> SchemaError:
    """The refusal of a header with duplicated names or without a declared column: the closest
    names suggested, names that look like data hidden (a header-less file is never echoed).
    ``numbers``: the columns the reader saw hold numbers (asked only here); a file without the
    outcome column whose other columns are numbers is told how to read a metric series.
    ``rows``: a text file's rows after its first line, which tell a row of data from a header
    and show only names with a usual column word (:func:`_unusual`; ``words``: what a built-in
    outcome word means)."""
    sample: list[Sequence[str]] = []  # read with the header: no pass over the file
    with contextlib.suppress(csv.Error):  # a malformed row ends it (the refusal is the header's)
        sample.extend(itertools.islice(rows or (), SAMPLE_ROWS))
    unusual = [] if rows is None else _unusual(names, columns, sample, words)
    numbers = numbers if rows is None else functools.partial(numbers_in_rows, names, sample)
    seen = Counter(names)
    dups = [n for n, k in seen.items() if k > 1]
    if dups and unusual is not None:
        return SchemaError(f"{what}: duplicate column {noun_for(len(dups), 'name')} "
                           f"{_shown_names(dups, unusual=unusual)}; rename them so each is unique.")
    have, missing = list(seen), [c for c in columns if c not in seen]
    if unusual is None or have and _hidden_names(have).any():
        lead = f"has no column {shown(missing[0])}" if missing else "has duplicate column names"
        return SchemaError(f"{what} {lead}. The first line looks like data, not column names "
                           f"({counted(len(names), 'field')}; not shown): does the file have a "
                           "header row?")
    col = missing[0]
    roles = (ROWS.get() or {}).get("roles") or {}
    options = roles.get(col, ())
    declared = f" ({'; '.join(_declared_by(o, col) for o in options)})" if options else ""
    pool, present = _candidates(have, roles, options)
    if unusual:  # names without a usual column word may be data: counted, never shown
        present = f"Columns present: {_shown_names(have, unusual=unusual)}"
    close = close_names(col, [n for n in have if n not in unusual],
                        taken=[n for n in have if n not in pool])
    hint = f" Did you mean {_shown_names(close)}?" if close else ""
    sep = next((s for s in (";", "\t", ",", "|") if len(have) == 1 and s in have[0]), None)
    if sep is not None:
        hint += (f" The header is one column holding {sep!r}: is that the separator? budgetlab "
                 "reads ',' (.csv) and tab (.tsv, or " + say("format='tsv'", "--format tsv")
                 + ").")
    series = "".join(_series_hint(o, have, numbers) for o in options if not unusual)
    return SchemaError(f"{what} has no column {shown(col)}{declared}.{hint}{series} {present}.")


#: The options that declare a group key: a missing one is only ever suggested another key.
_KEY_OPTIONS = frozenset({"by", "keep"})


def _candidates(have: list[str], roles: dict[str, tuple[str, ...]], options: Sequence[str]
                ) -> tuple[list[str], str]:
    """The columns a missing one declared by ``options`` may be a misspelling of, and the
    sentence naming the columns present. A missing group key (``by``, ``keep``) is never the
    time, outcome or another role's column (``roles``: each declared column's options): those
    are read as such, and named apart.

    >>> roles = {"ts": ("time",), "outcome": ("outcome",), "nosuchcol": ("by",)}
    >>> pool, present = _candidates(["ts", "outcome", "region"], roles, ("by",))
    >>> pool, present[:46]
    (['region'], "Columns present: 'region' (and 'ts', 'outcome'")
    >>> _candidates(["ts", "outcome"], roles, ("time",))[1]
    "Columns present: 'ts', 'outcome'"
    """
    if not options or set(options) - _KEY_OPTIONS:
        return have, f"Columns present: {_shown_names(have)}"
    taken = {n: [o for o in roles.get(n, ()) if o not in _KEY_OPTIONS] for n in have}
    keys = [n for n in have if not taken[n]]
    if len(keys) == len(have):
        return have, f"Columns present: {_shown_names(have)}"
    uses = " and ".join(dict.fromkeys(_ROLES.get(o, o) for n in have for o in taken[n]))
    rest = _shown_names([n for n in have if taken[n]])
    named = f"{_shown_names(keys)} (and {rest}: {uses})" if keys else f"{rest} only ({uses})"
    return keys, f"Columns present: {named}"


#: What a column declared by each option holds, for :func:`_declared_by`.
_ROLES = {"time": "the time column", "outcome": "the outcome-label column",
          "ok": "the true/false success column", "bucket": "the failure-kind column",
          "session": "the session column", "duration": "the request-duration column",
          "ok_when": "the metric column of the threshold"}


def _declared_by(option: str, column: str) -> str:
    """Which option declared a missing ``column``, and how to name the right one, in the words
    of the API or the command line (``the time column: name it with --time``); a group key
    given by a notebook's parameters, in the words of those that gave that column
    (``by[region]``: :func:`budgetlab.cli.read_flags.read_source`), not of every one."""
    def flag(name: str) -> str:
        return say(f"{name}=", option_word(name))

    if option in ("by", "keep"):
        own = command_flag(f"{option}[{column}]")
        word = own if own and not own.startswith("--") else flag(option)  # words, never a flag
        return f"declared in {word}: give the name the file uses"
    text = f"{_ROLES[option]}: name the right one with {flag(option)}"
    if option == "outcome":
        text += f", or give a true/false success column with {flag('ok')}"
    return text
