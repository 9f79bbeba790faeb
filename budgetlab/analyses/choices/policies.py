"""The alert policy to page with: the page tiers of several policies scored against incidents.

**Withheld rates are not judged.** A score row over less than a day of observed time has its
``alerts_per_day`` and ``false_alerts_per_week`` withheld (NaN, its ``rates_note`` says why:
:func:`budgetlab.score_alerts`); on the page rows read here they are pages.
:func:`policy_summary` keeps them NaN (a withheld rate is not 0 pages a day; only a policy
without page tiers pages 0 times) and carries the note;
:func:`choose_policy` judges only the policies whose false pages a week are known, names the
others in its caveat, and withholds its choice when none is known.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd

from ..._util.percent import given_percent, measured_percent
from ..._util.validation import check_fraction, require_columns
from ..._util.words import counted, counted_of
from ...alerts.tier import PAGE_SEVERITIES
from ...errors import ConfigError
from ..verdicts import Verdict, minutes

__all__ = ["policy_summary", "choose_policy"]

#: The most groups too thin for a verdict named in :func:`choose_policy`'s words.
MOST_NAMED = 4


def policy_summary(
    scores: pd.DataFrame, *, severities: tuple[str, ...] = PAGE_SEVERITIES
) -> pd.DataFrame:
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
        One row per policy (index ``policy``, the scores' order): ``pages``, ``false_pages``
        (of them, those that matched no incident; scores without ``true_episodes``: none),
        ``pages_per_day``,
        ``precision``, ``incidents``, ``detected``, ``unseen``, ``already_firing`` (began while
        a page already fired: neither detected nor missed, :func:`budgetlab.score_alerts`),
        ``recall`` (over ``incidents - unseen - already_firing``; NaN when every incident was
        unseen, no traffic to detect it by, :mod:`budgetlab.alerts.unseen`, or already paged on;
        a policy without page tiers: 0), ``detection_median``,
        ``false_pages_per_week`` (zeros for a policy without page tiers; NaN where the scores
        withheld them, under a day of observed time) and ``rates_note`` (why they are withheld;
        empty when they are given). Scores of :func:`~.policy_thin.judged_policy_scores`
        bring their ``attrs["groups_without_verdict"]`` and ``["groups_with_verdict"]``, and
        when a group was left out, the pages of the groups left out: ``pages_left_out`` and
        ``false_pages_left_out`` (not in ``pages``: said apart, never summed with them).

    Examples
    --------
    >>> sc = pd.DataFrame({"policy": ["a", "a"], "tier": ["*", "page_1h"],
    ...     "severity": ["page", "page"], "episodes": [3, 3], "alerts_per_day": [1.0, 1.0],
    ...     "precision": [2 / 3, 2 / 3], "incidents": [2, 2], "detected": [2, 2],
    ...     "recall": [1.0, 1.0], "detection_median": pd.to_timedelta(["5min"] * 2),
    ...     "false_alerts_per_week": [7.0, 7.0]})
    >>> policy_summary(sc)[["pages", "recall", "false_pages_per_week"]]
            pages  recall  false_pages_per_week
    policy
    a           3     1.0                   7.0
    """
    require_columns(scores, ["policy", "tier", "severity", "episodes", "alerts_per_day",
                             "false_alerts_per_week"],
                    what="the compare_policies table")
    known = {"policy", "tier", "severity", "episodes", "true_episodes", "precision", "incidents",
             "episodes_filling", "true_episodes_filling", "incidents_filling",
             "detected", "unseen", "already_firing", "recall",
             "detection_median", "detection_max", "reset_median", "reset_max", "alerts_per_day",
             "false_alerts_per_week", "observed_days", "rates_note", "budget_before_alert_median",
             "budget_before_alert_max"}
    keys = [c for c in scores.columns if c not in known]
    top = scores[
        (scores["tier"].astype(str) == "*") & scores["severity"].astype(str).isin(severities)
    ]
    for k in keys:
        top = top[top[k].astype(str) == "*"]
    top = top.drop_duplicates("policy").set_index("policy")
    order = list(dict.fromkeys(scores["policy"].astype(str)))
    top.index = top.index.astype(str)
    top = top.reindex(order)
    out = pd.DataFrame(index=pd.Index(order, name="policy"))
    # a policy without page tiers has no row here: it sends 0 pages; a row's NaN rate is withheld
    no_pages = top["episodes"].isna()
    out["pages"] = top["episodes"].fillna(0).astype(np.int64)
    if "true_episodes" in top.columns:  # scored against incidents: the pages that matched none
        out["false_pages"] = (out["pages"] - top["true_episodes"].fillna(0)).astype(np.int64)
    out["pages_per_day"] = top["alerts_per_day"].mask(no_pages, 0.0)  # page rows: pages
    for col in ("precision", "incidents", "detected", "unseen", "already_firing", "recall"):
        out[col] = top[col] if col in top.columns else np.nan
    out["detection_median"] = (
        top["detection_median"] if "detection_median" in top.columns else pd.NaT
    )
    out["false_pages_per_week"] = top["false_alerts_per_week"].mask(no_pages, 0.0)
    out["rates_note"] = top["rates_note"].fillna("") if "rates_note" in top.columns else ""
    if "recall" in top.columns:  # withheld (NaN) where every incident was unseen or already
        # paged on when it began: no verdict (a policy without page tiers: 0)
        apart = out["unseen"].fillna(0) + (out["already_firing"].fillna(0)
                                           if "already_firing" in top.columns else 0)
        none_counted = (apart > 0) & (apart == out["incidents"])
        out["recall"] = out["recall"].mask(out["recall"].isna() & ~none_counted, 0.0)
        for col in ("detected", "unseen", "already_firing"):
            out[col] = out[col].fillna(0).astype(np.int64)
    return _left_out(out, scores)


def _left_out(out: pd.DataFrame, scores: pd.DataFrame) -> pd.DataFrame:
    """``out`` with the thin groups' pages of :func:`~.policy_thin.judged_policy_scores`
    (``scores.attrs``): columns ``pages_left_out`` and ``false_pages_left_out`` when a group
    was left out, and ``attrs["groups_without_verdict"]``/``["groups_with_verdict"]``."""
    left = scores.attrs.get("groups_without_verdict")
    if left is None:
        return out
    out.attrs["groups_without_verdict"] = dict(left)
    out.attrs["groups_with_verdict"] = int(scores.attrs["groups_with_verdict"])
    if left and out.attrs["groups_with_verdict"]:
        pages = scores.attrs.get("left_out_pages") or {}
        out["pages_left_out"] = [int(pages.get(p, (0, 0))[0]) for p in out.index]
        out["false_pages_left_out"] = [int(pages.get(p, (0, 0))[1]) for p in out.index]
    return out


def choose_policy(summary: pd.DataFrame, *, min_recall: float = 0.8,
                  max_false_pages_per_week: float = 2.0) -> Verdict:
    """The alert policy to page with.

    **Rule.** A policy is acceptable when its recall is at least ``min_recall`` and it sends at
    most ``max_false_pages_per_week`` pages a week that match no incident; among acceptable
    policies the fastest median detection wins. When none is acceptable the verdict is withheld
    and its sentence names the best policy on each side of the trade-off. A policy whose false
    pages a week are withheld (NaN: under a day of observed time, its ``rates_note``) is not
    judged and is named in the caveat, and so is one whose recall is withheld (NaN: every
    incident unseen, :mod:`budgetlab.alerts.unseen`); with none judged the verdict is withheld.
    A summary of :func:`~.policy_thin.judged_policy_scores` is decided on the groups with a
    verdict: the caveat names the groups too thin for one, with why, and how many of each
    policy's pages (and false pages) came from them, left out of the choice; when every group
    is too thin the verdict is withheld.

    Parameters
    ----------
    summary : DataFrame
        Output of :func:`policy_summary` (scored against incidents); the scores of
        :func:`budgetlab.compare_policies` themselves (a row per policy and tier) are refused
        (:class:`~budgetlab.errors.ConfigError`), naming ``policy_summary``.
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
    ...     "detection_median": pd.to_timedelta(["2min", "20min", "1h"])},
    ...     index=["fast", "good", "quiet"])
    >>> choose_policy(s).subject
    'good'
    >>> choose_policy(s, min_recall=0.95).withheld
    'no policy detects 95 % of the incidents with at most 2 false pages a week'
    >>> v = choose_policy(s.assign(false_pages_per_week=[9.0, np.nan, 0.0]))
    >>> v.subject, v.caveat
    ('policy', 'not judged, good: false pages a week withheld')
    """
    min_recall = check_fraction("min_recall", min_recall)
    if isinstance(max_false_pages_per_week, bool) or not max_false_pages_per_week >= 0:
        raise ConfigError("max_false_pages_per_week must be a number >= 0.")
    if isinstance(summary, pd.DataFrame) and {"policy", "tier"} & set(summary.columns):
        raise ConfigError(
            "choose_policy() takes the table policy_summary() returns (one row per policy, named "
            "by its index); this one has a 'policy' or 'tier' column, as compare_policies()' "
            "scores have: pass policy_summary(scores) (from budgetlab.analyses.choices).")
    require_columns(summary, ["recall", "false_pages_per_week", "detection_median"],
                    what="the policy summary")
    left = summary.attrs.get("groups_without_verdict") or {}
    if left and not summary.attrs.get("groups_with_verdict"):
        why = (f"every group is too thin for a verdict ({thin_named(left)}): their pages are "
               "no evidence for a policy")
        return Verdict("policy", None, f"No policy chosen: {why}.", f"{len(summary)} policies",
                       withheld=why)
    verdict = _choose(summary, min_recall, max_false_pages_per_week)
    said = _left_out_words(summary)
    if said:
        verdict = replace(verdict, caveat="; ".join(x for x in (said, verdict.caveat) if x))
    return verdict


def _choose(summary: pd.DataFrame, min_recall: float,
            max_false_pages_per_week: float) -> Verdict:
    """:func:`choose_policy`'s rule on the groups of ``summary`` (checked)."""
    if summary["recall"].isna().all():
        unseen = "unseen" in summary.columns and bool((summary["unseen"] > 0).any())
        already = ("already_firing" in summary.columns
                   and bool((summary["already_firing"] > 0).any()))
        why = ("every incident was unseen by every policy (no traffic to detect it by), so no "
               "recall is known" if unseen and not already
               else f"every incident was {_apart_words(unseen, already)} for every policy, so "
               "no recall is known" if already
               else "the policies were not scored against incidents (no labels)")
        return Verdict("policy", None, f"No policy chosen: {why}.", f"{len(summary)} policies",
                       withheld=why)
    judged = summary[summary["false_pages_per_week"].notna() & summary["recall"].notna()]
    caveat = _unjudged(summary[summary["false_pages_per_week"].isna()
                               | summary["recall"].isna()])
    if not len(judged):
        why = (f"no policy's false pages a week are known ({caveat})"
               if summary["recall"].notna().any() else f"no policy could be judged ({caveat})")
        return Verdict("policy", None, f"No policy chosen: {why}.", f"{len(summary)} policies",
                       withheld=why)
    recall_ok = judged["recall"] >= min_recall
    calm = judged["false_pages_per_week"] <= max_false_pages_per_week
    good = judged[recall_ok & calm]
    if len(good):
        name = str(good.sort_values("detection_median", kind="stable").index[0])
        r = judged.loc[name]
        evidence = (f"recall {measured_percent(r['recall'], 0)} with "
                    f"{r['false_pages_per_week']:.1f} false pages a week, median detection "
                    f"{minutes(r['detection_median'])}")
        return Verdict(name, "chosen", f"By the rule: {name}: {evidence}.", evidence,
                       caveat=caveat)
    why = (f"no policy detects {given_percent(min_recall)} of the incidents with at "
           f"most {max_false_pages_per_week:g} false pages a week")
    why += f" among those judged ({caveat})" if caveat else ""
    sentence = f"No policy chosen: {why}."
    quiet = judged[calm & (judged["recall"] > 0)].sort_values("recall", ascending=False,
                                                              kind="stable")
    loud = judged[recall_ok].sort_values("false_pages_per_week", kind="stable")
    if len(quiet):
        sentence += (f" Within the false-page limit, {quiet.index[0]} detects most "
                     f"({measured_percent(quiet['recall'].iloc[0], 0)}).")
    if len(loud):
        sentence += (f" Of those that detect enough, {loud.index[0]} is the quietest "
                     f"({loud['false_pages_per_week'].iloc[0]:.1f} false pages a week).")
    return Verdict("policy", None, sentence, f"{len(summary)} policies", withheld=why,
                   caveat=caveat)


def thin_named(groups: dict[str, str]) -> str:
    """The groups too thin for a verdict, each with why (the first :data:`MOST_NAMED`)."""
    said = [f"{g} ({why})" for g, why in list(groups.items())[:MOST_NAMED]]
    more = len(groups) - len(said)
    return ", ".join(said) + (f" and {counted(more, 'more group')}" if more else "")


def _left_out_words(summary: pd.DataFrame) -> str:
    """What :func:`choose_policy` decided without: the groups too thin for a verdict, named
    with why, and how many of each policy's pages came from them; empty when none was."""
    left = summary.attrs.get("groups_without_verdict") or {}
    if not left:
        return ""
    said = []
    if "pages_left_out" in summary.columns:
        for name, r in summary.iterrows():
            p, f = int(r["pages_left_out"]), int(r["false_pages_left_out"])
            if p:
                said.append(f"{counted_of(p, p + int(r['pages']), 'page')} of {name}"
                            + (f" ({counted_of(f, f + int(r['false_pages']), 'false page')})"
                               if "false_pages" in r.index else ""))
    who = "it" if len(left) == 1 else "them"
    pages = f"from {who} came {', '.join(said)}" if said else f"no page came from {who}"
    return (f"decided on the {counted(int(summary.attrs['groups_with_verdict']), 'group')} "
            f"with a verdict; left out of the choice, too thin for a verdict: "
            f"{thin_named(left)}; {pages}")


def _apart_words(unseen: bool, already: bool) -> str:
    """Why no incident counts for recall: unseen (no traffic), already paged on when it began
    (the page was not caused by it: ``already_firing``), or either."""
    words = [*(["unseen (no traffic to detect it by)"] if unseen else []),
             *(["already paged on when it began (not caused by it)"] if already else [])]
    return " or ".join(words)


def _unjudged(rows: pd.DataFrame) -> str:
    """The policies of a :func:`policy_summary` whose false pages a week are withheld, named with
    why (their ``rates_note``), or whose recall is (every incident unseen or already paged on
    when it began), in words; empty when there are none."""
    if not len(rows):
        return ""
    notes = rows["rates_note"] if "rates_note" in rows.columns else pd.Series("", rows.index)
    zero = pd.Series(0, index=rows.index)
    unseen, already = (rows.get(c, zero) > 0 for c in ("unseen", "already_firing"))
    names = [f"{name}: recall withheld, every incident {_apart_words(u or not a, a)}"
             if pd.isna(recall) else f"{name}: false pages a week withheld"
             + (f", {str(note).removeprefix('withheld: ')}" if note else "")
             for (name, note), recall, u, a in zip(notes.items(), rows["recall"], unseen,
                                                   already, strict=True)]
    return f"not judged, {'; '.join(names)}"
