"""The counts the reading, replay and analysis lines print take the number of their noun
(``budgetlab replay a.tab`` on a one-row file printed "a.tab: 1 events"; eleven thin groups
listed ten "and 1 more groups"). Expected texts written by hand."""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab.cli import main
from budgetlab.cli.clock_text import thin_rate_line


@pytest.mark.parametrize(("rows", "said"), [(1, "1 event"), (2, "2 events")])
def test_the_replay_header_counts_events_in_their_number(tmp_path, capsys, rows, said):
    path = tmp_path / "a.tab"
    path.write_text("ts\tok\n" + "".join(f"2026-01-01T00:0{i}:00Z\ttrue\n" for i in range(rows)))
    assert main(["replay", str(path), "--ok", "ok"]) == 0
    last = f"2026-01-01 00:0{rows - 1}"
    assert capsys.readouterr().out.splitlines()[0] == (
        f"a.tab: {said}, 2026-01-01 00:00 .. {last} UTC")


def test_compare_windows_header_counts_one_event(tmp_path, capsys):
    path = tmp_path / "a.csv"
    path.write_text("ts,ok\n2026-01-01T00:00:00Z,true\n")
    assert main(["compare-windows", str(path), "--ok", "ok", "--windows", "1h"]) == 0
    assert capsys.readouterr().out.startswith(
        "a.csv: 1 event, 2026-01-01 00:00 .. 2026-01-01 00:00 UTC; the seed tracker under 1 "
        "window: 1 h\n")


def test_compare_windows_header_says_the_span_in_utc(tmp_path, capsys):
    # as replay's and buckets' headers: first to last event, in UTC whatever the log's offsets
    path = tmp_path / "a.csv"
    path.write_text("ts,ok\n2026-01-01T00:00:00Z,true\n2026-01-02T05:30:00+02:00,false\n")
    assert main(["compare-windows", str(path), "--ok", "ok", "--windows", "1h,6h"]) == 0
    assert capsys.readouterr().out.splitlines()[:2] == [  # filled to 100 columns
        "a.csv: 2 events, 2026-01-01 00:00 .. 2026-01-02 03:30 UTC; the seed tracker under 2 "
        "windows: 1 h,", "6 h"]


@pytest.mark.parametrize(("groups", "more"), [(11, " and 1 more group."), (12, " and 2 more "
                                                                               "groups.")])
def test_thin_groups_beyond_the_ten_named_are_counted_in_their_number(groups, more):
    # one thin group (1 event in 1 h) per key, beside one with a week of observed time
    summary = pd.DataFrame({"k": ["long", *(f"g{i}" for i in range(groups))],
                            "events": [500, *[1] * groups],
                            "observed_hours": [168.0, *[1.0] * groups]})
    line = " ".join(thin_rate_line(summary).split())
    assert line.startswith("events/day left blank, too thin to go by (a rate per day needs at "
                           "least 24 h of observed time): k=g0 (1 event in 1 h), k=g1 (1 event "
                           "in 1 h)")
    assert line.endswith(f"k=g9 (1 event in 1 h){more}")
