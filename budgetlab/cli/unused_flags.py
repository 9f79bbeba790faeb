"""A flag that the run would not use is refused, not ignored (docs/cli.md): every analysis
takes the SLO flags of ``replay`` (:func:`~budgetlab.cli.options.add_slo_options`) and some
options that matter only with another one (``--show-groups`` with ``--plot``, ``--force`` with
an output: :func:`refuse_idle_force`); a command whose run would drop such a flag refuses it
here, before the read, in one line that names the flags given and why the run does not use them.

Light at import (``argparse`` and the errors only), as the parsers are.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence

from ..errors import ConfigError

__all__ = ["given_flags", "refuse_unused", "refuse_idle_force", "output_flags",
           "TRACKER_FLAGS"]

#: The SLO flags that shape the seed tracker only (its window, status thresholds and minimum
#: events): a run that replays no tracker does not use them.
TRACKER_FLAGS = ("--window", "--warning", "--critical", "--min-events")


def given_flags(args: argparse.Namespace, flags: Sequence[str]) -> list[str]:
    """The ``flags`` (``--min-events``) that the command line gives: their value is not ``None``
    (the parsers' default for a flag not typed).

    >>> given_flags(argparse.Namespace(window="5min", min_events=None), ["--window",
    ...                                                                  "--min-events"])
    ['--window']
    """
    return [f for f in flags
            if getattr(args, f.lstrip("-").replace("-", "_"), None) is not None]


def refuse_unused(args: argparse.Namespace, flags: Sequence[str], why: str) -> None:
    """Refuse the ``flags`` that ``args`` gives, ``why`` saying what the run reads instead.

    >>> refuse_unused(argparse.Namespace(window=None), ["--window"], "no tracker")
    >>> refuse_unused(argparse.Namespace(window="1h", warning=0.9), ["--window", "--warning"],
    ...               "alerts replays no tracker")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: --window and --warning would do nothing: alerts replays no \
tracker; leave them out.
    """
    given = given_flags(args, flags)
    if not given:
        return
    named = given[0] if len(given) == 1 else ", ".join(given[:-1]) + " and " + given[-1]
    raise ConfigError(f"{named} would do nothing: {why}; leave "
                      f"{'it' if len(given) == 1 else 'them'} out.")



def output_flags(flags: Mapping[str, str]) -> list[str]:
    """The optional outputs among a command's flags (``flags``: its destinations and flags, as
    :func:`~budgetlab.cli.options.flag_table` gives them): ``--out``, ``--plot`` and every
    ``--...-out`` (``--summary-out``, ``--tiers-out``); not ``--plot-groups`` nor ``--timeout``,
    nor an output the command always writes (``export``'s ``OUT.yaml``, ``notebooks --html``).

    >>> output_flags({"out": "--out", "plot": "--plot", "plot_groups": "--plot-groups",
    ...               "summary_out": "--summary-out", "timeout": "--timeout", "force": "--force"})
    ['--out', '--plot', '--summary-out']
    """
    return list(dict.fromkeys(f for f in flags.values()
                              if f in ("--out", "--plot") or f.endswith("-out")))


def refuse_idle_force(args: argparse.Namespace, flags: Mapping[str, str]) -> None:
    """Refuse ``--force`` when the command has outputs (:func:`output_flags`) and none is given:
    it lets an output replace an existing file, and the run writes none. Run before the command
    (nothing is printed first, not even a note on the ``--slo`` file).

    >>> flags = {"out": "--out", "plot": "--plot", "force": "--force"}
    >>> refuse_idle_force(argparse.Namespace(force=True, out=None, plot="t.png"), flags)
    >>> refuse_idle_force(argparse.Namespace(force=False, out=None, plot=None), flags)
    >>> refuse_idle_force(argparse.Namespace(force=True, out=None, plot=None), flags)
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: --force would do nothing: it lets --out or --plot replace an \
existing file, and this run writes no file; leave it out.
    """
    outputs = output_flags(flags)
    if not getattr(args, "force", False) or not outputs or given_flags(args, outputs):
        return
    named = ", ".join(outputs[:-1]) + " or " + outputs[-1] if len(outputs) > 1 else outputs[0]
    raise ConfigError(f"--force would do nothing: it lets {named} replace an existing file, and "
                      "this run writes no file; leave it out.")
