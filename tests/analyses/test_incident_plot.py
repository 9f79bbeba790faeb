"""The incident report's figure: on the window's clock (a bursty log draws one band and unbroken
lines), its title, legends inside the figure and an alert panel that says when nothing fired
(checked through the artists)."""

from __future__ import annotations

import dataclasses

import matplotlib.dates as mdates
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

from budgetlab import SLO, AlertPolicy, PerGroup, as_events, incident_report, status_spans
from budgetlab.analyses.incident_plot import span_title

DAY = pd.Timestamp("2026-02-02", tz="UTC")
QUIET_HOURS = (5, 6)  # no burst at 05:00 and 06:00: the 1 h window is empty 05:00:59 .. 07:00


def bursty(hours=24, fail_in=(3,)):
    """60 events a second apart in the first minute of each hour (none in :data:`QUIET_HOURS`),
    the apache log's shape; in the hours ``fail_in`` every tenth event fails."""
    ts, ok = [], []
    for h in range(hours):
        if h in QUIET_HOURS:
            continue
        for s in range(60):
            ts.append(DAY + pd.Timedelta(hours=h, seconds=s))
            ok.append(not (h in fail_in and s % 10 == 0))
    return as_events(pd.DatetimeIndex(ts), ok)


def num(t):
    return mdates.date2num(pd.Timestamp(t).tz_convert(None).to_datetime64())


@pytest.fixture(scope="module")
def report():
    # the incident 02:00-10:00, 1 h of context: the plot covers 01:00-11:00
    return incident_report(bursty(), SLO(target=0.99, window="1h"), DAY + pd.Timedelta("2h"),
                           DAY + pd.Timedelta("10h"), context="1h",
                           policy=AlertPolicy.single_window("1h", 50.0))


def bands(panel):
    """``(status, x0, x1)`` of every status bar drawn on ``panel``, in time order."""
    out = []
    for c in panel.collections:
        gid = str(c.get_gid())
        if gid.startswith("status_"):
            for p in c.get_paths():
                x = p.vertices[:, 0]
                out.append((gid.removeprefix("status_"), float(x.min()), float(x.max())))
    return sorted(out, key=lambda b: b[1])


def test_a_bursty_log_is_drawn_on_the_window_s_clock(report):
    fig = report.plot()
    timeline = fig.axes[0]
    drawn = bands(timeline.budget_ax)
    # the bars tile the drawn window 01:00-11:00 without a hole: the 59 silent minutes after
    # each burst are inside the window (its events stay in it for 1 h)
    lo, hi = num(report.window_start), num(report.window_end)
    assert drawn[0][1] == pytest.approx(lo, abs=1e-9)
    assert drawn[-1][2] == pytest.approx(hi, abs=1e-9)
    for (_, _, end), (_, start, _) in zip(drawn, drawn[1:], strict=False):
        assert start == pytest.approx(end, abs=1e-9)
    # between the 01:00 and 02:00 bursts the window holds the 01:00 burst: one healthy bar
    # covers 01:01-01:59; by hand, the window is empty from 05:00:59 + 1 ns (the 04:00:59 event
    # leaves) to 07:00:00 (the next burst): that and nothing else is no traffic
    assert any(s == "healthy" and x0 <= num(DAY + pd.Timedelta("61min")) and
               x1 >= num(DAY + pd.Timedelta("119min")) for s, x0, x1 in drawn)
    quiet = [(x0, x1) for s, x0, x1 in drawn if s == "no_traffic"]
    empty = (num(DAY + pd.Timedelta("5h59s")), num(DAY + pd.Timedelta("7h")))
    assert quiet == [pytest.approx(empty, abs=1e-9)]
    # the lines (read from the spans, as the bands) break only there: one NaN, over exactly
    # that empty window, from 05:00:59 + 1 ns to 07:00:00
    for panel, gid in ((timeline, "success_rate"), (timeline.burn_ax, "burn_rate")):
        line = next(ln for ln in panel.get_lines() if ln.get_gid() == gid)
        y = np.asarray(line.get_ydata(), dtype=float)
        x = mdates.date2num(line.get_xdata())
        (gap,) = np.flatnonzero(np.isnan(y))
        assert (x[gap], x[gap + 1]) == pytest.approx(empty, abs=1e-9)
    plt.close(fig)


def test_the_report_s_spans_are_the_window_s_clock_over_the_window(report):
    # the log starts two hours before the window's start: nothing of the history is missing
    ref = status_spans(bursty(), SLO(target=0.99, window="1h"), start=report.window_start,
                       end=report.window_end)
    pd.testing.assert_frame_equal(report.spans, ref)
    assert list(report.spans["status"].astype(str)) == ["healthy", "exhausted", "healthy",
                                                        "no_traffic", "healthy"]


def test_the_title_names_the_end_s_date_when_it_is_another_day(report):
    fig = report.plot()
    assert fig.get_suptitle() == "Incident 2026-02-02 02:00–10:00 (UTC)"
    plt.close(fig)
    t = pd.Timestamp("2015-05-18", tz="UTC")
    assert span_title(t, t + pd.Timedelta("24h"), "UTC") == \
        "2015-05-18 00:00 – 2015-05-19 00:00 (UTC)"
    # the day is the local one: 23:00-01:00 UTC is one day in Berlin (01:00-03:00 CEST)
    assert span_title(t - pd.Timedelta("1h"), t + pd.Timedelta("1h"), "Europe/Berlin") == \
        "2015-05-18 01:00–03:00 (Europe/Berlin)"
    assert span_title(t - pd.Timedelta("1h"), t + pd.Timedelta("1h"), "UTC") == \
        "2015-05-17 23:00 – 2015-05-18 01:00 (UTC)"


def test_every_legend_fits_in_the_figure(report):
    fig = report.plot()
    fig.canvas.draw()
    legends = [a.get_legend() for a in fig.axes if a.get_legend() is not None]
    assert len(legends) >= 4  # the three timeline panels and the bucket burn
    for legend in legends:
        box = legend.get_window_extent()
        assert fig.bbox.x0 <= box.x0 and box.x1 <= fig.bbox.x1
        assert fig.bbox.y0 <= box.y0 and box.y1 <= fig.bbox.y1
    plt.close(fig)


def test_the_alert_panel_says_when_no_alert_fired(report):
    assert len(report.alerts) == 0  # burn 50 is out of reach: at most 10 % fail, burn 10
    fig = report.plot()
    alerts = fig.axes[1]
    assert [t.get_text() for t in alerts.texts if t.get_gid() == "no_alert"] == ["no alert fired"]
    # no key of colours nothing was drawn in; the one key is of the tier's silence, ruled where
    # its 1 h window held no event (stop 58): the 04:00 burst's last bin (04:00, ending 04:01)
    # stays in the window through the evaluation at 05:00, the next burst's bin (07:00) is in it
    # from 07:01: ruled over [05:01, 07:01) on row 0
    assert [t.get_text() for t in alerts.get_legend().get_texts()] == [
        "no event in the tier's\nlong window: cannot fire", "incident"]  # the span shaded
    ruled = [p.get_extents().get_points() for c in alerts.collections
             if c.get_gid() == "no_traffic" for p in c.get_paths()]
    assert len(ruled) == 1
    assert ruled[0][:, 0] == pytest.approx([num(DAY + pd.Timedelta("5h1min")),
                                            num(DAY + pd.Timedelta("7h1min"))], abs=1e-9)
    # the report read the longest alert window (1 h) before its window (01:00): the tier's window
    # had filled when the window began, so no row is shaded and nothing is keyed
    assert report.alerts.attrs["grid_start"] == DAY.isoformat()  # the data's first bin, 00:00
    assert [p for p in alerts.patches if p.get_gid() == "filling"] == []
    plt.close(fig)


def test_the_report_alerts_keep_their_grid_s_own_start_and_end():
    # the incident 01:00-03:00 with 30 min of context: the window is 00:30-03:30 and the report
    # replays the longest alert window (1 h) before it, so the alerts' grid runs 23:30-03:30.
    # score_alerts reads grid_start as the start of the filling span: the window's own start
    # there would score apart the alerts of the window's first hour, which had a full window
    rep = incident_report(bursty(), SLO(target=0.99, window="1h"), DAY + pd.Timedelta("1h"),
                          DAY + pd.Timedelta("3h"), context="30min",
                          policy=AlertPolicy.single_window("1h", 50.0))
    assert rep.alerts.attrs["grid_start"] == (DAY - pd.Timedelta("30min")).isoformat()
    assert rep.alerts.attrs["grid_end"] == (DAY + pd.Timedelta("3h30min")).isoformat()
    fig = rep.plot()
    alerts = fig.axes[1]
    # the data start at 00:00: the tier is not evaluated before 01:00 (its window reached before
    # them), its row shaded 00:00 .. 01:00 (00:30 .. 01:00 in view) and keyed so
    shaded = [p for p in alerts.patches if p.get_gid() == "filling"]
    assert [(mdates.num2date(p.get_x()), round(p.get_width() * 24, 6)) for p in shaded] == [
        (DAY, 1.0)]
    assert [t.get_text() for t in alerts.get_legend().get_texts()] == [
        "not evaluated: its long window\nreaches before the data's start", "incident"]
    lo, _ = alerts.get_xlim()
    assert round((lo - mdates.date2num(DAY.tz_convert(None))) * 24, 6) == 0.5
    plt.close(fig)


def per_minute(spans, key="region"):
    """Events one a minute over each ``(group, first minute, last minute)`` of ``spans`` (minutes
    from DAY, both included; the group in column ``key``); every tenth minute of the day is a
    timeout."""
    ts, bucket, group = [], [], []
    for g, lo, hi in spans:
        for m in range(lo, hi + 1):
            ts.append(DAY + pd.Timedelta(minutes=m))
            bucket.append("timeout" if m % 10 == 0 else "success")
            group.append(g)
    b = np.array(bucket, dtype=object)
    return as_events(pd.DatetimeIndex(ts), b == "success", b, groups={key: group})


def test_the_alert_tiers_are_named_whole_inside_the_figure():
    # two groups; the tier has a long name; every tenth event of 'recaptcha_v2' fails: its 1 h
    # burn is 1 under 90 %, above the tier's 0.5, so the tier fires (plot_alerts names such rows
    # "<group> · <tier>"; the report names the focus group in its title, the tier alone in rows)
    ev = per_minute([("recaptcha_v2", 0, 359), ("turnstile", 0, 359)], key="captcha_type")
    ev = ev[((ev["captcha_type"] == "recaptcha_v2") | ev["ok"]).to_numpy()]  # turnstile never fails
    name = "night_shift_slow_burn_of_the_reCAPTCHA_fleet_1h"
    rep = incident_report(ev, SLO(target=0.9, window="1h"), DAY + pd.Timedelta("2h"),
                          DAY + pd.Timedelta("4h"), context="1h", by="captcha_type",
                          policy=AlertPolicy.single_window("1h", 0.5, name=name))
    assert len(rep.alerts) > 0
    fig = rep.plot()
    fig.canvas.draw()
    assert fig.get_suptitle() == "Incident 2026-02-02 02:00–04:00 (UTC), captcha_type=recaptcha_v2"
    alerts = fig.axes[1]
    ticks = [t for t in alerts.get_yticklabels() if t.get_text()]
    assert [t.get_text() for t in ticks] == [f"{name} (page)"]
    for text in [*ticks, alerts.yaxis.label]:
        box = text.get_window_extent()
        assert fig.bbox.x0 <= box.x0 and box.x1 <= fig.bbox.x1, text.get_text()
    # and left of the panel, not over it
    assert max(t.get_window_extent().x1 for t in ticks) <= alerts.bbox.x0
    plt.close(fig)


def test_the_bucket_panel_leaves_out_the_groups_too_thin_over_the_window():
    # window 01:00-05:00 (incident 02:00-04:00, 1 h of context), target 90 %: a verdict needs
    # 10 / 0.1 = 100 events. big: 240 in the window; mid: 60 + 60 + 5 = 125 in the window but 5
    # during the incident; tiny: 5 (03:00-03:04, its timeout at 03:00)
    ev = per_minute([("big", 0, 359), ("mid", 60, 119), ("mid", 120, 124), ("mid", 240, 299),
                     ("tiny", 180, 184)])
    rep = incident_report(ev, SLO(target=0.9, window="1h"), DAY + pd.Timedelta("2h"),
                          DAY + pd.Timedelta("4h"), context="1h", breakdown_by="region",
                          policy=AlertPolicy.single_window("1h", 50.0))
    notes = rep.window_buckets.drop_duplicates("region").set_index("region")["note"]
    assert notes.to_dict() == {
        "big": "", "mid": "",
        "tiny": "withheld: 5 events in the group: too few for a verdict (under 90 % they hold 0.5 "
                "expected failures; one needs at least 10, i.e. 100 events)"}
    # the incident's own table judges the incident's events: mid's 5 are too few there
    during = rep.buckets.drop_duplicates("region").set_index("region")
    assert during["events"].to_dict() == {"big": 120, "mid": 5, "tiny": 5}
    assert [bool(n) for n in during["note"]] == [False, True, True]
    fig = rep.plot()
    panel = fig.axes[2]  # the timeline's lower panels are added after the three rows
    assert [p.get_label() for p in panel.patches if p.get_gid() == "bucket"] == [
        "timeout · big", "timeout · mid"]
    assert [t.get_text() for t in panel.get_legend().get_texts()] == [
        "timeout · mid", "timeout · big", "incident", "no traffic · mid",
        "not drawn, too thin for a verdict:\ntiny"]
    # mid is silent from 02:05 (its last event 02:04) to 04:00 while big is not: its lane
    (lane,) = [c for c in panel.collections if c.get_gid() == "no_traffic:mid"]
    (box,) = lane.get_paths()
    assert [mdates.num2date(v).strftime("%H:%M") for v in
            (box.vertices[:, 0].min(), box.vertices[:, 0].max())] == ["02:05", "04:00"]
    plt.close(fig)
    # a report without window_buckets (built by hand) draws every group
    fig = dataclasses.replace(rep, window_buckets=None).plot()
    assert [p.get_label() for p in fig.axes[2].patches if p.get_gid() == "bucket"] == [
        "timeout · big", "timeout · mid", "timeout · tiny"]
    plt.close(fig)


def test_the_title_names_the_scope_every_panel_is_drawn_from():
    ev = per_minute([("big", 0, 359), ("mid", 0, 359)])
    kw = dict(context="1h", policy=AlertPolicy.single_window("1h", 50.0))
    rep = incident_report(ev, SLO(target=0.9, window="1h"), DAY + pd.Timedelta("2h"),
                          DAY + pd.Timedelta("4h"), scope="region=mid", **kw)
    fig = rep.plot()
    assert fig.get_suptitle() == "Incident 2026-02-02 02:00–04:00 (UTC), region=mid"
    plt.close(fig)
    # scope and focus group both named, once when they say the same
    rep = incident_report(ev, SLO(target=0.9, window="1h"), DAY + pd.Timedelta("2h"),
                          DAY + pd.Timedelta("4h"), scope="region=mid", by="region", **kw)
    fig = rep.plot()
    assert fig.get_suptitle() == "Incident 2026-02-02 02:00–04:00 (UTC), region=mid"
    plt.close(fig)


def test_the_panels_y_labels_stand_in_one_column(report):
    # the panels' tick labels differ in width ("93.75", "0.9", the alert tiers' names): each
    # y label would sit at its own distance from its axis; aligned, their anchors (the edge
    # toward the axis: the labels are rotated, anchored at their bottom) share one x
    fig = report.plot()
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    labels = [a.yaxis.label for a in fig.axes if a.get_visible() and a.get_ylabel()]
    assert len(labels) == 5  # success rate, burn rate, budget left, alert tier, bucket burn
    xs = [lab.get_window_extent(renderer).x1 for lab in labels]
    assert max(xs) - min(xs) <= 1.0, [lab.get_text() for lab in labels]
    # and whole inside the figure: the margin holds the two-line labels moved out to that x
    assert min(lab.get_window_extent(renderer).x0 for lab in labels) >= fig.bbox.x0
    plt.close(fig)


def test_per_group_targets_get_a_bucket_panel_each():
    # a under 99 %, b and c under 90 %. Window 00:00-04:00 (incident 01:00-03:00, 1 h of
    # context), 5 min bins. a: 5 events a minute, the first of each fails: error ratio 0.2, burn
    # 0.2 / 0.01 = 20 in every bin; b: 1 a minute, the one at a whole five minutes fails: burn
    # 0.2 / 0.1 = 2 in every bin; c: 5 events 02:00-02:04, too few for a verdict under 90 % (100
    # needed). Stacked on one axis a's 20 and b's 2 would read as one burn of (5 / 0.01 + 1 /
    # 0.1) / 30 events = 17 per bin: no figure of either group. Each target gets its own panel
    ts, ok, kind = [], [], []
    for m in range(240):
        for s in range(5):
            ts.append(DAY + pd.Timedelta(minutes=m, seconds=12 * s))
            ok.append(s != 0)
            kind.append("a")
        ts.append(DAY + pd.Timedelta(minutes=m))
        ok.append(m % 5 != 0)
        kind.append("b")
    for s in range(5):
        ts.append(DAY + pd.Timedelta(hours=2, seconds=s))
        ok.append(True)
        kind.append("c")
    ok = np.array(ok)
    ev = as_events(pd.DatetimeIndex(ts), ok, np.where(ok, "success", "timeout"),
                   groups={"kind": kind})
    rep = incident_report(ev, PerGroup({"a": 0.99, "b": 0.9, "c": 0.9}),
                          DAY + pd.Timedelta("1h"), DAY + pd.Timedelta("3h"), context="1h",
                          by="kind", policy=AlertPolicy.single_window("1h", 50.0))
    fig = rep.plot()
    fig.canvas.draw()
    panels = fig.axes[2:4]  # the rows after the timeline and the alerts, before the timeline's
    assert [ax.get_ylabel() for ax in panels] == [  # lower panels (added as it draws)
        "burn rate per 5 min bin\n(1 = allowed pace, target 99%)",
        "burn rate per 5 min bin\n(1 = allowed pace, target 90%)"]
    (a,), (b,) = ([p for p in ax.patches if p.get_gid() == "bucket"] for ax in panels)
    assert (a.get_label(), b.get_label()) == ("timeout · a", "timeout · b")
    np.testing.assert_allclose(a.get_data().values, 20.0, rtol=1e-12)
    np.testing.assert_allclose(b.get_data().values, 2.0, rtol=1e-12)
    # c, too thin, is named where its target's groups are drawn, and only there
    assert [t.get_text() for t in panels[0].get_legend().get_texts()] == ["timeout · a",
                                                                         "incident"]
    assert panels[1].get_legend().get_texts()[-1].get_text() == (
        "not drawn, too thin for a verdict: c")
    # the time axis is named once, under the last panel; the labels stand in one column
    assert [ax.get_xlabel() for ax in fig.axes[1:4]] == ["", "", "time (UTC)"]
    xs = [ax.yaxis.label.get_window_extent().x1 for ax in fig.axes if ax.get_ylabel()]
    assert max(xs) - min(xs) <= 1.0
    plt.close(fig)


def test_one_slo_s_bucket_panel_names_its_target(report):
    fig = report.plot()
    burns = [ax for ax in fig.axes if ax.get_ylabel().startswith("burn rate per")]
    assert [ax.get_ylabel().split("\n")[1] for ax in burns] == ["(1 = allowed pace, target 99%)"]
    plt.close(fig)


@pytest.mark.parametrize(("start", "context", "words", "said"), [
    # By hand (the bursty log, target 99 %, 1 h window): the 03:00:00 failure joins the 60
    # successes of the 02:00 burst in the window, 1 failure over a budget of 0.61: EXHAUSTED at
    # 03:00:00. At 04:00:s the window holds 03:00:s .. 03:00:59 and 04:00:00 .. 04:00:s; the
    # last failure (03:00:50) leaves at 04:00:51: HEALTHY then. Nothing else fails, and after
    # the empty window the 07:00 burst finds HEALTHY: two changes in all.
    # The incident from 03:30 (context 3 h, the window 00:30 .. 13:00): 1 of the 2 during it
    ("3h30min", "3h", "1 status change at events\nduring the incident,\n"
     "2026-02-02 03:30–10:00 (UTC);\n1 more before or after it",
     "it changed status 1 time at its events "),
    # the incident from 02:00 (context 1 h): both during it
    ("2h", "1h", "2 status changes at events\nduring the incident,\n"
     "2026-02-02 02:00–10:00 (UTC)", "it changed status 2 times at its events "),
])
def test_the_figure_counts_the_status_changes_the_summary_counts(start, context, words, said):
    rep = incident_report(bursty(), SLO(target=0.99, window="1h"), DAY + pd.Timedelta(start),
                          DAY + pd.Timedelta("10h"), context=context,
                          policy=AlertPolicy.single_window("1h", 50.0))
    assert rep.transitions["ts"].tolist() == [DAY + pd.Timedelta("3h"),
                                              DAY + pd.Timedelta("4h51s")]
    assert said in rep.summary
    fig = rep.plot()
    timeline = fig.axes[0]
    # both changes are drawn (dotted lines across the panels), the legend says which it counts
    (marks,) = [c for c in timeline.budget_ax.collections if c.get_gid() == "transitions"]
    assert len(marks.get_segments()) == 2
    texts = [t.get_text() for t in timeline.budget_ax.get_legend().get_texts()]
    assert words in texts
    assert not any(t.endswith("status changes at events") for t in texts)  # a count of what?
    plt.close(fig)


def test_the_legend_counts_changes_during_an_incident_the_log_begins_inside():
    # By hand (the bursty log with every tenth event of hour 0 failing, target 99 %, 1 h window):
    # the log begins at 00:00:00 with a failure (1 failure over a budget of 0.01: EXHAUSTED);
    # the last failure of hour 0 (00:00:50) leaves the window at 01:00:50 + 1 ns: HEALTHY at the
    # 01:00:51 event. The incident 2026-02-01 23:00 .. 2026-02-02 01:00 began before the log: the
    # tracker's figures are withheld (its window never lies after the data's start during it),
    # but the change at 00:00:00, drawn, is during it; the one at 01:00:51 after it.
    rep = incident_report(bursty(fail_in=(0,)), SLO(target=0.99, window="1h"),
                          DAY - pd.Timedelta("1h"), DAY + pd.Timedelta("1h"), context="1h",
                          policy=AlertPolicy.single_window("1h", 50.0))
    assert rep.transitions["ts"].tolist() == [DAY, DAY + pd.Timedelta("1h51s")]
    fig = rep.plot()
    texts = [t.get_text() for t in fig.axes[0].budget_ax.get_legend().get_texts()]
    assert ("1 status change at events\nduring the incident,\n"
            "2026-02-01 23:00 – 2026-02-02 01:00 (UTC);\n1 more before or after it") in texts
    plt.close(fig)
