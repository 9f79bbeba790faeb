"""latency_recalibrate counts evaluated time by the one rule (an instant has no duration) and
says no "missed" of a group withheld for its evaluated time (API and CLI).

Hand-counted log, a 1 h window, threshold 1 s (a success slower than it fails), T0 =
2026-03-02 00:00 UTC (the log's first instant), the observation ending at the log's last event,
T0 + 48 h. "Slow": a 5 s success; "fast": a 0.2 s one. Evaluated time is after each stretch's
warm-up (its first hour); an event is in the window through ``ts + 1 h`` and leaves 1 ns later.

* busy: a fast success every 10 min, T0 .. T0 + 48 h (289 events): evaluated T0 + 1 h .. T0 + 48 h,
  47 h.
* lone: one slow success at T0. Its window holds it through T0 + 1 h, the instant its warm-up
  closes, and is empty 1 ns later: no evaluated time (before: 1 ns).
* late: a slow success at T0 (an instant of evaluated time, as lone: none), then a fast success
  every 10 min, T0 + 12 h .. T0 + 48 h (217 events): evaluated T0 + 13 h .. T0 + 48 h, 35 h, its
  first evaluated instant T0 + 13 h (before: 35 h + 1 ns, from T0 + 1 h: a span of 47 h).
* wide: a slow success every 10 min, T0 + 5 h .. T0 + 11 h 40 min (41 events): 35 in the evaluated
  span (T0 + 6 h .. 11 h 40 min), all slow; evaluated until the last leaves, 1 ns after T0 + 12 h
  40 min: 6 h 40 min + 1 ns, under 24 h. At 50 % its 35 events are enough (17.5 expected
  failures) and the time withholds it; at 75 % they are too few (8.75) and 35 of 35 slow would
  decide a miss: before, "missed at every threshold" there, beside the time's "withheld".
* burst: a slow success every 10 min, T0 + 20 h .. T0 + 23 h 10 min (20 events): 14 in the
  evaluated span (T0 + 21 h .. 23 h 10 min), all slow; evaluated until 1 ns after T0 + 24 h 10 min:
  3 h 10 min + 1 ns. 14 of 14 slow decide a miss even at 50 % (0.5 ** 14 < 0.1 %): before, the
  summary said "missed: 14 of 14 events ...", of a group with 3 h 10 min of evaluated time.
"""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab import SLO, latency_recalibrate, read_events
from budgetlab.cli import main

T0 = pd.Timestamp("2026-03-02", tz="UTC")
HOUR = pd.Timedelta(hours=1)
#: evaluated time, by hand (see the module's docstring)
OBSERVED = {"busy": 47 * HOUR, "lone": pd.Timedelta(0), "late": 35 * HOUR,
            "wide": pd.Timedelta(hours=6, minutes=40, nanoseconds=1),
            "burst": pd.Timedelta(hours=3, minutes=10, nanoseconds=1)}
WARMUP = ("0 events in the evaluated span: the group's one event fell within a warm-up (the first "
          "1 h of a stretch of traffic, which only fills the window); no verdict and no "
          "recommendation without events after it")
TIME_WIDE = ("only 6 h 40 min of evaluated time, too little for time shares and rates per day "
             "(at least 24 h)")
TIME_BURST = ("only 3 h 10 min of evaluated time, too little for time shares and rates per day "
              "(at least 24 h)")


def _every_10_min(start: pd.Timedelta, n: int, seconds: float) -> list[tuple[pd.Timestamp, float]]:
    return [(T0 + start + pd.Timedelta(minutes=10 * i), seconds) for i in range(n)]


def _lines(block: str) -> dict[str, str]:
    """The per-group lines of a block of ``budgetlab latency``'s recalibration (``  g=x: ...``,
    continued on lines indented 4), each joined into one, by group (the last run of each)."""
    out: dict[str, str] = {}
    label = None
    for ln in block.splitlines():
        if ln.startswith("  g="):
            label = ln.split(":")[0].strip()
            out[label] = ln.strip()
        elif label is not None and ln.startswith("    "):
            out[label] += " " + ln.strip()
        else:
            label = None
    return out


@pytest.fixture(scope="module")
def log(tmp_path_factory) -> str:
    at = {"busy": _every_10_min(pd.Timedelta(0), 289, 0.2),
          "lone": [(T0, 5.0)],
          "late": [(T0, 5.0), *_every_10_min(12 * HOUR, 217, 0.2)],
          "wide": _every_10_min(5 * HOUR, 41, 5.0),
          "burst": _every_10_min(20 * HOUR, 20, 5.0)}
    rows = [(t, g, "success", s) for g, evs in at.items() for t, s in evs]
    frame = pd.DataFrame(rows, columns=["ts", "g", "outcome", "seconds"])
    frame = frame.sort_values("ts", kind="stable")
    frame["ts"] = frame["ts"].map(lambda t: t.strftime("%Y-%m-%dT%H:%M:%SZ"))
    path = tmp_path_factory.mktemp("latency_time") / "log.csv"
    frame.to_csv(path, index=False)
    return str(path)


@pytest.fixture(scope="module")
def result(log):
    events = read_events(log, by="g", duration="seconds", duration_unit="s")
    return latency_recalibrate(events, slo=SLO(target=0.95, window="1h"), thresholds=["1s"],
                               by="g", n_boot=0)


def test_an_instant_is_no_observed_time(result):
    table = result.table.drop_duplicates("g").set_index("g")
    for g, held in OBSERVED.items():
        assert (g, table.loc[g, "observed_time"]) == (g, held)
    frontier = result.frontier.set_index(["g", "target"])
    assert set(frontier.loc["lone", "withheld"]) == {"no_time"}
    assert set(frontier.loc["lone", "note"]) == {WARMUP}


def test_the_history_starts_after_the_instant(result):
    # 35 h of evaluated history, from its first evaluated instant T0 + 13 h: no wider span said
    note = result.summary.set_index("g").loc["late", "note"]
    assert "provisional: 1 d 11 h of evaluated history, less than the 14 d a recommendation " \
           "needs; re-run with more history" in note
    assert "1 d 23 h" not in note


def test_no_miss_said_of_a_group_withheld_for_time(result):
    summary = result.summary.set_index("g")
    assert summary.loc["wide", "note"] == f"withheld: {TIME_WIDE}"
    assert summary.loc["burst", "note"] == f"withheld: {TIME_BURST}"
    frontier = result.frontier.set_index(["g", "target"])
    for g, words in (("wide", TIME_WIDE), ("burst", TIME_BURST)):
        assert set(frontier.loc[g, "note"]) == {words}
        assert set(frontier.loc[g, "withheld"]) == {"too_little_time"}
        assert frontier.loc[g, "smallest_threshold"].isna().all()
    assert not result.summary["supported_target"].loc[result.summary["g"].isin(
        ["wide", "burst"])].notna().any()


def _run(log: str, capsys) -> str:
    assert main(["latency", log, "--by", "g", "--duration", "seconds", "--duration-unit", "s",
                 "--thresholds", "1s", "--window", "1h", "--n-boot", "0"]) == 0
    return capsys.readouterr().out


def test_the_command_line_says_no_evaluated_time(log, capsys):
    out = _run(log, capsys)
    lines = _lines(out[out.index("frontier (the smallest"):])
    assert lines["g=lone"] == f"g=lone: targets 0.5 .. 0.999: none ({WARMUP})"
    supported = _lines(out[out.index("latency targets"):out.index("frontier (the")])
    assert supported["g=lone"] == f"g=lone: within 1 s: withheld: {WARMUP}"
    assert ("provisional: 1 d 11 h of evaluated history, less than the 14 d a recommendation "
            "needs; re-run with more history") in supported["g=late"]


def test_the_command_line_says_no_miss_of_a_group_withheld_for_time(log, capsys):
    out = _run(log, capsys)
    assert "missed" not in out
    lines = _lines(out[out.index("frontier (the smallest"):])
    assert lines["g=wide"] == f"g=wide: targets 0.5 .. 0.999: none ({TIME_WIDE})"
    assert lines["g=burst"] == f"g=burst: targets 0.5 .. 0.999: none ({TIME_BURST})"
    supported = _lines(out[out.index("latency targets"):out.index("frontier (the")])
    assert supported["g=burst"] == f"g=burst: within 1 s: withheld: {TIME_BURST}"
    assert supported["g=wide"] == f"g=wide: within 1 s: withheld: {TIME_WIDE}"


def test_no_share_of_no_observed_time(result):
    # lone has no evaluated time (module docstring): its share of it at the limit status is
    # withheld (NaN), never the fallback 1.0; busy's 47 h of fast successes: 0 at every target
    table = result.table.set_index("g")
    assert len(table.loc["lone"]) == 10  # 1 threshold x the 10 usual candidates up to 0.999
    assert table.loc["lone", "limit_share"].isna().all()
    assert not table.loc["lone", "supported"].any()
    assert (table.loc["busy", "limit_share"] == 0.0).all()
