"""Decision rules the notebooks apply, each a plain function with its evidence.

* :func:`suggest_targets`: the recommended target per group, or the one recommended outside the
  labelled incidents when that is higher (the incidents shaped the recommendation);
* :func:`window_summary` and :func:`choose_window`: flapping against detection, summed over the
  groups, and the window (and hysteresis) that flaps least among those that notice enough
  incidents;
* :func:`policy_summary` and :func:`choose_policy`: the page tiers of several alert policies
  scored against incidents, and the policy that detects enough without paging too often;
* :func:`bucket_target_verdicts`: the seed's "split timeouts from solve failures before lowering
  the SLO", as a verdict per group.

A conclusion is a :class:`~budgetlab.analyses.verdicts.Verdict` (or a table of them): the sentence
carries its figures, and it is withheld, with the reason, when the evidence is too thin.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from .._util.validation import check_fraction, require_columns
from ..errors import ConfigError
from .recalibration import Recalibration
from .verdicts import MIN_EVENTS, VERDICT_COLUMNS, Verdict, bucket_phrase

__all__ = ["suggest_targets", "window_summary", "choose_window", "policy_summary", "choose_policy",
           "bucket_target_verdicts", "PAGE_SEVERITIES"]

#: Severities that wake someone (Pyrra calls its paging tiers ``critical``).
PAGE_SEVERITIES = ("page", "critical")


def _pct(x: Any, digits: int = 1) -> str:
    return "n/a" if x is None or pd.isna(x) else f"{100 * float(x):.{digits}f} %"


def _minutes(td: Any) -> str:
    if td is None or pd.isna(td):
        return "n/a"
    m = pd.Timedelta(td).total_seconds() / 60
    if abs(m) < 90:
        return f"{m:.0f} min"
    if abs(m) < 48 * 60:
        return f"{int(m // 60)} h {int(round(m % 60)):02d} min"
    return f"{m / 1440:.1f} days"


def _group_keys(rec: Recalibration) -> list[str]:
    return list(rec.settings.get("by", []))


def suggest_targets(rec: Recalibration, without_incidents: Recalibration | None = None) -> pd.DataFrame:
    """The target to suggest per group, after a cross-check against labelled incidents.

    **Rule.** Take the recommendation of ``rec`` (all of the history). When the same rule on the
    time outside the labelled incidents (``without_incidents``, from ``recalibrate(...,
    exclude_incidents=incidents)``) recommends a *higher* target, the incidents pulled the
    recommendation down: suggest the incident-free value and let the budget absorb the
    incidents.

    Parameters
    ----------
    rec : Recalibration
        :func:`budgetlab.recalibrate` on all of the history.
    without_incidents : Recalibration, optional
        The same call with ``exclude_incidents=``; ``None`` when there are no labels.

    Returns
    -------
    DataFrame
        One row per group: group keys, ``recommended_target``, ``recommended_without_incidents``
        (NaN without labels), ``suggested_target`` (NaN when there is no recommendation) and
        ``reason`` (a sentence).

    Examples
    --------
    >>> from budgetlab import recalibrate, synth
    >>> events, _ = synth.generate("2026-10-05", 3, seed=1, rate=0.05, incidents=None, session_ids=False)
    >>> s = suggest_targets(recalibrate(events, target=0.95, n_boot=0))
    >>> bool(s.loc[0, "suggested_target"] == s.loc[0, "recommended_target"])
    True
    """
    if not isinstance(rec, Recalibration) or not (without_incidents is None
                                                  or isinstance(without_incidents, Recalibration)):
        raise ConfigError("suggest_targets() takes the Recalibration results of budgetlab.recalibrate().")
    keys = _group_keys(rec)
    s = rec.summary.reset_index(drop=True)
    clean = np.full(len(s), np.nan)
    if without_incidents is not None:
        other = without_incidents.summary
        if keys:
            left = s[keys].astype(str)
            right = other[keys].astype(str).assign(_t=other["recommended_target"].to_numpy())
            clean = left.merge(right, on=keys, how="left")["_t"].to_numpy(dtype=float)
        else:
            clean = other["recommended_target"].to_numpy(dtype=float)[:1]
    rows = []
    for i, (_, r) in enumerate(s.iterrows()):
        rc, cl = float(r["recommended_target"]), float(clean[i])
        if without_incidents is not None and np.isfinite(cl) and (not np.isfinite(rc) or cl > rc):
            use = cl
            reason = (f"the labelled incidents pull the recommendation down ({_pct(rc)} on all of the history, "
                      f"{_pct(cl)} outside them): suggest {_pct(cl)} and let the budget absorb the incidents")
        elif np.isfinite(rc):
            use = rc
            reason = ("no incident labels: the recommendation stands" if without_incidents is None else
                      f"the incidents do not move the recommendation ({_pct(cl)} outside them): keep {_pct(rc)}")
        else:
            use = np.nan
            reason = f"no recommendation: {r.get('recommendation_note', 'no candidate qualifies')}"
        row: dict[str, Any] = {k: str(r[k]) for k in keys}
        row.update(recommended_target=rc, recommended_without_incidents=cl, suggested_target=use, reason=reason)
        rows.append(row)
    return pd.DataFrame(rows, columns=[*keys, "recommended_target", "recommended_without_incidents",
                                       "suggested_target", "reason"])


_ALERT_SHARES = {"warning": ("share_warning", "share_critical", "share_exhausted"),
                 "critical": ("share_critical", "share_exhausted"), "exhausted": ("share_exhausted",)}


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
    >>> t = pd.DataFrame({"g": ["a", "b"], "window": ["1h", "1h"], "min_dwell": pd.to_timedelta([0, 0]),
    ...     "hours": [10.0, 30.0], "hours_exhausted": [1.0, 3.0], "transitions_per_day": [2.0, 4.0],
    ...     "round_trips_per_day": [0.5, 0.0], "share_critical": [0.1, 0.3], "share_exhausted": [0.1, 0.1]})
    >>> window_summary(t)[["window", "transitions_per_day", "share_exhausted", "share_alerting"]]
      window  transitions_per_day  share_exhausted  share_alerting
    0     1h                  6.0              0.1            0.35
    """
    if alert_at not in _ALERT_SHARES:
        raise ConfigError(f"alert_at must be one of {', '.join(_ALERT_SHARES)}.")
    shares = list(_ALERT_SHARES[alert_at])
    require_columns(table, ["window", "min_dwell", "hours", "hours_exhausted", "transitions_per_day",
                            "round_trips_per_day", *shares], what="the compare_windows table")
    frame = table.assign(_alert_hours=table[shares].sum(axis=1) * table["hours"])
    grouped = frame.groupby(["window", "min_dwell"], observed=True, sort=False)
    out = grouped[["transitions_per_day", "round_trips_per_day", "hours", "hours_exhausted",
                   "_alert_hours"]].sum()
    hours = out["hours"].to_numpy(dtype=float)
    out["share_exhausted"] = np.divide(out["hours_exhausted"].to_numpy(dtype=float), hours,
                                       out=np.full(len(out), np.nan), where=hours > 0)
    out["share_alerting"] = np.divide(out["_alert_hours"].to_numpy(dtype=float), hours,
                                      out=np.full(len(out), np.nan), where=hours > 0)
    out = out.drop(columns="_alert_hours")
    if incidents is not None:
        require_columns(incidents, ["window", "min_dwell", "detected", "detection", "recovered", "recovery"],
                        what="the window_incidents table")
        per = incidents.groupby(["window", "min_dwell"], observed=True, sort=False)
        extra = pd.DataFrame({"pairs": per.size(), "detected": per["detected"].sum().astype(np.int64),
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
    return f"the {row['window']} window" + (f" with {_minutes(dwell)} of hysteresis" if dwell > pd.Timedelta(0)
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
    require_columns(summary, ["window", "min_dwell", "transitions_per_day"], what="the window summary")
    if not len(summary):
        raise ConfigError("the window summary is empty; run compare_windows on at least one window.")
    if "pairs" not in summary.columns:
        best = summary.sort_values("transitions_per_day", kind="stable").iloc[0]
        name = _window_name(best)
        evidence = f"{best['transitions_per_day']:.1f} status changes per day"
        return Verdict(name, "chosen", f"By flapping alone: {name} ({evidence}).", evidence,
                       caveat="without incident labels only flapping is compared")
    ok = summary[summary["detected"] >= min_recall * summary["pairs"]]
    if not len(ok) or int(summary["pairs"].max()) == 0:
        why = f"no window reaches the alert status for {_pct(min_recall, 0)} of the (incident, group) pairs"
        return Verdict("window", None, f"No window chosen: {why}.", f"{len(summary)} windows compared",
                       withheld=why)
    best = ok.sort_values(["transitions_per_day", "detection_median"], kind="stable").iloc[0]
    name = _window_name(best)
    evidence = (f"detects {int(best['detected'])} of {int(best['pairs'])} (incident, group) pairs (median "
                f"{_minutes(best['detection_median'])}) with {best['transitions_per_day']:.1f} status changes per day")
    if "share_alerting" in best.index:
        evidence += f"; alerting {_pct(best['share_alerting'])} of the time"
    return Verdict(name, "chosen", f"By the rule: {name}: {evidence}.", evidence)


def policy_summary(scores: pd.DataFrame, *, severities: tuple[str, ...] = PAGE_SEVERITIES) -> pd.DataFrame:
    """The pages of each policy, over all groups, from :func:`budgetlab.compare_policies`.

    Parameters
    ----------
    scores : DataFrame
        Output of :func:`budgetlab.compare_policies`.
    severities : tuple of str
        Severities counted as pages (default ``page`` and Pyrra's ``critical``).

    Returns
    -------
    DataFrame
        One row per policy (index ``policy``, the scores' order): ``pages``, ``pages_per_day``,
        ``precision``, ``incidents``, ``detected``, ``recall``, ``detection_median``,
        ``false_pages_per_week`` (zeros for a policy without page tiers).

    Examples
    --------
    >>> sc = pd.DataFrame({"policy": ["a", "a"], "tier": ["*", "page_1h"], "severity": ["page", "page"],
    ...     "episodes": [3, 3], "pages_per_day": [1.0, 1.0], "precision": [2 / 3, 2 / 3], "incidents": [2, 2],
    ...     "detected": [2, 2], "recall": [1.0, 1.0], "detection_median": pd.to_timedelta(["5min"] * 2),
    ...     "false_pages_per_week": [7.0, 7.0]})
    >>> policy_summary(sc)[["pages", "recall", "false_pages_per_week"]]
            pages  recall  false_pages_per_week
    policy
    a           3     1.0                   7.0
    """
    require_columns(scores, ["policy", "tier", "severity", "episodes", "pages_per_day", "false_pages_per_week"],
                    what="the compare_policies table")
    known = {"policy", "tier", "severity", "episodes", "true_episodes", "precision", "incidents", "detected", "recall",
             "detection_median", "detection_max", "reset_median", "reset_max", "pages_per_day",
             "false_pages_per_week", "observed_days", "budget_before_alert_median", "budget_before_alert_max"}
    keys = [c for c in scores.columns if c not in known]
    top = scores[(scores["tier"].astype(str) == "*") & scores["severity"].astype(str).isin(severities)]
    for k in keys:
        top = top[top[k].astype(str) == "*"]
    top = top.drop_duplicates("policy").set_index("policy")
    order = list(dict.fromkeys(scores["policy"].astype(str)))
    top.index = top.index.astype(str)
    top = top.reindex(order)
    out = pd.DataFrame(index=pd.Index(order, name="policy"))
    out["pages"] = top["episodes"].fillna(0).astype(np.int64)
    out["pages_per_day"] = top["pages_per_day"].fillna(0.0)
    for col in ("precision", "incidents", "detected", "recall"):
        out[col] = top[col] if col in top.columns else np.nan
    out["detection_median"] = top["detection_median"] if "detection_median" in top.columns else pd.NaT
    out["false_pages_per_week"] = top["false_pages_per_week"].fillna(0.0)
    if "recall" in top.columns:
        out["recall"] = out["recall"].fillna(0.0)
        out["detected"] = out["detected"].fillna(0).astype(np.int64)
    return out


def choose_policy(summary: pd.DataFrame, *, min_recall: float = 0.8, max_false_pages_per_week: float = 2.0) -> Verdict:
    """The alert policy to page with.

    **Rule.** A policy is acceptable when its recall is at least ``min_recall`` and it sends at
    most ``max_false_pages_per_week`` pages a week that match no incident; among acceptable
    policies the fastest median detection wins. When none is acceptable the verdict is withheld
    and its sentence names the best policy on each side of the trade-off.

    Parameters
    ----------
    summary : DataFrame
        Output of :func:`policy_summary` (scored against incidents).
    min_recall : float
        Share of the incidents a policy must page for.
    max_false_pages_per_week : float
        Pages a week outside any incident that are tolerated.

    Returns
    -------
    Verdict
        ``verdict`` ``"chosen"`` (``subject`` is the policy's name) or ``None``.

    Examples
    --------
    >>> s = pd.DataFrame({"recall": [1.0, 0.9, 0.2], "false_pages_per_week": [9.0, 1.0, 0.0],
    ...     "detection_median": pd.to_timedelta(["2min", "20min", "1h"])}, index=["fast", "good", "quiet"])
    >>> choose_policy(s).subject
    'good'
    >>> choose_policy(s, min_recall=0.95).withheld
    'no policy detects 95 % of the incidents with at most 2 false pages a week'
    """
    min_recall = check_fraction("min_recall", min_recall)
    if isinstance(max_false_pages_per_week, bool) or not max_false_pages_per_week >= 0:
        raise ConfigError("max_false_pages_per_week must be a number >= 0.")
    require_columns(summary, ["recall", "false_pages_per_week", "detection_median"], what="the policy summary")
    if summary["recall"].isna().all():
        why = "the policies were not scored against incidents (no labels)"
        return Verdict("policy", None, f"No policy chosen: {why}.", f"{len(summary)} policies", withheld=why)
    recall_ok = summary["recall"] >= min_recall
    calm = summary["false_pages_per_week"] <= max_false_pages_per_week
    good = summary[recall_ok & calm]
    if len(good):
        name = str(good.sort_values("detection_median", kind="stable").index[0])
        r = summary.loc[name]
        evidence = (f"recall {_pct(r['recall'], 0)} with {r['false_pages_per_week']:.1f} false pages a week, "
                    f"median detection {_minutes(r['detection_median'])}")
        return Verdict(name, "chosen", f"By the rule: {name}: {evidence}.", evidence)
    why = (f"no policy detects {_pct(min_recall, 0)} of the incidents with at most {max_false_pages_per_week:g} "
           "false pages a week")
    sentence = f"No policy chosen: {why}."
    quiet = summary[calm & (summary["recall"] > 0)].sort_values("recall", ascending=False, kind="stable")
    loud = summary[recall_ok].sort_values("false_pages_per_week", kind="stable")
    if len(quiet):
        sentence += f" Within the false-page limit, {quiet.index[0]} detects most ({_pct(quiet['recall'].iloc[0], 0)})."
    if len(loud):
        sentence += (f" Of those that detect enough, {loud.index[0]} is the quietest "
                     f"({loud['false_pages_per_week'].iloc[0]:.1f} false pages a week).")
    return Verdict("policy", None, sentence, f"{len(summary)} policies", withheld=why)


def bucket_target_verdicts(events: pd.DataFrame, targets: pd.DataFrame, *, bucket: Any,
                           min_events: int = MIN_EVENTS) -> pd.DataFrame:
    """Before lowering a target: is it missed because of one failure bucket (the network's)?

    **Rule** (the seed's advice as a decision), per group: the success rate meets the target
    with the bucket's failures: ``keep``; it misses only because of them (without them, removed
    from good and total attempts, it meets the target): ``bucket_only``: do not lower the target,
    take those failures out of this SLO; it misses even without them: ``misses_without``:
    recalibrate the target or fix the cause. Withheld below ``min_events`` attempts.

    Parameters
    ----------
    events : DataFrame
        Canonical events with the group column of ``targets``.
    targets : DataFrame
        One group column and ``target`` (:func:`budgetlab.analyses.history.target_table`).
    bucket : str
        The failure bucket to set apart (e.g. ``"timeout"``).
    min_events : int
        Fewest attempts for a verdict.

    Returns
    -------
    DataFrame
        One row per group: the group column, ``target``, ``events``, ``failures``,
        ``bucket_failures``, ``success_rate``, ``success_rate_without`` (NaN when every attempt
        failed in the bucket), then :data:`~budgetlab.analyses.verdicts.VERDICT_COLUMNS`.

    Examples
    --------
    >>> ev = pd.DataFrame({"g": ["a"] * 100 + ["b"] * 100, "ok": [True] * 94 + [False] * 6 + [True] * 90 + [False] * 10,
    ...     "bucket": ["success"] * 94 + ["timeout"] * 6 + ["success"] * 90 + ["solve_error"] * 10})
    >>> v = bucket_target_verdicts(ev, pd.DataFrame({"g": ["a", "b"], "target": [0.95, 0.95]}), bucket="timeout")
    >>> v[["g", "success_rate", "success_rate_without", "verdict"]]
       g  success_rate  success_rate_without         verdict
    0  a          0.94                   1.0     bucket_only
    1  b          0.90                   0.9  misses_without
    """
    require_columns(targets, ["target"], what="targets")
    keys = [c for c in targets.columns if c != "target"]
    if len(keys) != 1:
        raise ConfigError("targets must have one group column and 'target' (see target_table).")
    key = keys[0]
    require_columns(events, [key, "ok", "bucket"], what="events")
    name = bucket_phrase(bucket)
    group = events[key].astype(str).to_numpy()
    ok = events["ok"].to_numpy(dtype=bool)
    in_bucket = (events["bucket"].astype(str) == str(bucket)).to_numpy() & ~ok
    rows = []
    for g, target in zip(targets[key].astype(str), targets["target"].astype(float), strict=True):
        m = group == g
        n, good, nb = int(m.sum()), int(ok[m].sum()), int(in_bucket[m].sum())
        rate = good / n if n else np.nan
        without = good / (n - nb) if n > nb else np.nan
        evidence = (f"{_pct(rate, 2)} with {name}, {_pct(without, 2)} without; {n:,} attempts, {n - good:,} failures, "
                    f"{nb:,} of them {name}")
        subject = f"target {_pct(target)} for {g}"
        withheld, code = "", None
        if n < min_events:
            withheld = f"only {n:,} attempts; a verdict needs at least {min_events:,}"
            sentence = f"No verdict on the {subject}: {withheld} ({evidence})."
        elif rate >= target:
            code = "keep"
            sentence = f"{g} meets its target {_pct(target)} even with the {name}: keep the target ({evidence})."
        elif np.isfinite(without) and without >= target:
            code = "bucket_only"
            sentence = (f"{g} misses its target {_pct(target)} only because of {name}: do not lower the target; take "
                        f"those failures out of this SLO ({evidence}).")
        else:
            code = "misses_without"
            sentence = (f"{g} misses its target {_pct(target)} even without {name}: recalibrate the target or fix "
                        f"the cause ({evidence}).")
        rows.append({key: g, "target": target, "events": n, "failures": n - good, "bucket_failures": nb,
                     "success_rate": rate, "success_rate_without": without, "subject": subject, "verdict": code,
                     "sentence": sentence, "evidence": evidence, "withheld": withheld, "caveat": ""})
    return pd.DataFrame(rows, columns=[key, "target", "events", "failures", "bucket_failures", "success_rate",
                                       "success_rate_without", *VERDICT_COLUMNS])
