"""The client-timeout trade-off: what a shorter client timeout would have cost and saved.

For a candidate timeout ``c`` at or below the timeout in force ``T`` (per group:
:func:`~budgetlab.analyses.latency_profile.group_timeouts`), every attempt still running at
``c`` is cut there: a success slower than ``c`` is lost (it becomes a timeout), a solve error
slower than ``c`` becomes a timeout too, and each cut attempt waits ``c`` instead of its duration.
**No retries are assumed**: a cut attempt is not tried again (a client that retries would win
back part of the lost successes and spend part of the saved time). A candidate above a group's
``T`` cannot be judged for that group: the attempts cut at ``T`` have unknown durations beyond
it, so a longer timeout's outcome is not in the data. The group has no row at that candidate and
``attrs["withheld"]`` says so, in words; a candidate above the ``T`` of every group is refused.

**Groups without a timeout.** Without ``client_timeout``, a group whose rows hold no ``timeout``
row has no timeout in force that the log shows (the docs define none log-wide: each group's is
read from its own rows), so its trade-off is withheld: the group has no row, and
``attrs["withheld"]`` names it, in words. A log with no ``timeout`` row at all is refused.

**Candidates from the log** (:func:`candidate_timeouts`, notebook 05's default): a third, a half,
three quarters and all of the longest timeout in force, so that no candidate lies above it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._util.attrs import span_attrs
from .._util.ratios import ratio
from .._util.validation import as_list, to_ns
from .._util.words import counted, given_duration, say
from ..errors import ConfigError
from ..events.schema import check_events
from .latency_profile import NO_TIMEOUT, attempt_durations, parse_thresholds, timeouts_in_force

__all__ = ["timeout_tradeoff", "candidate_timeouts", "CANDIDATE_FRACTIONS"]

#: The fractions of the longest timeout in force :func:`candidate_timeouts` proposes (numerator,
#: denominator): 20, 30, 45 and 60 s under a 60 s timeout.
CANDIDATE_FRACTIONS = ((1, 3), (1, 2), (3, 4), (1, 1))


def timeout_tradeoff(events: pd.DataFrame, *, timeouts: Any, by: str | Sequence[str] | None = None,
                     client_timeout: Any = None, threshold: Any = None) -> pd.DataFrame:
    """One row per group and candidate client timeout (see the module doc).

    Parameters
    ----------
    events : DataFrame
        Canonical events with a ``duration`` column.
    timeouts : list of durations
        Candidate client timeouts, each at or below the timeout in force of a group at least
        (a group whose timeout is shorter is withheld at it).
    by : str or list of str, optional
        Group keys.
    client_timeout : duration, optional
        The timeout in force, for every group (default: each group's own, from its ``timeout``
        rows; a group without one is withheld, see the module doc).
    threshold : duration, optional
        The latency SLO threshold: ``latency_sli`` counts successes within
        ``min(threshold, candidate)``. Default: the SLI equals availability.

    Returns
    -------
    DataFrame
        The group keys, ``client_timeout`` (timedelta64[ns], the candidate), ``current``
        (timedelta64[ns], the timeout in force), ``attempts``, ``timed_out``, ``successes_lost``
        (int64), ``timed_out_share``, ``successes_lost_share`` (float64, of all attempts),
        ``wait_saved`` (timedelta64[ns], the total), ``wait_saved_per_attempt`` (timedelta64[ns]),
        ``availability``, ``latency_sli`` (float64). ``attrs["start"]`` and ``attrs["end"]``:
        the span counted, the first and the last event (both included; ISO-8601 text).
        ``attrs["withheld"]``: one sentence per group withheld (no ``timeout`` row and no
        ``client_timeout``), naming it (``key=value, ...``) and why, then one per group whose
        timeout in force is shorter than a candidate (no row at that candidate); empty when
        none is.

    Examples
    --------
    >>> ev = pd.DataFrame({"ts": pd.to_datetime(["2026-01-01"] * 4, utc=True).as_unit("ns"),
    ...     "ok": [True, True, False, False],
    ...     "bucket": pd.Categorical(["success", "success", "timeout", "solve_error"]),
    ...     "duration": pd.to_timedelta([2, 8, 30, 1], unit="s")})
    >>> t = timeout_tradeoff(ev, timeouts=["5s", "30s"])
    >>> t[["timed_out", "successes_lost", "availability"]].to_numpy().tolist()
    [[2.0, 1.0, 0.25], [1.0, 0.0, 0.5]]
    >>> t["wait_saved"].tolist()
    [Timedelta('0 days 00:00:28'), Timedelta('0 days 00:00:00')]
    """
    keys = check_events(events, as_list(by))
    span = span_attrs(events["ts"])
    cands = parse_thresholds(timeouts, name="timeouts")
    dur = attempt_durations(events)
    setup = timeouts_in_force(events, keys, dur, client_timeout)
    events, dur, (censoring, current, codes, row_current), withheld = _shown(events, dur, setup,
                                                                              keys)
    _check_longer(cands, current)
    withheld += _withheld_longer(censoring, keys, cands, current)
    thr = None if threshold is None else to_ns(threshold, name="threshold")
    n = len(censoring)
    # slower: cut at the timeout in force
    ok = events["ok"].to_numpy(dtype=bool) & (dur <= row_current)
    timed_out_now = (events["bucket"].astype(str) == "timeout").to_numpy() | (dur > row_current)
    dur = np.minimum(dur, row_current)
    attempts = np.bincount(codes, minlength=n).astype(np.int64)
    parts = []
    for c in cands:  # a loop over candidates
        cut = dur > c
        timed_out = np.bincount(codes, weights=(cut | timed_out_now).astype(np.float64),
                                minlength=n)
        lost = np.bincount(codes, weights=(ok & cut).astype(np.float64), minlength=n)
        saved = np.bincount(codes, weights=np.maximum(dur - c, 0).astype(np.float64), minlength=n)
        kept = np.bincount(codes, weights=(ok & ~cut).astype(np.float64), minlength=n)
        within = kept if thr is None else np.bincount(
            codes, weights=(ok & (dur <= min(thr, c))).astype(np.float64), minlength=n)
        part = censoring[list(keys)].copy()
        part["client_timeout"] = pd.Timedelta(c, unit="ns")
        part["current"] = pd.to_timedelta(current, unit="ns").as_unit("ns")
        part["attempts"] = attempts
        part["timed_out"], part["successes_lost"] = (
            timed_out.astype(np.int64),
            lost.astype(np.int64),
        )
        part["timed_out_share"] = ratio(timed_out, attempts, 0.0)
        part["successes_lost_share"] = ratio(lost, attempts, 0.0)
        part["wait_saved"] = pd.to_timedelta(np.round(saved).astype(np.int64),
                                             unit="ns").as_unit("ns")
        per_attempt = np.round(ratio(saved, attempts, 0.0)).astype(np.int64)
        part["wait_saved_per_attempt"] = pd.to_timedelta(per_attempt, unit="ns").as_unit("ns")
        part["availability"] = ratio(kept, attempts, 0.0)
        part["latency_sli"] = ratio(within, attempts, 0.0)
        parts.append(part[c <= current])  # a group whose timeout in force is shorter: withheld
    out = pd.concat(parts, ignore_index=True)
    out = out.sort_values([*keys, "client_timeout"], kind="stable", ignore_index=True)
    # the span counted, as latency_profile's tables: the whole log's, withheld groups too
    out.attrs.update(span, withheld=withheld)
    return out


def candidate_timeouts(events: pd.DataFrame, *, by: str | Sequence[str] | None = None,
                       client_timeout: Any = None) -> list[pd.Timedelta]:
    """Candidate client timeouts for :func:`timeout_tradeoff` when none are given: the
    :data:`CANDIDATE_FRACTIONS` of the longest timeout in force over the groups (``client_timeout``
    when given, else each group's read from its ``timeout`` rows, as :func:`timeout_tradeoff`
    reads it), each floored to whole milliseconds (never above it). A group with a shorter
    timeout is withheld at the longer candidates by :func:`timeout_tradeoff`, which says so.
    Refused when no group shows a timeout in force.

    >>> ev = pd.DataFrame({"ts": pd.to_datetime(["2026-01-01"] * 3, utc=True).as_unit("ns"),
    ...     "ok": [True, False, False], "bucket": pd.Categorical(["success", "timeout",
    ...     "timeout"]), "duration": pd.to_timedelta([2, 10, 12], unit="s")})
    >>> [given_duration(t) for t in candidate_timeouts(ev)]
    ['3.333 s', '5 s', '7.5 s', '10 s']
    >>> [given_duration(t) for t in candidate_timeouts(ev, client_timeout="60s")]
    ['20 s', '30 s', '45 s', '60 s']
    """
    keys = check_events(events, as_list(by))
    current = timeouts_in_force(events, keys, attempt_durations(events), client_timeout)[1]
    known = current[current != NO_TIMEOUT]
    if not len(known):
        raise ConfigError("the log shows no client timeout (no 'timeout' row that no success "
                          "outlasts), so no candidate timeouts can be read from it; "
                          + say("give client_timeout= (the one in force) or timeouts=.",
                                "give --client-timeout (the one in force) or the candidates: "
                                "--timeouts DURATION,..."))
    longest, ms = int(known.max()), 10**6
    return [pd.Timedelta(longest if a == b else longest * a // b // ms * ms, unit="ns")
            for a, b in CANDIDATE_FRACTIONS]


def _check_longer(cands: list[int], current: np.ndarray) -> None:
    """Refuse a candidate longer than every group's timeout in force: no group can judge it."""
    longer = [c for c in cands if c > int(current.max())]
    if longer:
        most = given_duration(int(current.max()))
        raise ConfigError(f"a client timeout of {given_duration(longer[0])} is longer than the "
                          + (f"one in force ({most})" if len(set(current.tolist())) == 1 else
                             f"timeout in force of every group (the longest {most})")
                          + ": the attempts cut there have unknown durations beyond it, so what a "
                          "longer timeout would do is not in the data; give candidates at or "
                          "below it.")


def _withheld_longer(censoring: pd.DataFrame, keys: Sequence[str], cands: list[int],
                     current: np.ndarray) -> list[str]:
    """One sentence per group whose timeout in force is shorter than a candidate: the candidates
    it cannot judge, withheld for it (the attempts cut at its timeout have unknown durations
    beyond it)."""
    out = []
    for (_, row), now in zip(censoring.iterrows(), current, strict=True):
        longer = [given_duration(c) for c in cands if c > now]
        if longer:
            one = len(longer) == 1
            out.append(f"{', '.join(f'{k}={row[k]}' for k in keys) or 'all events'}: "
                       f"{'a client timeout' if one else 'client timeouts'} of "
                       f"{', '.join(longer)} {'is' if one else 'are'} longer than its timeout in "
                       f"force ({given_duration(int(now))}): the attempts cut there have unknown "
                       f"durations beyond it, so its trade-off at {'it' if one else 'them'} is "
                       "withheld")
    return out


def _shown(events: pd.DataFrame, dur: np.ndarray,
           setup: tuple[pd.DataFrame, np.ndarray, np.ndarray, np.ndarray], keys: Sequence[str]
           ) -> tuple[pd.DataFrame, np.ndarray, tuple[pd.DataFrame, np.ndarray, np.ndarray,
                                                      np.ndarray], list[str]]:
    """The events, durations and :func:`timeouts_in_force` setup of the groups that show their
    timeout in force, and the sentences of those withheld; refuses a log that shows none."""
    censoring, current, codes, row_current = setup
    known = current != NO_TIMEOUT
    if not known.any():
        raise ConfigError("the log shows no client timeout (no 'timeout' row that no success "
                          "outlasts); "
                          + say("say the one in force with client_timeout= (e.g. '60s').",
                                "say the one in force with --client-timeout (e.g. 60s)."))
    withheld = _withheld(censoring, keys, np.bincount(codes, minlength=len(censoring)), known)
    if known.all():
        return events, dur, setup, withheld
    rows = known[codes]
    kept = censoring[known].reset_index(drop=True)
    renumbered = (np.cumsum(known) - 1)[codes[rows]]  # among the groups kept
    return (events[rows], dur[rows], (kept, current[known], renumbered, row_current[rows]),
            withheld)


def _withheld(censoring: pd.DataFrame, keys: Sequence[str], attempts: np.ndarray,
              known: np.ndarray) -> list[str]:
    """One sentence per group without a timeout in force: its name, its attempts and why."""
    fix = say("give client_timeout= if you know the one in force",
              "give --client-timeout if you know the one in force")
    return [f"{', '.join(f'{k}={row[k]}' for k in keys) or 'all events'}: no 'timeout' row "
            f"that no success outlasts in its {counted(int(n), 'attempt')}, so the timeout in "
            "force is not in the log; its "
            f"trade-off is withheld ({fix})"
            for (_, row), n, ok in zip(censoring.iterrows(), attempts, known, strict=True)
            if not ok]
