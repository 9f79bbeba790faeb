"""Every table output writes a duration in a CSV as its ``window`` column writes a window
(``24m``, ``1h30m``, ``10s``, ``0s``; ``m`` is minutes), never pandas' ``0 days 00:24:00``, to
12 significant digits as every figure (budgetlab.cli.shared.out_figures,
budgetlab._util.files.write_table); Parquet keeps its duration type. Hand-made logs, hand-read
expected cells."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab._util.durations import to_timedelta
from budgetlab.cli import main


def cells(path, column):
    """The text of ``column``'s cells as the file holds them (empty cells as '')."""
    return pd.read_csv(path, dtype=str, keep_default_na=False)[column].tolist()


@pytest.fixture
def outage(tmp_path):
    """One attempt a minute 00:00 .. 05:59; every attempt 02:00 .. 02:29 fails; an incident
    02:00 .. 02:30 (the example of budgetlab.window_incidents)."""
    ts = pd.date_range("2026-01-01", periods=6 * 60, freq="1min", tz="UTC")
    outcome = ["timeout" if 120 <= i < 150 else "success" for i in range(len(ts))]
    log = tmp_path / "log.csv"
    pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ"), "outcome": outcome}).to_csv(
        log, index=False)
    incidents = tmp_path / "incidents.csv"
    pd.DataFrame({"incident_id": ["i1"], "start": ["2026-01-01T02:00:00Z"],
                  "end": ["2026-01-01T02:30:00Z"]}).to_csv(incidents, index=False)
    return log, incidents


def test_compare_windows_writes_dwell_detection_and_recovery_as_durations(outage, tmp_path,
                                                                         capsys):
    # the 1 h window at target 0.9 reaches critical at 02:05 + 1 ns (a success leaving the
    # window just after its closed edge) and falls below it at 03:24 + 1 ns, when the 02:24
    # failure leaves: 5 min and 54 min, whose 1 ns is far below 12 significant digits
    log, incidents = outage
    out = tmp_path / "cw.csv"
    assert main(["compare-windows", str(log), "--target", "0.9", "--windows", "1h",
                 "--incidents", str(incidents), "--out", str(out)]) == 0
    assert cells(out, "min_dwell") == ["0s"]  # it was '0 days'
    assert cells(out, "detection_median") == ["5m"]  # it was '0 days 00:05:00.000000001'
    assert cells(out, "recovery_median") == ["54m"]  # it was '0 days 00:54:00.000000001'
    assert cells(out, "window") == ["1h"]


def test_compare_windows_min_dwell_of_90_minutes(outage, tmp_path, capsys):
    log, _ = outage
    out = tmp_path / "cw.csv"
    assert main(["compare-windows", str(log), "--target", "0.9", "--windows", "1h",
                 "--min-dwell", "90min", "--out", str(out)]) == 0
    assert cells(out, "min_dwell") == ["1h30m"]
    assert to_timedelta(cells(out, "min_dwell")[0]) == pd.Timedelta(minutes=90)  # read back


def test_incident_tiers_out_writes_the_windows_of_the_tiers(outage, tmp_path, capsys):
    log, _ = outage
    out = tmp_path / "tiers.csv"
    assert main(["incident", str(log), "--start", "2026-01-01T02:00:00Z", "--end",
                 "2026-01-01T02:30:00Z", "--target", "0.9", "--tiers-out", str(out)]) == 0
    # the workbook's tiers: 1 h / 5 min, 6 h / 30 min, 1 d / 2 h, 3 d / 6 h
    assert cells(out, "long_window") == ["1h", "6h", "1d", "3d"]
    assert cells(out, "short_window") == ["5m", "30m", "2h", "6h"]


def test_latency_out_writes_its_thresholds_as_durations(tmp_path, capsys):
    log = tmp_path / "log.csv"
    pd.DataFrame({"ts": ["2026-01-01T00:00:00Z", "2026-01-01T00:01:00Z"],
                  "outcome": ["success", "success"], "ms": [800, 12000]}).to_csv(log, index=False)
    out = tmp_path / "shares.csv"
    assert main(["latency", str(log), "--duration", "ms", "--duration-unit", "ms",
                 "--thresholds", "500ms,10s", "--out", str(out)]) == 0
    assert cells(out, "threshold") == ["500ms", "10s"]  # it was '0 days 00:00:10'


def test_parquet_keeps_the_duration_type(outage, tmp_path, capsys):
    log, _ = outage
    out = tmp_path / "cw.parquet"
    assert main(["compare-windows", str(log), "--target", "0.9", "--windows", "1h",
                 "--min-dwell", "90min", "--out", str(out)]) == 0
    assert pd.read_parquet(out)["min_dwell"].tolist() == [pd.Timedelta(minutes=90)]


@pytest.mark.parametrize("command", ["recalibrate", "compare-windows", "buckets", "incident",
                                     "alerts", "latency", "backtest"])
def test_every_table_output_says_its_duration_form_in_help(command, capsys):
    assert main([command, "--help"]) == 0
    assert ("a duration in a CSV as the window column writes one: 24m (minutes), 1h30m, 10s"
            in " ".join(capsys.readouterr().out.split()))
