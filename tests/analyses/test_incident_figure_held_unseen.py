"""The incident figure says what its tables say (stop 58).

* An incident lying in a silence is ``unseen`` in the tier table; the figure drew it hatched and
  keyed "incident", like a missed one. It is drawn as ``alerts --plot`` draws it: hollow and
  dashed (gid ``incident_unseen``), keyed "unseen: no traffic in any tier's long window".
* The bucket panel said "no failures in these bins" over bins holding no event at all, and left
  the silence blank: the empty bins are ruled "no traffic (bin empty)" (gid ``no_traffic``), and
  "no failures" is said of the bins with events only.
* Where the window holds fewer than ``min_events`` events the tracker holds its status: the
  budget panel read "exhausted" beside lines at 100 %, with nothing saying the status was held.
  The held spans are hatched (gid ``status_held``) and keyed, in the incident figure and in the
  replay timeline alike (:mod:`budgetlab.plotting.held_status`).

Oracles, by hand from the logs built here: log 4 is one event a minute over five days, silent on
2026-04-04 00:00-12:00; incident I3 (02:00-03:00 that day) lies in the silence, so no 1 h window
evaluated from its start to its end + 1 h grace holds an event. Its figure spans 20:00 the day
before to 09:00 (6 h of context): the 10 min bins from 00:00 to 09:00 are empty. Log 6 has an
event a minute 00:00-02:00, one every 20 min 02:20-06:40, then one a minute from 07:00: the
1 h window (min_events 10) holds 2 + 8 = 10 events first at 07:07 (06:20, 06:40, 07:00..07:07),
so the status is held up to 07:07; and from the event at 03:00 (the window then holds 02:20,
02:40 and 03:00, with 02:00 at most: under 10) in the replay's rows.
"""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.dates as mdates  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

import budgetlab as bl  # noqa: E402


def _at(text: str) -> float:
    return float(mdates.date2num(pd.Timestamp(text)))  # type: ignore[no-untyped-call]


@pytest.fixture(scope="module")
def log4():
    t0 = pd.Timestamp("2026-04-01", tz="UTC")
    m = np.arange(5 * 1440)
    f = np.zeros(len(m), bool)
    f[2] = True
    f[40:46] = True
    f[2040:2070] = True
    f[3720:3730] = True
    keep = ~((m >= 4320) & (m < 5040))
    return bl.as_events((t0 + pd.to_timedelta(m, unit="min"))[keep], ~f[keep])


@pytest.fixture(scope="module")
def log6():
    m = np.concatenate([np.arange(121), np.arange(140, 420, 20), np.arange(420, 540)])
    ts = pd.Timestamp("2026-05-01", tz="UTC") + pd.to_timedelta(m, unit="min")
    return bl.as_events(ts, ~((m >= 110) & (m <= 119)))


@pytest.fixture(scope="module")
def inc3_figure(log4):
    inc = pd.DataFrame({"incident_id": ["I1", "I2", "I3"],
                        "start": pd.to_datetime(["2026-04-01 00:38", "2026-04-02 09:58",
                                                 "2026-04-04 02:00"], utc=True),
                        "end": pd.to_datetime(["2026-04-01 01:00", "2026-04-02 10:40",
                                               "2026-04-04 03:00"], utc=True)})
    rep = bl.incident_report(log4, bl.SLO(0.95, "1h"), inc["start"][2], inc["end"][2],
                             incidents=inc, policy=bl.AlertPolicy.single_window("1h"))
    fig = rep.plot()
    yield fig
    plt.close(fig)


def _panel(fig, ylabel):
    """The figure's panel of that y label (the timeline's panels are added after the rest)."""
    (ax,) = [a for a in fig.axes if a.get_ylabel().startswith(ylabel)]
    return ax


def _legend_texts(ax):
    legend = ax.get_legend()
    return [t.get_text() for t in legend.get_texts()] if legend is not None else []


def test_an_unseen_incident_is_drawn_hollow_and_dashed_as_alerts_draws_it(inc3_figure):
    alert_ax = _panel(inc3_figure, "alert\ntier")
    bars = [p for c in alert_ax.containers if c.get_label() == "incidents" for p in c.patches]
    assert [b.get_gid() for b in bars] == ["incident_unseen"]
    assert not bars[0].get_hatch() and bars[0].get_linestyle() == "--"
    texts = _legend_texts(alert_ax)
    assert "unseen: no traffic in any\ntier's long window" in texts
    assert "incident" not in texts  # no hatched key: nothing is drawn hatched


def test_the_bucket_panel_rules_the_empty_bins_and_says_no_failures_only_of_the_others(
        inc3_figure):
    ax = _panel(inc3_figure, "burn rate per 10 min bin")
    ruled = [c for c in ax.collections if c.get_gid() == "no_traffic"]
    assert len(ruled) == 1
    box = ruled[0].get_paths()
    xs = np.concatenate([p.vertices[:, 0] for p in box])
    assert xs.min() == pytest.approx(_at("2026-04-04 00:00"), abs=1e-6)
    assert xs.max() == pytest.approx(_at("2026-04-04 09:00"), abs=1e-6)
    words = [t.get_text() for t in ax.texts]
    assert "no failures in these bins" not in words
    assert "no failures in the bins with events" in words
    assert "no traffic (bin empty)" in _legend_texts(ax)


def _held(ax):
    return [c for c in ax.collections if c.get_gid() == "status_held"]


def test_the_incident_figure_hatches_the_status_held_on_a_thin_window(log6):
    rep = bl.incident_report(log6, bl.SLO(0.9, "1h", min_events=10),
                             pd.Timestamp("2026-05-01 07:00", tz="UTC"),
                             pd.Timestamp("2026-05-01 08:00", tz="UTC"), context="1h",
                             policy=bl.AlertPolicy.single_window("1h"))
    fig = rep.plot()
    try:
        budget_ax = _panel(fig, "budget\nleft")
        (held,) = _held(budget_ax)
        xs = np.concatenate([p.vertices[:, 0] for p in held.get_paths()])
        assert xs.min() <= _at("2026-05-01 06:00")  # held since before the figure's start
        assert xs.max() == pytest.approx(_at("2026-05-01 07:07"), abs=1e-6)
        top = _panel(fig, "success\nrate")
        keys = [h for h in top.legend_entries[-1] if h.get_gid() == "status_held"]
        assert [k.get_label() for k in keys] == ["status held: window under\n10 events "
                                                 "(min_events)"]
        assert "status held: window under\n10 events (min_events)" in _legend_texts(budget_ax)
    finally:
        plt.close(fig)


def test_the_replay_timeline_hatches_the_same_spans_from_its_low_traffic_rows(log6):
    states = bl.replay(log6, bl.SLO(0.9, "1h", min_events=10))
    fig = plt.figure()
    try:
        top = bl.plotting.plot_timeline(states)
        runs = [(p.vertices[:, 0].min(), p.vertices[:, 0].max())
                for c in _held(top.budget_ax) for p in c.get_paths()]
        assert runs == [pytest.approx((_at("2026-05-01 00:00"), _at("2026-05-01 00:09"))),
                        pytest.approx((_at("2026-05-01 03:00"), _at("2026-05-01 07:07")))]
    finally:
        plt.close(fig)


def test_without_min_events_nothing_is_held(log6):
    fig = plt.figure()
    try:
        top = bl.plotting.plot_timeline(bl.replay(log6, bl.SLO(0.9, "1h")))
        assert not _held(top.budget_ax)
    finally:
        plt.close(fig)
