"""``latency`` says a group's withheld quantiles in one note naming them all (stop 58): a group
with three withheld quantiles printed three notes, and ``--show-groups 0`` on thousands of
one-attempt groups printed three notes each. The line under the profile says where timeouts are
censored: at each group's timeout in force, not "at the timeout" (a timeout row shorter than a
success of its group is read at its own duration)."""

from __future__ import annotations

import re

import pandas as pd

from budgetlab.cli import main

#: A note's first line: "  p50, p90, p99 withheld: ..." (one or more quantiles named).
NOTE = re.compile(r"^  p[\d.]+(?:, p[\d.]+)* withheld: ", flags=re.M)


def _run(tmp_path, rows, *extra):
    path = tmp_path / "log.csv"
    pd.DataFrame(rows, columns=["ts", "outcome", "sitekey", "dur_ms"]).to_csv(path, index=False)
    return main(["latency", str(path), "--duration", "dur_ms", "--duration-unit", "ms",
                 "--thresholds", "250ms", "--by", "sitekey", *extra])


def test_three_withheld_quantiles_are_one_note(tmp_path, capsys):
    """Sitekey a: one 210 ms success, no timeout row: p50, p90 and p99 withheld (successes alone
    need 6, 30 and 296 attempts: tests/analyses/test_latency_quantile_withheld.py). Sitekey b:
    0.3 s and 0.9 s successes and a 5 s timeout the curve reaches: nothing withheld."""
    rows = [("2026-10-05T00:00:00Z", "success", "a", 210),
            ("2026-10-05T00:01:00Z", "success", "b", 300),
            ("2026-10-05T00:02:00Z", "success", "b", 900),
            ("2026-10-05T00:03:00Z", "timeout", "b", 5000)]
    assert _run(tmp_path, rows) == 0
    out = capsys.readouterr().out
    assert len(NOTE.findall(out)) == 1
    assert ("p50, p90, p99 withheld: 1 attempt cannot bound them from above (the lower 95 % "
            "limit of the curve never reaches 50 %, 90 % or 99 % before it ends at the longest "
            "duration, 210 ms: no timeout in force in this group (no 'timeout' row that no "
            "success outlasts); Brookmeyer-Crowley); even successes alone need at least 6 "
            "attempts for p50, 30 for p90, 296 for p99") in " ".join(out.split())


def test_show_groups_0_prints_one_note_a_group(tmp_path, capsys):
    """50 sitekeys of one 100 ms success each, every one printed: each withholds p50, p90 and
    p99, so 50 notes (it printed 150), each naming the three."""
    rows = [(f"2026-10-05T00:{k:02d}:00Z", "success", f"s{k:02d}", 100) for k in range(50)]
    assert _run(tmp_path, rows, "--show-groups", "0") == 0
    out = capsys.readouterr().out
    notes = NOTE.findall(out)
    assert len(notes) == 50 and set(notes) == {"  p50, p90, p99 withheld: "}


def test_the_footer_says_the_timeout_in_force(tmp_path, capsys):
    """Sitekey a: successes of 1 s and 2 s, timeouts of 0.5 s (shorter than a success: ended
    before the timeout in force, read at its own duration) and 3 s (the timeout in force)."""
    rows = [("2026-10-05T00:00:00Z", "success", "a", 1000),
            ("2026-10-05T00:01:00Z", "timeout", "a", 500),
            ("2026-10-05T00:02:00Z", "success", "a", 2000),
            ("2026-10-05T00:03:00Z", "timeout", "a", 3000)]
    assert _run(tmp_path, rows) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "timeout 3 s (" in text
    assert "censored at the timeout," not in text
    assert ("Kaplan-Meier, timeouts censored at each group's timeout in force (--client-timeout, "
            "else the smallest timeout no success of the group outlasts; a timeout shorter than "
            "a success at its own duration), solve errors censored at their duration") in text
