"""The ``budgetlab`` command line: the parser, wired explicitly (the parsers of ``demo``,
``replay``, the analyses and ``latency`` from :mod:`~budgetlab.cli.commands`, ``export``'s from
:mod:`~budgetlab.cli.export_options`; those of ``notebooks`` and ``backtest`` from their
modules), and the entry point.

Building the parser imports no pandas, numpy, numba or matplotlib: ``budgetlab --help``,
``budgetlab COMMAND --help`` and argument errors answer at once; the module that does a command's
work is imported when the command runs.

Bad input or arguments give one line on stderr naming the problem and the fix, and exit code 2;
never a traceback (set ``BUDGETLAB_DEBUG=1`` to see one for an unexpected error).
"""

from __future__ import annotations

import argparse
import functools
import os
import re
import sys
import warnings
from collections.abc import Sequence
from typing import Any, NoReturn

from .._util.words import cli_words, speak
from ..errors import BudgetlabError
from . import backtest, commands, export_options, notebooks
from .options import flag_table
from .prose import wrap
from .unused_flags import refuse_idle_force

__all__ = ["main", "build_parser"]


#: argparse's refusal of an option whose value it took for a flag (``--gap -5min``)
_NO_VALUE = re.compile(r"argument (?:-[^-/ ]+/)?(--[\w-]+): expected one argument")


class _HelpFormatter(argparse.HelpFormatter):
    """argparse's help, its lines never broken at a hyphen (``--tiers-out``, ``client-timeout``
    stay whole), as :func:`~budgetlab.cli.prose.wrap` fills the commands' prose."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        import textwrap  # as argparse does: only for --help

        return textwrap.wrap(" ".join(text.split()), width, break_on_hyphens=False,
                             break_long_words=False)  # a word longer than the column: whole


class _Parser(argparse.ArgumentParser):
    _argv: list[str] = []

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _HelpFormatter)  # every subcommand's parser too
        # a flag is written whole: argparse would read a prefix as the one flag it begins
        # (latency's --slo was --slow-above), a guess this never makes
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:  # one line, exit 2 (argparse prints usage too)
        found = _NO_VALUE.fullmatch(message)
        value = self._dash_value(found.group(1)) if found else None
        if found and value is not None:
            flag = found.group(1)
            message = (f"{flag} {value}: a value that begins with '-' reads as a flag; join it "
                       f"to {flag} with '=': {flag}={value}")
        message += self._prefix_hint(message)
        sys.stderr.write(f"budgetlab: error: {_short_choices(message, self.prog)}\n")
        raise SystemExit(2)

    def _prefix_hint(self, message: str) -> str:
        """For unrecognized words that begin a flag of this command: flags are not abbreviated,
        and which ones they begin (``--slo`` begins ``--slow-above``)."""
        if not message.startswith("unrecognized arguments: "):
            return ""
        parser: argparse.ArgumentParser = self  # the innermost command named on the line
        for word in self._argv:
            subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
            if subs and word in subs[0].choices:
                parser = subs[0].choices[word]
        hints = []
        for word in message.removeprefix("unrecognized arguments: ").split():
            name = word.split("=")[0]
            if name.startswith("--") and (whole := sorted(
                    f for f in parser._option_string_actions if f.startswith(name) and f != name)):
                hints.append(f"{name} begins {' or '.join(whole)}")
        return f"; flags are written whole ({'; '.join(hints)})" if hints else ""

    def _dash_value(self, flag: str) -> str | None:
        """The word after ``flag`` on the command line when it begins with ``-`` and is none of
        this parser's flags (a value such as ``-5min``), else ``None`` (a flag given without its
        value, then another flag: argparse's own words say that)."""
        words = self._argv
        for i, word in enumerate(words[:-1]):
            after = words[i + 1]
            if word == flag and after.startswith("-") and not any(
                    option.startswith(after.split("=")[0])
                    for option in self._option_string_actions):
                return after
        return None

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        """Parse, and note the flags of the command that parsed (the innermost parser, which
        finishes first): its messages name them."""
        self._argv = [str(a) for a in (sys.argv[1:] if args is None else args)]
        ns, rest = super().parse_known_args(args, namespace)
        if not hasattr(ns, "_flags"):
            ns._flags = flag_table(self)
        return ns, rest


#: argparse's refusal of a value that is not one of the choices, which it lists in quotes
_CHOICE = re.compile(r"(argument \S+: invalid choice: .*?) \(choose from (.*)\)")
#: The widest error line that one terminal line holds, as the commands' prose fills them
_WIDTH = 100


def _short_choices(message: str, prog: str) -> str:
    """argparse's ``message`` (after ``budgetlab: error: ``) with the pointer to ``prog``'s
    help, in one line of at most 100 columns where the value allows: an invalid choice lists
    the choices unquoted and without the pointer when they fit, else only the pointer, that of
    ``prog`` when it fits (argparse's list of eleven commands made a line of 186 columns).

    >>> _short_choices("argument --format: invalid choice: 'xyz' (choose from 'csv', 'tsv')",
    ...                "budgetlab replay")
    "argument --format: invalid choice: 'xyz'; choose from csv, tsv"
    >>> print(_short_choices("argument COMMAND: invalid choice: 'nosuch' (choose from "
    ...                      + ", ".join(repr("command%d" % i) for i in range(11)) + ")",
    ...                      "budgetlab"))
    argument COMMAND: invalid choice: 'nosuch' (see 'budgetlab --help')
    """
    see = f"(see '{prog} --help')"
    found = _CHOICE.fullmatch(message)
    if found is None:
        return f"{message} {see}"
    head, listed = found.groups()
    choices = [c.strip().strip("'\"") for c in listed.split(",")]
    for said in (f"{head}; choose from {', '.join(choices)}", f"{head} {see}"):
        if len(f"budgetlab: error: {said}") <= _WIDTH:
            return said
    return f"{head} (see --help)"


def build_parser() -> argparse.ArgumentParser:
    """The ``budgetlab`` argument parser with every subcommand wired in."""
    from .. import __version__

    parser = _Parser(prog="budgetlab", description="Offline analytics for SLO error budgets.")
    parser.add_argument("--version", action="version", version=f"budgetlab {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    commands.add_demo(sub)
    commands.add_replay(sub)
    export_options.add_parser(sub)
    notebooks.add_parser(sub)
    backtest.add_parser(sub)
    commands.add_analyses(sub)
    commands.add_latency(sub)
    return parser


def _show_warning(shown: set[str], message: Warning | str, category: type[Warning],
                  filename: str, lineno: int, file: Any = None, line: str | None = None) -> None:
    """A warning, once a run (``shown``: the texts written), however many of the command's steps
    warn it: filled to 100 columns as the commands' prose (:func:`~budgetlab.cli.prose.wrap`:
    never inside a flag, a figure and its unit or a date), the lines after the first indented.

    >>> import io, contextlib
    >>> with contextlib.redirect_stderr(io.StringIO()) as err:
    ...     _show_warning(set(), UserWarning("--target names HEAD, DELETE, which the log does "
    ...                   "not have (its groups: GET, OPTIONS, POST): not used."), UserWarning,
    ...                   "", 0)
    >>> print(err.getvalue(), end="")
    budgetlab: warning: --target names HEAD, DELETE, which the log does not have (its groups: GET,
      OPTIONS, POST): not used.
    """
    text = wrap(f"budgetlab: warning: {speak(str(message))}", indent="", hang="  ") + "\n"
    if text not in shown:
        shown.add(text)
        sys.stderr.write(text)


#: The exit status a shell reports for a process ended by SIGPIPE (128 + 13), as ``yes | head``
# does.
_SIGPIPE_STATUS = 141


def _silence_stdout() -> None:
    """Point stdout at /dev/null so that the interpreter's final flush does not complain again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no real stdout (a test's capture): nothing to silence
        pass


def _file_name(filename: Any) -> str:
    """The name of the file an OS error is about, as a message may show it (never a folder path,
    nor a name that looks like personal data)."""
    from pathlib import Path

    from ..privacy import shown

    try:
        return shown(Path(os.fsdecode(filename)).name)
    except (TypeError, ValueError):
        return "a file"


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``budgetlab`` command line once (the console script enters through
    :func:`budgetlab.cli.main`, which turns Ctrl-C into exit status 130).

    Each call is one run: the inputs read and outputs planned by an earlier call are forgotten.
    """
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version, or a one-line usage error (exit 2)
        return int(exc.code or 0) if not isinstance(exc.code, str) else 2
    if getattr(args, "func", None) is None:
        parser.print_help()
        return 2
    from .._util.plan import new_run  # not needed for --help or a usage error

    # parsing reads and plans no file: forgetting the previous run's files here is the same
    new_run()
    return _run(args)


def _run(args: argparse.Namespace) -> int:
    """The command's handler under one-line error reporting."""
    from .value_flags import check_value_flags  # pandas: not for --help or a usage error

    flags = vars(args).pop("_flags", {})
    try:
        # messages name the command's flags, not keywords
        with warnings.catch_warnings(), cli_words(flags):
            warnings.simplefilter("default")
            # filled to 100 columns, each once; restored on exit
            warnings.showwarning = functools.partial(_show_warning, set())
            refuse_idle_force(args, flags)  # before the command says anything
            check_value_flags(args)  # durations, shares, table outputs: before the log is read
            code = int(args.func(args) or 0)
            # a closed pipe shows here, inside the handler, not at interpreter exit
            sys.stdout.flush()
            return code
    except BudgetlabError as exc:
        with cli_words(flags):
            sys.stderr.write(f"budgetlab: error: {' '.join(speak(str(exc)).split())}\n")
        return 2
    # the reader of stdout went away (| head): end quietly, as the shell expects
    except BrokenPipeError:
        _silence_stdout()
        return _SIGPIPE_STATUS
    except OSError as exc:  # disk full, permission denied, ...: the environment, not a bug
        where = f" ({_file_name(exc.filename)})" if getattr(exc, "filename", None) else ""
        sys.stderr.write(f"budgetlab: error: {exc.strerror or type(exc).__name__}{where}; no "
                         "output was "
                         "left half-written.\n")
        return 2
    except Exception as exc:  # a bug: still one line, unless debugging
        if os.environ.get("BUDGETLAB_DEBUG"):
            import traceback

            traceback.print_exc()
        sys.stderr.write(f"budgetlab: internal error ({type(exc).__name__}); please report it "
                         "(set BUDGETLAB_DEBUG=1 for details).\n")
        return 1


if __name__ == "__main__":  # pragma: no cover
    from budgetlab.cli import console  # Ctrl-C there too: one line, exit 130

    raise SystemExit(console())
