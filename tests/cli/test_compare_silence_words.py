"""compare-windows' words for a row with (almost) no evaluated time (stop 59). Hand-counted log:
busy sends a success every minute for two days; thin one every 3 h (00:00 .. 45:00, 16 events);
pairs two, 10 ms apart, every 3 h from 01:30 (01:30 .. 46:30, 32 events).
Under a 1 h window each of thin's events opens a stretch of traffic whose first hour is its
warm-up; the window holds the event through ts + 1 h, the instant the warm-up closes, and leaves
1 ns later: one instant, no stretch of time, so thin's row has no evaluated time (it had 16 ns).
Each of pairs' stretches holds its second event 10 ms (and the clock's 1 ns: an event leaves 1 ns
after ts + window) after its warm-up: 16 x (10 ms + 1 ns) of evaluated time, each of them after an
event followed by about 3 h of nothing (the last one: the log goes on 1 h 29 min after it), all
held over a silence.

Before, the "held over a silence" block printed "1 h, g=thin: 0 s of its 0 s" and the note said
"for a fraction of a second of evaluated time"."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

T0 = pd.Timestamp("2026-03-02", tz="UTC")


def _write(path) -> str:
    busy = T0 + pd.to_timedelta(np.arange(2 * 1440), unit="min")
    thin = T0 + pd.to_timedelta(np.arange(16) * 3, unit="h")
    first = T0 + pd.to_timedelta(np.arange(16) * 180 + 90, unit="min")
    pairs = first.append(first + pd.Timedelta(milliseconds=10))
    frame = pd.concat([pd.DataFrame({"ts": busy, "g": "busy"}),
                       pd.DataFrame({"ts": thin, "g": "thin"}),
                       pd.DataFrame({"ts": pairs, "g": "pairs"})])
    frame = frame.sort_values("ts", kind="stable")
    frame["ts"] = frame["ts"].map(lambda t: t.strftime("%Y-%m-%dT%H:%M:%S.%fZ"))
    frame["outcome"] = "ok"
    frame.to_csv(path, index=False)
    return str(path)


def test_a_row_held_under_a_second_is_left_out_and_its_note_says_under_a_second(tmp_path,
                                                                                capsys):
    from budgetlab import SLO, compare_windows, read_events
    from budgetlab.cli import main

    log = _write(tmp_path / "log.csv")
    t = compare_windows(read_events(log, by="g"), SLO(target=0.99), "1h", by="g").set_index("g")
    held = 16 * (10e6 + 1) / 3.6e12  # hours: 16 x (10 ms + 1 ns)
    assert t.loc["pairs", "hours"] == pytest.approx(held, rel=1e-12)
    assert t.loc["pairs", "hours_silent_window"] == pytest.approx(held, rel=1e-12)
    # thin: 16 instants, no evaluated time (it had 16 ns)
    assert t.loc["thin", "hours"] == 0 and t.loc["thin", "hours_silent_window"] == 0
    assert main(["compare-windows", log, "--by", "g", "--windows", "1h", "--target", "0.99"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "0 s of its 0 s" not in out
    assert "held over a silence" not in out  # no row is held for a second or more
    assert ("1 h, g=pairs: 0 events in the evaluated span: for under a second of evaluated time "
            "the window held only events of a warm-up") in out
    assert "1 h, g=thin: no evaluated time: the window held no traffic after its warm-up" in out
