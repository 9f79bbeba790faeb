"""The names of the alert chart's incidents never run into each other: ``alerts --plot`` wrote
"I05 (captcha_type=turnstile: no row)" over "I06". A scope without a row is now said in the
legend by id, and the names are laid out in lanes of the incident row when drawn. The oracle:
after ``fig.canvas.draw()``, the names' extents, each beside its own bar's end (its pixel from
the incident's end time) and inside the incident row (its pixels from the row's edges)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.dates as mdates
import matplotlib.pyplot as plt
import pandas as pd
import pytest

from budgetlab import AlertPolicy, alert_episodes, as_events, bin_events
from budgetlab.cli.alert_figure import policy_figure
from budgetlab.plotting import plot_alerts

pytestmark = pytest.mark.usefixtures("close_figures")

T0 = pd.Timestamp("2026-01-01", tz="UTC")


def _episodes():
    """Two hours of one-minute bins of two regions, both failing from minute 30 to 39: rows ams
    (0), fra (1), the incident row (2)."""
    ts = pd.date_range("2026-01-01", periods=120, freq="1min")
    ok = [not (30 <= i // 2 < 40) for i in range(240)]
    b = bin_events(as_events(ts.repeat(2), ok, groups={"region": ["fra", "ams"] * 120}), "1min",
                   by=["region"])
    return alert_episodes(b, 0.9, AlertPolicy.single_window("10min", burn=4.5)), b[["region"]]


def _incidents(spans, scopes=None):
    """Incidents ``I01`` .. from ``spans`` (minutes from the start), unscoped unless given."""
    return pd.DataFrame({"incident_id": [f"I{i + 1:02d}" for i in range(len(spans))],
                         "start": [T0 + pd.Timedelta(minutes=a) for a, _ in spans],
                         "end": [T0 + pd.Timedelta(minutes=b) for _, b in spans],
                         "scope": scopes or ["*"] * len(spans)})


def _check(fig, ax, inc):
    """The visible names after drawing: pairwise apart, each right of its own bar's end (the
    incidents here end before the axis' last tenth) and within the incident row."""
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    names = [t for t in ax.texts if t.get_gid() == "incident_name" and t.get_visible()]
    boxes = {t.get_text(): t.get_window_extent(r) for t in names}
    assert len(boxes) == len(names)
    for i, (a, box) in enumerate(boxes.items()):
        for b, other in list(boxes.items())[i + 1:]:
            assert not box.overlaps(other), (a, b)
    ends = dict(zip(inc["incident_id"], inc["end"], strict=True))
    row = len(ax.get_yticks()) - 1
    top, foot = sorted(ax.transData.transform([(0, row - 0.5), (0, row + 0.5)])[:, 1])
    for iid, box in boxes.items():
        end = mdates.date2num(ends[iid].tz_localize(None))
        assert box.x0 >= ax.transData.transform((end, 0))[0], iid  # beside its end
        assert top - 1 <= box.y0 and box.y1 <= foot + 1, iid  # in the incident row
    return boxes


def test_a_scope_without_a_row_is_said_in_the_legend_not_in_the_name():
    """I01's scope (region=xyz) has no row; its name once ran ~110 pixels over I02's."""
    ep, groups = _episodes()
    inc = _incidents([(50, 60), (65, 70), (100, 105)], ["region=xyz", "*", "region=fra"])
    fig, ax = plt.subplots(figsize=(10, 4))
    plot_alerts(ep, incidents=inc, ax=ax, groups=groups)
    boxes = _check(fig, ax, inc)
    assert set(boxes) == {"I01", "I02", "I03"}  # every name drawn
    texts = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "no row for the scope of\nI01: region=xyz" in texts


@pytest.mark.parametrize("step", [120, 45])
def test_many_close_incidents_are_named_apart(step):
    """Fifteen incidents, one every ``step`` seconds, on the constrained figure of ``alerts
    --plot`` (whose layout narrows the axes when drawn, after plotting): some 8 pixels a
    minute, so names ~15 pixels wide 16 or 6 pixels apart cannot share one lane."""
    ep, groups = _episodes()
    spans = [((20 * 60 + step * i) / 60, (20 * 60 + step * i + step / 2) / 60) for i in range(15)]
    inc = _incidents(spans)
    fig, _ = policy_figure({"p": ep}, inc, groups=groups, width=12)
    ax = fig.axes[0]
    boxes = _check(fig, ax, inc)
    assert len({round(b.y0) for b in boxes.values()}) >= 2  # in two lanes at least
    if step == 120:  # every other name in one lane, 32 pixels apart: all drawn
        assert len(boxes) == 15
    else:  # names 6 px apart, 3 lanes at least: one name in three, or more, drawn
        assert len(boxes) >= 5
