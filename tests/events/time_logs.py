"""A one-column log of times written as given, and the refusal ``read_events`` gives it: the two
pieces the tests of time-form refusals share (numeric dates, 12-hour clocks)."""

from __future__ import annotations

import pytest

from budgetlab import read_events
from budgetlab.errors import TimestampError


def times_log(tmp_path, times):
    """``log.csv`` under ``tmp_path``: a ``ts`` column of ``times`` as written, every row ok."""
    path = tmp_path / "log.csv"
    path.write_text("ts,ok\n" + "".join(f"{t},true\n" for t in times))
    return path


def time_refusal(path):
    """The text of the :class:`TimestampError` that ``read_events(path, ok="ok")`` raises."""
    with pytest.raises(TimestampError) as info:
        read_events(path, ok="ok")
    return str(info.value)
