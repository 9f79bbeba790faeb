"""The canonical table's optional ``duration`` column: read with or without ``slow_above``."""

from __future__ import annotations

import pandas as pd
import pytest

import budgetlab as bl
from budgetlab import how_read
from budgetlab.errors import ConfigError, InputError

RAW = pd.DataFrame({"time": ["2026-01-01T00:00:00Z", "2026-01-01T00:00:01Z",
                             "2026-01-01T00:00:02Z"],
                    "outcome": ["success", "timeout", "success"], "ms": [1500, 30000, 250]})


def test_duration_alone_is_kept_as_timedelta():
    ev = bl.read_events(RAW, time="time", outcome="outcome", duration="ms", duration_unit="ms")
    assert str(ev["duration"].dtype) == "timedelta64[ns]"
    assert ev["duration"].tolist() == [pd.Timedelta("1.5s"), pd.Timedelta("30s"),
                                       pd.Timedelta("250ms")]
    assert ev["ok"].tolist() == [True, False, True]  # no slow_above: outcomes as read
    assert ("durations: column 'ms', numbers in ms, kept as the 'duration' "
            "column") in how_read(ev).notes


def test_duration_with_slow_above_is_kept_too():
    ev = bl.read_events(RAW, time="time", outcome="outcome", duration="ms", duration_unit="ms",
                        slow_above="1s")
    assert ev["bucket"].astype(str).tolist() == ["slow", "timeout", "success"]
    assert ev["duration"].iloc[0] == pd.Timedelta("1.5s")


def test_text_durations_carry_their_unit():
    raw = RAW.assign(ms=["1.5s", "30s", "250ms"])
    ev = bl.read_events(raw, time="time", outcome="outcome", duration="ms")
    assert ev["duration"].iloc[2] == pd.Timedelta("250ms")


def test_numbers_without_a_unit_and_a_unit_without_a_column_are_refused():
    with pytest.raises(InputError, match="duration_unit="):
        bl.read_events(RAW, time="time", outcome="outcome", duration="ms")
    with pytest.raises(ConfigError, match="name the duration column"):
        bl.read_events(RAW, time="time", outcome="outcome", duration_unit="ms")


def test_the_note_says_how_the_durations_were_read():
    """Text with units takes no duration_unit: the note says it was not used (it said "numbers in
    s"); a mixed column says both, with their rows."""
    raw = RAW.assign(ms=["1.5s", "30s", "250ms"])
    ev = bl.read_events(raw, time="time", outcome="outcome", duration="ms", duration_unit="s")
    assert ("durations: column 'ms', text with units (duration_unit='s' not used), kept as the "
            "'duration' column") in how_read(ev).notes
    ev = bl.read_events(RAW.assign(ms=["1.5", "30s", "250ms"]), time="time", outcome="outcome",
                        duration="ms", duration_unit="s")
    assert ev["duration"].iloc[0] == pd.Timedelta("1.5s")
    assert ("durations: column 'ms', numbers in s (1 row) and text with units (2 rows), kept as "
            "the 'duration' column") in how_read(ev).notes
