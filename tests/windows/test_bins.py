"""bin_events / read_bins: the bins contract, checked against a plain loop over events."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from budgetlab._util.validation import duration_label
from budgetlab.errors import ConfigError, InputError, OutcomeError, SchemaError
from budgetlab.events.schema import as_events
from budgetlab.windows.binning import bin_events
from budgetlab.windows.bins import read_bins, window_bins

T0 = pd.Timestamp("2026-01-01", tz="UTC")
BUCKETS = ["success", "timeout", "solve_error"]


def make_events(seconds, bucket, region=None):
    ts = T0 + pd.to_timedelta(np.asarray(seconds, dtype=float), unit="s")
    ok = [b == "success" for b in bucket]
    groups = {"region": region} if region is not None else None
    return as_events(ts, ok, bucket, groups=groups)


def loop_oracle(events, freq_s, by=None, exclude=(), windows=(), mode="drop"):
    """Obviously-correct bins: one Python pass over the events into a dict."""
    f = int(freq_s * 1e9)
    t = events["ts"].dt.as_unit("ns").array.asi8
    lo, hi = (min(t) // f) * f, (max(t) // f) * f
    n = (hi - lo) // f + 1
    keys = sorted(events[by].astype(str).unique()) if by else [None]
    counts = {(k, i): {"total": 0, "good": 0, "bad": 0, "timeout": 0,
                       "solve_error": 0} for k in keys for i in range(n)}
    for j in range(len(events)):
        ts = int(t[j])
        b = str(events["bucket"].iloc[j])
        ok = bool(events["ok"].iloc[j])
        if not ok and b in exclude:
            continue
        inside = any(int(s.value) <= ts < int(e.value) for s, e in windows)
        if inside and mode == "drop":
            continue
        if inside and mode == "good":
            ok, b = True, "success"
        k = str(events[by].iloc[j]) if by else None
        c = counts[(k, (ts - lo) // f)]
        c["total"] += 1
        c["good" if ok else "bad"] += 1
        if not ok:
            c[b] += 1
    return keys, n, lo, counts


def check_against_oracle(events, freq_s, by=None, **kw):
    """The dense table (dense=True) has every (group, bin) of the oracle; the default table the
    non-empty ones plus each group's first and last bin, same values."""
    keys, n, lo, counts = loop_oracle(events, freq_s, by, **kw)
    for dense in (True, False):
        bins = bin_events(events, f"{freq_s}s", by=by, exclude_buckets=kw.get("exclude", ()),
                          exclude_windows=list(kw.get("windows", ())) or None,
                          exclude_mode=kw.get("mode", "drop"),
                          dense=dense)
        cells = [
            (k, i)
            for k in keys
            for i in range(n)
            if dense or counts[(k, i)]["total"] > 0 or i in (0, n - 1)
        ]
        assert len(bins) == len(cells)
        starts = bins["bin_start"].dt.as_unit("ns").array.asi8
        for row, (key, i) in enumerate(cells):
            c = counts[(key, i)]
            assert starts[row] == lo + i * int(freq_s * 1e9)
            if by:
                assert str(bins[by].iloc[row]) == key
            for col in ("total", "good", "bad"):
                assert bins[col].iloc[row] == c[col], (row, col)
            for b in ("timeout", "solve_error"):
                if b in kw.get("exclude", ()):
                    assert f"bad_{b}" not in bins.columns
                else:
                    assert bins[f"bad_{b}"].iloc[row] == c[b]


def test_hand_case_bins_and_empty_bins():
    ev = make_events([5, 50, 61, 185, 185], ["success", "timeout", "solve_error", "success",
                                             "timeout"])
    b = bin_events(ev, "1min")
    assert b.columns.tolist() == ["bin_start", "total", "good", "bad", "bad_timeout",
                                  "bad_solve_error"]
    # the empty minute is absent
    assert b["bin_start"].tolist() == [T0 + pd.Timedelta(minutes=m) for m in (0, 1, 3)]
    assert b["total"].tolist() == [2, 1, 2]
    b = bin_events(ev, "1min", dense=True)
    assert b["bin_start"].tolist() == [T0 + pd.Timedelta(minutes=m) for m in range(4)]
    assert b["total"].tolist() == [2, 1, 0, 2]  # dense: the empty minute is a row of zeros
    assert b["good"].tolist() == [1, 0, 0, 1]
    assert b["bad_timeout"].tolist() == [1, 0, 0, 1]
    assert b["bad_solve_error"].tolist() == [0, 1, 0, 0]
    assert str(b["bin_start"].dtype) == "datetime64[ns, UTC]"
    assert all(str(b[c].dtype) == "int64" for c in ["total", "good", "bad", "bad_timeout",
                                                    "bad_solve_error"])
    assert b.attrs == {"freq": "1m", "by": []}


def test_bin_edges_are_left_closed_and_epoch_aligned():
    ev = make_events([59.999999, 60.0, 119.0], ["success"] * 3)
    b = bin_events(ev, "1min")
    assert b["total"].tolist() == [1, 2]  # an event at exactly 00:01:00 opens the second bin
    ev2 = make_events([3600 * 5 + 30], ["success"])
    assert bin_events(ev2, "1D")["bin_start"].iloc[0] == T0  # 1D bins start at 00:00 UTC


def test_groups_share_the_full_grid():
    ev = make_events([0, 10, 200], ["success", "timeout", "success"], region=["fra", "fra", "ams"])
    sparse = bin_events(ev, "1min", by="region")
    # every group has a row at the first and last bin of the grid (zeros when empty), then its
    # non-empty bins
    assert sparse["region"].astype(str).tolist() == ["ams", "ams", "fra", "fra"]
    assert sparse["bin_start"].tolist() == [T0, T0 + pd.Timedelta(minutes=3)] * 2
    assert sparse["total"].tolist() == [0, 1, 2, 0]
    assert read_bins(sparse).total.tolist() == [[0, 0, 0, 1], [2, 0, 0, 0]]
    b = bin_events(ev, "1min", by="region", dense=True)
    assert b["region"].astype(str).tolist() == ["ams"] * 4 + ["fra"] * 4
    grids = [tuple(g["bin_start"]) for _, g in b.groupby("region", observed=True)]
    assert grids[0] == grids[1] and len(grids[0]) == 4
    assert b["total"].tolist() == [0, 0, 0, 1, 2, 0, 0, 0]
    assert isinstance(b["region"].dtype, pd.CategoricalDtype)
    assert b.attrs["by"] == ["region"]


@given(
    st.lists(st.tuples(st.floats(0, 900, allow_nan=False), st.sampled_from(BUCKETS),
                       st.sampled_from(["a", "b", "c"])),
             min_size=1, max_size=40),
    st.sampled_from([1, 7, 60, 300]),
    st.booleans(),
)
def test_matches_loop_oracle(rows, freq_s, grouped):
    seconds, bucket, region = zip(*rows, strict=True)
    ev = make_events(seconds, bucket, region=region)
    check_against_oracle(ev, freq_s, by="region" if grouped else None)


@given(
    st.lists(st.tuples(st.integers(0, 600), st.sampled_from(BUCKETS)), min_size=1, max_size=30),
    st.sampled_from(["drop", "good"]),
    st.integers(0, 600),
    st.integers(1, 300),
)
def test_exclusions_match_loop_oracle(rows, mode, w_start, w_len):
    seconds, bucket = zip(*rows, strict=True)
    ev = make_events(seconds, bucket)
    windows = [(T0 + pd.Timedelta(seconds=w_start), T0 + pd.Timedelta(seconds=w_start + w_len))]
    check_against_oracle(ev, 60, exclude=("timeout",), windows=windows, mode=mode)


def test_exclude_windows_edges_are_start_inclusive_end_exclusive():
    ev = make_events([59, 60, 120, 121], ["solve_error"] * 4)
    w = pd.DataFrame({"start": [T0 + pd.Timedelta(seconds=60)],
                      "end": [T0 + pd.Timedelta(seconds=120)]})
    b = bin_events(ev, "1h", exclude_windows=w)
    assert b["total"].tolist() == [3]  # the event at 60 s is excluded, the one at 120 s is not
    g = bin_events(ev, "1h", exclude_windows=w, exclude_mode="good")
    assert g[["total", "good", "bad", "bad_solve_error"]].iloc[0].tolist() == [4, 1, 3, 3]


def test_exclude_buckets_drops_failures_from_total():
    ev = make_events([0, 1, 2, 3], ["success", "timeout", "timeout", "solve_error"])
    b = bin_events(ev, "1min", exclude_buckets=("timeout",))
    assert b[["total", "good", "bad"]].iloc[0].tolist() == [2, 1, 1]
    assert "bad_timeout" not in b.columns


def test_start_end_extend_and_restrict_the_grid():
    ev = make_events([90, 150], ["success", "solve_error"])
    b = bin_events(ev, "1min", start=T0, end=T0 + pd.Timedelta("5min"), dense=True)
    assert len(b) == 5
    assert b["total"].tolist() == [0, 1, 1, 0, 0]
    # the span's ends kept as zero rows
    s = bin_events(ev, "1min", start=T0, end=T0 + pd.Timedelta("5min"))
    assert s["bin_start"].tolist() == [T0 + pd.Timedelta(minutes=m) for m in (0, 1, 2, 4)]
    assert s["total"].tolist() == [0, 1, 1, 0]
    assert read_bins(s).total.tolist() == [[0, 1, 1, 0, 0]]
    c = bin_events(ev, "1min", start=T0 + pd.Timedelta("2min"))
    assert c["total"].tolist() == [1]


def test_input_never_mutated():
    ev = make_events([0, 70], ["success", "timeout"])
    before = ev.copy()
    bin_events(ev, "1min", exclude_buckets="timeout", exclude_windows=[(T0,
                                                                        T0 + pd.Timedelta("10s"))],
               exclude_mode="good")
    pd.testing.assert_frame_equal(ev, before)


def test_bad_input_errors():
    ev = make_events([0, 70], ["success", "timeout"])
    with pytest.raises(ConfigError, match="timeout"):
        bin_events(ev, "1min", exclude_buckets="timout")
    with pytest.raises(ConfigError):
        bin_events(ev, "0s")
    with pytest.raises(ConfigError):
        bin_events(ev, "1min", exclude_mode="skip")
    with pytest.raises(ConfigError):
        bin_events(ev, "1min", exclude_windows=[(T0, T0)])
    with pytest.raises(InputError):
        bin_events(ev.iloc[:0], "1min")
    bad = ev.copy()
    bad["ok"] = [False, False]
    bad["bucket"] = pd.Categorical(["success", "timeout"], categories=BUCKETS, ordered=True)
    with pytest.raises(OutcomeError):
        bin_events(bad, "1min")
    with pytest.raises(InputError):
        bin_events(ev.assign(ts=ev["ts"].astype(str)), "1min")


def test_read_bins_infers_freq_fills_missing_rows_and_rejects_duplicates():
    ev = make_events([0, 125, 300], ["success", "timeout", "success"])
    b = bin_events(ev, "1min")
    plain = pd.DataFrame(b)  # a copy
    plain.attrs = {}
    g = read_bins(plain)
    assert g.freq_ns == 60 * 10**9 and g.n_bins == 6
    assert g.total.tolist() == [[1, 0, 1, 0, 0, 1]]
    sparse = plain[plain["total"] > 0]  # drop empty rows: they count as empty bins again
    g2 = read_bins(sparse, freq="1min")
    assert g2.total.tolist() == g.total.tolist()
    with pytest.raises(InputError, match="duplicated"):
        read_bins(pd.concat([plain, plain.iloc[:1]]))
    with pytest.raises(InputError, match="regular grid"):
        read_bins(plain, freq="7min")
    with pytest.raises(ConfigError, match="single bin_start"):
        read_bins(plain.iloc[:1])
    with pytest.raises(SchemaError):
        read_bins(plain.drop(columns="bad"))
    with pytest.raises(ConfigError, match="bad_timeout"):
        read_bins(bin_events(ev, "1min", exclude_buckets="timeout"), exclude_buckets="timeout")


def test_read_bins_exclusions_at_bin_resolution():
    ev = make_events([0, 61, 62, 125], ["solve_error", "timeout", "solve_error", "solve_error"])
    b = bin_events(ev, "1min")
    g = read_bins(b, exclude_buckets="timeout")
    assert g.total.tolist() == [[1, 1, 1]] and g.bad.tolist() == [[1, 1, 1]]
    w = [(T0 + pd.Timedelta("1min"), T0 + pd.Timedelta("2min"))]
    assert read_bins(b, exclude_windows=w).total.tolist() == [[1, 0, 1]]
    gg = read_bins(b, exclude_windows=w, exclude_mode="good")
    assert gg.total.tolist() == [[1, 2, 1]] and gg.bad.tolist() == [[1, 0, 1]]
    # on the bin grid, bin-level exclusion equals event-level exclusion
    assert read_bins(bin_events(ev, "1min", exclude_windows=w)).total.tolist() == [[1, 0, 1]]


def test_window_bins_and_labels():
    assert window_bins("1h", 60 * 10**9) == 60
    with pytest.raises(ConfigError, match="whole number of bins"):
        window_bins("90s", 60 * 10**9)
    assert [duration_label(x) for x in ["5min", "1h", "1D", "3D", "90min", "10s"]] == ["5m", "1h",
                                                                                       "1d", "3d",
                                                                                       "1h30m",
                                                                                       "10s"]


def test_a_misspelt_option_is_refused_by_its_name_not_an_internal_function():
    """The options every SRE-model function passes on (``**options``) are checked where they
    land; Python's own TypeError named Exclusions.of() or read_bins() instead."""
    import budgetlab as bl

    ev = make_events([10, 70, 130], ["success", "timeout", "success"])
    bins = bin_events(ev, "1min")
    bins_options = "exclude_buckets, exclude_mode, exclude_windows, freq."
    calls = {
        "bin_events": (lambda: bin_events(ev, "1min", denes=True), " 'denes'",
                       "exclude_buckets, exclude_mode, exclude_windows."),
        "burn_rates": (lambda: bl.burn_rates(bins, 0.95, windw="1h"), " 'windw'", bins_options),
        "alert_episodes": (lambda: bl.alert_episodes(bins, 0.95, "workbook", fre="1min", x=1),
                           "s 'fre', 'x'", bins_options),
        "score_alerts": (lambda: bl.score_alerts(bl.alert_episodes(bins, 0.95, "workbook"),
                                                 bl.datasets.load("demo_incidents"), gracee="1h"),
                         " 'gracee'", bins_options),
    }
    for name, (call, words, known) in calls.items():
        with pytest.raises(TypeError) as info:
            call()
        assert str(info.value) == (f"unexpected keyword argument{words}; besides its named "
                                   f"arguments, the function takes {known}"), name
