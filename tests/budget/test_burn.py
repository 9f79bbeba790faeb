"""burn_rates: window edges, units and zero traffic, checked against a loop over raw events."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from budgetlab import SLO
from budgetlab.budget.burn import burn_rates
from budgetlab.errors import ConfigError
from budgetlab.events.schema import as_events
from budgetlab.windows.binning import bin_events

T0 = pd.Timestamp("2026-01-01", tz="UTC")


def events_at(seconds, ok, region=None):
    ts = T0 + pd.to_timedelta(np.asarray(seconds, dtype=float), unit="s")
    return as_events(ts, ok, groups={"region": region} if region is not None else None)


def test_window_edge_convention_hand_case():
    # bins of 1 min; a window W at evaluation time t covers events with t - W <= ts < t
    ev = events_at([0, 60, 119.5, 120], [False, True, False, True])
    br = burn_rates(bin_events(ev, "1min"), 0.5, windows=["1min", "2min"])
    at = br.set_index(["bin_end", "window"], drop=False)
    t2 = T0 + pd.Timedelta("2min")
    # at t = 00:02 the 2-minute window holds [00:00, 00:02): the events at 0, 60, 119.5 s; not 120 s
    assert at.loc[(t2, "2m"), ["total", "bad"]].tolist() == [3, 2]
    assert at.loc[(t2, "1m"), ["total", "bad"]].tolist() == [2, 1]
    assert at.loc[(t2, "2m"), "error_ratio"] == pytest.approx(2 / 3)
    assert at.loc[(t2, "2m"), "burn_rate"] == pytest.approx((2 / 3) / 0.5)
    t3 = T0 + pd.Timedelta("3min")
    assert at.loc[(t3, "2m"), ["total", "bad"]].tolist() == [3, 1]  # 60, 119.5 and 120 s
    assert bool(at.loc[(T0 + pd.Timedelta("1min"), "2m"), "complete"]) is False
    assert bool(at.loc[(t2, "2m"), "complete"]) is True


def test_units_burn_one_is_the_allowed_pace():
    ev = events_at(np.arange(100), [i != 7 for i in range(100)])  # 1 % errors
    br = burn_rates(bin_events(ev, "100s"), 0.99, windows=["100s"])
    assert br["burn_rate"].iloc[0] == pytest.approx(1.0)


def test_zero_traffic_is_zero_burn_and_flagged_without_warnings():
    ev = events_at([0, 600], [False, True])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sparse = burn_rates(bin_events(ev, "1min"), 0.99, windows=["1min", "5min"])
        br = burn_rates(bin_events(ev, "1min"), 0.99, windows=["1min", "5min"], fill=0.0)
    # sparse: no empty window
    assert not sparse["no_traffic"].any() and len(sparse) == (~br["no_traffic"]).sum()
    quiet = br[br["no_traffic"]]
    assert len(quiet) > 0
    assert (quiet["burn_rate"] == 0).all() and (quiet["error_ratio"] == 0).all()
    assert np.isfinite(br["burn_rate"]).all()
    assert br.loc[~br["no_traffic"], "total"].min() >= 1


@given(
    st.lists(
        st.tuples(
            st.floats(0, 1800, allow_nan=False), st.booleans(), st.sampled_from(["fra", "ams"])
        ),
        min_size=1,
        max_size=40,
    ),
    st.sampled_from([30, 60]),
    st.lists(st.sampled_from([1, 2, 5, 10, 30]), min_size=1, max_size=3, unique=True),
)
def test_matches_loop_over_events(rows, freq_s, mults):
    seconds, ok, region = zip(*rows, strict=True)
    ev = events_at(seconds, ok, region)
    target = 0.95
    windows = [pd.Timedelta(seconds=freq_s * m) for m in mults]
    br = burn_rates(bin_events(ev, f"{freq_s}s", by="region"), target, windows=windows)
    t = ev["ts"].dt.as_unit("ns").array.asi8
    okv = ev["ok"].to_numpy()
    reg = ev["region"].astype(str).to_numpy()
    width = dict(zip(br["window"].cat.categories, [w.value for w in windows], strict=True))
    for row in br.itertuples(index=False):
        end = row.bin_end.value
        w = width[row.window]
        inside = (reg == str(row.region)) & (t >= end - w) & (t < end)
        n, b = int(inside.sum()), int((inside & ~okv).sum())
        assert (row.total, row.bad) == (n, b)
        expected = (b / n) / (1 - target) if n else 0.0
        assert row.burn_rate == pytest.approx(expected)
        # sparse: a row only where the window holds traffic
        assert row.no_traffic == (n == 0) and n > 0


def test_target_forms_and_per_group_targets():
    ev = events_at([0, 1, 2, 3], [False, True, False, True], region=["a", "a", "b", "b"])
    b = bin_events(ev, "1min", by="region")
    by_float = burn_rates(b, 0.9, windows=["1min"])
    by_slo = burn_rates(b, SLO(target=0.9), windows=["1min"])
    pd.testing.assert_frame_equal(by_float, by_slo)
    table = pd.DataFrame({"region": ["a", "b"], "target": [0.9, 0.5]})
    per = burn_rates(b, table, windows=["1min"])
    assert per["burn_rate"].tolist() == pytest.approx([0.5 / (1 - 0.9), 0.5 / 0.5])
    with pytest.raises(ConfigError):
        burn_rates(b, pd.DataFrame({"region": ["a"], "target": [0.9]}), windows=["1min"])
    with pytest.raises(ConfigError):
        burn_rates(b, 1.0)
    with pytest.raises(ConfigError, match="whole number of bins"):
        burn_rates(b, 0.9, windows=["90s"])


def test_exclusions_reach_the_burn_rate():
    ts = [0, 1, 2, 3]
    ev = as_events(T0 + pd.to_timedelta(ts, unit="s"), [True, False, False, True],
                   ["success", "timeout", "solve_error", "success"])
    b = bin_events(ev, "1min")
    full = burn_rates(b, 0.5, windows=["1min"])
    no_to = burn_rates(b, 0.5, windows=["1min"], exclude_buckets="timeout")
    assert full["error_ratio"].iloc[0] == pytest.approx(2 / 4)
    assert no_to["error_ratio"].iloc[0] == pytest.approx(1 / 3)  # dropped from bad and total


def test_default_windows_and_ordering():
    ev = events_at(np.arange(0, 7200, 60), [True] * 120)
    br = burn_rates(bin_events(ev, "5min"), 0.999)
    assert list(br["window"].cat.categories) == ["5m", "30m", "1h", "6h", "1d", "3d"]
    assert br["bin_end"].is_monotonic_increasing
