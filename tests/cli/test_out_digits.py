"""Every table output writes its float figures to 12 significant digits (one rule,
budgetlab.cli.shared.out_figures; each --help says so): float noise of the arithmetic is not
written as if it were measured. Hand-made log, hand-computed figures: 21 events 1 min apart
(2026-01-01 00:00 .. 00:20), two timeouts, target 0.9, window 10 min."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab import SLO, bucket_breakdown, read_events
from budgetlab.cli import main


@pytest.fixture
def log(tmp_path):
    path = tmp_path / "log.csv"
    ts = pd.date_range("2026-01-01", periods=21, freq="1min", tz="UTC")
    outcome = ["success"] * 21
    outcome[5] = outcome[6] = "timeout"
    pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ"), "outcome": outcome}).to_csv(
        path, index=False)
    return path


def cells(path, column):
    """The text of ``column``'s cells as the file holds them (no float parsing)."""
    return pd.read_csv(path, dtype=str)[column].tolist()


def test_buckets_out_writes_a_noisy_burn_as_its_12_digits(log, tmp_path, capsys):
    # burn = 2 failures / (21 events x (1 - 0.9)) = 20/21 = 0.952380952380952...; 1 - 0.9 is
    # 0.09999999999999998 in floats, so the API's figure carries noise in its last digits
    noisy = bucket_breakdown(read_events(log), SLO(target=0.9, window="10min"))["burn_rate"]
    assert noisy.iloc[0] != 20 / 21  # the noise this rule drops
    out = tmp_path / "b.csv"
    assert main(["buckets", str(log), "--target", "0.9", "--window", "10min", "--out",
                 str(out)]) == 0
    assert cells(out, "burn_rate") == ["0.952380952381"]
    assert cells(out, "failure_rate") == ["0.0952380952381"]  # 2/21
    assert cells(out, "failures") == ["2"]  # counts exactly


def test_compare_windows_out_writes_hours_as_their_12_digits(log, tmp_path, capsys):
    # evaluated time: the 20 min of the log after the 10 min window's warm-up, 10 min = 1/6 h
    out = tmp_path / "c.csv"
    assert main(["compare-windows", str(log), "--target", "0.9", "--windows", "10min", "--out",
                 str(out)]) == 0
    assert cells(out, "hours") == ["0.166666666667"]
    assert cells(out, "events") == ["11"]  # the events in those 10 min, 00:10 .. 00:20


@pytest.mark.parametrize("command", ["recalibrate", "compare-windows", "buckets", "incident",
                                     "alerts", "latency", "backtest"])
def test_every_table_output_says_its_precision_in_help(command, capsys):
    assert main([command, "--help"]) == 0
    assert "its figures to 12 significant digits" in " ".join(capsys.readouterr().out.split())


@pytest.mark.parametrize("command", ["replay", "demo"])
def test_replay_and_demo_out_say_the_seed_rounding_in_help(command, capsys):
    assert main([command, "--help"]) == 0
    assert ("its figures rounded as the seed tracker's report rounds them"
            in " ".join(capsys.readouterr().out.split()))
