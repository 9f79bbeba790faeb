"""plot_buckets as a new reader meets it: groups told apart by colour (the bucket by hatching),
layers without a failure left out of the legend, thin groups left out as the table leaves them
blank and named, the bin width stated. Expected words and colours written by hand."""

from __future__ import annotations

import matplotlib.dates as mdates
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest
from matplotlib.colors import to_hex

from budgetlab import SLO, as_events, bucket_breakdown, bucket_burn_over_time
from budgetlab.errors import ConfigError
from budgetlab.plotting import plot_buckets

T0 = pd.Timestamp("2026-03-02", tz="UTC")


pytestmark = pytest.mark.usefixtures("close_figures")


def log(rows):
    """Events from ``(region, hour, bucket, count)``: ``count`` events of that bucket spread over
    the hour (one every 3 s from the hour's start, buckets after one another)."""
    ts, bucket, region = [], [], []
    used: dict[tuple[str, int], int] = {}
    for g, hour, b, n in rows:
        k = used.get((g, hour), 0)
        ts += [T0 + pd.Timedelta(hours=hour, seconds=3 * (k + i)) for i in range(n)]
        bucket += [b] * n
        region += [g] * n
        used[(g, hour)] = k + n
    bucket_arr = np.array(bucket, dtype=object)
    return as_events(pd.DatetimeIndex(ts), bucket_arr == "success", bucket_arr,
                     groups={"region": region})


def layers(ax):
    return [p for p in ax.patches if p.get_gid() == "bucket"]


def legend_texts(ax):
    legend = ax.get_legend()
    return [] if legend is None else [t.get_text() for t in legend.get_texts()]


def burn(p):
    d = p.get_data()
    return (d.values - d.baseline).tolist()


# two regions, both failing in both buckets, 100 events an hour each, two hours
BOTH = [("ams", 0, "success", 94), ("ams", 0, "timeout", 4), ("ams", 0, "solve_error", 2),
        ("ams", 1, "success", 100),
        ("fra", 0, "success", 100),
        ("fra", 1, "success", 95), ("fra", 1, "timeout", 1), ("fra", 1, "solve_error", 4)]


def test_groups_have_their_own_colour_and_the_buckets_a_hatching():
    ev = log(BOTH)
    ax = plot_buckets(bucket_burn_over_time(ev, SLO(target=0.9), freq="1h", by="region"),
                      by="region")
    got = [(p.get_label(), to_hex(p.get_facecolor()), p.get_hatch()) for p in layers(ax)]
    # GROUP_COLORS in the groups' order: Okabe-Ito blue (ams), vermillion (fra); the first bucket
    # solid, the second hatched
    assert got == [("timeout · ams", "#0072b2", None), ("timeout · fra", "#d55e00", None),
                   ("solve_error · ams", "#0072b2", "///"),
                   ("solve_error · fra", "#d55e00", "///")]
    # by hand: a bin's events are both regions' (200); budget 0.1 -> 20 failures = burn 1
    np.testing.assert_allclose([burn(p) for p in layers(ax)],
                               [[4 / 20, 0.0], [0.0, 1 / 20], [2 / 20, 0.0], [0.0, 4 / 20]])
    assert legend_texts(ax) == ["solve_error · fra", "solve_error · ams", "timeout · fra",
                                "timeout · ams"]
    # several groups: the stack is their combined burn, a layer its share (not the group's own)
    assert ax.get_ylabel() == "combined burn rate per 1 h bin\n(1 = allowed pace)"


def test_one_group_keeps_the_bucket_colours():
    ev = log([r for r in BOTH if r[0] == "ams"])
    ax = plot_buckets(bucket_burn_over_time(ev, SLO(target=0.9), freq="1h", by="region"),
                      by="region")
    # BUCKET_COLORS: sky blue timeouts, orange solve errors, no hatching
    assert [(p.get_label(), to_hex(p.get_facecolor()), p.get_hatch()) for p in layers(ax)] == [
        ("timeout · ams", "#56b4e9", None), ("solve_error · ams", "#e69f00", None)]


def test_a_group_or_bucket_without_failures_is_not_in_the_legend():
    rows = [("ams", 0, "success", 100), ("ams", 1, "success", 100),  # ams never fails
            ("fra", 0, "success", 97), ("fra", 0, "timeout", 3), ("fra", 1, "success", 100)]
    ax = plot_buckets(bucket_burn_over_time(log(rows), SLO(target=0.9), freq="1h", by="region"),
                      by="region")
    assert legend_texts(ax) == ["timeout · fra"]  # no ams layer, no solve_error layer
    assert [p.get_label() for p in layers(ax)] == ["timeout · fra"]
    assert burn(layers(ax)[0]) == pytest.approx([3 / 20, 0.0])
    assert not [t for t in ax.texts if t.get_gid() in ("no_failures", "withheld")]


def test_no_failure_at_all_says_so_and_keys_no_layer():
    rows = [("ams", 0, "success", 50), ("fra", 0, "success", 50), ("fra", 1, "success", 50)]
    ev = log(rows)
    ax = plot_buckets(bucket_burn_over_time(ev, SLO(target=0.9), freq="1h", by="region"),
                      by="region")
    # no layer; the legend keys only ams's silent hour 1 (fra has events there)
    assert layers(ax) == [] and legend_texts(ax) == ["no traffic · ams"]
    assert [t.get_text() for t in ax.texts if t.get_gid() == "no_failures"] == [
        "no failures in these bins"]


# a group of 400 events (20 expected failures at 95 %: enough) and one of 5 (0.25: too thin)
THIN = [("big", 0, "success", 190), ("big", 0, "timeout", 10),
        ("big", 1, "success", 180), ("big", 1, "timeout", 20),
        ("tiny", 0, "success", 4), ("tiny", 0, "timeout", 1)]


def test_thin_groups_are_left_out_as_the_table_leaves_them_and_named():
    ev = log(THIN)
    slo = SLO(target=0.95, window="1h")
    table = bucket_breakdown(ev, slo, by="region")
    assert table.loc[table["region"] == "tiny", "note"].str.startswith("withheld").all()
    assert (table.loc[table["region"] == "big", "note"] == "").all()
    ax = plot_buckets(bucket_burn_over_time(ev, slo, freq="1h", by="region"), by="region",
                      breakdown=table)
    assert [p.get_label() for p in layers(ax)] == ["timeout · big"]
    # by hand: big's failures over big's events only (tiny's 5 are not in the bin's count):
    # 10 / (200 x 0.05) = 1, 20 / (200 x 0.05) = 2
    assert burn(layers(ax)[0]) == pytest.approx([1.0, 2.0])
    assert legend_texts(ax) == ["timeout · big", "not drawn, too thin for a verdict:\ntiny"]
    # without the breakdown, tiny is drawn (what the plot did before)
    plt.close("all")
    ax = plot_buckets(bucket_burn_over_time(ev, slo, freq="1h", by="region"), by="region")
    assert [p.get_label() for p in layers(ax)] == ["timeout · big", "timeout · tiny"]


def test_every_group_thin_says_so_in_the_panel():
    ev = log([r for r in THIN if r[0] == "tiny"] + [("tiny", 1, "success", 3)])
    slo = SLO(target=0.95, window="1h")
    over = bucket_burn_over_time(ev, slo, freq="1h", by="region")
    ax = plot_buckets(over, by="region", breakdown=bucket_breakdown(ev, slo, by="region"))
    assert layers(ax) == []
    assert [t.get_text() for t in ax.texts if t.get_gid() == "withheld"] == [
        "every group too thin for a verdict: not drawn"]
    assert not [t for t in ax.texts if t.get_gid() == "no_failures"]
    assert legend_texts(ax) == ["not drawn, too thin for a verdict:\ntiny"]
    # the time axis still spans the bins, cut to the events: T0 to the last, at 01:00:06
    lo, hi = (T0.tz_localize(None), T0.tz_localize(None) + pd.Timedelta(hours=1, seconds=6))
    assert ax.get_xlim() == pytest.approx((mdates.date2num(lo), mdates.date2num(hi)))
    plt.close("all")
    # without groups: the whole table is thin
    over = bucket_burn_over_time(ev, slo, freq="1h")
    ax = plot_buckets(over, breakdown=bucket_breakdown(ev, slo, by=None))
    assert [t.get_text() for t in ax.texts if t.get_gid() == "withheld"] == [
        "too thin for a verdict: not drawn"]
    assert legend_texts(ax) == ["not drawn: the table is too thin for a verdict"]


def test_breakdown_of_other_groups_is_refused():
    ev = log(THIN)
    slo = SLO(target=0.95, window="1h")
    over = bucket_burn_over_time(ev, slo, freq="1h", by="region")
    with pytest.raises(ConfigError, match="same by="):
        plot_buckets(over, by="region", breakdown=bucket_breakdown(ev, slo, by=None))


@pytest.mark.parametrize(("freq", "words"), [("5min", "5 min"), ("90min", "90 min"),
                                             ("6h", "6 h"), ("1D", "24 h")])
def test_the_y_label_states_the_bin_width(freq, words):
    ev = log([("ams", h, "success", 9) for h in range(48)] + [("ams", 3, "timeout", 1)])
    ax = plot_buckets(bucket_burn_over_time(ev, SLO(target=0.9), freq=freq))
    assert ax.get_ylabel() == f"burn rate per {words} bin\n(1 = allowed pace)"


@pytest.mark.parametrize(("rows", "target", "named"), [
    # by hand, burn = failures / (events x (1 - target)), a band drawn up to 1.5 x the peak
    ([("ams", 0, "success", 3), ("ams", 0, "timeout", 1)], 0.5, ["burn 1"]),  # 0.5: 0.75 < 2
    ([("ams", 0, "success", 1), ("ams", 0, "timeout", 3)], 0.5,  # 1.5: 2 <= 2.25 < 5
     ["burn 1", "burn 2"]),
    ([("ams", 0, "timeout", 4)], 0.8, ["burn 1", "burn 2", "burn 5"]),  # 5: 7.5
])
def test_only_the_bands_drawn_are_named(rows, target, named):
    ax = plot_buckets(bucket_burn_over_time(log(rows), SLO(target=target), freq="1h"))
    labels = [t for t in ax.texts if t.get_gid() == "band_label"]
    assert [t.get_text() for t in labels] == named
    # each name beside its own line
    assert [t.xy[1] for t in labels] == [ln.get_ydata()[0] for ln in ax.lines
                                         if ln.get_gid() == "band"]
    assert [t for t in ax.texts if "burn" in t.get_text()] == labels  # no other band words


LONG = [(name, 0, b, n) for name in ("frankfurt-am-main-1", "amsterdam-schiphol-2")
        for b, n in (("success", 90), ("timeout", 6), ("solve_error", 4))]


@pytest.mark.parametrize("place", ["subplots", "by hand", "constrained"])
def test_a_plain_savefig_keeps_the_legend(tmp_path, place):
    """The legend right of the plot area lies inside the figure: a plain ``savefig`` (no
    ``bbox_inches="tight"``) keeps it whole, on a figure without a layout engine (its subplots
    narrowed, or the axes placed by hand) as on one with constrained layout."""
    if place == "subplots":
        fig, ax = plt.subplots(figsize=(6, 3))
    elif place == "by hand":
        fig = plt.figure(figsize=(6, 3))
        ax = fig.add_axes((0.1, 0.15, 0.85, 0.75))
    else:
        fig, ax = plt.subplots(figsize=(6, 3), layout="constrained")
    over = bucket_burn_over_time(log(LONG), SLO(target=0.9), freq="1h", by="region")
    plot_buckets(over, by="region", ax=ax)
    fig.savefig(tmp_path / "buckets.png")
    legend = ax.get_legend().get_window_extent()
    assert len(legend_texts(ax)) == 4
    assert fig.bbox.x0 <= legend.x0 and legend.x1 <= fig.bbox.x1
    assert fig.bbox.y0 <= legend.y0 and legend.y1 <= fig.bbox.y1
    assert ax.get_window_extent().x1 < legend.x0  # beside the plot area, covering no data


def test_bins_longer_than_the_log_are_drawn_over_its_events_only():
    """7-day bins start on Thursdays (aligned on the epoch, a Thursday): Thursday 26 Feb and
    Thursday 5 Mar 2026. Events from Monday 2 Mar 00:00 (T0) to Thursday 5 Mar 08:00:03: the bars
    span T0 .. 5 Mar 00:00 and 5 Mar 00:00 .. 08:00:03, not 26 Feb .. 12 Mar (days without data
    drawn as if observed). A last event that opens its bin keeps the whole bin (no width would
    hide it)."""
    day = pd.Timedelta(days=1)
    start, thu = T0.tz_localize(None), T0.tz_localize(None) + 3 * day
    slo = SLO(target=0.95, window="1h")
    ev = log([("a", 0, "timeout", 1), ("a", 0, "success", 9), ("a", 80, "success", 2)])
    (stack,) = layers(plot_buckets(bucket_burn_over_time(ev, slo, freq="7d")))
    want = [start, thu, thu + pd.Timedelta(hours=8, seconds=3)]
    np.testing.assert_allclose(stack.get_data().edges, mdates.date2num(want))
    plt.close("all")
    ev = log([("a", 0, "timeout", 1), ("a", 0, "success", 9), ("a", 72, "success", 1)])
    (stack,) = layers(plot_buckets(bucket_burn_over_time(ev, slo, freq="7d")))
    np.testing.assert_allclose(stack.get_data().edges, mdates.date2num([start, thu, thu + 7 * day]))


def test_incidents_are_shaded_and_named_within_the_bins():
    """An incident 00:30 .. 01:30 over two hourly bins (events T0 .. 01:00:06): shaded (gid
    ``incident``) over exactly its span and named "incident" after the layers, as the timeline
    names it; a second one a day later is not drawn over and does not widen the time axis."""
    ev = log([("a", 0, "success", 9), ("a", 0, "timeout", 1), ("a", 1, "success", 3)])
    over = bucket_burn_over_time(ev, SLO(target=0.95, window="1h"), freq="1h")
    start = T0.tz_localize(None)
    incidents = pd.DataFrame({"start": [T0 + pd.Timedelta("30min"), T0 + pd.Timedelta("1D")],
                              "end": [T0 + pd.Timedelta("90min"), T0 + pd.Timedelta("25h")]})
    ax = plot_buckets(over)
    lim = ax.get_xlim()
    plt.close("all")
    ax = plot_buckets(over, incidents=incidents)
    assert ax.get_xlim() == lim
    spans = [(p.get_x(), p.get_x() + p.get_width()) for p in ax.patches
             if p.get_gid() == "incident"]
    assert spans[0] == pytest.approx(tuple(mdates.date2num([start + pd.Timedelta("30min"),
                                                            start + pd.Timedelta("90min")])))
    assert legend_texts(ax) == ["timeout", "incident"]
