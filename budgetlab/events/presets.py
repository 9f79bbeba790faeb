"""Line formats: the named groups of a pattern (what Arrow's ``extract_regex`` can run) and the
named presets (``preset=``, CLI ``--preset``), documented examples of common formats, each tested
on a real public sample; and the options of text logs in a
:class:`~budgetlab.events.spec.ReadSpec` (``pattern``, ``preset``, ``time_format``, ``year``,
``on_error`` and the deprecated ``strict``), checked when one of them is given
(:func:`check_line_options`). How their lines are read is :mod:`budgetlab.events.lines`.
"""

from __future__ import annotations

import dataclasses
import re
import sys
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from .._util.validation import check_argument
from .._util.words import counted, say
from ..errors import ConfigError, FileFormatError, TimestampError
from ._messages import row_numbers
from .timeformat import check_time_format, has_year
from .times import parse_time

__all__ = ["LinePreset", "PRESETS", "REPEATED", "RFC3339", "check_pattern", "only_groups",
           "pattern_groups", "check_line_options", "cut_last", "repeated_rows", "read_stamps"]

_GROUP = re.compile(r"\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>")
# lookaround; backreferences: \1, \k<name> (\k'name', \k{name}), Python's (?P=name), \g{1}
_UNSUPPORTED = re.compile(r"\(\?<?[=!]|\\[1-9]|\\k[<'{]|\(\?P=|\\g[{0-9<'-]")


@dataclasses.dataclass(frozen=True)
class LinePreset:
    """A documented example of a line format: its pattern, time format and label meanings; and
    what only some formats need: a faster pattern, checks of groups, the words for messages."""

    pattern: str
    time_format: str
    outcomes: Mapping[str, str]
    about: str
    #: A one-pass pattern tried first (RE2 extracts those several times faster): the same groups,
    #: matching only lines ``pattern`` matches, with the same values.
    fast: str | None = None
    #: RE2 patterns a group's value must match for the line to be in the format (with
    #: ``on_error="raise"`` or ``"skip"``).
    checks: Mapping[str, str] = dataclasses.field(default_factory=dict)
    #: The format's name in messages ("common/combined log format") and what a file of it is.
    format_name: str | None = None
    kind: str | None = None
    #: Undecodable bytes replaced by U+FFFD instead of refused: they can sit only in parts of the
    #: line no kept group reads as text (a replaced time does not read, which makes the line bad).
    replace: bool = False
    #: A whole line of the format (Python ``re``, matched from its start to its end), for a format
    #: whose ``pattern`` reads a line's first fields only: a file's last line without a line end
    #: that ``pattern`` matches but this does not was cut while written (:mod:`.lines`).
    whole: str | None = None


_QUOTED = r'"(?:[^"\\]|\\.)*"'
_ACCESS = (r"^[^ ]+ [^ ]+ (?:[^ ]+|" + _QUOTED + r") \[(?P<ts>[^\]]+)\] "
           r'"(?P<method>[A-Za-z]*)(?:[^"\\]|\\.)*" (?P<outcome>[0-9]{3}) (?:[0-9]+|-)(?: |$)')
#: A whole common/combined line: after the status and size, fields apart by spaces, each a quoted
#: text closed by its quote or an unquoted word (the referrer, the agent, what nginx may add).
_ACCESS_WHOLE = (r'[^ ]+ [^ ]+ (?:[^ ]+|' + _QUOTED + r') \[[^\]]+\] ' + _QUOTED
                 + r' [0-9]{3} (?:[0-9]+|-)(?: +(?:' + _QUOTED + r'|[^ "]+))* *')
#: The access pattern with an unquoted user and the method before a non-letter: one-pass, so RE2
#: extracts fast; on the lines it matches, the full pattern matches with the same groups.
_ACCESS_FAST = (r'^[^ ]+ [^ ]+ [^ ]+ \[(?P<ts>[^\]]+)\] '
                r'"(?P<method>[A-Za-z]*)(?:[^A-Za-z"\\](?:[^"\\]|\\.)*)?" '
                r"(?P<outcome>[0-9]{3}) (?:[0-9]+|-)(?: |$)")
#: rsyslog's RFC 3339 time stamp (``2026-12-10T09:00:05.123456+00:00``, auth.log on Debian 12 and
#: Ubuntu 23.10 on): it carries its year and UTC offset, so it is read as an instant, with no year=.
RFC3339 = (r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]{1,9})?"
           r"(?:Z|[+-][0-9]{2}:[0-9]{2})")
#: The group of a preset's line that stands for that many events: rsyslog writes N identical
#: messages after the first as one line, ``message repeated N times: [ ... ]``, stamped with the
#: last one's time (its ``ratelimit.c``). Each is read as an event at that line's time, and said.
REPEATED = "repeated"
#: Named presets (``preset=``, CLI ``--preset``), each tested on a real public sample
#: (``tests/fixtures/loghub/``, ``elastic_auth/``, ``elastic_apache/``). Their ``outcomes`` are used
#: unless ``outcomes=`` is given.
PRESETS: dict[str, LinePreset] = {
    "sshd": LinePreset(
        pattern=r"^(?P<ts>[A-Z][a-z]{2} [ 0-9]?[0-9] [0-9]{2}:[0-9]{2}:[0-9]{2}|" + RFC3339
                + r") (?P<host>\S+) sshd(?:-session)?(?:\[[0-9]+\])?: (?:message repeated "
                r"(?P<" + REPEATED + r">[1-9][0-9]{0,5}) times: \[ )?"
                r"(?P<outcome>Accepted|Failed) \S+ for ",
        time_format="%b %d %H:%M:%S",
        outcomes={"accepted": "success", "failed": "failure"},
        about="OpenSSH authentication in a syslog file (syslog or RFC 3339 time stamps; sshd or "
              "sshd-session, with or without a pid): 'Accepted ... for' is a success, "
              "'Failed ... for' a failure ('message repeated N times: [ Failed ... ]' N of "
              "them); every other line is not an event. Keys: host.",
    ),
    "proxifier": LinePreset(
        pattern=r"^\[(?P<ts>[0-9]{2}\.[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2})\] (?P<program>.+?) - "
                r"\S+ (?P<outcome>close|error)\b",
        time_format="%m.%d %H:%M:%S",
        outcomes={"close": "success", "error": "failure"},
        about="Proxifier connection log: a connection that closes is a success, one that ends "
              "in an error a failure; 'open through proxy' lines are not events. Keys: program.",
    ),
    "access": LinePreset(
        pattern=_ACCESS,
        time_format="%d/%b/%Y:%H:%M:%S %z",
        outcomes={"1xx": "success", "2xx": "success", "3xx": "success", "4xx": "success",
                  "5xx": "server_error"},
        about="Apache/nginx access log, common or combined format: the HTTP status is the "
              "outcome (below 500 a success). Keys: method. The client address, user, path, "
              "referrer and agent are never read.",
        fast=_ACCESS_FAST, checks={"outcome": "^[1-5][0-9][0-9]$"},
        format_name="common/combined log format", kind="an access log", replace=True,
        whole=_ACCESS_WHOLE,
    ),
}


def pattern_groups(pattern: str) -> list[str]:
    """The named groups of ``pattern``, in order.

    >>> pattern_groups(r"^(?P<ts>\\S+ \\S+) (?P<outcome>\\w+) (?<region>\\w+)")
    ['ts', 'outcome', 'region']
    """
    return _GROUP.findall(pattern)


def check_pattern(pattern: Any, needed: Sequence[str], *, preset: str | None = None,
                  roles: Mapping[str, Sequence[str]] | None = None) -> str:
    """Refuse a pattern Arrow cannot run (RE2 syntax: lookaround and backreferences are not part of
    it; Arrow's extract_regex takes no unnamed capturing group, ``(...)``) or one without a named
    group for each ``needed`` column. ``preset``: the pattern is that preset's (the refusal names
    the preset, not a ``pattern=`` the user did not give); ``roles``: the options that declared
    each column (``{"bytes": ("ok", "duration")}``), all named beside it.

    >>> check_pattern(PRESETS["access"].pattern, ["ts", "bytes"], preset="access",
    ...               roles={"bytes": ("ok", "duration")})
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: the access preset has no field 'bytes' (ok= and duration=); its
    fields are ts, method, outcome: declare only those, or give a pattern= of your own with a named
    group for it (and time_format=, outcomes=) in place of preset=.
    """
    if not isinstance(pattern, str) or not pattern:
        raise ConfigError("pattern= takes a regular expression with named groups, e.g. "
                          r"'^(?P<ts>\S+ \S+) (?P<outcome>\w+)'.")
    if _UNSUPPORTED.search(pattern):
        raise ConfigError("pattern= uses lookaround or a backreference; patterns are RE2 syntax "
                          "(as Arrow's extract_regex reads them), which has neither: match the "
                          "text itself instead.")
    try:
        pc.extract_regex(pa.array([], type=pa.string()), pattern=pattern)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as exc:
        reason = str(exc).split(":", 1)[-1].strip()
        if "unnamed group" in reason:  # RE2 parsed it: a plain ( ... ) captures without a name
            raise ConfigError("pattern= has a group without a name, ( ... ); each group is a "
                              "column: write (?P<name>...) for a column, or (?:...) for a group "
                              "that only groups (an optional part: (?:...)?).") from None
        raise ConfigError(f"pattern= is not a valid RE2 regular expression ({reason}).") from None
    groups = pattern_groups(pattern)
    if len(set(groups)) != len(groups):
        raise ConfigError("pattern= names a group twice; give each named group its own name.")
    missing = [c for c in dict.fromkeys(needed) if c not in groups]
    if not missing:
        return pattern
    named = " or ".join(repr(c) + (f" ({' and '.join(f'{o}=' for o in roles[c])})"
                                   if roles and c in roles else "") for c in missing)
    have = ", ".join(groups) or "none"
    if preset is not None:
        one = len(missing) == 1
        noun, it = ("group names", "it") if one else ("groups name", "them")
        raise ConfigError(f"the {preset} preset has no field {named}; its fields are {have}: " + (
            "group by those, or by a pattern= (with time_format=, outcomes=) whose named "
            f"{noun} no person, or hash {it}: "
            + say("pii='hash' with salt=.", "--pii hash --salt S.")
            if any("by" in (roles or {}).get(c, ()) for c in missing) else
            "declare only those, or give a pattern= of your own with a named group "
            f"for {'it' if one else 'each'} (and time_format=, outcomes=) in place of preset="
            "."))
    raise ConfigError(f"pattern= has no named group for {named}; its named groups are {have}. "
                      "Write (?P<name>...) around the part of the line that holds it.")


def only_groups(pattern: str, groups: Sequence[str]) -> str:
    """``pattern`` with its named groups not in ``groups`` made non-capturing (a group costs
    time to extract).

    >>> only_groups(r"(?P<ts>\\S+) (?P<method>\\w+) (?P<outcome>\\d+)", ["ts", "outcome"])
    '(?P<ts>\\\\S+) (?:\\\\w+) (?P<outcome>\\\\d+)'
    """
    return _GROUP.sub(lambda m: m.group(0) if m.group(1) in groups else "(?:", pattern)


def repeated_rows(events: pa.Table, name: str) -> tuple[np.ndarray, tuple[str, ...]] | None:
    """The row of each event, when a line of a preset stands for several (:data:`REPEATED`:
    rsyslog's ``message repeated N times: [ ... ]`` is N events with the outcome it repeats, each
    at that line's time), and the note that says so; ``None`` when no line does."""
    if REPEATED not in events.column_names:
        return None
    times = events.column(REPEATED)  # "" on the other lines
    said = pc.not_equal(times, "")
    lines = int(pc.sum(said).as_py() or 0)
    if not lines:
        return None
    n = np.asarray(pc.cast(pc.if_else(said, times, "1"), pa.int64()), dtype=np.int64)
    return np.repeat(np.arange(len(n)), n), (
        f"{name}: {counted(lines, 'line')} 'message repeated N times: [ ... ]' read as "
        f"{int(n.sum()) - len(n) + lines:,} events, N each (the outcome it repeats, each at that "
        "line's time: rsyslog stamps it with the last repeat's)",)


def read_stamps(text: pd.Series, year: int | None) -> tuple[np.ndarray, str] | None:
    """The times of a preset's lines written as RFC 3339 stamps (:data:`RFC3339`), as int64 ns UTC
    and how they were read; ``None`` when no line has one (the preset's ``time_format`` reads them,
    with ``year``). A read whose lines mix both styles, or that gives a year to stamps that carry
    theirs, is refused: the year of a syslog stamp is not guessed from another line's."""
    iso = np.asarray(text.astype(str).str.match(r"[0-9]"), dtype=bool)
    if not iso.any():
        return None
    if not iso.all():  # named by the first line of each style
        at = np.arange(len(iso))
        raise TimestampError(f"the time at {row_numbers(at == np.argmax(iso))} is an RFC 3339 "
                             "stamp (with its year and UTC offset), that at "
                             f"{row_numbers(at == np.argmin(iso))} a syslog stamp (Dec 10 "
                             "09:00:01, with neither); read the files of each style apart, the "
                             f"syslog ones with {say('year=', '--year')}.")
    if year is not None:
        raise ConfigError(f"the lines' times are RFC 3339 stamps, which carry their year; leave "
                          f"{say('year=', '--year')} out.")
    return parse_time(text.astype(str), tz="UTC", epoch=None), \
        "RFC 3339 text with UTC offsets (each line its own instant)"


def cut_last(scan: Any, preset: LinePreset | None, on_error: str) -> bool:
    """Whether the file's last line, without its line end, was matched as an event but is not a
    whole line of the preset's format (:attr:`LinePreset.whole`: an access log's user agent cut
    inside its quotes; ``scan`` a :class:`~.lines.LineScan`): the file may be half-written.
    Refused as a CSV whose last row is cut is (:func:`~._text.read_csv_text`), unless ``on_error``
    is ``"skip"`` (then it is a line not in the format, skipped with the others). A last line
    that is whole is an ordinary line."""
    if scan.open_last is None or preset is None or preset.whole is None:
        return False
    number, text = scan.open_last
    if not len(scan.numbers) or scan.numbers[-1] != number or re.fullmatch(preset.whole, text):
        return False
    if on_error == "skip":
        return True
    fix = say("pass on_error='skip' to drop it", "pass --on-error skip to drop it (with a warning)")
    raise FileFormatError(f"{scan.name}: line {number:,} is not a whole line in "
                          f"{preset.format_name} (a quoted field is never closed); the last line "
                          f"has no line end: the file may be half-written. Read it once it is "
                          f"whole, or {fix}.")


def _caller_level() -> int:
    """The ``stacklevel`` of a warning raised by the caller of this function that points at the
    user's line: the first frame outside budgetlab and the dataclass machinery (a spec is made by
    ``ReadSpec(...)``, by :meth:`ReadSpec.replace` through :func:`dataclasses.replace`, or inside
    ``read_events`` and its Dask twin, each a different depth)."""
    frame, level = sys._getframe(1), 1
    while frame.f_back is not None and \
            str(frame.f_globals.get("__name__")).partition(".")[0] in ("budgetlab", "dataclasses"):
        frame, level = frame.f_back, level + 1
    return level


def check_line_options(spec: Any) -> None:
    """Check the options of text logs of ``spec`` (``pattern``, ``preset``, ``time_format``,
    ``year``, ``on_error`` and the deprecated ``strict``) and fill those a ``preset`` sets."""
    check_argument("on_error", spec.on_error, ("count", "raise", "skip"))
    # the refusals below name the option given: strict=True, or on_error=
    given = "strict=True (on_error='raise')" if spec.strict is True else "on_error="
    _old_strict(spec)
    if spec.preset is not None:
        check_argument("preset", spec.preset, tuple(PRESETS))
        if spec.pattern is not None or spec.time_format is not None:
            both = "pattern=" if spec.time_format is None else "time_format=" \
                if spec.pattern is None else "pattern= and time_format="
            raise ConfigError(f"preset= sets the pattern and the time format; give either "
                              f"preset= or {both}, not both (a pattern takes its own "
                              "time_format=).")
        p = PRESETS[spec.preset]
        if spec.year is not None and has_year(p.time_format):  # the user gave no format
            raise ConfigError(f"the {spec.preset} preset's times carry their year "
                              f"({p.time_format!r}); leave year= out.")
        spec._set(pattern=p.pattern, time_format=p.time_format,
                  outcomes=spec.outcomes if spec.outcomes is not None else
                  dict(p.outcomes) or None)
    if spec.pattern is not None:
        if spec.format is not None:
            raise ConfigError("pattern= reads text lines; leave format= out.")
        check_pattern(spec.pattern, [spec.time, spec.label, *spec.by, *spec.keep,
                                     *(c for c in (spec.bucket, spec.session, spec.duration)
                                       if c)], preset=spec.preset, roles=spec.roles)
    elif spec.on_error != "count":
        raise ConfigError(f"{given} goes with pattern= (or preset=): it says what becomes "
                          "of the lines the pattern does not match.")
    if spec.time_format is not None or spec.year is not None:
        check_time_format(spec.time_format, spec.year)
    if spec.time_format is not None and spec.epoch is not None:
        # the format may be a preset's: name what the user gave
        given = "time_format=" if spec.preset is None else f"preset={spec.preset!r}"
        raise ConfigError(f"{given} reads text times and epoch= numbers; give one of them.")


def _old_strict(spec: Any) -> None:
    """``strict=True``, the deprecated spelling of ``on_error="raise"``: warned about and
    read as that, so that ``on_error`` alone holds the choice."""
    if not isinstance(spec.strict, bool):
        raise ConfigError("strict= takes True or False (it is deprecated: pass "
                          "on_error='raise').")
    if not spec.strict:
        return
    if spec.on_error == "skip":
        raise ConfigError("strict=True refuses the lines that on_error='skip' would skip; "
                          "give on_error= alone (strict= is deprecated).")
    warnings.warn("strict=True is deprecated and will be removed; pass on_error='raise' "
                  "(the same rule).", FutureWarning, stacklevel=_caller_level())
    spec._set(strict=False, on_error="raise")
