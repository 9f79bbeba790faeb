"""``backtest --plot``: its stacked alert charts (``cli.alert_figure.plot_policies``)."""

from __future__ import annotations

import pandas as pd

import budgetlab._util.figures as bfiles
from budgetlab import AlertPolicy, alert_episodes, as_events, bin_events
from budgetlab.cli.alert_figure import plot_policies


def test_shared_time_axis_is_labelled_once_under_the_bottom_chart(tmp_path, monkeypatch):
    # two policies over the same 2 h of minute bins: two panels on one time axis
    ts = pd.date_range("2026-01-01", periods=120, freq="1min", tz="UTC")
    bins = bin_events(as_events(ts, [not (30 <= i < 40) for i in range(120)]), "1min")
    episodes = {name: alert_episodes(bins, 0.9, AlertPolicy.single_window(w, burn=4.5))
                for name, w in (("short", "10min"), ("long", "30min"))}
    seen: list[list[tuple[float, str, int]]] = []
    real = bfiles.figure_bytes

    def keep(fig, path, **kw):
        fig.canvas.draw()
        seen.append([(a.get_position().y0, a.get_xlabel(),
                      sum(bool(t.get_visible() and t.get_text()) for t in a.get_xticklabels()))
                     for a in fig.axes])
        return real(fig, path, **kw)

    monkeypatch.setattr(bfiles, "figure_bytes", keep)
    plot_policies(tmp_path / "t.png", episodes, None, force=False)
    ((upper, bottom),) = [sorted(axes, reverse=True) for axes in seen]
    assert upper[0] > bottom[0]  # sorted top to bottom
    assert upper[1] == "" and bottom[1] == "time (UTC)"
    assert upper[2] == 0 and bottom[2] > 0  # the dates are read under the bottom chart only
