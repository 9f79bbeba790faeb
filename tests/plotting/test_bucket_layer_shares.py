"""plot_buckets with several groups stacks each group's failures over the budget of every group's
events: a layer is its share of the combined burn, not the group's own burn rate, and the figure
says so (y label, legend title). Heights computed by hand, or counted from the events with pandas
(the stranger's log of Stop 57)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import budgetlab as bl
from budgetlab import SLO, as_events, bucket_burn_over_time
from budgetlab.plotting import plot_buckets

pytestmark = pytest.mark.usefixtures("close_figures")

T0 = pd.Timestamp("2026-03-02", tz="UTC")


def thickness(ax, label):
    (p,) = [p for p in ax.patches if p.get_gid() == "bucket" and p.get_label() == label]
    d = p.get_data()
    return (np.asarray(d.values) - np.asarray(d.baseline)).tolist()


def legend_title(ax):
    legend = ax.get_legend()
    return "" if legend is None else legend.get_title().get_text()


def test_two_regions_layers_are_shares_of_the_combined_burn_and_say_so():
    # one hour: fra 40 events (4 timeouts), ams 60 events (3 timeouts, 6 solve errors), 90 %
    rows = ([("fra", "timeout")] * 4 + [("fra", "success")] * 36 + [("ams", "timeout")] * 3
            + [("ams", "solve_error")] * 6 + [("ams", "success")] * 51)
    ts = pd.DatetimeIndex([T0 + pd.Timedelta(seconds=10 * i) for i in range(len(rows))])
    bucket = np.array([b for _, b in rows], dtype=object)
    ev = as_events(ts, bucket == "success", bucket, groups={"region": [g for g, _ in rows]})
    ax = plot_buckets(bucket_burn_over_time(ev, SLO(target=0.9), freq="1h", by="region"),
                      by="region")
    # fra's own timeout burn is 4 / (40 x 0.1) = 1.0; its layer is 4 / (100 x 0.1) = 0.4
    np.testing.assert_allclose(thickness(ax, "timeout · fra"), [0.4])
    np.testing.assert_allclose(thickness(ax, "timeout · ams"), [0.3])
    np.testing.assert_allclose(thickness(ax, "solve_error · ams"), [0.6])
    assert ax.get_ylabel() == "combined burn rate per 1 h bin\n(1 = allowed pace)"
    assert legend_title(ax) == ("each layer: its share of the\ncombined burn: its failures over\n"
                                "the budget of all groups drawn")
    # fra alone: its layer is its own burn, 4 / (40 x 0.1), and the words stay plain
    alone = ev[(ev["region"] == "fra").to_numpy()]
    ax = plot_buckets(bucket_burn_over_time(alone, SLO(target=0.9), freq="1h", by="region"),
                      by="region", ax=plt.figure().gca())
    np.testing.assert_allclose(thickness(ax, "timeout · fra"), [1.0])
    assert ax.get_ylabel() == "burn rate per 1 h bin\n(1 = allowed pace)"
    assert legend_title(ax) == ""


def test_the_strangers_first_bin_fra_timeouts_over_both_regions_budget():
    ev, _ = bl.datasets.synth.generate("2026-10-14 09:30", 24, seed=7, rate=0.3)
    ot = bucket_burn_over_time(ev, SLO(target=0.95), freq="6h", by="region")
    ax = plot_buckets(ot, by="region")
    # the oracle: the first 6 h bin counted from the events themselves
    start = ev["ts"].min().floor("6h")
    first = ev[(ev["ts"] >= start) & (ev["ts"] < start + pd.Timedelta("6h"))]
    fra_timeouts = int(((first["region"] == "fra") & (first["bucket"] == "timeout")).sum())
    assert (fra_timeouts, len(first)) == (28, 4558)
    assert (first["region"] == "fra").sum() == 2753  # fra's own burn: 28 / 137.65 = 0.2034
    assert thickness(ax, "timeout · fra")[0] == pytest.approx(28 / (4558 * 0.05), rel=1e-12)
    assert ax.get_ylabel().startswith("combined burn rate per 6 h bin\n")
    assert "share of the\ncombined burn" in legend_title(ax)
