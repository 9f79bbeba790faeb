"""The command line's prose filled to 100 columns (:func:`wrap`): every line of words a command
prints beside its tables, the "how it was read" block's long lines too; and a path the user gave,
as that prose repeats it (:func:`path_label`). No heavy import at module load (``export``,
``backtest`` keep ``--help`` light)."""

from __future__ import annotations

import re
import textwrap
from typing import Any

__all__ = ["wrap", "fill_line", "path_label"]


#: The spaces of a figure and its unit, and of a duration's two units ("3 h 21 min"), which
#: :func:`wrap` never breaks.
_UNIT = re.compile(r"(?<=\d) (%|(?:d|h|min|s|ms|us|µs|ns)\b(?: \d+ (?:h|min|s)\b)?)")
#: The space between a date and its time of day (``2014-03-21 03:41``), and between the time
#: and its UTC offset (``03:41 +01:00``), never broken either.
_DATE_TIME = re.compile(r"(?<=\d{4}-\d\d-\d\d) (?=\d\d:\d\d)|(?<=\d\d:\d\d) (?=[+-]\d\d:\d\d)")


def wrap(text: str, indent: str = "    ", hang: str = "") -> str:
    """``text`` filled to 100 columns, never broken between a figure and its unit ("93.80 %",
    "3 d", "53 s", "0 ms"), inside a duration ("19 h 59 min"), between a date and its time
    ("2026-10-06 03:13"), at a hyphen ("re-run", "warm-up", "--min-events" stay whole) nor inside
    a word longer than the line (a path: on a line of its own, whole); the lines after the first
    indented by ``hang`` more.

    >>> print(wrap("note: provisional: 3 d 10 h of evaluated history, less than the 14 d a "
    ...            "recommendation needs; re-run with more history"))
        note: provisional: 3 d 10 h of evaluated history, less than the 14 d a recommendation needs;
        re-run with more history
    >>> print(wrap("image: CRITICAL or worse 6 % of the time (4 h 28 min); 2 episodes (31 before "
    ...            "merging), longest 3 h 21 min from 2026-10-06 03:13", indent="  "))
      image: CRITICAL or worse 6 % of the time (4 h 28 min); 2 episodes (31 before merging), longest
      3 h 21 min from 2026-10-06 03:13
    """
    glued = _UNIT.sub(lambda m: "\0" + m[1].replace(" ", "\0"), " ".join(str(text).split()))
    glued = _DATE_TIME.sub("\0", glued)
    return textwrap.fill(glued, width=100, initial_indent=indent,
                         subsequent_indent=indent + hang, break_on_hyphens=False,
                         break_long_words=False).replace("\0", " ")


def fill_line(line: str) -> str:
    """A line a command prints, filled to 100 columns (:func:`wrap`): its leading blank lines and
    indent kept; an indented line (an item under a heading) continues two spaces deeper, so that
    its continuation reads as its own, a heading at its own indent (deeper, it would read as an
    item under it).

    >>> print(fill_line("\\n  turnstile: at 20 s: timed out 1.31 %, successes lost 0.18 % of "
    ...                 "attempts (110), waiting saved 0.472 s per attempt, availability 97.86 %"))
    <BLANKLINE>
      turnstile: at 20 s: timed out 1.31 %, successes lost 0.18 % of attempts (110), waiting saved
        0.472 s per attempt, availability 97.86 %
    >>> said = fill_line("  api=metadata: at 500 ms: timed out 0.00 %, successes lost 0.00 % of "
    ...                  "attempts (0), waiting saved 0 ms per attempt, availability 100.00 %")
    >>> [len(line) for line in said.splitlines()], said.splitlines()[1]  # "0 ms" kept whole
    ([97, 43], '    0 ms per attempt, availability 100.00 %')
    >>> print(fill_line("quantiles in s (one unit, that of the largest): Kaplan-Meier, timeouts "
    ...                 "censored at each group's timeout in force, solve errors censored at "
    ...                 "their duration"))
    quantiles in s (one unit, that of the largest): Kaplan-Meier, timeouts censored at each group's
    timeout in force, solve errors censored at their duration
    """
    body = line.lstrip("\n")
    text = body.lstrip(" ")
    indent = body[:len(body) - len(text)]
    return line[:len(line) - len(body)] + wrap(text, indent=indent, hang="  " if indent else "")


def path_label(path: Any) -> str:
    """A path the user gave, as output text may repeat it: as given, unless it looks like personal
    data (then a placeholder; the file is still written).

    >>> path_label("out/transitions.csv"), path_label("ivan@mail.ru.csv")
    ('out/transitions.csv', 'a file whose name looks like personal data (not shown)')
    """
    from ..privacy import looks_personal

    text = str(path)
    return ("a file whose name looks like personal data (not "
            "shown)") if looks_personal(text) else text
