"""The tracker window (and hysteresis) to use: flapping against detection, summed over the
groups."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..._util.ratios import ratio
from ..._util.validation import check_fraction, require_columns
from ...errors import ConfigError
from ..verdicts import Verdict, minutes, percent

__all__ = ["window_summary", "choose_window"]

_ALERT_SHARES = {"warning": ("share_warning", "share_critical", "share_exhausted"),
                 "critical": ("share_critical", "share_exhausted"), "exhausted": ("share_exhausted",
                                                                                  )}


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
        ``share_alerting`` (time at ``alert_at`` or worse, weighted by each group's hours). With
        ``incidents``: ``pairs``, ``detected``, ``detection_median``, ``recovery_median`` (over
        the pairs) and ``unrecovered``.

    Examples
    --------
    >>> t = pd.DataFrame({"g": ["a", "b"], "window": ["1h", "1h"],
    ...     "min_dwell": pd.to_timedelta([0, 0]), "hours": [10.0, 30.0],
    ...     "hours_exhausted": [1.0, 3.0], "transitions_per_day": [2.0, 4.0],
    ...     "round_trips_per_day": [0.5, 0.0], "share_critical": [0.1, 0.3],
    ...     "share_exhausted": [0.1, 0.1]})
    >>> window_summary(t)[["window", "transitions_per_day", "share_exhausted", "share_alerting"]]
      window  transitions_per_day  share_exhausted  share_alerting
    0     1h                  6.0              0.1            0.35
    """
    if alert_at not in _ALERT_SHARES:
        raise ConfigError(f"alert_at must be one of {', '.join(_ALERT_SHARES)}.")
    shares = list(_ALERT_SHARES[alert_at])
    require_columns(table, ["window", "min_dwell", "hours", "hours_exhausted",
                            "transitions_per_day",
                            "round_trips_per_day", *shares], what="the compare_windows table")
    frame = table.assign(_alert_hours=table[shares].sum(axis=1) * table["hours"])
    grouped = frame.groupby(["window", "min_dwell"], observed=True, sort=False)
    out = grouped[["transitions_per_day", "round_trips_per_day", "hours", "hours_exhausted",
                   "_alert_hours"]].sum()
    hours = out["hours"].to_numpy(dtype=float)
    out["share_exhausted"] = ratio(out["hours_exhausted"], hours)
    out["share_alerting"] = ratio(out["_alert_hours"], hours)
    out = out.drop(columns="_alert_hours")
    if incidents is not None:
        require_columns(incidents, ["window", "min_dwell", "detected", "detection", "recovered",
                                    "recovery"],
                        what="the window_incidents table")
        per = incidents.groupby(["window", "min_dwell"], observed=True, sort=False)
        extra = pd.DataFrame({"pairs": per.size(),
                              "detected": per["detected"].sum().astype(np.int64),
                              "detection_median": per["detection"].median(),
                              "recovery_median": per["recovery"].median(),
                              "unrecovered": per["recovered"].size() - per["recovered"].sum()})
        out = out.join(extra, how="left")
        out["pairs"] = out["pairs"].fillna(0).astype(np.int64)
        out["detected"] = out["detected"].fillna(0).astype(np.int64)
        out["unrecovered"] = out["unrecovered"].fillna(0).astype(np.int64)
    out = out.reset_index()
    out["window"] = out["window"].astype(str)
    return out


def _window_name(row: pd.Series) -> str:
    dwell = pd.Timedelta(row["min_dwell"])
    return (f"the {row['window']} window") + (f" with {minutes(dwell)} of "
                                            "hysteresis" if dwell > pd.Timedelta(0)
                                            else "")


def choose_window(summary: pd.DataFrame, *, min_recall: float = 0.8) -> Verdict:
    """The window (and dwell time) to use.

    **Rule.** Among the windows and dwell times that reached the alert status for at least
    ``min_recall`` of the (incident, group) pairs, the one with the fewest status changes per day
    (ties: the faster median detection). Without incident columns only flapping is compared
    (the verdict says so in its caveat). Withheld when no window detects enough.

    Parameters
    ----------
    summary : DataFrame
        Output of :func:`window_summary`.
    min_recall : float
        Share of the pairs a window must detect.

    Returns
    -------
    Verdict
        ``verdict`` ``"chosen"`` (``subject`` names the window) or ``None`` when withheld.

    Examples
    --------
    >>> s = pd.DataFrame({"window": ["1h", "24h"], "min_dwell": pd.to_timedelta([0, 0]),
    ...     "transitions_per_day": [30.0, 2.0], "share_alerting": [0.05, 0.2], "pairs": [10, 10],
    ...     "detected": [10, 9], "detection_median": pd.to_timedelta(["5min", "40min"])})
    >>> choose_window(s).subject
    'the 24h window'
    >>> choose_window(s, min_recall=0.95).subject
    'the 1h window'
    """
    min_recall = check_fraction("min_recall", min_recall)
    require_columns(summary, ["window", "min_dwell", "transitions_per_day"],
                    what="the window summary")
    if not len(summary):
        raise ConfigError("the window summary is empty; run compare_windows on at least one "
                          "window.")
    if "pairs" not in summary.columns:
        best = summary.sort_values("transitions_per_day", kind="stable").iloc[0]
        name = _window_name(best)
        evidence = f"{best['transitions_per_day']:.1f} status changes per day"
        return Verdict(name, "chosen", f"By flapping alone: {name} ({evidence}).", evidence,
                       caveat="without incident labels only flapping is compared")
    ok = summary[summary["detected"] >= min_recall * summary["pairs"]]
    if not len(ok) or int(summary["pairs"].max()) == 0:
        why = (f"no window reaches the alert status for {percent(min_recall, 0)} of the (incident, "
               "group) pairs")
        return Verdict("window", None, f"No window chosen: {why}.",
                       f"{len(summary)} windows compared",
                       withheld=why)
    best = ok.sort_values(["transitions_per_day", "detection_median"], kind="stable").iloc[0]
    name = _window_name(best)
    evidence = (f"detects {int(best['detected'])} of {int(best['pairs'])} (incident, group) pairs "
                f"(median {minutes(best['detection_median'])}) "
                f"with {best['transitions_per_day']:.1f} status changes per day")
    if "share_alerting" in best.index:
        evidence += f"; alerting {percent(best['share_alerting'], 1)} of the time"
    return Verdict(name, "chosen", f"By the rule: {name}: {evidence}.", evidence)
