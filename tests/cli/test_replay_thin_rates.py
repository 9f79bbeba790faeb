"""The replay's summary never prints a rate per day read over less than a day of sending time:
the cell is blank and a line names the group, its events and its sending time (the one thin
rule, budgetlab.analyses.window_clock.too_thin). Hand-made log, hand-computed figures."""

from __future__ import annotations

import re

import pandas as pd

from budgetlab.cli import main

NAN = re.compile(r"\b(nan|NaN|NaT)\b")


def test_replay_leaves_a_thin_rate_blank_and_says_why(tmp_path, capsys):
    # a: one success an hour for 48 h (49 events); with a 1 h window (an event at the cut-off
    # stays) its window is never empty: 48 h observed, 49 / 2 = 24.5 events a day.
    # b: one failure at 10:00: one event is no sending time (first to last event), so no rate
    # per day (before, held by the 1 h window: 1 event in 1 h of observed time)
    start = pd.Timestamp("2026-01-01", tz="UTC")
    rows = [{"ts": start + pd.Timedelta(hours=h), "outcome": "success", "g": "a"}
            for h in range(49)]
    rows.append({"ts": start + pd.Timedelta(hours=10), "outcome": "timeout", "g": "b"})
    log = tmp_path / "log.csv"
    pd.DataFrame(rows).sort_values("ts", kind="stable").to_csv(log, index=False)
    assert main(["replay", str(log), "--by", "g", "--window", "1h"]) == 0
    text = capsys.readouterr().out
    assert not NAN.search(text)
    table = text.split("Summary")[1].splitlines()
    header = next(ln for ln in table if "events/day" in ln)
    # the events/day column's own span (right-aligned under its name; the table may be cut
    # into blocks of columns that fit the terminal: the rows of the header's block)
    block = table[table.index(header):]
    block = block[:next((i for i, ln in enumerate(block) if not ln.strip()), len(block))]
    start, at = header.index("events/day"), header.index("events/day") + len("events/day")
    cells = {ln.split()[0]: ln[start:at].strip() for ln in block
             if ln.split() and ln.split()[0] in ("a", "b")}
    assert cells["a"] == "24.5"
    assert cells["b"] == ""  # nothing in b's events/day cell
    said = " ".join(text.split())
    assert ("events/day left blank, too thin to go by (a rate per day needs at least 24 h of "
            "sending time): g=b (1 event and no sending time).") in said


def test_a_log_shorter_than_a_day_says_every_rate_is_blank_in_one_sentence(tmp_path, capsys):
    # 10 min window; the log ends at minute 48. c: a failure at 0, a success at 5, held until
    # 15: 15 min observed; a: a failure at 20, held until 30: 10 min; b: a failure at 35 and a
    # success at 48, the log's end: 13 min. Sending time (first to last event): c 5 min, a none,
    # b 13 min. No group reaches a day, so the note is one sentence naming the group with the
    # most sending time (b; before, on observed time, c), not a list of all
    start = pd.Timestamp("2026-01-01", tz="UTC")
    times = {"c": [0, 5], "a": [20], "b": [35, 48]}
    rows = [{"ts": start + pd.Timedelta(minutes=m), "outcome": "success" if m in (5, 48) else
             "timeout", "g": g} for g, ms in times.items() for m in ms]
    log = tmp_path / "log.csv"
    pd.DataFrame(rows).to_csv(log, index=False)
    assert main(["replay", str(log), "--by", "g", "--window", "10min"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    assert ("events/day left blank for all 3 groups, too thin to go by (a rate per day needs at "
            "least 24 h of sending time; the most any group has is 13 min, g=b).") in said
    assert "g=a (" not in said
