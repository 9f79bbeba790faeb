"""``alerts --plot`` with several policies (``cli.alert_figure.plot_policies``, which ``backtest
--plot`` draws too): the shared time axis is labelled once, under the bottom chart, and each
chart is as tall as the rows it draws (0.32 in a row, 1.2 in a chart, 0.6 in for the dates), so
that a chart of 25 rows is not squeezed into the height of one of 7."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import pandas as pd
import pytest

import budgetlab._util.figures as figures
from budgetlab.cli import main

_REAL = figures.figure_bytes  # not the wrapper a previous run put in its place


def _run(tmp_path, monkeypatch, regions):
    # 2 h of minutes per region; every region fails minutes 30..39 (an episode each: every region
    # gets its rows; a region without an alert would be named in the legend instead)
    ts = pd.date_range("2026-01-01", periods=120, freq="1min", tz="UTC")
    log = tmp_path / "log.csv"
    pd.DataFrame({
        "ts": list(ts) * len(regions),
        "outcome": ["error" if 30 <= i < 40 else "success"
                    for r in regions for i in range(120)],
        "region": [r for r in regions for _ in range(120)],
    }).to_csv(log, index=False)
    inc = tmp_path / "incidents.csv"
    pd.DataFrame({"incident_id": ["i1"], "start": ["2026-01-01T00:30:00Z"],
                  "end": ["2026-01-01T00:40:00Z"]}).to_csv(inc, index=False)
    seen = {}

    def keep(fig, path, **kw):
        fig.canvas.draw()
        axes = sorted(fig.axes, key=lambda a: -a.get_position().y0)  # top to bottom
        seen["height"] = fig.get_figheight()
        seen["xlabels"] = [a.get_xlabel() for a in axes]
        seen["dates"] = [sum(bool(t.get_visible() and t.get_text()) for t in a.get_xticklabels())
                         for a in axes]
        seen["rows"] = [len(a.get_yticks()) for a in axes]
        seen["row_in"] = [a.get_window_extent().height / fig.dpi / len(a.get_yticks())
                          for a in axes]
        return _REAL(fig, path, **kw)

    monkeypatch.setattr(figures, "figure_bytes", keep)
    out = tmp_path / f"alerts{len(regions)}.png"
    assert main(["alerts", str(log), "--by", "region", "--incidents", str(inc), "--policy",
                 "workbook,single_window", "--plot", str(out)]) == 0
    assert out.exists()
    return seen


def test_one_time_label_and_a_height_from_the_rows_drawn(tmp_path, monkeypatch):
    two = _run(tmp_path, monkeypatch, ["fra", "ams"])
    # the time axis is labelled once, its dates written once, under the bottom chart
    assert two["xlabels"] == ["", "time (UTC)"]
    assert two["dates"][0] == 0 and two["dates"][1] > 0
    # rows by hand: workbook has 4 tiers (page_1h, page_6h, ticket_1d, ticket_3d), single_window
    # one (page_1h); each in both regions, plus the incident row
    assert two["rows"] == [4 * 2 + 1, 1 * 2 + 1]
    assert two["height"] == pytest.approx(0.6 + (1.2 + 0.32 * 9) + (1.2 + 0.32 * 3))
    # every row as high in one chart as in the other (constrained layout, height ratios 9:3)
    assert two["row_in"][0] == pytest.approx(two["row_in"][1], rel=0.02)
    assert min(two["row_in"]) >= 0.32  # a row is never squeezed below its share

    three = _run(tmp_path, monkeypatch, ["fra", "ams", "lhr"])
    assert three["rows"] == [4 * 3 + 1, 1 * 3 + 1]
    # five rows more (four workbook tiers and one single_window tier of the third region)
    assert three["height"] == pytest.approx(two["height"] + 0.32 * 5)
    assert three["row_in"][0] == pytest.approx(three["row_in"][1], rel=0.02)
    assert min(three["row_in"]) >= 0.32


def test_rows_beyond_the_tallest_figure_are_drawn_thinner_and_said_so():
    from budgetlab.cli.alert_figure import panel_heights

    # 2,000 rows at 0.32 in would be 641.8 in; the figure stays 500 in: (500 - 0.6 - 1.2) / 2000
    (height,), note = panel_heights([2000])
    assert height == pytest.approx(500 - 0.6)
    assert note == ("the plot's 2,000 rows are drawn 0.78 times their height for the figure to "
                    "stay 500 in high; their labels may overlap")
    assert panel_heights([9, 3]) == ([pytest.approx(4.08), pytest.approx(2.16)], "")


def test_notebook_02s_figure_counts_the_rows_of_the_groups_with_an_alert_only():
    """Notebook 02 draws its policies with ``policy_figure`` (as ``alerts --plot``): fra fails
    minutes 30..39 of 2 h, ams never. Rows by hand: fra's tiers only (workbook 4, single_window
    1; ams is named in the legend), so 0.6 + (1.2 + 0.32 * 4) + (1.2 + 0.32 * 1) = 4.6 in high;
    the notebook's own sizing gave every panel all groups' rows (3 + 1.2 * 2 * 2 = 7.8 in)."""
    import matplotlib.pyplot as plt

    from budgetlab import alert_episodes, as_events, bin_events
    from budgetlab.cli.alert_figure import policy_figure

    ts = pd.date_range("2026-01-01", periods=120, freq="1min", tz="UTC")
    ok = [not (30 <= i < 40) for i in range(120)] + [True] * 120
    regions = {"region": ["fra"] * 120 + ["ams"] * 120}
    bins = bin_events(as_events(ts.append(ts), ok, groups=regions), "1min", by=["region"])
    episodes = {name: alert_episodes(bins, 0.99, name) for name in ["workbook", "single_window"]}
    fig, note = policy_figure(episodes, None, groups=bins, width=11)
    assert note == ""
    assert fig.get_size_inches() == pytest.approx((11, 4.6))
    assert [[t.get_text() for t in ax.get_yticklabels()] for ax in fig.axes] == [
        ["fra · page_1h (page)", "fra · page_6h (page)", "fra · ticket_1d (ticket)",
         "fra · ticket_3d (ticket)"], ["fra · page_1h (page)"]]
    plt.close(fig)
