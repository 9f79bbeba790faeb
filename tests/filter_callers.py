"""The budgetlab lines that enter ``warnings.catch_warnings`` during a test.

``catch_warnings`` saves and restores the process-wide filter list: on code that runs on worker
threads (Dask's threaded scheduler) it can swap another thread's filters. The tests of the read,
the durations, JSON reading and the Dask twins spy on it to show their paths no longer call it.
Drawing keeps one (``plotting/_dates.py``: the figures are drawn on the main thread).
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path
from typing import Any

import budgetlab


def filter_callers(monkeypatch: Any) -> list[str]:
    """Spy on ``warnings.catch_warnings`` for the rest of the test: the list fills with
    ``module path:line`` of every caller inside the budgetlab package (the test's own calls pass
    through unrecorded)."""
    home = Path(budgetlab.__file__).resolve().parent
    real = warnings.catch_warnings
    callers: list[str] = []

    def spy(*args: Any, **kwargs: Any) -> Any:
        caller = Path(sys._getframe(1).f_code.co_filename).resolve()
        if home in caller.parents:
            callers.append(f"{caller.relative_to(home)}:{sys._getframe(1).f_lineno}")
        return real(*args, **kwargs)

    monkeypatch.setattr(warnings, "catch_warnings", spy)
    return callers
