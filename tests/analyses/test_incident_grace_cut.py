"""Stop 59: the incident report says where the log's end cuts the grace.

An alert detects the incident when it overlaps ``[start, end + grace)`` (``budgetlab alerts``'
rule). The alerts of the grace are replayed past the report's window (``context``), but not past
the log's last event: an alert that would have begun after it is not known. The report said "would
not have paged" as if the whole grace had been watched.

The log, by hand: one event a minute from 2026-01-01 00:00; the events at odd minutes from 10:40
fail; SLO 90 % over 1 h; the incident is [09:00, 10:00), context 30 min, grace 2 h: the detection
span is [09:00, 12:00). single_window page_1h fires when the 1 h error ratio reaches 5 x 10 % =
50 %: at the evaluation of 11:39 the window [10:39, 11:39) holds the 29 odd minutes 10:41 ..
11:37 in 60 events (48 %), at 11:40 the window [10:40, 11:40) holds 30 of 60: it pages at 11:40,
inside the grace. A log that ends at 11:29 (the end of its bin: 11:30) does not hold that page.

For the command line the workbook policy at 99 % (page_1h: 14.4 x 1 % = 14.4 % over 1 h and over
5 min) and failures at odd minutes from 11:20: the 1 h window holds 9 failures (15 %) first at
the end of the 11:37 bin, 11:38, whose 5 min [11:33, 11:38) holds 3 of 5: it pages at 11:38 on a
log to 12:29; a log that ends at 11:29 holds 5 failures (8.3 %): no page is known.
"""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab import SLO, AlertPolicy, as_events, incident_report

START, END = "2026-01-01 09:00", "2026-01-01 10:00"
PAGE_5 = AlertPolicy.single_window("1h", 5, severity="page")


def at(hhmm: str) -> pd.Timestamp:
    return pd.Timestamp(f"2026-01-01 {hhmm}", tz="UTC")


def minutes(last: str, fail_from: str) -> tuple[pd.DatetimeIndex, list[bool]]:
    """One event a minute 00:00 .. ``last``; those at odd minutes from ``fail_from`` fail."""
    ts = pd.date_range(at("00:00"), at(last), freq="1min")
    return ts, [not (t >= at(fail_from) and t.minute % 2) for t in ts]


def report(last: str, **kw):
    ts, ok = minutes(last, "10:40")
    return incident_report(as_events(ts, ok), SLO(target=0.9, window="1h"), START, END,
                           context="30min", policy=PAGE_5, **kw)


def test_a_page_in_the_grace_is_counted_when_the_log_holds_it():
    rep = report("12:29", grace="2h")
    page = rep.tiers.iloc[0]
    assert bool(page["fired"]) and page["first_alert"] == at("11:40")
    assert page["judged_to"] == at("12:00")  # the whole grace replayed
    assert "grace is cut" not in rep.summary


def test_a_log_ending_in_the_grace_cuts_it_and_the_summary_says_where():
    rep = report("11:29", grace="2h")
    page = rep.tiers.iloc[0]
    assert not bool(page["fired"])
    assert page["judged_to"] == at("11:30")  # the end of the bin of the last event, 11:29
    text = " ".join(rep.summary.split())
    assert ("would not have paged (page_1h's 1 h burn, evaluated every minute, peaked at 0, its "
            "threshold is 5) and no other tier fired; the 2 h grace is cut at 11:30, the last "
            "evaluation after the log's last event: an alert that would have begun after it is "
            "not known.") in text


def test_a_grace_inside_the_log_is_not_said_cut():
    # grace 1 h: [09:00, 11:00) lies inside the log that ends at 11:29
    rep = report("11:29", grace="1h")
    assert rep.tiers.iloc[0]["judged_to"] == at("11:00")
    assert "grace is cut" not in rep.summary


@pytest.mark.usefixtures("wide_terminal")  # reads the tier table's rows
def test_the_command_says_the_grace_is_cut_under_the_tier_table(tmp_path, capsys):
    from budgetlab.cli import main

    def run(last: str) -> str:
        ts, ok = minutes(last, "11:20")
        path = tmp_path / f"to_{last.replace(':', '')}.csv"
        pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ"), "ok": ok}).to_csv(path,
                                                                               index=False)
        assert main(["incident", str(path), "--ok", "ok", "--target", "0.99", "--window", "1h",
                     "--start", "2026-01-01T09:00Z", "--end", "2026-01-01T10:00Z",
                     "--context", "30min", "--grace", "2h"]) == 0
        return capsys.readouterr().out

    full = run("12:29")
    row = next(line.split() for line in full.splitlines() if line.split()[:1] == ["page_1h"])
    assert row[3:6] == ["True", "2026-01-01", "11:38"]
    assert "grace is cut" not in full
    cut = run("11:29")
    row = next(line.split() for line in cut.splitlines() if line.split()[:1] == ["page_1h"])
    assert row[3:5] == ["False", "none"]
    assert ("note: --grace: the 2 h grace is cut at 11:30, the last evaluation after the log's "
            "last event: an alert that would have begun after it is not known."
            ) in " ".join(cut.split())
