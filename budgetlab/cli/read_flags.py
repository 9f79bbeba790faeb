"""The command line's reading flags where there is no command line: a notebook's ``read``
parameter (``read = "--time timestamp --ok-when 'value<50'"``) is parsed by the argparse group
the commands use (:func:`~budgetlab.cli.options.add_log_options`) and read as the commands read
their ``LOG...`` (:func:`~budgetlab.cli.options.read_paths`); a refusal names those flags, not
keyword arguments.

:func:`read_options` gives the :class:`~budgetlab.events.spec.ReadSpec` of such text;
:func:`read_source` reads a notebook's ``source`` with it.
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import os
import re
import shlex
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NoReturn

from .._util.units import MINUTE_NS
from ..errors import BudgetlabError, ConfigError
from .options import add_log_options, flag_table, read_paths, read_spec

if TYPE_CHECKING:
    import pandas as pd

    from ..events.spec import ReadSpec

__all__ = ["by_keys", "read_options", "read_source", "source_incidents"]

_FLAG = re.compile(r"--[a-z][a-z-]*")
#: The bins notebook 02 scores its alerts on (``bin_events(events, "1min")``), in ns: the span
#: within which :func:`source_incidents` looks for incidents.
_SCORED_BIN_NS = MINUTE_NS


class _ReadingParser(argparse.ArgumentParser):
    """The reading flags of the commands; a bad argument is a :class:`ConfigError`, not an exit
    with the usage."""

    def error(self, message: str) -> NoReturn:
        raise ConfigError(f"read: {message}.")


def _parser() -> argparse.ArgumentParser:
    # the commands' own group; no abbreviations: --out is not taken for --outcomes
    p = _ReadingParser(prog="read", add_help=False, allow_abbrev=False)
    add_log_options(p)
    return p


def _words(text: str) -> list[str]:
    """``text`` cut into words as a POSIX shell cuts a command line (quotes group words), except
    that a backslash stays as written: ``\\S`` in a ``--pattern`` is kept, quoted or not."""
    lexer = shlex.shlex(text, posix=True)
    lexer.whitespace_split = True
    lexer.commenters = ""
    lexer.escape = ""
    try:
        return list(lexer)
    except ValueError as exc:  # "No closing quotation"
        raise ConfigError(f"read: {str(exc).lower()}; close each quote that opens a value "
                          "(e.g. --time-format '%b %d %H:%M:%S').") from None


def _args(text: str | None, given: Sequence[tuple[str, str, str]]) -> argparse.Namespace:
    """The command line's namespace of the reading flags in ``text``, with ``given`` (parameter
    name, flag's keyword, value: a notebook's own reading parameters) added; a flag that is not
    a reading flag, or one given twice, is refused by name."""
    if text is not None and not isinstance(text, str):
        raise ConfigError(f"read takes text, the reading flags as the command line writes them "
                          f"(e.g. \"--time timestamp --ok-when 'value<50'\"), or None; got "
                          f"{type(text).__name__}.")
    parser = _parser()
    words = _words(text or "")
    args, rest = parser.parse_known_args(words)
    if rest:
        flag = next((w.partition("=")[0] for w in rest if w.startswith("-")), None)
        if flag is None:
            raise ConfigError(f"read: {rest[0]!r} follows no flag; quote a value that holds "
                              "spaces (e.g. --time-format '%b %d %H:%M:%S').")
        raise ConfigError(f"read: {flag} is not a reading flag; read takes the flags that say how "
                          "to read the log (--time, --outcome, --ok-when, --outcomes, --format, "
                          "--pattern, --preset, --year, ...: budgetlab replay --help lists them "
                          "under 'input columns' and 'line-oriented text logs'); the rest are "
                          "parameters of their own.")
    flags = flag_table(parser)
    for name, dest, value in given:
        flag = flags.get(dest)
        if flag is None or not hasattr(args, dest):
            raise ConfigError(f"{name}= is not the keyword of a reading flag (e.g. time=, "
                              "outcome=, ok_when=, duration=).")
        if any(w == flag or w.startswith(f"{flag}=") for w in words):
            raise ConfigError(f"the parameter {name} and {flag} in read both say how to read the "
                              "log; give one of them.")
        words.append(f"{flag}={value}")  # a value may start with '-'
    return parser.parse_args(words) if given else args


@contextlib.contextmanager
def _flag_words(where: str = "", params: Mapping[str, str] | None = None,
                **words: str) -> Iterator[None]:
    """Messages raised inside, refusals and warnings alike, name the reading flags (``--time``,
    not ``time=``); with ``where``, one that names a flag says where to write it: ``params``
    maps the flags (by keyword: ``duration``) a notebook gave as parameters of their own to
    those parameters' names, the others go in ``where``; ``words``: the words for options a
    notebook gives as parameters of their own (``by``: its group parameters, never "by"). A
    warning is said once the block ends, reworded, in its own category."""
    import warnings

    from .._util.words import cli_words, speak

    flags = {**flag_table(_parser()), **words}
    own = {flags[k]: name for k, name in (params or {}).items() if k in flags}  # --flag: param

    def reworded(text: str) -> str:
        said = speak(text)
        named = [f for f in dict.fromkeys(_FLAG.findall(said)) if f in flags.values()]
        for flag in [f for f in named if f in own]:  # given as a parameter: say which
            said += f" (This notebook takes {flag} as its parameter {own[flag]}.)"
        named = [f for f in named if f not in own]
        if where and named:
            listed = named[0] if len(named) == 1 else f"{', '.join(named[:-1])} and {named[-1]}"
            said += (f" (A notebook takes {listed} in its parameter {where}, as the command "
                     f"line writes {'it' if len(named) == 1 else 'them'}.)")
        return said

    with cli_words(flags):
        caught: list[warnings.WarningMessage] = []
        try:
            with warnings.catch_warnings(record=True) as caught:
                yield
        except BudgetlabError as exc:
            raise type(exc)(reworded(str(exc))) from None
        finally:  # outside catch_warnings: the caller's filters and display; at the caller's line
            for w in caught:
                warnings.warn(w.category(reworded(str(w.message))), stacklevel=4)


def read_options(text: str | None = None) -> ReadSpec:
    """The :class:`~budgetlab.events.spec.ReadSpec` of reading flags written as on the command
    line (``budgetlab replay --help``: the input columns and line-oriented text logs), parsed
    by the commands' own parser; a flag that is not a reading flag is refused by name.

    Parameters
    ----------
    text : str or None
        The flags, quoted as a shell quotes them (a backslash is kept as written, so a
        ``--pattern`` reads the same quoted or not); ``None`` or ``""`` for none.

    Returns
    -------
    ReadSpec
        What :func:`budgetlab.read_events` takes (``read_events(path, spec, by=...)``).

    Examples
    --------
    >>> from budgetlab import ReadSpec
    >>> spec = read_options("--time timestamp --ok-when 'value<50'")
    >>> spec == ReadSpec(time="timestamp", ok_when="value<50")
    True
    >>> read_options("--window 1h")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: read: --window is not a reading flag; read takes the flags that \
say how to read the log (--time, --outcome, --ok-when, --outcomes, --format, --pattern, --preset, \
--year, ...: budgetlab replay --help lists them under 'input columns' and 'line-oriented text \
logs'); the rest are parameters of their own.
    """
    with _flag_words():
        args = _args(text, ())
        if args.format == "access":
            raise ConfigError("--format access: an access log is read by "
                              "budgetlab.read_access_log (or read_source); a ReadSpec reads event "
                              "tables and, with --preset access, an access log as a text log.")
        return read_spec(args)


def read_source(source: str | os.PathLike[str], read: str | None = None, *,
                by: str | Sequence[str] | Mapping[str, str | None] | None = None,
                log_format: str | None = None, outcomes: str | None = None, show: bool = True,
                **flags: Any) -> pd.DataFrame:
    """A notebook's events: a dataset name (:func:`budgetlab.datasets.load`), else the log at
    ``source`` read as ``budgetlab replay`` reads it with the reading flags in ``read``, and
    (``show``) its "how it was read" block printed, as the commands write it before their
    results.

    Parameters
    ----------
    source : str or path-like
        A dataset name, or a log: a path, a glob or a folder (an access log is recognised by its
        first line, as on the command line).
    read : str or None
        Reading flags as the command line writes them (:func:`read_options`), e.g.
        ``"--time timestamp --ok-when 'value<50'"`` or ``"--preset sshd --year 2026"``. A
        refusal names these flags and says to give them here.
    by : str, list of str or dict, optional
        The group keys (``--by``); as a dict, the notebook's parameters that give them, each
        parameter's name to its value (``{"by": by, "split_by": split_by}``, in their order;
        ``None``: that parameter gives none), so that a refusal names the parameter its user set
        (``split_by='a,b': ...``), not ``by``.
    log_format, outcomes : str, optional
        ``--format`` and ``--outcomes`` (``LABEL=MEANING`` or ``LABEL:MEANING`` pairs, as a
        notebook's parameters cell writes them), as parameters of their own.
    show : bool
        Print how a log was read (a shipped dataset is canonical already: nothing to say).
    **flags
        Any other reading flag by its keyword (``duration="request_time"`` for
        ``--duration request_time``); ``None`` is not given. A flag given here and in ``read``
        is refused.

    Returns
    -------
    DataFrame
        The canonical events (``attrs["how_read"]`` says how they were read:
        :func:`budgetlab.how_read`).
    """
    from .. import datasets

    keys, by_words = _group_keys(by)
    # a missing column names the parameters that gave it, not every group parameter
    by_words_of = ({f"by[{k}]": _parameter_words([n for n, v in by.items() if v == k])
                    for k in keys} if isinstance(by, Mapping) else {})
    given = _given({"log_format": log_format, "outcomes": outcomes, **flags})
    if isinstance(source, str) and source in datasets.names():
        named = [*(["read"] if read else []), *(name for name, _, _ in given)]
        if named:
            one = len(named) == 1
            raise ConfigError(f"{' and '.join(named)} {'applies' if one else 'apply'} to a log "
                              f"file, not to the shipped dataset {source!r} (already canonical); "
                              f"leave {'it' if one else 'them'} at None or give the path of a "
                              "log.")
        with _flag_words(by=by_words):  # "by: dataset 'demo' has no group column ..."
            return datasets.load(source, by=keys)
    path = os.path.expanduser(os.fspath(source))
    if not (os.path.exists(path) or glob.glob(path)):  # a misspelt name, or no such file
        datasets.load(source)  # refuses, naming the datasets or the file
    from ..events.files import expand_sources

    args = _args(read, given)  # its refusals name read already
    args.by = ",".join(keys)
    with _flag_words("read", {flag: name for name, flag, _ in given}, by=by_words,
                     **by_words_of):
        events = read_paths(expand_sources(path), args)[0]
        if show:  # as the commands write it before their results, in the words of the flags
            from .._util.words import speak
            from ..events.how_read import how_read

            print(speak(str(how_read(events))))
    return events


def source_incidents(incidents: str | os.PathLike[str] | None, events: pd.DataFrame, *,
                     name: str = "incidents") -> pd.DataFrame | None:
    """A notebook's incident table: ``None`` for ``None``, else the dataset or CSV ``incidents``
    (:func:`budgetlab.datasets.load`), refused when scoring would leave every one of its
    incidents out: when each lies outside (:func:`~budgetlab.alerts.score_inputs.outside_span`,
    end exclusive) the span the alerts are scored over, that of the one-minute bins of
    ``events`` (:func:`budgetlab.bin_events`, as notebook 02 bins them): from the first event's
    minute to the end of the last event's.
    Such labels belong to another log (a shipped dataset's incidents beside a log of your own),
    and every figure scored against them would say "unseen". ``name`` is the notebook parameter
    the refusal names.

    >>> import pandas as pd
    >>> ts = pd.to_datetime(["2015-05-17 10:00", "2015-05-20 10:00"], utc=True)
    >>> source_incidents("incidents_4w", pd.DataFrame({"ts": ts}))
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: incidents='incidents_4w': none of its 7 incidents \
(2026-10-06 13:20 .. 2026-11-02 00:00 UTC) overlaps the log (2015-05-17 10:00 .. 2015-05-20 \
10:00 UTC): they label another log. Set incidents=None, or give the incidents of this log.
    """
    if incidents is None:
        return None
    import pandas as pd

    from .. import datasets
    from .._util.validation import utc_ns_column
    from .._util.words import counted
    from ..alerts.score_inputs import outside_span
    from ..windows.binning import grid_span

    table = datasets.load(incidents, kind="incidents")
    first, last = events["ts"].min(), events["ts"].max()
    start, end = table["start"], table["end"]  # every incident has an end (read_incidents)
    first_bin, n_bins = grid_span(None, None, first.value, last.value, _SCORED_BIN_NS)
    outside = outside_span(utc_ns_column(start, "start"), utc_ns_column(end, "end"),
                           (first_bin, first_bin + n_bins * _SCORED_BIN_NS))
    if len(table) and outside.all():
        def utc(t: pd.Timestamp) -> str:
            return f"{pd.Timestamp(t).tz_convert('UTC'):%Y-%m-%d %H:%M}"

        raise ConfigError(f"{name}={incidents!r}: none of its {counted(len(table), 'incident')} "
                          f"({utc(start.min())} .. {utc(end.max())} UTC) overlaps the log "
                          f"({utc(first)} .. {utc(last)} UTC): they label another log. Set "
                          f"{name}=None, or give the incidents of this log.")
    return table


def _group_keys(by: str | Sequence[str] | Mapping[str, str | None] | None,
                ) -> tuple[list[str], str]:
    """:func:`read_source`'s group keys, each a column name, and the words its refusals say for
    ``--by``: the notebook's parameters that gave them when ``by`` maps each parameter to its
    value (a parameter at ``None`` gives none), else "the notebook's group parameters"."""
    if isinstance(by, Mapping):
        named = {name: key for name, key in by.items() if key is not None}
        for name, key in named.items():
            if not isinstance(key, str) or not key.strip() or "," in key:
                raise ConfigError(f"{name}={key!r}: a group key is the name of one column of the "
                                  f"log; give {name} a column name, or None.")
        # none: no key to refuse
        words = _parameter_words(list(named)) if named else "the notebook's group parameters"
        return list(named.values()), words
    return by_keys(by), "the notebook's group parameters"


def by_keys(by: str | Sequence[str] | None) -> list[str]:
    """A notebook's ``by`` as the command line's ``--by`` takes it: ``"a,b"`` or a list of column
    names (``None``: none).

    >>> by_keys("captcha_type, region"), by_keys(["captcha_type", "region"]), by_keys(None)
    (['captcha_type', 'region'], ['captcha_type', 'region'], [])
    """
    keys = [k.strip() for k in by.split(",")] if isinstance(by, str) else list(by or [])
    for key in keys:
        if not isinstance(key, str) or not key.strip() or "," in key:
            raise ConfigError(f"by={by!r}: each group key is the name of a column of the log; "
                              f"give column names, comma-separated as --by takes them "
                              f"('captcha_type,region'), or a list (not {key!r}).")
    if len(set(keys)) != len(keys):
        raise ConfigError(f"by={by!r} names a column twice; give each key once.")
    return keys


def _parameter_words(names: list[str]) -> str:
    """The notebook's parameters ``names`` in words.

    >>> _parameter_words(["split_by"]), _parameter_words(["a", "b", "c"])
    ("the notebook's parameter split_by", "the notebook's parameters a, b and c")
    """
    *others, last = names
    return (f"the notebook's parameters {', '.join(others)} and {last}" if others
            else f"the notebook's parameter {last}")


def _given(params: dict[str, Any]) -> list[tuple[str, str, str]]:
    """``(parameter, flag's keyword, value)`` of the reading parameters that are not ``None``;
    ``outcomes`` also in the notebook spelling ``LABEL:MEANING``."""
    out = []
    for name, value in params.items():
        if value is None:
            continue
        if name == "outcomes":
            from ..analyses.history import outcome_labels

            labels = outcome_labels(value)
            if labels is None:
                continue
            from .._util.pairs import write_key

            value = ",".join(f"{write_key(label)}={meaning}" for label, meaning in labels.items())
        out.append((name, "format" if name == "log_format" else name, str(value)))
    return out
