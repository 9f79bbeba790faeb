"""The ``budgetlab`` command line: one module per group of subcommands, wired explicitly in
:mod:`budgetlab.cli.app` (the parser and the run).

:func:`main` is the console script's entry point (``budgetlab``, ``python -m budgetlab``,
``python -m budgetlab.cli``). It is kept tiny and imports the command line only when called, so
that Ctrl-C during start-up ends with one line and exit status 130, like Ctrl-C during the work,
instead of a traceback. The parsers import no pandas, numpy, numba or matplotlib
(:mod:`budgetlab.cli.commands`): ``--help`` and argument errors answer at once, and the module
that does a command's work is imported when the command runs.
"""

from __future__ import annotations

import contextlib
import importlib
import signal
import sys
from collections.abc import Sequence

__all__ = ["main", "console"]

#: The exit status of a run ended by Ctrl-C (128 + SIGINT), as shells report it.
INTERRUPTED = 130


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``budgetlab`` command line (see :func:`budgetlab.cli.app.main`); Ctrl-C at any
    point after this function is entered gives one line on stderr, naming the outputs written
    before it and those not written (:class:`~budgetlab._util.run_outputs.RunOutputs`), and exit
    status 130."""
    from .._util.run_outputs import RunOutputs, recording  # the standard library only

    run = RunOutputs()
    try:
        with recording() as run:
            app = importlib.import_module(f"{__name__}.app")
            return int(app.main(argv))
    except KeyboardInterrupt:
        try:
            sys.stderr.write(run.interrupted_line() + "\n")
            sys.stderr.flush()
        except (OSError, ValueError, KeyboardInterrupt):  # stderr closed, or a second Ctrl-C
            pass
        return INTERRUPTED


def console() -> int:
    """The console script (``budgetlab``, ``python -m budgetlab``): :func:`main`, then Ctrl-C
    ignored while the interpreter exits. The run has ended and said its last line; at exit the
    interpreter gives SIGINT back its default action, and a Ctrl-C then would kill the process
    without a word (status -2) instead of letting it end with the status :func:`main` gave."""
    code = main()
    with contextlib.suppress(ValueError, OSError):  # not the main thread: nothing to do
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    return code
