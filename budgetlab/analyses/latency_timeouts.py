"""The timeout in force per group, the censoring point of every latency analysis: the given
``client_timeout`` (refused when a success of the log is longer), else read from the log's
``timeout`` rows (:func:`group_timeouts`; the rule is in
:mod:`budgetlab.analyses.latency_profile`'s module doc).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from .._util.validation import to_ns
from .._util.words import counted, given_duration
from ..errors import ConfigError
from ..windows.groups import group_key_codes
from .latency_durations import data_duration

__all__ = ["group_timeouts", "timeouts_in_force", "NO_TIMEOUT"]

_TIMEOUT = "timeout"
#: A group's timeout in int64 ns when it has none (no timeout in the log, none given): NaT.
NO_TIMEOUT = np.iinfo(np.int64).min


def group_timeouts(events: pd.DataFrame, keys: Sequence[str], durations: np.ndarray,
                   client_timeout: Any = None) -> pd.DataFrame:
    """Per group: ``timeout`` (the censoring point, NaT when none) and ``timeout_source`` (words).

    >>> ev = pd.DataFrame({"ok": [True, False, False], "bucket": ["success", "timeout", "timeout"]})
    >>> group_timeouts(ev, [], np.array([5, 30, 31]) * 10**9)["timeout"].tolist()
    [Timedelta('0 days 00:00:30')]
    """
    is_to = (events["bucket"].astype(str) == _TIMEOUT).to_numpy()
    codes, table = group_key_codes(events, keys)
    n = len(table)
    if client_timeout is not None:
        given = to_ns(client_timeout, name="client_timeout")
        _refuse_successes_beyond(events, durations, given, client_timeout)
        ns = np.full(n, given, dtype=np.int64)
        source = np.full(n, "client_timeout", dtype=object)
    else:
        ns, source = _log_timeouts(events["ok"].to_numpy(dtype=bool), is_to, codes, n, durations)
    table = table.copy()
    table["timeout"] = pd.to_timedelta(np.where(ns == np.iinfo(np.int64).max,
                                                np.iinfo(np.int64).min, ns), unit="ns")
    table["timeout_source"] = source
    return table


def _log_timeouts(ok: np.ndarray, is_to: np.ndarray, codes: np.ndarray, n: int,
                  durations: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each group's timeout read from its rows (int64 ns, int64 max when none) and its source in
    words: the smallest duration of its timeouts that no success of the group outlasts. A
    timeout row shorter than a success of its group ended before the timeout in force (the
    client cannot have cut every attempt there): read at its own duration, like a solve error,
    and said; with no timeout row left, the group has no censoring point."""
    big = np.iinfo(np.int64).max
    longest = np.full(n, -1, dtype=np.int64)
    np.maximum.at(longest, codes[ok], durations[ok])
    early = is_to & (durations < longest[codes])
    ns = np.full(n, big, dtype=np.int64)
    np.minimum.at(ns, codes[is_to & ~early], durations[is_to & ~early])
    n_early = np.bincount(codes[early], minlength=n)
    shortest = np.full(n, big, dtype=np.int64)
    np.minimum.at(shortest, codes[early], durations[early])
    where = "in this group's rows" if is_to.any() else "in the log"
    source = []
    for g in range(n):
        cut = "" if not n_early[g] else (
            f"{counted(int(n_early[g]), 'timeout')} of the group, from "
            f"{given_duration(int(shortest[g]))}, shorter than its longest success, "
            f"{given_duration(int(longest[g]))}: ended before the timeout in force, read at "
            f"{'its' if n_early[g] == 1 else 'their'} own duration")
        if ns[g] != big:
            source.append("the smallest duration of the group's timeouts"
                          + (f" that no success outlasts; {cut}" if cut else ""))
        else:
            source.append(f"none: {cut}; durations read as uncensored" if cut else
                          f"none: no timeout {where}, durations read as uncensored")
    return ns, np.array(source, dtype=object)


def timeouts_in_force(events: pd.DataFrame, keys: Sequence[str], durations: np.ndarray,
                      client_timeout: Any = None
                      ) -> tuple[pd.DataFrame, np.ndarray, np.ndarray, np.ndarray]:
    """:func:`group_timeouts`' table, each group's timeout in int64 ns (:data:`NO_TIMEOUT` when
    none), each row's group code and each row's timeout: the setup of every latency analysis."""
    censoring = group_timeouts(events, keys, durations, client_timeout)
    per_group = censoring["timeout"].to_numpy(dtype="timedelta64[ns]").view(np.int64)
    codes = group_key_codes(events, keys)[0]
    return censoring, per_group, codes, per_group[codes]


def _refuse_successes_beyond(events: pd.DataFrame, durations: np.ndarray, timeout_ns: int,
                             given: Any) -> None:
    """Refuses a ``client_timeout`` shorter than a success of the log: a timeout in force cuts
    every attempt at it, so the log contradicts it, and reading such a success as cut (censored)
    counted it as no success within a threshold it met (a wrong share). The longest success is
    said to four significant digits, the bound to give rounded up (:func:`data_duration`)."""
    ok = events["ok"].to_numpy(dtype=bool)
    longest = int(durations[ok].max()) if ok.any() else 0
    if longest > timeout_ns:
        slower = int(np.count_nonzero(durations[ok] > timeout_ns))
        as_given = given if isinstance(given, str) else given_duration(timeout_ns, grouped=False)
        raise ConfigError(
            f"client_timeout='{as_given}' is shorter than "
            f"{counted(slower, 'success', 'successes')} of the log (the longest "
            f"{data_duration(longest)}): a client timeout in force cuts every attempt at it, so "
            f"the log shows a longer one; give client_timeout= of at least "
            f"{data_duration(longest, up=True)}, or leave it out to read the timeout from the "
            "log's timeout rows (what a shorter timeout would do: timeouts=, the trade-off).")
