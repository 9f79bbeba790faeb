"""Stop 60: ``compare-windows --window 24h`` said "...never under the SLO's own window; give
yours there; leave it out." (two instructions, "there" and "it" unclear). One line, exit 2, one
instruction naming both flags."""

from __future__ import annotations

from budgetlab.cli import main


def test_compare_windows_refuses_window_with_one_instruction(tmp_path, capsys):
    log = tmp_path / "log.csv"
    log.write_text("ts,outcome\n2026-06-01T00:00:00Z,success\n")
    assert main(["compare-windows", str(log), "--window", "24h", "--windows", "1h,6h"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["budgetlab: error: --window would do nothing: compare-windows replays the "
                   "tracker under each window of --windows, never under --window; leave --window "
                   "out and list every window to compare in --windows (e.g. --windows 1h,24h)."]
