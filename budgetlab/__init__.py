"""budgetlab: offline analytics for SLO error budgets.

events -> windows -> budget/status -> alerts -> analyses -> plots.
"""

from __future__ import annotations

from .errors import (
    BudgetlabError,
    ConfigError,
    DatasetError,
    FileFormatError,
    InputError,
    OutcomeError,
    OutputExistsError,
    PersonalDataError,
    SchemaError,
    TimestampError,
)
from .schema import as_events, check_events
from .slo import SLO

# --- feature modules: one import line each (keep this block sorted by data flow) ---
from .events import read_events
from .replay import STATUS_DTYPE, replay, replay_summary, transitions
from .tracker import Tracker

__version__ = "0.1.0"

__all__ = [
    "BudgetlabError",
    "ConfigError",
    "DatasetError",
    "FileFormatError",
    "InputError",
    "OutcomeError",
    "OutputExistsError",
    "PersonalDataError",
    "SchemaError",
    "TimestampError",
    "SLO",
    "as_events",
    "check_events",
    "read_events",
    "STATUS_DTYPE",
    "replay_summary",
    "replay",
    "transitions",
    "Tracker",
]
