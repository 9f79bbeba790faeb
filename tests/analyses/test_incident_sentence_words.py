"""Incident summary wording on logs unlike the captcha sample: an unnamed failure kind, a page
already firing at the start, a window empty when the incident ended (hand-built logs, one event a
minute from 2026-01-01 00:00, the incident 10:00-11:00 unless said)."""

from __future__ import annotations

import pandas as pd

from budgetlab import SLO, AlertPolicy, as_events, incident_report

T = pd.date_range("2026-01-01", periods=24 * 60, freq="1min", tz="UTC")


def log(fails, *, groups=("x",), until=24 * 60):
    """``fails(i, group)``: the minute-``i`` event of ``group`` failed; its bucket is the log's
    unnamed kind, ``failure``."""
    rows = [(T[i], g, not fails(i, g)) for i in range(until) for g in groups]
    f = pd.DataFrame(rows, columns=["ts", "g", "ok"])
    return as_events(f["ts"], f["ok"].to_numpy(), ["success" if o else "failure" for o in f["ok"]],
                     groups={"g": f["g"].to_numpy()})


def test_an_unnamed_failure_kind_says_where_the_failures_were_not_what_they_were():
    # x fails at the odd minutes of 10:00-10:09 (5 failures), y at 10:31 (1): 5 / 6 = 83 % in x
    ev = log(lambda i, g: (g == "x" and 600 <= i < 610 and i % 2)
             or (g == "y" and i == 631), groups=("x", "y"))
    pol = AlertPolicy.single_window("1h", 50.0)
    rep = incident_report(ev, SLO(target=0.9, window="1h"), "2026-01-01 10:00", "2026-01-01 11:00",
                          by="g", policy=pol)
    # was "were failures in x"; x's share of its own failures is all of them: not said
    assert " 83 % of the failures of both groups by g were in x. " in rep.summary
    one = incident_report(ev[ev["g"] == "x"], SLO(target=0.9, window="1h"), "2026-01-01 10:00",
                          "2026-01-01 11:00", policy=pol)
    assert " The log names no kind of failure, so there is no breakdown by kind. " in one.summary


def test_a_page_already_firing_names_its_tier_inside_one_parenthesis():
    # the odd minutes fail from 09:00: the 5 min window at the 09:04 evaluation, [08:59, 09:04),
    # holds 09:01 and 09:03: 2 of 5 = 0.4 above 3 x 0.1 (at 09:03 only 09:01: 0.2); every later
    # 5 min window holds 2 or 3 failures: the page fires at 09:04 and is still on at 10:00
    ev = log(lambda i, g: i >= 540 and i % 2 == 1)
    rep = incident_report(ev, SLO(target=0.9, window="1h"), "2026-01-01 10:00", "2026-01-01 10:30",
                          policy=AlertPolicy.single_window("5min", 3.0))
    assert ("would have paged already at the start (page_5m, firing since 09:04).") in rep.summary


def test_a_window_empty_at_the_end_is_said_in_words():
    # the traffic stops at 10:19 (odd minutes of 10:00-10:19 failing) and resumes at 12:00, after
    # the report's window (the log runs on: a silence, not the data's end); under a 10 min window
    # the last event leaves it 1 ns after 10:29: no traffic when the incident ends at 11:00
    ev = log(lambda i, g: 600 <= i and i % 2 == 1)
    ev = ev[(ev["ts"] < T[620]) | (ev["ts"] >= T[720])].reset_index(drop=True)
    rep = incident_report(ev, SLO(target=0.9, window="10min"), "2026-01-01 10:00",
                          "2026-01-01 11:00", context="10min",
                          policy=AlertPolicy.single_window("1h", 50.0))
    assert rep.tracker["status_at_end"].iloc[0] == "no_traffic"
    assert ("when the incident ended (its window was empty; at its events: peak 10 min burn"
            in rep.summary) and "NO_TRAFFIC" not in rep.summary
