"""``plot_latency_shares`` at scale: the grey rest is one artist a threshold drawn under the
coloured groups, and a share of fewer than 20 attempts in its period (the hourly profile's rule,
MIN_HOUR_ATTEMPTS) is not drawn, a group with no share left named in a note under the x label.
On 3,200 sitekeys the figure was a solid grey block of "other (3,194 groups)" drawn over the six
coloured ones, and sitekeys of one attempt a day were points at 0 % and 100 %, named nowhere."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

import budgetlab as bl
from budgetlab.plotting import plot_latency_shares

DAYS = ("2026-01-01", "2026-01-02")


def _group(name, per_day):
    """Events of one group: per day, ``(n, quick)``: ``n`` successes at 01:00 + k min, the first
    ``quick`` taking 0.5 s, the others 2 s (within 3 s, not within 1 s)."""
    frames = []
    for day, (n, quick) in zip(DAYS, per_day, strict=True):
        ts = pd.Timestamp(day, tz="UTC") + pd.Timedelta("1h") + pd.to_timedelta(np.arange(n),
                                                                               unit="min")
        seconds = np.where(np.arange(n) < quick, 0.5, 2.0)
        frames.append(pd.DataFrame({"ts": ts, "g": name, "seconds": seconds}))
    return frames


def _shares():
    """Six big groups (coloured: the most attempts), three grey ones (g7, g8 and edge, whose
    first day holds exactly 20 attempts, drawn, and its second 1, not drawn) and one too thin
    (19 attempts each day, none quick: a share of 0 % within 1 s that would set the y range's
    foot)."""
    frames = []
    for k in range(1, 7):  # 600, 500, .. 100 attempts a day, half of them quick: 50 %
        n = 100 * (7 - k)
        frames += _group(f"g{k}", [(n, n // 2)] * 2)
    frames += _group("g7", [(40, 30), (40, 36)])  # 75 %, 90 %
    frames += _group("g8", [(25, 20), (25, 25)])  # 80 %, 100 %
    frames += _group("edge", [(20, 15), (1, 1)])  # 75 %, 100 %
    frames += _group("thin", [(19, 0), (19, 0)])  # 0 %, 0 %
    ev = pd.concat(frames).sort_values("ts", kind="stable").reset_index(drop=True)
    ev = ev.assign(ts=ev["ts"].dt.as_unit("ns"), ok=True,
                   bucket=pd.Categorical(["success"] * len(ev)), g=pd.Categorical(ev["g"]),
                   duration=pd.to_timedelta(ev["seconds"], unit="s"))
    return bl.latency_profile(ev, thresholds=["1s", "3s"], by="g", freq="1D").shares


def test_the_coloured_groups_lie_over_one_grey_artist_a_threshold():
    ax = plot_latency_shares(_shares(), ax=plt.figure().gca())
    grey = [ln for ln in ax.lines if str(ln.get_gid()).endswith("/others")]
    named = [ln for ln in ax.lines if ln not in grey]
    # one grey artist a threshold, holding the three grey groups
    assert [ln.get_gid() for ln in grey] == ["within 1 s/others", "within 3 s/others"]
    assert [ln.get_label() for ln in grey] == ["other (3 groups) within 1 s",
                                               "other (3 groups) within 3 s"]
    # its points by hand, the groups in the order of their names (edge, g7, g8), a break
    # (NaN) after each: within 1 s 15/20 (edge's 1/1 too thin); 30/40, 36/40; 20/25, 25/25
    y = grey[0].get_ydata()
    assert np.isnan(y[[1, 4, 7]]).all()
    assert np.delete(y, [1, 4, 7]).tolist() == [75.0, 75.0, 90.0, 80.0, 100.0]
    assert np.delete(grey[1].get_ydata(), [1, 4, 7]).tolist() == [100.0] * 5
    # the six coloured groups, a line a threshold each, every one above the grey
    assert sorted({ln.get_label().rsplit(" within ", 1)[0] for ln in named}) == [
        f"g{k}" for k in range(1, 7)]
    assert len(named) == 12
    assert min(ln.get_zorder() for ln in named) > max(ln.get_zorder() for ln in grey)
    plt.close("all")


def test_a_thin_group_is_not_drawn_and_named_in_the_note():
    ax = plot_latency_shares(_shares(), ax=plt.figure().gca())
    drawn = np.concatenate([ln.get_ydata() for ln in ax.lines])
    assert not (drawn == 0.0).any()  # the thin group's 0 % shares: nowhere
    assert not any(":thin" in str(ln.get_gid()) for ln in ax.lines)
    note, = [t for t in ax.texts if t.get_gid() == "left_out"]
    assert note.get_text() == ("not drawn (shares of under 20 attempts in a period, too thin: "
                               "one attempt moves them by 5 points or more; every share of these "
                               "groups): thin")
    # the y range from the lowest share drawn (50 %), padded by 5 % of 50 .. 100 either side:
    # a thin 0 % no longer stretches it
    assert ax.get_ylim() == (47.5, 102.5)
    plt.close("all")


def test_a_thin_share_between_two_breaks_the_line_and_the_title_says_why():
    """Group a's 10 min periods hold 40, 3 and 40 attempts: the middle share (1 of 3 quick,
    33 %) is not drawn; the line breaks there (a NaN point at 00:10) and the legend's title
    says a break is a period without attempts or with too few to draw; the note says the rule
    and names no group (a keeps shares to draw)."""
    shares = pd.DataFrame({"g": pd.Categorical(["a"] * 3),
                           "period": pd.to_datetime(["2026-01-01 00:00", "2026-01-01 00:10",
                                                     "2026-01-01 00:20"], utc=True).as_unit("ns"),
                           "threshold": pd.Timedelta("1s"), "attempts": [40, 3, 40],
                           "good": [30, 1, 36], "share": [0.75, 1 / 3, 0.9],
                           "share_low": 0.1, "share_high": 1.0, "at_or_above_timeout": False})
    shares.attrs["freq"] = "10min"
    ax = plot_latency_shares(shares, ax=plt.figure().gca())
    line, = ax.lines
    y = line.get_ydata()
    assert y[[0, 2]].tolist() == [75.0, 90.0] and np.isnan(y[1])
    assert ax.get_legend().get_title().get_text() == (
        "a break in a line: periods without attempts, or too few to draw (no share drawn)")
    note, = [t for t in ax.texts if t.get_gid() == "left_out"]
    assert note.get_text() == ("not drawn: shares of under 20 attempts in a period, too thin: "
                               "one attempt moves them by 5 points or more")
    plt.close("all")


def test_three_weeks_of_hourly_periods_mark_every_32nd_point_staggered():
    """A stranger's 3-week log at freq="1h" drew 504 full-size nested markers a line: a carpet.
    One attempt every 2 min for 21 days, each a success within 2 s: 504 hourly periods of 30
    attempts, every share 100 % for both thresholds (the two lines meet everywhere). At most 16
    markers a line: one every ceil(504 / 16) = 32 periods, the first line's from period 0 (0, 32,
    .., 480: 16 markers), the second's from 32 // 2 = 16 (16, .., 496: 16 markers), side by side,
    so of one size (4.5 pt), nested nowhere; the legend's title says the spacing."""
    from budgetlab.plotting.latency import LINES_MEET

    ts = pd.date_range("2026-11-01", periods=21 * 720, freq="2min", tz="UTC").as_unit("ns")
    ev = pd.DataFrame({"ts": ts, "ok": True, "bucket": pd.Categorical(["success"] * len(ts)),
                       "duration": pd.Timedelta("2s")})
    shares = bl.latency_profile(ev, thresholds=["5s", "10s"], freq="1h").shares
    assert len(shares) == 2 * 504 and (shares["share"] == 1.0).all()
    ax = plot_latency_shares(shares, ax=plt.figure().gca())
    assert [len(line.get_xdata()) for line in ax.lines] == [504, 504]
    assert [line.get_markevery() for line in ax.lines] == [(0, 32), (16, 32)]
    assert [line.get_markersize() for line in ax.lines] == [4.5, 4.5]
    title = ax.get_legend().get_title().get_text()
    assert title == "a line's marker every 32 periods, each line's from its own"
    assert LINES_MEET not in title
    plt.close("all")
    # a day of those periods (24 points a line): a marker every 2nd, the lines 1 apart
    day = shares[shares["period"] < pd.Timestamp("2026-11-02", tz="UTC")]
    ax = plot_latency_shares(day, ax=plt.figure().gca(), freq="1h")
    assert [line.get_markevery() for line in ax.lines] == [(0, 2), (1, 2)]
    plt.close("all")
