"""The tracker's status at the last event before the report window is the "from" of a change at
the window's first event: the report replayed from ``window start - history`` read that status
on a window cut at the replay's start, so the same log gave other changes with other contexts
(``context="0s"``: no change at 02:00 and 1 change; ``context="1h"``: HEALTHY -> WARNING at 02:00
and 2 changes). The oracle: the seed's tracker (tests/seed_tracker.py) fed the WHOLE log, one
event at a time, its changes at the events of the window; each status is also worked out by
hand in the comments."""

from __future__ import annotations

import pandas as pd

from budgetlab import SLO, AlertPolicy, as_events, incident_report
from tests.seed_tracker import ErrorBudgetTracker, SLOConfig

SLO_90 = SLO(target=0.9, window="1h")  # a budget of 0.1 of the window's events
OUT_OF_REACH = AlertPolicy.single_window("1h", 50.0)  # history 1 h, as the tracker's window
HOUR_NS = 3_600_000_000_000


def at(hhmm: str) -> pd.Timestamp:
    return pd.Timestamp(f"2026-03-02 {hhmm}", tz="UTC")


def minute_log(failing: set[str]) -> pd.DataFrame:
    """One event at the start of each minute from 2026-03-01 22:00 to 02:59; those at the times
    in ``failing`` fail."""
    ts = list(pd.date_range(at("00:00") - pd.Timedelta("2h"), at("02:59"), freq="1min"))
    bad = {at(x) for x in failing}
    return as_events(ts, [t not in bad for t in ts])


def seed_changes(ev: pd.DataFrame, lo: pd.Timestamp, hi: pd.Timestamp,
                 key: str | None = None) -> list[tuple[pd.Timestamp, str, str]]:
    """The seed tracker's status changes at the events in ``[lo, hi)``, one tracker per value
    of ``key`` (one for the log without it), each fed all its events of the whole log."""
    trackers: dict[object, ErrorBudgetTracker] = {}
    out = []
    for row in ev.itertuples(index=False):
        g = getattr(row, key) if key else None
        tr = trackers.setdefault(g, ErrorBudgetTracker(SLOConfig(
            target_success_rate=0.9, window_seconds=HOUR_NS)))
        before = tr._last_status.value
        tr.record(bool(row.ok), row.ts.value)
        after = tr._last_status.value
        if after != before and lo <= row.ts < hi:
            out.append((row.ts, before, after))
    return out


# failures at 01:10, 01:20, 01:30 and 02:00. At the 01:59 event the tracker's hour [00:59, 01:59]
# holds 61 events, 3 failures: 3.1 of a budget of 6.1 left, 50.8 % > 50 %: HEALTHY. Cut at 01:00
# (the replay's start with context 0 and a 1 h history) it held 60 events, 3 failures: 3 of a
# budget of 60 x (1 - 0.9) = 5.999999999999998 left, a fraction 0.49999999999999983 < 0.5:
# WARNING. At 02:00 [01:00, 02:00] holds 61 events, 4 failures: 2.1 / 6.1 = 34.4 %: WARNING, so
# HEALTHY -> WARNING at 02:00. 1 min after 02:10 the 01:10 failure leaves: 3 failures in 61,
# HEALTHY again at 02:11 (50.8 %); 02:21 and 02:31 leave 2 and 1 failure: HEALTHY.
FAILING = {"01:10", "01:20", "01:30", "02:00"}


def test_the_first_change_at_the_window_start_is_the_seed_trackers():
    ev = minute_log(FAILING)
    rep = incident_report(ev, SLO_90, "2026-03-02 02:00", "2026-03-02 02:30", context="0s",
                          policy=OUT_OF_REACH)
    oracle = seed_changes(ev, rep.window_start, rep.window_end)
    got = [(t, f, to) for t, f, to in rep.transitions[["ts", "from_status", "to_status"]]
           .itertuples(index=False)]
    assert got == oracle
    in_incident = [c for c in oracle if at("02:00") <= c[0] < at("02:30")]
    assert in_incident == [(at("02:00"), "healthy", "warning"), (at("02:11"), "warning", "healthy")]
    row = rep.tracker.iloc[0]
    assert (row["first_change_at"], row["first_change_from"], row["first_change_to"]) == (
        at("02:00"), "healthy", "warning")  # context 0 (old): 02:11, warning -> healthy
    assert row["transitions"] == len(in_incident) == 2  # context 0 (old): 1


def test_contexts_agree_on_the_status_before_the_incident():
    # the states' rows of the window and the summary's words on the first change are one fact
    # whatever the context: the incident's events' rows are the same with 0 and 1 h of context
    ev = minute_log(FAILING)
    reps = [incident_report(ev, SLO_90, "2026-03-02 02:00", "2026-03-02 02:30", context=c,
                            policy=OUT_OF_REACH) for c in ("0s", "1h")]
    rows = [r.states[(r.states["ts"] >= at("02:00")) & (r.states["ts"] < at("02:30"))]
            .reset_index(drop=True) for r in reps]
    pd.testing.assert_frame_equal(rows[0], rows[1])
    cols = ["first_change_from", "first_change_to", "transitions"]
    assert reps[0].tracker[cols].equals(reps[1].tracker[cols])
    assert "went WARNING at 02:00" in " ".join(reps[0].summary.split())
    assert reps[0].notes == ()  # the data start 4 h before the window: no note either way


def test_a_group_silent_through_the_history_changes_from_its_last_status():
    # group "b": one failed event at 00:00 (its hour holds 1 event, 1 failure: EXHAUSTED), then
    # silent until a success at 02:05, whose hour [01:05, 02:05] holds it alone: HEALTHY. The
    # seed's tracker of "b" records EXHAUSTED -> HEALTHY at 02:05; replayed from 01:00 (context 0)
    # the 00:00 event was never seen and "b" began HEALTHY: no change. Group "a": one success a
    # minute, HEALTHY throughout, no change.
    a = list(pd.date_range(at("00:00") - pd.Timedelta("2h"), at("02:59"), freq="1min"))
    b = [at("00:00"), at("02:05")]
    ts = a + b
    ok = [True] * len(a) + [False, True]
    order = sorted(range(len(ts)), key=lambda i: (ts[i], i))
    ev = as_events([ts[i] for i in order], [ok[i] for i in order],
                   groups={"region": [("a" if i < len(a) else "b") for i in order]})
    rep = incident_report(ev, SLO_90, "2026-03-02 02:00", "2026-03-02 02:30", context="0s",
                          by="region", policy=OUT_OF_REACH)
    oracle = seed_changes(ev, rep.window_start, rep.window_end, key="region")
    assert oracle == [(at("02:05"), "exhausted", "healthy")]
    tr = rep.transitions
    assert [(t, str(g), f, to) for t, g, f, to in tr[["ts", "region", "from_status",
                                                      "to_status"]].itertuples(index=False)] == [
        (at("02:05"), "b", "exhausted", "healthy")]
    row = rep.tracker.set_index("region").loc["b"]
    assert (row["first_change_from"], row["first_change_to"], row["transitions"]) == (
        "exhausted", "healthy", 1)  # old: NaN, NaN, 0


def test_the_data_start_note_speaks_about_the_window_not_the_extra_history():
    # the log starts at 00:30, the window at 02:00 (context 0): the window's 1 h history [01:00,
    # 02:00) is in the log, no note, though the tracker now replays from its last event before
    # the window (01:59) less 1 h, 00:59; the budget's span is the whole log, whatever the
    # context: 00:30 .. 02:59, 150 events (one a minute). The 01:59 status is read on its full
    # hour: HEALTHY,
    # and the change at 02:00 is the seed's (old: none, the 01:59 hour cut at 01:00: WARNING)
    ev = minute_log(FAILING)
    ev = ev[ev["ts"] >= at("00:30")].reset_index(drop=True)
    rep = incident_report(ev, SLO_90, "2026-03-02 02:00", "2026-03-02 02:30", context="0s",
                          policy=OUT_OF_REACH)
    assert rep.notes == () and rep.data_start is None
    b = rep.budget.iloc[0]
    assert (b["log_start"], b["log_end"], b["log_events"]) == (at("00:30"), at("02:59"), 150)
    got = [tuple(r) for r in rep.transitions[["ts", "from_status", "to_status"]]
           .itertuples(index=False)]
    assert got == seed_changes(ev, rep.window_start, rep.window_end) == [
        (at("02:00"), "healthy", "warning"), (at("02:11"), "warning", "healthy")]
