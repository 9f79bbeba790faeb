"""Every command's ``--help`` at the widths terminals have: no line broken at a hyphen (argparse's
own filling split ``--tiers-out`` and ``client-timeout trade-off`` at the end of a line, 22 times
at 60 columns) and no run of spaces inside a help text. Oracle: the rule as stated, and the
top-level line of ``latency`` at 80 columns laid out by hand."""

from __future__ import annotations

import re

import pytest

from budgetlab.cli import main

COMMANDS = [[], ["demo"], ["replay"], ["recalibrate"], ["compare-windows"], ["buckets"],
            ["incident"], ["alerts"], ["latency"], ["backtest"], ["notebooks"], ["export"],
            ["export", "openslo"], ["export", "prometheus"]]


def _help(argv, columns, monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", str(columns))
    assert main([*argv, "--help"]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("columns", [60, 80, 120])
def test_no_help_line_is_broken_at_a_hyphen(columns, monkeypatch, capsys):
    for argv in COMMANDS:
        text = _help(argv, columns, monkeypatch, capsys)
        assert [ln for ln in text.splitlines() if re.search(r"\w-$", ln)] == [], argv
        # the columns' padding aside, words are one space apart
        assert [ln for ln in text.splitlines() if re.search(r"\S  +\S", ln.strip())
                and not re.match(r"\s*(-|\w[\w-]*\s{2,}|[A-Z])", ln)] == [], argv


def test_the_latency_line_of_the_command_list_keeps_trade_off_whole(monkeypatch, capsys):
    lines = _help([], 80, monkeypatch, capsys).splitlines()
    i = next(i for i, ln in enumerate(lines) if ln.lstrip().startswith("latency "))
    assert [ln.strip() for ln in lines[i:i + 3]] == [
        "latency        latency profile of a log with durations: shares within",
        "thresholds, censored quantiles, the client-timeout",
        "trade-off"]
