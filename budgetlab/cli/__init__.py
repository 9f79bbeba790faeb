"""The ``budgetlab`` command line: one module per group of subcommands, wired explicitly in
:mod:`budgetlab.cli.main`.

:func:`main` is the console script's entry point (``budgetlab``, ``python -m budgetlab``,
``python -m budgetlab.cli``). It is kept tiny and imports the command line only when called, so
that Ctrl-C during start-up ends with one line and exit status 130, like Ctrl-C during the work,
instead of a traceback. The parsers import no pandas, numpy, numba or matplotlib
(:mod:`budgetlab.cli.commands`): ``--help`` and argument errors answer at once, and the module
that does a command's work is imported when the command runs.
"""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Sequence
from typing import Any

__all__ = ["build_parser", "main"]

#: The exit status of a run ended by Ctrl-C (128 + SIGINT), as shells report it.
INTERRUPTED = 130


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``budgetlab`` command line (see :func:`budgetlab.cli.main.main`); Ctrl-C at any
    point after this function is entered gives one line on stderr and exit status 130."""
    try:
        cli = importlib.import_module(f"{__name__}.main")
        return int(cli.main(argv))
    except KeyboardInterrupt:
        try:
            sys.stderr.write("budgetlab: interrupted; no output was left half-written.\n")
            sys.stderr.flush()
        except (OSError, ValueError, KeyboardInterrupt):  # stderr closed, or a second Ctrl-C
            pass
        return INTERRUPTED


class _Package(types.ModuleType):
    """This package, whose attribute ``main`` stays the entry function: importing the submodule
    :mod:`budgetlab.cli.main` (reachable as ``sys.modules["budgetlab.cli.main"]``) would rebind it."""

    def __setattr__(self, name: str, value: Any) -> None:
        if name == "main" and isinstance(value, types.ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package


def __getattr__(name: str) -> Any:
    if name == "build_parser":
        return importlib.import_module(f"{__name__}.main").build_parser
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
