"""status_episodes (issue 16, point 6): CRITICAL-or-worse episodes condensed from a replay's
transitions, flaps less than ``gap`` apart merged.

Oracles: hand-built transition tables whose episodes are worked out by hand in the comments
(gap merging and its boundary, an episode still open at the end, several groups, the
``exhausted`` level, no transitions), one replay worked out by hand (one failure in an
11-event window of a 90 % / 10 min SLO is CRITICAL until it leaves the window), and a loop over
each group's own replay of the demo sample for every level and several gaps.
"""

from __future__ import annotations

import pandas as pd
import pytest

from budgetlab import SLO, as_events, datasets, replay, transitions
from budgetlab.budget.episodes import status_episodes
from budgetlab.budget.figures import STATUS_DTYPE
from budgetlab.errors import ConfigError, InputError, SchemaError

T0 = pd.Timestamp("2026-03-01", tz="UTC")
COLUMNS = ["start", "end", "duration", "ongoing", "merged"]


def at(text: str) -> pd.Timestamp:
    """A time of the test day, ``"HH:MM"`` or ``"HH:MM:SS"``."""
    return T0 + pd.Timedelta(text + (":00" if text.count(":") == 1 else ""))


def tables(changes, last, keys=None):
    """(states, transitions) by hand: ``changes`` is [(time, from, to[, key...])], ``last`` the last
    event's time (one per group when ``keys`` are given: {key tuple: time})."""
    by = list(keys or [])
    tr = pd.DataFrame({"ts": pd.DatetimeIndex([at(c[0]) for c in changes],
                                              dtype="datetime64[ns, UTC]")})
    for j, k in enumerate(by):
        tr[k] = [c[3 + j] for c in changes]
    tr["from_status"] = pd.Categorical([c[1] for c in changes], dtype=STATUS_DTYPE)
    tr["to_status"] = pd.Categorical([c[2] for c in changes], dtype=STATUS_DTYPE)
    if by:
        rows = [(at(t), *key) for key, t in last.items()]
        states = pd.DataFrame(rows, columns=["ts", *by])
    else:
        states = pd.DataFrame({"ts": [T0, at(last)]})
    states["ts"] = states["ts"].astype("datetime64[ns, UTC]")
    return states, tr


def rows(ep, by=()):
    """Episodes as plain tuples: keys, start, end, duration, ongoing, merged."""
    return [(*(r[k] for k in by), r["start"], r["end"], r["duration"], bool(r["ongoing"]),
             int(r["merged"]))
            for _, r in ep.iterrows()]


def episode(start, end, ongoing, merged, *key):
    return (*key, at(start), at(end), at(end) - at(start), ongoing, merged)


# one group: CRITICAL 00:00-00:10, a flap to WARNING until 00:25, CRITICAL again to 00:40, then
# 02:00-02:05; the last event at 03:00
FLAPS = [("00:00", "healthy", "critical"), ("00:10", "critical", "warning"), ("00:25", "warning",
                                                                              "critical"),
         ("00:40", "critical", "healthy"), ("02:00", "healthy", "critical"), ("02:05", "critical",
                                                                              "healthy")]


@pytest.mark.parametrize(("gap", "want"), [
    # the flap's return comes 15 min after the drop (00:10 -> 00:25): merged when the gap is more
    ("30min", [episode("00:00", "00:40", False, 2), episode("02:00", "02:05", False, 1)]),
    ("16min", [episode("00:00", "00:40", False, 2), episode("02:00", "02:05", False, 1)]),
    # exactly the gap apart is no longer "less than the gap": not merged
    ("15min", [episode("00:00", "00:10", False, 1), episode("00:25", "00:40", False, 1),
               episode("02:00", "02:05", False, 1)]),
    (0, [episode("00:00", "00:10", False, 1), episode("00:25", "00:40", False, 1),
         episode("02:00", "02:05", False, 1)]),
    # 00:40 -> 02:00 is 80 min: a 2 h gap merges all three
    ("2h", [episode("00:00", "02:05", False, 3)]),
])
def test_gap_merges_episodes_less_than_the_gap_apart(gap, want):
    states, tr = tables(FLAPS, "03:00")
    ep = status_episodes(states, tr, gap=gap)
    assert list(ep.columns) == COLUMNS
    assert rows(ep) == want
    # the gap as duration text (attrs are JSON values): the same length as given
    assert ep.attrs["at_least"] == "critical" and ep.attrs["by"] == []
    assert pd.Timedelta(ep.attrs["gap"]) == pd.Timedelta(gap if gap else 0)
    assert str(ep["start"].dtype) == ("datetime64[ns, "
                                      "UTC]") and str(ep["duration"].dtype) == "timedelta64[ns]"


def test_warning_level_sees_the_flap_as_one_episode():
    # at WARNING or worse the status never drops below between 00:00 and 00:40
    states, tr = tables(FLAPS, "03:00")
    ep = status_episodes(states, tr, at_least="warning", gap=0)
    assert rows(ep) == [episode("00:00", "00:40", False, 1), episode("02:00", "02:05", False, 1)]


def test_an_episode_still_open_at_the_end_ends_at_the_last_event_and_is_ongoing():
    changes = [("01:00", "healthy", "warning"), ("01:05", "warning", "critical"), ("01:30",
                                                                                   "critical",
                                                                                   "exhausted")]
    states, tr = tables(changes, "04:00")
    # CRITICAL from 01:05, never dropped: ends at the last event (04:00), 2 h 55 min
    assert rows(status_episodes(states, tr)) == [episode("01:05", "04:00", True, 1)]
    assert status_episodes(states, tr)["duration"].iloc[0] == pd.Timedelta("2h55min")
    # an ongoing episode merged with a closed one before it is ongoing
    changes = [("01:00", "healthy", "critical"), ("01:10", "critical", "healthy"), ("01:20",
                                                                                    "healthy",
                                                                                    "critical")]
    states, tr = tables(changes, "02:00")
    assert rows(status_episodes(states, tr, gap="30min")) == [episode("01:00", "02:00", True, 2)]
    assert rows(status_episodes(states, tr, gap="5min")) == [episode("01:00", "01:10", False, 1),
                                                             episode("01:20", "02:00", True, 1)]


def test_exhausted_level_counts_only_time_at_exhausted():
    changes = [("00:50", "healthy", "critical"), ("01:00", "critical", "exhausted"),
               ("01:20", "exhausted", "critical"), ("01:30", "critical", "exhausted"),
               ("01:45", "exhausted", "warning"), ("03:00", "warning", "exhausted")]
    states, tr = tables(changes, "03:30")
    # EXHAUSTED 01:00-01:20 and 01:30-01:45 (10 min apart), then 03:00 to the end
    assert rows(status_episodes(states, tr, at_least="exhausted", gap=0)) == [
        episode("01:00", "01:20", False, 1), episode("01:30", "01:45", False, 1), episode("03:00",
                                                                                          "03:30",
                                                                                          True, 1)]
    assert rows(status_episodes(states, tr, at_least="exhausted", gap="11min")) == [
        episode("01:00", "01:45", False, 2), episode("03:00", "03:30", True, 1)]
    # at CRITICAL or worse the exhausted <-> critical changes are no boundary: 00:50-01:45, then
    # 03:00-
    assert rows(status_episodes(states, tr, at_least="critical", gap=0)) == [
        episode("00:50", "01:45", False, 1), episode("03:00", "03:30", True, 1)]


def test_groups_each_with_their_own_episodes_and_last_event():
    # transitions of three groups interleaved in time; ("b", 2) never changes status
    changes = [("00:00", "healthy", "critical", "a", 1), ("00:05", "healthy", "critical", "b", 1),
               ("00:10", "critical", "healthy", "a", 1), ("00:20", "critical", "healthy", "b", 1),
               ("00:30", "healthy", "critical", "a", 1), ("00:35", "critical", "healthy", "a", 1),
               ("00:50", "healthy", "exhausted", "b", 1)]
    last = {("a", 1): "01:00", ("b", 1): "02:00", ("b", 2): "03:00"}
    states, tr = tables(changes, last, keys=["kind", "region"])
    ep = status_episodes(states, tr, ["kind", "region"], gap="25min")
    assert list(ep.columns) == ["kind", "region", *COLUMNS]
    # a: 00:00-00:10 and 00:30-00:35 are 20 min apart, merged; b: 00:05-00:20, then 00:50 to its
    # own last event (02:00), 30 min apart: not merged
    assert rows(ep, ["kind", "region"]) == [episode("00:00", "00:35", False, 2, "a", 1),
                                            episode("00:05", "00:20", False, 1, "b", 1),
                                            episode("00:50", "02:00", True, 1, "b", 1)]
    assert ep["region"].tolist() == [1, 1, 1]  # the keys keep their type
    # one key given as a string
    states1, tr1 = tables([c[:4] for c in changes], {("a",): "01:00", ("b",): "02:00"},
                          keys=["kind"])
    assert rows(status_episodes(states1, tr1, "kind", gap="25min"), ["kind"]) == [
        episode("00:00", "00:35", False, 2, "a"), episode("00:05", "00:20", False, 1, "b"),
        episode("00:50", "02:00", True, 1, "b")]


def test_no_transitions_give_no_episodes():
    states, tr = tables([], "01:00")
    ep = status_episodes(states, tr)
    assert list(ep.columns) == COLUMNS and len(ep) == 0
    states, tr = tables([], {("a",): "01:00", ("b",): "02:00"}, keys=["kind"])
    ep = status_episodes(states, tr, ["kind"])
    assert list(ep.columns) == ["kind", *COLUMNS] and len(ep) == 0
    # a replay that never leaves HEALTHY
    ev = as_events(pd.date_range(T0, periods=30, freq="min"), [True] * 30)
    st = replay(ev, SLO(target=0.9, window="10min"))
    assert len(transitions(st)) == 0 and len(status_episodes(st, transitions(st))) == 0


def test_a_replay_worked_out_by_hand():
    # 90 % over 10 min, one event a minute per group (b half a minute later); a window holds the
    # events of the last 10 min, both edges in: 11 events, budget 1.1, one failure burns
    # 1/1.1 = 0.91 > 0.9: CRITICAL, until the failure leaves the window 11 events later.
    # a fails at 00:20 -> CRITICAL 00:20-00:31; b fails at 00:15:30 -> 00:15:30-00:26:30 and at
    # 00:30:30 -> CRITICAL to its last event (00:39:30): 4 min apart
    ta = [T0 + pd.Timedelta(minutes=k) for k in range(40)]
    tb = [T0 + pd.Timedelta(minutes=k, seconds=30) for k in range(40)]
    ok = [k != 20 for k in range(40)] + [k not in (15, 30) for k in range(40)]
    ev = as_events(pd.DatetimeIndex(ta + tb), ok, groups={"kind": ["a"] * 40 + ["b"] * 40})
    st = replay(ev, SLO(target=0.9, window="10min"), by="kind")
    tr = transitions(st)
    assert rows(status_episodes(st, tr, "kind", gap="4min"), ["kind"]) == [
        episode("00:20", "00:31", False, 1, "a"), episode("00:15:30", "00:26:30", False, 1, "b"),
        episode("00:30:30", "00:39:30", True, 1, "b")]
    assert rows(status_episodes(st, tr, "kind", gap="5min"), ["kind"]) == [
        episode("00:20", "00:31", False, 1, "a"), episode("00:15:30", "00:39:30", True, 2, "b")]


def test_text_statuses_read_back_from_a_file_give_the_same_episodes():
    states, tr = tables(FLAPS, "03:00")
    text = tr.astype({"from_status": str, "to_status": str})
    assert rows(status_episodes(states, text, gap="30min")) == rows(status_episodes(states, tr,
                                                                                    gap="30min"))


def test_bad_arguments_are_refused_with_one_clear_error():
    states, tr = tables(FLAPS, "03:00")
    with pytest.raises(ConfigError,
                       match="at_least='healthy' must be one of warning, critical, exhausted"):
        status_episodes(states, tr, at_least="healthy")
    with pytest.raises(ConfigError, match="gap"):
        status_episodes(states, tr, gap="soon")
    with pytest.raises(SchemaError, match="transitions has no column 'to_status'"):
        status_episodes(states, tr.drop(columns="to_status"))
    with pytest.raises(SchemaError, match="states has no column 'kind'"):
        status_episodes(states, tr, "kind")
    with pytest.raises(InputError, match="'from_status' holds values that are no status"):
        status_episodes(
            states, tr.astype({"from_status": str}).replace({"from_status": {"warning": "amber"}})
        )
    with pytest.raises(InputError, match="states is a list"):
        status_episodes([], tr)


def loop_episodes(last_ts, tr, at_least, gap):
    """The oracle: walk one group's transitions in time order; an episode opens on reaching
    ``at_least`` or worse and closes on dropping below; an open one closes at the last event
    (ongoing); then episodes starting less than ``gap`` after the previous one's end merge."""
    order = ["healthy", "warning", "critical", "exhausted"]
    level = order.index(at_least)
    raw, start = [], None
    for _, row in tr.sort_values("ts", kind="stable").iterrows():
        was, now = (
            order.index(str(row["from_status"])) >= level,
            order.index(str(row["to_status"])) >= level,
        )
        if now and not was:
            start = row["ts"]
        elif was and not now:
            raw.append([start, row["ts"], False, 1])
            start = None
    if start is not None:
        raw.append([start, last_ts, True, 1])
    merged = []
    for s, e, ongoing, n in raw:
        if merged and s - merged[-1][1] < gap:
            merged[-1][1] = max(merged[-1][1], e)
            merged[-1][2] = merged[-1][2] or ongoing
            merged[-1][3] += n
        else:
            merged.append([s, e, ongoing, n])
    return [(s, e, e - s, o, n) for s, e, o, n in merged]


@pytest.mark.parametrize("at_least", ["warning", "critical", "exhausted"])
@pytest.mark.parametrize("gap", ["0s", "30min", "3h"])
def test_demo_sample_equals_a_loop_over_each_groups_own_replay(at_least, gap):
    events = datasets.load("demo")
    targets = {"recaptcha_v2": 0.93, "turnstile": 0.97, "image": 0.88}
    st = replay(events, {k: SLO(target=t, window="24h") for k, t in targets.items()},
                by="captcha_type")
    ep = status_episodes(st, transitions(st), "captcha_type", at_least=at_least, gap=gap)
    want = []  # groups in key order: the categories' order
    # oracle: each type replayed alone, walked by the loop
    for ctype in events["captcha_type"].cat.categories:
        sub = events[events["captcha_type"] == ctype]
        own = replay(sub, SLO(target=targets[ctype], window="24h"), by="captcha_type")
        want += [(ctype, *e) for e in loop_episodes(own["ts"].max(), transitions(own), at_least,
                                                    pd.Timedelta(gap))]
    assert rows(ep, ["captcha_type"]) == want
    assert len(want) > 0


def test_a_status_held_for_one_instant_is_no_episode_on_the_clock():
    # 1 h window, target 0.4 (budget = 0.6 per event). 00:00 failure: exhausted. 00:30 success:
    # 1 of 2 failed, burn 1 / 1.2 = 0.83, warning. 01:00 failure: the window [00:00, 01:00]
    # holds 2 failures of 3 (burn 2 / 1.8 = 1.1): exhausted at that instant only, since 00:00
    # leaves 1 ns later (1 of 2: warning again). 01:20, 02:00 successes: warning.
    from budgetlab import status_spans

    ts = pd.to_datetime(["2026-01-01 00:00", "2026-01-01 00:30", "2026-01-01 01:00",
                         "2026-01-01 01:20", "2026-01-01 02:00"], utc=True)
    spans = status_spans(as_events(ts, [False, True, False, True, True]),
                         SLO(target=0.4, window="1h"))
    assert spans["status"].astype(str).tolist() == ["exhausted", "warning", "exhausted",
                                                    "warning"]
    assert spans["instant"].tolist() == [False, False, True, False]
    assert spans["end"].iloc[2] - spans["start"].iloc[2] == pd.Timedelta(1, "ns")
    # the blip is folded into the warning before it: one exhausted episode, 00:00-00:30, not a
    # second one of 1 ns at 01:00
    ep = status_episodes(spans, at_least="exhausted", gap=0)
    assert ep[["start", "end"]].values.tolist() == [[ts[0], ts[1]]]
    assert ep["merged"].tolist() == [1]
    # at warning or worse the blip changes nothing: one episode from 00:00, open at the end
    ep = status_episodes(spans, at_least="warning", gap=0)
    assert ep[["start", "end", "ongoing"]].values.tolist() == [[ts[0], ts[4], True]]
    # a blip inside an episode does not cut it: 00:00 success, 00:10 and 00:20 failures (2 of
    # 3, burn 2 / 1.8: exhausted from 00:20); the 01:00 success arrives while 00:00 is still in
    # (2 of 4, burn 0.83: warning, for that instant), 00:00 leaves 1 ns later (2 of 3: exhausted
    # again) until 00:10 leaves at 01:10 + 1 ns (1 of 2: warning). One episode, 00:20 to
    # 01:10 + 1 ns, even with gap=0.
    ts2 = pd.to_datetime(["2026-01-01 00:00", "2026-01-01 00:10", "2026-01-01 00:20",
                          "2026-01-01 01:00", "2026-01-01 03:00"], utc=True)
    sp2 = status_spans(as_events(ts2, [True, False, False, True, True]),
                       SLO(target=0.4, window="1h"))
    assert sp2["status"].astype(str).tolist()[1:5] == ["warning", "exhausted", "warning",
                                                       "exhausted"]
    assert sp2["instant"].tolist()[3] and sp2["instant"].sum() == 1
    ep2 = status_episodes(sp2, at_least="exhausted", gap=0)
    ns = pd.Timedelta(1, "ns")
    assert ep2[["start", "end"]].values.tolist() == [[ts2[2], ts2[1] + pd.Timedelta("1h") + ns]]
