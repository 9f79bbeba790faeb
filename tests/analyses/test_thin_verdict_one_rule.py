"""recalibrate and latency_recalibrate withhold a verdict by one rule of evaluated time
(budgetlab.analyses.recalibration.thin_time): under 24 h of it no verdict, "missed" included,
and no time share; with enough time both say the miss the failures decide, in the same words.

Hand-made log, a 1 h window, target 0.95, every event a failure (0.5 s, so also "slower than 1 s
or failed" is every event for latency's 1 s threshold), T0 = 2026-03-02 00:00 UTC. The log's last
event is at T0 + 31 h, where the observation ends. An event is in the window through ``ts + 1 h``
and leaves 1 ns later; each stretch of traffic's first hour is warm-up.

* thin: a failure every 10 min, T0 .. T0 + 6 h 40 min (41 events). Warm-up T0 .. T0 + 1 h (the 6
  events at 0 .. 50 min); evaluated T0 + 1 h .. 1 ns after T0 + 7 h 40 min (the last event
  leaves): 6 h 40 min (and 1 ns), under 24 h. Events in the evaluated span: minutes 60, 70, ...,
  400: 35, all failed. Under 95 % they hold 35 x 0.05 = 1.75 expected failures (a verdict needs
  10, i.e. 200 events), but 35 of 35 failures would decide a miss: P(X >= 35) = 0.05 ** 35, far
  below 0.1 %. Before, recalibrate said "too_strict: missed: 35 of 35 events failed" here.
* day: a failure every 30 min, T0 .. T0 + 31 h (63 events). Warm-up events 0 and 30 min;
  evaluated T0 + 1 h .. T0 + 31 h (the observation's end): 30 h. Events in it: 60, 90, ...,
  1860 min: 61, all failed; 61 x 0.05 = 3.05 expected failures (too few), 0.05 ** 61 < 0.1 %:
  missed, both analyses, the same words.
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from budgetlab import SLO, latency_recalibrate, read_events, recalibrate
from budgetlab.cli import main

T0 = pd.Timestamp("2026-03-02", tz="UTC")
#: the reason of thin (hand-written): 6 h 40 min of evaluated time
TIME_THIN = ("only 6 h 40 min of evaluated time, too little for time shares and rates per day "
             "(at least 24 h)")
#: the miss of day at 95 %, the one wording (recalibrate: "failed"; latency names its threshold)
MISSED_DAY = ("61 of 61 events {failed} (100.00 %); even with 61 events, a service at 95 % would "
              "fail this often with probability < 0.1 %")


def _every(minutes: int, n: int, group: str) -> pd.DataFrame:
    ts = T0 + pd.to_timedelta(minutes * np.arange(n), unit="min")
    return pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ"), "g": group,
                         "outcome": "error", "seconds": 0.5})


@pytest.fixture(scope="module")
def log(tmp_path_factory) -> str:
    frame = pd.concat([_every(10, 41, "thin"), _every(30, 63, "day")])
    path = tmp_path_factory.mktemp("thin_verdict") / "log.csv"
    frame.sort_values("ts", kind="stable").to_csv(path, index=False)
    return str(path)


@pytest.fixture(scope="module")
def events(log) -> pd.DataFrame:
    return read_events(log, by="g", duration="seconds", duration_unit="s",
                       outcomes={"error": "failure"})


def test_the_log_is_the_one_counted_by_hand(events):
    r = recalibrate(events, window="1h", target=0.95, by="g", n_boot=0)
    s = r.summary.set_index("g")
    assert s.loc["thin", "events"] == s.loc["thin", "failures"] == 35
    assert s.loc["day", "events"] == s.loc["day", "failures"] == 61
    assert s.loc["thin", "hours"] == pytest.approx(6 + 40 / 60)
    assert s.loc["day", "hours"] == pytest.approx(30.0)


def test_recalibrate_withholds_the_thin_group_and_judges_the_day(events):
    s = recalibrate(events, window="1h", target=0.95, by="g", n_boot=0).summary.set_index("g")
    thin, day = s.loc["thin"], s.loc["day"]
    assert (thin["verdict"], thin["verdict_reason"], thin["action"]) == ("withheld", TIME_THIN, "")
    assert np.isnan(thin["current_share_limit"])
    assert day["verdict"] == "too_strict"
    assert day["verdict_reason"].startswith("missed: " + MISSED_DAY.format(failed="failed"))


def test_latency_recalibrate_withholds_the_thin_group_and_judges_the_day(events):
    r = latency_recalibrate(events, slo=SLO(target=0.95, window="1h"), thresholds=["1s"],
                            by="g", n_boot=0)
    f = r.frontier.set_index(["g", "target"])
    assert (f.loc[("thin", 0.95), "note"], f.loc[("thin", 0.95), "withheld"]) == (
        TIME_THIN, "too_little_time")
    assert r.summary.set_index("g").loc["thin", "note"] == f"withheld: {TIME_THIN}"
    assert (f.loc[("day", 0.95), "note"], f.loc[("day", 0.95), "withheld"]) == (
        "missed at every threshold: " + MISSED_DAY.format(failed="slower than 1 s or failed"),
        "")
    # the time share of a group too thin for a verdict is withheld with it, as recalibrate's
    # current_share_limit; its observed time stays (a true count). day: every instant of its
    # 30 h at 0.95 is EXHAUSTED (each window holds failures only): a share of 1
    t = r.table.set_index(["g", "target"])
    assert np.isnan(t.loc[("thin", 0.95), "limit_share"])
    assert t.loc[("thin", 0.95), "observed_time"] == pd.Timedelta(hours=6, minutes=40,
                                                                  nanoseconds=1)
    assert t.loc[("day", 0.95), "limit_share"] == 1.0


def _group_lines(out: str, start: str, end: str | None = None) -> dict[str, str]:
    """``g=x`` lines of the block from ``start`` (to ``end``), each with the lines after it up to
    the next ``g=`` line (its wrapped text and reason) joined into one."""
    block = out[out.index(start):out.index(end) if end else None]
    lines: dict[str, str] = {}
    label = None
    for ln in block.splitlines():
        if ln.lstrip().startswith("g="):
            label = ln.strip().split(":")[0]
            lines[label] = ln.strip()
        elif label is not None:
            lines[label] += " " + ln.strip()
    return lines


def test_the_commands_say_the_same_words(log, capsys):
    read = ["--by", "g", "--window", "1h", "--target", "0.95", "--n-boot", "0",
            "--outcomes", "error=failure"]
    assert main(["recalibrate", log, *read]) == 0
    rec = capsys.readouterr().out
    assert main(["latency", log, *read, "--duration", "seconds", "--duration-unit", "s",
                 "--thresholds", "1s"]) == 0
    lat = capsys.readouterr().out
    for out in (rec, lat):
        assert not re.search(r"\bnan\b", out, flags=re.IGNORECASE)
    rec_lines = _group_lines(rec, "g=day:", "no recommendation for")
    assert "verdict: too strict" in rec_lines["g=day"]
    assert "missed: " + MISSED_DAY.format(failed="failed") in rec_lines["g=day"]
    assert "no verdict" in rec_lines["g=thin"] and TIME_THIN in rec_lines["g=thin"]
    assert "missed" not in rec_lines["g=thin"]
    lat_lines = _group_lines(lat, "latency targets", "frontier (the")
    assert lat_lines["g=thin"] == f"g=thin: within 1 s: withheld: {TIME_THIN}"
    frontier = _group_lines(lat, "frontier (the")
    assert frontier["g=thin"] == f"g=thin: targets 0.5 .. 0.999: none ({TIME_THIN})"
