"""Named exceptions. Every error budgetlab raises on purpose is a :class:`BudgetlabError`.

The CLI turns any of them into one line on stderr and exit code 2. Messages say what to fix
and never echo data values (they may be personal data).
"""

from __future__ import annotations

__all__ = [
    "BudgetlabError",
    "ConfigError",
    "InputError",
    "SchemaError",
    "TimestampError",
    "NoTrafficError",
    "OutcomeError",
    "FileFormatError",
    "PersonalDataError",
    "OutputExistsError",
    "DatasetError",
    "NotebookError",
    "ServerError",
    "BudgetlabWarning",
    "PartialWindowWarning",
    "PersonalDataWarning",
]


class BudgetlabError(Exception):
    """Base class of every error budgetlab raises for bad input or configuration."""


class ConfigError(BudgetlabError, ValueError):
    """An invalid argument or configuration (SLO, window, policy, option value)."""


class InputError(BudgetlabError, ValueError):
    """The input data cannot be turned into the canonical event table."""


class SchemaError(InputError):
    """A missing, misnamed or duplicated column."""


class TimestampError(InputError):
    """Unparseable, missing, mixed-zone or out-of-range timestamps."""


class NoTrafficError(InputError):
    """An incident's report window (the incident and its context) holds no event in scope: there
    is nothing to report there. ``why`` is the message without its fix (which names ``start=``,
    ``end=``, ``context=``), for callers that report several incidents and go on."""

    def __init__(self, message: str, *, why: str) -> None:
        super().__init__(message)
        self.why = why


class OutcomeError(InputError):
    """Outcome labels or success values that cannot be mapped to ``ok``/``bucket``."""


class FileFormatError(InputError):
    """A missing, empty, truncated, corrupt or unsupported input file."""


class PersonalDataError(InputError):
    """A column looks like personal data (e-mail, phone, IP address, card number).

    The message names the column, the kind and how many values matched, never the values.
    """


class ServerError(InputError):
    """A server (Prometheus) answered in a way budgetlab cannot trust, or not in time: unreachable,
    timed out, cut short, too large, redirected elsewhere, not its API, or samples that cannot be
    counts (duplicates, out of range). The message quotes the server only through the
    personal-data filter."""


class OutputExistsError(BudgetlabError, FileExistsError):
    """An output file exists already and overwriting was not allowed."""


class NotebookError(BudgetlabError, RuntimeError):
    """A notebook could not be executed (a cell raised, or the kernel died or timed out)."""


class DatasetError(BudgetlabError, LookupError):
    """An unknown dataset name, or a dataset file that is not present."""


class BudgetlabWarning(UserWarning):
    """Base class of the warnings budgetlab issues (the CLI prints them as one line)."""


class PartialWindowWarning(BudgetlabWarning):
    """The window is longer than the data: every window is partial (allowed, but reported)."""


class PersonalDataWarning(BudgetlabWarning):
    """A declared column that looks like personal data was dropped (``pii="drop"``).

    The message names the column and the kind, never a value.
    """
