"""When no group's tracker status is known (the log starts inside the tracker's window, so its
window never lies after the data's start during the incident), the incident report speaks of the
group with the most events during the incident, and says so (stop 58: it spoke of the first
group by an order nobody could see, program=Dropbox.exe with 1 of the 40 events of the
proxifier log's incident, chrome.exe holding 34).

Oracle: the events counted by hand from the rows below."""

from __future__ import annotations

import pandas as pd

import budgetlab as bl

T0 = pd.Timestamp("2026-10-30 16:49", tz="UTC")


def _events() -> pd.DataFrame:
    """From 16:49 to 17:35, all good: 'Dropbox.exe' one event a 10 min (16:49, 16:59, ..., 17:29:
    16:59 and 17:09 fall in the incident, 16:50 .. 17:10), 'chrome.exe' one a minute (16:50 ..
    17:09 in the incident: 20), 'Wiz.exe' one at 17:00 only."""
    rows = [(T0 + pd.Timedelta(minutes=m), "Dropbox.exe") for m in range(0, 46, 10)]
    rows += [(T0 + pd.Timedelta(minutes=m), "chrome.exe") for m in range(46)]
    rows += [(T0 + pd.Timedelta(minutes=11), "Wiz.exe")]
    ts, program = zip(*rows, strict=True)
    return bl.as_events(pd.DatetimeIndex(ts), [True] * len(rows), groups={"program": program})


def test_unknown_statuses_speak_of_the_busiest_group_and_say_why() -> None:
    rep = bl.incident_report(_events(), bl.SLO(target=0.5, window="1h"),
                             "2026-10-30 16:50", "2026-10-30 17:10", by="program")
    assert rep.tracker["worst_status"].isna().all()  # the window never lay after 16:49
    assert rep.focus() == {"program": "chrome.exe"}
    # by hand: chrome.exe 20 events in [16:50, 17:10), Dropbox.exe 2, Wiz.exe 1: 23 in all
    assert ("what the 1 h tracker for program=chrome.exe (target 50 %) showed is not known"
            in rep.summary)
    assert ("No group's tracker status is known: the summary speaks of program=chrome.exe, the "
            "group with the most events during the incident (20 of 23)." in rep.summary)
    assert "Dropbox.exe" not in rep.summary.split("There were")[0]
