"""Durations on the terminal as an SRE found them: a group whose events all fell in warm-ups said
in ``latency`` as ``recalibrate`` says it (not "0 events ... they hold 0 expected failures"); a
timeout of 10,000 s with its thousands separated beside "2,423 s"; a burn column at one
precision (0.220 beside 0.372, not 0.22); and a duration column whose name ends in a unit the
``--duration-unit`` contradicts refused, never read 1,000 times off.

Oracles: hand-made logs, their figures by construction."""

from __future__ import annotations

import pandas as pd
import pytest

import budgetlab
from budgetlab.cli import main
from budgetlab.errors import ConfigError

T0 = pd.Timestamp("2026-01-01", tz="UTC")


def _said(text: str) -> str:
    return " ".join(text.split())


def _latency_log(path, column="took", scale=1):
    # group "thin": 5 successes of 500 ms, 2 days apart (each alone in its 24 h window: all 5 in
    # a warm-up). group "big": an attempt a minute for 2 days, every 10th a timeout of 10,000 s,
    # the others 1 s (a time in the unit given: ``scale`` per second)
    rows = [(T0 + pd.Timedelta(days=2 * i), "thin", "success", 0.5 * scale) for i in range(5)]
    rows += [(T0 + pd.Timedelta(minutes=m), "big", "timeout" if m % 10 == 0 else "success",
              (10_000 if m % 10 == 0 else 1) * scale) for m in range(2 * 24 * 60)]
    frame = pd.DataFrame(rows, columns=["ts", "g", "outcome", column]).sort_values(
        "ts", kind="stable")
    frame["ts"] = frame["ts"].dt.strftime("%Y-%m-%dT%H:%M:%SZ")
    frame.to_csv(path, index=False)
    return str(path)


WARMUP = ("0 events in the evaluated span: all 5 of the group's events fell within a warm-up "
          "(the first 24 h of a stretch of traffic, which only fills the window); no verdict and "
          "no recommendation without events after it")


def test_latency_says_a_group_all_in_warm_ups_as_recalibrate_does(tmp_path, capsys):
    log = _latency_log(tmp_path / "lat.csv")
    assert main(["latency", log, "--by", "g", "--duration", "took", "--duration-unit", "s",
                 "--thresholds", "2s", "--window", "24h", "--n-boot", "0"]) == 0
    out = _said(capsys.readouterr().out)
    assert f"g=thin: within 2 s: withheld: {WARMUP}" in out
    assert main(["recalibrate", log, "--by", "g", "--window", "24h", "--n-boot", "0",
                 "--out", str(tmp_path / "r.csv")]) == 0
    rec = pd.read_csv(tmp_path / "r.csv").set_index("g")
    assert rec.loc["thin", "verdict_reason"] == WARMUP


def test_a_timeout_of_ten_thousand_seconds_has_its_thousands_separated(tmp_path, capsys):
    log = _latency_log(tmp_path / "lat.csv")
    assert main(["latency", log, "--by", "g", "--duration", "took", "--duration-unit", "s",
                 "--thresholds", "2s", "--window", "24h", "--n-boot", "0"]) == 0
    out = _said(capsys.readouterr().out)
    assert "g=big: 2,880 attempts; timeout 10,000 s" in out
    assert "10000 s" not in out


def test_the_burn_column_has_one_precision(tmp_path, capsys):
    # 1,000 events at 95 % (a budget of 50 failures): 11 timeouts burn 11 / 50 = 0.22, 120
    # failures 120 / 50 = 2.4; three significant digits each: 0.220 and 2.40
    outcomes = ["timeout"] * 11 + ["failure"] * 120 + ["success"] * 869
    ts = pd.date_range("2026-01-01", periods=1000, freq="1min", tz="UTC")
    log = tmp_path / "b.csv"
    pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ"), "outcome": outcomes}).to_csv(
        log, index=False)
    assert main(["buckets", str(log), "--window", "24h", "--target", "0.95"]) == 0
    out = capsys.readouterr().out
    rows: dict[str, list[str]] = {}  # the first of each bucket's lines (the table wraps)
    for line in out.splitlines():
        if line.split()[:1] in (["timeout"], ["failure"]):
            rows.setdefault(line.split()[0], line.split())
    # bucket, events, failures, share_of_failures (2 tokens), failure_rate (2), burn_rate
    assert rows["timeout"][7] == "0.220" and rows["failure"][7] == "2.40"


REFUSED = ("--duration took_s ends in '_s' (seconds) but --duration-unit ms says milliseconds: "
           "give --duration-unit s if the column holds seconds, or rename the column if its name "
           "is wrong")


@pytest.mark.parametrize("command", [
    ["latency", "--by", "g", "--thresholds", "1s,2s"],
    ["replay", "--slow-above", "2s", "--window", "24h"],
])
def test_a_unit_the_column_name_contradicts_is_refused(tmp_path, capsys, command):
    log = _latency_log(tmp_path / "lat_s.csv", column="took_s")
    assert main([command[0], log, "--duration", "took_s", "--duration-unit", "ms",
                 *command[1:]]) == 2
    err = capsys.readouterr().err
    assert _said(err) == f"budgetlab: error: {REFUSED}"


def test_the_unit_the_name_says_is_read(tmp_path, capsys):
    # the same column in its own unit: big's 2,592 successes of 1 s and none slower than 2 s;
    # above 0.5 s: the 2,592 of big (thin's 500 ms successes are not above it)
    log = _latency_log(tmp_path / "lat_s.csv", column="took_s")
    assert main(["replay", log, "--duration", "took_s", "--duration-unit", "s", "--slow-above",
                 "500ms", "--window", "24h"]) == 0
    both = _said(capsys.readouterr().err)
    assert "successes slower than 500 ms counted as failures in bucket 'slow': 2,592 rows" in both


def test_the_api_refuses_in_its_own_words(tmp_path):
    log = _latency_log(tmp_path / "lat_ms.csv", column="took_ms", scale=1000)
    with pytest.raises(ConfigError) as e:
        budgetlab.read_events(log, duration="took_ms", duration_unit="s")
    assert str(e.value) == (
        "duration='took_ms' ends in '_ms' (milliseconds) but duration_unit='s' says seconds: "
        "pass duration_unit='ms' if the column holds milliseconds, or rename the column if its "
        "name is wrong")
