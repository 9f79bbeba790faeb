"""``budgetlab latency --timeouts auto`` (stop 59): the candidates read from the log by the rule
of notebook 05's ``timeouts = "auto"`` (a third, a half, three quarters and all of the longest
timeout in force), the reading stated under the trade-off's header. Figures by hand."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab.cli import main

#: group a: successes of 1 .. 9 s and three timeouts at 10 s; group b: successes of 1 .. 5 s and
#: three timeouts at 6 s (seconds)
ROWS = ([("a", "success", s) for s in range(1, 10)] + [("a", "timeout", 10)] * 3
        + [("b", "success", s) for s in range(1, 6)] + [("b", "timeout", 6)] * 3)


@pytest.fixture
def log(tmp_path):
    path = tmp_path / "log.csv"
    pd.DataFrame({"ts": pd.date_range("2026-01-01", periods=len(ROWS), freq="7s", tz="UTC")
                  .strftime("%Y-%m-%dT%H:%M:%SZ"), "g": [g for g, _, _ in ROWS],
                  "outcome": [o for _, o, _ in ROWS], "dur": [s for _, _, s in ROWS]}
                 ).to_csv(path, index=False)
    return path


def _latency(log, *flags):
    return main(["latency", str(log), "--duration", "dur", "--duration-unit", "s", "--thresholds",
                 "5s", *flags])


def test_auto_reads_the_longest_timeout_in_force_and_says_so(log, capsys):
    """The timeouts in force: 10 s (a), 6 s (b); the longest 10 s: candidates 10/3 = 3.333 s
    (floored to ms), 5 s, 7.5 s, 10 s. Group a at 3.333 s: the successes of 4 .. 9 s are cut
    (6 lost of 12 attempts, 50.00 %), 6 + 3 timed out (75.00 %); the waiting saved
    (39 - 6 x 3.333) + 3 x (10 - 3.333) = 39.003 s over 12 attempts = 3.25 s. Group b cannot
    judge 7.5 s or 10 s (its timeout is 6 s)."""
    assert _latency(log, "--by", "g", "--timeouts", "auto") == 0
    text = " ".join(capsys.readouterr().out.split())
    assert ("--timeouts auto: 3.333 s, 5 s, 7.5 s, 10 s (a third, a half, three quarters and all "
            "of the longest timeout in force, 10 s, read from the log: the smallest duration of "
            "the timeouts that no success outlasts, in g=a)") in text
    assert ("g=a: at 3.333 s: timed out 75.00 %, successes lost 50.00 % of attempts (6), "
            "waiting saved 3.25 s per attempt, availability 25.00 %") in text
    assert "g=b: client timeouts of 7.5 s, 10 s are longer than its timeout in force (6 s)" in text


def test_auto_with_a_client_timeout_says_it_came_from_the_flag(log, capsys):
    """--client-timeout 12s: 4, 6, 9 and 12 s. At 4 s, of all 20 attempts, the successes of
    5 .. 9 s (a) and 5 s (b) are lost: 6 of 20 = 30.00 %."""
    assert _latency(log, "--timeouts", "auto", "--client-timeout", "12s") == 0
    text = " ".join(capsys.readouterr().out.split())
    assert ("--timeouts auto: 4 s, 6 s, 9 s, 12 s (a third, a half, three quarters and all of the "
            "longest timeout in force, 12 s, given by --client-timeout)") in text
    assert "all events: at 4 s: timed out 60.00 %, successes lost 30.00 % of attempts (6)" in text


def test_auto_beside_durations_is_refused_in_one_line(log, capsys):
    assert _latency(log, "--timeouts", "auto,3s") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("budgetlab: error: --timeouts auto,3s: auto "
                                                   "reads the candidates from the log"), err


def test_the_help_says_auto(capsys):
    assert main(["latency", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "DURATION,...|auto" in text and "auto: a third, a half, three quarters" in text


def test_auto_on_a_log_without_a_timeout_is_refused_naming_both_flags(tmp_path, capsys):
    """Successes only: no timeout in force to read candidates from."""
    path = tmp_path / "ok.csv"
    pd.DataFrame({"ts": ["2026-01-01T00:00:00Z", "2026-01-01T00:01:00Z"], "outcome": "success",
                  "dur": [1, 2]}).to_csv(path, index=False)
    assert _latency(path, "--timeouts", "auto") == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "budgetlab: error: the log shows no client timeout (no 'timeout' row that no success "
        "outlasts), so no candidate timeouts can be read from it; give --client-timeout (the one "
        "in force) or the candidates: --timeouts DURATION,...")
