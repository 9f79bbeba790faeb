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
the report's note says so. The report's alerts are replayed so from the log's first event
whenever the log starts (:func:`covered_alerts`): an alert whose condition held from its tier's
first full window may have fired earlier, on data the log does not hold.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .._util.validation import utc_from_ns, utc_ns_column
from .._util.words import prose_duration
from ..alerts.episodes import policy_attrs, policy_parts
from ..alerts.firing import grid_firing_runs, tier_conditions, tier_steps
from ..alerts.policy import AlertPolicy
from ..budget.burn import error_budgets
from ..events.schema import TIMEOUT
from ..windows.bingrid import BinGrid
from ..windows.bins import read_bins
from .bucket_variants import closed_overlap
from .incident_end_words import clock_words
from .incident_evaluations import no_evaluation_inside, no_evaluation_words

__all__ = ["all_unevaluated", "covered_alerts", "evaluated_from", "late_from",
           "not_known_words", "partly_evaluated", "partly_known_words", "silent_others_words",
           "tiers_note", "tracker_note", "tracker_read_from", "unevaluated_words",
           "withhold_tracker"]


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


def tracker_read_from(span: Any, window: pd.Timedelta) -> pd.Timestamp | None:
    """Where the tracker table is read from (``span``: the report's
    :class:`~budgetlab.analyses.incident_window.Span`): the incident's start, or when the log
    starts late the first instant the tracker's ``window`` lies after the data's start
    (``data_start + window``) when that is later; ``None`` when that instant comes after the
    incident's end or the log's last event: the tracker's window never lay after the data's
    start during the incident."""
    if span.data_start is None:
        return span.start  # type: ignore[no-any-return]
    full = max(span.start, span.data_start + window)
    last = span.end if span.data_end is None else min(span.end, span.data_end + pd.Timedelta(1))
    return full if full < last else None


def tracker_note(span: Any, window: pd.Timedelta) -> str:
    """The note's words on the tracker when the log starts late (``span.data_start``): where its
    ``window`` first lies after the data's start (``data_start + window``) and what the report
    reads from there (:func:`tracker_read_from`): the incident's tracker figures from then, over
    full windows, or withheld; its replayed rows before then (``states``, ``transitions``, the
    figure's hatched timeline) read on less than a window of data. Only what holds is said: no
    figure of the tracker table is read before then."""
    full = span.data_start + window
    size = prose_duration(window)
    if full <= span.w_start:
        return (f"the tracker's {size} window holds its length of data from before the report's "
                "window")
    until = (f"the tracker's {size} window holds less than its length of data until "
             f"{span.at(full.value)}")
    rows = "(its replayed rows, hatched in the figure) is read on less than a window of data"
    read_from = tracker_read_from(span, window)
    if read_from is None:
        later = ("the incident's end" if span.data_end is None or span.data_end >= span.end
                 else "the log's last event")
        return (f"{until}, after {later}, so the incident's tracker figures are withheld; what "
                f"it shows {rows}")
    if read_from > span.start:
        return (f"{until}, so the incident's tracker figures are read from then; what it shows "
                f"before then {rows}")
    return (f"{until}, before the incident began, so the incident's tracker figures are read "
            f"over full windows; what it shows before then {rows}")


#: The tracker table's columns read over the incident, withheld when its window never lay after
#: the data's start during it (:func:`withhold_tracker`).
_TRACKER_READ = ("status_at_start", "worst_status", "worst_at", "worst_status_at_events",
                 "status_at_end", "status_at_last_event", "last_event_at", "first_change_at",
                 "first_change_from", "first_change_to", "first_change_burn", "first_change_rate",
                 "peak_burn", "peak_burn_at", "peak_burn_events", "min_success_rate",
                 "hours_no_traffic")


def withhold_tracker(tracker: pd.DataFrame, read_from: pd.Timestamp | None) -> pd.DataFrame:
    """The tracker table with ``read_from`` (NaT: never), every figure of it withheld (missing)
    when its window never lay after the data's start during the incident (``None``); its counts
    of changes are then over no time: 0."""
    out = tracker.copy()
    out["read_from"] = pd.Series(read_from, index=out.index, dtype="datetime64[ns, UTC]")
    if read_from is None:
        for c in _TRACKER_READ:
            out[c] = out[c].where(pd.Series(False, index=out.index))
    return out


def covered_alerts(bins: pd.DataFrame, grid: BinGrid, target: float, policy: AlertPolicy,
                   froms: np.ndarray, *, has_timeout: bool) -> pd.DataFrame:
    """The alert episodes of every group and tier of ``grid`` (read from ``bins``) replayed from
    the tier's first covered evaluation on (``froms``, per tier: :func:`evaluated_from`): the
    tier's condition held false before it, its ``for_`` and ``cooldown`` counted from there.
    Columns and ``attrs`` as :func:`~budgetlab.alert_episodes`', plus ``caused_by_timeouts``
    (no episode of the same covered replay without the timeouts overlaps it, closed intervals,
    as :func:`~budgetlab.analyses.bucket_variants.episodes_caused` says of the whole replay's)
    and ``may_have_fired_earlier`` (its condition held at the tier's first covered evaluation
    and the alert fired in that first stretch: the rule, evaluated on the data before, may have
    fired earlier)."""
    out = _covered_runs(grid, target, policy, froms)
    out.attrs = policy_attrs(grid, target, policy_parts(grid, target, policy))
    out["caused_by_timeouts"] = False
    if has_timeout and len(out):
        wo = _covered_runs(read_bins(bins, freq=pd.Timedelta(grid.freq_ns),
                                     exclude_buckets=TIMEOUT), target,
                           policy, froms)
        on = [*grid.by, "tier"]
        both = pd.concat([out[on], wo[on]], ignore_index=True).astype(object)
        code = both.groupby(on, dropna=False, sort=False).ngroup().to_numpy(dtype=np.int64)
        a_s, a_e, b_s, b_e = (utc_ns_column(f[c], c) for f in (out, wo) for c in ("start", "end"))
        out["caused_by_timeouts"] = ~closed_overlap(code[:len(out)], a_s, a_e, code[len(out):],
                                                    b_s, b_e)
    return out


def _covered_runs(grid: BinGrid, target: float, policy: AlertPolicy,
                  froms: np.ndarray) -> pd.DataFrame:
    """:func:`covered_alerts`' episodes without ``caused_by_timeouts`` and ``attrs``, a chunk of
    groups at a time (their conditions only)."""
    budget, ends = error_budgets(target, grid), grid.bin_end_ns
    windows = len({w for t in policy.tiers for w in t.windows})
    runs = []
    for g0, g1 in grid.chunks(windows + 3):
        conditions = tier_conditions(grid.select(np.arange(g0, g1)), budget[g0:g1], policy)
        for j, (tier, (cond, _, _)) in enumerate(zip(policy.tiers, conditions, strict=True)):
            held = cond & (ends >= froms[j])[None, :]
            for_steps, cooldown = tier_steps(tier, grid.freq_ns)
            group, first, stop, ongoing = grid_firing_runs(held, for_steps, cooldown)
            # the stretch (runs within the cooldown of each other) held from the first covered
            # evaluation on: its alert may have fired before that evaluation
            s_group, s_first, s_stop, _ = grid_firing_runs(held, 0, cooldown)
            at_first = s_first == np.searchsorted(ends, froms[j])
            reach = np.zeros(g1 - g0, dtype=np.int64)
            reach[s_group[at_first]] = s_stop[at_first]
            runs.append((group + g0, np.full(len(group), j), first, stop, ongoing,
                         first < reach[group]))
    g, t, first, stop, ongoing, early = (np.concatenate(c) for c in zip(*runs, strict=True))
    order = np.lexsort((t, ends[first], g))
    out = grid.keys_at(g[order])
    names = [tier.name for tier in policy.tiers]
    out["tier"] = pd.Categorical.from_codes(t[order], categories=pd.Index(names), ordered=True)
    out["severity"] = np.array([tier.severity for tier in policy.tiers], dtype=object)[t[order]]
    out["start"] = utc_from_ns(ends[first[order]])
    out["end"] = utc_from_ns(ends[stop[order] - 1] + grid.freq_ns)
    out["duration"] = out["end"] - out["start"]
    out["ongoing"] = ongoing[order].astype(bool)
    out["may_have_fired_earlier"] = early[order]
    return out


def tiers_note(tiers: pd.DataFrame, data_start: pd.Timestamp, tz: str,
               ref: pd.Timestamp, data_end: pd.Timestamp | None = None, *,
               end: pd.Timestamp | None = None, freq: Any = None) -> str:
    """The note on the span each tier was evaluated over when the log starts late (``tiers``: the
    report's tier table, one row per tier of the first group; ``ref``: the incident's start,
    ``end`` its end, ``freq`` the policy's bins). A tier not evaluated is said with its reason:
    when the log's last event (``data_end``) comes before the incident's start, the log ending
    before the incident (before stop 59 the window's reason was given for it, of data that had
    started days before); when no evaluation falls inside the incident
    (:func:`no_evaluation_inside`), that, of every tier at once (before stop 63 the window's
    reason was given for it, of data that had started 18 h before a 12 s incident); else its
    window never all after the data's start during the incident."""
    ended = data_end is not None and data_end < ref
    lead = f"the data start at {clock_words(data_start, tz, ref)}"
    if not ended and end is not None and freq is not None and no_evaluation_inside(ref, end,
                                                                                    freq):
        return (f"{lead}, but no alert tier is evaluated during the incident: "
                f"{no_evaluation_words(ref, end, freq)}, so their figures are withheld.")
    parts = []
    for _, r in tiers.drop_duplicates("tier").iterrows():
        win = prose_duration(r["long_window"])
        if pd.isna(r["evaluated_from"]):
            why = ("not evaluated: the log ends before the incident, so" if ended
                   else "not evaluated, its window never all after the data's start during the "
                   "incident:")
            parts.append(f"{r['tier']} ({win}) {why} its figures are withheld")
        else:
            parts.append(f"{r['tier']} ({win}) from {clock_words(r['evaluated_from'], tz, ref)} "
                         f"to {clock_words(r['evaluated_to'], tz, ref)}")
    return (f"{lead}: an alert tier is evaluated "
            "only where its long window lies after the data's start (earlier windows hold less "
            "than their length of data, not production's traffic), so during the incident "
            + "; ".join(parts) + ".")


def late_from(r: pd.Series, first: pd.Timestamp) -> bool:
    """The tier of ``r`` (a tiers row) was evaluated from later than ``first``, the incident's
    first evaluation: its window reached before the data's start until then."""
    since = r.get("evaluated_from")
    return since is not None and pd.notna(since) and since > first


def _could_fire(rows: pd.DataFrame) -> pd.DataFrame:
    """The rows (of a tier table) whose tier can fire at its group's target: one that never can
    is known silent, evaluated or not (``can_fire``; every row when the table has no such
    column)."""
    return rows[rows["can_fire"].to_numpy(dtype=bool)] if "can_fire" in rows else rows


def unevaluated_words(tiers: pd.DataFrame, severity: str | None) -> str:
    """``; page_6h was not evaluated ...``: the tiers (of ``severity``; all when ``None``) that
    can fire at the target and whose window never lay after the data's start during the
    incident, whose figures are withheld (one that can never fire would not have: said apart,
    :func:`~.incident_tier_reach.reach_words`)."""
    if "evaluated_from" not in tiers or not len(tiers):
        return ""
    rows = _could_fire(tiers if severity is None else tiers[tiers["severity"] == severity])
    out = rows[rows["evaluated_from"].isna()].drop_duplicates("tier")
    if not len(out):
        return ""
    names = ", ".join(f"{r['tier']} ({prose_duration(r['long_window'])})"
                      for _, r in out.iterrows())
    verb = "was" if len(out) == 1 else "were"
    return (f"; {names} {verb} not evaluated, {'its window' if len(out) == 1 else 'their windows'}"
            " never lying after the data's start during the incident: what "
            f"{'it' if len(out) == 1 else 'they'} would have done is not known")


def silent_others_words(tiers: pd.DataFrame, lead: str = " and ") -> str:
    """`` and no other tier fired``, after "would not have paged" (no tier fired): said only of
    the tiers beside the page tiers known to be silent, those evaluated during the incident or
    that can never fire at the target; `` and no other evaluated tier fired`` when some that
    could fire were not evaluated (:func:`unevaluated_words` names them); ``""`` when none that
    could fire was evaluated (before stop 59 "no other tier fired" was said of tiers never
    evaluated). ``lead``: the words before the clause (``"; "`` after
    :func:`partly_known_words`)."""
    could = _could_fire(tiers[tiers["severity"] != "page"] if len(tiers) else tiers)
    if "evaluated_from" not in could or not bool(could["evaluated_from"].isna().any()):
        return f"{lead}no other tier fired"
    return f"{lead}no other evaluated tier fired" if could["evaluated_from"].notna().any() else ""


def _of(tiers: pd.DataFrame, severity: str | None) -> pd.DataFrame:
    """The rows of ``tiers`` that can fire at the target, of ``severity`` (all when ``None``)."""
    return _could_fire(tiers if severity is None else tiers[tiers["severity"] == severity])


def partly_evaluated(tiers: pd.DataFrame, severity: str | None) -> bool:
    """Some tier (of ``severity``; all when ``None``) that can fire at the target was not
    evaluated during the incident (its window never lay after the data's start), and some was:
    the evaluated ones being silent does not say the policy would not have paged (fired)."""
    rows = _of(tiers, severity)
    if not len(rows) or "evaluated_from" not in rows:
        return False
    missing = rows["evaluated_from"].isna()
    return bool(missing.any()) and not bool(missing.all())


def _named(rows: pd.DataFrame) -> tuple[str, bool]:
    """``page_1h (1 h), page_6h (6 h)``: the tiers of ``rows``, once each; whether there is one."""
    rows = rows.drop_duplicates("tier")
    return (", ".join(f"{r['tier']} ({prose_duration(r['long_window'])})"
                      for _, r in rows.iterrows()), len(rows) == 1)


def partly_known_words(name: str, has_page: bool, tiers: pd.DataFrame, peak: str = "") -> str:
    """``whether the workbook policy would have paged is not known: page_1h (1 h) was evaluated
    and did not fire (PEAK), but page_6h (6 h), which could fire, was not evaluated, ...``: no
    tier that could page (fire, without page tiers) fired, but some of them were not evaluated
    during the incident (:func:`partly_evaluated`), so the silence of those evaluated does not
    say what the policy would have done. ``peak``: the words on the evaluated tier that came
    closest to its threshold (after its name). Before stop 59 this read "would not have paged"."""
    rows = _of(tiers, "page" if has_page else None)
    done, one_done = _named(rows[rows["evaluated_from"].notna()])
    missing, one = _named(rows[rows["evaluated_from"].isna()])
    return (f"whether {name} would have {'paged' if has_page else 'fired'} is not known: {done} "
            f"{'was' if one_done else 'were'} evaluated and did not fire{peak}, but {missing}, "
            f"which could fire, {'was' if one else 'were'} not evaluated, "
            f"{'its window' if one else 'their windows'} never lying after the data's start "
            "during the incident")


def all_unevaluated(tiers: pd.DataFrame, severity: str | None) -> bool:
    """Some tier (of ``severity``; all when ``None``) can fire at the target, and none that can
    was evaluated during the incident: the log starts too late for every such window
    (``evaluated_from`` NaT throughout). A tier that can never fire is no evaluation of what the
    policy would have done: evaluated or not, it is silent (when no tier can fire, the policy
    would not have fired, which is known)."""
    rows = _could_fire(tiers if severity is None else tiers[tiers["severity"] == severity])
    return (bool(len(rows)) and "evaluated_from" in rows
            and bool(rows["evaluated_from"].isna().all()))


def not_known_words(name: str, has_page: bool, tiers: pd.DataFrame | None = None) -> str:
    """Why what the policy ``name`` would have done is not known: no tier of it that could page
    (fire, without page tiers) was evaluated during the incident. When some of those ``tiers``
    can never fire at the target, the ones that could are named (``the workbook policy's page
    tier that could fire, page_6h (6 h), was not evaluated ...``): the others were read, or
    need not be (:func:`~.incident_tier_reach.reach_words` says why they never fire)."""
    verb = "paged" if has_page else "fired"
    rows = (tiers if tiers is None or not has_page or not len(tiers)
            else tiers[tiers["severity"] == "page"])
    if rows is not None and "can_fire" in rows and not bool(rows["can_fire"].all()):
        able = _could_fire(rows).drop_duplicates("tier")
        one = len(able) == 1
        names = ", ".join(f"{r['tier']} ({prose_duration(r['long_window'])})"
                          for _, r in able.iterrows())
        kind = "page tier" if has_page else "tier"
        return (f"{name}'s {kind}{'' if one else 's'} that could fire, {names}, "
                f"{'was' if one else 'were'} not evaluated during the incident, "
                f"{'its window' if one else 'their windows'} never lying after the data's "
                f"start, so whether it would have {verb} is not known")
    return (f"{name}'s {'page ' if has_page else ''}tiers were not evaluated during the incident, "
            "their windows never lying after the data's start, so whether it would have "
            f"{verb} is not known")
