"""``budgetlab incident --out`` writes the tracker's figures at each status change to 12
significant digits, as its --help says: computed from the change's counts, not the seed report's
rounding (``replay --out`` keeps that). Before, a change to CRITICAL at 9 failures in 901 events
(target 0.99) was written with ``burn_rate`` 1.0 and ``budget_remaining`` 0.0, the figures of an
EXHAUSTED budget, beside ``to_status`` critical.

Hand-built log: group POST, 901 events 1 s apart from 2026-01-05 00:00:00 UTC, the last 9 failed;
group GET, 901 successes 0.5 s later each. Target 0.99, window 1 h (the whole log in the window).
POST goes WARNING at its 897th event (5 failures: remaining (8.97 - 5) / 8.97 < 0.5) and CRITICAL
at its 901st (9 failures: remaining (9.01 - 9) / 9.01 < 0.1).

And ``--breakdown-by``'s help says what the command enforces: its keys are among --by's (it said
"group keys of the bucket breakdown (default: --by)", and another key was refused)."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab.cli import main


@pytest.fixture
def log(tmp_path):
    path = tmp_path / "log.csv"
    t0 = pd.Timestamp("2026-01-05", tz="UTC")
    post = pd.DataFrame({"ts": t0 + pd.to_timedelta(range(901), unit="s"), "method": "POST",
                         "outcome": ["success"] * 892 + ["error"] * 9})
    get = pd.DataFrame({"ts": t0 + pd.to_timedelta([i + 0.5 for i in range(901)], unit="s"),
                        "method": "GET", "outcome": "success"})
    ev = pd.concat([post, get]).sort_values("ts")
    ev.assign(ts=ev["ts"].dt.strftime("%Y-%m-%dT%H:%M:%S.%fZ")).to_csv(path, index=False)
    return path


def test_incident_out_writes_the_changes_unrounded(log, tmp_path, capsys):
    out = tmp_path / "changes.csv"
    assert main(["incident", str(log), "--by", "method", "--target", "0.99", "--window", "1h",
                 "--start", "2026-01-05T00:00:00Z", "--end", "2026-01-05T00:20:00Z",
                 "--outcomes", "success=success,error=error", "--out", str(out)]) == 0
    rows = pd.read_csv(out).set_index("to_status")
    assert list(rows.index) == ["warning", "critical"]
    assert set(rows["method"]) == {"POST"}
    crit, warn = rows.loc["critical"], rows.loc["warning"]
    assert (crit["total_events"], crit["failures"]) == (901, 9)
    # by hand: 892 / 901; budget 901 x 0.01 = 9.01 failures, 9.01 - 9 = 0.01 left,
    # 0.01 / 9.01 = 0.111 % of it; burn 9 / 9.01
    assert crit["current_rate"] == pytest.approx(892 / 901, rel=1e-11)
    assert crit["budget_total"] == pytest.approx(9.01, rel=1e-11)
    assert crit["budget_remaining"] == pytest.approx(0.01, rel=1e-9)
    assert crit["budget_remaining_pct"] == pytest.approx(100 / 901, rel=1e-9)
    assert crit["burn_rate"] == pytest.approx(9 / 9.01, rel=1e-11)
    assert crit["burn_rate"] < 1  # a burn of 1.0 would be EXHAUSTED, not critical
    # WARNING: 5 failures in 897 events, budget 8.97, burn 5 / 8.97
    assert warn["burn_rate"] == pytest.approx(5 / 8.97, rel=1e-11)
    assert warn["current_rate"] == pytest.approx(892 / 897, rel=1e-11)


def test_incident_out_help_says_the_figures_are_not_the_seed_rounding(capsys):
    assert main(["incident", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert ("current_rate, burn_rate and the budget columns computed from each change's counts, "
            "not rounded as the seed's report and replay --out round them") in text


def test_breakdown_by_help_says_its_keys_are_among_by(capsys):
    # a key not among --by is refused (cli/incidents.py _breakdown_keys): the help says so
    assert main(["incident", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert ("--breakdown-by BREAKDOWN_BY group keys of the bucket breakdown, some or all of "
            "--by's keys (others are refused: the log keeps only the --by keys; default: --by)"
            ) in text


def test_breakdown_by_outside_by_is_refused_as_the_help_says(log, capsys):
    assert main(["incident", str(log), "--target", "0.99", "--window", "1h",
                 "--start", "2026-01-05T00:00:00Z", "--end", "2026-01-05T00:20:00Z",
                 "--outcomes", "success=success,error=error", "--breakdown-by", "method"]) == 2
    assert "--breakdown-by names column 'method', which the log was not read with" in " ".join(
        capsys.readouterr().err.split())
