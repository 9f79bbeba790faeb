"""The lines under a command's table that count the groups too thin for its figures, by reason,
and say where every group's reason is: ``buckets`` and ``compare-windows`` (the rows left blank:
:func:`more_rows`), ``recalibrate`` (the groups without a recommendation:
:func:`no_recommendation_lines`) and ``replay`` (statuses read from windows too thin for a
verdict: :func:`thin_windows_line`). The rule is the package's
(:func:`~budgetlab.analyses.recalibration.rules.thin_kind`, :data:`MIN_EXPECTED_FAILURES`
expected failures under the target), never a second one.
"""

from __future__ import annotations

from collections import Counter

import numpy as np
import pandas as pd

from .._util.percent import given_percent
from .._util.thin import MIN_EVALUATED_HOURS
from .._util.units import HOUR_NS
from .._util.words import counted, some_hours_words
from ..analyses.recalibration.candidates import USUAL_TARGETS
from ..analyses.recalibration.rules import (
    MIN_EXPECTED_FAILURES,
    MIN_TRAFFIC_DAYS,
    events_for,
    thin_kind,
)
from ..slo import SLO, PerGroup
from ..slo_groups import split_by_slo
from .prose import wrap
from .shared import group_label

__all__ = ["out_column", "more_rows", "window_needs", "no_recommendation_lines",
           "print_no_recommendation", "min_events_advice", "thin_windows_line",
           "print_thin_windows", "thin_time_line"]

#: The statuses whose time :func:`thin_time_line` weighs, the worst first.
_BAD = ("exhausted", "critical", "warning")


def out_column(column: str) -> str:
    """Where every group's reason is: ``column`` of the ``--out`` table, in words.

    >>> out_column("note")
    'the note column of --out'
    """
    return f"the {column} column of --out"


def more_rows(n: int, noun: str, column: str = "note") -> str:
    """The last line of a list cut short: ``n`` more ``noun`` and where they all are.

    >>> more_rows(1234, "more group")
    '  ... and 1,234 more groups (the note column of --out)'
    """
    return f"  ... and {counted(n, noun)} ({out_column(column)})"


def _no_recommendation_reason(kind: str) -> str:
    """What a :func:`thin_kind` (or ``"no_event"``, or empty: the evidence judged, no target met
    the rule) says of the groups it left without a recommendation."""
    lowest = USUAL_TARGETS[0]
    return {
        "no_event": "0 events in the evaluated span (all of the group's events fell within a "
                    "warm-up, or before the span)",
        "too_few_events": f"fewer than {events_for(lowest):,} events in the evaluated span "
                          f"(at {given_percent(lowest)}, the lowest usual target, under "
                          f"{MIN_EXPECTED_FAILURES} expected failures)",
        "too_little_time": f"under {MIN_EVALUATED_HOURS:g} h of evaluated time",
        "too_few_days": f"fewer than {MIN_TRAFFIC_DAYS} days with traffic (the day-block "
                        "bootstrap)",
        # the evidence judged: no target met the rule, or the window holds too few events for
        # one failure to stay within a target at the group's level (window_events.py)
        "": "no target meets the rule, or too few events in a window for a recommendation (the "
            "recommendation_note column says why)",
    }[kind]


def no_recommendation_lines(summary: pd.DataFrame, *, bootstrap: bool) -> list[str]:
    """Below ``recalibrate``'s groups: how many of the ``summary``'s groups got no recommendation
    (``recommended_target`` NaN), the reasons with their counts (the most first; the rule's kind
    from each row's figures, never its words parsed back) and where each group's reason is; no
    line when every group got one.

    >>> t = pd.DataFrame({"events": [0, 3, 7, 900], "hours": [0.0, 40.0, 60.0, 300.0],
    ...                   "traffic_days": [0, 2, 3, 13],
    ...                   "recommended_target": [np.nan, np.nan, np.nan, 0.99]})
    >>> print("\\n".join(no_recommendation_lines(t, bootstrap=True)))  # doctest: -ELLIPSIS
    no recommendation for 3 of 4 groups:
      2 groups: fewer than 20 events in the evaluated span (at 50 %, the lowest usual target,
    under 10 expected failures)
      1 group: 0 events in the evaluated span (all of the group's events fell within a warm-up, or
    before the span)
      each group's reason: the verdict_reason column of --out
    """
    none = summary["recommended_target"].isna().to_numpy()
    if not none.any():
        return []
    rows = summary[none]
    kinds = Counter(
        "no_event" if n == 0 else thin_kind(int(n), USUAL_TARGETS[0], int(d), h > 0,
                                            hours=h, bootstrap=bootstrap)
        for n, d, h in zip(rows["events"].tolist(), rows["traffic_days"].tolist(),
                           rows["hours"].astype(float).tolist(), strict=True))
    lines = [f"no recommendation for {int(none.sum()):,} of {counted(len(summary), 'group')}:"]
    for kind, n in sorted(kinds.items(), key=lambda kv: -kv[1]):
        lines.append(f"  {counted(n, 'group')}: {_no_recommendation_reason(kind)}")
    return [*lines, f"  each group's reason: {out_column('verdict_reason')}"]


def print_no_recommendation(summary: pd.DataFrame, *, bootstrap: bool) -> None:
    """:func:`no_recommendation_lines`, printed: the count, then each reason indented."""
    for i, line in enumerate(no_recommendation_lines(summary, bootstrap=bootstrap)):
        print(wrap(line.strip(), indent="  " if i else "", hang="  "))


def window_needs(frame: pd.DataFrame, slo: SLO | PerGroup, by: list[str]
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Per row of ``frame``: the events its group's target needs for a verdict
    (:func:`events_for`) and its group's ``min_events``."""
    if isinstance(slo, SLO):
        return (np.full(len(frame), events_for(slo.target)),
                np.full(len(frame), slo.min_events))
    need, held = np.zeros(len(frame), dtype=np.int64), np.zeros(len(frame), dtype=np.int64)
    for s, pos in split_by_slo(frame, slo, by):
        need[pos], held[pos] = events_for(s.target), s.min_events
    return need, held


def min_events_advice(slo: SLO | PerGroup) -> tuple[str, str]:
    """The flag that holds a thin window's status, as it can be pasted (no thousands separator),
    and how many events it asks for: one count under one SLO, each group's count under
    per-group targets (``--min-events`` applies to every group, whether the targets came from
    ``--target GROUP=T,...`` or an ``--slo`` file).

    >>> min_events_advice(SLO(target=0.999))
    ('--min-events 10000', 'that many')
    >>> min_events_advice(PerGroup({"a": 0.93, "b": 0.97}, base=SLO()))
    ('--min-events N', 'N events (the counts each target needs: a 143, b 334)')
    """
    if isinstance(slo, SLO):
        return f"--min-events {events_for(slo.target)}", "that many"
    needs = ", ".join(f"{'/'.join(k)} {events_for(s.target)}" for k, s in slo.table.items())
    return "--min-events N", f"N events (the counts each target needs: {needs})"


def thin_windows_line(states: pd.DataFrame, tr: pd.DataFrame, slo: SLO | PerGroup,
                      by: list[str]) -> str:
    """Below ``replay``'s transitions: how many groups end on a status read from a window of
    fewer events than hold :data:`MIN_EXPECTED_FAILURES` expected failures under their target
    (:func:`events_for`; a window under the group's ``min_events`` holds its status, it is not
    read), how many of those end EXHAUSTED and on one event, and how many of the transitions
    ``tr`` came from such windows; pointing at ``--min-events``. ``states``: the replay's rows
    (``total``, ``status``, the ``by`` keys), in time order. Empty when no status rests on a
    thin window. The statuses are the seed tracker's: said, never changed."""
    if states.empty:
        return ""
    need, held = window_needs(states, slo, by)
    total = states["total"].to_numpy(dtype=np.int64)
    codes = (states.groupby(by, observed=True, sort=False, dropna=False).ngroup().to_numpy()
             if by else np.zeros(len(states), dtype=np.int64))
    last = pd.Series(np.arange(len(states))).groupby(codes).max().to_numpy()  # final rows
    ends = ((total < need) & (total >= held))[last]
    n_tr = (int((tr["total_events"].to_numpy() < window_needs(tr, slo, by)[0]).sum())
            if len(tr) else 0)
    if not ends.any() and not n_tr:
        return ""
    ex = states["status"].to_numpy()[last][ends].astype(str) == "exhausted"
    one = int((total[last][ends] == 1).sum())  # every thin end on one event, of any status
    at = (f"fewer than {events_for(slo.target):,} events (under {given_percent(slo.target)} "
          if isinstance(slo, SLO) else "fewer events than its group's target needs (")
    flag, n = min_events_advice(slo)
    return (f"thin windows: {int(ends.sum()):,} of {counted(len(last), 'group')} end on a status "
            f"read from a window of {at}it holds fewer than {MIN_EXPECTED_FAILURES} expected "
            f"failures: too few for a verdict), {int(ex.sum()):,} of them EXHAUSTED, {one:,} on "
            f"a single event; {_transitions_from_thin(n_tr, len(tr))}. The statuses are the "
            f"seed tracker's, unchanged; {flag} holds a group's status until its window holds "
            f"{n}.")


def _transitions_from_thin(n_thin: int, n: int) -> str:
    """How many of a replay's ``n`` transitions (all of them, not only those its table lists)
    came from thin windows.

    >>> _transitions_from_thin(24, 87)
    '24 of the 87 transitions came from such windows'
    >>> _transitions_from_thin(1, 1)
    'the one transition came from such a window'
    >>> _transitions_from_thin(0, 0)
    'no status changed'
    """
    if n == 0:
        return "no status changed"
    if n == 1:
        return ("the one transition came from such a window" if n_thin else
                "the one transition did not come from such a window")
    return f"{n_thin:,} of the {n:,} transitions came from such windows"


def print_thin_windows(states: pd.DataFrame, tr: pd.DataFrame, slo: SLO | PerGroup,
                       by: list[str], *, events: pd.DataFrame | None = None,
                       steps: pd.DataFrame | None = None) -> None:
    """:func:`thin_windows_line`, then (given the replayed ``events``, or their window's
    ``steps`` when the caller has them) :func:`thin_time_line` of their window's steps, printed
    (nothing for an empty line)."""
    from ..budget.spans import status_spans

    lines = [thin_windows_line(states, tr, slo, by)]
    if steps is None and events is not None and len(events):
        steps = status_spans(events, slo, by=by or None, steps=True)
    if steps is not None:
        lines.append(thin_time_line(steps, slo, by))
    for line in lines:
        if line:
            print(wrap(line, indent=""))


def thin_time_line(steps: pd.DataFrame, slo: SLO | PerGroup, by: list[str], most: int = 10
                   ) -> str:
    """Per group, of its time at WARNING or worse on the window's clock (``steps``: the window's
    steps of :func:`budgetlab.status_spans` with ``steps=True``, their ``total`` the window's
    events), how much was read on windows of fewer events than hold
    :data:`MIN_EXPECTED_FAILURES` expected failures under the target (:func:`events_for`, the
    rule of :func:`thin_windows_line`; a window under ``min_events`` holds its status, it is not
    read): the most EXHAUSTED such time first, ``most`` groups named. Empty when there is none.

    >>> t = pd.to_datetime(["2026-01-01 00:00", "2026-01-01 03:00", "2026-01-01 05:00"], utc=True)
    >>> steps = pd.DataFrame({"g": ["a"] * 2 + ["b"], "start": t, "end": t + pd.Timedelta("1h"),
    ...                       "status": ["exhausted", "exhausted", "warning"],
    ...                       "total": [12, 400, 150]})
    >>> print(thin_time_line(steps, SLO(target=0.95, window="24h"), ["g"]))
    ... # doctest: +NORMALIZE_WHITESPACE
    thin windows, in time: of the time at WARNING or worse, read on windows of fewer than 200
    events (under 95 % they hold fewer than 10 expected failures: too few for a verdict): g=a 1
    h of its 2 h EXHAUSTED; g=b 1 h of its 1 h WARNING.
    """
    if steps.empty:
        return ""
    need, held = window_needs(steps, slo, by)
    total = steps["total"].to_numpy(dtype=np.int64)
    ns = (steps["end"] - steps["start"]).to_numpy("timedelta64[ns]").astype(np.float64)
    status = steps["status"].astype(str).to_numpy()
    thin = (total < need) & (total >= held)
    codes = (steps.groupby(by, observed=True, sort=False, dropna=False).ngroup().to_numpy()
             if by else np.zeros(len(steps), dtype=np.int64))
    n = int(codes.max()) + 1
    first = pd.Series(np.arange(len(steps))).groupby(codes).min().to_numpy()
    of = {st: (np.bincount(codes, weights=np.where(status == st, ns, 0.0), minlength=n),
               np.bincount(codes, weights=np.where((status == st) & thin, ns, 0.0), minlength=n))
          for st in _BAD}
    some = np.sum([of[st][1] for st in _BAD], axis=0)
    order = sorted(np.flatnonzero(some > 0).tolist(), key=lambda g: (-of["exhausted"][1][g],
                                                                     -some[g]))
    if not order:
        return ""
    said = []
    for g in order[:most]:
        parts = [f"{some_hours_words(of[st][1][g] / HOUR_NS)} of its "
                 f"{some_hours_words(of[st][0][g] / HOUR_NS)} {st.upper()}"
                 for st in _BAD if of[st][1][g] > 0]
        said.append(f"{group_label(steps.iloc[first[g]], by)} {', '.join(parts)}")
    more = f"; and {counted(len(order) - most, 'more group')}" if len(order) > most else ""
    at = (f"fewer than {events_for(slo.target):,} events (under {given_percent(slo.target)} they "
          if isinstance(slo, SLO) else "fewer events than their group's target needs (they ")
    return (f"thin windows, in time: of the time at WARNING or worse, read on windows of {at}hold "
            f"fewer than {MIN_EXPECTED_FAILURES} expected failures: too few for a verdict): "
            f"{'; '.join(said)}{more}.")
