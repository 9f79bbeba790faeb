"""The tracker window (and hysteresis) to use: flapping against detection, summed over the
groups.

**Thin rows are left out of the sums.** A row of :func:`budgetlab.compare_windows` too thin for a
verdict (:func:`~budgetlab.analyses.window_clock.thin_rows`, the rule the CLI and the plot use:
under :data:`~budgetlab.analyses.window_clock.MIN_EVALUATED_HOURS` of evaluated time, no event in
it, or too few events for the target; the row's ``note`` says which) has time shares and rates per
day too thin to go by; a sum that took them in would be a wrong number. :func:`window_summary` sums
the other rows and names the rows it left out with the rule that did
(:func:`~budgetlab.analyses.window_thin.thin_reasons`); a window whose rows are all thin gets no
summed value. :func:`choose_window` compares only windows whose sums hold the same groups (a sum
over fewer groups counts fewer status changes): every group with a verdict under some window. A
group too thin under every window is left out of all of them, named with its reasons; it does not
keep a window from being chosen for the others.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..._util.percent import given_percent
from ..._util.ratios import ratio
from ..._util.validation import check_fraction, require_columns
from ..._util.words import counted_of
from ...errors import ConfigError
from ..verdicts import Verdict
from ..window_thin import group_names, thin_reasons
from .left_out import left_out_notes, pairs_left_out, without_verdict, without_verdict_words
from .window_pairs import (
    PAIR_COUNTS,
    detected_pairs,
    detects,
    no_pairs,
    pairs_summed,
    seen_pairs,
    unjudged,
    window_name,
)

__all__ = ["window_summary", "choose_window"]

_ALERT_SHARES = {"warning": ("share_warning", "share_critical", "share_exhausted"),
                 "critical": ("share_critical", "share_exhausted"),
                 "exhausted": ("share_exhausted",)}
_SUMMED = ["transitions_per_day", "round_trips_per_day", "hours", "hours_exhausted",
           "_alert_hours"]


def window_summary(table: pd.DataFrame, incidents: pd.DataFrame | None = None, *,
                   alert_at: str = "critical") -> pd.DataFrame:
    """Flapping and detection per window and dwell time, summed over the groups.

    Parameters
    ----------
    table : DataFrame
        Output of :func:`budgetlab.compare_windows`.
    incidents : DataFrame, optional
        Output of :func:`budgetlab.window_incidents` for the same windows (one row per window,
        dwell, group and incident: an "(incident, group) pair").
    alert_at : str
        The status that counts as "the tracker noticed" (``warning``, ``critical``,
        ``exhausted``); the one given to ``window_incidents``.

    Returns
    -------
    DataFrame
        One row per window and dwell time (the table's order): ``window``, ``min_dwell``,
        ``transitions_per_day`` and ``round_trips_per_day`` (summed over the groups: status
        changes of all trackers), ``hours``, ``hours_exhausted``, ``share_exhausted`` and
        ``share_alerting`` (time at ``alert_at`` or worse, weighted by each group's hours), all
        over the rows that are not thin; ``groups`` (rows summed), ``groups_left_out`` (rows too
        thin for a verdict: under 24 h of evaluated ``hours``, no event in them, or under 10
        expected failures, :func:`~budgetlab.analyses.window_clock.thin_rows`) and ``note``
        (which rule left out which groups, in words; empty when none is left out). A
        window whose rows are all thin has NaN sums and shares. With ``incidents``: ``pairs``,
        ``detected``, ``unseen`` (pairs during which the window held no traffic: nothing to
        detect, no miss; 0 for a table without an ``unseen`` column), ``already_at_alert``
        (pairs that began at ``alert_at`` or worse already: the window could not show them,
        neither detected nor missed; 0 for a table without the column), ``withheld`` (pairs of a
        row without an event in its evaluated span: detection not known, neither detected nor
        missed nor unseen; 0 for a table without a ``withheld`` column), ``detection_median``,
        ``recovery_median`` (over the detected pairs and those already at ``alert_at``: a missed
        one has nothing to recover from) and ``unrecovered`` (those never recovered);
        ``pairs_left_out``, ``detected_left_out``, ``unseen_left_out``, ``withheld_left_out``
        and ``already_at_alert_left_out``: those of the
        counts that are pairs of a group row left out of the sums (the note says how many),
        which :func:`choose_window` does not count (a group left out adds no pair to recall);
        the medians are over the other pairs; a window no incident counts for
        (each starts before the observation, or its scope covers no group) has 0 pairs and NaT
        medians. ``attrs["groups_left_out"]``: the thin rows left out in all;
        ``attrs["groups_without_verdict"]``: the groups too thin under every window and dwell
        time (``{"captcha_type=image": "1 h: under 24 h of evaluated time; ..."}``, from the
        table's ``attrs["by"]``; empty when it names no group key), which :func:`choose_window`
        decides without.

    Examples
    --------
    >>> t = pd.DataFrame({"g": ["a", "b", "c"], "window": ["1h", "1h", "1h"],
    ...     "min_dwell": pd.to_timedelta([0, 0, 0]), "hours": [100.0, 300.0, 2.0],
    ...     "hours_exhausted": [10.0, 30.0, 2.0], "transitions_per_day": [2.0, 4.0, 48.0],
    ...     "round_trips_per_day": [0.5, 0.0, 0.0], "share_critical": [0.1, 0.3, 0.0],
    ...     "share_exhausted": [0.1, 0.1, 1.0], "note": ["", "", "only 2.00 h ..."]})
    >>> s = window_summary(t)  # c's 2 h of evaluated time are too thin: a and b are summed
    >>> s[["transitions_per_day", "share_exhausted", "share_alerting", "groups_left_out"]]
       transitions_per_day  share_exhausted  share_alerting  groups_left_out
    0                  6.0              0.1            0.35                1
    """
    if alert_at not in _ALERT_SHARES:
        raise ConfigError(f"alert_at must be one of {', '.join(_ALERT_SHARES)}.")
    shares = list(_ALERT_SHARES[alert_at])
    require_columns(table, ["window", "min_dwell", "hours", "hours_exhausted",
                            "transitions_per_day", "round_trips_per_day", *shares],
                    what="the compare_windows table")
    codes = thin_reasons(table)
    thin = np.asarray(codes != "", dtype=bool)
    frame = table.assign(_alert_hours=table[shares].sum(axis=1) * table["hours"], _thin=thin)
    keys = ["window", "min_dwell"]
    grouped = frame.groupby(keys, observed=True, sort=False)
    labels = group_names(table)
    counted = frame[~thin].groupby(keys, observed=True, sort=False)
    out = counted[_SUMMED].sum(min_count=1).reindex(grouped.size().index)
    hours = out["hours"].to_numpy(dtype=float)
    out["share_exhausted"] = ratio(out["hours_exhausted"], hours)
    out["share_alerting"] = ratio(out.pop("_alert_hours"), hours)
    left_out = grouped["_thin"].sum().astype(np.int64)
    out["groups"] = (grouped.size() - left_out).astype(np.int64)
    out["groups_left_out"] = left_out
    out["note"] = left_out_notes(codes, labels, grouped.ngroup().to_numpy(), len(out))
    if incidents is not None:
        out = out.join(pairs_summed(incidents, pairs_left_out(table, codes, incidents)),
                       how="left")
        for c in (*PAIR_COUNTS, "unrecovered", *(f"{c}_left_out" for c in PAIR_COUNTS)):
            out[c] = out[c].fillna(0).astype(np.int64)
        out["note"] = [_pairs_note(n, int(k)) for n, k in zip(out["note"], out["pairs_left_out"],
                                                              strict=True)]
    out = out.reset_index()
    out["window"] = out["window"].astype(str)
    out.attrs["groups_left_out"] = int(thin.sum())
    out.attrs["groups_without_verdict"] = without_verdict(table, codes, labels)
    return out


def _pairs_note(note: str, left: int) -> str:
    """A summed row's note with the (incident, group) pairs of its left-out rows said."""
    if not left:
        return note
    pairs = f"{left} (incident, group) pair{'' if left == 1 else 's'}"
    return (f"{note}; {pairs} of these group rows left out of the choice too (counted in "
            "pairs_left_out and the other _left_out columns; the medians are over the other "
            "pairs)")


def choose_window(summary: pd.DataFrame, *, min_recall: float = 0.8) -> Verdict:
    """The window (and dwell time) to use.

    **Rule.** Among the windows and dwell times that reached the alert status for at least
    ``min_recall`` of the (incident, group) pairs they saw (``pairs - unseen - withheld -
    already_at_alert``: a pair during which the window held no traffic had nothing to detect, a
    withheld one has no known detection, and one that began at the alert status already could
    not be shown, as in :func:`budgetlab.compare_windows`), the one with the fewest status
    changes per day (ties: the faster median detection). A window that saw no pair is not judged
    (0 of 0 is no recall) and is named in the caveat. Without incident columns only flapping is
    compared (the verdict says so in its caveat). Only windows whose sums hold the same groups
    are compared (a sum over fewer groups counts fewer status changes): every group with a
    verdict under some window. A group too thin for a verdict under every window
    (``attrs["groups_without_verdict"]`` of the summary) is left out of them all and named in the
    caveat with its reasons; the windows that leave out more are named there too. Withheld when
    no window saw a pair (no incident counted, or none had traffic or known detection: the reason
    says which), when no window detects enough, or when none holds those groups.

    Parameters
    ----------
    summary : DataFrame
        Output of :func:`window_summary`.
    min_recall : float
        Share of the pairs a window saw that it must detect.

    Returns
    -------
    Verdict
        ``verdict`` ``"chosen"`` (``subject`` names the window) or ``None`` when withheld.

    Examples
    --------
    >>> s = pd.DataFrame({"window": ["1h", "1d"], "min_dwell": pd.to_timedelta([0, 0]),
    ...     "transitions_per_day": [30.0, 2.0], "share_alerting": [0.05, 0.2], "pairs": [10, 10],
    ...     "detected": [10, 9], "detection_median": pd.to_timedelta(["5min", "40min"])})
    >>> choose_window(s).subject
    'the 24 h window'
    >>> choose_window(s, min_recall=0.95).subject
    'the 1 h window'
    >>> print(choose_window(s.assign(pairs=0, detected=0)).withheld)  # 0 of 0 is no recall
    no (incident, group) pair to judge detection by: no incident counted (each starts before the
    observation and any warm-up, or its scope covers none of the groups); check the incidents'
    times (UTC) and scopes against the log, or leave the incidents out to compare flapping alone
    """
    min_recall = check_fraction("min_recall", min_recall)
    require_columns(summary, ["window", "min_dwell", "transitions_per_day"],
                    what="the window summary")
    if not len(summary):
        raise ConfigError("the window summary is empty; run compare_windows on at least one "
                          "window.")
    whole, caveat = _whole(summary)
    if not len(whole):
        why = (f"every window leaves out of its sums groups that have a verdict under another "
               f"window ({caveat}): no window's flapping is known for the same groups")
        return Verdict("window", None, f"No window chosen: {why}.",
                       _compared(summary), withheld=why)
    if "pairs" not in summary.columns:
        best = whole.sort_values("transitions_per_day", kind="stable").iloc[0]
        name = window_name(best)
        evidence = f"{best['transitions_per_day']:.1f} status changes per day"
        return Verdict(name, "chosen", f"By flapping alone: {name} ({evidence}).", evidence,
                       caveat="; ".join(x for x in ("without incident labels only flapping is "
                                                    "compared", caveat) if x))
    seen = seen_pairs(whole)
    judged = whole[seen > 0]
    if not len(judged):
        why = no_pairs(whole) + (f" among the windows that hold every group ({caveat})"
                                  if caveat else "")
        why += ("; check the incidents' times (UTC) and scopes against the log, or leave the "
                "incidents out to compare flapping alone")
        return Verdict("window", None, f"No window chosen: {why}.",
                       _compared(summary), withheld=why)
    caveat = "; ".join(x for x in (caveat, unjudged(whole[seen == 0])) if x)
    ok = judged[detected_pairs(judged) >= min_recall * seen_pairs(judged)]
    if not len(ok):
        why = (f"no window reaches the alert status for {given_percent(min_recall)} of the "
               "(incident, group) pairs it saw")
        why += f" among those compared ({caveat})" if caveat else ""
        return Verdict("window", None, f"No window chosen: {why}.",
                       _compared(summary), withheld=why)
    best = ok.sort_values(["transitions_per_day", "detection_median"], kind="stable").iloc[0]
    name = window_name(best)
    return Verdict(name, "chosen", f"By the rule: {name}: {detects(best)}.", detects(best),
                   caveat=caveat)


def _compared(summary: pd.DataFrame) -> str:
    """How many windows (and dwell times) a withheld :func:`choose_window` looked at."""
    return f"{len(summary)} window{'' if len(summary) == 1 else 's'} compared"


def _whole(summary: pd.DataFrame) -> tuple[pd.DataFrame, str]:
    """The rows of a :func:`window_summary` whose sums hold every group with a verdict under some
    window (they leave out only the groups too thin under every window:
    ``attrs["groups_without_verdict"]``; a summary without it, every group), and in words those
    groups and the other rows (empty when there are none)."""
    if "groups_left_out" not in summary.columns:
        return summary, ""
    none = summary.attrs.get("groups_without_verdict") or {}
    part = summary["groups_left_out"].to_numpy() > len(none)
    names = []
    for _, r in summary[part].iterrows():
        left = int(r["groups_left_out"])
        names.append(f"{window_name(r)}, {counted_of(left, left + int(r['groups']), 'group row')}")
    whole = summary[~part]
    said = [without_verdict_words(none, int(whole["groups"].max()),
                                  pairs="pairs_left_out" in summary.columns) if len(whole) else "",
            (f"not compared, as their sums leave out groups with a verdict under another window "
             f"(the summary's note says why): {'; '.join(names)}" if names else "")]
    return whole, "; ".join(x for x in said if x)
