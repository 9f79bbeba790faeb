"""What the axes and marks of the figures read, checked on the artists against hand-computed
values: rate and percent ticks without an offset, a trade-off axis ticked past its highest point,
an incident shaded in the rows of its scope, band names that never print over each other, date
axes of several days without the last day's date alone at their end, the replay figure as wide
as its legends."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.dates as mdates
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import pytest

import budgetlab as bl
from budgetlab import SLO, AlertPolicy, alert_episodes, as_events, bin_events
from budgetlab.plotting import (
    plot_alerts,
    plot_buckets,
    plot_daily_success,
    plot_timeline,
    plot_timeout_tradeoff,
)

T0 = pd.Timestamp("2015-05-17 10:00", tz="UTC")


def test_a_full_success_rate_axis_reads_its_own_values():
    """A group at 100 % under a 99.99 % target (the Elastic log's HEAD): the success panel spans
    99.99 .. 100 padded by 8 % of 0.01 (99.9892 .. 100.0008). matplotlib ticked it 0.001 ..
    0.010 under an offset ``+9.999e1`` (read: 0.01 %); the ticks now read the values
    themselves, every 0.003, told apart by three decimals."""
    ev = as_events(T0 + pd.to_timedelta(np.arange(180), unit="min"), [True] * 180)
    slo = SLO(target=0.9999, window="1h")
    fig, ax = plt.subplots(figsize=(10, 6))
    plot_timeline(bl.replay(ev, slo), slo=slo, ax=ax)
    fig.canvas.draw()
    lo, hi = ax.get_ylim()
    assert (lo, hi) == pytest.approx((99.9892, 100.0008))
    shown = [t for t in ax.yaxis.get_major_ticks() if lo <= t.get_loc() <= hi]
    assert [t.label1.get_text() for t in shown] == ["99.991", "99.994", "99.997", "100.000"]
    assert ax.yaxis.get_offset_text().get_text() == ""
    for panel in ax.panels:  # no panel writes a number apart from its ticks
        assert panel.yaxis.get_offset_text().get_text() == ""
    plt.close(fig)


def test_a_daily_success_axis_reads_its_own_values_and_ticks_the_first_day():
    """Four days from 2015-05-17 (UTC) at 99.99 .. 100 %: the y ticks read the rates (no offset),
    and the x axis runs from May 17 00:00 to May 21 00:00, the first day ticked (its points at
    noon lay right of the axis' start: no tick, no label for it) and naming the year, with no
    date written apart at the axis' end."""
    days = pd.date_range("2015-05-17", periods=4, freq="D", tz="UTC")
    rate = np.array([1.0, 0.9999, 0.99995, 1.0])
    daily = pd.DataFrame({"day": days, "total": [10_000] * 4, "good": rate * 10_000,
                          "success_rate": rate, "ci_low": rate, "ci_high": rate,
                          "full_day": [True] * 4})
    fig, ax = plt.subplots(figsize=(11, 4.2))
    plot_daily_success(daily, ax=ax)
    fig.canvas.draw()
    assert ax.get_xlim() == pytest.approx(mdates.date2num(pd.to_datetime(
        ["2015-05-17", "2015-05-21"]).to_numpy()))
    assert [t.get_text() for t in ax.get_xticklabels()] == ["May-17\n2015", "18", "19", "20",
                                                            "21"]
    assert ax.xaxis.get_offset_text().get_text() == ""
    lo, hi = ax.get_ylim()
    for tick in ax.yaxis.get_major_ticks():
        if lo <= tick.get_loc() <= hi:
            assert float(tick.label1.get_text()) == pytest.approx(tick.get_loc(), abs=1e-9)
    assert ax.yaxis.get_offset_text().get_text() == ""
    plt.close(fig)


def test_the_tradeoff_waiting_axis_has_a_tick_at_or_above_its_highest_point():
    """Successes of 0.5 s and 1.36 s and a timeout at 4 s (the current timeout), weighed at 1 s:
    the timeout waits 3 s less and the 1.36 s success 0.36 s less, (3 + 0.36) / 3 = 1.12 s saved
    per attempt. The right axis was ticked 0 .. 1.0 (a point at 1.12 over no tick); now up to
    1.2, the first tick at or above 1.12, none beyond it."""
    ev = pd.DataFrame({"ts": pd.to_datetime(["2026-01-01"] * 3, utc=True).as_unit("ns"),
                       "ok": [True, True, False],
                       "bucket": pd.Categorical(["success", "success", "timeout"]),
                       "duration": pd.to_timedelta([0.5, 1.36, 4], unit="s")})
    fig, ax = plt.subplots()
    plot_timeout_tradeoff(bl.timeout_tradeoff(ev, timeouts=["1s", "4s"]), ax=ax)
    right = [a for a in fig.axes if a is not ax][0]
    assert right.lines[0].get_ydata()[0] == pytest.approx(1.12)
    ticks = right.get_yticks()
    assert ticks.tolist() == pytest.approx([0.0, 0.2, 0.4, 0.6, 0.8, 1.0, 1.2])
    assert right.get_ylim()[1] >= ticks[-1]
    fig.canvas.draw()
    assert [t.get_text() for t in right.get_yticklabels()][-1] == "1.2"
    plt.close(fig)


def _two_regions_alerting():
    """One-minute bins over two hours of two regions, both failing from minute 30 to 39: one
    tier (page_10m), so the chart's rows are ams (0), fra (1) and the incident row (2)."""
    ts = pd.date_range("2026-01-01", periods=120, freq="1min")
    ok = [not (30 <= i // 2 < 40) for i in range(240)]
    b = bin_events(as_events(ts.repeat(2), ok, groups={"region": ["fra", "ams"] * 120}), "1min",
                   by=["region"])
    return alert_episodes(b, 0.9, AlertPolicy.single_window("10min", burn=4.5)), b


def test_a_scoped_incident_is_shaded_in_the_rows_of_its_scope_only():
    """I1 (region=fra) is shaded over fra's row and the incident row (y 0.5 .. 2.7, the axis'
    foot at 2.7), not over ams' row; I2 (region=xyz: no group, no row) on the incident row only
    (1.5 .. 2.7) and said so in the legend; I3 (no scope) over every row (-0.7 .. 2.7). Each
    name sits right of its bar's end, not over its hatching."""
    ep, b = _two_regions_alerting()
    inc = pd.DataFrame({"incident_id": ["I1", "I2", "I3"],
                        "start": pd.to_datetime(["2026-01-01 00:20", "2026-01-01 01:00",
                                                 "2026-01-01 00:40"], utc=True),
                        "end": pd.to_datetime(["2026-01-01 00:35", "2026-01-01 01:10",
                                               "2026-01-01 00:50"], utc=True),
                        "scope": ["region=fra", "region=xyz", None]})
    fig, ax = plt.subplots(figsize=(10, 4))
    plot_alerts(ep, incidents=inc, ax=ax, groups=b[["region"]])
    assert [t.get_text() for t in ax.get_yticklabels()] == [
        "ams · page_10m (page)", "fra · page_10m (page)", "incidents"]
    shaded = [p for p in ax.patches if p.get_gid() == "incident"]
    x = {iid: mdates.date2num(inc.loc[i, ["start", "end"]].dt.tz_localize(None).to_numpy())
         for i, iid in enumerate(inc["incident_id"])}
    spans = sorted((round(p.get_x(), 9), p.get_y(), p.get_y() + p.get_height()) for p in shaded)
    assert spans == sorted([(round(x["I1"][0], 9), 0.5, 2.7), (round(x["I2"][0], 9), 1.5, 2.7),
                            (round(x["I3"][0], 9), -0.7, 2.7)])
    names = {t.get_text(): t for t in ax.texts if t.get_gid() == "incident_name"}
    assert set(names) == {"I1", "I2", "I3"}  # I2's missing row said in the legend
    assert "no row for the scope of\nI2: region=xyz" in [
        t.get_text() for t in ax.get_legend().get_texts()]
    for iid in ("I1", "I3"):
        assert names[iid].xy[0] == pytest.approx(x[iid][1])  # beside the end
    plt.close(fig)


def test_band_names_close_together_share_one_label():
    """A bin of 10 events with 1 timeout under a 99.99 % target burns 0.1 / 0.0001 = 1000: the
    y axis runs to 1080, and burn 1, 2 and 5 lie within a pixel or two of each other. Their three
    names printed over each other; now one, ``burn 1, 2, 5``, beside them."""
    ts = T0 + pd.to_timedelta(np.arange(10) * 60, unit="s")
    ev = as_events(ts, [True] * 9 + [False], np.array(["success"] * 9 + ["timeout"]))
    fig, ax = plt.subplots(figsize=(8, 3))
    plot_buckets(bl.bucket_burn_over_time(ev, SLO(target=0.9999), freq="1h"), ax=ax)
    assert ax.get_ylim()[1] == pytest.approx(1080)
    fig.canvas.draw()
    labels = [t for t in ax.texts if t.get_gid() == "band_label"]
    assert [t.get_text() for t in labels] == ["burn 1, 2, 5"]
    boxes = [t.get_window_extent() for t in labels]
    assert not any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1:])
    plt.close(fig)


def test_the_replay_figure_ends_just_right_of_its_legends(tmp_path, monkeypatch):
    """loghub's OpenSSH sample, one group: the figure was 13 inches wide with room for the
    fullest legends (3.9 inches right of the panels) and its fewer entries left about 2 inches
    blank; now its right edge lies 0.2 inch right of the rightmost legend."""
    import budgetlab._util.figures as figures
    from budgetlab.cli import main

    seen = []
    real = figures.figure_bytes

    def keep(fig, path, **kw):
        fig.canvas.draw()
        ends = [a.get_legend().get_window_extent().x1 for a in fig.axes
                if a.get_legend() is not None]
        seen.append((fig.get_figwidth(), max(ends) / fig.dpi))
        return real(fig, path, **kw)

    monkeypatch.setattr(figures, "figure_bytes", keep)
    log = Path(__file__).parents[1] / "fixtures" / "loghub" / "openssh_300.log"
    assert main(["replay", str(log), "--preset", "sshd", "--year", "2026", "--plot",
                 str(tmp_path / "s.png")]) == 0
    ((width, legend_end),) = seen
    assert width < 13.0
    assert width - legend_end == pytest.approx(0.2, abs=0.01)
