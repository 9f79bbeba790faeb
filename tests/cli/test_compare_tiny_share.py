"""``compare-windows`` prints a time share held for a nanosecond as a bound (``< 0.01 %``), never
13 decimals (``0.0000000000004 %``, a stranger's pass) and never ``0.0 %``.

Oracle, by hand from the log built below (target 95 %, 1 h window): a success every 2 minutes at
odd minutes from 2026-10-05 00:01 to 10-07 23:59 (30 an hour), failures at 10-06 06:00:00 and
07:00:00. The first failure enters with 30 successes in the window: 1 of 31 failed, 3.2 %, a budget
left of 1 - 0.032 / 0.05 = 0.35, WARNING. At 07:00:00 the second enters while the first (07:00 - 1
h, the window's end inclusive) is still in: 2 of 32, 6.25 % > 5 %, EXHAUSTED, for the 1 ns until the
first leaves (1 of 31 again, WARNING until 08:00:00 + 1 ns). Evaluated time: after the first hour
(warm-up, 00:01 to 01:01) to the last event, 70 h 58 min = 255,480 s: ``share_exhausted`` = 1 ns /
255,480 s = 3.9e-15 (3.9e-13 %, under 0.005 %: ``< 0.01 %``); ``share_warning`` = 2 h - 1 ns over
70 h 58 min = 2.818 % (``2.8 %``); never critical (exactly 0: ``0.0 %``).
"""

from __future__ import annotations

import csv

import pandas as pd
import pytest

from budgetlab.cli import main


def _log(path):
    start = pd.Timestamp("2026-10-05T00:00Z")
    rows = [(start + pd.Timedelta(minutes=1 + 2 * i), "success") for i in range(3 * 720)]
    rows += [(start + pd.Timedelta(hours=30), "solve_error"),
             (start + pd.Timedelta(hours=31), "solve_error")]
    frame = pd.DataFrame(rows, columns=["ts", "outcome"]).sort_values("ts")
    frame.assign(sitekey="a").to_csv(path, index=False)


@pytest.mark.usefixtures("wide_terminal")
def test_a_nanosecond_of_exhausted_reads_as_a_bound(tmp_path, capsys):
    log, out = tmp_path / "sk.csv", tmp_path / "cw.csv"
    _log(log)
    assert main(["compare-windows", str(log), "--by", "sitekey", "--windows", "1h,24h",
                 "--target", "0.95", "--show-groups", "0", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    words = " ".join(printed.split())
    # sitekey, window, events, hours, hours_no_traffic, share_warning, share_critical,
    # share_exhausted: the 1 h row (2,132 events after the warm-up's 30)
    assert "a 1 h 2,132 70.97 0.00 2.8 % 0.0 % < 0.01 %" in words
    assert "0.00000" not in printed
    with out.open(newline="", encoding="utf-8") as f:  # the file keeps the exact share
        row = next(r for r in csv.DictReader(f) if r["window"] == "1h")
    assert float(row["share_exhausted"]) == pytest.approx(1e-9 / 255_480, rel=1e-6)
    assert float(row["share_warning"]) == pytest.approx((7_200 - 1e-9) / 255_480, rel=1e-9)


@pytest.mark.usefixtures("wide_terminal")
def test_replay_says_a_nanosecond_of_exhausted_as_a_bound(tmp_path, capsys):
    # the same log through replay's summary: time in each status as hours (share), the share
    # with no decimal, so the 1 ns of EXHAUSTED (3.9e-13 %) reads "< 0.1 %", never 13 decimals
    # and never "0 %"; never critical: exactly "0 %"
    log = tmp_path / "sk.csv"
    _log(log)
    assert main(["replay", str(log), "--by", "sitekey", "--window", "1h",
                 "--target", "0.95"]) == 0
    printed = capsys.readouterr().out
    assert "0.0 h (< 0.1 %)" in printed and "0.00000" not in printed
    assert "0.0 h (0 %)" in printed  # CRITICAL: none at all
