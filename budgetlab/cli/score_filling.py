"""The sentences under the alert score table on what was scored apart while a tier's long
window filled (``alerts``, ``backtest``, ``incident``): episodes over, and incidents begun, in its
first long window."""

from __future__ import annotations

import pandas as pd

__all__ = ["filling_notes"]


def filling_notes(rows: pd.DataFrame, episodes: pd.DataFrame, *, what: str = "log",
                  span: pd.Timedelta | None = None) -> list[str]:
    """One sentence per tier with episodes over (begun and ended) or incidents begun while its
    long window filled (an episode then that met an incident is said not to count as its
    detection: scored apart, it detects nothing; episodes: in the first long window of their
    group's traffic or of its return after a silence that long, :mod:`budgetlab.alerts.filling`;
    incidents: in the first long window of the ``what`` read, the grid's start in
    ``episodes.attrs``; an episode still firing when it filled is scored), and one for the merged
    rows (``tier`` ``*``); ``rows`` are the all-groups rows of a score table.
    A window that never filled says the length of the ``what`` to the second, truncated
    (:func:`~budgetlab._util.words.length_words`): ``span`` (``alerts``: the log's first to last
    event), else the grid's.
    ``what`` names what was read, as a noun the sentences take (``log`` for ``alerts``, ``span``
    for ``backtest``): "the log's first 3 d", "the span is 2 d long".

    >>> from budgetlab.cli.shared import wrap
    >>> ep = pd.DataFrame(columns=["tier"])
    >>> ep.attrs.update(grid_start=pd.Timestamp("2026-01-01", tz="UTC"),
    ...                 grid_end=pd.Timestamp("2026-01-05", tz="UTC"),
    ...                 tier_windows={"ticket_3d": 3 * 86_400 * 10**9})
    >>> rows = pd.DataFrame({"tier": ["ticket_3d"], "severity": ["ticket"],
    ...     "episodes_filling": [3], "true_episodes_filling": [1], "incidents_filling": [1]})
    >>> print(wrap(filling_notes(rows, ep)[0], indent=""))
    3 episodes of ticket_3d began and ended in the first 3 d of a group's traffic (or of its return
    after a silence that long), while its long window filled; scored apart: 2 met no incident, 1
    met one and did not count as its detection; 1 incident began then: not scored for this tier.
    >>> ep.attrs["grid_end"] = pd.Timestamp("2026-01-03", tz="UTC")  # 2 d: filling throughout
    >>> print(wrap(filling_notes(rows, ep, what="span")[0], indent=""))
    ticket_3d's long window (3 d) never filled: the span is 2 d long; its 3 episodes are scored
    apart, 2 met no incident, 1 met one and did not count as its detection; 1 incident began then:
    not scored for this tier.

    A log of 2 d 23 h 59 min (one event a minute) is binned into 3 d: said as the log's length,
    never as "3 d" beside a 3 d window:

    >>> ep.attrs["grid_end"] = pd.Timestamp("2026-01-04", tz="UTC")
    >>> print(wrap(filling_notes(rows, ep, span=pd.Timedelta("2D23h59min"))[0], indent=""))
    ticket_3d's long window (3 d) never filled: the log is 2 d 23 h 59 min long; its 3 episodes
    are scored apart, 2 met no incident, 1 met one and did not count as its detection; 1 incident
    began then: not scored for this tier.
    >>> ep.attrs["grid_end"] = pd.Timestamp("2026-01-03", tz="UTC")

    Incidents alone (no episode began then) are said without a count of episodes:

    >>> ep.attrs["grid_end"] = pd.Timestamp("2026-01-05", tz="UTC")
    >>> rows.loc[0, ["episodes_filling", "true_episodes_filling"]] = 0
    >>> print(wrap(filling_notes(rows, ep)[0], indent=""))
    1 incident began in the log's first 3 d, while ticket_3d's long window filled: not scored for
    this tier.
    >>> ep.attrs["grid_end"] = pd.Timestamp("2026-01-03", tz="UTC")
    >>> print(wrap(filling_notes(rows, ep)[0], indent=""))
    ticket_3d's long window (3 d) never filled: the log is 2 d long; 1 incident began then: not
    scored for this tier.
    """
    from .._util.words import counted, length_words, prose_duration
    from ..alerts.filling import filling_words

    if "episodes_filling" not in rows.columns:
        return []
    windows = {k: pd.Timedelta(int(v), unit="ns")
               for k, v in episodes.attrs.get("tier_windows", {}).items()}
    grid = pd.Timestamp(episodes.attrs["grid_end"]) - pd.Timestamp(episodes.attrs["grid_start"])
    length = grid if span is None else span
    notes, merged = [], []
    for r in rows.to_dict("records"):
        n_ep, n_inc, tier = int(r["episodes_filling"]), int(r["incidents_filling"]), str(r["tier"])
        if not (n_ep or n_inc):
            continue
        if tier == "*":
            merged.append(str(r["severity"]))
            continue
        window, met = windows[tier], int(r["true_episodes_filling"])
        false = f"{n_ep - met:,} met no incident" + (
            f", {met:,} met one and did not count as its detection" if met else "")
        first = f"the {what}'s first {prose_duration(window)}"
        episodes_, incidents_ = counted(n_ep, "episode"), counted(n_inc, "incident")
        if window >= grid:
            text = (f"{tier}'s long window ({prose_duration(window)}) never filled: the {what} "
                    f"is {length_words(length)} long")
            if n_ep:
                text += (f"; its {episodes_} {'is' if n_ep == 1 else 'are'} scored apart, "
                         f"{false}")
        elif n_ep:
            text = (f"{episodes_} of {tier} began and ended {filling_words(prose_duration(window))}"
                    f", while its long window filled; scored apart: {false}")
        else:  # incidents alone: no word about episodes that did not happen
            notes.append(f"{incidents_} began in {first}, while {tier}'s long window "
                         "filled: not scored for this tier.")
            continue
        if n_inc:
            text += f"; {incidents_} began then: not scored for this tier"
        notes.append(text + ".")
    if merged:
        sev = dict(zip(rows["tier"].astype(str), rows["severity"].astype(str), strict=True))
        longest = {m: max(w for t, w in windows.items() if m == "*" or sev.get(t) == m)
                   for m in merged}
        notes.append("the rows of tier * merge tiers and count from when the longest of their "
                     "long windows filled: " + ", ".join(
                         f"{'all tiers' if m == '*' else m} after {prose_duration(w)}"
                         for m, w in longest.items()) + ".")
    return notes
