"""The incident figure keys the shaded incident (``--start``/``--end``) on its bucket panels too
(``--plot``), in the words the other panels key it with ("incident"), after its layers, where
plot_buckets keys incidents, and under its title. Before, the bucket panel was shaded there
without a key: a reader could not tell what the band was.

Hand-built log: groups a and b, one event a minute each for 4 h from 2026-01-01 00:00, every
seventh event a failure (of each group in turn); the incident 01:00 .. 03:00; one SLO (one
bucket panel), then a per-group SLO of two targets (two bucket panels, each titled with what it
counts)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.dates as mdates  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.colors import to_rgba  # noqa: E402

import budgetlab as bl  # noqa: E402

pytestmark = pytest.mark.usefixtures("close_figures")

TS = pd.date_range("2026-01-01", periods=240, freq="1min", tz="UTC")
START, END = TS[60], TS[180]


def _events():
    return bl.as_events(TS.repeat(2), [i % 7 != 0 for i in range(480)],
                        groups={"kind": ["a", "b"] * 240})


def _num(t):
    return float(mdates.date2num(t.tz_convert(None).to_datetime64()))


def _bucket_panels(fig):
    return [a for a in fig.axes if "burn rate per" in a.get_ylabel()]


def _shade(ax):
    """The facecolour of the band shaded over exactly [START, END) on ``ax``."""
    (band,) = [p for p in ax.patches if p.get_gid() is None and hasattr(p, "get_width")
               and pytest.approx([_num(START), _num(END)]) == [p.get_x(),
                                                               p.get_x() + p.get_width()]]
    return band.get_facecolor()


@pytest.mark.parametrize("slo, titles", [
    (bl.SLO(0.9, "1h"), ["every group,\nby kind"]),
    (bl.PerGroup({"a": bl.SLO(0.99, "1h"), "b": bl.SLO(0.9, "1h")}),
     ["every group at target 0.99,\nby kind", "every group at target 0.9,\nby kind"]),
])
def test_each_bucket_panel_keys_the_shaded_incident(slo, titles):
    rep = bl.incident_report(_events(), slo, START, END, by="kind")
    fig = rep.plot()
    panels = _bucket_panels(fig)
    assert len(panels) == len(titles)
    for ax, title in zip(panels, titles, strict=True):
        legend = ax.get_legend()
        words = [t.get_text() for t in legend.get_texts()]
        # after the layers (a failure layer per group drawn), where plot_buckets keys the
        # incidents it shades
        assert [w.split(" · ")[0] for w in words] == ["failure"] * (len(words) - 1) + ["incident"]
        assert legend.get_title().get_text() == title  # the title it had, kept
        key = legend.legend_handles[-1]
        assert to_rgba(key.get_facecolor()) == pytest.approx(to_rgba(_shade(ax)))
