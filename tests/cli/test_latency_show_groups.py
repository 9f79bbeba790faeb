"""``latency`` with more groups than ``--show-groups`` (default 40) prints that many, the most
attempts first, in every block that speaks per group, and says so in one line, as ``replay``,
``buckets``, ``recalibrate`` and ``compare-windows`` do. It printed every group: 3,200 sitekeys,
24,103 lines."""

from __future__ import annotations

import re

import pandas as pd
import pytest

from budgetlab.cli import main


def _log(tmp_path):
    """45 sitekeys, s00 .. s44; s<k> has 10 + k attempts (s44 the most), one a minute, each a
    success of 100 ms."""
    frames = []
    for k in range(45):
        n = 10 + k
        frames.append(pd.DataFrame({
            "ts": pd.date_range("2026-01-05", periods=n, freq="1min", tz="UTC"),
            "sitekey": f"s{k:02d}", "outcome": "success", "dur_ms": 100.0}))
    log = tmp_path / "log.csv"
    pd.concat(frames).sort_values("ts", kind="stable").to_csv(log, index=False)
    return log


def _run(tmp_path, *extra):
    return main(["latency", str(_log(tmp_path)), "--duration", "dur_ms", "--duration-unit", "ms",
                 "--thresholds", "500ms", *extra])


def _blocks(out):
    """The sitekeys of the profile's blocks (a line ``sitekey=s44: 54 attempts; ...``)."""
    return re.findall(r"^sitekey=(s\d\d): \d+ attempts", out, flags=re.M)


def test_forty_groups_by_default_the_most_attempts_first(tmp_path, capsys):
    assert _run(tmp_path, "--by", "sitekey") == 0
    out = capsys.readouterr().out
    assert _blocks(out) == [f"s{k:02d}" for k in range(44, 4, -1)]  # s44 .. s05
    assert ("showing 40 of 45 groups (--by sitekey), the most attempts first; 5 more groups not "
            "shown: --out FILE writes every group's shares per period; --show-groups 0 prints "
            "them all") in " ".join(out.split())


def test_zero_shows_every_group(tmp_path, capsys):
    assert _run(tmp_path, "--by", "sitekey", "--show-groups", "0") == 0
    out = capsys.readouterr().out
    assert sorted(_blocks(out)) == [f"s{k:02d}" for k in range(45)]
    assert "showing" not in out


def test_the_trade_off_speaks_of_the_groups_shown(tmp_path, capsys):
    assert _run(tmp_path, "--by", "sitekey", "--show-groups", "2", "--client-timeout", "5s",
                "--timeouts", "1s") == 0
    out = capsys.readouterr().out
    assert _blocks(out) == ["s44", "s43"]
    block = out.split("client timeout trade-off")[1]
    assert block.startswith(" (no retries assumed; the 2 groups shown above):")
    assert re.findall(r"^  sitekey=(s\d\d): at 1 s", block, flags=re.M) == ["s44", "s43"]


@pytest.mark.parametrize("extra, words", [
    (["--by", "sitekey", "--show-groups", "-1"], "-1 is below 0"),
    (["--show-groups", "5"], "without --by there is one group")])
def test_a_count_below_zero_or_no_by_is_refused_in_one_line(tmp_path, capsys, extra, words):
    assert _run(tmp_path, *extra) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--show-groups" in err and words in err
