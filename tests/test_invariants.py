"""Property-based checks (hypothesis, derandomized) on event tables shaped to hit the edges:
ties, gaps, events exactly one window apart, single events, all failures, empty groups
(categories without events) and timestamps at the ends of pandas' range.

Oracles: the streaming :class:`budgetlab.Tracker` fed one event at a time (Python integers for
the window cut-off), and invariants that follow from the definitions:
``0 <= remaining_fraction <= 1``, ``burn_rate == failures / budget_total`` where the budget is
positive, non-negative counts that never shrink when the window grows. The loader is checked
against times formatted by Python's datetime with random UTC offsets.
"""

from __future__ import annotations

import datetime as dt

import numpy as np
import pandas as pd
import pytest
from hypothesis import event, given
from hypothesis import strategies as st

from budgetlab import SLO, Tracker, as_events, read_events, replay
from budgetlab._util.validation import MAX_DURATION
from budgetlab.budget.figures import STATUSES

pytestmark = pytest.mark.filterwarnings("ignore::budgetlab.errors.PartialWindowWarning")

NS_MIN, NS_MAX = pd.Timestamp.min.value, pd.Timestamp.max.value
WINDOWS = [pd.Timedelta(1, "ns"), pd.Timedelta("1s"), pd.Timedelta("1h"), pd.Timedelta("1D"),
           # the longest window an SLO takes (10 years): near 1677, t - window leaves int64
           MAX_DURATION]
FIGURES = ["total", "successes", "failures", "success_rate", "budget_total", "budget_remaining",
           "remaining_fraction", "burn_rate"]


@st.composite
def tables(draw):
    """``(events, slo)``: times, outcomes and a group key with an unused category."""
    n = draw(st.integers(1, 50))
    window = draw(st.sampled_from(WINDOWS))
    w = int(window.value)
    step = st.one_of(st.sampled_from([0, 0, w, w, max(w - 1, 0), w + 1, 10 * w]),
                     st.integers(0, 3 * w))
    gaps = np.asarray(draw(st.lists(step, min_size=n, max_size=n)), dtype=object)
    offsets = np.cumsum(gaps)  # Python ints: no overflow while drawing
    span = int(offsets[-1])
    where = draw(st.sampled_from(["2026", "lowest", "highest"]))
    if span > NS_MAX - NS_MIN - 2:
        where = "lowest"
        offsets = offsets * 0  # all ties: the window still matters through the cut-off arithmetic
        span = 0
    start = {"2026": pd.Timestamp("2026-11-29", tz="UTC").value, "lowest": NS_MIN,
             "highest": NS_MAX - span}[where]
    if where == "2026" and start + span > NS_MAX:
        start = NS_MAX - span
    t = np.asarray([start + int(o) for o in offsets], dtype=np.int64)
    pattern = draw(st.sampled_from(["random", "all_bad", "all_ok", "one_bad"]))
    if pattern == "random":
        ok = np.asarray(draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    elif pattern == "all_bad":
        ok = np.zeros(n, dtype=bool)
    elif pattern == "all_ok":
        ok = np.ones(n, dtype=bool)
    else:
        ok = np.ones(n, dtype=bool)
        ok[draw(st.integers(0, n - 1))] = False
    groups = np.asarray(draw(st.lists(st.sampled_from(["fra", "ams", "waw"]), min_size=n,
                                      max_size=n)))
    target = draw(st.sampled_from([0.5, 0.9, 0.95, 0.999, 0.999999]))
    warning, critical = draw(st.sampled_from([(0.5, 0.1), (0.8, 0.0), (1.0, 0.5)]))
    min_events = draw(st.sampled_from([0, 0, 3]))
    events = as_events(pd.to_datetime(t, utc=True), ok)
    # an empty group: a category no event has
    events["region"] = pd.Categorical(groups, categories=["ams", "empty", "fra", "waw"])
    slo = SLO(target=target, window=window, warning=warning, critical=critical,
              min_events=min_events)
    return events, slo


def tracker_states(events: pd.DataFrame, slo: SLO) -> pd.DataFrame:
    """One Tracker, one event at a time (the oracle)."""
    trk = Tracker(slo)
    rows = []
    for ts, ok in zip(events["ts"], events["ok"], strict=True):
        trk.record(bool(ok), ts=ts)
        rows.append(trk.state())
    return pd.DataFrame(rows, index=events.index)


@given(tables())
def test_replay_equals_the_streaming_tracker_per_group(case):
    events, slo = case
    got = replay(events, slo, by="region")
    assert len(got) == len(events) and got.index.equals(events.index)
    for key in ["ams", "empty", "fra", "waw"]:
        sub = events[events["region"] == key]
        if sub.empty:
            continue
        want = tracker_states(sub, slo)
        mine = got.loc[sub.index]
        for col in FIGURES:
            np.testing.assert_array_equal(mine[col].to_numpy(dtype=float),
                                          want[col].to_numpy(dtype=float),
                                          err_msg=col)
        assert mine["status"].astype(str).tolist() == want["status"].tolist()
        assert mine["low_traffic"].tolist() == want["low_traffic"].tolist()


@given(tables())
def test_invariants(case):
    events, slo = case
    out = replay(events, slo)
    total, fail, succ = (out[c].to_numpy() for c in ("total", "failures", "successes"))
    assert (
        (total >= 1).all()
        and (fail >= 0).all()
        and (succ >= 0).all()
        and (fail + succ == total).all()
    )
    assert (total <= np.arange(1, len(out) + 1)).all()  # never more than the events so far
    floats = out[["success_rate", "budget_total", "budget_remaining", "remaining_fraction",
                  "burn_rate"]]
    assert np.isfinite(floats.to_numpy()).all()  # never inf, never NaN
    rf = out["remaining_fraction"].to_numpy()
    assert ((rf >= 0) & (rf <= 1)).all()
    sr = out["success_rate"].to_numpy()
    assert ((sr >= 0) & (sr <= 1)).all()
    budget = out["budget_total"].to_numpy()
    np.testing.assert_array_equal(budget, total * (1 - slo.target))
    positive = budget > 0
    np.testing.assert_array_equal(out["burn_rate"].to_numpy()[positive],
                                  fail[positive] / budget[positive])
    assert (out["burn_rate"].to_numpy()[~positive] == 0).all()
    assert (out["budget_remaining"].to_numpy() >= 0).all()
    # the status follows the remaining fraction (seed thresholds), except while traffic is low
    code = out["status"].cat.codes.to_numpy()
    want = np.where(rf <= 0, 3, np.where(rf < slo.critical, 2, np.where(rf < slo.warning, 1, 0)))
    held = out["low_traffic"].to_numpy()
    assert (code[~held] == want[~held]).all()
    assert set(out["status"].astype(str)) <= set(STATUSES)


@given(tables(), st.sampled_from(WINDOWS), st.sampled_from(WINDOWS))
def test_counts_never_shrink_when_the_window_grows(case, w1, w2):
    events, slo = case
    short, long_ = sorted([w1, w2])
    a = replay(events, slo.with_(window=short), by="region")
    b = replay(events, slo.with_(window=long_), by="region")
    for col in ("total", "failures", "successes"):
        assert (a[col].to_numpy() <= b[col].to_numpy()).all(), col


def test_zero_traffic_is_handled_on_purpose():
    # before any event: no traffic, no budget; the seed's rules give 1.0 and 0.0, never inf/NaN
    state = Tracker(SLO(target=0.95, window="1h")).state()
    assert state["total"] == 0 and state["budget_total"] == 0.0
    assert (
        state["remaining_fraction"] == 1.0
        and state["burn_rate"] == 0.0
        and state["success_rate"] == 1.0
    )


# the loader: times written by Python's datetime with random offsets -----------------------------
@st.composite
def offset_logs(draw):
    n = draw(st.integers(1, 40))
    lo = pd.Timestamp("1700-01-01", tz="UTC").value // 1000
    hi = pd.Timestamp("2250-01-01", tz="UTC").value // 1000
    base = draw(st.integers(lo, hi))
    steps = draw(st.lists(st.sampled_from([0, 0, 1, 1_000_000, 3_600_000_000]), min_size=n,
                          max_size=n))
    micros = [base + sum(steps[: i + 1]) for i in range(n)]
    order = draw(st.permutations(range(n)))
    offsets = draw(st.lists(st.integers(-14 * 60, 14 * 60), min_size=n, max_size=n))
    return [micros[i] for i in order], offsets


@given(offset_logs())
def test_loader_reads_every_offset_exactly(log):
    micros, offsets = log
    epoch = dt.datetime(1970, 1, 1, tzinfo=dt.UTC)
    texts = []
    for us, off in zip(micros, offsets, strict=True):
        zone = dt.timezone(dt.timedelta(minutes=off))
        texts.append((epoch + dt.timedelta(microseconds=us)).astimezone(zone).isoformat())
    raw = pd.DataFrame({"ts": texts, "outcome": "ok", "row": range(len(texts))})
    ev = read_events(raw, keep=["row"])
    want = sorted(range(len(micros)), key=lambda i: micros[i])  # stable: ties keep input order
    assert ev["row"].tolist() == want
    assert ev["ts"].array.asi8.tolist() == [micros[i] * 1000 for i in want]


@st.composite
def iso_texts(draw):
    """ISO-8601-like strings: every precision, separator and offset form, some of them invalid."""
    y = draw(st.integers(1678, 2261))
    valid = draw(st.integers(0, 9)) > 0  # mostly valid, sometimes out of range
    mo = draw(st.integers(1, 12) if valid else st.integers(0, 13))
    d = draw(st.integers(1, 28) if valid else st.integers(0, 32))
    h = draw(st.integers(0, 23) if valid else st.integers(0, 25))
    mi, s = draw(st.integers(0, 59) if valid else st.integers(0, 61)), draw(st.integers(0, 59))
    frac = draw(st.sampled_from(["", ".5", ".123", ".123456", ".123456789", ".1234567891"]))
    sep = draw(st.sampled_from(["T", " ", "t"]))
    off = draw(st.sampled_from(["", "Z", "+01:00", "-05:30", "+0100", "+01", "+14:00",
                                "-12:00"]) if valid else
               st.sampled_from(["z", "+24:00", "+1", "+01:0"]))
    form = draw(st.sampled_from(["full", "minutes", "date"]))
    date = f"{y:04d}-{mo:02d}-{d:02d}"
    if form == "date":
        return date
    clock = f"{h:02d}:{mi:02d}" + ("" if form == "minutes" else f":{s:02d}{frac}")
    return f"{date}{sep}{clock}{off}"


@given(st.lists(iso_texts(), min_size=1, max_size=5))
def test_fast_and_careful_time_parsers_agree(texts):
    """Arrow's strict cast (the fast path) and pandas' ISO-8601 parser (the careful path) are
    independent parsers: where the fast one accepts a column, both give the same instants."""
    from budgetlab.events.times import _fast_iso, _parse_iso

    s = pd.Series(texts, dtype="str")
    fast = _fast_iso(s)
    event("fast path" if fast is not None else "careful path only")
    if fast is None:
        return
    careful = _parse_iso(s)
    assert not careful.isna().any(), texts
    want = careful.dt.as_unit("ns").array.asi8
    assert fast[0].tolist() == want.tolist(), texts
    # an offset follows the clock time (a date's "-01" is not one)
    has_offset = s.str.contains(
        r"[0-9]:[0-9]{2}(?::[0-9]{2}(?:\.[0-9]+)?)?(?:[Zz]|[+-][0-9]{2}(?::?[0-9]{2})?)$",
        regex=True,
    )
    assert fast[1] == bool(has_offset.all()), texts
