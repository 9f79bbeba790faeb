"""Sparse burn_rates: the rows where a window holds traffic, equal in value to the dense table
(tests/alerts/oracle_burn.py, the dense implementation it replaced, kept verbatim) and to a loop
over raw events; fill= gives the dense table; burn_rate_chunks concatenates to the whole table."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from budgetlab.budget.burn import burn_rate_chunks, burn_rates
from budgetlab.budget.burn_rows import traffic_bins
from budgetlab.errors import ConfigError
from budgetlab.events.schema import as_events
from budgetlab.windows.bingrid import BinGrid
from budgetlab.windows.binning import bin_events
from tests.alerts import oracle_burn
from tests.alerts.sre_oracle_data import make_events, per_group_slos

WINS = ("5min", "30min", "10min", "1h")  # not in length order: the output keeps the order given


def _oracle_rows(bins, target, wins, **kw):
    """The dense oracle table restricted to the rows with traffic, counts as int64."""
    dense = oracle_burn.burn_rates(bins, target, wins, **kw)
    return dense[dense["total"] > 0].reset_index(drop=True)


def _assert_sparse_equal(got, want):
    assert got["total"].dtype == np.int32 and got["bad"].dtype == np.int32
    assert not got["no_traffic"].any()
    got = got.astype({"total": np.int64, "bad": np.int64})
    pd.testing.assert_frame_equal(got, want, check_exact=True)


@pytest.fixture(scope="module")
def many():
    ev = make_events(2000, seed=7, hours=3, per_group=20)
    return ev, bin_events(ev, "5min", by="sitekey")


@pytest.mark.parametrize("wins", [WINS, ("1h",), ("5min",)])  # one window: the slice path
def test_sparse_rows_equal_the_dense_oracle_on_2000_groups(many, wins):
    ev, bins = many
    _assert_sparse_equal(burn_rates(bins, 0.95, wins), _oracle_rows(bins, 0.95, wins))
    slos = per_group_slos(sorted(ev["sitekey"].astype(str).unique()))
    _assert_sparse_equal(burn_rates(bins, slos, wins), _oracle_rows(bins, slos, wins))


def test_sparse_rows_with_exclusions_and_two_keys():
    ev = make_events(300, seed=3, hours=4, per_group=30, two_keys=True)
    bins = bin_events(ev, "1min", by=["region", "sitekey"])
    kw = {"exclude_buckets": "timeout", "exclude_windows": [("2026-03-27 01:00",
                                                             "2026-03-27 01:30")]}
    _assert_sparse_equal(burn_rates(bins, 0.9, ("1min", "15min"), **kw), _oracle_rows(bins, 0.9,
                                                                                      ("1min",
                                                                                       "15min"),
                                                                                      **kw))


def test_fill_gives_the_dense_oracle_table(many):
    _, bins = many
    pd.testing.assert_frame_equal(burn_rates(bins, 0.95, WINS, fill=0.0),
                                  oracle_burn.burn_rates(bins, 0.95, WINS),
                                  check_exact=True)
    filled = burn_rates(bins, 0.95, WINS, fill=np.nan)
    quiet = filled["no_traffic"].to_numpy()
    assert (
        quiet.any()
        and filled.loc[quiet, "burn_rate"].isna().all()
        and filled.loc[quiet, "error_ratio"].isna().all()
    )
    assert filled.loc[~quiet, "burn_rate"].notna().all()
    with pytest.raises(ConfigError, match="fill="):
        burn_rates(bins, 0.95, WINS, fill="zero")


def test_every_row_with_traffic_and_only_those_by_a_loop_over_events():
    t0 = pd.Timestamp("2026-01-01", tz="UTC")
    rng = np.random.default_rng(5)
    sec = np.sort(np.concatenate([rng.uniform(0, 600, 30), rng.uniform(3000, 3300, 20), [7199.0]]))
    region = rng.choice(["fra", "ams", "lon"], len(sec))
    ok = rng.random(len(sec)) > 0.3
    ev = as_events(t0 + pd.to_timedelta(sec, unit="s"), ok, groups={"region": region})
    windows = {"2m": 120, "1m": 60, "10m": 600}
    br = burn_rates(bin_events(ev, "1min", by="region"), 0.9, windows=["2min", "1min", "10min"])
    got = {(str(r.region), r.bin_end.value, str(r.window)): (r.total, r.bad, r.burn_rate,
                                                             r.complete)
           for r in br.itertuples(index=False)}
    t = ev["ts"].array.asi8
    want = {}
    grid_start = int(t.min() // 60e9 * 60e9)
    ends = grid_start + 60 * 10**9 * np.arange(1, int((t.max() - grid_start) // 60e9) + 2)
    for reg in ("ams", "fra", "lon"):  # categories in sorted order: the output's group order
        for end in ends:
            for label, w in windows.items():
                inside = (region == reg) & (t >= end - w * 10**9) & (t < end)
                n, b = int(inside.sum()), int((inside & ~ok).sum())
                if n:
                    want[(reg, int(end), label)] = (n, b, (b / n) / (1 - 0.9),
                                                    end - w * 10**9 >= grid_start)
    assert list(got) == sorted(want, key=lambda k: (k[0], k[1], ["2m", "1m", "10m"].index(k[2])))
    for k, (n, b, burn, complete) in want.items():
        assert got[k][:2] == (n, b) and got[k][2] == pytest.approx(burn) and got[k][3] == complete


@pytest.mark.parametrize("rows", [1, 50, 997, 10**9])
def test_chunks_concatenate_to_the_whole_table(many, rows):
    _, bins = many
    whole = burn_rates(bins, 0.95, WINS)
    chunks = list(burn_rate_chunks(bins, 0.95, WINS, rows=rows))
    pd.testing.assert_frame_equal(pd.concat(chunks, ignore_index=True), whole, check_exact=True)
    for a, b in zip(chunks[:-1], chunks[1:], strict=True):  # whole groups per chunk
        assert not set(a["sitekey"].astype(str)) & set(b["sitekey"].astype(str))
    if rows == 50:
        assert all(len(c) >= 1 for c in chunks) and max(len(c) for c in chunks) < 50 + 200
    events = pd.concat(list(burn_rate_chunks(bins, 0.95, WINS, rows=rows, at="events")),
                       ignore_index=True)
    pd.testing.assert_frame_equal(events, burn_rates(bins, 0.95, WINS, at="events"),
                                  check_exact=True)


def test_large_counts_are_int64_and_values_equal_the_oracle():
    total = np.array([[3_000_000_000, 0, 5], [1, 0, 0]])
    bad = np.array([[1_000_000_000, 0, 5], [1, 0, 0]])
    grid = BinGrid.from_dense(pd.DataFrame(index=pd.RangeIndex(2)), [], 0, 60 * 10**9, total, bad)
    got = burn_rates(grid, 0.9, ["1min", "2min"])
    assert got["total"].dtype == np.int64
    # by hand: group 0 has 3e9 events (1e9 bad) in bin 0 and 5 (5 bad) in bin 2; group 1 one bad
    # event in bin 0
    rows = [(1, "1m", 3e9, 1e9), (1, "2m", 3e9, 1e9), (2, "2m", 3e9, 1e9), (3, "1m", 5, 5), (3,
                                                                                             "2m",
                                                                                             5, 5),
            (1, "1m", 1, 1), (1, "2m", 1, 1), (2, "2m", 1, 1)]
    assert got["bin_end"].dt.minute.tolist() == [r[0] for r in rows]
    assert got["window"].astype(str).tolist() == [r[1] for r in rows]
    assert got["total"].tolist() == [int(r[2]) for r in rows] and got["bad"].tolist() == [
        int(r[3]) for r in rows
    ]
    assert got["burn_rate"].tolist() == [(int(r[3]) / int(r[2])) / (1 - 0.9) for r in rows]


def test_traffic_bins_by_a_loop():
    rng = np.random.default_rng(2)
    total = (rng.random((40, 60)) < 0.05) * rng.integers(1, 4, (40, 60))
    grid = BinGrid.from_dense(pd.DataFrame(index=pd.RangeIndex(40)), [], 0, 60, total,
                              np.zeros_like(total))
    for k in (1, 3, 17, 100):
        want = [sum(total[g, max(0,
                                 j - k + 1):j + 1].sum() > 0 for j in range(60)) for g in range(40)]
        assert traffic_bins(grid, k).tolist() == want


def test_memory_guard_states_bytes_and_the_fixes(many, monkeypatch):
    _, bins = many
    n_rows = len(burn_rates(bins, 0.95, WINS))
    monkeypatch.setenv("BUDGETLAB_MEMORY_LIMIT", "20KB")
    with pytest.raises(ConfigError,
                       match=r"burn-rate table .* rows\) would need about .*burn_rate_chunks"):
        burn_rates(bins, 0.95, WINS)
    with pytest.raises(ConfigError, match="dense burn-rate table.*drop fill="):
        burn_rates(bins, 0.95, WINS, fill=0.0)
    # the chunked form works under the same limit
    assert sum(len(c) for c in burn_rate_chunks(bins, 0.95, WINS, rows=100)) == n_rows


def test_every_group_by_bin_allocation_is_guarded_in_bytes(many, monkeypatch):
    """One guard in bytes (check_cells / check_memory), estimated before the work, with the fix."""
    from budgetlab.alerts.episodes import alert_episodes, alert_states
    from budgetlab.alerts.policy import AlertPolicy
    from budgetlab.budget.period import period_budget

    _, bins = many
    pol = AlertPolicy.single_window("10min", burn=2.0)
    monkeypatch.setenv("BUDGETLAB_MEMORY_LIMIT", "100KB")
    cases = [(lambda: period_budget(bins, 0.95),
              r"period-budget table \([\d,]+ groups x [\d,]+ bins\).*coarser freq="),
             (lambda: alert_states(bins, 0.95, pol),
              "alert_states .*would need about .*use alert_episodes"),
             (lambda: burn_rates(bins, 0.95, WINS, fill=0.0), "dense burn-rate table .*drop fill=")]
    for call, message in cases:
        with pytest.raises(ConfigError, match=message):
            call()
    limited = alert_episodes(bins, 0.95, pol)  # the sparse episodes need no dense grid: not refused
    monkeypatch.delenv("BUDGETLAB_MEMORY_LIMIT")
    pd.testing.assert_frame_equal(limited, alert_episodes(bins, 0.95, pol))


@pytest.mark.parametrize("wins", [WINS, ("1h",)])
def test_rows_at_bins_with_events_equal_the_dense_oracle(many, wins):
    """at="events": the oracle's rows at the ends of the bins that hold events, every window."""
    from budgetlab.windows.bins import read_bins

    _, bins = many
    grid = read_bins(bins)
    dense = oracle_burn.burn_rates(bins, 0.95, wins)
    g = dense["sitekey"].cat.codes.to_numpy().astype(np.int64)
    j = (dense["bin_end"].array.asi8 - grid.start_ns) // grid.freq_ns - 1
    has = set((grid.cell_group * grid.n_bins + grid.cell_bin).tolist())
    keep = np.array([x in has for x in (g * grid.n_bins + j).tolist()])
    want = dense[keep].reset_index(drop=True)
    _assert_sparse_equal(burn_rates(bins, 0.95, wins, at="events"), want)
    with pytest.raises(ConfigError, match="at="):
        burn_rates(bins, 0.95, wins, at="bins")
