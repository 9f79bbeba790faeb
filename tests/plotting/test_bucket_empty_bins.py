"""plot_buckets marks the bins without events, as the timeline marks no traffic: a ruled band over
the panel where no group drawn has an event, a lane per group (several groups) where that group
is silent and another is not. The oracle: tables built by hand, whose empty bins are written out
in each test; the marks are read back from their artists (gids) as bin numbers."""

from __future__ import annotations

import matplotlib.dates as mdates
import numpy as np
import pandas as pd
import pytest
from matplotlib.colors import to_hex

from budgetlab import SLO, as_events, bucket_breakdown, bucket_burn_over_time
from budgetlab.plotting import plot_buckets
from budgetlab.plotting.empty_bins import LANE
from budgetlab.plotting.status_bands import NO_TRAFFIC

pytestmark = pytest.mark.usefixtures("close_figures")

T0 = pd.Timestamp("2026-03-02", tz="UTC")


def table(events: dict[str, list[int]], failures: dict[str, list[int]]) -> pd.DataFrame:
    """A bucket_burn_over_time table by hand: 1 h bins from T0, one bucket ``timeout``, target
    0.9; ``events`` and ``failures`` per group and bin (group ``""``: a table without keys)."""
    rows = []
    for g, counts in events.items():
        for i, (n, f) in enumerate(zip(counts, failures[g], strict=True)):
            rows.append({**({"region": g} if g else {}),
                         "bin_start": T0 + pd.Timedelta(hours=i), "bucket": "timeout",
                         "events": n, "failures": f, "burn_rate": f / (n * 0.1) if n else 0.0})
    out = pd.DataFrame(rows)
    out.attrs.update({"freq": "1h", "by": ["region"] if "region" in out else []})
    return out


def marked(ax, gid: str) -> list[int]:
    """The bins (hours after T0) the bars of artist ``gid`` cover, read from their x extents."""
    hits = [c for c in ax.collections if c.get_gid() == gid]
    if not hits:
        return []
    (coll,) = hits
    t0 = mdates.date2num(T0.tz_convert(None))
    out: list[int] = []
    for path in coll.get_paths():
        x = path.vertices[:, 0]
        first, end = (round((v - t0) * 24) for v in (x.min(), x.max()))
        out += list(range(first, end))
    return sorted(out)


def quiet_gids(ax) -> list[str]:
    return sorted(str(c.get_gid()) for c in ax.collections
                  if str(c.get_gid()).startswith("no_traffic"))


def legend_texts(ax) -> list[str]:
    legend = ax.get_legend()
    return [] if legend is None else [t.get_text() for t in legend.get_texts()]


# six hours; silent: ams in 1, 2 and 4; fra in 0 and 4; par in 4 and 5. Hour 4: every group.
SILENCES = {"ams": [100, 0, 0, 100, 0, 100], "fra": [0, 100, 100, 100, 0, 100],
            "par": [100, 100, 100, 100, 0, 0]}
FAILS = {"ams": [2, 0, 0, 3, 0, 1], "fra": [0, 1, 1, 2, 0, 4], "par": [5, 1, 0, 1, 0, 0]}


def test_each_groups_silences_in_its_lane_and_the_panels_in_one_band():
    ax = plot_buckets(table(SILENCES, FAILS), by="region")
    # by hand: hour 4 has no event at all: the band; each group's other silent hours: its lane
    assert marked(ax, "no_traffic") == [4]
    assert marked(ax, "no_traffic:ams") == [1, 2]
    assert marked(ax, "no_traffic:fra") == [0]
    assert marked(ax, "no_traffic:par") == [5]
    # the rule through each lane box: one segment per run, over the same hours
    rules = {c.get_gid(): c for c in ax.collections}
    assert len(rules["no_traffic_rule:ams"].get_segments()) == 1  # hours 1-2: one run
    assert legend_texts(ax)[-4:] == ["no traffic (bin empty)", "no traffic · ams",
                                     "no traffic · fra", "no traffic · par"]


def test_lanes_in_the_groups_colours_above_the_burn_rates():
    ax = plot_buckets(table(SILENCES, FAILS), by="region")
    colours = {c.get_gid(): to_hex(c.get_edgecolor()[0]) for c in ax.collections}
    # GROUP_COLORS in the groups' order: Okabe-Ito blue, vermillion, reddish purple
    assert [colours[f"no_traffic:{g}"] for g in ("ams", "fra", "par")] == [
        "#0072b2", "#d55e00", "#cc79a7"]
    # the band: the timeline's no-traffic look (grey rules, no fill)
    (band,) = [c for c in ax.collections if c.get_gid() == "no_traffic"]
    assert band.get_hatch() == NO_TRAFFIC[1]
    assert to_hex(band.get_edgecolor()[0]) == NO_TRAFFIC[0].lower()
    assert band.get_facecolor()[0][3] == 0.0
    # three lanes take the axes' top 3 x LANE; the burn rates and their ticks stay below
    (floor,) = [ln.get_ydata()[0] for ln in ax.get_lines() if ln.get_gid() == "lanes_floor"]
    lo, hi = ax.get_ylim()
    assert (floor - lo) / (hi - lo) == pytest.approx(1 - 3 * LANE)
    tops = [float(p.get_data().values.max()) for p in ax.patches if p.get_gid() == "bucket"]
    assert max(tops) < 1.0 < floor
    assert max(ax.get_yticks()) <= floor


def test_no_mark_and_no_key_when_every_bin_holds_events():
    full = {g: [100] * 6 for g in SILENCES}
    ax = plot_buckets(table(full, FAILS), by="region")
    assert quiet_gids(ax) == []
    assert not [t for t in legend_texts(ax) if t.startswith("no traffic")]
    assert not [ln for ln in ax.get_lines() if ln.get_gid() == "lanes_floor"]


def test_without_groups_one_band_over_the_silent_bins():
    ax = plot_buckets(table({"": [100, 0, 0, 50, 0, 100]}, {"": [1, 0, 0, 2, 0, 0]}))
    assert marked(ax, "no_traffic") == [1, 2, 4]
    assert quiet_gids(ax) == ["no_traffic"]  # no lane
    assert legend_texts(ax) == ["timeout", "no traffic (bin empty)"]


def test_groups_silent_together_need_no_lane():
    # ams and fra silent in the same hours: said once, by the band
    ax = plot_buckets(table({"ams": [100, 0, 100], "fra": [50, 0, 50]},
                            {"ams": [1, 0, 0], "fra": [0, 0, 2]}), by="region")
    assert quiet_gids(ax) == ["no_traffic"]
    assert marked(ax, "no_traffic") == [1]


def test_other_groups_lane_only_where_all_of_them_are_silent():
    # five groups: the three that burn most keep their layers, b1 and b2 are "other (2 groups)";
    # silent: b1 in hours 0 and 1, b2 in hour 1 only -> "other" is silent in hour 1 only
    events = {"a1": [100] * 3, "a2": [100] * 3, "a3": [100] * 3, "b1": [0, 0, 100],
              "b2": [100, 0, 100]}
    fails = {"a1": [5] * 3, "a2": [4] * 3, "a3": [3] * 3, "b1": [0, 0, 1], "b2": [1, 0, 0]}
    ax = plot_buckets(table(events, fails), by="region")
    assert quiet_gids(ax) == ["no_traffic/others", "no_traffic_rule/others"]  # the grey rest
    assert marked(ax, "no_traffic/others") == [1]


def test_a_group_named_like_the_grey_rest_keeps_its_own_layer_and_lane():
    # five groups: a1, a2 and a group literally named "other (2 groups)" burn most and keep their
    # layers; b1 and b2 are the grey rest, whose legend words are "other (2 groups)" as well.
    # Silent: the named group in hour 0; b1 in hours 1-2 and b2 in hour 1 -> the rest in hour 1
    named = "other (2 groups)"
    events = {"a1": [100] * 4, "a2": [100] * 4, named: [0, 100, 100, 100],
              "b1": [100, 0, 0, 100], "b2": [100, 0, 100, 100]}
    fails = {"a1": [5] * 4, "a2": [4] * 4, named: [0, 3, 3, 3], "b1": [1, 0, 0, 0],
             "b2": [0, 0, 1, 0]}
    ax = plot_buckets(table(events, fails), by="region")
    assert marked(ax, f"no_traffic:{named}") == [0]
    assert marked(ax, "no_traffic/others") == [1]
    assert quiet_gids(ax) == ["no_traffic/others", f"no_traffic:{named}",
                              "no_traffic_rule/others", f"no_traffic_rule:{named}"]
    # two layers under those words: the named group's in its colour (the third of a1, a2 and
    # it: reddish purple), the rest's grey; each its own failures over the bin's events x 0.1:
    # the named group 3 / (300, 400, 500 x 0.1); the rest b1's 1 / 40 in hour 0, b2's in hour 2
    layers = {to_hex(p.get_facecolor()): (p.get_data().values - p.get_data().baseline).round(4)
              for p in ax.patches if p.get_label() == f"timeout · {named}"}
    assert {k: v.tolist() for k, v in layers.items()} == {
        "#cc79a7": [0.0, 0.1, 0.075, 0.06], "#a0a0a0": [0.025, 0.0, 0.025, 0.0]}


def test_silence_of_the_groups_drawn_said_as_such_when_some_are_left_out():
    # ams: 600 events in hours 0 and 2; fra: 2 events, in hour 1, too thin for a verdict and left
    # out. In hour 1 only fra has events: the groups drawn (ams) are silent there
    ts = [T0 + pd.Timedelta(minutes=i % 60) for i in range(300)]
    ts += [T0 + pd.Timedelta(hours=2, minutes=i % 60) for i in range(300)]
    ts += [T0 + pd.Timedelta(hours=1, minutes=5), T0 + pd.Timedelta(hours=1, minutes=6)]
    region = ["ams"] * 600 + ["fra"] * 2
    ok = np.array([i % 10 != 0 for i in range(600)] + [True, False])
    ev = as_events(pd.DatetimeIndex(ts), ok, np.where(ok, "success", "timeout"),
                   groups={"region": region})
    slo = SLO(target=0.8)
    breakdown = bucket_breakdown(ev, slo, by="region")
    assert (breakdown.set_index("region")["note"] != "").to_dict() == {"ams": False, "fra": True}
    ax = plot_buckets(bucket_burn_over_time(ev, slo, freq="1h", by="region"), by="region",
                      breakdown=breakdown)
    assert marked(ax, "no_traffic") == [1]
    assert "no traffic in the groups drawn (bin empty)" in legend_texts(ax)


def test_silent_hours_of_a_log_through_bucket_burn_over_time():
    # events in hours 0, 3 and 4 of region ams, hours 0 and 4 of fra: the table's full grid
    # holds hours 0..4; by hand, silent: ams 1, 2; fra 1, 2, 3 -> band 1, 2; lane fra 3
    hours = {"ams": [0, 3, 4], "fra": [0, 4]}
    ts, region, bucket = [], [], []
    for g, hs in hours.items():
        for h in hs:
            ts += [T0 + pd.Timedelta(hours=h, minutes=m) for m in range(20)]
            region += [g] * 20
            bucket += ["timeout" if m == 0 else "success" for m in range(20)]
    b = np.array(bucket, dtype=object)
    ev = as_events(pd.DatetimeIndex(ts), b == "success", b, groups={"region": region})
    ax = plot_buckets(bucket_burn_over_time(ev, SLO(target=0.9), freq="1h", by="region"),
                      by="region")
    assert marked(ax, "no_traffic") == [1, 2]
    assert marked(ax, "no_traffic:fra") == [3]
    assert quiet_gids(ax) == ["no_traffic", "no_traffic:fra", "no_traffic_rule:fra"]
