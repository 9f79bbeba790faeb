"""A group whose few events all fell within a warm-up, with some evaluated time after it (under a
day), is withheld in latency_recalibrate's frontier for its time, not for its events: under 24 h
of evaluated time no verdict (thin_time's rule), so "20 events would do" is never said.

Hand-counted log, a 1 h window, threshold 1 s, T0 = 2026-03-02 00:00 UTC:

* busy: a fast (0.2 s) success every 10 min, T0 .. T0 + 48 h (289 events): the log's span.
* warm: five fast successes at T0 + 30 h, + 10, + 20, + 30, + 40 min: all within the warm-up of
  their stretch (T0 + 30 h .. T0 + 31 h), so 0 events in the evaluated span; the window holds the
  last through T0 + 31 h 40 min and is empty 1 ns later: 40 min + 1 ns of evaluated time.
* lone: one fast success at T0 + 36 h: no evaluated time at all (``no_time``, as before).
"""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab import SLO, latency_recalibrate, read_events
from budgetlab.cli import main

T0 = pd.Timestamp("2026-03-02", tz="UTC")
TIME_WARM = ("only 40 min of evaluated time, too little for time shares and rates per day "
             "(at least 24 h)")


@pytest.fixture(scope="module")
def log(tmp_path_factory) -> str:
    rows = [(T0 + pd.Timedelta(minutes=10 * i), "busy") for i in range(289)]
    rows += [(T0 + pd.Timedelta(hours=30, minutes=10 * i), "warm") for i in range(5)]
    rows += [(T0 + pd.Timedelta(hours=36), "lone")]
    frame = pd.DataFrame(rows, columns=["ts", "g"]).sort_values("ts", kind="stable")
    frame["outcome"], frame["seconds"] = "success", 0.2
    frame["ts"] = frame["ts"].map(lambda t: t.strftime("%Y-%m-%dT%H:%M:%SZ"))
    path = tmp_path_factory.mktemp("latency_warm") / "log.csv"
    frame.to_csv(path, index=False)
    return str(path)


def test_the_frontier_gives_the_time_as_the_reason(log):
    events = read_events(log, by="g", duration="seconds", duration_unit="s")
    r = latency_recalibrate(events, slo=SLO(target=0.9, window="1h"), thresholds=["1s"], by="g",
                            n_boot=0)
    held = r.table.drop_duplicates("g").set_index("g")["observed_time"]
    assert held["warm"] == pd.Timedelta(minutes=40, nanoseconds=1)
    frontier = r.frontier.set_index(["g", "target"])
    assert set(frontier.loc["warm", "withheld"]) == {"too_little_time"}
    assert set(frontier.loc["warm", "note"]) == {TIME_WARM}
    assert set(frontier.loc["lone", "withheld"]) == {"no_time"}


def test_the_command_line_frontier_says_the_time(log, capsys):
    assert main(["latency", log, "--by", "g", "--duration", "seconds", "--duration-unit", "s",
                 "--thresholds", "1s", "--window", "1h", "--target", "0.9",
                 "--n-boot", "0"]) == 0
    out = capsys.readouterr().out
    frontier = " ".join(out[out.index("frontier (the smallest"):].split())
    assert f"g=warm: targets 0.5 .. 0.999: none ({TIME_WARM})" in frontier
    assert "20 events at 0.5" not in frontier
