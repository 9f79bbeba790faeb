"""A milliseconds column read with ``duration_unit='s'`` (stop 62's stranger: "timeout 5,000 s",
"p50 403 s" without a word): the reading states the median it read and the unit one step smaller
when that median is over 60 s; it never changes the reading."""

from __future__ import annotations

import pandas as pd

import budgetlab as bl
from budgetlab import how_read
from budgetlab.cli import main

# five attempts whose durations are milliseconds: 210, 403, 900, 5000, 350; median 403 (by hand:
# sorted 210, 350, 403, 900, 5000, the third)
LOG = ("ts,outcome,took\n2026-10-05T00:00:00Z,success,210\n2026-10-05T00:01:00Z,success,403\n"
       "2026-10-05T00:02:00Z,success,900\n2026-10-05T00:03:00Z,timeout,5000\n"
       "2026-10-05T00:04:00Z,success,350\n")


def test_ms_read_as_seconds_is_said_on_the_command_line(tmp_path, capsys):
    path = tmp_path / "ms.csv"
    path.write_text(LOG)
    assert main(["latency", str(path), "--duration", "took", "--duration-unit", "s",
                 "--thresholds", "1s"]) == 0
    err = " ".join(capsys.readouterr().err.split())
    assert ("durations read as seconds (--duration-unit s): median 403 s, over 60 s; if the "
            "column holds milliseconds, give --duration-unit ms") in err


def test_ms_read_as_ms_says_nothing(tmp_path, capsys):
    path = tmp_path / "ms.csv"
    path.write_text(LOG)
    assert main(["latency", str(path), "--duration", "took", "--duration-unit", "ms",
                 "--thresholds", "1s"]) == 0
    assert "durations read as" not in capsys.readouterr().err


def raw(values):
    n = len(values)
    return pd.DataFrame({"ts": pd.date_range("2026-10-05", periods=n, freq="1min", tz="UTC"),
                         "outcome": ["success"] * n, "took": values})


def test_the_api_names_duration_unit_and_keeps_the_figures():
    ev = bl.read_events(raw([210, 403, 900, 5000, 350]), time="ts", outcome="outcome",
                        duration="took", duration_unit="s")
    assert ("durations read as seconds (duration_unit='s'): median 403 s, over 60 s; if the "
            "column holds milliseconds, pass duration_unit='ms'") in how_read(ev).notes
    assert ev["duration"].iloc[1] == pd.Timedelta("403s")  # a stated reading, not a change


def test_the_bound_is_60_s_exclusive():
    """Median exactly 60 s (10, 60, 70): not over; 61,000 ms (60, 61, 62 s in ms): over, and
    the smaller unit suggested is microseconds."""
    at = bl.read_events(raw([10, 60, 70]), time="ts", outcome="outcome", duration="took",
                        duration_unit="s")
    assert not any("durations read as" in n for n in how_read(at).notes)
    over = bl.read_events(raw([60000, 61000, 62000]), time="ts", outcome="outcome",
                          duration="took", duration_unit="ms")
    assert ("durations read as milliseconds (duration_unit='ms'): median 61 s, over 60 s; if "
            "the column holds microseconds, pass duration_unit='us'") in how_read(over).notes
