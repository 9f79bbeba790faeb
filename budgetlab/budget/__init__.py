"""Budgets: the seed arithmetic (one home), the vectorized replay, the streaming tracker, SRE burn
rates and period budgets."""

from __future__ import annotations

from .burn import burn_rate_chunks, burn_rates
from .figures import STATUS_DTYPE, STATUSES, remaining_fraction, seed_figures, status_codes
from .period import period_budget
from .spans import SPAN_STATUS_DTYPE, SPAN_STATUSES, silences, status_spans
from .status_changes import replay_transitions, transitions
from .stream import Tracker
from .summary import replay_summary
from .tracker import KeyedTracker
from .tracker_replay import replay

__all__ = ["burn_rates", "burn_rate_chunks", "STATUSES", "remaining_fraction", "seed_figures",
           "status_codes", "period_budget", "STATUS_DTYPE", "replay", "replay_summary",
           "replay_transitions", "transitions", "SPAN_STATUS_DTYPE", "SPAN_STATUSES",
           "status_spans", "silences", "Tracker", "KeyedTracker"]
