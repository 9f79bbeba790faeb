"""The bucket stack at thousands of groups (a sitekey log: 5,000 groups x 336 hourly bins took
minutes to draw, each row's group spelled by a row-wise loop): the group labels and the layers
of every row, checked against loops written out by hand; the stack's values by hand."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from budgetlab.plotting import plot_buckets  # noqa: E402
from budgetlab.plotting._group_labels import group_labels  # noqa: E402


def test_group_labels_equal_a_row_loop_with_two_keys_categories_and_a_missing_value():
    frame = pd.DataFrame({"site": pd.Categorical(["b", "a", "b", "c"], categories=["a", "b",
                                                                                   "c", "z"]),
                          "region": ["eu", None, "eu", "us"], "n": [1, 2, 1, 3]})
    for keys in (["site"], ["site", "region"], ["region", "n"]):
        # the oracle: each row's values as text, joined by " · ", a missing one as <NA>
        want = [" · ".join("<NA>" if pd.isna(frame.at[i, k]) else str(frame.at[i, k])
                           for k in keys) for i in frame.index]
        assert group_labels(frame, keys).tolist() == want
    assert group_labels(frame.iloc[:0], ["site"]).tolist() == []


def test_the_stack_at_thousands_of_groups_holds_each_rows_burn_in_its_layer():
    rng = np.random.default_rng(30)
    groups, bins = 2000, 24
    t = pd.date_range("2026-01-01", periods=bins, freq="1h", tz="UTC")
    burn = {"a0001": 3.0, "a0002": 2.0, "a0003": 1.5}  # the three that burn most, by hand
    names = [f"a{i:04d}" for i in range(groups)]
    rows = []
    for ts in t:
        for g in names:
            for bucket in ("timeout", "solve_error"):
                rows.append({"bin_start": ts, "bucket": bucket, "site": g, "events": 10,
                             "burn_rate": burn.get(g, float(rng.uniform(0, 0.5)))})
    over = pd.DataFrame(rows)
    over.attrs["freq"] = "1h"
    ax = plot_buckets(over, by="site")
    layers = {p.get_label(): p.get_data() for p in ax.patches if p.get_gid() == "bucket"}
    other = f"other ({groups - 3:,} groups)"
    assert sorted(layers) == sorted(f"{b} · {g}" for b in ("timeout", "solve_error")
                                    for g in ("a0001", "a0002", "a0003", other))
    # by hand: a layer's burn is its rows' burn x events over the bin's events (every group's
    # 10 events, counted once)
    for bucket in ("timeout", "solve_error"):
        for g in ("a0001", other):
            mine = over[(over["bucket"] == bucket)
                        & ((over["site"] == g) if g == "a0001" else ~over["site"].isin(burn))]
            want = (mine["burn_rate"] * mine["events"]).groupby(mine["bin_start"]).sum() / (
                10 * groups)
            data = layers[f"{bucket} · {g}"]
            assert np.allclose(data.values - data.baseline, want.to_numpy())
    plt.close("all")
