"""One log's length is said one way (stop 61's re-check): its first to last event, in all its
units truncated to the second (``budgetlab._util.words.length_words``). The log below runs from
2026-03-02 00:00:00 to 2026-03-03 11:59:56 UTC: 35 h 59 min 56 s, "1 d 11 h 59 min 56 s" (by
hand), 4 s short of a 36 h window. ``alerts`` said it so; ``buckets`` said "longer than the data
(1 d 11 h)" and, from its minute bins, "the log is 1 d 12 h long": as long as the 36 h window
the same output called longer than the data."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from budgetlab import SLO, as_events, replay
from budgetlab.cli import main

START = pd.Timestamp("2026-03-02", tz="UTC")
LENGTH = "1 d 11 h 59 min 56 s"  # 2026-03-03 11:59:56 - 2026-03-02 00:00:00, by hand


def _log(tmp_path):
    """One event a minute from 00:00 (2,160 minutes: 00:00 .. 35:59), every 50th a timeout
    (44, over the 21.6 expected under 99 %), and a last success at 35:59:56."""
    ts = list(pd.date_range(START, periods=36 * 60, freq="1min")) + [
        START + pd.Timedelta("35h59min56s")]
    out = ["timeout" if i % 50 == 1 else "success" for i in range(len(ts) - 1)] + ["success"]
    path = tmp_path / "log.csv"
    pd.DataFrame({"ts": [t.strftime("%Y-%m-%dT%H:%M:%SZ") for t in ts],
                  "outcome": out}).to_csv(path, index=False)
    inc = tmp_path / "inc.csv"
    inc.write_text("incident_id,start,end,scope\nI1,2026-03-02T10:00:00Z,2026-03-02T10:30:00Z,*\n")
    return path, inc


def test_buckets_says_the_logs_length_as_alerts_does(tmp_path, capsys):
    path, _ = _log(tmp_path)
    assert main(["buckets", str(path), "--target", "0.99", "--window", "36h"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert (f"note: the window (36 h) is longer than the data ({LENGTH}); every window is "
            "partial.") in said
    assert ("ticket_3d (3 d) was not evaluated: its long window never filled, the log is "
            f"{LENGTH} long") in said
    assert "1 d 12 h" not in said and "(1 d 11 h)" not in said


def test_alerts_says_it_in_the_same_words(tmp_path, capsys):
    path, inc = _log(tmp_path)
    assert main(["alerts", str(path), "--target", "0.99", "--incidents", str(inc)]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert f"ticket_3d's long window (3 d) never filled: the log is {LENGTH} long" in said


def test_the_partial_window_warning_says_it_too():
    ts = pd.DatetimeIndex([START, START + pd.Timedelta("35h59min56s")])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        replay(as_events(ts, np.array([True, True])), SLO(0.9, window="36h"))
    assert [str(w.message) for w in caught] == [
        f"the window (36 h) is longer than the data ({LENGTH}); every window is partial."]
