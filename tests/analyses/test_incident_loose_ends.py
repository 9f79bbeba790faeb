"""Five loose ends of the incident report (a60incident), each on a log built here with pandas and
its words counted by hand: the groups the events and failures sentences count, the tier table's
cell for a tier both unevaluated and unable to fire, the no-failures sentence over the part of
the incident in the log, the zone of a time of day in the repeated autumn hour, and
``wake_verdict`` over every group of its report."""

from __future__ import annotations

import pandas as pd
import pytest

import budgetlab as bl
from budgetlab.analyses.paging import wake_verdict
from budgetlab.cli import main

# the tests read a table's rows, one row a line: at any terminal width
pytestmark = pytest.mark.usefixtures("wide_terminal")


def flat(text: str) -> str:
    return " ".join(text.split())


def write_log(path, frame: pd.DataFrame):
    """``frame`` (ts, ok and group columns) as a CSV of true/false outcomes."""
    out = frame.assign(ok=frame["ok"].map({True: "true", False: "false"}))
    out.to_csv(path, index=False)
    return path


def minutes(lo: str, hi: str, every: str = "1min", **groups) -> pd.DataFrame:
    ts = pd.date_range(lo, hi, freq=every, tz="UTC")
    return pd.DataFrame({"ts": ts, "ok": True, **groups})


def test_events_and_failures_sentences_count_the_same_groups_naming_the_silent_one():
    # scope svc=api over two groups by method: GET an event a minute all day, those of 10:00 ..
    # 10:09 failed; POST an event every 10 min, ending at 06:00, none in the incident 10:00 ..
    # 11:00. In the incident: GET 10:00 .. 10:59, 60 events, 10 failed; POST 0 events. The
    # events and the failures are both of the 2 groups, POST named as without events (before:
    # "10 failures in 60 events ... across both groups" beside the failures of "the 1 group").
    get = minutes("2026-03-02 00:00", "2026-03-02 23:59", svc="api", method="GET")
    get.loc[(get["ts"] >= "2026-03-02 10:00") & (get["ts"] < "2026-03-02 10:10"), "ok"] = False
    post = minutes("2026-03-02 00:00", "2026-03-02 06:00", "10min", svc="api", method="POST")
    frame = pd.concat([get, post]).sort_values("ts", kind="stable")
    ev = bl.as_events(frame["ts"], frame["ok"],
                      groups={"svc": frame["svc"], "method": frame["method"]})
    rep = bl.incident_report(ev, bl.SLO(target=0.9, window="1h"), "2026-03-02 10:00",
                             "2026-03-02 11:00", by=["svc", "method"], scope="svc=api",
                             breakdown_by=["svc", "method"])
    said = flat(rep.summary)
    # (stop 63: the scope pins svc, so the groups are told apart by method: "by method")
    groups = ("in the scope svc=api, across both groups by method (svc=api, "
              "method=POST had no event in the incident)")
    # POST named once, by the failures' sentence, the first to count the groups
    assert ("the incident saw 10 failures in 60 events in the scope svc=api, across the same 2 "
            "groups") in said
    assert f"of the failures {groups}, were" in said
    assert said.count("had no event in the incident") == 1
    assert "with events in the incident" not in said


def test_tier_table_says_cannot_fire_over_not_evaluated(tmp_path, capsys):
    # an event a minute 08:00 .. 21:59, none failed; target 0.5, the incident 18:00 .. 24:00:
    # ticket_1d (24 h) and ticket_3d (3 d) reach before the data's start at every evaluation
    # (not evaluated); ticket_1d's threshold 3 x (1 - 0.5) = 1.5 exceeds 1: it cannot fire at
    # all, the stronger fact; ticket_3d's 1 x 0.5 = 0.5 can: not evaluated
    log = write_log(tmp_path / "quiet.csv", minutes("2026-04-01 08:00", "2026-04-01 21:59"))
    assert main(["incident", str(log), "--ok", "ok", "--target", "0.5", "--window", "1h",
                 "--start", "2026-04-01 18:00", "--end", "2026-04-02 00:00"]) == 0
    rows = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()
            if line.split()[:1] and line.split()[0].startswith(("page_", "ticket_"))}
    assert "can never fire at target 0.5" in rows["ticket_1d"]
    assert "not evaluated" not in rows["ticket_1d"]
    assert "not evaluated" in rows["ticket_3d"]


def test_no_failures_sentence_names_the_part_of_the_incident_in_the_log():
    # the same quiet log: its last event at 21:59, a log a minute, holds 18:00 .. 22:00 of the
    # incident 18:00 .. 24:00: 4 h of its 6 h (the budget sentence's words)
    quiet = minutes("2026-04-01 08:00", "2026-04-01 21:59")
    ev = bl.as_events(quiet["ts"], quiet["ok"])
    rep = bl.incident_report(ev, bl.SLO(target=0.5, window="1h"), "2026-04-01 18:00",
                             "2026-04-02 00:00")
    said = flat(rep.summary)
    assert "Over the 4 h of its 6 h in the log (to 21:59) the incident saw no failures." in said
    assert "There were no failures during the incident" not in said


def test_times_in_the_repeated_autumn_hour_carry_their_zone():
    # an event a minute 2026-10-24 12:00 .. 10-25 05:59 UTC, those of 01:20 .. 01:39 UTC failed:
    # 02:20 .. 02:39 CET, the second pass of Europe/Berlin's 02:00 .. 03:00. Target 95 %, 1 h
    # window (61 events): at 01:21 UTC 2 failures, burn 2 / 61 / 0.05 = 0.656, remaining 0.344
    # < 0.5: WARNING at 02:21 CET; at 01:23 UTC 4 failures, burn 1.31: EXHAUSTED at 02:23 CET
    frame = minutes("2026-10-24 12:00", "2026-10-25 05:59")
    frame.loc[(frame["ts"] >= "2026-10-25 01:20") & (frame["ts"] < "2026-10-25 01:40"),
              "ok"] = False
    ev = bl.as_events(frame["ts"], frame["ok"])
    rep = bl.incident_report(ev, bl.SLO(target=0.95, window="1h"), "2026-10-25T00:30:00Z",
                             "2026-10-25T03:00:00Z", tz="Europe/Berlin")
    said = flat(rep.summary)
    assert said.startswith("Between 02:30 CEST and 04:00 CET on 2026-10-25")
    assert "went WARNING at 02:21 CET with 1 h burn 0.656" in said
    assert "reached EXHAUSTED at 02:23 CET" in said


def two_methods(get_fails: list[str], post_fails: tuple[str, str],
                every: int = 1) -> pd.DataFrame:
    """GET an event every 10 min, POST one a minute, 2026-03-01 .. 03-03 23:59 UTC; GET's events
    at ``get_fails`` and POST's in ``post_fails`` ([lo, hi)) whose minute is a multiple of
    ``every`` failed."""
    get = minutes("2026-03-01", "2026-03-03 23:59", "10min", method="GET")
    post = minutes("2026-03-01", "2026-03-03 23:59", method="POST")
    get.loc[get["ts"].isin(pd.to_datetime(get_fails, utc=True)), "ok"] = False
    post.loc[(post["ts"] >= post_fails[0]) & (post["ts"] < post_fails[1])
             & (post["ts"].dt.minute % every == 0), "ok"] = False
    frame = pd.concat([get, post]).sort_values("ts", kind="stable")
    return bl.as_events(frame["ts"], frame["ok"], groups={"method": frame["method"]})


def test_wake_verdict_says_the_share_over_every_group():
    # the incident 03-03 10:00 .. 11:40: GET 10 events, 1 failed (0.5 expected: its own row too
    # few for a share); POST 100 events, the 50 of the even minutes of 10:00 .. 11:39 failed
    # (every other event). Both: 51 failures in 110 events. The 30 d budget at the replayed
    # span's traffic: 6 + 60 events an hour, 1,584 a day, 0.05 x 1,584 x 30 = 2,376 failures
    # allowed: 51 / 2,376 = 2.1 %. Before, the first row (GET) alone: "withheld".
    ev = two_methods(["2026-03-03 10:30"], ("2026-03-03 10:00", "2026-03-03 11:40"), every=2)
    rep = bl.incident_report(ev, bl.SLO(target=0.95, window="1h"), "2026-03-03 10:00",
                             "2026-03-03 11:40", by=["method"])
    said = flat(wake_verdict(ev, {"workbook": rep}).sentence)
    assert "the incident saw 51 failures in 110 events of both groups by method" in said
    assert "2.1 % of a 30 d error budget" in said
    assert "The incident's share of the period's error budget is withheld" not in said


def test_wake_verdict_judges_a_page_on_its_own_groups_window():
    # POST (the focus: the worst tracker, listed first) fails 10:00 .. 10:59, GET only at 10:00.
    # A one-window 1 h tier of burn 2 (error ratio above 0.1) fires first for GET, at 10:01
    # (its bin's end): GET's window [09:01, 10:01] holds 09:10 .. 10:00, 6 events, 1 failed:
    # burn 1 / 6 / 0.05 = 3.33. Before, POST's window was counted: 2 failures in 61 events.
    ev = two_methods(["2026-03-03 10:00"], ("2026-03-03 10:00", "2026-03-03 11:00"))
    rep = bl.incident_report(ev, bl.SLO(target=0.95, window="1h"), "2026-03-03 10:00",
                             "2026-03-03 11:40", by=["method"],
                             policy=bl.AlertPolicy.single_window("1h", 2.0))
    said = flat(wake_verdict(ev, {"mine": rep}).sentence)
    assert "(1 failure in 6 events: burn 3.33" in said
    assert "mine's page_1h page for method=GET" in said
