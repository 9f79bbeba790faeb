"""The headers of ``compare-windows`` and ``replay`` (the lines above their tables) are filled to
100 columns as every command's prose is: ``compare-windows`` printed the file name, the span and
the compared windows on one line of 149 characters for the NAB metric file
``ec2_request_latency_system_failure.csv``, and ``replay`` its name and span on one line of 110 for
that file named with its NAB folder (``realKnownCause_ec2_...``). Oracle: the widths stated by hand
(100 columns, the project's rule); the tables' columns are not prose and are left out of the
check."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab.cli import main


@pytest.fixture
def metric(tmp_path):
    """Two days of a 5-minute metric, its value 60 (over the threshold) for one hour a day,
    named as NAB's file with its folder."""
    ts = pd.date_range("2014-03-07 03:41", periods=2 * 288, freq="5min")
    value = [60 if t.hour == 12 else 20 for t in ts]
    path = tmp_path / "realKnownCause_ec2_request_latency_system_failure.csv"
    pd.DataFrame({"timestamp": ts.strftime("%Y-%m-%d %H:%M:%S"), "value": value}).to_csv(
        path, index=False)
    return path


def _header(text: str) -> list[str]:
    """The lines after the "how it was read" block and before the first table or blank line."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if not line.startswith(("how it", "  ")))
    end = next(i for i in range(start, len(lines)) if not lines[i].strip())
    return lines[start:end]


@pytest.mark.parametrize("argv", [["compare-windows"], ["replay", "--window", "30d"]],
                         ids=["compare-windows", "replay"])
def test_the_header_lines_are_at_most_100_columns(metric, argv, capsys):
    rc = main([argv[0], str(metric), "--time", "timestamp", "--ok-when", "value<50", *argv[1:]])
    header = _header(capsys.readouterr().out)
    assert rc == 0
    # the name, 576 events (2 x 288) and the span 2014-03-07 03:41 .. 2014-03-09 03:36 UTC
    assert " ".join(header).startswith(
        "realKnownCause_ec2_request_latency_system_failure.csv: 576 events, 2014-03-07 03:41 .. "
        "2014-03-09 03:36 UTC")
    assert [len(line) for line in header if len(line) > 100] == []
    if argv[0] == "compare-windows":  # the windows compared, on the line the header wraps to
        assert "seed tracker under 4 windows: 1 h, 6 h, 24 h, 7 d" in " ".join(header)
    else:  # the partial-window note, a line of its own
        assert header[-1] == ("note: the window (30 d) is longer than the data (1 d 23 h 55 min); "
                              "every window is partial.")  # 47 h 55 min
