"""``budgetlab incident`` on a log shorter than a day withholds the share of the period's budget
and the events a day it stands on, as ``replay`` leaves events/day blank: it said "4,607 events a
day" from the 47 minutes of the loghub Proxifier sample. Figures counted with grep."""

from __future__ import annotations

from pathlib import Path

from budgetlab.cli import main

#: What the budget sentence says its traffic is read over (whatever --context says).
SPAN = "the whole log in scope,"

PROXY = Path(__file__).parents[1] / "fixtures" / "loghub" / "proxifier_300.log"


def test_an_incident_on_47_minutes_of_log_withholds_the_rate_per_day(capsys):
    # grep -E " - [^ ]+ (close|error)" proxifier_300.log: 150 events (the preset's), the first
    # at 16:49:07, the last at 17:36:00 (46 min 53 s: the whole log, the budget's span), 40 of
    # them in 16:50-17:10, none an error. At
    # target 50 % they hold 20 expected failures, enough for a verdict: the traffic is what is
    # too thin. Each program's sending time runs from its first event to its last (no window in
    # it); Dropbox.exe's is the least: its one close|error event, 0 s (the grep above: 1
    # Dropbox.exe, 3 QQ.exe, 4 SogouCloud.exe, 5 WeChat.exe, 2 Wiz.exe, 2 svchost.exe, 133
    # chrome.exe). Before, on the 1 h window's clock, QQ.exe's 17:15:10 .. 17:36:00, 20 min 50 s
    # (its window still held its last event at the log's end) was the least.
    assert main(["incident", str(PROXY), "--preset", "proxifier", "--year", "2026", "--by",
                 "program", "--start", "2026-10-30 16:50", "--end", "2026-10-30 17:10",
                 "--window", "1h", "--target", "0.5"]) == 0
    said = " ".join(capsys.readouterr().out.split())
    # QQ.exe's and SogouCloud.exe's first events (17:11:43, 17:15:10) come after the incident
    assert ("Over its 20 min the incident saw 0 failures in 40 events of all 7 groups by program "
            "(program=QQ.exe and program=SogouCloud.exe had no event in the incident; burn 0 over "
            "the incident); its share of a 30 d error budget is withheld, too thin to "
            "go by (that budget is the traffic of " + SPAN
            + " 2026-10-30 16:49 .. 17:36 UTC carried to 30 d, "
            "and a rate per day needs at least 24 h of sending time: the whole log in scope "
            "of program=Dropbox.exe (the least sending time) holds 1 event in 0 s of sending "
            "time).") in said
    assert "events a day" not in said
