"""Latency drawings, checked through their artists against the tables they draw."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.dates as mdates
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import budgetlab as bl
from budgetlab.errors import InputError
from budgetlab.plotting import plot_latency_shares, plot_timeout_tradeoff


@pytest.fixture(scope="module")
def events():
    rng = np.random.default_rng(3)
    n = 300
    sec = np.round(rng.lognormal(2.0, 0.5, n), 3)
    kind = np.where(sec > 25, "timeout", "success")
    sec = np.where(kind == "timeout", 25.0, sec)
    ts = pd.Timestamp("2026-01-01", tz="UTC") + pd.to_timedelta(np.sort(rng.integers(0, 2 * 86400,
                                                                                     n)), unit="s")
    return pd.DataFrame({"ts": ts.as_unit("ns"), "ok": kind == "success",
                         "bucket": pd.Categorical(kind, categories=["success", "timeout"],
                                                  ordered=True),
                         "g": pd.Categorical(np.where(rng.random(n) < 0.5, "x", "y")),
                         "duration": pd.to_timedelta(sec, unit="s").as_unit("ns")})


def test_shares_lines_hold_the_shares(events):
    shares = bl.latency_profile(events, thresholds=["5s", "10s"], by="g").shares
    fig, ax = plt.subplots()
    plot_latency_shares(shares, ax=ax)
    assert len(ax.lines) == 4  # 2 groups x 2 thresholds
    for line, (_, part) in zip(ax.lines, shares.groupby(["g", "threshold"], observed=True),
                               strict=True):
        # in percent, as the CLI prints the shares ("within 10 s: 52.56 %")
        assert np.allclose(line.get_ydata(), part["share"] * 100)
    plt.close(fig)


def test_tradeoff_points_hold_the_table(events):
    """Each group's points hold its rows; only the candidates were measured, so no artist joins
    them (no line, not even a faint or dotted one: every artist's line style is "None"), and each
    candidate is an x tick named as given."""
    table = bl.timeout_tradeoff(events, timeouts=["10s", "20s", "25s"], by="g")
    fig, ax = plt.subplots()
    plot_timeout_tradeoff(table, ax=ax)
    right = [a for a in fig.axes if a is not ax][0]
    assert [ln.get_linestyle() for ln in [*ax.lines, *right.lines]] == ["None"] * 4
    assert [ln.get_marker() for ln in [*ax.lines, *right.lines]] == ["o", "o", "s", "s"]
    assert not ax.collections and not right.collections  # no fill or band between them either
    assert ax.get_xticks().tolist() == [10.0, 20.0, 25.0]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["10 s", "20 s", "25 s"]
    legend = ax.get_legend()
    assert [h.get_linestyle() for h in legend.legend_handles] == ["None"] * 4  # keys are dots
    for i, (_, part) in enumerate(table.groupby("g", observed=True)):
        assert ax.lines[i].get_xdata().tolist() == [10.0, 20.0, 25.0]
        # in percent, as the CLI prints the successes lost
        assert np.allclose(ax.lines[i].get_ydata(), part["successes_lost_share"] * 100)
        assert (
            right.lines[i].get_ydata().tolist()
            == part["wait_saved_per_attempt"].dt.total_seconds().tolist()
        )
    plt.close(fig)


def test_the_waiting_saved_axis_is_in_the_unit_the_cli_says_it_in():
    # by hand: three successes of 0.2, 0.5 and 0.9 s; a 0.4 s timeout saves (0.1 + 0.5) / 3 =
    # 0.2 s per attempt, a 0.8 s one 0.1 / 3 s: all under a second, said in ms by the CLI, so the
    # right axis is in ms: 200 and 33.3
    ts = pd.to_datetime(["2026-01-01 00:00", "2026-01-01 00:01", "2026-01-01 00:02"], utc=True)
    events = pd.DataFrame({"ts": ts.as_unit("ns"), "ok": True,
                           "bucket": pd.Categorical(["success"] * 3),
                           "duration": pd.to_timedelta([0.2, 0.5, 0.9], unit="s")})
    table = bl.timeout_tradeoff(events, timeouts=["0.4s", "0.8s"], client_timeout="1s")
    fig, ax = plt.subplots()
    plot_timeout_tradeoff(table, ax=ax)
    right = [a for a in fig.axes if a is not ax][0]
    assert right.get_ylabel() == "waiting saved per attempt (ms)"
    assert np.allclose(right.lines[0].get_ydata(), [200.0, 100 / 3])
    plt.close(fig)


def test_both_figures_state_the_span_they_count():
    # three attempts by hand: 2026-01-01 06:00, 2026-01-01 18:30 and 2026-01-03 02:15 UTC (in
    # Berlin, UTC+1 in January: 07:00 .. 03:15); the first and the last period of a day hold
    # part of a day only, which the label's span shows
    ts = pd.to_datetime(["2026-01-01 06:00", "2026-01-01 18:30", "2026-01-03 02:15"], utc=True)
    ev = pd.DataFrame({"ts": ts.as_unit("ns"), "ok": [True, True, False],
                       "bucket": pd.Categorical(["success", "success", "timeout"]),
                       "duration": pd.to_timedelta([2, 8, 30], unit="s").as_unit("ns")})
    ax = plot_latency_shares(bl.latency_profile(ev, thresholds=["5s"]).shares,
                             ax=plt.figure().gca(), tz="Europe/Berlin")
    assert ax.get_xlabel() == ("period start (Europe/Berlin; UTC days); attempts 2026-01-01 "
                               "07:00 +01:00 "
                               ".. 2026-01-03 03:15 +01:00")
    ax = plot_timeout_tradeoff(bl.timeout_tradeoff(ev, timeouts=["5s", "30s"]),
                               ax=plt.figure().gca())
    assert ax.get_xlabel() == ("client timeout (the candidates measured); attempts "
                               "2026-01-01 06:00 .. 2026-01-03 02:15 UTC")
    plt.close("all")


def test_a_wrong_table_is_refused(events):
    with pytest.raises(InputError, match="latency_profile"):
        plot_latency_shares(events)
    with pytest.raises(InputError, match="timeout_tradeoff"):
        plot_timeout_tradeoff(events)


def points_under_the_legend(ax, axes):
    """The drawn points (display pixels) of ``axes`` that fall inside ``ax``'s legend box."""
    box = ax.get_legend().get_window_extent()
    hidden = []
    for a in axes:
        for line in a.lines:
            xy = line.get_transform().transform(line.get_xydata())
            hidden += [p for p in xy if box.contains(*p)]
    return hidden


def test_no_legend_covers_a_point(events):
    """The shares within 5 s start low (the first point at the lower left, where the legend
    used to sit) and the trade-off's lines start high on the left: each legend lies above the
    plot area, clear of every point, as the CLI saves it (constrained layout, 11 x 6 in)."""
    shares = bl.latency_profile(events, thresholds=["5s", "10s", "30s"], by="g",
                                freq="6h").shares
    assert shares["share"].iloc[0] < 0.5  # the premise: the first point sits low
    fig, ax = plt.subplots(figsize=(11, 6), layout="constrained")
    plot_latency_shares(shares, ax=ax)
    fig.canvas.draw()
    assert points_under_the_legend(ax, [ax]) == []
    assert ax.get_legend().get_window_extent().y0 >= ax.get_window_extent().y1
    assert len(ax.get_legend().get_texts()) == 6
    plt.close(fig)
    table = bl.timeout_tradeoff(events, timeouts=["5s", "10s", "20s", "25s"], by="g")
    fig, ax = plt.subplots(figsize=(11, 6), layout="constrained")
    plot_timeout_tradeoff(table, ax=ax)
    fig.canvas.draw()
    assert points_under_the_legend(ax, fig.axes) == []
    assert ax.get_legend().get_window_extent().y0 >= ax.get_window_extent().y1
    assert len(ax.get_legend().get_texts()) == 4
    plt.close(fig)


def _three_minutes():
    # 36 attempts 5 s apart, 10:00:00 .. 10:02:55: one period of 1 h (it starts at 10:00)
    ts = pd.date_range("2026-03-01 10:00", periods=36, freq="5s", tz="UTC").as_unit("ns")
    return pd.DataFrame({"ts": ts, "ok": True, "bucket": pd.Categorical(["success"] * 36),
                         "duration": pd.to_timedelta(np.arange(36) % 9 + 1, unit="s")})


@pytest.mark.parametrize(("freq", "attrs", "want"), [
    # the period 10:00 .. 11:00, padded by 5 % (3 min) either side
    ("1h", True, ("2026-03-01 09:57", "2026-03-01 11:03")),
    # the period from latency_profile's attrs
    (None, True, ("2026-03-01 09:57", "2026-03-01 11:03")),
    # without the period: one hour either side of its start
    (None, False, ("2026-03-01 09:00", "2026-03-01 11:00")),
])
def test_a_log_shorter_than_one_period_keeps_its_points_in_view(freq, attrs, want):
    # matplotlib alone widened the lone period start to an axis of four years (2024 .. 2028)
    shares = bl.latency_profile(_three_minutes(), thresholds=["5s"], freq="1h").shares
    assert len(shares) == 1
    if not attrs:
        shares = shares.copy()
        shares.attrs.clear()
    ax = plot_latency_shares(shares, ax=plt.figure().gca(), freq=freq)
    lo, hi = ax.get_xlim()
    want_lo, want_hi = (mdates.date2num(pd.Timestamp(w).to_pydatetime()) for w in want)
    assert (lo, hi) == pytest.approx((want_lo, want_hi), abs=1e-9)
    assert hi - lo < 1.0  # within a day, the point inside
    assert lo < mdates.date2num(pd.Timestamp("2026-03-01 10:00").to_pydatetime()) < hi
    plt.close("all")


def _lone_period(seconds):
    # one period of 1 h (10:00 .. 10:01): attempts a few seconds apart, their durations given
    ts = pd.date_range("2026-03-01 10:00", periods=len(seconds), freq="5s", tz="UTC").as_unit("ns")
    return pd.DataFrame({"ts": ts, "ok": True, "bucket": pd.Categorical(["success"] * len(ts)),
                         "duration": pd.to_timedelta(seconds, unit="s")})


@pytest.mark.parametrize(("seconds", "share", "want"), [
    # 1 of 10 attempts within 5 s: share 0.1, drawn 10 %; the axis 10 .. 100 % padded by 4.5
    # either side (matplotlib alone padded the lone point by 5 % of it, on the bottom edge)
    ([1] + [20] * 9, 0.1, (5.5, 104.5)),
    # all within 5 s: 100 %; the axis 90 .. 100 % padded by 0.5 (the point was on the top edge)
    ([1] * 10, 1.0, (89.5, 100.5)),
    # none within 5 s: 0 %; the axis 0 .. 100 % padded by 5
    ([20] * 10, 0.0, (-5.0, 105.0)),
])
def test_a_lone_point_is_inside_the_y_range(seconds, share, want):
    shares = bl.latency_profile(_lone_period(seconds), thresholds=["5s"], freq="1h").shares
    assert shares["share"].tolist() == [share]
    ax = plot_latency_shares(shares, ax=plt.figure().gca(), freq="1h")
    lo, hi = ax.get_ylim()
    assert (lo, hi) == pytest.approx(want, abs=1e-12)
    drawn = np.concatenate([line.get_ydata() for line in ax.lines])
    assert drawn.tolist() == [share * 100]
    # strictly inside, at least 4 % of the axis from either edge
    assert lo + 0.04 * (hi - lo) < drawn.min() and drawn.max() < hi - 0.04 * (hi - lo)
    plt.close("all")


def test_every_drawn_share_is_inside_the_y_range(events):
    # several groups and thresholds: shares at 1 (the top) and the lowest one both inside
    # (12 h periods: some 37 attempts a group, none too thin to draw)
    shares = bl.latency_profile(events, thresholds=["5s", "10s", "30s"], by=["g"],
                                freq="12h").shares
    assert shares["attempts"].min() >= 20
    ax = plot_latency_shares(shares, ax=plt.figure().gca(), freq="12h")
    drawn = np.concatenate([line.get_ydata() for line in ax.lines])
    assert drawn.max() == 100.0  # some period's attempts all succeeded within the threshold
    lo, hi = ax.get_ylim()
    low = min(drawn.min(), 90.0)
    assert (lo, hi) == pytest.approx((low - 0.05 * (100 - low), 100 + 0.05 * (100 - low)))
    assert lo < drawn.min() and drawn.max() < hi
    plt.close("all")


def _all_quick():
    # two groups, two 1 h periods (24 attempts each a group: not too thin to draw), every
    # attempt a success within 2 s: each share is exactly 1
    ts = pd.date_range("2026-03-01 10:00", periods=96, freq="75s", tz="UTC").as_unit("ns")
    return pd.DataFrame({"ts": ts, "ok": True, "bucket": pd.Categorical(["success"] * 96),
                         "g": pd.Categorical(["x", "y"] * 48),
                         "duration": pd.to_timedelta(np.arange(96) % 2 + 1, unit="s")})


def test_lines_at_one_stay_visible_as_nested_rings():
    """Four lines (2 groups x 2 thresholds) all at share 1 lie on one another: the markers of
    each line are smaller than those of the line drawn before, by at least 2 pt (a ring of 1 pt,
    1.5 px at the CLI's 110 dpi, around the next), and the legend says the markers nest. A
    group's thresholds share its colour: a marker on its own group's has a thin white rim."""
    from budgetlab.plotting.latency import LINES_MEET

    shares = bl.latency_profile(_all_quick(), thresholds=["5s", "10s"], by="g", freq="1h").shares
    ax = plot_latency_shares(shares, ax=plt.figure().gca(), freq="1h")
    assert [line.get_ydata().tolist() for line in ax.lines] == [[100.0, 100.0]] * 4
    sizes = [line.get_markersize() for line in ax.lines]
    assert all(a - b >= 2.0 for a, b in zip(sizes[:-1], sizes[1:], strict=True))
    # each threshold its marker (dots, then squares), filled; the second of a group rimmed
    assert [line.get_marker() for line in ax.lines] == ["o", "s", "o", "s"]
    assert [line.get_markeredgewidth() for line in ax.lines] == [0.0, 0.5, 0.0, 0.5]
    assert {line.get_markeredgecolor() for line in ax.lines[1::2]} == {"white"}
    legend = ax.get_legend()
    assert legend.get_title().get_text() == LINES_MEET
    # the legend's keys show the same dots, so a ring is matched to its line
    assert [h.get_markersize() for h in legend.legend_handles] == sizes
    assert [t.get_text() for t in legend.get_texts()] == ["x within 5 s", "x within 10 s",
                                                          "y within 5 s", "y within 10 s"]
    plt.close("all")
    # one line: nothing meets, no title
    one = shares[(shares["g"] == "x") & (shares["threshold"] == pd.Timedelta("5s"))]
    ax = plot_latency_shares(one.assign(g=one["g"].cat.remove_unused_categories()),
                             ax=plt.figure().gca(), freq="1h")
    assert ax.get_legend().get_title().get_text() == ""
    plt.close("all")
    # two lines apart (1 of 10 within 5 s, all within 30 s): dots of one size, no title; one
    # period: 3.5 pt larger than the 4.5 pt dots of several periods
    apart = bl.latency_profile(_lone_period([1] + [20] * 9), thresholds=["5s", "30s"],
                               freq="1h").shares
    assert apart["share"].tolist() == [0.1, 1.0]
    ax = plot_latency_shares(apart, ax=plt.figure().gca(), freq="1h")
    assert [line.get_markersize() for line in ax.lines] == [8.0, 8.0]
    assert ax.get_legend().get_title().get_text() == ""
    plt.close("all")
    # 999 of 1,000 within 5 s and all within 30 s: 0.999 and 1 lie 0.001 apart, under 2 % of
    # the y range (0.895 .. 1.005: 0.0022): the dots would cover each other, so they nest
    close = bl.latency_profile(_lone_period([1] * 999 + [20]), thresholds=["5s", "30s"],
                               freq="1D").shares
    assert close["share"].tolist() == [0.999, 1.0]
    ax = plot_latency_shares(close, ax=plt.figure().gca(), freq="1D")
    assert [line.get_markersize() for line in ax.lines] == [10.5, 8.0]  # one period: + 3.5
    assert ax.get_legend().get_title().get_text() == LINES_MEET


def test_tradeoff_points_at_the_current_timeout_stay_visible(events):
    """At 25 s, the timeout in force (every timed-out attempt lasted 25 s, no success longer),
    both groups lose no success and save no waiting: four points at (25, 0) on the two axes.
    Their dots nest (the successes lost first, then the waiting saved) and the legend says so."""
    from budgetlab.plotting.timeout_tradeoff import POINTS_MEET

    table = bl.timeout_tradeoff(events, timeouts=["10s", "25s"], by="g")
    fig, ax = plt.subplots()
    plot_timeout_tradeoff(table, ax=ax)
    right = [a for a in fig.axes if a is not ax][0]
    lines = [*ax.lines, *right.lines]
    assert [(ln.get_xdata()[-1], ln.get_ydata()[-1]) for ln in lines] == [(25.0, 0.0)] * 4
    sizes = [ln.get_markersize() for ln in lines]
    assert all(a - b >= 2.0 for a, b in zip(sizes[:-1], sizes[1:], strict=True))
    assert ax.get_legend().get_title().get_text() == POINTS_MEET
    plt.close(fig)


def test_thresholds_are_named_with_every_digit_given():
    """A threshold is a given value, named as written: 1,234,567 ns is 1.234567 ms (below a
    second in ms, never 0.001234567 s) and 12.345678 s stays 12.345678 s (six significant digits
    said 0.00123457 s and 12.3457 s)."""
    shares = bl.latency_profile(_all_quick(), thresholds=["1234567ns", "12.345678s"],
                                freq="1h").shares
    ax = plot_latency_shares(shares, ax=plt.figure().gca(), freq="1h")
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["within 1.234567 ms",
                                                                   "within 12.345678 s"]
    plt.close("all")


def test_the_waiting_saved_never_lies_over_the_successes_lost():
    """Two timeouts: each group's successes lost and waiting saved both fall from their largest
    value to 0. Each scaled to its own axis top, the two lines coincided (loghub's OpenStack
    sample showed one line for two). Zero sits at one height on both axes, 0.05 / 1.05 up (a
    margin of 5 % of the range above it); the successes lost's largest value at
    (1 / 1.05 + 0.05) / 1.05 of the height, the waiting saved's at (1 / 2.1 + 0.05) / 1.05."""
    table = pd.DataFrame({
        "client_timeout": pd.to_timedelta([0.5, 1.0], unit="s"),
        "successes_lost_share": [0.0184, 0.0], "wait_saved_per_attempt":
        pd.to_timedelta([0.00141, 0.0], unit="s")})
    fig, ax = plt.subplots(figsize=(8, 5))
    plot_timeout_tradeoff(table, ax=ax)
    right = [a for a in fig.axes if a is not ax][0]
    fig.canvas.draw()

    def height_share(axis, line):  # the first point's height as a share of the axes
        y = line.get_transform().transform(line.get_xydata())[0, 1]
        box = axis.get_window_extent()
        return (y - box.y0) / box.height

    assert height_share(ax, ax.lines[0]) == pytest.approx((1 / 1.05 + 0.05) / 1.05)
    assert height_share(right, right.lines[0]) == pytest.approx((1 / 2.1 + 0.05) / 1.05)

    def zero_share(axis):
        low, high = axis.get_ylim()
        return -low / (high - low)

    assert zero_share(ax) == pytest.approx(zero_share(right)) == pytest.approx(0.05 / 1.05)
    plt.close(fig)


@pytest.mark.parametrize(("freq", "words"), [
    ("1h", "per 1 h period"), ("1D", "per 24 h period"), ("2D", "per 2 d period"),
    (None, "over the whole log"),
])
def test_the_y_label_says_the_period_and_a_lone_point_is_a_larger_dot(freq, words):
    # a 3-minute log: one period whatever its length; it drew a 4.5 pt dot with no word of the
    # period's length (an axis a day wide for the CLI's default --freq 1D)
    shares = bl.latency_profile(_three_minutes(), thresholds=["5s"], freq=freq).shares
    assert shares["period"].nunique() == 1
    ax = plot_latency_shares(shares, ax=plt.figure().gca())
    assert ax.get_ylabel() == ("share of attempts that succeeded within\nthe threshold "
                               f"{words} (%)")
    (line,) = ax.lines
    assert (line.get_marker(), line.get_linestyle(), line.get_markersize()) == ("o", "None", 8.0)
    (handle,) = ax.get_legend().legend_handles
    assert handle.get_linestyle() == "None"  # the legend's key a dot too, not a line
    plt.close("all")
    # freq= names the period of a table without attrs; without either nothing is claimed
    bare = shares.copy()
    bare.attrs.clear()
    ax = plot_latency_shares(bare, ax=plt.figure().gca(), freq="6h")
    assert "per 6 h period" in ax.get_ylabel()
    ax = plot_latency_shares(bare, ax=plt.figure().gca())
    assert "period" not in ax.get_ylabel() and "whole log" not in ax.get_ylabel()
    plt.close("all")


def test_several_periods_draw_lines_of_small_dots(events):
    # 2 days of events by day: two points a line, joined, 4.5 pt dots, "per 24 h period"
    shares = bl.latency_profile(events, thresholds=["5s"], freq="1D").shares
    ax = plot_latency_shares(shares, ax=plt.figure().gca())
    (line,) = ax.lines
    assert len(line.get_xdata()) == 2
    assert (line.get_linestyle(), line.get_markersize()) == ("-", 4.5)
    assert "per 24 h period" in ax.get_ylabel()
    plt.close("all")


def _shares_by_hand(periods, shares, *, freq="10min", group="a"):
    """A shares table as latency_profile writes it, one group and threshold, its rows (periods
    with attempts, 40 each: not too thin to draw) given by hand: a period left out held no
    attempt."""
    table = pd.DataFrame({"g": pd.Categorical([group] * len(periods)),
                          "period": pd.to_datetime(periods, utc=True).as_unit("ns"),
                          "threshold": pd.Timedelta("1s"), "attempts": 40, "good": 20,
                          "share": shares, "share_low": 0.1, "share_high": 0.9,
                          "at_or_above_timeout": False})
    if freq is not None:
        table.attrs["freq"] = freq
    return table


def test_a_line_breaks_at_periods_without_attempts():
    """Periods of 10 min: attempts at 00:00, 00:10, 00:40 and 00:50; none at 00:20 and 00:30.
    The line runs 00:00 - 00:10 and 00:40 - 00:50 and breaks between (one NaN point at 00:20,
    the first empty period), never a share joined across 30 min without attempts; the legend's
    title says what the break means."""
    from budgetlab.plotting.latency import NO_ATTEMPTS

    shares = _shares_by_hand(["2026-01-01 00:00", "2026-01-01 00:10", "2026-01-01 00:40",
                              "2026-01-01 00:50"], [1.0, 0.5, 0.25, 0.75])
    ax = plot_latency_shares(shares, ax=plt.figure().gca())
    line, = ax.lines
    x = [f"{mdates.num2date(v):%H:%M}" for v in mdates.date2num(line.get_xdata())]
    assert x == ["00:00", "00:10", "00:20", "00:40", "00:50"]
    y = line.get_ydata()
    assert y[[0, 1, 3, 4]].tolist() == [100.0, 50.0, 25.0, 75.0] and np.isnan(y[2])
    assert ax.get_legend().get_title().get_text() == NO_ATTEMPTS
    plt.close("all")


@pytest.mark.parametrize("freq", ["10min", None])
def test_two_groups_break_each_at_their_own_empty_periods(freq):
    """Group a has attempts in every 10 min period 00:00 .. 00:30; group b at 00:00 and 00:30
    only. Only b's line breaks (at 00:10). Without the period (no attrs), it is the largest that
    divides every spacing of the table's starts, 10 min here."""
    a = _shares_by_hand([f"2026-01-01 00:{m:02d}" for m in (0, 10, 20, 30)],
                        [1.0, 1.0, 0.5, 1.0], freq=freq)
    b = _shares_by_hand(["2026-01-01 00:00", "2026-01-01 00:30"], [0.25, 0.75], freq=freq,
                        group="b")
    shares = pd.concat([a, b], ignore_index=True)
    shares["g"] = pd.Categorical(shares["g"].astype(str))
    shares.attrs = a.attrs
    ax = plot_latency_shares(shares, ax=plt.figure().gca())
    line_a, line_b = ax.lines
    assert line_a.get_ydata().tolist() == [100.0, 100.0, 50.0, 100.0]
    assert len(line_b.get_ydata()) == 3 and np.isnan(line_b.get_ydata()[1])
    assert mdates.num2date(mdates.date2num(line_b.get_xdata()[1])).minute == 10
    plt.close("all")


def test_no_break_no_words():
    """Adjacent periods: nothing breaks, the legend has no title about breaks."""
    shares = _shares_by_hand(["2026-01-01 00:00", "2026-01-01 00:10"], [1.0, 0.5])
    ax = plot_latency_shares(shares, ax=plt.figure().gca())
    assert ax.lines[0].get_ydata().tolist() == [100.0, 50.0]
    assert ax.get_legend().get_title().get_text() == ""
    plt.close("all")


def test_tradeoff_draws_percent_in_the_shared_group_colours():
    """The successes lost are in percent, as the CLI prints them ("successes lost 50.00 % of
    attempts"), and each group takes the colour of the one rule of every figure: the names
    sorted, then Okabe–Ito blue, vermillion. Hand-counted: at a 5 s timeout, alpha loses its 8 s
    success of 3 attempts (33.3 %), zeta its 6 s and 7 s successes of 4 (50 %); at 30 s none."""
    ts = pd.to_datetime(["2026-01-01"] * 7, utc=True).as_unit("ns")
    ev = pd.DataFrame({"ts": ts, "ok": [True, True, False, True, True, True, False],
                       "bucket": pd.Categorical(["success"] * 2 + ["timeout"] + ["success"] * 3
                                                + ["timeout"]),
                       "g": pd.Categorical(["alpha"] * 3 + ["zeta"] * 4),
                       "duration": pd.to_timedelta([2, 8, 30, 1, 6, 7, 30], unit="s")})
    fig, ax = plt.subplots()
    plot_timeout_tradeoff(bl.timeout_tradeoff(ev, timeouts=["5s", "30s"], by="g"), ax=ax)
    right = [a for a in fig.axes if a is not ax][0]
    lost = {ln.get_label().split(":")[0]: ln for ln in ax.lines}
    assert {g: matplotlib.colors.to_hex(ln.get_color()) for g, ln in lost.items()} == {
        "alpha": "#0072b2", "zeta": "#d55e00"}
    assert [matplotlib.colors.to_hex(ln.get_color()) for ln in right.lines] == ["#0072b2",
                                                                                "#d55e00"]
    assert np.allclose(lost["alpha"].get_ydata(), [100 / 3, 0.0])
    assert np.allclose(lost["zeta"].get_ydata(), [50.0, 0.0])
    assert "%" in ax.get_ylabel() and "share" not in ax.get_ylabel()
    plt.close(fig)


def test_tradeoff_legend_sorts_the_groups_and_the_right_axis_ticks_its_values_only():
    """Groups of a categorical key whose categories are not sorted (a log's first appearance,
    as ``bl.synth.generate`` gives them): the legend lists them sorted, as the command does.
    Hand-computed waiting saved at a 5 s timeout: zeta (1, 6, 7 s successes, a 30 s timeout)
    (0 + 1 + 2 + 25) / 4 = 7 s, alpha (2, 8 s, a 30 s timeout) (0 + 3 + 25) / 3 = 9.33 s: the
    right axis keeps them in its lower half (its top above 2 x 9.33 s) and is ticked 0 .. 10
    (steps of 2): up to the first tick at or above the largest value (it stopped at 8, under
    the 9.33 s point), none beyond."""
    ts = pd.to_datetime(["2026-01-01"] * 7, utc=True).as_unit("ns")
    ev = pd.DataFrame({"ts": ts, "ok": [True, True, True, False, True, True, False],
                       "bucket": pd.Categorical(["success"] * 3 + ["timeout"] + ["success"] * 2
                                                + ["timeout"]),
                       "g": pd.Categorical(["zeta"] * 4 + ["alpha"] * 3,
                                           categories=["zeta", "alpha"]),
                       "duration": pd.to_timedelta([1, 6, 7, 30, 2, 8, 30], unit="s")})
    fig, ax = plt.subplots()
    plot_timeout_tradeoff(bl.timeout_tradeoff(ev, timeouts=["5s", "30s"], by="g"), ax=ax)
    right = [a for a in fig.axes if a is not ax][0]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [
        "alpha: successes lost", "zeta: successes lost", "alpha: waiting saved",
        "zeta: waiting saved"]
    assert np.allclose([ln.get_ydata()[0] for ln in right.lines], [28 / 3, 7.0])
    assert right.get_ylim()[1] > 2 * 28 / 3
    assert right.get_yticks().tolist() == [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]
    plt.close(fig)


def test_shares_groups_in_name_order_and_incidents_in_the_legend():
    """The groups of a categorical key come in the sorted order of their names, as
    plot_timeout_tradeoff and the command list them, not in the categories' order (a log's
    first appearance); an incident is shaded over its own hand-given span, named "incident" in
    the legend after the groups (a column of its own), and one outside the periods does not
    widen the axis."""
    ts = pd.date_range("2026-01-01", periods=288, freq="5min", tz="UTC").as_unit("ns")
    ev = pd.DataFrame({"ts": ts, "ok": True,  # 36 attempts a group and 6 h period
                       "bucket": pd.Categorical(["success"] * 288),
                       "g": pd.Categorical(["zeta", "alpha"] * 144, categories=["zeta", "alpha"]),
                       "duration": pd.to_timedelta([2] * 288, unit="s")})
    shares = bl.latency_profile(ev, thresholds=["10s", "5s"], by="g", freq="6h").shares
    plain = plot_latency_shares(shares, ax=plt.figure().gca(), freq="6h")
    span = plain.get_xlim()
    incidents = pd.DataFrame({"start": pd.to_datetime(["2026-01-01 03:00", "2027-05-01 00:00"],
                                                      utc=True),
                              "end": pd.to_datetime(["2026-01-01 05:30", "2027-05-02 00:00"],
                                                    utc=True)})
    ax = plot_latency_shares(shares, ax=plt.figure().gca(), freq="6h", incidents=incidents)
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert texts == ["alpha within 5 s", "alpha within 10 s", "zeta within 5 s",
                     "zeta within 10 s", "incident"]
    # a column per group, its thresholds below, and the incident a column of its own
    ax.figure.canvas.draw()
    x = [round(t.get_window_extent().x0) for t in ax.get_legend().get_texts()]
    assert x[0] == x[1] < x[2] == x[3] < x[4]
    shaded = [p for p in ax.patches if p.get_gid() == "incident"]
    assert len(shaded) == 2  # both drawn; the second lies outside the axis
    x0, x1 = shaded[0].get_x(), shaded[0].get_x() + shaded[0].get_width()
    assert (mdates.num2date(x0).replace(tzinfo=None), mdates.num2date(x1).replace(tzinfo=None)) \
        == (pd.Timestamp("2026-01-01 03:00").to_pydatetime(),
            pd.Timestamp("2026-01-01 05:30").to_pydatetime())
    assert ax.get_xlim() == span
    plt.close("all")


def test_three_groups_of_three_thresholds_and_an_incident_keep_a_column_each():
    """Notebook 05's legend: 3 groups x 3 thresholds and "incident", 10 entries in 4 columns.
    Matplotlib balances them 3, 3, 2, 2: the third group's last threshold led the fourth
    column, above the incident. A blank entry pads the incident's column: 3, 3, 3, 2 (the
    incident and the blank), each group a column, the incident one of its own."""
    ts = pd.date_range("2026-01-01", periods=720, freq="1min", tz="UTC").as_unit("ns")
    ev = pd.DataFrame({"ts": ts, "ok": True, "bucket": pd.Categorical(["success"] * 720),
                       "g": pd.Categorical(["a", "b", "c"] * 240),  # 40 a group and 2 h period
                       "duration": pd.to_timedelta(np.arange(720) % 9 + 1, unit="s")})
    shares = bl.latency_profile(ev, thresholds=["3s", "6s", "9s"], by="g", freq="2h").shares
    incidents = pd.DataFrame({"start": pd.to_datetime(["2026-01-01 04:00"], utc=True),
                              "end": pd.to_datetime(["2026-01-01 05:00"], utc=True)})
    fig, ax = plt.subplots(figsize=(11, 4.5), layout="constrained")
    plot_latency_shares(shares, ax=ax, incidents=incidents)
    fig.canvas.draw()
    texts = ax.get_legend().get_texts()
    assert [t.get_text() for t in texts][-2:] == ["incident", ""]
    x = [round(t.get_window_extent().x0) for t in texts]
    assert x[0] == x[1] == x[2] < x[3] == x[4] == x[5] < x[6] == x[7] == x[8] < x[9] == x[10]
    assert not ax.get_legend().legend_handles[-1].get_visible()  # the blank: no key
    plt.close("all")


def test_one_groups_dot_and_square_at_zero_nest_across_the_two_axes():
    """One group, the timeout in force among the candidates: there it loses and saves nothing,
    and zero sits at one height on both axes, so its dot and its square lie on each other. They
    nest (the dot drawn first, 2.5 pt larger: nested_sizes(2) = 7.0, 4.5, plus the 2 pt every
    trade-off point gets) and the legend says so; drawn alike, the square hid the dot."""
    from budgetlab.plotting.timeout_tradeoff import POINTS_MEET

    ev = pd.DataFrame({"ts": pd.to_datetime(["2026-01-01"] * 3, utc=True).as_unit("ns"),
                       "ok": [True, True, False],
                       "bucket": pd.Categorical(["success", "success", "timeout"]),
                       "duration": pd.to_timedelta([2, 8, 30], unit="s")})
    ax = plot_timeout_tradeoff(bl.timeout_tradeoff(ev, timeouts=["5s", "30s"]),
                               ax=plt.figure().gca())
    right = [a for a in ax.figure.axes if a is not ax][0]
    assert ax.lines[0].get_ydata()[-1] == 0.0 and right.lines[0].get_ydata()[-1] == 0.0
    assert [ax.lines[0].get_markersize(), right.lines[0].get_markersize()] == [9.0, 6.5]
    # the square is of the dot's colour: a white rim shows it on the dot
    assert right.lines[0].get_color() == ax.lines[0].get_color()
    assert (right.lines[0].get_markeredgecolor(), right.lines[0].get_markeredgewidth()) == (
        "white", 0.8)
    assert ax.get_legend().get_title().get_text() == POINTS_MEET
    plt.close("all")


def _zeta_and_alpha():
    """Two groups over three hours (36 attempts an hour each), zeta first in the log (its
    category first): zeta's attempts take 1 to 11 s, alpha's 2 to 12 s; every attempt a
    success."""
    ts = pd.date_range("2026-01-01", periods=216, freq="50s", tz="UTC").as_unit("ns")
    return pd.DataFrame({"ts": ts, "ok": True, "bucket": pd.Categorical(["success"] * 216),
                         "g": pd.Categorical(["zeta", "alpha"] * 108,
                                             categories=["zeta", "alpha"]),
                         "duration": pd.to_timedelta(np.arange(216) % 12 + 1, unit="s")})


def test_shares_colour_each_group_as_the_tradeoff_does_and_style_each_threshold():
    """The same group has the same colour in both latency figures: the trade-off's colour of a
    group (its "successes lost" dots; an oracle the shares code does not touch) is the colour of
    that group's every line in the shares figure, which drew each line in matplotlib's next
    cycle colour (alpha within 5 s blue, alpha within 10 s orange, zeta green and red). A
    group's thresholds differ by line style and marker, the shortest solid with dots, and the
    legend's keys show them, so that a reader tells which style is which threshold."""
    ev = _zeta_and_alpha()
    fig, ax = plt.subplots()
    plot_timeout_tradeoff(bl.timeout_tradeoff(ev, timeouts=["10s", "12s"], by="g",
                                              client_timeout="12s"), ax=ax)
    oracle = {ln.get_label().split(":")[0]: matplotlib.colors.to_hex(ln.get_color())
              for ln in ax.lines}
    assert set(oracle) == {"alpha", "zeta"} and oracle["alpha"] != oracle["zeta"]
    shares = bl.latency_profile(ev, thresholds=["10s", "5s"], by="g", freq="1h").shares
    ax = plot_latency_shares(shares, ax=plt.figure().gca())
    drawn = {ln.get_label(): ln for ln in ax.lines}
    assert list(drawn) == ["alpha within 5 s", "alpha within 10 s", "zeta within 5 s",
                           "zeta within 10 s"]
    for group in ("alpha", "zeta"):
        short, long = drawn[f"{group} within 5 s"], drawn[f"{group} within 10 s"]
        assert matplotlib.colors.to_hex(short.get_color()) == oracle[group]
        assert matplotlib.colors.to_hex(long.get_color()) == oracle[group]
        assert (short.get_linestyle(), short.get_marker()) == ("-", "o")
        assert (long.get_linestyle(), long.get_marker()) == ("--", "s")
    keys = dict(zip([t.get_text() for t in ax.get_legend().get_texts()],
                    ax.get_legend().legend_handles, strict=True))
    for label, line in drawn.items():
        assert (keys[label].get_linestyle(), keys[label].get_marker()) == (
            line.get_linestyle(), line.get_marker())
        assert keys[label].get_color() == line.get_color()
    plt.close("all")


def test_lone_points_tell_their_thresholds_apart_by_marker():
    """One period (freq=None): no line is drawn, each point a marker alone; a group's two
    thresholds are a dot and a square of the group's colour, in the legend too."""
    shares = bl.latency_profile(_zeta_and_alpha(), thresholds=["5s", "10s"], by="g",
                                freq=None).shares
    ax = plot_latency_shares(shares, ax=plt.figure().gca())
    assert [(ln.get_linestyle(), ln.get_marker()) for ln in ax.lines] == [
        ("None", "o"), ("None", "s")] * 2
    assert [(h.get_linestyle(), h.get_marker()) for h in ax.get_legend().legend_handles] == [
        ("None", "o"), ("None", "s")] * 2
    plt.close("all")


def test_more_thresholds_than_styles_are_refused_four_drawn():
    """Four styles (solid, dashed, dotted, dash-dot): four thresholds are drawn, one style
    each; a fifth would repeat one, two thresholds of a group drawn alike: refused, naming the
    thresholds and how to draw some of them."""
    from budgetlab.errors import ConfigError

    ev = _zeta_and_alpha()
    four = bl.latency_profile(ev, thresholds=["2s", "4s", "6s", "8s"], by="g", freq="1h").shares
    ax = plot_latency_shares(four, ax=plt.figure().gca())
    assert [(ln.get_linestyle(), ln.get_marker()) for ln in ax.lines[:4]] == [
        ("-", "o"), ("--", "s"), (":", "^"), ("-.", "D")]
    five = bl.latency_profile(ev, thresholds=["2s", "4s", "6s", "8s", "10s"], by="g",
                              freq="1h").shares
    with pytest.raises(ConfigError, match=r"at most 4 thresholds.*has 5 \(2 s, 4 s, 6 s, 8 s, "
                                          r"10 s\).*isin"):
        plot_latency_shares(five, ax=plt.figure().gca())
    plt.close("all")


def test_groups_beyond_the_colours_are_grey_as_in_the_tradeoff():
    """Nine groups, seven colours: the six with the most attempts keep theirs (g3 .. g8, as the
    trade-off colours them), the other three are grey under one legend entry a threshold, and
    the legend, too narrow for a column per group, keeps each group's thresholds in one column
    (two groups a column), never a group split over two."""
    ts = pd.date_range("2026-01-01", periods=1350, freq="20s", tz="UTC").as_unit("ns")
    # g<k> has 30 * (k + 1) attempts (in 10 min and more: not too thin to draw): g8 the most
    names = [f"group_with_a_long_name_{k}" for k in range(9) for _ in range(30 * (k + 1))]
    ev = pd.DataFrame({"ts": ts, "ok": True, "bucket": pd.Categorical(["success"] * 1350),
                       "g": pd.Categorical(names),
                       "duration": pd.to_timedelta(np.arange(1350) % 7 + 1, unit="s")})
    fig, ax = plt.subplots()
    plot_timeout_tradeoff(bl.timeout_tradeoff(ev, timeouts=["5s", "7s"], by="g",
                                              client_timeout="7s"), ax=ax)
    oracle = {ln.get_label().split(":")[0]: matplotlib.colors.to_hex(ln.get_color())
              for ln in ax.lines if not ln.get_label().startswith("_")}
    fig, ax = plt.subplots(figsize=(11, 6), layout="constrained")
    shares = bl.latency_profile(ev, thresholds=["3s", "6s"], by="g", freq="1h").shares
    plot_latency_shares(shares, ax=ax)
    drawn = {ln.get_label().rsplit(" within ", 1)[0]: matplotlib.colors.to_hex(ln.get_color())
             for ln in ax.lines if not ln.get_label().startswith("_")}
    assert drawn == oracle and drawn["other (3 groups)"] == "#a0a0a0"
    fig.canvas.draw()
    # blank entries (no key, no text) pad the columns where matplotlib's balanced columns would
    # split a group (14 entries in 4 columns: 4, 4, 3, 3)
    texts = [t for t in ax.get_legend().get_texts() if t.get_text()]
    assert len(texts) == 14
    x = [round(t.get_window_extent().x0) for t in texts]
    assert len(set(x)) < 7  # fewer columns than groups: it did not fit one a group
    assert all(x[k] == x[k + 1] for k in range(0, 14, 2))  # a group's thresholds: one column
    plt.close("all")
