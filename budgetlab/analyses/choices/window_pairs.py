"""The (incident, group) pairs of :func:`budgetlab.window_incidents` summed per window and dwell
time for :func:`.window_summary`, and the counts
:func:`~budgetlab.analyses.choices.windows.choose_window` judges detection by: the pairs a window
saw (not unseen, withheld or already at the alert status when they began) and those it detected,
in words."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..._util.percent import measured_percent
from ..._util.validation import require_columns, window_words
from ..._util.words import prose_duration
from ..verdicts import minutes

__all__ = ["PAIR_COUNTS", "PAIR_MEDIANS", "detected_pairs", "detects", "kept", "no_pairs",
           "pair_columns", "pair_count", "pairs_summed", "seen_pairs", "unjudged", "window_name"]

#: The pair counts summed per window (each again with ``_left_out``).
PAIR_COUNTS = ("pairs", "detected", "unseen", "withheld", "already_at_alert")
#: The medians, over the pairs of the group rows summed.
PAIR_MEDIANS = ("detection_median", "recovery_median")


def pairs_summed(incidents: pd.DataFrame, left: np.ndarray) -> pd.DataFrame:
    """:func:`.window_summary`'s incident columns: the counts over all pairs (as the rows of
    compare_windows), those of the pairs whose group row is left out (``left``) again with
    ``_left_out``, and the medians over the other pairs."""
    every = pair_columns(incidents)
    others = pair_columns(incidents[~left])
    out = every.drop(columns=list(PAIR_MEDIANS)).join(others[list(PAIR_MEDIANS)], how="left")
    return out.join(pair_columns(incidents[left])[list(PAIR_COUNTS)].add_suffix("_left_out"),
                    how="left")


def pair_columns(incidents: pd.DataFrame) -> pd.DataFrame:
    """:func:`.window_summary`'s incident columns, per window and dwell time."""
    require_columns(incidents, ["window", "min_dwell", "detected", "detection", "recovered",
                                "recovery"], what="the window_incidents table")
    # a withheld pair's detected, recovered and unseen are <NA> (not known): no sum counts it
    unseen = incidents["unseen"] if "unseen" in incidents.columns else False
    held = incidents["withheld"] if "withheld" in incidents.columns else False
    # began at alert_at already: neither detected nor missed, but its recovery counts
    already = (incidents["already_at_alert"] if "already_at_alert" in incidents.columns
               else False)
    per = incidents.assign(_unseen=unseen, _held=held, _already=already).groupby(
        ["window", "min_dwell"], observed=True, sort=False)
    n_already = per["_already"].sum().astype(np.int64)
    return pd.DataFrame({"pairs": per.size(), "detected": per["detected"].sum().astype(np.int64),
                         "unseen": per["_unseen"].sum().astype(np.int64),
                         "withheld": per["_held"].sum().astype(np.int64),
                         "already_at_alert": n_already,
                         "detection_median": per["detection"].median(),
                         "recovery_median": per["recovery"].median(),
                         "unrecovered": per["detected"].sum() + n_already
                         - per["recovered"].sum()})


def window_name(row: pd.Series) -> str:
    dwell = pd.Timedelta(row["min_dwell"])
    hysteresis = f" with {prose_duration(dwell)} of hysteresis" if dwell > pd.Timedelta(0) else ""
    return f"the {window_words(row['window'])} window{hysteresis}"


def seen_pairs(rows: pd.DataFrame) -> np.ndarray:
    """The (incident, group) pairs each row's window saw: ``pairs - unseen - withheld -
    already_at_alert`` (a withheld pair's detection is not known, and one that began at the
    alert status already could not be shown: neither is a miss), of the groups summed (the
    pairs of a group row left out, ``_left_out``, are not)."""
    return np.asarray(kept(rows, "pairs") - kept(rows, "unseen") - kept(rows, "withheld")
                      - kept(rows, "already_at_alert"), dtype=np.int64)


def detected_pairs(rows: pd.DataFrame) -> np.ndarray:
    """The (incident, group) pairs each row's window detected, of the groups summed."""
    return np.asarray(kept(rows, "detected"), dtype=np.int64)


def kept(rows: pd.DataFrame | pd.Series, column: str) -> np.ndarray | int:
    """A pair count of a :func:`.window_summary` without the pairs of the group rows left out
    of its sums (its ``_left_out`` column; a summary without one, made by hand: all)."""
    return pair_count(rows, column) - pair_count(rows, f"{column}_left_out")


def pair_count(rows: pd.DataFrame | pd.Series, column: str) -> np.ndarray | int:
    """A pair count of a :func:`.window_summary` (rows or one row); 0 when it has no such
    column (a summary made before it had one, or by hand)."""
    have = rows.columns if isinstance(rows, pd.DataFrame) else rows.index
    if column not in have:
        return 0
    return rows[column].to_numpy() if isinstance(rows, pd.DataFrame) else int(rows[column])


def no_pairs(rows: pd.DataFrame) -> str:
    """Why no row of a :func:`.window_summary` saw an (incident, group) pair, in words."""
    pairs = int(rows["pairs"].max())
    head = "no (incident, group) pair to judge detection by: "
    if pairs == 0:
        return head + ("no incident counted (each starts before the observation and any warm-up, "
                       "or its scope covers none of the groups)")
    if not (np.any(pair_count(rows, "withheld"))
            or np.any(pair_count(rows, "already_at_alert"))):
        return head + ("no window held traffic during its (incident, group) pairs "
                       f"({pairs}, all unseen: nothing to detect, no miss)")
    return head + (f"each of a window's (incident, group) pairs ({pairs} at most) was unseen (no "
                   "traffic: nothing to detect), withheld (its group had no event in the "
                   "window's evaluated span: detection not known) or already at the alert "
                   "status when it began (the window could not show it)")


def unjudged(rows: pd.DataFrame) -> str:
    """The rows of a :func:`.window_summary` that saw no (incident, group) pair, named in words
    (empty when there are none)."""
    names = [f"{window_name(r)}: no (incident, group) pair with traffic"
             + (" whose detection is known" if pair_count(r, "withheld") else "")
             + (" that began below the alert status" if pair_count(r, "already_at_alert") else "")
             for _, r in rows.iterrows()]
    return f"not judged on detection, {'; '.join(names)}" if names else ""


def detects(best: pd.Series) -> str:
    """The evidence of a chosen window: the pairs it detected, its median detection, its
    flapping and (when summed) its time alerting."""
    unseen, held = kept(best, "unseen"), kept(best, "withheld")
    already, left = kept(best, "already_at_alert"), pair_count(best, "pairs_left_out")
    more = [*([f"{unseen} more unseen: no traffic"] if unseen else []),
            *([f"{held} more withheld: 0 events evaluated"] if held else []),
            *([f"{already} more already at the alert status when they began"] if already
              else []),
            *([f"{left} more of groups left out of the sums"] if left else [])]
    seen = kept(best, "pairs") - unseen - held - already
    evidence = (f"detects {kept(best, 'detected')} of {seen} "
                "(incident, group) pairs"
                + (f" it saw ({'; '.join(more)})" if more else "")
                + f" (median {minutes(best['detection_median'])}) "
                f"with {best['transitions_per_day']:.1f} status changes per day")
    if "share_alerting" in best.index:
        evidence += f"; alerting {measured_percent(best['share_alerting'], 1)} of the time"
    return evidence
