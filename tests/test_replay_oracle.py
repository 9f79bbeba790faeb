"""replay(), transitions() and Tracker against the literal port of the seed tracker (the oracle).

Every column is compared for exact equality (floats bit for bit), on random sequences that
hypothesis shapes to hit the hard cases: ties, events exactly on the window edge, bursts, long
gaps, all-failure and all-success runs, tiny windows, several targets, min_events.
"""

from __future__ import annotations

import os
import warnings
from unittest import mock

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from budgetlab import SLO, Tracker, as_events, replay, transitions
from budgetlab.errors import BudgetlabWarning
from tests.seed_tracker import BudgetStatus, ErrorBudgetTracker, SLOConfig

T0 = pd.Timestamp("2026-03-01", tz="UTC").value
FIGURES = ["total", "successes", "failures", "success_rate", "budget_total", "budget_remaining",
           "remaining_fraction", "burn_rate"]


def seed_replay(t_ns, ok, slo: SLO):
    """Run the seed port event by event; return its states and fired callbacks (the oracle)."""
    cfg = SLOConfig(target_success_rate=slo.target, window_seconds=slo.window_ns,
                    warning_threshold=slo.warning, critical_threshold=slo.critical)
    trk = ErrorBudgetTracker(cfg)
    fired = []
    for status in BudgetStatus:
        trk.on_status_change(status, fired.append)
    rows = []
    for t, o in zip(t_ns, ok, strict=True):
        trk.record(bool(o), int(t))
        rows.append({
            "total": trk.total_events, "successes": trk.success_count,
                     "failures": trk.failure_count,
            "success_rate": trk.current_success_rate, "budget_total": float(trk.error_budget_total),
            "budget_remaining": float(trk.error_budget_remaining),
            "remaining_fraction": float(trk.remaining_fraction), "burn_rate": trk.burn_rate,
            "status": trk._last_status.value,
        })
    return pd.DataFrame(rows), fired


def event_times(draw, n):
    """Gaps drawn to produce ties (0), exact window edges, bursts and long gaps."""
    window = draw(st.sampled_from([1, 2, 5, 10, 60, 3600]))  # seconds
    choices = st.sampled_from([0, 0, 1, window, window, window - 1 if window > 1 else 0, window + 1,
                               10 * window])
    gaps = draw(st.lists(st.one_of(choices, st.integers(0, 3 * window)), min_size=n, max_size=n))
    t = T0 + np.cumsum(np.asarray(gaps, dtype=np.int64)) * 1_000_000_000
    return t, window


@st.composite
def cases(draw):
    n = draw(st.integers(1, 120))
    t, window = event_times(draw, n)
    pattern = draw(st.sampled_from(["random", "all_ok", "all_bad", "runs"]))
    if pattern == "all_ok":
        ok = [True] * n
    elif pattern == "all_bad":
        ok = [False] * n
    elif pattern == "runs":
        run = draw(st.integers(1, 15))
        ok = [(i // run) % 2 == 0 for i in range(n)]
    else:
        p = draw(st.sampled_from([0.5, 0.8, 0.95, 0.99]))
        ok = draw(st.lists(st.booleans(), min_size=n, max_size=n)) if p == 0.5 else [
            draw(st.floats(0, 1)) < p for _ in range(n)]
    target = draw(st.sampled_from([0.5, 0.9, 0.93, 0.95, 0.97, 0.99, 0.999]))
    warning, critical = draw(st.sampled_from([(0.5, 0.1), (0.8, 0.2), (0.3, 0.0), (1.0, 0.5)]))
    return t, np.asarray(ok, dtype=bool), SLO(target=target, window=f"{window}s", warning=warning,
                                              critical=critical)


# Both kernels: the compiled single pass (numba) and the pure-numpy sort/searchsorted path.
KERNELS = pytest.mark.parametrize("kernel", ["compiled", "numpy"])


def use_kernel(kernel):
    return mock.patch.dict(os.environ, {"BUDGETLAB_KERNEL": kernel})


@KERNELS
@given(case=cases())
def test_replay_equals_seed_tracker_bit_for_bit(case, kernel):
    t, ok, slo = case
    events = as_events(pd.to_datetime(t, utc=True), ok)
    with use_kernel(kernel):
        got = replay(events, slo)
    want, fired = seed_replay(t, ok, slo)
    for col in FIGURES:
        np.testing.assert_array_equal(got[col].to_numpy(), want[col].to_numpy(), err_msg=col,
                                      strict=False)
        # bit for bit, not approximately
        assert (
            got[col].to_numpy().tobytes() == want[col].to_numpy().astype(got[col].dtype).tobytes()
        ), col
    assert got["status"].astype(str).tolist() == want["status"].tolist()
    tr = transitions(got)
    assert tr["to_status"].astype(str).tolist() == [r["status"] for r in fired]
    report_cols = ["current_rate", "total_events", "successes", "failures", "budget_total",
                   "budget_remaining", "budget_remaining_pct", "burn_rate"]
    assert tr[report_cols].to_dict("records") == [{k: r[k] for k in report_cols} for r in fired]


@given(cases())
def test_tracker_equals_seed_tracker(case):
    t, ok, slo = case
    want, fired = seed_replay(t, ok, slo)
    trk = Tracker(slo)
    mine = []
    for s in ("warning", "critical", "exhausted", "healthy"):
        trk.on_status_change(s, mine.append)
    states = []
    for ti, o in zip(t, ok, strict=True):
        trk.record(bool(o), ts=pd.Timestamp(int(ti), tz="UTC"))
        states.append(trk.state())
    got = pd.DataFrame(states)
    for col in FIGURES:
        assert (
            got[col].to_numpy(dtype=float).tobytes() == want[col].to_numpy(dtype=float).tobytes()
        ), col
    assert got["status"].tolist() == want["status"].tolist()
    strip = [{k: v for k, v in r.items() if k != "slo_target"} for r in fired]
    assert [{k: v for k, v in r.items() if k != "slo_target"} for r in mine] == strip


@given(cases(), st.integers(1, 7))
def test_tracker_record_many_equals_record(case, nbatches):
    """Batches through the vectorized path give the same states and callbacks as one-by-one."""
    t, ok, slo = case
    a, b = Tracker(slo), Tracker(slo)
    fa, fb = [], []
    for s in ("warning", "critical", "exhausted", "healthy"):
        a.on_status_change(s, fa.append)
        b.on_status_change(s, fb.append)
    for ti, o in zip(t, ok, strict=True):
        a.record(bool(o), ts=pd.Timestamp(int(ti), tz="UTC"))
    cuts = np.linspace(0, len(t), nbatches + 1).astype(int)
    for lo, hi in zip(cuts[:-1], cuts[1:], strict=True):
        b.record_many(ok[lo:hi], pd.to_datetime(t[lo:hi], utc=True))
    assert fa == fb
    assert a.state() == b.state()


@KERNELS
@given(case=cases(), min_events=st.integers(1, 6), ngroups=st.integers(1, 3))
def test_grouped_replay_equals_one_tracker_per_group(case, min_events, ngroups, kernel):
    """by= replays each group independently; min_events holds the status (oracle: Tracker per
    group)."""
    t, ok, slo = case
    slo = slo.with_(min_events=min_events)
    rng = np.random.default_rng(len(t))
    g = rng.integers(0, ngroups, len(t)).astype(str)
    events = as_events(pd.to_datetime(t, utc=True), ok, groups={"g": g})
    with use_kernel(kernel):
        got = replay(events, slo, by="g")
        tr = transitions(got)
    for key in np.unique(g):
        sub = events[events["g"] == key]
        trk = Tracker(slo)
        fired = []
        for s in ("warning", "critical", "exhausted", "healthy"):
            trk.on_status_change(s, fired.append)
        states = []
        for ti, o in zip(sub["ts"], sub["ok"], strict=True):
            trk.record(bool(o), ts=ti)
            states.append(trk.state())
        want = pd.DataFrame(states, index=sub.index)
        mine = got.loc[sub.index]
        for col in FIGURES:
            assert (
                mine[col].to_numpy(dtype=float).tobytes()
                == want[col].to_numpy(dtype=float).tobytes()
            ), col
        assert mine["status"].astype(str).tolist() == want["status"].tolist()
        assert mine["low_traffic"].tolist() == want["low_traffic"].tolist()
        mine_tr = tr[tr["g"] == key]
        assert mine_tr["to_status"].astype(str).tolist() == [r["status"] for r in fired]


def test_replay_keeps_event_order_and_index():
    ev = as_events(pd.date_range("2026-01-01", periods=6, freq="s"), [True, False] * 3,
                   groups={"g": list("abcabc")})
    ev.index = pd.RangeIndex(100, 106)
    out = replay(ev, SLO(window="10s"), by="g")
    assert out.index.equals(ev.index)
    assert out["g"].tolist() == list("abcabc")
    # hand count: group a holds rows 0 (ok) and 3 (bad): at row 3 the window has 2 events, 1 failure
    assert out.loc[103, ["total", "failures"]].tolist() == [2, 1]


@pytest.mark.parametrize("n", [0, 1])
def test_tiny_inputs(n):
    ev = as_events(pd.date_range("2026-01-01", periods=n, freq="s"), [False] * n)
    out = replay(ev, SLO())
    assert len(out) == n
    assert len(transitions(out)) == n  # one failure alone exhausts the budget


def test_record_many_near_the_int64_floor_equals_record():
    """t - window must not wrap around below int64 (timestamps near 1677-09-21)."""
    t = np.array(["1677-09-21T00:13:00", "1677-09-21T00:14:00", "1677-09-21T02:00:00"],
                 dtype="datetime64[ns]")
    ok = [True, False, True]
    a, b = Tracker(SLO(window="1h")), Tracker(SLO(window="1h"))
    for ti, o in zip(t, ok, strict=True):
        a.record(o, pd.Timestamp(ti))
    b.record_many(ok, t)
    assert a.state() == b.state()
    assert b.state()["total"] == 1  # hand count: only the 02:00 event is within the hour


@given(cases(), st.integers(1, 3))
def test_chunked_kernel_equals_seed_tracker(case, ngroups):
    """The numpy kernel works in chunks of rows; with tiny chunks every chunk edge is exercised."""
    import budgetlab.windows.trailing as windows

    t, ok, slo = case
    g = np.random.default_rng(len(t)).integers(0, ngroups, len(t)).astype(str)
    events = as_events(pd.to_datetime(t, utc=True), ok, groups={"g": g})
    with mock.patch.object(windows, "_CHUNK", 3), use_kernel("numpy"):
        got = replay(events, slo, by="g")
    for key in np.unique(g):
        sub = events["g"] == key
        want, _ = seed_replay(t[sub.to_numpy()], ok[sub.to_numpy()], slo)
        for col in ("total", "failures", "burn_rate", "remaining_fraction"):
            assert (
                got.loc[sub, col].to_numpy(dtype=float).tobytes()
                == want[col].to_numpy(dtype=float).tobytes()
            )
        assert got.loc[sub, "status"].astype(str).tolist() == want["status"].tolist()


@st.composite
def per_group_slos(draw, ngroups):
    """One SLO per group, each with its own target, window, thresholds and min_events."""
    out = {}
    for k in range(ngroups):
        target = draw(st.sampled_from([0.5, 0.9, 0.93, 0.97, 0.99]))
        window = draw(st.sampled_from([1, 5, 60, 3600]))
        warning, critical = draw(st.sampled_from([(0.5, 0.1), (0.8, 0.2), (0.3, 0.0)]))
        out[str(k)] = SLO(target=target, window=f"{window}s", warning=warning, critical=critical,
                          min_events=draw(st.sampled_from([0, 0, 2, 5])))
    return out


@KERNELS
@given(case=cases(), data=st.data(), ngroups=st.integers(1, 3))
def test_replay_with_per_group_slos_equals_seed_and_keyed_tracker(case, data, ngroups, kernel):
    """Per-group SLOs (PerGroup, issue 16): each group equals the seed tracker with its own SLO
    (min_events 0) and the streaming KeyedTracker (any min_events), bit for bit."""
    from budgetlab.budget.tracker import KeyedTracker

    t, ok, _ = case
    slos = data.draw(per_group_slos(ngroups))
    g = np.random.default_rng(len(t)).integers(0, ngroups, len(t)).astype(str)
    events = as_events(pd.to_datetime(t, utc=True), ok, groups={"g": g})
    with use_kernel(kernel), warnings.catch_warnings():
        # a short drawn log may lack a group the SLOs name: said, and not what is tested here
        warnings.filterwarnings("ignore", message="slo= names", category=BudgetlabWarning)
        got = replay(events, slos, by="g")
        tr = transitions(got)
    kt = KeyedTracker(slos)
    fired = []
    for s in ("warning", "critical", "exhausted", "healthy"):
        kt.on_status_change(s, fired.append)
    streamed = []
    for ti, o, key in zip(events["ts"], events["ok"], events["g"], strict=True):
        kt.record(key, bool(o), ts=ti)
        streamed.append(kt.tracker(key).state())
    streamed_df = pd.DataFrame(streamed, index=events.index)
    for col in FIGURES:
        assert (
            got[col].to_numpy(dtype=float).tobytes()
            == streamed_df[col].to_numpy(dtype=float).tobytes()
        ), col
    assert got["status"].astype(str).tolist() == streamed_df["status"].tolist()
    assert got["low_traffic"].tolist() == streamed_df["low_traffic"].tolist()
    assert tr["to_status"].astype(str).tolist() == [r["status"] for r in fired]
    for key in np.unique(g):
        slo = slos[key]
        if slo.min_events:
            continue  # the seed has no min_events; the KeyedTracker check above covers it
        sub = (events["g"] == key).to_numpy()
        want, seed_fired = seed_replay(t[sub], ok[sub], slo)
        for col in FIGURES:
            assert (
                got.loc[sub, col].to_numpy(dtype=float).tobytes()
                == want[col].to_numpy(dtype=float).tobytes()
            ), col
        assert got.loc[sub, "status"].astype(str).tolist() == want["status"].tolist()
        assert tr.loc[tr["g"] == key,
                      "to_status"].astype(str).tolist() == [r["status"] for r in seed_fired]
