"""plot_recalibration and plot_window_comparison, tested through their artists' data: every
drawn value is the value of the table the pure function returned (no pixels)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from budgetlab import SLO, as_events, compare_windows, recalibrate, synth
from budgetlab.errors import InputError, SchemaError
from budgetlab.plotting import plot_recalibration, plot_window_comparison


@pytest.fixture(autouse=True)
def no_show(monkeypatch):
    def fail(*args, **kwargs):
        raise AssertionError("plot functions must not call plt.show()")

    monkeypatch.setattr(plt, "show", fail)
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def history():
    return synth.generate("2026-10-05", 8, seed=5, rate=0.2, session_ids=False, incidents=[
        {"kind": "outage", "start": "2026-10-09T10:00Z", "end": "2026-10-09T10:30Z", "scope": "*",
         "severity": 1.0}])


@pytest.fixture(scope="module")
def recal(history):
    events, _ = history
    return recalibrate(events, by="captcha_type", target={"recaptcha_v2": 0.93, "turnstile": 0.97,
                                                          "image": 0.88},
                       n_boot=30, seed=2)


def by_gid(ax, gid):
    found = [a for a in [*ax.lines, *ax.patches] if a.get_gid() == gid]
    assert len(found) == 1, gid
    return found[0]


def test_recalibration_lines_hold_the_tables_values(recal):
    fig, ax = plt.subplots()
    out = plot_recalibration(recal, ax=ax)
    assert out is ax
    for _, row in recal.summary.iterrows():
        g = row["captcha_type"]
        dist = recal.distribution[recal.distribution["captcha_type"] == g]
        line = by_gid(ax, f"distribution:{g}")
        # the share of time exhausted or worse by target: at exhausted the rate's distribution;
        # the line goes through each of its levels (on a log scale the candidates' zeros are
        # left out, so every vertex is a level's or a candidate's with a share above 0)
        np.testing.assert_allclose(dist["target"], dist["success_rate"], rtol=1e-12)
        cand = recal.candidates[recal.candidates["captcha_type"] == g]
        xs, ys = np.asarray(line.get_xdata()), np.asarray(line.get_ydata())
        shown = cand["share_exhausted"].to_numpy() > 0
        assert len(xs) == len(dist) + int(shown.sum())
        for x, p in zip(dist["target"].to_numpy() * 100, dist["probability"].to_numpy() * 100,
                        strict=True):
            assert ((xs == x) & (ys >= p)).any()  # its level, or more known from a candidate
        for x, y in zip(cand["target"].to_numpy()[shown] * 100,
                        cand["share_exhausted"].to_numpy()[shown] * 100, strict=True):
            assert ((xs == x) & (ys == y)).any()  # each candidate's dot on the line
        dots = by_gid(ax, f"candidates:{g}")
        np.testing.assert_array_equal(dots.get_xdata(), cand["target"].to_numpy() * 100)
        np.testing.assert_array_equal(dots.get_ydata(), cand["share_exhausted"].to_numpy() * 100)
        assert list(by_gid(ax,
                           f"recommended:{g}").get_xdata()) == [row["recommended_target"] * 100] * 2
        assert list(by_gid(ax, f"current:{g}").get_xdata()) == [row["current_target"] * 100] * 2
        band = by_gid(ax, f"interval:{g}")
        x0, x1 = band.get_x(), band.get_x() + band.get_width()
        assert (x0, x1) == pytest.approx((row["recommended_low"] * 100,
                                          row["recommended_high"] * 100))
    assert list(by_gid(ax, "limit").get_ydata()) == [1.0, 1.0]  # max_share 1 % in %
    assert ax.get_yscale() == "log"
    # the evaluated time, not the history setting (28 days): 8 days of events minus the
    # first window (1 day) that is still filling: 10-06 00:00:04.433 .. 10-12 23:59:59.593 is
    # 6 d 23 h 59 min 55 s, in the two largest units, truncated, as the notes say it (it read
    # "7 d", rounded, beside notes saying "6 d 23 h of evaluated history"); every group alike
    assert (
        "(%)" in ax.get_xlabel()
        and "24 h window" in ax.get_xlabel()
        and "6 d 23 h of evaluated time" in ax.get_xlabel()
    )
    assert recal.summary["recommendation_note"].str.contains("6 d 23 h of evaluated history").all()
    assert " ".join(ax.get_ylabel().split()).startswith("share of time exhausted or worse (%)")
    labels = [" ".join(t.get_text().split()) for t in ax.get_legend().get_texts()]
    # the groups in the table's order (synth's captcha types), then every mark's key
    assert labels == ["recaptcha_v2", "turnstile", "image", "time exhausted+ at target",
                      "recommended target", "95% bootstrap interval", "current target",
                      "limit 1% exhausted"]


def test_recalibration_legend_says_a_capped_recommendation_is_capped():
    """Three days without a failure, one event a minute, 30 min window (g63recal: under 1 h, one
    failure in the 60-event window would stay there 1 h of 71 h, 1.4 % > the 1 % limit, and
    the window's rule withholds 0.997; 30 min of 71.5 h is 0.7 %): the rule alone gives the top
    candidate (0.9999: no target is ever exhausted), but the evaluated span holds 4,320 - 30 =
    4,290 events (the first 30 min are warm-up), which judge targets up to 1 - 10 / 4,290 =
    0.99767 only: the recommendation stops at the candidate below, 0.997 (steps of 0.001 there). The
    legend says so, with the figures, instead of keying a plain "recommended target"."""
    ts = pd.date_range("2026-01-01", periods=3 * 24 * 60, freq="1min", tz="UTC")
    r = recalibrate(as_events(ts, np.ones(len(ts), dtype=bool), ["success"] * len(ts)),
                    window="30min", target=0.99, n_boot=0)
    assert r.summary["recommended_capped"].tolist() == [True]
    ax = plot_recalibration(r, ax=plt.figure().gca())
    assert list(by_gid(ax, "recommended:all").get_xdata()) == [99.7, 99.7]
    assert [" ".join(t.get_text().split()) for t in ax.get_legend().get_texts()] == [
        "all", "recommended 99.7% (capped: as high as 4,290 events can judge)",
        "time exhausted+ at target", "current target", "limit 1% exhausted"]


def test_capped_recommendations_of_many_groups_are_keyed_each_and_the_grey_ones_together():
    """Nine groups without a failure, an event every 10 s in turn (2,880 each in 3 days, one
    every 90 s: 20 of them in the first 30 min's warm-up, 2,860 evaluated), 30 min window (under
    1 h the window's rule withholds them, g63recal: 1 h of 71 h is 1.4 % > 1 %): each capped at
    the candidate below 1 - 10 / 2,860 = 0.99650, 0.996. Six groups keep a colour (seven
    colours, the last one for "other"): each keyed with its figures; the three grey ones in one
    entry."""
    ts = pd.date_range("2026-01-01", periods=3 * 24 * 360, freq="10s", tz="UTC")
    k = np.array([f"g{i}" for i in range(9)])[np.arange(len(ts)) % 9]
    r = recalibrate(as_events(ts, np.ones(len(ts), dtype=bool), ["success"] * len(ts),
                              groups={"k": k}), by="k", window="30min", target=0.99, n_boot=0)
    ax = plot_recalibration(r, ax=plt.figure().gca())
    capped = [f"g{i}: recommended 99.6% (capped: as high as 2,860 events can judge)"
              for i in range(6)]
    assert [" ".join(t.get_text().split()) for t in ax.get_legend().get_texts()] == [
        *[f"g{i}" for i in range(6)], "other (3 groups; fewer failures, then events)", *capped,
        "recommended, capped by the events: 3 grey groups",
        # the six coloured groups share one line at 99.6 %: striped, keyed once
        "recommended 99.6%, one line striped in the colours of 6 groups: g0, g1, g2, g3, g4, g5",
        "time exhausted+ at target", "current target", "limit 1% exhausted"]


def test_recalibration_limit_status_changes_the_dots(history):
    events, _ = history
    r = recalibrate(events, by="captcha_type", limit_status="critical", max_share=0.05, n_boot=0)
    plt.figure()
    ax = plot_recalibration(r, logy=False)  # ax=None: the current axes
    assert ax is plt.gca()
    cand = r.candidates[r.candidates["captcha_type"] == "image"]
    np.testing.assert_allclose(by_gid(ax, "candidates:image").get_ydata(),
                               (cand["share_critical"] + cand["share_exhausted"]).to_numpy() * 100)
    assert list(by_gid(ax, "limit").get_ydata()) == [5.0, 5.0]
    # no bootstrap and no current target: no interval band, no current line, and neither keyed
    assert not [a for a in ax.patches if str(a.get_gid()).startswith("interval:")]
    assert not [a for a in ax.lines if str(a.get_gid()).startswith("current:")]
    assert [" ".join(t.get_text().split()) for t in ax.get_legend().get_texts()] == [
        "recaptcha_v2", "turnstile", "image", "time critical+ at target", "recommended target",
        "limit 5% critical"]
    assert ax.get_yscale() == "linear"


def test_recalibration_rejects_other_input():
    with pytest.raises(InputError, match="Recalibration"):
        plot_recalibration(pd.DataFrame({"x": [1]}))


@pytest.fixture(scope="module")
def comparison(history):
    events, incidents = history
    return compare_windows(events, SLO(target=0.9), ["1h", "6h", "24h", "calendar:day"],
                           by="captcha_type",
                           target={"recaptcha_v2": 0.85, "turnstile": 0.93, "image": 0.75},
                           min_dwell=["0s", "30min"], incidents=incidents)


def test_window_comparison_lines_hold_the_tables_values(comparison):
    fig, ax = plt.subplots()
    out = plot_window_comparison(comparison, ax=ax)
    assert out is ax and out.y2_ax is not None
    windows = ["1h", "6h", "1d", "calendar:day"]
    # the windows under the lower panel, spelled as the CLI's text spells them
    assert [t.get_text() for t in ax.y2_ax.get_xticklabels()] == ["1 h", "6 h", "24 h",
                                                                   "calendar:day"]
    for (g, dwell), sub in comparison.groupby(["captcha_type", "min_dwell"], observed=True):
        name = f"{g} · dwell {'0' if dwell == pd.Timedelta(0) else '30 min'}"
        sub = sub.set_index("window").loc[windows]
        line = by_gid(ax, f"transitions_per_day:{name}")
        np.testing.assert_array_equal(line.get_xdata(), np.arange(4))
        np.testing.assert_array_equal(line.get_ydata(), sub["transitions_per_day"].to_numpy())
        dashed = [a for a in ax.y2_ax.lines if a.get_gid() == f"detection_median:{name}"]
        assert len(dashed) == 1
        # NaT -> NaN (not drawn)
        minutes = sub["detection_median"].dt.total_seconds().to_numpy() / 60
        np.testing.assert_array_equal(dashed[0].get_ydata(), minutes)
    # the labels wrapped to their panels' height: their words, whatever the lines
    assert " ".join(ax.get_ylabel().split()) == "status changes per day (flapping)"
    assert " ".join(ax.y2_ax.get_ylabel().split()) == "median detection delay (min)"
    # a calendar window among those compared: the axis names it and the table's zone
    assert ax.y2_ax.get_xlabel().splitlines()[0] == "window (rolling, or calendar in UTC)"
    assert ax.y2_ax.get_xlabel().endswith("after its warm-up (a calendar window has none)")
    assert ax.get_xlabel() == ""
    # the second column has a panel of its own below the first: no mark can hide another's;
    # the windows are categories, so marks only, no line joining them (on either panel)
    top, below = ax.get_position(), ax.y2_ax.get_position()
    assert below.y1 < top.y0 and ax.get_shared_x_axes().joined(ax, ax.y2_ax)
    assert all(ln.get_linestyle() == "None" for ln in [*ax.lines, *ax.y2_ax.lines])


def test_window_comparison_span_in_a_zone_says_its_offsets_across_the_fall_back():
    """An hour of events across Berlin's fall-back (25 Oct 2026, 03:00 CEST -> 02:00 CET): the
    first, 00:30 UTC, and the last, 01:30 UTC, are both 02:30 on Berlin's clock, told apart by
    their offsets (+02:00, then +01:00); in UTC no offset is written."""
    ev = as_events(pd.date_range("2026-10-25 00:30", "2026-10-25 01:30", freq="1min", tz="UTC"),
                   [True] * 61)
    label = plot_window_comparison(compare_windows(ev, SLO(target=0.9), ["30min"],
                                                   tz="Europe/Berlin"),
                                   ax=plt.figure().gca(), y2=None).get_xlabel()
    assert label.splitlines()[1] == ("2026-10-25 02:30 +02:00 .. 2026-10-25 02:30 +01:00 "
                                     "Europe/Berlin:")
    label = plot_window_comparison(compare_windows(ev, SLO(target=0.9), ["30min"]),
                                   ax=plt.figure().gca(), y2=None).get_xlabel()
    assert label.splitlines()[1] == "2026-10-25 00:30 .. 2026-10-25 01:30 UTC:"
    plt.close("all")


def test_window_comparison_other_columns_and_no_second_axis(comparison):
    one = comparison[comparison["min_dwell"] == pd.Timedelta(0)]
    plt.figure()
    ax = plot_window_comparison(one, y="share_exhausted", y2=None, logy=False)
    assert ax.y2_ax is None
    sub = one[one["captcha_type"] == "image"].set_index("window").loc[["1h", "6h", "1d",
                                                                       "calendar:day"]]
    np.testing.assert_array_equal(by_gid(ax, "share_exhausted:image").get_ydata(),
                                  sub["share_exhausted"].to_numpy() * 100)  # shares in %
    # without incident columns the right axis defaults to share_exhausted
    # 50 h of events: every row has the day of evaluated time its shares need (drawn in full)
    ev = as_events(pd.date_range("2026-01-01", periods=3000, freq="1min"),
                   [i % 8 != 0 for i in range(3000)])
    t = compare_windows(ev, SLO(target=0.9), ["30min", "2h"])
    ax2 = plot_window_comparison(t, ax=plt.figure().gca())
    np.testing.assert_array_equal(ax2.y2_ax.lines[0].get_ydata(),
                                  t["share_exhausted"].to_numpy() * 100)
    assert ax2.lines[0].get_gid() == "transitions_per_day:all"
    # no calendar window compared; the span counted: the first event (00:00) to the last (2,999
    # minutes later: 2026-01-03 01:59)
    assert ax2.y2_ax.get_xlabel() == ("window (rolling)\n2026-01-01 00:00 .. 2026-01-03 01:59 UTC:"
                                      "\neach window over the time it held traffic, after its "
                                      "warm-up")
    with pytest.raises(SchemaError, match="detection_median"):
        plot_window_comparison(t, y2="detection_median")


def test_window_comparison_never_draws_a_rate_the_table_withholds():
    # one event a minute; b: hours 0-60, a: the last 30 of them. The observation ends at the last
    # event (60 h), so under the 12 h window a's evaluated time is 30 - 12 = 18 h (under the day
    # its shares and rates per day need), b's 48 h; under 1 h a has 29 h, b 59 h. The figure
    # leaves a's 12 h rate and share out and names a at the window, with no band over b's mark.
    ts = [*pd.date_range("2026-01-02 06:00", periods=30 * 60, freq="1min"),
          *pd.date_range("2026-01-01", periods=60 * 60, freq="1min")]
    ev = as_events(ts, [i % 7 != 0 for i in range(len(ts))],
                   groups={"g": ["a"] * 1800 + ["b"] * 3600})
    t = compare_windows(ev, SLO(target=0.9), ["1h", "12h"], by="g")
    hours = t.set_index(["g", "window"])["hours"]
    assert hours[("a", "12h")] == pytest.approx(18, abs=0.02)
    assert hours.drop(("a", "12h")).min() > 24
    ax = plot_window_comparison(t, ax=plt.figure().gca())
    for g in ("a", "b"):
        rows = t[t["g"] == g].set_index("window").loc[["1h", "12h"]]
        want = rows["transitions_per_day"].to_numpy(dtype=float, copy=True)
        share = rows["share_exhausted"].to_numpy() * 100
        if g == "a":
            want[1] = share[1] = np.nan  # withheld: a gap in the line, no point
        np.testing.assert_array_equal(by_gid(ax, f"transitions_per_day:{g}").get_ydata(), want)
        np.testing.assert_array_equal(by_gid(ax.y2_ax, f"share_exhausted:{g}").get_ydata(), share)
    # a is named for the 12 h window (x = 1) in one note under the x label, outside the panels
    # (in them it lay over b's mark); none on 1 h. No band drawn, so no key for one.
    for panel in (ax, ax.y2_ax):
        assert not [p for p in panel.patches if str(p.get_gid()).startswith("thin:")]
        assert not [x for x in panel.texts if str(x.get_gid()).startswith("thin_label:")]
    (words,) = [x for x in ax.y2_ax.texts if x.get_gid() == "thin_label"]
    assert " ".join(words.get_text().split()) == (
        "not drawn (too thin for a verdict: under 24 h evaluated, no event in it, or under 10 "
        "expected failures): a at 12 h")
    legend = [x.get_text() for x in ax.get_legend().get_texts()]
    assert "too thin for a verdict: not drawn" not in legend


def test_per_group_slos_sharing_one_window_name_it_on_the_axis(history):
    # the command line's --target GROUP=T,... binds one SLO per group (a PerGroup): targets differ,
    # the window is one (24 h), so the settings and the x label keep it, as with target={...}
    from budgetlab import PerGroup

    events, _ = history
    per = PerGroup({("recaptcha_v2",): SLO(0.93, "24h"), ("turnstile",): SLO(0.97, "24h"),
                    ("image",): SLO(0.88, "24h")})
    r = recalibrate(events, by="captcha_type", slo=per, n_boot=0)
    assert r.settings["window"] == pd.Timedelta("24h")
    ax = plot_recalibration(r)
    assert ax.get_xlabel() == ("target, on the rolling 24 h window, 6 d 23 h of evaluated time "
                               "(%)")
    # windows that differ are no one window: none is named
    mixed = PerGroup({("recaptcha_v2",): SLO(0.93, "24h"), ("turnstile",): SLO(0.97, "6h"),
                      ("image",): SLO(0.88, "24h")})
    assert recalibrate(events, by="captcha_type", slo=mixed, n_boot=0).settings["window"] is None


def test_window_axis_names_the_calendar_windows_zone():
    ev = as_events(pd.date_range("2026-01-01", periods=3000, freq="1min", tz="UTC"),
                   [i % 8 != 0 for i in range(3000)])
    t = compare_windows(ev, SLO(target=0.9), ["calendar:day"], tz="Europe/Berlin", warmup="2h")
    ax = plot_window_comparison(t, y2=None)
    # the span in the table's zone: 02:00 UTC (the first event plus the 2 h warmup) is 03:00 in
    # Berlin in January, the last event (01:59 UTC on the 3rd) 02:59
    assert ax.get_xlabel() == ("window (calendar in Europe/Berlin)\n2026-01-01 03:00 +01:00 .. "
                               "2026-01-03 02:59 +01:00 Europe/Berlin:\neach window over the "
                               "time it held traffic, after its warm-up (a calendar window has "
                               "none)")
