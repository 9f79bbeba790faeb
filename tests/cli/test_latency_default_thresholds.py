"""budgetlab latency without --thresholds takes latency_recalibrate's default grid (the 50th, 75th,
90th, 95th and 99th percentiles of the successes' durations, each rounded up to 0.1 s) and says
so, as its --help does.

Hand-made log: 100 successes of 10, 20, ..., 1,000 ms. The percentiles (linear interpolation
between order statistics, at (n - 1) p): p50 at 49.5 = 505 ms, p75 at 74.25 = 752.5 ms, p90 at
89.1 = 901 ms, p95 at 94.05 = 950.5 ms, p99 at 98.01 = 990.1 ms; rounded up to 0.1 s: 600 ms,
800 ms, 1 s, 1 s, 1 s: the grid 600 ms, 800 ms, 1 s. Within 600 ms: 60 of 100 (60.00 %); within
800 ms: 80; within 1 s: all 100.
"""

from __future__ import annotations

import pandas as pd

from budgetlab.cli import main


def test_the_default_grid_is_stated_and_used(tmp_path, capsys):
    path = tmp_path / "log.csv"
    pd.DataFrame({"ts": [f"2026-01-01T{m // 60:02d}:{m % 60:02d}:00Z" for m in range(100)],
                  "outcome": "success", "ms": [10 * i for i in range(1, 101)]}).to_csv(
        path, index=False)
    assert main(["latency", str(path), "--duration", "ms", "--duration-unit", "ms"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "no --thresholds: the thresholds 600ms, 800ms, 1s," in text
    assert "within 600 ms: 60.00 % (60 good;" in text
    assert "within 800 ms: 80.00 % (80 good;" in text
    assert "within 1 s: 100.00 % (100 good;" in text


def test_help_gives_the_default(capsys):
    assert main(["latency", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert ("default: the 50th, 75th, 90th, 95th and 99th percentiles of the successes' "
            "durations") in text
