"""Notebook 02's "Flapping against reaction time" figure has the size and layout of
``compare-windows --plot``'s (a stranger's HTML showed its status-changes panel about 110 px tall
under a figure title, its y label wrapped over 7 lines): the notebook's figure cell, run on a
small table, against the figure the command saves (budgetlab.cli.shared.save_plot, the
command's own drawing call) of the same table."""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import nbformat
import pandas as pd
import pytest

import budgetlab
import budgetlab as bl
from budgetlab import SLO, as_events, compare_windows
from budgetlab.cli.shared import save_plot

ROOT = Path(budgetlab.__file__).resolve().parents[1]
NOTEBOOK = ROOT / "budgetlab" / "notebooks" / "02_window_length.ipynb"


def _table() -> pd.DataFrame:
    ts = pd.date_range("2026-01-01", periods=2 * 1440, freq="1min")
    ok = [i % 9 != 0 for i in range(len(ts))]
    return compare_windows(as_events(ts, ok), SLO(target=0.9), ["30min", "2h", "calendar:day"])


def _figure_lines() -> str:
    """The figure lines of the notebook's comparison cell: from its plt.subplots to its
    plt.show (the show left out: the figure is measured here)."""
    nb = nbformat.read(NOTEBOOK, as_version=4)
    (cell,) = [c for c in nb.cells if c.cell_type == "code"
               and "plot_window_comparison" in c.source]
    lines = cell.source.splitlines()
    first = next(i for i, x in enumerate(lines) if "plt.subplots" in x)
    last = next(i for i, x in enumerate(lines) if x.strip() == "plt.show()")
    return "\n".join(lines[first:last])


def _top_panel_inches(fig) -> float:
    fig.canvas.draw()
    return fig.axes[0].get_position().height * fig.get_size_inches()[1]


def test_the_comparison_figure_has_the_commands_size_and_layout(tmp_path):
    table = _table()
    seen = {}

    def draw(ax):
        bl.plotting.plot_window_comparison(table, ax=ax)
        seen["size"] = tuple(ax.figure.get_size_inches())
        seen["fig"] = ax.figure

    save_plot(draw, str(tmp_path / "cli.png"), force=False)
    cli_top = _top_panel_inches(seen["fig"])
    space = {"plt": plt, "bl": bl, "table": table, "windows": "30min,2h,calendar:day"}
    exec(_figure_lines(), space)  # the notebook's own lines
    fig = space["fig"]
    try:
        assert tuple(fig.get_size_inches()) == seen["size"]
        assert fig.get_suptitle() == ""  # the command's figure has no title above its legend
        assert _top_panel_inches(fig) == pytest.approx(cli_top, rel=0.1)
    finally:
        plt.close("all")
