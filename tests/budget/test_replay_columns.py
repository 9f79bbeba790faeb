"""replay(columns=...) and replay_transitions (issue 20, point 2): output paid for only when used.

Oracles: the full replay and ``transitions(replay(...))`` (themselves checked against the literal
port of the seed tracker in tests/test_replay_oracle.py), and the seed port directly for the
transitions alone. Compared exactly (floats bit for bit, dtypes, index, attrs).
"""

from __future__ import annotations

import os
import sys
import warnings
from unittest import mock

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budgetlab import SLO, as_events, replay, table_slo, transitions
from budgetlab.budget import replay_status, status_changes, tracker_replay
from budgetlab.budget.replay_status import REPLAY_COLUMNS
from budgetlab.budget.status_changes import replay_transitions
from budgetlab.budget.summary import replay_summary
from budgetlab.errors import ConfigError, InputError, PartialWindowWarning
from tests.test_replay_oracle import cases, per_group_slos, seed_replay

KERNELS = pytest.mark.parametrize("kernel", ["compiled", "numpy"])
FEWER = settings(max_examples=40)  # each example replays twice; the seed oracle tests run 150
REPORT = ["current_rate", "total_events", "successes", "failures", "budget_total",
          "budget_remaining",
          "budget_remaining_pct", "burn_rate"]


def use_kernel(kernel):
    return mock.patch.dict(os.environ, {"BUDGETLAB_KERNEL": kernel})


def grouped(t, ok, ngroups):
    g = np.random.default_rng(len(t)).integers(0, ngroups, len(t)).astype(str)
    return as_events(pd.to_datetime(t, utc=True), ok, groups={"g": g})


def assert_same(got, want):
    pd.testing.assert_frame_equal(got, want, check_exact=True)
    for c in want.columns:  # bit for bit, signed zeros included
        if want[c].dtype == np.float64:
            assert got[c].to_numpy().tobytes() == want[c].to_numpy().tobytes(), c


def quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PartialWindowWarning)
        return fn(*args, **kwargs)


@KERNELS
@FEWER
@given(case=cases(), ngroups=st.integers(0, 3), subset=st.sets(st.sampled_from(REPLAY_COLUMNS)),
       min_events=st.sampled_from([0, 0, 3]))
def test_column_subset_equals_full_replay(case, ngroups, subset, min_events, kernel):
    t, ok, slo = case
    slo = slo.with_(min_events=min_events)
    events = grouped(t, ok, ngroups) if ngroups else as_events(pd.to_datetime(t, utc=True), ok)
    by = "g" if ngroups else None
    keys = ["g"] if ngroups else []
    with use_kernel(kernel):
        full = quiet(replay, events, slo, by=by)
        got = quiet(replay, events, slo, by=by, columns=sorted(subset))
    want = full[["ts", *keys, *[c for c in REPLAY_COLUMNS[1:] if c in subset]]]
    assert_same(got, want)
    assert got.attrs == full.attrs


@KERNELS
@FEWER
@given(case=cases(), data=st.data(), ngroups=st.integers(1, 3),
       subset=st.sets(st.sampled_from(REPLAY_COLUMNS)))
def test_column_subset_with_per_group_slos_equals_full_replay(case, data, ngroups, subset, kernel):
    t, ok, _ = case
    slos = data.draw(per_group_slos(ngroups))
    events = grouped(t, ok, ngroups)
    with use_kernel(kernel):
        full = quiet(replay, events, slos, by="g")
        got = quiet(replay, events, slos, by="g", columns=subset)
    assert_same(got, full[["ts", "g", *[c for c in REPLAY_COLUMNS[1:] if c in subset]]])
    assert got.attrs["by"] == ["g"] and table_slo(got).slo_for("0") == slos["0"]


@KERNELS
@FEWER
@given(case=cases(), ngroups=st.integers(0, 3), min_events=st.sampled_from([0, 0, 2, 6]))
def test_replay_transitions_equals_transitions_of_replay(case, ngroups, min_events, kernel):
    t, ok, slo = case
    slo = slo.with_(min_events=min_events)
    events = grouped(t, ok, ngroups) if ngroups else as_events(pd.to_datetime(t, utc=True), ok)
    by = "g" if ngroups else None
    with use_kernel(kernel):
        want = transitions(quiet(replay, events, slo, by=by))
        got = quiet(replay_transitions, events, slo, by=by)
    assert_same(got, want)


@KERNELS
@FEWER
@given(case=cases(), data=st.data(), ngroups=st.integers(1, 3))
def test_replay_transitions_with_per_group_slos_equals_transitions_of_replay(case, data, ngroups,
                                                                             kernel):
    t, ok, _ = case
    slos = data.draw(per_group_slos(ngroups))
    events = grouped(t, ok, ngroups)
    with use_kernel(kernel):
        want = transitions(quiet(replay, events, slos, by="g"))
        got = quiet(replay_transitions, events, slos, by="g")
    assert_same(got, want)


LEAN = ["total", "failures", "status"]


@FEWER
@given(case=cases(), data=st.data(), ngroups=st.integers(0, 3), per_group=st.booleans())
def test_transitions_and_summary_of_lean_states_equal_the_full_ones(case, data, ngroups, per_group):
    """replay(columns=["total", "failures", "status"]): transitions() computes the figures of the
    changed rows from the counts and attrs["slo"]; replay_summary() needs the statuses only."""
    t, ok, slo = case
    events = grouped(t, ok, ngroups) if ngroups else as_events(pd.to_datetime(t, utc=True), ok)
    by = "g" if ngroups else None
    if per_group and ngroups:
        slo = data.draw(per_group_slos(ngroups))
    full = quiet(replay, events, slo, by=by)
    lean = quiet(replay, events, slo, by=by, columns=LEAN)
    assert_same(transitions(lean), transitions(full))
    assert_same(replay_summary(lean, events), replay_summary(full, events))


def test_lean_states_without_their_slo_are_refused():
    ev = as_events(pd.date_range("2026-01-01", periods=3, freq="min"), [True, False, True])
    lean = quiet(replay, ev, SLO(window="1h"), columns=LEAN)
    lean.attrs = {}
    with pytest.raises(InputError, match="replay_transitions"):
        transitions(lean)


@given(cases())
def test_replay_transitions_equals_seed_callbacks(case):
    """Directly against the seed port: the callbacks it fires and get_report() at each."""
    t, ok, slo = case
    got = quiet(replay_transitions, as_events(pd.to_datetime(t, utc=True), ok), slo)
    _, fired = seed_replay(t, ok, slo)
    assert got["to_status"].astype(str).tolist() == [r["status"] for r in fired]
    assert got[REPORT].to_dict("records") == [{k: r[k] for k in REPORT} for r in fired]


def test_hand_computed_transitions():
    # 19 successes then one failure, 95 %: the 20th event has budget 20 * 0.05 = 1.0000000000000009
    # (binary), one failure leaves 0.0 remaining (critical, not yet <= 0: 8.9e-16 remains)
    ev = as_events(pd.date_range("2026-01-01", periods=20, freq="min"), [True] * 19 + [False])
    tr = replay_transitions(ev, SLO(target=0.95, window="1h"))
    assert tr[["from_status", "to_status"]].astype(str).values.tolist() == [["healthy", "critical"]]
    assert tr.loc[0, "ts"] == pd.Timestamp("2026-01-01 00:19", tz="UTC")
    assert tr.loc[0, ["total_events", "failures", "current_rate", "budget_total",
                      "budget_remaining_pct",
                      "burn_rate"]].tolist() == [20, 1, 0.95, 1.0, 0.0, 1.0]


def test_empty_and_no_changes():
    empty = as_events(pd.DatetimeIndex([], tz="UTC"), [])
    assert_same(replay_transitions(empty, SLO()), transitions(replay(empty, SLO())))
    assert_same(replay(empty, SLO(), columns=["burn_rate"]), replay(empty, SLO())[["ts",
                                                                                   "burn_rate"]])
    calm = as_events(pd.date_range("2026-01-01", periods=5, freq="min"), [True] * 5)
    tr = quiet(replay_transitions, calm, SLO(window="1h"))
    assert len(tr) == 0
    assert_same(tr, transitions(quiet(replay, calm, SLO(window="1h"))))


def test_per_group_slos_without_events():
    empty = as_events(pd.DatetimeIndex([], tz="UTC"), [], groups={"g": []})
    slos = {"a": 0.9}
    assert_same(replay_transitions(empty, slos, by="g"), transitions(replay(empty, slos, by="g")))
    assert_same(replay(empty, slos, by="g", columns=["status", "total"]),
                replay(empty, slos, by="g")[["ts", "g", "total", "status"]])


def test_one_column_as_a_string_and_ts_only():
    ev = as_events(pd.date_range("2026-01-01", periods=4, freq="min"), [True, False, True, False])
    full = quiet(replay, ev, SLO(window="1h"))
    assert_same(quiet(replay, ev, SLO(window="1h"), columns="status"), full[["ts", "status"]])
    assert_same(quiet(replay, ev, SLO(window="1h"), columns=[]), full[["ts"]])
    assert_same(quiet(replay, ev, SLO(window="1h"), columns=["ts"]), full[["ts"]])


def test_unknown_column_is_a_config_error():
    ev = as_events(pd.date_range("2026-01-01", periods=2, freq="min"), [True, False])
    with pytest.raises(ConfigError, match="not a replay column"):
        replay(ev, SLO(window="1h"), columns=["burn"])


@pytest.mark.parametrize("cols", [["status"], ["total", "status"], ["burn_rate", "status",
                                                                    "failures"]])
def test_transitions_of_a_column_subset_names_the_cheaper_call(cols):
    ev = as_events(pd.date_range("2026-01-01", periods=2, freq="min"), [True, False])
    states = quiet(replay, ev, SLO(window="1h"), columns=cols)
    with pytest.raises(InputError, match="replay_transitions"):
        transitions(states)


def test_replay_transitions_warns_of_a_partial_window_like_replay():
    ev = as_events(pd.date_range("2026-01-01", periods=3, freq="min"), [True, False, True])
    with pytest.warns(PartialWindowWarning):
        replay_transitions(ev, SLO(window="1h"))
    with pytest.warns(PartialWindowWarning):
        replay_transitions(ev.assign(g="a"), {"a": 0.9}, by="g")


def test_progress_bar_on_a_terminal_and_results_unchanged(capsys, monkeypatch):
    """Above PROGRESS_EVENTS, with a terminal, a bar goes to stderr; the results do not change."""
    ev = as_events(pd.date_range("2026-01-01", periods=50, freq="min"),
                   [i % 7 != 0 for i in range(50)],
                   groups={"g": ["a", "b"] * 25})
    want_states, want_tr = (
        replay(ev, SLO(window="10min"), by="g"),
        transitions(replay(ev, SLO(window="10min"), by="g")),
    )
    monkeypatch.setattr(tracker_replay, "PROGRESS_EVENTS", 10)
    monkeypatch.setattr(status_changes, "PROGRESS_EVENTS", 10)
    monkeypatch.setattr(replay_status, "_CHUNK", 8)
    monkeypatch.delenv("TQDM_DISABLE", raising=False)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    capsys.readouterr()
    assert_same(replay(ev, SLO(window="10min"), by="g"), want_states)
    assert_same(replay_transitions(ev, SLO(window="10min"), by="g"), want_tr)
    assert "replay" in capsys.readouterr().err


def test_no_progress_bar_when_not_a_terminal(capsys, monkeypatch):
    ev = as_events(pd.date_range("2026-01-01", periods=50, freq="min"), [True] * 50)
    monkeypatch.setattr(status_changes, "PROGRESS_EVENTS", 10)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False, raising=False)
    capsys.readouterr()
    replay_transitions(ev, SLO(window="10min"))
    assert capsys.readouterr().err == ""
