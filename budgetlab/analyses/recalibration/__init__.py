"""Recalibration: which SLO target would the last weeks of history have supported?

The seed's common problems, as one function call: a budget that "burns too fast" means the
target is stricter than the conditions allow (recompute it from 2-4 weeks of history); a budget
that "barely moves" means it is too loose. :func:`recalibrate` replays the seed tracker over the
history for a grid of candidate targets and reports, per group, what each would have done.

**Status is a function of the window's burn rate** (see :mod:`budgetlab.budget.figures`): exhausted
when the window's failures reach ``total * (1 - target)``, i.e. when the rolling success rate
is at or below the target. So the share of time a target would have been exhausted is (up to
the seed's float arithmetic, which is reproduced exactly) the share of time the rolling success
rate sat at or below it, and the recommendation below is about the ``max_share`` quantile of
the rolling success rate, rounded down to the candidate grid.

**Candidates on the scale of nines.** Per group, the usual targets
(:data:`~budgetlab.analyses.recalibration.candidates.USUAL_TARGETS`: 90, 95, 97.5, 99, 99.5,
99.9, 99.95, 99.99 %, and 85, 80, 75, 50 % below) from the target at which a window at the
``p1`` rolling-window success rate (the ``max_share`` quantile for a ``max_share`` under 1 %:
:func:`~budgetlab.analyses.recalibration.levels.floor_prob`) reaches ``limit_status``
(:func:`~budgetlab.analyses.recalibration.levels.limit_floor`: ``p1`` itself at exhausted,
``1 - (1 - p1) / (1 - warning)`` at warning, with ``critical`` at critical) rounded down to the
usual target strictly below it, up to the first usual target above the observed rate, plus fine
steps (``step``, refined to 0.002, 0.001, ... where two usual targets are closer) between them;
nothing below that range, nor below 50 % (where that target is 50 % itself, the note says that
only a target below 50 % would meet the rule).

**Recommendation rule** (its one home: :func:`~budgetlab.analyses.recalibration.levels.recommend`).
``recommended_target`` is the highest candidate in the group's range whose status would have been
``limit_status`` or worse (default ``exhausted``) for at most ``max_share`` of the evaluated time
(default 1 %). When none qualifies, ``recommendation_note`` says why, with figures (events a day,
events in a window, how far one failure moves the rate), and what would make a recommendation
possible (a longer window, ``min_events``, more history); an evaluated history (``history_days``:
time with traffic after warm-up, never the calendar span around a silence, ``span_days``) shorter
than :data:`MIN_HISTORY_DAYS` makes the recommendation provisional (said in the same column).
:mod:`budgetlab.analyses.verdicts` turns the summary into sentences with their evidence.

**The evaluated span** of a group is its time with traffic after warm-up, on the window's own
clock (:mod:`budgetlab.analyses.recalibration.clock`, the statuses of
:func:`budgetlab.status_spans`):
between events the window keeps moving, an event leaves it 1 ns after ``ts + window``, an empty
window is no traffic (no time in any status, never "burn 0"), and after it one window is warm-up
again. Events, success rate, quantiles, time shares and rates per day all count that span.

**Thin evidence and the verdict** (:mod:`budgetlab.analyses.recalibration.rules`,
:mod:`budgetlab.analyses.recalibration.verdict`): no verdict
and no recommendation below 10 expected failures under the target in question or 2 day blocks
with traffic (the reason in words); no recommendation either where the window is too thin for it
(:mod:`~budgetlab.analyses.recalibration.window_events`: one failure in a typical window puts
it at ``limit_status`` under the recommended target, or under the group's ``ci_low`` after
windows holding a failure pushed the rule below it, for more than ``max_share`` of the time: the
recommendation would measure the window, not the group); never a recommendation above ``1 - 10 /
events``; ``too_strict``
whenever the current target spent more than ``max_share`` at ``limit_status`` (it breaks the rule on
the whole history: never "ok, keep", though the bootstrap interval reach it, which the reason then
says), ``too_loose`` only when the interval lies wholly above it (and the window
burn rate exceeded only 10 % of the time, ``(1 - p10) / (1 - target)``, is below ``loose_burn``,
default 0.25); else ``ok``; ``action`` says it ("loosen to 0.93", "keep 0.97", "tighten to 0.976").

**Uncertainty.** ``ci_low``/``ci_high`` is the Wilson score interval of the overall success rate: it
only knows the binomial noise of independent events, so it is narrow for a million events.
Day-to-day variation is in ``recommended_low``/``recommended_high``: a percentile interval of a
block bootstrap over days with traffic (whole day blocks of the status series, drawn with
replacement, the rule recomputed on each sample; a silent day is never drawn). Its coverage,
measured by simulation (``tests/analyses/test_recalibrate.py``: 4 weeks of independent outcomes at a
known rate, 50 histories, nominal 95 %): 1 h window, 1 % limit: 45/50; 6 h, 5 %: 47/50; but 24 h,
1 %: 32/50 and 24 h, 5 %: 44/50. Four weeks hold only 28 independent 24 h windows, too few to see a
1 % tail: the estimate is biased upwards and its interval too narrow. For a 24 h window, prefer
``max_share=0.05`` or more history; the point recommendation is still within a tenth of a percentage
point there, well below the usual ``step``.

**Steps.** :func:`recalibrate` checks its options once (:class:`RecalibrationOptions`, also
accepted whole as ``options=``) and runs the steps in order, one module each (see :mod:`.run`),
each a plain function on arrays that can be called (and is tested) on its own; then it lays their
results out as tables (:mod:`.tables`).
"""

from __future__ import annotations

from .options import RecalibrationOptions
from .run import recalibrate
from .tables import Recalibration

__all__ = ["Recalibration", "RecalibrationOptions", "recalibrate"]
