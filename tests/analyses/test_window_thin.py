"""compare_windows says in words when a row's time shares and rates per day are too thin to go by:
less than one day (24 h) of evaluated time (docs/compare-windows.md, docs/conventions.md); an
incident during which the window held no traffic is unseen, not missed.

Hand-computed cases: the evaluated time of a window is the time it holds traffic after the first
window of each stretch of traffic, up to the last event; an event stays in a rolling window
through ``ts + window`` and leaves it 1 ns later."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab import SLO, as_events, compare_windows, window_incidents
from budgetlab.analyses.window_clock import MIN_EVALUATED_HOURS, thin_notes
from budgetlab.analyses.window_lengths import UNSEEN

T0 = pd.Timestamp("2026-01-05", tz="UTC")
WHY = "too little for time shares and rates per day, which need at least 24 h (one day)"
#: Why a row without an event in its evaluated span has no figure read off the status.
NO_EVENT = ("no time shares, status changes, rates per day or detections without an event in "
            "it")


def _warmup_only(span: str, window: str) -> str:
    return (f"0 events in the evaluated span: for {span} of evaluated time the window held only "
            f"events of a warm-up (the first {window} of a stretch of traffic, which only fills "
            f"the window); {NO_EVENT}")


def _bursts(hours: int) -> pd.DataFrame:
    """Three successes a burst (at :00:00, :00:20, :00:40), one burst an hour."""
    ts = [T0 + pd.Timedelta(hours=h, seconds=s) for h in range(hours) for s in (0, 20, 40)]
    return as_events(ts, [True] * len(ts))


def test_a_short_window_on_bursty_traffic_is_too_thin_and_says_why():
    # 5 min window: each burst is its own stretch of traffic; its warm-up runs to hh:05:00, the
    # window holds the :00:40 event through hh:05:40 and is empty 1 ns later: 40 s + 1 ns of
    # evaluated time a burst, no event in it. The last burst (23:00) ends the observation at
    # 23:00:40, inside its warm-up: 23 bursts count.
    t = compare_windows(_bursts(24), SLO(target=0.9), ["5min", "1h"]).set_index("window")
    five = t.loc["5m"]
    assert five["hours"] == pytest.approx(23 * (40 * 10**9 + 1) / 3.6e12, rel=1e-12)
    assert five["events"] == 0
    # 920 s + 23 ns: in words its two largest units, whole seconds: "15 min 20 s"; no event in
    # it, so no figure read off the status (the warm-ups' events only): NaN, and the note says so
    assert five["note"] == _warmup_only("its 15 min 20 s", "5 min")
    assert five[["share_healthy", "hours_exhausted", "transitions",
                 "transitions_per_day"]].isna().all()
    # 1 h window: the bursts touch (each holds its :00:40 event until the next burst), one stretch
    # from 00:00; evaluated from 01:00 to the last event 23:00:40, events from 01:00 on
    one = t.loc["1h"]
    assert one["hours"] == pytest.approx(22 + 40 / 3600, rel=1e-12)
    assert one["events"] == 23 * 3
    assert one["note"] == f"only 22 h of evaluated time (69 events in it): {WHY}"  # 22 h 40 s


@pytest.mark.parametrize(("minutes", "hours", "events", "note"), [
    (25 * 60, 23 + 59 / 60, 1440,
     f"only 23 h 59 min of evaluated time (1,440 events in it): {WHY}"),
    (25 * 60 + 1, 24.0, 1441, ""),  # exactly one day: enough
])
def test_one_day_of_evaluated_time_is_the_minimum(minutes, hours, events, note):
    # one event a minute from 00:00, 1 h window: evaluated from 01:00 (warm-up) to the last event
    ts = T0 + pd.to_timedelta(np.arange(minutes), unit="min")
    row = compare_windows(as_events(ts, [True] * minutes), SLO(target=0.9), "1h").iloc[0]
    assert row["hours"] == pytest.approx(hours, rel=1e-12)
    assert row["events"] == events and row["note"] == note
    assert MIN_EVALUATED_HOURS == 24.0


def test_a_row_without_evaluated_time_says_so():
    # a 7 d window on 24 h of bursts: the whole log is warm-up (the last event 23 h 0 min 40 s
    # after the first, said in its two largest units, truncated: 23 h), which the note says; the
    # window held traffic all along, so "held no traffic" would contradict the log
    t = compare_windows(_bursts(24), SLO(target=0.9), ["7D"])
    assert t["hours"].iloc[0] == 0 and np.isnan(t["share_healthy"].iloc[0])
    assert t["note"].iloc[0] == ("no evaluated time: the log ends 23 h after its first event, "
                                 "within the 7 d window's warm-up (its first 7 d)")
    # by group, from the group's own first event: a's bursts from hour 0, b's from hour 20 (its
    # last event 3 h 0 min 40 s after its first: 3 h)
    ev = _bursts(24).assign(g="a")
    late = ev[ev["ts"] >= T0 + pd.Timedelta(hours=20)].assign(g="b")
    both = pd.concat([ev, late]).sort_values("ts", kind="stable", ignore_index=True)
    t = compare_windows(both, SLO(target=0.9), ["7D"], by="g").set_index("g")
    assert t["note"].to_dict() == {
        "a": ("no evaluated time: the log ends 23 h after the group's first event, within the "
              "7 d window's warm-up (its first 7 d)"),
        "b": ("no evaluated time: the log ends 3 h after the group's first event, within the 7 d "
              "window's warm-up (its first 7 d)")}


def test_thin_note_words_for_tiny_spans():
    notes = thin_notes(np.array([1e-13, 18 / 3600, 24.0]), np.array([1, 2, 5]))
    assert notes[0].startswith("only under a second of evaluated time (1 event in it)")
    assert notes[1].startswith("only 18 s of evaluated time (2 events in it)")
    assert notes[2] == ""


def _lone_failure_log(path) -> str:
    """Group ``busy``: a success a minute for two days from T0; group ``lone``: one failure at
    T0 + 12 h (the Apache log's lone OPTIONS request, a 500)."""
    ts = list(T0 + pd.to_timedelta(np.arange(2 * 1440), unit="min"))
    lone = T0 + pd.Timedelta(hours=12)
    pd.DataFrame({"ts": [t.strftime("%Y-%m-%dT%H:%M:%SZ") for t in [*ts, lone]],
                  "g": ["busy"] * len(ts) + ["lone"],
                  "outcome": ["success"] * len(ts) + ["timeout"]}).to_csv(path, index=False)
    return str(path)


def test_a_lone_event_leaves_no_evaluated_time_and_the_note_says_so(tmp_path, capsys):
    from budgetlab import read_events
    from budgetlab.cli import main

    log = _lone_failure_log(tmp_path / "log.csv")
    t = compare_windows(read_events(log, by="g"), SLO(target=0.99), "1h",
                        by="g").set_index("g")
    # the lone failure holds the 1 h window from T0 + 12 h through T0 + 13 h, its warm-up, and
    # leaves 1 ns later: the window held it after the warm-up at one instant (T0 + 13 h), no
    # stretch of time: no evaluated time (it said 1 ns, "under a second"), no event in it
    lone = t.loc["lone"]
    assert lone["hours"] == 0 and lone["events"] == 0
    assert lone["note"] == "no evaluated time: the window held no traffic after its warm-up"
    # no figure over it (1 failure of 1 > a budget of 0.01 would read exhausted): withheld, NaN
    assert np.isnan(lone["share_exhausted"])
    # busy: evaluated from T0 + 1 h to its last event, T0 + 47 h 59 min: enough, no note
    assert t.loc["busy", "hours"] == pytest.approx(46 + 59 / 60, rel=1e-12)
    assert t.loc["busy", "note"] == ""
    # on the command line the note is all a reader sees of it: blank shares and rates
    assert main(["compare-windows", log, "--by", "g", "--windows", "1h",
                 "--target", "0.99"]) == 0
    out = capsys.readouterr().out.splitlines()
    row = next(x for x in out if x.split()[:2] == ["lone", "1"])
    # hours_no_traffic: from the lone failure (T0 + 12 h, the group's first event) to the log's
    # end (T0 + 47 h 59 min), 35 h 59 min, less the hour and 1 ns the window held the failure
    assert row.split() == ["lone", "1", "h", "0", "0.00", "34.98"]
    assert ("1 h, g=lone: no evaluated time: the window held no traffic after its warm-up"
            in " ".join(" ".join(out).split()))


def test_an_incident_the_window_held_no_traffic_for_is_unseen_not_missed():
    # bursts at hh:00:00, :20, :40 of 3 hours; 01:00:20 failed; target 0.9
    ev = _bursts(3)
    ok = ev["ok"].to_numpy().copy()
    ok[4] = False  # 01:00:20
    ev = as_events(ev["ts"], ok)
    at = [T0 + pd.Timedelta(minutes=m) for m in (20, 40, 60, 61)]
    inc = pd.DataFrame({"incident_id": ["gap", "burst"], "scope": ["*", "*"],
                        "start": [at[0], at[2]], "end": [at[1], at[3]]})
    w = window_incidents(ev, SLO(target=0.9), inc, ["5min", "1h"], grace="10min")
    w = w.set_index(["window", "incident_id"])
    # 5 min: every event is in its burst's warm-up (to hh:05:00), none in the evaluated span:
    # the detections of both incidents are withheld, not known (the 00:00 burst leaving the
    # window 1 ns after 00:05:40 left it empty from 00:20 to 00:50, and 01:00:20's failure made
    # it exhausted at once, both read on a window holding only a warm-up's events); the note is
    # the compare_windows row's
    five = w.loc["5m"]
    assert five["withheld"].all() and five[["detected", "unseen", "recovered"]].isna().all().all()
    assert five["detection"].isna().all()
    assert (five["note"].str.startswith("0 events in the evaluated span")).all()
    assert UNSEEN not in set(five["note"])
    # 1 h: the 00:00 burst stays in the window until 01:00:40 + 1 ns: the gap incident is seen,
    # healthy (no failure), a real miss; at 01:00:20 [00:00:20, 01:00:20] holds 4 events, 1
    # failed: burn 2.5, detected 20 s after the start
    assert not w.loc["1h", "withheld"].any()
    assert not bool(w.loc[("1h", "gap"), "unseen"]) and not bool(w.loc[("1h", "gap"), "detected"])
    assert w.loc[("1h", "burst"), "detection"] == pd.Timedelta(seconds=20)
    t = compare_windows(ev, SLO(target=0.9), ["5min", "1h"], incidents=inc, grace="10min")
    cols = ["incidents", "detected", "missed", "unseen"]
    # 1 h: events from 01:00 on are in the evaluated span; 5 min: every event is in its burst's
    # warm-up (to hh:05:00), none in the span, and the 20 s detection is in a warm-up too: the
    # row's detections are withheld (NaN), its incidents in scope still counted
    rows = t.set_index("window")[cols]
    assert rows.loc["1h"].to_dict() == {"incidents": 2, "detected": 1, "missed": 1, "unseen": 0}
    assert rows.loc["5m", "incidents"] == 2
    assert rows.loc["5m", ["detected", "missed", "unseen"]].isna().all()
