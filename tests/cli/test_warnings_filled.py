"""A warning the command line prints is filled to 100 columns as its notes are (cli/prose.py
``wrap``): ``budgetlab: warning:`` on the first line, the next lines indented two spaces, never
broken inside a flag, a figure and its unit, a date and its time, nor a word longer than the
line. Before stop 56 each warning was one line: the unused ``--target`` warning on the Elastic
access log 132 columns here, ``backtest``'s scrape-gap warning 269
(tests/interop/test_backtest_line_width.py).

The width is the notes' 100 columns whatever the terminal's (``COLUMNS`` 80 and 250 give the
same lines). Oracles: the lines written by hand from the rule."""

from __future__ import annotations

import io
from contextlib import redirect_stderr
from pathlib import Path

import pytest

from budgetlab.cli import main
from budgetlab.cli.app import _show_warning

ACCESS = Path(__file__).resolve().parents[1] / "fixtures" / "elastic_apache" / "apache_logs"


@pytest.mark.parametrize("columns", ["80", "250"])
def test_the_unused_target_warning_on_a_real_log_is_filled(columns, monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", columns)
    assert main(["replay", str(ACCESS), "--preset", "access", "--by", "method", "--target",
                 "GET=0.99,POST=0.95,HEAD=0.9,OPTIONS=0.9,PUT=0.9,DELETE=0.9,PATCH=0.9"]) == 0
    err = capsys.readouterr().err
    start = err.index("budgetlab: warning:")
    assert err[start:].splitlines()[:2] == [
        "budgetlab: warning: --target names PUT, DELETE, PATCH, which the log does not have (its "
        "groups: GET,",  # 100 columns
        "  HEAD, OPTIONS, POST): not used."]


def _shown(message: str) -> list[str]:
    with redirect_stderr(io.StringIO()) as err:
        _show_warning(set(), UserWarning(message), UserWarning, "", 0)
    return err.getvalue().splitlines()


def test_flags_figures_dates_and_long_words_stay_whole():
    # a break at the 100th column would fall inside each of these
    assert _shown("x" * 66 + " with --min-events-per-window 3 over 3 h 21 min") == [
        "budgetlab: warning: " + "x" * 66 + " with",
        "  --min-events-per-window 3 over 3 h 21 min"]
    assert _shown("a gap of " + "y" * 62 + " over 3 h 21 min from 2026-10-06 03:13 UTC") == [
        "budgetlab: warning: a gap of " + "y" * 62 + " over",
        "  3 h 21 min from 2026-10-06 03:13 UTC"]
    assert _shown("a gap of " + "y" * 52 + " from 2026-10-06 03:13 UTC") == [
        "budgetlab: warning: a gap of " + "y" * 52 + " from",
        "  2026-10-06 03:13 UTC"]
    long = "/data/" + "z" * 110 + "/log.csv"
    assert _shown(f"{long}: skipped 1 line.") == ["budgetlab: warning:", f"  {long}:",
                                                  "  skipped 1 line."]
    assert _shown("a short one.") == ["budgetlab: warning: a short one."]

