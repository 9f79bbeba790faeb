"""`budgetlab buckets` counts no page that `budgetlab alerts` scores apart (over while the tier's
long window filled), says which tiers were not evaluated, leaves pages blank when no page tier
was, and says a window longer than the data as `replay` does.

Oracles: hand counts on hand-built logs (the workbook policy at 30 d, target 95 %: page_1h
needs 72 % failures over 1 h and 5 min, page_6h 30 % over 6 h and 30 min)."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from budgetlab.cli import main


def write_log(path, bad, freq="1min"):
    ts = pd.date_range("2026-02-01", periods=len(bad), freq=freq, tz="UTC")
    out = np.where(bad, "timeout", "success")
    pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ"), "outcome": out}).to_csv(path,
                                                                                  index=False)


def cells(out, bucket):
    """``bucket``'s row of the printed table as {column: cell} (one row a line: wide terminal;
    the cells right-aligned under their column's name, a blank cell empty)."""
    lines = out.splitlines()
    head = next(line for line in lines if "pages_caused" in line)
    row = next(line for line in lines if line.startswith(bucket + " "))
    spans = [(m.group(), m.end()) for m in re.finditer(r"\S+", head)]
    return {name: row[start:end].strip() for (name, end), (_, start) in
            zip(spans, [("", 0), *spans[:-1]], strict=True)}


@pytest.mark.usefixtures("wide_terminal")
def test_the_stranger_log_has_no_page(tmp_path, capsys):
    """3 d of one event a minute, 3.19 % timeouts, the first event a timeout: no tier can page on
    a steady 3.19 %; the first event's burst (1 of 1) is over while the windows filled."""
    rng = np.random.default_rng(3)
    bad = rng.random(3 * 24 * 60) < 0.03
    bad[0] = True
    write_log(tmp_path / "pages.csv", bad)
    assert main(["buckets", str(tmp_path / "pages.csv"), "--target", "0.95"]) == 0
    out = capsys.readouterr().out
    row = cells(out, "timeout")
    assert (row["failures"], row["pages"], row["pages_caused"]) == ("138", "0", "0")
    said = " ".join(out.split())
    assert "ticket_3d (3 d) was not evaluated: its long window never filled" in said
    assert "while their tier's long window filled at the log's start (not counted" in said


@pytest.mark.usefixtures("wide_terminal")
def test_a_real_page_after_the_warm_up_is_one_page(tmp_path, capsys):
    """48 h, a timeout at minute 0 and 90 failed minutes from 30:00: page_1h fires once in the
    outage (44 of 60 failed minutes reach 0.72); page_6h would need 108 of 360. The first
    minute's 1-of-1 burst of page_1h and page_6h is over while their windows filled: said, not
    counted."""
    bad = np.zeros(48 * 60, dtype=bool)
    bad[0] = True
    bad[1800:1890] = True
    write_log(tmp_path / "outage.csv", bad)
    assert main(["buckets", str(tmp_path / "outage.csv"), "--target", "0.95"]) == 0
    out = capsys.readouterr().out
    row = cells(out, "timeout")
    assert (row["failures"], row["pages"], row["pages_caused"]) == ("91", "1", "1")
    said = " ".join(out.split())
    assert ("1 episode of page_1h began and ended in the first 1 h of a group's traffic (or of "
            "its return after a silence that long), while its long window filled: not "
            "counted") in said
    assert "1 episode of page_6h began and ended in the first 6 h of a group's traffic" in said


@pytest.mark.usefixtures("wide_terminal")
def test_pages_are_blank_when_no_page_tier_was_evaluated(tmp_path, capsys):
    """250 events 10 s apart (41 min 30 s), every third a timeout (84, enough for a verdict at
    95 %): page_1h's 1 h window never fills, nor page_6h's: no page tier was evaluated, so no
    page count is printed (blank, not 0), and the note names every tier."""
    bad = np.zeros(250, dtype=bool)
    bad[::3] = True
    write_log(tmp_path / "short.csv", bad, freq="10s")
    assert main(["buckets", str(tmp_path / "short.csv"), "--target", "0.95", "--window",
                 "10min"]) == 0
    out = capsys.readouterr().out
    row = cells(out, "timeout")
    assert (row["failures"], row["pages"], row["pages_caused"]) == ("84", "", "")
    said = " ".join(out.split())
    assert ("page_1h (1 h), page_6h (6 h), ticket_1d (24 h), ticket_3d (3 d) were not evaluated: "
            "their long windows never filled, the log is 41 min 30 s long") in said  # not the
    # 42 min of its minute bins: the log's own length, first to last event (249 x 10 s)


def test_a_window_longer_than_the_data_is_said_as_replay_says_it(tmp_path, capsys):
    """10 h of events 5 min apart: 00:00 .. 09:55, a span of 9 h 55 min under a 24 h window."""
    bad = np.zeros(120, dtype=bool)
    bad[::10] = True
    write_log(tmp_path / "ten.csv", bad, freq="5min")
    note = "note: the window (24 h) is longer than the data (9 h 55 min); every window is partial."
    assert main(["replay", str(tmp_path / "ten.csv"), "--window", "24h"]) == 0
    assert note in " ".join(capsys.readouterr().out.split())
    assert main(["buckets", str(tmp_path / "ten.csv"), "--window", "24h"]) == 0
    assert note in " ".join(capsys.readouterr().out.split())
