"""compare_windows' ``hours_no_traffic``: time the window was empty from the group's first event
on. A group whose first event comes after the log's first event had not begun before it: that
time is no empty window (a stranger's captcha log showed 0.02 h of "no traffic" for a group
without a gap, the 68 s before its first event).

Hand-built log, one event a minute (all successes), 10 min windows, the log's last event at
T0 + 119 min: a from T0 on without a gap; b from T0 + 10 min on without a gap; c from T0 + 10 min
to T0 + 30 min and again from T0 + 100 min: its window holds the event of T0 + 30 min through
T0 + 40 min (and 1 ns), then is empty until T0 + 100 min: 60 min less 1 ns."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab import SLO, as_events, compare_windows
from budgetlab.cli import main

T0 = pd.Timestamp("2026-01-05", tz="UTC")


def _log() -> pd.DataFrame:
    minutes = {"a": range(0, 120), "b": range(10, 120),
               "c": [*range(10, 31), *range(100, 120)]}
    rows = [(T0 + pd.Timedelta(minutes=m), g) for g, ms in minutes.items() for m in ms]
    f = pd.DataFrame(rows, columns=["ts", "g"]).sort_values("ts", kind="stable")
    return f.reset_index(drop=True)


def test_time_before_a_groups_first_event_is_not_no_traffic():
    f = _log()
    ev = as_events(f["ts"], [True] * len(f), groups={"g": f["g"].to_numpy()})
    t = compare_windows(ev, SLO(target=0.99), ["10min"], by="g").set_index("g")
    assert t.loc["a", "hours_no_traffic"] == 0
    assert t.loc["b", "hours_no_traffic"] == 0  # it began 10 min after the log: no gap
    assert t.loc["c", "hours_no_traffic"] == pytest.approx(1 - 1 / 3.6e12, abs=1e-12)


def test_the_command_line_says_the_span_it_counts(tmp_path, capsys):
    f = _log()
    f["outcome"] = "success"
    log = tmp_path / "log.csv"
    f.to_csv(log, index=False)
    assert main(["compare-windows", str(log), "--by", "g", "--windows", "10min",
                 "--target", "0.99"]) == 0
    out = capsys.readouterr().out
    rows: dict[str, list[str]] = {}
    for x in out.splitlines():  # the table's first part: g, window (10 min), events, hours, ...
        if x.split()[:3] in (["b", "10", "min"], ["c", "10", "min"]):
            rows.setdefault(x.split()[0], x.split())
    assert rows["b"][5] == "0.00" and rows["c"][5] == "1.00"
    flat = " ".join(out.split())
    assert "hours_no_traffic: time the window was empty after the group's first event" in flat
