"""Where the incident report's alert tiers read windows the data cover, when the log starts late.

When the log's first event (``data_start``) comes after the history the longest window needs, a
tier's window reaches before the data at its first evaluations: a 6 h window 1 h after the first
event holds 1 h of data, not production's 6 h. A tier is **evaluated** only from its first
evaluation whose long window holds no time before the bin of the log's first event (its
``evaluated_from``; the mirror of the data's end, read up to the end of the bin of the log's last
event): its peaks are read from those evaluations, and its alerts are replayed as if the rule had
been evaluated from there on (its ``for_`` and ``cooldown`` counted from that evaluation; an alert
that fired earlier on a partly covered window is not one). A tier whose window is not covered
before the incident's end (or the data's) is not evaluated at all: its figures are withheld and
the report's note says so.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._util.validation import utc_from_ns, utc_ns_column
from .._util.words import prose_duration
from ..alerts.firing import grid_firing_runs, tier_steps
from ..alerts.policy import AlertPolicy
from ..windows.bingrid import BinGrid
from .incident_end_words import clock_words

__all__ = ["all_unevaluated", "covered_episodes", "evaluated_from", "late_from", "not_known_words",
           "tiers_note", "unevaluated_words"]


def evaluated_from(grid: BinGrid, data_start: pd.Timestamp | None,
                   policy: AlertPolicy) -> np.ndarray:
    """Per tier of ``policy``: the first evaluation (a bin end of ``grid``, in ns) whose long
    window starts no earlier than the bin holding ``data_start`` (the log's first event); the
    grid's first bin end for every tier when the data start before the grid (``None``)."""
    first = grid.start_ns + grid.freq_ns
    if data_start is None:
        return np.full(len(policy.tiers), first, dtype=np.int64)
    lo = grid.start_ns + (data_start.value - grid.start_ns) // grid.freq_ns * grid.freq_ns
    return np.array([max(first, lo + int(t.long_window.value)) for t in policy.tiers],
                    dtype=np.int64)


def covered_episodes(states: pd.DataFrame, episodes: pd.DataFrame, policy: AlertPolicy,
                     keys: list[str], froms: np.ndarray, freq_ns: int) -> pd.DataFrame:
    """The alert episodes of every group and tier replayed from the tier's first covered
    evaluation on (``froms``, per tier): the condition of ``states`` (every group and tier at
    the same evaluations, in the order of :func:`~budgetlab.alerts.episodes.alert_states`) held
    false before it, its ``for_`` and ``cooldown`` counted from there. Columns: the keys,
    ``tier``, ``start``, ``end`` (an episode still firing at the last of ``states``' evaluations
    ends with the episode of ``episodes``, the whole replay's, that holds it) and
    ``caused_by_timeouts`` (that episode's: its firing holds this one's, so a ``True`` holds
    here too; a ``False`` may be one that timeouts alone caused over the covered span)."""
    t_n = len(policy.tiers)
    ends = np.unique(utc_ns_column(states["bin_end"], "bin_end"))
    n = len(ends)
    cols = [*keys, "tier", "start", "end", "caused_by_timeouts"]
    if n == 0:
        return episodes.iloc[0:0][cols]
    cond = states["condition"].to_numpy(dtype=bool).reshape(-1, t_n, n)
    rows = []
    for j, tier in enumerate(policy.tiers):
        masked = cond[:, j, :] & (ends >= froms[j])[None, :]
        group, first, stop, ongoing = grid_firing_runs(masked, *tier_steps(tier, freq_ns))
        at = (group * t_n + j) * n  # a row of states of that group and tier
        part = states.iloc[at][keys].reset_index(drop=True)
        part["tier"] = tier.name
        part["start"] = utc_from_ns(ends[first])
        part["end"] = utc_from_ns(ends[stop - 1] + freq_ns)
        part["ongoing"] = ongoing
        rows.append(part)
    runs = pd.concat(rows, ignore_index=True)
    plain = {"tier": str, **{k: object for k in keys}}
    whole = episodes[[*keys, "tier", "start", "end", "caused_by_timeouts"]].astype(plain)
    both = runs.astype(plain).reset_index().merge(whole, on=[*keys, "tier"],
                                                  suffixes=("", "_whole"))
    held = both[(both["start_whole"] <= both["start"]) & (both["start"] < both["end_whole"])]
    held = held.drop_duplicates("index").set_index("index").reindex(runs.index)
    out = runs.astype(plain)
    out["end"] = out["end"].where(~out.pop("ongoing"), held["end_whole"])
    out["caused_by_timeouts"] = held["caused_by_timeouts"].eq(True).to_numpy()
    return out[cols]


def tiers_note(tiers: pd.DataFrame, data_start: pd.Timestamp, tz: str,
               ref: pd.Timestamp) -> str:
    """The note on the span each tier was evaluated over when the log starts late (``tiers``: the
    report's tier table, one row per tier of the first group; ``ref``: the incident's start)."""
    parts = []
    for _, r in tiers.drop_duplicates("tier").iterrows():
        win = prose_duration(r["long_window"])
        if pd.isna(r["evaluated_from"]):
            parts.append(f"{r['tier']} ({win}) not evaluated, its window never all after the "
                         "data's start during the incident: its figures are withheld")
        else:
            parts.append(f"{r['tier']} ({win}) from {clock_words(r['evaluated_from'], tz, ref)} "
                         f"to {clock_words(r['evaluated_to'], tz, ref)}")
    return (f"the data start at {clock_words(data_start, tz, ref)}: an alert tier is evaluated "
            "only where its long window lies after the data's start (earlier windows hold less "
            "than their length of data, not production's traffic), so during the incident "
            + "; ".join(parts) + ".")


def late_from(r: pd.Series, first: pd.Timestamp) -> bool:
    """The tier of ``r`` (a tiers row) was evaluated from later than ``first``, the incident's
    first evaluation: its window reached before the data's start until then."""
    since = r.get("evaluated_from")
    return since is not None and pd.notna(since) and since > first


def unevaluated_words(tiers: pd.DataFrame, severity: str | None) -> str:
    """``; page_6h was not evaluated ...``: the tiers (of ``severity``; all when ``None``) whose
    window never lay after the data's start during the incident, whose figures are withheld."""
    if "evaluated_from" not in tiers or not len(tiers):
        return ""
    rows = tiers if severity is None else tiers[tiers["severity"] == severity]
    out = rows[rows["evaluated_from"].isna()].drop_duplicates("tier")
    if not len(out):
        return ""
    names = ", ".join(f"{r['tier']} ({prose_duration(r['long_window'])})"
                      for _, r in out.iterrows())
    verb = "was" if len(out) == 1 else "were"
    return (f"; {names} {verb} not evaluated, {'its window' if len(out) == 1 else 'their windows'}"
            " never lying after the data's start during the incident: what "
            f"{'it' if len(out) == 1 else 'they'} would have done is not known")


def all_unevaluated(tiers: pd.DataFrame, severity: str | None) -> bool:
    """No tier (of ``severity``; all when ``None``) was evaluated during the incident: the log
    starts too late for every window (``evaluated_from`` NaT throughout)."""
    rows = tiers if severity is None else tiers[tiers["severity"] == severity]
    return (bool(len(rows)) and "evaluated_from" in rows
            and bool(rows["evaluated_from"].isna().all()))


def not_known_words(name: str, has_page: bool) -> str:
    """Why what the policy ``name`` would have done is not known: no tier of it that could page
    (fire, without page tiers) was evaluated during the incident."""
    return (f"{name}'s {'page ' if has_page else ''}tiers were not evaluated during the incident, "
            "their windows never lying after the data's start, so whether it would have "
            f"{'paged' if has_page else 'fired'} is not known")
