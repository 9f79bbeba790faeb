"""Stop 60: notebook 02's window summary said every left-out group row had "under 24 h of
evaluated time or no event in it", of a group (image) with 281.97 h of evaluated time and 17
events at 24 h: it was too thin for its few events (under 10 expected failures). And one such
group left out of every window kept any window from being chosen for the two groups of 100,000
events ("no window's flapping is known for all groups"). Now each row names the rule that left a
group out, and the choice is made on the groups with a verdict, naming the others."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab import SLO, compare_windows
from budgetlab.analyses.choices import choose_window, window_summary


def _stranger_table() -> pd.DataFrame:
    """The figures of the stranger's compare-windows run (tz Europe/Berlin, targets image 0.88,
    recaptcha_v2 0.93, turnstile 0.97), three windows, no hysteresis: image has 0.71 h and 0
    events at 1 h, 281.97 h and 17 events (2.04 expected failures) at 24 h, 250.09 h and 30
    events (3.6) at calendar:day. Image's rates per day are made large (5 a day) so that a sum
    that took them in would choose another window."""
    g = ["image", "recaptcha_v2", "turnstile"] * 3
    w = ["1h"] * 3 + ["1d"] * 3 + ["calendar:day"] * 3
    t = pd.DataFrame({
        "captcha_type": g, "window": w, "min_dwell": pd.Timedelta(0),
        "events": [0, 108810, 172915, 17, 103007, 172915, 30, 109053, 172915],
        "hours": [0.71, 433.0, 481.0, 281.97, 433.0, 481.0, 250.09, 432.93, 480.96],
        "hours_exhausted": [0.0, 1.3, 4.3, 0.0, 0.4, 0.0, 0.0, 9.1, 16.8],
        "transitions_per_day": [np.nan, 24.39, 0.25, 5.0, 0.17, 0.20, 5.0, 3.55, 0.55],
        "round_trips_per_day": [np.nan, 7.82, 0.0, 1.0, 0.0, 0.05, 1.0, 0.83, 0.05],
        "share_critical": [np.nan, 0.009, 0.002, 0.0, 0.0001, 0.0, 0.0, 0.002, 0.003],
        "share_exhausted": [np.nan, 0.003, 0.009, 0.0, 0.001, 0.0, 0.0, 0.021, 0.035]})
    target = np.tile([0.88, 0.93, 0.97], 3)
    t["expected_failures"] = t["events"] * (1 - target)  # image: 0, 2.04, 3.6
    t.attrs["by"] = ["captcha_type"]
    return t


TAIL = "their time shares and rates per day do not go by (the table's note)"


def test_each_summed_row_names_the_rule_that_left_the_group_out():
    s = window_summary(_stranger_table()).set_index("window")
    assert s.loc["1h", "note"] == ("left out of the sums: 1 of the 3 group rows, too thin for a "
                                   "verdict (captcha_type=image: under 24 h of evaluated time): "
                                   + TAIL)
    few = ("left out of the sums: 1 of the 3 group rows, too thin for a verdict "
           "(captcha_type=image: too few events, under 10 expected failures): " + TAIL)
    assert s.loc["1d", "note"] == few and s.loc["calendar:day", "note"] == few
    assert "under 24 h" not in s.loc["1d", "note"]
    # by hand: 0.17 + 0.20 at 24 h, image's 5 a day left out
    assert s.loc["1d", "transitions_per_day"] == 0.17 + 0.20


def test_a_group_thin_under_every_window_does_not_veto_the_choice():
    v = choose_window(window_summary(_stranger_table()))
    # flapping summed over recaptcha_v2 and turnstile, by hand: 1 h 24.64, 24 h 0.37,
    # calendar:day 4.10 a day: the 24 h window (with image's 5 a day, calendar:day would win)
    assert v.verdict == "chosen" and v.subject == "the 24 h window"
    assert v.sentence == "By flapping alone: the 24 h window (0.4 status changes per day)."
    assert v.caveat == (
        "without incident labels only flapping is compared; decided on the 2 groups with a "
        "verdict; left out of every window's sums, too thin for a verdict under every window: "
        "captcha_type=image (1 h: under 24 h of evaluated time; 24 h, calendar:day: too few "
        "events, under 10 expected failures)")


def test_a_group_with_a_verdict_under_one_window_still_keeps_the_sums_comparable():
    # image given 90 events (10.8 expected failures) at calendar:day: it has a verdict there, so
    # the windows whose sums lack it are not compared with that one (fewer groups, fewer changes)
    t = _stranger_table()
    t.loc[6, ["events", "expected_failures"]] = [90, 90 * 0.12]
    v = choose_window(window_summary(t))
    assert v.subject == "the calendar:day window"
    assert v.caveat.endswith("(the summary's note says why): the 1 h window, 1 of the 3 group "
                             "rows; the 24 h window, 1 of the 3 group rows")


def _log() -> pd.DataFrame:
    """4 days from 2026-03-02 00:00 UTC: group big has an event every minute (5,760; every 10th
    fails), group thin one every 6 h (16, at 00:00, 06:00, ...; none fails)."""
    big = pd.date_range("2026-03-02", periods=4 * 1440, freq="1min", tz="UTC")
    thin = pd.date_range("2026-03-02", periods=16, freq="6h", tz="UTC")
    ts = big.append(thin)
    ok = np.r_[np.arange(len(big)) % 10 != 0, np.ones(len(thin), dtype=bool)]
    g = ["big"] * len(big) + ["thin"] * len(thin)
    out = pd.DataFrame({"ts": ts, "ok": ok, "g": pd.Categorical(g)})
    out["bucket"] = pd.Categorical(np.where(ok, "success", "failure"),
                                   categories=["success", "failure"], ordered=True)
    return out.sort_values("ts", kind="stable", ignore_index=True)


def test_compare_windows_rows_say_why_by_the_rule_that_holds():
    # thin under 1 h: 6 h between events, each its own stretch of traffic whose first hour is
    # warm-up: no evaluated time (under a second: float), no event in it. Under 24 h the window
    # never empties: evaluated from 24 h after the first event (03-03 00:00) to the log's last
    # event (03-05 23:59), 71 h 59 min, holding 12 events (4 a day on 03-03 .. 03-05), 1.2
    # expected failures under 0.9: too few for a verdict (10 needed)
    ev = _log()
    t = compare_windows(ev, SLO(target=0.9), ["1h", "24h"], by="g")
    row = t.set_index(["g", "window"])
    assert row.loc[("thin", "1h"), "hours"] < 1e-9 and row.loc[("thin", "1h"), "events"] == 0
    assert row.loc[("thin", "1d"), "hours"] == pytest.approx(71 + 59 / 60)
    assert row.loc[("thin", "1d"), "events"] == 12
    summary = window_summary(t)
    s = summary.set_index("window")
    assert "(g=thin: under 24 h of evaluated time)" in s.loc["1h", "note"]
    assert "(g=thin: too few events, under 10 expected failures)" in s.loc["1d", "note"]
    assert s.attrs["groups_without_verdict"] == {
        "g=thin": "1 h: under 24 h of evaluated time; 24 h: too few events, under 10 expected "
                  "failures"}
    v = choose_window(summary)  # on big alone; without thin it was withheld
    assert v.verdict == "chosen" and v.caveat.startswith(
        "without incident labels only flapping is compared; decided on the 1 group with a "
        "verdict; left out of every window's sums, too thin for a verdict under every window: "
        "g=thin (1 h: under 24 h")
