"""Stop 59: the incident summary's page verdict claims no more than was evaluated, and the tiers
note gives the right reason when the log ends before the incident.

* "would not have paged" only when every page tier that could fire at the target was evaluated
  and none fired; when one was evaluated and silent and another that could fire was not, the
  summary said flatly "would not have paged (page_1h's 1 h burn ... peaked at 10, its threshold
  is 14.4)" beside "page_6h (6 h) ... not evaluated", whose threshold 6 the visible burn of 10
  was over. Now whether it would have paged is not known, and both are named.
* A log that ends before the incident: its tiers were said "not evaluated, its window never all
  after the data's start during the incident", of data that started days before.

Every figure is worked out by hand in the comments.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import budgetlab as bl
from budgetlab import SLO, AlertPolicy, AlertTier
from budgetlab.cli import main

PAGE_1H = AlertTier("page_1h", severity="page", long_window="1h", short_window="5min", burn=14.4)
PAGE_6H = AlertTier("page_6h", severity="page", long_window="6h", short_window="30min", burn=6)
START, END = "2026-06-01 02:00", "2026-06-01 03:00"


def flat(text: str) -> str:
    return " ".join(text.split())


def tenth_failing() -> pd.DataFrame:
    """One event a minute 2026-06-01 00:00 .. 03:59 UTC; minutes 00, 10, 20, ... fail. Every
    whole-minute window of 1 h holds 60 events and 6 failures: error ratio 0.1, burn 0.1 / 0.01
    = 10 at target 99 %; of 2 h, 120 and 12: burn 10 too."""
    ts = pd.date_range("2026-06-01 00:00", "2026-06-01 04:00", freq="1min", tz="UTC",
                       inclusive="left")
    return bl.as_events(ts, np.arange(len(ts)) % 10 != 0)


#: Incident 02:00 .. 03:00. page_1h's first window after the data's start (00:00) ends at 01:00:
#: it is evaluated at 02:01 .. 03:00, every burn 10 < 14.4, silent. page_6h's first ends at
#: 06:00, after the incident: not evaluated, and it can fire (6 x 0.01 = 0.06 < 1); had it been,
#: a burn of 10 > 6 is what the visible data show. ticket_1d and ticket_3d: not evaluated either.
PARTLY = ("Whether the workbook policy would have paged is not known: page_1h (1 h) was evaluated "
          "and did not fire (its 1 h burn, evaluated every minute, peaked at 10, its threshold is "
          "14.4), but page_6h (6 h), which could fire, was not evaluated, its window never lying "
          "after the data's start during the incident; ticket_1d (24 h), ticket_3d (3 d) were not "
          "evaluated, their windows never lying after the data's start during the incident: what "
          "they would have done is not known.")


def test_a_silent_page_tier_beside_one_not_evaluated_leaves_the_verdict_not_known():
    rep = bl.incident_report(tenth_failing(), SLO(target=0.99, window="1h"), START, END,
                             tz="UTC")
    tiers = rep.tiers.set_index("tier")
    assert pd.isna(tiers.loc["page_6h", "evaluated_from"]) and tiers.loc["page_6h", "can_fire"]
    assert tiers.loc["page_1h", "peak_burn_long"] == pytest.approx(10.0, rel=1e-9)
    text = flat(rep.summary)
    assert PARTLY in text
    assert "would not have paged" not in text
    # every page tier that could fire evaluated (a 2 h one, burn 12: first window after the
    # data's start ends at 02:00, so evaluated 02:01 .. 03:00, burn 10 < 12): known silent, the
    # closest the 2 h (10 / 12 = 0.83 of its threshold, page_1h 10 / 14.4 = 0.69)
    page_2h = AlertTier("page_2h", severity="page", long_window="2h", short_window="10min",
                        burn=12)
    rep = bl.incident_report(tenth_failing(), SLO(target=0.99, window="1h"), START, END,
                             tz="UTC", policy=AlertPolicy([PAGE_1H, page_2h]))
    assert ("The alert policy would not have paged (page_2h's 2 h burn, evaluated every minute, "
            "peaked at 10, its threshold is 12) and no other tier fired.") in flat(rep.summary)


def test_the_other_tiers_are_said_after_the_unknown_page_verdict():
    # a 1 h ticket tier of burn 20, evaluated 02:01 .. 03:00 as page_1h is, silent (10 < 20):
    # the tiers beside the page tiers all evaluated and silent
    ticket = AlertTier("ticket_1h", severity="ticket", long_window="1h", short_window="5min",
                       burn=20)
    rep = bl.incident_report(tenth_failing(), SLO(target=0.99, window="1h"), START, END,
                             tz="UTC", policy=AlertPolicy([PAGE_1H, PAGE_6H, ticket]))
    assert ("Whether the alert policy would have paged is not known: page_1h (1 h) was evaluated "
            "and did not fire (its 1 h burn, evaluated every minute, peaked at 10, its threshold "
            "is 14.4), but page_6h (6 h), which could fire, was not evaluated, its window never "
            "lying after the data's start during the incident; no other tier fired."
            ) in flat(rep.summary)


def test_a_policy_without_page_tiers_says_whether_it_would_have_fired_is_not_known():
    fast = AlertTier("fast", severity="ticket", long_window="1h", short_window="5min", burn=14.4)
    slow = AlertTier("slow", severity="ticket", long_window="6h", short_window="30min", burn=6)
    rep = bl.incident_report(tenth_failing(), SLO(target=0.99, window="1h"), START, END,
                             tz="UTC", policy=AlertPolicy([fast, slow]))
    text = flat(rep.summary)
    assert ("Whether the alert policy would have fired is not known: fast (1 h) was evaluated and "
            "did not fire (its 1 h burn, evaluated every minute, peaked at 10, its threshold is "
            "14.4), but slow (6 h), which could fire, was not evaluated, its window never lying "
            "after the data's start during the incident.") in text
    assert "would not have fired" not in text


def test_the_command_says_the_page_verdict_is_not_known(tmp_path, capsys):
    ts = pd.date_range("2026-06-01 00:00", "2026-06-01 04:00", freq="1min", tz="UTC",
                       inclusive="left")
    log = tmp_path / "p6.csv"
    pd.DataFrame({"ts": ts.strftime("%Y-%m-%dT%H:%M:%SZ"), "outcome": np.where(
        np.arange(len(ts)) % 10 == 0, "error", "ok")}).to_csv(log, index=False)
    assert main(["incident", str(log), "--target", "0.99", "--window", "1h", "--start",
                 "2026-06-01T02:00Z", "--end", "2026-06-01T03:00Z"]) == 0
    out = flat(capsys.readouterr().out)
    assert PARTLY in out and "would not have paged" not in out


def test_a_log_ending_before_the_incident_says_so_in_the_tiers_note():
    # one event a minute 2026-03-28 00:00 .. 03-29 02:30 UTC; the incident 03:30 .. 04:30: the
    # data start a day before it, less than the 3 d of history the workbook's longest window
    # needs, so the tiers note is given. The log's last event (02:30) comes an hour before the
    # incident: no tier is evaluated, because the log ended (page_1h's window lay after the
    # data's start from 01:00 on 03-28), not because of where it started
    ts = pd.date_range("2026-03-28 00:00", "2026-03-29 02:30", freq="1min", tz="UTC")
    rep = bl.incident_report(bl.as_events(ts, np.ones(len(ts), dtype=bool)),
                             SLO(target=0.99, window="1h"), "2026-03-29 03:30",
                             "2026-03-29 04:30", tz="UTC")
    assert rep.data_start == ts[0] and rep.data_end == ts[-1]
    note = flat(" ".join(n for n in rep.notes if "an alert tier is evaluated" in n))
    for tier, win in (("page_1h", "1 h"), ("page_6h", "6 h"), ("ticket_1d", "24 h"),
                      ("ticket_3d", "3 d")):
        assert (f"{tier} ({win}) not evaluated: the log ends before the incident, so its figures "
                "are withheld") in note
    assert "never all after the data's start" not in note
    # a log starting late (10:05 .. 12:59, incident 10:30 .. 12:30) keeps the window's reason
    ts = pd.date_range("2026-03-29 10:05", "2026-03-29 12:59", freq="1min", tz="UTC")
    rep = bl.incident_report(bl.as_events(ts, np.ones(len(ts), dtype=bool)),
                             SLO(target=0.99, window="1h"), "2026-03-29 10:30",
                             "2026-03-29 12:30", tz="UTC")
    note = flat(" ".join(rep.notes))
    assert ("page_6h (6 h) not evaluated, its window never all after the data's start during the "
            "incident: its figures are withheld") in note
