"""An instant has no duration: a stretch of traffic whose evaluated part is the one instant its
warm-up closes at has no evaluated time (recalibrate and compare_windows, API and CLI). The
Elastic access log's lone OPTIONS request was reported "for under a second of evaluated time".

Hand-counted log, a 1 h window, T0 = 2026-03-02 00:00 UTC (the log's first instant):

* busy: a success every 10 min, T0 .. T0 + 48 h (289 events; the log's span).
* first: one failure at T0. Its stretch's warm-up is [T0, T0 + 1 h]; the window holds the failure
  through T0 + 1 h (closed windows: ``[t - window, t]``) and is empty 1 ns later. After the
  warm-up it held traffic at the one instant T0 + 1 h: no evaluated time (before: 1 ns).
* inside: one failure at T0 + 20 min, inside the log's first hour, not at its start: the same,
  its own warm-up closing at T0 + 1 h 20 min (before: 1 ns).
* after: successes at T0 + 30 min and T0 + 1 h, a failure at T0 + 1 h 30 min 1 s, just after the
  warm-up (T0 + 30 min .. T0 + 1 h 30 min) ends, while the T0 + 1 h success still fills the
  window: one stretch, evaluated from T0 + 1 h 30 min until the failure leaves, 1 ns after
  T0 + 2 h 30 min 1 s: 1 h 0 min 1 s + 1 ns (the clock's nanosecond: an event leaves 1 ns after
  ``ts + window``), with 1 event in it (the failure).
* closing: successes at T0 + 3 h and T0 + 4 h, the second at the very instant the warm-up closes:
  evaluated from T0 + 4 h until it leaves, 1 ns after T0 + 5 h: 1 h + 1 ns, 1 event. The instant
  the warm-up closes at counts here, as the start of evaluated time that goes on.
"""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab import SLO, compare_windows, read_events, recalibrate
from budgetlab.cli import main
from tests.group_lines import group_lines

T0 = pd.Timestamp("2026-03-02", tz="UTC")
HOUR_NS = 3_600 * 10**9
#: evaluated hours, by hand (see the module's docstring)
HOURS = {"first": 0.0, "inside": 0.0, "after": (3_601 * 10**9 + 1) / HOUR_NS,
         "closing": (HOUR_NS + 1) / HOUR_NS}
EVENTS = {"first": 0, "inside": 0, "after": 1, "closing": 1}
NO_TIME = "no evaluated time: the window held no traffic after its warm-up"
ONE_IN_WARMUP = ("0 events in the evaluated span: the group's one event fell within a warm-up "
                 "(the first 1 h of a stretch of traffic, which only fills the window); no "
                 "verdict and no recommendation without events after it")


@pytest.fixture(scope="module")
def log(tmp_path_factory) -> str:
    at = {"first": [(T0, "timeout")],
          "inside": [(T0 + pd.Timedelta(minutes=20), "timeout")],
          "after": [(T0 + pd.Timedelta(minutes=30), "success"),
                    (T0 + pd.Timedelta(hours=1), "success"),
                    (T0 + pd.Timedelta(hours=1, minutes=30, seconds=1), "timeout")],
          "closing": [(T0 + pd.Timedelta(hours=3), "success"),
                      (T0 + pd.Timedelta(hours=4), "success")],
          "busy": [(T0 + pd.Timedelta(minutes=10 * i), "success") for i in range(289)]}
    rows = [(t, g, o) for g, evs in at.items() for t, o in evs]
    frame = pd.DataFrame(rows, columns=["ts", "g", "outcome"]).sort_values("ts", kind="stable")
    frame["ts"] = frame["ts"].map(lambda t: t.strftime("%Y-%m-%dT%H:%M:%SZ"))
    path = tmp_path_factory.mktemp("instant") / "log.csv"
    frame.to_csv(path, index=False)
    return str(path)


def test_compare_windows_gives_an_instant_no_evaluated_time(log):
    t = compare_windows(read_events(log, by="g"), SLO(target=0.95), "1h", by="g").set_index("g")
    for g, hours in HOURS.items():
        assert (g, t.loc[g, "hours"], t.loc[g, "events"]) == (g, hours, EVENTS[g])
    assert t.loc["first", "note"] == NO_TIME and t.loc["inside", "note"] == NO_TIME
    # 1 h 0 min 1 s and 1 h of it: too thin, said so, not "no evaluated time"
    assert t.loc["after", "note"].startswith("only 1 h of evaluated time (1 event in it)")
    assert t.loc["closing", "note"].startswith("only 1 h of evaluated time (1 event in it)")


def test_compare_windows_says_no_evaluated_time_on_the_command_line(log, capsys):
    assert main(["compare-windows", log, "--by", "g", "--windows", "1h"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert f"1 h, g=first: {NO_TIME}" in out and f"1 h, g=inside: {NO_TIME}" in out
    assert "under a second" not in out


def test_recalibrate_gives_an_instant_no_evaluated_time(log):
    s = recalibrate(read_events(log, by="g"), by="g", window="1h",
                    n_boot=0).summary.set_index("g")
    for g, hours in HOURS.items():
        assert (g, s.loc[g, "hours"], s.loc[g, "events"]) == (g, hours, EVENTS[g])
    # days with traffic in the evaluated span: none for an instant
    assert s.loc[list(HOURS), "traffic_days"].tolist() == [0, 0, 1, 1]
    assert s.loc["first", "verdict_reason"] == ONE_IN_WARMUP
    assert s.loc["inside", "verdict_reason"] == ONE_IN_WARMUP


def test_recalibrate_says_no_evaluated_time_on_the_command_line(log, capsys):
    assert main(["recalibrate", log, "--by", "g", "--window", "1h", "--n-boot", "0"]) == 0
    lines = group_lines(capsys.readouterr().out, "g=")
    for g in ("first", "inside"):
        assert lines[f"g={g}"] == (f"g={g}: no events after the 1 h warm-up (no evaluated time); "
                                   "no recommended target; no verdict")
    # 1 h 0 min 1 s of evaluated time, said in two units: 1 h
    assert lines["g=after"].startswith("g=after: observed 0.00 % over 1 event in 1 h of "
                                       "evaluated time")
