"""``budgetlab latency``: what stop 57's stranger found, through the command line. A timeout row
shorter than a success is not the timeout in force; a quantile one attempt cannot bound is
withheld; duplicate quantiles are merged; the reading note says how durations were read."""

from __future__ import annotations

import numpy as np
import pandas as pd

from budgetlab.cli import main


def test_the_strangers_log_reads_the_5s_timeout(tmp_path, capsys):
    """Pandas counts 395, 880 and 952 of 1,000 successes within 250 ms, 1 s and 5 s; the 30 ms
    timeout rows (28) end before the 2.9911 s longest success, so 5 s is the timeout in force
    (it read 30 ms: "within 250 ms: 0.40 %")."""
    rng = np.random.default_rng(0)
    n = 1000
    ts = pd.date_range("2026-10-05", periods=n, freq="1min", tz="UTC")
    out = np.where(rng.random(n) < 0.95, "success", "timeout")
    ms = np.round(rng.lognormal(np.log(300), 0.8, n), 1)
    ms = np.where(out == "timeout", np.where(np.arange(n) % 2 == 0, 30.0, 5000.0), ms)
    raw = pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ"), "outcome": out, "dur_ms": ms})
    ok = raw["outcome"] == "success"
    assert [int((ok & (raw["dur_ms"] <= t)).sum()) for t in (250, 1000, 5000)] == [395, 880, 952]
    path = tmp_path / "t.csv"
    raw.to_csv(path, index=False)
    assert main(["latency", str(path), "--duration", "dur_ms", "--duration-unit", "ms",
                 "--thresholds", "250ms,1s,5s"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "within 250 ms: 39.50 % (395 good;" in text
    assert "within 1 s: 88.00 % (880 good;" in text
    assert "within 5 s: 95.20 % (952 good;" in text
    assert ("timeout 5 s (the smallest duration of the group's timeouts that no success "
            "outlasts; 28 timeouts of the group, from 30 ms, shorter than its longest success, "
            "2.9911 s: ended before the timeout in force, read at their own duration)") in text


def one_csv(tmp_path):
    path = tmp_path / "one.csv"
    path.write_text("ts,outcome,sitekey,dur_ms\n2026-10-05T00:00:00Z,success,a,210\n"
                    "2026-10-05T00:01:00Z,success,b,300\n2026-10-05T00:02:00Z,success,b,900\n"
                    "2026-10-05T00:03:00Z,timeout,b,5000\n")
    return path


def test_one_attempt_withholds_its_quantiles(tmp_path, capsys):
    """Sitekey a, one 210 ms success: p99 withheld, from 0.21 s, no upper end (it printed
    "0.21 s (95 % interval 0.21 s .. 0.21 s)"); sitekey b's median 0.9 s from 0.3 s, above the
    5 s timeout (by hand in tests/analyses/test_latency_quantile_withheld.py)."""
    assert main(["latency", str(one_csv(tmp_path)), "--duration", "dur_ms", "--duration-unit",
                 "ms", "--thresholds", "250ms", "--by", "sitekey"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "0.21 s .. 0.21 s" not in text
    assert "p99 time to success: withheld (95 % interval from 0.21 s, no upper end)" in text
    # p50, p90 and p99 withheld alike: one note names them (stop 58; it said p99 on its own)
    assert ("p50, p90, p99 withheld: 1 attempt cannot bound them from above (the lower 95 % "
            "limit of the curve never reaches 50 %, 90 % or 99 % before it ends at the longest "
            "duration, 210 ms: no timeout in force in this group (no 'timeout' row that no "
            "success outlasts); Brookmeyer-Crowley); even successes alone need at least 6 "
            "attempts for p50, 30 for p90, 296 for p99") in text
    assert "p50 time to success: 0.9 s (95 % interval 0.3 s .. > 5 s)" in text


def test_duplicate_quantiles_are_merged(tmp_path, capsys):
    assert main(["latency", str(one_csv(tmp_path)), "--duration", "dur_ms", "--duration-unit",
                 "ms", "--thresholds", "250ms,250ms", "--quantiles", "0.5,0.5"]) == 0
    text = capsys.readouterr().out
    assert text.count("p50 time to success") == 1 and text.count("within 250 ms") == 1


def test_the_note_says_an_unused_duration_unit(tmp_path, capsys):
    path = tmp_path / "txt.csv"
    path.write_text("ts,outcome,d\n2026-10-05T00:00:00Z,success,250ms\n"
                    "2026-10-05T00:01:00Z,success,2s\n2026-10-05T00:02:00Z,timeout,5s\n")
    assert main(["latency", str(path), "--duration", "d", "--duration-unit", "s",
                 "--thresholds", "1s"]) == 0
    err = " ".join(capsys.readouterr().err.split())
    assert ("durations: column 'd', text with units (--duration-unit s not used), kept as the "
            "'duration' column") in err
    assert "numbers in s" not in err
    path.write_text("ts,outcome,d\n2026-10-05T00:00:00Z,success,0.25\n"
                    "2026-10-05T00:01:00Z,success,2s\n2026-10-05T00:02:00Z,timeout,5s\n")
    assert main(["latency", str(path), "--duration", "d", "--duration-unit", "s",
                 "--thresholds", "1s"]) == 0
    captured = capsys.readouterr()
    err = " ".join(captured.err.split())
    assert ("durations: column 'd', numbers in s (1 row) and text with units (2 rows), kept as "
            "the 'duration' column") in err
    # 0.25 read in s: 1 of 3 within 1 s
    assert "within 1 s: 33.33 % (1 good;" in " ".join(captured.out.split())
