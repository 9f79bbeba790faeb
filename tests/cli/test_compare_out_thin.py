"""``compare-windows --out`` leaves a thin row's shares and rates per day empty, as the printed
table does (a stranger's pass: OPTIONS, one request on the Elastic log, had ``share_exhausted``
1.0 over a fraction of a second of evaluated time in the file, blank on the terminal).

Oracle, by hand from the log: OPTIONS has one event (a 200) at 2015-05-18 11:05:30 and the log
ends at 2015-05-20 21:05:35; its 1 h window holds that event for one hour, a warm-up, so less
than the 24 h the shares need is evaluated; GET has 9,952 events over 3 d 11 h, more than 24 h.
"""

from __future__ import annotations

import csv
from pathlib import Path

from budgetlab.cli import main

APACHE = Path(__file__).resolve().parents[1] / "fixtures" / "elastic_apache" / "apache_logs"


def test_thin_rows_have_no_shares_in_the_file(tmp_path, capsys):
    out = tmp_path / "cw.csv"
    assert main(["compare-windows", str(APACHE), "--preset", "access", "--by", "method",
                 "--windows", "1h", "--target", "0.99", "--out", str(out)]) == 0
    capsys.readouterr()
    with out.open(newline="", encoding="utf-8") as f:
        rows = {r["method"]: r for r in csv.DictReader(f)}
    rates = [c for c in rows["GET"] if c.startswith("share_") or c.endswith("_per_day")]
    assert {"share_exhausted", "transitions_per_day"} <= set(rates)
    assert all(rows["OPTIONS"][c] == "" for c in rates)
    # its one request is in its warm-up, which closes at the one instant the window still holds
    # it: no evaluated time, which the note says first
    assert rows["OPTIONS"]["note"] == ("no evaluated time: the window held no traffic after its "
                                       "warm-up")
    assert all(rows["GET"][c] != "" for c in rates)  # 3 d 11 h: its figures written
