"""``replay --by`` on skewed groups: time held under ``--min-events`` is said (never healthy time
without a word), a group whose window never reached ``--min-events`` has its final status
withheld, and the terminal's worst-first table ranks the groups with enough evidence before the
thin ones (a window of fewer events than hold 10 expected failures under the target: the rule of
the "thin windows" line). The statuses are the seed tracker's, unchanged.

Oracle: a hand-made log, target 99 % (1,000 events hold 10 expected failures), window 24 h.
"big": a request every minute for 48 h (minutes 0..2879, 2,880 events), failing from minute 1800
to 1859 (a 1 h outage). After the first day its window holds 1,441 events at an event (minutes
m-1440..m) and 1,440 between them; the k-th failure of the outage leaves 1 - k / 14.41 (1 - k /
14.4 between events): EXHAUSTED from the 15th, minute 1814, to the log's end at minute 2879:
1,065 min = 17.75 h (the failures leave the window after the end). Its window first holds 1,000
events at minute 999: under ``--min-events 1000`` its status is held for minutes 0..999, 999 min
= 16.65 h. "x": events at 00:00 .. 04:00 hourly, the first a failure; "y": 10:00 .. 14:00, the
last a failure. One failure on a window of 1 to 5 events: EXHAUSTED for 24 h (to the failure's
time + 24 h + 1 ns, then the window holds successes only); their windows hold 5 events at most,
never 1,000: every window thin; under ``--min-events 1000`` never evaluated, held from the start
(healthy) for 28 h (first event to last event + 24 h, + 1 ns)."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab.cli import main

T0 = pd.Timestamp("2026-01-01", tz="UTC")
NS_H = 1 / 3600e9  # one nanosecond in hours


@pytest.fixture
def log(tmp_path):
    m, h = pd.Timedelta(minutes=1), pd.Timedelta(hours=1)
    rows = [(T0 + i * m, "big", not 1800 <= i < 1860) for i in range(2880)]
    rows += [(T0 + i * h, "x", i != 0) for i in range(5)]
    rows += [(T0 + i * h, "y", i != 14) for i in range(10, 15)]
    path = tmp_path / "log.csv"
    pd.DataFrame(rows, columns=["ts", "g", "ok"]).sort_values("ts", kind="stable").assign(
        ts=lambda d: d["ts"].dt.strftime("%Y-%m-%dT%H:%M:%SZ")).to_csv(path, index=False)
    return str(path)


def _flat(text: str) -> str:
    return " ".join(text.split())


def _rows(out: str) -> dict[str, list[str]]:
    """The summary table's rows, by group (the first cell), split on blanks."""
    table = out.split("Summary")[1].split("Time counts")[0]
    return {line.split()[0]: line.split() for line in table.splitlines()
            if line.split() and line.split()[0] in ("big", "x", "y")}


def _replay(log, tmp_path, *extra):
    summary = tmp_path / "summary.csv"
    assert main(["replay", log, "--ok", "ok", "--by", "g", "--target", "0.99", "--window",
                 "24h", "--summary-out", str(summary), *extra]) == 0
    return pd.read_csv(summary).set_index("g")


@pytest.mark.usefixtures("wide_terminal")  # reads the table's rows
def test_time_held_under_min_events_is_said_and_the_verdict_withheld(log, tmp_path, capsys):
    s = _replay(log, tmp_path, "--min-events", "1000")
    out = capsys.readouterr().out
    # the seed's statuses, unchanged: big exhausted 17.75 h; x and y held healthy
    assert s.loc["big", "hours_exhausted"] == pytest.approx(17.75)
    assert s["final_status"].to_dict() == {"big": "exhausted", "x": "healthy", "y": "healthy"}
    assert s.loc["big", "hours_held_low_traffic"] == pytest.approx(999 / 60)
    for g in ("x", "y"):
        assert s.loc[g, "hours_held_low_traffic"] == pytest.approx(28 + NS_H, abs=1e-9)
        assert s.loc[g, "note"].startswith(
            "status never evaluated: the window never held the 1,000 events of min_events (5 at "
            "most), so final_status is the status held from the start, no verdict")
    assert s["status_evaluated"].to_dict() == {"big": True, "x": False, "y": False}
    assert s["window_events_max"].to_dict() == {"big": 1441, "x": 5, "y": 5}
    rows = _rows(out)
    assert rows["big"][-2] == "exhausted" and rows["x"][-2] == rows["y"][-2] == "withheld"
    assert rows["big"][-8:-6] == ["16.6", "h"] and rows["x"][-7:-5] == ["28.0", "h"]
    assert ("status held, never evaluated: 2 of 3 groups' windows never held 1,000 events "
            "(--min-events 1000): their status was held from the start, so final_status reads "
            "withheld (no verdict). Time held, not evaluated: 3 of 3 groups held a status for "
            "part of their time while the window held fewer than 1,000 events") in _flat(out)


@pytest.mark.usefixtures("wide_terminal")  # reads the table's rows
def test_the_worst_first_table_ranks_the_groups_with_evidence_first(log, tmp_path, capsys):
    s = _replay(log, tmp_path, "--show-groups", "2")
    out = capsys.readouterr().out
    # exhausted: x and y 24 h each, big 17.75 h; big alone had a window of 1,000 events
    assert s["hours_exhausted"].to_dict() == pytest.approx({"big": 17.75, "x": 24 + NS_H,
                                                            "y": 24 + NS_H})
    assert s["thin_evidence"].to_dict() == {"big": False, "x": True, "y": True}
    assert s.loc["x", "note"].startswith("thin evidence: the window never held 1,000 events (5 "
                                         "at most; fewer than 10 expected failures under 99 %)")
    assert list(_rows(out)) == ["big", "x"]
    assert ("showing 2 of 3 groups (--by g), the groups with enough evidence first; within each "
            "part, the most time exhausted first") in _flat(out)
    assert ("thin evidence: 2 of 3 groups' windows never held 1,000 events (under 99 % they hold "
            "fewer than 10 expected failures: too few for a verdict); ranked after the groups "
            "with enough evidence") in _flat(out)
