"""status_spans (the window's clock) against a brute-force evaluation with the seed port's
arithmetic.

The oracle evaluates every group at every event and expiry instant (and at the observation's
start): the window's contents are put in a fresh port of the seed tracker
(``tests/seed_tracker.py``),
whose properties give the status and figures; an empty window is no traffic; the ``min_events``
hold keeps the previous instant's status (healthy after no traffic). The spans must tile the
observation, change status at every boundary, and agree with the oracle at every instant.
"""

from __future__ import annotations

import os
from collections import deque
from unittest import mock

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budgetlab import SLO, PerGroup, as_events, replay, silences, status_spans
from budgetlab.errors import ConfigError
from tests.seed_tracker import ErrorBudgetEvent, ErrorBudgetTracker, SLOConfig

T0 = pd.Timestamp("2026-03-01", tz="UTC").value
S = 1_000_000_000
H = 3600 * S
KERNELS = pytest.mark.parametrize("kernel", ["compiled", "numpy"])


def use_kernel(kernel):
    return mock.patch.dict(os.environ, {"BUDGETLAB_KERNEL": kernel})


def seed_window(window_events, slo: SLO):
    """The seed port holding exactly ``window_events`` [(t, ok)]: its status and figures."""
    trk = ErrorBudgetTracker(SLOConfig(target_success_rate=slo.target, window_seconds=slo.window_ns,
                                       warning_threshold=slo.warning,
                                       critical_threshold=slo.critical))
    trk._events = deque(ErrorBudgetEvent(timestamp=t, success=o) for t, o in window_events)
    return (trk._compute_status().value, trk.total_events, trk.failure_count, float(trk.burn_rate),
            float(trk.remaining_fraction))


def brute_group(t, ok, slo: SLO, lo: int, hi: int):
    """[(instant, status, total, failures, burn, remaining, stretch_first)] of one group at every
    instant where its window can change (and at ``lo``), from before its first event to ``hi``."""
    w = slo.window_ns
    instants = sorted({*t, *(x + w + 1 for x in t), lo})
    out = []
    prev = "no_traffic"
    first = None
    for now in instants:
        if now > hi:
            break
        win = [(x, o) for x, o in zip(t, ok, strict=True) if now - w <= x <= now]
        if not win:
            out.append((now, "no_traffic", 0, 0, 0.0, 1.0, None))
            prev, first = "no_traffic", None
            continue
        status, total, failures, burn, rf = seed_window(win, slo)
        if prev == "no_traffic":
            first = now
        if total < slo.min_events:
            status = "healthy" if prev == "no_traffic" else prev
        out.append((now, status, total, failures, burn, rf, first))
        prev = status
    return out


def check_against_brute(events, slo_of, by, spans, lo, hi):
    """Every group's spans against :func:`brute_group` (slo_of: group key -> SLO)."""
    groups = events.groupby(by, observed=True, sort=True) if by else [(None, events)]
    n_groups = 0
    for key, ev in groups:
        n_groups += 1
        slo = slo_of(key)
        mine = (
            spans
            if not by
            else spans[spans[by[0]].astype(str).eq(str(key[0] if isinstance(key, tuple) else key))]
        )
        t = ev["ts"].array.asi8.tolist()
        ok = ev["ok"].tolist()
        s = mine["start"].array.asi8
        e = mine["end"].array.asi8
        st_ = mine["status"].astype(str).to_numpy()
        if hi > lo:  # the spans tile [lo, hi), maximal, non-empty
            assert s[0] == lo and e[-1] == hi
            assert (s[1:] == e[:-1]).all() and (e > s).all()
            assert (st_[1:] != st_[:-1]).all()
        else:
            assert len(mine) == 0
        brute = brute_group(t, ok, slo, lo, hi)
        for now, status, total, failures, burn, rf, first in brute:
            if not lo <= now < hi:
                continue
            i = int(np.searchsorted(s, now, side="right")) - 1
            assert st_[i] == status, (key, now, st_[i], status)
            # a span starting here carries the figures of this instant
            if s[i] == max(now, lo) and s[i] == now:
                row = mine.iloc[i]
                assert (row["total"], row["failures"]) == (total, failures)
                assert row["burn_rate"] == burn and row["remaining_fraction"] == rf  # bit for bit
                want_warm = now if first is None else first + slo.window_ns
                assert row["warmup_end"].value == want_warm
        # every span starts at an oracle instant (or at lo)
        instants = {b[0] for b in brute}
        assert set(s.tolist()) <= instants | {lo}
        # a status held for one instant only: a span starting at an arrival (not before lo)
        # while an event at its cut-off is in, whose status is another one 1 ns later
        arrivals = set(t)
        for i, (a, st_a) in enumerate(zip(s.tolist(), st_.tolist(), strict=True)):
            before = [b[1] for b in brute if b[0] < a]
            after = [b[1] for b in brute if b[0] <= a + 1]
            starts_here = (before[-1] if before else "no_traffic") != st_a
            want = (st_a != "no_traffic" and starts_here and after[-1] != st_a
                    and {a, a - slo.window_ns} <= arrivals)
            assert bool(mine["instant"].iloc[i]) == want, (key, a)
    return n_groups


@st.composite
def grouped_cases(draw):
    n = draw(st.integers(1, 60))
    window = draw(st.sampled_from([1, 2, 5, 10, 60]))  # seconds
    choices = st.sampled_from([0, 0, 1, window, window + 1, 10 * window, 40 * window])
    gaps = draw(st.lists(st.one_of(choices, st.integers(0, 3 * window)), min_size=n, max_size=n))
    t = T0 + np.cumsum(np.asarray(gaps, dtype=np.int64)) * S
    # expiries on event instants too: shift some events by 1 ns
    t = t + np.asarray(draw(st.lists(st.sampled_from([0, 0, 1]), min_size=n, max_size=n)),
                       dtype=np.int64)
    t = np.sort(t)
    ok = np.asarray(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool)
    groups = draw(st.lists(st.sampled_from(["a", "b", "c"]), min_size=n, max_size=n))
    target = draw(st.sampled_from([0.5, 0.9, 0.95, 0.99]))
    warning, critical = draw(st.sampled_from([(0.5, 0.1), (0.8, 0.2), (0.3, 0.0)]))
    min_events = draw(st.sampled_from([0, 0, 2, 4]))
    slo = SLO(target=target, window=f"{window}s", warning=warning, critical=critical,
              min_events=min_events)
    return t, ok, groups, slo


@KERNELS
@settings(max_examples=40)
@given(case=grouped_cases(), grouped=st.booleans())
def test_spans_equal_brute_force_at_every_instant(case, grouped, kernel):
    t, ok, groups, slo = case
    ev = as_events(pd.to_datetime(t, utc=True), ok, groups={"g": groups} if grouped else None)
    by = ["g"] if grouped else None
    with use_kernel(kernel):
        sp = status_spans(ev, slo, by=by)
    check_against_brute(ev, lambda k: slo, by, sp, int(t[0]), int(t[-1]))


@KERNELS
@settings(max_examples=40)
@given(case=grouped_cases(), shift=st.integers(-50, 200), extra=st.integers(0, 500))
def test_spans_with_an_observation_start_and_end(case, shift, extra, kernel):
    """start= inside the data (figures counted there) and end= after it."""
    t, ok, groups, slo = case
    ev = as_events(pd.to_datetime(t, utc=True), ok, groups={"g": groups})
    lo = int(t[0]) + shift * S // 10
    hi = max(lo, int(t[-1]) + extra * S // 10)
    with use_kernel(kernel):
        sp = status_spans(
            ev, slo, by="g", start=pd.Timestamp(lo, tz="UTC"), end=pd.Timestamp(hi, tz="UTC")
        )
    check_against_brute(ev, lambda k: slo, ["g"], sp, lo, hi)


@KERNELS
@settings(max_examples=40)
@given(case=grouped_cases())
def test_spans_equal_the_replay_at_event_instants_without_min_events(case, kernel):
    """min_events = 0: the status at each event instant is the replay's at that instant's last
    row."""
    t, ok, groups, slo = case
    slo = SLO(target=slo.target, window=slo.window, warning=slo.warning, critical=slo.critical)
    ev = as_events(pd.to_datetime(t, utc=True), ok, groups={"g": groups})
    with use_kernel(kernel):
        sp = status_spans(ev, slo, by="g", end=pd.Timestamp(int(t[-1]) + 1, tz="UTC"))
        rp = replay(ev, slo, by="g")
    last_of_instant = ~rp.duplicated(["g", "ts"], keep="last")
    for _, row in rp[last_of_instant].iterrows():
        mine = sp[sp["g"] == row["g"]]
        i = int(np.searchsorted(mine["start"].array.asi8, row["ts"].value, side="right")) - 1
        assert str(mine["status"].iloc[i]) == str(row["status"])


@KERNELS
@settings(max_examples=40)
@given(case=grouped_cases(), shift=st.integers(-50, 50), extra=st.integers(0, 500))
def test_steps_equal_brute_force_at_every_instant(case, shift, extra, kernel):
    """steps=True: one row at the observation's start and at every instant in it where a group's
    window changes (each event and each expiry), with the oracle's status and figures there."""
    t, ok, groups, slo = case
    ev = as_events(pd.to_datetime(t, utc=True), ok, groups={"g": groups})
    lo = int(t[0]) + shift * S // 10
    hi = max(lo, int(t[-1]) + extra * S // 10)
    with use_kernel(kernel):
        steps = status_spans(ev, slo, by="g", steps=True, start=pd.Timestamp(lo, tz="UTC"),
                             end=pd.Timestamp(hi, tz="UTC"))
    assert steps["g"].astype(str).is_monotonic_increasing
    for key, own in ev.groupby("g", observed=True, sort=True):
        mine = steps[steps["g"] == key]
        ts = own["ts"].array.asi8.tolist()
        brute = [b for b in brute_group(ts, own["ok"].tolist(), slo, lo, hi) if lo <= b[0] < hi]
        assert mine["start"].array.asi8.tolist() == [b[0] for b in brute]
        assert mine["end"].array.asi8.tolist() == [b[0] for b in brute[1:]] + [hi] * bool(brute)
        for row, (now, status, total, failures, burn, rf, first) in zip(
                mine.itertuples(), brute, strict=True):
            assert (str(row.status), row.total, row.failures) == (status, total, failures), now
            assert row.burn_rate == burn and row.remaining_fraction == rf  # bit for bit
            if status != "no_traffic" and now > lo:
                assert row.warmup_end.value == first + slo.window_ns
            # held 1 ns: an event here while one at its cut-off leaves 1 ns later
            blip = status != "no_traffic" and now in ts and now - slo.window_ns in ts
            assert row.instant == blip, now

def test_a_group_silent_for_30_days_with_a_1h_window():
    """At most one window of each status after the last event; the rest is no traffic."""
    ts = pd.to_datetime(["2026-01-01 00:00", "2026-01-01 00:05", "2026-01-01 00:10",
                         "2026-01-31 00:00", "2026-01-31 00:30"], utc=True)
    ev = as_events(ts, [True, False, False, True, True], groups={"g": ["quiet"] * 5})
    sp = status_spans(ev, SLO(target=0.9, window="1h"), by="g")
    assert sp["status"].astype(str).tolist() == ["healthy", "exhausted", "no_traffic", "healthy"]
    dur = (sp["end"] - sp["start"]).tolist()
    # hand-computed: healthy 5 min, exhausted from 00:05 until the 00:10 event leaves (01:10 + 1 ns)
    assert dur[0] == pd.Timedelta("5min")
    assert dur[1] == pd.Timedelta("1h5min") + pd.Timedelta(1, "ns")
    assert dur[2] == pd.Timedelta("30D") - pd.Timedelta("1h10min") - pd.Timedelta(1, "ns")
    # warm-up again after silence
    assert sp["warmup_end"].iloc[3] == pd.Timestamp("2026-01-31 01:00", tz="UTC")
    si = silences(sp)
    assert si[["silences"]].to_dict("records") == [{"silences": 1}]
    assert si["longest_silence"].iloc[0] == dur[2] and si["silent_time"].iloc[0] == dur[2]
    assert si["observed_time"].iloc[0] == dur[0] + dur[1] + dur[3]


def test_min_events_hold_restarts_from_healthy_after_no_traffic():
    # 3 failures then silence; later one event alone (below min_events=2): healthy, not exhausted
    ts = pd.to_datetime(["2026-01-01 00:00", "2026-01-01 00:01", "2026-01-01 00:02",
                         "2026-01-01 05:00",
                         "2026-01-01 05:01"], utc=True)
    ev = as_events(ts, [False, False, False, True, False])
    sp = status_spans(ev, SLO(target=0.9, window="1h", min_events=2), end="2026-01-01 06:00")
    got = list(zip(sp["start"].dt.strftime("%H:%M:%S").tolist(), sp["status"].astype(str).tolist(),
                   strict=True))
    # 00:00 alone: held healthy; 00:01 two failures: exhausted; the window empties at 01:02 (+1 ns);
    # 05:00 alone: held from healthy; 05:01 1 failure of 2 events (budget 0.2): exhausted;
    # 06:00:00.000000001 would drop 05:00 (held exhausted), but the observation ends at 06:00
    assert got == [("00:00:00", "healthy"), ("00:01:00", "exhausted"), ("01:02:00", "no_traffic"),
                   ("05:00:00", "healthy"), ("05:01:00", "exhausted")]
    # the per-event replay never leaves exhausted: it is what the seed's gate saw
    assert replay(ev, SLO(target=0.9, window="1h",
                          min_events=2))["status"].astype(str).tolist()[3] == "exhausted"


def test_min_events_hold_keeps_the_status_an_expiry_left():
    """Between events an expiry may change the status (the window still >= min_events); a later
    thin window holds that one, where the per-event replay holds its previous event's."""
    ts = pd.to_datetime(["2026-01-01 00:00:00", "2026-01-01 00:30:00", "2026-01-01 00:31:00",
                         "2026-01-01 00:32:00",
                         "2026-01-01 01:31:30"], utc=True)
    ev = as_events(ts, [False, True, True, True, True])
    slo = SLO(target=0.6, window="1h", min_events=3)
    sp = status_spans(ev, slo, end="2026-01-01 01:40")
    # 00:00, 00:30: fewer than 3 events, held healthy; 00:31: 3 events, 1 failure, budget 1.2:
    # remaining 1/6 -> warning; 01:00 + 1 ns: the failure leaves, 3 successes -> healthy; from
    # 01:30 + 1 ns fewer than 3 events: held healthy, the 01:31:30 event included
    assert sp["status"].astype(str).tolist() == ["healthy", "warning", "healthy"]
    assert sp["start"].iloc[2] == pd.Timestamp("2026-01-01 01:00:00.000000001", tz="UTC")
    assert replay(ev, slo)["status"].astype(str).tolist()[-1] == "warning"


def test_ties_count_together():
    """Rows sharing a timestamp: the spans read the window after all of them, in either order."""
    ts = pd.to_datetime(["2026-01-01 00:00", "2026-01-01 00:10", "2026-01-01 00:10"], utc=True)
    a = status_spans(as_events(ts, [True, True, False]), SLO(target=0.9, window="1h"),
                     end="2026-01-01 00:20")
    b = status_spans(as_events(ts, [True, False, True]), SLO(target=0.9, window="1h"),
                     end="2026-01-01 00:20")
    pd.testing.assert_frame_equal(a, b)
    # 3 events, 1 failure, budget 0.3: exhausted from 00:10 (no zero-length span for the tie's first
    # row)
    assert a["status"].astype(str).tolist() == ["healthy", "exhausted"]


@KERNELS
def test_more_changes_than_the_first_buffer_holds(kernel):
    """12,000 changes (the compiled pass starts with room for 4,096 + 2 per group, then doubles),
    every instant a tie of three groups. Hand-computed: events 2 s apart and a 1 s window, so each
    window holds one event: healthy after a success, exhausted after a failure (budget 0.1 of one
    event), then no traffic from 1 s + 1 ns after the event to the next one."""
    n = 2000
    t = T0 + np.repeat(np.arange(n, dtype=np.int64) * 2 * S, 3)
    ok = (np.arange(3 * n) % 7 != 3) & (np.arange(3 * n) % 5 != 1)
    g = np.tile(np.array(["a", "b", "c"]), n)
    ev = as_events(pd.to_datetime(t, utc=True), ok, groups={"g": g})
    with use_kernel(kernel):
        sp = status_spans(ev, SLO(target=0.9, window="1s"), by="g", end=pd.Timestamp(
            T0 + 2 * n * S, tz="UTC"))
    for name in ("a", "b", "c"):
        mine = sp[sp["g"] == name]
        own = g == name
        starts = np.column_stack([t[own], t[own] + S + 1]).ravel()
        status = np.column_stack([np.where(ok[own], "healthy", "exhausted"),
                                  np.full(n, "no_traffic")]).ravel()
        assert mine["start"].array.asi8.tolist() == starts.tolist()
        assert mine["end"].array.asi8.tolist() == [*starts[1:].tolist(), T0 + 2 * n * S]
        assert mine["status"].astype(str).tolist() == status.tolist()
        assert mine["total"].tolist() == [1, 0] * n
        assert mine["failures"].tolist() == np.column_stack([~ok[own], np.zeros(n, bool)]
                                                            ).ravel().astype(int).tolist()
    assert len(sp) == 12_000


def test_per_group_slos_each_group_its_own_window():
    ts = pd.to_datetime(["2026-01-01 00:00", "2026-01-01 00:00", "2026-01-01 03:00",
                         "2026-01-01 03:00"], utc=True)
    ev = as_events(ts, [False, False, True, True], groups={"g": ["short", "long", "short", "long"]})
    slos = PerGroup({"short": SLO(target=0.9, window="1h"), "long": SLO(target=0.9, window="6h")})
    sp = status_spans(ev, slos, by="g")
    got = {g: d["status"].astype(str).tolist() for g, d in sp.groupby("g", observed=True)}
    assert got == {"long": ["exhausted"], "short": ["exhausted", "no_traffic"]}
    assert sp["g"].astype(str).tolist() == ["long", "short", "short"]  # group order, then start
    check_against_brute(
        ev,
        lambda k: slos.resolve(pd.DataFrame({"g": [k[0] if isinstance(k, tuple) else k]}))[0],
        ["g"],
        sp,
        int(ts[0].value),
        int(ts[-1].value),
    )


def test_empty_events_and_bad_bounds():
    ev = as_events(pd.to_datetime([], utc=True), [])
    sp = status_spans(ev, SLO(target=0.9, window="1h"))
    assert len(sp) == 0 and list(sp.columns) == ["start", "end", "status", "total", "failures",
                                                 "burn_rate",
                                                 "remaining_fraction", "warmup_end", "instant"]
    # no event time to observe from: the span is none, not 1970-01-01 (before api52b)
    assert (sp.attrs["start"], sp.attrs["end"], sp.attrs["events_at_end"]) == (None, None, [])
    # a bound given is stated as given; the other stays none
    sp = status_spans(ev, SLO(target=0.9, window="1h"), start="2026-01-01")
    assert (len(sp), sp.attrs["start"], sp.attrs["end"]) == (0, "2026-01-01T00:00:00+00:00", None)
    ev = as_events(pd.to_datetime(["2026-01-01"], utc=True), [True])
    with pytest.raises(ConfigError, match="before start"):
        status_spans(ev, SLO(target=0.9, window="1h"), start="2026-01-02", end="2026-01-01")
