"""Verdicts with their evidence: every sentence that concludes carries the figures behind it, and is
withheld, with the reason, when those figures are too thin.

Three kinds of conclusion an analyst acts on, each a plain function returning :class:`Verdict`
objects (or a table of them, :func:`verdicts_table`), used by the notebooks and the CLI:

* :func:`target_verdicts`: is the current target too strict, too loose or about right, and what
  to recommend (from :func:`budgetlab.recalibrate`). Withheld, in words, by the package's rule
  for a figure judged against a target (fewer events than hold 10 expected failures under it:
  200 at 95 %), and below ``min_events`` events when given; a history shorter than ``min_days``
  (14) gets a caveat.
* :func:`~budgetlab.analyses.count_verdicts.page_verdict`: was a page (waking the team)
  justified? Only when the **lower** bound of the burn rate's interval (Wilson interval of the
  window's failure ratio, divided by the error budget) lies above the threshold; "not
  justified" only when the upper bound lies at or below it; otherwise withheld: the window held
  too few events to tell.
* :func:`~budgetlab.analyses.count_verdicts.cause_verdict`: did a failure bucket alone cause
  the alerts or status changes? The bucket is named from the data; withheld when there was
  nothing to attribute.

The minimums are stated in each verdict's ``withheld`` reason, so a reader sees why a sentence is
missing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np
import pandas as pd

from .._util.percent import given_percent, measured_percent, share_percent
from .._util.validation import check_number, check_whole
from .._util.words import counted, duration_words
from ..errors import ConfigError
from .recalibration import Recalibration
from .recalibration.evidence import MIN_HISTORY_DAYS, history_words
from .recalibration.tables import group_words
from .recalibration.verdict import WITHHELD, silence_aside, verdict_given
from .target_words import (
    evaluated_words,
    recommendation_sentence,
    verdict_in_percent,
    verdict_withheld,
)

#: ``given_percent``: a target as written (``0.975`` is ``97.5 %``), the spelling of these verdicts'
#: sentences, for a notebook's titles (:func:`budgetlab._util.percent.given_percent`);
#: ``measured_percent``: a measured rate as these sentences say it (``0.938044`` is ``93.80 %``),
#: for a notebook's table that shows rates beside targets in one unit
__all__ = ["Verdict", "VERDICT_COLUMNS", "target_verdicts", "verdicts_table", "minutes",
           "given_percent", "measured_percent"]

#: Columns of :func:`verdicts_table`.
VERDICT_COLUMNS = ("subject", "verdict", "sentence", "evidence", "withheld", "caveat")

_TARGET_WORDS = {"too_strict": "too strict, the budget burning too fast",
                 "too_loose": "too loose, the budget barely moving", "ok": "about right"}


@dataclass(frozen=True)
class Verdict:
    """One conclusion and what it rests on.

    Attributes
    ----------
    subject : str
        What is judged (``"target 95 % for image"``, ``"the page at 03:47"``).
    verdict : str or None
        The conclusion's code (``too_strict``, ``ok``, ``too_loose``, ``justified``,
        ``not_justified``, ``caused``, ``not_caused``); ``None`` when withheld (the verdict
        ``withheld`` in :func:`verdicts_table`).
    sentence : str
        The sentence to show: the conclusion with its evidence, or that it is withheld and why.
    evidence : str
        The figures: events, failures, interval, history length.
    withheld : str
        Why the verdict is withheld (the minimum it missed); empty when it is given.
    caveat : str
        A caveat that does not withhold it (a history shorter than 14 days); may be empty,
        and is where neither a verdict nor a recommendation is given (nothing to caveat).
    """

    subject: str
    verdict: str | None
    sentence: str
    evidence: str
    withheld: str = ""
    caveat: str = ""

    @property
    def given(self) -> bool:
        """Whether the verdict is given (not withheld)."""
        return self.verdict is not None


def verdicts_table(verdicts: Sequence[Verdict] | pd.DataFrame) -> pd.DataFrame:
    """The verdicts as a table with :data:`VERDICT_COLUMNS` (for ``--out`` and display); a
    withheld one's ``verdict`` is ``withheld`` (as in :func:`target_verdicts`), its ``withheld``
    column says why. The table :func:`target_verdicts` returns is such a table already: it is
    returned as it is (a copy), its group keys and recommendation kept; any other input is
    refused with :class:`~budgetlab.errors.ConfigError`, naming what to pass.

    >>> from budgetlab import page_verdict
    >>> v = page_verdict(30, 60, target=0.9, threshold=2.0)
    >>> verdicts_table([v])[["verdict", "withheld"]]
         verdict withheld
    0  justified
    >>> verdicts_table([page_verdict(1, 4, target=0.95, threshold=5.0)]).loc[0, "verdict"]
    'withheld'
    """
    if isinstance(verdicts, pd.DataFrame):
        missing = [c for c in VERDICT_COLUMNS if c not in verdicts.columns]
        if missing:
            raise ConfigError(
                f"verdicts_table() takes Verdict objects (page_verdict(), cause_verdict()) or the "
                f"table target_verdicts() returns; this table has no {missing[0]!r} column.")
        return verdicts.copy()
    try:
        items = None if isinstance(verdicts, (str, bytes)) else list(verdicts)
    except TypeError:  # not iterable (a Recalibration, one Verdict)
        items = None
    if items is None or not all(isinstance(v, Verdict) for v in items):
        raise ConfigError("verdicts_table() takes a list of Verdict objects (from page_verdict(), "
                          "cause_verdict()) or the table target_verdicts() returns (for a "
                          "recalibration: target_verdicts(result)).")
    rows = [{**asdict(v), "verdict": v.verdict if v.given else WITHHELD} for v in items]
    return pd.DataFrame(rows, columns=list(VERDICT_COLUMNS))


def minutes(td: Any) -> str:
    """An elapsed time for a sentence (a detection delay, a dwell time) in budgetlab's one
    spelling, :func:`~budgetlab._util.words.duration_words`; ``n/a`` when missing.

    >>> minutes(pd.Timedelta("45min")), minutes(pd.Timedelta("150min")), minutes(pd.Timedelta("3D"))
    ('45 min', '2 h 30 min', '3 d')
    >>> minutes(pd.NaT)
    'n/a'
    """
    return "n/a" if td is None or pd.isna(td) else duration_words(td)


def _limit_words(r: pd.Series, limit: str, max_share: float) -> str:
    """The share of time summary row ``r``'s current target spent at ``limit`` or worse, beside
    the rule's limit as the CLI says it, and the part held over a silence
    (:func:`silence_aside`); empty without a current target or its share."""
    cur = float(r["current_target"])
    if not (np.isfinite(cur) and np.isfinite(r["current_share_limit"])):
        return ""
    share = share_percent(r["current_share_limit"], max_share, 1)  # beside its limit
    return (f"; {limit} or worse {share} of the time under {given_percent(cur)} "
            f"(limit {given_percent(max_share)})"
            + silence_aside(r.get("current_share_limit_silent"), r["current_share_limit"],
                            r.get("hours")))


def target_verdicts(rec: Recalibration, *, min_events: int = 0,
                    min_days: float = MIN_HISTORY_DAYS) -> pd.DataFrame:
    """Per group of a :func:`budgetlab.recalibrate` result: the verdict on the current target and
    the recommendation, each with its evidence.

    Withheld, in words, where :func:`budgetlab.recalibrate` withholds them: by the package's rule
    for every figure judged against a target
    (:func:`~budgetlab.analyses.recalibration.rules.too_few_events`, the first rule of its
    ``thin_evidence``: fewer evaluated events than hold 10 expected failures under the current
    target, e.g. 200 at 95 %, 50 at 80 %), or too few days or hours of evaluated time; the reason
    is its ``verdict_reason`` (``recommendation_note`` for the recommendation). Too few events
    never withhold a miss their failures decide
    (:func:`~budgetlab.analyses.recalibration.rules.decided_miss`): that verdict is
    ``too_strict``, where a day of evaluated time allows a verdict
    (:mod:`~budgetlab.analyses.recalibration.thin_time`: under it, none). Where the evidence
    is too thin for the current target alone, the reason says so, and that the recommendation is
    judged at its own level, with the expected failures there, once: the ``recommendation``
    column names the target and its events.

    Parameters
    ----------
    rec : Recalibration
        What :func:`budgetlab.recalibrate` returned.
    min_events : int
        Fewest events for a verdict and a recommendation, on top of the rule (default 0: the
        rule alone); a whole number >= 0, else :class:`~budgetlab.errors.ConfigError`.
    min_days : float
        An evaluated history (``history_days``: time with traffic after warm-up) shorter than
        this many days gets a caveat (the verdict is provisional; none where neither a verdict
        nor a recommendation is given); a
        number from 0 (no caveat) to 3660, else :class:`~budgetlab.errors.ConfigError`.

    Returns
    -------
    DataFrame
        One row per group: group keys, ``subject``, ``verdict`` (``too_strict``, ``ok``,
        ``too_loose``, or ``withheld``, as in the summary of :func:`budgetlab.recalibrate`: no
        current target, or evidence too thin for it), ``sentence``, ``evidence``, ``withheld``
        (why, in words; empty where the verdict is given), ``caveat``, then
        ``recommended_target`` and ``recommendation`` (the sentence on the recommendation, or
        why there is none).

    Examples
    --------
    >>> from budgetlab import recalibrate, synth
    >>> events, _ = synth.generate("2026-10-05", 3, seed=1, rate=0.05, incidents=None,
    ...                            session_ids=False)
    >>> v = target_verdicts(recalibrate(events, by="captcha_type", target=0.95, n_boot=0))
    >>> v.loc[0, "caveat"]
    'provisional: 1 d 23 h of evaluated history, less than the 14 d a recommendation needs'

    An event every 20 min, the first day's 72 the warm-up (a 1 h window would hold 3 events, too
    few for any recommendation): 199 evaluated events at 95 % hold 9.95 expected failures, one
    event short of the rule's 200; 200 are judged. The recommendation is judged at its own
    level: at 0.94, 199 x 0.06 = 11.9 expected failures.

    >>> from budgetlab import as_events
    >>> ts = pd.date_range("2026-01-05", periods=272, freq="20min", tz="UTC")
    >>> ok = np.arange(272) % 20 != 3
    >>> few = target_verdicts(recalibrate(as_events(ts[:-1], ok[:-1]), target=0.95, window="1D",
    ...                                   n_boot=0))
    >>> print(few.loc[0, "withheld"])
    199 events in the evaluated span: too few for a verdict (under 95 % they hold 9.95 expected
    failures; one needs at least 10, i.e. 200 events); the recommendation is judged at its
    own level, where they hold 11.9 expected failures
    >>> print(few.loc[0, "recommendation"])
    Recommended for all events: 94 %, from 199 events over 2 d 18 h of evaluated time;
    provisional: 2 d 18 h of evaluated history, less than the 14 d a recommendation needs.
    >>> v = target_verdicts(recalibrate(as_events(ts, ok), target=0.95, window="1D", n_boot=0))
    >>> v.loc[0, "withheld"], v.loc[0, "verdict"]
    ('', 'too_strict')
    >>> few.loc[0, "verdict"]
    'withheld'
    """
    if not isinstance(rec, Recalibration):
        raise ConfigError("target_verdicts() takes the Recalibration that budgetlab.recalibrate() "
                          "returns.")
    min_events = check_whole("min_events", min_events)
    min_days = check_number("min_days", min_days, low=0, low_open=False, high=3660)
    s = rec.summary
    by = list(rec.settings.get("by", []))
    limit = str(rec.settings.get("limit_status", "exhausted")).upper()  # the status's name
    conf = float(rec.settings.get("confidence", 0.95))
    max_share = float(rec.settings.get("max_share", 0.01))
    rows = []
    for _, r in s.iterrows():
        group = group_words(r, by)
        n, f, days = int(r["events"]), int(r["failures"]), float(r["history_days"])
        cur = float(r["current_target"])
        evidence = (f"{counted(n, 'event')}, {counted(f, 'failure')} over "
                    f"{evaluated_words(r.get('hours'))}; success "
                    f"{measured_percent(r['success_rate'])} ({given_percent(conf)} interval "
                    f"{measured_percent(r['ci_low'])} – {measured_percent(r['ci_high'])})")
        evidence += _limit_words(r, limit, max_share)
        span = float(r["span_days"]) if "span_days" in r.index else None  # silences around
        caveat = (f"provisional: {history_words(days, min_days, span=span)}"
                  if days < min_days else "")
        subject = (f"target {given_percent(cur)} for {group}" if np.isfinite(cur)
                   else f"target for {group}")
        withheld = ""
        if not np.isfinite(cur):
            withheld = "no current target given"
        elif not verdict_given(r["verdict"]):  # recalibrate's rule, in its words
            withheld = verdict_withheld(r)
        elif n < min_events:
            withheld = f"only {n:,} events in the history; a verdict needs at least {min_events:,}"
        verdict = WITHHELD if withheld else str(r["verdict"])
        reason, action = verdict_in_percent(r, rec.settings) if not withheld else ("", "")
        if withheld:
            sentence = f"No verdict on the {subject}: {withheld} ({evidence})."
        else:
            sentence = (f"The current {subject} is {_TARGET_WORDS[verdict]}"
                        + (f", so {action}" if action else "") + f": {evidence}.")
        if caveat and not withheld:  # a withheld verdict is not provisional: there is none
            sentence += f" ({caveat.capitalize()}.)"
        rec_t = float(r["recommended_target"])
        if withheld and not (np.isfinite(rec_t) and n >= min_events):
            caveat = ""  # neither a verdict nor a recommendation: nothing is provisional
        # a target kept although the rule's lies elsewhere: the verdict's reason joins the two
        kept = verdict == "ok" and given_percent(rec_t) != given_percent(cur)
        rec_txt = recommendation_sentence(r, group, caveat, min_events, kept=reason if kept else "")
        row = {k: r[k] for k in by}
        row.update(subject=subject, verdict=verdict, sentence=sentence, evidence=evidence,
                   withheld=withheld,
                   caveat=caveat, recommended_target=rec_t if n >= min_events else np.nan,
                   recommendation=rec_txt)
        rows.append(row)
    out = pd.DataFrame(rows, columns=[*by, *VERDICT_COLUMNS, "recommended_target",
                                      "recommendation"])
    out.attrs["by"] = by
    return out
