"""replay_summary and status_episodes on the window's clock: hand-computed cases.

Oracles: hours computed by hand from the window rule (an event stays in the window through
ts + window, leaves 1 ns later), and a loop over the spans for the episodes.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab import (
    SLO,
    as_events,
    replay,
    replay_summary,
    status_episodes,
    status_spans,
    transitions,
)
from budgetlab.errors import InputError

NS = pd.Timedelta(1, "ns")


def silent_month():
    """Group "quiet": 3 events then 30 days of silence then 2 events; group "busy": every 10 min
    for the first hour only, all ok."""
    quiet = pd.to_datetime(["2026-01-01 00:00", "2026-01-01 00:05", "2026-01-01 00:10",
                            "2026-01-31 00:00", "2026-01-31 00:30"], utc=True)
    busy = pd.date_range("2026-01-01 00:00", periods=7, freq="10min", tz="UTC")
    ts = quiet.append(busy)
    ok = [True, False, False, True, True] + [True] * 7
    order = np.argsort(ts.asi8, kind="stable")
    return as_events(ts[order], np.asarray(ok)[order],
                     groups={"g": np.asarray(["quiet"] * 5 + ["busy"] * 7)[order]})


def test_a_30_day_silence_is_no_traffic_not_the_last_status():
    ev = silent_month()
    slo = SLO(target=0.9, window="1h")
    s = replay_summary(replay(ev, slo, by="g"), ev).set_index("g")
    q = s.loc["quiet"]
    hour = 3.6e12
    # observation: 2026-01-01 00:00 .. 2026-01-31 00:30 (the last event of all groups)
    obs = (pd.Timestamp("2026-01-31 00:30") - pd.Timestamp("2026-01-01")).value / hour
    assert q["hours_healthy"] == pytest.approx(5 / 60 + 0.5)  # 00:00-00:05, then 01-31 00:00-00:30
    # exhausted from 00:05 until the 00:10 failure leaves (01:10 + 1 ns): about one window
    assert q["hours_exhausted"] == pytest.approx((pd.Timedelta("65min") + NS).value / hour)
    assert q["hours_no_traffic"] == pytest.approx(obs - q["hours_healthy"] - q["hours_exhausted"])
    assert q["hours_no_traffic"] > 29 * 24
    assert q["share_exhausted"] < 0.002 and q["share_no_traffic"] > 0.99
    assert (q["silences"], q["final_status"], q["status_at_end"]) == (1, "healthy", "healthy")
    assert (
        q["silent_hours"] == pytest.approx(q["hours_no_traffic"])
        and q["longest_silence_hours"] == q["silent_hours"]
    )
    # the per-event view holds exhausted from 00:05 until the next event, 30 days later (what the
    # gate saw)
    st = replay(ev, slo, by="g")
    assert st.loc[st["g"] == "quiet", "status"].astype(str).tolist() == ["healthy", "exhausted",
                                                                         "exhausted",
                                                                         "healthy", "healthy"]
    b = s.loc["busy"]
    # busy: 00:00..01:00 events, its window empties at 02:00 + 1 ns; no silence (trailing quiet)
    assert b["hours_healthy"] == pytest.approx((pd.Timedelta("2h") + NS).value / hour)
    assert (b["silences"], b["status_at_end"]) == (0, "no_traffic")
    # transitions over observed time, warm-up stated; events a day over its sending time, its
    # first to its last event (00:00 .. 01:00): 7 events in 1 h, 168 a day (before: over the
    # observed 2 h + 1 ns, its window draining after its last event counted, 84 a day)
    assert b["observed_hours"] == pytest.approx(b["hours_healthy"])
    assert b["sending_hours"] == 1.0
    assert b["events_per_day"] == pytest.approx(168.0)
    assert b["warmup_hours"] == pytest.approx(1.0)  # the first window from its first event
    # 1 h at the start, then 30 min after the silence
    assert q["warmup_hours"] == pytest.approx(1.0 + 0.5)
    # of it, the window refilling after the silence: Jan 31 00:00 to the observation's end
    assert (q["refill_hours"], b["refill_hours"]) == (pytest.approx(0.5), 0.0)
    for st in ("healthy", "warning", "critical", "exhausted", "no_traffic"):
        assert (s[f"share_{st}"] >= 0).all()
    assert np.allclose(s[[f"share_{x}" for x in ("healthy", "warning", "critical", "exhausted",
                                                 "no_traffic")]]
                       .sum(axis=1), 1.0)


def test_summary_refuses_states_of_a_variant():
    ev = silent_month()
    states = replay(ev, SLO(target=0.9, window="1h"), by="g")
    states.attrs["min_dwell"] = pd.Timedelta("5min")
    with pytest.raises(InputError, match="window's clock"):
        replay_summary(states, ev)


def test_summary_refuses_states_not_row_for_row_the_events():
    """The per-event figures pair each state with the event in its position: two groups' events
    at one instant, a failing "a" and a succeeding "b", with their states swapped (the same
    times, as a Dask replay's computed states in partition order may be) would give "a" a success
    rate of 1 and "b" 0; refused, as states of other events are."""
    ev = as_events(pd.to_datetime(["2026-01-01 00:00"] * 2 + ["2026-01-01 00:10"], utc=True),
                   [False, True, True], groups={"g": ["a", "b", "a"]})
    states = replay(ev, SLO(target=0.9, window="1h"), by="g")
    assert replay_summary(states, ev)["success_rate"].tolist() == [0.5, 1.0]  # by hand
    for other in (states.iloc[[1, 0, 2]], states.iloc[:2]):
        with pytest.raises(InputError, match="row for row"):
            replay_summary(other, ev)


def test_summary_and_transitions_refuse_tables_they_cannot_read():
    """Spans in place of the states, or events other than those replayed, are refused with the fix
    (they failed with a misleading group-key message, an IndexError, a KeyError)."""
    ev = silent_month()
    slo = SLO(target=0.9, window="1h")
    states, spans = replay(ev, slo, by="g"), status_spans(ev, slo, by="g")
    with pytest.raises(InputError, match=r"takes the DataFrame returned by budgetlab.replay\(\): "
                                         "its ts column is missing; spans of "
                                         "budgetlab.status_spans"):
        replay_summary(spans, ev)
    with pytest.raises(InputError, match=r"^transitions\(\) takes the DataFrame returned by "):
        transitions(spans)
    with pytest.raises(InputError, match="states has 12 rows, events 3"):
        replay_summary(states, ev.iloc[:3])
    # as many rows, other times: the per-event figures would pair statuses with other events
    with pytest.raises(InputError, match="the events' times are not the states'"):
        replay_summary(states, ev.assign(ts=ev["ts"] + pd.Timedelta("1s")))
    # the same events with times in ms: the same table
    ms = ev.assign(ts=ev["ts"].astype("datetime64[ms, UTC]"))
    pd.testing.assert_frame_equal(replay_summary(states, ms), replay_summary(states, ev))


def loop_episodes(spans, level):
    """Runs of spans at level or worse (no_traffic ends them), per group, not merged; a status
    held for one instant only (``instant``) reads as the status before it."""
    out = []
    key = spans.attrs["by"][0] if spans.attrs["by"] else None
    for _, sp in (spans.groupby(key, observed=True, sort=False) if key else [(None, spans)]):
        cur = None
        before = "healthy"
        for row in sp.itertuples(index=False):
            status = before if row.instant else row.status
            before = status
            worse = status != "no_traffic" and ["healthy", "warning", "critical",
                                                "exhausted"].index(status) >= level
            if worse and cur is None:
                cur = [row.start, row.end]
            elif worse:
                cur[1] = row.end
            elif cur is not None:
                out.append(tuple(cur))
                cur = None
        if cur is not None:
            out.append(tuple(cur))
    return out


@pytest.mark.parametrize("at_least", ["warning", "critical", "exhausted"])
def test_span_episodes_equal_a_loop_over_the_spans(at_least):
    rng = np.random.default_rng(3)
    t = np.cumsum(rng.choice([1, 5, 60, 4000], size=400, p=[0.4, 0.3, 0.25, 0.05])) * 10**9
    ev = as_events(pd.to_datetime(t + pd.Timestamp("2026-01-01").value, utc=True),
                   rng.random(400) < 0.9,
                   groups={"g": rng.choice(["a", "b"], 400)})
    sp = status_spans(ev, SLO(target=0.9, window="10min"), by="g")
    want = loop_episodes(sp, ["healthy", "warning", "critical", "exhausted"].index(at_least))
    got = status_episodes(sp, at_least=at_least, gap=0)
    assert list(zip(got["start"], got["end"], strict=True)) == want
    assert (got["merged"] == 1).all()
    merged = status_episodes(sp, at_least=at_least, gap="30min")
    assert merged["merged"].sum() == len(got) and len(merged) <= len(got)


def test_span_episode_ends_when_the_window_empties():
    ts = pd.to_datetime(["2026-01-01 00:00", "2026-01-01 00:01", "2026-01-05 00:00"], utc=True)
    ev = as_events(ts, [False, False, True])
    sp = status_spans(ev, SLO(target=0.9, window="1h"))
    ep = status_episodes(sp, at_least="critical")
    assert ep[["start", "end", "ongoing"]].to_dict("records") == [
        {"start": ts[0], "end": ts[1] + pd.Timedelta("1h") + NS, "ongoing": False}]
    per_event = status_episodes(replay(ev, SLO(target=0.9, window="1h")),
                                transitions(replay(ev, SLO(target=0.9, window="1h"))),
                                at_least="critical")
    assert per_event["end"].tolist() == [ts[2]]  # the gate's view: exhausted until the next event
    with pytest.raises(InputError, match="no transitions"):
        status_episodes(sp, transitions(replay(ev, SLO(target=0.9, window="1h"))))


def test_rates_per_day_under_a_day_of_observed_time_carry_a_note():
    """The loghub sshd sample read 14.8 status changes a day from 1 change in 1.6 h, with nothing
    saying so: the rates keep their meaning, ``note`` (the last column) says why they are too thin
    to go by, in compare_windows' words. By hand, window 6 h, observation 01-01 00:00 .. 01-03
    00:00 (the last event): "short" has 5 events 00:00 .. 02:00, its window empties 6 h after the
    last (08:00 + 1 ns): 8 h of observed time; "long" has an event every hour for 48 h: 48 h."""
    short = pd.date_range("2026-01-01 00:00", periods=5, freq="30min", tz="UTC")
    long = pd.date_range("2026-01-01 00:00", periods=49, freq="h", tz="UTC")
    ts = short.append(long)
    order = np.argsort(ts.asi8, kind="stable")
    ev = as_events(ts[order], np.ones(len(ts), dtype=bool),
                   groups={"g": np.asarray(["short"] * 5 + ["long"] * 49)[order]})
    s = replay_summary(replay(ev, SLO(target=0.9, window="6h"), by="g"), ev)
    assert s.columns[-1] == "note"
    s = s.set_index("g")
    assert s.loc["short", "observed_hours"] == pytest.approx(8.0)
    # events a day over its sending time, first to last event, 00:00 .. 02:00: 5 / (2 / 24) =
    # 60 a day, kept (before: over the 8 h observed, its window draining counted, 15 a day)
    assert s.loc["short", "sending_hours"] == 2.0
    assert s.loc["short", "events_per_day"] == pytest.approx(60.0)
    assert s.loc["short", "note"] == (
        "only 2 h of sending time (5 events in it): too little for events per day, which need "
        "at least 24 h (one day); only 8 h of observed time (5 events in it): too little for "
        "transitions per day, which need at least 24 h (one day)")
    assert s.loc["long", "observed_hours"] == pytest.approx(48.0)
    assert s.loc["long", "note"] == ""


def test_a_group_without_observed_time_says_so_in_its_note():
    """By hand: "late"'s one event is the observation's last (01-02 00:00): its window never held
    an event before the end, 0 h of observed time."""
    ts = pd.to_datetime(["2026-01-01 00:00", "2026-01-01 12:00", "2026-01-02 00:00",
                         "2026-01-02 00:00"], utc=True)
    ev = as_events(ts, np.ones(4, dtype=bool), groups={"g": ["early", "early", "early", "late"]})
    s = replay_summary(replay(ev, SLO(target=0.9, window="1h"), by="g"), ev).set_index("g")
    assert s.loc["late", "observed_hours"] == 0.0
    assert s.loc["late", "note"] == (
        "no sending time: the group's events are all at one instant or more than 24 h apart, so "
        "it has no events per day; no observed time: the group's events fall at the "
        "observation's last instant, so it has no transitions per day")


def loop_warm_up(events, window, end):
    """The oracle: walk each group's events in time order; a traffic stretch begins at the
    group's first event and after each gap longer than the window (the window emptied), and its
    warm-up is its first window, cut at the observation's ``end``. Returns
    ``{group: (first stretch's warm-up, the later stretches' warm-up)}`` in hours."""
    out = {}
    for g, part in events.groupby("g"):
        t = sorted(part["ts"])
        firsts = [t[0]] + [b for a, b in zip(t, t[1:], strict=False) if b - a > window]
        warm = [min(window, end - f) / pd.Timedelta("1h") for f in firsts]
        out[g] = (warm[0], sum(warm[1:]))
    return out


def test_the_window_refilling_after_silences_is_counted_apart_from_the_first_window():
    # groups with irregular gaps, some longer than the 1 h window (several silences per group),
    # one starting less than a window before the end (its first window is cut short)
    rng = np.random.default_rng(29)
    ts, g = [], []
    for name, n, scale in (("a", 60, 40), ("b", 40, 90), ("c", 200, 5)):
        t = pd.Timestamp("2026-01-01", tz="UTC") + pd.to_timedelta(
            np.cumsum(rng.exponential(scale, n)), unit="min")
        ts += list(t)
        g += [name] * n
    end = max(ts)
    ts.append(end - pd.Timedelta("20min"))
    g.append("late")
    order = np.argsort(np.asarray([t.value for t in ts]), kind="stable")
    ev = as_events(pd.DatetimeIndex(ts)[order], np.ones(len(ts), dtype=bool),
                   groups={"g": np.asarray(g)[order]})
    window = pd.Timedelta("1h")
    s = replay_summary(replay(ev, SLO(target=0.9, window=window), by="g"), ev).set_index("g")
    want = loop_warm_up(ev, window, end)
    assert s.loc["a", "silences"] > 2 and s.loc["b", "silences"] > 2
    for name, (first, later) in want.items():
        assert s.loc[name, "warmup_hours"] - s.loc[name, "refill_hours"] == pytest.approx(first)
        assert s.loc[name, "refill_hours"] == pytest.approx(later)
    assert want["late"] == (pytest.approx(1 / 3), 0)  # 20 min before the end: cut there
