"""Date ticks that fit the axis (round 23): a narrow time axis shows fewer ticks (matplotlib's own
AutoDateLocator, told how many fit), so its labels never run into each other; a wide one keeps
matplotlib's choice. Checked on the drawn label boxes."""

from __future__ import annotations

import warnings

import matplotlib

matplotlib.use("Agg")
import matplotlib.dates as mdates  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

import budgetlab as bl  # noqa: E402
from budgetlab.plotting import plot_alerts  # noqa: E402
from budgetlab.plotting._common import time_axis  # noqa: E402


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def episodes():
    """Three days of synthetic traffic (an outage on the second), the Workbook policy's episodes."""
    events, incidents = bl.synth.generate(
        "2026-10-05", 3, seed=5, rate=0.05, session_ids=False,
        incidents=[{"kind": "outage", "start": "2026-10-06T10:00Z", "end": "2026-10-06T11:30Z",
                    "scope": "*", "severity": 1.0}])
    return bl.alert_episodes(bl.bin_events(events, "5min"), 0.95, bl.AlertPolicy.workbook())


def drawn_labels(fig, ax):
    """The boxes of the x tick labels drawn inside the view, left to right (warnings as errors:
    the locator found an interval)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fig.canvas.draw()
    lo, hi = sorted(ax.get_xlim())
    return sorted((t.label1.get_window_extent() for t in ax.xaxis.get_major_ticks()
                   if t.label1.get_visible() and t.label1.get_text()
                   and lo <= t.get_loc() <= hi), key=lambda b: b.x0)


def apart(boxes, gap_px=4):
    return all(b.x0 - a.x1 >= gap_px for a, b in zip(boxes, boxes[1:], strict=False))


def test_a_narrow_alert_chart_keeps_its_date_labels_apart(episodes):
    """5 x 3 inches over three days: the legend and tier names leave the plot area about an inch;
    its date labels (at least two) do not touch."""
    fig, ax = plt.subplots(figsize=(5, 3), dpi=100)
    plot_alerts(episodes, ax=ax)
    boxes = drawn_labels(fig, ax)
    assert len(boxes) >= 2 and apart(boxes)


def test_a_wide_alert_chart_keeps_matplotlibs_own_ticks(episodes):
    fig, ax = plt.subplots(figsize=(12, 3), dpi=100)
    plot_alerts(episodes, ax=ax)
    boxes = drawn_labels(fig, ax)
    own = mdates.AutoDateLocator(tz="UTC")  # the oracle: matplotlib's choice for this range
    lo, hi = ax.get_xlim()
    assert list(ax.xaxis.get_majorticklocs()) == list(own.tick_values(mdates.num2date(lo),
                                                                      mdates.num2date(hi)))
    assert apart(boxes)


@pytest.mark.parametrize("span", ["90min", "2D", "40D", "3650D"])
@pytest.mark.parametrize("inches", [1.0, 1.5, 2.5, 4.0, 7.0])
def test_any_span_on_any_width_gets_labels_apart(span, inches):
    fig = plt.figure(figsize=(inches + 1.0, 2), dpi=100)
    ax = fig.add_axes((0.5 / (inches + 1.0), 0.3, inches / (inches + 1.0), 0.6))
    t = pd.date_range("2026-01-01", periods=2, freq=span)
    ax.plot(t.to_numpy(), [0, 1])
    time_axis(ax, "UTC")
    boxes = drawn_labels(fig, ax)
    assert len(boxes) >= 1 and apart(boxes)


@pytest.mark.parametrize("drawing", ["alerts", "latency_shares"])
def test_a_short_plain_figure_keeps_its_dates_and_x_label_whole(episodes, drawing):
    """12 x 3 inches, a plain figure: the default bottom margin (0.33 inch) holds the dates but not
    the x label and the year and month under them; room is made below, and all lie inside."""
    fig, ax = plt.subplots(figsize=(12, 3), dpi=100)
    if drawing == "alerts":
        plot_alerts(episodes, ax=ax)
    else:
        events, _ = bl.synth.generate("2026-10-05", 3, seed=5, rate=0.05, session_ids=False,
                                      client_timeout="60s")
        bl.plotting.plot_latency_shares(
            bl.latency_profile(events, thresholds=["10s"], freq="6h").shares, ax=ax)
    boxes = drawn_labels(fig, ax)
    # days of data: no offset text (the first tick names the year), the x label
    assert ax.xaxis.get_offset_text().get_text() == ""
    texts = [ax.xaxis.label]
    assert all(t.get_text() for t in texts)
    for box in [*boxes, *(t.get_window_extent() for t in texts)]:
        assert box.y0 >= 0 and box.x1 <= fig.bbox.x1


@pytest.mark.parametrize("size", [(5, 3), (4, 3), (4, 1.5), (12, 3)])
def test_a_narrow_alert_chart_keeps_its_x_label_clear_of_the_year_and_month(episodes, size):
    """The legend's room narrows the plot area of a 5 x 3 inch chart to about an inch: the centred
    'time (UTC)' ran into '2026-Oct', the offset text at the axis' right end. Drawn boxes: the x
    label, the offset text, the legend and the date labels overlap none of the others and lie
    inside the figure; a wide chart keeps its label beside the offset text, on one line."""
    fig, ax = plt.subplots(figsize=size, dpi=100)
    plot_alerts(episodes, ax=ax)
    dates = drawn_labels(fig, ax)
    label, offset = ax.xaxis.label, ax.xaxis.get_offset_text()
    # three days: no offset text to collide with (the first tick names the year)
    assert label.get_text() == "time (UTC)" and offset.get_text() == ""
    boxes = [label.get_window_extent(), ax.get_legend().get_window_extent()]
    for i, a in enumerate(boxes):
        assert not any(a.overlaps(b) for b in boxes[i + 1:] + dates)
        assert a.y0 >= 0 and a.x1 <= fig.bbox.x1


def _alerts_over(start: str, days: int, size=(11, 4)):
    """plot_alerts over ``days`` of five-minute bins from ``start`` (an hour of failures on the
    fifth day), on a plain figure, drawn; the x tick labels by their dates (UTC)."""
    ts = pd.date_range(start, periods=days * 288, freq="5min", tz="UTC")
    ok = ~((ts >= ts[0] + pd.Timedelta("4D")) & (ts < ts[0] + pd.Timedelta("4D1h")))
    ep = bl.alert_episodes(bl.bin_events(bl.as_events(ts, ok), "5min"), 0.99, "workbook")
    fig, ax = plt.subplots(figsize=size)
    plot_alerts(ep, ax=ax)
    fig.canvas.draw()
    lo, hi = sorted(ax.get_xlim())
    return ax, {mdates.num2date(t.get_loc()).strftime("%Y-%m-%d %H:%M"): t.label1.get_text()
                for t in ax.xaxis.get_major_ticks() if lo <= t.get_loc() <= hi}


def test_an_alert_chart_across_new_year_names_the_new_year_at_its_tick():
    """NAB's machine_temperature runs 2013-12-02 .. 2014-02-19: the ticks are days and the offset
    names only the last one's year and month (``2014-Feb``), so the December ticks read as 2014;
    the tick at 2014-01-01 00:00 now reads ``2014`` (matplotlib's own label on an axis of
    months), the first tick (2013-12-15) its month and day and ``2013`` under it (it read ``15``
    over ``2013``, a December day under the offset's ``Feb``), the others keep their day or
    month."""
    ax, labels = _alerts_over("2013-12-02", 79)
    assert labels["2014-01-01 00:00"] == "2014"
    assert [text for when, text in labels.items() if when.startswith("2013-12")] == [
        "Dec-15\n2013"]
    assert labels["2014-02-01 00:00"] == "Feb"
    assert ax.xaxis.get_major_formatter().get_offset() == ""  # no last month alone at the end


def test_day_ticks_name_the_month_at_the_first_tick_and_where_it_changes():
    """Three weeks from 2014-01-20: ticks every 4 days from January 21; the offset names the last
    tick's month (``2014-Feb``), so the January ticks read ``21``, ``25``, ``29`` as February
    days. The first tick names its month, as a tick in a new month does; the 1st of a month is
    matplotlib's month name."""
    ax, labels = _alerts_over("2014-01-20", 21)
    assert labels == {"2014-01-21 00:00": "Jan-21\n2014", "2014-01-25 00:00": "25",
                      "2014-01-29 00:00": "29", "2014-02-01 00:00": "Feb",
                      "2014-02-05 00:00": "05", "2014-02-09 00:00": "09"}
    assert ax.xaxis.get_major_formatter().get_offset() == ""  # the year is the first tick's


def test_an_alert_chart_within_one_year_names_the_year_at_its_first_tick_only():
    # three weeks of March 2014: the first tick names the year, no other tick does, and no
    # offset names the month and year at the axis' end (over or beside the x label)
    ax, labels = _alerts_over("2014-03-01", 21)
    assert [text for text in labels.values() if "2014" in text] == ["Mar\n2014"]
    assert next(iter(labels.values())) == "Mar\n2014"
    assert ax.xaxis.get_major_formatter().get_offset() == ""


def test_a_year_of_months_across_new_year_names_the_first_ticks_year():
    """2013-06-01 .. 2014-06-01 on an 11-inch axis: ticks every other month from July. The offset
    is empty (matplotlib's, as the ticks name the years): before, only ``2014`` was named and July
    to November read as no year at all; the first tick now carries 2013 under its month."""
    fig, ax = plt.subplots(figsize=(11, 2))
    t = pd.to_datetime(["2013-06-01", "2014-06-01"])
    ax.plot(t.to_numpy(), [0, 1])
    ax.set_xlim(t[0], t[1])
    time_axis(ax, "UTC")
    fig.canvas.draw()
    assert [tick.label1.get_text() for tick in ax.xaxis.get_major_ticks()] == [
        "Jul\n2013", "Sep", "Nov", "2014", "Mar", "May"]
    assert ax.xaxis.get_major_formatter().get_offset() == ""


def _timeline_labels(times: list[str]) -> tuple[list[str], str]:
    """plot_timeline with spans= (10 x 4 inches) of successes at ``times`` (UTC): the bottom
    chart's x tick labels and the offset text."""
    ev = bl.as_events(pd.to_datetime(times, utc=True), [True] * len(times))
    slo = bl.SLO(target=0.99, window="1h")
    fig, ax = plt.subplots(figsize=(10, 4))
    bl.plotting.plot_timeline(bl.replay(ev, slo), slo=slo,
                              spans=bl.status_spans(ev, slo, steps=True), ax=ax)
    fig.canvas.draw()
    bottom = fig.axes[2]
    return ([t.label1.get_text() for t in bottom.xaxis.get_major_ticks()
             if t.label1.get_visible()], bottom.xaxis.get_major_formatter().get_offset())


def test_ticks_of_hours_name_the_first_ticks_day():
    """The Elastic log's POST group, 2015-05-19 04:05 .. 05-20 08:10: ticks every 4 hours from
    04:00; matplotlib names a day only at midnight (``May-20``) and the offset the last tick's
    (``2015-May-20``), so May 19 was named nowhere. The first tick names it under its time, with
    the year, and no offset names the last day alone at the axis' end."""
    labels, offset = _timeline_labels(["2015-05-19 04:05", "2015-05-19 04:40",
                                       "2015-05-19 09:10", "2015-05-19 11:50",
                                       "2015-05-20 08:10"])
    assert labels == ["04:00\n2015-May-19", "08:00", "12:00", "16:00", "20:00", "May-20",
                      "04:00", "08:00"]
    assert offset == ""  # it named May 20 alone at the axis' end; the first tick names the year


def test_ticks_of_hours_within_one_day_leave_the_day_to_the_offset():
    labels, offset = _timeline_labels(["2015-05-19 04:05", "2015-05-19 09:10",
                                       "2015-05-19 20:10"])
    assert labels and not any("May" in text for text in labels)
    assert offset == "2015-May-19"


def _ticks_in(tz: str, times: list[str], size=(10, 4)) -> list[tuple[str, str]]:
    """plot_timeline (the API, ``tz=``) of successes at ``times`` (UTC): the bottom chart's ticks
    as (UTC time, label) pairs."""
    ev = bl.as_events(pd.to_datetime(times, utc=True), [True] * len(times))
    slo = bl.SLO(target=0.99, window="1h")
    fig, ax = plt.subplots(figsize=size)
    bl.plotting.plot_timeline(bl.replay(ev, slo), slo=slo, tz=tz,
                              spans=bl.status_spans(ev, slo, steps=True), ax=ax)
    fig.canvas.draw()
    bottom = fig.axes[2]
    lo, hi = sorted(bottom.get_xlim())
    return [(mdates.num2date(t.get_loc()).strftime("%H:%M"), t.label1.get_text())
            for t in bottom.xaxis.get_major_ticks() if lo <= t.get_loc() <= hi]


def test_the_fall_back_hour_has_its_ticks_evenly_in_utc_and_both_two_oclocks():
    """Europe/Berlin on 25 October 2026: 03:00 CEST (+02, 01:00 UTC) goes back to 02:00 CET (+01).
    matplotlib placed hourly ticks on the wall clock: no tick at 02:00 CET (01:00 UTC), 2 h
    unlabelled between 02:00 CEST and 03:00 CET. Now one tick an hour in UTC, labelled on the
    Berlin clock, the two ticks around the switch with their offsets (hand-listed)."""
    ticks = _ticks_in("Europe/Berlin", ["2026-10-24 20:00", "2026-10-25 05:00"])
    assert ticks == [("20:00", "22:00\n2026-Oct-24"), ("21:00", "23:00"), ("22:00", "Oct-25"),
                     ("23:00", "01:00"), ("00:00", "02:00\n+02"), ("01:00", "02:00\n+01"),
                     ("02:00", "03:00"), ("03:00", "04:00"), ("04:00", "05:00"),
                     ("05:00", "06:00")]


def test_the_spring_gap_has_no_tick_for_the_hour_that_does_not_exist():
    # 29 March 2026: 02:00 CET (+01, 01:00 UTC) jumps to 03:00 CEST (+02); 02:00 never shows
    ticks = _ticks_in("Europe/Berlin", ["2026-03-28 22:00", "2026-03-29 04:00"])
    assert ticks == [("22:00", "23:00\n2026-Mar-28"), ("23:00", "Mar-29"), ("00:00", "01:00\n+01"),
                     ("01:00", "03:00\n+02"), ("02:00", "04:00"), ("03:00", "05:00"),
                     ("04:00", "06:00")]


def test_ticks_of_hours_across_a_switch_stay_even_and_name_each_new_day():
    """Four days across the fall-back, 12-hourly ticks: placed on the +02 clock of the axis'
    start, so after the switch they read 11:00 and 23:00 (+01), 12 h apart in UTC; the ticks
    around the switch write their offsets, and 11:00 on 26 October, the day's first tick,
    names its day (matplotlib names a day only at a midnight tick)."""
    ticks = _ticks_in("Europe/Berlin", ["2026-10-23 22:00", "2026-10-27 03:00"], size=(12, 4))
    assert ticks == [("22:00", "Oct-24\n2026"), ("10:00", "12:00"), ("22:00", "Oct-25\n+02"),
                     ("10:00", "11:00\n+01"), ("22:00", "23:00"), ("10:00", "11:00\nOct-26"),
                     ("22:00", "23:00")]
