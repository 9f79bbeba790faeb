"""Decision rules the notebooks apply, each a plain function with its evidence.

* :func:`suggest_targets`: the recommended target per group, or the one recommended outside the
  labelled incidents when that is higher (the incidents shaped the recommendation) and all of the
  history affords it (its failures within the target's budget, its time at the limit status
  within ``max_share``: :mod:`.afford`);
* :func:`window_summary` and :func:`choose_window`: flapping against detection, summed over the
  groups, and the window (and hysteresis) that flaps least among those that notice enough incidents;
* :func:`policy_summary` and :func:`choose_policy`: the page tiers of several alert policies
  scored against incidents, and the policy that detects enough without paging too often, decided
  on the groups with a verdict (:func:`judged_policy_scores`; the groups too thin for one,
  :func:`thin_policy_groups`, are named and their pages said apart; without incidents their
  alert episodes are counted apart, :func:`policy_episode_counts`);
* :func:`bucket_target_verdicts`: the seed's "split timeouts from solve failures before lowering
  the SLO", as a verdict per group.

A conclusion is a :class:`~budgetlab.analyses.verdicts.Verdict` (or a table of them): the sentence
carries its figures, and it is withheld, with the reason, when the evidence is too thin.
"""

from __future__ import annotations

from .policies import choose_policy, policy_summary
from .policy_thin import judged_policy_scores, policy_episode_counts, thin_policy_groups
from .targets import bucket_target_verdicts, suggest_targets
from .windows import choose_window, window_summary

__all__ = ["suggest_targets", "window_summary", "choose_window", "policy_summary", "choose_policy",
           "thin_policy_groups", "judged_policy_scores", "policy_episode_counts",
           "bucket_target_verdicts"]
