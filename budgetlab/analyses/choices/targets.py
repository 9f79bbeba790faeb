"""The target to suggest per group, and whether a missed target is one failure bucket's doing."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ..._util.percent import given_percent, measured_percent
from ..._util.validation import check_whole, require_columns
from ..._util.words import counted
from ...errors import ConfigError
from ...events.schema import ROLE_COLUMNS
from ..count_verdicts import bucket_phrase
from ..recalibration import Recalibration
from ..recalibration.rules import capped_words, decided_miss, too_few_events
from ..recalibration.verdict import WITHHELD
from ..verdicts import VERDICT_COLUMNS
from .afford import GroupHistory, group_history, highest_afforded, whole_history_problems

__all__ = ["suggest_targets", "bucket_target_verdicts"]


def _group_rows(frame: pd.DataFrame, row: pd.Series, keys: list[str]) -> pd.DataFrame:
    """The rows of ``frame`` (a result's candidates) of the group of summary ``row``."""
    m = np.ones(len(frame), dtype=bool)
    for k in keys:
        m &= (frame[k].astype(str) == str(row[k])).to_numpy()
    return frame[m]


def _incident_free(h: GroupHistory, rc: float, cl: float) -> tuple[float, str]:
    """The incident-free target ``cl`` (above the recommendation ``rc`` on all of the history)
    when all of the history affords it, else the highest target that does, with the reason."""
    # without a recommendation on all of the history nothing was pulled down: said in words
    pulled = (f"the labelled incidents pull the recommendation down ({given_percent(rc)} "
              f"on all of the history, {given_percent(cl)} outside them)" if np.isfinite(rc) else
              "no target meets the rule on all of the history; outside the labelled "
              f"incidents {given_percent(cl)} does")
    problems = whole_history_problems(h, cl)
    if not problems:
        return cl, (f"{pulled}, and all of the history affords {given_percent(cl)} "
                    f"({h.budget_words(cl)}): suggest it and let the budget absorb the incidents")
    why = (f"{pulled}, but all of the history does not afford {given_percent(cl)}: "
           + "; ".join(problems))
    if not np.isfinite(rc):
        use = highest_afforded(h, np.inf)
        return use, f"{why}; no recommendation on all of the history to keep{_fallback(use)}"
    return _checked(h, rc, why, f"; keep the recommendation {given_percent(rc)}", against="; nor")


def _checked(h: GroupHistory, target: float, head: str, stands: str, *,
             against: str = ", but all of the history cannot afford") -> tuple[float, str]:
    """``target`` with the reason ``head + stands`` when all of the history affords its budget,
    else the highest candidate below it that does (NaN when none does), saying why."""
    if h.affords(target):
        return target, head + stands
    use = highest_afforded(h, target)
    return use, (f"{head}{against} {given_percent(target)}: {h.budget_words(target)}"
                 + _fallback(use))


def _fallback(use: float) -> str:
    """The end of a reason: the highest candidate all of the history affords, or that none does."""
    if np.isfinite(use):
        return f"; suggest {given_percent(use)}, the highest candidate it affords"
    return "; no candidate is afforded: no suggestion"


def _beside_verdict(r: pd.Series, use: float) -> str:
    """Where the verdict on the current target keeps it (``ok``) although the suggestion is
    another target, the words that say the two answer different questions; else empty."""
    cur = float(r.get("current_target", np.nan))
    if (str(r.get("verdict")) != "ok" or not np.isfinite(cur) or not np.isfinite(use)
            or given_percent(cur) == given_percent(use)):
        return ""
    return (f" (the rule's target, not a verdict: the verdict on the current target keeps "
            f"{given_percent(cur)}, and target_verdicts says why)")


def _capped(r: pd.Series, rc: float, use: float) -> str:
    """Where the suggestion is a recommendation the evidence capped (``recommended_capped``: the
    rule alone gives more than the group's events can judge), the words that say so: the figure
    is the highest target they can judge, not the service's level; else empty."""
    if not (bool(r.get("recommended_capped", False)) and np.isfinite(use) and use == rc):
        return ""
    return f" ({capped_words(int(r['events']))}, not the service's level)"


def suggest_targets(rec: Recalibration,
                    without_incidents: Recalibration | None = None) -> pd.DataFrame:
    """The target to suggest per group, after a cross-check against labelled incidents.

    **Rule.** Take the recommendation of ``rec`` (all of the history). When the same rule on the
    time outside the labelled incidents (``without_incidents``, from ``recalibrate(...,
    exclude_incidents=incidents)``) recommends a *higher* target, the incidents pulled the
    recommendation down: suggest the incident-free value and let the budget absorb the incidents,
    but only when all of the history affords it: its failures fit the target's budget over all
    of its evaluated events (``failures <= (1 - target) * events``, the summary's counts of
    ``rec``) and the target would have been at ``limit_status`` or worse at most ``max_share`` of
    all of the history's time (read from ``rec.candidates``: exactly when it is one of them, else
    at least as much as a lower candidate that exceeds the limit; not known, and so not
    suggested, when neither tells). Otherwise the reason says why not, with the figures, and the
    recommendation on all of the history is kept. Whatever is suggested passes the budget check:
    a kept recommendation whose budget the history's failures overspend gives way to the highest
    candidate of ``rec`` that both checks pass (NaN, said, when none does). The suggestion is
    the rule's target, not a verdict on the current one: where :func:`budgetlab.target_verdicts`
    keeps a current target (``ok``: its evidence does not call for a change) and another target
    is suggested, the reason says both (``keep the recommendation 98 % (the rule's target, not a
    verdict: the verdict on the current target keeps 99 %, ...)``). A suggestion the evidence
    capped (``recommended_capped``) says so in its reason (``... the recommendation stands
    (capped: as high as 28 events can judge, not the service's level)``): the cap is
    deliberate (no target above ``1 - 10 / events``), never a target without its words.

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
        (NaN without labels), ``suggested_target`` (NaN when there is no recommendation, or no
        candidate all of the history affords) and ``reason`` (a sentence, with the figures).

    Examples
    --------
    >>> from budgetlab import recalibrate, synth
    >>> events, _ = synth.generate("2026-10-05", 3, seed=1, rate=0.05, incidents=None,
    ...                            session_ids=False)
    >>> s = suggest_targets(recalibrate(events, target=0.95, n_boot=0))
    >>> bool(s.loc[0, "suggested_target"] == s.loc[0, "recommended_target"])
    True
    """
    if not isinstance(rec, Recalibration) or not (without_incidents is None
                                                  or isinstance(without_incidents, Recalibration)):
        raise ConfigError("suggest_targets() takes the Recalibration results of "
                          "budgetlab.recalibrate().")
    keys = list(rec.settings.get("by", []))
    s = rec.summary.reset_index(drop=True)
    missing = [c for c in ("events", "failures") if c not in s.columns]
    if missing or "target" not in rec.candidates.columns:
        raise ConfigError("suggest_targets() checks a target against all of the history: it needs "
                          "the summary's events and failures and the candidates' targets, which "
                          "budgetlab.recalibrate() gives.")
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
        h = group_history(r, _group_rows(rec.candidates, r, keys), rec.settings)
        if without_incidents is not None and np.isfinite(cl) and (not np.isfinite(rc) or cl > rc):
            use, reason = _incident_free(h, rc, cl)
        elif np.isfinite(rc):
            use, reason = (_checked(h, rc, "no incident labels", ": the recommendation stands")
                           if without_incidents is None else
                           _checked(h, rc, "the incidents do not move the recommendation "
                                    f"({given_percent(cl)} outside them)",
                                    f": keep the recommendation {given_percent(rc)}"))
        else:
            use = np.nan
            reason = f"no recommendation: {r.get('recommendation_note', 'no candidate qualifies')}"
        row: dict[str, Any] = {k: str(r[k]) for k in keys}
        row.update(recommended_target=rc, recommended_without_incidents=cl, suggested_target=use,
                   reason=reason + _capped(r, rc, use) + _beside_verdict(r, use))
        rows.append(row)
    return pd.DataFrame(rows, columns=[*keys, "recommended_target", "recommended_without_incidents",
                                       "suggested_target", "reason"])


def bucket_target_verdicts(events: pd.DataFrame, targets: pd.DataFrame, *, bucket: Any,
                           min_events: int = 0) -> pd.DataFrame:
    """Before lowering a target: is it missed because of one failure bucket (the network's)?

    **Rule** (the seed's advice as a decision), per group: the success rate meets the target
    with the bucket's failures: ``keep``; it misses only because of them (without them, removed
    from good and total attempts, it meets the target): ``bucket_only``: do not lower the target,
    take those failures out of this SLO; it misses even without them: ``misses_without``:
    recalibrate the target or fix the cause. Withheld (``"withheld"``, the reason in words in
    ``withheld``, as :func:`budgetlab.target_verdicts` says it) when the group's attempts are
    too thin for a verdict by the package's rule for every figure judged against a target
    (:func:`~budgetlab.analyses.recalibration.rules.too_few_events`, the rule of
    :func:`budgetlab.bucket_breakdown`'s ``note``: fewer attempts than hold 10 expected failures
    under its target, e.g. 200 at 95 %), or below ``min_events`` attempts when given; unless the
    failures decide a miss with and without the bucket all the same
    (:func:`~budgetlab.analyses.recalibration.rules.decided_miss`): ``misses_without``.

    Parameters
    ----------
    events : DataFrame
        Canonical events with the group column of ``targets``.
    targets : DataFrame
        One group column and ``target`` (:func:`budgetlab.analyses.history.target_table`).
    bucket : str
        The failure bucket to set apart (e.g. ``"timeout"``).
    min_events : int
        Fewest attempts for a verdict, on top of the rule (default 0: the rule alone); a whole
        number >= 0, else :class:`~budgetlab.errors.ConfigError`.

    Returns
    -------
    DataFrame
        One row per group: the group column, ``target``, ``events``, ``failures``,
        ``bucket_failures``, ``success_rate``, ``success_rate_without`` (NaN when every attempt
        failed in the bucket), then :data:`~budgetlab.analyses.verdicts.VERDICT_COLUMNS`.

    Examples
    --------
    >>> ev = pd.DataFrame({"g": ["a"] * 200 + ["b"] * 200 + ["c"] * 100,
    ...     "ok": [True] * 188 + [False] * 12 + [True] * 180 + [False] * 20 + [True] * 94
    ...           + [False] * 6,
    ...     "bucket": ["success"] * 188 + ["timeout"] * 12 + ["success"] * 180
    ...               + ["solve_error"] * 20 + ["success"] * 94 + ["timeout"] * 6})
    >>> v = bucket_target_verdicts(ev, pd.DataFrame({"g": ["a", "b", "c"], "target": [0.95] * 3}),
    ...                            bucket="timeout")
    >>> v[["g", "success_rate", "success_rate_without", "verdict"]]
       g  success_rate  success_rate_without         verdict
    0  a          0.94                   1.0     bucket_only
    1  b          0.90                   0.9  misses_without
    2  c          0.94                   1.0        withheld
    >>> v.loc[2, "withheld"]  # 100 attempts hold 5 expected failures under 95 %
    '100 events in the group: too few for a verdict (under 95 % they hold 5 expected failures; one
    needs at least 10, i.e. 200 events)'
    """
    min_events = check_whole("min_events", min_events)
    require_columns(targets, ["target"], what="targets")
    keys = [c for c in targets.columns if c != "target"]
    if len(keys) != 1:
        raise ConfigError("targets must have one group column and 'target' (see target_table).")
    key = keys[0]
    require_columns(events, [key, "ok", "bucket"], what="events", roles=ROLE_COLUMNS)
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
        evidence = _evidence(rate, without, n, n - good, nb, bucket)
        even = f" even without {name}" if nb else ""  # none in the group: said once, in evidence
        subject = f"target {given_percent(target)} for {g}"
        code = WITHHELD
        withheld = too_few_events(n, target, span="the group") or (
            f"only {counted(n, 'attempt')}; a verdict needs at least {min_events:,}"
            if n < min_events
            else "")
        # few attempts, but their failures decide a miss with and without the bucket
        missed = decided_miss(n, n - good, target) and decided_miss(n - nb, n - nb - good, target)
        if missed and n >= min_events:
            code = "misses_without"
            sentence = (f"{g} misses its target {given_percent(target)}{even}: "
                        f"{missed}; recalibrate the target or fix the cause ({evidence}).")
            withheld = ""
        elif withheld:
            sentence = f"No verdict on the {subject}: {withheld} ({evidence})."
        elif rate >= target:
            code = "keep"
            sentence = (f"{g} meets its target {given_percent(target)}"
                        f"{f' even with the {name}' if nb else ''}: keep the target ({evidence}).")
        elif np.isfinite(without) and without >= target:
            code = "bucket_only"
            sentence = (f"{g} misses its target {given_percent(target)} only because of {name}: do "
                        f"not lower the target; take those failures out of this SLO ({evidence}).")
        else:
            code = "misses_without"
            sentence = (f"{g} misses its target {given_percent(target)}{even}: "
                        f"recalibrate the target or fix the cause ({evidence}).")
        rows.append({key: g, "target": target, "events": n, "failures": n - good,
                     "bucket_failures": nb,
                     "success_rate": rate, "success_rate_without": without, "subject": subject,
                     "verdict": code,
                     "sentence": sentence, "evidence": evidence, "withheld": withheld,
                     "caveat": ""})
    return pd.DataFrame(rows, columns=[key, "target", "events", "failures", "bucket_failures",
                                       "success_rate",
                                       "success_rate_without", *VERDICT_COLUMNS])


def _evidence(rate: float, without: float, n: int, failures: int, nb: int, bucket: str) -> str:
    """A group's figures for :func:`bucket_target_verdicts`' sentences: its success rates with and
    without the ``bucket``'s ``nb`` failures; a group with none of them says so once (one rate,
    ``none of them timeout failures``), never "with timeout failures ... 0 timeout failures".

    >>> _evidence(0.98, 0.98, 100, 2, 0, "timeout")
    '98.00 %; 100 attempts, 2 failures, none of them timeout failures'
    >>> _evidence(0.0, float("nan"), 1, 1, 0, "timeout")
    '0.00 %; 1 attempt, 1 failure, not a timeout failure'
    """
    name = bucket_phrase(bucket)
    counts = f"{counted(n, 'attempt')}, {counted(failures, 'failure')}"
    if nb:
        return (f"{measured_percent(rate)} with {name}, {measured_percent(without)} without; "
                f"{counts}, {counted(nb, f'{bucket} failure')}")
    none = ("" if not failures else f", not a {bucket} failure" if failures == 1
            else f", none of them {name}")
    return f"{measured_percent(rate)}; {counts}{none}"
