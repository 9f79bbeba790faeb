"""The client-timeout trade-off block of ``budgetlab latency --timeouts``: the candidates (a list
of durations, or ``auto``: read from the log by the rule of notebook 05's ``timeouts = "auto"``,
:func:`~budgetlab.analyses.timeout_tradeoff.candidate_timeouts`, with the reading stated) and the
lines that say the trade-off at each. The work is
:func:`~budgetlab.analyses.timeout_tradeoff.timeout_tradeoff`, never recomputed here.
"""

from __future__ import annotations

import argparse
from typing import Any

import pandas as pd

from .._util.durations import measured_duration
from .._util.percent import measured_percent
from .._util.validation import to_timedelta
from .._util.words import given_duration, some_named
from ..errors import ConfigError
from .latency_shown import Chosen
from .prose import fill_line
from .shared import group_label

__all__ = ["AUTO", "check_timeouts", "tradeoff_candidates", "auto_reading", "tradeoff_lines"]

#: ``--timeouts auto``: the candidates read from the log.
AUTO = "auto"
#: The rule of ``auto`` in words (:data:`~budgetlab.analyses.timeout_tradeoff.CANDIDATE_FRACTIONS`)
_RULE = "a third, a half, three quarters and all of the longest timeout in force"


def _items(text: str) -> list[str]:
    return [x.strip() for x in text.split(",") if x.strip()]


def check_timeouts(text: str | None) -> None:
    """``--timeouts`` checked before the log is read: ``auto`` alone, or durations with a unit."""
    items = _items(text or "")
    if AUTO in (x.lower() for x in items):
        if len(items) > 1:
            raise ConfigError(f"--timeouts {text}: auto reads the candidates from the log ({_RULE})"
                              "; give auto alone, or the durations alone (e.g. --timeouts "
                              "20s,30s,60s).")
        return
    for item in items:
        to_timedelta(item, name="timeouts")


def tradeoff_candidates(events: pd.DataFrame, args: argparse.Namespace, by: list[str],
                        censoring: pd.DataFrame) -> tuple[list[Any], str | None]:
    """The candidate client timeouts of ``--timeouts`` (none without it) and the line that
    states what ``auto`` read (``None`` otherwise): the durations listed, as given, or with
    ``auto`` the :func:`~budgetlab.analyses.timeout_tradeoff.candidate_timeouts` of the log
    (refused, naming --client-timeout and --timeouts, when it shows no timeout in force), the
    rule of notebook 05's ``timeouts = "auto"``. ``censoring``: the profile's timeout in force
    per group, whose groups the reading names."""
    from ..analyses.timeout_tradeoff import candidate_timeouts

    items = _items(args.timeouts or "")
    if not items or items[0].lower() != AUTO:
        return items, None
    candidates = candidate_timeouts(events, by=by or None, client_timeout=args.client_timeout)
    return candidates, auto_reading(candidates, censoring, by, args.client_timeout)


def auto_reading(candidates: list[Any], censoring: pd.DataFrame, by: list[str],
                 client_timeout: str | None) -> str:
    """The line that states what ``--timeouts auto`` read: the candidates, the rule, the longest
    timeout in force and where it comes from (``--client-timeout``, or the timeout rows of the
    groups whose timeout it is, some named).

    >>> cens = pd.DataFrame({"g": ["a", "b"], "timeout": pd.to_timedelta(["10s", "6s"])})
    >>> print(auto_reading(pd.to_timedelta(["3.333s", "5s", "7.5s", "10s"]).tolist(), cens,
    ...                    ["g"], None))  # doctest: +NORMALIZE_WHITESPACE
    --timeouts auto: 3.333 s, 5 s, 7.5 s, 10 s (a third, a half, three quarters and all of the
    longest timeout in force, 10 s, read from the log: the smallest duration of the timeouts that
    no success outlasts, in g=a)
    """
    longest = candidates[-1]
    if client_timeout is not None:
        source = f"{given_duration(longest)}, given by --client-timeout"
    else:
        rows = censoring[censoring["timeout"] == longest]
        where = some_named([group_label(r, by) for _, r in rows.iterrows()], 3)
        source = (f"{given_duration(longest)}, read from the log: the smallest duration of the "
                  "timeouts that no success outlasts" + (f", in {where}" if by else ""))
    return (f"--timeouts auto: {', '.join(given_duration(c) for c in candidates)} ({_RULE}, "
            f"{source})")


def tradeoff_lines(tradeoff: pd.DataFrame, by: list[str], chosen: Chosen,
                   censoring: pd.DataFrame, reading: str | None) -> list[str]:
    """The trade-off in words: the header, ``reading`` (what ``auto`` read) when given, one line
    per group printed and candidate, then the groups withheld, those printed."""
    lines = [f"\nclient timeout trade-off (no retries assumed{chosen.also}):"]
    if reading:
        lines.append(fill_line(f"  {reading}"))
    # one unit for the waiting saved, the largest's, as the figure's right axis says it
    most = tradeoff["wait_saved_per_attempt"].max()
    for _, t in chosen.rows(tradeoff).iterrows():
        lines.append(fill_line(
            f"  {group_label(t, by)}: at {given_duration(t['client_timeout'])}: timed out "
            f"{measured_percent(t['timed_out_share'])}, successes lost "
            f"{measured_percent(t['successes_lost_share'])} of attempts "
            f"({int(t['successes_lost']):,}), waiting saved "
            f"{measured_duration(t['wait_saved_per_attempt'], like=most)} per attempt, "
            f"availability {measured_percent(t['availability'])}"))
    # the groups without a timeout in force, those printed
    lines += [fill_line(f"  {s}") for s in chosen.sentences(tradeoff.attrs["withheld"], censoring)]
    return lines
