"""The incident summary's words where the clock or the log cuts the incident.

- Across a DST change each end of "Between ... and ..." carries its own zone: it said "Between
  01:00 and 04:00 CET on 2026-03-29", a time that does not exist in Europe/Berlin that day.
- The budget's time with traffic starts at the replayed span's start when the tracker's window
  there holds earlier events: a group with one event every 3 h lost the hour before its first
  event of the span (its rate per day read over 25 h instead of 26 h).
- A log that ends inside the incident: the budget sentence said "Over its 6 h" of a count that
  covers 2 h; and it counted "both groups" where the buckets' sentence counts the groups with
  events in the incident. A log that ends before the incident: "no traffic", "no failures".

Every figure is worked out by hand in the comments.
"""

from __future__ import annotations

import pandas as pd

from budgetlab import SLO, AlertPolicy, as_events, incident_report
from budgetlab.analyses.incident_tracker_text import between

T0 = pd.Timestamp("2026-01-01", tz="UTC")
ONE_TIER = AlertPolicy.single_window("1h", 14.4)


def flat(text: str) -> str:
    return " ".join(text.split())


def events(frame: pd.DataFrame) -> pd.DataFrame:
    """The canonical events of ``frame`` (``ts``, ``ok`` and maybe ``svc``)."""
    extra = {"groups": {"svc": frame["svc"].tolist()}} if "svc" in frame else {}
    return as_events(frame["ts"], frame["ok"].tolist(), **extra)


def minutes(first: str, last: str, svc: str | None = None, failing=()) -> pd.DataFrame:
    """An event a minute from ``first`` to ``last`` (both included), those at ``failing`` failed."""
    ts = pd.date_range(first, last, freq="1min", tz="UTC")
    frame = pd.DataFrame({"ts": ts, "ok": [t not in set(failing) for t in ts]})
    if svc is not None:
        frame["svc"] = svc
    return frame


def test_between_gives_each_end_its_own_zone_across_dst():
    utc = pd.Timestamp
    # 00:00 UTC is 01:00 CET; at 01:00 UTC Berlin moves to CEST, so 02:00 UTC is 04:00 CEST
    assert (between(utc("2026-03-29 00:00", tz="UTC"), utc("2026-03-29 02:00", tz="UTC"),
                    "Europe/Berlin") == "Between 01:00 CET and 04:00 CEST on 2026-03-29")
    # 21:30 UTC on 10-24 is 23:30 CEST; 02:30 UTC on 10-25 is 03:30 CET (back at 01:00 UTC)
    assert (between(utc("2026-10-24 21:30", tz="UTC"), utc("2026-10-25 02:30", tz="UTC"),
                    "Europe/Berlin")
            == "Between 23:30 CEST on 2026-10-24 and 03:30 CET on 2026-10-25")
    # the hour that happens twice: 00:30 UTC is 02:30 CEST, 01:30 UTC is 02:30 CET
    assert (between(utc("2026-10-25 00:30", tz="UTC"), utc("2026-10-25 01:30", tz="UTC"),
                    "Europe/Berlin") == "Between 02:30 CEST and 02:30 CET on 2026-10-25")


def test_incident_summary_names_both_zones_across_the_spring_change():
    ev = events(minutes("2026-03-28 00:00", "2026-03-29 06:00"))
    rep = incident_report(ev, SLO(target=0.99, window="1h"), "2026-03-29 01:00",
                          "2026-03-29 04:00", tz="Europe/Berlin", context="0s", policy=ONE_TIER)
    assert rep.summary.startswith("Between 01:00 CET and 04:00 CEST on 2026-03-29, ")


def test_sparse_group_has_traffic_over_the_whole_log_its_window_holds_an_event():
    # thin: an event every 3 h from 01-01 00:00 to 01-05 00:00 (33); gone: one event at 01-02
    # 12:00. 24 h window, one 1 h tier, no context: the incident 01-04 02:00 .. 04:00. The budget
    # is carried from the whole log, 01-01 00:00 .. 01-05 00:00, 96 h, whatever the context:
    # thin's 24 h window is never empty (3 h apart), so it has traffic all 96 h: 33 / 96 x 24 =
    # 8.25 a day, 33 x 720 / 96 = 247.5 in 30 d. (Before: the replayed span 01-03 02:00 ..
    # 01-04 04:00, 9 events in 26 h, 8.31 a day.) gone has no event in the report: no row.
    thin = pd.DataFrame({"ts": pd.date_range("2026-01-01", "2026-01-05", freq="3h", tz="UTC"),
                         "ok": True, "svc": "thin"})
    gone = pd.DataFrame({"ts": [pd.Timestamp("2026-01-02 12:00", tz="UTC")], "ok": [True],
                         "svc": ["gone"]})
    frame = pd.concat([thin, gone]).sort_values("ts", kind="stable")
    ev = events(frame)
    rep = incident_report(ev, SLO(target=0.99, window="24h"), T0 + pd.Timedelta("74h"),
                          T0 + pd.Timedelta("76h"), by="svc", context="0s", policy=ONE_TIER)
    b = rep.budget.set_index("svc")
    assert list(b.index) == ["thin"]
    assert b.loc["thin", "log_events"] == 33
    assert abs(b.loc["thin", "log_traffic_hours"] - 96.0) < 1e-9
    assert b.loc["thin", "log_silences"] == 0
    assert abs(b.loc["thin", "period_events"] - 33 * 720 / 96) < 1e-6
    assert abs(b.loc["thin", "period_events"] / 30 - 8.25) < 1e-9


def log_ending_in_the_incident():
    # api: an event a minute 01-02 00:00 .. 21:59, those of 20:00 .. 20:19 failed; db: the same,
    # none failed; web: an event a minute 01-02 00:00 .. 19:30, none in the incident 01-02 20:00
    # .. 01-03 02:00 (6 h)
    bad = pd.date_range("2026-01-02 20:00", "2026-01-02 20:19", freq="1min", tz="UTC")
    frame = pd.concat([minutes("2026-01-02 00:00", "2026-01-02 21:59", "api", failing=bad),
                       minutes("2026-01-02 00:00", "2026-01-02 21:59", "db"),
                       minutes("2026-01-02 00:00", "2026-01-02 19:30", "web")])
    frame = frame.sort_values("ts", kind="stable")
    return incident_report(events(frame), SLO(target=0.9, window="1h"), "2026-01-02 20:00",
                           "2026-01-03 02:00", by="svc", context="0s", policy=ONE_TIER)


def test_budget_sentence_names_the_part_of_the_incident_in_the_log():
    # the log's last event is at 21:59, a log a minute: it holds 20:00 .. 22:00 of the incident,
    # 2 h of its 6 h, with 120 events of api and 120 of db, 20 failed; under 90 % 24 are
    # allowed: burn 20 / 24 = 0.833. The events are of the report's 3 groups (web's 0 among
    # them); the failures' sentence counts the same 3 groups, both naming web, which had none
    # (before a60incident it counted "the 2 groups by svc with events in the incident")
    said = flat(log_ending_in_the_incident().summary)
    # (web named once, by the failures' sentence, the first to count the groups: the budget
    # sentence's are "the same 3 groups")
    assert ("Over the 2 h of its 6 h in the log (to 21:59) the incident saw 20 failures in 240 "
            "events of the same 3 groups (burn 0.833 over the incident)") in said
    assert said.count("svc=web had no event in the incident") == 1
    assert "Over its 6 h" not in said
    assert ("of the failures of all 3 groups by svc (svc=web had no event in the incident) "
            "were") in said
    assert "both groups" not in said


def test_log_ending_before_the_incident_says_its_status_is_not_known():
    # events every minute 01-01 00:00 .. 05:59; the incident 07:00 .. 08:00, its 2 h context
    # reaching back to 05:00: nothing of the incident is in the log
    ev = events(minutes("2026-01-01 00:00", "2026-01-01 05:59"))
    rep = incident_report(ev, SLO(target=0.99, window="1h"), T0 + pd.Timedelta("7h"),
                          T0 + pd.Timedelta("8h"), context="2h", policy=ONE_TIER)
    said = flat(rep.summary)
    assert said.startswith("Between 07:00 and 08:00 UTC on 2026-01-01, what the 1 h tracker "
                           "(target 99 %) showed is not known: the log ends (05:59) before the "
                           "incident begins: nothing of it is in the log.")
    assert "no traffic" not in said
    assert "no failures" not in said
    assert "there were no events during the incident." not in rep.notes


def test_log_starting_after_the_incident_says_no_failures_are_not_known():
    # events every minute 01-01 10:05 .. 14:00; the incident 06:00 .. 10:00, context 2 h
    ev = events(minutes("2026-01-01 10:05", "2026-01-01 14:00"))
    rep = incident_report(ev, SLO(target=0.99, window="1h"), T0 + pd.Timedelta("6h"),
                          T0 + pd.Timedelta("10h"), context="2h", policy=ONE_TIER)
    said = flat(rep.summary)
    assert "no failures" not in said
    assert "How many failures it had is not known either." in said
    assert "there were no events during the incident." not in rep.notes


def test_log_starting_inside_the_incident_names_the_part_in_it():
    # events every minute 01-01 10:05 .. 14:00; the incident 08:00 .. 12:00 holds 10:05 .. 11:59
    # of them: 115 events in the 1 h 55 min of its 4 h in the log
    ev = events(minutes("2026-01-01 10:05", "2026-01-01 14:00"))
    rep = incident_report(ev, SLO(target=0.99, window="1h"), T0 + pd.Timedelta("8h"),
                          T0 + pd.Timedelta("12h"), context="0s", policy=ONE_TIER)
    assert ("Over the 1 h 55 min of its 4 h in the log (from 10:05) the incident saw 0 failures "
            "in 115 events") in flat(rep.summary)
